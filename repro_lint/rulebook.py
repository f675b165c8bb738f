"""The rule book: one Markdown page per rule (``rules/RPLnnn.md`` in the repository, shipped
inside the wheel as ``repro_lint/_rulebook``). Pages carry tagged examples that the tests run:
a fenced block whose info string is ``python bad``, ``python good`` or ``python fixed``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

#: where each rule page is published; every diagnostic's ``url`` points there
RULE_URL = "https://github.com/repro-lint/repro-lint/blob/main/rules/{code}.md"

EXAMPLE = re.compile(r"^```python[ \t]+(?P<tags>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def rule_url(code: str) -> str:
    return RULE_URL.format(code=code)


def book_dir() -> Path:
    """The folder of rule pages: inside the installed package, or the checkout's ``rules/``."""
    here = Path(__file__).resolve().parent
    shipped = here / "_rulebook"
    if shipped.is_dir():
        return shipped
    return here.parent / "rules"


def page_path(code: str) -> Path:
    return book_dir() / f"{code}.md"


def read_page(code: str) -> Optional[str]:
    path = page_path(code)
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def section(page: str, heading: str) -> str:
    """The text of the page's ``## heading`` section, without its heading ("" when absent)."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", page, re.MULTILINE | re.DOTALL)
    return match.group(1).strip() if match else ""


def summary(code: str) -> Optional[str]:
    """The first paragraph of what the rule does, on one line (None: the rule has no page)."""
    page = read_page(code)
    if page is None:
        return None
    first = re.split(r"\n[ \t]*\n", section(page, "What it does"), maxsplit=1)[0]
    return " ".join(first.split()) or None


@dataclass
class Example:
    kind: str  # "bad", "good" or "fixed"
    code: str
    #: extra tags, e.g. ``settings:torch-version=2.9`` or ``filename=train.py``
    options: Dict[str, str]
    line: int


def examples(text: str) -> List[Example]:
    found = []
    for match in EXAMPLE.finditer(text):
        tags = match.group("tags").split()
        if not tags or tags[0] not in ("bad", "good", "fixed"):
            continue
        options = dict(tag.split("=", 1) for tag in tags[1:] if "=" in tag)
        line = text.count("\n", 0, match.start()) + 1
        found.append(Example(tags[0], match.group("code"), options, line))
    return found
