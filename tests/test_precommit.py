"""The hooks in .pre-commit-hooks.yaml, run by the real ``pre-commit try-repo`` of this
checkout in a temporary git repository. pre-commit builds its own virtualenv for the hook and
installs this package into it, afresh for every ``try-repo`` call (uncommitted changes are
included), which costs several seconds each: the tests are marked ``slow``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, write

pytest.importorskip("pre_commit", reason="pre-commit comes with the [test] extra")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
    pytest.mark.skipif(not (REPO / ".git").exists(), reason="needs a git checkout of repro-lint"),
]

HAZARD = "import torch\n\ntorch.backends.cudnn.benchmark = True\n"
CLEAN = "import torch\n\ntorch.backends.cudnn.benchmark = False\n"
NOTEBOOK = (
    '{"cells": [{"cell_type": "code", "execution_count": null, "id": "a", "metadata": {}, "outputs": [],'
    ' "source": ["import torch\\n", "torch.backends.cudnn.benchmark = True\\n"]}],'
    ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n'
)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=str(cwd), check=True, capture_output=True, env=clean_env())


def clean_env(**extra: str) -> dict:
    # a test run from inside a git hook must not point pre-commit or git at another repository
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "FORCE_COLOR"))}
    env.update({"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})
    env.update(extra)
    return env


@pytest.fixture(scope="module")  # keeps pre-commit's own files out of the user's ~/.cache
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "train.py": HAZARD,
            "clean.py": CLEAN,
            "README.md": "# demo\n",
            # a seeding helper in a module that pre-commit does not pass
            "pkg/__init__.py": "",
            "pkg/seeding.py": "import torch\n\ndef seed_all(s):\n    torch.manual_seed(s)\n",
            "uses_helper.py": "from pkg.seeding import seed_all\n\nif __name__ == '__main__':\n    seed_all(0)\n",
            "explore.ipynb": NOTEBOOK,
        },
    )
    git(tmp_path, "init", "-q", ".")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "init")
    return tmp_path


def try_repo(project: Path, home: Path, hook: str, *files: str) -> subprocess.CompletedProcess:
    args = ["--files", *files] if files else ["--all-files"]
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook, "--color", "never", *args],
        cwd=str(project),
        env=clean_env(PRE_COMMIT_HOME=str(home)),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hook_fails_on_a_hazard_and_passes_on_clean_files(project: Path, pre_commit_home: Path):
    failed = try_repo(project, pre_commit_home, "repro-lint", "train.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "repro-lint" in failed.stdout and "Failed" in failed.stdout
    assert "train.py:3:1: RPL201 " in failed.stdout

    passed = try_repo(project, pre_commit_home, "repro-lint", "clean.py", "uses_helper.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
    assert "RPL" not in passed.stdout  # train.py was not passed, so it was not linted


def test_hook_checks_notebooks(project: Path, pre_commit_home: Path):
    failed = try_repo(project, pre_commit_home, "repro-lint", "explore.ipynb")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "explore.ipynb:cell 1:2:1: RPL201 " in failed.stdout


def test_no_python_files_means_the_hook_is_skipped_not_run_on_the_tree(project: Path, pre_commit_home: Path):
    proc = try_repo(project, pre_commit_home, "repro-lint", "README.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(no files to check)Skipped" in proc.stdout
    assert "RPL201" not in proc.stdout  # repro-lint was not run on '.', which holds train.py


def fix_is_supported() -> bool:
    proc = subprocess.run([sys.executable, "-m", "repro_lint", "--help"], capture_output=True, text=True, cwd=str(REPO))
    return "--fix" in proc.stdout


def test_fix_hook_rewrites_the_file_and_fails_so_the_change_is_reviewed(project: Path, pre_commit_home: Path):
    if not fix_is_supported():
        pytest.skip("this version of repro-lint has no --fix option yet")
    proc = try_repo(project, pre_commit_home, "repro-lint-fix", "train.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # pre-commit fails when a hook changes files
    assert (project / "train.py").read_text(encoding="utf-8") == CLEAN
    again = try_repo(project, pre_commit_home, "repro-lint-fix", "train.py")
    assert again.returncode == 0, again.stdout + again.stderr
