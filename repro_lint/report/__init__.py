"""Reporters: each turns the run's diagnostics into one output format.

A reporter is a function ``(diagnostics, out, options) -> None`` registered in :data:`FORMATS`
under its ``--output-format`` name. Diagnostics arrive sorted by path and position.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, TextIO
from urllib.parse import quote

from ..diagnostics import Diagnostic


@dataclass
class ReportOptions:
    quiet: bool = False
    statistics: bool = False
    files_checked: int = 0
    #: True after --fix: say how many were fixed
    fixed: int = 0
    #: --show-fixes: the fixes applied, by file (shown path -> {code: count})
    fixes: Optional[Mapping[str, Mapping[str, int]]] = None


def readable_path(path: str) -> str:
    """``path`` as text every output can carry: the bytes of a file name that are not UTF-8
    (which Python keeps as surrogate escapes, ``caf\\udce9.py``) become U+FFFD."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", "replace")


def uri_path(posix: str) -> str:
    """A ``/``-separated path as the path part of a URI (RFC 3986): every byte of the file
    name that is not unreserved, non-UTF-8 bytes included, percent-encoded."""
    return quote(os.fsencode(posix))


Reporter = Callable[[List[Diagnostic], TextIO, ReportOptions], None]
FORMATS: Dict[str, Reporter] = {}


def register(name: str) -> Callable[[Reporter], Reporter]:
    def wrap(func: Reporter) -> Reporter:
        FORMATS[name] = func
        return func

    return wrap


from . import json as _json  # noqa: E402,F401  (registers "json")
from . import text as _text  # noqa: E402,F401  (registers "text" and "concise")
from . import full as _full  # noqa: E402,F401  (registers "full")
from . import sarif as _sarif  # noqa: E402,F401  (registers "sarif")
from . import github as _github  # noqa: E402,F401  (registers "github")
