"""For the rules of this family of pages, applying the fix of the ``bad`` example gives
exactly the ``fixed`` example on the rule's page."""

from __future__ import annotations

import pytest

from applyfix import apply_fixes
from conftest import lint_files_in
from repro_lint.rulebook import examples, read_page

CODES = ["RPL204", "RPL207", "RPL208", "RPL301", "RPL302", "RPL601"]


@pytest.mark.parametrize("code", CODES)
def test_fixing_the_bad_example_gives_the_fixed_one(tmp_path, code):
    page = examples(read_page(code) or "")
    bad = next(e for e in page if e.kind == "bad")
    fixed = next(e for e in page if e.kind == "fixed")
    path = tmp_path / "example.py"
    path.write_text(bad.code, encoding="utf-8")
    found = lint_files_in([path], tmp_path, select=[code])
    assert [d.code for d in found] == [code]
    assert apply_fixes(bad.code, found, unsafe=True) == fixed.code
