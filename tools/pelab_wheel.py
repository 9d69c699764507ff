"""py/pelab as a reproducible pure-Python wheel (PEP 427): the same sources give the same bytes."""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

from tools.project import ROOT, BuildError, replace_atomically


def pelab_version() -> str:
    for line in (ROOT / "py" / "pelab" / "__init__.py").read_text().splitlines():
        if line.startswith("__version__"):
            return line.split("=")[1].strip().strip("\"'")
    raise BuildError("py/pelab/__init__.py has no __version__")


def build_pelab_wheel(target: Path) -> Path:
    """Write py/pelab as a reproducible pure-Python wheel (PEP 427) into target/."""
    version = pelab_version()
    dist_info = f"pelab-{version}.dist-info"
    files = {
        path.relative_to(ROOT / "py").as_posix(): path.read_bytes()
        for path in sorted((ROOT / "py" / "pelab").rglob("*.py"))
    }
    files[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: pelab\nVersion: {version}\n"
        "Summary: Positional encodings, attention and colour maps for Positional Encoding Lab\n"
        "Requires-Python: >=3.10\nRequires-Dist: numpy\n"
    ).encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [
        f"{name},sha256={record_digest(data)},{len(data)}" for name, data in files.items()
    ] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = target / f"pelab-{version}-py3-none-any.whl"
    target.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    # Written whole or not at all, and only when it changed: another build (a test's, beside
    # this one) may be reading the wheel at this moment.
    if not wheel.exists() or wheel.read_bytes() != buffer.getvalue():
        replace_atomically(wheel, buffer.getvalue())
    return wheel



def record_digest(data: bytes) -> str:
    """A file's hash as a wheel's RECORD writes it: urlsafe base64 of its sha256, unpadded."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
