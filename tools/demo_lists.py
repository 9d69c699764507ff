"""The lists of demos that the page's modules own, read for Python: which demos need no Python
and which are not live (app/demos/registry.js's WITHOUT_PYTHON and NOT_LIVE), and which live
demo's first figure is a picture in the page (app/demos/first-results.js's PICTURED).

The page needs these lists before it has a section to read (an embed decides whether to start
Python from its URL alone), so the JavaScript owns them, and the build and the tests read them
from there, as tools/page_protocol.py reads app/page-protocol.js. Each list is written as
`export const NAME = Object.freeze([...]);`, its items names in double quotes or `...OTHER`, a
list of the same module; anything else fails loudly, naming the module.
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.project import ROOT, BuildError

REGISTRY = ROOT / "app" / "demos" / "registry.js"
FIRST_RESULTS = ROOT / "app" / "demos" / "first-results.js"

_LIST = re.compile(r"^export const (\w+) = Object\.freeze\(\[(.*?)\]\);$", re.M | re.S)
_ITEM = re.compile(r'\s*(?:"([\w-]+)"|\.\.\.(\w+))\s*')


def frozen_lists(path: Path) -> dict[str, list[str]]:
    """Every `export const NAME = Object.freeze([...])` of `path` by NAME, spreads expanded."""
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    found: dict[str, list[str]] = {}
    for name, body in _LIST.findall(path.read_text(encoding="utf-8")):
        items: list[str] = []
        for item in filter(str.strip, body.split(",")):
            match = _ITEM.fullmatch(item)
            if not match or (match[2] and match[2] not in found):
                raise BuildError(
                    f'{where}: {name} must list demo names ("name") or an earlier list '
                    f"(...LIST), not {item.strip()!r}"
                )
            items += [match[1]] if match[1] else found[match[2]]
        found[name] = items
    return found


def _list(path: Path, name: str) -> tuple[str, ...]:
    lists = frozen_lists(path)
    if name not in lists:
        raise BuildError(
            f"{path.relative_to(ROOT).as_posix()} must export {name} = Object.freeze([...])"
        )
    return tuple(lists[name])


def without_python() -> tuple[str, ...]:
    """The demos that need no Python at all (registry.js's WITHOUT_PYTHON)."""
    return _list(REGISTRY, "WITHOUT_PYTHON")


def not_live() -> tuple[str, ...]:
    """The demos pelab does not compute live: no entry points, no first request (registry.js's
    NOT_LIVE)."""
    return _list(REGISTRY, "NOT_LIVE")


def pictured() -> tuple[str, ...]:
    """The live demos whose first figure is a picture in the page, not a shipped result
    (first-results.js's PICTURED)."""
    return _list(FIRST_RESULTS, "PICTURED")
