"""What an expression holds where a rule reads it, on the program's default path.

A rule that asks "is ``shuffle`` true here?", "which ``mode`` does this ``F.interpolate``
use?" or "how many workers does this loader start?" gets more than the literal written at the
call: :class:`Values` follows, within one file,

- a name to the assignments that reach the use, statement by statement through ``if``/``else``
  (a test it can evaluate on the default path takes its branch; otherwise both branches are
  possible), loops (the body may run or not), ``with`` and ``try``;
- a parameter to its default and to the arguments of the file's own calls of that function
  (``def resize(x, mode="bicubic")`` called as ``resize(x)`` and ``resize(x, mode="nearest")``
  may use either); a module-level function the file never calls, to the literal arguments of
  the project's calls in other modules when every call is known (a ``callers`` callback);
- ``self.attr`` to every ``self.attr = ...`` in the class's methods, and ``self.hparams.attr``
  (Lightning's ``save_hyperparameters``) to the ``__init__`` parameter of that name;
- ``args.attr`` to the default of the file's ``parser.add_argument`` that defines ``attr``
  (``action="store_true"`` defaults to False): the default path is the run with no options;
  an attribute no option defines that the module sets on the parsed options
  (``args.distributed = args.world_size > 1``) to that assignment; ``self.args.num_workers``
  where every project call hands the object the options another module parses (``Exp(args)``)
  to that module's default, also when a base class of another module keeps them
  (``super().__init__(args)``); ``exp.seed`` where ``exp`` holds an object built from a project
  class to what the class's methods (or its bases') assign to ``self.seed``;
- a name or ``self.attr`` that holds no single known value, inside a branch of an ``if``/``elif``
  or conditional expression whose test compares it with ``==`` to a literal (or ``in`` a tuple
  of literals; ``!=`` for the ``else``), to that literal, unless the branch rebinds it first
  (``elif self.mode == "linear":`` reads ``"linear"``);
- simple conditional expressions, comparisons, ``not``, ``and``/``or`` over those values
  (``shuffle=(sampler is None)``, ``shuffle=split == "train"``, ``False if args.eval else True``);
- a call of a project function (one of the module's own, or one a ``resolve`` callback finds in
  another project module) to what its ``return`` statements give on the default path, with the
  call's own arguments bound to the parameters (their tests decide the branch where they can),
  and a tuple it returns unpacked at the call (``need_shuffle, sampler = create_sampler(w, y)``).
  A returned value known only as an expression (``WeightedRandomSampler(...)``) is the call
  itself, seen from the caller; one drawn from a global RNG (``np.random.randint(2**31)``) is
  :data:`DRAWN`.

The answer is a list of **candidates**, each a :class:`Const` (a Python value) or the
expression it could not evaluate further (a call, a lambda, ``partial(...)``), or None when
the value cannot be followed at all (an import, a loop variable, a ``*args``).
Rules decide with :func:`any_const` (may the hazard hold?) and :func:`all_consts` (does the
value hold on every known path?). Nothing here runs code; depth and revisits are bounded.

It is one module because its parts answer one question together and call each other
recursively: an expression needs the statement walk, which evaluates ``if`` tests, which need
parameters, attributes and options, whose values are expressions again.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from ._lazy import cst
from .children import ASSIGNMENTS, CALLS, DEFINITIONS, node_kinds, syntax_children
from .catalog import CONFIG_LOADERS, DATACLASS_CLI_DECORATORS, DATACLASS_CLI_PARSERS, ENTROPY_RESULTS, TYPER_OPTIONS
from .classify import classify_call
from .facts import CLASS_PREFIX, PARSE_CALLS, ParsedOptions
from .names import dotted_name
from .opcatalog import BOOL_RESULTS, COUNT_RESULTS, CPU_FACTORIES, EINOPS_INTEGER_REDUCTIONS, EINOPS_PATTERNS, FROM_DATA, INDEX_RESULTS, INTEGER_TENSOR_TYPES, INTEGER_CASTS, INTEGER_DTYPES, INTEGER_KEEPING, JOINS, SHAPE_ATTRIBUTE, SHAPE_METHOD
from .syntax import COMPARISONS, MISSING, UNKNOWN, CstArgs, NoArgs, assigned_pairs, assigned_targets, bind, cst_names_read, cst_literal, cst_slots, is_main_guard, literal_argument, option_default, string_value


@dataclass(frozen=True)
class Const:
    """A value known without running the program."""

    value: Any


class _Open:
    """A value from outside the file: a parameter of a function the file never calls."""

    def __repr__(self) -> str:
        return "OPEN"


#: the candidate for callers the file cannot see (never a known value, never None)
OPEN: Any = _Open()


class _Drawn:
    """A value a project function returns that it drew from a random number generator
    (``return np.random.randint(2**31)``): a different value on every run."""

    def __repr__(self) -> str:
        return "DRAWN"


#: the candidate for a value drawn at random (never a known value, never None)
DRAWN: Any = _Drawn()

@dataclass(frozen=True)
class Unpacked:
    """Element ``index`` of what ``call`` returns (``a, b = f()`` gives ``b`` element 1)."""

    call: cst.Call
    index: int


@dataclass(frozen=True, eq=False)
class Augmented:
    """What ``x op= value`` leaves in ``x``: ``x``'s values before it (value, chain pairs),
    combined by ``operator`` with ``value`` (found under ``chain``): ``seed %= 2 ** 31``."""

    before: Tuple[Tuple[cst.BaseExpression, Chain], ...]
    operator: type
    value: cst.BaseExpression
    chain: Chain


Candidate = Any  # Const, cst.BaseExpression or OPEN
Candidates = Optional[List[Candidate]]
#: a node's enclosing nodes, outermost first (the module excluded)
Chain = Tuple[cst.CSTNode, ...]

_MAX_DEPTH = 6
#: evaluation steps per module (see ``Values._steps``)
_MAX_STEPS = 20_000
#: the parts of a compound statement that hold statements (as node types, for ``type(node)
#: in``: a failed ``isinstance`` on LibCST's ABCs is slow), and those with a line of small ones
_HOLDING_STATEMENTS = node_kinds(cst.BaseCompoundStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler, cst.Finally)
_STATEMENT_PART_KINDS = _HOLDING_STATEMENTS | node_kinds(cst.SimpleStatementLine)
#: the kinds of receiver :meth:`Values.kind` tells apart (INTEGER: a tensor of integers or bools)
NUMPY, TORCH, INTEGER = "numpy", "torch", "integer"
#: the kind of ``self.<attr>`` asked again while its own assignments are being classified
#: (``self.dones = self.dones[mask]``): what the other assignments make it, so it adds nothing
_SAME_AS_ITSELF = "itself"
#: comparisons that give a bool tensor elementwise
_ELEMENTWISE = (cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
#: operators defined for integer and bool tensors only
_BITWISE = (cst.BitAnd, cst.BitOr, cst.BitXor)
#: operators that keep two integer tensors integral
_INTEGRAL_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo, *_BITWISE)
#: methods whose result is never a tensor
NOT_TENSOR_METHODS = frozenset({"numpy", "tolist", "astype", "item"})
Qualify = Callable[[cst.CSTNode], Optional[str]]
#: finds the project function a call's callee names in another module: that module's evaluator
#: and the module-level ``def`` (None: not a project function)
Resolve = Callable[[cst.BaseExpression], Optional[Tuple["Values", cst.FunctionDef]]]
#: the built-in types ``isinstance`` is evaluated for
_BUILTIN_TYPES = {t.__name__: t for t in (bool, int, float, str, bytes, list, tuple, dict, set, type(None))}
#: the type of the object a display builds
_DISPLAYS = {cst.List: list, cst.ListComp: list, cst.Tuple: tuple, cst.Dict: dict, cst.DictComp: dict, cst.Set: set, cst.SetComp: set}
_BRANCHING = (cst.If, cst.For, cst.While, cst.Try, cst.With)
#: nodes whose names are not the enclosing code's when it runs (a test outside does not narrow them)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def any_const(candidates: Candidates, test: Callable[[Any], bool]) -> bool:
    """Some candidate is a known value for which ``test`` holds."""
    return candidates is not None and any(isinstance(c, Const) and test(c.value) for c in candidates)


def all_consts(candidates: Candidates, test: Callable[[Any], bool]) -> bool:
    """Every candidate is a known value for which ``test`` holds (and there is one)."""
    return bool(candidates) and all(isinstance(c, Const) and test(c.value) for c in candidates)  # type: ignore[union-attr]


def _dedupe(items: List[Candidate]) -> List[Candidate]:
    seen: Set[Any] = set()
    out = []
    for item in items:
        key = ("c", repr(item.value)) if isinstance(item, Const) else ("n", id(item))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


#: up to this many project calls of a function are followed apart (see :meth:`Values.per_call`)
_MAX_CALLS_APART = 16
#: builtin conversions whose result the evaluator computes from a known value
_CONVERSIONS: Dict[str, Callable[[Any], Any]] = {"int": int, "float": float, "bool": bool, "str": str, "len": len}
#: the displays whose size is known when no element is starred (``len(gpus)`` after ``gpus = []``)
_SIZED = (cst.List, cst.Tuple, cst.Set, cst.Dict)


class Values:
    """The evaluator for one module (built lazily; its indexes are walked once, on demand)."""

    def __init__(
        self,
        module: cst.Module,
        source: Optional[str] = None,
        resolve: Optional[Resolve] = None,
        qualify: Optional[Qualify] = None,
        callers: Optional[Callable[..., Any]] = None,
        options: bool = True,
        attributes: Optional[Callable[[Optional[str]], Optional[Dict[str, Any]]]] = None,
        methods: Optional[Callable[[Optional[str]], Optional[Tuple["Values", cst.FunctionDef, Chain]]]] = None,
        uncalled: Optional[Callable[[str], bool]] = None,
        option_modules: Optional[Callable[[Optional[str], str], Optional[List["Values"]]]] = None,
        class_module: Optional[Callable[[Optional[str]], Optional[Tuple["Values", str]]]] = None,
    ) -> None:
        self.module = module
        #: the evaluator of the module of a project class of another module, and the class's
        #: name there, by the class's qualified name (a config class: ``cfg = Config()``)
        self.class_module = class_module
        #: a method of a project class of another module, by qualified name (``pkg.mod.Base.__init__``),
        #: with its module's evaluator and the method's enclosing nodes
        self.methods = methods
        #: the literal attributes of a project module's object, by its qualified name
        #: (``ProjectModules.object_attributes``: a config object's defaults)
        self.attributes = attributes
        #: whether a command-line option's default is its value (False: only what the code
        #: itself fixes is known, not what a user may choose when running it)
        self.read_options = options
        #: the literal arguments of the project's calls of a module-level function, when every
        #: call is known (:meth:`~repro_lint.context.ProjectContext.caller_arguments`; called
        #: with ``elsewhere=True``: only other modules' calls)
        self.callers = callers
        #: whether nothing in the project calls a function (by the callee ``callers`` takes), nor
        #: hands it on: its defaults are then the values its default path runs with
        self.uncalled = uncalled
        #: the evaluators of the modules of a project class and its bases, when the class has
        #: a method of that name (``TrainOptions().parse()``: where its options are declared)
        self.option_modules = option_modules
        #: the module's import-qualified names (tells a call that draws random numbers)
        self.qualify = qualify
        #: the module's text, for cheap checks before a walk (None: always walk)
        self.source = source
        #: the project functions of other modules, by callee (None: this module's own only)
        self.resolve = resolve
        #: parameters bound by one call being followed into its function (see _returned)
        self._bound: Dict[Tuple[int, str], Candidates] = {}
        #: what each call of a project function returns, by (call, element)
        self._returns: Dict[Tuple[int, Optional[int]], Candidates] = {}
        self._module_defs: Optional[Dict[str, cst.FunctionDef]] = None
        #: the names of the module's top-level classes (see :meth:`_class_constant`)
        self._settings_classes: Optional[FrozenSet[str]] = None
        self._functions: Optional[Dict[int, Tuple[cst.FunctionDef, Chain]]] = None
        self._globals: Optional[Dict[str, List[Tuple[cst.FunctionDef, Chain]]]] = None
        self._calls: Optional[Dict[str, List[Tuple[cst.Call, Chain]]]] = None
        self._options: Optional[Dict[str, List[Tuple[cst.BaseExpression, Chain]]]] = None
        self._namespaces: Optional[FrozenSet[str]] = None
        self._attr_values: Optional[Dict[str, List[Tuple[Optional[cst.BaseExpression], Chain]]]] = None
        self._active: Set[Tuple[int, str]] = set()
        #: the truth of each ``if`` test met on a walk, decided once (on the default path it does
        #: not depend on which use is being followed)
        self._truths: Dict[int, Optional[bool]] = {}
        self._own_truths: Dict[int, Optional[bool]] = {}
        #: evaluation steps left for this module: past them every answer is "unknown", so that
        #: no file, however its tests and assignments nest, costs more than a bounded time
        self._steps = _MAX_STEPS
        #: per method: the values it assigns to each attribute of ``self`` (see _self_assignments)
        self._self_index: Dict[int, Dict[str, List[cst.BaseExpression]]] = {}
        #: the names each compound statement binds (see :func:`_may_bind`)
        self._binds: Dict[int, FrozenSet[str]] = {}
        #: answers of :meth:`_lookup` and :meth:`_parameter`, by use and by parameter
        self._looked: Dict[Tuple[str, int], Any] = {}
        self._params: Dict[Tuple[int, str], Candidates] = {}
        #: how many evaluations were cut short so far (see :meth:`_parameter`)
        self._cut_short = 0
        #: the attributes the module changes (see changed_attributes)
        self._changed: Optional[FrozenSet[str]] = None
        self._bindings: Optional[Dict[str, List[cst.BaseExpression]]] = None
        #: per class: the subclasses of the module that run its ``__init__`` (see _heirs)
        self._heir_index: Dict[int, List[cst.ClassDef]] = {}
        #: the words of the text followed by ``(`` (see :meth:`called`)
        self._called_words: Optional[FrozenSet[str]] = None
        #: per parser name: the callees the text hands it to first (see _declared_elsewhere)
        self._handed_parser: Dict[str, List[str]] = {}
        #: tests being decided (see _narrow)
        self._testing = 0
        #: the kind of what each of the module's functions returns (see _returned_kind)
        self._return_kinds: Dict[int, Optional[str]] = {}
        #: the ``self`` attributes (class, name) whose kind is being found (see :meth:`kind`)
        self._kinding: Set[Tuple[int, str]] = set()

    # -- the public question ---------------------------------------------------------------
    def of(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode], depth: int = 0) -> Candidates:
        """What ``expr``, found under ``chain`` (its enclosing nodes, outermost first), may hold."""
        if depth > _MAX_DEPTH or self._steps <= 0:
            self._cut_short += 1  # what is found above this is not kept (see :meth:`_parameter`)
            return None
        self._steps -= 1
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        if isinstance(expr, Unpacked):
            return self._returned(expr.call, chain, depth, expr.index)
        if isinstance(expr, Augmented):
            return self._augmented(expr, depth)
        literal = cst_literal(expr)
        if literal is not UNKNOWN:
            return [Const(literal)]
        if isinstance(expr, cst.Name):
            looped = _loop_values(expr.value, chain)
            if looped is not None:
                return looped
            return self._narrow(expr, chain, self._name(expr.value, chain, depth))
        if isinstance(expr, cst.IfExp):
            return self._choice(expr, chain, depth)
        if isinstance(expr, (cst.Comparison, cst.UnaryOperation, cst.BooleanOperation, cst.BinaryOperation)):
            return self._computed(expr, chain, depth)
        if isinstance(expr, cst.Attribute):
            return self._narrow(expr, chain, self._attribute(expr, chain, depth))
        if isinstance(expr, cst.Call):
            declared = self._typer_default(expr)
            if declared is not None:
                return self.of(declared, chain, depth + 1)  # ``seed: int = typer.Option(None)``: None
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _STRING_METHODS:
                text = self._string_method(expr, expr.func, chain, depth)
                if text is not None:
                    return text
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in PARSE_CALLS:
                parsed = self._parsed_elsewhere(expr.func.value, depth)
                if parsed is not None:
                    return parsed
            if isinstance(expr.func, cst.Attribute) and isinstance(expr.func.value, cst.Call) and not expr.args:
                parsed = self._parsed_by_method(expr.func.value, expr.func.attr.value, depth)
                if parsed is not None:
                    return parsed
            converted = self._converted(expr, chain, depth)
            if converted is not None:
                return converted
            if (
                isinstance(expr.func, cst.Attribute)
                and expr.func.attr.value == "from_bytes"
                and isinstance(expr.func.value, cst.Name)
                and expr.func.value.value == "int"
                and expr.args
                and not shadowed("int", chain)
                and self._drawn_in(self.of(expr.args[0].value, chain, depth + 1))
            ):
                return [DRAWN]  # ``int.from_bytes(os.urandom(4), "little")``
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "get":
                got = self._got(expr, expr.func, chain, depth)
                if got is not None:
                    return got
            checked = self._isinstance(expr, chain, depth)
            return checked if checked is not None else self._returned(expr, chain, depth, None)
        if isinstance(expr, cst.Subscript):
            entry = self._entry(expr, chain, depth)
            if entry is not None:
                return entry
        return [expr]  # a container, a lambda: the expression itself

    def _converted(self, expr: cst.Call, chain: Chain, depth: int) -> Candidates:
        """``int(opt.nThreads)``, ``bool(x)``, ``float(x)``, ``str(x)``, ``len(x)`` (the
        builtins, not a name the module rebinds) of known values: those values converted (the
        size of a display without starred elements, for ``len`` and ``bool``). None for anything
        else, or a value the conversion would reject."""
        func = expr.func
        convert = _CONVERSIONS.get(func.value) if isinstance(func, cst.Name) else None
        if convert is None or len(expr.args) != 1 or expr.args[0].keyword is not None or expr.args[0].star:
            return None
        if shadowed(func.value, chain) or func.value in self._module_defs_index() or (self.qualify is not None and self.qualify(func)):
            return None
        inner = self.of(expr.args[0].value, chain, depth + 1)
        if inner is None:
            return None
        if func.value in ("int", "float", "abs") and self._drawn_in(inner):
            return [DRAWN]  # ``int(time.time())``: a seed drawn at run time
        found: List[Candidate] = []
        for candidate in inner:
            if isinstance(candidate, Const):
                value = candidate.value
            elif (
                func.value in ("len", "bool")
                and isinstance(candidate, _SIZED)
                and not any(isinstance(e, (cst.StarredElement, cst.StarredDictElement)) for e in candidate.elements)
                and (isinstance(candidate, cst.Tuple) or not _changed_in_place(expr.args[0].value, chain, self.module))
            ):
                value = range(len(candidate.elements))  # a stand-in of the display's size
            else:
                return None
            try:
                found.append(Const(convert(value)))
            except (TypeError, ValueError, OverflowError):
                return None
        return _dedupe(found)

    def _parsed_elsewhere(self, parser: cst.BaseExpression, depth: int) -> Candidates:
        """``get_parser().parse_args()`` where ``get_parser`` is a project function of another
        module that builds the parser (``parser.add_argument(...)`` there, ``return parser``):
        the options' defaults there, as :class:`ParsedOptions` (an option whose default is not
        a literal is not known); the same for a parser of this module handed to such functions,
        which declare options on it (``parser_add_main_args(parser)`` from ``parse.py``). None
        for anything else."""
        if isinstance(parser, cst.Name):
            return self._declared_elsewhere(parser.value, depth)
        found = self.callee(parser.func, ()) if isinstance(parser, cst.Call) and not parser.args else None
        if found is None:
            return None
        other, function = found
        if other is self or (other.source is not None and "add_argument" not in other.source):
            return None
        returned = [
            small
            for line in _statements(function.body)
            if isinstance(line, cst.SimpleStatementLine)
            for small in line.body
            if isinstance(small, cst.Return)
        ]
        if len(returned) != 1 or not isinstance(returned[0].value, cst.Name):
            return None  # one ``return parser`` at the end of its body
        defaults = tuple((dest, value) for dest, value in self._defaults_of(other, depth).items() if value is not UNKNOWN)
        return [Const(ParsedOptions(defaults))] if defaults else None

    def _declared_elsewhere(self, parser: str, depth: int) -> Candidates:
        """The defaults of the options that project functions of other modules declare on
        this module's parser ``parser`` when it is handed to them as their first argument
        (``parser_add_main_args(parser)``), joined with this module's own; None when there are
        no such calls."""
        if self.source is None or self.resolve is None:
            return None
        defaults: Dict[str, Any] = {}
        handed = self._handed_parser.get(parser)
        if handed is None:
            pattern = rf"([A-Za-z_][\w.]*)\(\s*{re.escape(parser)}\s*[,)]"
            handed = self._handed_parser[parser] = list(dict.fromkeys(re.findall(pattern, self.source)))
        for name in handed:
            if name.rsplit(".", 1)[-1] in PARSE_CALLS or name.endswith(".add_argument_group"):
                continue
            try:
                func = cst.parse_expression(name)
            except cst.ParserSyntaxError:
                continue
            found = self.callee(func, ())
            if found is None or found[0] is self or (found[0].source is not None and "add_argument" not in found[0].source):
                continue
            defaults.update(self._defaults_of(found[0], depth))
        if not defaults:
            return None
        defaults.update(self.option_defaults(depth))
        known = tuple((dest, value) for dest, value in defaults.items() if value is not UNKNOWN)
        return [Const(ParsedOptions(known))] if known else None

    def _defaults_of(self, other: "Values", depth: int) -> Dict[str, Any]:
        """``other.option_defaults(depth)``, another module's options: where that evaluation
        was cut short (the depth limit reached there), so is this one's, so that what is found
        with them is not kept (an answer found deep inside a question about another value is
        not the answer to the same question asked directly)."""
        before = other._cut_short
        found = other.option_defaults(depth)
        if other._cut_short != before:
            self._cut_short += 1
        return found

    def option_defaults(self, depth: int = 0) -> Dict[str, Any]:
        """The default of each option this module's parser declares, by destination: a literal,
        or UNKNOWN (declared twice, or with a default that is not one)."""
        defaults: Dict[str, Any] = {}
        for dest, declared in self.options().items():
            got = self.of(declared[0][0], declared[0][1], depth + 1) if len(declared) == 1 else None
            defaults[dest] = got[0].value if got is not None and len(got) == 1 and isinstance(got[0], Const) else UNKNOWN
        return defaults

    def _parsed_by_method(self, built: cst.Call, method: str, depth: int) -> Candidates:
        """``opt = TrainOptions().parse()`` (SPADE, pix2pix, CenterNet's ``opts().parse()``): a
        method of a project class of another module that parses the command line, whose
        module (or its bases' modules) declares the options (``self.parser.add_argument``):
        those options' defaults, as :class:`ParsedOptions` (an option declared twice, or with a
        default that is not a literal, is not known); None for anything else."""
        if self.option_modules is None or self.qualify is None:
            return None
        modules = self.option_modules(self.qualify(built.func), method)
        if not modules or not any(m.source is None or any(word in m.source for word in PARSE_CALLS) for m in modules):
            return None
        defaults: Dict[str, Any] = {}
        for module in reversed(modules):  # a subclass's declaration comes after its base's
            if module is self or (module.source is not None and "add_argument" not in module.source):
                continue
            defaults.update(self._defaults_of(module, depth))
        known = tuple((dest, value) for dest, value in defaults.items() if value is not UNKNOWN)
        return [Const(ParsedOptions(known))] if known else None

    def _string_method(self, expr: cst.Call, func: cst.Attribute, chain: Chain, depth: int) -> Candidates:
        """``device.startswith("npu")``, ``mode.lower()``: the result, when every value the
        string may hold is known and the arguments are literals; else None."""
        if any(arg.keyword is not None or arg.star for arg in expr.args):
            return None
        args = [cst_literal(arg.value) for arg in expr.args]
        if any(arg is UNKNOWN for arg in args):
            return None
        texts = self.of(func.value, chain, depth + 1)
        if not texts or not all(isinstance(t, Const) and isinstance(t.value, str) for t in texts):
            return None
        try:
            return _dedupe([Const(getattr(t.value, func.attr.value)(*args)) for t in texts])  # type: ignore[union-attr]
        except (TypeError, ValueError):
            return None

    def _got(self, expr: cst.Call, func: cst.Attribute, chain: Chain, depth: int) -> Candidates:
        """``variant.get("device", "cuda")``: the entry, where every value the mapping may hold
        is known (:meth:`_entry`), else the default where it has no such key; None otherwise."""
        args = expr.args
        if not 1 <= len(args) <= 2 or any(a.keyword is not None or a.star for a in args):
            return None
        key = string_value(args[0].value)
        containers = self.of(func.value, chain, depth + 1) if key is not None else None
        if not containers:
            return None
        default = args[1].value if len(args) == 2 else cst.Name("None")
        return self._entries(containers, key, (default, chain), depth)  # type: ignore[arg-type]

    def _options_dict(self, container: Candidate) -> Optional[Dict[str, List[Tuple[cst.BaseExpression, Chain]]]]:
        """The options of this module's parser, when ``container`` is ``vars(args)`` of the
        parsed options (``experiment(variant=vars(args))``, ``args = vars(parser.parse_args())``);
        else None."""
        if not (isinstance(container, cst.Call) and isinstance(container.func, cst.Name) and container.func.value == "vars"):
            return None
        if len(container.args) != 1 or container.args[0].keyword is not None or container.args[0].star:
            return None
        given = container.args[0].value
        if isinstance(given, cst.Call) and parses_command_line(given):
            return self.options()  # ``args = vars(parser.parse_args())``
        return self.options() if isinstance(given, cst.Name) and given.value in self.namespaces() else None

    def _entries(
        self, containers: List[Candidate], key: str, default: Optional[Tuple[cst.BaseExpression, Chain]], depth: int, where: Chain = ()
    ) -> Candidates:
        """Entry ``key`` of each value a mapping may hold (a dict display, ``dict(...)``, a
        known dict, ``vars(args)``), or ``default`` (an expression and its chain) where one has
        no such key (None: a ``KeyError``, not followed); None when one is not known. ``where``:
        the chain of the use; an entry that is not a literal, of a display in the function
        around the use (``{"train": shuffle, "val": True}``), is followed from there."""
        found: List[Candidate] = []
        for container in containers:
            if container is OPEN:
                found.append(OPEN)  # a value from callers we cannot see: its entry too
                continue
            if isinstance(container, Const) and isinstance(container.value, ParsedOptions):
                # ``opt["cuda"]`` on ``vars(parser.parse_args())`` handed over: the option's default
                value = container.value.default(key)
                if value is UNKNOWN:
                    return None
                found.append(Const(value))
                continue
            if isinstance(container, Const) and isinstance(container.value, dict):
                if key in container.value:
                    found.append(Const(container.value[key]))
                    continue
                if default is None:
                    return None
                got = self.of(default[0], default[1], depth + 1)
            elif (options := self._options_dict(container)) is not None:
                declared = options.get(key)
                if declared:
                    got = self._resolve_all(declared, depth)
                elif default is not None:
                    got = self.of(default[0], default[1], depth + 1)
                else:
                    return None
            else:
                entries = dict_entries(container)
                if key in entries:
                    literal = cst_literal(entries[key])
                    got = None if literal is UNKNOWN else [Const(literal)]
                    if got is None and where and self._held_here(container, where):
                        got = self.of(entries[key], where, depth + 1)
                elif default is not None and (is_dict_display(container)):
                    got = self.of(default[0], default[1], depth + 1)
                else:
                    return None
            if got is None:
                return None
            found.extend(got)
        return _dedupe(found)

    def _held_here(self, node: Candidate, chain: Chain) -> bool:
        """Is ``node`` inside the function around ``chain`` (none: the module's top level)?"""
        scope = self._enclosing(chain)
        holder = scope[0] if scope is not None else self.module
        return isinstance(node, cst.CSTNode) and holds_node(holder, node)

    def _entry(self, expr: cst.Subscript, chain: Chain, depth: int) -> Candidates:
        """``cfg["mode"]`` where every value ``cfg`` may hold is a dict display or a ``dict(...)``
        call with that key as a literal (``def f(cfg=dict(mode="bilinear"))``): those entries;
        else None (the subscript stays an expression)."""
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return None
        index = expr.slice[0].slice.value
        key = string_value(index)
        if key is not None:
            containers = self.of(expr.value, chain, depth + 1)
            return self._entries(containers, key, None, depth, chain) if containers else None
        # a key known only as a name, a loop's over literals or a parameter (``shuffles[split]``,
        # ``for split in ["train", "val"]``): the entries of the keys it may be
        if not isinstance(index, cst.Name):
            return None
        keys = _loop_values(index.value, chain)
        if keys is None:
            scope = self._enclosing(chain)  # else a parameter's values (cheap to ask first)
            if scope is None or _parameter(scope[0], index.value) is None:
                return None
            keys = self.of(index, chain, depth + 1)
        if not keys or not all(isinstance(k, Const) and isinstance(k.value, str) for k in keys):
            return None
        containers = self.of(expr.value, chain, depth + 1)
        if not containers:
            return None
        found: List[Candidate] = []
        for each in keys:
            got = self._entries(containers, each.value, None, depth, chain)  # type: ignore[union-attr]
            if got is None:
                return None
            found.extend(got)
        return _dedupe(found)

    def per_call(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode]) -> Candidates:
        """:meth:`of`; but where the answer follows parameters of a module-level function that
        only other modules call, once per call with that call's arguments bound together, and
        the answers joined: the arguments of one call decide together (``make(ds, seed=s)``
        and ``make(ds, shuffle=False)`` never give ``seed=None`` with ``shuffle=True``)."""
        found = self.of(expr, chain)
        chain = tuple(chain)
        outer = next((i for i, n in enumerate(chain) if not isinstance(n, cst.Module)), None)
        function = chain[outer] if outer is not None else None
        if found is None or not isinstance(function, cst.FunctionDef) or self.callers is None:
            return found
        if not any(key[0] == id(function) for key in self._params):
            return found  # no parameter of the function was followed
        if self._calls_of(function, chain[:outer], False):
            return found  # the module's own calls: followed by :meth:`of`
        arguments = self.callers(function.name.value)
        if arguments is None or not 1 < len(arguments) <= _MAX_CALLS_APART:
            return found
        joined: List[Candidate] = []
        for positional, keywords in arguments:
            inner = self._within(self._literal_binding(function, positional, keywords), set(), self._steps)
            got = inner.of(expr, chain)
            self._steps = inner._steps
            if got is None:
                return found
            joined.extend(got)
        return _dedupe(joined)

    def each_call(
        self, exprs: Sequence[cst.BaseExpression], chain: Sequence[cst.CSTNode], callers: "Optional[Callable[..., Any]]" = None
    ) -> Optional[List[List[Candidates]]]:
        """The values of ``exprs`` (all under ``chain``) once per call of the function that
        holds them, with that call's arguments bound to its parameters together: the module's
        own calls (their arguments followed as :meth:`of` follows them) and other modules'
        calls (their literal arguments), for a module-level function. One row per call, one
        entry per expression (``callers``: what gives other modules' calls, instead of
        :attr:`callers`). None when no parameter of the function is followed, or its calls
        are not all known (or too many):
        ``make(ds, seed=0)`` and ``make(ds)`` give ``worker_init_fn`` a function in one and
        ``None`` in the other, which :meth:`of` joins."""
        chain = tuple(chain)
        outer = next((i for i, n in enumerate(chain) if not isinstance(n, cst.Module)), None)
        function = chain[outer] if outer is not None else None
        if not isinstance(function, cst.FunctionDef):
            return None
        for expr in exprs:
            self.of(expr, chain)
        if not any(key[0] == id(function) for key in self._params):
            return None  # no parameter of the function was followed
        function_chain: Chain = ()  # a module-level function, as :meth:`functions` has it
        method = False
        bindings: List[Dict[Tuple[int, str], Candidates]] = []
        own = self._calls_of(function, function_chain, method)
        for call, call_chain in own:
            bound: Dict[Tuple[int, str], Candidates] = {}
            args = self.spread_dicts(call.args, call_chain)
            for param in _all_params(function):
                given = bind(cst_slots(args), param.name.value, _position(function, param, method))
                if given is UNKNOWN:
                    return None
                if given is MISSING:
                    got = self.of(param.default, function_chain) if param.default is not None else None
                else:
                    got = self.of(given.value, call_chain)
                bound[(id(function), param.name.value)] = got
            bindings.append(bound)
        callee = _project_callee(function, function_chain)
        callers = callers or self.callers
        if callee is not None and callers is not None:
            arguments = callers(callee, True) if own else callers(callee)
            if arguments is None:
                return None
            bindings.extend(self._literal_binding(function, positional, keywords) for positional, keywords in arguments)
        elif not own:
            return None  # called from where we cannot see
        if not 0 < len(bindings) <= _MAX_CALLS_APART:
            return None
        rows: List[List[Candidates]] = []
        for bound in bindings:
            inner = self._within(bound, set(), self._steps)
            rows.append([inner.of(expr, chain) for expr in exprs])
            self._steps = inner._steps
        return rows

    def spread_dicts(self, args: Sequence[cst.Arg], chain: Chain) -> Sequence[cst.Arg]:
        """``args`` with each ``**name`` whose name holds one dict on the path, a display with
        string keys or ``dict(key=...)`` (OpenMMLab's ``setting = dict(workers_per_gpu=2,
        seed=cfg.seed)`` then ``build_dataloader(ds, **setting)``), written as its keywords;
        any other ``**`` stays (its keys are not known)."""
        if not any(arg.star == "**" and isinstance(arg.value, cst.Name) for arg in args):
            return args
        spread: List[cst.Arg] = []
        for arg in args:
            held = self.of(arg.value, chain) if arg.star == "**" and isinstance(arg.value, cst.Name) else None
            entries = dict_entries(held[0]) if held is not None and len(held) == 1 and is_dict_display(held[0]) else None
            if entries is None or not all(key.isidentifier() for key in entries):
                spread.append(arg)
            else:
                spread.extend(cst.Arg(value=value, keyword=cst.Name(key)) for key, value in entries.items())
        return spread

    def _literal_binding(self, function: cst.FunctionDef, positional: Any, keywords: Any) -> Dict[Tuple[int, str], Candidates]:
        """The parameters of module-level ``function`` bound to one call's literal arguments
        (as ``callers`` gives them): the literal, OPEN where the argument is not one, the
        default where the call leaves the parameter out."""
        bound: Dict[Tuple[int, str], Candidates] = {}
        for param in _all_params(function):
            name, position = param.name.value, _position(function, param, False)
            value = literal_argument(positional, keywords, name, position)
            if value is MISSING:
                bound[(id(function), name)] = self.of(param.default, (), 1) if param.default is not None else None
            else:
                bound[(id(function), name)] = [OPEN] if value is UNKNOWN else [Const(value)]
        return bound

    def truth(self, test: cst.BaseExpression, chain: Sequence[cst.CSTNode]) -> Optional[bool]:
        """Whether the test of an ``if`` (or a conditional expression), found under ``chain``,
        holds on the default path (``args.seed is not None`` with ``default=None``: False);
        None when it cannot be told."""
        return self._truth(tuple(n for n in chain if not isinstance(n, cst.Module)), 0)(test)

    def skipped_branch(self, chain: Sequence[cst.CSTNode]) -> "Optional[cst.If | cst.IfExp]":
        """The ``if`` around a node (whose enclosing nodes are ``chain``), within its function,
        whose branch holding the node is not taken on the default path, or None."""
        return skipped_branch(chain, self.truth)

    def names(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode], depth: int = 0) -> Optional[List[cst.BaseExpression]]:
        """The names a callee may stand for, on the default path: a local name is followed to
        the assignments that reach the use, and conditional expressions to their branches
        (``fn = MultiEpochsDataLoader if fast else DataLoader``; ``fn(ds)`` calls one of the
        two); what is left is a name bound by an import or a definition, or a dotted name.
        None when it cannot be told (a parameter, a call, a container)."""
        if depth > _MAX_DEPTH or self._steps <= 0:
            self._cut_short += 1
            return None
        self._steps -= 1
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        if isinstance(expr, cst.IfExp):
            truth = self._truth(chain, depth)(expr.test)
            branches = [expr.body, expr.orelse] if truth is None else [expr.body if truth else expr.orelse]
        elif isinstance(expr, cst.Name):
            found = self._lookup(expr.value, chain, depth)
            if isinstance(found, tuple):
                return self._parameter_names(found, depth)
            if not found:
                return [expr]  # an import or a definition
            branches = [value for value, _ in found]
            chain_of = {id(value): where for value, where in found}
        elif isinstance(expr, cst.Attribute):
            return [expr]
        else:
            return None
        names: List[cst.BaseExpression] = []
        for branch in branches:
            got = self.names(branch, chain_of[id(branch)] if isinstance(expr, cst.Name) else chain, depth + 1)
            if got is None:
                return None
            names.extend(n for n in got if not any(n is m for m in names))
        return names

    def _parameter_names(self, found: Tuple[cst.FunctionDef, Chain, cst.Param], depth: int) -> Optional[List[cst.BaseExpression]]:
        """:meth:`names` of a parameter of a module-level function whose default is a name
        (``def loader(dataset, klass=DataLoader)``) that no call of the function in the
        project passes (or that nothing calls): its default's; else None."""
        function, function_chain, param = found
        default = param.default
        if not isinstance(default, (cst.Name, cst.Attribute)) or self.callers is None:
            return None
        if any(not isinstance(n, cst.Module) for n in function_chain):
            return None  # a method, or a nested function
        calls = self.callers(function.name.value)
        if calls is None:
            if self.uncalled is None or not self.uncalled(function.name.value):
                return None
            calls = ()
        position = _position(function, param, False)
        for positional, keywords in calls:
            if param.name.value in keywords or (position is not None and len(positional) > position):
                return None  # given a callee of the call's own
        return self.names(default, function_chain, depth + 1)

    # -- expressions -------------------------------------------------------------------------
    def _choice(self, expr: cst.IfExp, chain: Chain, depth: int) -> Candidates:
        truth = self._truth(chain, depth)(expr.test)
        if truth is not None:
            return self.of(expr.body if truth else expr.orelse, chain, depth + 1)
        # each branch under the conditional expression: its test may narrow what a branch reads
        return self._resolve_all([(expr.body, chain + (expr,)), (expr.orelse, chain + (expr,))], depth)

    def _narrow(self, expr: cst.BaseExpression, chain: Chain, found: Candidates) -> Candidates:
        """``found``, or, where it is not one known value, the literals that the test of an
        enclosing ``if``/``elif`` or conditional expression pins ``expr`` to in the branch
        that holds the use (``elif self.mode == "linear":`` gives ``"linear"``; ``mode in
        ("a", "b")`` both; ``mode != "a"`` gives ``"a"`` in the ``else``), when nothing in
        the branch rebinds it before the use. Not while a test is being decided (a test is
        evaluated under the chain of the use, which is not its own)."""
        if self._testing or (found is not None and len(found) == 1 and isinstance(found[0], Const)):
            return found
        dotted = dotted_name(expr)
        if dotted is None or dotted.count(".") > 1:
            return found  # a rebinding of ``a.b.c`` is not followed
        for index in range(len(chain) - 1, -1, -1):
            node = chain[index]
            if isinstance(node, _SCOPES):
                break
            if not isinstance(node, (cst.If, cst.IfExp)):
                continue
            below = chain[index + 1] if index + 1 < len(chain) else None
            if below is None and isinstance(node, cst.IfExp):  # the use is (in) a branch itself
                below = node.body if holds_node(node.body, expr) else node.orelse if holds_node(node.orelse, expr) else None
            if below is node.body or below is node.orelse:
                pinned = _pinned(node.test, dotted, below is node.body)
                truth = _truthiness(node.test, dotted, below is node.body) if pinned is None and found else None
                if pinned is None and truth is None:
                    continue
                if isinstance(node, cst.If) and not self._untouched(dotted, chain, index + 1):
                    return found  # rebound after the test
                if pinned is None:
                    # ``if not train:`` leaves the values of ``train`` that are false there
                    kept = [c for c in found or () if not isinstance(c, Const) or bool(c.value) is truth]
                    return kept or found
                return [Const(v) for v in pinned]
        return found

    def _untouched(self, dotted: str, chain: Chain, block: int) -> bool:
        """Nothing in the block ``chain[block]`` binds ``dotted`` (or its base) before the use."""
        parts = dotted.split(".")
        for node in chain[block:]:  # a loop's target, ``with ... as``, ``except ... as`` on the way
            if isinstance(node, cst.For):
                bound = target_names(node.target, attributes=True)
            elif isinstance(node, cst.With):
                bound = [n for item in node.items if item.asname is not None for n in target_names(item.asname.name, attributes=True)]
            elif isinstance(node, cst.ExceptHandler) and node.name is not None:
                bound = target_names(node.name.name)
            else:
                continue
            if parts[0] in bound or dotted in bound:
                return False
        body = _statements(chain[block])
        for name in {parts[0], dotted}:
            reached = _reaching(body, name, chain, _undecided, chain[: block + 1], self._binds)
            if reached is not _UNASSIGNED:
                return False
        return True

    def _computed(self, expr: cst.BaseExpression, chain: Chain, depth: int) -> Candidates:
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            inner = self.of(expr.expression, chain, depth + 1)
            if inner is None:
                return None
            known = [v for v in inner if isinstance(v, Const) or v is OPEN]
            negated = _map(known, lambda v: not v) or []
            # ``shuffle=not sampler``, the sampler built on one path and None on the other: True
            # where it is None, not known where it is an object
            return negated if len(known) == len(inner) else _dedupe([*negated, expr])
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
            inner = self.of(expr.expression, chain, depth + 1)
            if not _numbers(inner):
                return None
            return _map(inner, (lambda v: -v) if isinstance(expr.operator, cst.Minus) else (lambda v: +v))
        if isinstance(expr, cst.BinaryOperation):
            # arithmetic of numbers known on every path (``1.0 - smoothing + off_value``, ``4 * ngpu``)
            arithmetic = _ARITHMETIC.get(type(expr.operator))
            if arithmetic is None:
                return [expr]
            # (its operands at the same depth: the nesting of an expression is the source's, finite;
            # schnetpack's byte swap of a clock seed nests five deep)
            folded = self._fold(self.of(expr.left, chain, depth), lambda: self.of(expr.right, chain, depth), arithmetic)
            return [expr] if folded is None else folded
        if isinstance(expr, cst.BooleanOperation):
            left = self.of(expr.left, chain, depth + 1)
            if all_consts(left, lambda v: not v if isinstance(expr.operator, cst.And) else bool(v)):
                return left  # ``x and ...`` with x false, ``x or ...`` with x true: the right is not evaluated
            right = self.of(expr.right, chain, depth + 1)
            if isinstance(expr.operator, cst.And):
                return _combine(left, right, lambda a, b: a and b)
            if isinstance(expr.operator, cst.Or):
                return _combine(left, right, lambda a, b: a or b)
            return None
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
            target = expr.comparisons[0]
            compare = _COMPARE.get(type(target.operator))
            if compare is None:
                return None
            left = self.of(expr.left, chain, depth + 1)
            right = _literal_display(target.comparator) if isinstance(target.operator, (cst.In, cst.NotIn)) else None
            if right is None:
                right = self.of(target.comparator, chain, depth + 1)
            if isinstance(target.operator, (cst.Is, cst.IsNot)) and right == [Const(None)] and left is not None:
                # ``sampler is None``: a call or a display is an object, not None
                left = [c if isinstance(c, Const) or c is OPEN else Const(_SOMETHING) for c in left]
            return _combine(left, right, compare)
        return None

    def _attribute(self, expr: cst.Attribute, chain: Chain, depth: int) -> Candidates:
        base, attr = expr.value, expr.attr.value
        method = self._enclosing(chain)
        if isinstance(base, cst.Name) and method is not None and _first_param(method[0]) == base.value and _is_bound_method(*method):
            return self._self_attribute(attr, method, depth)
        if (
            isinstance(base, cst.Attribute)
            and base.attr.value == "hparams"
            and isinstance(base.value, cst.Name)
            and method is not None
            and _first_param(method[0]) == base.value.value
        ):
            return self._hparam(attr, method, depth)
        if isinstance(base, cst.Name) and self.read_options and (self.source is None or "add_argument" in self.source):
            options = self.options().get(attr)
            if options and not self._config_object(base.value, chain, depth) and self._may_hold_options(base, chain, depth):
                assigned = self._attribute_assignments(base.value, attr, chain, depth)
                if assigned is None:
                    # assigned on some paths only (``if torch.cuda.is_available(): args.device =
                    # "cuda"``): the option's default on the others
                    assigned = self._attribute_assignments(base.value, attr, chain, depth, start=options)
                return self._resolve_all(options if assigned is _UNASSIGNED else assigned, depth)
            if base.value in self.namespaces():
                derived = self._derived_option(base.value, attr, chain, depth)
                if derived is not None:
                    return derived
        if isinstance(base, cst.Name) and not (
            method is not None and _first_param(method[0]) == base.value and _is_bound_method(*method)
        ):
            # ``args.dist_backend = "nccl"`` earlier in the function: the assignments that reach
            assigned = self._attribute_assignments(base.value, attr, chain, depth)
            if isinstance(assigned, list) and assigned:
                return self._resolve_all(assigned, depth)
        if isinstance(base, cst.Name):
            declared = self._class_constant(base, attr, chain, depth)
            if declared is not None:
                return declared
        return self._object_attribute(expr, chain, depth) or self._attribute_of_value(base, attr, chain, depth) or [expr]

    def _class_constant(self, base: cst.Name, attr: str, chain: Chain, depth: int) -> Candidates:
        """``CFG.benchmark`` where ``CFG`` is a class of this module with no base and no
        ``__init__`` (a notebook's ``class CFG: seed = 42; benchmark = True``), not a local name
        there, whose body binds ``benchmark`` once and whose attribute this module never changes
        (``CFG.benchmark = False``, ``setattr``): the class body's value; else None."""
        if self._settings_classes is None:
            # (asked of every attribute of a name: the names of the classes that
            # ``_plain_options_class`` looks at, the module's and its top-level ``if`` blocks', once)
            blocks = [self.module.body] + [s.body.body for s in self.module.body if isinstance(s, cst.If) and isinstance(s.body, cst.IndentedBlock)]
            self._settings_classes = frozenset(s.name.value for body in blocks for s in body if isinstance(s, cst.ClassDef))
        if base.value not in self._settings_classes:
            return None
        cls = _plain_options_class(self.module, base.value)
        if cls is None or self._lookup(base.value, chain, depth):
            return None
        changed = self.changed_attributes()
        if f"{base.value}.{attr}" in changed or f"{base.value}.*" in changed or f"*.{attr}" in changed:
            return None
        declared = _class_attribute(cls, attr)
        return self.of(declared, (), depth + 1) if declared is not None else None

    def _may_hold_options(self, base: cst.Name, chain: Chain, depth: int) -> bool:
        """May ``base`` hold the parsed command-line options where it is used? Not when each
        value it may hold is made by something that never returns them: a class (``model =
        Net()``), a torch call, a module's own method (``model.to(device)``), or a project
        function whose every ``return`` is such a value (``model = load_model(device=
        args.device)``). Then ``model.device`` is the model's own device, not the ``--device``
        option, even where the module declares one."""
        got = self.of(base, chain, depth + 1)
        return not got or any(self._may_be_options(candidate, depth + 1) for candidate in got)

    def _may_be_options(self, value: Candidate, depth: int, chain: Chain = ()) -> bool:
        if depth > _MAX_DEPTH:
            self._cut_short += 1
            return True  # not known
        if not isinstance(value, cst.Call):
            return True  # the options themselves, or not known
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _RETURN_THE_OBJECT:
            return False  # ``model.to(device)``, ``model.eval()``: the module (a tensor) again
        if isinstance(func, cst.Attribute) and func.attr.value in PARSE_CALLS:
            return True
        qualified = self.qualify(func) if self.qualify is not None else None
        if qualified is not None and qualified.split(".", 1)[0] == "torch":
            return False
        name = dotted_name(func)
        if name is not None and any(c.name.value == name for c in _module_classes(self.module)):
            return False
        if qualified is not None and self.methods is not None and self.methods(f"{qualified}.__init__") is not None:
            return False  # a project class of another module
        found = self.callee(func, chain)
        if found is None:
            return True
        values, function = found
        return any(
            returned is None or values._may_be_options_expression(returned, where, depth + 1)
            for returned, where in values._exits(function, depth + 1, decide=False)
        )

    def _may_be_options_expression(self, expr: cst.BaseExpression, chain: Chain, depth: int) -> bool:
        if isinstance(expr, cst.Call):
            return self._may_be_options(expr, depth, chain)
        got = self.of(expr, chain, depth) if isinstance(expr, cst.Name) else None
        return not got or any(self._may_be_options(c, depth) for c in got)

    def _config_object(self, name: str, chain: Chain, depth: int) -> bool:
        """Does ``name`` hold, where it is used, a configuration read from a file (``cfg =
        Config.fromfile(args.config)``, ``catalog.CONFIG_LOADERS``) rather than the parsed
        options? Its ``cfg.seed`` is then not the ``--seed`` option."""
        if self.qualify is None or name in self.namespaces():
            return False
        found = self._lookup(name, chain, depth)
        return (
            isinstance(found, list)
            and bool(found)
            and all(isinstance(value, cst.Call) and self.qualify(value.func) in CONFIG_LOADERS for value, _ in found)
        )

    def _attribute_of_value(self, base: cst.BaseExpression, attr: str, chain: Chain, depth: int) -> Candidates:
        """An attribute of what ``base`` holds, where that is known: ``self.args.num_workers``
        (or ``args.num_workers`` on a parameter) where every call in the project hands that
        object the parsed command-line options of the module that makes it (``Exp(args)`` after
        ``args = parser.parse_args()``): that option's default there; an object built from a
        project class (:meth:`_built_attribute`); else None."""
        if self.callers is None or not self.read_options or not isinstance(base, (cst.Name, cst.Attribute)):
            return None
        if isinstance(base, cst.Name):
            parsed = self._parsed_dataclass(base, attr, chain, depth)
            if parsed is not None:
                return parsed
        got = self.of(base, chain, depth + 1)
        if got and all(isinstance(c, cst.Call) for c in got):
            parsed = self._parsed_dataclass_calls(got, attr, depth)  # type: ignore[arg-type]
            if parsed is not None:
                return parsed
            declared = self.options().get(attr)
            if declared and all(parses_command_line(c) for c in got):  # type: ignore[arg-type]
                # ``self.args.latent`` where this module's constructions hand the object its own
                # ``parser.parse_args()``: that option's default
                return self._resolve_all(declared, depth)
            return self._built_attribute(got, base, attr, depth)  # type: ignore[arg-type]
        if not got or not all(isinstance(c, Const) and isinstance(c.value, ParsedOptions) for c in got):
            return None
        found = [c.value.default(attr) for c in got]  # type: ignore[union-attr]
        if any(v is UNKNOWN for v in found):
            # not an option with a known default: an attribute the program sets on the options
            # itself (``args.device = torch.device(...)`` in ``main()``, the parser being
            # another module's), as :meth:`_derived_option` reads it for this module's parser
            return self._derived_option(base.value, attr, chain, depth) if isinstance(base, cst.Name) else None
        return _dedupe([Const(v) for v in found])

    def _parsed_dataclass(self, base: cst.Name, attr: str, chain: Chain, depth: int) -> Candidates:
        """``config.device`` where ``config`` is the parameter of a function whose decorator
        fills it from the command line (``@pyrallis.wrap()`` on ``def train(config:
        TrainConfig)``, ``catalog.DATACLASS_CLI_DECORATORS``) and the annotation is a dataclass
        of this module: the field's default, the default path; else None."""
        found = self._lookup(base.value, chain, depth)
        if not isinstance(found, tuple):
            return None
        function, _, param = found
        if not any(self.qualify is not None and self.qualify(_decorator_callee(d.decorator)) in DATACLASS_CLI_DECORATORS for d in function.decorators):
            return None
        annotation = param.annotation.annotation if param.annotation is not None else None
        return self._field_default(dotted_name(annotation) if annotation is not None else None, attr, depth)

    def _parsed_dataclass_calls(self, calls: List[cst.Call], attr: str, depth: int) -> Candidates:
        """``cfg.device`` where ``cfg = tyro.cli(TrainConfig)`` (``pyrallis.parse(config_class=
        TrainConfig)``, ``catalog.DATACLASS_CLI_PARSERS``): the field's default; else None."""
        found: List[Candidate] = []
        for call in calls:
            spec = DATACLASS_CLI_PARSERS.get(self.qualify(call.func) or "") if self.qualify is not None else None
            given = CstArgs(call).node(*spec) if spec is not None else None
            got = self._field_default(dotted_name(given) if isinstance(given, cst.BaseExpression) else None, attr, depth)
            if got is None:
                return None
            found.extend(got)
        return _dedupe(found) if found else None

    def _field_default(self, cls_name: Optional[str], attr: str, depth: int) -> Candidates:
        """The default of field ``attr`` of dataclass ``cls_name`` of this module (``device: str
        = "cuda"``, ``field(default=...)``); None when not such a field."""
        cls = next((c for c in _module_classes(self.module) if c.name.value == cls_name), None) if cls_name else None
        if cls is None or not any((dotted_name(_decorator_callee(d.decorator)) or "").endswith("dataclass") for d in cls.decorators):
            return None
        for line in _statements(cls.body):
            if not isinstance(line, cst.SimpleStatementLine):
                continue
            for small in line.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.target.value == attr and small.value is not None:
                    value: Optional[cst.BaseExpression] = small.value
                    if isinstance(value, cst.Call) and (dotted_name(value.func) or "").rsplit(".", 1)[-1] == "field":
                        value = CstArgs(value).node("default", None)  # type: ignore[assignment]
                        if not isinstance(value, cst.BaseExpression):
                            return None  # default_factory, or no default
                    return self.of(value, (self.module, cls, cls.body, line), depth + 1)
        return None

    def _built_attribute(self, calls: List[cst.Call], base: cst.BaseExpression, attr: str, depth: int) -> Candidates:
        """``exp.seed`` where ``exp`` holds an object built from a project class (``main(Exp())``)
        that this module never changes: what the class's methods, or its bases', assign to
        ``self.seed`` (``self.seed = None`` in ``BaseExp.__init__``); None where not known."""
        dotted = dotted_name(base)
        changed = self.changed_attributes()
        if dotted is None or f"{dotted}.{attr}" in changed or f"{dotted}.*" in changed or f"*.{attr}" in changed:
            return None
        found: List[Candidate] = []
        for call in calls:
            name = dotted_name(call.func)
            cls = next((c for c in _module_classes(self.module) if c.name.value == name), None)
            plain = _plain_options_class(self.module, name) if cls is None or not (cls.bases or _defines_init(cls)) else None
            owner: Values = self
            if cls is None and plain is None and not call.args:
                # the same, for a class of another project module (``from config import Config``)
                elsewhere = self.class_module(self.qualify(call.func)) if self.class_module is not None and self.qualify is not None else None
                if elsewhere is not None:
                    owner, plain = elsewhere[0], _plain_options_class(elsewhere[0].module, elsewhere[1])
            if plain is not None and not call.args:
                # ``main(Options())`` with ``class Options: cuda: bool = False`` (no ``__init__``,
                # no base): the class body's value
                declared = _class_attribute(plain, attr)
                got = owner.of(declared, (), depth + 1) if declared is not None else None
                if got is None:
                    return None
                found.extend(got)
                continue
            init = next(((f, c) for f, c in self._methods(cls) if f.name.value == "__init__"), None) if cls is not None else None
            values: Optional[Values] = self if init is not None else None
            if init is None and name is not None:
                resolved = self._init_elsewhere(call.func)
                if resolved is not None:
                    values, init = resolved[0], (resolved[1], resolved[2])
            if values is None or init is None or (values.source is not None and "setattr" in values.source):
                return None
            got = values._self_attribute(attr, init, depth + 1)
            if got is None:
                return None
            found.extend(got)
        return _dedupe(found) if found else None

    def _derived_option(self, base: str, attr: str, chain: Chain, depth: int) -> Candidates:
        """``args.distributed`` where no option defines ``distributed`` and the module sets it
        from others (``args.distributed = args.world_size > 1``): the assignments that reach the
        use in its function, else the module's only assignment of it. Reading such an attribute
        before it is set raises AttributeError, so a read sees an assignment; None when it
        cannot be told (assigned more than once elsewhere, ``setattr``, ``vars(args)``)."""
        assigned = self._attribute_assignments(base, attr, chain, depth)
        if assigned is _UNASSIGNED:
            return None
        if assigned is None:
            found = self._assigned_attributes().get(f"{base}.{attr}", [])
            if self._changed_wholesale(base, attr) or len(found) != 1 or found[0][0] is None:
                return None
            assigned = found
        return self._resolve_all(assigned, depth)

    def _object_attribute(self, expr: cst.Attribute, chain: Chain, depth: int) -> Candidates:
        """``cfg.loader.num_workers`` where ``cfg`` is a project module's config object imported
        here (not a local name, and not changed by this module): the literal that module gives
        that attribute (:attr:`attributes`), else None."""
        if self.attributes is None or self.qualify is None or not self.read_options:
            return None
        root: cst.BaseExpression = expr
        while isinstance(root, cst.Attribute):
            root = root.value
        dotted = dotted_name(expr)
        if not isinstance(root, cst.Name) or dotted is None or self._lookup(root.value, chain, depth):
            return None  # not a plain name, or a local one (a parameter, an assignment)
        found = self.attributes(self.qualify(root))
        path = dotted[len(root.value) + 1 :]
        if not found or path not in found or found[path] is UNKNOWN:
            return None
        changed = self.changed_attributes()
        if dotted in changed or f"{dotted.rsplit('.', 1)[0]}.*" in changed or f"*.{expr.attr.value}" in changed:
            return None  # this module changes it
        return [Const(found[path])]

    def _attribute_assignments(self, base: str, attr: str, chain: Chain, depth: int, start: Optional[List[Any]] = None) -> Any:
        """The assignments of ``base.attr`` (``args.seed = args.seed or 0``) that reach the use
        under ``chain``, walking the enclosing function (or the module): a list, None when the
        module changes the attribute in a way not followed (another function assigns it,
        ``setattr``, ``vars(args).update(...)``, ``parser.set_defaults(seed=...)``), or
        _UNASSIGNED when nothing changes it (its option's default holds). ``start``: what the
        attribute holds before the walk (the option's default), when known."""
        changed = self.changed_attributes()
        dotted = f"{base}.{attr}"
        if self._changed_wholesale(base, attr):
            return None
        if dotted not in changed:
            return _UNASSIGNED
        truth = self._truth(chain, depth)
        scope = self._enclosing(chain)
        if start is not None:
            # only where this body makes every change (else the value on entry is not ``start``)
            if not self._changed_only_in(dotted, scope[0] if scope is not None else None):
                return None
            function_chain = scope[1] + (scope[0], scope[0].body) if scope is not None else ()
            body = _statements(scope[0].body) if scope is not None else self.module.body
            reached = _reaching(body, dotted, chain, truth, function_chain, self._binds, start=start)
            return None if reached is _UNASSIGNED else reached
        if scope is None:
            reached = _reaching(self.module.body, dotted, chain, truth, (), self._binds)
            if reached is _UNASSIGNED and chain and self._changed_only_in(dotted, None):
                return _UNASSIGNED  # its assignments are off the default path: the option's default holds
        else:
            function, function_chain = scope
            body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
            reached = _reaching(body, dotted, chain, truth, function_chain + (function, function.body), self._binds)
            if reached is _UNASSIGNED and self._changed_only_in(dotted, function):
                return _UNASSIGNED  # its assignments are off the default path: the value on entry holds
        return None if reached is _UNASSIGNED else reached

    def _changed_wholesale(self, base: str, attr: str) -> bool:
        """May the module change ``base.attr`` other than by assigning it (``setattr(args,
        name, ...)``, ``vars(args).update(...)``, ``parser.set_defaults(attr=...)``)?"""
        changed = self.changed_attributes()
        return f"*.{attr}" in changed or f"{base}.*" in changed or "*.*" in changed

    def _changed_only_in(self, dotted: str, function: Optional[cst.FunctionDef]) -> bool:
        """Is every change of ``dotted`` (``args.device``) an assignment inside ``function``
        (None: at the module's top level, outside every function)?"""
        if self.source is not None and "setattr" in self.source:
            return False
        found = self._assigned_attributes().get(dotted, [])
        if function is None:
            return bool(found) and not any(isinstance(node, cst.FunctionDef) for _, where in found for node in where)
        return bool(found) and all(any(node is function for node in where) for _, where in found)

    # -- names -------------------------------------------------------------------------------
    def _truth(self, chain: Chain, depth: int) -> Truth:
        def truth(test: cst.BaseExpression, where: Optional[Chain] = None) -> Optional[bool]:
            # ``where``: the test's own enclosing nodes (a walk passes them: ``if gpus is None:
            # gpus = []`` is decided by what ``gpus`` holds at the test), else the use's
            truths = self._truths if where is None else self._own_truths
            key = id(test)
            if key in truths:
                return truths[key]
            truths[key] = None  # a test that needs its own value is undecided
            self._testing += 1
            before = self._cut_short
            try:
                tested = self.of(test, chain if where is None else where, depth + 1)
            finally:
                self._testing -= 1
            decided = None
            if tested is not None and all(isinstance(t, Const) for t in tested):
                found = {bool(t.value) for t in tested}
                decided = found.pop() if len(found) == 1 else None
            if decided is None and isinstance(test, cst.BooleanOperation) and isinstance(test.operator, (cst.And, cst.Or)):
                # ``torch.cuda.is_available() and args.cuda`` with ``--cuda`` off: false whatever
                # the machine has, as ``args.cuda and ...`` is (one false part of an ``and``, one
                # true part of an ``or``, decides it in either order)
                decisive = isinstance(test.operator, cst.Or)
                parts = self._truth(chain, depth)  # (not this closure itself: a cycle would keep the tree alive)
                if decisive in (parts(test.left, where), parts(test.right, where)):
                    decided = decisive
            if decided is None:
                decided = _passed_guard(test, chain if where is None else where, self.module)
            if self._cut_short == before:
                truths[key] = decided
            else:
                del truths[key]  # decided with an answer cut short: not kept (see :meth:`_parameter`)
            return decided

        return truth

    def _lookup(self, name: str, chain: Chain, depth: int) -> Any:
        """Where ``name`` gets its value at the use under ``chain``: a list of
        (expression, chain) assignments, a (function, its chain, parameter) triple, or None."""
        key = (name, id(chain[-1]) if chain else 0)
        if key not in self._looked:
            self._looked[key] = self._find(name, chain, depth)
        return self._looked[key]

    def _find(self, name: str, chain: Chain, depth: int) -> Any:
        truth = self._truth(chain, depth)
        scope = self._enclosing(chain)
        if scope is not None:
            function, function_chain = scope
            parameter = _parameter(function, name)
            if parameter is not None and chain and chain[-1] is function.params:
                return (function, function_chain, parameter)  # the parameter's own value, on entry
            body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
            # a parameter holds its own value until a statement rebinds it: on a path that does
            # not, that value reaches the use (its name, evaluated on entry to the function)
            start: Any = _UNASSIGNED if parameter is None else [(parameter.name, function_chain + (function, function.params))]
            reached = _reaching(body, name, chain, truth, function_chain + (function, function.body), self._binds, start=start, dead=_DEAD)
            if reached is _DEAD:
                # a use the default path does not reach (after ``if split_ratio is None:
                # return``): a parameter that no path rebinds still holds its own value there;
                # anything else is not known (the options that lead there are not the defaults)
                again = _reaching(body, name, chain, _undecided, function_chain + (function, function.body), self._binds, start=start)
                reached = again if again is start and parameter is not None else None
            if parameter is not None and _only_the_parameter(reached, start):
                return (function, function_chain, parameter)
            if reached is not _UNASSIGNED:
                return reached
            if _binds_elsewhere(function, name):
                return None
            closure = self._closure_value(name, function_chain, truth)
            if closure is not _UNASSIGNED:
                return closure
            reached = _reaching(self.module.body, name, (), truth, (), self._binds, whole=True)
            reached = self._global_writes(name, reached, function, truth)
        else:
            reached = _reaching(self.module.body, name, chain, truth, (), self._binds)
        return None if reached is _UNASSIGNED else reached

    def made_of(self, name: cst.Name, chain: Sequence[cst.CSTNode]) -> Optional[List[cst.CSTNode]]:
        """The expressions the local name ``name`` may be bound to at its use under ``chain``,
        on any path, the default path or not (what the value is made of, such as its shape,
        rather than which value it is): a parameter that some path leaves as it is gives its
        own name. None when the function does not bind it (a global, a closure's)."""
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        scope = self._enclosing(chain)
        if scope is None:
            if any(isinstance(n, (cst.ClassDef, cst.Lambda)) for n in chain):
                return None
            # the module's top level (a script, or its ``__main__`` block): what it binds before the use
            reached = _reaching(self.module.body, name.value, chain, _undecided, (), self._binds)
            return [value for value, _ in reached] if isinstance(reached, list) else None
        function, function_chain = scope
        parameter = _parameter(function, name.value)
        body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
        start: Any = _UNASSIGNED if parameter is None else [(parameter.name, function_chain + (function, function.params))]
        reached = _reaching(body, name.value, chain, _undecided, function_chain + (function, function.body), self._binds, start=start)
        if not isinstance(reached, list):
            return None
        return [value for value, _ in reached]

    def _closure_value(self, name: str, chain: Chain, truth: Truth) -> Any:
        """A free name of a function defined inside another (``def get_batch(): ...
        .to(device=device)`` inside ``experiment()``, which sets ``device``): what the enclosing
        functions bind it to, every assignment counting (the inner function runs later), or
        their parameter; _UNASSIGNED when none binds it (the module's name then)."""
        outer = self._enclosing(chain)
        while outer is not None:
            function, function_chain = outer
            if _binds_elsewhere(function, name):
                return None
            parameter = _parameter(function, name)
            start: Any = [] if parameter is None else [(parameter.name, function_chain + (function, function.params))]
            body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
            reached = _reaching(body, name, (), truth, function_chain + (function, function.body), self._binds, whole=True, start=start)
            if parameter is not None and _only_the_parameter(reached, start):
                return (function, function_chain, parameter)
            if reached is None or (reached is not start and reached):
                return reached
            outer = self._enclosing(function_chain)
        return _UNASSIGNED

    def _global_writes(self, name: str, reached: Any, user: cst.FunctionDef, truth: Truth) -> Any:
        """A module's name seen from inside ``user`` (a function that runs later) also holds
        what other functions assign to it under ``global name`` (``device = None`` at the top,
        ``global device; device = "cuda:0"`` in ``main()``)."""
        if self._globals is None:
            self._globals = _global_writers(self.functions().values())
        writers = [(f, c) for f, c in self._globals.get(name, ()) if f is not user]
        if not writers or reached is None:
            return reached
        states = [] if reached is _UNASSIGNED else [reached]
        for function, chain in writers:
            got = _reaching(_statements(function.body), name, (), truth, chain + (function, function.body), self._binds, whole=True, start=[])
            if got is None:
                return None
            states.append(got)
        return _union(states) if states else _UNASSIGNED

    def _name(self, name: str, chain: Chain, depth: int) -> Candidates:
        found = self._lookup(name, chain, depth)
        if isinstance(found, tuple):
            return self._parameter(*found, depth)
        return self._resolve_all(found, depth)

    # -- what kind of object a receiver is --------------------------------------------------------
    def kind(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode], qualify: Qualify, depth: int = 0) -> Optional[str]:
        """``"numpy"`` when ``expr`` is clearly not a tensor (a NumPy array, a list, a number:
        made by ``np.*``, ``.numpy()``, ``.tolist()``, a list display), ``"integer"`` when it is
        visibly a tensor of integers or bools (a comparison, ``~``/``&``/``|``/``^``, ``.long()``,
        ``.to(torch.long)``, ``dtype=torch.long``, ``torch.arange`` of integers, ``argmax``,
        ``nonzero``), ``"torch"`` when it is another tensor made by ``torch.*`` or annotated as
        a Tensor, else None. A local name, an entry of a local dict display and the call of a
        project function are followed to what they hold (every ``return`` of the function)."""
        if depth > _MAX_DEPTH:
            self._cut_short += 1
            return None
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        # syntax is walked at the same depth (it is finite); a name looked up goes one deeper
        again = lambda e, c=chain: self.kind(e, c, qualify, depth)  # noqa: E731
        if isinstance(expr, (cst.List, cst.ListComp)):
            return NUMPY  # a Python list (numbers say nothing: ``x * 2`` is what ``x`` is)
        if isinstance(expr, cst.Call):
            qualified = qualify(expr.func)
            owner = _module_kind(qualified)
            if owner == TORCH and self._integral_factory(expr, qualified, chain, qualify, depth):
                return INTEGER
            if owner is not None:
                return owner
            if qualified in EINOPS_PATTERNS:
                return self._einops_kind(expr, qualified, again)
            if isinstance(expr.func, cst.Name) or qualified is not None:
                target = self.callee(expr.func, chain)  # a project function: what it returns
                if target is not None:
                    values, function = target
                    inner = qualify if values is self else values.qualify
                    return values._returned_kind(function, inner, depth + 1) if inner is not None else None
            if isinstance(expr.func, cst.Attribute):
                method = expr.func.attr.value
                if method in NOT_TENSOR_METHODS:
                    return NUMPY
                receiver = again(expr.func.value)  # a tensor's methods give tensors, an array's arrays
                if receiver == NUMPY:
                    return NUMPY
                if _integer_method(expr, qualify):
                    return INTEGER
                if _keyword(expr, "dtype") is not None:
                    return TORCH  # ``x.sum(dtype=torch.float32)``: not an integer dtype
                if receiver == INTEGER and method not in INTEGER_KEEPING and not _moved(expr):
                    return TORCH  # mask.float(), mask.mean(): no longer visibly integral
                return receiver
            return None
        if isinstance(expr, cst.Subscript):
            found = again(expr.value)
            if found is None and isinstance(expr.value, cst.Name):
                found = self._item_kind(expr, chain, qualify, depth)
            if found is None and any(
                isinstance(e.slice, cst.Index)
                and isinstance(e.slice.value, (cst.Name, cst.Call, cst.Comparison, cst.Subscript))
                and again(e.slice.value) == NUMPY
                for e in expr.slice
            ):
                return NUMPY  # indexed by a NumPy array: an array (tensors take tensor indices)
            return found
        if isinstance(expr, cst.BinaryOperation):
            left, right = again(expr.left), again(expr.right)
            kinds = {left, right}
            if NUMPY not in kinds and isinstance(expr.operator, _BITWISE):
                return INTEGER  # ``a & b``: torch defines it for integer and bool tensors only
            if isinstance(expr.operator, _INTEGRAL_ARITHMETIC) and all(
                k == INTEGER or isinstance(e, cst.Integer) for k, e in ((left, expr.left), (right, expr.right))
            ) and INTEGER in kinds:
                return INTEGER  # ``mask + 1``, ``a * b`` of integer tensors
            if kinds & {TORCH, INTEGER}:
                return TORCH
            return NUMPY if NUMPY in kinds else _SAME_AS_ITSELF if _SAME_AS_ITSELF in kinds else None
        if isinstance(expr, cst.UnaryOperation):
            inner = again(expr.expression)
            if isinstance(expr.operator, cst.BitInvert) and inner != NUMPY:
                return INTEGER  # ``~mask``
            return inner
        if isinstance(expr, cst.Comparison):
            left = again(expr.left)  # elementwise: an array's comparison is an array
            if left != NUMPY and all(isinstance(c.operator, _ELEMENTWISE) for c in expr.comparisons):
                return INTEGER  # ``text == eos_id``: a bool tensor (or a Python bool)
            return left
        if isinstance(expr, cst.Name):
            found = self._lookup(expr.value, chain, depth)
            if isinstance(found, tuple):
                return _annotated_kind(found[2], qualify)
            if not found:
                return None
            return _joined({self.kind(value, where, qualify, depth + 1) for value, where in found})
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            # ``self._prob`` where the class's methods assign ``self._prob = np.zeros(...)``
            method = self._enclosing(chain)
            if method is not None and _first_param(method[0]) == expr.value.value and _is_bound_method(*method):
                cls = next((n for n in reversed(method[1]) if isinstance(n, cst.ClassDef)), None)
                key = (id(cls), expr.attr.value)
                if key in self._kinding:
                    return _SAME_AS_ITSELF
                got = self._self_attribute(expr.attr.value, method, depth + 1)
                if got:
                    # each value read as in a method of the class, so that ``self.<attr>`` in it
                    # (``self.dones[mask]``) is the attribute again
                    where = (*method[1], method[0])
                    self._kinding.add(key)
                    try:
                        found = _joined({self.kind(c, where, qualify, depth + 1) if isinstance(c, cst.BaseExpression) else None for c in got})
                    finally:
                        self._kinding.discard(key)
                    return None if found == _SAME_AS_ITSELF else found
        return None

    def made_on_cpu(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode], qualify: Qualify, depth: int = 0) -> bool:
        """Is ``expr`` visibly a tensor made on the default device: a torch factory call
        (``CPU_FACTORIES``) given no ``device`` (nor a ``**`` that may hold one), outside a
        ``with torch.device(...)`` block, or ``.cpu()``; a torch function of such a tensor
        that keeps its device (:data:`_FUNCTIONS_ON_INPUT_DEVICE`); a local name when every
        value that reaches it is one. (Whether the program moves the default device elsewhere is the
        caller's to ask.)"""
        if depth > _MAX_DEPTH:
            self._cut_short += 1
            return False
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        if isinstance(expr, cst.Subscript):
            return self.made_on_cpu(expr.value, chain, qualify, depth + 1)  # ``x.cpu()[:, 0]``
        if isinstance(expr, cst.Attribute) and expr.attr.value in _SAME_TENSOR_ATTRIBUTES:
            return self.made_on_cpu(expr.value, chain, qualify, depth + 1)  # ``x.cpu().data``
        if isinstance(expr, cst.Call):
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "cpu" and not expr.args:
                return qualify(expr.func) is None
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _STAYS_ON_DEVICE and qualify(expr.func) is None:
                # ``x.cpu().float()``: a conversion or a view of a CPU tensor stays on the CPU
                return self.made_on_cpu(expr.func.value, chain, qualify, depth + 1)
            qualified = qualify(expr.func)
            if any(a.star == "**" or (a.keyword is not None and a.keyword.value == "device") for a in expr.args):
                return False
            if qualified in _FUNCTIONS_ON_INPUT_DEVICE:
                # ``torch.unique_consecutive(torch.tensor(sizes), return_counts=True)[1]`` (DINO's
                # multi-crop wrapper): a CPU tensor's result stays on the CPU
                first = expr.args[0] if expr.args and expr.args[0].keyword is None and not expr.args[0].star else None
                return first is not None and self.made_on_cpu(first.value, chain, qualify, depth + 1)
            if qualified not in CPU_FACTORIES:
                return False
            return not any(
                isinstance(node, cst.With) and any(
                    isinstance(item.item, cst.Call) and qualify(item.item.func) == "torch.device" for item in node.items
                )
                for node in chain
            )
        if isinstance(expr, cst.Name):
            found = self._lookup(expr.value, chain, depth)
            if not found or isinstance(found, tuple):
                return False
            return all(self.made_on_cpu(value, where, qualify, depth + 1) for value, where in found)
        # (operands at the same depth: an expression's nesting is the source's, finite)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
            return self.made_on_cpu(expr.expression, chain, qualify, depth)
        if isinstance(expr, cst.BinaryOperation) and not isinstance(expr.operator, cst.MatrixMultiply):
            # ``(beta2 - beta1) * torch.arange(0, T + 1) / T + beta1`` (minDiffusion's schedule):
            # a CPU tensor that is not a 0-dim one (``torch.tensor(2.0)``, which may join a CUDA
            # tensor) makes the result a CPU tensor, or the operation raises
            return any(
                not _may_be_scalar_tensor(side, qualify) and self.made_on_cpu(side, chain, qualify, depth)
                for side in (expr.left, expr.right)
            )
        return False

    def _returned_kind(self, function: cst.FunctionDef, qualify: Qualify, depth: int) -> Optional[str]:
        """The kind of what ``function``, one of this module's, returns: the kinds of its
        ``return`` values on every path (not only the default one: its callers' arguments may
        take any branch), joined; None when the end of its body may be reached."""
        key = id(function)
        if key not in self._return_kinds:
            self._return_kinds[key] = None  # recursion: not known
            kinds: Set[Optional[str]] = set()
            for value, where in self._exits(function, depth, decide=False):
                kinds.add(None if value is None else self.kind(value, where, qualify, depth))
            self._return_kinds[key] = _joined(kinds)
        return self._return_kinds[key]

    def _item_kind(self, expr: cst.Subscript, chain: Chain, qualify: Qualify, depth: int) -> Optional[str]:
        """``d["hist"]``, where every value of the local ``d`` that reaches the use is a dict
        display (or ``dict(...)``) with that literal key and the scope only reads ``d``'s items
        (no item assignment, no method call, not handed to other code): that entry's kind."""
        name = expr.value.value  # type: ignore[attr-defined]
        key = string_value(expr.slice[0].slice.value) if len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) else None
        if key is None:
            return None
        found = self._lookup(name, chain, depth)
        if not found or isinstance(found, tuple):
            return None
        scope = self._enclosing(chain)
        if not _items_only_read(scope[0] if scope is not None else self.module, name):
            return None
        kinds: Set[Optional[str]] = set()
        for value, where in found:
            entries = dict_entries(value)
            if key not in entries:
                return None
            kinds.add(self.kind(entries[key], where, qualify, depth + 1))
        return _joined(kinds)

    @staticmethod
    def _einops_kind(call: cst.Call, qualified: str, kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> Optional[str]:
        """An einops ``rearrange``/``repeat``/``reduce`` of a tensor or an array is what its
        input is (einops takes both); a ``reduce`` that is not a sum, product, maximum or
        minimum (``"mean"``) of an integer tensor is no longer visibly integral."""
        positional = [a for a in call.args if a.keyword is None]
        if not positional or positional[0].star:
            return None
        found = kind_of(positional[0].value)
        if found == INTEGER and qualified == "einops.reduce":
            reduction = _keyword(call, "reduction")
            reduction = reduction if reduction is not None else positional[2].value if len(positional) > 2 and not positional[2].star else None
            if reduction is None or string_value(reduction) not in EINOPS_INTEGER_REDUCTIONS:
                return TORCH
        return found

    def _integral_factory(self, call: cst.Call, qualified: Optional[str], chain: Chain, qualify: Qualify, depth: int) -> bool:
        """A ``torch.*`` call that visibly makes an integer tensor: ``dtype=torch.long``,
        ``torch.argmax``/``argmin``/``nonzero``, ``torch.arange`` of integers."""
        if qualified in INTEGER_TENSOR_TYPES:
            return True  # ``torch.LongTensor(sizes)``
        dtype = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "dtype"), None)
        if dtype is not None:
            return qualify(dtype) in INTEGER_DTYPES
        name = (qualified or "").rsplit(".", 1)[-1]
        if name in INDEX_RESULTS or name in BOOL_RESULTS:
            return True
        if name in COUNT_RESULTS:
            return _counts(call, COUNT_RESULTS[name], method=False)
        if qualified in JOINS:
            return self._integer_parts(call, chain, qualify, depth)
        if qualified in FROM_DATA:
            return bool(call.args) and call.args[0].keyword is None and not call.args[0].star and _is_shape(call.args[0].value)
        if qualified != "torch.arange" or not call.args:
            return False
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) != len(call.args) or any(a.star for a in positional):
            return False  # arange(end=n, ...), arange(*bounds)
        return all(
            all_consts(self.of(a.value, chain, depth + 1), lambda v: isinstance(v, int) and not isinstance(v, bool))
            for a in positional
        )

    def _integer_parts(self, call: cst.Call, chain: Chain, qualify: Qualify, depth: int) -> bool:
        """``torch.cat``/``stack`` of parts that are all integer tensors: a list or tuple display,
        or a local list built from displays and ``.append`` of integer tensors (any other change
        to the list, or a part of another kind, and it is not known)."""
        first = call.args[0] if call.args else None
        if first is None or first.star or (first.keyword is not None and first.keyword.value != "tensors"):
            return False
        parts: List[Tuple[cst.BaseExpression, Chain]] = []
        if isinstance(first.value, (cst.List, cst.Tuple)):
            displays = [(first.value, chain)]
        elif isinstance(first.value, cst.Name):
            found = self._lookup(first.value.value, chain, depth)
            scope = self._enclosing(chain)
            if not found or isinstance(found, tuple) or scope is None:
                return False
            displays = list(found)
            appended = _appended(scope[0], scope[1], first.value.value, call, chain)
            if appended is None:
                return False
            parts.extend(appended)
        else:
            return False
        for display, where in displays:
            if not isinstance(display, (cst.List, cst.Tuple)) or any(isinstance(e, cst.StarredElement) for e in display.elements):
                return False
            parts.extend((e.value, where) for e in display.elements)
        return bool(parts) and all(self.kind(part, where, qualify, depth + 1) == INTEGER for part, where in parts)

    def _resolve_all(self, reached: Any, depth: int) -> Candidates:
        """The candidates of every (expression, chain) pair, or None if one is unknown."""
        if reached is None:
            return None
        found: List[Candidate] = []
        for value, where in reached:
            got = self.of(value, where, depth + 1)
            if got is None:
                return None
            found.extend(got)
        return _dedupe(found)

    def _parameter(self, function: cst.FunctionDef, function_chain: Chain, param: cst.Param, depth: int) -> Candidates:
        key = (id(function), param.name.value)
        if key in self._bound:
            return self._bound[key]
        if key in self._params:
            return self._params[key]
        if key in self._active:
            self._cut_short += 1
            return None
        self._active.add(key)
        before = self._cut_short
        try:
            found = self._argument_values(function, function_chain, param, depth)
            if self._cut_short == before:
                # an answer cut short (by the depth limit, or by a parameter asked again while
                # it was being found) may be known, or known better, when asked from elsewhere
                # (a call left unevaluated, ``get_argparse().parse_args()``, is the parsed
                # options when asked from less deep): not kept
                self._params[key] = found
            return found
        finally:
            self._active.discard(key)

    def _argument_values(self, function: cst.FunctionDef, function_chain: Chain, param: cst.Param, depth: int) -> Candidates:
        """A parameter's default where a call leaves it out, and the file's calls' arguments."""
        found: List[Candidate] = []
        method = _is_bound_method(function, function_chain)
        position = _position(function, param, method)
        calls = self._calls_of(function, function_chain, method)
        callee = _project_callee(function, function_chain)
        if callee is not None and self.callers is not None:
            # a module-level function, or the constructor of a module-level class: the literal
            # arguments of the calls other modules make (all of its calls, when its own module
            # makes none); this module's calls are followed below, further than literals
            given = self._project_arguments(callee, param, position, self.callers(callee, True) if calls else self.callers(callee))
            if not calls and given is not None:
                return given
            if given is not None:
                found.extend(given)
        defaulted = not calls  # the default applies when a call leaves the parameter out
        for call, call_chain in calls:
            bound = bind(cst_slots(call.args), param.name.value, position)
            if bound is UNKNOWN:
                # ``Disc(**cfg)``: the mapping may leave the parameter out (its default) or
                # give it anything
                defaulted = True
                found.append(OPEN)
                continue
            if bound is MISSING:
                defaulted = True
                continue
            got = self.of(bound.value, call_chain, depth + 1)
            if got is None:
                return None
            found.extend(got)
        if defaulted:
            if param.default is None:
                return None if calls else [OPEN]
            got = self.of(param.default, function_chain, depth + 1)
            if got is None:
                return None
            found = got + found
        if not calls and not (callee is not None and self.uncalled is not None and self.uncalled(callee)):
            found.append(OPEN)  # called from elsewhere, with arguments we cannot see
        return _dedupe(found)

    def _project_arguments(self, callee: str, param: cst.Param, position: Optional[int], arguments: Any) -> Candidates:
        """What the project's calls of ``callee`` (see :func:`_project_callee`), as
        ``caller_arguments`` gives them, give ``param``: each call's literal (OPEN where the
        argument is not one), or the default where it is left out; None when the calls are
        not all known."""
        if arguments is None:
            return None
        name = param.name.value
        found: List[Candidate] = []
        defaulted = False
        for positional, keywords in arguments:
            value = literal_argument(positional, keywords, name, position)
            if value is MISSING:
                defaulted = True
            elif value is UNKNOWN and callee.startswith(CLASS_PREFIX):
                # a constructor's argument is most often the caller's own parameter passed on
                # (``GAUBlock(mode=mode)``), whose default is this one's: not known here
                return None
            else:
                found.append(OPEN if value is UNKNOWN else Const(value))
        if defaulted:
            if param.default is None:
                return None
            default = self.of(param.default, (), 1)
            if default is None:
                return None
            found = default + found
        return _dedupe(found)

    def _calls_of(self, function: cst.FunctionDef, chain: Chain, method: bool) -> List[Tuple[cst.Call, Chain]]:
        """The file's calls of ``function``: ``f(...)`` for a function; ``self.f(...)`` (any
        plain name as the receiver) for a method, and for ``__init__`` the constructor calls
        of its class and of the file's subclasses that inherit it, and the subclasses'
        ``super().__init__(...)`` and ``Class.__init__(self, ...)`` (self left out). A function
        nested in a method (LAVIS's ``def _create_loader(...)`` in ``create_loaders``) is called
        by its name, as one nested in a module-level function."""
        owner = next((n for n in reversed(chain) if isinstance(n, (cst.ClassDef, cst.FunctionDef))), None)
        cls = owner if isinstance(owner, cst.ClassDef) else None
        if cls is not None and function.name.value == "__init__":
            return self._constructions(cls)
        return self._plain_calls(function, cls, method)

    def _constructions(self, cls: cst.ClassDef) -> List[Tuple[cst.Call, Chain]]:
        found = self._plain_calls(None, cls, True)
        heirs = self._heirs(cls)
        for heir in heirs:
            if _defines_init(heir):
                continue
            found.extend(self._plain_calls(None, heir, True))  # ``Sub(...)`` runs the inherited __init__
        if not self.called("__init__"):
            return found
        by_name = {h.name.value: h for h in heirs if _defines_init(h)}
        for call, call_chain in self.calls().get("__init__", ()):
            func = call.func
            if not isinstance(func, cst.Attribute):
                continue
            caller = next((n for n in reversed(call_chain) if isinstance(n, cst.ClassDef)), None)
            if caller is None or caller.name.value not in by_name or by_name[caller.name.value] is not caller:
                continue
            if _is_super(func.value, caller):
                found.append((call, call_chain))
            elif (
                isinstance(func.value, cst.Name)
                and func.value.value == cls.name.value
                and call.args
                and call.args[0].keyword is None
                and not call.args[0].star
            ):
                found.append((call.with_changes(args=call.args[1:]), call_chain))
        return found

    def _heirs(self, cls: cst.ClassDef) -> List[cst.ClassDef]:
        """The module's classes whose first base is ``cls``, or (transitively) a class of the
        module whose first base is ``cls`` and that defines no ``__init__`` of its own."""
        key = id(cls)
        if key not in self._heir_index:
            classes = _module_classes(self.module)
            heirs: List[cst.ClassDef] = []
            todo = [cls]
            while todo:
                parent = todo.pop()
                for other in classes:
                    if _first_base(other) == parent.name.value and other is not cls and all(other is not h for h in heirs):
                        heirs.append(other)
                        if not _defines_init(other):
                            todo.append(other)
            self._heir_index[key] = heirs
        return self._heir_index[key]

    def _plain_calls(self, function: Optional[cst.FunctionDef], cls: Optional[cst.ClassDef], method: bool) -> List[Tuple[cst.Call, Chain]]:
        """``f(...)``, ``x.f(...)`` for a method (also a static one, ``self.get_loader(ds)``:
        nothing bound), ``Class(...)`` when ``function`` is None."""
        name = cls.name.value if function is None else function.name.value  # type: ignore[union-attr]
        found: List[Tuple[cst.Call, Chain]] = []
        if not self.called(name):
            return found
        for call, call_chain in self.calls().get(name, ()):
            func = call.func
            if cls is None or function is None:
                if isinstance(func, cst.Name):
                    found.append((call, call_chain))
                elif function is not None or not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls")):
                    continue
                elif any(statement is cls for statement in _enclosing_class_body(call_chain)):
                    found.append((call, call_chain))  # ``self.Net(...)`` of a class nested in the caller's class
            elif (method or _is_static(function)) and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
                if func.value.value == "self":
                    # on ``self``: a method of the calling class (or of a class it derives from
                    # directly), not another class's of the same name (minRF's
                    # ``self.forward(x, y)`` in ``DiT`` is not ``LabelEmbedder.forward``)
                    caller = next((n for n in reversed(call_chain) if isinstance(n, cst.ClassDef)), None)
                    if caller is not None and caller is not cls and _first_base(caller) != cls.name.value:
                        continue
                found.append((call, call_chain))
        return found

    def _self_attribute(self, attr: str, method: Tuple[cst.FunctionDef, Chain], depth: int) -> Candidates:
        """The values the methods of the class assign to ``self.<attr>``; where they assign
        none, those of its first base, when that is a class of this module (``self.mode`` set
        in the base's ``__init__``, read in the subclass's ``forward``)."""
        cls = next((n for n in reversed(method[1]) if isinstance(n, cst.ClassDef)), None)
        seen: Set[int] = set()
        while cls is not None and id(cls) not in seen:
            seen.add(id(cls))
            found: List[Candidate] = []
            for function, function_chain in self._methods(cls):
                me = _first_param(function)
                for value in _self_assignments(function, me, attr, self._self_index):
                    # a parameter stored through ``locals()``: its value on entry
                    on_entry = any(value is p.name for p in _all_params(function))
                    got = self.of(value, function_chain + ((function, function.params) if on_entry else (function,)), depth + 1)
                    if got is None:
                        return None
                    found.extend(got)
            if found:
                return _dedupe(found)
            # none assigns it: the class's own attribute (``class Data: shuffle = True``)
            declared = _class_attribute(cls, attr)
            if declared is not None:
                at = next((i for i, n in enumerate(method[1]) if n is cls), None)
                return self.of(declared, (method[1][: at + 1] if at is not None else (cls,)) + (cls.body,), depth + 1)
            base = _first_base(cls)
            heir, cls = cls, next((c for c in _module_classes(self.module) if c.name.value == base), None) if base else None
            if cls is None and base is not None:
                return self._inherited_attribute(heir, base, attr, depth)
        return None

    def _inherited_attribute(self, cls: cst.ClassDef, base: str, attr: str, depth: int) -> Candidates:
        """``self.<attr>`` that the ``__init__`` of ``cls``'s base, a project class of another
        module, sets from one of its parameters (``self.args = args``), where ``cls``'s own
        ``__init__`` passes it on (``super().__init__(args)``): what ``cls`` passes there. A
        value the base sets otherwise is evaluated in its module; None where unknown."""
        found = self._init_elsewhere(cst.parse_expression(base)) if base.replace(".", "").isidentifier() else None
        if found is None:
            return None
        values, init, init_chain = found
        me = _first_param(init)
        assigned = _self_assignments(init, me, attr, values._self_index)
        if not assigned:
            # set further up (pypots' ``TEFN`` -> ``BaseNNDetector`` -> ``BaseNNModel``): what the
            # base's own base makes of what the base passes it, in the base's module
            between = next((n for n in reversed(init_chain) if isinstance(n, cst.ClassDef)), None)
            further = _first_base(between) if between is not None else None
            heir_init = next((f for f, _ in self._methods(cls) if f.name.value == "__init__"), None)
            if depth > _MAX_DEPTH:
                self._cut_short += 1
                return None
            if further is None or heir_init is None:
                return None
            # the base's parameters hold what ``cls``'s ``super().__init__(...)`` gives them
            bound = {(id(init), p.name.value): self._passed_to_base(cls, heir_init, base, init, p, depth) for p in _all_params(init)[1:]}
            inner = values._within(bound, set(), self._steps)
            inner.methods = values.methods
            try:
                return inner._inherited_attribute(between, further, attr, depth + 1)
            finally:
                self._steps = inner._steps
        own = next((f for f, _ in self._methods(cls) if f.name.value == "__init__"), None)
        params = {p.name.value: p for p in _all_params(init)}
        candidates: List[Candidate] = []
        for value in assigned:
            param = params.get(value.value) if isinstance(value, cst.Name) else None
            if param is None or own is None:
                got = values.of(value, init_chain + (init,), depth + 1)
            else:
                got = self._passed_to_base(cls, own, base, init, param, depth)
            if got is None:
                return None
            candidates.extend(got)
        return _dedupe(candidates)

    def _init_elsewhere(self, name: cst.BaseExpression) -> Optional[Tuple["Values", cst.FunctionDef, Chain]]:
        """The ``__init__`` of the project class of another module that ``name`` names, with
        that module's evaluator and the method's enclosing nodes (see :attr:`methods`)."""
        if self.methods is None or self.qualify is None:
            return None
        qualified = self.qualify(name)
        return self.methods(f"{qualified}.__init__") if qualified is not None else None

    def _passed_to_base(
        self, cls: cst.ClassDef, own: cst.FunctionDef, base: str, init: cst.FunctionDef, param: cst.Param, depth: int
    ) -> Candidates:
        """What ``cls``'s ``__init__`` (``own``) passes to parameter ``param`` of its base's
        ``__init__`` (``init``), through ``super().__init__(...)`` or ``Base.__init__(self, ...)``."""
        own_chain = next((c for f, c in self._methods(cls) if f is own), ())
        position = _position(init, param, True)
        found: List[Candidate] = []
        stack: List[Tuple[cst.CSTNode, Chain]] = [(own.body, own_chain + (own,))]
        while stack:
            node, chain = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__init__":
                receiver = node.func.value
                if _is_super(receiver, cls):
                    args: Sequence[cst.Arg] = node.args
                elif dotted_name(receiver) == base:
                    args = node.args[1:]  # ``Base.__init__(self, ...)``
                else:
                    continue
                bound = bind(cst_slots(args), param.name.value, position)
                if bound is UNKNOWN and self._passes_own_rest_empty(cls, own, own_chain, args):
                    # ``super().__init__(*args, **kwargs)`` in a class the project never builds:
                    # on its default path they are empty, and the base's defaults hold
                    bound = bind(cst_slots([a for a in args if not a.star]), param.name.value, position)
                if bound is UNKNOWN:
                    return None
                got = self.of(param.default, (), depth + 1) if bound is MISSING and param.default is not None else (
                    None if bound is MISSING else self.of(bound.value, chain, depth + 1)
                )
                if got is None:
                    return None
                found.extend(got)
                continue
            inner = chain + (node,)
            stack.extend((child, inner) for child in syntax_children(node))
        return _dedupe(found) if found else None

    def _passes_own_rest_empty(self, cls: cst.ClassDef, own: cst.FunctionDef, own_chain: Chain, args: Sequence[cst.Arg]) -> bool:
        """Are the starred arguments of a call in ``own`` (``cls``'s ``__init__``) only its own
        ``*args``/``**kwargs`` passed on, in a class nothing in the project builds (so that they
        are empty on its default path)?"""
        rest = {p.name.value for p in (own.params.star_arg, own.params.star_kwarg) if isinstance(p, cst.Param)}
        starred = [a for a in args if a.star]
        if not starred or not all(isinstance(a.value, cst.Name) and a.value.value in rest for a in starred):
            return False
        callee = _project_callee(own, own_chain)
        return callee is not None and self.uncalled is not None and self.uncalled(callee)

    def _hparam(self, attr: str, method: Tuple[cst.FunctionDef, Chain], depth: int) -> Candidates:
        cls = next((n for n in reversed(method[1]) if isinstance(n, cst.ClassDef)), None)
        if cls is None:
            return None
        for function, function_chain in self._methods(cls):
            if function.name.value == "__init__":
                param = _parameter(function, attr)
                if param is not None:
                    return self._parameter(function, function_chain, param, depth)
        return None

    # -- calls of project functions ------------------------------------------------------------
    def _isinstance(self, call: cst.Call, chain: Chain, depth: int) -> Candidates:
        """``isinstance(x, int)`` (or a tuple of built-in types) where ``x`` is known."""
        if not (isinstance(call.func, cst.Name) and call.func.value == "isinstance" and len(call.args) == 2):
            return None
        if any(a.keyword is not None or a.star for a in call.args):
            return None
        kinds = call.args[1].value
        names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        if not all(isinstance(n, cst.Name) and n.value in _BUILTIN_TYPES for n in names):
            return None
        types = tuple(_BUILTIN_TYPES[n.value] for n in names)  # type: ignore[attr-defined]
        checked = self.of(call.args[0].value, chain, depth + 1)
        if checked is None:
            return None
        found: List[Candidate] = []
        for candidate in checked:
            if isinstance(candidate, Const):
                found.append(Const(isinstance(candidate.value, types)))
            elif isinstance(candidate, cst.CSTNode) and type(candidate) in _DISPLAYS:
                found.append(Const(issubclass(_DISPLAYS[type(candidate)], types)))
            else:
                return None
        return _dedupe(found)

    def _returned(self, call: cst.Call, chain: Chain, depth: int, index: Optional[int]) -> Candidates:
        """What ``call`` gives, or element ``index`` of the tuple it returns: what the return
        statements of the project function it calls give on the default path of that call
        (the call itself when it calls no project function we can read)."""
        key = (id(call), index)
        if key in self._returns:
            return self._returns[key]
        target = self.callee(call.func, chain)
        if target is None:
            return [call] if index is None else None
        values, function = target
        active = (id(function), "<return>")
        if active in self._active:
            self._cut_short += 1
            return None  # recursion
        self._active.add(active)
        before = self._cut_short
        try:
            found = self._follow(call, chain, depth, index, values, function)
        finally:
            self._active.discard(active)
        if self._cut_short == before:  # an answer cut short is not kept (see :meth:`_parameter`)
            self._returns[key] = found
        return found

    def seeds_drawn_within(self, call: cst.Call, chain: Chain, seed_of: Callable[[Optional[str], cst.Call], Optional[cst.BaseExpression]]) -> bool:
        """Does the project function of another module that ``call`` (under ``chain``) calls
        seed a generator, with this call's arguments, from a value drawn at random on the
        default path (skrl's ``set_seed()``: ``if seed is None: seed = int.from_bytes(
        os.urandom(4), ...)``, then ``torch.manual_seed(seed)``)? ``seed_of``: the seed
        argument of a seeding call (given its qualified name), else None."""
        target = self.callee(call.func, chain)
        method, above = False, ()
        if target is None:
            # a class of another module built here (collie's ``Interactions()``, which seeds from
            # the clock when given no seed): its ``__init__``, with this call's arguments
            init = self._init_elsewhere(call.func)
            if init is not None:
                target, method, above = (init[0], init[1]), True, init[2]
        if target is None or target[0] is self:
            return False
        values, function = target
        active = (id(function), "<seeds>")
        if active in self._active:
            return False
        self._active.add(active)
        inner = values._within(self._bind_call(call, chain, 0, values, function, method), self._active, self._steps)
        try:
            stack: List[Tuple[cst.CSTNode, Chain]] = [(function.body, (*above, function))]
            while stack:
                node, where = stack.pop()
                kind = type(node)
                if kind in DEFINITIONS:
                    continue
                if kind in CALLS:
                    seed = seed_of(values.qualify(node.func) if values.qualify is not None else None, node)  # type: ignore[attr-defined]
                    if seed is not None and inner._drawn_in(inner.of(seed, where + (node,), 1)):
                        return True
                children = syntax_children(node)
                if children:
                    inner_chain = where + (node,)
                    stack.extend((child, inner_chain) for child in children)
            return False
        finally:
            self._steps = inner._steps
            self._active.discard(active)

    def of_in_call(self, call: cst.Call, chain: Chain, values: "Values", function: cst.FunctionDef, expr: cst.BaseExpression, where: Chain) -> Candidates:
        """What ``expr`` (under ``where`` in ``function``, a module-level function of the module
        ``values`` evaluates) holds for this ``call`` of it (under ``chain`` here): the call's
        arguments bound to its parameters together (``make_loader(ds, shuffle=True,
        seeded=False)`` gives ``g = ... if seeded else None`` only ``None``)."""
        inner = values._within(self._bind_call(call, chain, 0, values, function), self._active, self._steps)
        try:
            return inner.of(expr, where, 1)
        finally:
            self._steps = inner._steps

    def _bind_call(
        self, call: cst.Call, chain: Chain, depth: int, values: "Values", function: cst.FunctionDef, method: bool = False
    ) -> Dict[Tuple[int, str], Candidates]:
        """The values of ``call``'s arguments (evaluated here) bound to ``function``'s
        parameters (a parameter left out: its default, evaluated in ``values``, its module);
        ``method``: a class's ``__init__``, called through the class (``self`` is not given)."""
        slots = cst_slots(call.args)
        bound: Dict[Tuple[int, str], Candidates] = {}
        for param in _all_params(function):
            given = bind(slots, param.name.value, _position(function, param, method))
            if given is UNKNOWN:
                got: Candidates = None
            elif given is MISSING:
                got = values.of(param.default, (), depth + 1) if param.default is not None else None
            else:
                got = self.of(given.value, chain, depth + 1)
            bound[(id(function), param.name.value)] = got
        return bound

    def _follow(self, call: cst.Call, chain: Chain, depth: int, index: Optional[int], values: "Values", function: cst.FunctionDef) -> Candidates:
        inner = values._within(self._bind_call(call, chain, depth, values, function), self._active, self._steps)
        found: List[Candidate] = []
        try:
            for value, where in inner._exits(function, depth + 1):
                if value is None:
                    if index is not None:
                        continue  # unpacking None raises: that path goes no further
                    got = [Const(None)]
                else:
                    element = value if index is None else _tuple_element(value, index)
                    got = inner._parsed_here(element, where, depth) if element is not None else None
                    got = got or (None if element is None else inner.of(element, where, depth + 1))
                if got is None:
                    return None
                # an expression of the function is, seen from here, what the call gave (or a
                # value drawn at random, when the function returns a draw of an RNG)
                found.extend(c if isinstance(c, Const) or c is OPEN or c is DRAWN else DRAWN if inner.draws(c) else call for c in got)
        finally:
            self._steps = inner._steps
            self._cut_short += inner._cut_short
        return _dedupe(found) if found else None

    def _parsed_here(self, returned: cst.BaseExpression, where: Chain, depth: int) -> Candidates:
        """``return parser.parse_args()`` in a function of this module that declares the
        options (``opt = parse_opts()`` in 3D-ResNets-style code), or ``return args`` after
        ``args = parser.parse_args()`` there: this module's options' defaults, as
        :class:`ParsedOptions`; None for anything else."""
        function = next((n for n in reversed(where) if isinstance(n, cst.FunctionDef)), None) if isinstance(returned, cst.Name) else None
        if function is not None and isinstance(function.body, cst.IndentedBlock):
            # the function's one binding of that name, at its top level (``args = parser.parse_args()``)
            bound = [
                small.value
                for stmt in function.body.body if isinstance(stmt, cst.SimpleStatementLine)
                for small in stmt.body
                if isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == returned.value  # type: ignore[attr-defined]
            ]
            # and the name read nowhere else (``args.lr *= 2`` before the ``return`` would change
            # what the defaults say): only that binding and the returned name
            if len(bound) == 1 and _name_count(function, returned.value) == 2:  # type: ignore[attr-defined]
                returned = bound[0]
        if not (isinstance(returned, cst.Call) and parses_command_line(returned) and self.options()):
            return None
        known = tuple((dest, value) for dest, value in self.option_defaults(depth).items() if value is not UNKNOWN)
        return [Const(ParsedOptions(known))] if known else None

    def _augmented(self, expr: Augmented, depth: int) -> Candidates:
        """``x op= value``: a value drawn at random stays one (``seed %= 2 ** 31``); numbers
        known on every path are folded, as :meth:`_computed` folds ``x op value``."""
        before: List[Candidate] = []
        for value, where in expr.before:
            got = self.of(value, where, depth + 1)
            if got is None:
                return None
            before.extend(got)
        arithmetic = _ARITHMETIC.get(expr.operator)
        if arithmetic is None:
            return [DRAWN] if self._drawn_in(before) else None
        return self._fold(before, lambda: self.of(expr.value, expr.chain, depth + 1), arithmetic)

    def _fold(self, left: Candidates, right: Callable[[], Candidates], arithmetic: Callable[[Any, Any], Any]) -> Candidates:
        """``left <op> right`` (``right`` evaluated only when needed): :data:`DRAWN` when
        either side is drawn at random (``torch.seed() % 2**31``), the results when both are
        numbers known on every path (a few pairs at most), else None (not folded)."""
        if self._drawn_in(left):
            return [DRAWN]
        if not _numbers(left):
            return None
        found = right()
        if self._drawn_in(found):
            return [DRAWN]
        if not _numbers(found) or len(left) * len(found) > _MAX_ARITHMETIC:  # type: ignore[arg-type]
            return None
        try:
            return _combine(left, found, arithmetic)
        except (ArithmeticError, ValueError):  # ``1 / 0``: the program fails there
            return None

    def _typer_default(self, call: cst.Call) -> Optional[cst.BaseExpression]:
        """The default that ``typer.Option(...)`` declares for the parameter it is the default of
        (:data:`~repro_lint.catalog.TYPER_OPTIONS`): its first argument or ``default=``, else
        None as an expression; None for any other call."""
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        if last != "Option" or self.qualify is None or self.qualify(func) not in TYPER_OPTIONS:
            return None
        first = call.args[0] if call.args and call.args[0].keyword is None and not call.args[0].star else None
        given = first.value if first is not None else next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "default"), None)
        return given if given is not None else cst.Name("None")

    def _drawn_in(self, found: Candidates) -> bool:
        """Is one of the values ``found`` drawn at random (:data:`DRAWN`, or a call that
        :meth:`draws`)?"""
        return bool(found) and any(c is DRAWN or self.draws(c) for c in found)  # type: ignore[union-attr]

    def draws(self, expr: Candidate) -> bool:
        """``expr`` is a call that draws from a global RNG (``np.random.randint(2**31)``,
        ``random.randint(0, 100)``, ``torch.randint(...)``), as :mod:`repro_lint.classify` says,
        or returns a seed taken from entropy (``torch.seed()``)."""
        expr = drawing_call(expr)
        if not isinstance(expr, cst.Call) or self.qualify is None:
            return False
        qualified = self.qualify(expr.func)
        if qualified is None:
            return False
        return qualified in ENTROPY_RESULTS or bool(classify_call(qualified, None, NoArgs()).draws)

    def _within(self, bound: Dict[Tuple[int, str], Candidates], active: Set[Tuple[int, str]], steps: int) -> "Values":
        """An evaluator of this module for one call of one of its functions: the call's
        arguments bound to the function's parameters, its own decisions of tests (the
        indexes, which do not depend on the call, shared)."""
        inner = Values(
            self.module, self.source, self.resolve, self.qualify, self.callers, uncalled=self.uncalled,
            option_modules=self.option_modules, class_module=self.class_module,
        )
        inner._functions, inner._calls, inner._options = self.functions(), self._calls, self._options
        inner._binds, inner._self_index, inner._heir_index = self._binds, self._self_index, self._heir_index
        inner._module_defs = self._module_defs
        inner._bound, inner._active, inner._steps = bound, active, steps
        return inner

    def callee(self, func: cst.BaseExpression, chain: Chain) -> Optional[Tuple["Values", cst.FunctionDef]]:
        """The project function a call names: one of the module's own (a module-level ``def``
        the module binds nothing else to, and the calling function does not rebind), or one
        that :attr:`resolve` finds in another module. Generators and coroutines are left out:
        a call of one returns no value of its ``return``."""
        if isinstance(func, cst.Name):
            if shadowed(func.value, chain):
                return None
            function = self._module_defs_index().get(func.value)
            if function is not None:
                return None if _not_plain(function) else (self, function)
        if self.resolve is None or not isinstance(func, (cst.Name, cst.Attribute)):
            return None
        found = self.resolve(func)
        return None if found is None or _not_plain(found[1]) else found

    def _module_defs_index(self) -> Dict[str, cst.FunctionDef]:
        """The module-level ``def``s whose name the module binds to nothing else."""
        if self._module_defs is None:
            defs: Dict[str, List[cst.FunctionDef]] = {}
            others: Set[str] = set()
            for stmt in self.module.body:
                if isinstance(stmt, cst.FunctionDef):
                    defs.setdefault(stmt.name.value, []).append(stmt)
                else:
                    others |= bound_names(stmt)
            self._module_defs = {name: found[0] for name, found in defs.items() if len(found) == 1 and name not in others}
        return self._module_defs

    def _exits(self, function: cst.FunctionDef, depth: int, decide: bool = True) -> List[Tuple[Optional[cst.BaseExpression], Chain]]:
        """The ``return`` statements of ``function`` on its default path (tests it can decide
        take their branch; code after a ``return`` or ``raise`` is not reached), each with its
        chain; ``(None, ())`` when the end of the body may be reached (it returns None). Without
        ``decide``, on every path (no test is decided)."""
        found: List[Tuple[Optional[cst.BaseExpression], Chain]] = []
        if not self._exit_block(_statements(function.body), (function, function.body), depth, decide, found):
            found.append((None, ()))
        return found

    def _exit_block(
        self, statements: Sequence[cst.CSTNode], path: Chain, depth: int, decide: bool,
        found: List[Tuple[Optional[cst.BaseExpression], Chain]],
    ) -> bool:
        """Walk ``statements`` for :meth:`_exits`, adding the returns to ``found``: True when
        control never leaves their end."""
        for stmt in statements:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Return):
                        found.append((small.value if small.value is not None else cst.Name("None"), path + (stmt,)))
                        return True
                    if isinstance(small, cst.Raise):
                        return True
            elif isinstance(stmt, cst.If):
                taken = self._truth(path + (stmt,), depth)(stmt.test) if decide else None
                if taken is True:
                    ends = self._exit_block(_statements(stmt.body), path + (stmt, stmt.body), depth, decide, found)
                elif taken is False:
                    ends = stmt.orelse is not None and self._exit_block(_statements(stmt.orelse), path + (stmt, stmt.orelse), depth, decide, found)
                else:
                    body = self._exit_block(_statements(stmt.body), path + (stmt, stmt.body), depth, decide, found)
                    ends = stmt.orelse is not None and self._exit_block(_statements(stmt.orelse), path + (stmt, stmt.orelse), depth, decide, found) and body
                if ends:
                    return True
            elif isinstance(stmt, (cst.For, cst.While, cst.Try, cst.With)):
                ends = [self._exit_block(_statements(b), path + (stmt, b), depth, decide, found) for b in _blocks(stmt)]
                if isinstance(stmt, cst.With) and ends[0]:
                    return True
        return False

    # -- indexes ------------------------------------------------------------------------------
    def own_object(self, expr: cst.BaseExpression, chain: Sequence[cst.CSTNode]) -> Optional[cst.ClassDef]:
        """The class whose method ``expr`` is the object of (``self`` in ``self.scatter(...)``,
        the first parameter of the enclosing method, not rebound there), else None."""
        chain = tuple(n for n in chain if not isinstance(n, cst.Module))
        scope = self._enclosing(chain)
        if not isinstance(expr, cst.Name) or scope is None:
            return None
        function, function_chain = scope
        if _first_param(function) != expr.value or not _is_bound_method(function, function_chain):
            return None
        if _binds_elsewhere(function, expr.value) or any(expr.value in bound_names(stmt) for stmt in _statements(function.body)):
            return None  # rebound in the method
        return next((n for n in reversed(function_chain[-2:]) if isinstance(n, cst.ClassDef)), None)

    def _enclosing(self, chain: Chain) -> Optional[Tuple[cst.FunctionDef, Chain]]:
        for index in range(len(chain) - 1, -1, -1):
            if isinstance(chain[index], cst.FunctionDef):
                return chain[index], chain[:index]  # type: ignore[return-value]
        return None

    def _methods(self, cls: cst.ClassDef) -> List[Tuple[cst.FunctionDef, Chain]]:
        return [(f, c) for f, c in self.functions().values() if c and cls in c[-2:]]

    def functions(self) -> Dict[int, Tuple[cst.FunctionDef, Chain]]:
        """Every ``def`` of the module (found through statements only: cheap)."""
        if self._functions is None:
            functions: Dict[int, Tuple[cst.FunctionDef, Chain]] = {}
            stack: List[Tuple[cst.CSTNode, Chain]] = [(s, ()) for s in self.module.body]
            while stack:
                node, chain = stack.pop()
                if isinstance(node, cst.FunctionDef):
                    functions[id(node)] = (node, chain)
                if type(node) in _HOLDING_STATEMENTS:
                    inner = chain + (node,)
                    stack.extend((child, inner) for child in syntax_children(node) if type(child) in _STATEMENT_PART_KINDS)
            self._functions = functions
        return self._functions

    def calls(self) -> Dict[str, List[Tuple[cst.Call, Chain]]]:
        if self._calls is None:
            self._index()
        return self._calls  # type: ignore[return-value]

    def options(self) -> Dict[str, List[Tuple[cst.BaseExpression, Chain]]]:
        if self._options is None:
            self._index()
        return self._options  # type: ignore[return-value]

    def may_name(self, name: str) -> List[cst.BaseExpression]:
        """Every name and dotted name that the local name ``name`` may stand for anywhere in the
        file, in any scope and on any path, followed through assignments
        (annotated ones, the elements of a tuple assigned to a tuple), conditional expressions
        and parameters' defaults. A superset of what
        :meth:`names` finds at one use (which follows the same bindings, in the use's scope
        and on the default path only), and far cheaper: one pass over the module's statements,
        when first asked. A caller that looks for a kind of name asks :meth:`names` only when
        one of these is of that kind."""
        if self._bindings is None:
            self._bindings = _bindings(self.module)
        found: List[cst.BaseExpression] = []
        seen = {name}
        todo = [name]
        while todo:
            values = list(self._bindings.get(todo.pop(), ()))
            while values:
                value = values.pop()
                if isinstance(value, cst.IfExp):
                    values += (value.body, value.orelse)
                elif isinstance(value, cst.Attribute):
                    found.append(value)
                elif isinstance(value, cst.Name):
                    found.append(value)
                    if value.value not in seen:
                        seen.add(value.value)
                        todo.append(value.value)
        return found

    def changed_attributes(self) -> FrozenSet[str]:
        """The attributes of names that the module assigns or changes: ``args.seed`` for
        ``args.seed = ...`` (or ``setattr(args, "seed", ...)``), ``args.*`` for ``vars(args).update(...)``
        or ``args.__dict__[...] = ...``, ``*.seed`` for ``parser.set_defaults(seed=...)`` (``*.*``
        with ``**``)."""
        if self._changed is None:
            changed: Set[str] = set()
            if self.source is None or re.search(r"\.\w+\s*(\[[^\]]*\]\s*)?[-+*/|&%]?=[^=]|setattr|set_defaults|__dict__|vars\(", self.source):
                changed = _changed_attributes_in(self.module, into_definitions=True)
            self._changed = frozenset(changed)
        return self._changed

    def namespaces(self) -> FrozenSet[str]:
        """The names the module binds to parsed command-line options (``args =
        parser.parse_args()``, ``args, _ = parser.parse_known_args()``)."""
        if self._namespaces is None:
            self._index()
        return self._namespaces  # type: ignore[return-value]

    def _assigned_attributes(self) -> Dict[str, List[Tuple[Optional[cst.BaseExpression], Chain]]]:
        """Each assignment of ``name.attr`` in the module: the value (None for ``+=`` and the
        like), with where."""
        if self._attr_values is None:
            self._index()
        return self._attr_values  # type: ignore[return-value]

    def called(self, name: str) -> bool:
        """Might the module call ``name``, an identifier? (a text check before the walk that
        finds the calls: ``name`` written as a whole word before ``(``). The words of the text
        followed by ``(`` are found in one pass, when first asked: a search of the text for each
        name asked took 2 % of the samples of a cold run on two of the project corpus's
        repositories."""
        if self.source is None:
            return True
        if self._called_words is None:
            self._called_words = frozenset(_CALLED_WORD.findall(self.source))
        return name in self._called_words

    def _index(self) -> None:
        """One walk of the module: the calls of each function name it defines, and the
        ``add_argument`` defaults by destination."""
        calls: Dict[str, List[Tuple[cst.Call, Chain]]] = {}
        options: Dict[str, List[Tuple[cst.BaseExpression, Chain]]] = {}
        namespaces: Set[str] = set()
        attr_values: Dict[str, List[Tuple[Optional[cst.BaseExpression], Chain]]] = {}
        stack: List[Tuple[cst.CSTNode, Chain]] = [(s, ()) for s in reversed(self.module.body)]
        while stack:
            node, chain = stack.pop()
            if type(node) not in _INDEXED_KINDS:
                pass
            elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                # an augmented assignment's value is not the attribute's: None
                value = None if isinstance(node, cst.AugAssign) else node.value
                parsed = isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in PARSE_CALLS
                for t in [target.target for target in node.targets] if isinstance(node, cst.Assign) else [node.target]:
                    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name):
                        attr_values.setdefault(f"{t.value.value}.{t.attr.value}", []).append((value, chain))
                    elif parsed:
                        first = t.elements[0].value if isinstance(t, cst.Tuple) and t.elements else t
                        if isinstance(first, cst.Name):
                            namespaces.add(first.value)
            elif isinstance(node, cst.Call):
                func = node.func
                short = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
                if short == "add_argument":
                    _option(node, chain, options)
                elif short is not None:
                    calls.setdefault(short, []).append((node, chain))
            children = syntax_children(node)
            if children:  # (most nodes are names and literals: no chain made for them)
                inner = chain + (node,)
                stack.extend((child, inner) for child in reversed(children))
        # (and the classes nested in the module's classes: ``self.Net(...)`` builds ``Agent.Net``)
        defined = {f.name.value for f, _ in self.functions().values()} | _class_names(self.module) | _nested_class_names(self.module)
        self._calls = {name: found for name, found in calls.items() if name in defined}
        self._options = options
        self._namespaces = frozenset(namespaces)
        self._attr_values = attr_values


def _bindings(module: cst.Module) -> Dict[str, List[cst.BaseExpression]]:
    """For :meth:`Values.may_name`: each name the module's statements bind, anywhere, to
    the values it is bound to (a tuple assigned to a tuple: each name to every element), and
    each parameter's name to its default."""
    found: Dict[str, List[cst.BaseExpression]] = {}
    stack: List[cst.CSTNode] = list(module.body)
    while stack:
        node = stack.pop()
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        _bind(found, target.target, small.value)
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    _bind(found, small.target, small.value)
            continue
        if isinstance(node, cst.FunctionDef):
            params = node.params
            for param in (*params.posonly_params, *params.params, *params.kwonly_params):
                if param.default is not None:
                    found.setdefault(param.name.value, []).append(param.default)
        stack.extend(child for child in syntax_children(node) if type(child) in _STATEMENT_PART_KINDS)
    return found


def _bind(found: Dict[str, List[cst.BaseExpression]], target: cst.BaseExpression, value: cst.BaseExpression) -> None:
    if isinstance(target, cst.Name):
        found.setdefault(target.value, []).append(value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        values = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else []
        for element in target.elements:
            for part in values or [value]:
                _bind(found, element.value, part)
    elif isinstance(target, cst.StarredElement):
        _bind(found, target.value, value)


#: every node type :meth:`Values._index` looks at
_INDEXED_KINDS = ASSIGNMENTS | CALLS
#: a word of the text and the ``(`` after it: a call of that name, maybe (:meth:`Values.called`)
_CALLED_WORD = re.compile(r"(\w+)\s*\(")


def parses_command_line(call: cst.Call) -> bool:
    """``parser.parse_args()``: the run's command line, parsed, or ``parse_args([])``, the
    defaults themselves (not ``parse_args(["--lr", "1"])``)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "parse_args"):
        return False
    given = call.args[0].value if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star else None
    return not call.args or (isinstance(given, (cst.List, cst.Tuple)) and not given.elements)


def _only_the_parameter(reached: Any, start: List[Tuple[cst.BaseExpression, Chain]]) -> bool:
    """Did :func:`_reaching` find only the parameter's own value, ``start`` (no path rebinds it;
    also where undecided branches were merged into a new list holding that same entry)?"""
    return bool(start) and isinstance(reached, list) and bool(reached) and all(entry is start[0] for entry in reached)


def _class_attribute(cls: cst.ClassDef, attr: str) -> Optional[cst.BaseExpression]:
    """The value the body of class ``cls`` binds to ``attr`` (``shuffle = True``, ``debug: bool
    = False``), when it binds it once; else None."""
    found: List[cst.BaseExpression] = []
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                found.append(small.value)
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.target.value == attr and small.value is not None:
                found.append(small.value)
    return found[0] if len(found) == 1 else None


def _decorator_callee(decorator: cst.BaseExpression) -> cst.BaseExpression:
    """What a decorator names: ``pyrallis.wrap`` for ``@pyrallis.wrap()`` and ``@pyrallis.wrap``."""
    return decorator.func if isinstance(decorator, cst.Call) else decorator


def _class_names(module: cst.Module) -> Set[str]:
    return {s.name.value for s in module.body if isinstance(s, cst.ClassDef)}


def _nested_class_names(module: cst.Module) -> Set[str]:
    """The classes defined directly in the body of the module's classes."""
    return {s.name.value for c in module.body if isinstance(c, cst.ClassDef) for s in _enclosing_class_body((c,)) if isinstance(s, cst.ClassDef)}


def _project_callee(function: cst.FunctionDef, chain: Chain) -> Optional[str]:
    """The name the project's call graph gives what calling ``function`` runs, when other
    modules may call it by name: a module-level function, (``CLASS_PREFIX`` + the class) the
    ``__init__`` of a module-level class, or (``Class.method``) a method of one, called on its
    objects. None for anything else."""
    if not chain:
        return function.name.value
    cls = chain[0]
    if isinstance(cls, cst.ClassDef) and all(isinstance(n, cst.BaseSuite) for n in chain[1:]):
        if function.name.value == "__init__":
            return CLASS_PREFIX + cls.name.value
        if _is_bound_method(function, chain):
            return f"{cls.name.value}.{function.name.value}"  # called on the class's objects
    return None


def _module_classes(module: cst.Module) -> List[cst.ClassDef]:
    return [s for s in module.body if isinstance(s, cst.ClassDef)]


def _plain_options_class(module: cst.Module, name: Optional[str]) -> Optional[cst.ClassDef]:
    """The class ``name`` defined once at the module's top level or in a top-level ``if``
    block (``if __name__ == "__main__": class Options: ...``), when it has no base and no
    ``__init__`` (its objects' attributes are the class body's), else None."""
    if name is None:
        return None
    found = [s for s in module.body if isinstance(s, cst.ClassDef) and s.name.value == name]
    for stmt in module.body:
        if isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock):
            found += [s for s in stmt.body.body if isinstance(s, cst.ClassDef) and s.name.value == name]
    if len(found) != 1 or found[0].bases or _defines_init(found[0]):
        return None
    return found[0]


def _enclosing_class_body(chain: Chain) -> Sequence[cst.CSTNode]:
    """The statements of the innermost class of ``chain`` (none outside a class)."""
    owner = next((n for n in reversed(chain) if isinstance(n, cst.ClassDef)), None)
    body = owner.body.body if owner is not None else ()
    return body if isinstance(body, (list, tuple)) else ()


def _first_base(cls: cst.ClassDef) -> Optional[str]:
    """The name of the first base class, when it is a plain name (``class A(B, Mixin)``: B)."""
    bases = [a for a in cls.bases if a.keyword is None and not a.star]
    return bases[0].value.value if bases and isinstance(bases[0].value, cst.Name) else None


def _defines_init(cls: cst.ClassDef) -> bool:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return any(isinstance(s, cst.FunctionDef) and s.name.value == "__init__" for s in body)


def _is_super(expr: cst.BaseExpression, cls: cst.ClassDef) -> bool:
    """``super()`` or ``super(Cls, self)`` inside class ``cls``."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "super"):
        return False
    if not expr.args:
        return True
    first = expr.args[0].value
    return len(expr.args) == 2 and isinstance(first, cst.Name) and first.value == cls.name.value


# -- statements: which assignments reach a use ---------------------------------------------------

_UNASSIGNED: Any = object()
#: the state after a ``return`` or ``raise``: no use further on is reached that way
_DEAD: Any = object()
#: a value that is not None (a call's result, for ``x is None``)
_SOMETHING: Any = object()


Truth = Callable[[cst.BaseExpression], Optional[bool]]


#: an assignment that reaches a use: the value, and the chain it is evaluated under
Reaching = Tuple[cst.BaseExpression, Chain]


def _undecided(test: cst.BaseExpression, where: object = None) -> Optional[bool]:
    """A :data:`Truth` that decides no test (every branch may run)."""
    return None


def _pinned(test: cst.BaseExpression, dotted: str, holds: bool) -> Optional[List[Any]]:
    """The literals ``test`` pins the name (or ``a.b``) ``dotted`` to where it ``holds`` (or,
    with ``holds`` False, where it fails): ``x == "a"`` (either side) and ``x in ("a", "b")``
    when it holds, ``x != "a"`` when it fails, through ``and`` (holds), ``or`` (fails) and
    ``not``; None when it pins nothing."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _pinned(test.expression, dotted, not holds)
    if isinstance(test, cst.BooleanOperation):
        if isinstance(test.operator, cst.And if holds else cst.Or):  # every part holds (fails)
            left = _pinned(test.left, dotted, holds)
            return left if left is not None else _pinned(test.right, dotted, holds)
        return None
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    operator, other = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(operator, cst.Equal if holds else cst.NotEqual):
        if dotted_name(test.left) == dotted:
            literal = cst_literal(other)
        elif dotted_name(other) == dotted:
            literal = cst_literal(test.left)  # ``"a" == x``
        else:
            return None
        return None if literal is UNKNOWN else [literal]
    if holds and isinstance(operator, cst.In) and dotted_name(test.left) == dotted and isinstance(other, (cst.Tuple, cst.List, cst.Set)):
        literals = [cst_literal(e.value) for e in other.elements if not isinstance(e, cst.StarredElement)]
        if not literals or len(literals) != len(other.elements) or any(v is UNKNOWN for v in literals):
            return None
        return literals
    return None


def _truthiness(test: cst.BaseExpression, dotted: str, holds: bool) -> Optional[bool]:
    """Whether the name (or ``a.b``) ``dotted`` is true where ``test`` holds (or, with
    ``holds`` False, where it fails), when the test decides it: ``x``, ``not x``, a part of an
    ``and`` that holds or an ``or`` that fails; None otherwise."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _truthiness(test.expression, dotted, not holds)
    if isinstance(test, cst.BooleanOperation):
        if isinstance(test.operator, cst.And if holds else cst.Or):
            left = _truthiness(test.left, dotted, holds)
            return left if left is not None else _truthiness(test.right, dotted, holds)
        return None
    return holds if isinstance(test, (cst.Name, cst.Attribute)) and dotted_name(test) == dotted else None


def _name_count(node: cst.CSTNode, name: str) -> int:
    """How many times ``name`` occurs as a name in ``node`` (parameters included)."""
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name) and current.value == name:
            count += 1
        stack.extend(syntax_children(current))
    return count


def holds_node(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    """``target`` is ``node`` or inside it."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current is target:
            return True
        stack.extend(syntax_children(current))
    return False


#: every node type :func:`_may_bind` looks at
_MAY_BIND_KINDS = node_kinds(
    cst.Assign, cst.AnnAssign, cst.AugAssign, cst.FunctionDef, cst.ClassDef, cst.For, cst.With, cst.Import,
    cst.ImportFrom, cst.Global, cst.Nonlocal, cst.ExceptHandler,
)


def _may_bind(stmt: cst.CSTNode, name: str, memo: Dict[int, FrozenSet[str]]) -> bool:
    """Whether a compound statement binds ``name`` anywhere inside (the names are collected
    once per statement)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return True  # looked at directly, and cheaply
    found = memo.get(id(stmt))
    if found is None:
        names: Set[str] = set()
        stack: List[cst.CSTNode] = [stmt]
        while stack:
            node = stack.pop()
            if type(node) not in _MAY_BIND_KINDS:
                pass
            elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    names.update(target_names(target, attributes=True))
            elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                names.add(node.name.value)
                continue
            elif isinstance(node, (cst.For, cst.With, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal, cst.ExceptHandler)):
                names.add("*")  # loop targets, imports, ...: treat as binding anything
            stack.extend(syntax_children(node))
        found = memo[id(stmt)] = frozenset(names)
    return name in found or "*" in found


def _reaching(
    body: Sequence[cst.CSTNode],
    name: str,
    chain: Chain,
    truth: Truth,
    base: Chain,
    memo: Dict[int, FrozenSet[str]],
    whole: bool = False,
    start: Any = _UNASSIGNED,
    dead: Any = None,
) -> Any:
    """The values of ``name`` that reach the use whose enclosing nodes are ``chain``, walking
    ``body`` (a list of statements under ``base``): a list of (expression, the chain of the
    statement that assigns it), None (assigned in a way we cannot follow), or _UNASSIGNED.
    With ``whole``, every assignment in ``body`` counts (a module's names seen from inside a
    function that runs later). ``start`` is what the name holds before ``body`` (a parameter's
    own value; ``start`` itself comes back when nothing in ``body`` changes it)."""
    walk = _Walk(name, {id(n) for n in chain}, truth, whole, memo)
    state, _ = walk.block(body, start, base)
    return dead if state is _DEAD else state


class _Walk:
    """One walk of a list of statements, for one name, up to one use."""

    def __init__(self, name: str, on_path: Set[int], truth: Truth, whole: bool, binds: Dict[int, FrozenSet[str]]) -> None:
        self.name, self.on_path, self.truth, self.whole, self.binds = name, on_path, truth, whole, binds

    def block(self, body: Sequence[cst.CSTNode], state: Any, path: Chain) -> Tuple[Any, bool]:
        for stmt in body:
            if not self.whole and id(stmt) in self.on_path:
                if isinstance(stmt, _BRANCHING):
                    for block in _blocks(stmt):
                        if id(block) in self.on_path:
                            return self.block(_statements(block), state, path + (stmt, block))
                return state, True
            state, reached = self.statement(stmt, state, path)
            if reached or state is _DEAD:
                return state, reached
        return state, False

    def statement(self, stmt: cst.CSTNode, state: Any, path: Chain) -> Tuple[Any, bool]:
        name = self.name
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Return, cst.Raise)) and not self.whole:
                    return _DEAD, False  # what follows in this block is not reached
                state = self.assign(small, state, path + (stmt,))
            return state, False
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            return (self.set(state, None) if stmt.name.value == name else state), False
        if not _may_bind(stmt, name, self.binds) and not (id(stmt) in self.on_path):
            if isinstance(stmt, cst.If) and not self.whole and _guard_taken(stmt, self.truth):
                return _DEAD, False  # ``if not distributed: raise``: the default path stops here
            return state, False  # nothing in it binds the name: its tests do not matter
        if isinstance(stmt, cst.If) and self.whole and stmt.orelse is None and is_main_guard(stmt):
            # a module's name bound in its ``__main__`` block, seen from a function: the function
            # can only find it there when the module runs as the program, which runs the block
            return self.block(_statements(stmt.body), state, path + (stmt, stmt.body))
        if isinstance(stmt, cst.If) and not self.whole:
            taken = self.truth(stmt.test, path + (stmt,))  # type: ignore[call-arg]
            if taken is True:
                return self.block(_statements(stmt.body), state, path + (stmt, stmt.body))
            if taken is False:
                if stmt.orelse is None:
                    return state, False
                return self.block(_statements(stmt.orelse), state, path + (stmt, stmt.orelse))
        if isinstance(stmt, (cst.For, cst.While, cst.If, cst.Try, cst.With)):
            if isinstance(stmt, cst.For) and name in target_names(stmt.target):
                state = self.set(state, None)
            if isinstance(stmt, cst.With) and any(
                item.asname is not None and name in target_names(item.asname.name) for item in stmt.items
            ):
                state = self.set(state, None)
            outcomes = []
            for block in _blocks(stmt):
                got, reached = self.block(_statements(block), state, path + (stmt, block))
                if reached:
                    return got, True
                outcomes.append(got)
            if isinstance(stmt, cst.With):
                return outcomes[0], False
            if isinstance(stmt, cst.If) and stmt.orelse is not None:
                return _union(outcomes), False  # one branch runs
            return _union([state] + outcomes), False  # the body may not run
        return state, False

    def assign(self, small: cst.CSTNode, state: Any, chain: Chain) -> Any:
        name = self.name
        if isinstance(small, cst.Assign):
            for target in small.targets:
                if name in target_names(target.target, attributes=True):
                    value = _element(target.target, small.value, name)
                    state = self.set(state, None if value is None else [(value, chain)])
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            if isinstance(small.target, (cst.Name, cst.Attribute)) and dotted_name(small.target) == name:
                state = self.set(state, [(small.value, chain)])
        elif isinstance(small, cst.AugAssign):
            if isinstance(small.target, (cst.Name, cst.Attribute)) and dotted_name(small.target) == name:
                operator = _AUGMENTED.get(type(small.operator))
                before = state if isinstance(state, list) and state else None
                augmented = Augmented(tuple(before), operator, small.value, chain) if before is not None and operator is not None else None
                state = self.set(state, None if augmented is None else [(augmented, chain)])
        elif isinstance(small, cst.Global) and self.whole:
            pass  # a declaration (a function that assigns a module's name), not a binding
        elif isinstance(small, (cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)) and name in _imported_names(small):
            state = self.set(state, None)
        return state

    def set(self, state: Any, value: Any) -> Any:
        if not self.whole or state is _UNASSIGNED:
            return value
        return _union([state, value])


def _element(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> Optional[cst.BaseExpression]:
    """The part of ``value`` that ``name`` gets in ``target = value`` (``a, b = x, y`` gives
    ``b`` the ``y``), or None when it cannot be told."""
    if isinstance(target, (cst.Name, cst.Attribute)):
        return value if dotted_name(target) == name else None
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, cst.Call):
        elements = [e.value for e in target.elements]
        if any(isinstance(e, cst.StarredElement) for e in target.elements):
            return None
        index = next((i for i, e in enumerate(elements) if isinstance(e, cst.Name) and e.value == name), None)
        return None if index is None else Unpacked(value, index)  # type: ignore[return-value]
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
        if len(target.elements) != len(value.elements):
            return None
        if any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
            return None
        for left, right in zip(target.elements, value.elements):
            if name in target_names(left.value):
                return _element(left.value, right.value, name)
    return None


def _union(states: List[Any]) -> Any:
    states = [s for s in states if s is not _DEAD]  # a branch that returns or raises goes no further
    if not states:
        return _DEAD
    if all(s is _UNASSIGNED for s in states):
        return _UNASSIGNED
    merged: List[Reaching] = []
    for s in states:
        if s is None:
            return None
        if s is _UNASSIGNED:
            return None  # assigned on some paths only: a name from elsewhere on the others
        merged.extend(v for v in s if not any(v[0] is m[0] for m in merged))
    return merged


def skipped_branch(
    chain: Sequence[cst.CSTNode], truth: Callable[[cst.BaseExpression, Sequence[cst.CSTNode]], Optional[bool]],
) -> "Optional[cst.If | cst.IfExp]":
    """The ``if`` around a node (whose enclosing nodes are ``chain``), within its function,
    whose branch holding the node is not taken when ``truth`` (test, the test's chain) decides;
    a conditional expression's branch too (``th.device("cpu") if args.gpu < 0 else
    th.device("cuda")``)."""
    for index in range(len(chain) - 1, 0, -1):
        node = chain[index - 1]
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        if not isinstance(node, (cst.If, cst.IfExp)):
            continue
        inner = chain[index]
        wanted = True if inner is node.body else False if inner is node.orelse else None
        if wanted is not None and truth(node.test, chain[:index]) is (not wanted):
            return node
    return None


def literal_truth(test: cst.BaseExpression, chain: object = None) -> Optional[bool]:
    """The truth of a test written as a literal (``True``, ``0``, ``not False``), else None."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = literal_truth(test.expression)
        return None if inner is None else not inner
    if isinstance(test, cst.Name) and test.value in ("True", "False", "None"):
        return test.value == "True"
    if isinstance(test, (cst.Integer, cst.Float)):
        return bool(float(test.evaluated_value))
    return None


def _guard_taken(stmt: cst.If, truth: Truth) -> bool:
    """Does the default path take a branch of ``stmt`` that always leaves (its own statements
    ``raise`` or ``return``)? The test is evaluated only when a branch does."""
    body = _always_leaves(_statements(stmt.body))
    orelse = stmt.orelse is not None and _always_leaves(_statements(stmt.orelse))
    if not body and not orelse:
        return False
    taken = truth(stmt.test)
    return (taken is True and body) or (taken is False and orelse)


def _passed_guard(test: cst.BaseExpression, chain: Chain, module: cst.Module) -> Optional[bool]:
    """What a test written as an earlier guard's holds after that guard, in the same function:
    after ``if args.distributed: ... else: raise ...`` (every other branch raises or returns),
    ``args.distributed`` is true wherever the code goes on; after ``if not ok: raise``'s
    ``if`` branch, false. None when no guard tells, or a statement between them binds a name
    the test reads.

    The guard is looked for first, among the ``if`` statements whose test has the same type
    (the same code parses to the same node), and the statements between it and the use are read
    only when there is one: most tests have none, and reading every earlier statement's names
    for each of them was 3.7 % of a cold run's samples on the project corpus."""
    kind = type(test)
    code: Optional[str] = None
    between: List[cst.CSTNode] = []
    for index in range(len(chain) - 1, 0, -1):
        block, inner = chain[index - 1], chain[index]
        if isinstance(block, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        statements = _statements(block) if isinstance(block, (cst.IndentedBlock, cst.Else, cst.Finally)) else ()
        if inner not in statements:
            continue
        for stmt in reversed(statements[: statements.index(inner)]):
            if type(stmt) is cst.If and type(stmt.test) is kind:
                code = module.code_for_node(test) if code is None else code
                if module.code_for_node(stmt.test) == code:
                    verdict = _guard_verdict(stmt)
                    if verdict is not None:
                        return verdict if not _changes_names(between, test) else None
            between.append(stmt)
    return None


def _guard_verdict(stmt: cst.If) -> Optional[bool]:
    """What an ``if`` whose test is the one asked about tells of it after the ``if``: True when
    its ``else`` branch always leaves and its body does not; False when it has no ``else`` and
    its body always leaves."""
    if stmt.orelse is not None:
        return True if _always_leaves(_statements(stmt.orelse)) and not _always_leaves(_statements(stmt.body)) else None
    return False if _always_leaves(_statements(stmt.body)) else None


def _changes_names(statements: Sequence[cst.CSTNode], test: cst.BaseExpression) -> bool:
    """Does one of ``statements`` bind a name ``test`` reads, or change an attribute it reads?"""
    read = cst_names_read(test, dotted=True)
    roots = {name.partition(".")[0] for name in read}
    for stmt in statements:
        changed = _changed_attributes_in(stmt)
        if roots & bound_names(stmt) or read & changed or any(c.endswith(".*") and c[:-2] in roots for c in changed):
            return True
    return False


def _changed_attributes_in(root: cst.CSTNode, into_definitions: bool = False) -> Set[str]:
    """The attributes of names that the code under ``root`` changes (:func:`_changed_attributes`
    of each node: ``args.distributed = ...``), not looking into the functions, classes and
    lambdas it defines unless ``into_definitions``."""
    found: Set[str] = set()
    stack: List[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _CHANGING_KINDS:
            found |= _changed_attributes(node)
        if into_definitions or kind not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            stack.extend(syntax_children(node))
    return found


def _always_leaves(statements: Sequence[cst.CSTNode]) -> bool:
    """Do ``statements`` always ``raise`` or ``return``: one of them does, or an ``if`` whose
    every branch does (``elif args.gpu is not None: ... raise`` / ``else: raise``, MoCo's)?"""
    for stmt in statements:
        if isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(small, (cst.Raise, cst.Return)) for small in stmt.body):
            return True
        if isinstance(stmt, cst.If) and stmt.orelse is not None and _always_leaves(_statements(stmt.body)) and _always_leaves(_statements(stmt.orelse)):
            return True
    return False


def _blocks(stmt: cst.CSTNode) -> List[cst.CSTNode]:
    blocks: List[cst.CSTNode] = [stmt.body]  # type: ignore[attr-defined]
    if isinstance(stmt, cst.Try):
        blocks.extend(h.body for h in stmt.handlers)
    orelse = getattr(stmt, "orelse", None)
    if orelse is not None:
        blocks.append(orelse)
    return blocks


def _statements(block: cst.CSTNode) -> Sequence[cst.CSTNode]:
    if isinstance(block, cst.If):  # ``elif``
        return (block,)
    if isinstance(block, (cst.Else, cst.Finally)):
        block = block.body
    if isinstance(block, cst.IndentedBlock):
        return block.body
    if isinstance(block, cst.SimpleStatementSuite):
        return (cst.SimpleStatementLine(body=block.body),)
    return ()


def target_names(target: cst.CSTNode, attributes: bool = False) -> List[str]:
    """The names an assignment target binds (``a``, ``a, (b, *c)``); with ``attributes``, also
    the attributes of a name it assigns (``args.seed``)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in target_names(e.value, attributes)]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value, attributes)
    if attributes and isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
        return [f"{target.value.value}.{target.attr.value}"]
    return []


_CHANGING_KINDS = ASSIGNMENTS | CALLS


def _changed_attributes(node: cst.CSTNode) -> Set[str]:
    """What one node changes of names' attributes (see :meth:`Values.changed_attributes`)."""
    targets: List[cst.CSTNode] = []
    if type(node) not in _CHANGING_KINDS:
        return set()
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        targets = [node.target]
    elif isinstance(node, cst.Call):
        func = node.func
        name = dotted_name(func)
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if name == "setattr" and positional and isinstance(positional[0], cst.Name):
            attr = string_value(positional[1]) if len(positional) > 1 else None
            return {f"{positional[0].value}.{attr or '*'}"}
        if isinstance(func, cst.Attribute) and func.attr.value == "set_defaults":
            return {"*.*" if a.keyword is None else f"*.{a.keyword.value}" for a in node.args}
        if isinstance(func, cst.Attribute) and func.attr.value in ("update", "__setitem__", "setdefault"):
            owner = _namespace_dict(func.value)
            return {f"{owner}.*"} if owner is not None else set()
        return set()
    found: Set[str] = set()
    for target in targets:
        found.update(n for n in target_names(target, attributes=True) if "." in n)
        if isinstance(target, cst.Subscript):
            owner = _namespace_dict(target.value)
            if owner is not None:
                found.add(f"{owner}.*")
    return found


def _namespace_dict(expr: cst.BaseExpression) -> Optional[str]:
    """``args`` for ``vars(args)`` and ``args.__dict__`` (the namespace's attributes as a dict)."""
    if isinstance(expr, cst.Attribute) and expr.attr.value == "__dict__" and isinstance(expr.value, cst.Name):
        return expr.value.value
    if isinstance(expr, cst.Call) and dotted_name(expr.func) == "vars" and expr.args and isinstance(expr.args[0].value, cst.Name):
        return expr.args[0].value.value
    return None


def _imported_names(node: cst.CSTNode) -> List[str]:
    if isinstance(node, (cst.Global, cst.Nonlocal)):
        return [n.name.value for n in node.names]
    names = getattr(node, "names", ())
    if isinstance(names, cst.ImportStar):
        return []
    found = []
    for alias in names:
        bound = alias.asname.name if alias.asname is not None else alias.name
        while isinstance(bound, cst.Attribute):
            bound = bound.value
        if isinstance(bound, cst.Name):
            found.append(bound.value)
    return found


_NOT_SEARCHED_FOR_GLOBALS = node_kinds(cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.BaseExpression)


def _global_writers(functions: Iterable[Tuple[cst.FunctionDef, Chain]]) -> Dict[str, List[Tuple[cst.FunctionDef, Chain]]]:
    """The functions that declare each name ``global`` in their own body (not in a nested
    ``def`` or class)."""
    found: Dict[str, List[Tuple[cst.FunctionDef, Chain]]] = {}
    for function, chain in functions:
        stack: List[cst.CSTNode] = [function.body]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is cst.Global:
                for item in node.names:
                    found.setdefault(item.name.value, []).append((function, chain))
            elif kind not in _NOT_SEARCHED_FOR_GLOBALS:
                stack.extend(syntax_children(node))
    return found


def _binds_elsewhere(function: cst.FunctionDef, name: str) -> bool:
    """``name`` is bound in ``function`` by something other than a plain statement before the
    use (a comprehension, a walrus, an ``except ... as``): too subtle to follow."""
    return name in _bound_elsewhere(function)


@functools.lru_cache(maxsize=128)  # nodes hash by identity; asked for each name the function uses
def _bound_elsewhere(function: cst.FunctionDef) -> FrozenSet[str]:
    """The names :func:`_binds_elsewhere` finds in ``function`` (one walk of its body)."""
    names: Set[str] = set()
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        kind = type(node)  # LibCST's node classes are final: ``is`` is ``isinstance``, cheaper
        if kind is cst.NamedExpr and isinstance(node.target, cst.Name):  # type: ignore[attr-defined]
            names.add(node.target.value)  # type: ignore[attr-defined]
        elif kind is cst.ExceptHandler and node.name is not None:  # type: ignore[attr-defined]
            names.update(target_names(node.name.name))
        stack.extend(syntax_children(node))
    return frozenset(names)


def _tuple_element(value: cst.BaseExpression, index: int) -> Optional[cst.BaseExpression]:
    """Element ``index`` of a tuple or list display without ``*`` (else None)."""
    if not isinstance(value, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return value.elements[index].value if index < len(value.elements) else None


#: every node type :func:`bound_names` looks at (the others are only searched through)
_BINDING_KINDS = node_kinds(
    cst.FunctionDef, cst.ClassDef, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.WithItem, cst.Import,
    cst.ImportFrom, cst.ExceptHandler, cst.NamedExpr, cst.Lambda,
)


def bound_names(node: cst.CSTNode) -> Set[str]:
    """The names a statement binds (assignment and loop targets, ``with ... as``, imports,
    ``def``/``class``, ``except ... as``, walrus), not looking into nested functions and classes."""
    names: Set[str] = set()
    stack: List[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if type(current) not in _BINDING_KINDS:
            stack.extend(syntax_children(current))
            continue
        if isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            names.add(current.name.value)
            continue
        if isinstance(current, cst.Assign):
            for target in current.targets:
                names.update(target_names(target.target))
        elif isinstance(current, (cst.AnnAssign, cst.AugAssign)):
            names.update(target_names(current.target))
        elif isinstance(current, cst.For):
            names.update(target_names(current.target))
        elif isinstance(current, cst.WithItem) and current.asname is not None:
            names.update(target_names(current.asname.name))
        elif isinstance(current, (cst.Import, cst.ImportFrom)):
            names.update(_imported_names(current))
        elif isinstance(current, cst.ExceptHandler) and current.name is not None:
            names.update(target_names(current.name.name))
        elif isinstance(current, cst.NamedExpr):
            names.update(target_names(current.target))
        elif isinstance(current, cst.Lambda):
            continue
        stack.extend(syntax_children(current))
    return names


def shadowed(name: str, chain: Sequence[cst.CSTNode]) -> bool:
    """``name``, used under ``chain``, is local to an enclosing function (a parameter, an
    assignment, a nested ``def``): not the module's function or import of that name."""
    return any(isinstance(n, cst.FunctionDef) and name in _local_names(n) for n in chain)


@functools.lru_cache(maxsize=128)  # nodes hash by identity; asked for each call under the function
def _local_names(function: cst.FunctionDef) -> FrozenSet[str]:
    """The names local to ``function``: its parameters and what its body binds."""
    params = function.params
    names = {p.name.value for p in _all_params(function)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    for stmt in _statements(function.body):
        names |= bound_names(stmt)
    return frozenset(names)


@functools.lru_cache(maxsize=128)
def _not_plain(function: cst.FunctionDef) -> bool:
    """A generator or a coroutine (its call returns no value of a ``return``)."""
    if function.asynchronous is not None:
        return True
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Yield):
            return True
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(syntax_children(node))
    return False


# -- parameters, self, argparse ------------------------------------------------------------------


def _all_params(function: cst.FunctionDef) -> List[cst.Param]:
    p = function.params
    return [*p.posonly_params, *p.params, *p.kwonly_params]


def _parameter(function: cst.FunctionDef, name: str) -> Optional[cst.Param]:
    return next((p for p in _all_params(function) if p.name.value == name), None)


def _first_param(function: cst.FunctionDef) -> Optional[str]:
    positional = [*function.params.posonly_params, *function.params.params]
    return positional[0].name.value if positional else None


def bind_parameter(function: cst.FunctionDef, name: str, args: Sequence[cst.Arg], method: bool = False) -> Any:
    """The argument a call of module-level ``function`` (with ``method``: a method called on an
    object, its first parameter bound) with ``args`` binds to parameter ``name``: a
    ``cst.Arg``, MISSING or UNKNOWN (:func:`repro_lint.syntax.bind`)."""
    param = _parameter(function, name)
    if param is None:
        return UNKNOWN
    position = _position(function, param, method)
    return bind(cst_slots(args), name, position if position is None or position >= 0 else None)


def _is_bound_method(function: cst.FunctionDef, chain: Chain) -> bool:
    """Called through an instance or the class (``self.f(x)``): its first parameter is bound."""
    in_class = any(isinstance(n, cst.ClassDef) for n in chain[-2:])
    return in_class and not _is_static(function)


def _is_static(function: cst.FunctionDef) -> bool:
    """Is ``function`` decorated ``@staticmethod`` (called on an object or the class, with no
    parameter bound)?"""
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod" for d in function.decorators)


def _position(function: cst.FunctionDef, param: cst.Param, method: bool) -> Optional[int]:
    positional = [*function.params.posonly_params, *function.params.params]
    if not any(param is p for p in positional):
        return None
    index = next(i for i, p in enumerate(positional) if p is param)
    return index - 1 if method else index


_SELF_ASSIGNMENT_KINDS = node_kinds(cst.Assign, cst.FunctionDef, cst.For, cst.Call)


def _self_assignments(
    function: cst.FunctionDef, me: Optional[str], attr: str, memo: Dict[int, Dict[str, List[cst.BaseExpression]]]
) -> List[cst.BaseExpression]:
    """The values ``function`` assigns to ``<me>.<attr>`` (every attribute of ``me`` indexed
    in one walk of the function, the first time one is asked for)."""
    if me is None:
        return []
    index = memo.get(id(function))
    if index is None:
        index = {}
        stack: List[Tuple[cst.CSTNode, bool]] = [(function.body, False)]
        every_parameter = False
        while stack:
            node, over_locals = stack.pop()
            if type(node) not in _SELF_ASSIGNMENT_KINDS:
                pass
            elif isinstance(node, cst.Assign):
                # (``self.shuffle_train, self.shuffle_val = shuffle_train, shuffle_val``: each its
                # own; an element of what a call returns, ``self.a, self.b = f()``, is unknown, as
                # the call's value is)
                for t, value in assigned_pairs(node):
                    for element in (e.value for e in t.elements) if isinstance(t, (cst.Tuple, cst.List)) else (t,):
                        if isinstance(element, cst.StarredElement):
                            element = element.value
                        if isinstance(element, cst.Attribute) and isinstance(element.value, cst.Name) and element.value.value == me:
                            index.setdefault(element.attr.value, []).append(value)  # type: ignore[arg-type]
            elif isinstance(node, cst.FunctionDef) and node is not function:
                continue
            elif isinstance(node, cst.For) and _mentions_locals(node.iter):
                over_locals = True  # ``for k, v in dict(locals()).items():``
            elif isinstance(node, cst.Call) and _stores_locals(node, me, over_locals):
                every_parameter = True
            stack.extend((child, over_locals) for child in syntax_children(node))
        if every_parameter:
            # ``setattr(self, k, v)`` over the function's ``locals()`` (DeepRank-GNN, nequip):
            # each parameter's own value, as ``self.shuffle = shuffle`` would store it
            for param in _all_params(function):
                if param.name.value != me:
                    index.setdefault(param.name.value, []).append(param.name)
        memo[id(function)] = index
    return index.get(attr, [])


#: methods that change a list, dict or set in place
_IN_PLACE = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard", "setdefault", "popitem", "sort", "reverse"}
)
#: builtins that read a container without changing it
_READERS = frozenset(
    {"len", "bool", "print", "isinstance", "str", "repr", "sorted", "list", "tuple", "set", "dict", "enumerate", "zip",
     "sum", "min", "max", "any", "all", "iter", "range", "type", "id", "hash", "format", "reversed"}
)


def _changed_in_place(held: cst.BaseExpression, chain: "Chain", module: cst.Module) -> bool:
    """Whether the list, dict or set that ``held`` (a name, or ``self.<attr>``) holds may change
    size after it is built: a mutating method called on it (``self.data.append(x)``), an item
    stored or deleted (``data[k] = v``), ``+=``, or the container handed to a function called by
    its plain name (``fill(data)``; not a reading builtin, nor a class). Looked for in the
    function that uses the name (the module, at top level), or in every method of the class for
    ``self.<attr>``. Anything else held (``len(get())``) counts as changed, so its size stays
    unknown."""
    if isinstance(held, cst.Name):
        scope: cst.CSTNode = next((n for n in reversed(chain) if isinstance(n, cst.FunctionDef)), module)

        def same(node: cst.CSTNode) -> bool:
            return isinstance(node, cst.Name) and node.value == held.value
    elif isinstance(held, cst.Attribute) and isinstance(held.value, cst.Name):
        owner = next((n for n in reversed(chain) if isinstance(n, cst.ClassDef)), None)
        if owner is None:
            return True
        scope = owner
        attr = held.attr.value

        def same(node: cst.CSTNode) -> bool:
            return isinstance(node, cst.Attribute) and node.attr.value == attr and isinstance(node.value, cst.Name)
    else:
        return True
    stack: List[cst.CSTNode] = [scope]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _IN_PLACE and same(func.value):
                return True
            # handed to a function of the program's own (``fill(data)``); a library's calls and the
            # reading builtins only read it (``DataParallel(model, device_ids=gpus)``, ``len``)
            fills = isinstance(func, cst.Name) and func.value not in _READERS and not func.value[:1].isupper()
            if fills and any(same(arg.value) for arg in node.args):
                return True
        elif isinstance(node, (cst.Assign, cst.AugAssign, cst.Del)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                if isinstance(node, cst.AugAssign) and same(target):
                    return True
                if isinstance(target, cst.Subscript) and same(target.value):
                    return True
        stack.extend(syntax_children(node))
    return False


def _mentions_locals(node: cst.CSTNode) -> bool:
    """Does ``node`` call ``locals()``?"""
    stack: List[cst.CSTNode] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.Call) and isinstance(item.func, cst.Name) and item.func.value == "locals" and not item.args:
            return True
        stack.extend(syntax_children(item))
    return False


def _stores_locals(call: cst.Call, me: str, over_locals: bool) -> bool:
    """Is ``call`` ``setattr(me, k, v)`` or ``me.__setattr__(k, v)`` in a loop over
    ``locals()`` or given a value of ``locals()`` (``setattr(self, key, locals()[key])``), or
    ``me.__dict__.update(locals())``?"""
    func, args = call.func, [a.value for a in call.args if a.keyword is None and not a.star]
    if isinstance(func, cst.Name) and func.value == "setattr" and len(args) == 3:
        target, value = args[0], args[2]
    elif isinstance(func, cst.Attribute) and func.attr.value == "__setattr__" and len(args) == 2:
        target, value = func.value, args[1]
    elif (
        isinstance(func, cst.Attribute) and func.attr.value == "update" and len(args) == 1
        and isinstance(func.value, cst.Attribute) and func.value.attr.value == "__dict__"
    ):
        target, value = func.value.value, args[0]
    else:
        return False
    return isinstance(target, cst.Name) and target.value == me and (over_locals or _mentions_locals(value))


def _option(call: cst.Call, chain: Chain, options: Dict[str, List[Tuple[cst.BaseExpression, Chain]]]) -> None:
    """Record ``parser.add_argument("--num-workers", default=4)`` as ``num_workers -> 4``."""
    flags = [string_value(a.value) for a in call.args if a.keyword is None and not a.star]
    if not flags or any(f is None for f in flags):
        return
    keywords: Dict[str, Any] = {}
    for arg in call.args:
        if arg.keyword is None:
            continue
        key = arg.keyword.value
        if key == "default":
            keywords[key] = arg.value
        elif key in ("dest", "action", "nargs"):
            keywords[key] = string_value(arg.value)
        elif key == "required":
            keywords[key] = cst_literal(arg.value)
    declared = option_default(flags, keywords)  # type: ignore[arg-type]
    if declared is None:
        return
    dest, default = declared
    if not isinstance(default, cst.BaseExpression):
        default = cst.Name(repr(default))  # False, True or None
    options.setdefault(dest, []).append((default, chain))


def _module_kind(qualified: Optional[str]) -> Optional[str]:
    if qualified is None:
        return None
    head = qualified.split(".", 1)[0]
    return NUMPY if head == "numpy" else TORCH if head in ("torch", "torch_npu") else None


def _counts(call: cst.Call, weights: Tuple[str, int], method: bool) -> bool:
    """Is a ``bincount`` call given no weights (so its result is an int64 tensor of counts)?
    ``weights``: the keyword, and its position in the function form (one less for a method)."""
    keyword, position = weights
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args):
        return False
    return not any(a.keyword is not None and a.keyword.value == keyword for a in call.args) and len(positional) <= position - (1 if method else 0)


def _integer_method(call: cst.Call, qualify: Qualify) -> bool:
    """``x.long()``, ``x.bool()``, ``x.to(torch.long)``, ``x.to(dtype=torch.int)``, ``x.argmax()``,
    ``x.ge(0)``."""
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method in INTEGER_CASTS:
        return not call.args
    if method in INDEX_RESULTS or method in BOOL_RESULTS:
        return True
    if method in COUNT_RESULTS:
        return _counts(call, COUNT_RESULTS[method], method=True)
    if method in ("to", "type"):
        dtype = next(
            (a.value for a in call.args if (a.keyword is None and not a.star) or (a.keyword is not None and a.keyword.value == "dtype")),
            None,
        )
        return dtype is not None and qualify(dtype) in INTEGER_DTYPES
    return False


def _keyword(call: cst.Call, name: str) -> Optional[cst.BaseExpression]:
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def _moved(call: cst.Call) -> bool:
    """``x.to(other.device)``, ``x.to("cuda")``, ``x.to(device=d)``: a move to a device, which
    keeps the dtype (``x.to(other)`` takes ``other``'s dtype, and is not one)."""
    if call.func.attr.value != "to" or not call.args:  # type: ignore[attr-defined]
        return False
    for arg in call.args:
        if arg.star:
            return False
        if arg.keyword is not None:
            if arg.keyword.value not in ("device", "non_blocking", "copy"):
                return False
        elif not (string_value(arg.value) is not None or (isinstance(arg.value, cst.Attribute) and arg.value.attr.value == "device")):
            return False
    return True


def _is_shape(expr: cst.BaseExpression) -> bool:
    """A tensor's shape, or integers taken from it: ``x.shape``, ``x.size()``, ``x.shape[2:]``,
    ``x.size(0)``, ``[h, w]`` of such or of integer literals."""
    if isinstance(expr, cst.Subscript):
        return _is_shape(expr.value)
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == SHAPE_ATTRIBUTE
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Attribute) and expr.func.attr.value == SHAPE_METHOD
    if isinstance(expr, (cst.List, cst.Tuple)):
        return bool(expr.elements) and all(
            isinstance(e, cst.Element) and (isinstance(e.value, cst.Integer) or _is_shape(e.value)) for e in expr.elements
        )
    return False


def _appended(function: cst.FunctionDef, function_chain: Chain, name: str, reader: cst.Call, reader_chain: Chain) -> Optional[List[Tuple[cst.BaseExpression, Chain]]]:
    """What ``function`` appends to its local list ``name`` (``name.append(x)``) before
    ``reader`` (the call asking, under ``reader_chain``) reads it, or anywhere in a loop around
    that call, each with its chain; None when it changes the list in another way there
    (``extend``, ``insert``, ``+=``, an item assignment) or hands it to other code than
    ``reader`` and ``len``, which may. Uses after the read (a name rebound to the result) do not
    count."""
    loops = {id(n) for n in reader_chain if isinstance(n, (cst.For, cst.While))}
    found: List[Tuple[cst.BaseExpression, Chain]] = []
    read = False
    stack: List[Tuple[cst.CSTNode, Chain]] = [(function.body, function_chain + (function,))]
    while stack:
        node, chain = stack.pop()
        if node is reader:
            read = True
        if isinstance(node, cst.Name) and node.value == name:
            if read and not any(id(n) in loops for n in chain):
                continue  # after the read, outside its loops
            parent = chain[-1] if chain else None
            grand = chain[-2] if len(chain) > 1 else None
            if isinstance(parent, cst.Attribute) and parent.value is node and isinstance(grand, cst.Call) and grand.func is parent:
                method = parent.attr.value
                if method == "append" and len(grand.args) == 1 and grand.args[0].keyword is None and not grand.args[0].star:
                    found.append((grand.args[0].value, chain[:-2]))
                elif method in ("extend", "insert", "__setitem__", "__iadd__"):
                    return None
                continue  # another method: reads it
            if isinstance(parent, cst.Arg) and isinstance(grand, cst.Call):
                if grand is not reader and not (isinstance(grand.func, cst.Name) and grand.func.value == "len"):
                    return None  # handed to other code
            elif isinstance(parent, cst.AugAssign) or (isinstance(parent, cst.Subscript) and isinstance(grand, cst.AssignTarget)):
                return None  # ``name += [...]``, ``name[i] = ...``
            continue
        inner = chain + (node,)
        stack.extend((child, inner) for child in reversed(syntax_children(node)))
    return found


def _joined(kinds: Set[Optional[str]]) -> Optional[str]:
    """The kind of a value that may be any of ``kinds``: their one kind, a tensor (not visibly
    integral) when one of them is a tensor, else not known."""
    if len(kinds) > 1:
        kinds = kinds - {_SAME_AS_ITSELF}
    if len(kinds) == 1:
        return next(iter(kinds))
    return TORCH if kinds & {TORCH, INTEGER} else None


def is_dict_display(node: Any) -> bool:
    """A dict display without ``**`` parts, or a ``dict(k=v, ...)`` call: a mapping whose every
    entry can be read (:func:`dict_entries`)."""
    if isinstance(node, cst.Dict):
        return all(isinstance(e, cst.DictElement) for e in node.elements)
    return isinstance(node, cst.Call) and dotted_name(node.func) == "dict" and all(a.keyword is not None for a in node.args)


def dict_entries(node: Any) -> Dict[str, cst.BaseExpression]:
    """The entries of a dict display or a ``dict(k=v, ...)`` call, by key; empty for anything
    else (a ``**`` part, a call with positional arguments)."""
    if not is_dict_display(node):
        return {}
    if isinstance(node, cst.Dict):
        return {string_value(e.key) or "": e.value for e in node.elements}  # type: ignore[union-attr]
    return {a.keyword.value: a.value for a in node.args}  # type: ignore[union-attr]


def _items_only_read(scope: cst.CSTNode, name: str) -> bool:
    """Every use of ``name`` in ``scope`` binds it or reads an item of it (``name[k]``, not as
    an assignment or ``del`` target), or is ``len(name)``: nothing changes its items."""
    stack: List[Tuple[cst.CSTNode, Chain]] = [(scope, ())]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, cst.Name) and node.value == name:
            parent = chain[-1] if chain else None
            grand = chain[-2] if len(chain) > 1 else None
            if isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.Param) and parent.name is node):
                continue
            if isinstance(parent, cst.Subscript) and parent.value is node:
                if isinstance(grand, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
                    return False  # ``name[k] = ...``, ``del name[k]``
                continue
            if isinstance(parent, cst.Arg) and isinstance(grand, cst.Call) and dotted_name(grand.func) == "len":
                continue
            if isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
                continue
            return False  # a method call, handed to other code, stored elsewhere
        inner = chain + (node,)
        stack.extend((child, inner) for child in syntax_children(node))
    return True


def _annotated_kind(param: cst.Param, qualify: Qualify) -> Optional[str]:
    """``x: np.ndarray`` or ``x: torch.Tensor``."""
    if param.annotation is None:
        return None
    annotation = param.annotation.annotation
    if isinstance(annotation, (cst.Name, cst.Attribute)):
        qualified = qualify(annotation)
        if qualified in ("numpy.ndarray", "numpy.typing.NDArray"):
            return NUMPY
        if qualified in ("torch.Tensor", "torch.nn.Parameter"):
            return TORCH
    return None


# -- arithmetic on candidates --------------------------------------------------------------------

#: ``str`` methods whose result :meth:`Values.of` computes from known strings
_STRING_METHODS = frozenset({"startswith", "endswith", "lower", "upper", "casefold", "strip", "lstrip", "rstrip"})

_COMPARE: Dict[type, Callable[[Any, Any], Any]] = {
    operator: COMPARISONS[spelling]
    for operator, spelling in (
        (cst.Equal, "=="), (cst.NotEqual, "!="), (cst.Is, "is"), (cst.IsNot, "is not"), (cst.LessThan, "<"),
        (cst.LessThanEqual, "<="), (cst.GreaterThan, ">"), (cst.GreaterThanEqual, ">="), (cst.In, "in"), (cst.NotIn, "not in"),
    )
}


def _literal_display(expr: cst.BaseExpression) -> Candidates:
    """``["train"]``, ``("val", "test")``: a list, tuple or set display of literals, as the one
    value a membership test (``split in ["train"]``) compares with; else None."""
    if not isinstance(expr, (cst.List, cst.Tuple, cst.Set)) or any(isinstance(e, cst.StarredElement) for e in expr.elements):
        return None
    values = tuple(cst_literal(e.value) for e in expr.elements)
    return None if UNKNOWN in values else [Const(values)]


def _map(values: Candidates, op: Callable[[Any], Any]) -> Candidates:
    """``op`` over known values; OPEN (a caller we cannot see) stays open."""
    if values is None or not all(isinstance(v, Const) or v is OPEN for v in values):
        return None
    return _dedupe([Const(op(v.value)) if isinstance(v, Const) else OPEN for v in values])


#: the arithmetic operators folded over numbers known on every path (a power only with a small
#: exponent, so that nothing huge is computed)
_ARITHMETIC: Dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.Divide: lambda a, b: a / b,
    cst.FloorDivide: lambda a, b: a // b,
    cst.Modulo: lambda a, b: a % b,
    cst.Power: lambda a, b: a**b if abs(b) <= 64 else _too_large(),
    # (a clock's seed folded to 32 bits, ``int(time.time()) & 0xFFFF``, is still drawn)
    cst.BitAnd: lambda a, b: a & b,
    cst.BitOr: lambda a, b: a | b,
    cst.BitXor: lambda a, b: a ^ b,
    cst.LeftShift: lambda a, b: a << b if 0 <= b <= 64 else _too_large(),
    cst.RightShift: lambda a, b: a >> b,
}
#: the augmented assignments' operators, as the binary operators of :data:`_ARITHMETIC`
_AUGMENTED: Dict[type, type] = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide, cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
}
#: tensor methods whose result is on the tensor's own device (conversions of dtype, copies and
#: views): ``made_on_cpu`` follows them to their receiver
#: methods of a module or a tensor that return it (changed), never the parsed options
_RETURN_THE_OBJECT = frozenset({"to", "cuda", "cpu", "npu", "eval", "train", "requires_grad_", "share_memory"})
_STAYS_ON_DEVICE = frozenset({
    "float", "double", "half", "bfloat16", "int", "long", "short", "bool", "byte", "detach", "clone", "contiguous",
    "view", "reshape", "flatten", "squeeze", "unsqueeze", "permute", "transpose", "t", "abs", "exp", "log", "sqrt",
})
#: torch functions whose result is on their first argument's device when given no ``device``
#: (``torch.unique_consecutive(sizes, return_counts=True)``, ``torch.zeros_like(x)``)
_FUNCTIONS_ON_INPUT_DEVICE = frozenset(
    f"torch.{name}"
    for name in (
        "flatten", "squeeze", "unsqueeze", "permute", "transpose", "t", "abs", "exp", "log", "sqrt", "clone", "reshape",
        "unique", "unique_consecutive", "sort", "argsort", "cumsum", "cumprod", "sum", "mean", "prod", "diff", "flip",
        "roll", "as_tensor", "zeros_like", "ones_like", "empty_like", "full_like", "topk", "argmax", "argmin",
    )
)
def _may_be_scalar_tensor(expr: cst.BaseExpression, qualify: Qualify) -> bool:
    """``torch.tensor(2.0)`` and the like: a tensor that may have no dimensions, which torch
    lets a CPU one join a CUDA tensor's arithmetic (``torch.tensor([1, 2])``, a display, has one)."""
    if not isinstance(expr, cst.Call) or qualify(expr.func) not in ("torch.tensor", "torch.as_tensor", "torch.scalar_tensor"):
        return False
    first = expr.args[0].value if expr.args else None
    return not isinstance(first, (cst.List, cst.Tuple, cst.ListComp))


#: attributes of a tensor that are a tensor on its own device (``x.data``, ``x.T``)
_SAME_TENSOR_ATTRIBUTES = frozenset({"data", "T", "mT", "H", "mH", "real", "imag"})
#: methods that give an array's or a tensor's numbers as they are (``.item()``, ``.tolist()``), or a clock's (``datetime.now().timestamp()``)
_TAKES_THE_VALUE = _STAYS_ON_DEVICE | frozenset({"item", "tolist", "numpy", "cpu", "timestamp"})
#: at most this many pairs of known values are folded
_MAX_ARITHMETIC = 16


def _loop_values(name: str, chain: Chain) -> Candidates:
    """The literals that the innermost loop or comprehension binding ``name`` around the use
    goes over (``for split in ["train", "val", "test"]``), when it goes over a display of
    literals and a ``for`` statement's body does not rebind it; else None."""
    for at in range(len(chain) - 1, -1, -1):
        node = chain[at]
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            clause: Optional[cst.CompFor] = node.for_in
            while clause is not None:
                if isinstance(clause.target, cst.Name) and clause.target.value == name:
                    return _literal_elements(clause.iter)
                clause = clause.inner_for_in
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return None
        elif isinstance(node, cst.For) and at + 1 < len(chain) and chain[at + 1] is node.body:
            if isinstance(node.target, cst.Name) and node.target.value == name:
                memo: Dict[int, FrozenSet[str]] = {}
                if any(_rebinds(stmt, name, memo) for stmt in _statements(node.body)):
                    return None
                return _literal_elements(node.iter)
    return None


def _rebinds(stmt: cst.CSTNode, name: str, memo: Dict[int, FrozenSet[str]]) -> bool:
    """Whether statement ``stmt`` may bind ``name`` (an assignment of a simple statement,
    else as :func:`_may_bind` reads a compound one)."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return _may_bind(stmt, name, memo)
    return any(name in target_names(target) for small in stmt.body for target in assigned_targets(small))


def _literal_elements(iterated: cst.BaseExpression) -> Candidates:
    """The elements of a list, tuple or set display of literals, else None."""
    if not isinstance(iterated, (cst.List, cst.Tuple, cst.Set)) or not iterated.elements:
        return None
    found: List[Candidate] = []
    for element in iterated.elements:
        literal = cst_literal(element.value) if isinstance(element, cst.Element) else UNKNOWN
        if literal is UNKNOWN:
            return None
        found.append(Const(literal))
    return _dedupe(found)


def drawing_call(expr: Any) -> Any:
    """The call whose numbers ``expr`` takes as they are (``torch.randint(2**31, (1,))[0].item()``:
    the ``torch.randint`` call); ``expr`` itself for anything else."""
    while True:
        if isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _TAKES_THE_VALUE:
            expr = expr.func.value
        else:
            return expr


def _too_large() -> Any:
    raise ArithmeticError("exponent too large to fold")


def _numbers(found: Candidates) -> bool:
    """Is every value in ``found`` a known int or float (not a bool)?"""
    return bool(found) and all(
        isinstance(v, Const) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool) for v in found  # type: ignore[union-attr]
    )


def _combine(left: Candidates, right: Candidates, op: Callable[[Any, Any], Any]) -> Candidates:
    """``op`` over every pair of known values; an OPEN operand makes the result open too."""
    if left is None or right is None:
        return None
    if not all(isinstance(v, Const) or v is OPEN for v in left + right):
        return None
    try:
        found: List[Candidate] = [Const(op(a.value, b.value)) for a in left for b in right if isinstance(a, Const) and isinstance(b, Const)]
    except TypeError:  # ``None >= 0``: the program would fail there, or we misread a value
        return None
    if any(v is OPEN for v in left + right):
        found.append(OPEN)
    return _dedupe(found)
