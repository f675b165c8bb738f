"""``repro-lint - --stdin-filename PATH``: stdin linted as the file PATH would be, fixed to stdout."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, write

TRAIN = """\
import torch
from torch.utils.data import DataLoader

torch.backends.cudnn.benchmark = True
model = torch.nn.Linear(2, 2)
loader = DataLoader(range(8), shuffle=True, num_workers=2)
for x in loader:
    model(x).sum().backward()
"""


def test_stdin_gives_the_same_findings_as_the_file(tmp_path: Path):
    write(tmp_path, {"train.py": TRAIN})
    from_file = run_cli(["train.py", "--no-cache"], tmp_path)
    from_stdin = run_cli(["-", "--stdin-filename", "train.py"], tmp_path, stdin=TRAIN)
    assert from_file.returncode == from_stdin.returncode == 1
    assert from_stdin.stdout == from_file.stdout and from_file.stdout.count(" RPL") >= 3


def test_stdin_file_need_not_exist_and_its_configuration_applies(tmp_path: Path):
    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\nper-file-ignores = {'scripts/*' = ['RPL201']}\n",
        "scripts/.keep": "",
    })
    proc = run_cli(["-", "--stdin-filename", "scripts/new.py", "--select", "RPL201,RPL301"], tmp_path, stdin=TRAIN)
    assert proc.returncode == 1
    assert [line.split(" ")[1] for line in proc.stdout.splitlines() if line.startswith("scripts/new.py:")] == ["RPL301"]
    proc = run_cli(["-", "--stdin-filename", "other.py", "--select", "RPL201"], tmp_path, stdin=TRAIN)
    assert proc.stdout.startswith("other.py:4:1: RPL201 ")


def test_fix_writes_the_fixed_source_to_stdout_and_findings_to_stderr(tmp_path: Path):
    proc = run_cli(["-", "--stdin-filename", "train.py", "--fix", "--select", "RPL201,RPL302"], tmp_path, stdin=TRAIN)
    assert proc.returncode == 0, proc.stderr
    assert "torch.backends.cudnn.benchmark = False" in proc.stdout and "generator=make_generator(" in proc.stdout
    compile(proc.stdout, "train.py", "exec")
    assert "Fixed 2 errors." in proc.stderr
    assert not (tmp_path / "train.py").exists()
    clean = "import torch\ntorch.backends.cudnn.benchmark = False\n"
    proc = run_cli(["-", "--stdin-filename", "train.py", "--fix"], tmp_path, stdin=clean)
    assert proc.returncode == 0 and proc.stdout == clean  # nothing to fix: the input as it came
    remaining = run_cli(["-", "--stdin-filename", "train.py", "--fix", "--select", "RPL205"], tmp_path, stdin=TRAIN + "torch.backends.cudnn.enable = True\n")
    assert remaining.returncode == 1 and remaining.stdout.endswith("torch.backends.cudnn.enable = True\n")
    assert "RPL205" in remaining.stderr  # an unsafe fix without --unsafe-fixes: still reported


def test_diff_from_stdin(tmp_path: Path):
    proc = run_cli(["-", "--stdin-filename", "train.py", "--diff", "--select", "RPL201"], tmp_path, stdin=TRAIN)
    assert proc.returncode == 1
    assert "-torch.backends.cudnn.benchmark = True\n+torch.backends.cudnn.benchmark = False\n" in proc.stdout


def test_a_notebook_on_stdin(tmp_path: Path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [],
                     "source": ["import torch\n", "torch.backends.cudnn.benchmark = True"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    raw = json.dumps(nb, indent=1) + "\n"
    proc = run_cli(["-", "--stdin-filename", "explore.ipynb", "--select", "RPL201"], tmp_path, stdin=raw)
    assert proc.stdout.startswith("explore.ipynb:cell 1:2:1: RPL201 ")
    fixed = run_cli(["-", "--stdin-filename", "explore.ipynb", "--select", "RPL201", "--fix"], tmp_path, stdin=raw)
    assert json.loads(fixed.stdout)["cells"][0]["source"][1] == "torch.backends.cudnn.benchmark = False"
    bad = run_cli(["-", "--stdin-filename", "explore.ipynb"], tmp_path, stdin="{not json")
    assert bad.returncode == 1 and "RPL001 not a valid Jupyter notebook" in bad.stdout


def test_stdin_usage_errors(tmp_path: Path):
    write(tmp_path, {"a.py": "x = 1\n"})
    assert run_cli(["-", "a.py"], tmp_path, stdin="").returncode == 2
    proc = run_cli(["a.py", "--stdin-filename", "b.py"], tmp_path)
    assert proc.returncode == 2 and "needs '-'" in proc.stderr
    proc = run_cli(["-"], tmp_path, stdin="import torch\ntorch.backends.cudnn.benchmark = True\n")
    assert proc.returncode == 1 and proc.stdout.startswith("-:2:1: RPL201")


def test_stdin_report_to_an_output_file(tmp_path: Path):
    proc = run_cli(["-", "--stdin-filename", "train.py", "--select", "RPL201", "-o", "report.txt"], tmp_path, stdin=TRAIN)
    assert proc.returncode == 1 and proc.stdout == ""
    assert (tmp_path / "report.txt").read_text().startswith("train.py:4:1: RPL201 ")
