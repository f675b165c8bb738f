"""The rule book is part of the product: every rule has a page, and every tagged example on
a page does what it says (``bad`` fires the rule, ``good`` does not, ``fixed`` is clean)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import lint_files_in
from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter
from repro_lint.fixer import fix_source
from repro_lint.rulebook import EXAMPLE, book_dir, examples, read_page
from repro_lint.rules import all_rules
from repro_lint.source import Source

RULES = all_rules()
CASES = []
for code in RULES:
    page = read_page(code)
    for example in examples(page or ""):
        CASES.append(pytest.param(code, example, id=f"{code}-{example.kind}-line{example.line}"))


def settings_for(example):
    return settings_for_options(example.options)


def settings_for_options(tags: dict) -> dict:
    options = {}
    if "torch-version" in tags:
        options["torch_version_text"] = tags["torch-version"]
    if "fix-style" in tags:
        options["fix_style"] = tags["fix-style"]
    if "extend-select" in tags:  # rules the example needs besides its own
        options["extend_select"] = tags["extend-select"].split(",")
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


# -- "fixed" examples: what --fix makes of the bad example before them --------------------------


def _tagged(page: str):
    """(example, tags) for every tagged example of a page, in page order."""
    tags = [m.group("tags").split() for m in EXAMPLE.finditer(page)]
    tags = [t for t in tags if t and t[0] in ("bad", "good", "fixed")]
    return list(zip(examples(page), tags))


def _fix(tmp_path: Path, code: str, options: dict, select, unsafe: bool):
    path = tmp_path / options.get("filename", "example.py")
    path.write_text(code, encoding="utf-8")
    config = Settings(root=tmp_path, select=select, **settings_for_options(options))
    linter = Linter(config, ProjectContext(config, [path]))
    return fix_source(linter, str(path), Source(code, "utf-8"), unsafe=unsafe)


FIXED_CASES, BAD_CASES = [], []
for code in RULES:
    bad = None
    for example, tags in _tagged(read_page(code) or ""):
        if example.kind == "bad":
            bad = example
            if RULES[code].fix is not None:
                BAD_CASES.append(pytest.param(code, example, id=f"{code}-bad-line{example.line}"))
        elif example.kind == "fixed":
            FIXED_CASES.append(pytest.param(code, bad, example, "unsafe" in tags[1:], id=f"{code}-fixed-line{example.line}"))


@pytest.mark.parametrize("code,bad,fixed,unsafe", FIXED_CASES)
def test_fixed_example_is_what_fix_makes_of_the_bad_one(tmp_path: Path, code, bad, fixed, unsafe):
    assert bad is not None, f"{code}: the fixed example at line {fixed.line} needs a bad example before it"
    options = {**bad.options, **fixed.options}
    outcome = _fix(tmp_path, bad.code, options, [code], unsafe=True)
    assert not outcome.errors, outcome.errors
    assert outcome.text == fixed.code, f"{code}: --fix --unsafe-fixes on the bad example at line {bad.line} differs from the fixed example"
    safe_only = _fix(tmp_path, bad.code, options, [code], unsafe=False)
    if unsafe:
        assert safe_only.text != fixed.code, f"{code}: tagged 'fixed unsafe' but plain --fix already gives it"
    else:
        assert safe_only.text == fixed.code, f"{code}: plain --fix does not give it: tag it 'python fixed unsafe'"


@pytest.mark.parametrize("code,bad", BAD_CASES)
def test_fixing_a_bad_example_twice_changes_nothing_the_second_time(tmp_path: Path, code, bad):
    for select in ([code], ["ALL"]):
        first = _fix(tmp_path, bad.code, bad.options, select, unsafe=True)
        assert not first.errors, first.errors
        compile(first.text, "example.py", "exec")
        second = _fix(tmp_path, first.text, bad.options, select, unsafe=True)
        assert not second.errors, second.errors
        assert second.text == first.text and not second.fixed, f"{code}: a second --fix changed the text ({select})"
