"""The command-line contract, through the real command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_cli, run_python, write

HAZARD = "import torch\ntorch.backends.cudnn.benchmark = True\n"
CLEAN = "import torch\ntorch.backends.cudnn.benchmark = False\n"


def test_findings_exit_1_with_sorted_relative_lines(tmp_path: Path):
    write(tmp_path, {"b.py": HAZARD, "a/z.py": HAZARD + "torch.backends.cudnn.enable = True\n"})
    proc = run_cli(["."], tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == [
        "a/z.py:2:1: RPL201 " + lines[0].split(" RPL201 ", 1)[1],
        "a/z.py:3:1: RPL205 " + lines[1].split(" RPL205 ", 1)[1],
        "b.py:2:1: RPL201 " + lines[2].split(" RPL201 ", 1)[1],
    ]
    assert lines[3] == "Found 3 errors."


def test_clean_file_exits_0(tmp_path: Path):
    write(tmp_path, {"clean.py": CLEAN})
    proc = run_cli(["clean.py"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "All checks passed!"


def test_usage_errors_exit_2(tmp_path: Path):
    proc = run_cli(["--no-such-flag"], tmp_path)
    assert proc.returncode == 2 and "unrecognized arguments" in proc.stderr
    proc = run_cli(["missing_dir"], tmp_path)
    assert proc.returncode == 2 and "missing_dir: no such file or directory" in proc.stderr
    proc = run_cli([".", "--select", "RPL9"], tmp_path)
    assert proc.returncode == 2 and "RPL9" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_exit_zero_quiet_and_statistics(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD, "b.py": HAZARD})
    proc = run_cli([".", "--exit-zero"], tmp_path)
    assert proc.returncode == 0 and "Found 2 errors." in proc.stdout
    proc = run_cli([".", "--quiet"], tmp_path)
    assert proc.returncode == 1 and len(proc.stdout.splitlines()) == 2
    proc = run_cli([".", "--statistics"], tmp_path)
    assert proc.returncode == 1 and proc.stdout.split() == ["2", "RPL201", "[*]", "cudnn-benchmark-enabled"]


def test_json_has_ruffs_shape(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    proc = run_cli([".", "--output-format", "json"], tmp_path)
    assert proc.returncode == 1
    (item,) = json.loads(proc.stdout)
    assert set(item) == {"cell", "code", "end_location", "filename", "fix", "location", "message", "noqa_row", "url"}
    assert item["code"] == "RPL201"
    assert item["location"] == {"row": 2, "column": 1}
    assert item["end_location"] == {"row": 2, "column": 31}
    assert item["filename"] == str((tmp_path / "a.py").resolve())
    assert item["noqa_row"] == 2 and item["url"].endswith("RPL201.md")
    assert item["fix"]["applicability"] == "safe"
    assert item["fix"]["edits"] == [{"content": "False", "location": {"row": 2, "column": 34}, "end_location": {"row": 2, "column": 38}}]
    proc = run_cli([".", "--output-format", "json", "--select", "RPL5"], tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout) == []


def test_json_fix_edits_each_change_the_text(tmp_path: Path):
    """A setup-block fix lists only edits that change something: none inserts nothing at a
    point (the block's unused import places are not printed), and the edits still make the
    text ``--fix`` writes."""
    script = (
        '"""Train."""\nimport os\nimport sys\n\nimport numpy as np\nimport torch\n\n\n'
        "def main():\n    torch.backends.cudnn.benchmark = False\n    x = torch.randn(3, device='cuda')\n"
        "    print(np.random.rand(), x)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    write(tmp_path, {"train.py": script})
    proc = run_cli(["train.py", "--output-format", "json", "--select", "RPL101,RPL202"], tmp_path)
    items = json.loads(proc.stdout)
    assert {item["code"] for item in items} == {"RPL101", "RPL202"}, proc.stdout
    for item in items:
        edits = item["fix"]["edits"]
        assert edits and all(e["content"] or e["location"] != e["end_location"] for e in edits), edits
    run_cli(["train.py", "--fix", "--select", "RPL101,RPL202"], tmp_path)
    (item,) = [i for i in items if i["code"] == "RPL101"]
    lines = script.splitlines(keepends=True)
    for edit in sorted(item["fix"]["edits"], key=lambda e: (e["location"]["row"], e["location"]["column"]), reverse=True):
        (row, col), (end_row, end_col) = (edit["location"]["row"], edit["location"]["column"]), (edit["end_location"]["row"], edit["end_location"]["column"])
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        text = "".join(lines)
        text = text[: offsets[row - 1] + col - 1] + edit["content"] + text[offsets[end_row - 1] + end_col - 1 :]
        lines = text.splitlines(keepends=True)
    assert "".join(lines) == (tmp_path / "train.py").read_text()


@pytest.mark.parametrize(
    "args,expected",
    [
        (["--select", "RPL205"], ["RPL205"]),
        (["--ignore", "RPL201"], ["RPL205"]),
        (["--select", "RPL2", "--ignore", "RPL205"], ["RPL201"]),
        (["--ignore", "RPL2", "--extend-select", "RPL201"], ["RPL201"]),
        (["--select", "ALL", "--ignore", "RPL001,RPL205"], ["RPL201"]),
    ],
)
def test_selection(tmp_path: Path, args, expected):
    write(tmp_path, {"a.py": HAZARD + "torch.backends.cudnn.enable = True\n"})
    proc = run_cli([".", "--quiet", *args], tmp_path)
    assert [line.split()[1] for line in proc.stdout.splitlines()] == expected


def test_pyproject_configuration_is_found_upward(tmp_path: Path):
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "x"\n\n[tool.repro-lint]\nignore = ["RPL201"]\nextend-exclude = ["vendored/"]\n',
            "src/pkg/a.py": HAZARD + "torch.backends.cudnn.enable = True\n",
            "src/vendored/b.py": HAZARD,
        },
    )
    proc = run_cli([".", "--quiet"], tmp_path / "src")
    assert proc.returncode == 1
    assert [line.split()[1] for line in proc.stdout.splitlines()] == ["RPL205"]


@pytest.mark.parametrize(
    "config,words",
    [
        ("[tool.repro-lint]\nselectt = ['RPL201']\n", ["unknown key 'selectt'", "pyproject.toml"]),
        ("[tool.repro-lint]\nselect = 'RPL201'\n", ["'select' must be a list", "pyproject.toml"]),
        ("[tool.repro-lint]\ntorch-version = 2.13\n", ["'torch-version' must be", "pyproject.toml"]),
        ("[tool.repro-lint]\nline-length = '88'\n", ["'line-length' must be", "pyproject.toml"]),
        ("[tool.repro-lint]\nignore = ['XYZ1']\n", ["unknown rule code or prefix 'XYZ1'"]),
        ("[tool.repro-lint\n", ["invalid TOML"]),
    ],
)
def test_bad_configuration_exits_2_naming_key_and_file(tmp_path: Path, config, words):
    write(tmp_path, {"pyproject.toml": config, "a.py": CLEAN})
    proc = run_cli(["."], tmp_path)
    assert proc.returncode == 2
    for word in words:
        assert word in proc.stderr
    assert "Traceback" not in proc.stderr


def test_explicit_config_file(tmp_path: Path):
    write(tmp_path, {"custom.toml": "select = ['RPL205']\n", "a.py": HAZARD})
    assert run_cli(["a.py", "--config", "custom.toml"], tmp_path).returncode == 0
    proc = run_cli(["a.py", "--config", "nope.toml"], tmp_path)
    assert proc.returncode == 2 and "nope.toml" in proc.stderr


def test_discovery_skips_environments_and_gitignored_files_but_not_explicit_files(tmp_path: Path):
    write(
        tmp_path,
        {
            ".gitignore": "generated/\nscratch_*.py\n",
            "train.py": HAZARD,
            "generated/out.py": HAZARD,
            "scratch_1.py": HAZARD,
            ".venv/lib/x.py": HAZARD,
            "myenv/pyvenv.cfg": "home = /usr\n",
            "myenv/lib/y.py": HAZARD,
            "build/z.py": HAZARD,
            "node_modules/w.py": HAZARD,
            "notes.txt": HAZARD,
        },
    )
    (tmp_path / ".git").mkdir()
    proc = run_cli([".", "--quiet"], tmp_path)
    assert [line.split(":")[0] for line in proc.stdout.splitlines()] == ["train.py"]
    proc = run_cli(["scratch_1.py", "--quiet"], tmp_path)
    assert proc.returncode == 1 and proc.stdout.startswith("scratch_1.py:2:1: RPL201")


def test_rule_and_rules_subcommands(tmp_path: Path):
    proc = run_cli(["rule", "RPL201"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("# RPL201: cudnn-benchmark-enabled")
    proc = run_cli(["rule", "rpl999"], tmp_path)
    assert proc.returncode == 2 and "unknown rule" in proc.stderr
    proc = run_cli(["rules"], tmp_path)
    assert proc.returncode == 0
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert rows[0] == ["code", "name", "default", "fix"]
    assert ["RPL201", "cudnn-benchmark-enabled", "on", "safe"] in rows


def test_version(tmp_path: Path):
    from repro_lint import __version__

    proc = run_cli(["--version"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"repro-lint {__version__}"


def test_importing_the_cli_imports_neither_torch_nor_numpy():
    code = "import sys, repro_lint.cli, repro_lint.engine; print('torch' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=str(REPO), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_parallel_run_gives_the_same_findings_as_a_single_process(tmp_path: Path):
    files = {f"m{i}.py": (HAZARD if i % 3 == 0 else CLEAN) for i in range(30)}
    files["broken.py"] = "def f(:\n"
    write(tmp_path, files)
    one = run_cli([".", "--jobs", "1"], tmp_path)
    two = run_cli([".", "--jobs", "2"], tmp_path)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and one.stdout.count("RPL201") == 10 and "RPL001" in one.stdout


def test_add_noqa_and_fix_are_exclusive(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    proc = run_cli([".", "--add-noqa", "--fix"], tmp_path)
    assert proc.returncode == 2 and "cannot be combined" in proc.stderr
    assert (tmp_path / "a.py").read_text() == HAZARD


# -- details shared with ruff ------------------------------------------------------------------


def test_rule_accepts_a_rules_name(tmp_path: Path):
    by_name = run_cli(["rule", "cudnn-benchmark-enabled"], tmp_path)
    by_code = run_cli(["rule", "RPL201"], tmp_path)
    assert by_name.returncode == 0 and by_name.stdout == by_code.stdout and "RPL201" in by_name.stdout
    proc = run_cli(["rule", "no-such-rule"], tmp_path)
    assert proc.returncode == 2 and "unknown rule 'no-such-rule'" in proc.stderr


def test_exclude_and_extend_exclude_on_the_command_line(tmp_path: Path):
    write(tmp_path, {"gen/a.py": HAZARD, "old/b.py": HAZARD, "c.py": HAZARD, "pyproject.toml": "[tool.repro-lint]\nexclude = ['old']\n"})

    def linted(*args: str) -> list:
        proc = run_cli([".", "--no-cache", *args], tmp_path)
        return sorted({line.split(":")[0] for line in proc.stdout.splitlines() if " RPL" in line})

    assert linted() == ["c.py", "gen/a.py"]
    assert linted("--extend-exclude", "gen") == ["c.py"]
    assert linted("--exclude", "gen,c.py") == ["old/b.py"]  # replaces the configured exclude
    assert linted("--exclude", "gen", "--exclude", "old") == ["c.py"]  # given twice: both count


def test_output_file_holds_the_report_and_stdout_stays_empty(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    proc = run_cli(["a.py", "--no-cache", "--output-format", "json", "--output-file", "out/report.json"], tmp_path)
    assert proc.returncode == 2 and "cannot write out/report.json" in proc.stderr  # no such folder
    proc = run_cli(["a.py", "--no-cache", "--output-format", "json", "-o", "report.json"], tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert [d["code"] for d in json.loads((tmp_path / "report.json").read_text())] == ["RPL201"]


def test_show_fixes_lists_the_fixes_applied(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD, "b.py": HAZARD + "torch.backends.cudnn.enable = True\n", "c.py": CLEAN})
    proc = run_cli([".", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "Fixed 3 errors:",
        "- a.py:",
        "    1 × RPL201 (cudnn-benchmark-enabled)",
        "- b.py:",
        "    1 × RPL201 (cudnn-benchmark-enabled)",
        "    1 × RPL205 (unknown-backend-flag)",
    ]
    write(tmp_path, {"a.py": HAZARD})
    plain = run_cli(["a.py", "--no-cache", "--fix"], tmp_path)
    assert plain.stdout.splitlines() == ["Fixed 1 error."]


@pytest.mark.parametrize("files, target", [({}, "."), ({"README.md": "# notes\n", "data/x.csv": "1,2\n"}, "."), ({"docs/a.txt": "x"}, "docs")])
def test_no_python_files_is_a_warning_not_all_checks_passed(tmp_path: Path, files, target):
    write(tmp_path, files)
    proc = run_cli([target, "--no-cache"], tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == "" and f"warning: No Python files found under {target}" in proc.stderr
    proc = run_cli([target, "--no-cache", "--output-format", "json"], tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout) == []


def test_config_file_with_a_tool_table_is_read_as_a_pyproject(tmp_path: Path):
    write(tmp_path, {"other.toml": "[project]\nname = 'x'\n\n[tool.repro-lint]\nselect = ['RPL205']\n", "a.py": HAZARD})
    proc = run_cli(["a.py", "--no-cache", "--config", "other.toml"], tmp_path)
    assert proc.returncode == 0 and "unknown key" not in proc.stderr, proc.stderr
    write(tmp_path, {"other.toml": "[tool.black]\nline-length = 100\n"})
    proc = run_cli(["a.py", "--no-cache", "--config", "other.toml"], tmp_path)
    assert proc.returncode == 2 and "no [tool.repro-lint] table" in proc.stderr


def test_the_installed_torch_version_is_the_one_package_metadata_gives(tmp_path: Path, monkeypatch):
    """The default target torch version is read from the ``torch-<version>.dist-info``
    folder's name, the first on ``sys.path`` as ``importlib.metadata`` finds it; without
    one, ``importlib.metadata`` answers."""
    import importlib.metadata

    from repro_lint.config import installed_torch_version, parse_version

    try:
        expected = parse_version(importlib.metadata.version("torch"))
    except importlib.metadata.PackageNotFoundError:
        expected = None
    assert installed_torch_version() == expected
    first, second = tmp_path / "a", tmp_path / "b"
    (first / "torch-2.7.1.dist-info").mkdir(parents=True)
    (second / "torch-2.3.0+cpu.dist-info").mkdir(parents=True)
    (second / "torch_npu-2.3.0.dist-info").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
    assert installed_torch_version() == (2, 7)
    monkeypatch.setattr(sys, "path", [str(second)])
    assert installed_torch_version() == (2, 3)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing")])
    assert installed_torch_version() is None


def test_the_cache_key_reads_libcsts_version_without_importlib_metadata():
    """The results cache's key names LibCST's version, read from its ``dist-info`` folder's name
    as torch's is: importing ``importlib.metadata`` for it cost a warm run about 20 ms."""
    import importlib.metadata

    from repro_lint.config import installed_version

    assert installed_version("libcst") == importlib.metadata.version("libcst")
    code = (
        "import sys\n"
        "from repro_lint.cache import run_key\n"
        "run_key('settings', ['RPL101'])\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    proc = run_python(code, REPO)
    assert proc.stdout.split() == ["False"], proc.stdout + proc.stderr


def test_a_missing_path_is_reported_before_the_rules_are_loaded(tmp_path: Path):
    """A mistyped path is an error at once: LibCST and the rules are not imported for it."""

    code = (
        "import sys\n"
        "from repro_lint.cli import run_check\n"
        "rc = run_check(['no_such.py', '--no-cache'])\n"
        "print(rc, 'libcst' in sys.modules)\n"
    )
    proc = run_python(code, tmp_path)
    assert proc.stdout.split() == ["2", "False"], proc.stderr
    assert "no_such.py: no such file or directory" in proc.stderr


def test_extension_only_include_patterns_match_as_the_gitignore_style_match_does():
    """``*.py``-like include patterns are matched by the name's ending, the answer the
    gitignore-style match gives for every such name; other patterns go to that match."""
    from repro_lint.discovery import _suffixes, pattern_spec

    names = ["a.py", ".py", "a.pyc", "a.py.bak", "A.PY", "x.ipynb", "x.ipynb~", "py", "a.tar.gz", "b.gz", "a b.py", "é.py"]
    for patterns in (["*.py", "*.ipynb"], ["*.py"], ["*.tar.gz"], ["*.p-y_1"]):
        suffixes = _suffixes(patterns)
        assert suffixes is not None
        spec = pattern_spec(patterns, "include")
        for name in names + ["z" + suffix for suffix in suffixes]:
            assert name.endswith(suffixes) == spec.match_file(name), (patterns, name)
    for patterns in ([], ["train_*.py"], ["*.py", "scripts/*.py"], ["!*.py"], ["*.[pP]y"], ["*"], ["**/*.py"], ["*.py?"]):
        assert _suffixes(patterns) is None, patterns


def test_a_tree_without_gitignore_or_excludes_never_imports_pathspec(tmp_path: Path):
    write(tmp_path, {"train.py": HAZARD, "pkg/model.py": CLEAN, "notes.txt": HAZARD})
    (tmp_path / ".git").mkdir()
    code = "import sys; from repro_lint.cli import main; status = main(sys.argv[1:]); print(status, 'pathspec' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code, ".", "--no-cache", "--quiet"], cwd=str(tmp_path), capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300)
    assert out.stdout.splitlines()[-1] == "1 False", out.stdout + out.stderr
    assert [line.split(":")[0] for line in out.stdout.splitlines()[:-1]] == ["train.py"]


_GC_PROBE = """\
import atexit, gc, sys
before = gc.get_threshold()
atexit.register(lambda: print(gc.isenabled(), before[0], gc.get_threshold()[0], file=sys.stderr))
sys.argv = ["repro-lint", ".", "--no-cache", "--jobs", "1", "--quiet"]
from repro_lint import cli
{call}
"""


@pytest.mark.parametrize("call, raised", [("cli.entry()", True), ("sys.exit(cli.main(sys.argv[1:]))", False)])
def test_the_command_line_collects_young_objects_less_often_and_a_library_call_does_not(tmp_path: Path, call: str, raised: bool):
    """The console script's process is a batch and tunes the cyclic collector for it (it stays
    on); ``main()`` called by another program (a test, a tool embedding it) leaves its
    process's settings alone."""
    from repro_lint._gc import BATCH_THRESHOLDS

    write(tmp_path, {"train.py": HAZARD})
    proc = run_python(_GC_PROBE.format(call=call), tmp_path)
    assert proc.returncode == 1 and "RPL201" in proc.stdout, proc.stderr
    enabled, before, after = proc.stderr.split()
    assert enabled == "True" and int(before) < BATCH_THRESHOLDS[0]
    assert int(after) == (BATCH_THRESHOLDS[0] if raised else int(before))
