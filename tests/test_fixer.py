"""``--fix``, ``--unsafe-fixes`` and ``--diff``: the safety contract of the fixer.

Real rules through the real command where possible; rules that exist only inside one test
(``fixtools.temporary_rules``) where a case needs a fix no real rule makes (overlapping
replacements, a fix that breaks the syntax, a fix that never settles).
"""

from __future__ import annotations

import os
import stat
import textwrap
from pathlib import Path
from typing import List, Optional

import libcst as cst
import pytest

from conftest import run_cli, write
from fixtools import fix_text, linter_for, temporary_rules
from repro_lint import cli
from repro_lint.diagnostics import SAFE, UNSAFE, Diagnostic, Edit, Fix
from repro_lint.fixer import MAX_PASSES, TextEdit, apply_text_edits, conflict, fix_path, plan, unified_diff

BENCHMARK = "import torch\ntorch.backends.cudnn.benchmark = True\n"
BENCHMARK_FIXED = "import torch\ntorch.backends.cudnn.benchmark = False\n"
DROPOUT = textwrap.dedent(
    """\
    import torch.nn as nn
    import torch.nn.functional as F


    class Net(nn.Module):
        def forward(self, x):
            return F.dropout(x, p=0.1)  # keep this comment
    """
)
OLD = 1_000_000_000  # a modification time far in the past


def age(*paths: Path) -> None:
    for path in paths:
        os.utime(path, (OLD, OLD))


def untouched(path: Path, data: bytes) -> bool:
    return path.read_bytes() == data and path.stat().st_mtime == OLD


# -- the real rules, through the command ---------------------------------------------------------


def test_fix_safe_rules_and_report_what_remains(tmp_path: Path):
    write(tmp_path, {"a.py": BENCHMARK + "torch.backends.cudnn.deterministc = True\n", "m.py": DROPOUT})
    proc = run_cli(["--fix", "."], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert (tmp_path / "a.py").read_text() == BENCHMARK_FIXED + "torch.backends.cudnn.deterministc = True\n"
    assert "return F.dropout(x, p=0.1, training=self.training)  # keep this comment\n" in (tmp_path / "m.py").read_text()
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("a.py:3:1: RPL205 ")
    assert lines[1:] == ["Fixed 2 errors.", "Found 1 error.", "1 more fixable with the `--fix --unsafe-fixes` option."]


def test_unsafe_fixes_need_the_flag_and_chain_over_passes(tmp_path: Path):
    # RPL205 renames the misspelt flag (unsafe); the next pass sees cudnn.benchmark = True (RPL201)
    write(tmp_path, {"a.py": "from torch.backends import cudnn\ncudnn.benchmarks = True\n"})
    proc = run_cli(["--fix", "a.py"], tmp_path)
    assert proc.returncode == 1 and (tmp_path / "a.py").read_text().endswith("cudnn.benchmarks = True\n")
    proc = run_cli(["--fix", "--unsafe-fixes", "a.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "a.py").read_text() == "from torch.backends import cudnn\ncudnn.benchmark = False\n"
    assert proc.stdout.splitlines() == ["Fixed 2 errors."]


def test_second_fix_changes_nothing(tmp_path: Path):
    write(tmp_path, {"a.py": BENCHMARK, "m.py": DROPOUT})
    first = run_cli(["--fix", "--unsafe-fixes", "."], tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    data = {p: p.read_bytes() for p in (tmp_path / "a.py", tmp_path / "m.py")}
    age(*data)
    second = run_cli(["--fix", "--unsafe-fixes", "."], tmp_path)
    assert second.returncode == 0 and second.stdout.strip() == "All checks passed!"
    assert all(untouched(p, b) for p, b in data.items())


def test_three_nested_fixes_on_one_node(tmp_path: Path):
    write(tmp_path, {"m.py": DROPOUT.replace("F.dropout(x, p=0.1)", "F.dropout(F.dropout(F.dropout(x)))")})
    proc = run_cli(["--fix", "m.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    t = "training=self.training"
    assert f"return F.dropout(F.dropout(F.dropout(x, {t}), {t}), {t})  # keep" in (tmp_path / "m.py").read_text()
    assert "Fixed 3 errors." in proc.stdout


def test_crlf_file_keeps_its_line_endings(tmp_path: Path):
    data = (BENCHMARK + DROPOUT).replace("\n", "\r\n").encode()
    (tmp_path / "w.py").write_bytes(data)
    proc = run_cli(["--fix", "w.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    new = (tmp_path / "w.py").read_bytes()
    expected = data.replace(b"= True", b"= False").replace(b"p=0.1)", b"p=0.1, training=self.training)")
    assert new == expected and new.count(b"\n") == new.count(b"\r\n")


@pytest.mark.parametrize(
    "prefix,encoding",
    [(b"# -*- coding: latin-1 -*-\n# caf\xe9 cr\xe8me\n", "latin-1"), (b"\xef\xbb\xbf# caf\xc3\xa9\n", "utf-8-sig")],
)
def test_encoding_cookie_and_bom_are_kept(tmp_path: Path, prefix: bytes, encoding: str):
    path = tmp_path / "enc.py"
    path.write_bytes(prefix + BENCHMARK.encode() + b"s = '\xe9'\n".decode("latin-1").encode(encoding.replace("-sig", "")))
    before = path.read_bytes()
    proc = run_cli(["--fix", "enc.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert path.read_bytes() == before.replace(b"benchmark = True", b"benchmark = False")


def test_file_with_a_syntax_error_is_left_alone_and_the_others_are_fixed(tmp_path: Path):
    write(tmp_path, {"ok.py": BENCHMARK, "pkg/broken.py": "import torch\ntorch.backends.cudnn.benchmark = True\ndef f(:\n"})
    broken = tmp_path / "pkg" / "broken.py"
    before = broken.read_bytes()
    age(broken)
    proc = run_cli(["--fix", "."], tmp_path)
    assert proc.returncode == 1
    assert (tmp_path / "ok.py").read_text() == BENCHMARK_FIXED
    assert untouched(broken, before)
    assert proc.stdout.splitlines()[0].startswith("pkg/broken.py:3:")
    assert " RPL001 " in proc.stdout and "Fixed 1 error." in proc.stdout


def test_diff_writes_nothing(tmp_path: Path):
    write(tmp_path, {"a.py": BENCHMARK, "clean.py": BENCHMARK_FIXED})
    a = tmp_path / "a.py"
    age(a, tmp_path / "clean.py")
    proc = run_cli(["--diff", "."], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n import torch\n"
        "-torch.backends.cudnn.benchmark = True\n+torch.backends.cudnn.benchmark = False\n"
    )
    assert "Would fix 1 error." in proc.stderr
    assert untouched(a, BENCHMARK.encode()) and untouched(tmp_path / "clean.py", BENCHMARK_FIXED.encode())
    assert run_cli(["--diff", "clean.py"], tmp_path).returncode == 0


def test_diff_leaves_unsafe_fixes_out_unless_asked(tmp_path: Path):
    write(tmp_path, {"a.py": "import torch\ntorch.backends.cudnn.enable = False\n"})
    proc = run_cli(["--diff", "a.py"], tmp_path)
    assert proc.returncode == 0 and proc.stdout == ""
    proc = run_cli(["--diff", "--unsafe-fixes", "a.py"], tmp_path)
    assert proc.returncode == 1 and "+torch.backends.cudnn.enabled = False\n" in proc.stdout


def test_files_without_fixes_are_not_written(tmp_path: Path):
    write(tmp_path, {
        "clean.py": BENCHMARK_FIXED,
        "unfixable.py": "import torch\ntorch.backends.cudnn.xyzzy = 1\n",  # RPL205 without a suggestion
        "suppressed.py": "import torch\ntorch.backends.cudnn.benchmark = True  # noqa: RPL201\n",
        "fixme.py": BENCHMARK,
    })
    names = ["clean.py", "unfixable.py", "suppressed.py"]
    before = {n: (tmp_path / n).read_bytes() for n in names}
    age(*(tmp_path / n for n in names))
    proc = run_cli(["--fix", "--unsafe-fixes", "."], tmp_path)
    assert proc.returncode == 1 and "Fixed 1 error." in proc.stdout
    assert all(untouched(tmp_path / n, before[n]) for n in names)
    assert (tmp_path / "fixme.py").read_text() == BENCHMARK_FIXED


def test_atomic_write_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path):
    write(tmp_path, {"run.py": BENCHMARK})
    path = tmp_path / "run.py"
    path.chmod(0o751)
    proc = run_cli(["--fix", "run.py"], tmp_path)
    assert proc.returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.read_text() == BENCHMARK_FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.py"]


def test_a_symlink_is_never_written_through(tmp_path: Path):
    write(tmp_path, {"real/a.py": BENCHMARK})
    (tmp_path / "link.py").symlink_to(tmp_path / "real" / "a.py")
    proc = run_cli(["--fix", "link.py"], tmp_path)
    assert proc.returncode == 1
    assert "link.py: is a symlink, not fixed" in proc.stderr
    assert (tmp_path / "real" / "a.py").read_text() == BENCHMARK and (tmp_path / "link.py").is_symlink()


def test_a_file_outside_the_given_paths_is_not_written(tmp_path: Path):
    write(tmp_path, {"a.py": BENCHMARK})
    outcome = fix_path(linter_for(tmp_path), tmp_path / "a.py", roots=[str(tmp_path / "elsewhere")])
    assert not outcome.written and "outside the paths given" in outcome.notes[0]
    assert (tmp_path / "a.py").read_text() == BENCHMARK


# -- every file is fixed against the project as the run found it -----------------------------------

#: an entry point whose fix seeds at startup, and one that imports it and needs a fix of its own
SEEDS_WHEN_FIXED = textwrap.dedent(
    """\
    import numpy as np
    import torch

    seed_value = 123
    np.random.seed(seed_value)
    torch.manual_seed(seed_value)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.randn(8, 4).to(device)


    def main(data):
        return torch.nn.Linear(4, 2).to(device)(data)


    if __name__ == "__main__":
        main(data)
    """
)
IMPORTS_IT = textwrap.dedent(
    """\
    import numpy as np
    import torch

    from data_prep import data

    seed_value = 123
    np.random.seed(seed_value)
    torch.manual_seed(seed_value)

    model = torch.nn.Linear(4, 2).to("cuda")
    print(model(data))
    """
)


def _diffs(root: Path, names: List[str], jobs: int = 1) -> dict:
    from repro_lint.config import Settings
    from repro_lint.context import ProjectContext
    from repro_lint.engine import Linter
    from repro_lint.fixer import fix_files

    files = [root / name for name in names]
    settings = Settings(root=root)
    run = fix_files(Linter(settings, ProjectContext(settings, files)), files, write=False, diff=True, jobs=jobs)
    return {item.path: item.diff for item in run.files}


def test_a_files_fix_does_not_depend_on_the_files_fixed_before_it(tmp_path: Path, monkeypatch):
    write(tmp_path, {"data_prep.py": SEEDS_WHEN_FIXED, "train.py": IMPORTS_IT})
    monkeypatch.chdir(tmp_path)
    first = _diffs(tmp_path, ["data_prep.py", "train.py"])
    assert first["data_prep.py"] and "+seed_everything(seed_value)\n" in first["train.py"]
    # the same fixes when train.py is fixed first, or alone
    assert _diffs(tmp_path, ["train.py", "data_prep.py"]) == first
    assert _diffs(tmp_path, ["train.py"])["train.py"] == first["train.py"]


def test_fix_writes_what_diff_shows_whatever_the_order_and_the_jobs(tmp_path: Path):
    write(tmp_path, {"data_prep.py": SEEDS_WHEN_FIXED, "train.py": IMPORTS_IT})
    shown = run_cli(["--diff", "--jobs", "1", "."], tmp_path)
    assert shown.returncode == 1 and shown.stdout.count("+++ ") == 2
    fixed = tmp_path.parent / "fixed"
    write(fixed, {"data_prep.py": SEEDS_WHEN_FIXED, "train.py": IMPORTS_IT})
    # every file is fixed before any is written: train.py is not fixed against data_prep.py's new text
    assert run_cli(["--fix", "--jobs", "1", "-q", "."], fixed).returncode == 0
    alone = tmp_path.parent / "alone"
    write(alone, {"data_prep.py": SEEDS_WHEN_FIXED, "train.py": IMPORTS_IT})
    run_cli(["--fix", "-q", "train.py"], alone)
    assert (fixed / "train.py").read_text() == (alone / "train.py").read_text() != IMPORTS_IT
    for name in ("data_prep.py", "train.py"):
        old = SEEDS_WHEN_FIXED if name == "data_prep.py" else IMPORTS_IT
        assert unified_diff(name, old, (fixed / name).read_text()) in shown.stdout


def _prepared_project(root: Path, files: dict):
    """The project context of ``files`` (name -> text) written under ``root``, prepared."""
    from repro_lint.config import Settings
    from repro_lint.context import ProjectContext

    write(root, files)
    paths = [root / name for name in files]
    project = ProjectContext(Settings(root=root), paths)
    project.prepare(paths)
    return project


def test_a_text_given_to_the_project_is_the_files_text_for_every_question(tmp_path: Path):
    project = _prepared_project(tmp_path, {"train.py": "import torch\n", "lib.py": "x = 1\n"})
    train = str(tmp_path / "train.py")
    assert train not in project.entry_points() and project.facts(train).module_name == "train"
    project.learn_text(train, "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n")
    # asked without the text: the facts and the entry-point flag are the given text's
    assert project.text(train).endswith("torch.manual_seed(0)\n") and project.facts(train).has_main_guard
    assert train in project.entry_points()
    project.learn_text(train, None)  # the text on disk again
    assert project.text(train) == "import torch\n" and not project.facts(train).has_main_guard
    assert train not in project.entry_points()


def test_forgetting_an_entry_point_after_prepare_keeps_it_among_the_entry_points(tmp_path: Path):
    main_text = "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
    project = _prepared_project(tmp_path, {"main.py": main_text, "lib.py": "x = 1\n"})
    main = str(tmp_path / "main.py")
    assert project.entry_points() == {main}
    # a fix of main.py, or of lib.py, makes the project forget what it learnt of that file; the
    # questions that list the entry points (an HCCL setting guarded by a parameter) still see it
    project.forget(main)
    assert project.entry_points() == {main}
    project.forget(str(tmp_path / "lib.py"))
    assert project.entry_points() == {main}


def test_a_learnt_text_is_what_the_imports_index_reads(tmp_path: Path):
    """The modules a fixed text imports replace those of the text it had, for a file named as
    the run names it (relative to where it runs), and the text on disk comes back after."""
    from repro_lint.config import Settings
    from repro_lint.context import ProjectContext

    write(tmp_path, {"main.py": "import torch\n", "helpers.py": "x = 1\n", "other/main.py": "y = 2\n"})
    settings = Settings(root=tmp_path)
    files = [Path("main.py"), Path("helpers.py"), Path("other/main.py")]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        project = ProjectContext(settings, files)
        assert project.is_imported("torch") and not project.is_imported("helpers")
        project.learn_text("main.py", "import helpers\n")
        assert project.is_imported("helpers") and not project.is_imported("torch")
        project.learn_text(str(tmp_path / "main.py"), None)
        assert project.is_imported("torch") and not project.is_imported("helpers")
    finally:
        os.chdir(cwd)


def test_after_a_files_fixes_are_tried_the_project_knows_what_it_knew_before(tmp_path: Path):
    """:meth:`ProjectContext.trying`: the texts a file gets while its fixes are tried are its
    own until the end; then what was known of the project comes back as it was (not derived
    again), unless another file's text changed meanwhile."""
    main_text = "import torch\nimport lib\n\nif __name__ == '__main__':\n    lib.run()\n"
    project = _prepared_project(tmp_path, {"main.py": main_text, "lib.py": "def run():\n    pass\n"})
    main, lib = str(tmp_path / "main.py"), str(tmp_path / "lib.py")
    summary, facts = project.entry_summary(main), project.facts(lib)
    assert "torch" not in summary.effects and project.is_imported("lib")
    entries, imported = project._entries, project._imported
    with project.trying(lib):
        project.learn_text(lib, "import torch\n\ndef run():\n    torch.manual_seed(0)\n")
        assert project.facts(lib) is not facts and "torch" in project.entry_summary(main).effects
    assert project.text(lib) == "def run():\n    pass\n" and project.facts(lib) is facts
    # the answers of before, not answers derived again from the same text
    assert project._entries is entries and project._imported is imported
    assert project.entry_summary(main) is summary
    # another file changed while lib.py's fixes were tried: lib.py's text is learnt again
    with project.trying(lib):
        project.learn_text(lib, "import torch\n\ndef run():\n    torch.manual_seed(0)\n")
        project.learn_text(main, main_text + "# changed\n")
    assert project.text(lib) == "def run():\n    pass\n" and project.facts(lib) is not facts
    assert project._entries is not entries and project.text(main).endswith("# changed\n")
    assert "torch" not in project.entry_summary(main).effects
    # nothing learnt meanwhile: nothing is taken back (answers found meanwhile stay)
    with project.trying(lib):
        found = project.entry_summary(main)
    assert project.entry_summary(main) is found
    # a trial inside another: every change the inner one sees, the outer one sees too
    project.learn_text(main, main_text)
    entries = project._entries
    with project.trying(main):
        with project.trying(lib):
            project.learn_text(lib, "import torch\n\ndef run():\n    torch.manual_seed(0)\n")
        assert project._entries is entries  # lib.py alone changed: taken back
    # main.py's trial cannot tell lib.py's text came back as it was: derived again
    assert project._entries is not entries and project.text(main) == main_text
    entries = project._entries
    with project.trying(lib):
        with project.trying(lib):
            project.learn_text(lib, "import torch\n\ndef run():\n    torch.manual_seed(0)\n")
            project.learn_text(main, main_text + "# changed again\n")
    # lib.py has its text again; main.py changed meanwhile, so nothing of before is taken back
    assert project.text(lib) == "def run():\n    pass\n" and project._entries is not entries
    assert "torch" not in project.entry_summary(main).effects


def test_fix_workers_get_groups_of_neighbours_and_results_come_back_in_order(tmp_path: Path, monkeypatch):
    """``--fix``/``--diff`` with workers: every file in exactly one group of files next to each
    other in path order (sized on disk, the group of the biggest first), and the results in the
    order of the files given, as one process gives them."""
    from repro_lint import run as engine_run
    from repro_lint.discovery import display_path
    from repro_lint.fixer import fix_files

    names = {f"{package}/m{i:02d}.py": BENCHMARK if i % 3 == 0 else "x = 1\n" for package in ("alpha", "beta") for i in range(10)}
    names["huge.py"] = BENCHMARK + "y = 0\n" * 5_000
    write(tmp_path, names)
    files = [tmp_path / name for name in reversed(list(names))]  # not in path order
    jobs = 2
    groups = engine_run.fix_groups(files, jobs)
    indices = [[index for index, _ in task] for task in groups]
    assert sorted(index for group in indices for index in group) == list(range(len(files)))
    assert all(files[index] == path for task in groups for index, path in task)
    assert 1 < len(groups) <= engine_run.FIX_GROUPS_PER_JOB * jobs
    in_order = sorted(range(len(files)), key=lambda index: files[index].parts)
    for group in indices:
        start = in_order.index(group[0])
        assert group == in_order[start : start + len(group)]
    assert files.index(tmp_path / "huge.py") in indices[0]
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
    parallel = fix_files(linter_for(tmp_path), files, write=False, diff=True, jobs=jobs)
    serial = fix_files(linter_for(tmp_path), files, write=False, diff=True, jobs=1)
    assert [item.path for item in parallel.files] == [item.path for item in serial.files] == [display_path(p) for p in files]
    assert [item.diff for item in parallel.files] == [item.diff for item in serial.files]
    assert sum(1 for item in parallel.files if item.diff) == 9  # benchmark = True in 8 modules and huge.py


def test_fix_workers_start_from_a_survey_made_in_worker_processes(tmp_path: Path, monkeypatch):
    """With many files, ``--fix``/``--diff`` readies the project context as a lint run does: the
    survey's workers decide which files to parse and extract the facts the questions need (here
    those of the modules that mention determinism, which the parent reads before forking the
    fix workers), and the parent extracts none of them itself; the diffs are one process's."""
    from repro_lint import context as engine_context, run as engine_run
    from repro_lint.fixer import fix_files

    log = tmp_path / "extracted.txt"
    original = engine_context.extract_facts

    def logged(path, text):
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {path}\n")
        return original(path, text)

    monkeypatch.setattr(engine_context, "extract_facts", logged)
    monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
    project = tmp_path / "project"
    names = {f"strict{i}.py": "import torch\n\ndef strict():\n    torch.use_deterministic_algorithms(True)\n" for i in range(4)}
    names["train.py"] = "import torch\n\ndef main():\n    torch.backends.cudnn.benchmark = True\n\nif __name__ == '__main__':\n    main()\n"
    write(project, names)
    files = sorted(project.glob("*.py"))

    def run(jobs: int):
        log.unlink(missing_ok=True)
        done = fix_files(linter_for(project), files, write=False, diff=True, jobs=jobs)
        calls = [(int(pid), path) for pid, path in (line.split() for line in log.read_text(encoding="utf-8").splitlines())]
        return [item.diff for item in done.files], calls

    serial, _ = run(1)
    parallel, calls = run(2)
    assert parallel == serial and sum(1 for diff in serial if diff) == 1  # train.py's benchmark
    strict = {str(project / name) for name in names if name.startswith("strict")}
    assert strict <= {path for pid, path in calls if pid != os.getpid()}
    assert not [path for pid, path in calls if pid == os.getpid() and path in strict]


def test_diff_lints_only_with_the_rules_that_can_fix(tmp_path: Path, monkeypatch, capsys):
    from repro_lint import linter as linter_module

    ops = "import torch\n\ndef f(x, i, v):\n    return x.index_add_(0, i, v)\n"  # RPL401: no fix
    write(tmp_path, {"a.py": BENCHMARK, "ops.py": ops})
    assert " RPL401 " in run_cli(["ops.py"], tmp_path).stdout
    parsed: List[str] = []
    original = linter_module.parse_module
    monkeypatch.setattr(linter_module, "parse_module", lambda text, *a, **k: parsed.append(text) or original(text, *a, **k))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--diff", "--jobs", "1", "."]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("--- a.py\n") and "ops.py" not in out and "Would fix 1 error." in err
    assert parsed == [BENCHMARK]  # ops.py, which only RPL401 could report on, is never parsed
    parsed.clear()
    assert cli.main(["--fix", "--jobs", "1", "."]) == 1  # --fix reports what is left: every rule runs
    out, _ = capsys.readouterr()
    assert "ops.py:4:12: RPL401 " in out and ops in parsed


def test_diff_keeps_every_rule_when_unused_noqa_comments_are_checked(tmp_path: Path):
    # RPL002 would call the noqa unused, and remove it, if RPL401 did not run
    ops = "import torch\n\ndef f(x, i, v):\n    return x.index_add_(0, i, v)  # noqa: RPL401\n"
    write(tmp_path, {"ops.py": ops})
    proc = run_cli(["--diff", "--extend-select", "RPL002", "."], tmp_path)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout
    stale = ops.replace("x.index_add_(0, i, v)", "x + v")
    write(tmp_path, {"ops.py": stale})
    assert "-    return x + v  # noqa: RPL401\n+    return x + v\n" in run_cli(["--diff", "--extend-select", "RPL002", "."], tmp_path).stdout


def test_fix_and_diff_are_in_the_help():
    proc = run_cli(["--help"], Path.cwd())
    assert all(flag in proc.stdout for flag in ("--fix", "--unsafe-fixes", "--diff"))


# -- fixes no real rule makes: rules that exist only inside one test ------------------------------


def wrap_calls(self, node: cst.Call) -> None:
    """RPL993: ``f(...)`` -> ``g(...)``, replacing the whole call (nested calls overlap)."""
    if isinstance(node.func, cst.Name) and node.func.value == "f":
        self.report(node, edits=[self.replace(node, "g" + self.file.code_for(node)[1:])])


def test_overlapping_fixes_outer_first_then_the_rest_in_later_passes(tmp_path: Path):
    with temporary_rules({"code": "RPL993", "visit_Call": wrap_calls}):
        outcome = fix_text(tmp_path, "x = f(f(f(1)))\ny = f(2)\n", ["RPL993"])
    assert outcome.text == "x = g(g(g(1)))\ny = g(2)\n"
    assert outcome.fixed["RPL993"] == 4 and outcome.passes == 3 and not outcome.errors


def test_identical_edits_are_applied_once(tmp_path: Path):
    def import_and_mark(self, node: cst.Assign) -> None:
        self.report(node, edits=[self.ensure_import("repro_lint.runtime", "seed_worker"), self.insert_after(node, f"  # {self.code}")])

    rules = [{"code": code, "visit_Assign": import_and_mark} for code in ("RPL993", "RPL994")]
    with temporary_rules(*rules):
        outcome = fix_text(tmp_path, '"""Doc."""\nimport os\nx = 1\n', ["RPL993", "RPL994"])
    # the two marks are insertions at one point: both kept; the shared import once (a group of
    # its own after the standard-library one)
    assert outcome.text == '"""Doc."""\nimport os\n\nfrom repro_lint.runtime import seed_worker\nx = 1  # RPL993  # RPL994\n'
    assert outcome.passes == 1 and sum(outcome.fixed.values()) == 2


def test_a_fix_that_would_break_the_syntax_is_refused(tmp_path: Path, capsys):
    def break_it(self, node: cst.Assign) -> None:
        if self.file.code_for(node).startswith("x ="):
            self.report(node, edits=[self.replace(node.value, "1 +")])

    write(tmp_path, {"bad.py": BENCHMARK + "x = 1\n", "other.py": BENCHMARK})
    bad = tmp_path / "bad.py"
    age(bad)
    with temporary_rules({"code": "RPL993", "visit_Assign": break_it, "triggers": ("x =",)}):
        status = cli.main(["--fix", "--select", "RPL201,RPL993", str(bad), str(tmp_path / "other.py")])
    out, err = capsys.readouterr()
    assert status == 2
    assert untouched(bad, (BENCHMARK + "x = 1\n").encode())  # its good RPL201 fix is not written either
    assert (tmp_path / "other.py").read_text() == BENCHMARK_FIXED
    (line,) = err.splitlines()
    assert line.startswith("repro-lint: ") and "bad.py: internal error in RPL993: " in line
    assert "line 3: invalid syntax" in line and "left unchanged" in line


def test_a_fix_that_breaks_only_compile_is_refused(tmp_path: Path):
    def misplace(self, node: cst.Assign) -> None:
        self.report(node, edits=[self.insert_before(node, "return 1\n")])

    with temporary_rules({"code": "RPL993", "visit_Assign": misplace}):
        outcome = fix_text(tmp_path, "x = 1\n", ["RPL993"])
    assert outcome.text == "x = 1\n" and not outcome.fixed
    (error,) = outcome.errors
    assert error.rule == "RPL993" and "'return' outside function" in error.message


def test_the_original_is_compiled_only_when_a_fixed_text_does_not_compile(tmp_path: Path, monkeypatch):
    """A fixed text must compile where the original does. The original is compiled only when
    the fixed text does not: a fix that compiles costs one compile, not two; a file that never
    compiled (``return`` at the top level) is held to LibCST's parse alone."""
    from repro_lint import fixer

    compiled: List[str] = []
    real = fixer.compile_error

    def counting(text: str, path: str) -> Optional[str]:
        compiled.append(text)
        return real(text, path)

    monkeypatch.setattr(fixer, "compile_error", counting)

    def mark(self, node: cst.Assign) -> None:
        if self.file.code_for(node) == "x = 1":
            self.report(node, edits=[self.replace(node.value, "2")])

    with temporary_rules({"code": "RPL993", "visit_Assign": mark}):
        outcome = fix_text(tmp_path, "x = 1\n", ["RPL993"])
    assert outcome.text == "x = 2\n" and compiled == ["x = 2\n"]

    def misplace(self, node: cst.Assign) -> None:
        if "return 1" not in self.file.source:
            self.report(node, edits=[self.insert_before(node, "return 1\n")])

    compiled.clear()
    with temporary_rules({"code": "RPL993", "visit_Assign": misplace}):
        outcome = fix_text(tmp_path, "return 0\nx = 1\n", ["RPL993"])
    assert outcome.text == "return 0\nreturn 1\nx = 1\n" and not outcome.errors
    assert compiled == ["return 0\nreturn 1\nx = 1\n", "return 0\nx = 1\n"]  # the original once, found not to compile


def test_fixes_that_never_settle_stop_after_the_bound(tmp_path: Path):
    def grow(self, node: cst.Module) -> None:
        self.report(node, edits=[self.insert_at(1, 0, "y = 0\n")])

    with temporary_rules({"code": "RPL993", "visit_Module": grow}):
        outcome = fix_text(tmp_path, "x = 1\n", ["RPL993"])
    assert outcome.passes == MAX_PASSES and outcome.text.count("y = 0\n") == MAX_PASSES
    (error,) = outcome.errors
    assert error.rule == "RPL993" and "did not settle" in error.message


def test_a_fix_whose_own_edits_overlap_is_skipped(tmp_path: Path):
    def clash(self, node: cst.Assign) -> None:
        self.report(node, edits=[self.replace(node.value, "2"), self.replace(node, "x = 3")])

    with temporary_rules({"code": "RPL993", "visit_Assign": clash}):
        outcome = fix_text(tmp_path, "x = 1\n", ["RPL993"])
    assert outcome.text == "x = 1\n"
    assert [e.rule for e in outcome.errors] == ["RPL993"] and "overlap" in outcome.errors[0].message


def test_insertion_after_the_last_line_without_a_newline(tmp_path: Path):
    def add_line(self, node: cst.Module) -> None:
        edit = self.ensure_import("os", "path")  # after the traversal: the import table is complete
        if edit is not None:
            self.report(node, edits=[edit])

    with temporary_rules({"code": "RPL993", "leave_Module": add_line}):
        outcome = fix_text(tmp_path, "import sys", ["RPL993"], dedent=False)
    assert outcome.text == "import sys\nfrom os import path\n"


def test_unsafe_applicability_is_respected_per_finding(tmp_path: Path):
    def mixed(self, node: cst.Assign) -> None:
        self.report(node, edits=[self.replace(node.value, "0")], applicability=UNSAFE)

    with temporary_rules({"code": "RPL993", "visit_Assign": mixed}):
        assert fix_text(tmp_path, "x = 1\n", ["RPL993"], unsafe=False).text == "x = 1\n"
        assert fix_text(tmp_path, "x = 1\n", ["RPL993"], unsafe=True).text == "x = 0\n"


# -- the planning rules, on plain edits ----------------------------------------------------------


def diag(line: int, edits, code: str = "RPL201", applicability: str = SAFE) -> Diagnostic:
    return Diagnostic(code, "m", "p.py", (line, 0), (line, 1), Fix("f", tuple(edits), applicability))


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ((0, 5), (5, 9), False),  # touching ranges
        ((0, 5), (4, 9), True),
        ((2, 2), (0, 5), True),  # insertion strictly inside a replacement
        ((0, 0), (0, 5), False),  # insertion at its start
        ((5, 5), (0, 5), False),  # insertion at its end
        ((3, 3), (3, 3), False),  # two insertions at one point
    ],
)
def test_conflict(a, b, expected):
    assert conflict(TextEdit(a[0], a[1], "x"), TextEdit(b[0], b[1], "y")) is expected
    assert conflict(TextEdit(b[0], b[1], "y"), TextEdit(a[0], a[1], "x")) is expected


def test_plan_outer_wins_and_identical_edits_merge():
    text = "aaaa bbbb cccc\n"
    outer = diag(1, [Edit((1, 0), (1, 9), "X")], code="RPL205")
    inner = diag(1, [Edit((1, 5), (1, 9), "Y")], code="RPL201")
    same1 = diag(1, [Edit((1, 10), (1, 14), "Z")])
    same2 = diag(1, [Edit((1, 10), (1, 14), "Z")], code="RPL501")
    step = plan(text, [inner, same2, outer, same1])
    assert step.applied == [outer, same1, same2] and step.deferred == [inner]
    assert apply_text_edits(text, step.edits) == "X Z\n"


def test_inserted_imports_go_before_other_insertions_at_the_same_point():
    edits = [TextEdit(0, 0, "seed_everything(0)\n"), TextEdit(0, 0, "from repro_lint.runtime import seed_everything\n")]
    assert apply_text_edits("x\n", edits) == "from repro_lint.runtime import seed_everything\nseed_everything(0)\nx\n"


def test_plan_converts_inserted_line_breaks_to_the_files():
    text = "a = 1\r\nb = 2\r\n"
    step = plan(text, [diag(2, [Edit((2, 0), (2, 0), "import os\nimport sys\n")])])
    assert apply_text_edits(text, step.edits) == "a = 1\r\nimport os\r\nimport sys\r\nb = 2\r\n"


def test_unified_diff_marks_a_missing_final_newline():
    assert unified_diff("a.py", "x = 1", "x = 2").endswith("-x = 1\n\\ No newline at end of file\n+x = 2\n\\ No newline at end of file\n")


def test_one_fix_run_seeds_an_entry_point_completely(tmp_path):
    """The setup block goes in once and the same run's re-lint sees it (no stale project facts)."""
    from conftest import run_cli, write

    script = (
        "import random\nimport numpy as np\nimport torch\n\n\ndef main():\n"
        "    model = torch.nn.Linear(4, 2).cuda()\n    print(np.random.rand(), random.random(), model)\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    write(tmp_path, {"train.py": script})
    proc = run_cli(["--fix", "train.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Fixed 4 errors." in proc.stdout
    text = (tmp_path / "train.py").read_text()
    assert text.count("seed_everything(0)") == 1 and text.count("from repro_lint.runtime import seed_everything") == 1
    assert run_cli(["--diff", "train.py"], tmp_path).returncode == 0


def test_imports_from_one_module_at_one_point_become_one_statement():
    from repro_lint.fixer import merge_from_imports

    edits = [
        TextEdit(10, 10, "from repro_lint.runtime import seed_worker\n"),
        TextEdit(10, 10, "from repro_lint.runtime import make_generator\n"),
        TextEdit(10, 10, "import os\n"),
        TextEdit(30, 30, "from repro_lint.runtime import seed_everything\n"),
        TextEdit(40, 44, "False"),
    ]
    assert merge_from_imports(edits, "\n") == [
        TextEdit(10, 10, "from repro_lint.runtime import make_generator, seed_worker\n"),
        TextEdit(10, 10, "import os\n"),
        TextEdit(30, 30, "from repro_lint.runtime import seed_everything\n"),
        TextEdit(40, 44, "False"),
    ]
    crlf = [TextEdit(0, 0, "from m import b\r\n"), TextEdit(0, 0, "from m import a\r\n")]
    assert merge_from_imports(crlf, "\r\n") == [TextEdit(0, 0, "from m import a, b\r\n")]


def test_an_import_that_leads_a_longer_insertion_takes_the_other_names():
    from repro_lint.fixer import merge_from_imports

    block = "from repro_lint.runtime import seed_everything\n\nseed_everything(0)\n"
    edits = [
        TextEdit(10, 10, block),
        TextEdit(10, 10, "from repro_lint.runtime import make_generator, seed_worker\n"),
        TextEdit(10, 10, "from other import x\n"),
    ]
    assert merge_from_imports(edits, "\n") == [
        TextEdit(10, 10, "from repro_lint.runtime import make_generator, seed_everything, seed_worker\n\nseed_everything(0)\n"),
        TextEdit(10, 10, "from other import x\n"),
    ]


def test_block_and_loader_fixes_share_one_import_when_code_follows_the_imports(tmp_path):
    """Imports interleaved with code (a notebook's or a quick script's shape): the block's import
    and the loader fixes' import are one statement, above the block's call."""
    (tmp_path / "t.py").write_text(
        "import torch\n"
        "torch.backends.cudnn.benchmark = True\n"
        "from torch.utils.data import DataLoader\n"
        "loader = DataLoader(list(range(10)), shuffle=True, num_workers=2)\n"
        "model = torch.nn.Linear(2, 2)\n"
    )
    proc = run_cli(["--fix", "--no-cache", "t.py"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = (tmp_path / "t.py").read_text().splitlines()
    assert lines[:4] == [
        "import torch",
        "from repro_lint.runtime import make_generator, seed_everything, seed_worker",
        "",
        "seed_everything(0)",
    ], lines
    assert sum("repro_lint" in line for line in lines) == 1


def test_fixed_files_stay_isort_clean(tmp_path):
    """``ruff check --select I`` passes on the output of --fix when it passed on the input."""
    import shutil
    import subprocess
    import sys

    from conftest import REPO, run_cli

    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    shutil.copy(REPO / "examples" / "train.py", tmp_path / "train.py")

    def isort_clean() -> bool:
        done = subprocess.run([ruff, "check", "--select", "I", "--isolated", "train.py"], cwd=tmp_path, capture_output=True, text=True)
        return done.returncode == 0

    assert isort_clean()
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "train.py"], tmp_path)
    assert "from repro_lint.runtime import" in (tmp_path / "train.py").read_text()
    assert isort_clean(), (tmp_path / "train.py").read_text()


STDLIB_HEADER = (
    '"""Model building."""\n\nimport argparse\nimport sys\nfrom pathlib import Path\n\n'
    "sys.path.append(str(Path(__file__).parent))\n\nfrom common import *  # noqa: F403\n\n"
    "if __name__ == \"__main__\":\n    parser = argparse.ArgumentParser()\n    model = Model().cuda()  # noqa: F405\n"
)


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_an_import_after_a_header_of_standard_library_imports_opens_a_group(tmp_path, style):
    """yolov5's models/yolo.py: the header imports the standard library only, torch comes in
    later through a star import. A third-party import the fix needs goes after the header as a
    group of its own (a blank line first), where isort and ruff put it, not among the
    standard-library imports (I001)."""
    import shutil
    import subprocess
    import sys

    from conftest import run_cli

    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    write(tmp_path, {"pyproject.toml": f'[tool.repro-lint]\nfix-style = "{style}"\n', "yolo.py": STDLIB_HEADER})

    def isort_clean() -> bool:
        done = subprocess.run([ruff, "check", "--select", "I", "--isolated", "yolo.py"], cwd=tmp_path, capture_output=True, text=True)
        return done.returncode == 0

    assert isort_clean()
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "yolo.py"], tmp_path)
    text = (tmp_path / "yolo.py").read_text()
    added = "import torch\n" if style == "inline" else "from repro_lint.runtime import seed_everything\n"
    assert "from pathlib import Path\n\n" + added + "\nsys.path" in text, text
    assert isort_clean(), text


FIRST_PARTY_HEADER = (
    "from mypkg.data import get_ds\nfrom mypkg.model import build\n\n\n"
    "def main():\n    return build(), get_ds()\n\n\nif __name__ == \"__main__\":\n    main()\n"
)


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_an_import_before_a_header_of_the_project_s_own_imports_opens_a_group(tmp_path, style):
    """accelerate's CLI: the header imports only the project's own modules, and the fix needs
    torch (or the runtime). isort and ruff put a third-party import in a group before the
    first-party ones: not into their group (I001), not after it."""
    import shutil
    import subprocess
    import sys

    from conftest import run_cli

    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    write(tmp_path, {
        "pyproject.toml": f'[tool.repro-lint]\nfix-style = "{style}"\n',
        "mypkg/__init__.py": "",
        "mypkg/data.py": "import torch\n\n\ndef get_ds():\n    return torch.randn(8, 2)\n",
        "mypkg/model.py": "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2).cuda()\n",
        "run.py": FIRST_PARTY_HEADER,
    })

    def isort_clean() -> bool:
        done = subprocess.run([ruff, "check", "--select", "I", "--isolated", "run.py"], cwd=tmp_path, capture_output=True, text=True)
        return done.returncode == 0

    assert isort_clean()
    run_cli(["--fix", "--no-cache", "run.py"], tmp_path)
    text = (tmp_path / "run.py").read_text()
    added = "import torch\n" if style == "inline" else "from repro_lint.runtime import seed_everything\n"
    assert text.startswith(added + "\nfrom mypkg.data import get_ds\n"), text
    assert isort_clean(), text


def test_a_module_beside_a_script_is_not_the_project_s_own_for_import_groups(tmp_path):
    """A script that imports a module of its own folder (``from helpers import build`` in
    ``scripts/``): ruff and isort call ``helpers`` third-party (it is neither the script's
    package nor at the project's root or in ``src``), so torch joins that group, sorted."""
    import shutil
    import subprocess
    import sys

    from conftest import run_cli

    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    write(tmp_path, {
        "pyproject.toml": '[tool.repro-lint]\nfix-style = "inline"\n',
        "scripts/helpers.py": "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2).cuda()\n",
        "scripts/run.py": "from helpers import build\n\n\ndef main():\n    return build()\n\n\nif __name__ == \"__main__\":\n    main()\n",
    })

    def isort_clean() -> bool:
        done = subprocess.run([ruff, "check", "--select", "I", "--isolated", "scripts/run.py"], cwd=tmp_path, capture_output=True, text=True)
        return done.returncode == 0

    assert isort_clean()
    run_cli(["--fix", "--no-cache", "."], tmp_path)
    text = (tmp_path / "scripts" / "run.py").read_text()
    assert text.startswith("import torch\nfrom helpers import build\n"), text
    assert isort_clean(), text


ISORT_SETTINGS = {
    # a package installed elsewhere (not in the tree) that the project sorts as its own
    "known-first-party": ("[tool.ruff.lint.isort]\nknown-first-party = [\"mylib\"]\n", "mylib", True),
    "ruff.toml": ("", "mylib", True),
    "isort": ("[tool.isort]\nknown_first_party = [\"mylib\"]\n", "mylib", True),
    # the project's package in a source folder other than the root or src
    "src": ("[tool.ruff]\nsrc = [\"python\"]\n", "python/mypkg", True),
    # a package at the root that the project sorts as third-party
    "known-third-party": ("[tool.ruff.lint.isort]\nknown-third-party = [\"mypkg\"]\n", "mypkg", False),
    # a folder at the root named as the package, which is one level down (another project of
    # the tree): ruff looks for the whole module, ``otherproj/data``, there, and finds none
    "a folder of the name": ("", "otherproj/otherproj", False),
}


@pytest.mark.parametrize("setting", sorted(ISORT_SETTINGS))
def test_a_fix_s_import_goes_where_the_project_s_isort_settings_sort_it(tmp_path, setting):
    """ruff's ``known-first-party``, ``known-third-party`` and ``src`` (in pyproject.toml or
    ruff.toml) and isort's ``known_first_party`` decide which imports are the project's own: a
    fix's ``import torch`` gets a group of its own before those, or joins the group of those the
    project calls third-party, and ``ruff check --select I`` with the project's settings passes."""
    import shutil
    import subprocess
    import sys

    from conftest import run_cli

    table, package, own = ISORT_SETTINGS[setting]
    top = package.rpartition("/")[2]
    files = {
        "pyproject.toml": '[tool.repro-lint]\nfix-style = "inline"\n' + table,
        "run.py": (
            f"from {top}.data import get_ds\n\n\ndef main():\n    from tools.model import build\n\n"
            "    return build(), get_ds()\n\n\nif __name__ == \"__main__\":\n    main()\n"
        ),
        "tools/__init__.py": "",
        "tools/model.py": "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2).cuda()\n",
    }
    if setting == "ruff.toml":
        files["ruff.toml"] = "[lint.isort]\nknown-first-party = [\"mylib\"]\n"
    if package != "mylib":
        files[f"{package}/__init__.py"] = ""
        files[f"{package}/data.py"] = "def get_ds():\n    return None\n"
    write(tmp_path, files)
    run_cli(["--fix", "--no-cache", "run.py"], tmp_path)
    text = (tmp_path / "run.py").read_text()
    expected = f"import torch\n\nfrom {top}.data" if own else f"import torch\nfrom {top}.data"
    assert text.startswith(expected), text
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if setting != "isort" and Path(ruff).exists():
        done = subprocess.run([ruff, "check", "--select", "I", "run.py"], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + text


PACKAGE_TREE = {
    "pyproject.toml": "[tool.repro-lint]\n",
    "mypkg/__init__.py": "",
    "mypkg/data.py": (
        "import random\n\nimport numpy as np\nimport torch\nfrom torch.utils.data import DataLoader\n\n\n"
        "def build_loader(dataset, batch_size=32):\n"
        "    return DataLoader(dataset, batch_size, shuffle=True, num_workers=4)\n\n\n"
        "def jitter(x):\n    return x + np.random.rand() + random.random()\n"
    ),
    "mypkg/model.py": (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n\n"
        "    def forward(self, x):\n        torch.backends.cudnn.benchmark = True\n"
        "        return F.dropout(self.fc(x), p=0.5)\n"
    ),
    "train.py": (
        "import torch\n\nfrom mypkg.data import build_loader\nfrom mypkg.model import Net\n\n\n"
        "def main():\n    model = Net().cuda()\n    for batch in build_loader(list(range(64))):\n        model(batch)\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"
    ),
}


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_no_library_module_of_a_package_gains_a_repro_lint_import(tmp_path: Path, style: str):
    """--fix --unsafe-fixes over a whole package tree: only the entry point may start to import
    repro_lint (and in the inline style not even that); every output still compiles and a
    second run changes nothing."""
    write(tmp_path, PACKAGE_TREE)
    config = tmp_path / "pyproject.toml"
    config.write_text(f'[tool.repro-lint]\nfix-style = "{style}"\n')
    first = run_cli(["--fix", "--unsafe-fixes", "--select", "ALL", "--no-cache", "."], tmp_path)
    assert first.returncode in (0, 1), first.stderr
    texts = {name: (tmp_path / name).read_text() for name in PACKAGE_TREE if name.endswith(".py")}
    assert texts["mypkg/data.py"] != PACKAGE_TREE["mypkg/data.py"]  # the library did get its fixes
    for name, text in texts.items():
        compile(text, name, "exec")
        if name.startswith("mypkg/") or style == "inline":
            assert "repro_lint" not in text, f"{name} ({style}):\n{text}"
    assert ("repro_lint.runtime" in texts["train.py"]) == (style == "runtime")
    second = run_cli(["--fix", "--unsafe-fixes", "--select", "ALL", "--no-cache", "."], tmp_path)
    assert {name: (tmp_path / name).read_text() for name in texts} == texts, second.stdout


# -- the width fixes keep lines within ----------------------------------------------------------


def ruff_e501(folder: Path, name: str, width: int) -> List[str]:
    """What ``ruff check --select I,E501`` reports on ``folder/name`` at ``width``, without
    the positions (a fix that adds an import moves the lines below it)."""
    import shutil
    import subprocess
    import sys

    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    done = subprocess.run(
        [ruff, "check", "--isolated", "--select", "I,E501", "--line-length", str(width), "--output-format", "concise", name],
        cwd=folder, capture_output=True, text=True,
    )
    return [line.split(": ", 1)[1] for line in done.stdout.splitlines() if " I001 " in line or " E501 " in line]


def loader_script(filler: int, long_line: bool, call: str) -> str:
    """A script whose one shuffled, multi-process loader gets two keywords from --fix, with
    ``filler`` short lines, and with one 139-character string line when ``long_line``."""
    warning = "a long warning message that no formatter wraps, " * 2 + "and this is how some files are"
    lines = ['"""Training."""', "", "import torch", "from torch.utils.data import DataLoader", "", "NAMES = ("]
    lines += [f'    "name {i}",' for i in range(filler)] + [")", "", "", "def main():", "    torch.manual_seed(0)"]
    lines += [f'    print("{warning}")'] if long_line else []
    lines += [f"    loader = {call}", "    return loader", "", "", 'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(lines)


def test_one_long_line_does_not_set_the_width_of_a_file(tmp_path):
    """pytorch/examples imagenet/main.py: one 134-character warning string let a fixed line
    grow to 129 characters. The file's width is what nearly all its lines keep to (88 here),
    so the new keywords go under the first argument, and ruff reports only the string."""
    from conftest import run_cli

    call = "DataLoader(list(range(12)), batch_size=4, shuffle=True, num_workers=2)"
    write(tmp_path, {"train.py": loader_script(120, True, call)})
    before = ruff_e501(tmp_path, "train.py", 88)
    assert before == ["E501 Line too long (139 > 88)"], before
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "train.py"], tmp_path)
    text = (tmp_path / "train.py").read_text()
    assert (
        "    loader = DataLoader(list(range(12)), batch_size=4, shuffle=True, num_workers=2,\n"
        "                        worker_init_fn=seed_worker,\n"
        "                        generator=make_generator())\n"
    ) in text, text
    assert ruff_e501(tmp_path, "train.py", 88) == before


def test_file_width_is_the_common_width_nearly_all_lines_keep_to():
    from repro_lint.edits import file_width

    assert file_width([]) == 79
    assert file_width(["x = 1"] * 10) == 79  # never below PEP 8's
    assert file_width(["x" * 85] + ["x = 1"] * 10) == 88  # a small file: every line counts
    assert file_width(["x" * 139] + ["x" * 80] * 150) == 88  # one line in a hundred is passed over
    assert file_width(["x" * 139] * 2 + ["x" * 80] * 150) == 139  # two are not
    assert file_width(["x" * 130] * 200) == 130  # wider than any common width: its own
    assert file_width(["x" * 70, "", "   ", "x" * 99 + "   "]) == 100  # blank lines and trailing blanks do not count


@pytest.mark.parametrize(
    "config,width",
    [
        ("[tool.repro-lint]\nline-length = 100\n", 100),
        ("[tool.ruff]\nline-length = 100\n", 100),
        ("[tool.black]\nline-length = 100\n", 100),
        # first found wins: ours, then ruff's, then black's
        ("[tool.repro-lint]\nline-length = 79\n\n[tool.ruff]\nline-length = 100\n", 79),
        ("[tool.black]\nline-length = 79\n\n[tool.ruff]\nline-length = 100\n", 100),
        ("[tool.black]\nline-length = 100\n\n[tool.ruff]\nline-length = '120'\n", 100),  # not ours to validate
        ("[project]\nname = 'x'\n", 79),  # none: the file's own
    ],
)
def test_the_projects_line_length_is_the_width(tmp_path, config, width):
    """A project that states its line length (ours, ruff's, black's, in pyproject.toml) gets
    fixed lines within it, not the file's: a file of 79-character lines in a project of 100 gets
    the new keywords on the call's line when it fits 100. ruff at that width reports nothing
    on the fixed file, as on the original."""
    from conftest import run_cli

    call = "DataLoader(list(range(12)), batch_size=4, shuffle=True)"
    write(tmp_path, {"pyproject.toml": config, "train.py": loader_script(3, False, call)})
    assert ruff_e501(tmp_path, "train.py", width) == []
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "train.py"], tmp_path)
    text = (tmp_path / "train.py").read_text()
    one_line = "    loader = DataLoader(list(range(12)), batch_size=4, shuffle=True, generator=make_generator())\n"
    assert (one_line in text) == (len(one_line) - 1 <= width), text
    assert "generator=make_generator()" in text
    assert ruff_e501(tmp_path, "train.py", width) == []


@pytest.mark.parametrize(
    "files, first, third, src",
    [
        ({"pyproject.toml": "[tool.ruff]\nsrc = ['lib']\n[tool.ruff.lint.isort]\nknown-first-party = ['a', 'b_*']\nknown-local-folder = ['c']\n"
          "known-third-party = ['d']\n"}, ("a", "b_*", "c"), ("d",), ("lib",)),
        ({"pyproject.toml": "[tool.ruff.isort]\nknown-first-party = ['a']\n"}, ("a",), (), None),  # ruff's older table
        # ruff's own files come before pyproject.toml's [tool.ruff], as ruff picks them
        ({"pyproject.toml": "[tool.ruff.lint.isort]\nknown-first-party = ['a']\n", "ruff.toml": "[lint.isort]\nknown-first-party = ['b']\n"},
         ("b",), (), None),
        ({"ruff.toml": "[lint.isort]\nknown-first-party = ['b']\n", ".ruff.toml": "src = ['x']\n"}, (), (), ("x",)),
        # isort's, its string form too, beside ruff's
        ({"pyproject.toml": "[tool.isort]\nknown_first_party = 'a, b'\nknown_third_party = ['d']\nsrc_paths = ['lib']\n"},
         ("a", "b"), ("d",), ("lib",)),
        ({"pyproject.toml": "[tool.ruff]\nsrc = ['r']\n[tool.isort]\nsrc_paths = ['i']\nknown_first_party = ['a']\n"}, ("a",), (), ("r",)),
        # other tools' values we cannot use are passed over, not reported: theirs to validate
        ({"pyproject.toml": "[tool.ruff]\nsrc = 'lib'\n[tool.ruff.lint.isort]\nknown-first-party = [1, 'a']\n"}, ("a",), (), None),
        ({"ruff.toml": "src = [\n"}, (), (), None),
        ({"ruff.toml": "src = [\n", "pyproject.toml": "[tool.ruff]\nsrc = ['lib']\n"}, (), (), None),  # ruff stops there too
        ({}, (), (), None),
    ],
)
def test_the_projects_import_sections_come_from_its_ruff_and_isort_settings(tmp_path, files, first, third, src):
    from dataclasses import replace

    from repro_lint.config import ImportSections, load_settings

    write(tmp_path, {**files, "repro-lint.toml": "select = ['RPL202']\n"})
    expected = ImportSections(first, third, src)
    assert load_settings(start=tmp_path).import_sections == expected
    (tmp_path / "repro-lint.toml").unlink()
    settings = load_settings(start=tmp_path)  # without our configuration: the same
    assert settings.import_sections == expected
    # a fix's edits are cached with its finding: other sections, another cache
    assert (settings.fingerprint() == replace(settings, import_sections=ImportSections()).fingerprint()) == (expected == ImportSections())


@pytest.mark.parametrize(
    "files, width",
    [
        ({"ruff.toml": "line-length = 100\n"}, 100),
        ({".ruff.toml": "line-length = 100\n", "ruff.toml": "line-length = 120\n"}, 100),
        # ruff reads its own file, not pyproject.toml's [tool.ruff], where it has one
        ({"ruff.toml": "line-length = 100\n", "pyproject.toml": "[tool.ruff]\nline-length = 120\n"}, 100),
        ({"ruff.toml": "[lint]\nselect = ['I']\n", "pyproject.toml": "[tool.ruff]\nline-length = 120\n[tool.black]\nline-length = 99\n"}, 99),
        ({"ruff.toml": "line-length = [\n", "pyproject.toml": "[tool.ruff]\nline-length = 120\n"}, None),  # ruff stops there too
        ({"ruff.toml": "line-length = 100\n", "pyproject.toml": "[tool.repro-lint]\nline-length = 79\n"}, 79),  # ours first
    ],
)
def test_the_line_length_comes_from_the_file_ruff_reads(tmp_path, files, width):
    """ruff's line length is read where ruff reads it (``.ruff.toml``, ``ruff.toml``, else
    ``[tool.ruff]``), as the import sections are: with or without our own configuration file."""
    from repro_lint.config import load_settings

    write(tmp_path, files)
    assert load_settings(start=tmp_path).line_length == width
    write(tmp_path, {"repro-lint.toml": "select = ['RPL302']\n"})
    assert load_settings(start=tmp_path).line_length == width


def test_a_fix_keeps_within_the_line_length_of_ruff_toml(tmp_path):
    from conftest import run_cli

    call = "DataLoader(list(range(12)), batch_size=4, shuffle=True)"
    write(tmp_path, {"ruff.toml": "line-length = 100\n", "train.py": loader_script(3, False, call)})
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "train.py"], tmp_path)
    text = (tmp_path / "train.py").read_text()
    assert "    loader = DataLoader(list(range(12)), batch_size=4, shuffle=True, generator=make_generator())\n" in text, text
    assert ruff_e501(tmp_path, "train.py", 100) == []


def test_a_repro_lint_toml_takes_the_line_length_of_the_pyproject_beside_it(tmp_path):
    from repro_lint.config import load_settings

    write(tmp_path, {"repro-lint.toml": "select = ['RPL302']\n", "pyproject.toml": "[tool.ruff]\nline-length = 99\n"})
    assert load_settings(start=tmp_path).line_length == 99
    write(tmp_path, {"repro-lint.toml": "line-length = 90\n"})
    assert load_settings(start=tmp_path).line_length == 90


NESTED_SAMPLER = """\
import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler


def test_reproducible_batch_sampler():
    data = torch.rand(64, 4, 10)
    data_loader = DataLoader(
        data, batch_size=None, sampler=BatchSampler({inner}, batch_size=8, drop_last=True)
    )
    return data_loader
"""


def test_a_keyword_for_a_call_inside_another_call_wraps_only_when_the_lines_fit(tmp_path):
    """ignite's test_deterministic.py: the sampler built inside a BatchSampler(...) whose
    arguments go on after it. A continuation line under ``data`` would carry the outer call's
    ``batch_size=8, drop_last=True)`` too, and be longer than the line it replaced: it is used
    only when it fits the width (100 here), else the keyword stays on the call's line."""
    from conftest import run_cli

    write(tmp_path, {"t.py": NESTED_SAMPLER.format(inner="RandomSampler(data)")})
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "--select", "RPL302", "t.py"], tmp_path)
    text = (tmp_path / "t.py").read_text()
    assert (
        "        data, batch_size=None, sampler=BatchSampler(RandomSampler(data, "
        "generator=torch.Generator().manual_seed(torch.initial_seed())), batch_size=8, drop_last=True)\n"
        "    )\n"
    ) in text, text

    # where the continuation line fits the width (the project's 120), it goes under the first argument
    # (in a function of a module of a package: a file outside one whose top level builds a
    # shuffling sampler is a script, whose fix seeds from the setup block instead, and a sampler
    # a module of a package builds at its top level, as it is imported, gets no fix)
    write(tmp_path, {
        "pyproject.toml": "[tool.ruff]\nline-length = 120\n",
        "__init__.py": "",
        "t.py": "import torch\nfrom torch.utils.data import BatchSampler, RandomSampler\n\n\ndef make():\n"
                "    samples = list(range(64))\n"
                "    return BatchSampler(RandomSampler(samples_of_the_first_sixty_four_numbers), 8, False)\n",
    })
    assert ruff_e501(tmp_path, "t.py", 120) == []
    run_cli(["--fix", "--unsafe-fixes", "--no-cache", "--select", "RPL302", "t.py"], tmp_path)
    text = (tmp_path / "t.py").read_text()
    assert (
        "    return BatchSampler(RandomSampler(samples_of_the_first_sixty_four_numbers,\n"
        "                                      generator=torch.Generator().manual_seed(torch.initial_seed())), 8, False)\n"
    ) in text, text
    assert ruff_e501(tmp_path, "t.py", 120) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fix_reports_what_the_next_run_reports_when_another_file_s_fix_settles_a_finding(tmp_path, jobs):
    """The fix of the entry point turns deterministic algorithms on, which leaves nothing of the
    RPL401 finding in the module it runs. Each file is fixed against the others' old texts, so
    that finding was found before the entry point's fix: ``--fix`` lints it again against the
    written text, reports what a run after it reports, and exits 0 when nothing is left."""
    from conftest import run_cli

    model = "import torch\n\n\ndef scatter(x, idx):\n    return torch.zeros(4).cuda().scatter_add_(0, idx, x)\n"
    write(tmp_path, {
        "pyproject.toml": '[tool.repro-lint]\nfix-style = "inline"\n',
        "model.py": model,
        "train.py": (
            "import torch\nfrom model import scatter\n\n\ndef main():\n    torch.manual_seed(0)\n"
            "    return scatter(torch.ones(4).cuda(), torch.tensor([0, 1, 0, 1]).cuda())\n\n\n"
            "if __name__ == \"__main__\":\n    main()\n"
        ),
    })
    before = run_cli(["--no-cache", "--output-format", "concise", "."], tmp_path)
    assert sorted(line.split(" ")[1] for line in before.stdout.splitlines() if "RPL" in line) == ["RPL202", "RPL401"], before.stdout
    done = run_cli(["--fix", "--no-cache", "--jobs", jobs, "--output-format", "concise", "."], tmp_path)
    after = run_cli(["--no-cache", "--output-format", "concise", "."], tmp_path)
    assert "use_deterministic_algorithms(True)" in (tmp_path / "train.py").read_text()
    assert (tmp_path / "model.py").read_text() == model  # not fixed, not written
    findings = [[line for line in out.stdout.splitlines() if " RPL" in line] for out in (done, after)]
    assert findings == [[], []], (done.stdout, after.stdout)
    assert "Fixed 1 error." in done.stdout
    assert (done.returncode, after.returncode) == (0, 0), done.stdout + done.stderr


def test_stale_results_follow_a_dependency_on_a_written_file_as_a_member_of_the_run(tmp_path: Path):
    """A file's findings may depend on another file as one of the run's (whether a module is
    imported: ``member:PATH``); when --fix writes that file, the findings are stale too, as for a
    plain dependency on it or on every file. A file that reports nothing, or depends on no
    written file, is not."""
    from repro_lint.cache import ALL_FILES_KEY, MEMBER_KEY_PREFIX
    from repro_lint.diagnostics import Diagnostic
    from repro_lint.fixer import FileFix, FixRun, stale_results
    from repro_lint.linter import FileResult

    written = tmp_path / "main.py"
    other = str(tmp_path / "other.py")

    def item(depends_on, reports: bool = True) -> FileFix:
        found = [Diagnostic("RPL103", "m", "x.py", (1, 0), (1, 1))] if reports else []
        return FileFix("x.py", FileResult("x.py", found, depends_on=tuple(depends_on)))

    run = FixRun([
        item([MEMBER_KEY_PREFIX + os.path.abspath(written)]),
        item([os.path.abspath(written)]),
        item([ALL_FILES_KEY]),
        item([MEMBER_KEY_PREFIX + other, other]),
        item([MEMBER_KEY_PREFIX + os.path.abspath(written)], reports=False),
    ])
    assert stale_results(run, [written]) == [0, 1, 2]
    assert stale_results(run, []) == []
