"""The canonical setup block that ``--fix`` inserts into an entry point that is not seeded
(RPL101, RPL102, RPL103) or does not enable deterministic algorithms (RPL202).

:func:`setup_block_edits` returns the edits; every seeding rule of a file calls it and gets
the **same** edits (the block covers every generator the file uses), so the fixer applies
the block once however many findings carry it.

Where the block goes:

- at the top of the ``if __name__ == "__main__":`` block when the module has one, so that
  importing the module stays free of side effects;
- otherwise after the module's header (docstring, ``from __future__``, the leading imports);
- in either place, after the statement that defines the seed it uses: a seed variable
  (``SEED = 42``) or ``args = parser.parse_args()`` when the parser has a ``--seed`` option;
- at module level, even when there is a ``__main__`` block, when the module's top level before
  it parses the seed option or seeds the program itself (a top-level script whose guard only
  finishes the run): in the guard the block would override the program's seed.
- in the module of a console script (declared in the packaging metadata), at the top of the
  function the script calls (after its docstring and leading imports), or after the statement
  in it that makes the seed available: the installed program starts there, and importing the
  module stays free of side effects. When that function is not defined at the module's top
  level (a method, a name imported from elsewhere), there is no safe place: no fix.
- likewise at the top of a module-level function that ``torch.multiprocessing.spawn(fn, ...)``
  runs: its children import the module afresh and never run the ``__main__`` block.

What it contains, by ``fix-style``:

- ``runtime`` (default): ``from repro_lint.runtime import seed_everything`` and
  ``seed_everything(SEED)``, which seeds Python, NumPy and torch and applies the switches;
- ``inline``: the plain calls of the PyTorch reproducibility notes, for the generators the
  file uses: ``random.seed``, ``np.random.seed``, ``torch.manual_seed``,
  ``torch.backends.cudnn.benchmark = False``, ``torch.backends.cudnn.deterministic = True``,
  ``torch.use_deterministic_algorithms(True)``, and, when the target torch is older than 2.10,
  ``os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")`` first. It uses the names the
  file already imports (``np`` for NumPy) and adds only the imports it lacks. No seed for a
  generator the entry point's path seeds already, unless a finding asks for it.

Where the entry point's path turns deterministic algorithms on itself, the block holds the
seeds alone (``seed_everything(SEED, deterministic=False)``, or no switch lines), and a switch the
file sets to any value is never written again.

The runtime call seeds every generator again, so it is written only where that changes
nothing: where the path seeds no generator, or only through the program's seeding calls right
before the block, with the block's own seed (see :func:`_reseeded_alike`). Anywhere else (a
project helper that adds the rank, ``set_seed(seed, device_specific=True)``) the block is the
inline one, even with ``fix-style = "runtime"``: it must never throw the program's seed away.

It is one module because where the block goes decides what it may hold (the names bound
there, the seed available there) and how its edits are laid out around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ._lazy import cst
from .catalog import CUBLAS_CHECK_REMOVED, DEVICE_SEEDS, GENERATORS, SEED_CALLS, SEED_HELPERS, SEEDING_CALLS, SPAWN_CALLS, STAR_BOUND_LIBRARIES
from .classify import is_seed_named
from .edits import NodeEdit, first_party, header_end, import_line_target, opens_group, sorted_import_anchor
from .names import ImportTable, dotted_name
from .opcatalog import may_raise, surely_raises
from .rules.base import Analysis, FileContext, ValueScan
from .syntax import CstArgs, is_main_guard, string_value
from .values import Const
from .children import DEFINITIONS, node_kinds, syntax_children

#: what a seeding finding can ask the block to cover: GENERATORS, or the switches
DETERMINISTIC = "deterministic"
RUNTIME_SEED = "repro_lint.runtime.seed_everything"
#: in a block's ``covers``: its switches only warn where an op has no deterministic implementation
WARN_ONLY = "warn_only"
CUDNN = "torch.backends.cudnn"
PARSE_CALLS = ("parse_args", "parse_known_args", "get_args")
#: calls that set up a parser or read a seed: a statement making only these does no RNG work
SETUP_CALLS = frozenset(
    {"ArgumentParser", "add_argument", "add_argument_group", "add_mutually_exclusive_group", "set_defaults"}
    | set(PARSE_CALLS)
)
#: calls, as written, that set up the process and draw from no generator: the block may come
#: after them (``warnings.simplefilter("ignore")`` before the parser that defines ``--seed``)
PROCESS_SETUP_CALLS = frozenset({
    "warnings.simplefilter", "warnings.filterwarnings", "logging.basicConfig", "logging.getLogger",
    "os.makedirs", "os.environ.setdefault", "os.environ.get", "os.getenv", "sys.path.append", "sys.path.insert",
    "print", "torch.set_printoptions", "np.set_printoptions", "numpy.set_printoptions", "matplotlib.use",
    "torch.set_num_threads",
})
SEED_OPTIONS = ("--seed", "--random-seed", "--random_seed", "--manual-seed", "--manual_seed", "--rng-seed")


# -- finding things in the module ----------------------------------------------------------


def main_guard(module: cst.Module) -> Optional[cst.If]:
    """The module-level ``__main__`` block whose body is an indented block, if any."""
    for stmt in module.body:
        if is_main_guard(stmt) and isinstance(stmt.body, cst.IndentedBlock):  # type: ignore[union-attr]
            return stmt  # type: ignore[return-value]
    return None


def _small_statements(stmt: cst.CSTNode) -> Sequence[cst.BaseSmallStatement]:
    return stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ()


#: (node types, for ``type(node) in ...``: LibCST's nodes are ABCs, and ``isinstance`` is
#: about ten times slower on a type that does not match; see :func:`~repro_lint.children.node_kinds`;
#: ``DEFINITIONS``, a function's or class's: no statement is a lambda)
_SUITES = node_kinds(cst.BaseSuite)
_IFS = node_kinds(cst.If)
_CLAUSES = node_kinds(cst.Else, cst.Finally)
_INDENTED = node_kinds(cst.IndentedBlock)
#: the nodes whose parts run on some paths only (``if``/``elif``, ``x if c else y``, ``match``)
_CHOICES = node_kinds(cst.If, cst.IfExp, cst.Match)
_ONE_LINE = node_kinds(cst.SimpleStatementSuite)


def _blocks(stmt: cst.CSTNode) -> Iterator[cst.BaseSuite]:
    """The suites of a compound statement that run at the same level (not def/class bodies)."""
    if type(stmt) in DEFINITIONS:
        return
    for name in ("body", "orelse", "finalbody"):
        suite = getattr(stmt, name, None)
        kind = type(suite)
        if kind in _SUITES:
            yield suite
        elif kind in _IFS:  # an elif
            yield from _blocks(suite)
        elif kind in _CLAUSES:
            yield suite.body
    for handler in getattr(stmt, "handlers", ()) or ():
        yield handler.body


def _statements(body: Iterable[cst.CSTNode], into_functions: bool = False) -> Iterator[cst.CSTNode]:
    """Every statement of ``body``, nested ones included (function bodies if asked)."""
    stack = list(reversed(list(body)))
    while stack:
        stmt = stack.pop()
        yield stmt
        if into_functions and type(stmt) in DEFINITIONS:
            suites: List[cst.BaseSuite] = [stmt.body]  # type: ignore[attr-defined]
        else:
            suites = list(_blocks(stmt))
        for suite in reversed(suites):
            kind = type(suite)
            if kind in _INDENTED:
                stack.extend(reversed(suite.body))
            elif kind in _ONE_LINE:
                stack.append(cst.SimpleStatementLine(body=suite.body))


def import_table(file: FileContext, statements: Iterable[cst.CSTNode]) -> ImportTable:
    table = ImportTable(file.names.module_name, file.names.is_package)
    for stmt in statements:
        for small in _small_statements(stmt):
            table.add(small)
    return table


def is_seed_name(name: str) -> bool:
    lowered = name.lower()
    return lowered == "seed" or lowered.endswith("_seed")


def _seed_assignment(stmt: cst.CSTNode) -> Optional[str]:
    """``SEED = 42`` / ``seed: int = 1`` as one statement: the variable's name."""
    for small in _small_statements(stmt):
        target = value = None
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, value = small.targets[0].target, small.value
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            target, value = small.target, small.value
        if isinstance(target, cst.Name) and is_seed_name(target.value) and _may_be_int(value):
            return target.value
    return None


def _may_be_int(node: Optional[cst.CSTNode]) -> bool:
    if node is None:
        return False
    if isinstance(node, (cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return False
    if isinstance(node, (cst.List, cst.Tuple, cst.Dict, cst.Set, cst.Lambda)):
        return False
    return not (isinstance(node, cst.Name) and node.value in ("None", "True", "False"))


@dataclass(frozen=True)
class SeedOption:
    attribute: str
    #: False when ``args.<attribute>`` may be None (no default, not required)
    always_set: bool


def seed_option(module: cst.Module, everything: Optional[Sequence[cst.CSTNode]] = None) -> Optional[SeedOption]:
    """The ``add_argument("--seed", ...)`` of the module's parser, anywhere in the module
    (``everything``: its statements, all of them, when known)."""
    for stmt in everything if everything is not None else _statements(module.body, into_functions=True):
        for small in _small_statements(stmt):
            call = small.value if isinstance(small, cst.Expr) else None
            if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
                continue
            if call.func.attr.value != "add_argument":
                continue
            flags = [string_value(a.value) for a in call.args if a.keyword is None]
            option = next((f for f in flags if f in SEED_OPTIONS), None)
            if option is None:
                continue
            keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
            dest = string_value(keywords["dest"]) if "dest" in keywords else None
            attribute = dest or option.lstrip("-").replace("-", "_")
            default = keywords.get("default")
            required = keywords.get("required")
            always = (default is not None and _may_be_int(default)) or (
                isinstance(required, cst.Name) and required.value == "True"
            )
            return SeedOption(attribute, always)
    return None


@dataclass(frozen=True)
class SeedSource:
    """Where the script's parsed options give it a seed: this module's own seed option, read
    where ``args = parser.parse_args()`` parses it, and the seed option of the options that a
    project function parses and returns (``args = args_parser()`` from ``utils/options.py``,
    ``opt = TrainOptions().parse()``), as ``returned`` tells from the project's facts."""

    option: Optional[SeedOption]
    returned: Optional[Callable[[cst.Call], Optional[SeedOption]]] = None
    #: the names the module's imports bind (``torch``, ``np``): the heads of seeding calls that
    #: seed a library's generator, not an object's (``generator.manual_seed(SEED)``)
    imported: FrozenSet[str] = frozenset()

    def seed_of(self, stmt: cst.CSTNode) -> Optional[str]:
        """The seed a statement that parses the options makes available (``args.seed``), else None."""
        args = _parsed_args(stmt) if self.option is not None else None
        if args is not None and self.option is not None:
            return _seed_expression(args, self.option)
        for small in _small_statements(stmt) if self.returned is not None else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call):
                target = small.targets[0].target
                found = self.returned(small.value) if isinstance(target, cst.Name) else None  # type: ignore[misc]
                if found is not None:
                    return _seed_expression(target.value, found)  # type: ignore[attr-defined]
        return None


def _parsed_args(stmt: cst.CSTNode) -> Optional[str]:
    """``args = parser.parse_args()`` (or ``args, rest = parser.parse_known_args()``): ``args``."""
    for small in _small_statements(stmt):
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call)):
            continue
        func = small.value.func
        called = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        if called not in PARSE_CALLS:
            continue
        target = small.targets[0].target
        if isinstance(target, cst.Tuple) and target.elements:
            target = target.elements[0].value
        if isinstance(target, cst.Name):
            return target.value
    return None




#: calls, as written, that set an environment variable
_ENVIRONMENT_SETTERS = frozenset({"os.environ.setdefault", "os.environ.update", "os.putenv"})


def _sets_environment(stmt: cst.CSTNode) -> bool:
    """``os.environ["CUDA_VISIBLE_DEVICES"] = "2,3"`` (or ``os.environ.setdefault(...)``): the
    block comes after it, as the program's own setup of the process (the block sets variables
    where the program has not: ``CUBLAS_WORKSPACE_CONFIG``)."""
    for small in _small_statements(stmt):
        if isinstance(small, cst.Assign) and any(
            isinstance(t.target, cst.Subscript) and dotted_name(t.target.value) == "os.environ" for t in small.targets
        ):
            return True
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and dotted_name(small.value.func) in _ENVIRONMENT_SETTERS:
            return True
    return False


def _does_work(stmt: cst.CSTNode) -> bool:
    """Does the statement call anything beyond setting up an argument parser or the process
    (``PROCESS_SETUP_CALLS``)? (Definitions and imports do not: their bodies run later.) The
    block must come before such a statement."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return False
    stack: List[cst.CSTNode] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Import, cst.ImportFrom)):
            continue
        if isinstance(node, cst.Call):
            func = node.func
            called = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if called not in SETUP_CALLS and dotted_name(func) not in PROCESS_SETUP_CALLS:
                return True
        stack.extend(syntax_children(node))
    return False


# -- the block ---------------------------------------------------------------------------------


@dataclass
class Placement:
    """Where the block goes: into ``statements`` (the module's or the ``__main__`` block's body)
    before ``statements[index]``; after ``anchor`` when it follows a statement, else before
    ``first`` (the first statement, or the first comment/blank line under the guard)."""

    statements: Sequence[cst.CSTNode]
    index: int
    anchor: Optional[cst.CSTNode]
    first: Optional[cst.CSTNode]
    indent: str
    guard: Optional[cst.If]
    #: the seed expression found on the way (a variable, ``args.seed``), or None
    seed: Optional[str]
    #: the function the block goes into (the one the ``__main__`` block calls that parses the
    #: seed option), or None for the module's or the ``__main__`` block's body
    function: Optional[cst.FunctionDef] = None
    #: the generators that the module-level imports above the ``__main__`` block draw from as
    #: they run, before the block can seed them (see :func:`_import_draws`)
    early: FrozenSet[str] = frozenset()
    #: the block goes among the module's imports, before one that draws: its own imports go
    #: with it, above it, rather than into the file's import groups (which may come after it)
    in_header: bool = False


def _seed_expression(args: str, option: "SeedOption") -> str:
    expr = f"{args}.{option.attribute}"
    return expr if option.always_set else f"{expr} if {expr} is not None else {{default}}"


def _called_functions(module: cst.Module, guard: cst.If) -> Iterator[cst.FunctionDef]:
    """The module's functions that the ``__main__`` block calls by name, in call order."""
    defined = {stmt.name.value: stmt for stmt in module.body if isinstance(stmt, cst.FunctionDef)}
    seen: Set[str] = set()
    stack: List[cst.CSTNode] = list(reversed(list(guard.body.body)))  # type: ignore[union-attr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in defined:
            name = node.func.value
            if name not in seen:
                seen.add(name)
                yield defined[name]
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(reversed(syntax_children(node)))


def _seed_call(module: cst.Module, stmt: cst.CSTNode, option: "SeedSource") -> Optional[str]:
    """``torch.manual_seed(cfg.seed)``, ``L.seed_everything(args.seed)``, ``set_seed(SEED)``
    as one statement: the seed it passes (the program's own seed, which the block reuses).
    Not the seeding method of an object (``generator.manual_seed(SEED)`` on a loader's own
    ``torch.Generator``, ``rng.seed(0)``): it seeds that object alone."""
    for small in _small_statements(stmt):
        call = small.value if isinstance(small, cst.Expr) else None
        if not isinstance(call, cst.Call) or not call.args or call.args[0].keyword or call.args[0].star:
            continue
        name = dotted_name(call.func)
        if name is not None and is_seed_named(name, name.split(".", 1)[0] in option.imported or "." not in name):
            return module.code_for_node(call.args[0].value)
    return None


def spawned_functions(file: FileContext) -> Tuple[str, ...]:
    """The module-level functions of the file that ``torch.multiprocessing.spawn(fn, ...)`` (or
    ``start_processes``) runs in new processes: the program trains there, in children that
    import the module afresh and never run its ``__main__`` block, so the block goes at the top
    of the function, as for a console script's. Only where every run runs the function: a
    spawn under an ``if`` (nnU-Net's ``if num_gpus > 1: mp.spawn(run_ddp, ...) else:`` training
    in the process itself) leaves the block where the other path needs it, unless the module
    also calls the function itself (pytorch/examples' ImageNet, AdaBins: ``if
    args.multiprocessing_distributed: mp.spawn(main_worker, ...) else: main_worker(...)``):
    then every run, in children or in the process, starts there. Found once per file."""
    return file.analysis(SetupBlockState).spawned()


def _spawned_functions(file: FileContext) -> Tuple[str, ...]:
    """:func:`spawned_functions`, found by reading the module."""
    targets = spawn_targets(file)
    conditional = {name for name, spawned_on_some_paths, _ in targets if spawned_on_some_paths}
    if conditional and not conditional <= _called_directly(file.module, conditional):
        return ()
    return tuple(dict.fromkeys(name for name, _, _ in targets))


def _called_directly(module: cst.Module, names: Set[str]) -> Set[str]:
    """The ``names`` (module-level functions) that the module calls by name outside their own
    bodies."""
    found: Set[str] = set()
    stack: List[Tuple[cst.CSTNode, Optional[str]]] = [(module, None)]
    while stack:
        node, inside = stack.pop()
        if isinstance(node, cst.FunctionDef) and inside is None and node.name.value in names:
            inside = node.name.value
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in names and node.func.value != inside:
            found.add(node.func.value)
        stack.extend((child, inside) for child in syntax_children(node))
    return found


def spawn_targets(file: FileContext) -> List[Tuple[str, bool, cst.Call]]:
    """The calls of the file that run a module-level function of it in spawned processes
    (``torch.multiprocessing.spawn(fn, ...)``, ``start_processes``; :data:`SPAWN_CALLS`): for
    each, the function's name, whether the call is made on some paths only (under an ``if``
    other than the ``__main__`` guard, a conditional expression, a ``match``), and the call.
    Found once per file: the block's placement and each seeding rule ask."""
    return file.analysis(SetupBlockState).spawns()


def _spawn_targets(file: FileContext) -> List[Tuple[str, bool, cst.Call]]:
    """:func:`spawn_targets`, found by walking the module."""
    if "spawn" not in file.source and "start_processes" not in file.source:
        return []
    defined = {s.name.value for s in file.module.body if isinstance(s, cst.FunctionDef)}
    found: List[Tuple[str, bool, cst.Call]] = []
    stack: List[Tuple[cst.CSTNode, bool]] = [(file.module, False)]
    while stack:
        node, conditional = stack.pop()
        inner = conditional or (type(node) in _CHOICES and not is_main_guard(node))
        stack.extend((child, inner) for child in syntax_children(node))
        if type(node) is not cst.Call or file.qualify(node.func) not in SPAWN_CALLS:  # type: ignore[attr-defined]
            continue
        target = CstArgs(node).node("fn", 0)
        if isinstance(target, cst.Name) and target.value in defined:
            found.append((target.value, conditional, node))  # type: ignore[arg-type]
    return found


def _spawned_with_options(file: FileContext, function: cst.FunctionDef, everything: Sequence[cst.CSTNode]) -> Optional[str]:
    """``mp.spawn(worker, args=(world_size, args))`` after ``args = parser.parse_args()``, with
    the module's seed option: the seed of the parsed options as the spawned function receives
    them (``args.seed`` where ``def worker(rank, world_size, args)``), so that the children keep
    the program's ``--seed``; else None (the configured seed)."""
    option = seed_option(file.module, everything)
    parsed = {name for stmt in everything if (name := _parsed_args(stmt)) is not None}
    if option is None or not parsed:
        return None
    params = [p.name.value for p in function.params.params]
    found: Set[str] = set()
    for name, _, call in spawn_targets(file):
        if name != function.name.value:
            continue
        given = CstArgs(call).node("args", 1)
        if not isinstance(given, cst.Tuple):
            return None  # (no arguments, or not a tuple display: not known)
        for position, element in enumerate(given.elements):
            # the children get (rank, *args): the parameter after the rank at that position
            if isinstance(element.value, cst.Name) and element.value.value in parsed and position + 1 < len(params):
                found.add(params[position + 1])
    return _seed_expression(found.pop(), option) if len(found) == 1 else None


def _reseeded_alike(file: FileContext, place: Placement) -> FrozenSet[str]:
    """The generators that the program's own seeding calls right before the block (one
    statement each, nothing between them and the block) seed with the very seed the block
    reuses: calls that seed with their first argument as it is (``torch.manual_seed(args.seed)``,
    ``set_seed(args.seed)``, ``L.seed_everything(SEED, workers=True)``; the catalog's
    ``SEEDING_CALLS``), given nothing else that may change the seed (accelerate's
    ``set_seed(seed, device_specific=True)`` adds the process index, a project's
    ``seed_all(args.seed, rank)`` may add anything). Seeding those again with that seed, before
    anything draws, changes nothing; seeding any other generator the program seeds might."""
    found: Set[str] = set()
    for stmt in reversed(place.statements[: place.index]):
        seeds = _seeds_with(file, stmt, place.seed)
        if not seeds:
            break
        found |= seeds
    return frozenset(found)


def _seeds_with(file: FileContext, stmt: cst.CSTNode, seed: Optional[str]) -> FrozenSet[str]:
    """What the statement ``stmt``, one call that seeds with ``seed`` as it is, seeds (see
    :func:`_reseeded_alike`); empty for any other statement."""
    small = _small_statements(stmt)
    call = small[0].value if len(small) == 1 and isinstance(small[0], cst.Expr) else None
    if not isinstance(call, cst.Call) or not call.args or file.code_for(call.args[0].value) != seed:
        return frozenset()
    name = file.qualify(call.func)
    if name not in SEEDING_CALLS:
        return frozenset()
    helper = SEED_HELPERS.get(name)
    harmless = [arg for arg in (helper.determinism_arg, helper.workers_arg) if arg is not None] if helper else []
    for position, arg in enumerate(call.args[1:], start=1):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if arg.star or not any(keyword == p if keyword is not None else position == i for p, i in harmless):
            return frozenset()
    seeds = SEED_CALLS.get(name) or (helper.seeds if helper else frozenset())
    return seeds | {DEVICE_SEEDS} if "torch" in seeds else seeds  # torch's seed is every device's


def _is_import_statement(stmt: cst.CSTNode) -> bool:
    small = _small_statements(stmt)
    return bool(small) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in small)


def _later_seed_call(module: cst.Module, statements: Sequence[cst.CSTNode], start: int, option: "SeedSource") -> Optional[Tuple[int, str]]:
    """The program's own seeding call further down the same body, after statements that do other
    work (``rank = int(os.environ["RANK"])``; ``torch.manual_seed(1337 + rank)``): the program
    chose to seed there, and with that value, so the block goes right after it and reuses its
    seed, rather than above it (after the parse or a seed variable) with another seed that the
    program's call then overrides for torch alone (``args.seed`` on every rank, where the
    program gives each rank ``args.seed + rank``)."""
    for index in range(start, len(statements)):
        seeded = _seed_call(module, statements[index], option)
        if seeded is not None:
            return index, seeded
    return None


def _seed_in_called_function(module: cst.Module, guard: cst.If, option: "SeedSource") -> Optional[Placement]:
    """``def main(): args = parser.parse_args(); torch.manual_seed(args.seed); ...`` called from
    the ``__main__`` block: the block goes right after the statement that makes the seed
    available (the parse, or the program's own seeding call), in that function, and uses it."""
    for function in _called_functions(module, guard):
        found = _in_function(module, function, option, guard)
        if found is not None:
            return found
    return None


def _in_function(module: cst.Module, function: cst.FunctionDef, option: "SeedSource", guard: Optional[cst.If], top: bool = False) -> Optional[Placement]:
    """The place in ``function`` right after the statement that makes the seed available (the
    parse, or the program's own seeding call); with ``top``, else its top (after its docstring
    and the imports it starts with)."""
    body = function.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    indent = body.indent if body.indent is not None else module.default_indent
    found: Optional[Tuple[int, str]] = None
    on_call = False
    for index, stmt in enumerate(body.body):
        parsed = option.seed_of(stmt)
        seeded = _seed_call(module, stmt, option)
        if parsed is not None:
            found = (index, parsed)
        elif seeded is not None:
            found, on_call = (index, seeded), True
        elif _does_work(stmt):
            if not on_call:
                found = _later_seed_call(module, body.body, index, option) or found
            break
    if found is not None:
        index, seed = found
        return Placement(body.body, index + 1, body.body[index], None, indent, guard, seed, function)
    if not top:
        return None
    start = 0
    while start < len(body.body) and (
        (start == 0 and _is_docstring(body.body[0])) or _is_import_statement(body.body[start])
    ):
        start += 1
    if start:
        return Placement(body.body, start, body.body[start - 1], None, indent, guard, None, function)
    return Placement(body.body, 0, None, body.body[0], indent, guard, None, function)


def _is_docstring(stmt: cst.CSTNode) -> bool:
    small = _small_statements(stmt)
    return len(small) == 1 and isinstance(small[0], cst.Expr) and string_value(small[0].value) is not None


def _entry_function(module: cst.Module, names: Sequence[str]) -> Optional[cst.FunctionDef]:
    """The first of ``names`` (the functions console scripts call) that the module defines at
    its top level."""
    defined = {stmt.name.value: stmt for stmt in module.body if isinstance(stmt, cst.FunctionDef)}
    return next((defined[name] for name in names if name in defined), None)


def _seeds_before_guard(module: cst.Module, guard: cst.If, option: "SeedSource") -> bool:
    """Does the module's own top level, before the ``__main__`` block, parse the seed option or
    seed the program (``opt = parser.parse_args()``; ``torch.manual_seed(opt.seed)``)? Then the
    script runs at module level and the guard only finishes it: a block at the top of the guard
    would come after the program's seeding and override its seed."""
    for stmt in module.body[: list(module.body).index(guard)]:
        if _seed_call(module, stmt, option) is not None or option.seed_of(stmt) is not None:
            return True
    return False


def placement(
    module: cst.Module, entry_functions: Sequence[str] = (), everything: Optional[Sequence[cst.CSTNode]] = None,
    returned: Optional[Callable[[cst.Call], Optional[SeedOption]]] = None, imported: FrozenSet[str] = frozenset(),
    drawing: Callable[[cst.CSTNode], bool] = lambda stmt: False,
) -> Optional[Placement]:
    """Where the block goes, and which seed it uses (see the module doc); ``entry_functions``:
    the functions console scripts call in this module (None when none is defined at its top
    level: no place runs before the program); ``everything``: all the module's statements,
    when known; ``returned``: the seed option of the options a call of a project function
    returns (:class:`SeedSource`); ``imported``: the names the module's imports bind, whose
    seeding calls are the program's (:func:`_seed_call`); ``drawing``: does an import statement
    import a project module whose top level draws from a generator it does not seed (``import
    net``, whose ``decoder = nn.Sequential(...)`` initialises weights): the block goes before it."""
    option = SeedSource(seed_option(module, everything), returned, imported)
    if entry_functions:
        function = _entry_function(module, entry_functions)
        return _in_function(module, function, option, None, top=True) if function is not None else None
    guard = main_guard(module)
    seed: Optional[str] = None
    if guard is not None and _seeds_before_guard(module, guard, option):
        guard = None  # placed as in a script without a guard: after the seed is available
    if guard is not None:
        body = guard.body
        assert isinstance(body, cst.IndentedBlock)
        statements: Sequence[cst.CSTNode] = body.body
        indent = body.indent if body.indent is not None else module.default_indent
        for stmt in module.body[: list(module.body).index(guard)]:
            seed = _seed_assignment(stmt) or seed  # a module-level seed variable before the guard
        anchor_index = -1
        while anchor_index + 1 < len(statements) and _is_import_statement(statements[anchor_index + 1]) and not drawing(statements[anchor_index + 1]):
            anchor_index += 1  # after the imports the guard starts with, which bind its names
    else:
        statements = module.body
        indent = ""
        header = header_end(module)
        anchor_index = list(statements).index(header) if header is not None else -1
        drawn = next((i for i in range(anchor_index + 1) if _is_import_statement(statements[i]) and drawing(statements[i])), None)
        if drawn is not None:
            # before the import that draws (the block's statements all come before it then)
            before = statements[drawn - 1] if drawn else None
            return Placement(statements, drawn, before, None if before is not None else statements[drawn], indent, None, seed, in_header=True)
    start = anchor_index
    on_call = False  # anchored on the program's own seeding call
    for index in range(anchor_index + 1, len(statements)):
        stmt = statements[index]
        if _is_import_statement(stmt) and drawing(stmt):
            break  # the block must run before this import
        variable = _seed_assignment(stmt)
        if variable is not None:
            seed, anchor_index = variable, index
            continue
        if _sets_environment(stmt):
            anchor_index = index  # (the program's own setting of the process, before the block)
            continue
        parsed = option.seed_of(stmt)
        if parsed is not None:
            seed, anchor_index = parsed, index
            continue
        seeded = _seed_call(module, stmt, option)
        if seeded is not None:
            seed, anchor_index, on_call = seeded, index, True  # the program's own seeding call: reuse its seed
            continue
        if _does_work(stmt):
            later = None if on_call else _later_seed_call(module, statements, index, option)
            if later is not None:
                anchor_index, seed = later
            break  # the block must run before this statement
    if guard is not None and anchor_index == start:
        inside = _seed_in_called_function(module, guard, option)
        if inside is not None:
            return inside
    if anchor_index >= 0:
        return Placement(statements, anchor_index + 1, statements[anchor_index], None, indent, guard, seed)
    first: Optional[cst.CSTNode] = statements[0] if statements else None
    if guard is not None and first is not None and getattr(first, "leading_lines", ()):
        first = first.leading_lines[0]  # type: ignore[attr-defined]  # right under the `if` line
    return Placement(statements, 0, None, first, indent, guard, seed)


def _statement_texts(module: cst.Module, statements: Iterable[cst.CSTNode]) -> FrozenSet[str]:
    return frozenset(module.code_for_node(small).strip() for stmt in statements for small in _small_statements(stmt))


@dataclass
class Block:
    """The block's statements (unindented), the import lines it needs, and where it goes;
    ``covers``: what its statements do, for the fix's title (:func:`block_title`)."""

    lines: List[str]
    imports: List[str]
    place: Placement
    covers: Tuple[str, ...] = ()


#: how a fix's title names each generator the block seeds, in the block's order
_SEEDED_NAMES = {"random": "Python's random", "numpy": "NumPy", "torch": "torch"}


def block_title(block: Optional[Block]) -> str:
    """The title of a fix that inserts ``block``: what its statements do, from what
    :func:`build_block` wrote (``seed NumPy and torch, deterministic algorithms on``), so that a
    block holding only the switches does not claim to seed anything."""
    covers = block.covers if block is not None else ()
    seeded = [_SEEDED_NAMES[g] for g in _SEEDED_NAMES if g in covers]
    parts = []
    if RUNTIME_SEED in covers:
        parts.append("seed everything")
    elif seeded:
        parts.append("seed " + (f"{', '.join(seeded[:-1])} and {seeded[-1]}" if len(seeded) > 1 else seeded[0]))
    if DETERMINISTIC in covers:
        parts.append("deterministic algorithms on" + (", warn only" if WARN_ONLY in covers else ""))
    return "Insert the setup block" + (f" ({', '.join(parts)})" if parts else "")


def _assignments(table: ImportTable, module: cst.Module, statements: Iterable[cst.CSTNode]) -> FrozenSet[Tuple[str, str]]:
    """``(qualified target, value)`` of every attribute assignment among ``statements``
    (``cudnn.benchmark = False`` with ``from torch.backends import cudnn`` gives
    ``("torch.backends.cudnn.benchmark", "False")``)."""
    found = set()
    for stmt in statements:
        for small in _small_statements(stmt):
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    qualified = table.qualify(target.target)
                    if qualified is not None:
                        found.add((qualified, module.code_for_node(small.value).strip()))
    return frozenset(found)


def _never_none(file: FileContext, place: Placement) -> Optional[str]:
    """The block's seed, made safe where it is None on the default path: a seed reused from the
    program (``seed = args.seed``, ``torch.cuda.manual_seed_all(args.seed)``) whose option
    defaults to None gets the configured seed then (``seed if seed is not None else 0``), so
    that the block never seeds with None (``random.seed(None)`` reseeds from OS entropy)."""
    seed = place.seed
    if seed is None or "{default}" in seed:
        return seed
    try:
        expr = cst.parse_expression(seed)
    except cst.ParserSyntaxError:
        return seed
    if dotted_name(expr) is None:
        return seed
    owner = place.function or place.guard
    where = place.statements[place.index : place.index + 1]
    chain = ((owner, owner.body) if owner is not None else ()) + tuple(where)
    values = file.analysis(ValueScan).values.of(expr, chain)
    if values is not None and any(isinstance(v, Const) and v.value is None for v in values):
        return f"{seed} if {seed} is not None else {{default}}"
    return seed


def _returned_seed_option(file: FileContext) -> Callable[[cst.Call], Optional[SeedOption]]:
    """For :class:`SeedSource`: the seed option (``--seed``, :data:`SEED_OPTIONS`) of the
    options that a call of a project function returns, where every ``return`` of that function
    gives its module's parsed options (:attr:`~repro_lint.facts.BodyFacts.returns_options`)."""

    def returned(call: cst.Call) -> Optional[SeedOption]:
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) and not func.value.args:
            owner = _project_name(file, func.value.func)  # ``TrainOptions().parse()``
            qualified = f"{owner}.{func.attr.value}" if owner is not None else None
        else:
            qualified = _project_name(file, func)
        found = file.project.resolve_method(qualified) if qualified is not None else None
        if found is None or not found[1].returns_options:
            return None
        for flag in SEED_OPTIONS:
            dest = flag.lstrip("-").replace("-", "_")
            if dest in found[0].options:
                default = found[0].options[dest]
                return SeedOption(dest, isinstance(default, int) and not isinstance(default, bool))
        return None

    return returned


def _project_name(file: FileContext, func: cst.BaseExpression) -> Optional[str]:
    """A callee's qualified name: through the imports, else a top-level name of this module."""
    qualified = file.qualify(func)
    if qualified is None and isinstance(func, cst.Name):
        return f"{file.module_name}.{func.value}"
    return qualified


def _import_draws(file: FileContext) -> Callable[[cst.CSTNode], FrozenSet[str]]:
    """The generators that importing the project modules an import statement names draws from
    without seeding them itself (as RPL105 reads an import: ``import net``, whose ``decoder =
    nn.Sequential(...)`` initialises weights), asked of the project context once per statement."""
    known: Dict[int, FrozenSet[str]] = {}

    def draws(stmt: cst.CSTNode) -> FrozenSet[str]:
        if id(stmt) not in known:
            modules = [m for small in _small_statements(stmt) if isinstance(small, (cst.Import, cst.ImportFrom)) for m in file.names.imported_modules(small)]
            summary = file.project.import_summary(file.path, modules) if modules else None
            known[id(stmt)] = (summary.draws - summary.effects) & frozenset(GENERATORS) if summary is not None else frozenset()
        return known[id(stmt)]

    return draws


def _basis(file: FileContext) -> "Optional[Tuple[Placement, str, ImportTable, ImportTable, FrozenSet[str], FrozenSet[Tuple[str, str]]]]":
    module = file.module
    everything = list(_statements(module.body, into_functions=True))
    facts = file.project.facts(file.path, file.source)
    # (``torch`` bound by a star import is torch, as the facts read it)
    imported = frozenset(file.names.aliases) | (frozenset(STAR_BOUND_LIBRARIES) if facts is not None and facts.star_imports else frozenset())
    drawn = _import_draws(file)
    place = placement(module, file.project.console_functions(file.path) or spawned_functions(file), everything, _returned_seed_option(file), imported, lambda stmt: bool(drawn(stmt)))
    if place is None:
        return None
    if place.guard is not None:
        # a module-level import that draws runs before the ``__main__`` block: a seed there comes
        # too late for that draw (and one at the top level would run for every importer)
        place.early = frozenset(g for stmt in module.body[: list(module.body).index(place.guard)] if _is_import_statement(stmt) for g in drawn(stmt))
    if place.guard is not None and place.function is not None and file.project.imported_elsewhere(file.path, place.function.name.value):
        # a function the ``__main__`` block calls, and another module may call too: the block
        # there would reseed every generator for those programs as well (``get_data(items,
        # random_seed=None)`` of a data module, called by the training script)
        return None
    if place.function is not None and place.seed is None:
        place.seed = _spawned_with_options(file, place.function, everything)
    default_seed = str(file.settings.seed)
    seed = (_never_none(file, place) or default_seed).replace("{default}", default_seed)
    # names bound where the block runs: module-level imports before it, and before it in the guard
    if place.function is not None:
        before = list(module.body[: list(module.body).index(place.function)]) + list(place.statements[: place.index])
    elif place.guard is not None:
        before = list(module.body[: list(module.body).index(place.guard)]) + list(place.statements[: place.index])
    else:
        before = list(place.statements[: place.index])
    bound = import_table(file, _statements(before))
    everywhere = import_table(file, everything)
    existing = _statement_texts(module, _statements(list(before) + list(place.statements[place.index:])))
    assigned = _assignments(everywhere, module, everything)
    return place, seed, bound, everywhere, existing, assigned


def build_block(
    file: FileContext, generators: Iterable[str] = (), allowed: Optional[Iterable[str]] = None, determinism: Optional[bool] = None,
) -> Optional[Block]:
    """The block for ``generators`` (what the findings asked for). ``allowed``: what the run's
    selected rules may ask for (None: everything); the block adds a generator the file merely
    imports, or the switches beside the seeds, only when its rule is selected. None: the block
    has no safe place (see :func:`placement`)."""
    basis = file.analysis(SetupBlockState).basis()
    if basis is None:
        return None
    settings = file.settings
    place, seed, bound, everywhere, existing, assigned = basis
    generators = set(generators)
    if place.early & generators:
        return None  # a generator the findings ask for is drawn by an import before the block runs
    allowed = set(allowed) if allowed is not None else set(GENERATORS) | {DETERMINISTIC}
    # deterministic algorithms on where the entry point reaches an op without a deterministic
    # implementation would make it raise on CUDA: then they only warn (warn_only=True)
    warn_only = file.analysis(SetupBlockState).reaches_raising_op()
    wanted = generators | {g for g in GENERATORS if everywhere.imports_module(g) and g in allowed}
    # the canonical block: seeds and switches together, unless the program turns deterministic
    # algorithms on itself (``cudnn.deterministic = True`` counts, as for RPL202): then a finding
    # about a seed gets the seed alone, and the program's switches stay as they are
    # (not in a function that mp.spawn runs: its processes never run what the parent turned on)
    spawned = place.function is not None and place.function.name.value in spawned_functions(file)
    # (``determinism``: as the seeding rules read the path, a switch set to a config's False not counted)
    own_switches = not spawned and (file.project.entry_summary(file.path, file.source).deterministic if determinism is None else determinism)
    if "torch" in wanted and DETERMINISTIC in allowed and not own_switches:
        wanted.add(DETERMINISTIC)
    switched = {target for target, _ in assigned}  # a switch the file sets, to any value, is its own

    lines: List[str] = []
    imports: List[str] = []
    covers: List[str] = []

    def add(line: str, needs: Optional[str] = None, sets: Optional[Tuple[str, str]] = None, does: Sequence[str] = ()) -> None:
        if line in existing or (sets is not None and sets[0] in switched):
            # already there (in these words, or in others), or set by the file to another value
            # (``cudnn.benchmark = True`` a few lines below: RPL201's finding, not the block's)
            return
        lines.append(line)
        covers.extend(does)
        if needs is not None and needs not in imports:
            imports.append(needs)

    # the runtime call seeds every generator, so the block is the inline one where the run
    # selects no seeding rule (the switches alone: what RPL202 asks for, nothing the user
    # switched off), in a module that others import or of a package (no run-time dependency on
    # repro-lint), and where the program seeds a generator itself with what may be another seed
    # than the block's (the runtime call would throw the program's seed away)
    seeded, reseeds = file.analysis(SetupBlockState).program_seeds()
    inline = not file.may_import_runtime or not (allowed & set(GENERATORS)) or reseeds
    if inline:
        # a generator that no finding asked for and that the entry point's path seeds already
        # (``set_seed(42)`` just above, a library helper) gets no second seeding line
        wanted -= {g for g in GENERATORS if g not in generators and g in seeded}

        def name(qualified: str, default: str, statement: str) -> Tuple[str, Optional[str]]:
            local = bound.local_name(qualified)
            if local is not None:
                return local, None
            if everywhere.aliases.get(default, qualified) != qualified:
                default, statement = qualified, f"import {qualified}"  # `np` means something else here
            return default, statement

        switches = DETERMINISTIC in wanted
        switch_on = (DETERMINISTIC, WARN_ONLY) if warn_only else (DETERMINISTIC,)
        if switches and settings.torch_version < CUBLAS_CHECK_REMOVED:
            os_name, needs = name("os", "os", "import os")
            add(f'{os_name}.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")', needs, does=switch_on)
        if "random" in wanted:
            random_name, needs = name("random", "random", "import random")
            add(f"{random_name}.seed({seed})", needs, does=("random",))
        if "numpy" in wanted:
            np_random = bound.local_name("numpy.random")
            if np_random is not None and bound.local_name("numpy") is None:
                add(f"{np_random}.seed({seed})", does=("numpy",))
            else:
                np_name, needs = name("numpy", "np", "import numpy as np")
                add(f"{np_name}.random.seed({seed})", needs, does=("numpy",))
        if "torch" in wanted or switches:
            torch_name, needs = name("torch", "torch", "import torch")
            if "torch" in wanted:
                add(f"{torch_name}.manual_seed({seed})", needs, does=("torch",))
            if switches:
                add(f"{torch_name}.backends.cudnn.benchmark = False", needs, (f"{CUDNN}.benchmark", "False"), switch_on)
                add(f"{torch_name}.backends.cudnn.deterministic = True", needs, (f"{CUDNN}.deterministic", "True"), switch_on)
                add(f"{torch_name}.use_deterministic_algorithms(True{', warn_only=True' if warn_only else ''})", needs, does=switch_on)
    else:
        local = bound.local_name(RUNTIME_SEED)
        needs = None
        if local is None:
            local = "seed_everything"
            needs = "from repro_lint.runtime import seed_everything"
            if everywhere.aliases.get(local, RUNTIME_SEED) != RUNTIME_SEED:
                local = "repro_seed_everything"  # the file has another seed_everything
                needs += f" as {local}"
        plain = f"{local}({seed}{', warn_only=True' if warn_only else ''})"
        alone = f"{local}({seed}, deterministic=False)"  # the seeds alone, the program's switches kept
        # (the block already there counts as the program's switches for a second ``--fix``,
        # which finds it in either words)
        if plain not in existing and alone not in existing:
            if own_switches:
                add(alone, needs, does=(RUNTIME_SEED,))
            else:
                add(plain, needs, does=(RUNTIME_SEED, DETERMINISTIC, *((WARN_ONLY,) if warn_only else ())))
    return Block(lines, imports, place, tuple(dict.fromkeys(covers)))


def setup_block_edits(
    file: FileContext, generators: Iterable[str] = (), allowed: Optional[Iterable[str]] = None, determinism: Optional[bool] = None,
) -> List[NodeEdit]:
    """The edits that insert the canonical setup block into ``file`` (see the module doc).

    ``generators``: what the finding needs the block to cover, among ``"torch"``, ``"numpy"``,
    ``"random"`` and ``"deterministic"`` (the switches; they need torch). The block covers
    every generator any finding of the file asked for, plus those whose modules the file
    imports: every call for one file returns the **same** edit objects, updated in place when a
    later finding widens the set, so all findings of a file end up with identical edits and the
    fixer applies the block once. Empty when every line of the block is already there, or
    when it has no safe place. ``determinism``: whether the entry point's path turns
    deterministic algorithms on itself (None: as its summary says)."""
    state = file.analysis(SetupBlockState)
    state.requested |= set(generators)
    block = state.block = build_block(file, state.requested, allowed, determinism)
    fresh = block_edits(file.module, block, file.source, first_party(file)) if block is not None else []
    if not state.edits or len(fresh) != len(state.edits):
        state.edits = fresh  # the shape never changes for one file; this is the first call
    else:
        for old, new in zip(state.edits, fresh):
            old.kind, old.content, old.node, old.at = new.kind, new.content, new.node, new.at
    return list(state.edits)


class SetupBlockState(Analysis):
    """Per file: what its findings asked the block to cover, and the edits they all share."""

    def __init__(self, file: FileContext) -> None:
        super().__init__(file)
        self.requested: Set[str] = set()
        self.edits: List[NodeEdit] = []
        #: the block the edits insert now (a later finding of the file may widen it)
        self.block: Optional[Block] = None
        self._raising: Optional[bool] = None
        self._basis: Any = False
        self._seeds: Optional[Tuple[FrozenSet[str], bool]] = None
        self._spawns: Optional[List[Tuple[str, bool, cst.Call]]] = None
        self._spawned: Optional[Tuple[str, ...]] = None

    def basis(self) -> "Optional[Tuple[Placement, str, ImportTable, ImportTable, FrozenSet[str], FrozenSet[Tuple[str, str]]]]":
        """What every block of this file starts from, whatever its findings ask for: the
        place, the seed expression, the names bound where it runs and anywhere, and the
        statements and assignments already there (None: no safe place). Once per file."""
        if self._basis is False:
            self._basis = _basis(self.file)
        return self._basis  # type: ignore[return-value]

    def spawns(self) -> List[Tuple[str, bool, cst.Call]]:
        """:func:`spawn_targets` of the file, found once."""
        if self._spawns is None:
            self._spawns = _spawn_targets(self.file)
        return self._spawns

    def spawned(self) -> Tuple[str, ...]:
        """:func:`spawned_functions` of the file, found once."""
        if self._spawned is None:
            self._spawned = _spawned_functions(self.file)
        return self._spawned

    def program_seeds(self) -> Tuple[FrozenSet[str], bool]:
        """What the entry point's path seeds itself (generators, and the device generators),
        and whether the runtime call would seed any of them again with what may be another
        seed than the program's (:func:`_reseeded_alike`). Once per file."""
        if self._seeds is None:
            file = self.file
            basis = self.basis()
            summary = file.project.entry_summary(file.path, file.source)
            seeded = frozenset(g for g in (*GENERATORS, DEVICE_SEEDS) if summary.seeds(g))
            self._seeds = seeded, bool(seeded) and basis is not None and not seeded <= _reseeded_alike(file, basis[0])
        return self._seeds

    def reaches_raising_op(self) -> bool:
        """Does the entry point's execution path call an op that raises under deterministic
        mode whatever its arguments, or does a module it reaches call one with literal
        arguments that make it raise (``nn.AdaptiveAvgPool2d(3)``)? A module's op calls are
        known for the whole module, not per function: a reached module counts whole. (Once
        per file: every finding's block asks.)"""
        if self._raising is None:
            file = self.file
            project = file.project
            version = file.settings.torch_version
            self._raising = any(may_raise(call, version) for call in project.entry_calls(file.path, file.source))
            if not self._raising:
                modules = {module for module, _ in project.entry_summary(file.path, file.source).reached} | {file.path}
                facts = [project.facts(module) for module in sorted(modules)]
                self._raising = any(surely_raises(f.op_calls, version) for f in facts if f is not None)
        return self._raising


#: the most import lines a block adds (os, random, numpy, torch; or the runtime's): the number
#: of edits for sorted imports is always this, so that it never depends on what the block holds
IMPORT_SLOTS = 4


def _sorted_imports(module: cst.Module, imports: Sequence[str], own: Callable[[str], bool]) -> Tuple[List[NodeEdit], List[str]]:
    """The block's import lines that go into the file's sorted import groups, as exactly
    :data:`IMPORT_SLOTS` edits (lines sharing a place in one edit, in sorted order, followed by a
    blank line where they start a group of their own; the rest empty), and the lines that go
    after the header instead. ``own``: whether a module (dotted) is the project's."""
    header = header_end(module)
    if not module.body:
        return [], list(imports)
    places: Dict[Tuple[str, int], Tuple[cst.CSTNode, List[Tuple[Tuple[bool, str], str]]]] = {}
    unsorted: List[str] = []
    for line in imports:
        target = import_line_target(line)
        where = sorted_import_anchor(module, target[0], target[1], own) if target is not None else None
        if where is None or (where[0] == "line_after" and where[1] is header):
            unsorted.append(line)
            continue
        key = (target[1], target[0].lower())  # type: ignore[index]
        places.setdefault((where[0], id(where[1]), where[2]), (where[1], []))[1].append((key, line))
    edits = [
        NodeEdit(kind, "".join(f"{line}\n" for _, line in sorted(lines)) + ("\n" if alone else ""), node)
        for (kind, _, alone), (node, lines) in places.items()
    ]
    while len(edits) < IMPORT_SLOTS:
        edits.append(NodeEdit("at", "", None, (1, 0)))  # inserts nothing
    return edits, unsorted


def block_edits(module: cst.Module, block: Block, source: str = "", own: Callable[[str], bool] = lambda name: False) -> List[NodeEdit]:
    """Turn a :class:`Block` into edits: its imports after the module header (or into its
    sorted groups; ``own``: whether a module (dotted) is the project's, isort's first party),
    its lines at its place, each with the blank lines that separate them from the code around.

    The number of edits depends only on where the block goes, not on what it holds (an import
    edit with no imports to add inserts nothing), so :func:`setup_block_edits` can update them
    in place."""
    if not block.lines:
        return []
    place = block.place
    body = "".join(f"{place.indent}{line}\n" for line in block.lines)
    if place.in_header:
        # before an import that draws: its own imports with it, above it
        imports = "".join(f"{line}\n" for line in block.imports)
        content = (imports + "\n" if imports else "") + body
        if place.anchor is not None:
            return [NodeEdit("line_after", "\n" + content, place.anchor)]
        return [NodeEdit("line_before", content + "\n", place.first)]
    sorted_into, unsorted = _sorted_imports(module, block.imports, own)
    block = Block(block.lines, unsorted, place, block.covers)
    imports = "".join(f"{line}\n" for line in block.imports)
    targets = [import_line_target(line) for line in block.imports]
    if imports and all(t is not None and opens_group(module, t[0]) for t in targets):
        imports = "\n" + imports  # third-party imports after a header of standard-library ones
    if not module.body:  # nothing to seed in practice, but stay correct: at the end of the file
        return sorted_into + [NodeEdit("at", (imports + "\n" if imports else "") + body, None, (source.count("\n") + 1, 0))]
    header = header_end(module)
    docstring_only = header is not None and header is module.body[0] and not any(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in _small_statements(header)
    )
    if place.guard is None and place.anchor is not None and place.anchor is header:
        # right after the header: new imports join it, then a blank line, then the block
        if docstring_only:
            content = "\n" + (imports + "\n" if imports else "") + body
        else:
            content = imports + "\n" + body
        return sorted_into + [NodeEdit("line_after", content, header)]
    if place.guard is None and place.function is None and place.anchor is None and header is None and place.first is not None:
        # the module starts with code: imports, a blank line, the block, a blank line
        return sorted_into + [NodeEdit("line_before", (imports + "\n" if imports else "") + body + "\n", place.first)]
    edits: List[NodeEdit] = list(sorted_into)
    if not imports:
        edits.append(NodeEdit("line_after", "", header) if header is not None else NodeEdit("line_before", "", module.body[0]))
    else:
        if header is None:
            edits.append(NodeEdit("line_before", imports + "\n", module.body[0]))
        elif docstring_only:
            edits.append(NodeEdit("line_after", "\n" + imports, header))
        else:
            edits.append(NodeEdit("line_after", imports, header))
    if place.anchor is not None:
        # after imports (those a __main__ block starts with), a blank line first, as in a header
        separator = "\n" if _is_import_statement(place.anchor) else ""
        edits.append(NodeEdit("line_after", separator + body, place.anchor))
    else:
        assert place.first is not None  # the guard's body or the module's is never empty here
        edits.append(NodeEdit("line_before", body, place.first))
    return edits
