"""The children of a LibCST node worth looking at: what ``node.children`` gives, without
whitespace, comments and punctuation, and much cheaper (LibCST builds ``children`` by running a
visitor over the node). The traversal (:mod:`repro_lint.walk`) and every search through a
subtree use it."""

from __future__ import annotations

import dataclasses
import typing
from typing import Dict, FrozenSet, List, Sequence, Set, Tuple

from ._lazy import cst
from . import _libcst_internals  # noqa: F401 - its node type is one of the kinds

#: fields that only hold whitespace, comments and punctuation: never worth visiting
_TRIVIA_FIELDS = frozenset(
    {
        "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
        "trailing_whitespace", "semicolon", "comma", "equal", "dot", "lbracket", "rbracket",
        "lbrace", "rbrace", "colon", "newline", "asynchronous", "star_tok",
    }
)
#: source order where the dataclass field order differs from it
_FIELD_ORDER = {
    cst.FunctionDef: ("decorators", "name", "params", "returns", "type_parameters", "body"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
}


def _holds_nodes(annotation: object) -> bool:
    if isinstance(annotation, type):
        return issubclass(annotation, cst.CSTNode)
    return any(_holds_nodes(arg) for arg in typing.get_args(annotation))


def _resolved(annotation: object) -> bool:
    """Is ``annotation`` free of names still to be resolved (a string, a ``ForwardRef``)?"""
    if isinstance(annotation, (str, typing.ForwardRef)):
        return False
    return all(_resolved(arg) for arg in typing.get_args(annotation))


def _child_fields(node_type: type) -> Tuple[str, ...]:
    """The fields of ``node_type`` that can hold nodes worth visiting, in source order. The
    fields' own annotations decide, where they hold no name still to be resolved (LibCST
    declares nearly all as types); otherwise ``typing.get_type_hints`` resolves them, as it did
    for every class (a one-file run: 843 M -> 828 M instructions; every process that walks a
    tree pays it once per node class)."""
    fields = dataclasses.fields(node_type)
    if node_type in _FIELD_ORDER:
        names: Sequence[str] = _FIELD_ORDER[node_type]
    else:
        names = [f.name for f in fields if f.name not in _TRIVIA_FIELDS and not f.name.startswith("whitespace")]
    hints: Dict[str, object] = {f.name: f.type for f in fields}
    if not all(_resolved(hints[name]) for name in names if name in hints):
        try:
            hints = typing.get_type_hints(node_type)
        except Exception:  # pragma: no cover - unresolvable annotations: keep every field
            return tuple(names)
    return tuple(name for name in names if name not in hints or _holds_nodes(hints[name]))


#: node type -> its child fields in reverse source order (the traversal pushes them on a stack)
_REVERSED_FIELDS: Dict[type, Tuple[str, ...]] = {}
#: node type -> its child fields in source order (:func:`syntax_children`)
_FIELDS: Dict[type, Tuple[str, ...]] = {}
_NODE_TYPES: Set[type] = set()


def _node_types() -> Set[type]:
    if not _NODE_TYPES:
        stack: List[type] = [cst.CSTNode]
        while stack:
            for sub in stack.pop().__subclasses__():
                if sub not in _NODE_TYPES:
                    _NODE_TYPES.add(sub)
                    stack.append(sub)
    return _NODE_TYPES


def node_kinds(*classes: type) -> FrozenSet[type]:
    """The node types that ``isinstance(node, classes)`` accepts: the classes and all their
    subclasses. LibCST's nodes are ABCs, so ``isinstance`` calls ABCMeta's ``__instancecheck__``
    (a Python function) for every class it does not match at once, about ten times the cost of
    ``type(node) in kinds``; the subtree searches that test every node use the latter (a test
    checks that every node type is in the kinds of its bases)."""
    found: Set[type] = set()
    stack = list(classes)
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    return frozenset(found)


#: the kinds that searches through subtrees test most (``type(node) in CALLS``)
CALLS = node_kinds(cst.Call)
ASSIGNMENTS = node_kinds(cst.Assign, cst.AnnAssign, cst.AugAssign)
#: the nodes whose bodies are scopes of their own: functions, classes and lambdas
DEFINITIONS = node_kinds(cst.FunctionDef, cst.ClassDef, cst.Lambda)


def syntax_children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """``node.children`` without whitespace, comments and punctuation, in source order, and
    cheaper (LibCST builds ``children`` by running a visitor over the node). Every search
    through a subtree calls it for each node (nearly 500,000 times in a cold run of two of the
    project corpus's repositories): its fields in source order are looked up once per node type,
    and a sequence's children are taken by a list comprehension, not a generator."""
    node_type = type(node)
    fields = _FIELDS.get(node_type)
    if fields is None:
        fields = _FIELDS[node_type] = _child_fields(node_type)
    node_types = _NODE_TYPES or _node_types()
    found: List[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        if type(value) in (list, tuple):
            found.extend([child for child in value if type(child) in node_types])
        elif type(value) in node_types:
            found.append(value)
    return found
