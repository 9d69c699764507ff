"""The whole lesson page: what every demo has in common (its skeleton, its Python, its table
colours), its contents and its old links."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import FIRST_HEATMAP_CALL, cell_values, dataset, live_demos, poll, registry
from tools.lesson import demo_sections


def test_table_cells_take_the_heatmaps_colour_for_their_number(shared_lesson):
    """Coloured numbers (app/figures/colors.js) pick the colour-map entry pelab.to_rgba picks."""
    poll(shared_lesson, "() => document.querySelector('.added-table').dataset.rendered", lambda v: v == "dog@1")
    poll(shared_lesson, "() => document.querySelectorAll('.relative-table td[title]').length", lambda n: n > 0)
    for selector, limit in ((".attention-original", 1.5), (".added-table", 2.0), (".relative-table", 1.0)):
        values = [value for row in cell_values(shared_lesson, selector) for value in row]
        colours = shared_lesson.evaluate(
            """(s) => [...document.querySelectorAll(s + " tbody tr td[title]")].map((td) => getComputedStyle(td).backgroundColor)""",
            selector,
        )
        expected = pelab.to_rgba(np.array(values), -limit, limit)[:, :3].tolist()
        assert len(values) >= 8 and colours == [f"rgb({r}, {g}, {b})" for r, g, b in expected]
    # Exact halves, where Math.round goes up and numpy's rint to even, and their neighbours.
    for limit in (1.0, 1.5, 2.0):
        ties = -limit + (np.arange(255) + 0.5) / 255 * (2 * limit)
        values = np.concatenate([ties, np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf), [-9.0, 9.0]])
        entries = shared_lesson.evaluate(
            """async ([values, limit]) => {
                 const { entryFor } = await import(new URL("app/figures/colors.js", document.baseURI));
                 return values.map((value) => entryFor(value, limit, 256));
               }""",
            [values.tolist(), limit],
        )
        np.testing.assert_array_equal(pelab.COOL_WARM[entries], pelab.to_rgba(values, -limit, limit))


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
    assert set(codes) == set(live_demos(lesson))  # every live demo shows its Python, nothing else does
    for code in codes.values():
        assert code.startswith("import") and "pelab." in code
    assert FIRST_HEATMAP_CALL in codes["heatmap"]
    assert "pelab.formula_terms(pos=1, d_model=4, base=10000)" in codes["formula"]
    heatmap = lesson.locator("#heatmap")
    heatmap.locator(".show-python summary").click()  # closed again: the code follows the slider anyway
    heatmap.get_by_role("slider", name="d_model").press("ArrowRight")
    heatmap.locator(".show-python summary").click()
    poll(
        lesson,
        "() => document.querySelector('#heatmap .cell-editor').shadowRoot.querySelector('.cm-content').textContent",
        lambda t: "d_model=130" in t,
    )


@pytest.mark.parametrize(("old", "section"), [("order-blind", "attention"), ("heatmap-demo", "heatmap"), ("scratch", "cell")])
def test_links_to_a_section_by_its_old_id_still_land_on_it(page, site_url, old, section):
    """Each section's id is its demo's public name; links made before the rename still work."""
    page.goto(f"{site_url}#{old}")
    landed = page.evaluate(
        """([old, id]) => {
             const section = document.getElementById(id);
             const box = section.getBoundingClientRect();
             return {
               inside: section.firstElementChild === document.getElementById(old),
               scrolled: window.scrollY > 0,
               inView: box.top < innerHeight && box.bottom > 0,
             };
           }""",
        [old, section],
    )
    assert landed == {"inside": True, "scrolled": True, "inView": True}


def test_the_contents_name_each_section_as_its_heading_does(shared_lesson):
    """One title per demo: the section's <h2>, which the contents, share bars and guide repeat."""
    pairs = shared_lesson.evaluate(
        """() => [...document.querySelectorAll("nav a[href^='#']")].map((a) => {
             const heading = document.querySelector(a.getAttribute("href") + " h2")?.cloneNode(true);
             heading?.querySelector(".step")?.remove();
             return [a.textContent.trim(), heading?.textContent.trim() ?? null];
           })"""
    )
    assert len(pairs) >= 11
    for link, heading in pairs:
        assert link == heading


def test_steps_count_up_and_every_section_number_in_the_text_points_at_its_section(shared_lesson):
    """Sections get inserted: a number written in the text must be a link that names its target,
    so that a test can see it is still right, and no bare "section N" or "the next section" may
    hide elsewhere."""
    facts = shared_lesson.evaluate(
        """() => ({
             steps: [...document.querySelectorAll("h2 > .step")].map((s) => Number(s.textContent)),
             refs: [...document.querySelectorAll("a.section-ref")].map((a) => [
               a.textContent.trim(),
               document.querySelector(a.getAttribute("href") + " h2 > .step")?.textContent ?? null,
             ]),
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
    )
    assert facts["steps"] == list(range(1, len(facts["steps"]) + 1))
    assert len(facts["refs"]) >= 10
    for text, target in facts["refs"]:
        assert target is not None and text.split()[-1] == target, (text, target)
    assert facts["bare"] == []


# The demo contract (app/demos/registry.js): every live demo's section has the same skeleton,
# its exam trap included.
SKELETON = """(names) => names.map((name) => {
  const section = document.getElementById(name);
  const inputs = [...section.querySelectorAll("input[name]")];
  return {
    name,
    isDemo: section.classList.contains("demo") && section.getAttribute("aria-labelledby") === name + "-title",
    heading: !!section.querySelector(`h2#${name}-title > .step`),
    problem: section.querySelectorAll(".problem[role=alert]").length,
    trap: section.querySelectorAll("aside.trap .trap-title").length,
    cell: !!section.querySelector(".cell[data-cell]"),
    labelled: inputs.every((input) => input.labels.length > 0),
    outputs: inputs.filter((i) => i.type === "range").every((i) => !!section.querySelector(`output[for="${i.id}"]`)),
    live: section.dataset.live,
  };
})"""


def test_every_live_demo_has_the_same_skeleton_and_says_when_it_is_shown(shared_lesson):
    live = live_demos(shared_lesson)
    demos = demo_sections()  # the lesson's sections of class "demo", from lesson/
    # A half-added demo names its missing piece: a section without a module, or the reverse.
    assert [d for d in demos if d not in registry(shared_lesson, "DEMOS")] == [], "demo sections missing from registry.js"
    assert [d for d in registry(shared_lesson, "DEMOS") if d not in demos] == [], "registry.js demos with no lesson section"
    assert registry(shared_lesson, "DEMOS") == demos  # in the page's order
    assert set(live) <= set(demos) and len(live) > 1
    poll(shared_lesson, SKELETON, lambda demos: all(d["live"] == "shown" for d in demos), arg=live)
    for demo in shared_lesson.evaluate(SKELETON, live):
        assert demo == {**demo, "isDemo": True, "heading": True, "problem": 1, "trap": 1, "cell": True,
                        "labelled": True, "outputs": True, "live": "shown"}, demo


# Predict, try, notice (static/lab.css's .try, .takeaway, .deeper; app/controls/prediction.js).
# A figure is anything drawn or tabulated (a <figure>, canvas, chart or table) outside a fold; its
# takeaway may come after readouts and notes that belong to it, but before the next heading,
# controls, exam trap or the end of the section.
TRY_AND_TAKEAWAYS = """(names) => names.map((name) => {
  const section = document.getElementById(name);
  const drawn = "figure, canvas, svg.chart, table";
  const isFigure = (e) => !e.matches("details, fieldset") && (e.matches(drawn) || !!e.querySelector(drawn));
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
      before: e.nextElementSibling?.matches(".controls, .cells-actions") ?? false,
      sentences: sentences(e),
    })),
    takeaways: [...section.querySelectorAll(".takeaway")].map(sentences),
    missing,
  };
})"""


def test_every_demo_opens_with_one_try_line_and_every_figure_ends_with_a_takeaway(shared_lesson):
    """Every demo asks for one thing to do, just before its controls; every figure is followed by
    the one sentence to carry away from it. The quiz is no demo of that kind."""
    demos = [name for name in demo_sections() if name != "quiz"]
    sections = shared_lesson.evaluate(TRY_AND_TAKEAWAYS, demos)
    for section in sections:
        assert section["tries"] == [{"direct": True, "opens": True, "before": True, "sentences": 1}], section
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


def test_folds_and_the_experiments_answers_print_though_the_screen_hides_them(shared_lesson):
    page = shared_lesson
    screen = page.evaluate(FOLDS_AND_ANSWERS)
    assert len(screen["folds"]) >= 3  # terms' papers, stretching's bounds, rope's proof
    assert screen["folds"] == [{"open": False, "summary": True, "seen": False}] * len(screen["folds"])
    assert screen["answers"] == [{"hidden": True, "seen": False}] * 2  # until a run or "Show me the answer"
    page.emulate_media(media="print")
    try:
        printed = page.evaluate(FOLDS_AND_ANSWERS)
    finally:
        page.emulate_media(media="screen")
    assert all(fold["seen"] for fold in printed["folds"]), printed  # opened by the stylesheet
    assert printed["answers"] == [{"hidden": True, "seen": True}] * 2
    # Where the stylesheet cannot open a fold, beforeprint does, and afterprint closes it again.
    page.evaluate("() => dispatchEvent(new Event('beforeprint'))")
    assert all(fold["open"] for fold in page.evaluate(FOLDS_AND_ANSWERS)["folds"])
    page.evaluate("() => dispatchEvent(new Event('afterprint'))")
    assert page.evaluate(FOLDS_AND_ANSWERS) == screen
