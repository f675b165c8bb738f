"""Suppression comments, with flake8's semantics.

- ``# noqa`` on the reported line suppresses every finding on that line;
  ``# noqa: RPL201, RPL301`` only those codes (a prefix such as ``RPL2`` matches its codes).
- ``# repro-lint: noqa`` anywhere in a file (on a comment line of its own) suppresses the whole
  file; ``# repro-lint: noqa: RPL101`` only those codes in that file.

Comments are found with :mod:`tokenize`, so ``# noqa`` inside a string does not count.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple

CODE = r"[A-Z]+[0-9]+"
NOQA_LINE = re.compile(rf"#\s*noqa(?::[\s]?(?P<codes>{CODE}(?:[,\s]+{CODE})*))?", re.IGNORECASE)
NOQA_FILE = re.compile(rf"#\s*repro-lint\s*:\s*noqa(?::[\s]?(?P<codes>{CODE}(?:[,\s]+{CODE})*))?", re.IGNORECASE)

#: the start of a comment part that instructs a tool rather than describes the code
#: (``type: ignore``, ``noqa`` with flake8's codes, ``pylint: disable=...``, ``fmt: skip``,
#: ``pragma: no cover``, ``nosec``)
TOOL_DIRECTIVE = re.compile(
    r"\s*(?:noqa\b|nosec\b|type\s*:|pylint\s*:|pyright\s*:|mypy\s*:|pyre-|fmt\s*:|yapf\s*:|isort\s*:|"
    r"ruff\s*:|flake8\s*:|pragma\s*:|lint-ignore|lint-fixme|repro-lint\s*:)",
    re.IGNORECASE,
)

#: None means "every code"
Codes = Optional[FrozenSet[str]]


def _codes(text: Optional[str]) -> Codes:
    if not text:
        return None
    return frozenset(c.upper() for c in re.split(r"[,\s]+", text.strip()) if c)


def _comments(source: str) -> Iterator[Tuple[int, int, str]]:
    """(line, column, text) of every comment; falls back to a line scan if tokenizing fails."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.start[1], tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        for number, line in enumerate(source.splitlines(), 1):
            index = line.find("#")
            if index >= 0:
                yield number, index, line[index:]


def tool_directives(comment: str) -> str:
    """The comment ``comment`` with only its parts that instruct a tool (:data:`TOOL_DIRECTIVE`):
    itself where every part does, the ``type: ignore`` part alone of ``faster  # type: ignore``,
    "" where none does."""
    parts = comment.split("#")[1:]
    kept = [part.strip() for part in parts if TOOL_DIRECTIVE.match(part)]
    return comment if len(kept) == len(parts) else "  ".join(f"# {part}" for part in kept)


@dataclass
class NoqaDirective:
    line: int
    column: int
    text: str  # the matched comment part: the noqa directive and its codes
    codes: Codes
    used: set = field(default_factory=set)


@dataclass
class Suppressions:
    lines: Dict[int, NoqaDirective] = field(default_factory=dict)
    file_codes: List[Codes] = field(default_factory=list)

    def file_suppresses(self, code: str) -> bool:
        return any(codes is None or _matches(code, codes) for codes in self.file_codes)

    def line_directive(self, code: str, line: int) -> Optional[NoqaDirective]:
        directive = self.lines.get(line)
        if directive is None:
            return None
        if directive.codes is None or _matches(code, directive.codes):
            return directive
        return None


def _matches(code: str, codes: FrozenSet[str]) -> bool:
    return code in codes or any(code.startswith(c) for c in codes)


def parse_suppressions(source: str) -> Suppressions:
    result = Suppressions()
    # a directive's comment matches in the text as a whole too: without a match there, the
    # text is not tokenized (most texts that say "noqa" say it in a directive)
    if NOQA_LINE.search(source) is None and NOQA_FILE.search(source) is None:
        return result
    for line, column, comment in _comments(source):
        file_match = NOQA_FILE.search(comment)
        if file_match:
            result.file_codes.append(_codes(file_match.group("codes")))
            continue
        match = NOQA_LINE.search(comment)
        if match:
            result.lines[line] = NoqaDirective(
                line, column + match.start(), match.group(0), _codes(match.group("codes"))
            )
    return result
