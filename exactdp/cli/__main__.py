"""``python -m exactdp.cli``: the same command line as ``exactdp``."""

import sys

from ._app import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
