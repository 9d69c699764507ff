"""The standard library modules Python has imported by the time the worker has imported pelab,
compiled to bytecode by Pyodide's own Python, as a zip laid out as in python_stdlib.zip.

Pyodide 0.27.7's python_stdlib.zip holds sources only, and Pyodide writes no bytecode, so
every visit compiled the ~150 standard library modules that loadPyodide, loadPackage and
pelab import (encodings, asyncio, email, importlib.metadata, json, ...) from source, in
WebAssembly: about 1 s of the boot. tools/repack.py puts each `.pyc` right after its `.py` in
the stdlib the site serves. Each is a *checked* hash-based pyc (PEP 552): zipimport compares its
hash with the `.py` beside it and compiles the source whenever they differ, so an edited
source is never shadowed. Compiled here, by the pinned Pyodide's Python, the magic number is
exactly the one it accepts.
"""

import sys

STDLIB = "/lib/python312.zip/"  # where Pyodide mounts python_stdlib.zip


def loaded_from(module) -> str:
    """The file `module` was loaded from ("" if none, "frozen" or "built-in" if not from a file)."""
    return getattr(getattr(module, "__spec__", None), "origin", None) or ""


def main() -> bytes:
    # What the worker imports at boot (as tools/jobs/bytecode.py): imported for their imports.
    import pelab.browser.entry_points  # noqa: F401
    import pelab.browser.notebook  # noqa: F401

    # Before this job imports anything of its own: only what the boot imported counts. By
    # where each was loaded from, not its __file__: importlib sets one on its frozen modules.
    origins = map(loaded_from, list(sys.modules.values()))
    files = sorted({origin for origin in origins if origin.startswith(STDLIB)})
    import _imp
    import io
    import zipfile
    from importlib._bootstrap_external import _RAW_MAGIC_NUMBER, _code_to_hash_pyc

    buffer = io.BytesIO()
    with zipfile.ZipFile(STDLIB[:-1]) as stdlib, zipfile.ZipFile(buffer, "w") as archive:
        for path in files:
            name = path[len(STDLIB):]
            # a module the boot compiled from source, not one loaded from a pyc already
            assert name.endswith(".py"), path
            source = stdlib.read(name)
            # the code zipimport would compile from this source (its _compile_source: line ends
            # made \n, the .py's path as file name), so tracebacks and inspect find the source
            # in the zip as before (linecache asks the zip's loader); hashed as it is in the zip
            text = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            code = compile(text, path, "exec", dont_inherit=True)
            source_hash = _imp.source_hash(_RAW_MAGIC_NUMBER, source)
            data = _code_to_hash_pyc(code, source_hash, checked=True)
            entry = zipfile.ZipInfo(name[:-3] + ".pyc", date_time=(1980, 1, 1, 0, 0, 0))
            archive.writestr(entry, bytes(data), compress_type=zipfile.ZIP_STORED)
        names = archive.namelist()
    assert "json/__init__.pyc" in names and "encodings/__init__.pyc" in names, names
    return buffer.getvalue()
