"""Every live demo's first result, computed at build time, so that the page shows each figure at
once and goes live when the learner's Python is ready (app/demos/first-results.js reads them).

A live demo's section source states its first request in a
`<script type="application/json" class="first-call">`: the entry point, which of the section's
controls are its arguments (read here at their first values, as app/controls/slider.js reads a
slider), and any argument the demo works out for itself ("also"). tools/course.py reads and
checks it, and the page goes without it. The build runs the requests in Pyodide with pelab
(tools/jobs/first_results.py) and serves each result as py/first-results/NAME.json. If the page
asks for anything else first, it waits for Python, and the browser tests say which demo did.

The heatmap is pictured instead: its first picture is a PNG in the page
(tools/jobs/first_heatmap.py).
"""

from __future__ import annotations

from tools.course import first_value, read_controls, read_course, read_section
from tools.demo_lists import not_live, pictured

__all__ = ["controls", "first_call", "first_calls", "first_value"]


def controls(source_html: str | None = None, section: str | None = None) -> dict[str, object]:
    """{name: first value} of the controls of a section (quiz inputs left out): of section
    `section` of the course, or of the section source `source_html`."""
    if section is not None:
        found = read_course().sections[section].controls
    else:
        found = read_controls(source_html or "")
    return {name: control.first for name, control in found.items()}


def first_call(name: str) -> dict | None:
    """{"entry", "kwargs"}: the first request of the live demo `name`, from its section source
    (tools/course.py reads and checks it); None for a demo pictured or not live
    (tools/demo_lists.py)."""
    if name in pictured() or name in not_live():
        return None
    call = read_section(name).first_call
    return None if call is None else {"entry": call.entry, "kwargs": dict(call.kwargs)}


def first_calls() -> dict[str, dict]:
    """Every live demo's first request by demo name, in the lesson's order."""
    calls = {name: first_call(name) for name in read_course().demos}
    return {name: call for name, call in calls.items() if call is not None}
