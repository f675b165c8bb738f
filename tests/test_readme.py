"""The README's commands are the ones CI runs, and its rule table matches the rules."""

from __future__ import annotations

import re

from conftest import REPO
from repro_lint.rules import all_rules

README = (REPO / "README.md").read_text(encoding="utf-8")


def shell_blocks():
    return re.findall(r"```sh\n(.*?)```", README, re.DOTALL)


def test_ci_runs_the_readme_test_command():
    test_command = [b.strip() for b in shell_blocks() if "pytest" in b]
    assert len(test_command) == 1
    assert test_command[0] in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_rule_table_lists_every_rule():
    rows = dict(re.findall(r"^\| (RPL\d{3}) \| ([a-z0-9-]+) \|", README, re.MULTILINE))
    assert rows == {code: rule.name for code, rule in all_rules().items()}
