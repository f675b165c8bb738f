"""The project's functions as the value evaluator follows them into other modules.

:class:`ProjectModules` reads, for one linted file, the other project modules whose functions
its calls reach: each parsed once, with its import table and its own evaluator
(:class:`repro_lint.values.Values`), whose calls of project functions are followed the same
way. :meth:`ProjectModules.resolve` is the evaluator's ``resolve`` callback: the module-level
``def`` a call's callee names through the module's imports.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Tuple

from .._lazy import cst
from ..classify import is_known
from ..children import syntax_children
from ..names import ImportTable, dotted_name
from ..parse import parse_module
from ..source import read_text, with_tabs_expanded
from ..syntax import UNKNOWN, cst_literal
from ..values import Resolve, Values, parses_command_line

if TYPE_CHECKING:  # pragma: no cover
    from ..context import ProjectContext
    from ..facts import ModuleFacts

#: a project module read for evaluation: its syntax tree, import table and evaluator
Read = Tuple[cst.Module, ImportTable, Values]


#: parsed trees of project modules are kept for the next linted file (several entry points of a
#: project call into the same modules) up to this much source text in all: a kept tree takes
#: about 40 bytes per byte of source (the parse itself needs several hundred while it runs)
KEPT_SOURCE_BYTES = 1024 * 1024
_kept: "OrderedDict[str, Optional[cst.Module]]" = OrderedDict()

#: the text and tree of the file being linted, which an evaluation that reads the linted
#: module itself (a function of it that the project context resolves there) takes
_linting: Optional[Tuple[str, cst.Module]] = None


@contextmanager
def linting(text: str, module: cst.Module) -> Iterator[None]:
    """While the file of ``text`` is linted, evaluations read its module as ``module``
    instead of parsing the same text again."""
    global _linting
    previous, _linting = _linting, (text, module)
    try:
        yield
    finally:
        _linting = previous


def kept_tree(text: str) -> Optional[cst.Module]:
    """The tree kept for ``text``, if an evaluation parsed it lately (the linter takes it
    rather than parsing the file again: LibCST trees are never changed in place)."""
    module = _kept.get(text)
    if module is not None:
        _kept.move_to_end(text)
    return module


def _tree(text: str) -> Optional[cst.Module]:
    """``text`` parsed (None: it does not parse), from the trees kept for the texts read last."""
    if _linting is not None and _linting[0] == text:
        return _linting[1]
    if text in _kept:
        _kept.move_to_end(text)
        return _kept[text]
    try:
        module: Optional[cst.Module] = parse_module(text)
    except (cst.ParserSyntaxError, RecursionError):
        expanded = with_tabs_expanded(text)  # read as the linter reads it (tabs CPython accepts)
        try:
            module = parse_module(expanded) if expanded is not None else None
        except (cst.ParserSyntaxError, RecursionError):
            module = None
    if len(text) <= KEPT_SOURCE_BYTES:
        _kept[text] = module
        while sum(len(kept) for kept in _kept) > KEPT_SOURCE_BYTES:
            _kept.popitem(last=False)
    return module


def _targets(node: "cst.Assign | cst.AugAssign | cst.AnnAssign") -> List[cst.BaseExpression]:
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    return [node.target]


class ProjectModules:
    """The project modules one file's evaluation reads (each parsed once)."""

    def __init__(self, project: Optional["ProjectContext"]) -> None:
        self.project = project
        self._read: Dict[str, Optional[Read]] = {}
        self._evaluators: Dict[str, Values] = {}
        self._objects: Dict[str, Optional[Dict[str, Any]]] = {}

    def close(self) -> None:
        """Let go of the modules read (their evaluators refer back to this object)."""
        self._read.clear()
        self._evaluators.clear()

    def resolver(self, qualify: Callable[[cst.CSTNode], Optional[str]]) -> Resolve:
        """The ``resolve`` callback of an evaluator whose names ``qualify`` qualifies."""
        return lambda func: self.resolve(qualify(func))

    def resolve(self, qualified: Optional[str]) -> Optional[Tuple[Values, cst.FunctionDef]]:
        """The module-level project function ``qualified`` names, and its module's evaluator."""
        if qualified is None or self.project is None or "." not in qualified or is_known(qualified):
            return None
        resolved = self.project.resolve_function(qualified)
        if resolved is None or "." in resolved[1].name:
            return None  # not the project's, or a method
        facts, body = resolved
        read = self.read(facts)
        if read is None:
            return None
        module, _, values = read
        function = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == body.name), None)
        return (values, function) if function is not None else None

    def method(self, qualified: Optional[str]) -> Optional[Tuple[Values, cst.FunctionDef, Tuple[cst.CSTNode, ...]]]:
        """The method of a project class that ``qualified`` names (``pkg.mod.Exp.__init__``), or
        that the class inherits from a project base: its module's evaluator, the method, and its
        enclosing nodes."""
        if qualified is None or self.project is None or qualified.count(".") < 2 or is_known(qualified):
            return None
        resolved = self.project.resolve_method(qualified)
        if resolved is None or resolved[1].name.count(".") != 1:
            return None  # not the project's, or not a method of a module-level class
        facts, body = resolved
        read = self.read(facts)
        if read is None:
            return None
        module, _, values = read
        class_name, _, method_name = body.name.partition(".")
        for statement in module.body:
            if isinstance(statement, cst.ClassDef) and statement.name.value == class_name:
                for part in statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ():
                    if isinstance(part, cst.FunctionDef) and part.name.value == method_name:
                        return values, part, (statement, statement.body)
        return None

    def evaluator(self, facts: "ModuleFacts") -> Optional[Values]:
        """An evaluator of another project module that, as the linted file's own does, reads
        its functions' parameters from the project's calls of them (each module once)."""
        read = self.read(facts)
        project = self.project
        if read is None or project is None:
            return None
        path = str(facts.path)
        if path not in self._evaluators:
            module, table, plain = read
            self._evaluators[path] = Values(
                module, plain.source, self.resolver(table.qualify), table.qualify,
                lambda function, elsewhere=False: project.caller_arguments(path, function, elsewhere),
                attributes=self.object_attributes, methods=self.method,
                uncalled=lambda function: project.never_called(path, function), option_modules=self.option_modules,
                class_module=self.class_module,
            )
        return self._evaluators[path]

    def option_modules(self, qualified: Optional[str], method: str) -> Optional[List[Values]]:
        """The evaluators of the modules of project class ``qualified`` and its project bases,
        when the class has ``method`` (``TrainOptions().parse()``, see
        :meth:`~repro_lint.values.Values._parsed_by_method`); None otherwise."""
        if qualified is None or self.project is None or "." not in qualified:
            return None
        paths = self.project.class_method_modules(qualified, method)
        if not paths:
            return None
        found: List[Values] = []
        for path in paths:
            facts = self.project.facts(path)
            read = self.read(facts) if facts is not None else None
            if read is None:
                return None
            found.append(read[2])
        return found

    def class_module(self, qualified: Optional[str]) -> Optional[Tuple[Values, str]]:
        """The evaluator of the module that defines the project class ``qualified`` names,
        and the class's name there (a config class of another module: ``cfg = Config()``,
        then ``cfg.num_workers``); None for a name that is not a project class."""
        if qualified is None or self.project is None or "." not in qualified:
            return None
        found = self.project.project_class(qualified)
        facts = self.project.facts(found[0]) if found is not None else None
        read = self.read(facts) if facts is not None else None
        return (read[2], found[1]) if read is not None and found is not None else None

    def object_attributes(self, qualified: Optional[str]) -> Optional[Dict[str, Any]]:
        """The literal values a project module gives the attributes of an object it binds once
        at its top level with a call (a config object: ``cfg = CN()``), by dotted path
        (``cfg.loader.num_workers = 0`` gives ``loader.num_workers``), from its assignments
        anywhere in the module, also in a function that takes the object under its own name
        (yacs's ``def set_cfg(cfg): cfg.num_workers = 0``), or the command line it parses
        there (``args = parser.parse_args()``: its options' defaults): UNKNOWN for a path
        assigned anything else, or two values. None when ``qualified`` names no such object."""
        if qualified is None or self.project is None or "." not in qualified or is_known(qualified):
            return None
        if qualified in self._objects:
            return self._objects[qualified]
        self._objects[qualified] = None
        module_name, _, name = qualified.rpartition(".")
        path = self.project.resolve_module(module_name)
        facts = self.project.facts(path) if path is not None else None
        target = facts.aliases.get(name) if facts is not None else None
        if target is not None and target != qualified and "." in target:
            # a name the module imports from another project module (a package's ``__init__``
            # re-exporting yacs's ``from .default import _C as cfg``): that module's object
            found_there = self.object_attributes(target)
            self._objects[qualified] = found_there
            return found_there
        read = self.read(facts) if facts is not None else None
        if read is None:
            return None
        module = read[0]
        names = [name]
        bound = _top_level_bindings(module, name)
        if len(bound) == 1 and isinstance(bound[0].value, cst.Name):
            # ``config = _C`` after ``_C = CN()``: one object under two names
            names.append(bound[0].value.value)
            bound = _top_level_bindings(module, names[-1])
        if len(bound) != 1 or not isinstance(bound[0].value, cst.Call):
            return None
        found: Dict[str, Any] = {}
        if parses_command_line(bound[0].value):
            # ``args = parser.parse_args()`` at the module's top level (``from option import
            # args``): the options' defaults, the run with no options
            found.update(read[2].option_defaults())
        stack: List[cst.CSTNode] = [module]
        while stack:
            node = stack.pop()
            stack.extend(syntax_children(node))
            if not isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                continue
            for target in _targets(node):
                dotted = dotted_name(target) if isinstance(target, cst.Attribute) else None
                head = dotted.split(".", 1)[0] if dotted is not None else None
                if dotted is None or head not in names or dotted == head:
                    continue
                attribute = dotted[len(head) + 1 :]
                value = cst_literal(node.value) if isinstance(node, cst.Assign) and len(node.targets) == 1 and node.value is not None else UNKNOWN
                value = UNKNOWN if value is None else value
                # (an option the module also assigns holds either value)
                found[attribute] = value if found.get(attribute, value) == value else UNKNOWN
        self._objects[qualified] = found
        return found

    def read(self, facts: "ModuleFacts") -> Optional[Read]:
        """The module of ``facts``, parsed, with its import table and evaluator."""
        path = facts.path
        if path not in self._read:
            self._read[path] = None
            if self.project is not None:
                self.project.consult(path)
            text = self.project.text(path) if self.project is not None else read_text(path)
            module = _tree(text) if text is not None else None
            if module is not None:
                table = ImportTable()
                table.aliases.update(facts.aliases)
                self._read[path] = (
                    module, table,
                    Values(module, text, self.resolver(table.qualify), table.qualify, methods=self.method, class_module=self.class_module),
                )
        return self._read[path]


def _top_level_bindings(module: "cst.Module", name: str) -> List[Any]:
    """The one-statement assignments at ``module``'s top level whose targets include ``name``."""
    return [
        s.body[0] for s in module.body
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], (cst.Assign, cst.AnnAssign))
        and name in {dotted_name(t) for t in _targets(s.body[0])}
    ]
