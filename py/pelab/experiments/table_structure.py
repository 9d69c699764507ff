r"""
# What a learned position table has learned

Three measurements of a table $P$ (one row per position), for watching it
form during training:

- `band_contrast`: how much more alike neighbouring positions are than
  distant ones, from the cosine similarity matrix $C$:
  $\overline{C_{i, i+1}} - \overline{C_{i, j}}_{\,j \ge i + 2}$.  Random
  rows give about 0; a table whose similarity is a band around the diagonal
  gives a clearly positive number.  The lesson calls a table *structured*
  when this reaches `STRUCTURED_CONTRAST`.
- `principal_components`: the table's leading principal components as
  functions of position (the rows centred, then the singular value
  decomposition $P - \bar P = U S V^\top$; component $c$ is $U_{:, c}$).
- `closest_sinusoid`: the sinusoid $a \sin(\omega i) + b \cos(\omega i) + c$
  that fits a component best by least squares, over a grid of
  frequencies, and the share of the component's variance it explains
  ($R^2$).  A high $R^2$ means "looks like a sinusoid of that period"; it
  does not mean the model computes sinusoids.  The periods tried run from
  2 (alternation, the fastest wave integer positions can show) to
  $4(n - 1)$ (a quarter of a cycle over the $n$ positions); a fit at that
  longest period is flagged (`at_longest`): it is a trend across the
  table rather than a wave, and a still slower sinusoid might fit better.
"""

import numpy as np

from ..checks import as_real_array, check_matrix, check_size, shape_of
from ..similarity import similarity

# Band contrast at which the lesson calls a table structured (random rows: about 0).
STRUCTURED_CONTRAST = 0.5
# Frequencies tried by closest_sinusoid, per position of the component's length.
FREQUENCIES_PER_POSITION = 16


def band_contrast(table):
    r"""
    Mean cosine of neighbouring rows minus mean cosine of rows two or more
    apart:

    $$
    \frac{1}{n - 1} \sum_i C_{i, i+1} \;-\; \operatorname{mean}_{j - i \ge 2} C_{ij}.
    $$

    Args:
        table: array-like (n, d) of finite numbers, $n \ge 3$.

    Returns:
        float in [-2, 2].

    Raises:
        ValueError: if `table` is not such a matrix with at least 3 rows.

    Example:
        >>> ramp = np.array([[1.0, k] for k in np.linspace(-1, 1, 8)])
        >>> band_contrast(ramp) > 0.3
        True
    """
    table = _check_finite_rows("table", table, 3)
    n = table.shape[0]
    cosine = similarity(table)[1]
    neighbours = np.diag(cosine, 1).mean()
    far = cosine[np.triu_indices(n, 2)].mean()
    return float(neighbours - far)


def principal_components(table, count=2):
    r"""
    The leading principal components of the rows of `table`, as functions of
    position: $U_{:, c} S_c$ for $c < count$, from $P - \bar P = U S V^\top$,
    and the share of the variance each explains, $S_c^2 / \sum S^2$.

    A component's sign is arbitrary (singular vectors are defined up to
    sign); here it is fixed so that its entry of largest magnitude is
    positive, so that the same table always gives the same picture.

    Args:
        table: array-like (n, d) of finite numbers.
        count: how many components, from 1 to min(n, d).

    Returns:
        `(components, shares)`: float64 (count, n) and (count,).

    Example:
        >>> comps, shares = principal_components([[0.0, 0], [1, 0], [3, 0]], 1)
        >>> comps.round(6).tolist(), shares.round(6).tolist()
        ([[-1.333333, -0.333333, 1.666667]], [1.0])
    """
    table = check_matrix("table", table)
    count = check_size("count", count, min(table.shape))
    centred = table - table.mean(axis=0)  # P - mean row
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    components = (u[:, :count] * s[:count]).T  # (count, n): U_c S_c
    biggest = np.abs(components).argmax(axis=1)
    signs = np.sign(components[np.arange(count), biggest])
    components = components * np.where(signs == 0, 1.0, signs)[:, np.newaxis]
    total = float((s**2).sum())
    shares = s[:count] ** 2 / total if total > 0 else np.zeros(count)
    return components, shares


def closest_sinusoid(values):
    r"""
    The best least-squares fit $a \sin(\omega i) + b \cos(\omega i) + c$ to
    `values` over $i = 0, \dots, n - 1$, with $\omega$ from a grid of
    `FREQUENCIES_PER_POSITION * n` values in $[\pi / (2(n - 1)), \pi]$, plus
    $2\pi / k$ for every whole period $k = 2, \dots, n$:

    $$
    \omega^* = \arg\min_{\omega \in grid} \min_{a, b, c}
    \sum_i \big(v_i - a \sin(\omega i) - b \cos(\omega i) - c\big)^2,
    \qquad period = 2\pi / \omega^* .
    $$

    The grid's two ends are not alike.  Its fastest frequency, $\pi$
    (period 2: $+1, -1, +1, \dots$), is the fastest any wave can show at
    integer positions: there $\omega$ and $2\pi - \omega$ give the same fits
    (the sine changes sign, the cosine does not), and so do $\omega$ and
    $\omega + 2\pi$, so period 2 is a real answer, alternation.  Its
    slowest, $\pi / (2(n - 1))$ (period $4(n - 1)$, a quarter of a cycle
    over the $n$ positions), is only where the grid stops: a best fit there
    (`at_longest`) is a trend across the table, a ramp or a gentle bend,
    and a slower sinusoid, outside the grid, might fit it better still.

    Args:
        values: array-like (n,) of finite numbers, $n \ge 4$.

    Returns:
        dict: `period` (float, $2\pi/\omega^*$ in positions, from 2 to
        $4(n - 1)$), `r_squared` (float, share of the variance of `values`
        the fit explains, 0 for constant values), `fit` (float64 (n,), the
        fitted curve), `at_longest` (bool, True when $\omega^*$ is the
        grid's slowest frequency, so `period` is $4(n - 1)$).  For constant
        values every frequency fits exactly, and `period` and `at_longest`
        say nothing.

    Raises:
        ValueError: if `values` is not such a vector.

    Example:
        >>> i = np.arange(20)
        >>> best = closest_sinusoid(np.sin(2 * np.pi * i / 10 + 0.3))
        >>> round(best["period"], 1), round(best["r_squared"], 6), best["at_longest"]
        (10.0, 1.0, False)
        >>> ramp = closest_sinusoid(np.arange(20.0))    # no wave: the slowest one tried
        >>> round(ramp["period"], 1), ramp["at_longest"]
        (76.0, True)
    """
    values = _check_finite_rows("values", values, 4, ndim=1)
    n = values.shape[0]
    i = np.arange(n)
    # From a quarter cycle over the length (omega = pi / (2 (n - 1))) up to pi.
    lowest = np.pi / (2 * (n - 1))
    grid = np.linspace(lowest, np.pi, FREQUENCIES_PER_POSITION * n)
    # Whole periods exactly; union1d sorts, so grid[0] stays `lowest` (2 pi / n > lowest).
    grid = np.union1d(grid, 2 * np.pi / np.arange(2, n + 1))
    centred = values - values.mean()
    variance = float((centred**2).sum())
    # One least-squares problem per frequency, all at once: basis (G, n, 3) of
    # sin(w i), cos(w i), 1; coefficients = pinv(basis) values (pinv copes with
    # sin(pi i) = 0, where the basis loses a column).
    angles = grid[:, np.newaxis] * i[np.newaxis, :]
    basis = np.stack([np.sin(angles), np.cos(angles), np.ones_like(angles)], axis=2)
    coefficients = np.linalg.pinv(basis) @ values[:, np.newaxis]  # (G, 3, 1)
    fits = (basis @ coefficients)[..., 0]  # (G, n)
    residuals = ((values - fits) ** 2).sum(axis=1)
    best_index = int(residuals.argmin())
    r_squared = 1.0 - residuals[best_index] / variance if variance > 0 else 0.0
    return {
        "period": float(2 * np.pi / grid[best_index]),
        "r_squared": float(r_squared),
        "fit": fits[best_index],
        # The slowest frequency tried: the grid's edge, not a wave found inside it.
        "at_longest": best_index == 0,
    }

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_finite_rows(name, value, minimum, ndim=2):
    """
    Check that `value` is an array of finite numbers with `ndim` dimensions
    (1: a vector, 2: a matrix with at least one column) and at least
    `minimum` entries along its first axis.

    Returns:
        `value` as a float64 numpy array.

    Raises:
        ValueError: "<name> must be a 2-D array of finite numbers with at
            least <minimum> rows, got ..." (or "a 1-D array ... entries").
    """
    array = as_real_array(value)
    if (
        array is not None
        and array.ndim == ndim
        and array.shape[0] >= minimum
        and array.size > 0
        and np.isfinite(array).all()
    ):
        return array
    kind = f"{minimum} rows" if ndim == 2 else f"{minimum} entries"
    raise ValueError(
        f"{name} must be a {ndim}-D array of finite numbers with at least {kind}, "
        f"got {shape_of(array)}"
    )
