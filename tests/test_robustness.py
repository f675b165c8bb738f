"""Bad input of every kind gets a clear RPL001 line and the run goes on; nothing hangs,
nothing crashes, nothing of the user's code is ever executed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest

from conftest import REPO, codes, lint_files_in, run_cli, write
from repro_lint.config import Settings
from repro_lint.engine import Linter

HAZARD = "import torch\ntorch.backends.cudnn.benchmark = True\n"


def lint_tree(root: Path):
    files = sorted(p for p in root.rglob("*.py"))
    return {(p.relative_to(root).as_posix() if (p := Path(d.path)).is_absolute() else d.path, d.code) for d in lint_files_in(files, root)}


def one(tmp_path: Path, name: str, content) -> list:
    write(tmp_path, {name: content})
    return lint_files_in([tmp_path / name], tmp_path)


@pytest.mark.parametrize(
    "content,where",
    [
        ("def train(:\n    pass\n", 1),
        ("print 'python 2'\n", 1),
        ("exec 'x = 1'\n", 1),
        ("import torch\nx = [1, 2\n", 2),
        ("if True:\n  x = 1\n    y = 2\n", 3),
        ("x = 1\n\tif x:\n", 2),
    ],
)
def test_syntax_errors_give_rpl001_with_a_line(tmp_path: Path, content, where):
    (diag,) = one(tmp_path, "bad.py", content)
    assert diag.code == "RPL001" and diag.line == where and diag.message.startswith("cannot parse")


def test_undecodable_and_binary_files(tmp_path: Path):
    (diag,) = one(tmp_path, "a.py", b"import torch\nname = '\xff\xfe'\n")
    assert diag.code == "RPL001" and diag.line == 2 and "cannot decode as utf-8" in diag.message
    (diag,) = one(tmp_path, "b.py", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    assert diag.code == "RPL001" and "binary file" in diag.message
    (diag,) = one(tmp_path, "c.py", b"# -*- coding: klingon -*-\nx = 1\n")
    assert diag.code == "RPL001" and "klingon" in diag.message


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\n\n\n",
        b"# only a comment",
        b"\xef\xbb\xbf" + HAZARD.encode(),
        HAZARD.replace("\n", "\r\n").encode(),
        b"import torch\r\nx = 1\ntorch.backends.cudnn.benchmark = True\r\n",  # mixed endings
        b"import torch\rtorch.backends.cudnn.benchmark = True\r",  # old Mac endings
        "# -*- coding: latin-1 -*-\nimport torch\nname = 'd\xe9j\xe0 vu'\ntorch.backends.cudnn.benchmark = True\n".encode("latin-1"),
        b"import torch\nif True:\n\ttorch.backends.cudnn.benchmark = True\n",  # tabs
        HAZARD.encode()[:-1],  # no final newline
    ],
)
def test_unusual_but_valid_files_are_linted(tmp_path: Path, content):
    found = codes(one(tmp_path, "odd.py", content))
    assert "RPL001" not in found
    assert found == (["RPL201"] if b"benchmark" in content else [])


def test_finding_positions_survive_crlf_and_a_bom(tmp_path: Path):
    (diag,) = one(tmp_path, "a.py", b"\xef\xbb\xbfimport torch\r\n\r\ntorch.backends.cudnn.benchmark = True\r\n")
    assert (diag.line, diag.col) == (3, 0)


def test_very_long_lines_and_deep_nesting(tmp_path: Path):
    long_line = "x = [" + ", ".join(str(i) for i in range(30000)) + "]\n"
    assert codes(one(tmp_path, "long.py", HAZARD + long_line)) == ["RPL201"]
    deep = HAZARD + "y = " + "[" * 90 + "]" * 90 + "\n"
    assert codes(one(tmp_path, "deep.py", deep)) == ["RPL201"]
    # deeper than CPython accepts: a clear RPL001, not a crash
    deeper = HAZARD + "y = " + "(" * 1000 + "1" + ")" * 1000 + "\n"
    assert set(codes(one(tmp_path, "deeper.py", deeper))) <= {"RPL001", "RPL201"}


def test_deeply_nested_blocks(tmp_path: Path):
    lines = ["import torch"]
    for depth in range(60):
        lines.append("    " * depth + "if torch.cuda.is_available():")  # (``if x:`` reads a setting)
    lines.append("    " * 60 + "torch.backends.cudnn.benchmark = True")
    assert codes(one(tmp_path, "blocks.py", "\n".join(lines) + "\n")) == ["RPL201"]


def test_a_huge_generated_file_is_reported_not_parsed(tmp_path: Path):
    body = "".join(f"w_{i} = torch.tensor([{i}.0, {i}.5])  # generated\n" for i in range(400_000))
    path = tmp_path / "generated.py"
    path.write_text("import torch\n" + body + "torch.backends.cudnn.benchmark = True\n")
    assert path.stat().st_size > 10 * 2**20
    (diag,) = lint_files_in([path], tmp_path)
    assert diag.code == "RPL001" and "larger than max-file-size" in diag.message
    # a huge file that no rule can fire on is neither parsed nor reported
    quiet = tmp_path / "data.py"
    quiet.write_text("".join(f"w_{i} = [{i}, {i + 1}]\n" for i in range(600_000)))
    assert quiet.stat().st_size > 2 * 2**20
    assert lint_files_in([quiet], tmp_path) == []
    # and the limit is configurable
    small = tmp_path / "small.py"
    small.write_text(HAZARD)
    assert codes(lint_files_in([small], tmp_path, max_file_size=10)) == ["RPL001"]


def test_a_folder_named_like_a_python_file(tmp_path: Path):
    write(tmp_path, {"pkg.py/inner.py": HAZARD})
    proc = run_cli([".", "--quiet"], tmp_path)
    assert proc.returncode == 1 and proc.stdout.splitlines() == [
        "pkg.py/inner.py:2:1: RPL201 " + proc.stdout.split(" RPL201 ", 1)[1].splitlines()[0]
    ]
    proc = run_cli(["pkg.py", "--quiet"], tmp_path)
    assert proc.returncode == 1 and proc.stdout.startswith("pkg.py/inner.py:2:1: RPL201")


def test_a_file_that_vanishes_or_cannot_be_read(tmp_path: Path):
    linter = Linter(Settings(root=tmp_path))
    result = linter.lint_path(tmp_path / "gone.py")
    (diag,) = result.diagnostics
    assert diag.code == "RPL001" and "No such file" in diag.message
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.py"
        os.mkfifo(fifo)
        (diag,) = linter.lint_path(fifo).diagnostics  # must not block on open()
        assert diag.code == "RPL001" and "not a regular file" in diag.message
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.py"
        locked.write_text(HAZARD)
        locked.chmod(0)
        (diag,) = linter.lint_path(locked).diagnostics
        assert diag.code == "RPL001" and "Permission denied" in diag.message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_loops_and_links_out_of_the_tree(tmp_path: Path):
    outside = tmp_path / "outside"
    tree = tmp_path / "tree"
    write(tmp_path, {"outside/secret.py": HAZARD, "tree/train.py": HAZARD})
    os.symlink(tree, tree / "loop")  # a folder loop
    os.symlink(outside / "secret.py", tree / "linked.py")  # a file out of the tree
    os.symlink(tree / "self.py", tree / "self.py")  # a link to itself
    proc = run_cli([".", "--quiet"], tree)
    assert proc.returncode == 1, proc.stderr
    assert [line.split(":")[0] for line in proc.stdout.splitlines()] == ["train.py"]
    # named explicitly, a broken self-link is a clear RPL001
    proc = run_cli(["self.py"], tree)
    assert proc.returncode == 1 and "RPL001" in proc.stdout and "symbolic links" in proc.stdout


def test_a_tree_of_broken_and_good_files_reports_all_and_exits_1(tmp_path: Path):
    write(
        tmp_path,
        {
            "good.py": HAZARD,
            "syntax.py": "def f(:\n",
            "binary.py": b"\x00\x01\x02",
            "latin.py": b"x = '\xe9'\n",
            "empty.py": "",
        },
    )
    proc = run_cli([".", "--quiet"], tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    found = sorted((line.split(":")[0], line.split()[1]) for line in proc.stdout.splitlines())
    assert found == [("binary.py", "RPL001"), ("good.py", "RPL201"), ("latin.py", "RPL001"), ("syntax.py", "RPL001")]


def test_an_internal_error_names_rule_file_and_exception_and_exits_2(tmp_path: Path, capsys, monkeypatch):
    import libcst as cst

    from repro_lint import cli
    from repro_lint.rules.base import RULES, Rule

    class Exploding(Rule):
        code = "RPL998"
        name = "exploding"
        message = "never"
        triggers = ("torch",)

        def visit_Call(self, node: cst.Call) -> None:
            raise KeyError("surprise")

    try:
        write(tmp_path, {"a.py": HAZARD + "torch.manual_seed(0)\n"})
        monkeypatch.chdir(tmp_path)
        status = cli.main([".", "--extend-select", "RPL998", "--jobs", "1"])
        out, err = capsys.readouterr()
    finally:
        del RULES["RPL998"]
    assert status == 2
    assert "a.py:2:1: RPL201" in out  # the other rules' findings still appear
    assert "a.py: internal error in RPL998: KeyError: 'surprise'" in err
    assert "Traceback" not in err


def test_linting_never_executes_or_imports_the_code(tmp_path: Path):
    marker = tmp_path / "MARKER"
    payload = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\nimport torch\ntorch.backends.cudnn.benchmark = True\n"
    write(
        tmp_path,
        {
            "evil.py": payload,
            "__main__.py": payload,
            "pkg/__init__.py": payload,
            "train.py": "from pkg import evil\nimport evil\nif __name__ == '__main__':\n    evil.run()\n",
            "pyproject.toml": "[tool.repro-lint]\nentry-points = ['*.py']\n",
        },
    )
    proc = run_cli([".", "--select", "ALL"], tmp_path)
    assert proc.returncode == 1 and "RPL201" in proc.stdout
    assert not marker.exists()


def test_a_nonexistent_path_names_the_path(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    proc = run_cli(["a.py", "no/such/dir"], tmp_path)
    assert proc.returncode == 2 and "no/such/dir: no such file or directory" in proc.stderr


def test_the_users_syntax_warnings_are_not_printed(tmp_path: Path):
    # the parser warns about invalid escape sequences (DeprecationWarning in 3.11, SyntaxWarning later)
    write(tmp_path, {"w.py": "import re\npattern = re.compile('\\d+\\.')\nif __name__ == '__main__':\n    print(pattern)\n"})
    assert "'\\d+" in (tmp_path / "w.py").read_text()
    proc = run_cli([".", "--select", "ALL"], tmp_path, env={"PYTHONWARNINGS": "default"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Warning" not in proc.stderr, proc.stderr


# -- file names that are not UTF-8 ---------------------------------------------------------------

LATIN1_NAME = b"caf\xe9_train.py"


@pytest.mark.skipif(sys.platform != "linux", reason="Linux file names are bytes")
@pytest.mark.parametrize("fmt", ["text", "concise", "full", "json", "sarif", "github", "diff"])
def test_a_file_name_that_is_not_utf8_in_every_output_format(tmp_path: Path, fmt):
    (tmp_path / os.fsdecode(LATIN1_NAME)).write_text(HAZARD)
    output = ["--diff"] if fmt == "diff" else ["--output-format", fmt]
    proc = subprocess.run(
        [sys.executable, "-m", "repro_lint", ".", *output, "--no-cache", "-q"],
        cwd=str(tmp_path), capture_output=True, timeout=120, check=False,
        # a strict stdout, as in a UTF-8 locale other than C.UTF-8
        env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.decode("utf-8")  # valid UTF-8, whatever the locale
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
    if fmt == "json":
        (entry,) = json.loads(out)
        assert os.path.basename(entry["filename"]) == "caf\ufffd_train.py"
    elif fmt == "sarif":
        (result,) = json.loads(out)["runs"][0]["results"]
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uri"] == "caf%E9_train.py"  # RFC 3986: the name's bytes, percent-encoded
        assert unquote_to_bytes(location["uri"]) == LATIN1_NAME
    elif fmt == "github":
        assert out.startswith("::warning file=caf\ufffd_train.py,line=2,")
    elif fmt == "diff":
        assert out.startswith("--- caf\ufffd_train.py\n+++ caf\ufffd_train.py\n")
    else:
        assert out.startswith("caf\ufffd_train.py:2:1: RPL201")


# -- --fix where a file cannot be written --------------------------------------------------------


def test_fix_in_a_read_only_folder_leaves_that_file_and_fixes_the_others(tmp_path: Path, monkeypatch, capsys):
    from repro_lint import cli

    write(tmp_path, {"locked/a.py": HAZARD, "open/b.py": HAZARD})
    locked = tmp_path / "locked"
    if os.geteuid() == 0:
        # root writes into a read-only folder anyway: make creating the temporary file there
        # fail as it fails for anyone else (EACCES)
        import tempfile

        real_mkstemp = tempfile.mkstemp

        def mkstemp(*args, **kwargs):
            if Path(kwargs.get("dir", "")).resolve() == locked.resolve():
                raise PermissionError(13, "Permission denied")
            return real_mkstemp(*args, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    locked.chmod(0o555)
    try:
        monkeypatch.chdir(tmp_path)
        status = cli.main([".", "--fix", "--jobs", "1", "--no-cache", "-q"])
        out, err = capsys.readouterr()
    finally:
        locked.chmod(0o755)
    assert status == 1, err
    assert "locked/a.py: cannot write (permission denied); left unchanged" in err
    assert "internal error" not in err
    assert (locked / "a.py").read_text() == HAZARD
    assert "benchmark = False" in (tmp_path / "open" / "b.py").read_text()
    assert out.splitlines() == ["locked/a.py:2:1: RPL201 " + out.split(" RPL201 ", 1)[1].splitlines()[0]]
    assert sorted(p.name for p in locked.iterdir()) == ["a.py"]  # no temporary file left


def test_a_pyproject_that_is_not_utf8_is_a_configuration_error(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD, "pyproject.toml": b"[tool.repro-lint]\nselect = ['RPL\xff']\n"})
    proc = run_cli(["."], tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "pyproject.toml: invalid TOML: not UTF-8" in proc.stderr and "internal error" not in proc.stderr


def test_fix_leaves_a_file_that_changed_after_the_fix_was_planned(tmp_path: Path, monkeypatch, capsys):
    from repro_lint import cli, fixer

    write(tmp_path, {"a.py": HAZARD, "b.py": HAZARD})
    theirs = "import torch\ntorch.backends.cudnn.benchmark = True  # edited meanwhile\n"
    planned = fixer.fix_source

    def fix_source_then_someone_writes(linter, path, source, **kwargs):
        outcome = planned(linter, path, source, **kwargs)
        if path == "a.py":  # another program writes the file between planning and writing
            (tmp_path / "a.py").write_text(theirs)
        return outcome

    monkeypatch.setattr(fixer, "fix_source", fix_source_then_someone_writes)
    monkeypatch.chdir(tmp_path)
    status = cli.main([".", "--fix", "--jobs", "1", "-q"])
    out, err = capsys.readouterr()
    assert status == 1
    assert "a.py: changed while it was being fixed (another program wrote it); left as it now is" in err
    assert (tmp_path / "a.py").read_text() == theirs  # neither overwritten nor mixed
    assert (tmp_path / "b.py").read_text() == HAZARD.replace("True", "False")
    assert out.startswith("a.py:2:1: RPL201")


# -- patterns that would make matching take hours ------------------------------------------------


def test_runs_of_stars_are_collapsed_as_git_reads_them():
    from repro_lint.discovery import bounded_pattern

    assert bounded_pattern("*" * 30 + "x") == ("*x", 1)
    assert bounded_pattern("*" * 30) == ("**", 1)  # a whole segment of stars: git's **
    assert bounded_pattern("a/***/b") == ("a/**/b", 1)
    assert bounded_pattern("!a**b.py") == ("!a*b.py", 1)
    assert bounded_pattern("\\*\\*\\*.py") == ("\\*\\*\\*.py", 0)  # escaped: literal stars
    assert bounded_pattern("build/") == ("build/", 0)
    assert bounded_pattern("**/x/*.py") == ("**/x/*.py", 2)


def test_a_pathological_gitignore_line_is_matched_in_bounded_time(tmp_path: Path):
    long_name = "a" * 200 + ".py"
    write(tmp_path, {"kept.py": HAZARD, "skipx.py": HAZARD, f"deep/{long_name}": HAZARD, "other.py": HAZARD})
    (tmp_path / ".gitignore").write_text("*" * 30 + "x.py\n" + "*a*a*a*a*a*a*b\n" + "other.py\n")
    proc = run_cli([".", "--quiet", "--no-cache"], tmp_path, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert sorted(line.split(":")[0] for line in proc.stdout.splitlines()) == [f"deep/{long_name}", "kept.py"]
    assert ".gitignore:2: pattern '*a*a*a*a*a*a*b' skipped: it has 7 '*' wildcards" in proc.stderr
    # a line of stars alone is git's **: it ignores everything below
    (tmp_path / ".gitignore").write_text("*" * 30 + "\n")
    proc = run_cli([".", "--quiet", "--no-cache"], tmp_path, timeout=60)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr


def test_an_excluded_or_per_file_pattern_with_too_many_wildcards_is_skipped(tmp_path: Path):
    write(
        tmp_path,
        {
            "a" * 200 + ".py": HAZARD,
            "pyproject.toml": "[tool.repro-lint]\nexclude = ['*a*a*a*a*a*b']\n"
            "[tool.repro-lint.per-file-ignores]\n'*a*a*a*a*a*c' = ['RPL201']\n",
        },
    )
    proc = run_cli([".", "--quiet", "--no-cache"], tmp_path, timeout=60)
    assert proc.returncode == 1 and "RPL201" in proc.stdout
    assert "exclude:1: pattern '*a*a*a*a*a*b' skipped" in proc.stderr
    assert "per-file-ignores:1: pattern '*a*a*a*a*a*c' skipped" in proc.stderr


# -- deep nesting: a bounded time, RPL001 beyond the limit ---------------------------------------

DEEP = {
    "parens.py": "y = " + "(" * 500 + "1" + ")" * 500,
    "chain.py": "y = " + " + ".join(["x"] * 5000),
    "nested_sums.py": "y = " + "(x + " * 500 + "1" + ")" * 500,
    "ternaries.py": "y = " + "a if b else " * 2000 + "c",
    "multiline_chain.py": "y = (x\n" + "    + x\n" * 3000 + ")",
}


@pytest.mark.parametrize("fix", [False, True], ids=["lint", "fix"])
def test_deeply_nested_code_is_reported_in_bounded_time(tmp_path: Path, fix):
    import time

    write(tmp_path, {name: HAZARD + body + "\n" for name, body in DEEP.items()})
    started = time.monotonic()
    proc = run_cli([".", "--quiet", "--no-cache", *(["--fix"] if fix else [])], tmp_path, timeout=120)
    elapsed = time.monotonic() - started
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    for name, body in DEEP.items():
        (line,) = [line for line in lines if line.startswith(name + ":")]
        assert " RPL001 " in line and "too deeply to analyse (limit 300" in line, line
        assert (tmp_path / name).read_text() == HAZARD + body + "\n"  # reported, never changed
    assert elapsed < 60, elapsed  # each file takes a fraction of a second (minutes before the limit)


def test_nesting_below_the_limit_is_analysed_and_fixed(tmp_path: Path):
    from repro_lint.parse import MAX_DEPTH

    bodies = {
        "sum.py": "y = " + " + ".join(["x"] * (MAX_DEPTH - 10)),
        "subscripts.py": "y = " + "x[" * 199 + "1" + "]" * 199,  # CPython's own limit: 200 brackets
        "strings.py": "y = (" + " ".join(['"a"'] * 3000) + ")",  # one level in ast, 3,000 in LibCST
        "table.py": "y = [" + ", ".join(f"-{i}.5" for i in range(20000)) + "]",
    }
    write(tmp_path, {name: HAZARD + body + "\n" for name, body in bodies.items()})
    proc = run_cli([".", "--quiet", "--no-cache", "--fix"], tmp_path, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr
    for name, body in bodies.items():
        assert (tmp_path / name).read_text() == HAZARD.replace("True", "False") + body + "\n"


@pytest.mark.parametrize(
    "body",
    [
        "f(a=g(b=[x for x in y if z]))[0].c(d)",
        "lambda a, b=1: lambda c, *d: a if b else c or not d",
        "{k: v for k, v in x.items()}[a:b, ::2]",
        "x" + "[1]" * 50 + ".y" * 50 + "()" * 50,
        "await f(*a, **k) ** -x @ y",
        "(yield (a, (b, (c, [d, {e: (f,)}]))))",
        "'a' 'b' f'{c}' + r'\\d' + b'x'.decode()",
        "a < b <= c == d != e in f not in g is h is not i",
        " and ".join(["x"] * 40) + " or " + " or ".join(["not y"] * 40),
    ],
)
def test_the_depth_bound_is_an_upper_bound_of_the_real_depth(body):
    import ast

    from repro_lint.parse import _ast_depth, _depth_bound

    text = f"def g():\n    y = {body}\n"
    start = text.index("y =")
    assert _depth_bound(text, start, len(text)) + 2 >= _ast_depth(ast.parse(text).body[0].body[0])


# -- workers never outlive the run ----------------------------------------------------------------


def _live_children(pid: int) -> list:
    """The processes whose parent is ``pid`` and that have not ended (zombies excluded), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table from /proc")
@pytest.mark.parametrize("fix", [False, True], ids=["lint", "fix"])
def test_workers_exit_when_the_main_process_is_killed(tmp_path: Path, fix):
    import signal
    import time

    body = "".join(f"def f{i}(x):\n    return torch.relu(x * {i}) + {i % 7}\n" for i in range(800))
    write(tmp_path, {f"pkg/m{n}.py": HAZARD + body for n in range(80)})  # several seconds of work
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.py")}
    args = [".", "--jobs", "2", "--no-cache", *(["--fix"] if fix else [])]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "repro_lint", *args], cwd=str(tmp_path), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: list = []
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            workers = _live_children(proc.pid)
        assert len(workers) == 2, "the run never started its workers"
        time.sleep(0.5)  # let them work
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived the main process"
    finally:
        for pid in _live_children(proc.pid) if proc.poll() is None else []:
            os.kill(pid, signal.SIGKILL)
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]  # no temporary file left
    for path, old in before.items():  # every file old or fixed, never cut
        new = path.read_bytes()
        assert new == old or new == old.replace(b"benchmark = True", b"benchmark = False"), path


# -- pipes where a file is expected ---------------------------------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


@needs_fifo
def test_a_gitignore_that_is_a_pipe_is_never_opened(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    os.mkfifo(tmp_path / ".gitignore")
    proc = run_cli([".", "--quiet", "--no-cache"], tmp_path, timeout=60)
    assert proc.returncode == 1 and proc.stdout.startswith("a.py:2:1: RPL201")
    assert ".gitignore: not a regular file (a pipe, socket or device): not read; its patterns are not applied" in proc.stderr


@needs_fifo
def test_a_configuration_file_that_is_a_pipe_is_a_configuration_error(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD})
    os.mkfifo(tmp_path / "pyproject.toml")
    for args in ([".", "--no-cache"], [".", "--no-cache", "--config", "pyproject.toml"]):
        proc = run_cli(args, tmp_path, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert "pyproject.toml: not a regular file (a pipe, socket or device): not read" in proc.stderr


@needs_fifo
def test_python_files_that_are_pipes_on_every_path(tmp_path: Path):
    write(tmp_path, {"a.py": HAZARD, "pyproject.toml": "[tool.repro-lint]\nentry-points = ['pkg/*.py']\n"})
    (tmp_path / "pkg").mkdir()
    os.mkfifo(tmp_path / "pkg" / "pipe.py")
    for args in (["."], ["pkg"], ["pkg/pipe.py", "a.py"], [".", "--fix"], [".", "--select", "ALL", "--jobs", "2"]):
        proc = run_cli([*args, "--quiet", "--no-cache"], tmp_path, timeout=60)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert "pkg/pipe.py:1:1: RPL001 not a regular file (a pipe, socket or device): not read" in proc.stdout, args


@needs_fifo
def test_a_cache_dependency_that_became_a_pipe(tmp_path: Path):
    write(
        tmp_path,
        {
            "train.py": "import torch\nfrom helper import seed_all\n\ndef main():\n    seed_all(0)\n"
            "    loader = torch.utils.data.DataLoader([1, 2], shuffle=True)\n\n"
            "if __name__ == '__main__':\n    main()\n",
            "helper.py": "import random\nimport torch\n\ndef seed_all(s):\n    random.seed(s)\n    torch.manual_seed(s)\n",
        },
    )
    (tmp_path / ".git").mkdir()
    assert run_cli(["."], tmp_path, timeout=60).returncode == 1
    (cache,) = (tmp_path / ".repro_lint_cache").glob("results-*.json")
    assert "helper.py" in cache.read_text()  # train.py's findings depend on helper.py
    (tmp_path / "helper.py").unlink()
    os.mkfifo(tmp_path / "helper.py")
    for args in (["."], ["train.py"]):
        proc = run_cli([*args, "--quiet"], tmp_path, timeout=60)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "train.py:6:14: RPL302" in proc.stdout


def test_a_worker_that_must_leave_removes_the_temporary_file_of_its_write(tmp_path: Path, monkeypatch):
    from repro_lint import source

    target = tmp_path / "a.py"
    target.write_text("old\n")
    during = []

    def fsync(fd):  # the parent dies while the new bytes are being flushed
        during.append(sorted(p.name for p in tmp_path.iterdir()))
        source.remove_temporaries()  # what the worker does before it exits
        during.append(sorted(p.name for p in tmp_path.iterdir()))
        raise SystemExit(1)

    monkeypatch.setattr(source.os, "fsync", fsync)
    with pytest.raises(SystemExit):
        source.write_atomic(target, b"new\n")
    assert len(during[0]) == 2 and during[1] == ["a.py"]
    assert target.read_text() == "old\n"


def test_indentation_that_only_libcst_rejects_is_linted_as_cpython_reads_it(tmp_path: Path, monkeypatch):
    """Seven spaces, a tab and four spaces are column 12 for CPython (with a tab of 8 columns or
    of 1); LibCST's tokenizer rejects the line. The file is linted as CPython reads it: its
    findings are reported (columns of the expanded text), without fixes, and ``--fix`` leaves it
    as it is."""
    from repro_lint import cli

    source = (
        "import torch\n\n\n"
        "def pick(kind):\n"
        "    if kind == 'a':\n"
        "        return 1\n"
        "    else:\n"
        "   \t    return 2\n\n\n"
        "if __name__ == '__main__':\n"
        "    torch.backends.cudnn.benchmark = True\n"
        "    s = '''\tkept\n\tas written'''\n"
    )
    compile(source, "mixed.py", "exec")
    found = one(tmp_path, "mixed.py", source)
    assert [(d.code, d.line) for d in found] == [("RPL201", 12)]
    assert all(d.fix is None for d in found)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["mixed.py", "--fix", "--jobs", "1", "--no-cache", "-q"]) == 1
    assert (tmp_path / "mixed.py").read_text(encoding="utf-8") == source


def test_with_tabs_expanded_changes_only_the_indentation_of_statements():
    from repro_lint.source import with_tabs_expanded

    assert with_tabs_expanded("x = 1\n") is None  # no tab
    assert with_tabs_expanded("if x:\n\ty = '\t'\n") == "if x:\n        y = '\t'\n"
    assert with_tabs_expanded("s = '''\n\tin a string'''\n") is None  # not indentation
    assert with_tabs_expanded("def f(:\n\tpass\n") is None  # CPython rejects it too
