"""``python -m exactdp``: the same command line as ``exactdp``."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
