"""What every test layer shares: the paths, and the test folders on sys.path.

tests/python/  pelab under CPython        tests/build/  build.py and what it writes
tests/browser/ the built site in Chromium tests/js/     the page's pure modules, under Node

Test modules import shared code by module name (`from pages import poll`, `from site_server
import served`), never from a conftest, of which there are two.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
for folder in (ROOT, TESTS, TESTS / "python", TESTS / "browser", TESTS / "build"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def pytest_collection_modifyitems(items):
    """The BLAS rerun first: it is the longest single test (minutes), and a test the workers of
    `build.py test` (pytest-xdist) start last would keep one worker busy after the other is done."""
    items.sort(key=lambda item: item.path.name != "test_blas_kernels.py")
