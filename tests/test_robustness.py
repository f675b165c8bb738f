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
        lines.append("    " * depth + "if x:")
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
@pytest.mark.parametrize("fmt", ["text", "concise", "full", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8_in_every_output_format(tmp_path: Path, fmt):
    (tmp_path / os.fsdecode(LATIN1_NAME)).write_text(HAZARD)
    proc = subprocess.run(
        [sys.executable, "-m", "repro_lint", ".", "--output-format", fmt, "--no-cache", "-q"],
        cwd=str(tmp_path), capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120, check=False,
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
