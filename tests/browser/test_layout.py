"""The layout as outside tools measure it (issue 48): nothing moves as a page loads, and nothing is
cut off at a phone's edge.

- Layout shifts, as the browser reports them to a PerformanceObserver (`layout-shift` entries,
  those right after a learner's input left out), which is what Lighthouse's and the Web Vitals'
  Cumulative Layout Shift add up: on the entrance, every chapter page and an embed, at 360, 1350
  and 1440 px wide (a phone; the course map a bar on a laptop; the map a column beside the
  chapter), with and without what a learner's earlier visits leave in this browser (the map's
  marks and the entrance's "Continue where you left off"), from the first paint until the page
  says it is ready. A stored record the page cannot use (not JSON, or another shape) leaves it as
  a first visit does, with no error.
- At 360 px nothing on a chapter page, in any language, reaches past the screen's edge unless a
  box that scrolls sideways, and that the keyboard can reach, holds it.

Python is held on its way (pages.hold_python) where it changes nothing measured here: every
figure is drawn from the shipped results all the same. It boots where the start-up panel's change
at "ready" is the shift measured: the first chapter and an embed on a phone, and the first chapter
at 1350 px, where the ready sentence keeps to its line.
"""

from __future__ import annotations

import json

import pytest

from pages import (
    CHAPTER_PAGES,
    PAGE_OF,
    PageLog,
    all_figures_shown,
    hold_python,
    open_context,
    poll,
    wait_for_state,
)

# Cumulative Layout Shift a page may reach: Lighthouse's and the Web Vitals' "good" is 0.1.
MOST_SHIFT = 0.05
WIDTHS = (360, 1350, 1440)
EMBED = "embed.html?demo=heatmap"
PAGES = ("index.html", *CHAPTER_PAGES, EMBED)
# Where Python boots (the rest hold it), with its storage empty: see the module's docstring.
BOOTED = {(360, CHAPTER_PAGES[0]), (1350, CHAPTER_PAGES[0]), (360, EMBED)}

# What a learner's earlier visits leave (app/course/progress.js): most sections visited, some
# answered right, the last place read in the second chapter.
SECTIONS = list(PAGE_OF)
STORED_PROGRESS = {
    "visited": SECTIONS[:-2],
    "checked": SECTIONS[: len(SECTIONS) // 2],
    "last": {"page": PAGE_OF[SECTIONS[5]], "section": SECTIONS[5]},
}
KEY = "pelab:progress"
# Each page opens with this record in place of whatever the page before it wrote.
def kept(record: str | None) -> str:
    """A script that puts `record` (None: nothing) under the progress key before a page's own
    scripts run, in every frame that has storage."""
    put = (f"localStorage.setItem({json.dumps(KEY)}, {json.dumps(record)})" if record is not None
           else f"localStorage.removeItem({json.dumps(KEY)})")
    return f"try {{ {put}; }} catch {{}}"


STORAGE = {"fresh": kept(None), "stored": kept(json.dumps(STORED_PROGRESS))}

# The page's layout shifts so far (buffered), each with what moved, once two more frames have
# been drawn (a shift is reported with the frame that shows it).
LAYOUT_SHIFTS = """() => new Promise((done) => {
  const name = (node) => !node ? "?" : node.nodeType !== 1 ? "#text in " + name(node.parentElement)
    : node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
      + [...node.classList].map((c) => "." + c).join("");
  const shifts = [];
  new PerformanceObserver((list) => shifts.push(...list.getEntries()))
    .observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(
    shifts.filter((shift) => !shift.hadRecentInput).map((shift) => ({
      value: shift.value,
      moved: shift.sources.map((s) => `${name(s.node)} from y ${Math.round(s.previousRect.y)}`
        + ` to ${Math.round(s.currentRect.y)}`),
    }))), 50)));
})"""


def opened(context, site_url: str, address: str, booted: bool, width: int = 360):
    """`address` opened in `context`, `width` px wide, and ready as the page says it is: Python
    ready where it boots, every figure drawn where it is held (the entrance and the guide draw
    none: their scripts have run by the load event, which goto waits for)."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 780 if width < 600 else 900})
    page.goto(site_url + address)
    if booted:
        state = wait_for_state(page)
        assert state == "ready", f"{address}: {state}: {page.inner_text('#boot')}"
    elif address.rsplit("/", 1)[-1].split("?")[0] in (*CHAPTER_PAGES, "embed.html"):
        all_figures_shown(page)
    return page


def described(shifts: list[dict]) -> str:
    worst = sorted(shifts, key=lambda shift: -shift["value"])[:3]
    return "; ".join(f"{s['value']:.3f} ({', '.join(s['moved'][:3])})" for s in worst)


@pytest.fixture(scope="module")
def loaded(browser, site_url):
    """Every page of PAGES at each width, fresh and with a learner's record: {(width, storage):
    {address: the page's layout shifts}}, measured as soon as each is ready; and the phone's
    fresh chapter pages, kept open for the scan of what reaches past the screen's edge."""
    log = PageLog()
    shifts, phone, contexts = {}, {}, []
    try:
        # one context for the boots and one per record, so that each page after the first of
        # its context comes from the HTTP cache, as on a learner's next page
        live = open_context(browser, log)
        contexts.append(live)
        live.add_init_script(STORAGE["fresh"])
        for storage, script in STORAGE.items():
            held = open_context(browser, log)
            contexts.append(held)
            hold_python(held)
            held.add_init_script(script)
            for width in WIDTHS:
                measured = shifts[width, storage] = {}
                for address in PAGES:
                    booted = storage == "fresh" and (width, address) in BOOTED
                    page = opened(live if booted else held, site_url, address, booted, width)
                    measured[address] = page.evaluate(LAYOUT_SHIFTS)
                    if storage == "fresh" and width == 360 and address in CHAPTER_PAGES:
                        phone[address] = page
                    else:
                        page.close()
        yield shifts, phone
    finally:
        for context in contexts:
            context.close()
    assert not log.blocked, f"the pages tried to leave the machine: {log.blocked}"
    assert not log.console_errors(), log.console_errors()


@pytest.mark.parametrize("storage", STORAGE)
@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_moves_as_it_loads(loaded, width, storage):
    shifts, _ = loaded
    moved = {
        address: page_shifts
        for address, page_shifts in shifts[width, storage].items()
        if sum(shift["value"] for shift in page_shifts) > MOST_SHIFT
    }
    assert not moved, "\n".join(
        f"{address} at {width} px ({storage}): layout shift "
        f"{sum(s['value'] for s in page_shifts):.3f}: {described(page_shifts)}"
        for address, page_shifts in moved.items()
    )


@pytest.mark.parametrize(
    "record",
    [
        "{not json",
        # another shape: an older version's, or another site's under the same key
        json.dumps({"version": 0, "open": True, "visited": "attention", "last": {"page": 5}}),
        json.dumps([["attention", True]]),
    ],
    ids=["not-json", "another-shape", "a-list"],
)
def test_a_stored_record_the_page_cannot_use_leaves_it_as_a_first_visit(browser, site_url, record):
    log = PageLog()
    context = open_context(browser, log)
    try:
        hold_python(context)
        context.add_init_script(kept(record))
        for address in ("index.html", CHAPTER_PAGES[0]):
            page = opened(context, site_url, address, booted=False)
            page_shifts = page.evaluate(LAYOUT_SHIFTS)
            total = sum(shift["value"] for shift in page_shifts)
            assert total <= MOST_SHIFT, (
                f"{address}: layout shift {total:.3f}: {described(page_shifts)}"
            )
            # marked as a first visit marks: on a chapter page, only the section in view, visited
            # now
            marked = page.evaluate(
                "() => [...document.querySelectorAll('[data-visited], [data-checked]')]"
                ".map((e) => e.dataset.section"
                " + (e.hasAttribute('data-checked') ? ' checked' : ''))"
            )
            if address == "index.html":
                assert marked == [] and page.locator(".resume").is_hidden()
            else:
                assert marked == [SECTIONS[0]], f"{address} marks {marked}"
                assert page.locator(".course-map details").get_attribute("open") is None
    finally:
        context.close()
    assert not log.console_errors(), log.console_errors()


# What on the page reaches past the screen's left or right edge, every fold opened first ("Show
# the numbers", "Show the Python", "Going deeper"), and is not held by a box that scrolls sideways,
# ends inside the screen, and that the keyboard reaches: focusable itself (tabindex 0 with a name,
# as app/figures/scroll-region.js makes a wide table's box, or natively), or holding a text field
# whose caret scrolls it (a code editor). Each named by its section and its path, outermost first.
CUT_OFF = """async () => {
  for (const fold of document.querySelectorAll("main details:not([open])")) fold.open = true;
  await new Promise((done) =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100))));
  const edge = document.documentElement.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + [...e.classList].map((c) => "." + c).join("");
  const path = (e) => {
    const names = [];
    for (let n = e; n && n !== document.body && names.length < 4; n = n.parentElement) {
      names.unshift(name(n));
    }
    const section = e.closest("section[id]");
    return (section ? "#" + section.id + ": " : "") + names.join(" > ");
  };
  const past = (e) => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && (box.right > edge + 0.5 || box.left < -0.5);
  };
  const scrollsSideways = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX)
    && e.scrollWidth > e.clientWidth && !past(e);
  const reachable = (e) => (e.tabIndex >= 0 && (!e.hasAttribute("tabindex")
      || e.hasAttribute("aria-label") || e.hasAttribute("aria-labelledby")))
    || !!e.querySelector("[contenteditable=true], textarea");
  const cut = [];
  for (const e of document.body.querySelectorAll("*")) {
    if (!past(e) || cut.some((outer) => outer.contains(e))) continue;
    let box = e.parentElement;
    while (box && box !== document.body && !scrollsSideways(box)) box = box.parentElement;
    if (box && box !== document.body && reachable(box)) continue;
    cut.push(e);
  }
  return cut.map((e) => `${path(e)} (${Math.round(e.getBoundingClientRect().left)} to `
    + `${Math.round(e.getBoundingClientRect().right)} px, the screen ${edge} px)`);
}"""


@pytest.mark.parametrize("language", ["", "zh/", "es/"], ids=["en", "zh", "es"])
def test_nothing_on_a_chapter_page_is_cut_off_at_a_phones_edge(loaded, browser, site_url, language):
    # The English chapter pages are the ones loaded above at 360 px, the first with Python booted
    # (the heatmap's axes come with Python's first paint); the others are opened here, held. The
    # teachers' guide too: its snippets and tables are as wide as a chapter's.
    _, phone = loaded
    log = PageLog()
    context = open_context(browser, log)
    try:
        hold_python(context)
        cut = {}
        for address in (*CHAPTER_PAGES, "embedding.html"):
            if not language and address in phone:
                page = phone[address]
            else:
                page = opened(context, site_url, language + address, False)
                if address == "embedding.html":  # its tables are filled from the chapter pages
                    rows = "() => document.querySelectorAll('.reference-table tbody tr').length"
                    poll(page, rows, lambda rows: rows > 1)
            found = page.evaluate(CUT_OFF)
            if found:
                cut[language + address] = found
        assert not cut, "\n".join(
            f"{address} at 360 px: {', '.join(found[:5])}" for address, found in cut.items()
        )
    finally:
        context.close()
