"""Colours for the text formats: only on a terminal, never when ``NO_COLOR`` is set
(https://no-color.org), and on anything when ``FORCE_COLOR`` is set (e.g. CI logs)."""

from __future__ import annotations

import os
from typing import TextIO

RESET = "\033[0m"
BOLD = "\033[1m"
RED = "\033[31m"
CYAN = "\033[36m"
BLUE = "\033[34m"


def use_color(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed or odd stream
        return False


class Style:
    """Wraps text in ANSI codes, or leaves it alone when colours are off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *codes: str) -> str:
        if not self.enabled or not codes or not text:
            return text
        return "".join(codes) + text + RESET

    @classmethod
    def for_stream(cls, out: TextIO) -> "Style":
        return cls(use_color(out))


PLAIN = Style(False)
