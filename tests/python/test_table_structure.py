"""Tests for pelab.table_structure: band contrast, principal components and the closest
sinusoid, on tables whose answers are known."""

import doctest

import numpy as np
import pytest

import pelab.table_structure as structure_module
from pelab.learned import learned
from pelab.positional_encoding import sinusoidal
from pelab.table_structure import band_contrast, closest_sinusoid, principal_components


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
