"""The rope demo: q_m . k_n = q^T M_(m-n) k, the same after a shift, the Toeplitz but not
symmetric score matrix, RoFormer's decay measure and the two pairings, each checked here against
RoPE computed independently, as complex multiplication."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest

from pages import cell_values, dataset, poll, wait_rendered


def rotated(vector, position, d, base):
    """Pair i of `vector` (adjacent layout) as a complex number times e^{i position w_i}."""
    out = []
    for i in range(d // 2):
        z = complex(vector[2 * i], vector[2 * i + 1]) * cmath.exp(1j * position * base ** (-2 * i / d))
        out += [z.real, z.imag]
    return np.array(out)


def decay_by_hand(t, d, base):
    """RoFormer's mean of |S_j|, S_j the sum of the first j unit vectors at angles t w_i."""
    total, re, im = 0.0, 0.0, 0.0
    for i in range(d // 2):
        re, im = re + math.cos(t * base ** (-2 * i / d)), im + math.sin(t * base ** (-2 * i / d))
        total += math.hypot(re, im)
    return total / (d // 2)


def numbers_table(page, figure):
    """The rows of a figure's "Show the numbers" table, opened as a learner would."""
    page.locator(f"#{page.evaluate('(s) => document.querySelector(s).getAttribute(`aria-details`)', figure)} summary").click()
    # The table is built on the details' toggle event, which fires a task after the click.
    return poll(
        page,
        """(s) => [...document.getElementById(document.querySelector(s).getAttribute('aria-details'))
                     .querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))""",
        lambda rows: len(rows) > 0,
        arg=figure,
    )


def number(text):
    return float(text.replace("−", "-"))


def test_the_score_depends_on_the_offset_alone_three_ways(lesson):
    demo = lesson.locator("#rope")
    wait_rendered(lesson, "#rope", "5/2/100/8@10000:0")
    q, k = np.random.default_rng(0).standard_normal((2, 8))
    expected = rotated(q, 5, 8, 10000.0) @ rotated(k, 2, 8, 10000.0)
    # float64 arithmetic in a different order on each route: rounding apart
    for key in ("score", "viaMatrix", "shiftedScore"):
        assert float(dataset(lesson, "#rope", key)) == pytest.approx(expected, abs=1e-12), key
    assert demo.locator(".rope-score").inner_text() == f"{expected:.6f}".replace("-", "−")
    assert "at positions 105 and 102" in demo.locator(".rope-shifted").inner_text()
    rows = cell_values(lesson, ".rope-vectors")
    assert demo.locator(".rope-vectors tbody th").all_inner_texts() == ["q", "R_5 q", "k", "R_2 k"]
    np.testing.assert_allclose(rows[1], rotated(q, 5, 8, 10000.0), atol=1e-12)
    np.testing.assert_allclose(rows[3], rotated(k, 2, 8, 10000.0), atol=1e-12)
    assert float(dataset(lesson, "#rope", "pairingGap")) == 0.0  # the same numbers, moved: exact
    assert "differs from the adjacent layout by 0 (exactly)" in demo.locator(".rope-pairing").inner_text()

    # From the keyboard: m to its end, a wider head, another draw; the three routes still agree.
    demo.get_by_role("slider", name="Query position").press("End")
    demo.get_by_role("slider", name="Head dimension").press("End")
    seed = demo.get_by_role("slider", name="Draw of")
    seed.press("ArrowRight")
    wait_rendered(lesson, "#rope", "512/2/100/128@10000:1")
    q, k = np.random.default_rng(1).standard_normal((2, 128))
    expected = rotated(q, 512, 128, 10000.0) @ rotated(k, 2, 128, 10000.0)
    for key in ("score", "viaMatrix", "shiftedScore"):
        # angles up to 612 rad, summed over 64 pairs: well within 1e-11
        assert float(dataset(lesson, "#rope", key)) == pytest.approx(expected, abs=1e-11), key


def test_the_score_matrix_is_toeplitz_not_symmetric_and_the_bound_decays(lesson):
    wait_rendered(lesson, "#rope", "5/2/100/8@10000:0")
    assert float(dataset(lesson, "#rope", "toeplitz")) < 1e-12
    q, k = np.random.default_rng(0).standard_normal((2, 8))
    scores = np.array([[rotated(q, a, 8, 1e4) @ rotated(k, b, 8, 1e4) for b in range(32)] for a in range(32)])
    scores /= np.linalg.norm(q) * np.linalg.norm(k)
    assert float(dataset(lesson, "#rope", "asymmetry")) == pytest.approx(np.abs(scores - scores.T).max(), abs=1e-12)
    assert np.abs(scores - scores.T).max() > 0.05
    table = numbers_table(lesson, ".rope-matrix")
    assert len(table) == 8
    for a, row in enumerate(table):
        assert row[0] == str(a)
        np.testing.assert_allclose([number(t) for t in row[1:]], scores[a, :8], atol=1e-6)  # 6 decimals shown

    decay = numbers_table(lesson, ".rope-decay")
    header = lesson.evaluate(
        "() => [...document.getElementById(document.querySelector('.rope-decay').getAttribute('aria-details'))"
        ".querySelectorAll('thead th')].map((c) => c.textContent)"
    )
    bases = [float(h.split()[1]) for h in header[1:]]
    assert bases == [10000.0, 100.0, 1000000.0] and "(yours)" in header[1]
    for row in decay:
        t = int(row[0])
        for base, text in zip(bases, row[1:]):
            assert number(text) == pytest.approx(decay_by_hand(t, 128, base), abs=1e-4)  # 4 decimals shown
    assert decay[0][1:] == ["32.5000"] * 3  # (d/2 + 1) / 2 at offset 0, every base, d = 128
    label = lesson.locator(".rope-decay").get_attribute("aria-label")
    assert "base 10000 (yours): 32.500 at 0" in label
    poll(lesson, "() => document.querySelectorAll('.rope-decay-legend li').length", lambda n: n == 3)
