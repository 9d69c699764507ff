"""The lesson's demos, driven in headless Chromium as a learner would: type, shuffle, toggle,
slide, read the tables, and check the numbers the page shows against pelab under CPython."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pelab
from conftest import poll

pytestmark = pytest.mark.browser


def dataset(page, selector: str, key: str):
    return page.evaluate("([s, k]) => document.querySelector(s)?.dataset[k] ?? null", [selector, key])


def cell_values(page, selector: str) -> list[list[float]]:
    """The full-precision values behind a vector table (each cell's title holds its value)."""
    return page.evaluate(
        """(s) => [...document.querySelectorAll(s + " tbody tr")].map(tr =>
             [...tr.querySelectorAll("td[title]")].map(td => Number(td.title.split(": ")[1])))""",
        selector,
    )


# ---- 1. attention is order-blind


def test_without_positions_the_shuffle_only_moves_rows(lesson, page_log):
    demo = lesson.locator("#order-blind")
    poll(lesson, "() => document.querySelector('.attention-summary').dataset.pooledDiff", lambda v: v is not None)
    assert demo.locator(".attention-original-title").inner_text() == "dog bites man"
    assert demo.locator(".attention-shuffled-title").inner_text() == "man bites dog"
    assert float(dataset(lesson, ".attention-summary", "tokenMatch")) < 1e-12
    assert float(dataset(lesson, ".attention-summary", "pooledDiff")) < 1e-12
    assert "The same" in demo.locator(".attention-verdict").inner_text()
    notes = demo.locator(".attention-shuffled .vector-note").all_inner_texts()
    assert notes == ["= row 2 above", "= row 1 above", "= row 0 above"]
    original = cell_values(lesson, ".attention-original")
    shuffled = cell_values(lesson, ".attention-shuffled")
    np.testing.assert_allclose(shuffled, original[::-1], atol=1e-12)  # same vectors, rows reversed
    assert page_log.console_errors() == []


def test_adding_positions_makes_the_two_orders_differ(lesson):
    demo = lesson.locator("#order-blind")
    poll(lesson, "() => document.querySelector('.attention-summary').dataset.pooledDiff", lambda v: v is not None)
    demo.get_by_label("Add positional encoding").check()
    poll(lesson, "() => document.querySelector('.attention-summary').dataset.withPe", lambda v: v == "true")
    pooled = float(dataset(lesson, ".attention-summary", "pooledDiff"))
    expected = pelab.order_blindness("dog bites man", [2, 1, 0], with_pe=True)
    assert pooled == pytest.approx(expected.pooled_diff, abs=1e-12)
    assert pooled > 1e-3
    assert "Different" in demo.locator(".attention-verdict").inner_text()
    assert demo.locator(".attention-pooled-diff").inner_text() == f"{pooled:.4f}"
    assert "≠" in "".join(demo.locator(".attention-shuffled .vector-note").all_inner_texts())


def test_typed_sentences_with_repeated_words_and_single_words_work(lesson):
    demo = lesson.locator("#order-blind")
    box = demo.get_by_label("Sentence")
    box.fill("the cat saw the dog")
    poll(lesson, "() => document.querySelectorAll('.attention-original tbody tr').length", lambda n: n == 5)
    # A fixed Math.random makes the shuffle [0, 3, 1, 4, 2]: a random one only swaps the two "the"s
    # (the same text, rightly) once in 119 shuffles.
    lesson.evaluate("() => { Math.random = () => 0.5; }")
    demo.get_by_role("button", name="Shuffle").click()
    poll(lesson, "() => document.querySelector('.attention-shuffled-title').textContent", lambda t: t == "the the cat dog saw")
    assert float(dataset(lesson, ".attention-summary", "tokenMatch")) < 1e-12
    assert all(note.startswith("=") for note in demo.locator(".attention-shuffled .vector-note").all_inner_texts())
    box.fill("hello")
    poll(lesson, "() => document.querySelectorAll('.attention-original tbody tr').length", lambda n: n == 1)
    assert float(dataset(lesson, ".attention-summary", "pooledDiff")) == 0


def test_the_classic_pair_is_one_click_away_and_markup_is_shown_as_text(lesson):
    demo = lesson.locator("#order-blind")
    box = demo.get_by_label("Sentence")
    box.fill("<img src=x onerror=alert(1)> bites")
    poll(lesson, "() => document.querySelectorAll('.attention-original tbody tr').length", lambda n: n == 4)
    assert lesson.locator("#order-blind img").count() == 0
    assert "<img" in demo.locator(".attention-original tbody th").first.inner_text()
    demo.get_by_role("button", name="dog bites man ↔ man bites dog").click()
    poll(lesson, "() => document.querySelector('.attention-shuffled-title').textContent", lambda t: t == "man bites dog")
    assert box.input_value() == "dog bites man"


# ---- 2. the formula and the worked example


def formula_values(page) -> list[str]:
    return page.locator("#formula .formula-table tbody tr td:last-child").all_inner_texts()


def test_the_formula_table_reproduces_the_worked_example(lesson):
    demo = lesson.locator("#formula")
    poll(lesson, "() => document.querySelector('.formula-table').dataset.rendered", lambda v: v == "1/4")
    assert formula_values(lesson) == ["0.841471", "0.540302", "0.010000", "0.999950"]
    # the seeds' four decimals, 0.8415 0.5403 0.0100 0.9999, each within 1e-4 of what is shown
    for shown, seed in zip(formula_values(lesson), [0.8415, 0.5403, 0.0100, 0.9999]):
        assert abs(float(shown) - seed) <= 1e-4
    assert demo.locator(".formula-example").is_visible()
    assert "0.99995" in demo.locator(".formula-example").inner_text()
    first = demo.locator(".formula-table tbody tr").first.locator("td").all_inner_texts()
    assert first[:2] == ["0", "0"] and first[4] == "sin(1.000000)"
    demo.get_by_role("slider", name="Position").press("ArrowRight")
    poll(lesson, "() => document.querySelector('.formula-table').dataset.rendered", lambda v: v == "2/4")
    assert formula_values(lesson) == ["0.909297", "−0.416147", "0.019999", "0.999800"]
    for shown, seed in zip(formula_values(lesson), [0.9093, -0.4161, 0.0200, 0.9998]):
        assert abs(float(shown.replace("−", "-")) - seed) <= 1e-4
    demo.get_by_role("slider", name="d_model").press("End")
    poll(lesson, "() => document.querySelector('.formula-table').dataset.rendered", lambda v: v == "2/16")
    expected = [f"{v:.6f}".replace("-", "−") for v in pelab.sinusoidal(3, 16)[2]]
    assert formula_values(lesson) == expected
    assert not demo.locator(".formula-example").is_visible()


# ---- 3. waves and the clock


def dial_angles(page) -> dict[int, float]:
    return {
        int(pair): float(angle)
        for pair, angle in page.evaluate(
            "() => [...document.querySelectorAll('.dial')].map(d => [d.dataset.pair, d.dataset.angle])"
        )
    }


def test_the_clock_hands_turn_at_each_pairs_own_speed(lesson):
    demo = lesson.locator("#waves")
    poll(lesson, "() => document.querySelector('#waves').dataset.rendered", lambda v: v == "128@10000:3")
    angles = dial_angles(lesson)
    assert sorted(angles) == [0, 1, 2, 5, 10, 19, 34, 63]
    omega = pelab.angular_frequencies(128)
    for pair, angle in angles.items():
        assert angle == pytest.approx((3 * omega[pair]) % (2 * math.pi), abs=1e-12)
    demo.get_by_role("slider", name="Position").press("ArrowRight")
    poll(lesson, "() => document.querySelector('#waves').dataset.rendered", lambda v: v == "128@10000:4")
    later = dial_angles(lesson)
    assert later[0] == pytest.approx(4.0) and later[63] - angles[63] == pytest.approx(omega[63], abs=1e-12)
    assert lesson.locator("#waves .waves-chart path.wave").count() == 6  # 3 pairs, sine and cosine
    demo.get_by_role("checkbox", name="i = 63").check()
    poll(lesson, "() => document.querySelectorAll('#waves .waves-chart path.wave').length", lambda n: n == 8)
    assert lesson.locator("#waves .wavelength-chart path.wavelength").count() == 1
    label = lesson.locator("#waves .wavelength-chart").get_attribute("aria-label")
    slowest = float(f"{pelab.wavelengths(128)[-1]:.4g}")  # 4 significant figures, as the page shows
    assert f"about {int(slowest) if slowest.is_integer() else slowest} positions for i = 63" in label


def test_the_chosen_position_is_the_highlighted_heatmap_row_and_back(lesson):
    waves = lesson.locator("#waves")
    poll(lesson, "() => document.querySelector('.heatmap-row').dataset.pos", lambda v: v == "3")
    slider = waves.get_by_role("slider", name="Position")
    for _ in range(4):
        slider.press("ArrowRight")
    poll(lesson, "() => document.querySelector('.heatmap-row').dataset.pos", lambda v: v == "7")
    assert "pos 7" in lesson.locator(".heatmap-row").inner_text()
    canvas = lesson.locator(".heatmap-canvas")
    box = canvas.bounding_box()
    canvas.click(position={"x": box["width"] / 2, "y": (20 + 0.5) * box["height"] / 64})
    poll(lesson, "() => document.querySelector('#waves-pos').value", lambda v: v == "20")
    poll(lesson, "() => document.querySelector('#waves').dataset.rendered", lambda v: v == "128@10000:20")
    assert waves.locator("output[for='waves-pos']").inner_text() == "20"


# ---- 4. added, not concatenated


def test_adding_keeps_the_width_and_the_encoding_ignores_the_word(lesson):
    demo = lesson.locator("#added")
    poll(lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v == "dog@1")
    embedding, encoding, total = cell_values(lesson, ".added-table")
    assert len(embedding) == len(encoding) == len(total) == 8
    np.testing.assert_allclose(encoding, pelab.sinusoidal(2, 8)[1], atol=1e-12)
    np.testing.assert_allclose(total, np.add(embedding, encoding), atol=1e-12)
    assert demo.locator(".added-table .vector-note").all_inner_texts() == ["(8,)"] * 3
    assert len(cell_values(lesson, ".added-concat")[0]) == 16
    assert demo.locator(".added-concat .vector-note").inner_text() == "(16,)"
    demo.get_by_label("Word").fill("cat")
    poll(lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v == "cat@1")
    cat_embedding, cat_encoding, _ = cell_values(lesson, ".added-table")
    assert cat_encoding == encoding and cat_embedding != embedding


def test_table_cells_take_the_heatmaps_colour_for_their_number(lesson):
    """Coloured numbers (app/colors.js) pick the colour-map entry pelab.to_rgba picks."""
    poll(lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v == "dog@1")
    poll(lesson, "() => document.querySelectorAll('.relative-table td[title]').length", lambda n: n > 0)
    for selector, limit in ((".attention-original", 1.5), (".added-table", 2.0), (".relative-table", 1.0)):
        values = [value for row in cell_values(lesson, selector) for value in row]
        colours = lesson.evaluate(
            """(s) => [...document.querySelectorAll(s + " tbody tr td[title]")].map((td) => getComputedStyle(td).backgroundColor)""",
            selector,
        )
        expected = pelab.to_rgba(np.array(values), -limit, limit)[:, :3].tolist()
        assert len(values) >= 8 and colours == [f"rgb({r}, {g}, {b})" for r, g, b in expected]
    # Exact halves, where Math.round goes up and numpy's rint to even, and their neighbours.
    for limit in (1.0, 1.5, 2.0):
        ties = -limit + (np.arange(255) + 0.5) / 255 * (2 * limit)
        values = np.concatenate([ties, np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf), [-9.0, 9.0]])
        entries = lesson.evaluate(
            """async ([values, limit]) => {
                 const { entryFor } = await import(new URL("app/colors.js", document.baseURI));
                 return values.map((value) => entryFor(value, limit, 256));
               }""",
            [values.tolist(), limit],
        )
        np.testing.assert_array_equal(pelab.COOL_WARM[entries], pelab.to_rgba(values, -limit, limit))


# ---- 6. every demo shows its Python


def test_every_demo_shows_the_python_behind_it(lesson):
    poll(lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v == "dog@1")
    for summary in lesson.locator("section.demo .show-python summary").all():
        summary.click()  # open each, as a learner would: a hidden editor shows its text once opened
    codes = poll(
        lesson,
        """() => Object.fromEntries([...document.querySelectorAll('section.demo .show-python')].map(d =>
             [d.closest('section').id, [...(d.querySelector('.cell-editor').shadowRoot?.querySelectorAll('.cm-line') ?? [])]
               .map(l => l.textContent).join('\\n')]))""",
        lambda codes: all(code.startswith("import") for code in codes.values()),
    )
    assert set(codes) == {
        "order-blind", "formula", "waves", "heatmap-demo", "added", "relative", "similarity", "learned", "extrapolation",
    }
    for code in codes.values():
        assert code.startswith("import") and "pelab." in code
    assert "pelab.sinusoidal(seq_len=64, d_model=128, base=10000)" in codes["heatmap-demo"]
    assert "pelab.formula_terms(pos=1, d_model=4, base=10000)" in codes["formula"]
    heatmap = lesson.locator("#heatmap-demo")
    heatmap.locator(".show-python summary").click()  # closed again: the code follows the slider anyway
    heatmap.get_by_role("slider", name="d_model").press("ArrowRight")
    heatmap.locator(".show-python summary").click()
    poll(
        lesson,
        "() => document.querySelector('#heatmap-demo .cell-editor').shadowRoot.querySelector('.cm-content').textContent",
        lambda t: "d_model=130" in t,
    )


# ---- hostile text anywhere: shown as text, never parsed as HTML

HOSTILE = "<img src=x onerror=alert(1)>"


def test_any_text_is_shown_as_text_and_long_sentences_are_cut_with_a_notice(lesson):
    dialogs = []
    lesson.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    words = ["<img/src=x/onerror=alert(1)>", "🐶", "שלום", "مرحبا", "<b>bold</b>", "ｗｉｄｅ", "e\u0301", "\u202eevil"]
    sentence = " ".join(words[k % len(words)] + str(k) for k in range(2_000))[:10_000]
    demo = lesson.locator("#order-blind")
    demo.get_by_label("Sentence").fill(sentence)
    poll(lesson, "() => document.querySelectorAll('.attention-original tbody tr').length", lambda n: n == 24)
    notice = demo.locator(".attention-notice")
    assert notice.is_visible() and notice.inner_text() == (
        "Only the first 24 words are used; the rest of the sentence was left out."
    )
    tokens = demo.locator(".attention-original tbody th").all_inner_texts()
    assert tokens[:8] == [word + str(k) for k, word in enumerate(words)]
    assert lesson.evaluate("() => [...document.querySelectorAll('main img:not(.hero img, .heatmap-placeholder), main b')].map(e => e.outerHTML.slice(0, 200))") == []

    added = lesson.locator("#added")
    added.get_by_label("Word").fill(words[0])
    poll(lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v.startswith("<img"))
    assert words[0] in added.inner_text() and added.locator("img").count() == 0

    from test_cells_page import output, type_code, wait_done  # noqa: PLC0415 (the cells' own helpers)

    type_code(lesson, "scratch", f"print({HOSTILE!r})\nraise ValueError('<b>bold</b> {HOSTILE}')")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "failed"
    said = output(lesson, "scratch")
    assert said.startswith(HOSTILE) and f"ValueError: <b>bold</b> {HOSTILE}" in said
    assert lesson.locator(".cell-output img, .cell-output b").count() == 0
    assert dialogs == []
