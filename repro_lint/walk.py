"""The traversal: one iterative walk per file that calls every rule's and analysis's
``visit_<Node>``/``leave_<Node>`` handlers, in source order."""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, List, Sequence, Tuple

from ._lazy import cst
from .children import _REVERSED_FIELDS, _child_fields, _node_types
from .rules.base import FileContext

@functools.lru_cache(maxsize=None)
def _handlers_of(rule_type: type) -> Tuple[Tuple[type, str, bool], ...]:
    """(node type, method name, is_leave) for every visit_X/leave_X a rule defines."""
    found = []
    for attr in dir(rule_type):
        for prefix, is_leave in (("visit_", False), ("leave_", True)):
            if attr.startswith(prefix):
                node_type = getattr(cst, attr[len(prefix):], None)
                if isinstance(node_type, type) and issubclass(node_type, cst.CSTNode):
                    found.append((node_type, attr, is_leave))
    return tuple(found)


_LEAVE = object()  # stack marker: the node on top of ``ancestors`` is done


def walk(
    module: cst.Module,
    file: FileContext,
    rules: Sequence[Any],
    on_error: Callable[[Any, BaseException], None],
) -> None:
    """Visit every node once, in source order, calling the handlers of each of ``rules``
    (rules and analyses, in the order given) for its type.

    Iterative (no recursion limit on deeply nested code). ``file.ancestors`` holds the path
    from the module to the current node's parent while handlers run. The loop is the
    linter's hottest code: per node it does one dict lookup for handlers and one for the
    node's child fields, and leaves (names, literals, operators) are never pushed.
    """
    visit: Dict[type, List[Tuple[Any, Callable]]] = {}
    leave: Dict[type, List[Tuple[Any, Callable]]] = {}
    for rule in rules:
        for node_type, attr, is_leave in _handlers_of(type(rule)):
            (leave if is_leave else visit).setdefault(node_type, []).append((rule, getattr(rule, attr)))
    failed: set = set()

    def call(handlers: List[Tuple[Any, Callable]], node: cst.CSTNode) -> None:
        for rule, handler in handlers:
            if rule in failed:
                continue
            try:
                handler(node)
            except Exception as exc:  # a bug in one rule must not hide the others' findings
                failed.add(rule)
                on_error(rule, exc)

    node_types = _node_types()
    fields_of = _REVERSED_FIELDS
    ancestors = file.ancestors
    enter, exit_ = ancestors.append, ancestors.pop
    stack: List[object] = [module]
    pop, push = stack.pop, stack.append
    leave_marker = _LEAVE
    list_types = (list, tuple)
    while stack:
        node = pop()
        if node is leave_marker:
            node = exit_()
            handlers = leave.get(type(node))
            if handlers:
                call(handlers, node)  # type: ignore[arg-type]
            continue
        node_type = type(node)
        handlers = visit.get(node_type)
        if handlers:
            call(handlers, node)  # type: ignore[arg-type]
        fields = fields_of.get(node_type)
        if fields is None:
            fields = fields_of[node_type] = tuple(reversed(_child_fields(node_type)))
        if not fields:  # a leaf: no ancestors to keep, leave right away
            handlers = leave.get(node_type)
            if handlers:
                call(handlers, node)  # type: ignore[arg-type]
            continue
        push(leave_marker)
        enter(node)  # type: ignore[arg-type]
        for name in fields:  # reversed, so the first child is popped first
            value = getattr(node, name)
            value_type = type(value)
            if value_type in list_types:
                for child in reversed(value):
                    if type(child) in node_types:
                        push(child)
            elif value_type in node_types:
                push(value)
    assert not ancestors


