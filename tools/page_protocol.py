"""The names app/page-protocol.js owns, for Python: its host messages and performance marks.

That module writes each object as `export const NAME = Object.freeze({` and then one
`KEY: "value",` per line up to `});`; this reads them so, and fails loudly on anything else.
bench/run.py takes its mark names from here; tests/js/page-protocol.test.mjs checks that what
this reads is what the module exports.
"""

from __future__ import annotations

import re
from pathlib import Path

PAGE_PROTOCOL = Path(__file__).resolve().parent.parent / "app" / "page-protocol.js"

_OBJECT = re.compile(r"^export const (\w+) = Object\.freeze\(\{\n(.*?)\n\}\);$", re.M | re.S)
_ENTRY = re.compile(r'^  (\w+): "([^"\\]*)",$')


def constants(path: Path = PAGE_PROTOCOL) -> dict[str, dict[str, str]]:
    """Every frozen object of string constants in `path`, by its exported name."""
    found = {}
    for name, body in _OBJECT.findall(path.read_text(encoding="utf-8")):
        entries = {}
        for line in body.splitlines():
            match = _ENTRY.match(line)
            if not match:
                raise ValueError(f"{path}: {name}: not a `KEY: \"value\",` line: {line!r}")
            entries[match[1]] = match[2]
        found[name] = entries
    return found


def marks(path: Path = PAGE_PROTOCOL) -> dict[str, str]:
    """MARK: the performance marks the page leaves for the benchmark."""
    return constants(path)["MARK"]


if __name__ == "__main__":  # what tests/js/page-protocol.test.mjs compares with the module
    import json

    print(json.dumps(constants()))
