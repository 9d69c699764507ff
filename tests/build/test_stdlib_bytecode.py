"""The standard library dist/ serves, with bytecode (tools/jobs/stdlib_bytecode.py,
tools/repack.py), booted in Pyodide under Node as the worker boots it: the modules the boot
imports come from their .pyc, and tracebacks and inspect still find their sources."""

from __future__ import annotations

import json
import zipfile

import pytest

from site_server import DIST, PYODIDE
from tools import in_pyodide, vendor_pyodide

# One Node run for every check below: loadPyodide, numpy, the pelab wheel, then this job.
PROBE = '''
import sys

STDLIB = "/lib/python312.zip/"


def main():
    import pelab.browser.entry_points  # what the worker imports at boot
    import pelab.browser.notebook

    # where every standard library module imported so far was loaded from, before this job
    # imports anything of its own
    loaded = {
        name: module.__spec__.origin
        for name, module in list(sys.modules.items())
        if (getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(STDLIB)
    }
    import inspect
    import json
    import traceback

    try:
        json.loads("")  # raised in json/decoder.py, loaded from its pyc
    except ValueError:
        trace = traceback.format_exc()
    return json.dumps(
        {
            "loaded": loaded,
            "json_file": json.__file__,
            "dumps_source": inspect.getsource(json.dumps),
            "dumps_file": json.dumps.__code__.co_filename,
            "trace": trace,
        }
    ).encode()
'''


@pytest.fixture(scope="module")
def booted(tmp_path_factory):
    job = tmp_path_factory.mktemp("probe") / "probe.py"
    job.write_text(PROBE)
    pelab = next((DIST / "py").glob("pelab-*.whl"))
    return json.loads(in_pyodide.run_in_pyodide(job, {}, [], pelab, served=DIST / PYODIDE))


def test_every_standard_library_module_the_boot_imports_comes_from_its_bytecode(booted):
    """None compiled from source at boot: the job's list covers them all, and each pyc's hash
    matched its source (zipimport ignores a pyc whose hash differs and compiles the .py)."""
    loaded = booted["loaded"]
    assert len(loaded) > 100
    assert {"json", "encodings", "importlib.metadata", "typing"} <= loaded.keys()
    assert {name: origin for name, origin in loaded.items() if not origin.endswith(".pyc")} == {}
    assert booted["json_file"] == "/lib/python312.zip/json/__init__.pyc"


def test_the_served_bytecode_is_exactly_what_the_boot_imports_and_nothing_more(booted):
    with zipfile.ZipFile(DIST / PYODIDE / "python_stdlib.zip") as stdlib:
        pycs = {name for name in stdlib.namelist() if name.endswith(".pyc")}
    imported = {origin.removeprefix("/lib/python312.zip/") for origin in booted["loaded"].values()}
    assert pycs == imported


def test_inspect_still_finds_the_source_of_a_function_loaded_from_bytecode(booted):
    # compiled under the .py's name, as zipimport compiles it: the zip's loader gives the source
    assert booted["dumps_file"] == "/lib/python312.zip/json/__init__.py"
    assert booted["dumps_source"].startswith("def dumps(obj, *, skipkeys=False,")
    with zipfile.ZipFile(vendor_pyodide.PYODIDE_NPM / "python_stdlib.zip") as official:
        assert booted["dumps_source"] in official.read("json/__init__.py").decode()


def test_a_traceback_through_a_module_loaded_from_bytecode_shows_its_source_lines(booted):
    """traceback asks linecache, which asks the zip's loader for the .py (the code's file name)."""
    trace = booted["trace"]
    with zipfile.ZipFile(vendor_pyodide.PYODIDE_NPM / "python_stdlib.zip") as official:
        decoder = official.read("json/decoder.py").decode().splitlines()
    # the line JSONDecoder.raw_decode raises from, and where, as traceback prints them
    start = decoder.index("    def raw_decode(self, s, idx=0):")
    raises = 'raise JSONDecodeError("Expecting value"'
    number, line = next(
        (n, text) for n, text in enumerate(decoder[start:], start + 1) if raises in text
    )
    where = f'File "/lib/python312.zip/json/decoder.py", line {number}, in raw_decode'
    assert f"{where}\n    {line.strip()}\n" in trace
    error = "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    assert trace.rstrip().endswith(error)
