"""The whole lesson page: what every demo has in common (its Python, its table colours)."""

from __future__ import annotations
import numpy as np
import pelab
from pages import poll, dataset, cell_values



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
