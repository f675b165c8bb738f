"""The results cache never changes what is found: the same findings as a ``--jobs 1
--no-cache`` run, cold or warm, in parallel or not, also after a helper file changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import libcst as cst
import pytest

from conftest import REPO, run_cli, run_python, write
from repro_lint import run as engine_run
from repro_lint.cache import CACHE_DIR, ResultsCache
from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter, lint_files
from repro_lint.rules.base import RULES, Rule

TREE = {
    "train.py": """\
        import torch
        import torch.nn.functional as F
        from torch.backends import cudnn
        import helpers

        cudnn.benchmark = True
        cudnn.deterministc = True


        class Net(torch.nn.Module):
            def forward(self, x):
                return F.dropout(x, 0.5)


        if __name__ == "__main__":
            helpers.set_seed(0)
        """,
    "helpers.py": """\
        import torch


        def set_seed(seed):
            torch.manual_seed(seed)
        """,
    "clean.py": "x = 1\n",
    "broken.py": "def f(:\n",
}


def _findings(results) -> List[Tuple]:
    return sorted((d.path, d.start, d.code, d.message) for r in results for d in r.diagnostics)


def _run(settings: Settings, files: List[Path], jobs: int = 1, cached: bool = True) -> List[Tuple]:
    """The findings of one run over ``files`` (a project context of its own; with the results
    cache or not), which reports no internal error."""
    linter = Linter(settings, ProjectContext(settings, files))
    cache = ResultsCache.open(settings, linter.codes) if cached else None
    results = lint_files(linter, files, jobs=jobs, cache=cache)
    assert not [e for r in results for e in r.errors]
    return _findings(results)


@pytest.fixture
def seeding_helper_rule():
    """A rule that asks the project context about another file (as the seeding rules do):
    it reports calls to project functions that seed torch."""

    class CallsSeedingHelper(Rule):
        code = "RPL998"
        name = "calls-seeding-helper"
        message = "{name}() seeds torch"
        triggers = ("set_seed",)

        def visit_Call(self, node: cst.Call) -> None:
            qualified = self.qualify(node.func)
            found = self.file.project.resolve_function(qualified) if qualified else None
            if found and "torch.manual_seed" in found[1].calls:
                self.report(node, name=qualified)

    yield CallsSeedingHelper.code
    RULES.pop(CallsSeedingHelper.code)


def test_cold_warm_parallel_and_serial_runs_agree_also_after_a_helper_changes(
    tmp_path: Path, seeding_helper_rule: str, monkeypatch
):
    write(tmp_path, TREE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)  # use the pool even for this small tree
    monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)  # and the survey of the project in workers
    settings = Settings(root=tmp_path, extend_select=[seeding_helper_rule])
    files = sorted(tmp_path.glob("*.py"))

    def run(jobs: int, cached: bool):
        return _run(settings, files, jobs, cached)

    reference = run(1, cached=False)
    assert {code for *_, code, _ in reference} == {"RPL001", "RPL201", "RPL205", "RPL501", seeding_helper_rule}
    assert run(2, cached=True) == reference  # cold: fills the cache
    assert (tmp_path / CACHE_DIR / ".gitignore").read_text().splitlines()[-1] == "*"

    def no_linting(*args, **kwargs):
        raise AssertionError("a warm run on an unchanged tree must not lint any file")

    with monkeypatch.context() as patch:
        patch.setattr(engine_run, "_lint_file", no_linting)
        assert run(1, cached=True) == reference  # warm: only reads and hashes
        assert run(2, cached=True) == reference

    # the helper no longer seeds: train.py is unchanged, but its findings depended on helpers.py
    (tmp_path / "helpers.py").write_text("def set_seed(seed):\n    pass\n", encoding="utf-8")
    changed = run(1, cached=False)
    assert seeding_helper_rule not in {code for *_, code, _ in changed}
    assert run(2, cached=True) == changed
    assert run(2, cached=True) == changed
    # and a helper that disappears is a change too
    (tmp_path / "helpers.py").unlink()
    files.remove(tmp_path / "helpers.py")
    assert run(2, cached=True) == run(1, cached=False)


def test_a_module_that_appears_later_is_a_change_for_the_files_that_imported_it(
    tmp_path: Path, seeding_helper_rule: str, monkeypatch
):
    """A warm entry depends on where each imported module resolves, found or not: a module
    missing at the cold run (``seeding``), or that resolves elsewhere later (a package
    ``helpers/`` in a root searched first), re-lints the file that imports it."""
    write(tmp_path, {"train.py": "import seeding\nimport helpers\n\nseeding.set_seed(0)\nhelpers.set_seed(0)\n"})
    monkeypatch.chdir(tmp_path)
    settings = Settings(root=tmp_path, select=[seeding_helper_rule])

    def run(cached: bool):
        return _run(settings, sorted(tmp_path.rglob("*.py")), cached=cached)

    assert run(cached=True) == [] == run(cached=False)
    seeding = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
    (tmp_path / "seeding.py").write_text(seeding, encoding="utf-8")
    found = run(cached=False)
    assert [(start[0], code) for _, start, code, _ in found] == [(4, seeding_helper_rule)]
    assert run(cached=True) == found
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "__init__.py").write_text(seeding, encoding="utf-8")
    both = run(cached=False)
    assert [start[0] for _, start, _, _ in both] == [4, 5]
    assert run(cached=True) == both
    [stored] = (tmp_path / CACHE_DIR).glob("results-*.json")
    deps = [dep for dep, _ in json.loads(stored.read_text(encoding="utf-8"))["deps"]]
    assert {"module:seeding", "module:helpers", "module:torch"} <= set(deps)  # one key per module
    assert str(tmp_path / "torch.py") not in deps  # not a path per candidate


def test_a_module_that_appears_beside_a_script_in_a_package_is_a_change_for_it(tmp_path: Path, monkeypatch):
    """A flat import resolved beside the importing file (no root has the module) depends on
    that file: a warm run sees it appear, change and go."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/train.py": "import torch\nfrom dev import setup\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    setup()\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    settings = Settings(root=tmp_path, select=["RPL202"])

    def run(cached: bool):
        return [code for _, _, code, _ in _run(settings, sorted(tmp_path.rglob("*.py")), cached=cached)]

    assert run(cached=True) == [] == run(cached=False)
    dev = tmp_path / "pkg" / "sub" / "dev.py"
    dev.write_text("import torch\n\n\ndef setup():\n    torch.cuda.set_device(0)\n", encoding="utf-8")
    assert run(cached=True) == ["RPL202"] == run(cached=False)
    dev.write_text("def setup():\n    pass\n", encoding="utf-8")
    assert run(cached=True) == [] == run(cached=False)


def _tree(tmp_path: Path, monkeypatch):
    """:data:`TREE` in ``tmp_path``, the working folder: its settings, files and linter."""
    write(tmp_path, TREE)
    monkeypatch.chdir(tmp_path)
    settings = Settings(root=tmp_path)
    files = sorted(tmp_path.glob("*.py"))
    return settings, files, Linter(settings, ProjectContext(settings, files))


def _cached_run(settings: Settings, files: List[Path], linter: Linter):
    return lint_files(linter, files, jobs=1, cache=ResultsCache.open(settings, linter.codes))


def test_a_changed_file_is_linted_again_and_the_cache_is_really_read(tmp_path: Path, monkeypatch):
    settings, files, linter = _tree(tmp_path, monkeypatch)
    _cached_run(settings, files, linter)
    # doctor one cached message: a warm run shows it, which proves the answer came from the cache
    cache_file = next((tmp_path / CACHE_DIR).glob("results-*.json"))
    data = json.loads(cache_file.read_text())
    data["files"]["train.py"]["r"][0]["message"] = "from the cache"
    cache_file.write_text(json.dumps(data))
    results = _cached_run(settings, files, linter)
    assert "from the cache" in [d.message for r in results for d in r.diagnostics]
    # once train.py changes, it is linted afresh
    (tmp_path / "train.py").write_text((tmp_path / "train.py").read_text() + "\n# edited\n")
    results = _cached_run(settings, files, linter)
    assert "from the cache" not in [d.message for r in results for d in r.diagnostics]


def _check(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli(["check", ".", "--output-format", "json", *args], cwd=tmp_path)


def test_cli_cached_runs_print_what_an_uncached_serial_run_prints(tmp_path: Path):
    write(tmp_path, {**TREE, "pyproject.toml": "[tool.repro-lint]\n"})
    reference = _check(tmp_path, "--jobs", "1", "--no-cache")
    assert reference.returncode == 1 and json.loads(reference.stdout)
    assert not (tmp_path / CACHE_DIR).exists()  # --no-cache writes nothing
    cold = _check(tmp_path, "--jobs", "2")
    warm = _check(tmp_path, "--jobs", "2")
    assert (tmp_path / CACHE_DIR / ".gitignore").is_file()
    assert cold.stdout == warm.stdout == reference.stdout
    assert cold.returncode == warm.returncode == 1
    # a different selection is a different cache: never answered from the other one
    only = _check(tmp_path, "--select", "RPL201")
    assert {d["code"] for d in json.loads(only.stdout)} == {"RPL201"}
    assert _check(tmp_path, "--jobs", "2").stdout == reference.stdout


def test_cli_cache_dir_option(tmp_path: Path):
    write(tmp_path, {"project/train.py": TREE["train.py"], "project/pyproject.toml": "[tool.repro-lint]\n"})
    elsewhere = tmp_path / "elsewhere"
    result = run_cli(["project", "--cache-dir", str(elsewhere)], cwd=tmp_path)
    assert result.returncode == 1
    assert list(elsewhere.glob("results-*.json")) and not (tmp_path / "project" / CACHE_DIR).exists()


@pytest.mark.parametrize(
    "damage",
    [
        b"\x00\x01 not json",
        b'{"format": 1, "files": {"train.py": {"h": 1, "m": [], "r": "x"}}}',
        b'{"format": 1, "files": []}',
        b"",
    ],
)
def test_a_corrupt_cache_is_ignored_and_replaced(tmp_path: Path, damage: bytes):
    write(tmp_path, {**TREE, "pyproject.toml": "[tool.repro-lint]\n"})
    reference = _check(tmp_path, "--no-cache")
    _check(tmp_path)
    for cache_file in (tmp_path / CACHE_DIR).glob("results-*.json"):
        cache_file.write_bytes(damage)
    (tmp_path / "train.py").write_text((tmp_path / "train.py").read_text() + "\n")  # forces a write
    again = _check(tmp_path)
    assert again.stdout == reference.stdout and again.returncode == 1
    (cache_file,) = (tmp_path / CACHE_DIR).glob("results-*.json")
    assert "train.py" in json.loads(cache_file.read_text())["files"]


def test_a_malformed_entry_with_the_right_hash_is_ignored(tmp_path: Path, monkeypatch):
    settings, files, linter = _tree(tmp_path, monkeypatch)
    reference = _findings(lint_files(linter, files, jobs=1))
    _cached_run(settings, files, linter)
    cache_file = next((tmp_path / CACHE_DIR).glob("results-*.json"))
    data = json.loads(cache_file.read_text())
    data["files"]["train.py"]["r"] = [{"code": "RPL201"}]  # right hash, unusable findings
    cache_file.write_text(json.dumps(data))
    assert _findings(_cached_run(settings, files, linter)) == reference


def test_concurrent_runs_leave_a_valid_cache(tmp_path: Path):
    files = {f"pkg/mod{i}.py": TREE["train.py"].replace("set_seed(0)", f"set_seed({i})") for i in range(30)}
    write(tmp_path, {**files, "pyproject.toml": "[tool.repro-lint]\n"})
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "repro_lint", ".", "--output-format", "json", "--jobs", "1"]
    runs = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert len(set(outputs)) == 1 and all(run.returncode == 1 for run in runs)
    (cache_file,) = (tmp_path / CACHE_DIR).glob("results-*.json")
    assert len(json.loads(cache_file.read_text())["files"]) == 30
    assert not list((tmp_path / CACHE_DIR).glob(".*.tmp"))  # no temporary file left behind
    assert _check(tmp_path, "--jobs", "1").stdout == _check(tmp_path, "--no-cache").stdout


def test_cli_warm_run_sees_that_a_seeding_helper_stopped_seeding(tmp_path: Path):
    """The real seeding rules through the CLI: train.py never changes, but whether it is
    seeded lives in helpers.py, so a warm run must lint it again once helpers.py changes."""
    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.repro-lint]\n",
            "helpers.py": "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n",
            "train.py": """\
                import torch
                import helpers


                def main():
                    helpers.set_seed(0)
                    model = torch.nn.Linear(4, 2)
                    print(model(torch.zeros(1, 4)))


                if __name__ == "__main__":
                    main()
                """,
        },
    )
    assert _check(tmp_path).stdout.strip() == "[]"  # cold: seeded through the helper
    assert _check(tmp_path).stdout.strip() == "[]"  # warm
    (tmp_path / "helpers.py").write_text("def set_seed(seed):\n    pass\n", encoding="utf-8")
    warm = _check(tmp_path)
    assert [(Path(d["filename"]).name, d["code"]) for d in json.loads(warm.stdout)] == [("train.py", "RPL101")]
    assert warm.stdout == _check(tmp_path, "--no-cache", "--jobs", "1").stdout


def test_a_warm_run_trusts_an_old_stat_and_never_a_changed_or_recent_one(tmp_path: Path, monkeypatch):
    settings, files, linter = _tree(tmp_path, monkeypatch)
    reference = _findings(lint_files(linter, files, jobs=1))
    _cached_run(settings, files, linter)
    cache_file = next((tmp_path / CACHE_DIR).glob("results-*.json"))
    # just written: the stat of a file changed this recently is not kept
    assert all("s" not in entry for entry in json.loads(cache_file.read_text())["files"].values())
    # a run that starts well after the last change keeps it
    started = engine_run.time.time_ns() + 10 * 10**9
    monkeypatch.setattr(engine_run.time, "time_ns", lambda: started)
    (tmp_path / "clean.py").write_text("x = 2\n")  # re-linted, so that the cache is written
    assert _findings(_cached_run(settings, files, linter)) == reference
    entries = json.loads(cache_file.read_text())["files"]
    assert entries["clean.py"]["s"][0] == len("x = 2\n")
    # and the next run answers that file without reading it
    read: List[str] = []
    real_read = engine_run.read_bytes
    monkeypatch.setattr(engine_run, "read_bytes", lambda path, *a: read.append(Path(path).name) or real_read(path, *a))
    assert _findings(_cached_run(settings, files, linter)) == reference
    assert "clean.py" not in read
    # a same-size edit that keeps the mtime (a write within the timestamp granularity) is seen:
    # the ctime changed
    clean = tmp_path / "clean.py"
    before = clean.stat()
    clean.write_text("y = 3\n")
    os.utime(clean, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert clean.stat().st_size == before.st_size and clean.stat().st_mtime_ns == before.st_mtime_ns
    read.clear()
    _cached_run(settings, files, linter)
    assert "clean.py" in read


#: runs the command line in this process, then says whether LibCST's nodes and the rules were
#: imported (``libcst`` itself may be in ``sys.modules`` as a module not yet loaded)
_IMPORTS_PROBE = """\
import json, sys
from repro_lint.cli import main
status = main(sys.argv[1:])
loaded = {name: name in sys.modules for name in ("libcst._nodes.expression", "repro_lint.rules.base", "repro_lint.linter")}
print(json.dumps({"status": status, "loaded": loaded}), file=sys.stderr)
"""


def _probe(tmp_path: Path, *args: str) -> Tuple[str, dict]:
    result = subprocess.run(
        [sys.executable, "-c", _IMPORTS_PROBE, "check", ".", "--output-format", "json", *args],
        cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result.stdout, json.loads(result.stderr.strip().splitlines()[-1])


def test_a_run_the_cache_answers_entirely_imports_neither_libcst_nor_the_rules(tmp_path: Path):
    write(tmp_path, {**TREE, "pyproject.toml": "[tool.repro-lint]\n"})
    reference = _check(tmp_path, "--no-cache")
    cold_out, cold = _probe(tmp_path)
    assert cold["loaded"]["libcst._nodes.expression"] and cold["loaded"]["repro_lint.rules.base"]
    assert list((tmp_path / CACHE_DIR).glob("rules-*.json"))  # the rules' codes and defaults, kept
    warm_out, warm = _probe(tmp_path)
    assert warm == {"status": 1, "loaded": {name: False for name in warm["loaded"]}}
    assert cold_out == warm_out == reference.stdout
    # one changed file: the rules are imported to lint it, and only it is linted
    (tmp_path / "clean.py").write_text("import torch\ntorch.backends.cudnn.benchmark = True\n")
    again_out, again = _probe(tmp_path)
    assert again["loaded"]["repro_lint.rules.base"]
    assert "clean.py" in {Path(d["filename"]).name for d in json.loads(again_out)}


@pytest.mark.parametrize("damage", [b"not json", b"{}", b'{"RPL101": "yes"}', b"[]"])
def test_kept_rule_defaults_that_do_not_read_are_replaced(tmp_path: Path, damage: bytes):
    write(tmp_path, {**TREE, "pyproject.toml": "[tool.repro-lint]\n"})
    reference = _check(tmp_path, "--no-cache")
    _check(tmp_path)
    (kept,) = (tmp_path / CACHE_DIR).glob("rules-*.json")
    kept.write_bytes(damage)
    again = _check(tmp_path)
    assert again.stdout == reference.stdout and again.returncode == 1
    from repro_lint.rules import all_rules

    assert json.loads(kept.read_text()) == {code: rule.default for code, rule in all_rules().items()}


def test_kept_rule_defaults_select_what_the_rules_select(tmp_path: Path):
    """A selection answered from the kept codes and defaults (rules off by default included)
    is the one the rules themselves give."""
    from repro_lint import rules

    write(tmp_path, {**TREE, "pyproject.toml": "[tool.repro-lint]\n"})
    _check(tmp_path)
    kept = json.loads(next((tmp_path / CACHE_DIR).glob("rules-*.json")).read_text())
    assert kept == {code: rule.default for code, rule in rules.all_rules().items()}
    assert not all(kept.values())  # some rules are off by default, and the copy says so
    off = next(code for code, default in kept.items() if not default)
    for args in ((), ("--select", "ALL"), ("--extend-select", off), ("--select", "RPL2", "--ignore", "RPL205")):
        assert _check(tmp_path, *args).stdout == _check(tmp_path, "--no-cache", *args).stdout
    assert _check(tmp_path, "--select", "RPL999").returncode == 2  # unknown codes are still refused


def test_a_warm_run_neither_parses_nor_imports_libcst(tmp_path: Path):
    """Nothing changed: every finding comes from the cache, so the run never imports LibCST
    (whose import alone is most of a one-file run) nor the rules that need it."""
    write(tmp_path, {
        "train.py": "import torch\nfrom torch.utils.data import DataLoader\n\n"
                    "loader = DataLoader(ds, shuffle=True, num_workers=2)\nmodel = torch.nn.Linear(2, 2)\n",
        "lib/util.py": "import numpy as np\n\n\ndef noise():\n    return np.random.rand()\n",
    })
    code = (
        "import sys\n"
        "from repro_lint.cli import run_check\n"
        "rc = run_check(['.', '-q'])\n"
        # ``libcst`` itself is a lazy module (repro_lint._lazy); its nodes load when it is used
        "print(rc, 'libcst._nodes.module' in sys.modules, 'repro_lint.rules.ops' in sys.modules)\n"
    )
    runs = [run_python(code, tmp_path) for _ in range(2)]
    cold, warm = (run.stdout.split()[-3:] for run in runs)
    assert cold == ["1", "True", "True"], runs[0].stdout + runs[0].stderr
    assert warm == ["1", "False", "False"], runs[1].stdout + runs[1].stderr


def test_entries_that_depend_on_the_same_files_share_one_stored_list(tmp_path: Path, monkeypatch):
    """Files of one project depend on the same files (a call graph, its metadata): the cache
    file keeps each distinct list of dependencies once, and an entry names its list by
    position; a position that names no list is a dependency that never holds."""
    write(tmp_path, {f"script{i}.py": "import helpers\n\nif __name__ == '__main__':\n    helpers.set_seed(0)\n" for i in range(3)})
    settings, files, linter = _tree(tmp_path, monkeypatch)
    reference = _findings(lint_files(linter, files, jobs=1))
    _cached_run(settings, files, linter)
    cache_file = next((tmp_path / CACHE_DIR).glob("results-*.json"))
    data = json.loads(cache_file.read_text())
    positions = [data["files"][f"script{i}.py"]["d"] for i in range(3)]
    assert len(set(positions)) == 1 and all(type(p) is int for p in positions)
    assert len(data["lists"]) == len({tuple(each) for each in data["lists"]})  # each list once
    shared = data["lists"][positions[0]]
    assert {data["deps"][i][0] for i in shared} >= {str(tmp_path / "helpers.py")}
    # the warm run is answered from the cache (a doctored message shows), with the same findings
    data["files"]["train.py"]["r"][0]["message"] = "from the cache"
    cache_file.write_text(json.dumps(data))
    assert "from the cache" in [d.message for r in _cached_run(settings, files, linter) for d in r.diagnostics]
    for damaged in (len(data["lists"]), -1, "0", [0], 1.5):
        data["files"]["train.py"]["d"] = damaged
        cache_file.write_text(json.dumps(data))
        found = _findings(_cached_run(settings, files, linter))
        assert found == reference, damaged


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_module_that_no_file_imports_any_more_becomes_an_entry_point_in_a_cached_run(tmp_path: Path, monkeypatch, jobs: int):
    """A script without a ``__main__`` block is an entry point only when no file of the run
    imports it. The survey's workers decide that in a parallel run, and the process that lints
    the file must still record that its findings depend on the files that import it: here the
    only importer stops importing it, and the next cached run reports the entry point's
    finding, as a run without the cache does."""
    write(tmp_path, {
        "tool.py": "import random\n\nx = random.random()\nprint(x)\n",
        "main.py": "import tool\n\nprint(tool.x)\n",
        "other.py": "import os\n\nprint(os.sep)\n",
    })
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)
    settings = Settings(root=tmp_path)
    files = sorted(tmp_path.glob("*.py"))

    def run(cached: bool) -> List[Tuple]:
        return _run(settings, files, jobs, cached)

    before = run(cached=True)  # fills the cache
    assert before == run(cached=False) and not [f for f in before if f[0].endswith("tool.py")]
    (tmp_path / "main.py").write_text("import os\n\nprint(os.sep)\n", encoding="utf-8")
    after = run(cached=False)
    assert [f[2] for f in after if f[0].endswith("tool.py")] == ["RPL103"]  # Python's random, never seeded
    assert run(cached=True) == after


def test_that_a_module_is_imported_depends_on_its_importers_as_files_of_the_run(tmp_path: Path, monkeypatch):
    """Whether a script-like module is an entry point depends, when a file imports it, on that
    file as one of the run's, not on every file: another file's change lints it no more; a
    run without the importer (a narrower run, the importer's copy on disk unchanged) does."""
    write(tmp_path, {
        "tool.py": "import random\n\nx = random.random()\nprint(x)\n",
        "main.py": "import tool\n\nprint(tool.x)\n",
        "other.py": "import os\n\nprint(os.sep)\n",
    })
    monkeypatch.chdir(tmp_path)
    settings = Settings(root=tmp_path)
    linted: List[str] = []
    real = engine_run._lint_file

    def recording(linter, path):
        linted.append(Path(path).name)
        return real(linter, path)

    monkeypatch.setattr(engine_run, "_lint_file", recording)

    def run(names: List[str], cached: bool = True) -> List[Tuple]:
        linted.clear()
        return _run(settings, [tmp_path / name for name in names], cached=cached)

    everything = ["main.py", "other.py", "tool.py"]
    assert run(everything) == run(everything, cached=False)
    assert not [f for f in run(everything) if f[0].endswith("tool.py")] and linted == []
    (tmp_path / "other.py").write_text("import sys\n\nprint(sys.argv)\n", encoding="utf-8")
    findings = run(everything)
    assert "other.py" in linted and "tool.py" not in linted  # main.py, a script, may be
    assert findings == run(everything, cached=False)
    narrower = ["other.py", "tool.py"]
    expected = run(narrower, cached=False)
    assert [f[2] for f in expected if f[0].endswith("tool.py")] == ["RPL103"]
    assert run(narrower) == expected


#: a project whose files' findings depend on each other in the ways the project context reads:
#: an entry point seeding through a helper that also turns deterministic algorithms on, a loader
#: built by a factory in another module, a model with a nondeterministic op, a script-like
#: module that a file imports, re-exports through a package
PROJECT = {
    "train.py": """\
        import torch
        from helpers import set_seed
        from data import build_loader
        from pkg import Net
        import tool


        def main():
            set_seed(0)
            loader = build_loader(list(range(10)))
            net = Net().cuda()
            for batch in loader:
                net(torch.tensor(batch).cuda())
            print(tool.x)


        if __name__ == "__main__":
            main()
        """,
    "evaluate.py": """\
        import numpy as np
        from pkg import Net

        if __name__ == "__main__":
            net = Net()
            print(np.random.rand(3), net)
        """,
    "helpers.py": """\
        import random

        import numpy as np
        import torch


        def set_seed(seed):
            random.seed(seed)
            np.random.seed(seed)
            torch.manual_seed(seed)
            torch.use_deterministic_algorithms(True)
        """,
    "data.py": """\
        from torch.utils.data import DataLoader


        def build_loader(dataset):
            return DataLoader(dataset, batch_size=2, shuffle=True, num_workers=2)
        """,
    "pkg/__init__.py": "from .model import Net\n",
    "pkg/model.py": """\
        import torch
        import torch.nn.functional as F


        class Net(torch.nn.Module):
            def forward(self, x):
                out = torch.zeros(4).index_add_(0, x % 4, x.float())
                return F.dropout(out, 0.5)
        """,
    "tool.py": "import random\n\nx = random.random()\nprint(x)\n",
}


def test_a_cached_run_after_any_one_file_changes_finds_what_a_fresh_run_finds(tmp_path: Path, monkeypatch):
    """Whatever file of a project changes (emptied, then back), a cached run, in parallel with
    the survey in workers, finds what a serial run without the cache finds: no file's findings
    are kept when something they were derived from changed, whichever process derived it."""
    write(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
    monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)
    settings = Settings(root=tmp_path)
    files = sorted(tmp_path.rglob("*.py"))

    def run(jobs: int, cached: bool) -> List[Tuple]:
        return _run(settings, files, jobs, cached)

    reference = run(1, cached=False)
    assert {code for *_, code, _ in reference} == {"RPL102", "RPL301", "RPL302", "RPL501"}
    assert run(2, cached=True) == reference
    seen = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        path.write_text("", encoding="utf-8")
        fresh = run(1, cached=False)
        assert run(2, cached=True) == fresh, f"{path.name} emptied"
        seen.update(code for *_, code, _ in fresh)
        path.write_text(text, encoding="utf-8")
        assert run(2, cached=True) == reference, f"{path.name} back"
    # findings that other files' changes made: the helper's switch gone (RPL202 in the entry
    # point), the script-like module imported no more (RPL103, an entry point now)
    assert {"RPL103", "RPL202"} <= seen
