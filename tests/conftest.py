"""Shared set-up of the test suite (see tests/README.md for where a test goes and the markers).

Every folder of ``tests/`` is a package (``tests.exact.test_level`` ...), so equal file names in different folders
do not collide, and the repository root goes first on ``sys.path`` so that the ``exactdp`` of this checkout is the
one tested.  Helpers shared by several test files live in ``tests/_support/`` (not a package: it is put on
``sys.path`` here, so a test imports them as ``from _approx_brute import ...``).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUPPORT = os.path.join(ROOT, "tests", "_support")
for _path in (SUPPORT, ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
