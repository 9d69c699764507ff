"""The rope demo: q_m . k_n = q^T M_(m-n) k, the same after a shift, the Toeplitz but not
symmetric score matrix, RoFormer's decay measure and the two pairings, each checked here against
RoPE computed independently, as complex multiplication; and the mean scores beside the decay
measure (alike q and k fall, independent ones stay flat), against the sums written out here."""

from __future__ import annotations

import cmath
import math
import re

import numpy as np
import pytest

from pages import (
    cell_values,
    chart_geometry,
    code_of,
    colour_bar,
    dataset,
    matrix_axes,
    poll,
    put_back,
    wait_for_state,
    wait_rendered,
)


def rotated(vector, position, d, base):
    """Pair i of `vector` (adjacent layout) as a complex number times e^{i position w_i}."""
    out = []
    for i in range(d // 2):
        z = complex(vector[2 * i], vector[2 * i + 1]) * cmath.exp(
            1j * position * base ** (-2 * i / d)
        )
        out += [z.real, z.imag]
    return np.array(out)


def decay_by_hand(t, d, base):
    """RoFormer's mean of |S_j|, S_j the sum of the first j unit vectors at angles t w_i."""
    total, re, im = 0.0, 0.0, 0.0
    for i in range(d // 2):
        re, im = re + math.cos(t * base ** (-2 * i / d)), im + math.sin(t * base ** (-2 * i / d))
        total += math.hypot(re, im)
    return total / (d // 2)


def mean_by_hand(t, d, base):
    """The mean score of standard normal q and k = q: sum_i 2 cos(t w_i), pair by pair."""
    return sum(2 * math.cos(t * base ** (-2 * i / d)) for i in range(d // 2))


def independent_by_hand(d):
    """The mean |score| of independent standard normal q and k: sqrt(2/pi) E|q|, with
    E|q| = sqrt(2) Gamma((d+1)/2) / Gamma(d/2) (the chi distribution's mean)."""
    return (
        math.sqrt(2 / math.pi)
        * math.sqrt(2)
        * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))
    )


MEAN_HEADER = """() => [...document
                  .getElementById(document.querySelector('.rope-mean').getAttribute('aria-details'))
                  .querySelectorAll('thead th')].map((c) => c.textContent)"""

MEAN_ROWS = """() => [...document
                .getElementById(document.querySelector('.rope-mean').getAttribute('aria-details'))
                .querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))"""

# Each line of the chart as its points' y coordinates (SVG units, down is larger).
MEAN_LINES = """() => [...document.querySelectorAll('.rope-mean path.series')].map((p) =>
  p.getAttribute('d').split(/[ML]/).filter(Boolean).map((xy) => Number(xy.split(',')[1])))"""


def run_rope_cell(page) -> str:
    """Run the demo's own cell, as shown (Run), and return what it printed."""
    page.locator(".cell[data-cell='rope']").get_by_role("button", name="Run", exact=True).click()
    poll(
        page,
        "() => document.querySelector(`.cell[data-cell='rope']`).dataset.status",
        lambda status: status not in (None, "running"),
        timeout=60,
    )
    assert (
        page.evaluate("() => document.querySelector(`.cell[data-cell='rope']`).dataset.status")
        == "done"
    )
    return page.locator(".cell[data-cell='rope'] .cell-output").inner_text()


def printed(output: str, start: str) -> list[float]:
    """The numbers of the printed line that starts with `start` (numpy's [a b c d])."""
    [line] = [line for line in output.splitlines() if line.startswith(start)]
    return [
        float(x)
        for x in re.findall(r"-?\d+\.?\d*(?:e[-+]?\d+)?", line.split("[", 1)[1].split("]")[0])
    ]


def numbers_table(page, figure):
    """The rows of a figure's "Show the numbers" table, opened as a learner would."""
    details = page.evaluate("(s) => document.querySelector(s).getAttribute(`aria-details`)", figure)
    page.locator(f"#{details} summary").click()
    # The table is built on the details' toggle event, which fires a task after the click.
    return poll(
        page,
        """(s) => [...document
                     .getElementById(document.querySelector(s).getAttribute('aria-details'))
                     .querySelectorAll('tbody tr')]
                     .map((r) => [...r.cells].map((c) => c.textContent))""",
        lambda rows: len(rows) > 0,
        arg=figure,
    )


def number(text):
    return float(text.replace("−", "-"))


def show_as_served(page) -> None:
    """Put the demo's sliders and switch back as served (and its tables closed), and wait until
    it shows them.

    A test that runs the demo's cell leaves its output and what it ran in the learner's Python,
    and takes its own `lesson`.
    """
    put_back(page, "#rope")
    wait_rendered(page, "#rope", "5/2/100/8@10000:0")
    poll(
        page,
        "() => document.querySelector('#rope').dataset.meanShown",
        lambda v: v == "alike@10000",
    )


def test_the_score_depends_on_the_offset_alone_three_ways(as_served):
    lesson = as_served
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
    assert (
        "differs from the adjacent layout by 0 (exactly)"
        in demo.locator(".rope-pairing").inner_text()
    )

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


def test_the_score_matrix_is_toeplitz_not_symmetric_and_the_bound_decays(as_served):
    lesson = as_served
    wait_rendered(lesson, "#rope", "5/2/100/8@10000:0")
    assert float(dataset(lesson, "#rope", "toeplitz")) < 1e-12
    q, k = np.random.default_rng(0).standard_normal((2, 8))
    scores = np.array(
        [[rotated(q, a, 8, 1e4) @ rotated(k, b, 8, 1e4) for b in range(32)] for a in range(32)]
    )
    scores /= np.linalg.norm(q) * np.linalg.norm(k)
    assert float(dataset(lesson, "#rope", "asymmetry")) == pytest.approx(
        np.abs(scores - scores.T).max(), abs=1e-12
    )
    assert np.abs(scores - scores.T).max() > 0.05
    # Coloured over the range the scores reach (±0.31 here), not ±1, where the matrix was almost
    # white and its asymmetry hard to see: the bar says the range, and the most extreme score is
    # drawn in an end colour of the map.
    bar = colour_bar(lesson, "#rope .matrix-figure .colour-bar")
    assert (
        bar["high"] == pytest.approx(np.abs(scores).max(), abs=1e-12)
        and bar["low"] == -bar["high"] < -0.2
    )
    assert bar["labels"] == [f"−{np.abs(scores).max():.4g}", "0", f"+{np.abs(scores).max():.4g}"]
    a, b = np.unravel_index(np.argmax(np.abs(scores)), scores.shape)
    pixel = lesson.evaluate(
        "([x, y]) => Array.from(document.querySelector('.rope-matrix').getContext('2d')"
        ".getImageData(x, y, 1, 1).data)",
        [int(b), int(a)],
    )
    assert pixel in ([59, 76, 192, 255], [180, 4, 38, 255])  # COOL_WARM's blue and red ends
    axes = matrix_axes(lesson, ".rope-matrix")
    assert (axes["rowTitle"], axes["columnTitle"]) == ("query position a", "key position b")
    assert axes["rows"] == axes["columns"] and axes["rows"][:2] == ["0", "10"]
    table = numbers_table(lesson, ".rope-matrix")
    assert len(table) == 8
    for a, row in enumerate(table):
        assert row[0] == str(a)
        # 6 decimals shown
        np.testing.assert_allclose([number(t) for t in row[1:]], scores[a, :8], atol=1e-6)

    decay = numbers_table(lesson, ".rope-decay")
    header = lesson.evaluate(
        "() => [...document"
        ".getElementById(document.querySelector('.rope-decay').getAttribute('aria-details'))"
        ".querySelectorAll('thead th')].map((c) => c.textContent)"
    )
    bases = [float(h.split()[1]) for h in header[1:]]
    assert bases == [10000.0, 100.0, 1000000.0] and "(yours)" in header[1]
    for row in decay:
        t = int(row[0])
        for base, text in zip(bases, row[1:]):
            # 4 decimals shown
            assert number(text) == pytest.approx(decay_by_hand(t, 128, base), abs=1e-4)
    assert decay[0][1:] == ["32.5000"] * 3  # (d/2 + 1) / 2 at offset 0, every base, d = 128
    label = lesson.locator(".rope-decay").get_attribute("aria-label")
    assert "base 10000 (yours): 32.500 at 0" in label
    poll(
        lesson, "() => document.querySelectorAll('.rope-decay-legend li').length", lambda n: n == 3
    )
    # The key names each line, on the chart's figure; the axis rises to a round 40 above 32.5.
    decay_chart = chart_geometry(lesson, ".rope-decay")
    assert decay_chart["key"] == ["base 10000 (yours)", "base 100", "base 1000000"]
    assert min(line["top"] for line in decay_chart["series"]) > decay_chart["gridTop"] + 10


def test_alike_q_and_k_score_less_with_the_offset_on_average_and_independent_ones_do_not(lesson):
    demo = lesson.locator("#rope")
    wait_rendered(lesson, "#rope", "5/2/100/8@10000:0")
    poll(
        lesson,
        "() => document.querySelector('#rope').dataset.meanShown",
        lambda v: v == "alike@10000",
    )
    assert demo.get_by_label("Alike").is_checked()

    # Alike (k = q): one line, falling from d = 128, with ripples; its numbers are the sums.
    rows = numbers_table(lesson, ".rope-mean")
    assert lesson.evaluate(MEAN_HEADER) == ["offset", "mean score, k = q"]
    assert [int(row[0]) for row in rows] == [0, 10, 100, 200, 300, 400, 500, 511]
    for row in rows:
        # 4 decimals
        assert number(row[1]) == pytest.approx(mean_by_hand(int(row[0]), 128, 10000.0), abs=1e-4)
    assert rows[0][1] == "128.0000"  # the mean of |q|^2 = d at offset 0
    label = lesson.locator(".rope-mean").get_attribute("aria-label")
    assert "k = q" in label and "base 10000" in label
    assert "128.00 at 0, 85.64 at 10, 61.09 at 100, 38.21 at 500" in label
    [line] = lesson.evaluate(MEAN_LINES)
    assert len(line) == 512
    assert line[0] < min(line[1:])  # highest at offset 0 (SVG y grows downwards)
    assert sum(line[400:]) / 112 > sum(line[:10]) / 10  # lower far away: the mean falls...
    assert any(b < a for a, b in zip(line, line[1:]))  # ...but not monotonically: ripples
    assert demo.locator(".rope-mean-legend li").count() == 1
    assert "mean score with k = q" in demo.locator(".rope-mean-legend").inner_text()
    # The charts' words in the prose's notation: S_j, (R_m q) and w_i were drawn raw; now each
    # index is set low (a shifted <tspan> in SVG, <sub> in the key), and no "_" is left.
    words = lesson.evaluate(
        """() => [...document.querySelectorAll('#rope text.axis, #rope .chart-key-list li')]
                 .map((t) => [t.textContent,
                              [...t.querySelectorAll('tspan.subscript, sub')]
                                .map((s) => s.textContent).join('')])"""
    )
    assert ["score (Rm q) · (Rn k)", "mn"] in words and ["mean |Sj|", "j"] in words
    assert ["mean score with k = q: Σ 2 cos((m − n)·wi), base 10000", "i"] in words
    assert [text for text, _ in words if "_" in text] == []
    # Its Python, run in the page: the exact sums, and 10,000 draws of q within four standard
    # errors of them (the score's standard deviation with k = q is at most 16: 4 * 16 / 100).
    demo.locator(".show-python summary").click()
    assert "rope_mean_score" in code_of(lesson, "rope")
    output = run_rope_cell(lesson)
    exact = printed(output, "sum of 2 cos(t w_i):")
    assert exact == [128.0, 85.64, 61.09, 38.21]
    assert all(abs(a - b) < 0.64 for a, b in zip(printed(output, "mean over 10,000 draws:"), exact))

    # Independent: the mean score is 0 and the mean |score| one number, at every offset.
    demo.get_by_label("Independent").check()
    poll(
        lesson,
        "() => document.querySelector('#rope').dataset.meanShown",
        lambda v: v == "independent@10000",
    )
    header = poll(lesson, MEAN_HEADER, lambda h: len(h) == 3)  # the open table follows the switch
    assert header == ["offset", "mean score", "mean |score|"]
    rows = lesson.evaluate(MEAN_ROWS)
    assert len(rows) == 8
    for row in rows:
        assert row[1] == "0.0000"
        assert number(row[2]) == pytest.approx(independent_by_hand(128), abs=1e-4)
    assert rows[0][2] == "9.0094"
    zero, size = lesson.evaluate(MEAN_LINES)
    assert len(set(zero)) == 1 and len(set(size)) == 1  # flat: one height each, all along
    assert size[0] < zero[0]  # the mean |score| above the mean score of 0
    label = lesson.locator(".rope-mean").get_attribute("aria-label")
    assert "independent" in label and "mean 0 and mean |score| 9.0094 at every offset" in label
    assert demo.locator(".rope-mean-legend li").all_inner_texts() == [
        "mean score: 0",
        "mean |score|: 9.01",
    ]
    assert "rope_independent_abs_score" in code_of(lesson, "rope")
    output = run_rope_cell(lesson)
    # 10,000 draws: the mean score within four standard errors of 0 (sqrt(128) / 100 each), the
    # mean |score| within four of 9.0094 (|score| has the standard deviation 6.8)
    assert all(abs(v) < 0.46 for v in printed(output, "mean score:"))
    sizes = printed(output, "mean |score|:")
    assert len(sizes) == 4 and all(abs(v - 9.0094) < 0.28 for v in sizes)
    assert "exact: 9.0094" in output
    # The switch only redraws: the rest of the demo is as it was, and nothing failed.
    assert dataset(lesson, "#rope", "rendered") == "5/2/100/8@10000:0"
    assert demo.locator(".rope-problem").is_hidden()

    # Back to alike, with another base: the curve follows the base slider.
    demo.get_by_label("Alike").check()
    demo.get_by_role("slider", name="Base").press("End")  # 10^6
    poll(
        lesson,
        "() => document.querySelector('#rope').dataset.meanShown",
        lambda v: v == "alike@1000000",
    )
    rows = poll(lesson, MEAN_ROWS, lambda r: len(r) == 8 and len(r[0]) == 2 and r[-2][1] != "—")
    for row in rows:
        assert number(row[1]) == pytest.approx(mean_by_hand(int(row[0]), 128, 1e6), abs=1e-4)
    assert "base 1000000" in lesson.locator(".rope-mean").get_attribute("aria-label")


def test_the_switch_is_a_setting_of_links_and_embeds(page, site_url):
    page.goto(f"{site_url}embed.html?demo=rope#qk=independent")
    assert wait_for_state(page) == "ready"
    poll(
        page,
        "() => document.querySelector('#rope')?.dataset.meanShown",
        lambda v: v == "independent@10000",
    )
    assert page.locator("#rope input[name=qk][value=independent]").is_checked()
    assert page.locator(".share-notices li").count() == 0

    page.goto("about:blank")  # a new load: only the fragment differs, which alone would not reload
    page.goto(f"{site_url}embed.html?demo=rope#qk=both")
    assert wait_for_state(page) == "ready"
    poll(
        page,
        "() => document.querySelector('#rope')?.dataset.meanShown",
        lambda v: v == "alike@10000",
    )
    assert page.locator(".share-notices li").all_inner_texts() == [
        "Query and key: “both” is not one of alike, independent; it stays alike.",
    ]
