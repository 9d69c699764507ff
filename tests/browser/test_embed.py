"""Embedding: embed.html?demo=NAME alone, state in the fragment, clamping with notices, and a
host page on another origin whose iframes resize and follow its theme."""

from __future__ import annotations

import re
import time

import pytest

from pages import PAGE_OF, all_figures_shown, hold_python, poll, wait_for_state
from quiz_lesson import right_value
from site_server import DIST, served

# The test's questions answered by picking an option (its numeric ones are typed).
CHOICES = ".quiz-question:not([hidden]):not([data-kind=numeric])"



def rendered(frame_or_page, selector: str):
    return frame_or_page.evaluate(
        "(s) => document.querySelector(s)?.dataset.rendered ?? null", selector
    )


def test_embed_shows_one_demo_with_the_state_of_its_link(page, site_url, page_log):
    page.goto(f"{site_url}embed.html?demo=heatmap#d_model=64&seq_len=32&base=1000")
    assert wait_for_state(page) == "ready"
    assert rendered(page, ".heatmap-canvas") == "32x64@1000"
    assert page.locator("section.demo").count() == 1 and page.locator("#heatmap").count() == 1
    assert page.locator(".share-notices").is_hidden()
    lesson = page.get_by_role("link", name="Open the full lesson")
    # the heatmap's chapter page, set up as the embed is
    href = lesson.get_attribute("href")
    assert f"/{PAGE_OF['heatmap']}#demo=heatmap&d_model=64&seq_len=32&base=1000" in href
    assert page.title().startswith("Every position gets its own fingerprint")
    assert page_log.foreign_requests(site_url) == [] and page_log.console_errors() == []


# Words that point at another part of the lesson; an embed holds its one section alone.
ELSEWHERE = r"\b(?:above|below the (?:clock|waves)|clock|section \d+)\b"


def test_an_embedded_heatmap_speaks_of_nothing_that_is_not_there(page, site_url):
    """The heatmap said "the position chosen on the clock above" in an embed, with no clock: the
    sentence about the clock, true in the chapter, is left out of the embed."""
    hold_python(page)  # the words and the first picture need no Python
    page.goto(f"{site_url}embed.html?demo=heatmap")
    page.locator("#heatmap-stripes").wait_for()
    words = page.locator("#heatmap-stripes").inner_text()
    assert "The outlined row is the chosen position" in words
    assert re.findall(ELSEWHERE, words, flags=re.I) == [], words
    page.goto(f"{site_url}{PAGE_OF['heatmap']}#heatmap")
    words = page.locator("#heatmap-stripes").inner_text()
    assert re.search(r"The clock of section \d+ shows the same position", words), words


def test_the_embedded_placeholder_has_the_live_heatmaps_box_as_on_the_chapter_page(
    page, site_url
):
    """The first picture (128 x 64 pixels, pixelated) fills the box the live canvas will fill,
    in the embed as on the chapter page: the heatmap's shape does not change when Python
    takes over, and nothing moves."""
    hold_python(page)
    boxes = {}
    for url in ("embed.html?demo=heatmap", f"{PAGE_OF['heatmap']}#heatmap"):
        page.goto(f"{site_url}{url}")
        page.locator(".heatmap-placeholder").wait_for()
        # its picture decoded (the element is there before its pixels are)
        page.wait_for_function(
            "() => { const img = document.querySelector('.heatmap-placeholder');"
            " return img.complete && img.naturalWidth > 0; }"
        )
        boxes[url] = page.evaluate(
            """() => { const box = (s) => { const r = document.querySelector(s)
                         .getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
                       const img = document.querySelector('.heatmap-placeholder');
                       return { img: box('.heatmap-placeholder'), canvas: box('.heatmap-canvas'),
                                pixelated: getComputedStyle(img).imageRendering,
                                natural: [img.naturalWidth, img.naturalHeight] }; }"""
        )
    for url, box in boxes.items():
        assert box["natural"] == [128, 64], url
        assert box["pixelated"] == "pixelated", url
        assert box["img"] == pytest.approx(box["canvas"], abs=0.5), url
    embed, chapter = boxes.values()
    assert embed["img"][3] == pytest.approx(chapter["img"][3], abs=1)  # the same height


def test_a_malformed_link_is_clamped_with_a_notice_never_blank(page, site_url):
    page.goto(
        f"{site_url}embed.html?demo=heatmap#d_model=100000&seq_len=abc&base=-5&colour=red&d_model=7"
    )
    assert wait_for_state(page) == "ready"
    notices = page.locator(".share-notices li").all_inner_texts()
    assert "d_model: 100000 is outside 2 to 512; using 512." in notices
    assert "d_model: 7 is not one of its steps; using 8." in notices
    assert any(
        n.startswith("Sequence length: “abc” is not a number from 1 to 512") for n in notices
    )
    assert any(n.startswith("Base: “-5” is not a number from 10 to 1000000") for n in notices)
    assert any("“colour” is not part of this demo" in n for n in notices)
    # the last d_model wins; the rest kept defaults
    assert rendered(page, ".heatmap-canvas") == "64x8@10000"


@pytest.mark.parametrize(
    "fragment, notices, shown",
    [
        (
            "d_model=1e9&seq_len=-40&base=Infinity",
            [
                "d_model: 1e9 is outside 2 to 512; using 512.",
                "Sequence length: -40 is outside 1 to 512; using 1.",
                "Base: “Infinity” is not a number from 10 to 1000000; it stays 10000.",
            ],
            "1x512@10000",
        ),
        (
            "d_model=NaN&seq_len=1000000000&base=1e400&base=-Infinity&base=0",
            [
                "d_model: “NaN” is not a number from 2 to 512; it stays 128.",
                "Sequence length: 1000000000 is outside 1 to 512; using 512.",
                "Base: “1e400” is not a number from 10 to 1000000; it stays 10000.",
                "Base: “-Infinity” is not a number from 10 to 1000000; it stays 10000.",
                "Base: “0” is not a number from 10 to 1000000; it stays 10000.",
            ],
            "512x128@10000",
        ),
    ],
)
def test_nan_infinity_huge_and_negative_settings_are_clamped_with_a_notice(
    page, site_url, fragment, notices, shown
):
    page.goto(f"{site_url}embed.html?demo=heatmap#{fragment}")
    assert wait_for_state(page) == "ready"
    assert page.locator(".share-notices li").all_inner_texts() == notices
    assert page.locator(".share-notices").is_visible()
    assert rendered(page, ".heatmap-canvas") == shown


def test_copy_link_and_embed_code_restore_the_state_exactly(page, site_url, browser):
    # The link's state, and the link and code copied, are the page's JavaScript (share.js): the
    # first page holds Python. The page the link opens boots it, to draw that state.
    hold_python(page)
    page.goto(f"{site_url}#demo=attention&sentence=the+cat+saw+the+dog&with_pe=1")
    demo = page.locator("#attention")
    # lesson.js adds a demo's share bar and applies the link's state to it in one task
    demo.locator(".share").wait_for()
    assert demo.get_by_label("Sentence").input_value() == "the cat saw the dog"
    assert demo.get_by_label("Add positional encoding").is_checked()
    demo.get_by_label("Sentence").fill("man bites dog")
    demo.get_by_role("button", name="Copy link").click()
    link = demo.locator(".share-text").input_value()
    assert link == (
        f"{site_url}{PAGE_OF['attention']}#demo=attention&sentence=man+bites+dog&with_pe=1&causal=0"
    )
    demo.get_by_role("button", name="Copy embed code").click()
    snippet = demo.locator(".share-text").input_value()
    assert snippet.startswith(
        f'<iframe src="{site_url}embed.html?demo=attention'
        '#sentence=man+bites+dog&amp;with_pe=1&amp;causal=0"'
    )
    for part in [
        'title="Positional Encoding Lab: Attention cannot see order"',
        'style="width: 100%; border: 0"',
        'loading="lazy"',
        'height="',
    ]:
        assert part in snippet
    other = page.context.new_page()  # same context: same network rules
    try:
        other.goto(link)
        assert wait_for_state(other) == "ready"
        poll(
            other,
            "() => document.querySelector('.attention-original-title').textContent",
            lambda t: t == "man bites dog",
        )
        assert other.locator("#attention").get_by_label("Add positional encoding").is_checked()
    finally:
        other.close()


def test_a_cell_can_be_embedded_with_its_code(page, site_url):
    page.goto(f"{site_url}embed.html?demo=cell#code=print(%22hi%22)%0A6*7")
    assert wait_for_state(page) == "ready"
    scratch = page.locator(".cell[data-cell='scratch']")  # the section's first cell
    scratch.locator(".cell-run").click()
    poll(page, "() => document.querySelector('.cell').dataset.status", lambda s: s == "done")
    assert scratch.locator(".cell-output").inner_text() == "hi\n42"


def test_a_quiz_embed_starts_no_python_and_downloads_none_of_it(page, quiz_site):
    """The quiz needs no Python: an embed of it (the SCORM quiz package launches one) starts no
    worker, fetches none of Pyodide's files and registers no service worker (whose offline copy
    of the lesson is mostly Python), and the quiz works. embed.html's start-python.js tag lists
    the same demos as registry.js WITHOUT_PYTHON, since the classic script cannot import it."""
    site_url, keys = quiz_site
    requested = []
    page.on("request", lambda request: requested.append(request.url.removeprefix(site_url)))
    page.goto(f"{site_url}embed.html?demo=quiz")
    assert wait_for_state(page) == "ready"
    assert page.locator("#boot").is_hidden()
    first = page.locator(CHOICES).first
    first.locator(f"input[value='{right_value(keys, first)}']").check()
    poll(page, "() => document.querySelector('.quiz-score').textContent", lambda t: "1 of" in t)
    # a Python started as the page parsed would have requested its runtime before the quiz was up
    assert not [w.url for w in page.workers], "no worker at all"
    assert not [path for path in requested if path.startswith(("pyodide/", "py/"))], requested
    assert page.evaluate("() => navigator.serviceWorker.getRegistration()") is None
    listed = page.evaluate(
        "() => document.querySelector('script[src$=\"start-python.js\"]').dataset.withoutPython"
    )
    registry = page.evaluate(
        "async () => (await import(new URL('app/demos/registry.js', document.baseURI)))"
        ".WITHOUT_PYTHON"
    )
    assert listed.split() == registry == ["quiz"]


def test_an_unknown_demo_is_explained(page, site_url):
    page.goto(f"{site_url}embed.html?demo=no-such-demo")
    assert wait_for_state(page) == "error"
    assert "no demo called “no-such-demo”" in page.inner_text(".boot-error-detail")
    assert "heatmap" in page.inner_text(".boot-error-detail")
    # The Python that start-python.js began is ended, not left booting for nothing.
    poll(
        page,
        "() => 0",
        lambda _: not any(w.url.endswith("/python/worker/main.js") for w in page.workers),
        timeout=10,
    )


@pytest.fixture
def host_url(tmp_path, site_url):
    """A course page on another origin (another port) embedding two demos."""
    (tmp_path / "course.html").write_text(
        f"""<!doctype html><html><head><title>A course</title>
<script src="{site_url}static/embed-host.js" defer></script></head><body>
<h1>Week 3</h1>
<iframe id="one" src="{site_url}embed.html?demo=heatmap#d_model=32&amp;seq_len=16"
  title="heatmap" width="100%" height="150"></iframe>
<iframe id="two"
  src="{site_url}embed.html?demo=attention&amp;theme=light#sentence=dog+bites+man&amp;with_pe=1"
  title="attention" width="100%" height="150"></iframe>
</body></html>"""
    )
    with served(tmp_path, isolated=False) as url:  # a plain static host
        yield f"{url}course.html"


def test_a_cross_origin_course_page_embeds_resizes_and_themes_two_demos(page, host_url, site_url):
    page.goto(host_url)
    one = page.frame_locator("#one")
    frames = {
        f.url.split("demo=")[1].split("&")[0].split("#")[0]: f
        for f in page.frames
        if "embed.html" in f.url
    }
    assert set(frames) == {"heatmap", "attention"}
    for frame in frames.values():
        assert wait_for_state(frame) == "ready"
    assert rendered(frames["heatmap"], ".heatmap-canvas") == "16x32@10000"  # the fragment applied
    poll(
        frames["attention"],
        "() => document.querySelector('.attention-summary').dataset.withPe",
        lambda v: v == "true",
    )
    for iframe, frame in (("#one", frames["heatmap"]), ("#two", frames["attention"])):
        deadline = time.monotonic() + 30
        while True:  # the host's iframe follows the demo's own height as it settles
            content = frame.evaluate(
                "() => Math.ceil(document.documentElement.getBoundingClientRect().height)"
            )
            given = page.evaluate("(s) => document.querySelector(s).clientHeight", iframe)
            if abs(content - given) <= 1 or time.monotonic() > deadline:
                break
            page.wait_for_timeout(100)
        assert abs(content - given) <= 1, (iframe, content, given)
        assert given > 400  # grew from the 150 px it was given
    assert frames["attention"].evaluate("() => document.documentElement.dataset.theme") == "light"
    dark = "() => getComputedStyle(document.body).backgroundColor"
    light_colour = frames["heatmap"].evaluate(dark)
    page.evaluate("() => PelabEmbed.setTheme('dark')")
    for frame in frames.values():
        poll(frame, "() => document.documentElement.dataset.theme", lambda t: t == "dark")
    assert frames["heatmap"].evaluate(dark) != light_colour
    assert one.locator(".heatmap-canvas").is_visible()


def test_the_site_works_under_a_sub_path(page, tmp_path):
    (tmp_path / "courses" / "ml").mkdir(parents=True)
    (tmp_path / "courses" / "ml" / "lab").symlink_to(DIST, target_is_directory=True)
    with served(tmp_path) as site:
        page.goto(f"{site}courses/ml/lab/embed.html?demo=formula#pos=2")
        assert wait_for_state(page) == "ready"
        poll(
            page,
            "() => document.querySelector('.formula-table').dataset.rendered",
            lambda v: v == "2/4",
        )


@pytest.mark.parametrize("failure", ["404", "network"])
def test_the_guide_says_so_when_the_lesson_cannot_be_read(page, site_url, failure):
    def refuse(route):
        # only the guide's own fetch of the lesson, not the embed frame's documents
        if route.request.resource_type != "fetch":
            return route.continue_()
        if failure == "404":
            return route.fulfill(status=404, body="not here")
        return route.abort()

    page.route(f"{site_url}*.html", refuse)  # the chapter pages the guide reads
    hold_python(page)  # the guide's live example (an embed) would boot it for nothing here
    page.goto(f"{site_url}embedding.html")
    message = page.locator(".reference-table tbody [role=alert]")
    message.wait_for()
    text = message.inner_text()
    assert "Could not read the lesson" in text and "Reload this page" in text
    if failure == "404":
        assert "404" in text


def test_the_guide_shows_the_pelab_quiz_messages_its_quiz_example_posts(page, quiz_site):
    """The guide's quiz example shows the counts each pelab:quiz message carries; the message
    also carries each marked answer, as SCORM would record it."""
    site_url, keys = quiz_site
    hold_python(page)  # the quiz needs none; the guide's live example would boot it for nothing
    page.goto(f"{site_url}embedding.html")
    page.evaluate(
        "() => { window.got = []; addEventListener('message', (e) => got.push(e.data)); }"
    )
    received = page.locator(".quiz-example-received")
    received.scroll_into_view_if_needed()  # the example iframe loads lazily
    quiz = page.frame_locator(".quiz-example-frame")
    total = poll(
        page,
        "() => document.querySelector('.quiz-example-frame').contentDocument"
        "?.querySelectorAll('.quiz-question:not([hidden])').length ?? 0",
        lambda n: n > 0,
    )
    poll(
        page,
        "() => document.querySelector('.quiz-example-received').textContent",
        lambda t: t.startswith("Received"),
    )
    questions = quiz.locator(CHOICES)
    questions.nth(0).locator(f"input[value='{right_value(keys, questions.nth(0))}']").check()
    questions.nth(1).locator(
        f"input:not([value='{right_value(keys, questions.nth(1))}'])"
    ).first.check()
    expected = f"Received pelab:quiz: 2 of {total} answered, 1 right."
    assert poll(
        page,
        "() => document.querySelector('.quiz-example-received').textContent",
        lambda t: t == expected,
    )
    # A message from anything but that frame is not believed: posted before the next real answer,
    # it would show until that answer's message replaced it.
    page.evaluate(
        "() => window.postMessage({type: 'pelab:quiz', answered: 9, correct: 9, total: 9}, '*')"
    )
    questions.nth(2).locator(f"input[value='{right_value(keys, questions.nth(2))}']").check()
    seen = []
    final = f"Received pelab:quiz: 3 of {total} answered, 2 right."
    poll(
        page,
        "() => document.querySelector('.quiz-example-received').textContent",
        lambda t: seen.append(t) or t == final,
    )
    assert not any("9 of 9" in text for text in seen)
    last = poll(
        page,
        "() => got.filter((m) => m.type === 'pelab:quiz').at(-1)",
        lambda m: m and len(m["questions"]) == 3,
    )
    assert (last["test"], last["mode"], last["answered"], last["correct"]) == (
        "lesson",
        "practice",
        3,
        2,
    )
    assert [q["result"] for q in last["questions"]] == ["correct", "wrong", "correct"]
    for record in last["questions"]:
        assert set(record) == {"id", "type", "response", "result", "correct", "objective"}
        assert record["id"] in keys and record["type"] in ("choice", "true-false", "numeric")


def test_stretching_embed_takes_its_radio_groups_from_the_link_and_clamps(page, site_url):
    page.goto(f"{site_url}embed.html?demo=stretching#model=codellama&method=yarn&scale=64")
    assert wait_for_state(page) == "ready"
    assert page.locator(".share-notices li").all_inner_texts() == [
        "Stretch: 64 is outside 1 to 32; using 32."
    ]
    assert rendered(page, "#stretching") == "codellama/32/yarn"
    method = page.get_by_role("group", name="Method", exact=True)
    assert method.get_by_role("radio", name="YaRN").is_checked()
    page.get_by_role("button", name="Copy link").click()
    assert (
        page.locator(".share-text")
        .input_value()
        .endswith("embed.html?demo=stretching#model=codellama&scale=32&method=yarn&stretch-quick=0")
    )


def test_an_unknown_option_in_a_link_keeps_the_current_one_with_a_notice(page, site_url):
    # Notices come from the link, parsed in JavaScript (share.js applyState); the options kept are
    # the first ones, whose figure is drawn from the shipped first result: Python is held.
    hold_python(page)
    page.goto(f"{site_url}embed.html?demo=stretching#method=%3Cb%3Elinear%3C%2Fb%3E&model=gpt2")
    all_figures_shown(page)
    assert page.locator(".share-notices li").all_inner_texts() == [
        "Method: “<b>linear</b>” is not one of none, interpolation, ntk, yarn, llama3; "
        "it stays none.",
        "Model: “gpt2” is not one of llama2, codellama, llama3; it stays llama2.",
    ]
    assert page.locator(".share-notices b").count() == 0  # shown as text, never as markup
    assert rendered(page, "#stretching") == "llama2/4/none"


def test_rope_embed_clamps_its_settings(page, site_url):
    page.goto(f"{site_url}embed.html?demo=rope#m=9000&d=7&base=100&shift=3")
    assert wait_for_state(page) == "ready"
    notices = page.locator(".share-notices li").all_inner_texts()
    assert "Query position: 9000 is outside 0 to 512; using 512." in notices
    assert "Head dimension: 7 is not one of its steps; using 8." in notices
    assert rendered(page, "#rope") == "512/2/3/8@100:0"


def test_an_embedded_experiment_asks_for_a_prediction_and_shows_the_answer_on_request(
    page, site_url
):
    """The extrapolation embed keeps its prediction: the answer is hidden until asked for, the
    verdict then claims no result (nothing was run), and the guess is no setting of the link."""
    hold_python(page)  # nothing is run: the prediction is JavaScript (app/controls/prediction.js)
    page.goto(f"{site_url}embed.html?demo=extrapolation")
    all_figures_shown(page)
    answer = page.locator(".prediction-answer")
    # there for print and no-JS
    assert answer.is_hidden() and "What it gives" in answer.inner_text()
    question = page.get_by_role("group", name="Predict first")
    question.get_by_role("radio", name="sinusoidal").check()
    question.get_by_role("button", name="Show me the answer").click()
    shown = question.get_by_role("button", name="Show me the answer")
    assert answer.is_visible() and shown.is_hidden()
    verdict = page.locator(".prediction-verdict")
    assert verdict.inner_text() == (
        "You expected sinusoidal. Compare that with the answer below, "
        "or run the experiment to check it."
    )
    assert page.evaluate("() => document.activeElement.classList.contains('prediction-verdict')")
    page.get_by_role("button", name="Copy link").click()
    assert "prediction" not in page.locator(".share-text").input_value()
