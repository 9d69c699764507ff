"""“Download as notebook” (“Your turn”, app/cells/take-home.js): the built notebook, with its
first cell pointed at pelab's wheel on the site the page came from, and the learner's own edits
in their cells only when the box is ticked. No Python is needed: the page's Python is held."""

from __future__ import annotations

import json

from pages import PAGE_OF, all_figures_shown, hold_python, poll
from test_cells import type_code
from tools.notebook import wheel_name

EDIT = "# my own scratch cell\npe = pelab.sinusoidal(seq_len=8, d_model=4)\npe.round(2)"


def download(page) -> tuple[dict, str]:
    """Click Download as notebook; returns the notebook downloaded and the status line."""
    status = page.locator(".take-home-status")
    link = page.get_by_role("link", name="Download as notebook")
    with page.expect_download() as info:
        # a click event on the link itself: a pointer click can miss it while the cells above
        # become editors as they come into view, under load, which moves the link
        link.dispatch_event("click")
    download = info.value
    assert download.suggested_filename == "positional-encoding-lab.ipynb"
    book = json.loads(open(download.path(), encoding="utf-8").read())
    poll(page, "() => document.querySelector('.take-home-status').textContent",
         lambda text: text.startswith("Downloaded"))
    return book, status.inner_text()


def code_cell(book: dict, name: str) -> dict:
    return next(c for c in book["cells"] if c["metadata"].get("pelab", {}).get("cell") == name)


def test_the_download_installs_from_this_site_and_takes_edits_only_when_asked(page, site_url):
    hold_python(page)
    page.goto(site_url + PAGE_OF["cell"] + "#cell")
    all_figures_shown(page)
    type_code(page, "scratch", EDIT)
    # the edit is kept (as any edit is) before the download reads it
    poll(page, "() => Object.keys(localStorage).filter((k) => k.endsWith(':scratch')).length",
         lambda n: n == 1)

    book, said = download(page)
    install = "".join(book["cells"][1]["source"]).splitlines()[-1]
    assert install == f"%pip install -q {site_url}py/{wheel_name()}"
    scratch = code_cell(book, "scratch")
    assert "".join(scratch["source"]).startswith("# A scratch cell.")
    assert "edited" not in scratch["metadata"]["pelab"]
    codes = sum(c["cell_type"] == "code" for c in book["cells"])
    assert said == f"Downloaded: {codes} code cells, as the lesson has them."

    box = page.get_by_label("with my edits")
    box.dispatch_event("click")  # as the link: the box sits beside it
    assert box.is_checked()
    book, said = download(page)
    scratch = code_cell(book, "scratch")
    assert "".join(scratch["source"]) == EDIT
    assert scratch["metadata"]["pelab"]["edited"] is True
    assert said == f"Downloaded: {codes} code cells, 1 of them with your edits."
    # every other cell is as built
    built = json.loads(page.evaluate(
        "async () => JSON.stringify(await (await fetch('positional-encoding-lab.ipynb')).json())"
    ))
    others = [c for c in book["cells"] if c is not scratch and c["metadata"].get("pelab", {})
              .get("role") != "install"]
    assert others == [c for c in built["cells"] if c["metadata"].get("pelab", {}).get("cell")
                      != "scratch" and c["metadata"].get("pelab", {}).get("role") != "install"]


def test_a_notebook_that_cannot_be_fetched_is_said_so(page, site_url):
    hold_python(page)
    page.route("**/positional-encoding-lab.ipynb", lambda route: route.fulfill(status=404))
    page.goto(site_url + PAGE_OF["cell"] + "#cell")
    all_figures_shown(page)
    page.get_by_role("link", name="Download as notebook").dispatch_event("click")
    poll(page, "() => document.querySelector('.take-home-status').textContent",
         lambda text: text.startswith("The notebook could not be made (the server answered 404)"))


def test_an_exercise_edited_on_its_chapter_page_goes_home_with_its_hints_and_check(
    page, site_url
):
    """Issue 50: the exercises moved to the chapters; the download, made on "Your turn", still
    takes an attempt typed on the exercise's own page (the chapter pages keep edits under one
    address), beside its task, its staged hints and its check."""
    hold_python(page)
    page.goto(site_url + PAGE_OF["formula"] + "#exercise-formula")
    all_figures_shown(page)
    attempt = "def pe_table(seq_len, d_model, base=10000):\n    return None  # my attempt"
    type_code(page, "exercise-formula", attempt)
    poll(page, "() => Object.keys(localStorage).filter((k) => k.endsWith(':exercise-formula'))"
         ".length", lambda n: n == 1)
    page.goto(site_url + PAGE_OF["cell"] + "#cell")
    all_figures_shown(page)
    box = page.get_by_label("with my edits")
    box.dispatch_event("click")
    book, said = download(page)
    assert said.endswith("1 of them with your edits.")
    cells = book["cells"]
    at = next(n for n, c in enumerate(cells)
              if c["metadata"].get("pelab", {}).get("cell") == "exercise-formula")
    assert "".join(cells[at]["source"]) == attempt
    task = "".join(cells[at - 1]["source"])
    assert task.index("<summary>Hint 1</summary>") < task.index("<summary>Hint 2</summary>")
    assert cells[at + 1]["metadata"]["pelab"] == {"role": "check", "exercise": "formula"}
