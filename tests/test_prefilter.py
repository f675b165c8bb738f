"""The text prefilter, the fast parse and the traversal change how much work is done, never
what is found: the same findings with and without the prefilter on real code, the same tree
as ``libcst.parse_module``, every node visited in source order with the right ancestors."""

from __future__ import annotations

import importlib.util
from pathlib import Path
import textwrap
from typing import Dict, List, Tuple

import libcst as cst
import pytest

from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import FileResult, Linter, lint_files
from repro_lint.parse import parse_module
from repro_lint.walk import walk
from repro_lint.rulebook import examples, read_page
from repro_lint.rules import all_rules
from repro_lint.rules.base import FileContext, Rule
from repro_lint.names import ImportTable
from repro_lint.source import without_prose

from conftest import lint_files_in

REPO = Path(__file__).resolve().parent.parent


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # finds the package without importing it
    assert spec is not None and spec.submodule_search_locations, f"{name} is not installed"
    return Path(list(spec.submodule_search_locations)[0])


def real_files() -> List[Path]:
    """A representative slice of real code: the parts of torch that mention the rules' words
    (dropout modules, functional, cudnn/cuda backends, data loading) and some of LibCST."""
    files: List[Path] = []
    if importlib.util.find_spec("torch") is not None:
        torch = _package_dir("torch")
        for pattern in ("nn/modules/*.py", "backends/**/*.py", "utils/data/*.py", "nn/functional.py",
                        "nn/utils/*.py", "testing/_internal/py312_intrinsics.py"):
            files.extend(sorted(torch.glob(pattern)))
    files.extend(sorted(_package_dir("libcst").glob("_nodes/*.py")))
    return files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> List[Path]:
    """Real files, the rule book's examples and the bundled example, plus edge cases."""
    folder = tmp_path_factory.mktemp("corpus")
    files = list(real_files())
    for code in all_rules():
        for example in examples(read_page(code) or ""):
            path = folder / f"{code}_{example.kind}_{example.line}.py"
            path.write_text(example.code, encoding="utf-8")
            files.append(path)
    files.extend(sorted((REPO / "examples").glob("**/*.py")))
    edge = {
        "broken_without_triggers.py": "x = (1,\n",
        "broken_with_triggers.py": "import torch\ntorch.backends.cudnn.benchmark = (\n",
        "compiler_only_error.py": "return 1\n",  # CPython's compiler rejects it, its parser does not
        "new_syntax.py": "def first[T](items: list[T]) -> T:\n    return items[0]\n",
        "deep.py": "x = " + "(" * 300 + "1" + ")" * 300 + "\n",
    }
    for name, text in edge.items():
        (folder / name).write_text(text, encoding="utf-8")
        files.append(folder / name)
    assert len(files) > 100
    return files


def _findings(results: List[FileResult]) -> List[Tuple]:
    return sorted((d.path, d.start, d.end, d.code, d.message, d.fix) for r in results for d in r.diagnostics)


@pytest.fixture(scope="module")
def unfiltered(corpus: List[Path]) -> List[FileResult]:
    settings = Settings(root=REPO, select=["ALL"])
    without = Linter(settings, ProjectContext(settings, corpus), prefilter=False)
    return [without.lint_path(p) for p in corpus]


def test_same_findings_with_and_without_the_prefilter(corpus: List[Path], unfiltered: List[FileResult]):
    settings = Settings(root=REPO, select=["ALL"])
    with_prefilter = Linter(settings, ProjectContext(settings, corpus))
    filtered = [with_prefilter.lint_path(p) for p in corpus]
    assert not [e for r in filtered + unfiltered for e in r.errors]
    assert _findings(filtered) == _findings(unfiltered)
    # the prefilter did skip work, and the corpus does exercise the rules
    assert sum(r.parsed for r in filtered) < sum(r.parsed for r in unfiltered)
    found_codes = {d.code for r in unfiltered for d in r.diagnostics}
    assert {"RPL001", "RPL201", "RPL205", "RPL501"} <= found_codes


def test_same_findings_when_entry_point_summaries_leave_rules_out(corpus: List[Path], unfiltered: List[FileResult], tmp_path: Path):
    """Once the project context has the entry points' summaries (as a run prepares them before
    linting), an entry-point rule whose first test of the summary fails is not run, and an entry
    point that no other rule needs is not parsed: the findings stay the same."""
    settings = Settings(root=REPO, select=["ALL"])
    project = ProjectContext(settings, corpus)
    project.prepare(corpus)
    prepared = Linter(settings, project)
    results = [prepared.lint_path(p) for p in corpus]
    assert _findings(results) == _findings(unfiltered)
    # an entry point that uses no generator and no accelerator is only syntax-checked
    quiet = tmp_path / "report.py"
    quiet.write_text("import json\n\nif __name__ == '__main__':\n    print(json.dumps({'step': 1}))\n", encoding="utf-8")
    busy = tmp_path / "train.py"
    busy.write_text("import torch\n\nif __name__ == '__main__':\n    print(torch.randn(2))\n", encoding="utf-8")
    files = [quiet, busy]
    project = ProjectContext(Settings(root=tmp_path), files)
    project.prepare(files)
    linter = Linter(Settings(root=tmp_path), project)
    first, second = (linter.lint_path(p) for p in files)
    assert (first.parsed, first.diagnostics) == (False, [])
    assert second.parsed and [d.code for d in second.diagnostics] == ["RPL101"]


def test_every_finding_comes_from_a_file_with_one_of_its_rules_trigger_words(corpus: List[Path], unfiltered: List[FileResult]):
    """The per-rule form of the prefilter's soundness: a rule runs on a file only when one of
    its own trigger words is in it, so every finding of an unfiltered run must be in a file
    containing one of that rule's words (a missing word shows up here, even when another
    rule's word happens to let the file through the file-level filter)."""
    rules = all_rules()
    settings = Settings(root=REPO, select=["ALL"])
    for path, result in zip(corpus, unfiltered):
        text = path.read_text(encoding="utf-8", errors="replace")
        for diag in result.diagnostics:
            if diag.code == "RPL001":
                continue
            rule = rules[diag.code]
            assert rule.triggered_by(text, settings), f"{diag.code} fired in {path} without any of {rule.triggers}"


def test_whole_word_triggers_are_whole_identifiers_and_word_families_stay_substrings():
    settings = Settings(root=REPO, select=["ALL"])
    rules = all_rules()
    pad = rules["RPL402"]  # F.pad, F.interpolate, ...: names written out whole
    assert pad.whole_words and "pad" in pad.triggers
    assert not pad.triggered_by("x = conv(padding=1)\ny = index_put_(a)\n", settings)
    assert pad.triggered_by("y = F.pad(x, (1, 1), mode='reflect')\n", settings)
    assert pad.triggered_by("from torch.nn.functional import pad as P\n", settings)
    assert rules["RPL401"].triggered_by("x.index_put_(i, v, accumulate=True)\n", settings)
    assert not rules["RPL401"].triggered_by("x.index_put_unrelated = 1\n", settings)
    seeding = rules["RPL105"]  # ``seed`` stands for manual_seed, set_seed, seed_everything, ...
    assert not seeding.whole_words and seeding.triggered_by("pl.seed_everything(0)\n", settings)
    assert rules["RPL204"].triggered_by('os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":1:1"\n', settings)
    linter = Linter(settings)
    assert not linter.needs_parse("import torch\ny = torch.nn.functional.conv2d(x, w, padding=1)\n")
    assert [r.code for r in linter.rules_for("y = F.pad(x, (1, 1))\n")] == ["RPL402"]


def test_the_word_search_among_names_finds_what_a_search_of_the_text_finds(corpus: List[Path]):
    """The prefilter looks for most words among the text's names: the words found, and the whole
    names among them, are those of a plain search of the text (``word in text``, ``mentions``)."""
    from repro_lint.rules.base import mentions

    settings = Settings(root=REPO, select=["ALL"])
    linter = Linter(settings)
    assert any(not word.isidentifier() for word in linter.words)  # ".npu": searched in the text
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in corpus]
    texts += [
        "x = padé(1)  # pad",  # a name character that is not ASCII ends no name
        "y = x.npu()\nz = 'npu:0'\nseed_everything(0)",
        "σseed = 1\n_dropout2 = F.dropout\nindex_put_unrelated = 1",
        "",
    ]
    comment_words = {word for rule in linter.rule_types if rule.reads_comments for word in rule.triggers}
    assert comment_words  # RPL002's noqa
    for text in texts:
        present, names, code = linter._words_of(text)
        assert code == without_prose(text)
        assert present == frozenset(word for word in linter.words if word in (text if word in comment_words else code))
        for word in present - comment_words:
            if word.isidentifier():
                assert (word in names) == mentions(code, word, True), (word, text[:80])


@pytest.mark.parametrize(
    "text, code",
    [
        ("x = 1  # seed it\ny = 2\n", "x = 1   \ny = 2\n"),
        ('def f():\n    \"\"\"Uses dropout.\n    more\"\"\"\n    return 1\n', "def f():\n     \n    return 1\n"),
        ("s = '# not a comment'  # a comment\n", "s = '# not a comment'   \n"),
        ('s = "it\'s \'\'\' here"\nt = 1\n', 's = "it\'s \'\'\' here"\nt = 1\n'),
        # a backslash keeps a raw string open too: the string ends after `b`, a new one opens
        ("s = r'''a\\''' + b'''\nseed'''\n", "s = r \nseed "),
        ('s = "a\\"# b"\n', 's = "a\\"# b"\n'),  # an escaped quote does not end the string
        ("x = '''never closed\nseed = 1\n", "x =  "),
        ("x = 'never closed\nseed = 1  # c\n", "x = 'never closed\nseed = 1   \n"),
    ],
)
def test_without_prose_drops_comments_and_triple_quoted_strings(text: str, code: str):
    assert without_prose(text) == code


def test_a_word_only_in_a_docstring_or_comment_does_not_make_a_file_parse(tmp_path: Path):
    settings = Settings(root=tmp_path, select=["ALL"])
    linter = Linter(settings)
    prose = '"""Adds dropout, then F.interpolate(x, mode=\'bicubic\')."""\nx = 1  # torch.manual_seed(0)\n'
    assert not linter.needs_parse(prose, str(tmp_path / "lib.py"))
    assert linter.needs_parse("x = F.interpolate(y, mode='bicubic')\n", str(tmp_path / "lib.py"))
    # a noqa comment is read by RPL002, which runs where it is selected
    noqa = "x = 1  # noqa: RPL201\n"
    assert [rule.code for rule in linter.rules_for(noqa, str(tmp_path / "lib.py"))] == ["RPL002"]


def test_rpl001_is_decided_by_libcst_when_cpython_disagrees(tmp_path: Path):
    settings = Settings(root=tmp_path)
    linter = Linter(settings)
    path = tmp_path / "generic.py"
    path.write_text("def first[T](items: list[T]) -> T:\n    return items[0]\n", encoding="utf-8")
    assert linter.lint_path(path).diagnostics == []  # LibCST parses PEP 695 on any Python
    path.write_text("def f(:\n    pass\n", encoding="utf-8")
    (diag,) = linter.lint_path(path).diagnostics
    assert diag.code == "RPL001" and diag.line == 1  # CPython's words and position


def test_a_file_whose_ast_facts_are_held_is_not_compiled_again(tmp_path: Path, monkeypatch):
    import repro_lint.linter as linter_module

    compiled: List[str] = []
    real = linter_module.compiles
    monkeypatch.setattr(linter_module, "compiles", lambda text, path, bytecode: compiled.append(Path(path).name) or real(text, path, bytecode))
    settings = Settings(root=tmp_path)
    project = ProjectContext(settings)
    linter = Linter(settings, project)
    held, other = tmp_path / "held.py", tmp_path / "other.py"
    for path in (held, other):
        # ``return`` outside a function: only the compiler rejects it, LibCST reads it
        path.write_text("x = 1\nreturn x\n", encoding="utf-8")
    assert project.facts(held) is not None  # asked by some question of the run
    assert linter.lint_path(held).diagnostics == [] and linter.lint_path(other).diagnostics == []
    assert compiled == ["other.py"]
    # facts of another version of the file answer nothing
    held.write_text("def f(:\n    pass\n", encoding="utf-8")
    (diag,) = linter.lint_path(held).diagnostics
    assert diag.code == "RPL001" and compiled == ["other.py", "held.py"]


def test_parallel_run_gives_the_in_process_findings(corpus: List[Path]):
    settings = Settings(root=REPO, select=["ALL"])
    serial = lint_files(Linter(settings, ProjectContext(settings, corpus)), corpus, jobs=1)
    parallel = lint_files(Linter(settings, ProjectContext(settings, corpus)), corpus, jobs=2)
    assert [r.path for r in parallel] == [r.path for r in serial]
    assert _findings(parallel) == _findings(serial)


# -- the parse --------------------------------------------------------------------------------

#: a class whose body holds comments at every indentation, blank lines with and without
#: spaces, decorators, a docstring, a nested class in the middle and one at the end
CLASSES = (
    "import os\n\n"
    "class A:\n    x = 1\n\n    # between\n  # dedented between\n    \n"
    "    def f(self):\n        pass\n        # deep trailing\n    # class trailing\n# module trailing\n\n"
    "@dec\nclass B(Base,\n        metaclass=M):  # header comment\n    # before first\n    '''doc'''\n"
    "    @property\n    # between decorator and def\n    def p(self):\n        return 1\n"
    "    class Inner:\n        a = 1\n        b = 2\n        # inner trailing\n    # after inner\n    c = 3\n"
    "    class Last:\n        d = 4\n\n        class Deepest:\n            e = 5\n            f = 6\n"
    "                # deeper trailing\n            # deepest trailing\n        # last trailing\n"
    "    # B trailing\n  # odd\n# end\n"
    "z = B()\n"
)


TRICKY = [
    "# leading comment\n\nimport os\n\n\n# between\n@decorator\n# inside decorators\ndef f():\n    x = 1\n    # indented trailing\n\n# dedented\nclass C:\n    pass\n# at the end\n",
    "a = 1; b = 2\nc = 3\n",
    "x = 1 + \\\n    2\ny = 3\n",
    "x = 1\r\ny = 2\r\n\r\nz = 3",
    "if x:\n    pass\nelse:\n    pass\n\f\nz = 1\n",
    '"""doc"""\nfrom __future__ import annotations\ns = """\ndef not_code():\n    pass\n"""\ndef g():\n    return s\n',
    "\n\n\n",
    "",
    "x = [1, 2, 3, 4, 5, 6, 7, 8]\ny = 1\n",
    "# header\n\nop_db: List[OpInfo] = [\n    OpInfo('a', x=1),  # c, with a comma\n    # own line, comment\n"
    "    (OpInfo('b')) ,\n    *rest,\n    [1, [2, 3]],\n    'a' 'b',\n]\n\n# after\nz = 2\n",
    "import os\nx = y = [  # head\n  f(a, b),\n  g(c),\n  h(d)\n]\nprint(x)\n",
    "x = ([1,\n  2,\n  3,\n  4])\nz = 0\n",
    "x = [\n    1,\n    2\n    ,\n    3,\n]\nq = 1\n",
    "x = [\r\n    1,\r\n    2,  # two\r\n    3,\r\n]\r\nq = 1\r\n",
    "a = 1\nb = [\r\n    1,\r\n    2,\r\n]\r\nc = 3\rd = [4,\r 5]\n",
    "s = ['\u00e9', '\u00fc', '\u00df', '\u00f8', '\u00e6']\nq = [1, 2, 3]\r\n",
    # classes, parsed in groups of their body's statements (and nested classes in theirs)
    CLASSES,
    "class A:\r\n    x = 1\r\n\r\n    # c\r\n    def f(self):\r\n        return 1\r\n    y = 2\r\n",
    "class T:\n\tx = 1\n\tdef f(self):\n\t\treturn 1\n\t# tab trailing\n",
    "class N:\n    a = 1\n    b = 2",
    "class N:\n    a = 1\n    b = 2\n    # no final line break",
    "class S: x = 1\ny = 2\n",
    "class S:\n    a = 1; b = 2\n    c = 3\n",
    "class D:\n    @ staticmethod\n    # c\n    @(lambda f: f)\n    def f():\n        pass\n    x = 1\n",
    "class S:\n    a = 1\n    b = [\n  1,\n]\n    c = 3\n",
    "if x:\n    class D:\n        a = 1\n        b = 2\n",
    "class O:\n    class I:\n        a = 1\n        b = 2\n        # i trailing\n    # o trailing\n# m\nc = 1\n",
    # a file whose first block is indented otherwise than the next ones
    "try:\n   import x\nexcept ImportError:\n   x = None\n\n\nclass C:\n    a = 1\n    def f(self):\n        return 2\n\n\ndef g():\n    if x:\n      return 1\n",
]


@pytest.mark.parametrize("text", TRICKY)
def test_statement_group_parse_is_the_whole_file_parse(text: str):
    for chunk_size in (1, 8, 30):
        module = parse_module(text, chunked_above=0, chunk_size=chunk_size)
        assert module.code == text
        assert module.deep_equals(cst.parse_module(text))


def test_a_large_list_display_is_parsed_in_groups_of_elements(monkeypatch):
    """A statement that binds a long list (generated tables of calls, ``op_db = [OpInfo(...),
    ...]``) is parsed one group of elements at a time: the native parser's memory follows the
    text it is given. The tree is the whole parse's."""
    from repro_lint import groups as engine_groups

    rows = "".join(f"    OpInfo('op{i}', ref=lambda x: x + {i}, skips=(DecorateInfo(skip, 'T', 'test_{i}'),)),  # {i}, row\n" for i in range(400))
    text = f"import torch\n\nop_db: List[OpInfo] = [\n{rows}]\n\n\ndef f():\n    return op_db\n"
    groups = []
    original = engine_groups._parse_split
    monkeypatch.setattr(engine_groups, "_parse_split", lambda *args: groups.append(args[3]) or original(*args))
    module = parse_module(text, chunked_above=0, chunk_size=4096)
    assert len(groups) == 1 and len(groups[0][2]) >= 8  # cut into at least nine groups
    assert module.code == text
    assert module.deep_equals(cst.parse_module(text))


def test_a_large_class_is_parsed_in_groups_of_its_statements(monkeypatch):
    """A large class (``DistributedTest`` in torch's tests is 431 KB) is parsed one group of
    its body's statements at a time, a large class inside it in groups of its own body; the
    tree is the whole parse's, comments and blank lines where the whole parse puts them."""
    from repro_lint import groups as engine_groups

    methods = "".join(f"    # method {i}\n    def test_{i}(self):\n        return self.run({i})  # {i}\n\n" for i in range(300))
    inner = "".join(f"        def case_{i}(self):\n            pass\n      # odd {i}\n" for i in range(200))
    text = f"import torch\n\n\nclass Big(Base):\n{methods}    class Nested:\n{inner}    # end of Nested\n\n{methods}\n# after\nx = Big()\n"
    parsed = []
    original = engine_groups._parse_class
    monkeypatch.setattr(engine_groups, "_parse_class", lambda *args: parsed.append(args[5].name) or original(*args))
    groups = []
    original_groups = engine_groups._body_groups
    monkeypatch.setattr(engine_groups, "_body_groups", lambda *args: groups.append(list(original_groups(*args))) or groups[-1])
    module = parse_module(text, chunked_above=0, chunk_size=4096)
    assert parsed == ["Big", "Nested"]
    assert len(groups[0]) >= 8 and len(groups[1]) >= 2
    assert module.code == text
    assert module.deep_equals(cst.parse_module(text))
    # a class that holds one large class alone, as ``DistributedTest`` holds ``_DistTestBase``
    wrapped = "class DistributedTest:\n    class _DistTestBase(Base):\n" + methods.replace("\n    ", "\n        ").replace("    # method 0", "        # method 0", 1) + "\n\nx = 1\n"
    parsed.clear()
    module = parse_module(wrapped, chunked_above=0, chunk_size=4096)
    assert parsed == ["DistributedTest", "_DistTestBase"]
    assert module.code == wrapped
    assert module.deep_equals(cst.parse_module(wrapped))


def test_a_files_first_indentation_holds_for_the_blocks_of_every_group():
    """LibCST writes ``indent=None`` for a block indented as the first block of the module
    it parsed: a group parsed on its own must say so of the file's first indentation, or
    its blocks are written (and their positions computed) with another one."""
    text = "try:\n   import x\nexcept ImportError:\n   x = None\n\n\n" + "".join(f"def f{i}():\n    if x:\n        return {i}\n\n\n" for i in range(50))
    module = parse_module(text, chunked_above=0, chunk_size=256)
    assert module.default_indent == "   "
    assert module.code == text
    assert module.deep_equals(cst.parse_module(text))


def test_a_statement_that_is_not_a_plain_list_binding_is_not_split(monkeypatch):
    from repro_lint import groups as engine_groups

    monkeypatch.setattr(engine_groups, "_parse_split", lambda *args: pytest.fail("split"))
    for text in (
        "x = [1, 2, 3] + [4, 5, 6]\ny = 1\n",
        "x = {1: 2, 3: 4, 5: 6}\ny = 1\n",
        "x = [1, 2, 3]; y = [4, 5, 6]\nz = 1\n",
        "f([1, 2, 3, 4, 5, 6])\ny = 1\n",
    ):
        assert parse_module(text, chunked_above=0, chunk_size=2).deep_equals(cst.parse_module(text))


def test_statement_group_parse_on_real_files():
    files = [p for p in real_files() if p.stat().st_size > 20_000][:5]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        module = parse_module(text, chunked_above=0, chunk_size=4096)
        assert module.code == text, path
        assert module.deep_equals(cst.parse_module(text)), path


def test_parse_errors_are_the_same_as_libcsts():
    for text in ("x = (1,\n", "def f(:\n", "a = 1\nb = \n" * 50):
        with pytest.raises(cst.ParserSyntaxError):
            parse_module(text, chunked_above=0, chunk_size=8)


def test_parser_nodes_are_validated_again_after_the_parse():
    parse_module("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not an identifier")


# -- the traversal ----------------------------------------------------------------------------


class _Everything(cst.CSTVisitor):
    """LibCST's own traversal, recording (node, parent) for the node types rules see."""

    def __init__(self) -> None:
        self.stack: List[cst.CSTNode] = []
        self.seen: List[Tuple[int, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Call, cst.Attribute, cst.Assign, cst.FunctionDef, cst.ClassDef, cst.Arg)):
            self.seen.append((id(node), id(self.stack[-1]) if self.stack else 0))
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()


def test_the_traversal_visits_in_source_order_with_each_nodes_parent():
    path = next(p for p in real_files() if p.name == "functional.py" or p.name == "expression.py")
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    seen: List[Tuple[int, int]] = []
    left: Dict[int, int] = {}

    class Recorder(Rule):
        def __init__(self, file: FileContext) -> None:
            super().__init__(file)

        def _record(self, node: cst.CSTNode) -> None:
            parent = self.file.ancestors[-1] if self.file.ancestors else None
            seen.append((id(node), id(parent) if parent is not None else 0))

        visit_Call = visit_Attribute = visit_Assign = visit_FunctionDef = visit_ClassDef = visit_Arg = _record

        def leave_Call(self, node: cst.Call) -> None:
            left[id(node)] = len(seen)

    file = FileContext(str(path), "", module, ImportTable("m", False), Settings(root=REPO), None)  # type: ignore[arg-type]
    walk(module, file, [Recorder(file)], lambda rule, exc: (_ for _ in ()).throw(exc))
    reference = _Everything()
    module.visit(reference)
    assert seen == reference.seen
    assert len(left) == sum(1 for node_id, _ in seen if node_id in left)  # every Call was left once


def test_statement_group_parse_keeps_the_files_first_indentation():
    text = "import os\n\n\ndef f():\n\treturn 1\n"
    module = parse_module(text, chunked_above=0, chunk_size=4)
    assert module.default_indent == "\t" and module.deep_equals(cst.parse_module(text))


def test_a_failing_statement_group_parse_falls_back_to_the_whole_file(monkeypatch):
    """Positions in an error from one group would be relative to the group: the whole file is
    parsed instead, so errors carry their real position (and a good file still parses)."""
    from repro_lint import parse as engine_parse

    def failing(text, chunk_size):
        raise cst.ParserSyntaxError("in a group", lines=["x"], raw_line=1, raw_column=0)

    monkeypatch.setattr(engine_parse.groups, "parse_in_groups", failing)
    good = "a = 1\n" * 50
    assert parse_module(good, chunked_above=0, chunk_size=16).deep_equals(cst.parse_module(good))
    bad = "a = 1\n" * 50 + "b = (\n"
    with pytest.raises(cst.ParserSyntaxError) as caught:
        parse_module(bad, chunked_above=0, chunk_size=16)
    assert caught.value.raw_line > 50


def test_validation_comes_back_when_threads_parse_at_once():
    import threading

    texts = ["x = 1\n" * 2000] * 6
    threads = [threading.Thread(target=parse_module, args=(t,)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not an identifier")


# -- positions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    TRICKY[:5]
    + [
        "def f(\n    a,\n    b=1,\n):\n    '''doc'''\n    return a  # c\n",
        "x = f'{a!r:>{w}}' + \"é\" * 3\r\nif x:\r\n\tpass\r\n",
        "class C(B, metaclass=M):\n    @property\n    def p(self): return 1\n\n\n\n",
        "x = 1",
    ],
)
def test_positions_are_libcsts(text: str):
    from libcst.metadata import MetadataWrapper, PositionProvider

    from repro_lint.positions import node_positions

    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    where = node_positions(module, text)
    for node, rng in expected.items():
        assert where(node) == ((rng.start.line, rng.start.column), (rng.end.line, rng.end.column)), node


def test_positions_are_libcsts_on_real_files():
    from libcst.metadata import MetadataWrapper, PositionProvider

    from repro_lint.positions import node_positions

    for path in [p for p in real_files() if p.stat().st_size > 20_000][:3]:
        text = path.read_text(encoding="utf-8")
        module = cst.parse_module(text)
        expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        where = node_positions(module)
        mismatches = [
            node for node, rng in expected.items()
            if where(node) != ((rng.start.line, rng.start.column), (rng.end.line, rng.end.column))
        ]
        assert not mismatches, (path, mismatches[:3])


# -- large literal tables are kept verbatim ------------------------------------------------------

def _table_module(newline: str = "\n", value: str = "({i}, 'x{i}', torch.float16)", rows: int = 3000) -> str:
    """A module holding a large literal table; 10,000 rows make it larger than CHUNKED_ABOVE."""
    table = "".join(f"    {i}: {value.format(i=i)},  # row {i}{newline}" for i in range(rows))
    return newline.join([
        '"""Generated kernel table."""',
        "import torch",
        "",
        "# the table: generated, do not edit",
        "TABLE: dict[int, tuple] = {" + newline + table + "}  # end of table",
        "# after the table",
        "",
        "",
        "@decorator",
        "def main():",
        "    torch.backends.cudnn.benchmark = True",
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
        "",
    ])


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_large_literal_table_is_kept_verbatim_and_the_rest_is_the_whole_file_parse(newline: str):
    from repro_lint._libcst_internals import VerbatimStatement
    from repro_lint.groups import VERBATIM_ABOVE
    from repro_lint.positions import node_positions

    text = _table_module(newline)
    assert len(text) > VERBATIM_ABOVE
    module = parse_module(text, chunked_above=0)
    whole = cst.parse_module(text)
    assert module.code == text
    kinds = [type(s) for s in module.body]
    assert kinds.count(VerbatimStatement) == 1 and len(module.body) == len(whole.body)
    table = kinds.index(VerbatimStatement)
    for ours, theirs in zip(module.body, whole.body):
        if not isinstance(ours, VerbatimStatement):
            assert ours.deep_equals(theirs)
    # the comment lines around the table belong where a whole parse puts them
    assert module.body[table].leading_lines[-1].comment.value == "# the table: generated, do not edit"
    assert module.body[table + 1].leading_lines[0].comment.value == "# after the table"
    # positions after the table are those of the whole parse
    assign = module.body[table + 1].body.body[0]
    where = node_positions(module, text)
    line = text.split(newline).index("    torch.backends.cudnn.benchmark = True") + 1
    assert where(assign)[0] == (line, 4)


@pytest.mark.parametrize("ending", ["\n", "\n# a comment after it\n", "\n# no final newline", ""])
def test_a_large_literal_table_that_ends_the_file(ending: str):
    """Generated modules often end with their table (``annotated_args = {...}``): it is kept
    verbatim when a line break ends it, and the module writes back the same text."""
    from repro_lint._libcst_internals import VerbatimStatement

    rows = "".join(f"    torch.Tensor.op{i}: [{{'name': 'self', 'simple_type': 'Tensor'}}],\n" for i in range(1200))
    text = '"""Generated."""\nimport torch\n\nannotated_args = {\n' + rows + "}" + ending
    module = parse_module(text, chunked_above=0)
    assert module.code == text
    verbatim = any(isinstance(s, VerbatimStatement) for s in module.body)
    assert verbatim == ending.startswith("\n")
    if not verbatim:
        assert module.deep_equals(cst.parse_module(text))


def test_tables_that_compute_are_parsed_and_findings_after_a_table_are_found(tmp_path: Path):
    from repro_lint._libcst_internals import VerbatimStatement
    from repro_lint.parse import CHUNKED_ABOVE

    computing = _table_module(value="f({i})")
    assert not any(isinstance(s, VerbatimStatement) for s in parse_module(computing, chunked_above=0).body)
    settings = Settings(root=tmp_path)
    path = tmp_path / "kernels.py"
    text = _table_module(rows=10_000)
    assert len(text) > CHUNKED_ABOVE and any(isinstance(s, VerbatimStatement) for s in parse_module(text).body)
    path.write_text(text, encoding="utf-8")
    result = Linter(settings, ProjectContext(settings, [path])).lint_path(path)
    line = text.splitlines().index("    torch.backends.cudnn.benchmark = True") + 1
    assert ("RPL201", line) in [(d.code, d.line) for d in result.diagnostics]


def test_fixing_a_file_with_a_verbatim_table_keeps_the_table(tmp_path: Path):
    from repro_lint.fixer import fix_files

    text = _table_module(rows=10_000)
    path = tmp_path / "kernels.py"
    path.write_text(text, encoding="utf-8")
    settings = Settings(root=tmp_path)
    fix_files(Linter(settings, ProjectContext(settings, [path])), [path], jobs=1)
    fixed = path.read_text(encoding="utf-8")
    assert fixed != text and "torch.backends.cudnn.benchmark = False" in fixed
    start = text.index("TABLE")
    table = text[start:text.index("# after the table")]
    assert table in fixed
    compile(fixed, str(path), "exec")


def test_the_survey_in_worker_processes_learns_what_one_process_learns(corpus: List[Path], tmp_path: Path, monkeypatch):
    """With many files, workers sort them and compute the project context's facts; the parent
    then knows what it would have learnt by itself, and finds the same."""
    from repro_lint import run as engine_run

    script = tmp_path / "train_with_torch.py"
    script.write_text(
        "import torch\nimport torch.nn.functional as F\nfrom torch.utils.data import DataLoader\n"
        "from helpers import set_seed\n\n"
        "def main():\n    set_seed(0)\n    x = F.dropout(torch.ones(3), 0.5)\n    DataLoader([x], shuffle=True)\n"
        "    torch.backends.cudnn.benchmark = True\n\nif __name__ == '__main__':\n    main()\n",
        encoding="utf-8",
    )
    helpers = tmp_path / "helpers.py"
    helpers.write_text("import random\n\ndef set_seed(seed):\n    random.seed(seed)\n", encoding="utf-8")
    # not the installed packages' files: their folder would become a source root, and the
    # entry point's call graph would go through much of torch (slow here)
    installed = set(real_files())
    files = [*(p for p in corpus if p not in installed), helpers, script]
    settings = Settings(root=REPO, select=["ALL"])

    def run(jobs: int, survey_from: int) -> Tuple[List[Tuple], ProjectContext]:
        monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", survey_from)
        monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
        project = ProjectContext(settings, files)
        results = lint_files(Linter(settings, project), files, jobs=jobs)
        assert not [e for r in results for e in r.errors]
        return _findings(results), project

    alone, serial = run(1, 0)
    surveyed, parallel = run(2, 0)
    assert surveyed == alone
    assert {"RPL201", "RPL501"} <= {code for _, _, _, code, _, _ in surveyed}
    assert str(script) in parallel.entry_points() and parallel.entry_points() == serial.entry_points()
    assert parallel.enables_determinism() == serial.enables_determinism()
    # the parent learnt the facts it needed (from the survey's workers or by itself), the same
    # facts as one process, and no others
    assert str(helpers) in parallel._facts and set(parallel._facts) <= set(serial._facts)
    for key, facts in parallel._facts.items():
        assert serial._facts[key] == facts, key
    # below the threshold the parent decides alone, and learns no more
    _, small = run(2, 1 << 40)
    assert set(small._facts) <= set(serial._facts)


def _log_parallel_calls(monkeypatch, function: str, log: Path) -> Path:
    """Make every process of a run (with the survey and the pools on however small it is)
    write a line ``<pid> <path>`` to ``log`` for each call of the project context's
    ``function(path, text)``."""
    import os

    from repro_lint import context as engine_context, run as engine_run

    original = getattr(engine_context, function)

    def logged(path, text):
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {path}\n")
        return original(path, text)

    monkeypatch.setattr(engine_context, function, logged)
    monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)
    monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
    return log


def _project_with_modules(tmp_path: Path, texts: Dict[str, str], stem: str, body: str, count: int = 4) -> Tuple[Path, List[str]]:
    """A project folder holding ``texts`` (file name -> text) and ``count`` modules
    ``<stem><i>.py`` whose text is ``body`` with ``{i}`` filled in; the folder and the modules."""
    project = tmp_path / "project"
    project.mkdir()
    for name, text in texts.items():
        (project / name).write_text(text, encoding="utf-8")
    modules = []
    for i in range(count):
        path = project / f"{stem}{i}.py"
        path.write_text(body.replace("{i}", str(i)), encoding="utf-8")
        modules.append(str(path))
    return project, modules


def test_the_survey_extracts_no_facts_that_no_question_needs(tmp_path: Path, monkeypatch):
    """The survey's workers extract a module's facts only when deciding whether to parse a
    file asks for them (an entry point's call graph, the gates' question of which rules the
    file's own facts rule out); a library module that no file imports, and that is no entry
    point, has its facts extracted only for its own gate, once in the whole run, in one
    process, and the same modules' facts as in one process. The findings are those of one
    process."""
    extracted = _log_parallel_calls(monkeypatch, "extract_facts", tmp_path / "extracted.txt")
    project, unused = _project_with_modules(
        tmp_path,
        {
            "helpers.py": "import random\n\ndef set_seed(seed):\n    random.seed(seed)\n",
            "train.py": "import torch\nfrom helpers import set_seed\n\ndef main():\n    set_seed(0)\n"
            "    model = torch.nn.Linear(2, 2).cuda()\n    model(torch.rand(2)).sum().backward()\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
        "kernels",
        "import torch\n\ndef fast{i}():\n    torch.backends.cudnn.benchmark = True\n",
    )
    files = sorted(project.glob("*.py"))
    settings = Settings(root=project, select=["ALL"])

    def run(jobs: int) -> List[Tuple]:
        extracted.unlink(missing_ok=True)
        results = lint_files(Linter(settings, ProjectContext(settings, files)), files, jobs=jobs)
        assert not [e for r in results for e in r.errors]
        return _findings(results)

    serial = run(1)
    serial_extracted = {line.split()[1] for line in extracted.read_text(encoding="utf-8").splitlines()}
    parallel = run(2)
    lines = extracted.read_text(encoding="utf-8").splitlines()
    assert parallel == serial and {code for *_, code, _, _ in serial} >= {"RPL201", "RPL202"}
    parallel_extracted = {line.split()[1] for line in lines}
    assert str(project / "helpers.py") in parallel_extracted  # the entry point's call graph
    assert parallel_extracted == serial_extracted
    extractions = [line.split()[1] for line in lines]
    assert all(extractions.count(module) <= 1 for module in unused)


def test_the_facts_the_determinism_question_reads_are_extracted_by_the_survey(tmp_path: Path, monkeypatch):
    """Whether the project turns deterministic algorithms on is asked in the parent before the
    lint workers are forked, and reads the facts of every file that mentions determinism: the
    survey's workers extract them (in parallel, each once) and hand them on, and the parent
    extracts none of them itself. The findings are those of one process."""
    import os

    extracted = _log_parallel_calls(monkeypatch, "extract_facts", tmp_path / "extracted.txt")
    project, mentioning = _project_with_modules(
        tmp_path,
        {
            "train.py": "import torch\n\ndef main():\n    x = torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(1))\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
        "determinism",
        "import torch\n\ndef strict{i}():\n    torch.use_deterministic_algorithms(True)\n",
    )
    files = sorted(project.glob("*.py"))
    settings = Settings(root=project, select=["ALL"])

    def run(jobs: int) -> Tuple[List[Tuple], List[Tuple[int, str]]]:
        extracted.unlink(missing_ok=True)
        context = ProjectContext(settings, files)
        results = lint_files(Linter(settings, context), files, jobs=jobs)
        assert not [e for r in results for e in r.errors]
        assert context.enables_determinism()
        lines = extracted.read_text(encoding="utf-8").splitlines()
        return _findings(results), [(int(pid), path) for pid, path in (line.split() for line in lines)]

    serial, _ = run(1)
    parallel, calls = run(2)
    assert parallel == serial
    by_workers = [path for pid, path in calls if pid != os.getpid()]
    assert sorted(path for path in by_workers if path in mentioning) == sorted(mentioning)  # each once
    assert not [path for pid, path in calls if pid == os.getpid() and path in mentioning]


def test_facts_sent_between_processes_keep_only_what_they_hold(tmp_path: Path):
    """The survey's workers send every file's facts to the parent, which the lint workers are
    forked from: empty fields travel as nothing and come back as one shared immutable value,
    and the facts are equal to the ones sent."""
    import pickle

    from repro_lint.facts import BodyFacts, extract_facts

    source = (
        "import random\nimport torch\n\ndef helper(x, mode='bilinear'):\n    return x\n\n"
        "def main():\n    random.seed(0)\n    model = torch.nn.Linear(2, 2)\n    model.cuda()\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    facts = extract_facts(tmp_path / "train.py", source)
    assert facts is not None
    received = pickle.loads(pickle.dumps(facts))
    assert received == facts
    bodies = [facts.module_body, facts.main_body, *facts.functions.values()]
    sent = [pickle.dumps(body) for body in bodies]
    assert all(len(data) < len(pickle.dumps(body.__dict__)) for data, body in zip(sent, bodies))
    helper = received.functions["helper"]
    assert helper.calls == () and type(helper.effects) is frozenset and helper.local_params == {"x", "mode"}
    assert received.functions["main"].calls == facts.functions["main"].calls != []
    with pytest.raises(AttributeError):
        helper.effects.add("seeds")  # facts do not change once extracted
    assert BodyFacts("f") != BodyFacts("f", calls=["g"]) and BodyFacts("f") == pickle.loads(pickle.dumps(BodyFacts("f")))


def test_every_field_a_body_sets_for_itself_travels_between_processes():
    """The fields that few bodies fill are class attributes that a body sets for itself: each
    one must survive the trip from a survey worker, or the parallel run knows less than a
    serial one (``built_refs`` once did not: a class built where it was handed on counted as
    handed on, and its constructor's callers as unreadable, in parallel runs only)."""
    import pickle

    from repro_lint.facts import BodyFacts

    rare = [name for name, kind in BodyFacts.__annotations__.items() if "ClassVar" in str(kind)]
    assert {"cli_refs", "built_refs", "guard_tests", "guarded_uses", "self_sources"} <= set(rare)
    body = BodyFacts("f")
    for index, name in enumerate(rare):
        setattr(body, name, frozenset({f"value{index}"}))
    received = pickle.loads(pickle.dumps(body))
    assert [getattr(received, name) for name in rare] == [frozenset({f"value{index}"}) for index in range(len(rare))]
    assert received == body


@pytest.mark.parametrize(
    "code, text, runs",
    [
        # RPL108 needs a dataset and an RNG object's constructor
        ("RPL108", "from torch.utils.data import Dataset\nclass D(Dataset):\n    def __getitem__(self, i):\n        return i\n", False),
        ("RPL108", "import numpy as np\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
         "    def __init__(self):\n        self.rng = np.random.default_rng(0)\n", True),
        ("RPL108", "from numpy.random import RandomState as RS\nclass D(Dataset):\n    pass\n", True),
        # RPL501 needs a call into torch.nn.functional, which only an import spelling it reaches
        ("RPL501", "class M(nn.Module):\n    def forward(self, x):\n        return self.dropout(x)\n", False),
        ("RPL501", "from torch.nn import functional as F\nclass M(nn.Module):\n    def forward(self, x):\n"
         "        return F.dropout(x)\n", True),
    ],
)
def test_a_second_prefilter_condition_needs_one_of_its_names_too(code, text, runs):
    settings = Settings(root=REPO, select=[code])
    rule = all_rules()[code]
    assert rule.also_triggers
    assert rule.triggered_by(text, settings) is runs
    assert bool(Linter(settings).rules_for(text)) is runs
    # and the rule finds nothing where the second condition fails: the same findings unfiltered
    unfiltered = Linter(settings, prefilter=False).lint_bytes("t.py", text.encode()).diagnostics
    filtered = Linter(settings).lint_bytes("t.py", text.encode()).diagnostics
    assert [d.code for d in filtered] == [d.code for d in unfiltered]


def test_the_import_index_is_built_once_before_the_survey_workers(tmp_path: Path, monkeypatch):
    """Whether a module is imported by another file of the run (an entry point's first test)
    reads every file's imports; a parallel run builds that index in the parent before the
    survey workers are forked, so that they inherit it instead of each building it again."""
    import os

    indexed = _log_parallel_calls(monkeypatch, "imported_modules", tmp_path / "indexed.txt")
    files = []
    for i in range(6):
        path = tmp_path / f"step{i}.py"
        path.write_text(f"import torch\nfrom step{(i + 1) % 6} import run\n\nnet = torch.nn.Linear(2, 2)\nrun(net)\n", encoding="utf-8")
        files.append(path)
    settings = Settings(root=tmp_path, select=["ALL"])
    results = lint_files(Linter(settings, ProjectContext(settings, files)), files, jobs=2)
    assert not [e for r in results for e in r.errors]
    lines = indexed.read_text(encoding="utf-8").splitlines()
    assert {line.split()[0] for line in lines} == {str(os.getpid())}  # the parent only
    assert sorted(line.split()[1] for line in lines) == sorted(map(str, files))  # each file once


def _count_parses(monkeypatch) -> List[str]:
    """The texts the linter and the evaluations parse from now on (none kept from before)."""
    import repro_lint.linter as linter_module
    import repro_lint.rules.functions as functions

    parsed: List[str] = []

    def counting(real):
        return lambda text, *args, **kwargs: parsed.append(text) or real(text, *args, **kwargs)

    monkeypatch.setattr(linter_module, "parse_module", counting(linter_module.parse_module))
    monkeypatch.setattr(functions, "parse_module", counting(functions.parse_module))
    monkeypatch.setattr(functions, "_kept", type(functions._kept)())
    return parsed


def test_an_evaluation_that_reads_the_linted_module_takes_its_tree(tmp_path: Path, monkeypatch):
    """A script that calls its own loader factory (``get_data_loaders`` defined above ``run``)
    has the factory read as a project function: the module read is the linted file itself, so
    its tree is the one the linter parsed, not a second parse of the same text."""
    import repro_lint.rules.functions as functions

    script = tmp_path / "train.py"
    script.write_text(
        textwrap.dedent(
            """\
            from torch.utils.data import DataLoader

            def get_data_loaders(batch_size):
                train_loader = DataLoader(range(8), batch_size=batch_size, shuffle=True, num_workers=2)
                return train_loader

            def run():
                loader = get_data_loaders(4)
                for batch in loader:
                    pass

            if __name__ == "__main__":
                run()
            """
        ),
        encoding="utf-8",
    )
    parsed = _count_parses(monkeypatch)
    found = lint_files_in([script], tmp_path, ["RPL301"])
    assert [(d.code, d.line) for d in found] == [("RPL301", 4)]
    assert len(parsed) == 1  # the linter's parse; the factory's evaluation took that tree
    assert functions._linting is None  # and the linted file is let go of after its lint


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_files_words_are_searched_once_in_a_run(tmp_path: Path, monkeypatch, jobs: int):
    """The process that decides to parse a file (the survey's worker, or the parent) hands the
    words it found to the one that lints it: every file's text is searched for the trigger
    words once in all the processes of a run, with the findings of a search in each."""
    import os

    from repro_lint import linter as engine_linter, run as engine_run

    log = tmp_path / "searched.txt"
    original = engine_linter.Linter._words_of

    def logged(self, text):
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {text.splitlines()[0]!r}\n")
        return original(self, text)

    project = tmp_path / "project"
    project.mkdir()
    (project / "helpers.py").write_text("# helpers\nimport random\n\ndef set_seed(seed):\n    random.seed(seed)\n", encoding="utf-8")
    (project / "train.py").write_text(
        "# train\nimport torch\nfrom helpers import set_seed\n\ndef main():\n    set_seed(0)\n"
        "    torch.backends.cudnn.benchmark = True\n    model = torch.nn.Linear(2, 2).cuda()\n\n"
        "if __name__ == '__main__':\n    main()\n",
        encoding="utf-8",
    )
    for i in range(3):  # files no rule needs: searched, found wanting, only syntax-checked
        (project / f"plain{i}.py").write_text(f"# plain{i}\nx = {i}\n", encoding="utf-8")
    files = sorted(project.glob("*.py"))
    settings = Settings(root=project, select=["ALL"])

    def run(search_once: bool) -> List[Tuple]:
        monkeypatch.setattr(engine_run, "SURVEY_MIN_BYTES", 0)
        monkeypatch.setattr(engine_run, "POOL_MIN_WORK", 0)
        log.unlink(missing_ok=True)
        linter = Linter(settings, ProjectContext(settings, files))
        if not search_once:
            monkeypatch.setattr(linter, "take_hint", lambda path, hint: None)
        results = lint_files(linter, files, jobs=jobs)
        assert not [e for r in results for e in r.errors]
        return _findings(results)

    monkeypatch.setattr(engine_linter.Linter, "_words_of", logged)
    searched_again = run(search_once=False)
    assert len(log.read_text(encoding="utf-8").splitlines()) > len(files)  # the lint searches again
    found = run(search_once=True)
    searched = [line.split(" ", 1)[1] for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(searched) == sorted(repr(f"# {path.stem}") for path in files)
    assert found == searched_again and {"RPL201", "RPL202"} <= {code for *_, code, _, _ in found}


def test_a_hint_for_another_text_is_not_used():
    """A hint is used only for the text it was made of (the file may change between the survey
    and the lint): another text of the same file is searched afresh."""
    settings = Settings(root=REPO, select=["ALL"])
    surveyed, linting = Linter(settings), Linter(settings)
    before = "import torch\ntorch.backends.cudnn.benchmark = True\n"
    after = "import torch\nx = F.dropout(torch.ones(3), 0.5)\n"
    linting.take_hint("train.py", surveyed.hint(before))
    assert [r.code for r in linting.rules_for(after, "train.py")] == [r.code for r in Linter(settings).rules_for(after)]
    linting.take_hint("train.py", surveyed.hint(before))
    assert linting.found_words(before, "train.py") == Linter(settings).found_words(before)
    assert "RPL201" in [r.code for r in linting.rules_for(before, "train.py")]


def test_files_to_parse_are_linted_in_groups_of_neighbours(tmp_path: Path):
    """The files to parse go to the workers in a few groups per worker, each of files next to
    each other in path order (the modules their evaluations read are mostly the same), the
    groups biggest first; every file is in exactly one group."""
    from repro_lint import run as engine_run

    files = []
    for package in ("alpha", "beta", "gamma"):
        for i in range(12):
            path = tmp_path / package / f"m{i:02d}.py"
            files.append(path)
    files.append(tmp_path / "huge.py")
    settings = Settings(root=tmp_path)
    run = engine_run._Run(lambda: Linter(settings), ProjectContext(settings, files), files, None)
    shuffled = list(range(len(files)))
    shuffled.reverse()
    run.parse = [(index, 100_000 if files[index].name == "huge.py" else 1_000 + index) for index in shuffled]
    run.check = [(0, 10)]
    jobs = 2
    tasks = run.tasks(jobs)
    groups = [[index for index, _ in task] for _, task in tasks if task != [(0, files[0])]]
    assert sorted(index for group in groups for index in group) == sorted(shuffled)
    assert len(groups) <= engine_run.LINT_GROUPS_PER_JOB * jobs
    in_order = sorted(range(len(files)), key=lambda index: files[index].parts)
    for group in groups:
        start = in_order.index(group[0])
        assert group == in_order[start : start + len(group)]  # neighbours, in path order
    assert files.index(tmp_path / "huge.py") in [index for index, _ in tasks[0][1]]  # the biggest group first
    assert [cost for cost, _ in tasks] == sorted((cost for cost, _ in tasks), reverse=True)
    # the survey's files go to its workers in such groups too
    survey = engine_run.survey_tasks(files, run.parse, jobs)
    assert sorted(index for task in survey for index, _ in task) == sorted(shuffled)
    assert len(survey) <= engine_run.LINT_GROUPS_PER_JOB * jobs
    for task in survey:
        start = in_order.index(task[0][0])
        assert [index for index, _ in task] == in_order[start : start + len(task)]
    assert files.index(tmp_path / "huge.py") in [index for index, _ in survey[0]]


def test_prose_is_no_reason_for_an_ast_pass(tmp_path: Path, monkeypatch):
    """The cheap text checks that gate an entry point's facts (its ``__main__`` or a training
    call) read the code alone: a library module whose docstring shows ``loss.backward()`` and
    whose comment says ``if __name__ == "__main__":`` is no entry point, and its facts are never
    extracted; the same words in its code still count."""
    from repro_lint import context as engine_context
    from repro_lint.source import in_code, without_prose

    extracted: List[str] = []
    original = engine_context.extract_facts
    monkeypatch.setattr(engine_context, "extract_facts", lambda path, text: extracted.append(str(path)) or original(path, text))
    prose = tmp_path / "ops.py"
    prose.write_text(
        'def scatter(x):\n    """May be nondeterministic on CUDA.\n\n    Example::\n\n        loss = scatter(x).sum()\n'
        '        loss.backward()\n        optimizer.step()\n    """\n    return x\n\n'
        '# if __name__ == "__main__":  (run as a script in the tests)\n',
        encoding="utf-8",
    )
    code = tmp_path / "train.py"
    code.write_text(
        "import torch\n\ndef main():\n    torch.use_deterministic_algorithms(True)\n    loss = model().sum()\n"
        "    loss.backward()\n\nif __name__ == '__main__':\n    main()\n",
        encoding="utf-8",
    )
    settings = Settings(root=tmp_path, select=["ALL"])
    project = ProjectContext(settings, [prose, code])
    assert not project.is_entry_point(prose) and extracted == []
    assert project.is_entry_point(code) and extracted == [str(code)]
    # the check runs on the whole text first; the prose is taken out only when it holds there
    assert in_code(lambda text: "backward" in text, "x.backward()  # and backward\n")
    assert not in_code(lambda text: "backward" in text, 'x.step()  # not backward\n"""backward"""\n')
    text = prose.read_text(encoding="utf-8")
    assert without_prose(text) is without_prose(text) and "backward" not in without_prose(text)



@pytest.mark.parametrize(
    "text",
    [
        "import torch\nloader = DataLoader(ds, num_workers=4)  # comment\n",
        "x_1 = f(a.b, c[d], **kw) + 2e10 - 0x_ff\n\tif y:\n\r\n  z\f= '''s t''' \"u\"\n",
        "données = torch.randn(3)\nπ = 3.14\nfor ñ in range(2): pass\n",
        "a\u00a0b = 1\nc\u2028d = 2\n",  # non-ASCII spaces and line separators cut names as \w does
        "",
    ],
)
def test_names_are_the_runs_a_regular_expression_finds(text: str):
    """The prefilter's names of a text (cut by bytes.translate when it is ASCII) are what
    ``\\w+`` finds, in ASCII and in any other text."""
    import re

    from repro_lint.source import names_in

    assert names_in(text) == frozenset(re.findall(r"\w+", text))
    assert names_in(without_prose(text)) == frozenset(re.findall(r"\w+", without_prose(text)))
