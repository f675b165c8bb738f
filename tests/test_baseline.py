"""--add-noqa (a baseline for an existing code base) and RPL002 (noqa comments that no longer
suppress anything)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from conftest import codes, run_cli, write
from repro_lint.baseline import add_noqa_to_text
from repro_lint.diagnostics import Diagnostic

BENCH = "from torch.backends import cudnn\n"


def test_add_noqa_then_the_next_run_is_clean(tmp_path: Path):
    write(
        tmp_path,
        {
            "train.py": """\
                import torch
                from torch.backends import cudnn
                cudnn.benchmark = True
                cudnn.benchmark = True  # noqa: E501
                cudnn.benchmark = True  # fast convolutions
                cudnn.deterministc = True; cudnn.benchmark = True
                cudnn.benchmark = True    \n""",
            "clean.py": "import torch\n",
        },
    )
    before = (tmp_path / "clean.py").stat().st_mtime_ns
    proc = run_cli(["--add-noqa", "."], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "Added 5 noqa directives in 1 file."
    assert (tmp_path / "train.py").read_text(encoding="utf-8") == textwrap.dedent(
        """\
        import torch
        from torch.backends import cudnn
        cudnn.benchmark = True  # noqa: RPL201
        cudnn.benchmark = True  # noqa: E501, RPL201
        cudnn.benchmark = True  # fast convolutions  # noqa: RPL201
        cudnn.deterministc = True; cudnn.benchmark = True  # noqa: RPL201, RPL205
        cudnn.benchmark = True  # noqa: RPL201
        """
    )
    assert (tmp_path / "clean.py").stat().st_mtime_ns == before  # files without findings are not rewritten
    again = run_cli(["."], tmp_path)
    assert again.returncode == 0 and "All checks passed!" in again.stdout
    # nothing left to add; every new comment is used, so RPL002 has nothing to say either
    second = run_cli(["--add-noqa", "."], tmp_path)
    assert second.returncode == 0 and "Added 0 noqa directives." in second.stdout
    assert run_cli(["--extend-select", "RPL002", "."], tmp_path).returncode == 0


def test_add_noqa_keeps_encoding_bom_and_line_endings(tmp_path: Path):
    latin = "# -*- coding: latin-1 -*-\nfrom torch.backends import cudnn\ns = 'café'\r\ncudnn.benchmark = True\r\n"
    (tmp_path / "latin.py").write_bytes(latin.encode("latin-1"))
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + (BENCH + "cudnn.benchmark = True\n").replace("\n", "\r\n").encode())
    proc = run_cli(["--add-noqa", "."], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "latin.py").read_bytes() == latin.replace(
        "cudnn.benchmark = True\r\n", "cudnn.benchmark = True  # noqa: RPL201\r\n"
    ).encode("latin-1")
    assert (tmp_path / "bom.py").read_bytes() == b"\xef\xbb\xbf" + (
        BENCH + "cudnn.benchmark = True  # noqa: RPL201\n"
    ).replace("\n", "\r\n").encode()
    assert run_cli(["."], tmp_path).returncode == 0


def test_lines_that_cannot_end_with_a_comment_are_listed_not_broken(tmp_path: Path):
    source = (
        BENCH
        + 's = "a"; cudnn.benchmark = True; t = """first\nsecond"""\n'
        + "cudnn.benchmark = True; x = 1 + \\\n    2\n"
        + "cudnn.benchmark = True\n"
    )
    write(tmp_path, {"t.py": source})
    proc = run_cli(["--add-noqa", "t.py"], tmp_path)
    assert proc.returncode == 1  # some findings could not be baselined
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("t.py:2:10: RPL201 not baselined: the line ends inside a multi-line string")
    assert lines[1].startswith("t.py:4:1: RPL201 not baselined: the line ends with a backslash continuation")
    assert lines[2] == "Added 1 noqa directive in 1 file."
    text = (tmp_path / "t.py").read_text(encoding="utf-8")
    assert text == source.replace("cudnn.benchmark = True\n", "cudnn.benchmark = True  # noqa: RPL201\n")
    ast.parse(text)
    # the string's content is untouched, and the two lines are still reported
    assert [d["location"]["row"] for d in __import__("json").loads(run_cli(["--output-format", "json", "t.py"], tmp_path).stdout)] == [2, 4]


def test_unreadable_files_and_stale_comments_are_never_baselined():
    text = BENCH + "x = (\n"
    diags = [Diagnostic("RPL001", "cannot parse", "b.py", (2, 5), (2, 5), None, 2)]
    new, added, skipped = add_noqa_to_text(text, diags)
    assert (new, added) == (text, 0)
    assert [s.reason for s in skipped] == ["the file must be made readable"]


def test_an_existing_code_list_is_extended_not_duplicated():
    text = BENCH + "cudnn.benchmark = True  # noqa:E501,RPL2 keep\n"
    diags = [
        Diagnostic("RPL201", "m", "t.py", (2, 0), (2, 15), None, 2),
        Diagnostic("RPL501", "m", "t.py", (2, 0), (2, 15), None, 2),
    ]
    new, added, skipped = add_noqa_to_text(text, diags)
    assert new == BENCH + "cudnn.benchmark = True  # noqa:E501,RPL2, RPL501 keep\n"
    assert added == 1 and not skipped


# -- RPL002 -----------------------------------------------------------------------------------


def test_unused_noqa_is_off_by_default(lint):
    assert lint(BENCH + "cudnn.benchmark = False  # noqa: RPL201\n") == []


def test_unused_noqa_kinds_and_messages(lint):
    found = lint(
        BENCH
        + "cudnn.benchmark = True  # noqa: RPL201\n"  # used
        + "cudnn.benchmark = False  # noqa: RPL201, E501\n"  # unused, E501 is not ours
        + "x = 1  # noqa: RPL501\n"  # RPL501 not enabled in this run
        + "y = 2  # noqa: RPL999\n"  # no such rule
        + "z = 3  # noqa\n"  # a bare noqa may be there for another tool
        + "w = 4  # noqa: F401\n"  # another tool's code
        + "v = 5  # noqa: RPL201, RPL002\n",  # told to keep it
        select=["RPL002", "RPL201"],
    )
    assert [(d.code, d.line) for d in found] == [("RPL002", 3), ("RPL002", 4), ("RPL002", 5)]
    assert "(unused: RPL201)" in found[0].message
    assert "(non-enabled: RPL501)" in found[1].message
    assert "(unknown: RPL999)" in found[2].message
    assert all("remove" in d.message for d in found)


def test_a_prefix_code_is_used_when_it_suppressed_a_finding(lint):
    source = BENCH + "cudnn.benchmark = True  # noqa: RPL2\ncudnn.benchmark = False  # noqa: RPL2\n"
    assert [(d.code, d.line) for d in lint(source, select=["RPL002", "RPL201"])] == [("RPL002", 3)]


def apply(text: str, diag: Diagnostic) -> str:
    lines = text.splitlines(keepends=True)
    for edit in reversed(diag.fix.edits):
        assert edit.start[0] == edit.end[0]
        line = lines[edit.start[0] - 1]
        lines[edit.start[0] - 1] = line[: edit.start[1]] + edit.content + line[edit.end[1] :]
    return "".join(lines)


def test_the_fix_removes_only_the_unused_codes(lint):
    source = (
        BENCH
        + "cudnn.benchmark = False  # noqa: RPL201, E501\n"
        + "cudnn.benchmark = False  # type: ignore  # noqa:RPL201\n"
        + "cudnn.benchmark = False  # noqa: RPL201 kept for speed\n"
    )
    found = lint(source, select=["RPL002", "RPL201"])
    assert [d.line for d in found] == [2, 3, 4]
    assert apply(source, found[0]).splitlines()[1] == "cudnn.benchmark = False  # noqa: E501"
    assert apply(source, found[1]).splitlines()[2] == "cudnn.benchmark = False  # type: ignore"
    assert found[2].fix is None  # the explanation would be lost


def test_per_file_ignores_and_file_level_noqa_apply_to_rpl002(lint):
    source = "# repro-lint: noqa: RPL002\n" + BENCH + "cudnn.benchmark = False  # noqa: RPL201\n"
    assert lint(source, select=["RPL002", "RPL201"]) == []
    plain = BENCH + "cudnn.benchmark = False  # noqa: RPL201\n"
    assert lint(plain, select=["RPL002", "RPL201"], per_file_ignores={"*.py": ["RPL002"]}) == []
    assert codes(lint(plain, select=["RPL002", "RPL201"])) == ["RPL002"]


def test_stale_baseline_comments_are_found_after_the_hazard_is_fixed(tmp_path: Path):
    write(tmp_path, {"train.py": BENCH + "cudnn.benchmark = True\n"})
    assert run_cli(["--add-noqa", "."], tmp_path).returncode == 0
    path = tmp_path / "train.py"
    path.write_text(path.read_text(encoding="utf-8").replace("True", "False"), encoding="utf-8")
    proc = run_cli(["--extend-select", "RPL002", "."], tmp_path)
    assert proc.returncode == 1
    assert "train.py:2:26: RPL002 unused `noqa` directive (unused: RPL201)" in proc.stdout
