"""What a rule is, and the per-file context it sees.

A rule is one class that declares, in one place, its code, kebab-case name, message (which
says what to do), whether it is on by default, whether and how safely it can be fixed, and
the words a file must contain for the rule to possibly fire (the text prefilter uses them,
so a rule can never be skipped by mistake). Subclassing registers the rule.

Rules get ``visit_<Node>``/``leave_<Node>`` calls from one shared traversal per file and
call :meth:`Rule.report`. Nodes are turned into positions only after the traversal, and only
for files that reported something.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Dict, Iterable, List, Optional, Sequence, Tuple, Type, Union

import libcst as cst

from ..diagnostics import SAFE, UNSAFE
from ..names import ImportTable

if TYPE_CHECKING:  # pragma: no cover
    from ..config import Settings
    from ..context import ProjectContext

RULES: Dict[str, Type["Rule"]] = {}


def _name_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def mentions(text: str, word: str, whole: bool) -> bool:
    """Does ``text`` contain ``word`` (with ``whole``: as a whole identifier, not inside a
    longer name: ``pad`` is not in ``padding``, ``put_`` is not in ``index_put_``)?
    (``str.find`` in a loop: a regular expression with look-arounds is ten times slower.)"""
    start = text.find(word)
    if not whole:
        return start >= 0
    size = len(word)
    while start >= 0:
        end = start + size
        if (start == 0 or not _name_char(text[start - 1])) and (end == len(text) or not _name_char(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


@dataclass
class NodeEdit:
    """An edit anchored on a CST node, turned into a text :class:`~repro_lint.diagnostics.Edit`
    once positions are known. ``kind`` is ``replace``, ``before`` (insert at the node's start),
    ``after`` (insert at its end), ``line_before`` (insert at column 0 of the node's first
    line) or ``line_after`` (insert at column 0 of the line after the node's last line).
    ``node`` may be None with ``at=(line, col)``. ``content`` uses ``\n`` line breaks; the
    fixer converts them to the file's own."""

    kind: str
    content: str
    node: Optional[cst.CSTNode] = None
    at: Optional[Tuple[int, int]] = None


@dataclass
class PendingReport:
    code: str
    message: str
    node: cst.CSTNode
    edits: List[NodeEdit] = field(default_factory=list)
    fix_message: str = ""
    applicability: Optional[str] = None


class FileContext:
    """Everything a rule may ask about the file being linted."""

    def __init__(
        self,
        path: str,
        source: str,
        module: cst.Module,
        names: ImportTable,
        settings: "Settings",
        project: "ProjectContext",
    ) -> None:
        self.path = path
        self.source = source
        self.module = module
        self.names = names
        self.settings = settings
        self.project = project
        self.ancestors: List[cst.CSTNode] = []  # maintained by the traversal
        self.reports: List[PendingReport] = []

    @property
    def module_name(self) -> str:
        return self.names.module_name

    @property
    def is_entry_point(self) -> bool:
        return self.project.is_entry_point(self.path, self.source)

    def qualify(self, node: cst.CSTNode) -> Optional[str]:
        return self.names.qualify(node)

    def code_for(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    @property
    def parent(self) -> Optional[cst.CSTNode]:
        """The parent of the node currently being visited."""
        return self.ancestors[-1] if self.ancestors else None


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    message: ClassVar[str] = ""
    #: on unless a user selects it explicitly (opinionated or situational checks are off)
    default: ClassVar[bool] = True
    #: None (no fix), SAFE or UNSAFE
    fix: ClassVar[Optional[str]] = None
    fix_message: ClassVar[str] = ""
    #: a file that contains none of these words cannot produce this rule (text prefilter)
    triggers: ClassVar[Tuple[str, ...]] = ()
    #: the trigger words are names the rule needs written out whole (a module, function,
    #: class, keyword or environment variable name): then ``padding`` does not trigger ``pad``.
    #: False where a word stands for a family of names (``seed`` for ``manual_seed``,
    #: ``set_seed``, ``seed_everything``, ...)
    whole_words: ClassVar[bool] = False
    #: rules that only make sense with the whole project in view (entry points, helpers)
    needs_project: ClassVar[bool] = False
    #: fires only in entry points: the engine asks the project context (a cheap ``ast`` check)
    #: before it parses a file with LibCST for this rule alone
    entry_points_only: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.code:
            return  # an abstract helper base
        if cls.code in RULES:
            raise RuntimeError(f"rule code {cls.code} registered twice")
        if not cls.name or not cls.message:
            raise RuntimeError(f"rule {cls.code} must declare a name and a message")
        if not cls.triggers and cls.code != "RPL001":
            raise RuntimeError(f"rule {cls.code} must declare its trigger words")
        if cls.fix not in (None, SAFE, UNSAFE):
            raise RuntimeError(f"rule {cls.code}: fix must be None, 'safe' or 'unsafe'")
        RULES[cls.code] = cls

    @classmethod
    def trigger_words(cls, settings: "Settings") -> Tuple[str, ...]:
        """The prefilter words under ``settings``: :attr:`triggers`, plus what the configuration
        adds (e.g. the names of configured seeding helpers). Override only to add words."""
        return cls.triggers

    @classmethod
    def triggered_by(cls, text: str, settings: "Settings") -> bool:
        """Does ``text`` contain one of this rule's trigger words (the prefilter's question)?"""
        return any(mentions(text, word, cls.whole_words) for word in cls.trigger_words(settings))

    def __init__(self, file: FileContext) -> None:
        self.file = file

    # -- helpers for rule bodies -----------------------------------------------------------
    def qualify(self, node: cst.CSTNode) -> Optional[str]:
        return self.file.names.qualify(node)

    def report(
        self,
        node: cst.CSTNode,
        message: Optional[str] = None,
        *,
        edits: Sequence[NodeEdit] = (),
        fix_message: Optional[str] = None,
        applicability: Optional[str] = None,
        **fmt: Any,
    ) -> None:
        """Report ``node``. ``message`` defaults to the class message formatted with ``fmt``.

        ``edits`` make the finding fixable; they are ignored if the rule declares no fix.
        """
        text = message if message is not None else (self.message.format(**fmt) if fmt else self.message)
        report = PendingReport(self.code, text, node)
        if edits and self.fix is not None:
            report.edits = list(edits)
            report.fix_message = fix_message or (self.fix_message.format(**fmt) if fmt else self.fix_message)
            report.applicability = applicability or self.fix
        self.file.reports.append(report)

    @staticmethod
    def replace(node: cst.CSTNode, content: Union[str, cst.CSTNode], module: Optional[cst.Module] = None) -> NodeEdit:
        if isinstance(content, cst.CSTNode):
            content = (module or cst.Module(body=[])).code_for_node(content)
        return NodeEdit("replace", content, node)

    @staticmethod
    def insert_before(node: cst.CSTNode, content: str) -> NodeEdit:
        return NodeEdit("before", content, node)

    @staticmethod
    def insert_after(node: cst.CSTNode, content: str) -> NodeEdit:
        return NodeEdit("after", content, node)

    @staticmethod
    def insert_at(line: int, col: int, content: str) -> NodeEdit:
        return NodeEdit("at", content, None, (line, col))

    def ensure_import(self, module: str, name: str) -> Optional[NodeEdit]:
        """An edit adding ``from module import name`` after the file's leading imports, or None
        when ``name`` is already imported from there. Several fixes may ask for the same import:
        they produce identical edits, which the fixer applies once."""
        if self.file.names.aliases.get(name) == f"{module}.{name}":
            return None
        line = f"from {module} import {name}\n"
        anchor = header_end(self.file.module)
        if anchor is None:
            return self.insert_at(1, 0, line)
        return NodeEdit("line_after", line, anchor)


# -- small CST helpers shared by rules ---------------------------------------------------


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_import_line(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in stmt.body
    )


def header_end(module: cst.Module) -> Optional[cst.CSTNode]:
    """The last statement of the module's header (docstring, ``from __future__`` and the
    leading block of imports): new imports and module-level setup go right after it.
    None when the module starts with code."""
    last = None
    for index, stmt in enumerate(module.body):
        if (index == 0 and _is_docstring(stmt)) or _is_import_line(stmt):
            last = stmt
            continue
        break
    return last



def keyword_arg(call: cst.Call, name: str) -> Optional[cst.Arg]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def argument(call: cst.Call, name: str, position: Optional[int] = None) -> Optional[cst.Arg]:
    """The argument bound to parameter ``name`` (by keyword, or by ``position`` if given).

    Positional lookup stops at the first ``*args``/``**kwargs``: after it positions are unknown.
    """
    found = keyword_arg(call, name)
    if found is not None or position is None:
        return found
    index = 0
    for arg in call.args:
        if arg.star or arg.keyword is not None:
            return None
        if index == position:
            return arg
        index += 1
    return None


def has_star_kwargs(call: cst.Call) -> bool:
    return any(arg.star == "**" for arg in call.args)


def is_true(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def is_false(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "False"


def string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain (non-f) string literal, or None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def int_value(node: cst.CSTNode) -> Optional[int]:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = int_value(node.expression)
        return -inner if inner is not None else None
    return None


# -- helpers for environment variables, statements and the project -------------------------

#: ``os.environ`` under the names rules see after qualification
ENVIRON = "os.environ"


def environ_writes(
    qualify: "Any", node: cst.CSTNode
) -> List[Tuple[str, Optional[cst.BaseExpression], cst.CSTNode]]:
    """``(variable, value, anchor)`` for every environment variable that ``node`` sets with a
    literal name: ``os.environ["X"] = v``, ``os.environ.setdefault("X", v)``,
    ``os.environ.update({"X": v})`` / ``update(X=v)``, ``os.putenv("X", v)``. ``node`` is an
    ``Assign`` or a ``Call``; ``qualify`` resolves names (``Rule.qualify``). ``value`` is the
    expression assigned, ``anchor`` the node to report."""
    found: List[Tuple[str, Optional[cst.BaseExpression], cst.CSTNode]] = []
    if isinstance(node, cst.Assign):
        for target in node.targets:
            sub = target.target
            if (
                isinstance(sub, cst.Subscript)
                and qualify(sub.value) == ENVIRON
                and len(sub.slice) == 1
                and isinstance(sub.slice[0].slice, cst.Index)
            ):
                name = string_value(sub.slice[0].slice.value)
                if name is not None:
                    found.append((name, node.value, sub))
        return found
    if not isinstance(node, cst.Call):
        return found
    func = qualify(node.func)
    if func in (f"{ENVIRON}.setdefault", "os.putenv"):
        if len(node.args) >= 2 and not any(a.keyword or a.star for a in node.args[:2]):
            name = string_value(node.args[0].value)
            if name is not None:
                found.append((name, node.args[1].value, node))
    elif func == f"{ENVIRON}.update":
        for arg in node.args:
            if arg.keyword is not None:
                found.append((arg.keyword.value, arg.value, arg))
            elif not arg.star and isinstance(arg.value, cst.Dict):
                for element in arg.value.elements:
                    if isinstance(element, cst.DictElement):
                        name = string_value(element.key)
                        if name is not None:
                            found.append((name, element.value, element))
    return found


def enclosing_statement(ancestors: Sequence[cst.CSTNode]) -> Optional[cst.SimpleStatementLine]:
    """The simple statement (one line of code) the current node belongs to, if any."""
    for node in reversed(ancestors):
        if isinstance(node, cst.SimpleStatementLine):
            return node
        if isinstance(node, (cst.BaseCompoundStatement, cst.Lambda)):
            return None
    return None


def indentation(module: cst.Module, ancestors: Sequence[cst.CSTNode]) -> str:
    """The indentation of a statement whose ancestors are ``ancestors``."""
    text = ""
    for node in ancestors:
        if isinstance(node, cst.IndentedBlock):
            text += node.indent if node.indent is not None else module.default_indent
    return text


def import_module_edit(file: FileContext, module: str) -> Optional[NodeEdit]:
    """An edit adding ``import module`` after the file's import header, or None when the
    module is already imported under its own name."""
    if file.names.aliases.get(module) == module:
        return None
    line = f"import {module}\n"
    anchor = header_end(file.module)
    if anchor is None:
        return NodeEdit("at", line, None, (1, 0))
    return NodeEdit("line_after", line, anchor)


_PROJECT_TEXT: "weakref.WeakKeyDictionary[Any, Dict[str, bool]]" = weakref.WeakKeyDictionary()


def project_mentions(project: "ProjectContext", word: str) -> bool:
    """Does any file of the linted project contain ``word``? (A text check, cached per
    project context, i.e. per run.)"""
    consult = getattr(project, "consult", None)
    if consult is not None:
        consult("*")  # the answer depends on every file of the run (context.ALL_FILES)
    cache = _PROJECT_TEXT.setdefault(project, {})
    cached = cache.get(word)
    if cached is None:
        from ..context import read_text

        cached = any(word in (read_text(path) or "") for path in getattr(project, "files", ()))
        cache[word] = cached
    return cached


def receiver_root(node: cst.CSTNode) -> cst.CSTNode:
    """The innermost object a chain of attributes, calls and subscripts starts from:
    ``np.arange(3).cumsum`` -> ``np``; ``self.buf[0].index_add_`` -> ``self``."""
    while True:
        if isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        elif isinstance(node, cst.Subscript):
            node = node.value
        else:
            return node


def mentions_name(node: cst.CSTNode, names: "Iterable[str]") -> bool:
    """True if ``node`` contains a ``Name`` among ``names``."""
    wanted = set(names)
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name) and current.value in wanted:
            return True
        stack.extend(current.children)
    return False
