"""Jupyter notebooks: cells linted as one script, positions per cell, fixes written back into
the cells with everything else kept, IPython syntax skipped, bad notebooks reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import run_cli, write
from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter
from repro_lint.notebook import BOUNDARY, CellIndex, NotebookError, from_cells, read_notebook
from repro_lint.source import NotebookSource, decode_file


def notebook(*cells, metadata=None, **extra) -> dict:
    """A notebook: each cell a string (a code cell), or a dict (taken as is)."""
    built = []
    for n, cell in enumerate(cells):
        if isinstance(cell, dict):
            built.append(cell)
        else:
            lines = cell.splitlines(keepends=True)
            built.append({"cell_type": "code", "execution_count": n, "id": f"id-{n}", "metadata": {}, "outputs": [], "source": lines})
    meta = metadata if metadata is not None else {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"name": "python"}}
    return {"cells": built, "metadata": meta, "nbformat": 4, "nbformat_minor": 5, **extra}


def dump(nb: dict, indent=1) -> bytes:
    return (json.dumps(nb, indent=indent, ensure_ascii=False) + "\n").encode("utf-8")


MARKDOWN = {"cell_type": "markdown", "id": "md", "metadata": {}, "source": ["# Training\n", "torch.backends.cudnn.benchmark = True\n"]}
OUTPUT = {"name": "stdout", "output_type": "stream", "text": ["loss 0.1\n"]}
#: three hazards across two code cells (cells 2 and 3; cell 1 is markdown)
THREE_HAZARDS = notebook(
    MARKDOWN,
    "import torch\nfrom torch.utils.data import DataLoader\ntorch.backends.cudnn.benchmark = True",
    {
        "cell_type": "code", "execution_count": 7, "id": "train-cell", "metadata": {"tags": ["train"]},
        "outputs": [OUTPUT],
        "source": ["model = torch.nn.Linear(2, 2)\n", "loader = DataLoader(data, shuffle=True)\n", "torch.backends.cudnn.enable = True\n"],
    },
)


def test_three_hazards_in_two_cells_are_reported_by_cell_and_line(tmp_path: Path):
    write(tmp_path, {"train.ipynb": dump(THREE_HAZARDS)})
    proc = run_cli(["train.ipynb", "--no-cache", "--select", "RPL201,RPL205,RPL302"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    where = [line.split(": ", 1)[0] + ":" + line.split(": ", 1)[1].split(" ")[0] for line in proc.stdout.splitlines() if line.startswith("train.ipynb:")]
    assert where == [
        "train.ipynb:cell 2:3:1:RPL201",
        "train.ipynb:cell 3:2:10:RPL302",
        "train.ipynb:cell 3:3:1:RPL205",
    ]


def test_fix_edits_cells_keeps_outputs_ids_metadata_and_a_second_fix_changes_nothing(tmp_path: Path):
    nbformat = pytest.importorskip("nbformat")
    write(tmp_path, {"train.ipynb": dump(THREE_HAZARDS)})
    proc = run_cli(["train.ipynb", "--no-cache", "--fix", "--unsafe-fixes", "--select", "RPL201,RPL205,RPL302"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Fixed 3 errors." in proc.stdout
    data = (tmp_path / "train.ipynb").read_bytes()
    fixed = json.loads(data)
    assert [c.get("id") for c in fixed["cells"]] == ["md", "id-1", "train-cell"]
    assert fixed["cells"][0] == MARKDOWN  # not a code cell: untouched, hazard-looking text and all
    assert fixed["cells"][2]["outputs"] == [OUTPUT] and fixed["cells"][2]["execution_count"] == 7
    assert fixed["cells"][2]["metadata"] == {"tags": ["train"]}
    assert fixed["metadata"] == THREE_HAZARDS["metadata"] and fixed["nbformat_minor"] == 5
    first = "".join(fixed["cells"][1]["source"])
    assert "torch.backends.cudnn.benchmark = False" in first and not first.endswith("\n")
    second = "".join(fixed["cells"][2]["source"])
    assert "from repro_lint.runtime import make_generator" in first
    assert "generator=make_generator(" in second and "torch.backends.cudnn.enabled = True" in second
    assert data.startswith(b'{\n "cells": [\n  {\n   "cell_type"')  # the file's own indentation (1)
    nbformat.validate(nbformat.reads(data.decode("utf-8"), as_version=4))
    again = run_cli(["train.ipynb", "--no-cache", "--fix", "--unsafe-fixes", "--select", "RPL201,RPL205,RPL302"], tmp_path)
    assert again.returncode == 0 and "Fixed" not in again.stdout
    assert (tmp_path / "train.ipynb").read_bytes() == data


def test_a_notebook_in_a_package_folder_is_still_a_script(tmp_path: Path):
    """A notebook is no module of the package beside it (nothing can import it), so its fix
    uses the runtime as any script's does, while the package's own module gets torch alone
    (its loader built in a function: one its top level built as it is imported gets no fix)."""
    code = "".join("".join(c["source"]) if isinstance(c, dict) else c for c in THREE_HAZARDS["cells"][1:])
    head, _, body = code.partition("torch.backends.cudnn.benchmark = True")
    module = head + "\n\ndef build(data):\n" + "".join(f"    {line}\n" for line in body.strip().splitlines()) + "    return loader\n"
    write(tmp_path, {"mypkg/__init__.py": "", "mypkg/train.ipynb": dump(THREE_HAZARDS), "mypkg/train.py": module})
    proc = run_cli(["mypkg", "--no-cache", "--fix", "--unsafe-fixes", "--select", "RPL302"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fixed = json.loads((tmp_path / "mypkg/train.ipynb").read_bytes())
    assert "from repro_lint.runtime import make_generator" in "".join(fixed["cells"][1]["source"])
    module = (tmp_path / "mypkg/train.py").read_text()
    assert "repro_lint" not in module and "generator=torch.Generator()" in module, module


@pytest.mark.parametrize("indent", [1, 2, None])
def test_a_notebook_with_nothing_to_fix_stays_byte_identical(tmp_path: Path, indent):
    raw = dump(notebook("import torch\ntorch.backends.cudnn.benchmark = False\n", "x = 1  # é"), indent=indent)
    write(tmp_path, {"clean.ipynb": raw})
    proc = run_cli(["clean.ipynb", "--no-cache", "--fix"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "clean.ipynb").read_bytes() == raw


def test_written_notebook_differs_from_nbformats_own_output_only_in_the_changed_cell():
    nbformat = pytest.importorskip("nbformat")
    node = nbformat.v4.new_notebook()
    node.cells = [
        nbformat.v4.new_markdown_cell("Ünïcode *notes*"),
        nbformat.v4.new_code_cell("import torch\ntorch.backends.cudnn.benchmark = True"),
        nbformat.v4.new_code_cell("print('ok')", outputs=[nbformat.v4.new_output("stream", text="ok\n")]),
    ]
    raw = nbformat.writes(node).encode("utf-8") + b"\n"
    book = read_notebook(raw)
    assert book.dumps() == raw  # unchanged: the bytes as read
    new = book.with_text(book.text.replace("benchmark = True", "benchmark = False"))
    node.cells[1].source = "import torch\ntorch.backends.cudnn.benchmark = False"
    assert new.dumps() == nbformat.writes(node).encode("utf-8") + b"\n"


def test_indentation_and_ascii_escaping_of_the_file_are_kept():
    nb = notebook("x = 'é'\ntorch.backends.cudnn.benchmark = True\n")
    raw = (json.dumps(nb, indent=2, ensure_ascii=True)).encode()
    book = read_notebook(raw)
    out = book.with_text(book.text.replace("True", "False")).dumps()
    assert out == json.dumps(json.loads(out), indent=2, ensure_ascii=True).encode()
    assert json.loads(out)["cells"][0]["source"][1] == "torch.backends.cudnn.benchmark = False\n"


def test_ipython_syntax_is_skipped_without_error_and_kept_by_fixes(tmp_path: Path):
    cells = [
        "%matplotlib inline\n!pip install torch\nimport torch\nfiles = !ls\ntorch.manual_seed?\n",
        "%%bash\nthis is not python at all\n",
        "for i in range(2):\n    !echo $i\ntorch.backends.cudnn.benchmark = True",
    ]
    write(tmp_path, {"magic.ipynb": dump(notebook(*cells))})
    proc = run_cli(["magic.ipynb", "--no-cache", "--select", "RPL0,RPL201"], tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [line.split(" RPL")[0] for line in proc.stdout.splitlines()[:-2]] == ["magic.ipynb:cell 3:3:1:"]
    proc = run_cli(["magic.ipynb", "--no-cache", "--fix", "--select", "RPL201"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sources = ["".join(c["source"]) for c in json.loads((tmp_path / "magic.ipynb").read_text())["cells"]]
    assert sources == cells[:2] + [cells[2].replace("True", "False")]


@pytest.mark.parametrize("magic", ["%%time", "%%capture out"])
def test_the_body_of_a_cell_magic_that_runs_python_is_linted_and_fixed_in_place(tmp_path: Path, magic):
    """``%%time`` (``%%capture``) runs its body as Python in the notebook: training there is
    linted like any cell, and a fix keeps the magic as the cell's first line."""
    cells = ["import torch\n", f"{magic}\ntorch.backends.cudnn.benchmark = True\nmodel = torch.nn.Linear(2, 2)\n"]
    write(tmp_path, {"timed.ipynb": dump(notebook(*cells))})
    proc = run_cli(["timed.ipynb", "--no-cache", "--select", "RPL0,RPL201"], tmp_path)
    assert proc.returncode == 1 and proc.stdout.startswith("timed.ipynb:cell 2:2:1: RPL201"), proc.stdout + proc.stderr
    proc = run_cli(["timed.ipynb", "--no-cache", "--fix", "--select", "RPL201"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sources = ["".join(c["source"]) for c in json.loads((tmp_path / "timed.ipynb").read_text())["cells"]]
    assert sources == [cells[0], cells[1].replace("True", "False")]
    # a body that is not Python is not Python under ``%%time`` either (the kernel fails there too)
    write(tmp_path, {"broken.ipynb": dump(notebook(f"{magic}\nimport torch\nlr = \n"))})
    proc = run_cli(["broken.ipynb", "--no-cache"], tmp_path)
    assert "broken.ipynb:cell 1:3:" in proc.stdout and "RPL001" in proc.stdout, proc.stdout


def test_a_magic_inside_a_block_keeps_the_block_parseable():
    book = read_notebook(dump(notebook("if True:\n    %time f()\n")))
    compile(book.text, "nb", "exec")
    assert book.with_text(book.text).cell_sources() == ["if True:\n    %time f()\n"]


@pytest.mark.parametrize(
    "raw, message, line",
    [
        (b'{"cells": [\n  {"cell_type": "code",\n', "invalid JSON", 3),
        (b'{"nbformat": 4}\n', "no 'cells' list", 1),
        (b'[1, 2]\n', "top level is not a JSON object", 1),
        (b'{"worksheets": [], "nbformat": 3}', "nbformat 3", 1),
        (b'{"cells": [{"cell_type": "code", "source": 3}]}', "source of cell 1", 1),
        (b'\xff\xfe{}', "not UTF-8", 1),
    ],
)
def test_an_invalid_notebook_is_rpl001_and_the_run_goes_on(tmp_path: Path, raw, message, line):
    write(tmp_path, {"bad.ipynb": raw, "train.py": "import torch\ntorch.backends.cudnn.benchmark = True\n"})
    proc = run_cli([".", "--no-cache"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    bad = [ln for ln in proc.stdout.splitlines() if ln.startswith("bad.ipynb:")]
    assert len(bad) == 1 and f"bad.ipynb:{line}:" in bad[0] and " RPL001 not a valid Jupyter notebook: " in bad[0]
    assert message in bad[0]
    assert any(ln.startswith("train.py:2:1: RPL201") for ln in proc.stdout.splitlines())


def test_a_cell_that_is_not_python_is_rpl001_and_the_other_cells_are_linted(tmp_path: Path):
    """A course notebook's fill-in-the-blank cell (``lr = ``): a kernel runs each cell on its
    own, so it stops only itself. It is reported where it fails, left out of what is linted,
    and kept byte for byte by a fix of the other cells."""
    blank = "# TODO: choose a learning rate\nlr = \n"
    nb = notebook(MARKDOWN, "import torch\nmodel = torch.nn.Linear(2, 2)\n", blank, "torch.backends.cudnn.benchmark = True\n")
    write(tmp_path, {"course.ipynb": dump(nb)})
    proc = run_cli(["course.ipynb", "--no-cache", "--select", "RPL0,RPL201"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    found = [ln for ln in proc.stdout.splitlines() if ln.startswith("course.ipynb:")]
    assert [ln.split(" ", 2)[:2] for ln in found] == [["course.ipynb:cell", "3:2:6:"], ["course.ipynb:cell", "4:1:1:"]]
    assert " RPL001 cell 3 cannot be parsed: invalid syntax; it was left out and the other cells were linted" in found[0]
    assert " RPL201 " in found[1]
    fixed = run_cli(["course.ipynb", "--no-cache", "--fix", "--select", "RPL201"], tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    cells = json.loads((tmp_path / "course.ipynb").read_text())["cells"]
    assert "".join(cells[2]["source"]) == blank
    assert "".join(cells[3]["source"]) == "torch.backends.cudnn.benchmark = False\n"


def test_a_cell_left_out_keeps_each_line_s_length():
    nb = from_cells(["x = 1\n", "    y = (\n", "%%bash\nls\n"])
    assert [cell.unparsed is not None for cell in nb.cells] == [False, True, False]
    assert nb.cells[1].lines[0] == "    # = (" and len(nb.cells[1].lines[0]) == len("    y = (")
    assert nb.with_text(nb.text).cell_sources() == ["x = 1\n", "    y = (\n", "%%bash\nls\n"]
    assert nb.unparsed == [(nb.unparsed[0][0], 3, 3)] and nb.unparsed[0][0].startswith("cell 2 cannot be parsed: ")


def test_a_notebook_is_an_entry_point_and_a_module_with_the_same_code_is_not(tmp_path: Path):
    code = "import torch\nmodel = torch.nn.Linear(2, 2)\nx = torch.rand(3)\n"
    # lib.py is imported (else its top level, which builds a model, would make it a script too)
    write(tmp_path, {"explore.ipynb": dump(notebook(code)), "lib.py": code, "use.py": "import lib\n"})
    proc = run_cli([".", "--no-cache", "--select", "RPL101"], tmp_path)
    found = [ln.split(" RPL")[0] for ln in proc.stdout.splitlines() if " RPL101 " in ln]
    assert found == ["explore.ipynb:cell 1:2:9:"], proc.stdout


def test_markdown_and_other_languages_are_not_linted(tmp_path: Path):
    hazard = "torch.backends.cudnn.benchmark = True\n"
    r_kernel = {"kernelspec": {"language": "R", "name": "ir"}, "language_info": {"name": "R"}}
    write(tmp_path, {
        "notes.ipynb": dump(notebook({"cell_type": "markdown", "metadata": {}, "source": hazard}, {"cell_type": "raw", "metadata": {}, "source": hazard})),
        "r.ipynb": dump(notebook(hazard, metadata=r_kernel)),
    })
    proc = run_cli([".", "--no-cache"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "All checks passed!", proc.stdout


def test_json_and_sarif_carry_the_cell(tmp_path: Path):
    write(tmp_path, {"train.ipynb": dump(THREE_HAZARDS)})
    proc = run_cli(["train.ipynb", "--no-cache", "--select", "RPL201", "--output-format", "json"], tmp_path)
    [finding] = json.loads(proc.stdout)
    assert finding["cell"] == 2 and finding["location"] == {"row": 3, "column": 1}
    assert finding["noqa_row"] == 3 and finding["fix"]["edits"][0]["location"]["row"] == 3
    proc = run_cli(["train.ipynb", "--no-cache", "--select", "RPL201", "--output-format", "sarif"], tmp_path)
    [result] = json.loads(proc.stdout)["runs"][0]["results"]
    [location] = result["locations"]
    assert location["properties"] == {"cell": 2} and location["physicalLocation"]["region"]["startLine"] == 3
    plain = run_cli(["train.ipynb", "--no-cache", "--select", "RPL201", "--output-format", "json"], tmp_path)
    assert json.loads(plain.stdout)[0]["cell"] == 2
    write(tmp_path, {"train.py": "import torch\ntorch.backends.cudnn.benchmark = True\n"})
    proc = run_cli(["train.py", "--no-cache", "--output-format", "json"], tmp_path)
    assert json.loads(proc.stdout)[0]["cell"] is None


def test_cells_survive_the_cache(tmp_path: Path):
    write(tmp_path, {"train.ipynb": dump(THREE_HAZARDS)})
    first = run_cli(["train.ipynb", "--select", "RPL201"], tmp_path)
    second = run_cli(["train.ipynb", "--select", "RPL201"], tmp_path)
    assert (tmp_path / ".repro_lint_cache").is_dir()
    assert first.stdout == second.stdout and "train.ipynb:cell 2:3:1: RPL201" in second.stdout


def test_diff_shows_each_changed_cell_and_writes_nothing(tmp_path: Path):
    raw = dump(THREE_HAZARDS)
    write(tmp_path, {"train.ipynb": raw})
    proc = run_cli(["train.ipynb", "--diff", "--select", "RPL201"], tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[:2] == ["--- train.ipynb:cell 2", "+++ train.ipynb:cell 2"]
    assert "-torch.backends.cudnn.benchmark = True" in proc.stdout and "cell 3" not in proc.stdout
    assert (tmp_path / "train.ipynb").read_bytes() == raw


def test_folders_are_searched_for_notebooks_unless_include_says_otherwise(tmp_path: Path):
    hazard = "import torch\ntorch.backends.cudnn.benchmark = True\n"
    write(tmp_path, {"a/nb.ipynb": dump(notebook(hazard)), "b.py": hazard})

    def found() -> list:
        proc = run_cli([".", "--no-cache"], tmp_path)
        return sorted({ln.split(":")[0] for ln in proc.stdout.splitlines() if " RPL" in ln})

    assert found() == ["a/nb.ipynb", "b.py"]
    write(tmp_path, {"pyproject.toml": '[tool.repro-lint]\ninclude = ["*.py"]\n'})
    assert found() == ["b.py"]
    write(tmp_path, {"pyproject.toml": '[tool.repro-lint]\ninclude = ["*.py"]\nextend-include = ["a/*.ipynb"]\n'})
    assert found() == ["a/nb.ipynb", "b.py"]
    proc = run_cli(["a/nb.ipynb", "--no-cache"], tmp_path)  # named explicitly: always linted
    assert proc.returncode == 1


def test_noqa_works_in_a_cell(tmp_path: Path):
    write(tmp_path, {"nb.ipynb": dump(notebook("import torch\ntorch.backends.cudnn.benchmark = True  # noqa: RPL201\n"))})
    proc = run_cli(["nb.ipynb", "--no-cache"], tmp_path)
    assert proc.returncode == 0, proc.stdout


# -- the module's API ---------------------------------------------------------------------------


def test_cell_index_maps_text_lines_to_cells_and_back():
    book = from_cells(["a = 1\nb = 2", "", "c = 3\n"], numbers=[2, 4, 5])
    assert book.text == f"a = 1\nb = 2\n{BOUNDARY}\n{BOUNDARY}\nc = 3\n{BOUNDARY}\n"
    assert book.index == CellIndex((1, 4, 5), (2, 4, 5))
    assert [book.index.locate(line) for line in (1, 2, 5)] == [(2, 1), (2, 2), (5, 1)]
    assert [book.index.code_cell(line) for line in (1, 3, 5)] == [(0, 1), (0, 3), (2, 1)]
    assert book.index.to_text_line(5, 1) == 5 and book.index.to_text_line(2, 2) == 2
    assert CellIndex.from_list(book.index.to_list()) == book.index


def test_insertions_at_a_cell_boundary_go_to_the_cell_they_follow_or_precede():
    book = from_cells(["import torch", "model = 1\n"])
    lines = book.text.splitlines(keepends=True)
    after_first = lines[:1] + ["seed = 0\n"] + lines[1:]
    assert book.with_text("".join(after_first)).cell_sources() == ["import torch\nseed = 0", "model = 1\n"]
    before_second = lines[:2] + ["seed = 0\n"] + lines[2:]
    assert book.with_text("".join(before_second)).cell_sources() == ["import torch", "seed = 0\nmodel = 1\n"]


def test_text_without_its_cell_boundaries_is_refused():
    book = from_cells(["a = 1\n", "b = 2\n"])
    with pytest.raises(NotebookError):
        book.with_text(book.text.replace(BOUNDARY + "\n", "", 1))


def test_a_cell_that_contains_the_boundary_line_gets_another_boundary():
    book = from_cells([f"x = 1\n{BOUNDARY}\n", "y = 2\n"])
    assert book.boundary != BOUNDARY
    assert book.with_text(book.text.replace("y = 2", "y = 3")).cell_sources() == [f"x = 1\n{BOUNDARY}\n", "y = 3\n"]


def test_the_engine_lints_a_notebook_given_in_memory(tmp_path: Path):
    settings = Settings(root=tmp_path, select=["RPL201"])
    linter = Linter(settings, ProjectContext(settings))
    raw = dump(notebook("import torch", "torch.backends.cudnn.benchmark = True\n"))
    result = linter.lint_bytes(str(tmp_path / "not_on_disk.ipynb"), raw)
    [diag] = result.diagnostics
    assert (diag.cell, diag.shown(diag.start)) == (2, (1, 0))
    source = decode_file(raw, "x.ipynb")
    assert isinstance(source, NotebookSource) and source.text == read_notebook(raw).text


def test_crlf_line_breaks_and_a_bom_are_kept():
    raw = b"\xef\xbb\xbf" + dump(notebook("import torch\ntorch.backends.cudnn.benchmark = True\n")).replace(b"\n", b"\r\n")
    book = read_notebook(raw)
    out = book.with_text(book.text.replace("True", "False")).dumps()
    assert out.startswith(b"\xef\xbb\xbf{\r\n") and b"\n" not in out.replace(b"\r\n", b"")
    assert out == raw.replace(b"benchmark = True", b"benchmark = False")


def test_a_percent_that_continues_an_expression_is_python_not_a_magic(tmp_path: Path):
    formatting = 'message = ("%d items"\n           % 3)\ntorch.backends.cudnn.benchmark = True\n'
    book = read_notebook(dump(notebook("import torch\n" + formatting, "%time x = 1\n" + formatting)))
    assert book.text.count("% 3)") == 2 and "#time x = 1" in book.text
    compile(book.text, "nb", "exec")


def test_a_magic_continued_over_lines_is_skipped_whole():
    book = read_notebook(dump(notebook("!pip install \\\n    torch\nif True:\n    !ls \\\n      -l\nx = 1\n")))
    compile(book.text, "nb", "exec")
    assert book.with_text(book.text.replace("x = 1", "x = 2")).cell_sources() == ["!pip install \\\n    torch\nif True:\n    !ls \\\n      -l\nx = 2\n"]


def test_add_noqa_writes_the_comment_into_the_cell(tmp_path: Path):
    write(tmp_path, {"nb.ipynb": dump(THREE_HAZARDS)})
    proc = run_cli(["nb.ipynb", "--no-cache", "--select", "RPL201", "--add-noqa"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cell = json.loads((tmp_path / "nb.ipynb").read_text())["cells"][1]
    assert cell["source"][-1] == "torch.backends.cudnn.benchmark = True  # noqa: RPL201"
    assert run_cli(["nb.ipynb", "--no-cache", "--select", "RPL201"], tmp_path).returncode == 0


def test_full_output_shows_the_cells_lines_as_written(tmp_path: Path):
    write(tmp_path, {"nb.ipynb": dump(notebook("import torch\n!nvidia-smi\ntorch.backends.cudnn.benchmark = True  # !\n"))})
    proc = run_cli(["nb.ipynb", "--no-cache", "--select", "RPL201", "--output-format", "full"], tmp_path)
    assert proc.stdout.splitlines()[:4] == [
        proc.stdout.splitlines()[0],
        "  |",
        "3 | torch.backends.cudnn.benchmark = True  # !",
        "  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ RPL201",
    ]
    assert proc.stdout.startswith("nb.ipynb:cell 1:3:1: RPL201 ")
    book = read_notebook((tmp_path / "nb.ipynb").read_bytes())
    assert book.shown_text.splitlines()[1] == "!nvidia-smi" and book.text.splitlines()[1] == "#nvidia-smi"


# -- round trips, for any cells -----------------------------------------------------------------

LINE = st.sampled_from(["import torch", "x = 1", "", "    y = 2", "%time f()", "!ls", "%%time", "# c", "s = ('%d'", "     % 3)", "obj?", "é = 'ü'"])
CELL = st.lists(LINE, max_size=6).map("\n".join).flatmap(lambda s: st.sampled_from([s, s + "\n"]))


@hsettings(max_examples=150, deadline=None)
@given(cells=st.lists(CELL, max_size=5), indent=st.sampled_from([1, 2, None]), as_list=st.booleans())
def test_any_notebook_round_trips_byte_for_byte(cells, indent, as_list):
    nb = notebook(*cells)
    if not as_list:
        for cell in nb["cells"]:
            cell["source"] = "".join(cell["source"])
    raw = dump(nb, indent=indent)
    book = read_notebook(raw)
    assert book.cell_sources() == cells
    assert book.with_text(book.text).dumps() == raw
    assert len(book.text.splitlines()) == len(book.shown_text.splitlines())


@hsettings(max_examples=150, deadline=None)
@given(cells=st.lists(CELL, min_size=1, max_size=5), data=st.data())
def test_a_line_inserted_anywhere_lands_in_one_cell_and_changes_no_other(cells, data):
    book = from_cells(cells)
    lines = book.text.splitlines(keepends=True)
    at = data.draw(st.integers(0, len(lines) - 1))
    new = book.with_text("".join(lines[:at] + ["inserted = 1\n"] + lines[at:]))
    changed = [i for i, (a, b) in enumerate(zip(cells, new.cell_sources())) if a != b]
    assert len(changed) == 1 and "inserted = 1" in new.cell_sources()[changed[0]]
    # before a boundary line: the end of that boundary's cell; before any other: that line's cell
    assert changed[0] + 1 == book.index.locate(at + 1)[0]


def test_a_line_inserted_between_repeated_placeholder_lines_stays_where_it_was_put():
    """A cell that is not Python (its lines comments of their own length) with repeated lines:
    an insertion after its first placeholder goes back into that place, the placeholders
    restored, instead of failing as a change of an IPython line (a diff of the whole cell paired
    the repeated lines wrongly)."""
    cells = ["\n", "import torch", "\n    y = 2\n\n    y = 2"]
    book = from_cells(cells)
    lines = book.text.splitlines(keepends=True)
    at = lines.index("    # = 2\n") + 1
    new = book.with_text("".join(lines[:at] + ["inserted = 1\n"] + lines[at:]))
    assert new.cell_sources() == ["\n", "import torch", "\n    y = 2\ninserted = 1\n\n    y = 2"]


def test_a_notebook_made_large_by_its_outputs_is_still_read_for_the_project_context(tmp_path: Path):
    from repro_lint.source import TEXT_LIMIT, read_text

    image = {"output_type": "display_data", "metadata": {}, "data": {"image/png": "A" * (TEXT_LIMIT + 1)}}
    nb = notebook("import torch\nx = torch.rand(3)\n")
    nb["cells"][0]["outputs"] = [image]
    write(tmp_path, {"big.ipynb": dump(nb)})
    assert (tmp_path / "big.ipynb").stat().st_size > TEXT_LIMIT
    assert read_text(tmp_path / "big.ipynb") == read_notebook(dump(nb)).text
    settings = Settings(root=tmp_path)
    assert ProjectContext(settings).facts(tmp_path / "big.ipynb") is not None
