"""Tests for pelab.experiments.table_structure: band contrast, principal components and the closest
sinusoid, on tables whose answers are known."""

import doctest

import numpy as np
import pytest

import pelab.experiments.table_structure as structure_module
from pelab.experiments.table_structure import band_contrast, closest_sinusoid, principal_components
from pelab.learned import learned
from pelab.positional_encoding import sinusoidal

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric


def test_docstring_examples_hold():
    assert doctest.testmod(structure_module).failed == 0


def test_band_contrast_from_its_definition():
    table = np.random.default_rng(0).standard_normal((6, 5))
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    near = np.mean([unit[i] @ unit[i + 1] for i in range(5)])
    far = np.mean([unit[i] @ unit[j] for i in range(6) for j in range(i + 2, 6)])
    # Cosines from a Gram matrix (BLAS) against per-pair dot products: ~1e-16 apart.
    assert band_contrast(table) == pytest.approx(near - far, abs=1e-12)


def test_a_random_table_has_no_band_and_a_sinusoidal_one_has():
    # An untrained learned table: independent rows, cosines ~ N(0, 1/d) averaging near 0.
    assert abs(band_contrast(learned(32, 32, seed=0).table)) < 0.1
    # The sinusoidal table: neighbours alike, distant positions less so (measured 0.29: its
    # slow pairs make even distant rows alike, which lowers the contrast).
    assert band_contrast(sinusoidal(32, 32)) > 0.25


def test_principal_components_match_the_covariance_eigenvectors():
    table = np.random.default_rng(1).standard_normal((10, 4)) * [3.0, 2.0, 1.0, 0.5]
    components, shares = principal_components(table, 2)
    centred = table - table.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred)
    for c in range(2):
        expected = centred @ eigenvectors[:, -1 - c]  # projection on the c-th axis
        expected *= np.sign(expected[np.abs(expected).argmax()])
        # SVD against an eigendecomposition: ~1e-14 on entries of size ~5.
        np.testing.assert_allclose(components[c], expected, atol=1e-10)
        assert shares[c] == pytest.approx(eigenvalues[-1 - c] / eigenvalues.sum(), rel=1e-10)


@pytest.mark.parametrize("period, phase", [(7.0, 0.0), (12.5, 1.0), (40.0, -0.4)])
def test_closest_sinusoid_finds_a_sinusoid_s_period(period, phase):
    i = np.arange(30)
    best = closest_sinusoid(2.0 * np.sin(2 * np.pi * i / period + phase) + 0.5)
    # The frequency grid has 16 steps per position: the period is found to about 1%.
    assert best["period"] == pytest.approx(period, rel=0.02)
    assert best["r_squared"] > 0.999


def test_a_ramp_sits_at_the_longest_period_tried():
    # A straight line is no wave: the slower the sinusoid, the straighter the stretch of it that
    # spans the table, so the best fit is the grid's slowest, a quarter cycle over 32 positions.
    # Its residual is 1.59 times smaller than at the next frequency (through pinv, BLAS): no tie.
    best = closest_sinusoid(3.0 * np.arange(32) - 7.0)
    assert best["at_longest"] is True
    assert best["period"] == pytest.approx(4 * (32 - 1), rel=1e-12)  # 2 pi / (pi / 62)
    assert best["r_squared"] > 0.99


def test_a_wave_inside_the_grid_is_not_at_its_edge():
    # Period 8 on 32 rows: four whole cycles, on the grid exactly (2 pi / 8), fitted exactly.
    best = closest_sinusoid(np.sin(2 * np.pi * np.arange(32) / 8 + 0.7))
    assert best["at_longest"] is False
    assert best["period"] == pytest.approx(8.0, rel=1e-12)
    assert best["r_squared"] == pytest.approx(1.0, abs=1e-12)


def test_alternation_is_period_two_the_grid_s_fast_end_and_a_real_answer():
    # (-1)^i is the fastest wave integer positions can show: omega = pi exactly, period 2.
    best = closest_sinusoid(5.0 * (-1.0) ** np.arange(32) + 1.0)
    assert best["period"] == 2.0  # 2 pi / pi: exact by construction
    assert best["at_longest"] is False
    assert best["r_squared"] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("n", [4, 5, 8, 32, 64])
def test_at_longest_means_the_period_is_four_times_the_span(n):
    # The fits go through pinv (BLAS), but nothing here is near a tie: the ramp's residual at the
    # slowest frequency is at least 1.38 times smaller than at the next one (n = 4; 1.6 at 64),
    # and a wave on the grid is fitted to rounding (residual below 1e-29) against at least 3e-6
    # at the next best frequency.
    ramp = closest_sinusoid(np.arange(n, dtype=float))
    assert ramp["at_longest"] and ramp["period"] == pytest.approx(4 * (n - 1), rel=1e-12)
    for period in (2.0, float(n)):
        wave = closest_sinusoid(np.cos(2 * np.pi * np.arange(n) / period))
        assert not wave["at_longest"] and wave["period"] == pytest.approx(period, rel=1e-12)


def test_noise_is_not_called_a_sinusoid():
    noise = np.random.default_rng(3).standard_normal(40)
    assert closest_sinusoid(noise)["r_squared"] < 0.5
    assert closest_sinusoid(np.ones(5))["r_squared"] == 0.0


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: band_contrast([[1.0, 0.0], [0.0, 1.0]]), "table"),
        (lambda: band_contrast([[1.0], [np.nan], [2.0]]), "table"),
        (lambda: principal_components([[1.0, 2.0]], 2), "count"),
        (lambda: principal_components("table", 1), "table"),
        (lambda: closest_sinusoid([1.0, 2.0, 3.0]), "values"),
        (lambda: closest_sinusoid([[1.0, 2.0, 3.0, 4.0]]), "values"),
    ],
)
def test_bad_arguments_name_themselves(call, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        call()
