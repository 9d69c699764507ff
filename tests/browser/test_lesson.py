"""The lesson as a course: the entrance, its chapter pages and their map, old links, and what
every demo has in common (its skeleton, its Python, its table colours)."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import (
    CHAPTER_PAGES,
    FIRST_HEATMAP_CALL,
    PAGE_OF,
    PageLog,
    all_figures_shown,
    cell_values,
    chapter_pages,
    figures_first,
    hold_python,
    live_demos,
    open_context,
    poll,
    registry,
    wait_for_state,
)
from tools.lesson import demo_sections

# The chapter that `lesson` opens: the first, with the heatmap.
LESSON_SECTION = "heatmap"



@pytest.fixture(scope="module")
def reading(course, browser, site_url):
    """The page holding a section, for tests that only read what the pages show: its chapter's
    booted page (`course`) where the chapter has a live demo, which this module boots anyway
    (the skeleton test waits for Python's "shown"); on a chapter without one (the review: its
    quiz and cells), that chapter with Python held, where Python draws nothing and a boot would
    be for nothing."""
    log = PageLog()
    context = open_context(browser, log)
    hold_python(context)
    held = chapter_pages(context, site_url, opened_by=figures_first)
    live = []  # the chapters with a live demo, read from the registry once a page is asked for

    def page_holding(section: str):
        if not live:
            live.extend(PAGE_OF[name] for name in live_demos(course("heatmap")))
        return (course if PAGE_OF[section] in live else held)(section)

    yield page_holding
    context.close()
    if log.blocked:
        pytest.fail(f"the page tried to leave the machine: {log.blocked}")


def test_table_cells_take_the_heatmaps_colour_for_their_number(course):
    """Coloured numbers (app/figures/colors.js) pick the colour-map entry pelab.to_rgba picks."""
    added, relative = course("added"), course("relative")
    poll(
        added,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v == "dog@1",
    )
    poll(
        relative,
        "() => document.querySelectorAll('.relative-table td[title]').length",
        lambda n: n > 0,
    )
    for page, selector, limit in (
        (added, ".attention-original", 1.5),
        (added, ".added-table", 2.0),
        (relative, ".relative-table", 1.0),
    ):
        values = [value for row in cell_values(page, selector) for value in row]
        colours = page.evaluate(
            """(s) => [...document.querySelectorAll(s + " tbody tr td[title]")]
                 .map((td) => getComputedStyle(td).backgroundColor)""",
            selector,
        )
        expected = pelab.to_rgba(np.array(values), -limit, limit)[:, :3].tolist()
        assert len(values) >= 8 and colours == [f"rgb({r}, {g}, {b})" for r, g, b in expected]
    # Exact halves, where Math.round goes up and numpy's rint to even, and their neighbours.
    for limit in (1.0, 1.5, 2.0):
        ties = -limit + (np.arange(255) + 0.5) / 255 * (2 * limit)
        values = np.concatenate(
            [ties, np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf), [-9.0, 9.0]]
        )
        entries = added.evaluate(
            """async ([values, limit]) => {
                 const { entryFor } = await import(
                   new URL("app/figures/colors.js", document.baseURI));
                 return values.map((value) => entryFor(value, limit, 256));
               }""",
            [values.tolist(), limit],
        )
        np.testing.assert_array_equal(
            pelab.COOL_WARM[entries], pelab.to_rgba(values, -limit, limit)
        )


SHOWN_PYTHON = """() => Object.fromEntries(
  [...document.querySelectorAll('section.demo .show-python')].map(d => [
    d.closest('section').id,
    [...(d.querySelector('.cell-editor').shadowRoot?.querySelectorAll('.cm-line') ?? [])]
    .map(l => l.textContent).join('\\n')]))"""


@pytest.mark.parametrize("chapter", CHAPTER_PAGES)
def test_every_demo_shows_the_python_behind_it(reading, chapter):
    # Booted where there is a live demo: the heatmap offers its code once Python is ready.
    page = reading(next(s for s, c in PAGE_OF.items() if c == chapter))
    summaries = page.locator("section.demo .show-python summary").all()
    for summary in summaries:
        summary.click()  # open each, as a learner would: a hidden editor shows its text once opened
    codes = poll(
        page, SHOWN_PYTHON, lambda codes: all(code.startswith("import") for code in codes.values())
    )
    for summary in summaries:
        summary.click()  # closed again, as the page was
    here = [name for name in live_demos(page) if PAGE_OF[name] == chapter]
    assert set(codes) == set(here)  # every live demo shows its Python, nothing else does
    for code in codes.values():
        assert code.startswith("import") and "pelab." in code
    if "heatmap" in codes:
        assert FIRST_HEATMAP_CALL in codes["heatmap"]
    if "formula" in codes:
        assert "pelab.formula_terms(pos=1, d_model=4, base=10000)" in codes["formula"]


def test_the_python_shown_follows_the_sliders(page, site_url):
    # The code shown is written by the demo's JavaScript from its settings (heatmap.js
    # writeCode), as the slider moves: Python, held, never runs it.
    hold_python(page)
    lesson = figures_first(page, site_url, PAGE_OF[LESSON_SECTION])
    heatmap = lesson.locator("#heatmap")
    heatmap.get_by_role("slider", name="d_model").press("ArrowRight")
    heatmap.locator(".show-python summary").click()  # closed till now: the code followed anyway
    poll(
        lesson,
        "() => document.querySelector('#heatmap .cell-editor').shadowRoot"
        "?.querySelector('.cm-content').textContent ?? ''",
        lambda t: "d_model=130" in t,
    )


LANDED = """([old, id]) => {
  const section = document.getElementById(id);
  const box = section.getBoundingClientRect();
  return {
    inside: section.firstElementChild === document.getElementById(old) || old === id,
    scrolled: window.scrollY > 0,
    inView: box.top < innerHeight && box.bottom > 0,
  };
}"""


@pytest.mark.parametrize(
    ("old", "section"),
    [
        ("order-blind", "attention"),
        ("heatmap-demo", "heatmap"),
        ("scratch", "cell"),
        ("rope", "rope"),
        ("stretching", "stretching"),
    ],
)
def test_an_old_link_to_the_one_page_lesson_lands_on_its_section_in_its_chapter(
    page, site_url, old, section
):
    """The lesson was one page: index.html#ID (a section, or an id a section kept from before its
    rename) now lands on that section in its chapter's page."""
    hold_python(page)  # the redirect (old-links.js) and the scroll need none
    page.goto(f"{site_url}index.html#{old}", wait_until="commit")
    page.wait_for_url(f"{site_url}{PAGE_OF[section]}#{old}")
    page.wait_for_load_state()
    poll(
        page,
        LANDED,
        lambda landed: landed == {"inside": True, "scrolled": True, "inView": True},
        arg=[old, section],
    )


def test_an_old_shared_link_sets_its_demo_up_on_its_chapter_page(page, site_url):
    # The redirect (old-links.js) and the link's settings (share.js applyState) are JavaScript.
    hold_python(page)
    page.goto(f"{site_url}#demo=terms&d_model=16", wait_until="commit")
    page.wait_for_url(f"{site_url}{PAGE_OF['terms']}#demo=terms&d_model=16")
    # lesson.js adds a demo's share bar and applies the link's state to it in one task
    page.locator("#terms .share").wait_for()
    assert page.locator("#terms [name=d_model]").input_value() == "16"
    # A link to something that is no section leaves the entrance as it is.
    page.goto(f"{site_url}index.html#chapters")
    assert page.url == f"{site_url}index.html#chapters"
    assert page.locator(".chapter").count() == len(CHAPTER_PAGES)


@pytest.mark.parametrize(
    "old, section",
    [
        ("review.html#exercise-shift", "relative"),  # the exercises were on review.html
        ("why-order.html#relative", "relative"),  # a section another chapter holds
        ("today.html#demo=heatmap&d_model=64", "heatmap"),  # a demo's link, on the wrong page
    ],
)
def test_an_old_link_to_a_chapter_page_lands_where_its_target_is_now(
    page, site_url, old, section
):
    """`section` is the section whose chapter page holds the link's target now."""
    hold_python(page)  # the redirect (old-links.js) needs none
    page.goto(f"{site_url}{old}", wait_until="commit")
    page.wait_for_url(f"{site_url}{PAGE_OF[section]}#{old.split('#', 1)[1]}")
    # A link to what the page itself holds stays where it is.
    page.goto(f"{site_url}{PAGE_OF['relative']}#relative")
    page.wait_for_load_state()
    assert page.url == f"{site_url}{PAGE_OF['relative']}#relative"


def test_the_map_names_each_section_as_its_heading_does(reading):
    """One title per section: its <h2>, which the entrance, the map, share bars and guide repeat."""
    entrance = reading("heatmap").context.new_page()
    entrance.goto(reading("heatmap").url.split("#")[0].rsplit("/", 1)[0] + "/index.html")
    listed = entrance.evaluate(
        """() => [...document.querySelectorAll(".chapter-sections li")].map((li) =>
             [li.dataset.section, li.querySelector("a").textContent.trim()])"""
    )
    entrance.close()
    assert [name for name, _ in listed] == list(PAGE_OF)
    for chapter in CHAPTER_PAGES:
        page = reading(next(s for s, c in PAGE_OF.items() if c == chapter))
        pairs = page.evaluate(
            """() => [...document.querySelectorAll(".course-map li[data-section]")].map((li) => {
                 const heading = document.querySelector("#" + li.dataset.section + " h2");
                 const link = li.querySelector("a").textContent.trim();
                 return [li.dataset.section, link, heading?.textContent.trim() ?? null];
               })"""
        )
        assert [name for name, _, _ in pairs] == list(PAGE_OF)  # the whole course, on every page
        for name, link, heading in pairs:
            assert link == dict(listed)[name]
            if PAGE_OF[name] == chapter:
                assert heading is not None and " ".join(link.split()) == " ".join(
                    heading.split()
                ), (link, heading)


STEPS_AND_REFERENCES = """() => ({
  steps: [...document.querySelectorAll("main h2 > .step")].map((s) => Number(s.textContent)),
  map: Object.fromEntries([...document.querySelectorAll(".course-map li[data-section]")].map(
    (li) => [li.dataset.section, li.querySelector(".map-step").textContent])),
  refs: [...document.querySelectorAll("a.section-ref")].map(
    (a) => [a.textContent.trim(), a.getAttribute("href")]),
  bare: (() => {
    const copy = document.querySelector("main").cloneNode(true);
    copy.querySelectorAll("a.section-ref").forEach((a) => a.remove());
    const attributes = [...copy.querySelectorAll("[data-why]")].map((e) => e.dataset.why);
    const text = [copy.textContent, ...attributes].join(" ");
    return [
      ...(text.match(/\\bsections? \\d+(?!\\.\\d)/gi) ?? []),
      // "the next section" goes stale as silently as a number when a section is inserted.
      ...(text.match(/\\b(?:next|previous|following|last|above) section\\b/gi) ?? []),
    ];
  })(),
})"""


def test_steps_count_up_across_the_chapters_and_every_section_number_points_at_its_section(
    reading,
):
    """Sections get inserted: a number written in the text must be a link that names its target,
    so that a test can see it is still right, and no bare "section N" or "the next section" may
    hide elsewhere. A link to a section of another chapter names that chapter's page."""
    steps, references = [], 0
    for chapter in CHAPTER_PAGES:
        page = reading(next(s for s, c in PAGE_OF.items() if c == chapter))
        facts = page.evaluate(STEPS_AND_REFERENCES)
        steps += facts["steps"]
        for text, href in facts["refs"]:
            target_page, _, target = href.rpartition("#")
            assert target_page == ("" if PAGE_OF[target] == chapter else PAGE_OF[target]), href
            assert text.split()[-1] == facts["map"][target], (text, href)
        references += len(facts["refs"])
        assert facts["bare"] == []
    assert steps == list(range(1, len(PAGE_OF) + 1))
    assert references >= 10


# The demo contract (app/demos/registry.js): every live demo's section has the same skeleton,
# its exam trap included.
SKELETON = """(names) => names.map((name) => {
  const section = document.getElementById(name);
  const inputs = [...section.querySelectorAll("input[name]")];
  return {
    name,
    isDemo: section.classList.contains("demo")
      && section.getAttribute("aria-labelledby") === name + "-title",
    heading: !!section.querySelector(`h2#${name}-title > .step`),
    problem: section.querySelectorAll(".problem[role=alert]").length,
    trap: section.querySelectorAll("aside.trap .trap-title").length,
    cell: !!section.querySelector(".cell[data-cell]"),
    labelled: inputs.every((input) => input.labels.length > 0),
    outputs: inputs.filter((i) => i.type === "range")
      .every((i) => !!section.querySelector(`output[for="${i.id}"]`)),
    live: section.dataset.live,
  };
})"""


def test_every_live_demo_has_the_same_skeleton_and_says_when_it_is_shown(course):
    first = course("heatmap")
    live = live_demos(first)
    demos = demo_sections()  # the lesson's sections of class "demo", from lesson/
    # A half-added demo names its missing piece: a section without a module, or the reverse.
    assert [d for d in demos if d not in registry(first, "DEMOS")] == [], (
        "demo sections missing from registry.js"
    )
    assert [d for d in registry(first, "DEMOS") if d not in demos] == [], (
        "registry.js demos with no lesson section"
    )
    assert registry(first, "DEMOS") == demos  # in the course's order
    assert set(live) <= set(demos) and len(live) > 1
    for chapter in CHAPTER_PAGES:
        here = [name for name in live if PAGE_OF[name] == chapter]
        if not here:
            continue
        page = course(here[0])
        poll(page, SKELETON, lambda demos: all(d["live"] == "shown" for d in demos), arg=here)
        for demo in page.evaluate(SKELETON, here):
            assert demo == {
                **demo,
                "isDemo": True,
                "heading": True,
                "problem": 1,
                "trap": 1,
                "cell": True,
                "labelled": True,
                "outputs": True,
                "live": "shown",
            }, demo


# ---- the course: where the learner is, how long is left, and where they left off


def chapter_of(page) -> str:
    return page.url.split("#")[0].rsplit("/", 1)[1]


def test_the_map_says_where_the_learner_is_and_how_long_is_left(page, site_url):
    """The map marks the section in view and this chapter, names the section in its bar with the
    minutes left in the chapter, and marks each section read as visited."""
    hold_python(page)  # the map is JavaScript (app/course/map.js), wired before Python is asked
    lesson = figures_first(page, site_url, PAGE_OF[LESSON_SECTION])
    chapter = chapter_of(lesson)
    assert lesson.locator(".course-map a[aria-current=page]").get_attribute("href") == chapter
    here = [name for name, page in PAGE_OF.items() if page == chapter]
    minutes = {
        name: int(
            lesson.locator(f".course-map li[data-section={name}]").get_attribute("data-minutes")
        )
        for name in here
    }
    assert all(m >= 1 for m in minutes.values())
    for index, name in enumerate(here):
        lesson.locator(f"#{name} h2").scroll_into_view_if_needed()
        lesson.evaluate("(id) => document.getElementById(id).scrollIntoView()", name)
        current = poll(
            lesson,
            "() => document.querySelector('.course-map a[aria-current=location]')"
            "?.closest('li').dataset.section",
            lambda current, name=name: current == name,
        )
        left = lesson.locator(".map-left").inner_text()
        assert left == f"about {sum(minutes[n] for n in here[index:])} min left in this chapter", (
            current,
            left,
        )
        assert (
            name in lesson.locator(".map-where").inner_text()
            or lesson.locator(f"#{name} h2").inner_text().split(" ", 1)[-1]
            in lesson.locator(".map-where").inner_text()
        )
    visited = lesson.evaluate(
        "() => [...document.querySelectorAll('.course-map li[data-visited]')]"
        ".map((li) => li.dataset.section)"
    )
    assert set(here) <= set(visited)


def test_the_entrance_offers_to_continue_where_the_learner_left_off(page, site_url):
    hold_python(page)  # progress is kept by the map's JavaScript (app/course/progress.js)
    page.goto(f"{site_url}index.html")
    assert page.locator(".resume").is_hidden()  # nothing read yet: only "Start"
    assert page.locator(".start-link").get_attribute("href") == CHAPTER_PAGES[0]
    # Read a section of the third chapter, then come back to the entrance.
    section = next(name for name, chapter in PAGE_OF.items() if chapter == CHAPTER_PAGES[2])
    page.goto(f"{site_url}{PAGE_OF[section]}#{section}")
    poll(
        page, "() => localStorage.getItem('pelab:progress')", lambda kept: kept and section in kept
    )
    page.goto(f"{site_url}index.html")
    resume = page.locator(".resume")
    assert resume.is_visible() and resume.get_attribute("href") == f"{PAGE_OF[section]}#{section}"
    assert (
        page.locator(f".chapter-sections li[data-section={section}]").get_attribute("data-visited")
        is not None
    )
    assert (
        "1 of"
        in page.locator(
            f".chapter[data-chapter={CHAPTER_PAGES[2][:-5]}] .chapter-progress"
        ).inner_text()
    )
    resume.click()
    page.wait_for_url(f"{site_url}{PAGE_OF[section]}#{section}")
    # Progress that is not ours, or broken, is ignored: the entrance still opens. It is written
    # from the entrance, which keeps no progress: a chapter page's map records the section in
    # view whenever the page scrolls, and could write over it before the next page loads.
    page.goto(f"{site_url}index.html")
    page.evaluate(
        "() => localStorage.setItem('pelab:progress', JSON.stringify("
        "{last: {page: 'javascript:alert(1)', section: 'x'}}))"
    )
    page.reload()
    assert page.locator(".resume").is_hidden()


def test_progress_kept_by_an_older_version_still_loads_with_no_first_try_mark_it_may_not_have(
    page, site_url
):
    """A record from before checks gave a second try (no version) still resumes and marks what
    was visited; a section it called checked may have been answered after the answers were
    shown, so it is marked helped (✓↻), not checked (✓✓). A current record keeps both marks."""
    hold_python(page)
    page.goto(f"{site_url}index.html")
    section = next(name for name, chapter in PAGE_OF.items() if chapter == CHAPTER_PAGES[1])
    other = next(name for name in PAGE_OF if name != section)
    page.evaluate(
        "([section, page]) => localStorage.setItem('pelab:progress', JSON.stringify("
        "{visited: [section], checked: [section], last: {page, section}}))",
        [section, PAGE_OF[section]],
    )
    page.reload()
    resume = page.locator(".resume")
    assert resume.is_visible() and resume.get_attribute("href") == f"{PAGE_OF[section]}#{section}"
    item = page.locator(f".chapter-sections li[data-section={section}]")
    assert item.get_attribute("data-visited") is not None
    assert item.get_attribute("data-checked") is None
    assert item.get_attribute("data-helped") is not None
    page.evaluate(
        "([section, other, page]) => localStorage.setItem('pelab:progress', JSON.stringify("
        "{version: 2, visited: [section, other], checked: [section], helped: [other],"
        " last: {page, section}}))",
        [section, other, PAGE_OF[section]],
    )
    page.reload()
    assert item.get_attribute("data-checked") is not None
    assert item.get_attribute("data-helped") is None
    helped = page.locator(f".chapter-sections li[data-section={other}]")
    assert helped.get_attribute("data-helped") is not None
    assert page.locator(".resume").is_visible()


def test_a_prediction_is_asked_before_the_demo_is_tried(page, site_url):
    """Predict, try, notice: each prediction check stands inside its section, before its "Try
    this" line, its controls, its figures and its takeaway, where the result is stated."""
    hold_python(page)
    seen = 0
    for address in dict.fromkeys(CHAPTER_PAGES):
        page.goto(f"{site_url}{address}")
        order = page.evaluate(
            """() => [...document.querySelectorAll('.quiz-predict')].map((block) => {
                 const section = block.closest('section');
                 const before = (selector) => [...section.querySelectorAll(selector)].every(
                   (later) => block.compareDocumentPosition(later)
                     & Node.DOCUMENT_POSITION_FOLLOWING);
                 return {section: section.id, questions: block.querySelectorAll(
                   '.quiz-question').length, try: section.querySelectorAll('.try').length === 1,
                   first: before('.try, .controls, figure, .takeaway, .trap')};
               })"""
        )
        for block in order:
            assert block["questions"] >= 1 and block["try"] and block["first"], block
        seen += len(order)
    assert seen >= 4


@pytest.mark.parametrize("address", ["index.html", *CHAPTER_PAGES])
def test_no_page_of_the_course_scrolls_sideways_on_a_phone(browser, site_url, address):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # Python adds nothing to a page's width but the heatmap's drawing (its axes' ticks and its
    # table come with Python's paint, heatmap.js): every other figure is drawn by the same code
    # from the shipped first results, and code editors are made without Python (cells.js). So
    # only the heatmap's chapter boots.
    live = address == PAGE_OF["heatmap"]
    try:
        if not live:
            hold_python(context)
        page = context.new_page()
        page.goto(site_url + address)
        if live:
            assert wait_for_state(page) == "ready", page.inner_text("#boot")
        elif address != "index.html":
            all_figures_shown(page)
        wide = page.evaluate(
            """() => [document.documentElement.scrollWidth, innerWidth,
                 [...document.querySelectorAll("body *")]
                   .filter((e) => e.getBoundingClientRect().right > innerWidth + 1
                     && !e.closest(".table-scroll, .cm-editor, [class*=scroll]"))
                   .slice(0, 5).map((e) => e.tagName + "." + e.className)]"""
        )
        assert wide[0] <= wide[1], f"{address} scrolls sideways at 390 px: {wide}"
        # The map is a bar at the top that opens the course's outline.
        if address != "index.html":
            summary = page.locator(".course-map summary")
            assert summary.is_visible() and page.locator(".map-chapters").is_hidden()
            summary.click()
            assert page.locator(".map-chapters").is_visible()
    finally:
        context.close()


# Predict, try, notice (static/lab.css's .try, .takeaway, .deeper; app/controls/prediction.js).
# A figure is anything drawn or tabulated (a <figure>, canvas, chart or table) outside a fold; its
# takeaway may come after readouts and notes that belong to it, but before the next heading,
# controls, exam trap or the end of the section.
TRY_AND_TAKEAWAYS = """(names) => names.map((name) => {
  const section = document.getElementById(name);
  const drawn = "figure, canvas, svg.chart, table";
  const isFigure = (e) => !e.matches("details, fieldset")
    && (e.matches(drawn) || !!e.querySelector(drawn));
  const closes = (e) => e.matches(".takeaway") || !!e.querySelector(".takeaway");
  const ends = (e) => e.matches("h3, .controls, .trap, .show-python, .share");
  const what = (e) => e.className || e.tagName.toLowerCase();
  const missing = [];
  let pending = null;
  for (const child of section.children) {
    if (closes(child)) pending = null;
    else if (isFigure(child)) pending ??= child;
    else if (ends(child) && pending) { missing.push(what(pending)); pending = null; }
  }
  if (pending) missing.push(what(pending));
  const sentences = (e) => (e.textContent.trim().match(/[.?!](?=\\s|$)/g) ?? []).length;
  return {
    name,
    tries: [...section.querySelectorAll(".try")].map((e) => ({
      direct: e.parentElement === section,
      opens: e.textContent.trim().startsWith("Try this: "),
      before: e.nextElementSibling?.matches(".controls, .cell") ?? false,
      sentences: sentences(e),
    })),
    takeaways: [...section.querySelectorAll(".takeaway")].map(sentences),
    missing,
  };
})"""


def test_every_demo_opens_with_one_try_line_and_every_figure_ends_with_a_takeaway(reading):
    """Every demo asks for one thing to do, just before its controls; every figure is followed by
    the one sentence to carry away from it. The quiz is no demo of that kind."""
    demos = [name for name in demo_sections() if name != "quiz"]
    sections = []
    for chapter in CHAPTER_PAGES:
        here = [name for name in demos if PAGE_OF[name] == chapter]
        if here:
            sections += reading(here[0]).evaluate(TRY_AND_TAKEAWAYS, here)
    for section in sections:
        assert section["tries"] == [
            {"direct": True, "opens": True, "before": True, "sentences": 1}
        ], section
        assert section["missing"] == [], f"{section['name']}: a figure without a takeaway after it"
        assert all(count == 1 for count in section["takeaways"]), section
    assert sum(len(s["takeaways"]) for s in sections) >= len(demos)


FOLDS_AND_ANSWERS = """() => ({
  folds: [...document.querySelectorAll("details.deeper")].map((d) => ({
    open: d.open,
    summary: d.querySelector("summary").textContent.trim().startsWith("Going deeper: "),
    seen: [...d.children].filter((c) => c.tagName !== "SUMMARY").every((c) => c.checkVisibility()),
  })),
  answers: [...document.querySelectorAll(".prediction-answer")].map((a) => ({
    hidden: a.hidden,
    seen: [...a.querySelectorAll("p:not(.prediction-verdict)")].every((p) => p.checkVisibility()),
  })),
})"""


@pytest.mark.parametrize("chapter", [PAGE_OF["rope"], PAGE_OF["stretching"]])
def test_folds_and_the_experiments_answers_print_though_the_screen_hides_them(course, chapter):
    page = course(next(name for name, at in PAGE_OF.items() if at == chapter))
    screen = page.evaluate(FOLDS_AND_ANSWERS)
    assert len(screen["folds"]) >= 1  # terms' papers and rope's proof; stretching's bounds
    assert screen["folds"] == [{"open": False, "summary": True, "seen": False}] * len(
        screen["folds"]
    )
    # until a run or "Show me the answer": the two experiments share a chapter
    answers = 2 if chapter == PAGE_OF["extrapolation"] else 0
    assert screen["answers"] == [{"hidden": True, "seen": False}] * answers
    page.emulate_media(media="print")
    try:
        printed = page.evaluate(FOLDS_AND_ANSWERS)
    finally:
        page.emulate_media(media="screen")
    assert all(fold["seen"] for fold in printed["folds"]), printed  # opened by the stylesheet
    assert printed["answers"] == [{"hidden": True, "seen": True}] * answers
    # Where the stylesheet cannot open a fold, beforeprint does, and afterprint closes it again.
    page.evaluate("() => dispatchEvent(new Event('beforeprint'))")
    assert all(fold["open"] for fold in page.evaluate(FOLDS_AND_ANSWERS)["folds"])
    page.evaluate("() => dispatchEvent(new Event('afterprint'))")
    assert page.evaluate(FOLDS_AND_ANSWERS) == screen
