"""The site's outputs, collected in memory and written all at once.

`Writer.add(path, bytes)` refuses a second output at one path and any path that
would land outside the output folder; `Writer.commit(out)` writes everything into a
temp folder beside `out` and swaps it in with two renames, so a failure at any step
leaves the old site exactly as it was. (`python -m lumina.publish` writes through
`lumina.safeio.replace_tree` instead, which adds the output-folder checks and lock.)
"""
from __future__ import annotations

import os
import posixpath
import re
import shutil
import tempfile
from pathlib import Path


class SiteError(ValueError):
    """Bad input for the site; the message names the file, level and field."""


class Writer:
    """One collection of outputs, written into a temp folder that replaces `out`."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, rel: str, data: bytes | str) -> None:
        norm = posixpath.normpath(rel)
        if (rel.startswith(("/", "\\")) or norm.startswith("..") or norm == "." or "\\" in rel
                or re.match(r"^[A-Za-z]:", rel) or norm != rel):
            raise SiteError(f"output {rel!r}: path is outside the site folder or not normalised")
        if norm in self.files:
            raise SiteError(f"output {rel!r}: two pages at one path")
        self.files[norm] = data.encode("utf-8") if isinstance(data, str) else data

    def commit(self, out: Path) -> None:
        out = Path(out).resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.build-", dir=out.parent))
        try:
            for rel in sorted(self.files):
                p = tmp / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(self.files[rel])
            old = None
            if out.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
                old.rmdir()
                os.replace(out, old)
            os.replace(tmp, out)
            os.chmod(out, 0o755)
            if old is not None:
                shutil.rmtree(old)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
