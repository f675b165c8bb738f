"""The flake8 plugin, exercised through the real ``flake8`` (registered by the package's
``flake8.extension`` entry point): same findings as the CLI, flake8's selection and noqa,
options from flake8's configuration, and the project context across files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from conftest import run_cli, write

flake8 = pytest.importorskip("flake8", reason="flake8 comes with the [test] extra")

Finding = Tuple[str, int, int, str, str]

TREE = {
    "train.py": """\
        import torch
        import torch.nn.functional as F
        from torch.backends import cudnn as cb

        cb.benchmark = True
        cb.deterministc = True
        torch.backends.cudnn.benchmark = True  # noqa: RPL201
        torch.backends.cudnn.benchmark = True  # noqa: E501
        torch.backends.cudnn.benchmark = True  # noqa


        class Net(torch.nn.Module):
            def forward(self, x):
                return F.dropout(x, 0.5)


        if __name__ == "__main__":
            Net()
        """,
    "pkg/__init__.py": "",
    "pkg/seeding.py": """\
        import torch

        def seed_all(seed):
            torch.manual_seed(seed)
        """,
    "pkg/model.py": """\
        import torch.nn as nn
        import torch.nn.functional as F

        class Block(nn.Module):
            def forward(self, x):
                if self.training:
                    x = F.dropout(x, 0.1)
                return F.alpha_dropout(x, 0.1)  # noqa: RPL501, E501
        """,
    "stale.py": """\
        import torch
        torch.backends.cudnn.benchmark = False  # noqa: RPL201
        x = 1  # noqa: RPL999, E501
        """,
    "no_torch_at_all.py": "print('hello')\n",
    "weird_ünïcode.py": "from torch.backends import cudnn\nnäme = 1; cudnn.benchmark = True\n",
}


def run_flake8(args: List[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=str(cwd),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def flake8_findings(args: List[str], cwd: Path) -> Set[Finding]:
    proc = run_flake8(["--format=%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s", *args], cwd)
    assert proc.returncode in (0, 1), proc.stderr
    found = set()
    for line in proc.stdout.splitlines():
        path, row, col, code, text = line.split("\t")
        if code.startswith("RPL"):
            # flake8 splits "RPL201 message" into its code and the rest
            found.add((os.path.normpath(path), int(row), int(col), code, text))
    return found


def cli_findings(args: List[str], cwd: Path) -> Set[Finding]:
    proc = run_cli(["--output-format", "json", *args], cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return {
        (
            os.path.relpath(d["filename"], cwd),
            d["location"]["row"],
            d["location"]["column"],
            d["code"],
            d["message"],
        )
        for d in json.loads(proc.stdout)
    }


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path, TREE)
    return tmp_path


def test_the_plugin_is_registered_with_flake8(tmp_path: Path):
    proc = run_flake8(["--version"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"repro-lint: \d+\.\d+", proc.stdout), (
        "flake8 does not list the plugin: install the package (pip install -e .) so its "
        f"flake8.extension entry point is registered\n{proc.stdout}"
    )


def test_flake8_reports_what_the_cli_reports(tree: Path):
    from_flake8 = flake8_findings(["."], tree)
    from_cli = cli_findings(["."], tree)
    assert from_cli, "the tree must produce findings for the comparison to mean anything"
    assert {f[3] for f in from_cli} >= {"RPL201", "RPL205", "RPL501"}
    assert from_flake8 == from_cli


def test_explicit_selection_matches_the_cli_including_off_by_default_rules(tree: Path):
    # off by default in both: RPL002 appears in neither without selection
    assert not any(f[3] == "RPL002" for f in flake8_findings(["."], tree))
    selected = flake8_findings(["--select", "RPL", "."], tree)
    assert selected == cli_findings(["--select", "RPL", "."], tree)
    assert {(f[0], f[1]) for f in selected if f[3] == "RPL002"} == {("stale.py", 2), ("stale.py", 3)}
    extended = flake8_findings(["--extend-select", "RPL002", "."], tree)
    assert extended == cli_findings(["--extend-select", "RPL002", "."], tree)
    ignored = flake8_findings(["--extend-ignore", "RPL2", "."], tree)
    assert ignored == cli_findings(["--ignore", "RPL2", "."], tree)
    assert ignored and not any(f[3].startswith("RPL2") for f in ignored)


def test_flake8_noqa_and_disable_noqa(tree: Path):
    lines = {f[1] for f in flake8_findings(["train.py"], tree) if f[3] == "RPL201"}
    assert lines == {5, 8}  # 7 (noqa: RPL201) and 9 (bare noqa) are suppressed; E501 is not ours
    everything = {f[1] for f in flake8_findings(["--disable-noqa", "train.py"], tree) if f[3] == "RPL201"}
    assert everything == {5, 7, 8, 9}


def test_flake8_on_a_file_passed_on_stdin(tree: Path):
    source = (tree / "train.py").read_text(encoding="utf-8")
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "RPL", "--stdin-display-name", "train.py", "-"],
        cwd=str(tree),
        env=env,
        input=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert "train.py:5:1: RPL201" in proc.stdout


def test_options_come_from_flake8_configuration(tree: Path):
    """The plugin's options are parsed by flake8 itself from its configuration file."""
    from flake8.main.application import Application

    from repro_lint.flake8 import Plugin

    (tree / "setup.cfg").write_text(
        "[flake8]\n"
        "repro-entry-points = scripts/*.py, tools/run_*.py\n"
        "repro-torch-version = 2.9\n"
        "repro-seed-functions = mylib.fix_seeds\n",
        encoding="utf-8",
    )
    # the project root (entry-point globs are relative to it) is marked as the CLI finds it
    write(tree, {"scripts/go.py": "import torch\n", "tools/run_a.py": "x = 1\n", "pyproject.toml": "[project]\nname = 'demo'\n"})
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        app = Application()
        app.initialize(["--jobs", "1", "pkg/model.py"])
        linter = Plugin.linter()
        settings = linter.settings
        assert settings.entry_points == ["scripts/*.py", "tools/run_*.py"]
        assert settings.torch_version == (2, 9)
        assert settings.seed_functions["mylib.fix_seeds"] == ["torch", "numpy", "random"]
        project = linter.project
        assert project.is_entry_point(tree / "scripts" / "go.py")
        assert project.is_entry_point(tree / "train.py")  # a __main__ block
        assert not project.is_entry_point(tree / "pkg" / "model.py")
        # only pkg/model.py was given, yet a helper in another file is resolved from disk
        resolved = project.resolve_function("pkg.seeding.seed_all")
        assert resolved is not None and resolved[1].calls == ["torch.manual_seed"]
        assert "RPL002" not in linter.codes  # off by default, flake8 did not select it
    finally:
        os.chdir(cwd)
        Plugin._options = Plugin._settings = Plugin._linter = None


def test_a_bad_repro_lint_configuration_stops_flake8_with_a_message(tree: Path):
    (tree / "pyproject.toml").write_text("[tool.repro-lint]\nselects = ['RPL']\n", encoding="utf-8")
    proc = run_flake8(["train.py"], tree)
    assert proc.returncode != 0
    assert "unknown key 'selects'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_files_without_trigger_words_are_not_parsed_by_libcst(tree: Path, monkeypatch):
    """The prefilter decides before LibCST is asked to parse anything."""
    import libcst

    from repro_lint.config import Settings
    from repro_lint.context import ProjectContext
    from repro_lint.flake8 import _Flake8Linter

    parsed = []
    real = libcst.parse_module
    monkeypatch.setattr(libcst, "parse_module", lambda text, *a, **k: parsed.append(text) or real(text, *a, **k))
    settings = Settings(root=tree)
    linter = _Flake8Linter(settings, ProjectContext(settings), ["RPL001", "RPL201", "RPL205", "RPL501"], True)
    from repro_lint.flake8 import Plugin

    Plugin._linter = linter
    try:
        quiet = Plugin(None, "no_torch_at_all.py", ["print('hello')\n"])
        assert list(quiet.run()) == [] and parsed == []
        loud = Plugin(None, "x.py", ["from torch.backends import cudnn\n", "cudnn.benchmark = True\n"])
        assert [(r[0], r[1], r[2].split()[0]) for r in loud.run()] == [(2, 0, "RPL201")]
        assert len(parsed) == 1
    finally:
        Plugin._linter = None
