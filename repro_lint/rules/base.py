"""What a rule is, and the per-file context it sees.

A rule is one class that declares, in one place, its code, kebab-case name, message (which
says what to do), whether it is on by default, whether and how safely it can be fixed, and
the words a file must contain for the rule to possibly fire (the text prefilter uses them,
so a rule can never be skipped by mistake). Subclassing registers the rule.

Rules get ``visit_<Node>``/``leave_<Node>`` calls from one shared traversal per file and
call :meth:`Rule.report`. Nodes are turned into positions only after the traversal, and only
for files that reported something.

It is one module because a rule, the file context it reads and the analyses that every rule
family shares through that context (imports, the dicts a call is given, the values of the
default path) are defined against each other; each rule family's own analyses live with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Type, TypeVar, Union

from .._lazy import cst
from ..catalog import DATALOADERS, ENVIRON, ENVIRON_SETTERS, FACTORY_WORD
from ..diagnostics import SAFE, UNSAFE
from ..edits import NodeEdit, import_edit
from ..names import ImportTable
from ..source import is_name_char, without_prose
from ..syntax import CONSTANT_LINE, DICT_METHODS, MERGE, MISSING, UNKNOWN, DictScopes, Item, bind, cst_module_constants, cst_slots, literal_argument, string_value
from ..facts import UNKNOWN_ARGUMENTS
from ..values import Candidates, Values, literal_truth, skipped_branch
from .functions import ProjectModules
from ..children import ASSIGNMENTS, CALLS, node_kinds, syntax_children

if TYPE_CHECKING:  # pragma: no cover - the engine passes them in; rules never import them
    from ..config import Settings
    from ..context import ProjectContext

RULES: Dict[str, Type["Rule"]] = {}
A = TypeVar("A", bound="Analysis")


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
        if (start == 0 or not is_name_char(text[start - 1])) and (end == len(text) or not is_name_char(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


@dataclass
class PendingReport:
    code: str
    message: str
    node: cst.CSTNode
    edits: List[NodeEdit] = field(default_factory=list)
    #: or what gives it once every rule has run on the file (a setup block that later findings widen)
    fix_message: Union[str, Callable[[], str]] = ""
    applicability: Optional[str] = None


class Analysis:
    """A pass over a file that several rules share (the seeding scan, the import table).

    A rule declares the analyses it reads in :attr:`Rule.uses`; the engine builds each one once
    per file, before the rules, and the same traversal feeds its ``visit_<Node>``/``leave_<Node>``
    handlers just before the rules' own, so a rule always sees an analysis that is up to date
    with the node it is visiting. Rules reach it with ``self.file.analysis(Kind)``. An analysis
    without handlers (per-file state, such as the setup block's) needs no declaration."""

    def __init__(self, file: "FileContext") -> None:
        self.file = file

    def close(self) -> None:
        """Let go of everything learnt of the file (the engine calls this once the file is
        done; the analysis is not used again). An analysis refers back to its file context and
        often to itself through callbacks: left to the cyclic garbage collector, those cycles
        kept the syntax tree alive, and collecting them cost more than freeing it."""
        vars(self).clear()


class ValueScan(Analysis):
    """The file's value evaluator (:class:`repro_lint.values.Values`), which follows calls into
    the project's other modules; its indexes are built on the first question."""

    def __init__(self, file: "FileContext") -> None:
        super().__init__(file)
        #: the other project modules whose functions the file's calls reach
        self.modules = ProjectModules(file.project)
        self.values = Values(
            file.module, file.source, self.modules.resolver(file.qualify), file.qualify, self._callers,
            attributes=self.modules.object_attributes, methods=self.modules.method, uncalled=self._uncalled,
            option_modules=self.modules.option_modules, class_module=self.modules.class_module,
        )
        self._constants: Optional[Values] = None

    def close(self) -> None:
        self.modules.close()
        super().close()

    @property
    def constants(self) -> Values:
        """The same evaluator, knowing only what the code fixes: a command-line option's value
        is unknown (a user may pass any), not its default."""
        if self._constants is None:
            file = self.file
            self._constants = Values(
                file.module, file.source, self.modules.resolver(file.qualify), file.qualify, self._callers, options=False, uncalled=self._uncalled
            )
        return self._constants

    def _uncalled(self, function: str) -> bool:
        return self.file.project.never_called(self.file.path, function)

    def _callers(self, function: str, elsewhere: bool = False) -> Any:
        """The literal arguments of the project's calls of this module's ``function``. In a
        loader factory (``loader`` in its name), what a call passes straight on to the loader
        (``shuffle=shuffle``) is the call's business: the loader rules report it at that call,
        so inside the factory those parameters keep their defaults, and a switch that every
        call turns off is off (:func:`decided_switches`)."""
        arguments = self.file.project.caller_arguments(self.file.path, function, elsewhere)
        if arguments is None or FACTORY_WORD not in function.lower():
            return arguments
        definition = next((s for s in self.file.module.body if isinstance(s, cst.FunctionDef) and s.name.value == function), None)
        if definition is None:
            return arguments
        order, forwarded = _factory_forwarding(self.file.qualify, definition)
        every = self.file.project.caller_arguments(self.file.path, function) if elsewhere else arguments
        decided = decided_switches(forwarded, order, every) if every is not None else frozenset()
        # only what the rules read at the call: a switch and its guard (or a parameter passed on
        # by position); ``sampler=sampler`` keeps the calls' values, which the factory may read
        # itself (``shuffle=sampler is None``)
        masked = {name for name, keyword in forwarded.items() if keyword is None or keyword in LOADER_SWITCHES or keyword in LOADER_GUARDS}

        def given(name: str, value: object) -> object:
            return None if name in decided else MISSING if name in masked else value

        return tuple(
            (
                tuple(given(order[i], value) if i < len(order) else value for i, value in enumerate(positional)),
                {k: given(k, v) for k, v in keywords.items() if k not in masked or k in decided},
            )
            for positional, keywords in arguments
        )


def loader_factory_switches(qualify: Any, function: cst.FunctionDef, arguments: Callable[[], Any]) -> FrozenSet[str]:
    """The parameters of loader factory ``function`` (whose module's names ``qualify``
    qualifies) that :func:`decided_switches` finds, given the project's calls of it
    (``arguments()`` gives them, from ``caller_arguments``; None: not all known). The calls are
    read only when the factory passes a switch on to its loader: reading them reads every module
    that may call it again, with its calls' literal arguments."""
    order, forwarded = _factory_forwarding(qualify, function)
    if not any(keyword in LOADER_SWITCHES for keyword in forwarded.values()):
        return frozenset()
    calls = arguments()
    return frozenset() if calls is None else decided_switches(forwarded, order, calls)


def _factory_forwarding(qualify: Any, function: cst.FunctionDef) -> Tuple[List[str], Dict[str, Optional[str]]]:
    """A loader factory's positional parameters in order, and those it passes on to its
    loader (:func:`_forwarded_to_loader`)."""
    params = function.params
    order = [p.name.value for p in (*params.posonly_params, *params.params)]
    return order, _forwarded_to_loader(qualify, function, {*order, *(p.name.value for p in params.kwonly_params)})


def decided_switches(forwarded: Dict[str, Optional[str]], order: List[str], arguments: Any) -> FrozenSet[str]:
    """The parameters a loader factory passes on to its loader as a switch (``shuffle=shuffle``)
    that every call of the factory turns off (``shuffle=False``, ``num_workers=0``): the
    factory's default never applies, so the loader's switch is off."""
    return frozenset(
        name
        for name, keyword in forwarded.items()
        if keyword in LOADER_SWITCHES
        and all(
            len(positional) != UNKNOWN_ARGUMENTS  # a call we cannot read may leave it out
            and _off(literal_argument(positional, keywords, name, order.index(name) if name in order else None))
            for positional, keywords in arguments
        )
    )


def _off(value: object) -> bool:
    """A literal argument that turns a loader switch off: False, 0 or None."""
    return value is None or (isinstance(value, (bool, int)) and not value)


#: the loader parameters that switch a hazard on (the loader rules report a factory's call that
#: turns one on there)
LOADER_SWITCHES = frozenset({"shuffle", "num_workers"})
#: the loader parameters that guard against those hazards (read at the call as well)
LOADER_GUARDS = frozenset({"generator", "worker_init_fn"})


def _forwarded_to_loader(qualify: Any, function: cst.FunctionDef, params: Set[str]) -> Dict[str, Optional[str]]:
    """The parameters of ``function`` that it passes, as they are, to a DataLoader it builds,
    with the loader parameter each goes to (None: by position, or to several)."""
    found: Dict[str, Optional[str]] = {}
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and qualify(node.func) in DATALOADERS:
            for arg in node.args:
                if isinstance(arg.value, cst.Name) and arg.value.value in params:
                    keyword = arg.keyword.value if arg.keyword is not None else None
                    name = arg.value.value
                    found[name] = keyword if found.get(name, keyword) == keyword else None
        stack.extend(syntax_children(node))
    return found


def value_of(rule: "Rule", expr: cst.BaseExpression) -> Candidates:
    """What ``expr``, found in the node being visited, may hold on the default path
    (:mod:`repro_lint.values`)."""
    return rule.file.analysis(ValueScan).values.per_call(expr, rule.file.ancestors)


def has_handlers(kind: type) -> bool:
    return any(attr.startswith(("visit_", "leave_")) for attr in dir(kind))


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
        codes: Iterable[str] = (),
    ) -> None:
        self.path = path
        #: the codes selected in this run (a fix writes nothing the user switched off)
        self.codes = frozenset(codes)
        self.source = source
        self.module = module
        self.names = names
        self.settings = settings
        self.project = project
        self.ancestors: List[cst.CSTNode] = []  # maintained by the traversal
        self.reports: List[PendingReport] = []
        self._analyses: Dict[type, Analysis] = {}
        self._module_constants: Optional[Dict[str, Any]] = None

    def start(self, kinds: Iterable[Type["Analysis"]]) -> List["Analysis"]:
        """Build the analyses the traversal will feed (the engine calls this once per file)."""
        started = []
        for kind in kinds:
            if kind not in self._analyses:
                self._analyses[kind] = kind(self)
                started.append(self._analyses[kind])
        return started

    def close(self) -> None:
        """Let go of the analyses once the file is done (:meth:`Analysis.close`)."""
        analyses = list(self._analyses.values())
        self._analyses.clear()
        for analysis in analyses:
            analysis.close()

    def analysis(self, kind: Type[A]) -> A:
        """The file's one instance of analysis ``kind``."""
        found = self._analyses.get(kind)
        if found is None:
            if has_handlers(kind):
                raise RuntimeError(f"{kind.__name__} is fed by the traversal: declare it in the rule's `uses`")
            found = self._analyses[kind] = kind(self)
        return found  # type: ignore[return-value]

    @property
    def module_name(self) -> str:
        return self.names.module_name

    @property
    def module_constants(self) -> Dict[str, Any]:
        """The module's constants (:func:`~repro_lint.syntax.cst_module_constants`), read once."""
        if self._module_constants is None:
            self._module_constants = cst_module_constants(self.module) if CONSTANT_LINE.search(self.source) else {}
        return self._module_constants

    @property
    def is_entry_point(self) -> bool:
        return self.project.is_entry_point(self.path, self.source)

    @property
    def may_import_runtime(self) -> bool:
        """May a fix make this file import ``repro_lint.runtime``? Only with
        ``fix-style = "runtime"``, in a script outside any package that nothing imports
        (:meth:`~repro_lint.context.ProjectContext.is_library`): a module others import, or
        one of a package others may import (even one with a ``__main__`` block), must not make
        its importers depend on repro-lint, so its fixes use torch, NumPy and ``random`` alone. (Fixes that are not the setup
        block also ask :attr:`is_entry_point`: a library's own code gets no runtime either.)"""
        return self.settings.fix_style == "runtime" and not self.project.is_library(self.path, self.module_name)

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
    #: a second condition of the prefilter: names of which one must also occur in the file, as
    #: a whole name, for the rule to fire there (RPL108 needs a dataset and an RNG object's
    #: constructor, ``RandomState``; RPL501 a call that resolves into ``torch.nn.functional``,
    #: which only an import spelling ``functional`` makes). Empty: no second condition
    also_triggers: ClassVar[Tuple[str, ...]] = ()
    #: every finding of the rule needs a call named with one of its trigger words (as the
    #: prefilter matches them): the callee's last name as written (``np.random.seed``), or the
    #: last name of what an import or alias assignment bound the callee's name to (``from torch
    #: import manual_seed as ms``). Where a module's ``ast`` facts are at hand, a rule whose
    #: words occur in none of the names it calls or binds (:attr:`ModuleFacts.called
    #: <repro_lint.facts.ModuleFacts.called>`: ``args.seed`` is neither) is left out of it
    #: without parsing the file for it
    called_words: ClassVar[bool] = False
    #: the trigger words are looked for in comments too (``noqa``); every other rule's words
    #: count only outside comments and triple-quoted strings, which no rule reads
    reads_comments: ClassVar[bool] = False
    #: rules that only make sense with the whole project in view (entry points, helpers)
    needs_project: ClassVar[bool] = False
    #: fires only in entry points: the engine asks the project context (a cheap ``ast`` check)
    #: before it parses a file with LibCST for this rule alone
    entry_points_only: ClassVar[bool] = False
    #: trigger words that count only in an entry point whose summary the rule may report on
    #: (:meth:`may_report_on`): RPL601's ``__main__``, for an entry point whose process group
    #: starts in a module it calls, which names neither HCCL nor the NPU itself
    entry_triggers: ClassVar[Tuple[str, ...]] = ()
    #: the shared analyses this rule reads (:class:`Analysis`), built once per file by the engine
    uses: ClassVar[Tuple[Type[Analysis], ...]] = ()
    #: who finds the rule's findings: ``traversal`` (its handlers, during the one walk of a file)
    #: or ``engine`` (RPL001 when a file cannot be read or parsed; RPL002 once ``noqa`` comments
    #: have been applied)
    found_by: ClassVar[str] = "traversal"
    #: ``warning``, or ``error`` for a file that could not be linted at all (SARIF's level)
    severity: ClassVar[str] = "warning"
    #: why findings of this rule are never written into a baseline (None: they may be)
    never_baselined: ClassVar[Optional[str]] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.code:
            return  # an abstract helper base
        if cls.code in RULES:
            raise RuntimeError(f"rule code {cls.code} registered twice")
        if not cls.name or not cls.message:
            raise RuntimeError(f"rule {cls.code} must declare a name and a message")
        if not cls.triggers and cls.found_by == "traversal":
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
        if not cls.reads_comments:
            text = without_prose(text)
        return any(mentions(text, word, cls.whole_words) for word in cls.trigger_words(settings)) and (
            not cls.also_triggers or any(mentions(text, word, True) for word in cls.also_triggers)
        )

    @classmethod
    def calls_its_words(cls, called: str, words: FrozenSet[str]) -> bool:
        """For a :attr:`called_words` rule: does a module that calls or binds the names
        ``called`` (:attr:`ModuleFacts.called <repro_lint.facts.ModuleFacts.called>`, one per
        line) name one with one of ``words`` (its trigger words), as its prefilter matches them?"""
        if cls.whole_words:
            return any(f"\n{word}\n" in called for word in words)
        return any(word in called for word in words)

    @classmethod
    def may_fire_in(cls, facts: Any, words: FrozenSet[str], settings: "Settings", project: Any, path: str, text: str) -> bool:
        """Can the rule report in the module whose ``ast`` facts are ``facts``
        (:class:`~repro_lint.facts.ModuleFacts`, of ``text``, being linted as ``path``; one of
        ``words``, its trigger words under ``settings``, is in its code)? False leaves the rule
        out of the file without parsing it for it, so it must be False only where the rule
        would report nothing. A :attr:`called_words` rule asks :meth:`calls_its_words`; a rule
        may say more (the op rules read the literal arguments of the module's op calls)."""
        return not cls.called_words or cls.calls_its_words(facts.called, words)

    @classmethod
    def may_report_on(cls, summary: Any) -> bool:
        """For an entry-point rule: can it report on an entry point whose execution path has
        ``summary`` (:class:`~repro_lint.context.Summary`)? False only where its own first test
        of the summary would return: the engine then leaves it out without parsing the file
        for it, once the project context has the entry points' summaries."""
        return True

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
        fix_message: Union[str, Callable[[], str], None] = None,
        applicability: Optional[str] = None,
        **fmt: Any,
    ) -> None:
        """Report ``node``. ``message`` defaults to the class message formatted with ``fmt``.

        ``edits`` make the finding fixable; they are ignored if the rule declares no fix.
        ``fix_message``: the fix's title, or a function that gives it once every rule has run.
        """
        if self._never_runs():
            return
        text = message if message is not None else (self.message.format(**fmt) if fmt else self.message)
        report = PendingReport(self.code, text, node)
        if edits and self.fix is not None:
            report.edits = list(edits)
            report.fix_message = fix_message or (self.fix_message.format(**fmt) if fmt else self.fix_message)
            report.applicability = applicability or self.fix
        self.file.reports.append(report)

    def _never_runs(self) -> bool:
        """Is the node being visited in a branch that a literal test rules out (``if False:``,
        the ``else`` of ``if True:``)? Code that never runs holds no hazard. Nothing else decides
        it: a parameter's default, an attribute or an option is a choice a caller may change."""
        chain = self.file.ancestors
        return any(isinstance(node, (cst.If, cst.IfExp)) for node in chain) and skipped_branch(chain, literal_truth) is not None

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
        """An edit adding ``from module import name``, or None when ``name`` is already
        imported from there (see :func:`import_edit`)."""
        return import_edit(self.file, f"{module}.{name}", name)


class ImportTracker(Analysis):
    """Fills the file's import table as the traversal meets imports and alias assignments
    (every file gets it, before any rule)."""

    def visit_Import(self, node: cst.Import) -> None:
        self.file.names.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.file.names.add_import_from(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            # a function's local variable (``dist = parser.add_argument_group(...)``) does not
            # unbind the module's import of that name for the other functions
            local = any(type(n) in _FUNCTIONS for n in self.file.ancestors)
            self.file.names.add_assignment(node.targets[0].target, node.value, forget=not local)


def _on_self(node: Any) -> bool:
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"


#: (for ``type(node) in``: a failed ``isinstance`` on LibCST's ABCs is slow)
_FUNCTIONS = node_kinds(cst.FunctionDef, cst.Lambda)


def _self_dicts(cls: cst.ClassDef) -> Dict[str, cst.BaseExpression]:
    """The attributes a class's ``__init__`` binds on ``self`` to a dict display, or a call of
    ``dict``, once, that no method binds again or changes (``self.x[k] = v``,
    ``self.x.update(...)``): pvnet's ``self._common_dataloader_kwargs = dict(shuffle=False,
    ...)``, then ``DataLoader(ds, **self._common_dataloader_kwargs)``."""
    stored: Dict[str, cst.BaseExpression] = {}
    changed: Set[str] = set()
    methods = [s for s in (cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()) if isinstance(s, cst.FunctionDef)]
    for method in methods:
        stack: List[cst.CSTNode] = [method.body]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind in ASSIGNMENTS:
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]  # type: ignore[attr-defined]
                for target in targets:
                    inner = target.value if isinstance(target, cst.Subscript) else target
                    if not _on_self(inner):
                        continue
                    attr = inner.attr.value  # type: ignore[attr-defined]
                    value = node.value if isinstance(node, cst.Assign) else None
                    if method.name.value == "__init__" and target is inner and attr not in stored and isinstance(value, (cst.Dict, cst.Call)):
                        stored[attr] = value
                    else:
                        changed.add(attr)
            elif kind in CALLS and isinstance(node.func, cst.Attribute) and _on_self(node.func.value):  # type: ignore[attr-defined]
                changed.add(node.func.value.attr.value)  # type: ignore[attr-defined]  # ``self.x.update(...)``
            stack.extend(syntax_children(node))
    return {attr: value for attr, value in stored.items() if attr not in changed}


def _dict_items(file: "FileContext", node: cst.CSTNode) -> Optional[List[Item]]:
    """The items of a dict display or of a call of the builtin ``dict``, else None."""
    if isinstance(node, cst.Dict):
        return [
            (string_value(e.key), e.value) if isinstance(e, cst.DictElement) else (MERGE, e.value)
            for e in node.elements
        ]
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict":
        if file.qualify(node.func) is None:  # not a ``dict`` imported from somewhere else
            return _arg_items(node.args)
    return None


def _arg_items(args: Sequence[cst.Arg]) -> List[Item]:
    """A call's arguments as dict items: ``key=value``, ``**mapping`` or a positional mapping."""
    return [
        (a.keyword.value, a.value) if a.keyword is not None else (None if a.star == "*" else MERGE, a.value)
        for a in args
    ]


class KwargsDicts(Analysis):
    """The dicts built in each function (:class:`~repro_lint.syntax.DictScopes`, fed by this
    file's syntax tree): what a call given ``**kwargs`` is given."""

    def __init__(self, file: "FileContext") -> None:
        super().__init__(file)
        self.scopes = DictScopes(
            lambda node: _dict_items(file, node),
            lambda node: node.value if isinstance(node, cst.Name) else None,
            lambda node: (node.test, node.body, node.orelse) if isinstance(node, cst.IfExp) else None,
            lambda test, body, orelse: cst.IfExp(test=test, body=body, orelse=orelse),
        )
        self.scopes.source = file.source
        self.dict_of = self.scopes.dict_of
        #: per enclosing class: the dicts its ``__init__`` stores on ``self`` (see :func:`_self_dicts`)
        self._classes: List[Dict[str, cst.BaseExpression]] = []
        self._follow_self = "**self." in file.source

    def expand(self, node: Any, callers: bool = True) -> Optional[Tuple[Mapping[str, Any], bool]]:
        """:func:`~repro_lint.syntax.bind`'s ``expand``: a dict built in the function, or one the
        class's ``__init__`` stores on ``self`` once and nothing changes (``**self._kwargs``)."""
        found = self.scopes.expand(node, callers)
        if found is not None or not self._classes or not _on_self(node):
            return found
        display = self._classes[-1].get(node.attr.value)
        items = _dict_items(self.file, display) if display is not None else None
        if items is None:
            return None
        return {key: value for key, value in items if key not in (None, MERGE)}, all(key not in (None, MERGE) for key, _ in items)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(_self_dicts(node) if self._follow_self else {})

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        rest = node.params.star_kwarg
        if not isinstance(rest, cst.Param):
            self.scopes.enter(None)
            return
        callers = None
        ancestors = self.file.ancestors
        owner = (
            ancestors[1]
            if len(ancestors) == 3
            and isinstance(ancestors[0], cst.Module)
            and isinstance(ancestors[1], cst.ClassDef)
            and FACTORY_WORD in node.name.value.lower()
            else None
        )
        if all(isinstance(n, cst.Module) for n in ancestors) or owner is not None:
            # a module-level function, or a loader factory method of a module-level class
            # (called on its objects: ``dm.train_dataloader(drop_last=True)``): its callers in
            # the project may all be known
            params = node.params
            named = frozenset(p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params))
            file, name = self.file, node.name.value if owner is None else f"{owner.name.value}.{node.name.value}"

            def callers() -> Optional[FrozenSet[str]]:
                passed = file.project.caller_keywords(file.path, name)
                return None if passed is None else passed - named

        self.scopes.enter(rest.name.value, callers)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.leave()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            inner = target.target
            if isinstance(inner, cst.Name):
                self.scopes.assign(inner.value, node.value)
            elif isinstance(inner, cst.Subscript) and isinstance(inner.value, cst.Name):
                key = None
                if len(inner.slice) == 1 and isinstance(inner.slice[0].slice, cst.Index):
                    key = string_value(inner.slice[0].slice.value)
                self.scopes.assign_key(inner.value.value, key, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None and isinstance(node.target, cst.Name):
            self.scopes.assign(node.target.value, node.value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return
        if func.attr.value not in DICT_METHODS or not self.scopes.tracks(func.value.value):
            return
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        key = string_value(positional[0]) if positional else MISSING
        default = positional[1] if len(positional) > 1 else MISSING
        self.scopes.method(func.value.value, func.attr.value, _arg_items(node.args), key, default)


# -- small CST helpers shared by rules ---------------------------------------------------


def keyword_arg(call: cst.Call, name: str) -> Optional[cst.Arg]:
    """The argument passed as ``name=...`` (not through ``**kwargs``)."""
    return argument(call, name)


def argument(call: cst.Call, name: str, position: Optional[int] = None) -> Optional[cst.Arg]:
    """The argument bound to parameter ``name`` (by keyword, or by ``position`` if given), or
    None when none is, or when ``*args``/``**kwargs`` hide it (:func:`repro_lint.syntax.bind`)."""
    found = bind(cst_slots(call.args), name, position)
    return None if found is MISSING or found is UNKNOWN else found


def has_star_kwargs(call: cst.Call) -> bool:
    return any(arg.star == "**" for arg in call.args)


def is_true(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def is_false(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "False"


# -- helpers for environment variables, statements and the project -------------------------

#: ``os.environ`` under the names rules see after qualification


def environ_writes(
    qualify: "Any", node: cst.CSTNode, constants: Optional[Mapping[str, Any]] = None
) -> List[Tuple[str, Optional[cst.BaseExpression], cst.CSTNode]]:
    """``(variable, value, anchor)`` for every environment variable that ``node`` sets with a
    literal name: ``os.environ["X"] = v`` (or ``+=``), ``os.environ.setdefault("X", v)``,
    ``os.environ.__setitem__("X", v)``, ``os.environ.update({"X": v})`` / ``update(X=v)``,
    ``os.putenv("X", v)``. Every rule about environment variables reads them here. ``node``
    is an ``Assign``, ``AugAssign`` or a ``Call``; ``qualify`` resolves names (``Rule.qualify``). ``value`` is the
    expression assigned, ``anchor`` the node to report. ``constants``: the module's constants,
    for a name given as the variable (``os.environ[PYTHON_HASH_SEED]`` after
    ``PYTHON_HASH_SEED = "PYTHONHASHSEED"``)."""
    found: List[Tuple[str, Optional[cst.BaseExpression], cst.CSTNode]] = []

    def key_name(key: Optional[cst.CSTNode]) -> Optional[str]:
        if isinstance(key, cst.Name) and constants and isinstance(constants.get(key.value), str):
            return constants[key.value]  # type: ignore[no-any-return]
        return string_value(key) if key is not None else None

    if isinstance(node, (cst.Assign, cst.AugAssign)):
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        for sub in targets:
            if (
                isinstance(sub, cst.Subscript)
                and qualify(sub.value) == ENVIRON
                and len(sub.slice) == 1
                and isinstance(sub.slice[0].slice, cst.Index)
            ):
                name = key_name(sub.slice[0].slice.value)
                if name is not None:
                    found.append((name, node.value, sub))
        return found
    if not isinstance(node, cst.Call):
        return found
    func = qualify(node.func)
    if func in ENVIRON_SETTERS:
        key, value = argument(node, "key", 0), argument(node, "value", 1)
        name = key_name(key.value if key is not None else None)
        if name is not None:
            found.append((name, value.value if value is not None else None, node))
    elif func == f"{ENVIRON}.update":
        for arg in node.args:
            if arg.keyword is not None:
                found.append((arg.keyword.value, arg.value, arg))
            elif not arg.star and isinstance(arg.value, cst.Dict):
                for element in arg.value.elements:
                    if isinstance(element, cst.DictElement):
                        name = key_name(element.key)
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


def short(code: str, limit: int = 48) -> str:
    """``code`` on one line, cut to ``limit`` characters (for messages): its lines joined by a
    space, except after an opening bracket and before a closing one (``f(\n    x,\n)`` reads
    ``f(x,)``)."""
    joined = ""
    for line in code.splitlines():
        part = " ".join(line.split())
        if not part:
            continue
        joined += part if not joined or joined[-1] in "([{" or part[0] in ")]}" else " " + part
    return joined if len(joined) <= limit else joined[: limit - 3] + "..."


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
        stack.extend(syntax_children(current))
    return False
