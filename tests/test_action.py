"""The GitHub Action (action.yml): its steps' shell code, with the inputs substituted as the
Actions runner substitutes them, run with bash against a project. The install step is replaced
by a ``repro-lint`` that runs this checkout (installing the package is pip's business, and
tested by the packaging tests); everything else is the action's own code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

from conftest import REPO, write

yaml = pytest.importorskip("yaml", reason="PyYAML reads action.yml")
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash")

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
STEPS = {step.get("id") or step.get("name"): step for step in ACTION["runs"]["steps"]}
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

HAZARD = "import torch\n\ntorch.backends.cudnn.benchmark = True\n"
CLEAN = "import torch\n\ntorch.backends.cudnn.benchmark = False\n"


def inputs_with(**given: str) -> Dict[str, str]:
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    for name, value in given.items():
        name = name.replace("_", "-")
        assert name in values, f"action.yml has no input {name!r}"
        values[name] = value
    return values


def substitute(text: str, inputs: Dict[str, str], context: Dict[str, str]) -> str:
    """``${{ inputs.x }}``, ``${{ runner.temp }}``, ``${{ steps.s.outputs.o }}``, ...: the
    expressions the steps use, and nothing else (an unknown one fails the test)."""

    def value(match: "re.Match[str]") -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression[len("inputs."):]]
        assert expression in context, f"action.yml uses {expression!r}, unknown to this test"
        return context[expression]

    return EXPRESSION.sub(value, text)


class Runner:
    """Runs the action's shell steps in ``project`` as the Actions runner would."""

    def __init__(self, project: Path, temp: Path) -> None:
        self.project = project
        self.temp = temp
        self.outputs: Dict[str, Dict[str, str]] = {}
        # what the install step would leave: a repro-lint in a virtual environment
        executable = temp / "repro-lint-venv" / "bin" / "repro-lint"
        executable.parent.mkdir(parents=True)
        executable.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m repro_lint "$@"\n', encoding="utf-8")
        executable.chmod(0o755)

    def context(self) -> Dict[str, str]:
        found = {"runner.temp": str(self.temp), "github.action_path": str(REPO)}
        for step, outputs in self.outputs.items():
            for name, value in outputs.items():
                found[f"steps.{step}.outputs.{name}"] = value
        return found

    def step(self, step_id: str, inputs: Dict[str, str]) -> subprocess.CompletedProcess:
        step = STEPS[step_id]
        assert step["shell"] == "bash"
        condition = step.get("if")
        assert condition is None, f"{step_id} runs only when {condition}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "NO_COLOR", "FORCE_COLOR", "PYTHON", "VIRTUAL_ENV"))}
        env.update({name: substitute(str(value), inputs, self.context()) for name, value in step.get("env", {}).items()})
        output_file = self.temp / f"{step_id}.output"
        output_file.write_text("", encoding="utf-8")
        env["GITHUB_OUTPUT"] = str(output_file)
        cwd = self.project / substitute(step.get("working-directory", "."), inputs, self.context())
        script = self.temp / f"{step_id}.sh"
        script.write_text(substitute(step["run"], inputs, self.context()), encoding="utf-8")
        # how the runner runs a `shell: bash` step
        command = ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)]
        proc = subprocess.run(command, cwd=str(cwd), env=env, capture_output=True, text=True, timeout=600)
        lines = output_file.read_text(encoding="utf-8").splitlines()
        self.outputs[step_id] = dict(line.split("=", 1) for line in lines if "=" in line)
        return proc

    def run(self, **given: str) -> "Run":
        inputs = inputs_with(**given)
        lint = self.step("run", inputs)
        verdict = self.step("verdict", inputs)
        return Run(lint, verdict, self.outputs["run"].get("exit-code"))


class Run:
    def __init__(self, lint: subprocess.CompletedProcess, verdict: subprocess.CompletedProcess, exit_code: Optional[str]) -> None:
        self.lint, self.verdict, self.exit_code = lint, verdict, exit_code


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    project = tmp_path / "project"
    write(project, {"train.py": HAZARD, "src/clean.py": CLEAN, "pyproject.toml": "[tool.repro-lint]\n"})
    return Runner(project, tmp_path / "runner-temp")


def test_the_action_installs_this_repository_and_uploads_sarif_only_on_request():
    install = STEPS["install"]
    assert "${{ github.action_path }}" in install["env"].values()
    assert '-m pip install' in install["run"] and '"$ACTION_PATH"' in install["run"]
    assert install["env"]["VENV"] + "/bin/repro-lint" == STEPS["run"]["env"]["REPRO_LINT"]
    upload = STEPS["Upload SARIF to code scanning"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["if"] == "inputs.sarif == 'true'"
    assert upload["with"]["sarif_file"] == "${{ inputs.working-directory }}/${{ inputs.sarif-file }}"
    assert ACTION["outputs"]["exit-code"]["value"] == "${{ steps.run.outputs.exit-code }}"


def test_findings_become_annotations_and_fail_the_job(runner: Runner):
    done = runner.run()
    assert done.lint.returncode == 0, done.lint.stderr  # the run step reports; the verdict step fails
    assert "::warning file=train.py,line=3,col=1," in done.lint.stdout and "title=RPL201::" in done.lint.stdout
    assert done.exit_code == "1"
    assert done.verdict.returncode == 1
    assert not (runner.project / "repro-lint.sarif").exists()


def test_a_clean_project_passes(runner: Runner):
    done = runner.run(args="src/")
    assert done.exit_code == "0", done.lint.stdout + done.lint.stderr
    assert "::warning" not in done.lint.stdout
    assert done.verdict.returncode == 0


def test_args_reach_repro_lint_as_separate_arguments(runner: Runner):
    done = runner.run(args="train.py src/  --ignore RPL201")
    assert done.exit_code == "0", done.lint.stdout + done.lint.stderr
    assert "::warning" not in done.lint.stdout


def test_fail_on_findings_false_passes_with_findings_but_not_with_errors(runner: Runner):
    done = runner.run(fail_on_findings="false")
    assert done.exit_code == "1" and done.verdict.returncode == 0
    broken = runner.run(args="--select RPL999 .", fail_on_findings="false")
    assert broken.exit_code == "2" and broken.verdict.returncode == 2
    assert "RPL999" in broken.lint.stderr


def test_sarif_is_written_for_code_scanning_next_to_the_annotations(runner: Runner):
    done = runner.run(sarif="true")
    assert done.exit_code == "1"
    assert "title=RPL201::" in done.lint.stdout
    log = json.loads((runner.project / "repro-lint.sarif").read_text(encoding="utf-8"))
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["RPL201"]


def test_working_directory_and_sarif_file(runner: Runner):
    write(runner.project, {"sub/train.py": HAZARD})
    done = runner.run(working_directory="sub", sarif="true", sarif_file="out.sarif")
    assert done.exit_code == "1"
    assert "::warning file=train.py,line=3" in done.lint.stdout
    assert (runner.project / "sub" / "out.sarif").is_file()


@pytest.mark.slow
def test_the_install_step_installs_a_repro_lint_that_the_run_step_runs(tmp_path: Path):
    """The install step for real: a virtual environment, and pip installing this checkout."""
    project = tmp_path / "project"
    write(project, {"train.py": HAZARD})
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    runner = Runner.__new__(Runner)  # no stand-in repro-lint: the install step makes the real one
    runner.project, runner.temp, runner.outputs = project, temp, {}
    installed = runner.step("install", inputs_with())
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "repro-lint " in installed.stdout  # its --version
    done = runner.run()
    assert done.exit_code == "1", done.lint.stdout + done.lint.stderr
    assert "::warning file=train.py,line=3,col=1," in done.lint.stdout


def readme_workflows() -> list:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(# \.github/workflows/.*?)```", readme, re.DOTALL)
    assert blocks, "the README shows no workflow"
    return [yaml.safe_load(block) for block in blocks]


def test_the_readme_workflows_use_the_action_with_inputs_it_has():
    from repro_lint import __version__

    used = [step for workflow in readme_workflows() for job in workflow["jobs"].values() for step in job["steps"] if "repro-lint" in step.get("uses", "")]
    assert len(used) >= 2
    for step in used:
        assert step["uses"] == f"repro-lint/repro-lint@v{__version__}"
        assert set(step.get("with", {})) <= set(ACTION["inputs"])
        for name, value in step.get("with", {}).items():
            inputs_with(**{name.replace("-", "_"): str(value)})


def test_the_readme_table_of_inputs_is_action_yml():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### GitHub Actions", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| ([a-z-]+) \| `?([^`|]*)`? \| .* \|$", section, re.MULTILINE)
    assert {name: default for name, default in rows if name != "input"} == {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
