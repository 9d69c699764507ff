"""Tests for pelab.checks: every argument check of the package, once. The checks' behaviour is
tested through the functions that use them (their ValueErrors, in each module's tests and in
test_fuzz.py); here, their own examples."""

import doctest
import importlib

checks_module = importlib.import_module("pelab.checks")


def test_docstring_examples_hold():
    result = doctest.testmod(checks_module)
    assert result.failed == 0 and result.attempted > 0
