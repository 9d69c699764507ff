"""The fuzzing machinery the fuzz tests share (hypothesis): how a call is judged, the junk every
parameter gets, the valid sizes and bases, and the checks of a result's dtype and shape.

Not a test module (test modules import from none other): tests/python/test_fuzz.py fuzzes
pelab's public functions with it, and each demo's tests/python/browser/demos/test_NAME_entry.py
its entry points.

A fuzz spec (``Spec``) says how to call a function, what valid arguments look like, which junk
each parameter gets, and how to check an accepted result. For every example, the property is:

* the call returns a result of the documented shape and dtype (finite where documented), or
* it raises ValueError whose message names the offending parameter, or IndexError/TypeError;
* never anything else: no OverflowError, ZeroDivisionError, MemoryError, LinAlgError, and no
  warning (every call runs with warnings turned into errors).

Each example is one of three modes (``draw_case``): all arguments valid; valid but for one junk
argument (a ValueError must then name that parameter, or one whose check depends on it); or
several junk arguments (a ValueError must name one of them).
"""

from __future__ import annotations

import decimal
import fractions
import inspect
import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pelab.browser import entry_points
from pelab.checks import MAX_D_MODEL
from pelab.score_terms import MAX_TERMS_WIDTH

FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,  # write no .hypothesis/ directory into the repository
)
# For the simpler properties, fewer examples keep the run short.
FUZZ_LIGHT = settings(FUZZ, max_examples=25)


# ---------------------------------------------------------------------------
# Calling a function and judging what it did
# ---------------------------------------------------------------------------


class Refused(Exception):
    """Wraps an allowed exception raised by the function under test."""

    def __init__(self, error):
        super().__init__(error)
        self.error = error


def attempt(function, kwargs):
    """``function(**kwargs)`` with every warning turned into an error.

    Returns the result, or raises Refused(error) for ValueError, IndexError or TypeError; any
    other exception (or warning) propagates and fails the test.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return function(**kwargs)
        except (ValueError, IndexError, TypeError) as error:
            raise Refused(error) from error


def names_any(message, names):
    """Whether ``message`` names one of ``names`` as a word (``x`` but not ``max``)."""
    return any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message) for name in names)


def judge(spec, kwargs, bad):
    """Call ``spec`` with ``kwargs``; ``bad`` lists the parameters given junk values.

    A success is checked with ``spec.check``. A ValueError must name a parameter in ``bad``
    (or one whose check depends on it, ``spec.related``); with no junk at all, any exception
    is a failure.
    """
    try:
        result = attempt(spec.function, kwargs)
    except Refused as refused:
        error = refused.error
        message = str(error)
        assert bad, f"valid arguments refused: {type(error).__name__}: {message}"
        if isinstance(error, ValueError):
            allowed = set(bad)
            for name in bad:
                allowed |= spec.related.get(name, set())
            assert names_any(message, allowed), (
                f"ValueError does not name any of {sorted(allowed)}: {message!r}"
            )
        elif isinstance(error, IndexError):
            assert spec.index_error, f"undocumented IndexError: {message}"
            assert "position" in message, message
        return None
    spec.check(kwargs, result)
    return result


# ---------------------------------------------------------------------------
# Strategies: junk of every kind
# ---------------------------------------------------------------------------

MARKUP = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "{{7*7}}",
    "${7*7}",
    "'; DROP TABLE cells; --",
]
ODD_STRINGS = MARKUP + [
    "", " ", "\t\n", "4", "64", "10000", "4.0", "-1", "nan", "inf", "1e400", "True", "None",
    "😀", "🐕 bites 👨", "\x00", "\ud800", "\u200b", "e\u0301", "…", "--", "...",
]
HUGE_INTS = [10**400, -(10**400), 2**1024]  # beyond the float range
BIG_INTS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63) - 1, 10**9, -(10**9),
            10**18, 10**30]
SPECIAL_FLOATS = [math.nan, math.inf, -math.inf, -0.0, 0.0, 5e-324, 2.2250738585072014e-308,
                  1e-300, 1.0, 1.0000000000000002, 4.0, 2.5, -2.5, 1e16, 1e300,
                  1.7976931348623157e308]
NUMPY_SCALARS = [
    np.int8(-1), np.int8(4), np.uint8(255), np.int16(3), np.int32(-7), np.int64(2**62),
    np.uint64(2**64 - 1), np.uint64(3), np.float16(2.5), np.float32(math.nan), np.float32(3.0),
    np.float64(math.inf), np.float64(-0.0), np.float64(1e308), np.bool_(True), np.bool_(False),
    np.longdouble(2.5),
]
NUMPY_COMPLEX = [np.complex128(1 + 2j), np.complex64(3)]
NUMPY_STRINGS = [np.str_("4"), np.str_("dog"), np.bytes_(b"4")]
OTHER_OBJECTS = [
    object(), print, type, Ellipsis, NotImplemented, fractions.Fraction(3, 2),
    fractions.Fraction(-1, 3), decimal.Decimal("2.5"), decimal.Decimal("NaN"), 1 + 2j,
    complex(math.nan, 0), {}, {"a": 1}, {0: 1}, set(), {0, 1}, frozenset({1}), (), (0,), (1, 0),
    range(0), range(3), range(-2, 2), b"", b"4", bytearray(b"ab"), slice(0, 2),
]


class OneShot:
    """A one-shot iterator over ``items`` (fresh for each example), which remembers them."""

    def __init__(self, items):
        self.items = list(items)
        self._iterator = iter(self.items)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iterator)

    def __repr__(self):
        return f"OneShot({self.items!r})"


def items_of(value):
    """The items of an iterable argument, without consuming a OneShot."""
    return value.items if isinstance(value, OneShot) else list(value)


def any_ints():
    # No medium values (a few thousand): some are valid sizes whose work is large (a 5000 x 5000
    # score matrix). Out-of-range values near the limits come from size_junk's edges.
    return st.one_of(
        st.integers(-5, 70), st.sampled_from(BIG_INTS), st.integers(min_value=2**31),
        st.integers(max_value=-(2**31)),
    )


# Entries of array-likes stay below this magnitude in the general fuzzing: products of larger
# finite numbers overflow as IEEE arithmetic says they must (similarity([[1e200]]) has an
# infinite dot product). test_extreme_finite_entries covers them separately.
MODERATE = 1e50


def any_floats(huge=True):
    if huge:
        return st.one_of(st.floats(), st.sampled_from(SPECIAL_FLOATS), st.floats(-1e6, 1e6))
    return st.one_of(st.floats(-MODERATE, MODERATE),
                     st.sampled_from([v for v in SPECIAL_FLOATS if not abs(v) > MODERATE]
                                     + [math.nan, math.inf, -math.inf]))


def _element(huge_floats=True):
    """One item of a junk list (never a container)."""
    return st.one_of(any_ints(), any_floats(huge_floats), st.booleans(), st.none(),
                     st.sampled_from(ODD_STRINGS), st.sampled_from(HUGE_INTS))


def _arrays(huge_floats=True):
    """numpy arrays of odd shapes (0-d, empty, 1-D to 4-D) and dtypes."""
    dtypes = [np.float32, np.float16, np.int64, np.int8, np.uint8, np.uint64, np.bool_,
              np.complex128]
    shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
    shaped = st.one_of(
        hnp.arrays(dtype=st.sampled_from(dtypes), shape=shapes),
        hnp.arrays(dtype=np.float64, shape=shapes, elements=any_floats(huge_floats)),
    )
    fixed = [np.zeros(()), np.zeros((0,)), np.zeros((0, 3)), np.zeros((3, 0)), np.ones((2, 3, 4)),
             np.ones((1, 1)), np.array([math.nan]), np.array([[math.inf, 1.0]]),
             np.array([1, None, 2.5], dtype=object), np.ones((2, 2))[:, ::-1], np.arange(6.0)[::2],
             np.array(["a", "b"]), np.array([[b"1"]]), np.array([1, "a"], dtype=object),
             np.array([1 + 2j]), np.array([[1j, 0]]), np.array([[np.complex128(1j)]], dtype=object),
             np.array([10**400], dtype=object)]
    return st.one_of(shaped, st.sampled_from(fixed))


def _junk(huge_floats=True):
    """Anything at all: strings, ragged lists, ints beyond the float range, complex numbers,
    one-shot iterators... Only huge_floats=False leaves something out: entries that overflow
    in arithmetic for a reason (see MODERATE)."""
    element = _element(huge_floats=huge_floats)
    options = [
        element,
        st.sampled_from(OTHER_OBJECTS),
        st.sampled_from(NUMPY_SCALARS),
        st.lists(element, max_size=5),
        st.lists(st.lists(element, min_size=2, max_size=2), min_size=1, max_size=3),
        st.lists(st.integers(-3, 8), max_size=6).map(tuple),
        st.dictionaries(st.text(max_size=3), element, max_size=2),
        _arrays(huge_floats=huge_floats),
        st.text(max_size=12),
        st.sampled_from(NUMPY_STRINGS),
        st.sampled_from([[[1.0], [1.0, 2.0]], [1, [2]], [[1, 2], 3], [[[]]], [[]]]),  # ragged
        st.sampled_from(NUMPY_COMPLEX),
        st.builds(OneShot, st.lists(st.integers(-1, 4), max_size=4)),
    ]
    return st.one_of(*options)


JUNK = _junk()
# Array-like parameters: their entries stay below MODERATE, so that no product overflows.
ARRAY_JUNK = _junk(huge_floats=False)


def size_junk(minimum, maximum):
    """Junk for an integer size parameter: anything, plus the values just out of range."""
    edges = [minimum - 1, maximum + 1, 2 * maximum, float(minimum), np.float64(minimum), True,
             str(minimum)]
    if maximum + 1 < 2**63:
        edges.append(np.int64(maximum + 1))
    return st.one_of(JUNK, st.sampled_from(edges))


def sizes(minimum, cap):
    """A valid size from ``minimum`` to ``cap`` (kept small), as int or numpy integer."""
    plain = st.integers(minimum, cap)
    return st.one_of(
        plain,
        plain.map(np.int64),
        plain.filter(lambda v: -(2**15) <= v < 2**15).map(np.int16),
        plain.filter(lambda v: v >= 0).map(np.uint64),
    )


def widths():
    """A valid d_model, small or up to MAX_D_MODEL, for functions that only make O(d_model)
    values: with a huge base, the widest ones have wavelengths beyond the float range."""
    return st.one_of(sizes(1, 64), st.integers(1, MAX_D_MODEL), st.just(MAX_D_MODEL))


BASE_JUNK = st.one_of(
    JUNK,
    st.sampled_from([1, 1.0, 0.999, 0, -10000.0, math.inf, math.nan, 10**400, -(10**400),
                     np.float64(1.0), np.float32(math.inf), "10000", True, np.bool_(True)]),
)


def bases():
    """A valid base: a finite real number > 1, from barely above 1 to the largest double."""
    return st.one_of(
        st.floats(min_value=1.0, max_value=1.7976931348623157e308, exclude_min=True),
        st.floats(min_value=1.0, max_value=1e6, exclude_min=True),
        st.integers(2, 10**6),
        st.sampled_from([10000.0, 10000, 1.0000000000000002, 1.5, 2, 1e308, 2**1000,
                         np.float64(500.0), np.float32(1.5), np.int64(10000), np.uint8(200),
                         np.float16(2.0), fractions.Fraction(3, 2), np.longdouble(100)]),
    )


def tame_floats():
    """Finite array entries of moderate size (so that products cannot overflow)."""
    return st.one_of(
        st.floats(-1e3, 1e3, allow_nan=False),
        st.sampled_from([0.0, -0.0, 5e-324, 1e-300, 1.0, -1.0]),
    )


def matrices(rows, cols, elements=None):
    """A 2-D float64 array (or nested list) of the given shape strategies."""

    @st.composite
    def build(draw):
        n, m = draw(rows), draw(cols)
        entries = tame_floats() if elements is None else elements
        array = draw(hnp.arrays(np.float64, (n, m), elements=entries))
        return array if draw(st.booleans()) else array.tolist()

    return build()


WORD_CHARS = st.characters(categories=["L", "N", "So", "Sm"])


@st.composite
def sentences(draw, min_words=1, max_words=30):
    """Text with at least one word: letters, digits, emoji and symbols, wrapped in punctuation."""
    words = draw(st.lists(st.text(WORD_CHARS, min_size=1, max_size=6), min_size=min_words,
                          max_size=max_words))
    before, after = st.sampled_from(["", '"', "(", "«"]), st.sampled_from(["", ",", ".", "!", "…"])
    wrapped = [draw(before) + w + draw(after) for w in words]
    separators = st.sampled_from([" ", "  ", "\t", "\n", "\u3000", " -- ", " ... "])
    text = wrapped[0]
    for w in wrapped[1:]:
        text += draw(separators) + w
    return text


def permutations_of(n):
    return st.permutations(list(range(n)))


# ---------------------------------------------------------------------------
# Result checks
# ---------------------------------------------------------------------------


def as_int(value):
    return int(value)


def half_up(d):
    return (as_int(d) + 1) // 2


def is_f64(array, shape):
    assert isinstance(array, np.ndarray), type(array)
    assert array.dtype == np.float64, array.dtype
    assert array.shape == tuple(shape), (array.shape, shape)


def finite(array):
    assert np.isfinite(array).all(), array


def in_unit(array):
    finite(array)
    assert (np.abs(array) <= 1.0).all()


def is_real_float(value, nonnegative=True):
    assert type(value) is float, type(value)
    assert math.isfinite(value), value
    if nonnegative:
        assert value >= 0.0


# ---------------------------------------------------------------------------
# Specs: how to call a function, its valid arguments and their junk
# ---------------------------------------------------------------------------


@dataclass
class Spec:
    function: Callable | None  # None for an entry point: entry_points.call(name, kwargs)
    valid: st.SearchStrategy  # of kwargs dicts, every argument valid (and small)
    junk: dict  # parameter -> strategy of (mostly) invalid values
    check: Callable  # check(kwargs, result) for an accepted call
    related: dict = field(default_factory=dict)  # parameter -> names whose check depends on it
    index_error: bool = False  # whether IndexError is documented
    # Entry points only: called before each call (a *_step entry point needs its reset first).
    prepare: Callable | None = None


def kwargs_of(**strategies):
    return st.fixed_dictionaries(strategies)


def optional(strategies, **optional_strategies):
    """Required strategies plus optional ones (an omitted one takes its default)."""
    return st.fixed_dictionaries(strategies, optional=optional_strategies)

def even_sizes(minimum, cap):
    """A valid even width from ``minimum`` to ``cap``, as int or numpy integer."""
    return sizes(minimum // 2, cap // 2).map(lambda h: h + h)


def scales(cap=1.7976931348623157e308):
    """A valid scale factor: a finite real number from 1 to ``cap``."""
    return st.one_of(
        st.floats(1.0, min(cap, 1e6)), st.integers(1, 1000),
        st.sampled_from([v for v in [1, 1.0, 2, 4.0, 16, 32.0, np.float32(8.0), np.int64(4),
                                     fractions.Fraction(3, 2), 1e300] if float(v) <= cap]),
        st.floats(1.0, cap),
    )


SCALE_JUNK = st.one_of(JUNK, st.sampled_from([0.999, 0, -1, 0.5, math.inf, math.nan, 10**400,
                                              True, "2", np.float64(0.5), [2.0]]))
EVEN_JUNK = [3, 5, 99999, 100001, np.int64(7)]


@st.composite
def four_terms_args(draw):
    args = {"sentence": draw(sentences())}
    if draw(st.booleans()):
        args["identity"] = draw(st.sampled_from([True, False, np.bool_(True)]))
    if draw(st.booleans()):
        args["d_model"] = draw(sizes(1, MAX_TERMS_WIDTH))
    if draw(st.booleans()):
        args["base"] = draw(bases())
    return args


def draw_case(data, spec):
    """Valid kwargs, then possibly junk for one or several parameters; returns (kwargs, bad)."""
    kwargs = dict(data.draw(spec.valid, label="valid"))
    mode = data.draw(st.sampled_from(["valid", "one", "one", "several"]), label="mode")
    names = sorted(spec.junk)
    if mode == "one":
        chosen = [data.draw(st.sampled_from(names), label="bad parameter")]
    elif mode == "several":
        chosen = [n for n in names if data.draw(st.booleans(), label=f"junk {n}?")] or names[:1]
    else:
        chosen = []
    for name in chosen:
        kwargs[name] = data.draw(spec.junk[name], label=name)
    return kwargs, chosen


# ---------------------------------------------------------------------------
# Entry points of pelab.browser: a demo's specs, made into its fuzz tests
# ---------------------------------------------------------------------------

# What the worker might send by mistake: a misspelt, camelCase or made-up keyword.
UNKNOWN_KEYWORDS = ["bogus", "seqLen", "dModel", "kwargs", "self", "<img src=x onerror=alert(1)>",
                    "😀"]


def entry_point_fuzz_tests(specs):
    """The two fuzz tests of the entry points in ``specs`` (entry point name -> Spec), each
    parametrized by name. A demo's entry test assigns them at module level, where pytest
    collects them:

        test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)

    A spec's function is None: the entry point is called as the worker calls it,
    ``entry_points.call(name, kwargs)``, after ``spec.prepare()`` where the spec has one. Both
    tests are marked ``fuzz``, which the BLAS rerun (test_blas_kernels.py) leaves out.
    """
    specs = {name: replace(spec, function=spec.function or _entry_call(name, spec.prepare))
             for name, spec in specs.items()}

    @pytest.mark.fuzz
    @pytest.mark.parametrize("name", sorted(specs))
    @FUZZ
    @given(data=st.data())
    def test_fuzzed_arguments(name, data):
        """Valid arguments, one junk argument or several: a result of the documented shape,
        or a ValueError naming a junk parameter (see ``judge``)."""
        spec = specs[name]
        kwargs, bad = draw_case(data, spec) if spec.junk else (data.draw(spec.valid), [])
        judge(spec, kwargs, bad)

    @pytest.mark.fuzz
    @pytest.mark.parametrize("name", sorted(specs))
    @FUZZ_LIGHT
    @given(data=st.data())
    def test_fuzzed_keywords(name, data):
        """A missing or unknown keyword (a worker/page mismatch) is a TypeError naming it."""
        kwargs = dict(data.draw(specs[name].valid, label="valid"))
        required = [p for p in kwargs if p in _required(entry_points.ENTRY_POINTS[name])]
        if required and data.draw(st.booleans(), label="drop one?"):
            missing = data.draw(st.sampled_from(required), label="missing")
            del kwargs[missing]
        else:
            missing = data.draw(st.sampled_from(UNKNOWN_KEYWORDS), label="unknown")
            kwargs[missing] = data.draw(JUNK, label="its value")
        with pytest.raises(TypeError) as caught:
            entry_points.call(name, kwargs)
        assert missing in str(caught.value)

    return test_fuzzed_arguments, test_fuzzed_keywords


def _entry_call(name, prepare):
    """The entry point ``name`` as the worker calls it, after ``prepare()`` if given."""

    def call(**kwargs):
        if prepare is not None:
            prepare()
        return entry_points.call(name, kwargs)

    return call


def _required(function):
    return {p.name for p in inspect.signature(function).parameters.values()
            if p.default is inspect.Parameter.empty}
