"""The only code that reaches into LibCST's internals, kept small and in one place.

- :class:`ParserOutput`: while a parse runs, node constructors skip ``_validate`` (the parser
  only builds valid nodes; the checks cost about a quarter of the parse).
- :class:`VerbatimStatement`: a statement node that writes its source text back unchanged.
- :class:`OffsetCodegenState`: LibCST's code generation state, recording each node's span
  as character offsets instead of ``PositionProvider``'s line/column objects.

Checked against LibCST 1.1 to 1.9 (``CSTNode.__post_init__``, ``CodegenState``'s
``add_token``/``add_indent_tokens``/``before_codegen``/``after_codegen``/
``record_syntactic_position``/``pop_trailing_newline``, and ``visit_sequence``).
``tests/test_libcst_internals.py`` compares each of them with LibCST's public API on real
code, so an upgrade that breaks one fails loudly there.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ._lazy import cst, import_libcst

import_libcst()  # LibCST's own import, before its submodules are named here (compiled once)
from libcst._nodes.internal import CodegenState  # noqa: E402

#: the LibCST versions this module was checked against (the test suite checks the installed one)
CHECKED_VERSIONS = ("1.1", "1.9")


@dataclass(frozen=True)
class VerbatimStatement(cst.BaseStatement):
    """A top-level statement kept as its source text (see :data:`VERBATIM_ABOVE`): code
    generation writes it back unchanged, so the module's code and every position after it
    are those of a full parse; rules see a statement without children."""

    code: str
    leading_lines: Sequence[cst.EmptyLine] = ()

    def _visit_and_replace_children(self, visitor: Any) -> "VerbatimStatement":
        from libcst._nodes.internal import visit_sequence

        return VerbatimStatement(code=self.code, leading_lines=visit_sequence(self, "leading_lines", self.leading_lines, visitor))

    def _codegen_impl(self, state: CodegenState) -> None:
        for line in self.leading_lines:
            line._codegen(state)
        with state.record_syntactic_position(self):
            state.add_token(self.code)




class ParserOutput:
    """While active, LibCST node constructors skip ``_validate``: the parser only builds valid
    nodes, and the checks cost about a quarter of the parse (LibCST's own ``PERF`` note on
    ``CSTNode.__post_init__`` says as much). Only the parse runs with it; nodes that rules or
    fixes build later are validated as usual. Safe with threads: the original method comes
    back when the last parse running in this process ends."""

    _lock = threading.Lock()
    _active = 0
    _original: Any = None

    def __enter__(self) -> None:
        from libcst._nodes.base import CSTNode

        cls = type(self)
        with cls._lock:
            if cls._active == 0:
                cls._original = CSTNode.__dict__.get("__post_init__")
                if cls._original is not None:
                    CSTNode.__post_init__ = _no_validation  # type: ignore[assignment]
            cls._active += 1

    def __exit__(self, *exc: object) -> None:
        from libcst._nodes.base import CSTNode

        cls = type(self)
        with cls._lock:
            cls._active -= 1
            if cls._active == 0 and cls._original is not None:
                CSTNode.__post_init__ = cls._original  # type: ignore[assignment]


def _no_validation(self: object) -> None:
    return None


class OffsetCodegenState(CodegenState):
    """LibCST's code generation, keeping for each node what ``PositionProvider`` keeps (the
    syntactic range where the node records one, else the whitespace-inclusive range), but as
    character offsets: no line/column objects are made per token and node, which matters for
    files that report."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.offset = 0
        self.popped = ""
        self.spans: Dict[cst.CSTNode, Tuple[int, int]] = {}
        self.starts: List[int] = []

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        # PositionProvider does not step back over the dropped newline: nor do we
        if self.tokens:
            self.popped = self.tokens.pop()

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        if node not in self.spans:
            self.spans[node] = (start, self.offset)

    @contextlib.contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None:
                start = self.spans[start_node][0]
            if end_node is not None:
                end = self.spans[end_node][1]
            self.spans[node] = (start, end)


