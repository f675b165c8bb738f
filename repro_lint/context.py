"""Project context: what rules may ask about the whole linted project.

Built once per run, before the per-file rule pass, and shared with every worker:
- which modules are **entry points** (an ``if __name__ == "__main__":`` block, training
  run at module level, or a path matching the ``entry-points`` globs);
- each file's **module name** (from the package layout), to resolve project imports;
- **module facts** for the files that matter (entry points and the project modules they reach),
  extracted with Python's ``ast`` (fast, and only for those files): the imports, the functions
  and classes each module defines, the calls each body makes, and what each body seeds, uses
  and turns on directly (:class:`BodyFacts`);
- **effects**, computed from the facts over the project's call graph, across files, memoised
  and cycle-safe: which generators a call seeds (``torch``, ``numpy``, ``random``), whether it
  turns determinism on, and which generators and devices it uses. :meth:`ProjectContext.effects`
  answers for one call; :meth:`ProjectContext.entry_summary` for an entry point's whole
  execution path (module top level, the ``__main__`` block, and every project function and
  module reached from them).

The call graph has one node per body: a module's top level (``<module>``), its ``__main__``
block (``<main>``), each function or method, and each class (instantiating a class reaches all
of its methods). A call is resolved, in this order, through the ``seed-functions`` setting,
the module's own functions and classes (``self.method()`` included), then its imports into the
project's other modules (``from utils.seed import set_seed``, ``import utils;
utils.set_seed()``, relative imports, re-exports in a package ``__init__``). Known torch,
NumPy, ``random`` and library calls (``repro_lint.catalog``) are classified where they are made,
with their arguments (``use_deterministic_algorithms(False)`` enables nothing). A call that
resolves to nothing and whose name contains ``seed`` counts as seeding all three generators.
Importing a project module runs its top level, so that is reached too.

Everything here is plain data (picklable), and nothing imports or runs user code.

The results cache keys a file's findings on every file the context consulted while the file
was linted: each method that reads a file, or looks for one, calls :meth:`ProjectContext.consult`
with its path, and every answer drawn from the (memoised) call graph consults
:data:`ALL_FILES`, since the graph spans the project. New methods must do the same, or the
cache could serve stale findings.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Optional, Set, Tuple, Union

import pathspec

from . import catalog
from ._gc import GCPaused
from .config import Settings
from .names import resolve_relative

#: calls that, made at module level, mean the module itself trains (a script without a guard)
TRAINING_METHODS = frozenset({"backward", "step", "fit", "train_step", "zero_grad"})
ENTRY_WORDS = ("__main__",) + tuple(sorted(TRAINING_METHODS))
#: a file that turns determinism on contains one of these (a cheap text check before parsing)
DETERMINISM_WORDS = re.compile(r"determinis|seed_all|reproducible|seed_everything")

GENERATORS = catalog.SEEDED_GENERATORS
ALL_GENERATORS = frozenset(GENERATORS)
DETERMINISM = catalog.DETERMINISM_EFFECTS
#: devices an entry point may run on (``uses``)
DEVICES = ("cuda", "npu", "accelerator")
#: markers among ``uses``: torch draws that only initialise weights, a training call, a
#: checkpoint loaded over the initial weights
INIT = "torch_init"
TRAIN = "train"
LOAD = "load"
TRAIN_MARKERS = TRAINING_METHODS | {"train"}
MODULE_BODY = "<module>"
MAIN_BODY = "<main>"
CLASS_PREFIX = "class "
#: stands for a computed object in a call name (``f().method()`` is recorded as ``?.method``)
UNNAMED = "?"

# -- classifying one call ------------------------------------------------------------------

class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name  # pickles as the module-level constant


#: an argument that was not passed
MISSING: Any = _Sentinel("MISSING")
#: an argument whose value is only known at run time
UNKNOWN: Any = _Sentinel("UNKNOWN")


class CallArgs:
    """The arguments of one call, as the classifier sees them. One adapter per syntax tree
    implements the three hooks; :meth:`value` and :meth:`strings` are shared."""

    def _node(self, name: str, position: Optional[int]) -> Any:
        """The node bound to parameter ``name`` (by keyword or ``position``), or
        :data:`MISSING`, or :data:`UNKNOWN` (hidden by ``*args``/``**kwargs``)."""
        raise NotImplementedError

    def _literal(self, node: Any) -> Any:
        raise NotImplementedError

    def _strings(self, node: Any) -> List[str]:
        raise NotImplementedError

    def value(self, name: str, position: Optional[int]) -> Any:
        """The literal value bound to parameter ``name``, or :data:`MISSING`, or
        :data:`UNKNOWN` (not a literal, or hidden by ``*args``/``**kwargs``)."""
        node = self._node(name, position)
        if node is MISSING or node is UNKNOWN:
            return node
        return self._literal(node)

    def strings(self, name: str, position: Optional[int]) -> List[str]:
        """Every string literal inside that argument (``"cuda" if ok else "cpu"`` gives both)."""
        node = self._node(name, position)
        if node is MISSING or node is UNKNOWN:
            return []
        return self._strings(node)


def _on(value: Any) -> bool:
    """Does this argument value switch something on? A run-time value is the user's choice: on."""
    return value is UNKNOWN or bool(value)


def _is_device(strings: Iterable[str], names: Tuple[str, ...] = ("cuda", "npu")) -> Optional[str]:
    for text in strings:
        head = text.split(":", 1)[0].strip().lower()
        if head in names:
            return "cuda" if head == "gpu" else head
    return None


def _transformers_model(qualified: str) -> Optional[str]:
    """``draw`` for a transformers model built from scratch, ``use`` for a pretrained one or a
    collator that masks at random, None for anything else (tokenizers, configs)."""
    parts = qualified.split(".")
    if len(parts) < 2 or not parts[1][:1].isupper():
        return None
    cls = parts[1]
    if cls.startswith("DataCollator"):
        return "use" if len(parts) == 2 else None
    if not (cls.endswith("Model") or "For" in cls or (cls.startswith("Auto") and "Model" in cls)):
        return None
    if len(parts) == 2 or parts[2] == "from_config":
        return "draw"
    return "pretrained" if parts[2] == "from_pretrained" else None


@dataclass(frozen=True)
class CallEffect:
    """What one call does by itself: seeds/enables (``effects``), will consume (``uses``:
    generators and devices), consumes right now (``draws``). ``known`` calls are torch, NumPy,
    ``random`` or library API: they are never resolved further nor taken for seeding helpers."""

    effects: FrozenSet[str] = frozenset()
    uses: FrozenSet[str] = frozenset()
    draws: FrozenSet[str] = frozenset()
    known: bool = False


NO_EFFECT = CallEffect()


def classify_call(qualified: Optional[str], method: Optional[str], args: CallArgs) -> CallEffect:
    """Classify a call from its import-qualified name (None when its head was not imported),
    the attribute it calls (``x.cuda()`` -> ``cuda``) and its arguments."""
    effects: Set[str] = set()
    uses: Set[str] = set()
    draws: Set[str] = set()
    known = False
    if qualified is not None:
        known = True
        helper = catalog.SEED_HELPERS.get(qualified)
        if qualified in catalog.SEED_CALLS:
            effects |= catalog.SEED_CALLS[qualified]
        elif helper is not None:
            effects |= helper.seeds | helper.always
            on = helper.determinism_default
            if helper.determinism_arg is not None:
                value = args.value(*helper.determinism_arg)
                if value is not MISSING:
                    on = _on(value)
            if on:
                effects |= helper.determinism
        elif qualified == "torch.use_deterministic_algorithms":
            value = args.value("mode", 0)
            if value is not MISSING and _on(value):
                effects.add("deterministic")
        elif qualified == "torch.set_deterministic_debug_mode":
            value = args.value("debug_mode", 0)
            if value is not MISSING and value not in (0, "default"):
                effects.add("deterministic")
        elif qualified in ("torch_npu.npu.set_deterministic_level", "torch.npu.set_deterministic_level"):
            value = args.value("level", 0)
            if value is not MISSING and _on(value):
                effects.add("deterministic")
        elif qualified == "torch.backends.cudnn.flags":
            value = args.value("deterministic", 3)
            if value is not MISSING and _on(value):
                effects.add("cudnn_deterministic")
        elif qualified in catalog.NOT_SEEDING:
            pass
        elif qualified in catalog.TORCH_INIT or qualified.startswith(catalog.TORCH_INIT_PREFIXES):
            draws.add("torch")
            uses.add(INIT)
        elif qualified in catalog.TORCH_DRAWS:
            if qualified != "torch.utils.data.random_split" or args.value("generator", 2) is MISSING:
                draws.add("torch")
                uses.add("torch")
        elif qualified in catalog.TORCH_USES or qualified.startswith(catalog.TORCH_USE_PREFIXES):
            if not qualified.startswith("torch.utils.data.") or args.value("generator", None) is MISSING:
                uses.add("torch")
        elif qualified == "torch.utils.data.DataLoader":
            shuffle = args.value("shuffle", 2)
            if shuffle is not MISSING and _on(shuffle) and args.value("generator", None) is MISSING:
                uses.add("torch")
        elif qualified.startswith("numpy.random.") and qualified.count(".") == 2:
            if qualified.rsplit(".", 1)[1] in catalog.NUMPY_LEGACY_FUNCTIONS:
                draws.add("numpy")
                uses.add("numpy")
        elif qualified.startswith("random.") and qualified.count(".") == 1:
            if qualified[7:] in catalog.RANDOM_FUNCTIONS:
                draws.add("random")
                uses.add("random")
        elif qualified.startswith("transformers."):
            kind = _transformers_model(qualified)
            if kind == "draw":
                draws.add("torch")
                uses.add(INIT)
            elif kind == "pretrained":
                uses.add(INIT)
            elif kind == "use":
                uses.add("torch")
        elif qualified == "torch.load":
            uses.add(LOAD)
        elif qualified == "torch.device":
            device = _is_device(args.strings("type", 0))
            if device:
                uses.add(device)
        elif qualified in catalog.ACCELERATOR_ACTIONS:
            uses.add("accelerator")
        elif qualified in ("torch.cuda.set_device", "torch.nn.DataParallel", "torch.cuda.device"):
            uses.add("cuda")
        elif qualified in ("torch.npu.set_device", "torch_npu.npu.set_device"):
            uses.add("npu")
        else:
            known = qualified.startswith(("torch.", "numpy.", "random."))
    if method in ("cuda", "npu") and qualified not in ("torch.cuda", "torch.npu"):
        uses.add(method)
    elif method == "to":
        device = _is_device(args.strings("device", 0))
        if device:
            uses.add(device)
    elif method in catalog.TORCH_DRAW_METHODS and qualified is None:
        draws.add("torch")
        uses.add("torch")
    if method in TRAIN_MARKERS:
        uses.add(TRAIN)
    elif method in catalog.WEIGHT_LOADERS:
        uses.add(LOAD)
    for keyword, names in (("device", ("cuda", "npu")), ("accelerator", ("cuda", "npu", "gpu"))):
        device = _is_device(args.strings(keyword, None), names)
        if device:
            uses.add(device)
    if not (effects or uses or draws or known):
        return NO_EFFECT
    return CallEffect(frozenset(effects), frozenset(uses), frozenset(draws), known)


def is_seed_named(name: str, imported: bool) -> bool:
    """A call that resolves to nothing counts as seeding all three generators when its name
    contains ``seed``; getters (``get_seed``, ``initial_seed``) and the methods of RNG objects
    (``rng.seed(0)``, ``g.manual_seed(0)`` on a local object) do not."""
    last = name.rsplit(".", 1)[-1].lower()
    if "seed" not in last or last.startswith("get") or last.endswith("initial_seed"):
        return False
    if last in ("seed_worker", "worker_init_fn"):
        return False
    if not imported and "." in name and last in ("seed", "manual_seed"):
        return False
    return True


# -- facts (ast) ------------------------------------------------------------------------------


class AstArgs(CallArgs):
    def __init__(self, call: ast.Call) -> None:
        self.call = call

    def _node(self, name: str, position: Optional[int]) -> Any:
        for keyword in self.call.keywords:
            if keyword.arg == name:
                return keyword.value
        hidden = any(k.arg is None for k in self.call.keywords)
        if position is not None:
            for index, arg in enumerate(self.call.args):
                if isinstance(arg, ast.Starred):
                    return UNKNOWN
                if index == position:
                    return arg
        return UNKNOWN if hidden else MISSING

    def _literal(self, node: Any) -> Any:
        return ast_literal(node)

    def _strings(self, node: Any) -> List[str]:
        return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def ast_literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else UNKNOWN
    return UNKNOWN


@dataclass
class BodyFacts:
    """One body of code: a function or method, a module's top level, or its ``__main__`` block."""

    name: str
    #: callee names in source order: import-qualified where the head was imported, else as written
    calls: List[str] = field(default_factory=list)
    #: the names in ``calls`` that were qualified through an import
    imported: Set[str] = field(default_factory=set)
    #: names passed as arguments (callbacks: ``mp.spawn(main_worker)``, ``Thread(target=run)``)
    refs: List[str] = field(default_factory=list)
    #: what the known calls and assignments of this body do by themselves
    effects: Set[str] = field(default_factory=set)
    uses: Set[str] = field(default_factory=set)
    draws: Set[str] = field(default_factory=set)
    #: the class a method (or a function nested in a method) belongs to
    owner: Optional[str] = None
    line: int = 0
    #: makes a training call itself (``loss.backward()``, ``optimizer.step()``)
    trains: bool = False


#: the name the seam was first published under
FunctionFacts = BodyFacts


@dataclass
class ModuleFacts:
    """What one module imports, defines, calls, seeds and uses (serialisable)."""

    path: str
    module_name: str
    aliases: Dict[str, str] = field(default_factory=dict)
    functions: Dict[str, BodyFacts] = field(default_factory=dict)
    classes: Set[str] = field(default_factory=set)
    module_body: BodyFacts = field(default_factory=lambda: BodyFacts(MODULE_BODY))
    main_body: BodyFacts = field(default_factory=lambda: BodyFacts(MAIN_BODY))
    #: every call made outside functions (top level and ``__main__`` block), in source order
    top_level_calls: List[str] = field(default_factory=list)
    has_main_guard: bool = False
    main_guard_line: int = 0
    trains_at_module_level: bool = False

    def body(self, name: str) -> Optional[BodyFacts]:
        if name == MODULE_BODY:
            return self.module_body
        if name == MAIN_BODY:
            return self.main_body
        return self.functions.get(name)


def _dotted(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    operands = [test.left, *test.comparators]
    names = {o.id for o in operands if isinstance(o, ast.Name)}
    strings = {o.value for o in operands if isinstance(o, ast.Constant)}
    return "__name__" in names and "__main__" in strings


CUDNN_DETERMINISTIC = "torch.backends.cudnn.deterministic"


#: node types that never hold a call, an assignment, an import or a definition
_LEAVES = (ast.Name, ast.Constant, ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop)
_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _child_fields(node_type: type) -> Tuple[str, ...]:
    fields = _CHILD_FIELDS.get(node_type)
    if fields is None:
        fields = tuple(f for f in node_type._fields if f not in ("ctx", "type_comment"))
        _CHILD_FIELDS[node_type] = fields
    return fields


class _FactsCollector(ast.NodeVisitor):
    """One pass over a module's ``ast``. ``visit`` and ``generic_visit`` are
    :class:`ast.NodeVisitor`'s, in the same order, with the dispatch cached per node type and
    the leaves (names, constants, operators) skipped: on torch's source this halves the walk."""

    _dispatch: Dict[type, Any] = {}

    def visit(self, node: ast.AST) -> None:
        node_type = type(node)
        try:
            method = self._dispatch[node_type]
        except KeyError:
            name = "visit_" + node_type.__name__
            method = getattr(type(self), name, None)
            if method is not None and method is getattr(ast.NodeVisitor, name, None):
                method = None  # NodeVisitor's own (visit_Constant: a shim for visit_Num & co.)
            self._dispatch[node_type] = method
        if method is not None:
            method(self, node)
        elif not isinstance(node, _LEAVES):
            self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        visit = self.visit
        for name in _child_fields(type(node)):
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item)
            elif isinstance(value, ast.AST):
                visit(value)

    def __init__(self, facts: ModuleFacts, is_package: bool) -> None:
        self.facts = facts
        self.is_package = is_package
        self.scope: List[str] = []
        #: per scope entry: is it a class?
        self.kinds: List[bool] = []
        self.current: BodyFacts = facts.module_body

    def imported(self, name: str) -> Optional[str]:
        """``name`` qualified through the imports, or None when its head was not imported."""
        head, _, rest = name.partition(".")
        target = self.facts.aliases.get(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target

    def _relative_base(self, level: int, module: Optional[str]) -> Optional[str]:
        return resolve_relative(self.facts.module_name, self.is_package, level, module or "")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.facts.aliases[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                self.facts.aliases[head] = head
            if alias.name.split(".")[0] == "torch_npu":
                self.current.uses.add("npu")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._relative_base(node.level or 0, node.module)
        if base is None:
            return
        if base.split(".")[0] == "torch_npu":
            self.current.uses.add("npu")
        for alias in node.names:
            if alias.name != "*":
                self.facts.aliases[alias.asname or alias.name] = f"{base}.{alias.name}"

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        name = ".".join(self.scope + [node.name])
        outer = self.current
        if self.kinds and self.kinds[-1]:
            owner: Optional[str] = ".".join(self.scope)  # a method
        else:
            owner = outer.owner if outer.name not in (MODULE_BODY, MAIN_BODY) else None
        self.current = self.facts.functions.setdefault(name, BodyFacts(name, owner=owner, line=node.lineno))
        self.scope.append(node.name)
        self.kinds.append(False)
        self.generic_visit(node)
        self.kinds.pop()
        self.scope.pop()
        self.current = outer

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.facts.classes.add(".".join(self.scope + [node.name]))
        self.scope.append(node.name)
        self.kinds.append(True)
        self.generic_visit(node)
        self.kinds.pop()
        self.scope.pop()

    def visit_Call(self, node: ast.Call) -> None:
        body = self.current
        name = _dotted(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        qualified = self.imported(name) if name is not None else None
        if name is None and method is not None:
            name = f"{UNNAMED}.{method}"  # a method of a computed object: ``Fabric().seed_everything(0)``
        if name is not None:
            stored = qualified or name
            body.calls.append(stored)
            if qualified is not None:
                body.imported.add(stored)
            if name.rsplit(".", 1)[-1] in TRAINING_METHODS and "." in name:
                body.trains = True
            if body.name in (MODULE_BODY, MAIN_BODY):
                self.facts.top_level_calls.append(stored)
        effect = classify_call(qualified, method, AstArgs(node))
        if effect is not NO_EFFECT:
            body.effects |= effect.effects
            body.uses |= effect.uses
            body.draws |= effect.draws
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            ref = _dotted(arg)
            if ref is not None:
                qualified_ref = self.imported(ref)
                body.refs.append(qualified_ref or ref)
                if qualified_ref is not None:
                    body.imported.add(qualified_ref)
        self.generic_visit(node)

    def _assigned(self, targets: Iterable[ast.AST], value: Optional[ast.AST]) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute):
                name = _dotted(target)
                if name and self.imported(name) == CUDNN_DETERMINISTIC:
                    if value is None or _on(ast_literal(value)):
                        self.current.effects.add("cudnn_deterministic")
            elif isinstance(target, ast.Name) and value is not None:
                # follow ``cudnn = torch.backends.cudnn``
                source = _dotted(value)
                qualified = self.imported(source) if source else None
                if qualified and "." in qualified:
                    self.facts.aliases[target.id] = qualified

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assigned(node.targets, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if self.scope or not _is_main_guard(node) or self.current is not self.facts.module_body:
            self.generic_visit(node)
            return
        self.facts.has_main_guard = True
        self.facts.main_guard_line = self.facts.main_guard_line or node.lineno
        self.visit(node.test)
        self.current = self.facts.main_body
        for stmt in node.body:
            self.visit(stmt)
        self.current = self.facts.module_body
        for stmt in node.orelse:
            self.visit(stmt)


def extract_facts(path: Path, source: str) -> Optional[ModuleFacts]:
    """Facts of one module, or None if it does not parse (RPL001 reports that elsewhere)."""
    name, is_package = module_name_for(path)
    with GCPaused():
        try:
            with warnings.catch_warnings():  # SyntaxWarnings about the user's code are not ours to print
                warnings.simplefilter("ignore")
                tree = ast.parse(source, filename=str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        facts = ModuleFacts(str(path), name)
        try:
            _FactsCollector(facts, is_package).visit(tree)
        except RecursionError:
            return None
    facts.trains_at_module_level = _trains_when_run(facts)
    return facts


def _trains_when_run(facts: ModuleFacts) -> bool:
    """Does running the module's top level (outside a ``__main__`` block) train, directly or
    through the module's own functions (``train()`` called at module level)?"""
    seen: Set[str] = set()
    stack = [facts.module_body, facts.main_body]
    while stack:
        body = stack.pop()
        if body.trains:
            return True
        for call in body.calls:
            if call in body.imported:
                continue
            target = facts.functions.get(call) or facts.functions.get(f"{call}.__init__")
            if target is not None and target.name not in seen:
                seen.add(target.name)
                stack.append(target)
    return False


def might_be_entry_point(source: str) -> bool:
    """A cheap text check: only a file that mentions ``__main__`` or calls a training method
    (``.backward(``, ``.step(``, ... with any spacing or line continuation) can be an entry point
    without the ``entry-points`` globs. Spares parsing library modules that merely mention
    ``steps`` or ``fit``."""
    if "__main__" in source:
        return True
    blank = " \t\\\r\n"
    for word in TRAINING_METHODS:
        start = source.find(word)
        while start >= 0:
            before = start - 1
            while before >= 0 and source[before] in blank:
                before -= 1
            after = start + len(word)
            while after < len(source) and source[after] in blank:
                after += 1
            if before >= 0 and source[before] == "." and after < len(source) and source[after] == "(":
                return True
            start = source.find(word, start + 1)
    return False


def module_name_for(path: Path) -> Tuple[str, bool]:
    """(dotted module name, is_package) from the package layout around ``path``."""
    path = Path(os.path.abspath(path))
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.append(folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(reversed(parts)), is_package


def source_root_for(path: Path) -> Path:
    """The folder a module's dotted name starts from."""
    path = Path(os.path.abspath(path))
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


def read_text(path: Path) -> Optional[str]:
    from .config import DEFAULT_MAX_FILE_SIZE
    from .source import SourceError, read_source

    try:
        return read_source(path, DEFAULT_MAX_FILE_SIZE).text
    except SourceError:
        return None


# -- the project -------------------------------------------------------------------------------

#: what :meth:`ProjectContext.survey` learns of a file: its facts, whether it is an entry point
#: (None: not decided yet) and whether its text mentions determinism
Learnt = Tuple[Optional["ModuleFacts"], Optional[bool], bool]

#: a node of the call graph: (absolute path of the module, body name)
Node = Tuple[str, str]

#: consulted by answers that may depend on any file of the run (the results cache then keys
#: the file on all of them)
ALL_FILES = "*"


@dataclass(frozen=True)
class Summary:
    """What running some code does, transitively: ``effects`` (seeded generators, ``cuda``,
    ``deterministic``, ``cudnn_deterministic``), ``uses`` (generators and devices it will
    consume), ``draws`` (generators it consumes right away), and the bodies it reaches."""

    effects: FrozenSet[str] = frozenset()
    uses: FrozenSet[str] = frozenset()
    draws: FrozenSet[str] = frozenset()
    reached: FrozenSet[Node] = frozenset()

    def seeds(self, generator: str) -> bool:
        return generator in self.effects

    def uses_generator(self, generator: str) -> bool:
        """Does this code consume ``generator``? Weight initialisation counts for torch unless
        the weights are then loaded from a checkpoint by code that does not train."""
        if generator in self.uses:
            return True
        if generator == "torch" and INIT in self.uses:
            return TRAIN in self.uses or LOAD not in self.uses
        return False

    def generator_uses(self, generator: str) -> FrozenSet[str]:
        """The ``uses`` entries that stand for ``generator``."""
        return frozenset({generator, INIT}) if generator == "torch" else frozenset({generator})

    @property
    def deterministic(self) -> bool:
        return bool(self.effects & DETERMINISM)

    def reached_in(self, path: str) -> FrozenSet[str]:
        """The bodies of module ``path`` that this code reaches."""
        key = os.path.abspath(path)
        return frozenset(name for p, name in self.reached if p == key)


EMPTY = Summary()


@dataclass(frozen=True)
class _NodeInfo:
    edges: Tuple[Node, ...]
    effects: FrozenSet[str]
    uses: FrozenSet[str]
    draws: FrozenSet[str]


class ProjectContext:
    """Entry points, module facts and effects for one run. Cheap to build; facts are computed on
    demand, and :meth:`prepare` computes everything the entry points need in the parent process
    so that workers inherit it."""

    def __init__(self, settings: Settings, files: Iterable[Path] = ()) -> None:
        self.settings = settings
        self.files = [Path(f) for f in files]
        self._entry_globs = (
            pathspec.GitIgnoreSpec.from_lines(settings.entry_points) if settings.entry_points else None
        )
        self._facts: Dict[str, Optional[ModuleFacts]] = {}
        self._entry: Dict[str, bool] = {}
        #: files whose text mentions determinism (None: not read yet)
        self._mentions_determinism: Dict[str, bool] = {}
        self._enables_determinism: Optional[bool] = None
        self._roots: Set[Path] = {Path(os.path.abspath(settings.root))}
        for f in self.files:
            self._roots.add(source_root_for(f))
        self._modules: Dict[str, Tuple[Optional[str], Tuple[str, ...]]] = {}
        self._nodes: Dict[Node, Optional[_NodeInfo]] = {}
        self._closures: Dict[Node, Summary] = {}
        self._entries: Dict[str, Summary] = {}
        #: when a set, the absolute paths of the files consulted (read, or looked for) are added
        self.consulted: Optional[Set[str]] = None

    def consult(self, path: "str | Path") -> None:
        """Record that an answer depends on the file at ``path`` (its content, or that it is
        missing), or on every file of the run (:data:`ALL_FILES`)."""
        if self.consulted is not None:
            self.consulted.add(ALL_FILES if path == ALL_FILES else os.path.abspath(path))

    def state_key(self) -> str:
        """What answers depend on besides file contents and settings: the source roots searched."""
        return "|".join(sorted(str(root) for root in self._roots))

    # -- entry points ----------------------------------------------------------------------
    def matches_entry_glob(self, path: "str | Path") -> bool:
        if self._entry_globs is None:
            return False
        try:
            rel = Path(os.path.abspath(path)).relative_to(self.settings.root).as_posix()
        except ValueError:
            rel = Path(path).as_posix()
        return self._entry_globs.match_file(rel)

    def is_entry_point(self, path: "str | Path", source: Optional[str] = None) -> bool:
        key = os.path.abspath(path)
        cached = self._entry.get(key)
        if cached is None:
            cached = self._compute_entry(Path(key), source)
            self._entry[key] = cached
        return cached

    def _compute_entry(self, path: Path, source: Optional[str]) -> bool:
        key = str(path)
        if source is None:
            source = read_text(path)
        if source is not None:
            self._mentions(key, source)
        if self.matches_entry_glob(path):
            return True
        if source is None or not might_be_entry_point(source):
            return False
        facts = self.facts(path, source)
        return bool(facts and (facts.has_main_guard or facts.trains_at_module_level))

    # -- module facts ----------------------------------------------------------------------
    def facts(self, path: "str | Path", source: Optional[str] = None) -> Optional[ModuleFacts]:
        key = os.path.abspath(path)
        self.consult(key)
        if key not in self._facts:
            text = source if source is not None else read_text(Path(key))
            self._facts[key] = extract_facts(Path(key), text) if text is not None else None
        return self._facts[key]

    def survey(self, path: "str | Path") -> "Learnt":
        """Learn now, e.g. in a worker process, what a run may later ask of the file at
        ``path``: its facts and whether its text mentions determinism. Returns what is known of
        the file, for :meth:`absorb` in another process."""
        key = os.path.abspath(path)
        text = None
        if key not in self._facts or key not in self._mentions_determinism:
            text = read_text(Path(key))  # once for both
        return (self.facts(key, text), self._entry.get(key), self._mentions(key, text))

    def absorb(self, path: "str | Path", learnt: "Learnt") -> None:
        """Take what :meth:`survey` learnt of ``path`` (in another process) as known here."""
        key = os.path.abspath(path)
        facts, entry, mentions = learnt
        self._facts.setdefault(key, facts)
        if entry is not None:
            self._entry.setdefault(key, entry)
        self._mentions_determinism.setdefault(key, mentions)

    def forget(self, path: "str | Path") -> None:
        """Drop what was learnt from ``path``'s text (it changed, e.g. after a fix)."""
        key = os.path.abspath(path)
        self._facts.pop(key, None)
        self._entry.pop(key, None)
        self._mentions_determinism.pop(key, None)
        # everything derived from the call graph may have gone through that file
        self._nodes = {node: info for node, info in self._nodes.items() if node[0] != key}
        self._closures.clear()
        self._entries.clear()
        self._enables_determinism = None

    def resolve_module(self, dotted: str) -> Optional[Path]:
        """The project file defining module ``dotted`` (searched in the project's source roots)."""
        if dotted not in self._modules:
            found, looked = None, []
            rel = Path(*dotted.split(".")) if dotted else None
            if rel is not None:
                for root in sorted(self._roots):
                    for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
                        looked.append(str(candidate))
                        if candidate.is_file():
                            found = str(candidate)
                            break
                    if found:
                        break
            self._modules[dotted] = (found, tuple(looked))
        found, looked = self._modules[dotted]
        for candidate in looked:  # the answer depends on each file looked for, found or missing
            self.consult(candidate)
        return Path(found) if found else None

    def resolve_function(self, qualified: str) -> Optional[Tuple[ModuleFacts, BodyFacts]]:
        """``pkg.mod.func`` (or ``pkg.mod.Class.method``) defined in the project, with its facts."""
        node = self._resolve_qualified(qualified)
        if node is None or node[1].startswith(CLASS_PREFIX):
            return None
        facts = self.facts(node[0])
        body = facts.body(node[1]) if facts else None
        return (facts, body) if facts is not None and body is not None else None

    def _resolve_qualified(self, qualified: str, depth: int = 0) -> Optional[Node]:
        """The project body (function, or class node) that ``qualified`` names, following
        re-exports through package ``__init__`` modules."""
        parts = qualified.split(".")
        if depth > 16:
            return None
        for cut in range(len(parts) - 1, 0, -1):
            path = self.resolve_module(".".join(parts[:cut]))
            if path is None:
                continue
            facts = self.facts(path)
            if facts is None:
                return None
            found = _local_target(facts, ".".join(parts[cut:]))
            if found is not None:
                return facts.path, found
            target = facts.aliases.get(parts[cut])
            if target and target != qualified and not target.startswith(qualified + "."):
                rest = ".".join(parts[cut + 1 :])
                return self._resolve_qualified(f"{target}.{rest}" if rest else target, depth + 1)
            return None
        return None

    def _module_nodes(self, dotted: str) -> Iterator[Node]:
        """The top levels that importing ``dotted`` runs (each project package on the way)."""
        parts = dotted.split(".")
        for cut in range(1, len(parts) + 1):
            path = self.resolve_module(".".join(parts[:cut]))
            if path is not None:
                yield os.path.abspath(path), MODULE_BODY

    # -- effects -----------------------------------------------------------------------------
    def _configured(self, names: Iterable[str]) -> Optional[FrozenSet[str]]:
        for name in names:
            effects = self.settings.seed_functions.get(name)
            if effects is not None:
                return frozenset(effects)
        return None

    def resolve_call(self, facts: Optional[ModuleFacts], scope: Optional[str], name: str, imported: bool) -> Union[Node, FrozenSet[str], None]:
        """What a call named ``name`` made in body ``scope`` of module ``facts`` is: a project
        body (a node of the call graph), a set of effects (``seed-functions``, or the ``seed``
        name rule for calls that resolve to nothing), or None (nothing known). ``imported``:
        ``name`` was qualified through the module's imports (else it is as written)."""
        names = [name]
        if not imported and facts is not None and facts.module_name:
            names.append(f"{facts.module_name}.{name}")
        configured = self._configured(names)
        if configured is not None:
            return configured
        if imported:
            if _known(name):
                return None
            node = self._resolve_qualified(name)
            if node is not None:
                return node
        elif facts is not None:
            found = self._local(facts, scope, name)
            if found is not None:
                return facts.path, found
            head, dot, rest = name.partition(".")
            target = facts.aliases.get(head)
            if target is not None and head not in ("self", "cls"):
                # an import the caller's own table lost track of (``model = model.Net()``
                # rebinds the module's name while the call is being evaluated)
                return self.resolve_call(facts, scope, f"{target}{dot}{rest}", True)
        if is_seed_named(name, imported):
            return ALL_GENERATORS
        return None

    @staticmethod
    def _local(facts: ModuleFacts, scope: Optional[str], name: str) -> Optional[str]:
        """A name as written in body ``scope``: one of the module's functions or classes, or
        ``self.method`` inside a class."""
        head, _, rest = name.partition(".")
        if head in ("self", "cls") and rest:
            body = facts.body(scope) if scope else None
            return _local_target(facts, f"{body.owner}.{rest}") if body is not None and body.owner else None
        return _local_target(facts, name)

    def _node(self, node: Node) -> Optional[_NodeInfo]:
        if node in self._nodes:
            return self._nodes[node]
        self._nodes[node] = None  # a cycle through this node sees nothing more
        facts = self.facts(node[0])
        info = None
        if facts is not None:
            info = self._node_info(facts, node[1])
        self._nodes[node] = info
        return info

    def _node_info(self, facts: ModuleFacts, name: str) -> Optional[_NodeInfo]:
        if name.startswith(CLASS_PREFIX):
            cls = name[len(CLASS_PREFIX) :]
            methods = tuple(
                (facts.path, f) for f, body in facts.functions.items() if body.owner == cls and f.count(".") == cls.count(".") + 1
            )
            return _NodeInfo(methods, frozenset(), frozenset(), frozenset())
        body = facts.body(name)
        if body is None:
            return None
        edges: List[Node] = []
        effects = set(body.effects)
        for call in body.calls:
            target = self.resolve_call(facts, name, call, call in body.imported)
            if isinstance(target, tuple):
                edges.append(target)
            elif target:
                effects |= target
        for ref in body.refs:
            # a function passed as an argument (a callback), when it is one of the project's
            if ref in body.imported:
                target = None if _known(ref) else self._resolve_qualified(ref)
            else:
                found = self._local(facts, name, ref)
                target = (facts.path, found) if found is not None else None
            if target is not None:
                edges.append(target)
        if name == MODULE_BODY:
            for target in set(facts.aliases.values()):
                edges.extend(n for n in self._module_nodes(target) if n[0] != facts.path)
        if name == MAIN_BODY:
            edges.append((facts.path, MODULE_BODY))
        return _NodeInfo(tuple(dict.fromkeys(edges)), frozenset(effects), frozenset(body.uses), frozenset(body.draws))

    def closure(self, starts: Iterable[Node]) -> Summary:
        """Everything reached from ``starts`` over the call graph, and what it all does."""
        starts = tuple(starts)
        if len(starts) == 1 and starts[0] in self._closures:
            return self._closures[starts[0]]
        reached: Set[Node] = set()
        effects: Set[str] = set()
        uses: Set[str] = set()
        draws: Set[str] = set()
        stack = list(starts)
        while stack:
            node = stack.pop()
            if node in reached:
                continue
            reached.add(node)
            info = self._node(node)
            if info is None:
                continue
            effects |= info.effects
            uses |= info.uses
            draws |= info.draws
            stack.extend(e for e in info.edges if e not in reached)
        summary = Summary(frozenset(effects), frozenset(uses), frozenset(draws), frozenset(reached))
        if len(starts) == 1:
            self._closures[starts[0]] = summary
        return summary

    def entry_summary(self, path: "str | Path", source: Optional[str] = None) -> Summary:
        """What the execution path of entry point ``path`` does: its top level, its
        ``__main__`` block and every project body they reach, across files."""
        key = os.path.abspath(path)
        self.consult(ALL_FILES)
        if key not in self._entries:
            facts = self.facts(key, source)
            self._entries[key] = EMPTY if facts is None else self.closure([(key, MODULE_BODY), (key, MAIN_BODY)])
        return self._entries[key]

    def call_summary(self, path: "str | Path", scope: Optional[str], name: str, imported: bool, *, construct: bool = False) -> Summary:
        """What a call named ``name`` made in body ``scope`` of module ``path`` does,
        transitively (not counting what the call's own arguments say: classify those with
        :func:`classify_call`). ``construct``: for a class, only what building it runs."""
        self.consult(ALL_FILES)
        return self.call_summary_in(self.facts(path), scope, name, imported, construct=construct)

    def call_summary_in(self, facts: Optional[ModuleFacts], scope: Optional[str], name: str, imported: bool, *, construct: bool = False) -> Summary:
        self.consult(ALL_FILES)
        target = self.resolve_call(facts, scope, name, imported)
        if isinstance(target, tuple):
            if construct and target[1].startswith(CLASS_PREFIX):
                target_facts = self.facts(target[0])
                init = target[1][len(CLASS_PREFIX) :] + ".__init__"
                if target_facts is None or init not in target_facts.functions:
                    return EMPTY
                target = (target[0], init)
            return self.closure([target])
        if target:
            return Summary(effects=frozenset(target))
        return EMPTY

    def effects(self, name: str, path: "str | Path | None" = None) -> FrozenSet[str]:
        """Which generators a call of ``name`` seeds and what it turns on, transitively (known
        library helpers taken with their default arguments). ``name`` is fully qualified, or,
        with ``path``, may also be one of that module's own functions or classes."""
        self.consult(ALL_FILES)
        facts = self.facts(path) if path is not None else None
        local = facts is not None and self._local(facts, None, name) is not None
        if not local:
            effect = classify_call(name, name.rsplit(".", 1)[-1], _NoArgs())
            if effect.known:
                return effect.effects
        return self.call_summary_in(facts, None, name, imported=not local).effects

    def enables_determinism(self) -> bool:
        """Does the linted project turn deterministic algorithms on anywhere?

        Rules that report individual nondeterministic ops stay quiet when it does. A file
        counts when one of its bodies calls ``torch.use_deterministic_algorithms(True)``, sets
        ``torch.backends.cudnn.deterministic = True``, or calls a library helper with its
        determinism switch on (``set_seed(s, deterministic=True)``, ``Trainer(deterministic=True)``,
        ``enable_full_determinism``). Only files whose text mentions determinism are parsed.
        """
        self.consult(ALL_FILES)
        if self._enables_determinism is None:
            found = False
            for path in self.files:
                key = os.path.abspath(path)
                if self._mentions(key) and self._file_enables_determinism(key):
                    found = True
                    break
            self._enables_determinism = found
        return self._enables_determinism

    def _mentions(self, key: str, text: Optional[str] = None) -> bool:
        """Does the text of the file at absolute path ``key`` (``text``, or read here unless
        known) mention determinism?"""
        mentions = self._mentions_determinism.get(key)
        if mentions is None:
            if text is None:
                text = read_text(Path(key))
            mentions = bool(text and DETERMINISM_WORDS.search(text))
            self._mentions_determinism[key] = mentions
        return mentions

    def _file_enables_determinism(self, path: str) -> bool:
        facts = self.facts(path)
        if facts is None:
            return False
        bodies = [facts.module_body, facts.main_body, *facts.functions.values()]
        return any(body.effects & DETERMINISM for body in bodies)

    def prepare(self, paths: Iterable[Path]) -> None:
        """Compute, now (e.g. before forking workers), the entry-point flags, the facts and
        the execution-path summaries of every entry point among ``paths``, and whether the
        project enables determinism."""
        paths = list(paths)
        for path in paths:
            if self.is_entry_point(path):
                self.entry_summary(path)
        self.enables_determinism()

    def entry_points(self) -> FrozenSet[str]:
        return frozenset(p for p, is_entry in self._entry.items() if is_entry)


class _NoArgs(CallArgs):
    def value(self, name: str, position: Optional[int]) -> Any:
        return MISSING

    def strings(self, name: str, position: Optional[int]) -> List[str]:
        return []


def _known(qualified: str) -> bool:
    """A torch/NumPy/random or library call the classifier knows: never a project helper."""
    return classify_call(qualified, qualified.rsplit(".", 1)[-1], _NoArgs()).known


def _local_target(facts: ModuleFacts, name: str) -> Optional[str]:
    """The body of this module that calling ``name`` runs: a function, or a class node."""
    if name in facts.functions:
        return name
    if name in facts.classes:
        return CLASS_PREFIX + name
    return None
