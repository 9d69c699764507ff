"""Tests for pelab.positional_encoding: the formula, its properties, and argument checks."""

import doctest
import math

import numpy as np
import pytest

import pelab.positional_encoding as pe_module
from pelab.checks import MAX_D_MODEL, MAX_ELEMENTS, MAX_SEQ_LEN, check_base, check_size
from pelab.positional_encoding import (
    add_positions,
    angular_frequencies,
    clock_angles,
    formula_terms,
    pair_waves,
    sinusoidal,
    wavelengths,
)

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric


def reference_table(seq_len, d_model, base):
    """The paper's formula, one entry at a time, with the math module."""
    table = [[0.0] * d_model for _ in range(seq_len)]
    for pos in range(seq_len):
        for column in range(d_model):
            i = column // 2
            angle = pos / base ** (2 * i / d_model)
            table[pos][column] = math.sin(angle) if column % 2 == 0 else math.cos(angle)
    return np.array(table)


SHAPES_AND_BASES = [
    (1, 1, 10000.0),
    (5, 2, 10000.0),
    (16, 8, 10000.0),
    (50, 64, 10000.0),
    (7, 5, 10000.0),
    (30, 33, 100.0),
    (12, 3, 2),
    (20, 6, 1.5),
]


@pytest.mark.parametrize("seq_len, d_model, base", SHAPES_AND_BASES)
def test_matches_the_formula_entry_by_entry(seq_len, d_model, base):
    expected = reference_table(seq_len, d_model, base)
    np.testing.assert_allclose(sinusoidal(seq_len, d_model, base), expected, rtol=0, atol=1e-12)


def test_worked_example_d_model_4():
    pe = sinusoidal(3, 4)
    # pos 1: sin(1), cos(1), sin(1/100), cos(1/100)
    np.testing.assert_allclose(pe[1], [0.8415, 0.5403, 0.0100, 0.9999], rtol=0, atol=1e-4)
    # The worked example truncates cos(0.01) = 0.99995000041666... to 0.9999.
    assert pe[1, 3] == pytest.approx(0.99995000041666, abs=1e-12)
    # pos 2: sin(2), cos(2), sin(2/100), cos(2/100)
    np.testing.assert_allclose(pe[2], [0.9093, -0.4161, 0.0200, 0.9998], rtol=0, atol=1e-4)


@pytest.mark.parametrize("seq_len, d_model", [(1, 1), (3, 4), (10, 7), (128, 512)])
def test_shape_and_dtype(seq_len, d_model):
    pe = sinusoidal(seq_len, d_model)
    assert pe.shape == (seq_len, d_model)
    assert pe.dtype == np.float64


@pytest.mark.parametrize("d_model", [1, 2, 5, 6, 64])
def test_position_zero_is_sin_0_cos_0(d_model):
    expected = [0.0 if column % 2 == 0 else 1.0 for column in range(d_model)]
    assert sinusoidal(4, d_model)[0].tolist() == expected


@pytest.mark.parametrize("seq_len, d_model, base", [(500, 64, 10000.0), (200, 31, 10.0)])
def test_values_within_minus_one_and_one(seq_len, d_model, base):
    pe = sinusoidal(seq_len, d_model, base)
    assert np.all(pe >= -1.0) and np.all(pe <= 1.0)


@pytest.mark.parametrize("d_model", [2, 7, 64])
def test_every_pair_lies_on_the_unit_circle(d_model):
    pe = sinusoidal(300, d_model)
    pairs = d_model // 2
    sines, cosines = pe[:, 0 : 2 * pairs : 2], pe[:, 1 : 2 * pairs : 2]
    np.testing.assert_allclose(sines**2 + cosines**2, 1.0, rtol=0, atol=1e-12)


def test_pair_i_turns_at_its_angular_frequency():
    # Column 2i at pos is sin(pos * w_i) with w_i from angular_frequencies.
    d_model, base = 10, 50.0
    omega = angular_frequencies(d_model, base)
    pe = sinusoidal(40, d_model, base)
    positions = np.arange(40.0)
    for i, w in enumerate(omega):
        np.testing.assert_allclose(pe[:, 2 * i], np.sin(positions * w), rtol=0, atol=1e-12)
        np.testing.assert_allclose(pe[:, 2 * i + 1], np.cos(positions * w), rtol=0, atol=1e-12)


@pytest.mark.parametrize("d_model", [1, 2, 3, 4, 9, 128])
@pytest.mark.parametrize("base", [10000.0, 100, 1.5])
def test_angular_frequencies(d_model, base):
    omega = angular_frequencies(d_model, base)
    assert omega.shape == (math.ceil(d_model / 2),)
    assert omega.dtype == np.float64
    expected = [base ** (-2 * i / d_model) for i in range(math.ceil(d_model / 2))]
    np.testing.assert_allclose(omega, expected, rtol=1e-13)
    assert omega[0] == 1.0


@pytest.mark.parametrize("d_model", [2, 3, 4, 9, 128, 513])
@pytest.mark.parametrize("base", [10000.0, 100, 1.5])
def test_wavelengths_strictly_increase_from_two_pi(d_model, base):
    lengths = wavelengths(d_model, base)
    assert lengths.shape == (math.ceil(d_model / 2),)
    assert lengths[0] == pytest.approx(2 * math.pi, abs=1e-15)
    assert np.all(np.diff(lengths) > 0)
    np.testing.assert_allclose(lengths, 2 * np.pi / angular_frequencies(d_model, base), rtol=1e-15)


def test_longest_wavelength_approaches_two_pi_base():
    # lambda_last = 2 pi base^((d-2)/d) for even d: just below 2 pi base.
    d_model = 512
    assert wavelengths(d_model)[-1] == pytest.approx(2 * math.pi * 10000 ** (510 / 512), rel=1e-12)


@pytest.mark.parametrize("d_model", [1, 3, 5, 11, 63])
def test_odd_d_model_drops_the_last_cosine(d_model):
    # Build the d_model + 1 column table with the exponent 2i / d_model (the
    # real, odd d_model) and keep its first d_model columns.
    seq_len, base = 25, 10000.0
    pairs = (d_model + 1) // 2
    positions = np.arange(seq_len, dtype=float)[:, None]
    omega = base ** (-2.0 * np.arange(pairs) / d_model)
    full = np.empty((seq_len, 2 * pairs))
    full[:, 0::2] = np.sin(positions * omega)
    full[:, 1::2] = np.cos(positions * omega)
    pe = sinusoidal(seq_len, d_model, base)
    np.testing.assert_allclose(pe, full[:, :d_model], rtol=0, atol=1e-12)
    # The last column is the sine of pair (d_model - 1) / 2.
    np.testing.assert_allclose(pe[:, -1], np.sin(positions[:, 0] * omega[-1]), rtol=0, atol=1e-12)


def test_odd_d_model_is_not_a_crop_of_the_next_even_table():
    # The exponent divides by the odd d_model, so frequencies differ from d_model + 1.
    assert not np.allclose(sinusoidal(20, 5), sinusoidal(20, 6)[:, :5])


def test_numpy_integers_and_floats_are_accepted():
    expected = sinusoidal(6, 8, 100.0)
    np.testing.assert_array_equal(sinusoidal(np.int64(6), np.int32(8), np.float64(100.0)), expected)
    np.testing.assert_array_equal(sinusoidal(6, 8, 100), expected)


def test_docstring_examples_hold():
    assert doctest.testmod(pe_module).failed == 0


# --- argument checks ---------------------------------------------------------

BAD_SIZES = [0, -1, 2.5, 4.0, True, False, "4", None, float("nan"), float("inf"), np.float64(3.0)]
BAD_BASES = [
    1,
    1.0,
    0.5,
    0,
    -10,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    "10000",
    None,
    np.float64(1.0),
    10**400,
]


@pytest.mark.parametrize("bad", BAD_SIZES + [MAX_SEQ_LEN + 1], ids=repr)
def test_bad_seq_len_is_rejected(bad):
    with pytest.raises(
        ValueError, match=rf"^seq_len must be an integer from 1 to {MAX_SEQ_LEN}, got "
    ):
        sinusoidal(bad, 4)


@pytest.mark.parametrize("function", [sinusoidal, angular_frequencies, wavelengths])
@pytest.mark.parametrize("bad", BAD_SIZES + [MAX_D_MODEL + 1, 10**30], ids=repr)
def test_bad_d_model_is_rejected(function, bad):
    args = (3, bad) if function is sinusoidal else (bad,)
    with pytest.raises(
        ValueError, match=rf"^d_model must be an integer from 1 to {MAX_D_MODEL}, got "
    ):
        function(*args)


@pytest.mark.parametrize("function", [sinusoidal, angular_frequencies, wavelengths])
@pytest.mark.parametrize("bad", BAD_BASES, ids=repr)
def test_bad_base_is_rejected(function, bad):
    args = (3, 4, bad) if function is sinusoidal else (4, bad)
    with pytest.raises(
        ValueError, match=r"^base must be a finite real number greater than 1, got "
    ):
        function(*args)


def test_error_message_shows_the_value():
    with pytest.raises(ValueError) as error:
        sinusoidal(3, 0)
    assert str(error.value) == f"d_model must be an integer from 1 to {MAX_D_MODEL}, got 0"
    with pytest.raises(ValueError) as error:
        sinusoidal(3, 4, 0.5)
    assert str(error.value) == "base must be a finite real number greater than 1, got 0.5"


def test_too_many_elements_is_rejected_before_allocating():
    seq_len, d_model = MAX_SEQ_LEN, MAX_ELEMENTS // MAX_SEQ_LEN + 1
    with pytest.raises(ValueError, match=r"seq_len \* d_model must be at most"):
        sinusoidal(seq_len, d_model)


def test_largest_allowed_sizes_are_accepted_by_the_checks():
    assert check_size("seq_len", MAX_SEQ_LEN, MAX_SEQ_LEN) == MAX_SEQ_LEN
    assert sinusoidal(1, MAX_D_MODEL).shape == (1, MAX_D_MODEL)


def test_check_helpers_return_plain_python_numbers():
    size = check_size("n", np.int16(7), 10)
    assert size == 7 and type(size) is int
    base = check_base(np.float32(2.5))
    assert base == 2.5 and type(base) is float
    assert check_base(10000) == 10000.0


def test_check_size_minimum():
    assert check_size("n", 2, 10, minimum=2) == 2
    with pytest.raises(ValueError, match=r"^n must be an integer from 2 to 10, got 1$"):
        check_size("n", 1, 10, minimum=2)


# --- formula_terms -------------------------------------------------------------


def test_formula_terms_worked_example_pos_1():
    terms = formula_terms(1, 4)
    assert terms["j"].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert terms["i"].tolist() == [0.0, 0.0, 1.0, 1.0]
    assert terms["exponent"].tolist() == [0.0, 0.0, 0.5, 0.5]
    np.testing.assert_allclose(terms["angle"], [1.0, 1.0, 0.01, 0.01], rtol=1e-15)
    assert terms["is_sine"].tolist() == [True, False, True, False]
    np.testing.assert_allclose(terms["value"], [0.8415, 0.5403, 0.0100, 0.9999], rtol=0, atol=1e-4)
    assert terms["value"][3] == pytest.approx(0.99995000041666, abs=1e-12)


def test_formula_terms_worked_example_pos_2():
    terms = formula_terms(2, 4)
    np.testing.assert_allclose(terms["angle"], [2.0, 2.0, 0.02, 0.02], rtol=1e-15)
    np.testing.assert_allclose(terms["value"], [0.9093, -0.4161, 0.0200, 0.9998], rtol=0, atol=1e-4)


def test_formula_terms_dtypes_and_shapes():
    terms = formula_terms(3, 7)
    assert set(terms) == {"j", "i", "exponent", "angle", "value", "is_sine"}
    for key in ("j", "i", "exponent", "angle", "value"):
        assert terms[key].dtype == np.float64 and terms[key].shape == (7,)
    assert terms["is_sine"].dtype == np.bool_ and terms["is_sine"].shape == (7,)


@pytest.mark.parametrize(
    "pos, d_model, base", [(0, 1, 10000.0), (5, 5, 10000.0), (17, 64, 100.0), (40, 33, 1.5)]
)
def test_formula_terms_follow_the_formula(pos, d_model, base):
    terms = formula_terms(pos, d_model, base)
    for j in range(d_model):
        i = j // 2
        assert terms["i"][j] == i
        assert terms["exponent"][j] == pytest.approx(2 * i / d_model, abs=1e-15)
        assert terms["angle"][j] == pytest.approx(
            pos / base ** (2 * i / d_model), rel=1e-13, abs=1e-300
        )
    np.testing.assert_allclose(
        terms["value"], reference_table(pos + 1, d_model, base)[pos], rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("d_model", [1, 4, 9, 128])
@pytest.mark.parametrize("pos", [0, 1, 37])
def test_formula_terms_value_is_the_table_row(pos, d_model):
    np.testing.assert_allclose(
        formula_terms(pos, d_model)["value"], sinusoidal(pos + 1, d_model)[pos], rtol=0, atol=1e-15
    )


def test_formula_terms_position_zero_and_the_largest():
    assert formula_terms(0, 4)["value"].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert np.all(np.abs(formula_terms(MAX_SEQ_LEN, 16)["value"]) <= 1.0)


@pytest.mark.parametrize("bad", [-1, 1.5, 2.0, True, None, "1", MAX_SEQ_LEN + 1], ids=repr)
def test_formula_terms_bad_pos_is_rejected(bad):
    with pytest.raises(ValueError, match=rf"^pos must be an integer from 0 to {MAX_SEQ_LEN}, got "):
        formula_terms(bad, 4)


def test_formula_terms_bad_d_model_and_base_are_rejected():
    with pytest.raises(ValueError, match=r"^d_model must be an integer"):
        formula_terms(1, 0)
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        formula_terms(1, 4, 1.0)


# --- add_positions -------------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1), (3, 4), (10, 7), (50, 64)])
def test_add_positions_keeps_the_shape(shape):
    x = np.random.default_rng(0).standard_normal(shape)
    out = add_positions(x)
    assert out.shape == shape and out.dtype == np.float64
    np.testing.assert_allclose(out, x + sinusoidal(*shape), rtol=0, atol=0)


def test_add_positions_does_not_change_its_input_and_uses_base():
    x = np.ones((4, 6))
    out = add_positions(x, 100.0)
    assert np.array_equal(x, np.ones((4, 6)))
    np.testing.assert_allclose(out, 1.0 + sinusoidal(4, 6, 100.0), rtol=0, atol=0)
    assert add_positions([[0.0, 0.0]]).tolist() == [[0.0, 1.0]]


@pytest.mark.parametrize("bad", [np.ones(4), np.ones((2, 3, 4)), 1.0], ids=["1-D", "3-D", "scalar"])
def test_add_positions_needs_a_2d_array(bad):
    with pytest.raises(
        ValueError, match=r"^x must be a 2-D array of shape \(seq_len, d_model\), got shape"
    ):
        add_positions(bad)


def test_add_positions_bad_base_is_rejected():
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        add_positions(np.ones((2, 2)), 0.5)


# --- pair_waves and clock_angles ----------------------------------------------


def test_pair_waves_at_integer_positions_are_the_table_columns():
    d_model, base = 10, 50.0
    pe = sinusoidal(30, d_model, base)
    sin, cos = pair_waves(np.arange(30.0), d_model, base)
    assert sin.shape == cos.shape == (5, 30)
    for i in range(5):
        np.testing.assert_allclose(sin[i], pe[:, 2 * i], rtol=0, atol=1e-15)
        np.testing.assert_allclose(cos[i], pe[:, 2 * i + 1], rtol=0, atol=1e-15)


def test_pair_waves_between_positions_and_chosen_pairs():
    positions = np.linspace(0.0, 20.0, 161)
    sin, cos = pair_waves(positions, 8, pairs=[3, 0])
    omega = angular_frequencies(8)
    assert sin.shape == (2, 161)
    np.testing.assert_allclose(sin[0], np.sin(positions * omega[3]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(cos[1], np.cos(positions), rtol=0, atol=1e-15)


def test_pair_waves_odd_d_model_still_has_the_last_cosine():
    sin, cos = pair_waves([0.0, 1.0], 5)
    assert sin.shape == cos.shape == (3, 2)
    assert cos[2, 0] == 1.0


def test_pair_waves_repeat_every_wavelength():
    lengths = wavelengths(6)
    for i, length in enumerate(lengths):
        sin, cos = pair_waves([0.25, 0.25 + length], 6, pairs=[i])
        assert sin[0, 0] == pytest.approx(sin[0, 1], abs=1e-9)
        assert cos[0, 0] == pytest.approx(cos[0, 1], abs=1e-9)


@pytest.mark.parametrize("bad", [[4], [-1], [0, 0], [1.0], [True], "01", 3, {0}], ids=repr)
def test_pair_waves_bad_pairs_are_rejected(bad):
    with pytest.raises(
        ValueError, match=r"^pairs must be a list of distinct integers from 0 to 3, got "
    ):
        pair_waves([0.0], 8, pairs=bad)


@pytest.mark.parametrize(
    "bad", [[], [-0.5], [np.nan], [np.inf], [[0.0]], "abc", [MAX_SEQ_LEN + 1.0]], ids=repr
)
def test_pair_waves_bad_positions_are_rejected(bad):
    with pytest.raises(ValueError, match=r"^positions must be a 1-D array"):
        pair_waves(bad, 8)


def test_pair_waves_too_many_samples_is_rejected():
    with pytest.raises(ValueError, match=r"len\(pairs\) \* len\(positions\) must be at most"):
        pair_waves(np.zeros(MAX_ELEMENTS // 2 + 1), 8, pairs=[0, 1])


def test_clock_angles():
    angles = clock_angles(7, 4)
    assert angles.shape == (2,) and angles.dtype == np.float64
    np.testing.assert_allclose(angles, [7.0 - 2 * math.pi, 0.07], rtol=1e-13)
    assert clock_angles(0, 9).tolist() == [0.0] * 5
    # Fractional positions, and always within one turn.
    angles = clock_angles(1234.5, 64, 100.0)
    assert np.all((angles >= 0.0) & (angles < 2 * math.pi))
    np.testing.assert_allclose(
        np.sin(angles), np.sin(1234.5 * angular_frequencies(64, 100.0)), atol=1e-10
    )


@pytest.mark.parametrize(
    "bad", [-0.1, float("nan"), float("inf"), MAX_SEQ_LEN + 0.5, True, "1", None], ids=repr
)
def test_clock_angles_bad_pos_is_rejected(bad):
    with pytest.raises(
        ValueError, match=rf"^pos must be a real number from 0 to {MAX_SEQ_LEN}, got "
    ):
        clock_angles(bad, 4)
