"""The heatmap demo's first settings, read from their one owner: the heatmap section's sliders
(lesson/heatmap.html, as tools/lesson.py writes them into the page from the course model).

The build draws the demo's first picture with them (tools/jobs/first_heatmap.py), and the
placeholder image and the canvas in the same section must be as wide as d_model and as tall as
seq_len, or the page would stretch the first paint.
"""

from __future__ import annotations

from html.parser import HTMLParser

from tools.course import slider_value
from tools.lesson import read_section
from tools.project import BuildError

SECTION = "heatmap"  # <section id="heatmap">
SLIDERS = ("d_model", "seq_len", "base")  # the inputs' names
PICTURES = ("heatmap-placeholder", "heatmap-canvas")  # the <img>'s and the <canvas>'s class


class _HeatmapSection(HTMLParser):
    """Collects the attributes of the sliders and pictures inside <section id="heatmap">."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # open <section>s from the heatmap section inward; 0 outside it
        self.sliders: dict[str, dict[str, str | None]] = {}
        self.pictures: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "section" and (self.depth or attributes.get("id") == SECTION):
            self.depth += 1
        elif self.depth and tag == "input" and attributes.get("name") in SLIDERS:
            self.sliders.setdefault(attributes["name"], attributes)
        elif self.depth and tag in ("img", "canvas"):
            for name in (attributes.get("class") or "").split():
                if name in PICTURES:
                    self.pictures.setdefault(name, attributes)

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.depth:
            self.depth -= 1


def parse_heatmap_settings(html: str, source: str = "index.html") -> dict:
    """{"seq_len", "d_model", "base"} from the heatmap section of `html` (named `source` in
    errors), checked against the sizes of its placeholder image and canvas."""
    parser = _HeatmapSection()
    parser.feed(html)
    parser.close()
    where = f'{source}, <section id="{SECTION}">'
    values = {}
    for name in SLIDERS:
        value = (parser.sliders.get(name) or {}).get("value")
        if value is None:
            raise BuildError(
                f'{where} needs an <input name="{name}" value="..."> slider: the first heatmap is '
                'drawn from it'
            )
        try:
            values[name] = float(value)
        except ValueError:
            raise BuildError(
                f'{where}: the {name} slider\'s value="{value}" is not a number'
            ) from None
    for name in ("d_model", "seq_len"):
        if not values[name].is_integer() or values[name] < 1:
            raise BuildError(
                f"{where}: the {name} slider's value must be a whole number of at least 1"
            )
    settings = {"seq_len": int(values["seq_len"]), "d_model": int(values["d_model"])}
    settings["base"] = slider_value(parser.sliders["base"])  # as the page reads the slider
    for name in PICTURES:
        picture = parser.pictures.get(name)
        if picture is None:
            raise BuildError(
                f'{where} has no element of class "{name}": the first heatmap is drawn into it'
            )
        size = (picture.get("width"), picture.get("height"))
        if size != (str(settings["d_model"]), str(settings["seq_len"])):
            raise BuildError(
                f'{where}: the {name} is width="{size[0]}" height="{size[1]}" but the sliders say '
                f"d_model={settings['d_model']}, seq_len={settings['seq_len']}: set its width to "
                "d_model "
                "and its height to seq_len"
            )
    return settings


def heatmap_settings(page: str | None = None) -> dict:
    """The first heatmap's settings as the heatmap section's sliders set them, in the lesson page
    `page` (by default the heatmap section as its chapter's page shows it: tools/lesson.py)."""
    lesson = read_section(SECTION, 0).html if page is None else page
    return parse_heatmap_settings(lesson, "lesson/heatmap.html")
