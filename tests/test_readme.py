"""The README's commands are the ones CI runs, and its rule table matches the rules."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO
from repro_lint.rules import all_rules

README = (REPO / "README.md").read_text(encoding="utf-8")


def shell_blocks():
    return re.findall(r"```sh\n(.*?)```", README, re.DOTALL)


def test_ci_runs_the_readme_test_command():
    test_command = [b.strip() for b in shell_blocks() if "pytest" in b]
    assert len(test_command) == 1
    assert test_command[0] in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_configuration_block_shows_every_key_and_loads(tmp_path):
    """The Configuration section's example names every key the configuration accepts, no
    other, and is itself a valid configuration."""
    from repro_lint.config import SCHEMA, load_settings, tomllib

    section = README.split("## Configuration", 1)[1]
    block = re.search(r"```toml\n(.*?)```", section, re.DOTALL).group(1)
    assert set(tomllib.loads(block)["tool"]["repro-lint"]) == set(SCHEMA)
    (tmp_path / "pyproject.toml").write_text(block, encoding="utf-8")
    settings = load_settings(tmp_path / "pyproject.toml")
    assert (settings.fix_style, settings.line_length) == ("runtime", 88)


def test_readme_rule_table_lists_every_rule():
    rows = dict(re.findall(r"^\| (RPL\d{3}) \| ([a-z0-9-]+) \|", README, re.MULTILINE))
    assert rows == {code: rule.name for code, rule in all_rules().items()}


def console_examples():
    """``(command, expected output)`` of every ``$ command`` in the README's ``console`` blocks."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", README, re.DOTALL):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


def test_readme_has_console_examples():
    commands = [command for command, _ in console_examples()]
    assert any("ipynb" in c for c in commands) and any("--stdin-filename" in c for c in commands)


@pytest.mark.parametrize("command, expected", console_examples(), ids=lambda v: v[:40] if isinstance(v, str) else None)
def test_readme_console_examples_print_what_the_readme_shows(tmp_path, command, expected):
    """Each command runs, in a copy of the repository's examples, and prints what is shown
    (stdout and stderr together, as a terminal shows them)."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "repro-lint"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m repro_lint "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(REPO))
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert (proc.stdout + proc.stderr).rstrip("\n") == expected.rstrip("\n")
