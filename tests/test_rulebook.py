"""The rule book is part of the product: every rule has a page, and every tagged example on
a page does what it says (``bad`` fires the rule, ``good`` does not, ``fixed`` is clean)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import lint_files_in
from repro_lint.rulebook import book_dir, examples, read_page
from repro_lint.rules import all_rules

RULES = all_rules()
CASES = []
for code in RULES:
    page = read_page(code)
    for example in examples(page or ""):
        CASES.append(pytest.param(code, example, id=f"{code}-{example.kind}-line{example.line}"))


def settings_for(example):
    options = {}
    if "torch-version" in example.options:
        options["torch_version_text"] = example.options["torch-version"]
    if "fix-style" in example.options:
        options["fix_style"] = example.options["fix-style"]
    if "extend-select" in example.options:  # rules the example needs besides its own
        options["extend_select"] = example.options["extend-select"].split(",")
    return options


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_a_page_in_the_shape_of_ruffs(code):
    page = read_page(code)
    assert page is not None, f"rules/{code}.md is missing"
    rule = RULES[code]
    assert page.startswith(f"# {code}: {rule.name}\n"), "the title must be '# CODE: name'"
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety", "## References"):
        assert heading in page, f"{code}: missing section {heading!r}"
    kinds = {e.kind for e in examples(page)}
    if code != "RPL001":
        assert {"bad", "good"} <= kinds, f"{code}: needs a bad and a good example"
    if rule.fix is not None:
        assert "fixed" in kinds, f"{code}: a fixable rule needs a fixed example"


def test_no_page_without_a_rule():
    pages = {p.stem for p in book_dir().glob("RPL*.md")}
    assert pages <= set(RULES), f"pages for unknown rules: {sorted(pages - set(RULES))}"


@pytest.mark.parametrize("code,example", CASES)
def test_rule_book_example(tmp_path: Path, code, example):
    path = tmp_path / example.options.get("filename", "example.py")
    path.write_text(example.code, encoding="utf-8")
    found = [d.code for d in lint_files_in([path], tmp_path, select=[code], **settings_for(example))]
    if example.kind == "bad":
        assert code in found, f"the bad example at line {example.line} must produce {code}"
    else:
        assert code not in found, f"the {example.kind} example at line {example.line} must not produce {code}: {found}"
