"""The release convention: a release is the git tag ``vX.Y.Z`` of the version in
``repro_lint/__init__.py`` (``pyproject.toml`` reads it), and everything that names a release
(the README's pre-commit ``rev`` and GitHub Action ref, the hooks file's example) names that tag.
The slow test installs the hooks with pre-commit from a clone tagged that way, as a user's
``.pre-commit-config.yaml`` (the README's) would."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, write
from repro_lint import __version__

README = (REPO / "README.md").read_text(encoding="utf-8")
TAG = f"v{__version__}"


def precommit_config() -> str:
    [block] = re.findall(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", README, re.DOTALL)
    return block


def test_the_version_is_a_release_version_read_by_the_package_metadata():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'path = "repro_lint/__init__.py"' in pyproject


def test_the_readme_and_the_hooks_file_name_the_current_release_tag():
    yaml = pytest.importorskip("yaml")
    [repo] = yaml.safe_load(precommit_config())["repos"]
    assert repo["rev"] == TAG
    hooks_file = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert re.findall(r"rev: (\S+)", hooks_file) == [TAG]
    refs = set(re.findall(r"repro-lint/repro-lint@(\S+?)['`\s]", README))
    assert refs == {TAG}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=str(cwd), check=True, capture_output=True, text=True).stdout.strip()


needs_git = pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="needs a git checkout")


@needs_git
def test_a_release_tag_on_this_commit_is_the_version_of_this_commit():
    tags = git(REPO, "tag", "--points-at", "HEAD").split()
    releases = [tag for tag in tags if re.fullmatch(r"v\d+\.\d+\.\d+", tag)]
    assert all(tag == TAG for tag in releases), f"tagged {releases}, but repro_lint/__init__.py says {__version__}"


@pytest.mark.slow
@needs_git
def test_pre_commit_installs_the_hooks_from_the_tag_the_readme_names(tmp_path: Path):
    pytest.importorskip("pre_commit", reason="pre-commit comes with the [test] extra")
    from test_precommit import clean_env

    # the repository as published: a clone of this commit, tagged as a release is
    clone = tmp_path / "repro-lint"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, capture_output=True, env=clean_env())
    subprocess.run(["git", "tag", TAG], cwd=str(clone), check=True, capture_output=True, env=clean_env())

    project = tmp_path / "project"
    config = precommit_config().replace("https://github.com/repro-lint/repro-lint", clone.as_uri())
    write(project, {".pre-commit-config.yaml": config, "train.py": "import torch\n\ntorch.backends.cudnn.benchmark = True\n"})
    for args in (["init", "-q", "."], ["add", "."]):
        subprocess.run(["git", *args], cwd=str(project), check=True, capture_output=True, env=clean_env())
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=str(project),
        env=clean_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home")),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "train.py:3:1: RPL201 " in proc.stdout
