"""Findings the engine itself makes about a file (not produced by a traversal)."""

from __future__ import annotations

from .base import Rule


class UnreadableFile(Rule):
    """The file cannot be read, decoded or parsed; it was not linted."""

    code = "RPL001"
    name = "unreadable-file"
    message = "file cannot be read, decoded or parsed"
    #: reported by the engine, so it has no trigger words and no visitor
    triggers = ()
    found_by = "engine"
    severity = "error"
    never_baselined = "the file must be made readable"

