"""The teacher's kit in the browser: the guide links it and lists the site's SCORM packages with
their sizes (from scorm/packages.json: packages/scorm/'s, copied into the hosted site), says why
and how to get them when there are none (dist/ alone) or no list, and a chapter
page prints as a handout: the start-up panel, buttons, sliders' tracks and the map left out,
each control's label and value, the figures and the traps kept, and a PDF with its canvases."""

from __future__ import annotations

import html
import json
import re

import pytest

from class_report import (
    class_records,
    expected_report,
    moodle_text,
    open_report,
    plain_csv,
    shown,
)
from pages import hold_python, poll
from site_server import DIST, SCORM_PACKAGES, needs_packages, served
from tools.course import plain, read_course

LESSON_SECTION = "heatmap"  # the first chapter: sliders, canvases, SVG and a trap

DOWNLOAD_ROWS = """() => [...document.querySelectorAll(".scorm-downloads tbody tr")].map((row) => ({
  href: row.querySelector("a")?.getAttribute("href") ?? null,
  text: [...row.cells].map((cell) => cell.textContent),
}))"""



def size_text(size: int) -> str:
    """app/pages/package-downloads.js's sizeText, for the test's own expectation."""
    return f"{max(1, round(size / 1e3))} kB" if size < 1e6 else f"{size / 1e6:.1f} MB"


@needs_packages
def test_the_guide_links_the_kit_and_lists_each_package_the_build_wrote(page, site_url):
    """site_url serves dist/ with packages/scorm/ as its scorm/, as docs/hosting.md says to."""
    hold_python(page)
    page.goto(f"{site_url}embedding.html")
    assert page.locator("header a[href='teaching.html']").count() == 1
    assert page.locator("footer a[href='teaching.html']").count() == 1
    rows = poll(page, DOWNLOAD_ROWS, lambda rows: rows and rows[0]["href"])
    zips = sorted(SCORM_PACKAGES.glob("*.zip"))
    assert zips, "build.py packages wrote no SCORM package"
    listed = json.loads((SCORM_PACKAGES / "packages.json").read_text())["packages"]
    assert sorted(p["file"] for p in listed) == [z.name for z in zips]
    assert rows == [
        {
            "href": f"scorm/{p['file']}",
            "text": [p["file"], p["title"], size_text((SCORM_PACKAGES / p["file"]).stat().st_size)],
        }
        for p in listed
    ]
    # Each link is the package itself, served by the site.
    first = page.request.get(f"{site_url}scorm/{listed[-1]['file']}")
    assert first.ok and first.body()[:2] == b"PK"
    assert len(first.body()) == listed[-1]["bytes"]
    # The old sentence about the packages is gone.
    assert "one package per demo with questions in it" not in page.inner_text("main")


@pytest.mark.parametrize(
    "answer, says",
    [
        ({"status": 404, "body": "missing"}, "answered 404"),
        ({"status": 200, "body": '{"packages": []}'}, "built without SCORM packages"),
        ({"status": 200, "body": '{"packages": [{"file": "../x.zip", "title": "x", "bytes": 1}]}'},
         "no plain .zip file name"),
    ],
)
def test_without_a_usable_package_list_the_guide_says_why(page, site_url, answer, says):
    page.route("**/scorm/packages.json", lambda route: route.fulfill(
        status=answer["status"], body=answer["body"], content_type="application/json"))
    hold_python(page)
    page.goto(f"{site_url}embedding.html")
    rows = poll(
        page, DOWNLOAD_ROWS, lambda rows: rows and "No download links" in rows[0]["text"][0]
    )
    assert len(rows) == 1 and rows[0]["href"] is None
    assert says in rows[0]["text"][0] and "python3 build.py packages" in rows[0]["text"][0]


def test_dist_alone_has_no_package_and_its_guide_says_how_to_get_them(page):
    """dist/ as `build.py build` leaves it: its list names no package, and the guide says which
    command makes them and which folder to copy into the site."""
    hold_python(page)
    with served(DIST) as url:
        page.goto(f"{url}embedding.html")
        [row] = poll(page, DOWNLOAD_ROWS, lambda rows: rows and "No download" in rows[0]["text"][0])
    assert row["href"] is None
    assert row["text"][0] == (
        "No download links: this site was built without SCORM packages. python3 build.py "
        "packages writes the packages into packages/scorm/; copy that folder with the site."
    )


def test_the_kit_page_shows_every_chapter_with_the_builds_minutes(page, site_url):
    page.goto(f"{site_url}teaching.html")
    entrance = (DIST / "index.html").read_text()
    built = dict(re.findall(
        r'data-chapter="([\w-]+)">\s*<h3>.*?<span class="minutes">'
        r'<span class="number">(\d+)</span> min</span></h3>',
        entrance, flags=re.S))
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(".kit-chapter")]
      .map((c) => [c.dataset.chapter, c.querySelector(".kit-chapter-minutes .kit-minutes")
                   .textContent]))""")
    assert shown == built
    assert page.locator("a[href='answer-key.html']").count() == 1
    assert page.locator("#licence").is_visible()


PRINTED = """() => {
  const seen = (selector) =>
    [...document.querySelectorAll(selector)].map((e) => e.checkVisibility());
  return {
    boot: seen("#boot"), map: seen(".course-map"), buttons: seen("main button"),
    ranges: seen("input[type=range]"), labels: seen(".control label"),
    outputs: seen(".control output"), canvases: seen("main canvas"), traps: seen(".trap"),
    figures: [...document.querySelectorAll("main canvas")].map((c) => c.width * c.height > 0),
    external: [...document.querySelectorAll("main a[href^='http']")].map(
      (a) => getComputedStyle(a, "::after").content),
  };
}"""


def test_a_chapter_prints_as_a_handout_with_its_figures(lesson):
    page = lesson
    poll(page, "() => document.querySelector('.heatmap-canvas').dataset.rendered", lambda r: r)
    screen = page.evaluate(PRINTED)
    assert any(screen["buttons"]) and any(screen["ranges"])
    page.emulate_media(media="print")
    try:
        printed = page.evaluate(PRINTED)
    finally:
        page.emulate_media(media="screen")
    assert not any(printed["boot"]) and not any(printed["map"])
    assert not any(printed["buttons"]) and not any(printed["ranges"])
    assert printed["labels"] and all(printed["labels"]) and all(printed["outputs"])
    assert printed["canvases"] and all(printed["canvases"]) and all(printed["figures"])
    assert printed["traps"] and all(printed["traps"])
    assert all(content.startswith('" (') for content in printed["external"])

    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages >= 3, pages
    # Canvases print as images: the PDF holds at least one image per printed canvas.
    images = len(re.findall(rb"/Subtype\s*/Image", pdf))
    assert images >= len(printed["canvases"]), (images, len(printed["canvases"]))


# ---- the answer key and the class report (report.html)

def course_questions():
    return read_course().questions


def test_the_answer_key_holds_no_answer_until_the_teacher_asks_and_then_every_one(
    page, site_url
):
    questions = course_questions()
    served = page.request.get(f"{site_url}answer-key.html").text()
    # no key in the page: no explanation, no wrong option's "why", no mark on the right option
    some = next(q for q in questions if q.kind == "choice")
    assert "data-correct" not in served and "key-answer\"><strong>" not in served
    assert html.unescape(some.options[0].why or some.options[1].why)[:40] not in served
    page.goto(f"{site_url}answer-key.html")
    ids = page.evaluate(
        "() => [...document.querySelectorAll('.key-item[data-interaction]')]"
        ".map((i) => i.dataset.interaction)"
    )
    assert ids == [q.interaction_id for q in questions]
    assert page.locator(".key-reveal:visible").count() == 0
    page.get_by_role("button", name="Show the answers").click()
    poll(page, "() => document.querySelector('.key-status').textContent",
         lambda s: s.startswith("The answers are shown"))
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.key-item[data-interaction]')].map((i) => ({
             answer: i.querySelector('.key-answer').textContent,
             right: [...i.querySelectorAll('.key-codes li[data-right=true]')]
               .map((li) => li.dataset.code),
             whys: [...i.querySelectorAll('.key-codes .key-why:not([hidden])')].length,
             explained: i.querySelector('.key-explain').textContent.trim() !== '',
           }))"""
    )
    for question, item in zip(questions, shown):
        key = question.key
        assert item["explained"], question.name
        if question.kind == "numeric":
            assert item["answer"].startswith(f"Answer: {js_number(key['answer'])}, give or take")
        else:
            right = next(o for o in question.options if o.correct)
            assert item["right"] == [question.response_code(right)], question.name
            assert item["answer"] == f"Answer: code {question.response_code(right)}"
            assert item["whys"] == len(question.options) - 1
    # and it prints with them
    page.emulate_media(media="print")
    assert page.locator(".key-reveal").first.is_visible()


def js_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@pytest.mark.parametrize("kind", ["plain", "moodle"])
def test_the_class_report_shows_each_item_and_learner_from_either_file(page, site_url, kind):
    questions = course_questions()
    records = class_records(questions)
    text = plain_csv(records) if kind == "plain" else moodle_text(records)
    name = "class.csv" if kind == "plain" else "Course Quiz.txt"
    assert open_report(page, f"{site_url}report.html", name, "\ufeff" + text) == "shown"
    report = shown(page)
    items, learners = expected_report(records)
    assert {row["item"]: row["cells"][1:3] for row in report["items"]} == items
    assert report["learners"] == learners
    first = next(q for q in questions if q.interaction_id == records[0]["id"])
    wrong = next(o for o in first.options if not o.correct)
    row = report["items"][0]["cells"]
    # the most chosen wrong answer: the one Bo and Cy gave (Di's blank is no option)
    assert row[3] == f"{first.response_code(wrong)} (version a): 2 learner(s)"
    assert row[4] == plain(html.unescape(wrong.why))
    assert row[5] == "a: 1 of 4 (25%)"
    assert f"{len(records)} answers read" in report["status"]


@pytest.mark.parametrize(
    "name, text, says",
    [
        ("empty.csv", "", "empty.csv cannot be read. The file is empty."),
        ("foreign.csv", "name,score\r\nAda,3\r\n",
         "foreign.csv cannot be read. Row 1: this is not a file the report reads."),
        ("broken.csv",
         'learner,attempt,interaction_id,response,result\r\nAda,1,q,"2,correct\r\n',
         "broken.csv cannot be read. Row 2, column 4: a quoted field opens here and is never "
         "closed"),
        ("bad.csv", "learner,attempt,interaction_id,response,result\r\nAda,1,q,2,right\r\n",
         "bad.csv cannot be read. Row 2, column “result”: “right” is not a result the report "
         "counts"),
        ("sheet.xlsx", b"PK\x03\x04\x00\x00",
         "sheet.xlsx cannot be read. This is not a text file"),
    ],
)
def test_a_file_the_report_cannot_read_gets_a_message_naming_its_row_and_column(
    page, site_url, name, text, says
):
    assert open_report(page, f"{site_url}report.html", name, text) == "problem"
    report = shown(page)
    assert report["problem"].startswith(says), report["problem"]
    assert report["items"] == [] and page.locator(".report-results:visible").count() == 0


def test_the_report_shows_the_file_s_text_as_text(page, site_url):
    records = class_records(course_questions())
    records[0]["learner"] = '<img src=x onerror="window.ran=1">'
    assert open_report(page, f"{site_url}report.html", "x.csv", plain_csv(records)) == "shown"
    assert page.evaluate("() => window.ran") is None
    assert page.locator(".report-learners img").count() == 0
    assert shown(page)["learners"][0][0] == records[0]["learner"]


def test_a_translated_report_speaks_its_language_and_reads_the_same_files(page, site_url):
    records = class_records(course_questions())
    url = f"{site_url}zh/report.html"
    assert open_report(page, url, "c.csv", plain_csv(records)) == "shown"
    assert shown(page)["learners"] == expected_report(records)[1]
    assert open_report(page, url, "bad.csv", "learner,attempt,interaction_id,response,result\n"
                       "Ada,1,q,2,right\n") == "problem"
    assert shown(page)["problem"].startswith("无法读取 bad.csv。第 2 行，第 “result” 列：")


def test_a_file_dropped_on_the_report_is_read_like_one_chosen(page, site_url):
    records = class_records(course_questions())
    page.goto(f"{site_url}report.html")
    page.evaluate(
        """(text) => {
             const data = new DataTransfer();
             data.items.add(new File([text], "dropped.csv", { type: "text/csv" }));
             const box = document.querySelector(".report-drop");
             box.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, cancelable: true }));
             box.dispatchEvent(new DragEvent("drop", { dataTransfer: data, cancelable: true }));
           }""",
        plain_csv(records),
    )
    poll(page, "() => document.documentElement.dataset.report", "shown".__eq__)
    assert shown(page)["learners"] == expected_report(records)[1]
    assert shown(page)["status"].startswith("dropped.csv: ")
