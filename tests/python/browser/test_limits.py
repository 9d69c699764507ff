"""Tests for pelab.browser.limits: the limits several demos share fit the page's largest requests.
"""

import pytest

from pelab.browser.demos.learned import MAX_COMPARE_WORK
from pelab.browser.entry_points import call
from pelab.browser.limits import MAX_WORK

pytestmark = pytest.mark.blas_numeric

def test_work_limits():
    assert MAX_WORK == 2**26 and MAX_COMPARE_WORK == 2**24
    # The page's largest requests fit.
    call("extrapolation", {"d_model": 64, "base": 10000.0, "train_len": 512, "seq_len": 1024})
    call("similarity", {"seq_len": 256, "d_model": 256, "base": 10000.0, "pos": 255})
    call("learned", {"seq_len": 128, "d_model": 64, "max_len": 128, "base": 10000.0})

