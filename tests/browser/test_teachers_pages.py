"""The teacher's kit in the browser: the guide links it and lists the site's SCORM packages with
their sizes (from scorm/packages.json: packages/scorm/'s, copied into the hosted site), says why
and how to get them when there are none (dist/ alone) or no list, and a chapter
page prints as a handout: the start-up panel, buttons, sliders' tracks and the map left out,
each control's label and value, the figures and the traps kept, and a PDF with its canvases."""

from __future__ import annotations

import json
import re

import pytest

from pages import hold_python, poll
from site_server import DIST, SCORM_PACKAGES, needs_packages, served

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
