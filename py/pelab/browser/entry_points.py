"""
# Entry points for the browser

The worker (app/python/worker/main.js) calls `call(name, kwargs)` with plain JavaScript values
converted to Python (a JavaScript array arrives as a list), and gets plain data back
(`pelab.browser.plain`): the worker copies each array out of wasm memory into a typed array and
frees the proxies. The entry points live one module per demo in `pelab.browser.demos`; the
maths lives in pelab's other modules, which they only call and flatten.
"""

from __future__ import annotations

import importlib
import pkgutil

from . import demos
from .plain import check_plain


def _assemble() -> dict:
    """Every demo module's `ENTRY_POINTS`, in one table; a name defined twice is an error."""
    table = {}
    for module in pkgutil.iter_modules(demos.__path__):
        if module.name.startswith("_"):
            continue
        entries = importlib.import_module(f"{demos.__name__}.{module.name}").ENTRY_POINTS
        for name, function in entries.items():
            if name in table:
                raise RuntimeError(f"entry point {name!r} is defined twice ({module.name})")
            table[name] = function
    return dict(sorted(table.items()))


# Every entry point by name: what `call` runs.
ENTRY_POINTS = _assemble()
# The demo module each entry point is defined in, by entry point.
DEMO_OF = {name: function.__module__.rsplit(".", 1)[1] for name, function in ENTRY_POINTS.items()}


def call(name: str, kwargs: dict | None = None) -> dict:
    """
    Run the entry point called `name` with keyword arguments `kwargs`.

    Raises:
        ValueError: if there is no entry point `name` (and whatever the entry point raises).
        TypeError: if a keyword is missing or unknown, or the result is not plain data.
    """
    if name not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {name!r}; known: {', '.join(sorted(ENTRY_POINTS))}")
    return check_plain(name, ENTRY_POINTS[name](**(kwargs or {})))
