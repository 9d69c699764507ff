"""The attention demo: without positions a shuffle only moves rows; with them the orders differ."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import cell_values, dataset, poll, put_back

HOSTILE = "<img src=x onerror=alert(1)>"

# The sentence each table shows, and the summary's switches: as served, the classic pair.
SHOWN = """() => [
  document.querySelector('.attention-original-title').textContent,
  document.querySelector('.attention-shuffled-title').textContent,
  document.querySelector('.attention-summary').dataset.withPe ?? null,
  document.querySelector('.attention-summary').dataset.causal ?? null,
]"""


def show_as_served(page) -> None:
    """Put the demo's sentence and switches back as served, Math.random as the page's own, and
    wait until the demo shows them."""
    page.evaluate("() => { window.__random ??= Math.random; Math.random = window.__random; }")
    put_back(page, "#attention")
    poll(page, SHOWN, lambda shown: shown == ["dog bites man", "man bites dog", "false", "false"])


def test_without_positions_the_shuffle_only_moves_rows(as_served, booted_lesson):
    lesson, page_log = as_served, booted_lesson[1]
    demo = lesson.locator("#attention")
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.pooledDiff",
        lambda v: v is not None,
    )
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


def test_adding_positions_makes_the_two_orders_differ(as_served):
    lesson = as_served
    demo = lesson.locator("#attention")
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.pooledDiff",
        lambda v: v is not None,
    )
    demo.get_by_label("Add positional encoding").check()
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.withPe",
        lambda v: v == "true",
    )
    pooled = float(dataset(lesson, ".attention-summary", "pooledDiff"))
    expected = pelab.order_blindness("dog bites man", [2, 1, 0], with_pe=True)
    assert pooled == pytest.approx(expected.pooled_diff, abs=1e-12)
    assert pooled > 1e-3
    assert "Different" in demo.locator(".attention-verdict").inner_text()
    assert demo.locator(".attention-pooled-diff").inner_text() == f"{pooled:.4f}"
    assert "≠" in "".join(demo.locator(".attention-shuffled .vector-note").all_inner_texts())


def test_typed_sentences_with_repeated_words_and_single_words_work(as_served):
    lesson = as_served
    demo = lesson.locator("#attention")
    box = demo.get_by_label("Sentence")
    box.fill("the cat saw the dog")
    poll(
        lesson,
        "() => document.querySelectorAll('.attention-original tbody tr').length",
        lambda n: n == 5,
    )
    # A fixed Math.random makes the shuffle [0, 3, 1, 4, 2]: a random one only swaps the two "the"s
    # (the same text, rightly) once in 119 shuffles.
    lesson.evaluate("() => { Math.random = () => 0.5; }")
    demo.get_by_role("button", name="Shuffle").click()
    poll(
        lesson,
        "() => document.querySelector('.attention-shuffled-title').textContent",
        lambda t: t == "the the cat dog saw",
    )
    assert float(dataset(lesson, ".attention-summary", "tokenMatch")) < 1e-12
    assert all(
        note.startswith("=")
        for note in demo.locator(".attention-shuffled .vector-note").all_inner_texts()
    )
    box.fill("hello")
    poll(
        lesson,
        "() => document.querySelectorAll('.attention-original tbody tr').length",
        lambda n: n == 1,
    )
    assert float(dataset(lesson, ".attention-summary", "pooledDiff")) == 0
    # Chinese puts no spaces between words: each character is a token, as the hint says
    box.fill("狗咬人")
    poll(
        lesson,
        "() => document.querySelector('.attention-original-title').textContent",
        lambda title: title == "狗 咬 人",
    )
    assert "Chinese" in demo.locator("label[for=attention-sentence] .hint").inner_text()


def test_the_classic_pair_is_one_click_away_and_markup_is_shown_as_text(as_served):
    lesson = as_served
    demo = lesson.locator("#attention")
    box = demo.get_by_label("Sentence")
    box.fill("<img src=x onerror=alert(1)> bites")
    poll(
        lesson,
        "() => document.querySelectorAll('.attention-original tbody tr').length",
        lambda n: n == 4,
    )
    assert lesson.locator("#attention img").count() == 0
    assert "<img" in demo.locator(".attention-original tbody th").first.inner_text()
    demo.get_by_role("button", name="dog bites man ↔ man bites dog").click()
    poll(
        lesson,
        "() => document.querySelector('.attention-shuffled-title').textContent",
        lambda t: t == "man bites dog",
    )
    assert box.input_value() == "dog bites man"


def test_any_text_is_shown_as_text_and_long_sentences_are_cut_with_a_notice(lesson):
    dialogs = []
    lesson.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    words = [
        "<img/src=x/onerror=alert(1)>", "🐶", "שלום", "مرحبا", "<b>bold</b>", "ｗｉｄｅ", "e\u0301",
        "\u202eevil",
    ]
    sentence = " ".join(words[k % len(words)] + str(k) for k in range(2_000))[:10_000]
    demo = lesson.locator("#attention")
    demo.get_by_label("Sentence").fill(sentence)
    poll(
        lesson,
        "() => document.querySelectorAll('.attention-original tbody tr').length",
        lambda n: n == 24,
    )
    notice = demo.locator(".attention-notice")
    assert notice.is_visible() and notice.inner_text() == (
        "Only the first 24 words are used; the rest of the sentence was left out."
    )
    tokens = demo.locator(".attention-original tbody th").all_inner_texts()
    assert tokens[:8] == [word + str(k) for k, word in enumerate(words)]
    markup = lesson.evaluate(
        "() => [...document.querySelectorAll("
        "'main img:not(.hero img, .heatmap-placeholder), main b')]"
        ".map(e => e.outerHTML.slice(0, 200))"
    )
    assert markup == []

    added = lesson.locator("#added")
    added.get_by_label("Word", exact=True).fill(words[0])
    poll(
        lesson,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v.startswith("<img"),
    )
    assert words[0] in added.inner_text() and added.locator("img").count() == 0

    from test_cells import output, type_code, wait_done  # noqa: PLC0415 (the cells' own helpers)

    # a cell of this page (the attention demo's): its output is text too
    type_code(lesson, "added", f"print({HOSTILE!r})\nraise ValueError('<b>bold</b> {HOSTILE}')")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "added") == "failed"
    said = output(lesson, "added")
    assert said.startswith(HOSTILE) and f"ValueError: <b>bold</b> {HOSTILE}" in said
    assert lesson.locator(".cell-output img, .cell-output b").count() == 0
    assert dialogs == []


def test_a_causal_mask_breaks_the_symmetry_without_any_positions(as_served):
    lesson = as_served
    demo = lesson.locator("#attention")
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.pooledDiff",
        lambda v: v is not None,
    )
    demo.get_by_label("Causal mask (GPT-style)").check()
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.causal",
        lambda v: v == "true",
    )
    expected = pelab.order_blindness("dog bites man", [2, 1, 0], causal=True)
    assert float(dataset(lesson, ".attention-summary", "tokenMatch")) == pytest.approx(
        expected.token_match, abs=1e-12
    )
    assert float(dataset(lesson, ".attention-summary", "pooledDiff")) == pytest.approx(
        expected.pooled_diff, abs=1e-12
    )
    assert expected.token_match > 0.1
    assert "no positions at all" in demo.locator(".attention-verdict").inner_text()
    assert not demo.get_by_label("Add positional encoding").is_checked()
    # The table shows pelab's masked outputs, row by row.
    original = cell_values(lesson, ".attention-original")
    np.testing.assert_allclose(original, expected.outputs, atol=1e-12)
