"""The language server, driven by a real LSP client over stdio (pytest-lsp): JSON-RPC to a
``repro-lint server`` subprocess, as an editor would talk to it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import List, Sequence

import pytest

from conftest import REPO, write

pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp comes with the [test] extra")
pytest.importorskip("pygls", reason="pygls comes with the [test] and [lsp] extras")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

#: a loaded two-core CI machine: starting the server imports LibCST and every rule
TIMEOUT = 120

HAZARD = "import torch\n\ntorch.backends.cudnn.benchmark = True\n"
CLEAN = "import torch\n\ntorch.backends.cudnn.benchmark = False\n"
#: a safe fix (RPL201) and an unsafe one (RPL205: a misspelt flag, assigned under the right name)
TWO_FIXES = (
    "import torch\n"
    "\n"
    "torch.backends.cudnn.benchmark = True\n"
    "torch.backends.cudnn.determinstic = True\n"
)

SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "repro_lint", "server"],
    server_env={**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")},
)


#: one server for the module (each test opens documents of its own)
in_session = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    tmp_path = tmp_path_factory.mktemp("project")
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.repro-lint]\nper-file-ignores = { "legacy/*.py" = ["RPL201"] }\n',
            "train.py": CLEAN,  # on disk; the editor's text is what is linted
            "legacy/old.py": HAZARD,
        },
    )
    return tmp_path


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, project: Path):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri())
    await asyncio.wait_for(lsp_client.initialize_session(params), TIMEOUT)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


async def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> List[lsp.Diagnostic]:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))
    return await diagnostics_of(client, uri)


async def diagnostics_of(client: LanguageClient, uri: str) -> List[lsp.Diagnostic]:
    async def received() -> List[lsp.Diagnostic]:
        while uri not in client.diagnostics:
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(received(), TIMEOUT)


def apply(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """Apply LSP text edits (ASCII text: columns are code points) as an editor would."""
    lines = text.splitlines(keepends=True)

    def offset(position: lsp.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def edits_of(action: lsp.CodeAction, uri: str) -> List[lsp.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        changes = [c for c in action.edit.document_changes if isinstance(c, lsp.TextDocumentEdit)]
        assert [c.text_document.uri for c in changes] == [uri]
        return [e for c in changes for e in c.edits]
    assert action.edit.changes is not None
    return list(action.edit.changes[uri])


async def code_actions(client: LanguageClient, uri: str, rng: lsp.Range, diagnostics: Sequence[lsp.Diagnostic], only=None) -> List[lsp.CodeAction]:
    params = lsp.CodeActionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), range=rng, context=lsp.CodeActionContext(diagnostics=list(diagnostics), only=only))
    actions = await asyncio.wait_for(client.text_document_code_action_async(params), TIMEOUT)
    return [a for a in actions or [] if isinstance(a, lsp.CodeAction)]


WHOLE = lsp.Range(lsp.Position(0, 0), lsp.Position(100, 0))


async def resolved(client: LanguageClient, action: lsp.CodeAction) -> lsp.CodeAction:
    """The action with its edit: VS Code asks for the fix-all edit only when it is chosen."""
    if action.edit is not None:
        return action
    assert action.data is not None
    return await asyncio.wait_for(client.code_action_resolve_async(action), TIMEOUT)


@in_session
async def test_diagnostics_come_from_the_editor_text_on_open_and_on_change(client: LanguageClient, project: Path):
    path = project / "train.py"
    found = await open_document(client, path, HAZARD)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == [("RPL201", 2, 0)]
    assert found[0].source == "repro-lint"
    assert found[0].severity == lsp.DiagnosticSeverity.Warning
    assert "cudnn.benchmark = False" in found[0].message

    uri = path.as_uri()
    client.diagnostics.pop(uri)
    change = lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(2, 33), lsp.Position(2, 37)), text="False")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [change]))
    assert await diagnostics_of(client, uri) == []  # the fixed text is clean (the file on disk was clean all along)


@in_session
async def test_text_that_does_not_parse_is_an_error_where_the_parser_stopped(client: LanguageClient, project: Path):
    found = await open_document(client, project / "broken_syntax.py", "import torch\n\ndef train(:\n    pass\n")
    assert [(d.code, d.range.start.line, d.severity) for d in found] == [("RPL001", 2, lsp.DiagnosticSeverity.Error)]


@in_session
async def test_positions_are_in_the_clients_units(client: LanguageClient, project: Path):
    # VS Code counts UTF-16 code units: the emoji is two of them, one code point
    text = 'import torch\n\nnote = "\U0001F600"; torch.backends.cudnn.benchmark = True\n'
    found = await open_document(client, project / "emoji.py", text)
    assert [d.code for d in found] == ["RPL201"]
    line = text.splitlines()[2]
    assert found[0].range.start.character == line.index("torch") + 1
    assert found[0].range.end.character == line.index(" = True") + 1


@in_session
async def test_configuration_is_read_as_the_cli_reads_it(client: LanguageClient, project: Path):
    # per-file-ignores from the project's pyproject.toml
    assert await open_document(client, project / "legacy" / "old.py", HAZARD) == []
    # a noqa comment
    assert await open_document(client, project / "other.py", HAZARD.replace("True\n", "True  # noqa: RPL201\n")) == []
    # without either: reported
    assert [d.code for d in await open_document(client, project / "new.py", HAZARD)] == ["RPL201"]


@in_session
async def test_a_changed_configuration_applies_to_the_next_lint(client: LanguageClient, project: Path):
    folder = project / "configured"
    write(folder, {"pyproject.toml": "[tool.repro-lint]\n"})
    path = folder / "train.py"
    assert [d.code for d in await open_document(client, path, HAZARD)] == ["RPL201"]
    (folder / "pyproject.toml").write_text('[tool.repro-lint]\nignore = ["RPL201"]\n', encoding="utf-8")
    client.diagnostics.pop(path.as_uri())
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=HAZARD + "\n")],
        )
    )
    assert await diagnostics_of(client, path.as_uri()) == []


@in_session
async def test_a_configuration_error_is_shown_on_the_document(client: LanguageClient, project: Path):
    broken = project / "broken"
    write(broken, {"pyproject.toml": "[tool.repro-lint]\nselect = ['RPL999']\n"})
    found = await open_document(client, broken / "train.py", HAZARD)
    assert len(found) == 1 and found[0].severity == lsp.DiagnosticSeverity.Error
    assert "RPL999" in found[0].message and "pyproject.toml" in found[0].message


@in_session
async def test_quick_fixes_apply_the_fixes_of_fix_safe_ones_preferred(client: LanguageClient, project: Path):
    path = project / "quickfix.py"
    uri = path.as_uri()
    found = await open_document(client, path, TWO_FIXES)
    assert [d.code for d in found] == ["RPL201", "RPL205"]

    benchmark = found[0]
    actions = await code_actions(client, uri, benchmark.range, [benchmark], only=[lsp.CodeActionKind.QuickFix])
    safe, noqa = actions
    assert safe.kind == lsp.CodeActionKind.QuickFix and safe.is_preferred
    assert "RPL201" in safe.title and "unsafe" not in safe.title
    assert [d.code for d in safe.diagnostics or []] == ["RPL201"]
    assert apply(TWO_FIXES, edits_of(safe, uri)) == TWO_FIXES.replace("benchmark = True", "benchmark = False")
    # and, for any finding, a noqa comment as --add-noqa writes it
    assert noqa.title == "Disable RPL201 for this line (# noqa)" and not noqa.is_preferred
    assert apply(TWO_FIXES, edits_of(noqa, uri)) == TWO_FIXES.replace("benchmark = True\n", "benchmark = True  # noqa: RPL201\n")

    enabled = found[1]
    actions = await code_actions(client, uri, enabled.range, [enabled], only=[lsp.CodeActionKind.QuickFix])
    unsafe, _ = actions
    assert "unsafe" in unsafe.title and "RPL205" in unsafe.title and not unsafe.is_preferred
    assert apply(TWO_FIXES, edits_of(unsafe, uri)) == TWO_FIXES.replace("determinstic", "deterministic")

    # a range with no finding: no quick fix
    assert await code_actions(client, uri, lsp.Range(lsp.Position(0, 0), lsp.Position(0, 3)), [], only=[lsp.CodeActionKind.QuickFix]) == []


@in_session
async def test_fix_all_applies_every_safe_fix_as_fix_does(client: LanguageClient, project: Path):
    path = project / "fixall.py"
    uri = path.as_uri()
    found = await open_document(client, path, TWO_FIXES)
    actions = await code_actions(client, uri, WHOLE, found, only=[lsp.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.repro-lint"]
    assert actions[0].edit is None  # computed when chosen (the client resolves code actions)
    fixed = apply(TWO_FIXES, edits_of(await resolved(client, actions[0]), uri))

    # what --fix writes for the same text (unsafe fixes are not applied)
    (project / "cli.py").write_text(TWO_FIXES, encoding="utf-8")
    from conftest import run_cli

    proc = run_cli(["--fix", "--no-cache", "cli.py"], cwd=project)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # RPL205 remains
    assert fixed == (project / "cli.py").read_text(encoding="utf-8")
    assert "benchmark = False" in fixed and "determinstic = True" in fixed

    # the applied text: only the unsafe finding is left, and fix-all has nothing more to offer
    client.diagnostics.pop(uri)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(text=fixed)])
    )
    left = await diagnostics_of(client, uri)
    assert [d.code for d in left] == ["RPL205"]
    assert await code_actions(client, uri, WHOLE, left, only=[lsp.CodeActionKind.SourceFixAll]) == []


@in_session
async def test_hover_gives_the_rule_name_and_its_summary(client: LanguageClient, project: Path):
    path = project / "hover.py"
    found = await open_document(client, path, HAZARD)
    position = found[0].range.start
    params = lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()), position=lsp.Position(line=position.line, character=position.character + 5))
    hover = await asyncio.wait_for(client.text_document_hover_async(params), TIMEOUT)
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    text = hover.contents.value
    assert "RPL201" in text and "cudnn-benchmark-enabled" in text
    assert "Reports `torch.backends.cudnn.benchmark = True`" in text  # the page's first paragraph
    assert "## Why" not in text  # only that paragraph

    # away from any finding: nothing
    params = lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()), position=lsp.Position(line=0, character=2))
    assert await asyncio.wait_for(client.text_document_hover_async(params), TIMEOUT) is None


@in_session
async def test_closing_a_document_clears_its_diagnostics_and_other_languages_are_not_linted(client: LanguageClient, project: Path):
    path = project / "closing.py"
    uri = path.as_uri()
    assert await open_document(client, path, HAZARD)
    client.diagnostics.pop(uri)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert await diagnostics_of(client, uri) == []

    notes = project / "notes.md"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=notes.as_uri(), language_id="markdown", version=1, text=HAZARD)))
    # a request answered after the notification proves the server handled it, publishing nothing
    hover = lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=notes.as_uri()), position=lsp.Position(line=2, character=5))
    assert await asyncio.wait_for(client.text_document_hover_async(hover), TIMEOUT) is None
    assert notes.as_uri() not in client.diagnostics


def test_the_server_without_the_lsp_extra_says_what_to_install(monkeypatch, capsys):
    from repro_lint.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)  # an import of pygls now fails
    monkeypatch.delitem(sys.modules, "repro_lint.server", raising=False)
    for name in [n for n in sys.modules if n.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    assert main(["server"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'repro-lint[lsp]'" in err and "pygls" in err


@in_session
async def test_an_open_documents_unsaved_text_is_what_other_documents_see(client: LanguageClient, project: Path):
    folder = project / "unsaved"
    write(folder, {"pyproject.toml": "[tool.repro-lint]\n", "seeding.py": "import torch\n\ndef setup():\n    pass\n"})
    # the helper seeds torch in the editor, not yet on disk
    assert await open_document(client, folder / "seeding.py", "import torch\n\ndef setup():\n    torch.manual_seed(0)\n") == []
    text = 'import torch\nfrom seeding import setup\n\nif __name__ == "__main__":\n    setup()\n    print(torch.rand(3))\n'
    assert await open_document(client, folder / "main.py", text) == []


@in_session
async def test_saving_reads_the_other_files_of_the_project_again(client: LanguageClient, project: Path):
    write(project, {"helper.py": "import torch\n\ndef setup():\n    pass\n"})
    main = project / "main.py"
    text = 'import torch\nfrom helper import setup\n\nif __name__ == "__main__":\n    setup()\n    print(torch.rand(3))\n'
    assert [d.code for d in await open_document(client, main, text)] == ["RPL101"]  # the helper seeds nothing

    # changed outside the editor (a checkout, another tool): read again from disk on the next save
    (project / "helper.py").write_text("import torch\n\ndef setup():\n    torch.manual_seed(0)\n", encoding="utf-8")
    client.diagnostics.pop(main.as_uri())
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=main.as_uri())))
    assert await diagnostics_of(client, main.as_uri()) == []  # the helper seeds torch now


def test_positions_at_the_end_of_the_text_and_the_fix_all_edit():
    from pygls.workspace.position_codec import PositionCodec

    from repro_lint.server.documents import Text

    text = Text("a\r\nb\n", PositionCodec())
    assert text.lines == ["a", "b", ""]
    assert (text.at_offset(3).line, text.at_offset(3).character) == (1, 0)
    assert (text.at_offset(5).line, text.at_offset(5).character) == (2, 0)  # after the final line break
    [edit] = text.replace_with("a\r\nbc\n")
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.line, edit.range.end.character) == (1, 1, 1, 1)
    assert edit.new_text == "c"
    assert text.replace_with(text.text) == []


# -- notebook documents (LSP 3.17) -----------------------------------------------------------------

NOTEBOOK_CELLS = [
    ("code", "import torch\n"),
    ("markdown", "# Training\n"),
    ("code", "%matplotlib inline\ntorch.backends.cudnn.benchmark = True\n"),
    ("code", "x = torch.rand(3)\n"),
]


def cell_uri(path: Path, number: int) -> str:
    return f"vscode-notebook-cell:{path.as_posix()}#cell{number}"  # as VS Code names cells


async def open_notebook(client: LanguageClient, path: Path) -> dict:
    cells, documents = [], []
    for number, (kind, source) in enumerate(NOTEBOOK_CELLS, start=1):
        uri = cell_uri(path, number)
        code = kind == "code"
        cells.append(lsp.NotebookCell(kind=lsp.NotebookCellKind.Code if code else lsp.NotebookCellKind.Markup, document=uri))
        documents.append(lsp.TextDocumentItem(uri=uri, language_id="python" if code else "markdown", version=1, text=source))
        client.diagnostics.pop(uri, None)
    notebook = lsp.NotebookDocument(uri=path.as_uri(), notebook_type="jupyter-notebook", version=1, cells=cells)
    client.notebook_document_did_open(lsp.DidOpenNotebookDocumentParams(notebook_document=notebook, cell_text_documents=documents))
    code_cells = [n for n, (kind, _) in enumerate(NOTEBOOK_CELLS, start=1) if kind == "code"]
    return {n: await diagnostics_of(client, cell_uri(path, n)) for n in code_cells}


def write_notebook(path: Path) -> None:
    cells = [
        {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True), **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, source in NOTEBOOK_CELLS
    ]
    data = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


@in_session
async def test_a_notebooks_findings_go_to_their_cells(client: LanguageClient, project: Path):
    path = project / "analysis.ipynb"
    found = await open_notebook(client, path)
    assert found[1] == []
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found[3]] == [("RPL201", 1, 0)]
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found[4]] == [("RPL101", 0, 4)]

    # what the CLI reports for the same cells in an .ipynb file
    write_notebook(project / "same.ipynb")
    from conftest import run_cli

    proc = run_cli(["--no-cache", "same.ipynb"], cwd=project)
    assert "same.ipynb:cell 3:2:1: RPL201" in proc.stdout and "same.ipynb:cell 4:1:5: RPL101" in proc.stdout

    # a change to a cell relints the notebook
    uri = cell_uri(path, 3)
    client.diagnostics.pop(uri)
    fixed_cell = NOTEBOOK_CELLS[2][1].replace("True", "False")
    change = lsp.NotebookDocumentChangeEvent(
        cells=lsp.NotebookDocumentCellChanges(
            text_content=[
                lsp.NotebookDocumentCellContentChanges(
                    document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                    changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed_cell)],
                )
            ]
        )
    )
    client.notebook_document_did_change(
        lsp.DidChangeNotebookDocumentParams(notebook_document=lsp.VersionedNotebookDocumentIdentifier(uri=path.as_uri(), version=2), change=change)
    )
    assert await diagnostics_of(client, uri) == []

    # saving the notebook relints it
    client.diagnostics.pop(cell_uri(path, 4))
    client.notebook_document_did_save(lsp.DidSaveNotebookDocumentParams(notebook_document=lsp.NotebookDocumentIdentifier(uri=path.as_uri())))
    assert [d.code for d in await diagnostics_of(client, cell_uri(path, 4))] == ["RPL101"]


@in_session
async def test_notebook_fixes_edit_the_cells_as_fix_edits_the_ipynb(client: LanguageClient, project: Path):
    path = project / "fixme.ipynb"
    found = await open_notebook(client, path)
    cell3, cell4 = cell_uri(path, 3), cell_uri(path, 4)

    # a quick fix: the cell of the finding only
    action, noqa = await code_actions(client, cell3, found[3][0].range, found[3], only=[lsp.CodeActionKind.QuickFix])
    assert action.is_preferred and "RPL201" in action.title
    assert apply(NOTEBOOK_CELLS[2][1], edits_of(action, cell3)) == NOTEBOOK_CELLS[2][1].replace("True", "False")
    assert apply(NOTEBOOK_CELLS[2][1], edits_of(noqa, cell3)) == NOTEBOOK_CELLS[2][1].replace("True\n", "True  # noqa: RPL201\n")

    # fix all, asked from any cell: every cell --fix changes, as --fix changes them in the file
    [fix_all] = await code_actions(client, cell4, WHOLE, found[4], only=[lsp.CodeActionKind.SourceFixAll])
    fix_all = await resolved(client, fix_all)
    assert fix_all.edit is not None and fix_all.edit.document_changes
    edited = {change.text_document.uri: list(change.edits) for change in fix_all.edit.document_changes}
    sources = {n: apply(source, edited.get(cell_uri(path, n), [])) for n, (_, source) in enumerate(NOTEBOOK_CELLS, start=1)}

    write_notebook(project / "fixed.ipynb")
    from conftest import run_cli

    proc = run_cli(["--fix", "--no-cache", "fixed.ipynb"], cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    on_disk = json.loads((project / "fixed.ipynb").read_text(encoding="utf-8"))["cells"]
    assert sources == {n: "".join(cell["source"]) for n, cell in enumerate(on_disk, start=1)}
    assert sources[2] == NOTEBOOK_CELLS[1][1] and "seed" in sources[1] and "benchmark = False" in sources[3]

    # hover on a cell's finding
    params = lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=cell3), position=lsp.Position(line=1, character=3))
    hover = await asyncio.wait_for(client.text_document_hover_async(params), TIMEOUT)
    assert hover is not None and "cudnn-benchmark-enabled" in hover.contents.value


def test_the_readme_editor_setups_start_this_server():
    from repro_lint.config import tomllib  # tomli before Python 3.11

    from repro_lint.cli import SUBCOMMANDS

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Editors: the language server", 1)[1].split("\n### ", 1)[0]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["repro-lint"] == "repro_lint.cli:entry" and "server" in SUBCOMMANDS

    [vscode] = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.DOTALL)]
    assert [vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"]] == ["repro-lint", "server"]
    assert vscode["glspc.server.languageId"] == ["python"]

    [helix] = [tomllib.loads(b) for b in re.findall(r"```toml\n(.*?)```", section, re.DOTALL)]
    server = helix["language-server"]["repro-lint"]
    assert [server["command"], *server["args"]] == ["repro-lint", "server"]
    assert "repro-lint" in helix["language"][0]["language-servers"]

    [neovim] = re.findall(r"```lua\n(.*?)```", section, re.DOTALL)
    assert 'cmd = { "repro-lint", "server" }' in neovim and "vim.lsp.start(" in neovim


def test_a_failure_inside_the_linter_is_reported_and_the_server_goes_on(tmp_path: Path, monkeypatch):
    from pygls.workspace.position_codec import PositionCodec

    from repro_lint.linter import Linter
    from repro_lint.server.documents import Projects, Text, lint_text, lsp_diagnostics

    def fails(self, path, source, keep_source=False):
        raise RuntimeError("a bug")

    monkeypatch.setattr(Linter, "lint_source", fails)
    linted = lint_text(Projects(), (tmp_path / "train.py").as_uri(), 1, Text(HAZARD, PositionCodec()), str(tmp_path))
    assert linted.result is not None and [e.message for e in linted.result.errors] == ["RuntimeError: a bug"]
    assert lsp_diagnostics(linted) == []


#: a client that neither resolves code actions nor takes versioned document changes
PLAIN_CAPABILITIES = client_capabilities("neovim")
PLAIN_CAPABILITIES.text_document.code_action.resolve_support = None


@pytest_lsp.fixture(config=SERVER)
async def plain_client(lsp_client: LanguageClient, project: Path):
    params = lsp.InitializeParams(capabilities=PLAIN_CAPABILITIES, root_uri=project.as_uri())
    await asyncio.wait_for(lsp_client.initialize_session(params), TIMEOUT)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest.mark.asyncio
async def test_a_client_without_resolve_gets_the_fix_all_edit_at_once(plain_client: LanguageClient, project: Path):
    path = project / "plain.py"
    uri = path.as_uri()
    found = await open_document(plain_client, path, TWO_FIXES)
    [action] = await code_actions(plain_client, uri, WHOLE, found, only=[lsp.CodeActionKind.SourceFixAll])
    assert action.edit is not None and action.edit.document_changes is None and action.edit.changes is not None
    assert apply(TWO_FIXES, edits_of(action, uri)) == TWO_FIXES.replace("benchmark = True", "benchmark = False")
