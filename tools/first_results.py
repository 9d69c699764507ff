"""Every live demo's first result, computed at build time, so that the page shows each figure at
once and goes live when the learner's Python is ready (app/demos/first-results.js reads them).

A live demo's section source states its first request in a
`<script type="application/json" class="first-call">`: the entry point, which of the section's
controls are its arguments (read here at their first values, as app/controls/slider.js reads a
slider), and any argument the demo works out for itself ("also"). tools/lesson.py takes the
script out of the page. The build runs the requests in Pyodide with pelab
(tools/jobs/first_results.py) and serves each result as py/first-results/NAME.json. If the page
asks for anything else first, it waits for Python, and the browser tests say which demo did.

The heatmap is pictured instead: its first picture is a PNG in the page
(tools/jobs/first_heatmap.py).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

from tools.lesson import demo_sections, read_section, slider_value
from tools.project import BuildError

# Live demos whose first figure is a picture in the page, not a shipped result.
PICTURED = ("heatmap",)
# Demos that need no Python (app/demos/registry.js: WITHOUT_PYTHON, and the free code cell).
NOT_LIVE = ("quiz", "cell")


class _Controls(HTMLParser):
    """The named controls of a section source and their first values."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, object] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        name = attributes.get("name")
        if not name or name.startswith("quiz-"):
            return
        if tag == "lesson-slider":
            self.values[name] = first_value(attributes)
        elif tag == "input" and attributes.get("type") == "checkbox":
            self.values[name] = "checked" in attributes
        elif tag == "input" and attributes.get("type") == "radio":
            if "checked" in attributes:
                self.values[name] = attributes.get("value", "")
        elif tag == "input":
            self.values[name] = attributes.get("value", "")


def first_value(attributes: dict[str, str]) -> int | float:
    """A slider's value at its first position (`slider_value`), a whole number as an int, as
    Pyodide hands a whole JavaScript number to Python."""
    value = slider_value(attributes)
    return int(value) if value.is_integer() else value


def controls(source_html: str) -> dict[str, object]:
    """{name: first value} of the controls in a section source (quiz inputs left out)."""
    parser = _Controls()
    parser.feed(source_html)
    parser.close()
    return parser.values


def first_call(name: str) -> dict | None:
    """{"entry", "kwargs"}: the first request of the live demo `name`, from its section source;
    None for a demo pictured or without Python.

    Raises:
        BuildError: if a live demo states none, or states one that its controls cannot fill.
    """
    if name in PICTURED or name in NOT_LIVE:
        return None
    section = read_section(name, 0)
    source = f"lesson/{name}.html"
    if not section.first_call:
        raise BuildError(
            f'{source} is a live demo without a <script type="application/json" '
            'class="first-call">: the build computes its first result from it '
            "(tools/first_results.py)"
        )
    try:
        stated = json.loads(section.first_call)
    except json.JSONDecodeError as error:
        raise BuildError(f"{source}: its first-call script is not JSON ({error})") from None
    unknown = set(stated) - {"entry", "controls", "also"}
    if not isinstance(stated.get("entry"), str) or unknown:
        raise BuildError(
            f'{source}: a first-call names "entry" (a pelab entry point) and may name "controls" '
            f'and "also"{f", not {sorted(unknown)}" if unknown else ""}'
        )
    first = controls(section.source_html)
    missing = [control for control in stated.get("controls", []) if control not in first]
    if missing:
        raise BuildError(
            f"{source}: its first-call names the controls {missing}, which the section lacks "
            f"(it has {sorted(first)})"
        )
    kwargs = {control: first[control] for control in stated.get("controls", [])}
    clash = set(kwargs) & set(stated.get("also", {}))
    if clash:
        raise BuildError(f"{source}: its first-call sets {sorted(clash)} twice")
    return {"entry": stated["entry"], "kwargs": {**kwargs, **stated.get("also", {})}}


def first_calls() -> dict[str, dict]:
    """Every live demo's first request by demo name, in the lesson's order."""
    calls = {name: first_call(name) for name in demo_sections()}
    return {name: call for name, call in calls.items() if call is not None}
