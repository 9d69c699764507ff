"""numpy's and pelab's modules compiled to bytecode by Pyodide's Python, as a zip laid out as in
site-packages.

Pyodide's numpy wheel ships Python sources only, and Pyodide never writes bytecode, so every
visit compiled numpy's modules afresh: about 0.35 s of the boot. The worker unpacks this zip
into site-packages first. Each file is checked against its source's hash on import, so a
mismatch costs only the compile it would have cost anyway.
"""

import io
import os
import py_compile
import site
import sys
import zipfile


def main() -> bytes:
    import pelab.browser.entry_points  # what the worker imports at boot
    import pelab.browser.notebook

    [site_packages] = site.getsitepackages()
    buffer = io.BytesIO()
    # every module imported by then, and all of pelab, subpackages included
    # (pelab.browser.mpl_backend waits for matplotlib)
    sources = {getattr(module, "__file__", None) or "" for module in list(sys.modules.values())}
    sources |= {
        os.path.join(folder, name)
        for folder, _, names in os.walk(pelab.__path__[0])
        for name in names
    }
    with zipfile.ZipFile(buffer, "w") as archive:
        for source in sorted(sources):
            if not (source.startswith(site_packages + "/") and source.endswith(".py")):
                continue
            # checked against its source's hash when imported: an edited source is never shadowed
            cached = py_compile.compile(
                source, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
            )
            entry = zipfile.ZipInfo(
                os.path.relpath(cached, site_packages), date_time=(1980, 1, 1, 0, 0, 0)
            )
            with open(cached, "rb") as file:
                # stored, not deflated: the server's Brotli then compresses the archive as a whole
                # (tools/repack.py says why)
                archive.writestr(entry, file.read(), compress_type=zipfile.ZIP_STORED)
        names = archive.namelist()
    assert any(n.startswith("numpy/") for n in names) and any(
        n.startswith("pelab/") for n in names
    ), names
    return buffer.getvalue()
