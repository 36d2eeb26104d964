"""The site's outputs, collected in memory and written all at once.

`Writer.add(path, bytes)` refuses a second output at one path and any path that
would land outside the output folder. `Writer.files` is then written by the one
site writer, `lumina.safeio.replace_tree` (a temporary folder beside the output,
swapped in atomically under a lock), in tests and in production alike.
"""
from __future__ import annotations

import posixpath
import re


class SiteError(ValueError):
    """Bad input for the site; the message names the file, level and field."""


class Writer:
    """One collection of outputs (site-relative path -> bytes)."""

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
