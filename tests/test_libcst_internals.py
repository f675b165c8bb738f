"""What repro_lint._libcst_internals changes inside LibCST, compared with LibCST's public
API on real code: an upgrade that breaks one of them fails here, loudly."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from conftest import REPO
from repro_lint import _libcst_internals
from repro_lint._libcst_internals import ParserOutput
from repro_lint.parse import parse_module
from repro_lint.positions import node_positions

SAMPLES = [REPO / "examples" / "train.py", REPO / "repro_lint" / "context.py", REPO / "repro_lint" / "rules" / "dataloader.py"]


def test_the_libcst_internals_we_use_exist():
    from libcst._nodes.base import CSTNode
    from libcst._nodes.internal import CodegenState, visit_sequence  # noqa: F401

    assert "__post_init__" in CSTNode.__dict__, "CSTNode.__post_init__ is what ParserOutput switches off"
    for name in ("add_token", "add_indent_tokens", "before_codegen", "after_codegen", "record_syntactic_position", "pop_trailing_newline"):
        assert hasattr(CodegenState, name), f"CodegenState.{name} is overridden by OffsetCodegenState"


def test_the_fast_parse_gives_libcsts_tree_and_restores_validation():
    from libcst._nodes.base import CSTNode

    before = CSTNode.__dict__["__post_init__"]
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        fast = parse_module(text)
        assert fast.deep_equals(cst.parse_module(text)), path
        assert fast.code == text
    assert CSTNode.__dict__["__post_init__"] is before
    with ParserOutput():
        assert CSTNode.__dict__["__post_init__"] is not before
    assert CSTNode.__dict__["__post_init__"] is before
    try:  # validation is back: LibCST refuses an invalid node again
        cst.Name("not a name")
    except cst.CSTValidationError:
        pass
    else:
        raise AssertionError("validation stayed off after the parse")


def test_offset_positions_match_position_provider():
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        module = cst.parse_module(text)
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        expected = wrapper.resolve(PositionProvider)
        where = node_positions(module, text)
        checked = 0
        for node, position in expected.items():
            assert where(node) == ((position.start.line, position.start.column), (position.end.line, position.end.column)), (path, node)
            checked += 1
        assert checked > 100


def test_a_verbatim_statement_writes_its_text_back():
    statement = _libcst_internals.VerbatimStatement("TABLE = [1, 2, 3]\n")
    module = cst.Module(body=[statement])
    assert module.code == "TABLE = [1, 2, 3]\n"
    assert node_positions(module)(statement) == ((1, 0), (2, 0))


def test_the_checked_versions_cover_the_installed_libcst():
    from importlib.metadata import version

    installed = tuple(int(p) for p in version("libcst").split(".")[:2])
    low = tuple(int(p) for p in _libcst_internals.CHECKED_VERSIONS[0].split("."))
    # a newer LibCST than the newest checked is allowed: the tests above are what vouch for it
    assert low <= installed, f"LibCST {installed} is older than the oldest version checked"


TRICKY = '''#!/usr/bin/env python
# header comment

import os; import sys


# a comment before a decorator
@decorator(
    1,
)

# between decorator and def
def f(x):
    return x  # trailing

    # indented comment after the block
# dedented comment

class C:
    a = 1; b = 2
if x:
    pass
else:  # comment
    y = [
        1,
    ]
async def g():
    await h()
'''


def _all_nodes(module):
    from repro_lint.children import syntax_children

    stack, found = list(module.body), []
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(syntax_children(node))
    return found


def test_positions_of_some_statements_are_those_of_the_whole_module():
    """Given the nodes that will be asked about, only the top-level statements holding them
    are generated, each from its offset in the text: the spans are those of the whole pass."""
    from repro_lint.positions import statement_spans

    for text in [TRICKY, TRICKY.replace("\n", "\r\n")] + [path.read_text(encoding="utf-8") for path in SAMPLES]:
        module = cst.parse_module(text)
        whole = node_positions(module, text)
        nodes = _all_nodes(module)
        for targets in (nodes, nodes[::7], nodes[-3:], [module.body[-1]]):
            assert statement_spans(module, text, targets) is not None
            where = node_positions(module, text, targets)
            for node in targets:
                assert where(node) == whole(node), node


def test_positions_fall_back_to_the_whole_module_where_statements_cannot_be_placed():
    from repro_lint.positions import statement_spans

    no_newline = "import os\nx = 1"
    module = cst.parse_module(no_newline)
    assert statement_spans(module, no_newline, [module.body[-1]]) is None  # the last newline is dropped
    assert node_positions(module, no_newline, [module.body[-1]])(module.body[-1]) == node_positions(module, no_newline)(module.body[-1])
    text = "import os\n"
    module = cst.parse_module(text)
    assert statement_spans(module, text, [module]) is None  # the module is no top-level statement
    newer = "type Alias = int\nx = 1\n"  # PEP 695: LibCST parses it, CPython 3.11 does not
    module = cst.parse_module(newer)

    # the statements are placed by a scan of the text, not by CPython's parser: syntax newer
    # than the running Python's is placed too
    assert statement_spans(module, newer, [module.body[-1]]) is not None
    assert node_positions(module, newer, [module.body[-1]])(module.body[-1]) == ((2, 0), (2, 5))


NESTED = '''"""doc"""
class A(Base):
    """class doc"""

    # a comment
    @property
    @other(
        2)
    def p(self):
        if self.x:
            return 1
        elif self.y:  # why
            return 2
        else:
            try:
                v = f(
      1)  # continued lines may dedent
            except* ValueError:
                v = \\
                    3
            finally:
                pass
        return g("""
not code
    def q(): pass
""")

  # a comment at an odd column
    async def q(self): await r()
    class Inner:
\t# a comment indented by a tab
        def m(self):
            return 4; x = 5
def t():
\tif x:
\t\treturn 1
\telse:
\t\tpass
for i in range(3):
    print(i)
else:
    print("done")
with open(p) as fh:
    while fh:
        fh.read()
match command:
    case "go":
        go()
    case _:
        stop()
'''


def test_positions_inside_compound_statements_generate_only_the_statement_that_holds_them():
    """A target inside the indented body of a compound statement (a method of a class, the
    ``else`` of a loop is not its body) is placed by generating the statement of that body
    alone, with its blocks' indentation: the spans are those of the whole pass, and the
    statements around it are not generated."""
    from repro_lint.positions import statement_spans

    for text, step in [(NESTED, 1), (NESTED.replace("\n", "\r\n"), 1)] + [(path.read_text(encoding="utf-8"), 97) for path in SAMPLES]:
        module = cst.parse_module(text)
        whole = node_positions(module, text)
        for node in _all_nodes(module)[::step]:
            spans = statement_spans(module, text, [node])
            assert spans is not None, node
            assert node_positions(module, text, [node])(node) == whole(node)
    module = cst.parse_module(NESTED)
    call = next(n for n in _all_nodes(module) if isinstance(n, cst.Call) and cst.Module([]).code_for_node(n.func) == "r")
    spans = statement_spans(module, NESTED, [call])
    assert spans is not None and spans[call] == whole_offsets(module)[call]
    cls = module.body[1]
    assert cls not in spans and cls.body.body[-2] in spans  # ``async def q`` alone
    # the lines a fix is placed at: a blank line before a nested statement, the end of a line
    method = cls.body.body[1]
    blank = method.leading_lines[0]
    end = method.body.body[0].body.body[0].trailing_whitespace
    spans = statement_spans(module, NESTED, [blank, end])
    assert spans is not None and cls not in spans
    offsets = whole_offsets(module)
    assert spans[blank] == offsets[blank] and spans[end] == offsets[end]


def whole_offsets(module):
    from repro_lint._libcst_internals import OffsetCodegenState

    state = OffsetCodegenState(module)
    module._codegen(state)
    return state.spans


def _node_classes():
    from repro_lint.children import _node_types

    return sorted(_node_types() | {cst.CSTNode}, key=lambda t: t.__name__)


def test_concrete_node_classes_have_no_subclasses():
    """The subtree searches compare ``type(node) is cst.Name`` instead of calling
    ``isinstance`` (whose ABC check is ten times dearer on a miss): the same only while no
    concrete node class is subclassed, by LibCST or by us."""
    import inspect

    concrete = [t for t in _node_classes() if not inspect.isabstract(t) and not t.__name__.startswith("Base") and t is not cst.CSTNode]
    assert len(concrete) > 150
    assert [t for t in concrete if t.__subclasses__()] == []


@pytest.mark.parametrize(
    "classes",
    [
        (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Call),
        (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.BaseExpression),
        (cst.BaseStatement,),  # our VerbatimStatement is one
        (cst.BaseCompoundStatement, cst.BaseSuite),
    ],
)
def test_node_kinds_are_what_isinstance_accepts(classes):
    from repro_lint import values
    from repro_lint.children import node_kinds
    from repro_lint._libcst_internals import VerbatimStatement

    kinds = node_kinds(*classes)
    for node_type in _node_classes():
        assert (node_type in kinds) is issubclass(node_type, classes), node_type
    assert (VerbatimStatement in kinds) is issubclass(VerbatimStatement, classes)
    # and the module constants built with it
    assert values._NOT_SEARCHED_FOR_GLOBALS == node_kinds(cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.BaseExpression)
