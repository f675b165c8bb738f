"""Module facts: what one module imports, defines, calls, seeds and uses, from one pass of
Python's ``ast`` (fast, serialisable, never running the user's code).

The project context (:mod:`repro_lint.context`) builds the call graph from these facts. A
body is a function or method, a module's top level (``<module>``) or its ``__main__`` block
(``<main>``); every call is classified where it is made (:mod:`repro_lint.classify`).

It is one module because the facts come from one visitor in one pass over the tree (the
context's cold time on large projects is mostly this pass): splitting the visitor would mean
walking each tree more than once.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union

from ._gc import GCPaused
from .classify import (
    ALL_GENERATORS, DEVICE_KEYWORD_NAMES, DEVICE_USES, ENTROPY, INIT, LOAD, NO_EFFECT, PRETRAINED, SHUFFLES, OPTION_DEVICE, PLACES, SCRIPT_WORDS, TRAIN, TRAIN_MARKERS, TRAINING_METHODS, UNNAMED, classify_call, is_device_name, library_method, is_seed_parameter, LIGHTNING_ACCELERATORS, setting_device,
)
from .catalog import (
    ENVIRONMENT_NAME,
    OTHER_RUNTIMES,
    SEEDED_DRAWS,
    NOT_NONE_HELPERS,
    ENTROPY_RESEEDS,
    ACCELERATOR_PREFIXES,
    CUDNN_DETERMINISTIC,
    DATALOADERS,
    loader_position,
    DETERMINISM_SWITCHES,
    LOADER_WORD,
    CLI_DISPATCHERS,
    CLICK_OPTIONS,
    STAR_BOUND_LIBRARIES,
    TYPER_OPTIONS,
    CLI_APPS,
    CLI_GROUPS,
    CLI_GROUP_METHODS,
    DEVICE_MODULES,
    NCCL_AS_HCCL,
    NCCL_TO_HCCL_MODULES,
    DEVICE_CONSTRUCTORS,
    EMPTY_WEIGHT_CONTEXTS,
    PARTIALS,
    DEVICE_INFO_CALLS,
    DEVICE_QUERIES,
    ENV_SWITCHES,
    ENVIRON,
    ENVIRON_SETTERS,
    NOT_TRAINING_FIT,
    RNG_ISOLATION,
    OPTION_DECLARATION,
    OPTION_DEFAULTS,
    SEED_HELPERS,
    STATE_GETTERS,
    WORKER_CALLBACKS,
    PROCESS_POOLS,
    device_named,
    public_name,
    initialises_weights,
    is_on,
    LIGHTNING_LOADER_CALLS,
)
from .names import resolve_relative
from .opcatalog import (
    BUILT_INSIDE, LIBRARY_HEADS, RESHAPES, SEGMENTATION_LOSS_MODULES, SEGMENTATION_RANK, SPATIAL_INPUTS, SPATIAL_LOSS_MODULES, OpCall, VisibleRank,
    index_by_name, library_head_op, op_names, spatial_rank,
)
from .source import in_code, is_name_char
from .syntax import CONSTANT_LINE, DICT_METHODS, MERGE, MISSING, NEGATED, UNKNOWN, AstArgs, DictScopes, Item, ast_literal, ast_module, is_main_guard_ast, names_feeding, option_default

MODULE_BODY = "<module>"
MAIN_BODY = "<main>"
#: a module's top level as an ``import`` runs it: its own calls, not the modules it imports
IMPORTED_BODY = "<imported>"
#: a class node: building an instance (``__init__``); an instance node: every method (a class
#: handed to a framework, which builds it and calls them); an object node: every method but
#: those that build it (an object built already, handed on: ``runner.run(agent)``)
CLASS_PREFIX = "class "
INSTANCE_PREFIX = "instance "
OBJECT_PREFIX = "object "
#: the methods that building an instance, and calling it, run
CONSTRUCTION_METHODS = ("__new__", "__init__", "__post_init__")
#: what a method's test of an attribute its object's ``__init__`` kept from a parameter is
#: recorded as a test of (:attr:`ModuleFacts.kept_parameters`): ``self.method``
ATTRIBUTE_GUARD = "self."
CALL_METHODS = ("__call__", "forward")


#: in :attr:`BodyFacts.device_params`: the default is the import-qualified project variable
#: that follows (``algorithms.common.DEFAULT_DEVICE``)
DEVICE_VARIABLE = "\0variable:"


@dataclass(eq=False)
class BodyFacts:
    """One body of code: a function or method, a module's top level, or its ``__main__`` block."""

    name: str
    #: callee names in source order: import-qualified where the head was imported, else as written
    calls: List[str] = field(default_factory=list)
    #: the names in ``calls`` that were qualified through an import
    imported: Set[str] = field(default_factory=set)
    #: names passed as arguments (callbacks: ``mp.spawn(main_worker)``, ``Thread(target=run)``)
    refs: List[str] = field(default_factory=list)
    #: in a construction method, the objects built and handed into what it stores on ``self``
    #: (``self.transform = Compose([Blur()])``): used by the object's other methods, where
    #: they run (in DataLoader workers when the object is a dataset's transform), not when it is built
    held_refs: List[str] = field(default_factory=list)
    #: the refs handed to a callback that runs in DataLoader worker processes
    #: (``worker_init_fn=partial(init_fn, seed=seed)``): what they seed is not the main process's
    worker_refs: Set[str] = field(default_factory=set)
    #: attributes looked up by name on an imported module (``getattr(presets, args.agent)``):
    #: (the module, qualified; the name when a literal; the ``add_argument`` destination whose
    #: default names it when the name is an option, ``args.agent``)
    lookups: List[Tuple[str, Optional[str], Optional[str]]] = field(default_factory=list)
    #: what the known calls and assignments of this body do by themselves
    effects: Set[str] = field(default_factory=set)
    uses: Set[str] = field(default_factory=set)
    draws: Set[str] = field(default_factory=set)
    #: device -> how many times this body shows it is used (calls, device strings, imports):
    #: the whole evidence, so that leaving out some calls can tell whether any is left
    device_events: Dict[str, int] = field(default_factory=dict)
    #: the class a method (or a function nested in a method) belongs to
    owner: Optional[str] = None
    line: int = 0
    #: makes a training call itself (``loss.backward()``, ``optimizer.step()``)
    trains: bool = False
    #: has an ``if`` statement of its own (a branch the default path may skip)
    branches: bool = False
    #: a method whose body only says it is not implemented (``raise NotImplementedError``,
    #: ``pass``, ``...``): a call of it on ``self`` runs a subclass's override
    abstract: bool = False
    #: device -> how many of ``device_events`` are inside an ``if`` of the body's own whose test
    #: the values may decide (:func:`_decidable_test`)
    conditional_devices: Dict[str, int] = field(default_factory=dict)
    #: the indexes in ``calls`` of the calls inside such an ``if``
    conditional_calls: Set[int] = field(default_factory=set)
    #: local names bound to the result of a call (``model = Net()``): name -> the callees, as
    #: stored in ``calls``, one per class it is bound to (``A()`` in one branch, ``B()`` in
    #: another); lets the call graph follow ``model.fit()`` to ``Net.fit``
    instances: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    #: local names bound to what a function returns (``sampler = make_sampler(name)``): name ->
    #: the callee, kept only for names a method is called on (``sampler.sample()``), which the
    #: call graph follows to the classes the function returns
    made_by: Dict[str, str] = field(default_factory=dict)
    #: the classes a function returns an instance of (``return Uniform(...)``, or a local
    #: bound to one), named as the callees in ``calls``
    returns: List[str] = field(default_factory=list)
    #: a function's positional parameters (``self``/``cls`` left out) and literal defaults
    params: Tuple[str, ...] = ()
    defaults: Dict[str, Any] = field(default_factory=dict)
    #: effects made only under ``if <parameter>:`` (``if deterministic: ...``), by parameter;
    #: under ``if "seed" in kwargs:``, by the keyword (whose default is :data:`ABSENT_KEYWORD`)
    guarded: Dict[str, Set[str]] = field(default_factory=dict)
    #: the literal arguments of calls with arguments (index in ``calls`` -> positional values,
    #: keyword values; :data:`~repro_lint.syntax.UNKNOWN` where not a literal)
    call_literals: Dict[int, Tuple[Tuple[Any, ...], Dict[str, Any]]] = field(default_factory=dict)
    #: parameters whose default names an accelerator and that the function uses as a device
    #: (``def train(device="cuda:0")``): parameter -> device; a call that passes another device
    #: (``train(device="cpu")``) does not run there; a default that is a project module's
    #: variable (``device=DEFAULT_DEVICE``, imported) is :data:`DEVICE_VARIABLE` and its name,
    #: which the project context reads
    device_params: Dict[str, str] = field(default_factory=dict)
    #: every parameter name of a function (``self`` and ``*args`` included): they shadow the
    #: names of enclosing scopes
    local_params: FrozenSet[str] = frozenset()
    #: calls that pass a device string by position (``Visualizer(3, "cuda:0" if ok else "cpu")``):
    #: index in ``calls`` -> the accelerator each positional argument names (None where none);
    #: the project context checks whether the callee's parameter there is a device
    call_devices: Dict[int, Tuple[Optional[str], ...]] = field(default_factory=dict)

    # Fields that few bodies fill are class attributes, not dataclass fields: a body that fills
    # one gets an attribute of its own (by assignment, never by mutation). CPython shares one
    # table of keys between the attribute dicts of a class's instances only up to 30 keys; past
    # that, every body of torch's source (51,000) takes a dict of its own, 1.3 KB more each.
    #: the refs handed to a command-line dispatcher (``fire.Fire(train)``,
    #: ``catalog.CLI_DISPATCHERS``), which calls them with the options given: with their
    #: defaults on the default path
    cli_refs: ClassVar[FrozenSet[str]] = frozenset()
    #: the parameters whose default a click decorator gives (``@click.option("--seed",
    #: default=None)``), which only the facts read: the project context leaves out what the
    #: default turns off where a command-line library calls the function (``ProjectContext._command_variant``)
    click_defaults: ClassVar[FrozenSet[str]] = frozenset()
    #: for a parameter of ``guarded`` tested by a comparison with a literal instead (``if seed >
    #: 0:``, ``if seed is not None:``): the operator's name and the literal (``("?", None)``
    #: when it is tested in different ways)
    guard_tests: ClassVar[Mapping[str, Tuple[str, Any]]] = MappingProxyType({})
    #: the generators used (and those drawn from) only under ``if <parameter>:``, or in the
    #: branch ``A if <parameter> else B`` takes when it holds (``RandomHorizontalFlip() if
    #: training else ToTensor()``), by parameter: a call that turns the parameter off uses none
    #: the refs of objects built where they are handed on (``DataLoader(Images(paths))``), or of
    #: classes only looked at (``isinstance(dm, DataModule)``): the class is not handed on to be
    #: called elsewhere, with arguments that cannot be read
    built_refs: ClassVar[FrozenSet[str]] = frozenset()
    #: the refs handed to a DataLoader as its dataset (``DataLoader(ds)``): a local bound to
    #: what a call made (``ds = build_dataset(cfg)``) is followed to the classes it may hold,
    #: whose dataset methods the loader calls
    dataset_refs: ClassVar[FrozenSet[str]] = frozenset()
    #: the calls (by index in ``calls``) given the function's own ``**kwargs`` (``super().__init__(
    #: **kwargs)``), with the keywords they also pass by name: a keyword its callers pass and
    #: that neither it nor the call names reaches the callee
    kwargs_forwarded: ClassVar[Mapping[int, FrozenSet[str]]] = MappingProxyType({})
    guarded_uses: ClassVar[Mapping[str, FrozenSet[str]]] = MappingProxyType({})
    #: the calls (by index in ``calls``) made only under ``if <parameter>:`` (``if seed is not
    #: None: self.seed(seed)``), by parameter: a call of the function that turns the parameter
    #: off does not make them
    guarded_calls: ClassVar[Mapping[str, FrozenSet[int]]] = MappingProxyType({})
    guarded_draws: ClassVar[Mapping[str, FrozenSet[str]]] = MappingProxyType({})
    #: in a class's ``__init__``: what it stores on ``self``, by
    #: attribute: a literal, :class:`ParamValue` (``self.mode = mode``), :class:`ParamAttr`
    #: (``self.mode = config.mode``), UNKNOWN (anything else, or stored twice or in a branch)
    self_sources: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    #: the classes a function returns as objects, not built (``return Net``, ``return
    #: REGISTRY[name]`` where ``REGISTRY = {"net": Net, ...}``), named as calls of them would be:
    #: calling what it returns builds one (``get_model_cls(name)(env)``)
    returned_classes: ClassVar[Tuple[str, ...]] = ()
    #: in a module with star imports: the calls (by index in ``calls``) of names it does not
    #: bind, made without arguments (``np.random.seed()``, which reseeds from entropy when
    #: ``np`` is NumPy)
    argless_calls: ClassVar[FrozenSet[int]] = frozenset()
    #: the calls of ``call_literals`` that pass a ``**mapping`` whose entries are not known, and
    #: no ``*args`` (``Crop(size, **paras)``): what their other arguments give, with the key
    #: :data:`~repro_lint.syntax.MERGE` for the mapping; the
    #: mapping may leave any parameter out, so the value on the default path is its default
    mapped_literals: ClassVar[Mapping[int, Tuple[Tuple[Any, ...], Dict[str, Any]]]] = MappingProxyType({})
    #: the names imported from other modules that a call uses as the device (``.to(torch.device(
    #: device_label, 0))`` after ``from settings import device_label``), import-qualified: the
    #: project context reads what their module assigns (a library's name names none)
    device_vars: ClassVar[FrozenSet[str]] = frozenset()
    #: every value the function returns is its module's parsed command-line options
    #: (``return parser.parse_args()``, ``return parser.parse_known_args()[0]``, a local bound
    #: to them): a call of it, ``args = parse_args()`` or ``opt = TrainOptions().parse()``, gives
    #: them (:class:`ParsedOptions` with its ``origin``)
    returns_options: ClassVar[bool] = False
    #: every value the function returns is what another project function returns, by its
    #: import-qualified name (``return self.opt`` after ``opt = self.gather_options()``): the
    #: options, where that one returns them
    returns_origin: ClassVar[str] = ""
    #: the dataset refs of DataLoaders whose ``num_workers`` is an option of the options that
    #: another project function returns (``sets = parse_opts()`` from ``setting.py``, then
    #: ``num_workers=sets.num_workers``): (that function, import-qualified; the option; the
    #: refs), in DataLoader workers where its default is positive (the project context decides)
    option_worker_refs: ClassVar[Tuple[Tuple[str, str, Tuple[str, ...]], ...]] = ()
    #: of :attr:`worker_refs`, those handed only to the workers of loaders given a generator of
    #: their own (``DataLoader(ds, num_workers=2, generator=g)``): each worker seeds Python's,
    #: NumPy's and torch's generators from a seed drawn from ``g``, not from torch's global one
    seeded_worker_refs: ClassVar[FrozenSet[str]] = frozenset()

    # A project holds tens of thousands of bodies (51,000 in torch's source), most of whose
    # fields are empty: sent between processes, only the fields that hold something travel,
    # and the others come back as one shared empty container each, immutable (facts are not
    # changed once extracted), which keeps the parent that the lint workers fork from small.
    def __getstate__(self) -> Dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if value or key == "name"}

    def __eq__(self, other: object) -> bool:
        """Field by field; an empty list is the same as the shared empty tuple."""
        if not isinstance(other, BodyFacts):
            return NotImplemented
        return self.name == other.name and all(
            _same(getattr(self, key), getattr(other, key)) for key in (*_EMPTY_BODY, *_RARE_FIELDS)
        )

    def __setstate__(self, state: Dict[str, Any]) -> None:
        # attribute by attribute, in the fields' order: the instance keeps a key-sharing dict
        self.name = state["name"]
        for key, empty in _EMPTY_BODY.items():
            setattr(self, key, state.get(key, empty))
        for key in _RARE_FIELDS:
            if key in state:
                setattr(self, key, state[key])


#: the class attributes of BodyFacts that a body may set for itself (see its comment): every
#: ``ClassVar`` of its annotations, so that a new one travels between processes too
_RARE_FIELDS = tuple(name for name, kind in BodyFacts.__annotations__.items() if "ClassVar" in str(kind))


def _same(one: Any, other: Any) -> bool:
    if isinstance(one, (list, tuple)) and isinstance(other, (list, tuple)):
        return list(one) == list(other)
    return bool(one == other)


#: the empty value of each BodyFacts field, shared and immutable (see ``__setstate__``)
_EMPTY_BODY: Dict[str, Any] = {
    "calls": (), "imported": frozenset(), "refs": (), "held_refs": (), "worker_refs": frozenset(), "lookups": (), "effects": frozenset(),
    "uses": frozenset(), "draws": frozenset(), "device_events": MappingProxyType({}), "owner": None, "line": 0,
    "trains": False, "branches": False, "abstract": False, "conditional_devices": MappingProxyType({}), "conditional_calls": frozenset(),
    "instances": MappingProxyType({}), "made_by": MappingProxyType({}), "returns": (), "params": (),
    "defaults": MappingProxyType({}), "guarded": MappingProxyType({}), "call_literals": MappingProxyType({}),
    "device_params": MappingProxyType({}), "local_params": frozenset(), "call_devices": MappingProxyType({}),
}



@dataclass(frozen=True)
class LoaderClass:
    """A module-level class that derives from a DataLoader: what its own ``__init__`` changes
    (the rules' :class:`~repro_lint.rules.loaders.LoaderSpec` reads it, through
    :meth:`~repro_lint.context.ProjectContext.loader_class`)."""

    #: the base it derives from, import-qualified (a class of this module: ``module.Class``)
    base: str
    #: the parameters it takes by position (None: its ``__init__`` forwards everything, or it
    #: has none, so the base's)
    params: Optional[Tuple[str, ...]] = None
    #: keywords its ``__init__`` passes to the base itself
    fixed: FrozenSet[str] = frozenset()
    #: whether it forwards keywords it does not name (``**kwargs`` passed on to the base's
    #: ``__init__``; one it takes and drops does not reach the loader)
    forwards: bool = True
    #: the literal defaults of the parameters its ``__init__`` passes on to the base under the
    #: same name (``num_workers=1`` then ``super().__init__(num_workers=num_workers)``): what a
    #: call that leaves them out gives the loader
    defaults: Tuple[Tuple[str, Any], ...] = ()


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
    has_main_guard: bool = False
    trains_at_module_level: bool = False
    #: its top level draws random numbers or builds a model (a script, if nothing imports it)
    draws_at_module_level: bool = False
    #: module-level classes that may derive from a DataLoader, by name
    loaders: Dict[str, LoaderClass] = field(default_factory=dict)
    #: module-level dicts of classes (``DATASET_GETTERS = {"cifar10": Cifar10}``), or of the
    #: module's functions defined above them, by name: import-qualified (this module's as
    #: ``module.Class``); another module that imports the dict and calls an entry
    #: (``DATASET_GETTERS[args.dataset](...)``) builds or runs any of them
    tables: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    #: module-level classes that derive from a library class whose construction has an effect:
    #: a seeding class (``catalog.SEED_HELPERS``: ``class MyCLI(LightningCLI)``) or a layer that
    #: initialises its weights at random (``catalog.initialises_weights``: ``class
    #: EmbeddingDropout(nn.Embedding)``), by name: the library class, qualified
    helper_bases: Dict[str, str] = field(default_factory=dict)
    #: the bases of each class that names some (by dotted class name): (name, qualified through
    #: an import?); a method the class does not define is looked up in them
    bases: Dict[str, Tuple[Tuple[str, bool], ...]] = field(default_factory=dict)
    #: the attributes a class's ``__init__`` sets to one of its parameters and that nothing else
    #: in the class sets (``self.method = method``), which another of its methods tests (``if
    #: self.method == "train":``, recorded as a test of ``ATTRIBUTE_GUARD + attribute``, which
    #: each construction of the class decides), by class name: attribute -> parameter
    kept_parameters: Dict[str, Dict[str, str]] = field(default_factory=dict)
    #: the methods a class body binds to another function (``decode = decode_function``), by
    #: ``Class.method``: the function's name, and whether it was qualified through an import
    method_aliases: Dict[str, Tuple[str, bool]] = field(default_factory=dict)
    #: the names its ``__all__`` lists (None: it declares none, or not as literal strings)
    exports: Optional[Tuple[str, ...]] = None
    #: the modules it star-imports (``from .net import *``), qualified, in source order: every
    #: public name of each is bound here (resolved by the project context, where a project
    #: module; a library's are not followed)
    star_imports: Tuple[str, ...] = ()
    #: the dotted modules an ``import a.b`` without ``as`` names (``a.b``): importing them runs
    #: ``a/__init__.py`` and ``a/b.py``, though only ``a`` is bound
    dotted_imports: Tuple[str, ...] = ()
    #: the ``add_argument`` options of the module with a default (given on the default path),
    #: by destination: the default, as a literal (:data:`~repro_lint.syntax.UNKNOWN` where not);
    #: a default set with ``parser.set_defaults(dest=...)`` wins, as in argparse
    options: Dict[str, Any] = field(default_factory=dict)
    #: the attributes the module assigns on names (``args.gpu = ...``);
    #: ``*`` when it may set any (``setattr``, ``vars(args).update``): options whose default
    #: does not hold
    set_attributes: FrozenSet[str] = frozenset()
    #: the last names of what the module calls (``np.random.seed(x)``: ``seed``; a callee that is
    #: neither a name nor an attribute gives none), and of what its imports and alias
    #: assignments (``ms = torch.manual_seed``) bind names to: a rule whose findings all need a
    #: call named with one of its words has none where these hold none of them
    #: (:attr:`~repro_lint.rules.base.Rule.called_words`). Dead branches count (``if False:``).
    #: Kept as one text, each name on a line of its own (``"\nseed\nmanual_seed\n"``): the
    #: gates search it as a text, and it takes a quarter of a set's memory (1.5 MB against 5.8
    #: MB for the facts of torch's 2,284 modules); :meth:`calls` asks it for one name
    called: str = "\n"
    #: of those, the names an import or alias assignment binds under another name (``from
    #: torch.nn.functional import interpolate as up``: ``interpolate``)
    rebound: FrozenSet[str] = frozenset()
    #: the attributes the module's assignments set on a dotted name whose head an import or an
    #: alias assignment binds (any head, after a star import), each as the object's last name
    #: and the attribute on a line of its own (``torch.backends.cudnn.benchmark = True``:
    #: ``cudnn.benchmark``; ``a.b, c.d = 1, 2``: both); dead branches count. A rule that
    #: reports an attribute set on a module it names (RPL201, RPL205) has nothing to report
    #: where none is set so. One text, as :attr:`called`
    assigned: str = "\n"
    #: the calls of a name an op of the catalog has (``F.interpolate(x, mode="nearest")``, also
    #: through ``partial``), with the literal values of their arguments: what the op rules'
    #: :func:`~repro_lint.opcatalog.may_match` reads (dead branches count)
    op_calls: FrozenSet[OpCall] = frozenset()
    #: the length and ``hash`` of the text these facts are of (a process forked from the one
    #: that extracted them sees the same ``hash``), see :meth:`of_text`
    text_key: Tuple[int, int] = (0, 0)

    def calls(self, name: str) -> bool:
        """Is ``name`` one of :attr:`called`?"""
        return f"\n{name}\n" in self.called

    def sets_attribute_on(self, name: str) -> bool:
        """Does an assignment set an attribute on an object named ``name`` (its last name)
        (:attr:`assigned`)?"""
        return f"\n{name}." in self.assigned

    def sets_attribute(self, attribute: str) -> bool:
        """Does an assignment set ``attribute`` on a dotted name (:attr:`assigned`)?"""
        return f".{attribute}\n" in self.assigned

    def of_text(self, text: str) -> bool:
        """Are these the facts of ``text`` (not of another version of the file)?"""
        return self.text_key == (len(text), hash(text))

    def body(self, name: str) -> Optional[BodyFacts]:
        if name in (MODULE_BODY, IMPORTED_BODY):
            return self.module_body
        if name == MAIN_BODY:
            return self.main_body
        return self.functions.get(name)


def _generic_origin(base: ast.expr) -> ast.expr:
    """A base class as written without its type arguments (``Dataset[Sample]``: ``Dataset``);
    :func:`~repro_lint.syntax.cst_generic_origin` reads the concrete syntax tree's the same way."""
    while isinstance(base, ast.Subscript):
        base = base.value
    return base


def has_workers(count: Any) -> bool:
    """Does a DataLoader whose ``num_workers`` is ``count`` (a literal, or an option's default)
    start worker processes? A positive number, also as a string of digits (``default="4"``: a
    number to argparse's ``type=int``, or to ``int(...)``)."""
    if isinstance(count, str) and count.isdigit():
        count = int(count)
    return isinstance(count, int) and not isinstance(count, bool) and count > 0


#: Lightning 1.x's classmethod that builds its class from the parsed options
_ARGPARSE_CONSTRUCTOR = ".from_argparse_args"


def _names_class(name: str) -> bool:
    """Does the (dotted) name name a class, by convention (its last part capitalised)?"""
    return name.rsplit(".", 1)[-1][:1].isupper()


def _handed_back(target: ast.AST, call: ast.Call, position: int) -> bool:
    """Is ``target`` (bound to element ``position`` of what ``call`` returns, or to all of it
    at 0) the name the call is given in that position: ``model, [opt_g, opt_d] =
    amp.initialize(model, [opt_g, opt_d])``, ``model, optimizer, loader =
    accelerator.prepare(model, optimizer, loader)``, ``self.model = torch.compile(self.model)``? Such a
    call hands the object back (prepared, wrapped), and the name keeps standing for it."""
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    given = args[position] if position < len(args) else None
    return given is not None and isinstance(target, (ast.Name, ast.Attribute)) and _dotted(given) is not None and _dotted(given) == _dotted(target)


def _built(value: Optional[ast.AST]) -> Optional[ast.Call]:
    """The call whose result an assignment binds: the value itself, or the object made when
    none is given (``x or Default()``, ``x if x is not None else Default()``)."""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        value = value.values[-1]
    elif isinstance(value, ast.IfExp):
        value = value.body if isinstance(value.body, ast.Call) else value.orelse
    # ``Net(...).to(device)``: an nn.Module's moves and mode switches return the module itself
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in MODULE_SELF_METHODS
        and isinstance(value.func.value, ast.Call)
    ):
        value = value.func.value
    return value if isinstance(value, ast.Call) else None


#: ``nn.Module`` methods that return the module itself (a call of one on a constructor call
#: binds the object built)
#: methods only a model has (not a tensor or a dict): calling one on what ``torch.load``
#: returned shows that the load gave a model
LOADED_MODULE_METHODS = frozenset(
    {"eval", "train", "parameters", "named_parameters", "modules", "named_modules", "children", "state_dict", "zero_grad", "forward"}
)
MODULE_SELF_METHODS = frozenset(
    {"to", "cuda", "cpu", "npu", "train", "eval", "float", "double", "half", "bfloat16", "requires_grad_", "share_memory", "to_empty"}
)


def _dotted(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for a chain of attributes on a name, else None (asked of most callees,
    targets and arguments: a name alone, the most common, costs one type check)."""
    node_type = type(node)
    if node_type is ast.Name:
        return node.id  # type: ignore[attr-defined]
    if node_type is not ast.Attribute:
        return None
    parts = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not ast.Name:
        return None
    parts.append(node.id)  # type: ignore[attr-defined]
    return ".".join(reversed(parts))




def _constructed(node: ast.AST, own_classes: FrozenSet[str] = frozenset()) -> List[str]:
    """What an argument hands on besides a plain name: the classes (by convention,
    capitalised names, or ``own_classes``, the module's, whatever their names:
    ``train_dataset_loader()``) of the objects built in it, and the names it holds, alone, in a
    list, tuple or set, as a dict's values, or in a conditional: ``Net()``, ``[Blur(3),
    Crop(8)]``, ``Blur(3) if blur else None``, ``{"train": train, "eval": evaluate}`` (a
    command table given to ``fire.Fire``), ``[on_epoch_end]``."""
    found: List[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.List, ast.Tuple, ast.Set)):
            stack.extend(item.elts)
        elif isinstance(item, ast.Dict):
            stack.extend(item.values)
        elif isinstance(item, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            stack.append(item.elt)  # ``[Crop(s) for s in sizes]``
        elif isinstance(item, ast.DictComp):
            stack.append(item.value)  # DM-Count's ``{x: Crowd(...) for x in ["train", "val"]}``
        elif isinstance(item, ast.IfExp):
            stack.extend((item.body, item.orelse))
        elif isinstance(item, ast.Starred):
            stack.append(item.value)
        elif isinstance(item, ast.Call):
            name = _dotted(item.func)
            if name is not None and (_names_class(name) or name in own_classes):
                found.append(name)
        elif item is not node:
            name = _dotted(item)
            if name is not None:
                found.append(name)
    return found


#: the call that sets back the state each getter of :data:`STATE_GETTERS` returns (the first
#: one listed, where two take it)
_STATE_SETTERS: Dict[str, str] = {getter: setter for setter, getters in reversed(STATE_GETTERS.items()) for getter in getters}


def _on_self(target: ast.AST) -> bool:
    """``self.<attr>``."""
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"


def _strings_in(node: ast.AST) -> List[str]:
    """The string literals of an expression (``"cpu" if ok else "cuda:0"`` gives both); none
    inside a call, whose result is not those strings (``get_device_name("cuda")``), nor inside
    a comparison, which gives True or False (``x.device.type == "cuda"``)."""
    found: List[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Compare):
            continue
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            found.append(item.value)
        elif isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute) and item.func.attr == "format":
            stack.append(item.func.value)  # ``"npu:{}".format(rank)``: that string, formatted
        elif not isinstance(item, (ast.Call, ast.Lambda)):
            stack.extend(_child_nodes(item))
    return found


#: calls that answer a question about their arguments with a truth value: a string there is
#: what is asked about (``hasattr(model, "cuda")``, ``device.startswith("cuda")``), not a value
_PREDICATE_BUILTINS = frozenset({"hasattr", "isinstance", "issubclass", "callable"})
_PREDICATE_METHODS = frozenset({"startswith", "endswith"})


def _walk_answers(value: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``value`` that may be (part of) what it evaluates to: not those of a
    comparison or of a predicate call (:data:`_PREDICATE_BUILTINS`), which give True or False
    (``cuda = hasattr(model, "cuda")``, ``use_gpu = args.device == "cuda"``)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Compare):
            continue
        if isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id in _PREDICATE_BUILTINS)
            or (isinstance(node.func, ast.Attribute) and node.func.attr in _PREDICATE_METHODS)
        ):
            continue
        yield node
        stack.extend(_child_nodes(node))


def _own_methods(value: ast.AST) -> Tuple[str, ...]:
    """The methods of ``self`` a value is: ``self.sample_heun``, or any value of a dict display
    of them looked up by key (``{"heun": self.sample_heun, "dpm": self.sample_dpm}[self.kind]``),
    named as calls of them are (``self.sample_heun``)."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
        value = value.value
    parts = value.values if isinstance(value, ast.Dict) else [value]
    names = [f"self.{p.attr}" for p in parts if isinstance(p, ast.Attribute) and isinstance(p.value, ast.Name) and p.value.id == "self"]
    return tuple(names) if names and len(names) == len(parts) else ()


def _function_names(value: ast.Dict, functions: Mapping[str, "BodyFacts"]) -> Tuple[str, ...]:
    """The module's functions a dict display holds when every value is one defined above it
    (``DATASET_GETTERS = {"cifar10": get_cifar10}``): calling an entry runs one of them."""
    names = [v.id for v in value.values if isinstance(v, ast.Name) and v.id in functions]
    return tuple(names) if names and len(names) == len(value.values) else ()


#: torch's containers of modules, whose elements a loop over them (or a key) gives back
MODULE_CONTAINERS = frozenset({"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.modules.container.ModuleList", "torch.nn.modules.container.ModuleDict"})
#: the suffix of a name in :attr:`BodyFacts.instances` that stands for the objects a
#: container display bound to the name holds (``agents[*]``), not the name's own object
HELD = "[*]"


def _loop_over(target: ast.AST, iterated: ast.AST) -> Optional[Tuple[str, str]]:
    """(loop variable, container name) of ``for x in xs``, ``for x in xs.values()``, ``for k, x
    in xs.items()`` and ``for i, x in enumerate(xs)``; else None."""
    if isinstance(iterated, ast.Call) and not iterated.keywords and isinstance(iterated.func, ast.Attribute) and not iterated.args:
        method, container = iterated.func.attr, iterated.func.value
        pair = method == "items"
        if method not in ("items", "values"):
            return None
    elif isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and iterated.func.id == "enumerate" and iterated.args:
        container, pair = iterated.args[0], True
    else:
        container, pair = iterated, False
    if pair:
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
            return None
        target = target.elts[1]
    if isinstance(target, ast.Name) and isinstance(container, ast.Name):
        return target.id, container.id
    if isinstance(target, ast.Name) and _on_self(container):
        return target.id, _dotted(container)  # type: ignore[return-value]
    return None


def _class_names(value: Optional[ast.AST]) -> Tuple[str, ...]:
    """The classes (by convention, capitalised names) a name is bound to: ``Loader``,
    ``A if fast else B`` (a ``None`` branch binds nothing callable); none when a branch is
    anything else (a function, a call), or when the value is a dotted name (an import's alias,
    followed through the module's aliases)."""
    if isinstance(value, ast.Name):
        return (value.id,) if _names_class(value.id) else ()
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
        value = value.value  # ``{"none": LocalTrainer, "ddp": DistributedTrainer}[args.backend]``: any of them
    if isinstance(value, ast.Dict):
        # ``model_dict = {"informer": Informer, "stack": InformerStack}``, called by a key (also
        # classes of an imported module: ``{"kitti": datasets.KITTIRAWDataset}``)
        names = [n for n in (_dotted(v) for v in value.values) if n is not None and _names_class(n)]
        return tuple(names) if names and len(names) == len(value.values) else ()
    if not isinstance(value, ast.IfExp):
        return ()
    found: List[str] = []
    for branch in (value.body, value.orelse):
        if isinstance(branch, ast.Constant) and branch.value is None:
            continue
        names = _class_names(branch) if isinstance(branch, (ast.Name, ast.IfExp)) else ()
        if not names:
            return ()
        found.extend(names)
    return tuple(dict.fromkeys(found))


def built_object_name(cls: str) -> Optional[str]:
    """How the facts name an object of class ``cls`` (as written: ``mod.Trainer``) built on the
    spot to call a method of it: ``mod/Trainer()``; None when ``cls`` does not name a class."""
    return cls.replace(".", "/") + "()" if _names_class(cls) else None


def _is_built_method(arg: ast.AST) -> bool:
    """``Collator(params).collate``: a method of an object of a class built on the spot."""
    if not (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Call)):
        return False
    built = _dotted(arg.value.func)
    return built is not None and built_object_name(built) is not None


#: among a scope's constants: a name bound to a generator's state (``state = random.getstate()``),
#: prefixed, with the call that sets that state back (``random.setstate``)
_SAVED_STATE = "\0saved state:"
#: an attribute no literal was set on in the function (see ``_constant``)
_NOT_SET = object()
#: the key under which a scope of :attr:`_FactsCollector.constants` keeps the call whose result
#: a name holds (``args = parse_args()``)
_RETURNED_BY = "\0returned by:"



def _device_in(arg: ast.AST) -> Optional[str]:
    """The accelerator a string inside a positional argument names (``"cuda:0" if ok else
    "cpu"``: cuda), or None (also for ``*args``)."""
    if isinstance(arg, (ast.Starred, ast.Name)):
        return None
    if isinstance(arg, ast.Constant):  # most arguments: a name or a literal, nothing to walk
        return device_named((arg.value,)) if isinstance(arg.value, str) else None
    if _dotted(arg) is not None:
        return None  # ``args.device``: names only
    return device_named([n.value for n in _walk(arg) if isinstance(n, ast.Constant) and isinstance(n.value, str)])


def _string(node: Optional[ast.AST]) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _strings(node: ast.AST) -> Optional[Tuple[str, ...]]:
    """The strings of a list or tuple display of string literals, else None."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    found = tuple(_string(item) for item in node.elts)
    return None if any(item is None for item in found) else found  # type: ignore[return-value]


@dataclass(frozen=True)
class OptionValue:
    """A call's argument ``args.<dest>`` in :attr:`BodyFacts.call_literals`: the default of the
    module's command-line option ``dest`` on the default path, when the module declares one
    (:attr:`ModuleFacts.options`, complete only once the module is read: resolved then)."""

    dest: str


@dataclass(frozen=True)
class ParamValue:
    """A call's argument in :attr:`BodyFacts.call_literals` that is a parameter of the calling
    function, not rebound before the call (``Big(bilinear=bilinear)`` in ``Imagine.__init__``):
    the project context reads it as that parameter's value on the default path (its default,
    where the project's calls of the function leave it)."""

    name: str


@dataclass(frozen=True)
class ParamAttr:
    """What a class's ``__init__`` stores on ``self`` from an attribute of one of its
    parameters (``self.mode = config.mode``, :attr:`BodyFacts.self_sources`): the project
    context reads it from the calls of the class (``Solver(config)`` with the parsed options).
    In :attr:`BodyFacts.call_literals`, a call's argument that is such an attribute of the
    calling function's parameter (``set_random_seed(args.seed)`` in ``def setup_run(args)``)."""

    param: str
    attr: str


@dataclass(frozen=True)
class SelfValue:
    """A call's argument in :attr:`BodyFacts.call_literals` that is ``self.<attr>`` in a method
    that has not stored it itself before the call (``get_loader(path, self.mode)``): the project
    context reads what the class's ``__init__`` stores there (:attr:`BodyFacts.self_sources`)."""

    attr: str


@dataclass(frozen=True)
class ParsedOptions:
    """A call's argument that is the module's parsed command-line options (``Exp(args)`` after
    ``args = parser.parse_args()``) in :attr:`BodyFacts.call_literals`; the project context
    fills in the module's option defaults, by destination, once the module is read."""

    defaults: Tuple[Tuple[str, Any], ...] = ()
    #: in facts, where the options are what a call returned (``args = parse_args()``,
    #: ``main(get_args())``): the function or method called, import-qualified; the context
    #: gives its module's options where that function returns them
    #: (:attr:`BodyFacts.returns_options`), and nothing (UNKNOWN) otherwise
    origin: str = ""

    def default(self, dest: str) -> Any:
        """The default of option ``dest``, else UNKNOWN."""
        return dict(self.defaults).get(dest, UNKNOWN)


#: the calls that return parsed command-line options (``argparse``)
PARSE_CALLS = frozenset({"parse_args", "parse_known_args"})

#: builtins that only look at what they are given (a class named there is not built there, a
#: function handed there is not called)
_INSPECTING = frozenset({"isinstance", "issubclass", "hasattr", "callable", "type", "id", "print", "repr", "str", "format", "len"})


def only_inspects(written: Optional[str], qualified: Optional[str]) -> bool:
    """Does a call (as written, and as its imports qualify it) only look at what it is given,
    never calling a function handed to it: the builtins ``isinstance``, ``hasattr``, ... (not
    imported under that name) and the ``inspect`` module's functions
    (``inspect.getfullargspec(training.run_train)``)?"""
    if qualified is not None:
        return qualified.startswith("inspect.")
    return written in _INSPECTING

#: the uses of a generator that a parameter's test may leave out (see ``BodyFacts.guarded_uses``)
GENERATOR_USES = ALL_GENERATORS

#: what a variable named ``accelerator`` may name (see ``_device_setting``)
_ACCELERATOR_NAMES = LIGHTNING_ACCELERATORS
#: the key in a scope's constants under which a local name's device string is kept
_DEVICE_NAMED = "\0device."
#: what :data:`_DEVICE_NAMED` holds for a local bound to the device of data (no device named)
_FOLLOWS_DATA = ""
#: the key in a scope's constants that says the function has stored ``self.<attr>`` itself
_SELF_STORED = "\0self."
#: how many positional arguments :func:`_literals` gives a call whose ``*args``/``**kwargs`` may pass anything
UNKNOWN_ARGUMENTS = 64
#: the length of the positional arguments of a call with a ``*args`` (:func:`_literals`): those
#: before it, then UNKNOWN up to this length; unlike UNKNOWN_ARGUMENTS, the call is readable
STARRED_ARGUMENTS = UNKNOWN_ARGUMENTS - 1


def _literals(
    call: ast.Call, constant: Callable[[ast.AST], Any], expand: Optional[Callable[[Any], Any]] = None
) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
    """A call's arguments as literal values (positional, keyword), UNKNOWN where not literal
    (``constant``: the literal a name holds, or UNKNOWN); a ``*args`` may pass anything, and so
    may a ``**kwargs`` unless ``expand`` knows every entry of that dict (``kwargs =
    {"num_workers": 4}`` built in the calling function: DeepLab's ``make_data_loader(args,
    **kwargs)``)."""
    starred = next((i for i, a in enumerate(call.args) if isinstance(a, ast.Starred)), None)
    if starred is not None and starred >= STARRED_ARGUMENTS:
        return (UNKNOWN,) * UNKNOWN_ARGUMENTS, {}
    keywords: Dict[str, Any] = {}
    for k in call.keywords:
        if k.arg is not None:
            keywords[k.arg] = constant(k.value)
            continue
        expanded = expand(k.value) if expand is not None else None
        if expanded is None or not expanded[1]:
            return (UNKNOWN,) * UNKNOWN_ARGUMENTS, {}
        keywords.update((key, constant(value) if isinstance(value, ast.AST) else UNKNOWN) for key, value in expanded[0].items())
    if starred is not None:
        # ``f(size, True, *rest)``: the arguments before the star bind their positions, and the
        # star may fill any later one (never a keyword-only parameter)
        before = tuple(constant(a) for a in call.args[:starred])
        return before + (UNKNOWN,) * (STARRED_ARGUMENTS - len(before)), keywords
    return tuple(constant(a) for a in call.args), keywords


def _mapped_literals(
    call: ast.Call, constant: Callable[[ast.AST], Any], literals: Tuple[Tuple[Any, ...], Dict[str, Any]]
) -> Optional[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
    """For a call that :func:`_literals` cannot read only because of a ``**mapping`` (no
    ``*args``): its other arguments as literals, and :data:`MERGE` for the mapping (see
    :attr:`BodyFacts.mapped_literals`); else None."""
    if len(literals[0]) != UNKNOWN_ARGUMENTS or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    keywords: Dict[str, Any] = {k.arg: constant(k.value) for k in call.keywords if k.arg is not None}
    keywords[MERGE] = UNKNOWN
    return tuple(constant(a) for a in call.args), keywords


#: how the facts name a call of a base class's method through ``super()``: ``super().__init__``
SUPER_CALL = "super()"
#: the name of a call of what a call returns (``get_model_cls(name)(env)``), by its position
RETURNED_CALL = "<returned>"


#: the default of a keyword tested as ``"seed" in kwargs`` (see :attr:`BodyFacts.guarded`): a
#: call that does not pass it gives the keyword this value, which the guard compares with
ABSENT_KEYWORD = "\0absent keyword"

#: the comparisons of :attr:`BodyFacts.guard_tests`: the `ast` operator, as spelled in
#: :data:`~repro_lint.syntax.COMPARISONS`
GUARD_COMPARISONS: Dict[type, str] = {
    ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not",
}


def _keyed(guard: str, test: Optional[Tuple[str, Any]]) -> str:
    """What effects under ``guard``'s test ``test`` are recorded under: the parameter; for an
    attribute kept from one (:data:`ATTRIBUTE_GUARD`), a key per test, as a method may test it
    several ways (``if self.method == "train": ... elif self.method == "val": ...``), each
    decided by the object's construction on its own (``self.method#==:'train'``; no comma,
    which separates the keys of a call-graph variant)."""
    if not guard.startswith(ATTRIBUTE_GUARD):
        return guard
    return f"{guard}#{test[0]}:{test[1]!r}".replace(",", "%2C") if test is not None else f"{guard}#"


def _negated(test: Optional[Tuple[str, Any]]) -> Optional[Tuple[str, Any]]:
    """The guard test (:attr:`BodyFacts.guard_tests`; None: the parameter's truth) turned."""
    operator = NEGATED[test[0] if test is not None else None]
    return None if operator is None else (operator, test[1] if test is not None else None)


def _compared_parameter(test: ast.AST, parameter: Callable[[ast.AST], Optional[str]]) -> Optional[Tuple[str, str, Any]]:
    """``seed > 0``, ``seed is not None``: (the parameter compared, the operator, the literal),
    for a parameter (as ``parameter`` reads one) compared once with a literal number, string,
    bool or None; else None. The common helper ``exists(seed)`` (``return val is not None``) is
    ``seed is not None``."""
    if (
        isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in NOT_NONE_HELPERS
        and len(test.args) == 1 and not test.keywords and (name := parameter(test.args[0])) is not None
    ):
        return name, GUARD_COMPARISONS[ast.IsNot], None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1) or (name := parameter(test.left)) is None:
        return None
    operator = GUARD_COMPARISONS.get(type(test.ops[0]))
    literal = ast_literal(test.comparators[0])
    if operator is None or literal is UNKNOWN or not (literal is None or isinstance(literal, (int, float, str))):
        return None
    return name, operator, literal


def _kept_parameters(node: ast.ClassDef) -> Dict[str, str]:
    """:attr:`ModuleFacts.kept_parameters` of a class: the attributes its ``__init__`` sets to
    one of its parameters (:func:`_attribute_copies`) that no other statement of the class
    stores (on any object: a subclass or a helper may set it too)."""
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__" and s.args.args), None)
    if init is None:
        return {}
    params = [a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)][1:]
    copies = {attr: param for (_, attr), (param, _) in _attribute_copies(init, params).items()}
    if not copies:
        return copies
    stored: Dict[str, int] = {}
    for inner in _walk(node):
        if isinstance(inner, ast.Attribute) and not isinstance(inner.ctx, ast.Load) and inner.attr in copies:
            stored[inner.attr] = stored.get(inner.attr, 0) + 1
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "setattr":
            return {}  # ``setattr(self, k, v)``: it may set any
    return {attr: param for attr, param in copies.items() if stored.get(attr) == 1}


def _attribute_copies(node: Union[ast.FunctionDef, ast.AsyncFunctionDef], params: Sequence[str]) -> Dict[Tuple[str, str], Tuple[str, int]]:
    """The attributes a method sets to one of its parameters in its own body (``self.phase =
    phase``, not under an ``if``): (its first parameter, the attribute) -> (the parameter, the
    line), where the method stores that attribute nowhere else and never rebinds the parameter
    (what it tests of the attribute below is then what it was given)."""
    this = node.args.args[0].arg
    found: Dict[Tuple[str, str], Tuple[str, int]] = {}
    for stmt in node.body:
        if (
            isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(target := stmt.targets[0], ast.Attribute)
            and isinstance(target.value, ast.Name) and target.value.id == this
            and isinstance(stmt.value, ast.Name) and stmt.value.id in params
        ):
            found[(this, target.attr)] = (stmt.value.id, stmt.lineno)
    if not found:
        return found
    stored: Dict[Tuple[str, str], int] = {}
    rebound: Set[str] = set()
    for inner in _walk(node):
        if isinstance(inner, ast.Attribute) and not isinstance(inner.ctx, ast.Load) and isinstance(inner.value, ast.Name):
            key = (inner.value.id, inner.attr)
            stored[key] = stored.get(key, 0) + 1
        elif isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            rebound.add(inner.id)
    return {key: copy for key, copy in found.items() if stored.get(key) == 1 and copy[0] not in rebound}


#: words of the parameters whose test decides which calls a function makes, as the rules
#: follow them (``if seed is not None: self.seed(seed)``, ``if device_map is not None:
#: dispatch_model(...)``, ``if deterministic: enable()``); every other ``if flag:`` around a
#: call is left alone (following all of them asks every caller's literal arguments: 8 % of a
#: cold run on torch's source)
_CALL_GUARD_WORDS = ("determinis", "reproducib", "benchmark", "gpu", "npu")


def _decides_calls(guard: str) -> bool:
    lowered = guard.lower()
    return is_seed_parameter(guard) or is_device_name(guard) or any(word in lowered for word in _CALL_GUARD_WORDS)


def _is_super_call(node: ast.AST) -> bool:
    """``super()`` or ``super(Cls, self)``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _bound_names(target: ast.AST) -> List[str]:
    """The names an assignment target binds (not those whose attribute or item it sets)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound_names(element)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    """Does the ``except`` clause catch a failed import (bare, ``Exception``, ``ImportError``,
    ``ModuleNotFoundError``, or a tuple holding one)?"""
    caught = handler.type
    names = [caught] if not isinstance(caught, ast.Tuple) else list(caught.elts)
    return caught is None or any(isinstance(n, ast.Name) and n.id in ("Exception", "BaseException", "ImportError", "ModuleNotFoundError") for n in names)


#: the dict methods that change its entries
_DICT_CHANGES = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})


#: the list methods that put what they are given into the list
_LIST_ADDITIONS = frozenset({"append", "extend", "insert"})


def _container_root(node: ast.Call) -> Optional[str]:
    """The local name under a list that ``node`` adds to (``augs.append(x)``,
    ``train_transform.transforms.append(x)``: ``augs``, ``train_transform``; not ``self``'s),
    else None."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in _LIST_ADDITIONS):
        return None
    root = func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return root.id if isinstance(root, ast.Name) and root.id not in ("self", "cls") else None


def _is_vars(value: Optional[ast.AST]) -> bool:
    """``vars(x)``: the builtin, given one positional argument."""
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "vars"
        and len(value.args) == 1 and not value.keywords
    )


def _returns_parsed(value: ast.AST) -> bool:
    """Is ``value`` a call that parses the command line (``parser.parse_args()``,
    ``parser.parse_known_args()[0]``; given ``[]``, the defaults themselves, or a name, most
    often the caller's ``argv=None``; not a list of options, ``parse_args(["--lr", "1"])``)?"""
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == 0:
        value = value.value
        method = "parse_known_args"
    else:
        method = "parse_args"
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == method):
        return False
    given = value.args[0] if len(value.args) == 1 and not value.keywords else None
    return not value.args and not value.keywords or isinstance(given, ast.Name) or (isinstance(given, (ast.List, ast.Tuple)) and not given.elts)


def _parsed_options(target: ast.AST, value: Optional[ast.AST]) -> Optional[str]:
    """The name an assignment binds to parsed command-line options (``args =
    parser.parse_args()``, ``args, rest = parser.parse_known_args()``), or to a dict of them
    (``args = vars(parser.parse_args())``, whose entries are the options), else None."""
    if _is_vars(value) and isinstance(target, ast.Name):
        value = value.args[0]  # type: ignore[union-attr]
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in PARSE_CALLS):
        return None
    if isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    return target.id if isinstance(target, ast.Name) else None


def _arg_items(call: ast.Call) -> List[Item]:
    """A call's arguments as dict items: ``key=value``, ``**mapping`` or a positional mapping."""
    items: List[Item] = [(None if isinstance(a, ast.Starred) else MERGE, a) for a in call.args]
    items.extend((MERGE if k.arg is None else k.arg, k.value) for k in call.keywords)
    return items


#: node types that never hold a call, an assignment, an import or a definition
_LEAVES = (ast.Name, ast.Constant, ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop)
_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _child_fields(node_type: type) -> Tuple[str, ...]:
    fields = _CHILD_FIELDS.get(node_type)
    if fields is None:
        fields = tuple(f for f in node_type._fields if f not in ("ctx", "type_comment"))
        _CHILD_FIELDS[node_type] = fields
    return fields


def _walk(node: ast.AST) -> List[ast.AST]:
    """:func:`ast.walk` without the expression contexts (``Load``, ``Store``): the same nodes
    otherwise, in the same order (breadth first), as a list. Without the contexts it takes
    about half the time of ``ast.walk`` (170,000 walks of the project corpus's assignment
    targets, call arguments and ``if`` tests: 0.84 s -> 0.44 s), and as a list, grown while it
    is read, a third less again than as a generator (no frame resumed per node; the names and
    constants, which hold no node, not looked into)."""
    nodes = [node]
    if isinstance(node, _ATOMS):
        return nodes
    fields_of = _CHILD_FIELDS
    for each in nodes:  # (the list grows while it is read: each node once, breadth first)
        kind = type(each)
        if kind is ast.Name or kind is ast.Constant:
            continue
        for name in fields_of.get(kind) or _child_fields(kind):
            value = getattr(each, name, None)
            if type(value) is list:
                nodes.extend([item for item in value if isinstance(item, ast.AST)])
            elif isinstance(value, ast.AST):
                nodes.append(value)
    return nodes


#: nodes whose only child (if any) is an expression context
_ATOMS = (ast.Name, ast.Constant)


def _child_nodes(node: ast.AST) -> List[ast.AST]:
    """:func:`ast.iter_child_nodes` without the expression contexts, as a list: the same
    children otherwise, in the same order, in about two thirds of its time (no generator, and the
    fields of each node type looked up once). :func:`_walk` repeats this loop inline: a call
    per node there costs the facts pass 1 % more instructions than it saves here."""
    kind = type(node)
    if kind is ast.Name or kind is ast.Constant:
        return []
    found: List[ast.AST] = []
    for name in _CHILD_FIELDS.get(kind) or _child_fields(kind):
        value = getattr(node, name, None)
        if type(value) is list:
            found.extend([item for item in value if isinstance(item, ast.AST)])
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


def _dotted_name(node: ast.Attribute) -> bool:
    """Is ``node`` a dotted name (``self.model.fc``, ``torch.cuda``): attributes down to a name?
    Nothing in one is what :class:`_FactsCollector` records (it has no visitor for attributes or
    names), so its walk leaves such an attribute out: of the project corpus's 447,507 nodes
    visited, 93,558 were attributes, 86,410 of them at the head of a dotted name."""
    value = node.value
    while type(value) is ast.Attribute:
        value = value.value  # type: ignore[attr-defined]
    return type(value) is ast.Name


class _FactsCollector(ast.NodeVisitor):
    """One pass over a module's ``ast``. ``visit`` and ``generic_visit`` are
    :class:`ast.NodeVisitor`'s, in the same order, with what to do per node type looked up once
    (:data:`_ACTIONS`) and the leaves (names, constants, operators) skipped: on torch's source
    this halves the walk. ``generic_visit`` calls a child's visitor itself, not through
    ``visit`` (one call less per node: 1.6 % of the pass's instructions)."""

    def visit(self, node: ast.AST) -> None:
        action = _ACTIONS[type(node)]
        if action is not None:
            action(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        actions = _ACTIONS
        attribute = ast.Attribute
        for name in _CHILD_FIELDS.get(type(node)) or _child_fields(type(node)):
            value = getattr(node, name, None)
            # (a list of children, or one: written out twice, since a one-item tuple per field
            # to share the loop costs half of what calling the visitors directly saves)
            if type(value) is list:
                for item in value:
                    kind = type(item)
                    action = actions[kind]
                    if action is not None and (kind is not attribute or not _dotted_name(item)):
                        action(self, item)
            else:
                kind = type(value)
                action = actions[kind]
                if action is not None and (kind is not attribute or not _dotted_name(value)):
                    action(self, value)

    def __init__(self, facts: ModuleFacts, is_package: bool) -> None:
        self.facts = facts
        self.is_package = is_package
        #: :attr:`ModuleFacts.called` as found so far, and the alias assignments (the name bound,
        #: the head of the dotted value, its last name) that count once their head is bound
        self.called: Set[str] = set()
        self.alias_candidates: List[Tuple[str, str, str]] = []
        self.rebound: Set[str] = set()
        self.op_calls: Set[OpCall] = set()
        #: the attributes assignments set on dotted names: (head, last name, attribute), for
        #: :attr:`ModuleFacts.assigned` once the bound heads are known
        self.assigned: List[Tuple[str, str, str]] = []
        #: inside the arguments of a call that reports on a device (``DEVICE_INFO_CALLS``)
        self.asking_about_device = False
        #: per body (by id): the names bound to what ``torch.load`` returns (see :meth:`_loaded_module`)
        self.loaded: Dict[int, Set[str]] = {}
        #: inside the ``try`` of a function's import probe (see :meth:`visit_Try`)
        self.import_probe = False
        #: visiting an ``if`` that asks whether a device is there (``if is_npu_available():
        #: import torch_npu``): an import of a device's module there names a device the module
        #: supports, as a module's default device does (see ``_device_used``)
        self.availability_guard = False
        #: the devices the call being visited already counted as evidence by its effect
        self.counted_devices: FrozenSet[str] = frozenset()
        #: the function being visited (None at the top level)
        self.function_node: Optional[Union[ast.FunctionDef, ast.AsyncFunctionDef]] = None
        #: how many ``if`` statements of the current body the visit is inside
        self.branch_depth = 0
        #: per imported name: the body whose import bound it last, and whether in an ``if``
        self.import_bodies: Dict[str, Tuple[int, bool]] = {}
        #: per function body (by id): the imports it makes of a name the module defines itself,
        #: which only that function sees (see ``_bind_import``)
        self.shadowing: Dict[int, Dict[str, str]] = {}
        #: imported names that the ``if`` branches of one body bind to different objects
        #: (``if aug == "node": from .a import W`` / ``else: from .b import W``): the targets
        #: the other branches bound, called as well where the name is called
        self.import_alternatives: Dict[str, Tuple[str, ...]] = {}
        #: whether the visit is inside any ``if`` of the current body
        self.in_if = False
        #: how many lambdas hold the node being visited (see :meth:`visit_Lambda`)
        self.in_lambda = 0
        #: how many conditional expressions (``a if test else b``) hold the node being visited
        self.in_ifexp = 0
        self.scope: List[str] = []
        #: per scope entry: is it a class?
        self.kinds: List[bool] = []
        self.current: BodyFacts = facts.module_body
        #: generators whose seeding is undone when the enclosing ``with`` ends (``fork_rng()``)
        self.isolated: FrozenSet[str] = frozenset()
        #: inside ``with init_empty_weights():`` or ``with torch.device("meta"):``, where layers
        #: are built without weights: nothing is drawn
        self.empty_weights = False
        #: the parameter guarding the statements being visited (``if deterministic:``)
        self.guard: Optional[str] = None
        #: the comparison of :attr:`guard` with a literal that the branch tests, if it is one
        self.guard_test: Optional[Tuple[str, Any]] = None
        #: in a method, the attributes of its object that it sets to one of its parameters
        #: (``self.phase = phase``): (object, attribute) -> (the parameter, the line it is set on)
        self.copies: Dict[Tuple[str, str], Tuple[str, int]] = {}
        #: per class being visited, the attributes its ``__init__`` keeps from a parameter
        #: (:func:`_kept_parameters`), and those of them that its methods test
        self.kept: List[Dict[str, str]] = []
        self.kept_tested: List[Set[str]] = []
        #: in a method of a class, what its first parameter is named (``self``), for the
        #: attributes of :attr:`kept`
        self.this: Optional[str] = None
        #: the dicts built in each function: what a ``**kwargs`` argument holds
        #: the local names the current function binds to classes, as written (``fn = Loader``,
        #: ``fn = A if fast else B``): calling the name calls one of them
        self.bound: Dict[str, Tuple[str, ...]] = {}
        #: the local names of the current function (or the top level) bound to a partial of a
        #: name (``loader = partial(DataLoader, batch_size=2, shuffle=True)``): the partial's call
        self.partials: Dict[str, ast.Call] = {}
        #: functions a command-line group decorator made a group (``@click.group()``)
        self.cli_groups: Set[str] = set()
        #: the refs made in the value last assigned to each local name of the current function
        self.value_refs: Dict[str, List[str]] = {}
        #: local names bound to a display of objects built on the spot (``transform =
        #: [Blur()]``): those objects, handed on with the name (``T.Compose(transform)``)
        self.display_refs: Dict[str, List[str]] = {}
        #: the refs made in every value assigned to each local name of the current function
        self.bound_refs: Dict[str, List[str]] = {}
        #: module-level names assigned an imported name (``interpolate = F.interpolate``)
        self.renamed: Dict[str, str] = {}
        #: DataLoaders that may have workers: (body, ``num_workers``, its dataset's refs)
        self.loader_workers: List[Tuple[BodyFacts, Any, List[str], Optional[str], bool]] = []
        #: the calls that draw when their seed options default to None (:meth:`_seed_from_option`)
        self.option_draws: List[Tuple[BodyFacts, Tuple[str, ...], FrozenSet[str], FrozenSet[str]]] = []
        #: the parameter names of the enclosing functions (they shadow the module's imports)
        self.parameters: FrozenSet[str] = frozenset()
        #: per scope, the local names bound to one literal so far
        #: (``DEVICE = "cpu"``), UNKNOWN once bound to anything else; the module's at index 0
        self.constants: List[Dict[str, Any]] = [{}]
        #: see :attr:`ModuleFacts.set_attributes`
        self.set_attributes: Set[str] = set()
        #: the names bound to parsed command-line options (``args = parser.parse_args()``)
        self.parsed_names: Set[str] = set()
        #: local names bound to a list or tuple display (see :meth:`_loop_over_functions`)
        self.function_tables: Dict[str, ast.AST] = {}
        #: names bound to a loss module whose call is an op of the catalog (see :meth:`_loss_module`)
        self.loss_modules: Dict[str, Tuple[str, Tuple[Tuple[Optional[str], str, Any], ...], int]] = {}
        #: names whose rank an unpacking of their shape showed (``n, c, d, h, w = out.shape``)
        self.shown_ranks: Dict[str, int] = {}
        #: per body (by ``id``), what its ``return`` statements give: True for its module's
        #: parsed options, the import-qualified name of a function whose result it returns, None
        #: for anything else (:attr:`BodyFacts.returns_options`, :attr:`BodyFacts.returns_origin`)
        self.return_answers: Dict[int, Set[Any]] = {}
        #: the classes the module defines at its top level
        self.own_classes: FrozenSet[str] = frozenset()
        #: the names of the module's top-level functions (see :meth:`_returns_function`)
        self.own_functions: FrozenSet[str] = frozenset()
        #: the options given a default by ``parser.set_defaults(...)``
        self.parser_defaults: Set[str] = set()
        self.dicts = DictScopes(
            self._dict_items,
            lambda node: node.id if isinstance(node, ast.Name) else None,
            lambda node: (node.test, node.body, node.orelse) if isinstance(node, ast.IfExp) else None,
            lambda test, body, orelse: ast.IfExp(test=test, body=body, orelse=orelse),
        )

    def _dict_items(self, node: ast.AST) -> Optional[List[Item]]:
        """The items of a dict display or of a call of the builtin ``dict``, else None."""
        if isinstance(node, ast.Dict):
            return [(MERGE, v) if k is None else (_string(k), v) for k, v in zip(node.keys, node.values)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            if "dict" not in self.facts.aliases:  # not a ``dict`` imported from somewhere else
                return _arg_items(node)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and "vars" not in self.facts.aliases
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in self.parsed_names
            and self.facts.options
        ):
            # ``Trainer(**vars(args))`` with options this module declares: their defaults, on the
            # default path (an option a library adds, ``Trainer.add_argparse_args(parser)``,
            # defaults to what the callee's own default is)
            return [(dest, ast.Constant(value=default) if default is not UNKNOWN else ast.Name(id=dest)) for dest, default in self.facts.options.items()]
        return None

    def _effect(self, effects: Iterable[str], parameter: Optional[str] = None, parameter_test: Optional[Tuple[str, Any]] = None) -> None:
        """Record what the current statement turns on or seeds, where it lasts; ``parameter``:
        a parameter whose value decides it (``use_deterministic_algorithms(deterministic)``),
        as ``if deterministic:`` around it would (``parameter_test``: as that comparison of it
        with a literal would)."""
        effects = {e for e in effects if e not in self.isolated}
        if not effects or self.in_lambda:
            return
        guard = self.guard if self.guard is not None else parameter
        if guard is not None:
            body = self.current
            self._guard_test_seen(body, guard, self.guard_test if self.guard is not None else parameter_test)
            body.guarded.setdefault(guard, set()).update(effects)
        else:
            if not self.branch_depth:
                # the last of the body's own seedings of a generator decides: ``np.random.seed(123)``
                # then ``np.random.seed()`` leaves it reseeded from entropy (and the other way round;
                # also one made above under a parameter's test: ``if seed is None: seed =
                # torch.seed()`` then ``torch.manual_seed(seed)`` seeds torch, with a drawn seed)
                for effect in effects:
                    if effect.startswith(ENTROPY):
                        self.current.effects.discard(effect[len(ENTROPY) :])
                    else:
                        self.current.effects.discard(ENTROPY + effect)
                        if any(ENTROPY + effect in held for held in self.current.guarded.values()):
                            self.current.guarded = {k: v - {ENTROPY + effect} for k, v in self.current.guarded.items()}
            else:
                # a reseed from entropy only under an ``if``, after the body's own seeding: the
                # benefit of the doubt (``np.random.seed(123)``, then ``if flag: np.random.seed()``)
                effects = {e for e in effects if not (e.startswith(ENTROPY) and e[len(ENTROPY) :] in self.current.effects)}
            self.current.effects |= effects

    @staticmethod
    def _guard_test_seen(body: BodyFacts, guard: str, test: Optional[Tuple[str, Any]]) -> None:
        """Record how ``guard`` is tested where an effect or a call depends on it (``if seed >
        0:``; None: its truth), one way only: tested in different ways, "?"."""
        seen = guard in body.guarded or guard in body.guarded_calls or guard in body.guarded_uses
        if not seen and test is None:
            return
        known = body.guard_tests.get(guard) if seen else test
        if known != test:
            body.guard_tests = {**body.guard_tests, guard: ("?", None)}
        elif test is not None:
            body.guard_tests = {**body.guard_tests, guard: test}

    def _reseed_parameter(self, qualified: Optional[str], args: AstArgs) -> Optional[str]:
        """The parameter of the current function given as the seed of a call that reseeds from
        OS entropy when it is None (``np.random.seed(seed)``, ``random.seed(seed)``), else None."""
        reseed = ENTROPY_RESEEDS.get(qualified or "")
        if reseed is None or reseed[1] is None:
            return None
        parameter = self._parameter(args.node(*reseed[1]))
        if parameter is None or self.function_node is None:
            return None
        # not one the function assigns itself (``seed = seed or random.randint(...)``)
        assigned = any(
            isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == parameter
            for stmt in self.function_node.body for n in _walk(stmt)
        )
        return None if assigned else parameter

    def _switch_parameter(self, qualified: Optional[str], args: AstArgs) -> Optional[str]:
        """The parameter of the current function that a determinism switch is given as its
        value (``torch.use_deterministic_algorithms(deterministic_torch)``), else None."""
        switch = DETERMINISM_SWITCHES.get(qualified or "")
        return self._parameter(args.node(switch.param, switch.position)) if switch is not None else None

    def _cli_command(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef], outer: BodyFacts) -> Union[bool, str]:
        """Is the function decorated as a command of a command-line application bound in the
        module: an object of ``catalog.CLI_APPS`` (``app = typer.Typer()``, ``@app.command()``),
        or a function that a group decorator made one (``@click.group()`` on ``cli``, then
        ``@cli.command()``: the group's name)? A group is recorded here too."""
        command: Union[bool, str] = False
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            dotted = _dotted(target)
            if dotted is not None and self.imported(dotted) in CLI_GROUPS:
                self.cli_groups.add(node.name)
            if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
                continue
            classes = outer.instances.get(target.value.id) or self.facts.module_body.instances.get(target.value.id, ())
            if any(target.attr in CLI_APPS.get(cls, ()) for cls in classes):
                command = True
            elif target.value.id in self.cli_groups and target.attr in CLI_GROUP_METHODS:
                command = target.value.id
                if target.attr == "group":
                    self.cli_groups.add(node.name)  # a subgroup: its own commands run too
        return command

    def _returns_function(self, name: str) -> bool:
        """Is ``name``, returned by the function being visited, a function of the module's top
        level or an imported one (not a class, a parameter or a local of the function)?"""
        if _names_class(name) or name in self.parameters:
            return False
        if name not in self.own_functions and self.imported(name) is None:
            return False
        node = self.function_node
        return node is None or not any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in _walk(node)
        )

    def _parameter(self, value: Any) -> Optional[str]:
        """The name of the current function's parameter that ``value`` reads by itself (also
        through the attribute its method set to it above: ``self.phase = phase``, then
        ``if self.phase == "train":``), else None."""
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and self.copies:
            copy = self.copies.get((value.value.id, value.attr))
            return copy[0] if copy is not None and value.lineno > copy[1] else None
        return value.id if isinstance(value, ast.Name) and value.id in self.current.params else None

    def _tested(self, value: Any) -> Optional[str]:
        """What a test of ``value`` decides by, as :attr:`BodyFacts.guarded` keys it: the
        current function's parameter it reads (:meth:`_parameter`), or in a method, an
        attribute its object's ``__init__`` kept from a parameter (``self.method``,
        :data:`ATTRIBUTE_GUARD`); else None."""
        if (
            self.this is not None and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            and value.value.id == self.this and value.attr in self.kept[-1]
        ):
            self.kept_tested[-1].add(value.attr)
            return ATTRIBUTE_GUARD + value.attr
        return self._parameter(value)

    def imported(self, name: str) -> Optional[str]:
        """``name`` qualified through the imports, or None when its head was not imported (or
        is a parameter of an enclosing function, which shadows the import there: ``def
        forward(self, x, profile=False)`` passing ``profile`` on passes the flag)."""
        head, _, rest = name.partition(".")
        shadowing = self.shadowing.get(id(self.current)) if self.shadowing else None
        target = shadowing.get(head) if shadowing and head in shadowing else self.facts.aliases.get(head)
        if target is None and self.facts.star_imports and head in STAR_BOUND_LIBRARIES:
            # ``torch.backends.cudnn.deterministic = True`` in a module that binds ``torch`` only
            # by a star import (``from helper import *``): torch's, as the module's code means
            target = STAR_BOUND_LIBRARIES[head]
        if target is None or head in self.parameters:
            return None
        return public_name(f"{target}.{rest}" if rest else target)

    def _relative_base(self, level: int, module: Optional[str]) -> Optional[str]:
        return resolve_relative(self.facts.module_name, self.is_package, level, module or "")

    def visit_Try(self, node: ast.Try) -> None:
        """``try: import torch_npu`` / ``except ImportError: return False`` in a function (an
        availability probe, accelerate's ``is_npu_available``): that import asks whether the
        device is there, it does not use it (what else the ``try`` does still counts)."""
        probe = len(self.constants) > 1 and any(_catches_import_error(h) for h in node.handlers)
        if not probe:
            self.generic_visit(node)
            return
        probing, self.import_probe = self.import_probe, True
        try:
            for stmt in node.body:
                self.visit(stmt)
        finally:
            self.import_probe = probing
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def _bind_import(self, local: str, target: str) -> None:
        """Bind ``local`` to ``target`` by an import. When another ``if`` branch of the same
        body bound it to something else, that stays one of what the name may be."""
        if self.scope and (local in self.facts.classes or (local in self.facts.functions and "." not in local)):
            # ``def main(): from evaluate import main``: the module's own ``main`` stays what the
            # rest of the module calls; only this function's name is the import
            self.shadowing.setdefault(id(self.current), {})[local] = target
            return
        previous = self.facts.aliases.get(local)
        body = id(self.current)
        before = self.import_bodies.get(local)
        if previous is not None and previous != target and before is not None and before[0] == body and (before[1] or self.in_if):
            kept = (*self.import_alternatives.get(local, ()), previous)
            self.import_alternatives[local] = tuple(dict.fromkeys(t for t in kept if t != target))
        else:
            self.import_alternatives.pop(local, None)
        self.import_bodies[local] = (body, self.in_if)
        self.facts.aliases[local] = target

    def imported_all(self, name: str) -> Tuple[Optional[str], ...]:
        """:meth:`imported`, then what ``name`` stands for through the other branches'
        imports of its head (:attr:`import_alternatives`)."""
        first = self.imported(name)
        head, _, rest = name.partition(".")
        others = self.import_alternatives.get(head, ()) if first is not None else ()
        return (first, *(f"{other}.{rest}" if rest else other for other in others))

    def visit_Import(self, node: ast.Import) -> None:
        _note_bindings(node, self.called, self.alias_candidates, self.rebound)
        for alias in node.names:
            if alias.asname:
                self._bind_import(alias.asname, alias.name)
            else:
                head = alias.name.split(".")[0]
                self._bind_import(head, head)
                if alias.name != head and alias.name not in self.facts.dotted_imports:
                    self.facts.dotted_imports += (alias.name,)
            device = DEVICE_MODULES.get(alias.name.split(".")[0])
            if device is not None and not self.import_probe:
                self._device_used(device, declared=self.availability_guard)
            if alias.name in NCCL_TO_HCCL_MODULES:
                self.current.uses.add(NCCL_AS_HCCL)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        _note_bindings(node, self.called, self.alias_candidates, self.rebound)
        base = self._relative_base(node.level or 0, node.module)
        if base is None:
            return
        device = DEVICE_MODULES.get(base.split(".")[0])
        if device is not None and not self.import_probe:
            self._device_used(device, declared=self.availability_guard)
        if base in NCCL_TO_HCCL_MODULES or any(f"{base}.{alias.name}" in NCCL_TO_HCCL_MODULES for alias in node.names):
            self.current.uses.add(NCCL_AS_HCCL)  # ``from torch_npu.contrib import transfer_to_npu``
        for alias in node.names:
            if alias.name == "*":
                if base not in self.facts.star_imports:
                    self.facts.star_imports += (base,)
            else:
                self._bind_import(alias.asname or alias.name, f"{base}.{alias.name}")

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        name = ".".join(self.scope + [node.name])
        outer = self.current
        command = self._cli_command(node, outer)
        if command:
            # ``@app.command()`` on a typer app: handed to the app, which calls it with the
            # options given (its defaults, on the default path), as ``typer.run(main)`` does; a
            # click group's command (``@cli.command()``) runs where the group is called, ``cli()``
            holder = self.facts.functions.get(command, outer) if isinstance(command, str) else outer
            holder.refs.append(name)
            holder.cli_refs = holder.cli_refs | {name}
        method = bool(self.kinds and self.kinds[-1] and node.args.args)
        if self.kinds and self.kinds[-1]:
            owner: Optional[str] = ".".join(self.scope)  # a method
        else:
            owner = outer.owner if outer.name not in (MODULE_BODY, MAIN_BODY) else None
        self.current = body = self.facts.functions.setdefault(name, BodyFacts(name, owner=owner, line=node.lineno))
        body.abstract = owner is not None and _is_stub(node.body)
        positional = [*node.args.posonlyargs, *node.args.args]
        defaults = node.args.defaults
        given, clicked = self._cli_defaults(node)
        if clicked:
            body.click_defaults = clicked
        for arg, default in zip(positional[len(positional) - len(defaults) :], defaults):
            body.defaults[arg.arg] = given.pop(arg.arg) if arg.arg in given else ast_literal(default)
            self._device_parameter(body, arg.arg, body.defaults[arg.arg])  # ``def train(device="cuda:0")``
        for arg, default in zip(node.args.kwonlyargs, node.args.kw_defaults):
            if default is not None or arg.arg in given:
                body.defaults[arg.arg] = given.pop(arg.arg) if arg.arg in given else ast_literal(default)
                self._device_parameter(body, arg.arg, body.defaults[arg.arg])
        for param, default in given.items():  # ``@click.option("--seed", default=None)`` on ``def main(seed)``
            if param in (a.arg for a in positional):
                body.defaults[param] = default
                self._device_parameter(body, param, default)
        if owner is not None and positional and positional[0].arg in ("self", "cls"):
            positional = positional[1:]
        body.params = tuple(a.arg for a in positional) + tuple(a.arg for a in node.args.kwonlyargs)
        guard, isolated, self.guard, self.isolated = self.guard, self.isolated, None, frozenset()
        guard_test = self.guard_test
        empty, self.empty_weights = self.empty_weights, False
        self.scope.append(node.name)
        self.kinds.append(False)
        self.dicts.enter(node.args.kwarg.arg if node.args.kwarg is not None else None)
        # the enclosing scopes' tables of classes stay visible (``MODELS = {"bert": BERT}`` at
        # the top level, ``model = MODELS[args.model_code]`` in a factory), unless a parameter
        # shadows them
        arguments = node.args
        shadowing = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg) if a is not None}
        bound, self.bound = self.bound, {k: v for k, v in self.bound.items() if k not in shadowing}
        partials, self.partials = self.partials, {k: v for k, v in self.partials.items() if k not in shadowing}
        # a parameter whose default is a DataLoader (denoiser's ``def loader(dataset, ...,
        # klass=DataLoader)``, then ``klass(dataset, ...)``): calling it builds one
        all_positional = [*arguments.posonlyargs, *arguments.args]
        pairs = [*zip(all_positional[len(all_positional) - len(arguments.defaults) :], arguments.defaults), *zip(arguments.kwonlyargs, arguments.kw_defaults)]
        for arg, default in pairs:
            written = _dotted(default) if default is not None else None
            if written is not None and self.imported(written) in DATALOADERS:
                self.bound[arg.arg] = (written,)
        value_refs, self.value_refs = self.value_refs, {}
        display_refs, self.display_refs = self.display_refs, {}
        bound_refs, self.bound_refs = self.bound_refs, {}
        self.constants.append({})
        arguments = node.args
        parameters = self.parameters
        body.local_params = frozenset(
            a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg) if a is not None
        )
        self.parameters = parameters | body.local_params
        function_node, self.function_node = self.function_node, node
        copies, self.copies = self.copies, _attribute_copies(node, body.params) if method else {}
        this, self.this = self.this, node.args.args[0].arg if method and node.name not in CONSTRUCTION_METHODS and self.kept[-1] else None
        depth, self.branch_depth = self.branch_depth, 0  # a nested function's own body
        in_if, self.in_if = self.in_if, False
        self.generic_visit(node)
        self.branch_depth, self.in_if = depth, in_if
        self.function_node, self.copies, self.this = function_node, copies, this
        self.partials = partials
        self.bound, self.value_refs, self.bound_refs = bound, value_refs, bound_refs
        self.display_refs = display_refs
        self.constants.pop()
        self.parameters = parameters
        self.dicts.leave()
        self.kinds.pop()
        self.scope.pop()
        self.current, self.guard, self.isolated = outer, guard, isolated
        self.guard_test = guard_test
        self.empty_weights = empty

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qualified_name = ".".join(self.scope + [node.name])
        self.facts.classes.add(qualified_name)
        bases = []
        for expr in node.bases:
            base = _dotted(_generic_origin(expr))
            if base is not None and base != "object":
                imported = self.imported(base)
                bases.append((imported or base, imported is not None))
        if bases:
            self.facts.bases[qualified_name] = tuple(bases)
        for base, imported in bases:
            if imported and base in _OP_MODULES:
                # ``class CTCLossWrapper(nn.CTCLoss)``: building it builds the op's module (with
                # its arguments unknown), as the module's calls of the op would
                self.op_calls.add((base.rsplit(".", 1)[-1], BUILT_INSIDE))
        if not self.scope:
            loader = self._loader_class(node)
            if loader is not None:
                self.facts.loaders[node.name] = loader
            helper = self._helper_base(node)
            if helper is not None:
                self.facts.helper_bases[node.name] = helper
        kept = _kept_parameters(node)
        self.scope.append(node.name)
        self.kinds.append(True)
        self.constants.append({})
        self.kept.append(kept)
        self.kept_tested.append(set())
        self.generic_visit(node)
        self.kept.pop()
        tested = self.kept_tested.pop()
        if tested:  # (the others decide nothing)
            self.facts.kept_parameters[qualified_name] = {attr: kept[attr] for attr in sorted(tested)}
        self.constants.pop()
        self.kinds.pop()
        self.scope.pop()

    def _helper_base(self, node: ast.ClassDef) -> Optional[str]:
        """The library class with an effect when built (a seeding class, a layer initialised
        at random) that a module-level class derives from, directly or through a class of this
        module (``class AnomalibCLI(LightningCLI)``, ``class WeightDrop(nn.Linear)``), or None."""
        for expr in node.bases:
            name = _dotted(_generic_origin(expr))
            if name is None:
                continue
            if name in self.facts.helper_bases:
                return self.facts.helper_bases[name]
            qualified = self.imported(name)
            if qualified is not None and (qualified in SEED_HELPERS or initialises_weights(qualified)):
                return qualified
        return None

    def _loader_class(self, node: ast.ClassDef) -> Optional[LoaderClass]:
        """What a module-level class changes of the loader it derives from, when its base is a
        DataLoader (``catalog.DATALOADERS``), a loader class of this module, or an imported
        class named as a loader (``MultiEpochsDataLoader`` from another project module: the
        project context tells whether it is one)."""
        base = None
        order: Optional[Tuple[str, ...]] = None  # the base's parameters, in order
        for expr in node.bases:
            name = _dotted(_generic_origin(expr))
            qualified = self.imported(name) if name is not None else None
            if qualified in DATALOADERS or (qualified is not None and LOADER_WORD in qualified.rsplit(".", 1)[-1]):
                base, order = qualified, DATALOADERS.get(qualified or "")
            elif name in self.facts.loaders:
                base, order = f"{self.facts.module_name}.{name}", self.facts.loaders[name].params
            if base is not None:
                break
        if base is None:
            return None
        init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is None:
            return LoaderClass(base)
        args = init.args
        positional = [*args.posonlyargs, *args.args]
        if len(positional) == 1 and not args.kwonlyargs and args.vararg is not None and args.kwarg is not None:
            return LoaderClass(base)  # ``__init__(self, *args, **kwargs)``: the base's own parameters
        fixed = set()
        passed_on: Set[str] = set()
        forwards = False  # its ``**kwargs`` reach the base (not swallowed)
        # dicts of literal keys it builds (ELR's ``self.init_kwargs = {"dataset": dataset, ...}``,
        # then ``super().__init__(**self.init_kwargs)``): their entries are keywords
        copies = _attribute_copies(init, [a.arg for a in positional[1:]]) if init.args.args else {}
        displays = {
            _dotted(stmt.targets[0]): stmt.value for stmt in _walk(init)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Dict)
            and all(_string(key) is not None for key in stmt.value.keys) and _dotted(stmt.targets[0]) is not None
        }
        for call in _walk(init):
            if (
                isinstance(call, ast.Subscript)
                and isinstance(call.ctx, ast.Store)
                and isinstance(call.value, ast.Name)
                and args.kwarg is not None
                and call.value.id == args.kwarg.arg
                and _string(call.slice) is not None
            ):
                fixed.add(_string(call.slice))  # ``kwargs["shuffle"] = False``, then ``super().__init__(**kwargs)``
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__":
                # by position, the base's parameters in order (``super().__init__(dataset,
                # batch_size, shuffle)``), where they are known
                for param, arg in zip(order or (), call.args):
                    if isinstance(arg, ast.Starred):
                        break
                    (passed_on if isinstance(arg, ast.Name) and arg.id == param else fixed).add(param)
                keywords = [(k.arg, k.value) for k in call.keywords]
                for keyword in call.keywords:
                    display = displays.get(_dotted(keyword.value)) if keyword.arg is None else None
                    if display is not None:
                        keywords += [(_string(key), value) for key, value in zip(display.keys, display.values)]
                for arg, value in keywords:
                    if arg is None and args.kwarg is not None and isinstance(value, ast.Name) and value.id == args.kwarg.arg:
                        forwards = True
                    # (also as the attribute it keeps it in, ``self.shuffle = shuffle``)
                    same = (isinstance(value, ast.Name) and value.id == arg) or (
                        isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and copies.get((value.value.id, value.attr), ("",))[0] == arg
                    )
                    if arg is not None and not same:
                        fixed.add(arg)
                    elif same:
                        passed_on.add(arg)
        # a parameter's default, where the parameter goes on to the base under its own name
        named = [*positional, *args.kwonlyargs]
        given = [None] * (len(positional) - len(args.defaults)) + list(args.defaults) + list(args.kw_defaults)
        defaults = tuple(
            (param.arg, ast_literal(default))
            for param, default in zip(named, given)
            if default is not None and param.arg in passed_on and ast_literal(default) is not UNKNOWN
        )
        return LoaderClass(base, tuple(a.arg for a in positional[1:]), frozenset(fixed), forwards, defaults)

    def visit_Call(self, node: ast.Call) -> None:
        _note_call(node, self.called, self.op_calls, self.facts.aliases, self.shown_ranks)
        func = node.func
        last = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""  # type: ignore[attr-defined]
        if last in _PRETRAINED_BUILDERS or last.endswith(_HEAD_SUFFIXES):
            self._library_head(func)
        loss = self.loss_modules.get(_dotted(node.func) or "") if self.loss_modules else None
        if loss is not None and node.args and not isinstance(node.args[0], ast.Starred):
            # ``criterion(logits.transpose(1, 2), y)``: the loss function, on an input that shows its rank
            rank = _shown_rank(node.args[0], self.facts.aliases, self.shown_ranks) or loss[2]
            if rank:
                self.op_calls.add((loss[0], ((None, "", VisibleRank(rank)), *loss[1])))
        body = self.current
        if self._loaded_module(node):
            body.uses.add(LOAD)
        if isinstance(node.func, (ast.Subscript, ast.Call)):
            self._globals_lookup(node)
        name = _dotted(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        dynamic = self._dynamic_import(node.func.value) if isinstance(node.func, ast.Attribute) else None
        if dynamic is not None:
            # ``__import__("model.net", fromlist=["Net"]).Net()``: the module's class, by name
            name = f"{dynamic}.{node.func.attr}"  # type: ignore[union-attr]
        maker = _dotted(node.func.func) if isinstance(node.func, ast.Call) else None
        if maker is not None and not _names_class(maker):
            # ``get_model_cls(name)(env)``: what the project function returns, called (a class it
            # returns is built, a function it defined runs), as on a local bound to its result
            name = f"{RETURNED_CALL}{node.lineno}:{node.col_offset}"
            body.made_by[name] = self.imported(maker) or maker
        if name is None and method is not None and _is_super_call(node.func.value) and body.owner is not None:  # type: ignore[attr-defined]
            name = f"{SUPER_CALL}.{method}"  # ``super().__init__(args)``: the base classes' method
        elif name is None and isinstance(node.func, ast.Call) and _is_built_method(ast.Attribute(value=node.func, attr="__call__")):
            # ``Aug()(x)``: the object built on the spot is called, which runs its ``__call__``
            name = self._built_method(ast.Attribute(value=node.func, attr="__call__"))
        elif name is None and method is not None:
            name = f"{UNNAMED}.{method}"  # a method of a computed object: ``Fabric().seed_everything(0)``
            if _is_built_method(node.func):
                # a method of an object built on the spot (``TrainLoop(...).run_loop()``): the
                # call graph follows it as on a local bound to it, named for the class
                name = self._built_method(node.func)  # type: ignore[arg-type]
        if method in DICT_METHODS and isinstance(node.func.value, ast.Name) and self.dicts.tracks(node.func.value.id):
            positional = [a for a in node.args if not isinstance(a, ast.Starred)]
            key = _string(positional[0]) if positional else MISSING
            default = positional[1] if len(positional) > 1 else MISSING
            self.dicts.method(node.func.value.id, method, _arg_items(node), key, default)
        if name is None and isinstance(node.func, ast.Subscript) and isinstance(node.func.value, ast.Name) and node.func.value.id in self.bound:
            name = node.func.value.id  # ``model_dict[args.model](...)``: each class the dict holds
        elif name is None and isinstance(node.func, ast.Subscript) and isinstance(node.func.value, ast.Name):
            table = self.imported(node.func.value.id)
            if table is None and self.facts.module_name and node.func.value.id not in self.parameters:
                # a dict of this module's own (``GETTERS = {"csv": get_csv}`` at its top level,
                # maybe below the function that calls an entry)
                table = f"{self.facts.module_name}.{node.func.value.id}"
            if table is not None and node.func.value.id not in self.current.local_params:
                # ``DATASET_GETTERS[args.dataset](...)`` on a dict imported from a project module:
                # any class it holds (:attr:`ModuleFacts.tables`), as a name looked up there
                self.current.lookups.append((table, None, None))
        written, node = node, self._with_partial(node)  # (what the call's arguments are: a partial's too)
        args = AstArgs(self._argparse_call(node), self.dicts.expand, self._attribute_literal)
        counted: Set[str] = set()  # the devices the call's effect counts as evidence
        # ``StandardScaler().fit(X)`` trains nothing (asked once per call, only of training methods)
        estimator = method in TRAIN_MARKERS and self._library_estimator(node)
        # a local name bound to classes (``fn = A if fast else B``) calls each of them, as a
        # dict display of classes looked up on the spot does (``{"a": A, "b": B}[task]()``)
        inline = _class_names(node.func) if name is None and type(node.func) is ast.Subscript else ()
        for callee in inline or (self.bound.get(name) if self.bound and name is not None else None) or (name,):
            qualified, *others = (callee,) if dynamic is not None else self.imported_all(callee) if callee is not None else (None,)
            if callee is not None:
                stored = qualified or callee
                body.calls.append(stored)
                if qualified is None and self.facts.star_imports and not node.args and not node.keywords:
                    body.argless_calls = body.argless_calls | {len(body.calls) - 1}
                if self.guard is not None and (_decides_calls(self.guard) or self.guard.startswith(ATTRIBUTE_GUARD)):
                    guard = self.guard
                    self._guard_test_seen(body, guard, self.guard_test)
                    body.guarded_calls = {**body.guarded_calls, guard: body.guarded_calls.get(guard, frozenset()) | {len(body.calls) - 1}}
                if self._forwards_own_kwargs(node):
                    named = frozenset(k.arg for k in node.keywords if k.arg is not None)
                    body.kwargs_forwarded = {**body.kwargs_forwarded, len(body.calls) - 1: named}
                if self.branch_depth:
                    body.conditional_calls.add(len(body.calls) - 1)
                if qualified is not None:
                    body.imported.add(stored)
                if callee.rsplit(".", 1)[-1] in TRAINING_METHODS and "." in callee and not estimator:
                    body.trains = True
            # (``data["train"].shuffle()`` in a module that imports ``load_dataset``: the library's)
            library = library_method(method, self.facts.aliases, self.dicts.source) if qualified is None and method is not None else None
            effect = classify_call(library or qualified, method, args)
            if not effect.draws and (library or qualified) in SEEDED_DRAWS and not (self.in_if or self.in_ifexp):
                self._seed_from_option(body, library or qualified, method, node)  # type: ignore[arg-type]
            if qualified in DATALOADERS and SHUFFLES not in effect.uses and self._forwards_own_kwargs(node):
                # ``DataLoader(data, shuffle=True, **kwargs)`` in ``def make_loader(args, **kwargs)``:
                # the callers' extra keywords (workers, pinned memory) rarely hold a generator, and
                # none can turn an explicit ``shuffle=True`` off: it shuffles from the global generator
                own = self._own_kwargs()
                bare = ast.Call(node.func, node.args, [k for k in node.keywords if not (k.arg is None and isinstance(k.value, ast.Name) and k.value.id == own)])
                effect = classify_call(qualified, method, AstArgs(bare, self.dicts.expand, self._attribute_literal))
            if callee == f"{SUPER_CALL}.__init__" and body.owner is not None and not effect.known:
                # ``super().__init__(deterministic=True, **kwargs)`` in ``class MyTrainer(Trainer)``:
                # the library base built with these arguments (collie's ``CollieTrainer``)
                first = self.facts.bases.get(body.owner, ())[:1]
                # (not where it passes its own parameters on, ``deterministic=deterministic``:
                # the subclass's callers decide those)
                passed_on = any(isinstance(k.value, ast.Name) and k.value.id in body.local_params for k in node.keywords if k.arg is not None)
                if first and first[0][1] and not passed_on:
                    effect = classify_call(first[0][0], None, args)
            if qualified in STATE_GETTERS and node.args and isinstance(node.args[0], ast.Name):
                if self.constants[-1].get(_SAVED_STATE + node.args[0].id) == qualified:
                    effect = NO_EFFECT  # ``random.setstate(state)`` after ``state = random.getstate()``: a restore
            if callee == "setattr":
                self.set_attributes.add("*")  # ``setattr(args, name, value)``
            elif callee is not None and callee.partition(".")[0] in self.parsed_names and callee.rpartition(".")[2] in _DICT_CHANGES:
                self.set_attributes.add("*")  # ``opt.update(...)`` on ``opt = vars(parser.parse_args())``
            elif isinstance(node.func, ast.Attribute) and node.func.attr in _DICT_CHANGES and _is_vars(node.func.value):
                # ``vars(args).update(...)`` changes any option; only reading ``vars(args)``
                # (``.items()``, ``**vars(args)``, printing it) changes none
                self.set_attributes.add("*")
            if callee is not None and (node.args or node.keywords) and not effect.known:
                body.call_literals[len(body.calls) - 1] = _literals(node, self._argument_constant, self.dicts.expand)
                mapped = _mapped_literals(node, self._argument_constant, body.call_literals[len(body.calls) - 1])
                if mapped is not None:
                    body.mapped_literals = {**body.mapped_literals, len(body.calls) - 1: mapped}
            if callee is not None and node.args and not effect.known:
                named = tuple(_device_in(arg) for arg in node.args)
                if any(named):
                    body.call_devices[len(body.calls) - 1] = named
            if qualified is not None and qualified.startswith("os."):
                self._environ_call(qualified, node)
            if effect is not NO_EFFECT:
                reseeded = self._reseed_parameter(qualified, args)
                if reseeded is not None:
                    # ``np.random.seed(seed)`` in ``def random_seed(seed=None)``: with no seed
                    # given, NumPy reseeds from OS entropy, as under ``if seed is not None:``
                    self._effect(effect.effects, reseeded, (GUARD_COMPARISONS[ast.IsNot], None))
                else:
                    self._effect(effect.effects, self._switch_parameter(qualified, args))
                uses = effect.uses - {TRAIN} if estimator else effect.uses
                if "torch" in uses and self._in_module_init():
                    # ``embed = torch.randn(dim, n)`` in an nn.Module's ``__init__``: initial
                    # weights (a buffer, a parameter), replaced when a checkpoint is loaded
                    uses = (uses - {"torch"}) | {INIT}
                if self.asking_about_device:
                    uses = uses - DEVICE_USES  # ``get_device_properties(torch.device("cuda"))``
                draws = effect.draws
                if self.empty_weights and uses & {INIT, PRETRAINED}:
                    # ``with init_empty_weights(): model = create_model(...)``: built on the meta
                    # device, with no weights to draw
                    uses, draws = uses - {INIT, PRETRAINED}, draws - {"torch"}
                if self.guard is not None and (uses & GENERATOR_USES or draws):
                    # used only when the parameter's test holds (devices are weighed on their own)
                    self._guard_test_seen(body, self.guard, self.guard_test)
                    held = uses & GENERATOR_USES
                    body.guarded_uses = {**body.guarded_uses, self.guard: body.guarded_uses.get(self.guard, frozenset()) | held}
                    body.guarded_draws = {**body.guarded_draws, self.guard: body.guarded_draws.get(self.guard, frozenset()) | draws}
                    uses, draws = uses - held, frozenset()
                devices = uses & DEVICE_USES
                guarded = self.guard is not None and bool(devices) and not self.asking_about_device
                if guarded:
                    # ``if device != "cpu": self.net.cuda()`` in ``def __init__(self, dim, device)``:
                    # on the device only for the calls whose argument passes the test (a program
                    # that passes ``"cpu"`` does not run there; one passing an option's value does)
                    self._guard_test_seen(body, self.guard, self.guard_test)
                    body.guarded_uses = {**body.guarded_uses, self.guard: body.guarded_uses.get(self.guard, frozenset()) | devices}
                    uses = uses - devices
                shuffled_by = self._shuffle_parameter(qualified, args) if SHUFFLES in uses else None
                if shuffled_by is not None:
                    # ``DataLoader(data, shuffle=shuffle)`` in ``def get_data_loader(self, data,
                    # shuffle=False)``: it shuffles only for the calls that turn the parameter on,
                    # as under ``if shuffle:``
                    held = uses & {"torch", SHUFFLES}
                    body.guarded_uses = {**body.guarded_uses, shuffled_by: body.guarded_uses.get(shuffled_by, frozenset()) | held}
                    uses = uses - held
                # ``DEVICE = torch.device("cuda" if ... else "cpu")`` in a module's top level
                # names the device its code means to use: evidence where the path runs that top
                # level as a script's, or places something on a device named elsewhere after
                # only importing it, as an option's default is (a package that picks a default
                # device when imported runs nothing there by itself)
                declared = qualified in DEVICE_CONSTRUCTORS and body is self.facts.module_body
                body.uses |= uses - DEVICE_USES if declared else uses
                body.draws |= draws
                # ``torch.device("cuda" if args.cuda else "cpu")``: named in one branch of a
                # conditional expression the default path's values may decide, as under an ``if``
                chosen = any(
                    isinstance(argument, ast.IfExp) and _decidable_test(argument.test)
                    for argument in _device_argument_nodes(node, method, qualified)
                ) if devices else False
                self.branch_depth += chosen
                body.branches = body.branches or chosen
                for device in devices:
                    self._device_used(device, declared, guarded)
                self.branch_depth -= chosen
                counted |= devices
            if PLACES in effect.uses or (method == "to" and not effect.uses & DEVICE_USES):
                self._device_variable(qualified, method, args)
            primary = len(body.calls) - 1
            for other in others:  # what another branch's import bound the name to, called alike
                body.calls.append(other)
                body.conditional_calls.add(len(body.calls) - 1)
                body.imported.add(other)
                for kept in (body.call_literals, body.call_devices):
                    if primary in kept:
                        kept[len(body.calls) - 1] = kept[primary]
                if primary in body.mapped_literals:
                    body.mapped_literals = {**body.mapped_literals, len(body.calls) - 1: body.mapped_literals[primary]}
        # what the callee's name stands for through the imports (asked once: a hot path, and
        # nothing below changes what the imports bind before the arguments are visited)
        imported_name = self.imported(name) if name is not None else None
        callee_name = imported_name or ""
        if (method == "to" or any(k.arg == "device" for k in node.keywords)) and callee_name not in PARTIALS and not callee_name.startswith(OTHER_RUNTIMES):
            device = args.node("device", 0 if method == "to" else None)
            # one piece of evidence per call: ``torch.tensor(x, device="cuda")`` is counted once
            self.counted_devices, outer = frozenset(counted), self.counted_devices
            try:
                if isinstance(device, ast.AST) and not self._device_value(device):
                    body.uses.add(PLACES)  # on a device named elsewhere (``.to(args.device)``)
            finally:
                self.counted_devices = outer
        accelerator = next((k.value for k in node.keywords if k.arg == "accelerator"), None)
        if isinstance(accelerator, ast.Name) and self._parameter(accelerator) is not None:
            # ``Trainer(accelerator=accelerator)`` in ``def predict(accelerator="gpu")``: the
            # parameter's default, in Lightning's names, where a call leaves it out
            self._device_value(accelerator, lightning=True)
        if method == OPTION_DECLARATION[0]:
            self._option(node)
        elif method == OPTION_DEFAULTS and isinstance(node.func, ast.Attribute):
            # ``parser.set_defaults(deterministic=True)``: parser-level defaults override those of
            # ``add_argument`` whatever the order (argparse), also of options a library declares
            for keyword in node.keywords:
                if keyword.arg is not None:
                    self.facts.options[keyword.arg] = ast_literal(keyword.value)
                    self.parser_defaults.add(keyword.arg)
        passed_args = [*node.args, *(k.value for k in node.keywords)]
        if isinstance(node.func, ast.Name) and node.func.id == "getattr" and self._lookup(node):
            passed_args = passed_args[1:]  # the module, looked up by name: not handed on whole
        if _is_super_call(node):
            passed_args = []  # ``super(Cls, self)`` names the class, it does not hand it on
        callee = imported_name
        inspected = name is not None and only_inspects(name, callee)
        dispatcher = callee in CLI_DISPATCHERS
        loader = DATALOADERS.get(callee or "")
        dataset = AstArgs(node).node(loader[0], 0) if loader is not None else None
        container = _container_root(node)
        for arg in passed_args:
            ref = _dotted(arg) if not _is_built_method(arg) else self._built_method(arg)  # type: ignore[arg-type]
            # a name passed on, or objects built and handed on: ``Compose([Blur()])``
            # (a local bound to classes, ``Net = BernNet`` then ``RunExp(Net)``: each of them)
            held = self.display_refs.get(_dotted(arg.value) or "") if ref is None and type(arg) is ast.Subscript and self.display_refs else None  # type: ignore[attr-defined]
            if held is not None:
                refs = list(held)  # ``datasets[x]``: what the display holds
            else:
                refs = [ref, *self.display_refs.get(ref, ()), *self.bound.get(ref, ())] if ref is not None else _constructed(arg, self.own_classes)
                if not refs and type(arg) is ast.Call and type(arg.func) is ast.Name and arg.func.id in self.bound:  # type: ignore[attr-defined]
                    refs = list(self.bound[arg.func.id])  # type: ignore[attr-defined]  # ``make()`` on ``make = partial(Items, 10)``
            if container is not None and container not in self.parameters and container not in self.facts.aliases:
                # ``train_transform.transforms.append(Cutout())``: put into what a local holds, they
                # go where it goes too, as those of ``Compose([Cutout()])`` do (into a dataset that
                # DataLoader workers run, ``_built_from``)
                added = [self.imported(r) or r for r in refs]
                self.display_refs[container] = [*self.display_refs.get(container, ()), *added]
                self.bound_refs.setdefault(container, []).extend(added)
            for passed in refs:
                if inspected and passed == ref and "." not in passed and self.imported(passed) is None and passed not in self.own_classes and passed not in self.own_functions:
                    continue  # a local object only looked at (``len(data)``, ``print(model)``): none of its methods run
                # (a module's name the body rebinds to an object it builds, ``logger =
                # logger.Logger(path)``, is that object)
                qualified_ref = self.imported(passed) if passed not in body.instances else None
                body.refs.append(qualified_ref or passed)
                if ref is None or inspected:
                    # built here, or only looked at (``isinstance(dm, DataModule)``: an object
                    # of the class is around, whose methods may run, but nothing builds it here)
                    body.built_refs = body.built_refs | {qualified_ref or passed}
                if qualified_ref is not None:
                    body.imported.add(qualified_ref)
                if dispatcher:
                    body.cli_refs = body.cli_refs | {qualified_ref or passed}
                if arg is dataset and ref is not None:
                    body.dataset_refs = body.dataset_refs | {qualified_ref or passed}
        if dispatcher and callee == "fire.Fire" and not passed_args:
            # ``fire.Fire()``: the module's own functions are the commands (``python train.py
            # train``), each called with the options given, as ``fire.Fire(train)`` calls one
            commands = sorted(n for n in self.own_functions if not n.startswith("_"))
            body.refs.extend(commands)
            body.cli_refs = body.cli_refs | frozenset(commands)
        # ``Pool(2, initializer=init)``: the initializer runs in each worker process (its seeding
        # is theirs, as a DataLoader's worker_init_fn's is)
        pool = (name.rsplit(".", 1)[-1] if name is not None else method) in PROCESS_POOLS
        for keyword in node.keywords:
            if keyword.arg in WORKER_CALLBACKS or (pool and keyword.arg == "initializer"):
                body.worker_refs.update(self._handed(keyword.value))
        loader = imported_name
        if name in self.partials:
            loader = self.imported(_dotted(self.partials[name].args[0]) or "")  # ``make = partial(DataLoader, ...)``
        if loader in DATALOADERS:
            self._loader_dataset(node, DATALOADERS[loader])
        elif name is not None and (name in self.facts.loaders or "DataLoader" in (loader or "").rsplit(".", 1)[-1]):
            # a project subclass of DataLoader, of this module (``class MyLoader(DataLoader)``) or
            # named as one (GraphMVP's ``DataLoaderMasking``): its keywords reach the base's
            found = self.facts.loaders.get(name)
            params = found.params if found is not None and found.params is not None else DATALOADERS["torch.utils.data.DataLoader"]
            self._loader_dataset(node, params)
        # (a partial's own arguments were visited where it was made, and evaluated there once)
        if loader in DEVICE_INFO_CALLS and not self.asking_about_device:
            self.asking_about_device = True  # the devices in its arguments are asked about
            try:
                self.generic_visit(written)
            finally:
                self.asking_about_device = False
            return
        self.generic_visit(written)

    def _cli_defaults(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> Tuple[Dict[str, Any], FrozenSet[str]]:
        """The defaults a command-line library gives a command's parameters, as literals:
        ``@click.option("--seed", default=-1)`` on ``def main(seed)`` (the name click derives, or
        the one given; ``is_flag=True`` defaults to False), and ``seed: int = typer.Option(0)``
        (``...``: required, no default); the command runs with them on the default path. Also
        the parameters whose default click gives (:attr:`BodyFacts.click_defaults`)."""
        found: Dict[str, Any] = {}
        clicked: Set[str] = set()
        for decorator in node.decorator_list:
            if not (isinstance(decorator, ast.Call) and self.imported(_dotted(decorator.func) or "") in CLICK_OPTIONS):
                continue
            names = [_string(a) for a in decorator.args]
            if not names or any(n is None for n in names):
                continue
            keywords: Dict[str, Any] = {k.arg: k.value for k in decorator.keywords if k.arg in ("default", "required")}
            plain = [n for n in names if not n.startswith("-")]  # type: ignore[union-attr]
            if plain:
                keywords["dest"] = plain[0]
            if "default" not in keywords and any(k.arg == "is_flag" and ast_literal(k.value) is True for k in decorator.keywords):
                keywords["action"] = "store_true"
            if "required" in keywords:
                keywords["required"] = ast_literal(keywords["required"])
            declared = option_default([n for n in names if n.startswith("-")] or plain, keywords)  # type: ignore[misc, union-attr]
            if declared is not None:
                found[declared[0].lower()] = ast_literal(declared[1]) if isinstance(declared[1], ast.AST) else declared[1]
                clicked.add(declared[0].lower())
        arguments = node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        pairs = [*zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults), *zip(arguments.kwonlyargs, arguments.kw_defaults)]
        for arg, default in pairs:
            if isinstance(default, ast.Call) and self.imported(_dotted(default.func) or "") in TYPER_OPTIONS:
                given = default.args[0] if default.args else next((k.value for k in default.keywords if k.arg == "default"), None)
                value = ast_literal(given) if given is not None else None
                if value is not Ellipsis:
                    found[arg.arg] = value
        return found, frozenset(clicked)

    def _library_head(self, func: ast.expr) -> None:
        """``Wav2Vec2ForCTC.from_pretrained(...)`` (or ``Wav2Vec2ForCTC(config)``): a library
        model that runs an op (:data:`~repro_lint.opcatalog.LIBRARY_HEADS`) builds the op's
        module, with arguments the code does not see."""
        if type(func) is ast.Attribute and func.attr in _PRETRAINED_BUILDERS:
            func = func.value
        op = library_head_op(self.imported(_dotted(func) or "") or "")
        if op is not None:
            self.op_calls.add((op, BUILT_INSIDE))

    def _loss_module(self, target: ast.AST, value: ast.AST) -> None:
        """``criterion = nn.CrossEntropyLoss(reduction="sum").cuda()`` (or ``self.criterion``):
        the name's calls are the loss function (:data:`~repro_lint.opcatalog.SPATIAL_LOSS_MODULES`)
        with the module's ``reduction``, on a spatial input for a segmentation loss (MONAI's
        ``DiceCELoss``, :data:`~repro_lint.opcatalog.SEGMENTATION_LOSS_MODULES`); bound to
        anything else, no longer."""
        name = _dotted(target)
        if name is None:
            return
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("cuda", "to", "npu", "cpu"):
            value = value.func.value  # moved to a device: the same module
        qualified = self.imported(_dotted(value.func) or "") or "" if isinstance(value, ast.Call) else ""
        function = SPATIAL_LOSS_MODULES.get(qualified) or SEGMENTATION_LOSS_MODULES.get(qualified)
        if function is None:
            held = self.loss_modules.get(_dotted(value) or "") if isinstance(value, (ast.Name, ast.Attribute)) else None
            if held is not None:
                self.loss_modules[name] = held  # ``criterion = self.criterion``
            else:
                self.loss_modules.pop(name, None)
            return
        reduction = next((k.value for k in value.keywords if k.arg == "reduction"), None)  # type: ignore[union-attr]
        keywords = (("reduction", "", _literal_argument(reduction)),) if reduction is not None else ()
        self.loss_modules[name] = (function, keywords, SEGMENTATION_RANK if qualified in SEGMENTATION_LOSS_MODULES else 0)

    def _shown_shape(self, target: ast.AST, value: ast.AST) -> None:
        """``[n, _, d, h, w] = out.shape`` (or ``= out.size()``): ``out`` shows rank 5 to the
        calls after it (:attr:`shown_ranks`); a name bound to anything else shows none."""
        if self.shown_ranks and isinstance(target, ast.Name):
            self.shown_ranks.pop(target.id, None)
        if isinstance(value, ast.Call) and not value.args and not value.keywords and isinstance(value.func, ast.Attribute) and value.func.attr == "size":
            value = value.func  # ``out.size()``: its shape
        if (
            isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) >= 3
            and not any(isinstance(e, ast.Starred) for e in target.elts)
            and isinstance(value, ast.Attribute) and value.attr in ("shape", "size")
        ):
            shaped = _dotted(value.value)
            if shaped is not None:
                self.shown_ranks[shaped] = len(target.elts)

    def _built_method(self, arg: ast.Attribute) -> str:
        """``Collator(params).collate``, called or handed on: a method of an object built on the
        spot, named ``Collator().collate``, with the object's class recorded in the body's
        instances under ``Collator()``."""
        built = _dotted(arg.value.func)  # type: ignore[attr-defined]
        built_name = built_object_name(built)  # type: ignore[arg-type]
        qualified, *others = self.imported_all(built)  # type: ignore[arg-type]
        self.current.instances[built_name] = (qualified or built, *others)  # type: ignore[assignment]
        if qualified is not None:
            self.current.imported.update((qualified, *others))
        return f"{built_name}.{arg.attr}"

    def _loader_dataset(self, node: ast.Call, params: Tuple[str, ...]) -> None:
        """A DataLoader with worker processes on the default path (``num_workers`` a positive
        literal, or an option of this module whose default is one) runs its dataset, and the
        transforms that went into it, in those workers: the objects handed into the dataset
        argument, through the local names it was built from (``ds = ImageFolder(root,
        Compose([Blur()]))``), are what the workers run. Decided once the module's options are
        all known (:meth:`resolve_loader_workers`)."""
        args = AstArgs(node, self.dicts.expand)  # ``DataLoader(ds, **params)``: the dict built here
        dataset = args.node("dataset", loader_position(params, "dataset"))
        workers = args.node("num_workers", loader_position(params, "num_workers"))
        if not isinstance(dataset, ast.AST) or not isinstance(workers, ast.AST):
            return
        if (
            isinstance(workers, ast.Call) and isinstance(workers.func, ast.Name) and workers.func.id == "int"
            and "int" not in self.facts.aliases and len(workers.args) == 1 and not workers.keywords
        ):
            workers = workers.args[0]  # ``int(opt.workers)``: the option's value, as a number
        count = self._constant(workers)
        if isinstance(workers, ast.Call) and isinstance(workers.func, ast.Name) and workers.func.id == "max" and "max" not in self.facts.aliases:
            # ``max(1, args.cpu_num // 2)``: at least its largest literal
            bounds = [v for v in map(self._constant, workers.args) if isinstance(v, int) and not isinstance(v, bool)]
            count = max(bounds) if bounds else UNKNOWN
        if isinstance(count, OptionValue) or (isinstance(count, int) and not isinstance(count, bool) and count > 0):
            # (an option of the options a project function returns: ``sets = parse_opts()``)
            origin = self._returned_by(workers.value) if isinstance(count, OptionValue) and isinstance(workers, ast.Attribute) else None
            # (given a generator of its own, the workers' seeds come from it: NONDETERMINISM.md 1.1)
            generator = args.node("generator", loader_position(params, "generator"))
            own = isinstance(generator, ast.AST) and not (isinstance(generator, ast.Constant) and generator.value is None)
            self.loader_workers.append((self.current, count, self._built_from(dataset), origin, own))

    def _built_from(self, value: ast.AST) -> List[str]:
        """The refs handed into ``value`` (:meth:`_handed`, and the objects built in its calls'
        arguments), and those of every value bound to the local names among them (in any
        branch), again."""
        found: List[str] = []
        stack: List[str] = [self.imported(built) or built for built in _constructed(value, self.own_classes)]
        for node in _walk(value):
            if isinstance(node, ast.Call):
                stack.extend(
                    self.imported(built) or built
                    for arg in (*node.args, *(k.value for k in node.keywords))
                    for built in _constructed(arg, self.own_classes)
                )
        stack.extend(self._handed(value))
        seen: Set[str] = set()
        while stack:
            ref = stack.pop()
            if ref in seen:
                continue
            seen.add(ref)
            found.append(ref)
            stack.extend(self.bound_refs.get(ref, ()))
        return found

    def _seed_from_option(self, body: BodyFacts, qualified: str, method: Optional[str], node: ast.Call) -> None:
        """``ds.train_test_split(test_size=0.1, seed=args.seed)``, outside any ``if`` (or ``a if
        test else b``, which may test the seed: ``if args.seed is not None``): with the
        module's options taking their defaults, a seed option that defaults to None seeds
        nothing, so the call draws from the global generator as with no seed. Decided once the
        module's options are all known (:meth:`resolve_option_draws`)."""
        dests: List[str] = []

        def literal(arg: ast.AST) -> Any:
            found = self._constant(arg)
            if isinstance(found, OptionValue):
                dests.append(found.dest)
                return None
            return UNKNOWN if isinstance(found, ParsedOptions) else found

        effect = classify_call(qualified, method, AstArgs(node, self.dicts.expand, literal))
        if effect.draws and dests:
            self.option_draws.append((body, tuple(dests), effect.draws, effect.uses))

    def resolve_option_draws(self) -> None:
        """The calls of :meth:`_seed_from_option` whose options all default to None draw."""
        for body, dests, draws, uses in self.option_draws:
            if all(dest in self.facts.options and self.facts.options[dest] is None for dest in dests):
                body.draws |= draws
                body.uses |= uses

    def resolve_loader_workers(self) -> None:
        """The dataset refs of the loaders whose workers are known now (see
        :meth:`_loader_dataset`) run in DataLoader workers."""
        seeded: Dict[int, Tuple[BodyFacts, Set[str], Set[str]]] = {}  # body -> (own generator, not)
        for body, count, refs, origin, own in self.loader_workers:
            if isinstance(count, OptionValue) and count.dest not in self.facts.options and origin:
                body.option_worker_refs = (*body.option_worker_refs, (origin, count.dest, tuple(refs)))
                continue
            if isinstance(count, OptionValue):
                count = self.facts.options.get(count.dest)
            if has_workers(count):
                body.worker_refs.update(refs)
                seeded.setdefault(id(body), (body, set(), set()))[1 if own else 2].update(refs)
        for body, own, plain in seeded.values():
            if own - plain:
                body.seeded_worker_refs = frozenset(own - plain)

    def _handed(self, value: ast.AST) -> List[str]:
        """The refs a callback argument hands on: its name, the refs made in the value last
        bound to it when it is a local name (``init_fn = partial(worker_init_fn, seed=seed)``),
        and the names passed to the calls in it (``partial(worker_init_fn, seed=seed)``)."""
        found: List[str] = []
        for node in _walk(value):
            passed = [node] if node is value else []
            if isinstance(node, ast.Call):
                passed += [*node.args, *(k.value for k in node.keywords)]
            for item in passed:
                name = _dotted(item)
                if name is not None:
                    found.append(self.imported(name) or name)
                    found.extend(self.value_refs.get(name, ()))
        return found

    def _globals_lookup(self, node: ast.Call) -> None:
        """``globals()[name](...)`` or ``globals().get(name)(...)`` (``locals()`` in the top
        level, where it is the same table: P-GNN's ``locals()[args.model](...)``): a name of this
        module looked up by a string, recorded as :meth:`_lookup` records ``getattr(module,
        name)``: the name when it is a literal, or the option whose default names it, else any
        public name of the module (ivadomed's ``Compose``). Also ``module.__dict__[name](...)``
        on an imported module, as ``getattr(module, name)`` (FlowNet's
        ``datasets.__dict__[args.dataset](...)``)."""
        func = node.func
        if isinstance(func, ast.Subscript):
            table, key = func.value, func.slice
        elif isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "get" and func.args:
            table, key = func.func.value, func.args[0]
        else:
            return
        head = _dotted(table.value) if isinstance(table, ast.Attribute) and table.attr == "__dict__" else None
        module = self.imported(head) if head is not None else None
        if module is not None:
            self.current.lookups.append((module, _string(key), key.attr if isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) else None))
            return
        if not (isinstance(table, ast.Call) and isinstance(table.func, ast.Name) and not table.args):
            return
        if not (table.func.id == "globals" or (table.func.id == "locals" and not self.scope)):
            return
        if table.func.id in self.facts.aliases or not self.facts.module_name:
            return
        name, option = _string(key), None
        if name is None and isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name):
            option = key.attr  # ``args.model``: the option's default names it
        self.current.lookups.append((self.facts.module_name, name, option))

    def _lookup(self, node: ast.Call) -> bool:
        """``getattr(module, name)`` on an imported name (a project module, maybe): recorded
        with the name when it is a literal, or the option whose default names it."""
        if "getattr" in self.facts.aliases or len(node.args) < 2 or node.keywords:
            return False
        head = _dotted(node.args[0])
        module = self.imported(head) if head is not None else None
        if module is None:
            return False
        name, option = _string(node.args[1]), None
        if name is None and isinstance(node.args[1], ast.Attribute) and isinstance(node.args[1].value, ast.Name):
            option = node.args[1].attr
        self.current.lookups.append((module, name, option))
        return True

    def _argparse_call(self, node: ast.Call) -> ast.Call:
        """Lightning 1.x's ``Trainer.from_argparse_args(args, **overrides)`` with the parsed
        options: the call as ``Trainer(**overrides, **vars(args))`` is read (the overrides win;
        an option this module does not declare keeps the Trainer's default)."""
        if not (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "from_argparse_args"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in self.parsed_names
        ):
            return node
        options = ast.Call(func=ast.Name(id="vars", ctx=ast.Load()), args=[node.args[0]], keywords=[])
        return ast.Call(func=node.func, args=node.args[1:], keywords=[*node.keywords, ast.keyword(arg=None, value=options)])

    def _option(self, node: ast.Call) -> None:
        """``parser.add_argument("--agent", default="dqn")``: the option's default by destination."""
        flags = [_string(a) for a in node.args]
        if not flags or any(f is None for f in flags):
            return
        keywords: Dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg == "default":
                keywords["default"] = keyword.value
            elif keyword.arg in ("dest", "action", "nargs"):
                keywords[keyword.arg] = _string(keyword.value)
            elif keyword.arg == "required":
                keywords["required"] = ast_literal(keyword.value)
        declared = option_default(flags, keywords)  # type: ignore[arg-type]
        if declared is not None and declared[0] not in self.parser_defaults:
            dest, default = declared
            self.facts.options[dest] = ast_literal(default) if isinstance(default, ast.AST) else default

    def _environ(self, name: Optional[str], value: Optional[ast.AST]) -> None:
        """An environment variable set to ``value``: an effect when it is one of
        :data:`~repro_lint.catalog.ENV_SWITCHES` and the value turns it on."""
        switch = ENV_SWITCHES.get(name or "")
        if switch is None or value is None:
            return
        literal = ast_literal(value)
        if not isinstance(literal, str) or literal.strip().lower() in switch[1]:
            self._effect((switch[0],))

    def _environ_call(self, qualified: Optional[str], node: ast.Call) -> None:
        if qualified in ENVIRON_SETTERS and len(node.args) == 2:
            self._environ(_string(node.args[0]), node.args[1])
        elif qualified == f"{ENVIRON}.update":
            for keyword in node.keywords:
                self._environ(keyword.arg, keyword.value)
            for arg in node.args:
                if isinstance(arg, ast.Dict):
                    for key, value in zip(arg.keys, arg.values):
                        self._environ(_string(key), value)

    def _constant(self, node: ast.AST) -> Any:
        """The literal ``node`` is, or that the name ``node`` holds where only one literal was
        bound to it before (in its function, else at the module's top level), else UNKNOWN."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id not in ("self", "cls"):
            # ``args.dist_backend = "nccl"`` earlier in the function: that literal, else the option
            local = self.constants[-1].get(f"{node.value.id}.{node.attr}", _NOT_SET)
            return OptionValue(node.attr) if local is _NOT_SET else local
        if not isinstance(node, ast.Name):
            return ast_literal(node)
        local = self.constants[-1]
        if node.id in local:
            return local[node.id]
        return self.constants[0].get(node.id, UNKNOWN)

    def _bound_value(self, node: ast.AST) -> Any:
        """The literal ``node`` holds as the code binds it: a literal, a name bound once to one
        (:meth:`_constant`: ``DETERMINISTIC = False``), or an entry of a dict the function or
        the module builds (``params["deterministic"]`` after ``params = {"deterministic":
        False}``); else UNKNOWN (a value chosen at run time)."""
        if isinstance(node, ast.Name):
            return self._constant(node)
        key = _string(node.slice) if isinstance(node, ast.Subscript) else None
        if key is not None:
            known = self.dicts.dict_of(node.value)  # type: ignore[attr-defined]
            entry = known.entries.get(key) if known is not None and known.complete else None
            return ast_literal(entry) if isinstance(entry, ast.AST) else UNKNOWN
        return ast_literal(node)

    def _in_module_init(self) -> bool:
        """Is the current body the ``__init__`` of a class deriving from an ``nn.Module`` (a
        ``torch.nn`` class, or a base named ``...Module``)?"""
        body = self.current
        if body.owner is None or not body.name.endswith(".__init__"):
            return False
        return any(
            base.startswith("torch.nn.") or base.rsplit(".", 1)[-1].endswith("Module") for base, _ in self.facts.bases.get(body.owner, ())
        )

    def _argument_constant(self, node: ast.AST) -> Any:
        """What a call's argument holds for :attr:`BodyFacts.call_literals`: as
        :meth:`_constant`, and a parameter of the current function that it has not rebound as
        :class:`ParamValue`."""
        if (
            isinstance(node, ast.Name)
            and len(self.constants) > 1
            and node.id in self.current.local_params
            and node.id not in self.constants[-1]
            and (node.id in self.current.defaults or node.id in self.current.params)
        ):
            return ParamValue(node.id)
        if (
            _on_self(node)
            and self.current.owner is not None
            and "self" in self.current.local_params
            and len(self.constants) > 1
            and _SELF_STORED + node.attr not in self.constants[-1]
        ):
            return SelfValue(node.attr)  # type: ignore[attr-defined]  # what ``__init__`` stores there
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parse_args" and not node.args and not node.keywords:
            # ``main(parser.parse_args())``: the module's options (not ``parse_args(["--lr", "1"])``)
            return ParsedOptions()
        if _is_vars(node) and "vars" not in self.facts.aliases and isinstance(self._constant(node.args[0]), ParsedOptions):  # type: ignore[attr-defined]
            # ``main(vars(args))``: a dict of the options, whose entries the callee reads (``opt["cuda"]``)
            return self._constant(node.args[0])  # type: ignore[attr-defined]
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and len(self.constants) > 1
            and node.value.id in self.current.params
            and node.value.id not in self.constants[-1]
            and f"{node.value.id}.{node.attr}" not in self.constants[-1]
        ):
            # ``set_random_seed(args.seed)`` in ``def setup_run(args)``: the option of the parsed
            # options the function's callers pass (the module's own option where not known)
            return ParamAttr(node.value.id, node.attr)
        found = self._constant(node)
        if found is UNKNOWN:
            # ``main(get_args())``, or ``build_loader(args)`` after ``args = parse_args()``: what
            # that project function returns, the parsed options where it returns them
            origin = self._call_origin(node) if isinstance(node, ast.Call) else self._returned_by(node)
            if origin:
                return ParsedOptions(origin=origin)
        return found

    def _call_origin(self, value: ast.AST) -> Optional[str]:
        """The function or method a call (``parse_args()``, ``options.parse()``,
        ``TrainOptions().parse()``) runs, import-qualified (a name of this module by the
        module's name); None for another expression, or a call through a parameter."""
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and not func.value.args:
            owner = self._own_or_imported(func.value.func, self.own_classes)  # ``TrainOptions().parse()``
            return f"{owner}.{func.attr}" if owner is not None else None
        if _on_self(func) and self.current.owner is not None and "self" in self.current.local_params:
            return f"{self.facts.module_name}.{self.current.owner}.{func.attr}"  # type: ignore[attr-defined]  # ``self.gather_options()``
        return self._own_or_imported(func, self.own_functions)

    def _own_or_imported(self, func: ast.AST, own: FrozenSet[str]) -> Optional[str]:
        dotted = _dotted(func)
        if dotted is None or dotted.partition(".")[0] in self.parameters:
            return None
        if dotted in own:
            return f"{self.facts.module_name}.{dotted}"
        return self.imported(dotted)

    def _returned_by(self, node: ast.AST) -> Optional[str]:
        """The call whose result the name ``node`` holds (see :meth:`_bind_constant`): in its
        function, else at the module's top level."""
        if _on_self(node):
            return self.constants[-1].get(_RETURNED_BY + "self." + node.attr)  # type: ignore[attr-defined, no-any-return]
        if not isinstance(node, ast.Name):
            return None
        key = _RETURNED_BY + node.id
        local = self.constants[-1]
        return local.get(key) if node.id in local or key in local else self.constants[0].get(key)

    def _attribute_literal(self, node: ast.Attribute) -> Any:
        """The literal set on ``obj.attr`` earlier in this function (``args.dist_backend =
        "nccl"``), as :meth:`_constant` reads it; UNKNOWN for an option's value."""
        found = self._constant(node)
        return UNKNOWN if isinstance(found, (OptionValue, ParsedOptions)) else found

    def _library_estimator(self, node: ast.Call) -> bool:
        """Is the receiver of this method call an object of a library whose ``fit`` fits
        something other than a model the program trains (``StandardScaler().fit(X)``,
        ``scaler.fit(X)`` after ``scaler = StandardScaler()``, ``env = gym.make(...)``;
        ``catalog.NOT_TRAINING_FIT``), or named as an environment (``env.step(action)``)?"""
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        dotted = _dotted(receiver) if receiver is not None else None
        if node.func.attr == "step" and dotted is not None and ENVIRONMENT_NAME.match(dotted.rsplit(".", 1)[-1]):  # type: ignore[union-attr]
            return True  # ``env.step(action)``: a simulation's step
        if isinstance(receiver, ast.Call):
            built = _dotted(receiver.func)
            classes: Tuple[str, ...] = (self.imported(built) or built,) if built is not None else ()
        elif isinstance(receiver, ast.Name):
            made = self.current.made_by.get(receiver.id)
            classes = self.current.instances.get(receiver.id, ()) or ((made,) if made is not None else ())
        else:
            return False
        return bool(classes) and all(c.startswith(NOT_TRAINING_FIT) for c in classes)

    def _store_on_self(self, attr: str, value: Optional[ast.AST]) -> None:
        """Record ``self.<attr> = value``: the method has stored it (a later
        ``self.<attr>`` argument is not ``__init__``'s), and an ``__init__`` records its source."""
        self.constants[-1][_SELF_STORED + attr] = True
        # ``self.opt = opt`` after ``opt = self.gather_options()``: what it holds, for ``return self.opt``
        origin = self._returned_by(value) if isinstance(value, ast.Name) else self._call_origin(value) if value is not None else None
        key = _RETURNED_BY + "self." + attr
        self.constants[-1][key] = origin if self.constants[-1].get(key, origin) == origin else None
        body = self.current
        if body.owner is None or body.name != f"{body.owner}.__init__":
            return
        source: Any = UNKNOWN
        if value is not None and self.branch_depth == 0:
            params, rebound = body.local_params, self.constants[-1]
            if isinstance(value, ast.Name) and value.id in params and value.id not in rebound:
                source = ParamValue(value.id)
            elif (
                isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                and value.value.id in params and value.value.id not in rebound
            ):
                source = ParamAttr(value.value.id, value.attr)
            else:
                source = ast_literal(value)
        sources = body.__dict__.get("self_sources")
        if sources is None:
            sources = body.self_sources = {}
        sources[attr] = source if sources.get(attr, source) == source else UNKNOWN  # type: ignore[index]

    def _bind_constant(self, target: ast.AST, value: Optional[ast.AST]) -> None:
        if _on_self(target):
            self._store_on_self(target.attr, value)  # type: ignore[attr-defined]
        if isinstance(target, ast.Name):
            # ``args = parse_args()``: what a project function returns, which the context reads
            # where the name is passed on (:meth:`_argument_constant`); bound twice to different
            # calls (or to anything else), none
            origin = self._call_origin(value) if value is not None else None
            key, scope = _RETURNED_BY + target.id, self.constants[-1]
            scope[key] = origin if scope.get(key, origin) == origin else None
            # ``state = random.getstate()``: the call that sets it back restores, it seeds nothing
            getter = self.imported(_dotted(value.func) or "") if isinstance(value, ast.Call) else None
            setter = _STATE_SETTERS.get(getter) if getter is not None else None
            if setter is not None:
                self.constants[-1][_SAVED_STATE + target.id] = setter
            else:
                self.constants[-1].pop(_SAVED_STATE + target.id, None)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id not in ("self", "cls"):
            # the literal set on an object's attribute in this function (UNKNOWN when set twice
            # to different values), read back by ``_constant`` and ``_attribute_literal``
            key = f"{target.value.id}.{target.attr}"
            literal = ast_literal(value) if value is not None else UNKNOWN
            scope = self.constants[-1]
            scope[key] = literal if scope.get(key, literal) == literal else UNKNOWN
        parsed = _parsed_options(target, value)
        if parsed is not None:
            self.parsed_names.add(parsed)
        # ``opt = vars(parser.parse_args())`` changes only as ``opt`` is changed (item assignments
        # and methods, below and in ``visit_Call``); ``d = vars(args)`` may change any option
        # through ``d``, as ``vars(args)[k] = v`` does
        if (isinstance(target, ast.Name) and _is_vars(value) and parsed is None) or (
            isinstance(target, ast.Subscript) and _is_vars(target.value)
        ):
            self.set_attributes.add("*")
        for node in _walk(target):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                self.set_attributes.add(node.attr)  # ``args.gpu = 0``: ``args`` itself is the same object
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.parsed_names:
                # ``opt["cuda"] = False`` on ``opt = vars(parser.parse_args())``: that option changes
                key = node.slice.value if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) else "*"
                self.set_attributes.add(key)
        bound = _bound_names(target)
        for name in (n.id for n in _walk(target) if isinstance(n, ast.Name)):
            if name not in bound and isinstance(self._constant(ast.Name(id=name)), ParsedOptions):
                continue  # an attribute set on the parsed options: they stay those (see set_attributes)
            literal = ast_literal(value) if isinstance(target, ast.Name) and value is not None else UNKNOWN
            if name == parsed:
                literal = ParsedOptions()  # ``args = parser.parse_args()``: the module's options
            scope = self.constants[-1]
            scope[name] = literal if scope.get(name, literal) == literal else UNKNOWN

    def _assigned(self, targets: Iterable[ast.AST], value: Optional[ast.AST]) -> None:
        for target in targets:
            self._bind_constant(target, value)
            if isinstance(target, ast.Name):
                # ``dev = "cpu" if ... else "cuda:0"``: the accelerator the local names, if it is
                # used as a device later (``main(device=dev)``, ``x.to(dev)``)
                named = device_named(_strings_in(value)) if value is not None else None
                if named is None and _data_device(value):
                    named = _FOLLOWS_DATA  # ``device = next(model.parameters()).device``
                scope = self.constants[-1]
                if named is not None:
                    scope[_DEVICE_NAMED + target.id] = named
                else:
                    scope.pop(_DEVICE_NAMED + target.id, None)
            if isinstance(target, ast.Name) and value is not None:
                self.dicts.assign(target.id, value)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                self.dicts.assign_key(target.value.id, _string(target.slice), value)
            self._device_setting(target, value)
            if isinstance(target, ast.Subscript) and self.imported(_dotted(target.value) or "") == ENVIRON:
                self._environ(_string(target.slice), value)
            if isinstance(target, ast.Attribute):
                name = _dotted(target)
                if name and self.imported(name) == CUDNN_DETERMINISTIC:
                    if value is None or is_on(self._bound_value(value)):
                        self._effect(("cudnn_deterministic",), self._parameter(value))
            holder = target.id if isinstance(target, ast.Name) else _dotted(target) if _on_self(target) else None
            if holder is not None:
                # ``agents = {"eps": EpsAgent(), "ucb": UCBAgent()}``, ``self.layers =
                # nn.ModuleList([Block(d) for _ in range(n)])``: the objects it holds, for a loop
                # over it (:meth:`visit_For`); rebinding the name forgets them
                held = self._held_instances(self._container(value))
                if held:
                    self.current.instances[holder + HELD] = held
                else:
                    self.current.instances.pop(holder + HELD, None)
            built = _built(value)
            if built is not None and isinstance(target, (ast.Name, ast.Attribute)):
                receiver = _dotted(target)
                callee = _dotted(built.func)
                if callee is not None and callee.endswith(_ARGPARSE_CONSTRUCTOR) and _names_class(callee[: -len(_ARGPARSE_CONSTRUCTOR)]):
                    # Lightning 1.x's ``DM.from_argparse_args(args)`` builds a ``DM`` (``cls(**kwargs)``)
                    callee = callee[: -len(_ARGPARSE_CONSTRUCTOR)]
                    qualified = self.imported(callee)
                    if qualified is not None:
                        self.current.imported.add(qualified)
                # a class taken from a table or a name bound to classes (``DATASETS[name](...)``,
                # ``self.dataset(...)`` after ``self.dataset = datasets_dict[name]``)
                table = built.func.value.id if isinstance(built.func, ast.Subscript) and isinstance(built.func.value, ast.Name) else callee
                tabled = self.bound.get(table, ()) if table is not None and self.bound else ()
                if receiver is not None and tabled and (isinstance(target, ast.Name) or receiver.startswith("self.")):
                    known = self.current.instances.get(receiver, ())
                    self.current.instances[receiver] = tuple(dict.fromkeys((*known, *(self.imported(c) or c for c in tabled))))
                elif receiver is not None and (isinstance(target, ast.Name) or receiver.startswith("self.")):
                    if callee is not None and _names_class(callee):
                        known = self.current.instances.get(receiver, ())
                        first, *others = self.imported_all(callee)
                        self.current.instances[receiver] = tuple(dict.fromkeys((*known, first or callee, *others)))
                        params = DATALOADERS.get(first or "")
                        if params is not None:
                            # ``loader.dataset`` is the dataset it was given (``train_loader =
                            # DataLoader(train_dataset)``, then ``train_loader.dataset.ng_sample()``)
                            given = AstArgs(built).node(params[0], 0)
                            held = self.current.instances.get(_dotted(given) or "") if isinstance(given, ast.AST) else None
                            if held:
                                self.current.instances[f"{receiver}.{params[0]}"] = held
                    elif callee is not None and not _handed_back(target, built, 0):
                        # ``model = build()``, ``self.model = self.get_model()``: what it returns
                        self.current.made_by[receiver] = self.imported(callee) or callee
                    elif callee is None and _is_built_method(built.func) and not _handed_back(target, built, 0):
                        # ``ds = DatasetFactory(root).get_dataset(name)``: what that method returns
                        self.current.made_by[receiver] = self._built_method(built.func)  # type: ignore[arg-type]
            # an element of what a project function returns (``model, name = build()``,
            # ``model = initialization(cfg)[0]``): one of the classes it returns
            element = value.value if isinstance(value, ast.Subscript) and isinstance(ast_literal(value.slice), int) else None
            call = value if isinstance(target, (ast.Tuple, ast.List)) else element
            callee = _dotted(call.func) if isinstance(call, ast.Call) else None
            if callee is not None and not _names_class(callee):
                names = [e for e in target.elts if isinstance(e, ast.Name)] if isinstance(target, (ast.Tuple, ast.List)) else [target]
                for name in names:
                    position = target.elts.index(name) if isinstance(target, (ast.Tuple, ast.List)) else 0
                    if isinstance(name, ast.Name) and not _handed_back(name, call, position):  # type: ignore[arg-type]
                        self.current.made_by[name.id] = self.imported(callee) or callee
            # a local, or an attribute of ``self`` (``self.dataset = datasets_dict[name]``, then
            # ``self.dataset(...)`` in the same method), bound to classes
            key = target.id if isinstance(target, ast.Name) else _dotted(target) if _on_self(target) else None
            if key is not None and not self.scope and isinstance(target, ast.Name) and isinstance(value, ast.Dict):
                table = _class_names(value) or _function_names(value, self.facts.functions)
                if table and self.facts.module_name:
                    self.facts.tables[key] = tuple(self.imported(c) or f"{self.facts.module_name}.{c}" for c in table)
                else:
                    self.facts.tables.pop(key, None)
            if (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"
                and isinstance(value.func.value, ast.Name) and len(value.args) == 1 and not value.keywords
            ):
                # ``cls = trainer_map.get(args.lib)``: an entry of the dict, as ``trainer_map[args.lib]``
                value = ast.Subscript(value=value.func.value, slice=value.args[0], ctx=ast.Load())
            if key is not None and (self.bound or isinstance(value, (ast.Name, ast.IfExp, ast.Dict, ast.Subscript, ast.Attribute))):
                # (or the object's own methods: ``fn = {"heun": self.sample_heun, ...}[self.kind]``)
                classes = _class_names(value) or (_own_methods(value) if "self" in self.current.local_params else ())
                if not classes and isinstance(value, ast.Subscript):
                    classes = self._bound_classes(value)  # ``model = MODELS[name]``: any of them
                if classes and self.in_if and key in self.bound:
                    # bound in a branch (``if name == "basicblock": block = BasicBlock`` / ``elif
                    # ...: block = Bottleneck``): any of them
                    self.bound[key] = tuple(dict.fromkeys((*self.bound[key], *classes)))
                elif classes:
                    self.bound[key] = classes
                else:
                    self.bound.pop(key, None)
            if isinstance(target, ast.Name) and isinstance(value, (ast.Subscript, ast.Call)):
                # ``fn = globals()[stage]``, then ``fn()``: looked up to be called, as
                # ``globals()[stage]()`` is (``getattr(module, name)`` is recorded where it is)
                self._globals_lookup(ast.Call(func=value, args=[], keywords=[]))
            dynamic = self._dynamic_import(value) if isinstance(target, ast.Name) and value is not None else None
            if dynamic is not None:
                self._bind_import(target.id, dynamic)  # ``net = importlib.import_module("models.net")``
            if isinstance(target, ast.Name) and value is not None and not isinstance(value, ast.Call):
                # follow ``cudnn = torch.backends.cudnn``
                source = _dotted(value)
                qualified = self.imported(source) if source else None
                if qualified and "." in qualified:
                    self.facts.aliases[target.id] = qualified

    def _dynamic_import(self, node: ast.AST) -> Optional[str]:
        """The module a call imports by a literal name and returns: ``importlib.import_module(
        "models.resnet")``, ``__import__("model.net", fromlist=["Net"])`` (without a
        ``fromlist``, ``__import__`` returns the top package), or by the default of a
        command-line option the module declares before (LaneGCN's ``import_module(args.model)``
        with ``--model`` defaulting to ``"lanegcn"``: the default path's module); None for
        anything else."""
        if not isinstance(node, ast.Call) or not node.args:
            return None
        first = node.args[0]
        if isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) and first.value.id in self.parsed_names:
            module = self.facts.options.get(first.attr)
        elif isinstance(first, ast.Constant):
            module = first.value
        else:
            return None
        if not isinstance(module, str) or not module or module.startswith("."):
            return None
        written = _dotted(node.func)
        if written == "__import__" and self.imported(written) is None:
            fromlist = next((k.value for k in node.keywords if k.arg == "fromlist"), node.args[3] if len(node.args) > 3 else None)
            return module if fromlist is not None and not (isinstance(fromlist, (ast.List, ast.Tuple)) and not fromlist.elts) else module.split(".")[0]
        return module if self.imported(written or "") == "importlib.import_module" else None

    def _shuffle_parameter(self, qualified: Optional[str], args: AstArgs) -> Optional[str]:
        """The current function's parameter that a DataLoader's ``shuffle`` is given by itself
        (``DataLoader(data, shuffle=shuffle)``), else None."""
        params = DATALOADERS.get(qualified or "")
        if params is None:
            return None
        given = args.node("shuffle", loader_position(params, "shuffle"))
        return self._parameter(given) if isinstance(given, ast.AST) else None

    def _device_setting(self, key: Optional[ast.AST], value: Optional[ast.AST]) -> None:
        """A device string stored under a device name (``device = "cuda"``, ``cfg.device =
        "npu:0"``, ``{"device": "cuda"}``): where the program runs."""
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            name: Optional[str] = key.value
        else:
            name = _dotted(key) if key is not None else None
        if name is not None and value is not None and is_device_name(name):
            called = self.imported(_dotted(value.func) or "") if isinstance(value, ast.Call) else None
            if called in DEVICE_CONSTRUCTORS or called in DEVICE_INFO_CALLS:
                # ``device = torch.device("cuda" ...)``: the call is the evidence, once;
                # ``device_properties = torch.cuda.get_device_properties(...)``: none
                return
            if self.kinds and self.kinds[-1]:
                # a config class's declaration (``device: str = "cuda"``) is read where the device
                # is used (``.to(cfg.device)``): it counts as an option's default does, where the
                # path runs the module, or places something on a device named elsewhere after
                # only importing it; ``accelerator: str = "auto"`` names nothing
                device = device_named(_strings_in(value)) if name.rsplit(".", 1)[-1].lower() != "accelerator" else None
                if device is not None and not self.asking_about_device:
                    self.current.uses.add(OPTION_DEVICE + device)
                return
            # Lightning's accelerator names (``accelerator = "gpu"``; not ``"auto"``), else torch's
            self._device_value(value, lightning=name.rsplit(".", 1)[-1].lower() == "accelerator")

    @staticmethod
    def _device_parameter(body: BodyFacts, param: str, default: Any) -> None:
        """A parameter named as a device whose default names an accelerator."""
        device = setting_device(param, default) if is_device_name(param) else None
        if device is not None:
            body.device_params[param] = device

    def _device_value(self, value: ast.AST, lightning: bool = False) -> bool:
        """A value used as the device: a device string, a parameter whose default is one
        (``def run(model, where="cuda")``: ``model.to(where)``; where the call leaves the
        default), or the answer of a device query (``torch.accelerator.current_accelerator()``).
        False when the value names no device itself. ``lightning``: the value of a variable
        named ``accelerator``, in Lightning's names (lower case, not ``"auto"``)."""
        strings = []
        named = self.constants[-1].get(_DEVICE_NAMED + value.id) if isinstance(value, ast.Name) and self.constants else None
        if named is not None and not lightning:
            if named != _FOLLOWS_DATA:
                self._device_used(named)  # a local bound to a device string (``dev``), used as the device
            return True
        if _data_device(value):
            return True  # ``x.to(batch[0].device)``: where the data already is, no device named
        parameter = self._parameter(value)
        if parameter is not None:
            default = self.current.defaults.get(parameter)
            # (``def predict(accelerator="gpu")``: ``Trainer(accelerator=accelerator)``)
            device = setting_device("accelerator" if lightning else "device", default)
            if device is not None:
                self.current.device_params[parameter] = device
            return device is not None
        found = False
        for node in _walk_answers(value):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.append(node.value)
            elif isinstance(node, ast.Call):
                name = _dotted(node.func)
                queried = DEVICE_QUERIES.get(self.imported(name) or "") if name else None
                if queried is not None:
                    self._device_used(queried)
                    found = True
        if lightning:
            # as Lightning spells them: ``"CUDA"`` is a label shown to the user (``accelerate env``)
            strings = [text for text in strings if text == text.lower()]
        device = device_named(strings, _ACCELERATOR_NAMES if lightning else ACCELERATOR_PREFIXES)
        if device is not None:
            # a module's top level that names its default device (``DEVICE = "cuda" if
            # torch.cuda.is_available() else "cpu"`` in ``config.py``) counts as an option's
            # default does, as ``DEVICE = torch.device(...)`` there does
            self._device_used(device, declared=self.current is self.facts.module_body)
        return found or device is not None or bool(strings)

    def _device_used(self, device: str, declared: bool = False, guarded: bool = False) -> None:
        """One piece of evidence that the current body uses ``device`` (see ``device_events``);
        none while a device is only asked about or followed (``asking_about_device``).
        ``declared``: only named as a module's device, which counts as an option's default;
        ``guarded``: used only under a test of a parameter (kept in ``guarded_uses``)."""
        if self.asking_about_device:
            return
        body = self.current
        if not guarded:
            body.uses.add(OPTION_DEVICE + device if declared else device)
        if device in self.counted_devices:
            return  # the call's own effect counted it
        body.device_events[device] = body.device_events.get(device, 0) + 1
        if self.branch_depth:
            body.conditional_devices[device] = body.conditional_devices.get(device, 0) + 1

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and self.scope:
            found = self._constant(value) if isinstance(value, ast.Name) else None
            parsed = _returns_parsed(value) or (isinstance(found, ParsedOptions) and not found.origin)
            # ``return self.opt`` after ``self.opt = opt`` and ``opt = self.gather_options()``
            # (pix2pix's ``BaseOptions.parse``): what that method returns
            origin = None if parsed else self._returned_by(value) if isinstance(value, (ast.Name, ast.Attribute)) else self._call_origin(value)
            body = self.current
            answers = self.return_answers.setdefault(id(body), set())
            answers.add(True if parsed else origin or None)
            one = next(iter(answers)) if len(answers) == 1 else None
            # (set on the body only where it holds: these fields are rare, see BodyFacts)
            for field, holds in (("returns_options", one is True), ("returns_origin", isinstance(one, str))):
                if holds:
                    setattr(body, field, one)
                elif field in body.__dict__:
                    delattr(body, field)
        if value is not None and (self._torch_load(value) or (_dotted(value) or "") in self.loaded.get(id(self.current), ())):
            self.current.uses.add(LOAD)  # ``return torch.load(path)`` in ``load_model``: a model, may be
        if value is not None and self.scope:
            # a function named for a device returns the one the program runs on (``def
            # get_device(): ... return "cuda"``), as ``device = "cuda"`` names it
            self._device_setting(ast.Constant(self.scope[-1]), value)
        # ``return model, name``: each element (a caller unpacks them, or takes one by index)
        for element in value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]:
            if isinstance(element, ast.Call):
                callee = _dotted(element.func)
                # (a name bound to classes, ``MEMORY = partial(Memory, ...)``: each of them; a
                # table of classes looked up by key, ``return TABLE[cfg["type"]]()``: each of its)
                for built in (self.bound.get(callee) or (callee,)) if callee is not None else self._bound_classes(element.func):
                    if _names_class(built):
                        self.current.returns.append(self.imported(built) or built)
            elif isinstance(element, ast.Name) and element.id in self.current.instances:
                self.current.returns.extend(self.current.instances[element.id])
            elif isinstance(element, ast.Name) and self.scope and ".".join([*self.scope, element.id]) in self.facts.functions:
                # ``def get_sampler(dim): def sample(n): ...; return sample``: calling what it
                # returns runs the nested function
                self.current.returns.append(element.id)
            elif isinstance(element, ast.Name) and self.scope and self._returns_function(element.id):
                # ``def get_dataset_fn(kind): ... return get_csv_dataset``: calling what it returns,
                # ``get_dataset_fn(kind)(args, is_train=True)``, runs that function
                qualified = self.imported(element.id)
                if qualified is not None:
                    self.current.imported.add(qualified)
                self.current.returns.append(qualified or element.id)
            elif self.scope:
                # a class itself (``return Net``, ``return REGISTRY[name]``, a local bound to
                # classes): calling what the function returns builds it
                classes = _class_names(element) or self._bound_classes(element)
                for cls in classes:
                    qualified = self.imported(cls)
                    if qualified is not None:
                        self.current.imported.add(qualified)
                    self.current.returned_classes = tuple(dict.fromkeys((*self.current.returned_classes, qualified or cls)))
        self.generic_visit(node)

    def _bound_classes(self, value: ast.AST) -> Tuple[str, ...]:
        """The classes a name (``cls``) or a table looked up by key (``REGISTRY[name]``) is
        bound to, as :attr:`bound` holds them."""
        if isinstance(value, ast.Subscript):
            value = value.value
        return self.bound.get(value.id, ()) if isinstance(value, ast.Name) else ()

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values):
            self._device_setting(key, value)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # ``ps, seg = d[0]`` on a local bound to an object: its ``__getitem__`` runs (pointnet's
        # dataset check), as a call of the method would
        value = node.value
        if type(value) is ast.Name and type(node.ctx) is ast.Load and value.id in self.current.instances:
            self.current.calls.append(f"{value.id}.__getitem__")  # type: ignore[attr-defined]
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        _note_assigned(node, self.assigned)
        if type(node.value) in _DOTTED_TYPES:
            _note_bindings(node, self.called, self.alias_candidates, self.rebound)
        if self._torch_load(node.value):
            # ``model = torch.load(path)``: weights only if the name is then used as a model
            for target in node.targets:
                named = _dotted(target) if isinstance(target, (ast.Name, ast.Attribute)) else None
                if named is not None:
                    self.loaded.setdefault(id(self.current), set()).add(named)
        if not self.scope and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            # ``interpolate = F.interpolate``: another name for an imported one (kept if it is
            # the module's only binding of the name, see ``extract_facts``)
            dotted = _dotted(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
            qualified = self.imported(dotted) if dotted is not None else None
            if qualified is not None:
                self.renamed[node.targets[0].id] = qualified
        elif self.kinds and self.kinds[-1] and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            # in a class body: ``decode = decode_function`` makes the function a method
            dotted = _dotted(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
            if dotted is not None and dotted not in ("None", "True", "False"):
                qualified = self.imported(dotted)
                key = ".".join(self.scope + [node.targets[0].id])
                self.facts.method_aliases[key] = (qualified or dotted, qualified is not None)
        for target in node.targets:
            value = node.value
            self._loss_module(target, value)
            if isinstance(target, ast.Name):
                # ``checks = [("npu", check_npu), ...]``: a table a loop may call the functions of
                if isinstance(value, (ast.List, ast.Tuple)):
                    self.function_tables[target.id] = value
                else:
                    self.function_tables.pop(target.id, None)
            if (
                isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
                and len(target.elts) == len(value.elts)
                and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
            ):
                # ``cudnn.benchmark, cudnn.deterministic = False, True``: each its own value
                for element, part in zip(target.elts, value.elts):
                    self._assigned([element], part)
            else:
                self._assigned([target], value)
        if not self.scope and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self.facts.exports = _strings(node.value)
        start = len(self.current.refs)
        self.generic_visit(node)
        for target in node.targets:
            self._shown_shape(target, node.value)
            if isinstance(target, ast.Name):
                self.value_refs[target.id] = self.current.refs[start:]
                if isinstance(node.value, _DISPLAYS):
                    self.display_refs[target.id] = _constructed(node.value, self.own_classes)
                else:
                    self.display_refs.pop(target.id, None)
                self.bound_refs.setdefault(target.id, []).extend(self.current.refs[start:])
            elif _on_self(target) and isinstance(node.value, _DISPLAYS):
                # ``self.datasets = {x: Crowd(...) for x in ...}`` in each branch of an ``if``: any
                # of them, for ``DataLoader(self.datasets[x])`` in the same method
                held = self.display_refs.get(_dotted(target) or "", [])
                self.display_refs[_dotted(target) or ""] = [*held, *_constructed(node.value, self.own_classes)]
        if self._binds_partial(node):
            # ``MEMORY = partial(Memory, size=3)`` builds nothing: what it wraps runs where the
            # name is called (``MEMORY()`` calls ``Memory``) or handed on (its refs go with it)
            name = node.targets[0].id  # type: ignore[attr-defined]
            wrapped = _dotted(node.value.args[0])  # type: ignore[attr-defined]
            if wrapped is not None:
                self.bound[name] = (wrapped,)  # as written: a call of it is qualified as any other
                self.partials[name] = node.value  # type: ignore[assignment]
            del self.current.refs[start:]
        else:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.partials.pop(target.id, None)
        if self._stores_on_self(node.targets):
            # (but a loader's dataset runs where the loader is iterated, which whoever holds the
            # object may do, ``for x in loader.data``: bts's ``self.data = DataLoader(samples)``)
            body = self.current
            running = body.worker_refs | body.dataset_refs if body.dataset_refs else body.worker_refs
            held = [ref for ref in body.refs[start:] if ref not in running]
            body.held_refs.extend(held)
            body.refs[start:] = [ref for ref in body.refs[start:] if ref in running]

    def _with_partial(self, node: ast.Call) -> ast.Call:
        """A call of a name bound to a partial (``loader(data)`` after ``loader =
        partial(DataLoader, batch_size=2, shuffle=True)``) with the partial's arguments, as the
        wrapped callable gets them (its own keywords first: a keyword given again wins)."""
        bound = self.partials.get(node.func.id) if self.partials and type(node.func) is ast.Name else None  # type: ignore[attr-defined]
        if bound is None:
            return node
        merged = ast.Call(func=node.func, args=[*bound.args[1:], *node.args], keywords=[*node.keywords, *bound.keywords])
        return ast.copy_location(merged, node)

    def _binds_partial(self, node: ast.Assign) -> bool:
        """``name = functools.partial(f, ...)``: one name bound to a partial of a name."""
        value = node.value
        return (
            len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(value, ast.Call) and bool(value.args) and not isinstance(value.args[0], ast.Starred)
            and self.imported(_dotted(value.func) or "") in PARTIALS
        )

    def _stores_on_self(self, targets: List[ast.expr]) -> bool:
        """Is this an assignment of a construction method to an attribute of its object?"""
        body = self.current
        if body.owner is None or body.name.rpartition(".")[2] not in CONSTRUCTION_METHODS:
            return False
        return any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in targets)

    def visit_For(self, node: ast.For) -> None:
        # ``for agent in [CategoricalDQN, DQN]: agent(env)``: the loop variable is each class in turn
        if isinstance(node.target, ast.Name) and isinstance(node.iter, (ast.List, ast.Tuple)):
            classes = [name for element in node.iter.elts for name in _class_names(element)]
            if classes and len(classes) == len(node.iter.elts):
                self.bound[node.target.id] = tuple(classes)
            else:
                self.bound.pop(node.target.id, None)
        # ``for name, check in checks: check()`` over ``checks = [("npu", check_npu), ...]``: each
        # function of the table in turn
        self._loop_over_functions(node)
        # ``for name, agent in agents.items(): agent.act()`` over objects a display built: the
        # loop variable is each of them (``for agent in agents``, ``agents.values()``,
        # ``enumerate(agents)`` too)
        looped = _loop_over(node.target, node.iter)
        if looped is not None:
            variable, container = looped
            held = self.current.instances.get(container + HELD)
            if not held and container.startswith("self.") and self.current.owner is not None:
                # ``for layer in self.layers: x = layer(x)`` in ``forward``, the list built in ``__init__``
                init = self.facts.functions.get(f"{self.current.owner}.__init__")
                held = init.instances.get(container + HELD) if init is not None else None
            if held:
                self.current.instances[variable] = held
        self.generic_visit(node)

    def _loop_over_functions(self, node: ast.For) -> None:
        """Bind the loop variables of ``node`` that take, in turn, each function of a display (of
        tuples) of the module's or imported functions, iterated directly or through a local name
        bound to it, so that calling them calls each of those functions."""
        table = node.iter
        if isinstance(table, ast.Name):
            table = self.function_tables.get(table.id)  # type: ignore[assignment]
        if not isinstance(table, (ast.List, ast.Tuple)) or not table.elts:
            return
        tupled = isinstance(node.target, ast.Tuple)
        targets = node.target.elts if tupled else [node.target]  # type: ignore[attr-defined]
        for position, target in enumerate(targets):
            if not isinstance(target, ast.Name) or target.id in self.bound:
                continue
            names = []
            for element in table.elts:
                # ``for name, check in [("npu", check_npu), ...]``: each tuple's item at the position
                item = element if not tupled else element.elts[position] if isinstance(element, ast.Tuple) and len(element.elts) == len(targets) else None
                name = _dotted(item) if item is not None else None
                if name is None or not (name in self.own_functions or self.imported(name) is not None):
                    break
                names.append(name)
            else:
                self.bound[target.id] = tuple(names)

    def _device_variable(self, qualified: Optional[str], method: Optional[str], args: AstArgs) -> None:
        """Record a device given as a name imported from another module (``torch.device(
        device_label, 0)``, ``model.to(cfg.DEVICE)`` after ``import cfg``), in ``device_vars``."""
        where = DEVICE_CONSTRUCTORS.get(qualified or "") or (("device", 0) if method == "to" else None)
        given = args.node(*where) if where is not None else None
        if isinstance(given, ast.Call) and self.imported(_dotted(given.func) or "") in DEVICE_CONSTRUCTORS:
            given = AstArgs(given).node(*DEVICE_CONSTRUCTORS[self.imported(_dotted(given.func) or "")])  # ``.to(torch.device(x))``
        dotted = _dotted(given) if isinstance(given, (ast.Name, ast.Attribute)) else None
        if dotted is not None and dotted in self.current.params and dotted not in self.current.device_params:
            # ``def __init__(self, device=DEFAULT_DEVICE)`` with the name imported: the device
            # where the call leaves the parameter out, as a parameter's default string is
            default = self._parameter_default(dotted)
            variable = self.imported(_dotted(default) or "") if isinstance(default, (ast.Name, ast.Attribute)) else None
            if variable is not None and "." in variable and variable.split(".", 1)[0] not in ("torch", "numpy"):
                self.current.device_params[dotted] = DEVICE_VARIABLE + variable
            return
        if dotted is None or dotted.split(".", 1)[0] in self.current.local_params or dotted.split(".", 1)[0] in self.parameters:
            return
        qualified_var = self.imported(dotted)
        # (not torch's own names, ``x.to(torch.float16)``: a library's name names no project variable)
        if qualified_var is not None and "." in qualified_var and qualified_var.split(".", 1)[0] not in ("torch", "numpy"):
            self.current.device_vars = self.current.device_vars | {qualified_var}

    def _parameter_default(self, param: str) -> Optional[ast.AST]:
        """The default written for parameter ``param`` of the function being visited."""
        node = self.function_node
        if node is None or isinstance(node, ast.Lambda):
            return None
        positional = [*node.args.posonlyargs, *node.args.args]
        pairs = [*zip(positional[len(positional) - len(node.args.defaults) :], node.args.defaults), *zip(node.args.kwonlyargs, node.args.kw_defaults)]
        return next((default for arg, default in pairs if arg.arg == param), None)

    def _torch_load(self, value: Optional[ast.AST]) -> bool:
        """Is ``value`` what ``torch.load(...)`` returns (also moved or switched to a mode,
        ``torch.load(path).to(device)``)?"""
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in MODULE_SELF_METHODS:
            value = value.func.value
        return isinstance(value, ast.Call) and self.imported(_dotted(value.func) or "") == "torch.load"

    def _loaded_module(self, node: ast.Call) -> bool:
        """Does the call use what ``torch.load`` returned as a model, so that the load replaced
        weights: a module's own method on it (``model.eval()``, ``model.parameters()``), the
        object called (``model(x)``), or a module method on the load itself
        (``torch.load(path).eval()``)? A tensor or a dict loaded as data is none of these (its
        ``.to(device)`` is not either: tensors move too)."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in LOADED_MODULE_METHODS:
            receiver = func.value
            if self._torch_load(receiver):
                return True
        else:
            receiver = func
        loaded = self.loaded.get(id(self.current)) if self.loaded else None
        if not loaded:
            return False  # (most bodies load no model)
        named = _dotted(receiver) if isinstance(receiver, (ast.Name, ast.Attribute)) else None
        return named is not None and named in loaded

    def _container(self, value: Optional[ast.AST]) -> Optional[ast.AST]:
        """The display a value holds its objects in: itself, or what torch's module containers
        are given (``nn.ModuleList([...])``, ``nn.ModuleDict({...})``); None for anything else."""
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
            if self.imported(_dotted(value.func) or "") in MODULE_CONTAINERS:
                value = value.args[0]
        return value if isinstance(value, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp)) else None

    def _held_instances(self, display: Optional[ast.AST]) -> Tuple[str, ...]:
        """The classes of the objects a display builds as its elements (a dict's values, a
        comprehension's element), when every element is one (``[DQN(env), A2C(env)]``,
        ``[Block(d) for _ in range(n)]``); else none."""
        if display is None:
            return ()
        elements = display.values if isinstance(display, ast.Dict) else [display.elt] if isinstance(display, ast.ListComp) else display.elts  # type: ignore[attr-defined]
        found: List[str] = []
        for element in elements:
            built = _built(element)
            callee = _dotted(built.func) if built is not None else None
            if callee is None or not (_names_class(callee) or callee in self.own_classes):
                return ()
            first, *others = self.imported_all(callee)
            found.extend((first or callee, *others))
        return tuple(dict.fromkeys(found))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._bind_constant(node.target, None)
        if not self.scope and isinstance(node.target, ast.Name) and node.target.id == "__all__":
            added = _strings(node.value)
            self.facts.exports = None if added is None or self.facts.exports is None else self.facts.exports + added
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_With(self, node: Union[ast.With, ast.AsyncWith]) -> None:
        isolated, empty = self.isolated, self.empty_weights
        for item in node.items:
            self.visit(item)
            call = item.context_expr
            name = _dotted(call.func) if isinstance(call, ast.Call) else None
            qualified = self.imported(name) or "" if name else ""
            restored = RNG_ISOLATION.get(qualified) if name else None
            if restored:
                self.isolated = self.isolated | restored
            if qualified in EMPTY_WEIGHT_CONTEXTS or (
                qualified in DEVICE_CONSTRUCTORS and isinstance(call, ast.Call) and call.args and ast_literal(call.args[0]) == "meta"
            ):
                self.empty_weights = True
        for stmt in node.body:
            self.visit(stmt)
        self.isolated, self.empty_weights = isolated, empty

    visit_AsyncWith = visit_With

    def visit_If(self, node: ast.If) -> None:
        if not self.scope and self.current is self.facts.module_body and is_main_guard_ast(node):
            self._if(node)  # the ``__main__`` block is a body of its own
            return
        self.current.branches = True
        # counted only under a test the default path's values may decide: names, attributes,
        # literals, comparisons, ``len(...)`` (not ``torch.cuda.is_available()``); the test's
        # nodes walked once for both questions (:func:`_undecidable_call`, :func:`_availability_call`)
        tested = _walk(node.test)
        decidable = not any(map(_undecidable_call, tested))
        self.branch_depth += decidable
        in_if, self.in_if = self.in_if, True
        guarded = self.availability_guard
        self.availability_guard = guarded or any(map(_availability_call, tested))
        try:
            self._if(node)
        finally:
            self.branch_depth -= decidable
            self.in_if = in_if
            self.availability_guard = guarded

    def _own_kwargs(self) -> Optional[str]:
        """The name of the current function's own ``**`` parameter (``kwargs``), if any."""
        function = self.function_node
        if function is None or function.args.kwarg is None or self.current.name.rpartition(".")[2] != function.name:
            return None
        return function.args.kwarg.arg

    def _forwards_own_kwargs(self, call: ast.Call) -> bool:
        """Is ``call`` given ``**kwargs``, the current function's own ``**`` parameter?"""
        own = self._own_kwargs()
        return own is not None and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == own for k in call.keywords)

    def _keyword_tested(self, test: ast.AST) -> Optional[str]:
        """``"seed" in kwargs``, with ``kwargs`` the current function's ``**`` parameter and
        ``seed`` none of its named ones: the keyword tested (else None)."""
        if not (
            isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)
            and isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) and test.left.value.isidentifier()
            and isinstance(test.comparators[0], ast.Name) and test.comparators[0].id == self._own_kwargs()
        ):
            return None
        key = test.left.value
        return None if key in self.current.params else key

    def visit_Lambda(self, node: ast.Lambda) -> None:
        """``worker_init_fn=lambda worker_id: np.random.seed(worker_id)``: what a lambda's body
        seeds or switches on happens where the lambda is called (in each DataLoader worker,
        there), not where it is written; what it calls and draws still counts (``sorted(items,
        key=lambda _: random.random())`` draws at once)."""
        self.in_lambda += 1
        try:
            self.generic_visit(node)
        finally:
            self.in_lambda -= 1

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.in_ifexp += 1
        try:
            self._ifexp(node)
        finally:
            self.in_ifexp -= 1

    def _ifexp(self, node: ast.IfExp) -> None:
        """``A if training else B``, with ``training`` a parameter: ``A`` runs only when it
        holds, as under ``if training:``."""
        guard = self._tested(node.test) if self.guard is None and isinstance(node.test, (ast.Name, ast.Attribute)) else None
        if guard is None:
            self.generic_visit(node)
            return
        self.visit(node.test)
        self.guard, self.guard_test = _keyed(guard, None), None
        try:
            self.visit(node.body)
        finally:
            self.guard = None
        self.visit(node.orelse)

    def _if(self, node: ast.If) -> None:
        if isinstance(node.test, ast.Constant):
            # ``if False:`` never runs its body (``if True:`` never its ``else``); the rules read
            # it all the same, so what it calls and binds counts for :attr:`ModuleFacts.called`
            for stmt in node.body if node.test.value else node.orelse:
                self.visit(stmt)
            for stmt in node.orelse if node.test.value else node.body:
                for inner in _walk(stmt):
                    if type(inner) is ast.Call:
                        _note_call(inner, self.called, self.op_calls, self.facts.aliases)
                    else:
                        if type(inner) is ast.Assign:
                            _note_assigned(inner, self.assigned)
                        _note_bindings(inner, self.called, self.alias_candidates, self.rebound)
            return
        if _follows_data_device(node.test) and not self.asking_about_device:
            # ``if x.is_cuda: y = y.cuda()``: the code follows where its input already is,
            # which is no evidence that the program runs there
            self.asking_about_device = True
            try:
                self.visit(node.test)
                for stmt in node.body:
                    self.visit(stmt)
            finally:
                self.asking_about_device = False
            for stmt in node.orelse:
                self.visit(stmt)
            return
        test = node.test
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        if negated:
            test = test.operand  # type: ignore[attr-defined]  # ``if not batch_size:``: the test, turned
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
            if isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is True:
                test = test.left  # ``if deterministic is True:``
        guard = self._tested(test) if self.guard is None else None
        compared = _compared_parameter(test, self._tested) if guard is None and self.guard is None else None
        if compared is not None:
            # ``if seed > 0:``: a comparison of a parameter with a literal decides the branch
            guard = compared[0]
        elif guard is None and self.guard is None and (key := self._keyword_tested(test)) is not None:
            # ``if "seed" in kwargs:``: whether the call passes that keyword decides it, as a
            # parameter of that name that defaults to "not given" would
            guard, compared = key, (key, "!=", ABSENT_KEYWORD)
            self.current.defaults.setdefault(key, ABSENT_KEYWORD)
        if guard is not None:
            self.visit(node.test)
            held = compared[1:] if compared is not None else None
            if negated:
                held = _negated(held)
            self.guard, self.guard_test = _keyed(guard, held), held
            for stmt in node.body:
                self.visit(stmt)
            # the ``else`` under the test turned (Khrylx's replay memory: ``if batch_size is
            # None: return all; else: random.sample(...)``, every call leaving it None), where
            # nothing depends on the parameter's test yet (one test per parameter: a second,
            # turned one would leave both branches on, ``?``; an attribute's tests have a key each)
            body = self.current
            alone = guard.startswith(ATTRIBUTE_GUARD) or not (
                guard in body.guarded or guard in body.guarded_calls or guard in body.guarded_uses or guard in body.guard_tests
            )
            self.guard, self.guard_test = (_keyed(guard, _negated(held)), _negated(held)) if alone else (None, None)
            for stmt in node.orelse:
                self.visit(stmt)
            self.guard, self.guard_test = None, None
            if alone and not node.orelse and node.body and isinstance(node.body[-1], (ast.Return, ast.Raise)) and (
                self.function_node is not None and any(stmt is node for stmt in self.function_node.body)
            ):
                # ``if frac == 0.0: return`` at the top of a function: the rest of its body runs
                # under the test turned, as an ``else`` would (ELR's ``_split_sampler``)
                self.guard, self.guard_test = _keyed(guard, _negated(held)), _negated(held)
            return
        if self.scope or not is_main_guard_ast(node) or self.current is not self.facts.module_body:
            self.generic_visit(node)
            return
        self.facts.has_main_guard = True
        self.visit(node.test)
        self.current = self.facts.main_body
        for stmt in node.body:
            self.visit(stmt)
        self.current = self.facts.module_body
        for stmt in node.orelse:
            self.visit(stmt)


def _is_stub(statements: List[ast.stmt]) -> bool:
    """A body that only says it is not implemented: a docstring, ``pass``, ``...``, ``return``,
    ``return None`` and ``raise NotImplementedError(...)``, at least one of the last two kinds
    or ``pass``/``...``."""
    for stmt in statements:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and (isinstance(stmt.value.value, str) or stmt.value.value is Ellipsis):
            continue
        if isinstance(stmt, ast.Return) and (stmt.value is None or (isinstance(stmt.value, ast.Constant) and stmt.value.value is None)):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return bool(statements)


#: the builtins a test the values can decide may call (``len(gpus) > 1``)
_DECIDABLE_CALLS = frozenset({"len", "bool", "int", "str", "float", "isinstance"})


def _availability_call(node: ast.AST) -> bool:
    """Is ``node`` a call that asks whether a device (or its library) is there, a call named
    for availability (``is_npu_available()``, ``torch.npu.is_available()``,
    ``is_torch_npu_available()``)? An ``if`` test that holds one guards what it runs."""
    return isinstance(node, ast.Call) and "available" in ((_dotted(node.func) or "").rsplit(".", 1)[-1])


def _device_argument_nodes(call: ast.Call, method: Optional[str], qualified: Optional[str]) -> List[ast.AST]:
    """The expressions a call names its device with, as the seeding rules read them on LibCST's
    tree: ``.to(x)``'s first argument, a device keyword (``device=``, ``accelerator=``), the device
    constructor's argument (``torch.device(x)``, :data:`~repro_lint.catalog.DEVICE_CONSTRUCTORS`)."""
    constructor = DEVICE_CONSTRUCTORS.get(qualified or "")
    names = DEVICE_KEYWORD_NAMES | {constructor[0]} if constructor is not None else DEVICE_KEYWORD_NAMES
    found: List[ast.AST] = [k.value for k in call.keywords if k.arg in names]
    position = 0 if method == "to" else constructor[1] if constructor is not None else None
    if position is not None and len(call.args) > position:
        found.append(call.args[position])
    return found


def _decidable_test(test: ast.AST) -> bool:
    """Does an ``if`` test call nothing but builtins the values follow?"""
    return not any(map(_undecidable_call, _walk(test)))


def _undecidable_call(node: ast.AST) -> bool:
    """Is ``node`` a call whose result the values cannot follow (not a builtin of
    :data:`_DECIDABLE_CALLS`): an ``if`` test that holds one is not decided on the default path."""
    return isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _DECIDABLE_CALLS)


#: attributes that tell where a tensor already is (``x.is_cuda``), or where the framework put
#: the model (Lightning's ``self.on_gpu``)
_DATA_DEVICE_ATTRIBUTES = frozenset({"is_cuda", "is_npu", "on_gpu"})


def follows_data_device(test: "ast.AST | str") -> bool:
    """:func:`_follows_data_device` of an ``if`` test given as its source text too (a LibCST
    node's code): False when the text does not parse as an expression."""
    if isinstance(test, str):
        try:
            test = ast.parse(test.strip(), mode="eval").body
        except SyntaxError:
            return False
    return _follows_data_device(test)


def _data_device(value: Optional[ast.AST]) -> bool:
    """Is ``value`` the device of data the program already has (``next(model.parameters())
    .device``, ``batch[0].device``), not a device it names? (``args.device`` may be either: no.)"""
    return isinstance(value, ast.Attribute) and value.attr == "device" and isinstance(value.value, (ast.Call, ast.Subscript))


def _follows_data_device(test: ast.AST) -> bool:
    """Is an ``if`` test a question about where a tensor already is (``x.is_cuda``, ``x.is_cuda
    and y``, ``x.device.type == "cuda"``)?"""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_follows_data_device(value) for value in test.values)
    if isinstance(test, ast.Attribute):
        return test.attr in _DATA_DEVICE_ATTRIBUTES
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        left = test.left
        return isinstance(left, ast.Attribute) and left.attr == "type" and isinstance(left.value, ast.Attribute) and left.value.attr == "device"
    return False


#: the concrete node types of :data:`_LEAVES` that no ``visit_`` method of the collector handles:
#: the walk does nothing with them (:data:`_ACTIONS`; names and constants are about half the
#: nodes below a statement)
_LEAF_TYPES = frozenset(
    node_type for node_type in vars(ast).values()
    if isinstance(node_type, type) and issubclass(node_type, _LEAVES)
    and getattr(_FactsCollector, "visit_" + node_type.__name__, None) in (None, getattr(ast.NodeVisitor, "visit_" + node_type.__name__, None))
)

class _Actions(Dict[type, Any]):
    """What the facts pass does with a node, by its type, found at the first node of each type:
    its visitor, the generic walk into its children, or None (a leaf, or a value that is no
    node: a name's string, None)."""

    def __missing__(self, kind: type) -> Any:
        if not issubclass(kind, ast.AST) or kind in _LEAF_TYPES:
            action = None
        else:
            name = "visit_" + kind.__name__
            action = getattr(_FactsCollector, name, None)
            if action is None or action is getattr(ast.NodeVisitor, name, None):
                # (NodeVisitor's own visit_Constant is a shim for visit_Num & co.)
                action = None if issubclass(kind, _LEAVES) else _FactsCollector.generic_visit
        self[kind] = action
        return action


_ACTIONS = _Actions()


#: the names of the ops of the catalog (:attr:`ModuleFacts.op_calls`)
_OP_NAMES = op_names()
#: the op catalog's ``nn.Module`` classes, qualified (a project class deriving from one is one)
_OP_MODULES = frozenset(index_by_name()[2])

#: the values whose objects a local bound to them holds (:attr:`_FactsCollector.display_refs`)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: the class methods that build a library model (``Wav2Vec2ForCTC.from_pretrained(...)``)
_PRETRAINED_BUILDERS = frozenset({"from_pretrained", "from_config"})
#: the endings of the names of :data:`~repro_lint.opcatalog.LIBRARY_HEADS`' classes
_HEAD_SUFFIXES = tuple({suffix for _, suffix, _ in LIBRARY_HEADS})

#: the expressions an alias assignment binds (``ms = torch.manual_seed``)
_DOTTED_TYPES = (ast.Name, ast.Attribute)


#: no name's rank shown
_NO_RANKS: Mapping[str, int] = MappingProxyType({})


def _note_call(
    node: ast.Call, called: Set[str], op_calls: Set[OpCall], aliases: Mapping[str, str], ranks: Mapping[str, int] = _NO_RANKS,
) -> None:
    """Add the last name of ``node``'s callee to ``called`` (:attr:`ModuleFacts.called`), and
    the call to ``op_calls`` where an op has that name (:attr:`ModuleFacts.op_calls`);
    ``aliases``: the names the module's imports bind so far; ``ranks``: the names whose rank
    an unpacking of their shape showed."""
    func = node.func
    callee = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None  # type: ignore[attr-defined]
    if callee is not None:
        called.add(callee)
        if callee in _OP_NAMES or callee == "partial":
            _note_op_call(node, callee, op_calls, aliases, ranks)


def _note_op_call(node: ast.Call, callee: str, op_calls: Set[OpCall], aliases: Mapping[str, str], ranks: Mapping[str, int]) -> None:
    """Add the call ``node`` of ``callee``, an op's name, to ``op_calls`` with the literal values
    of its arguments; ``partial(F.interpolate, mode=...)`` as the op called with the rest."""
    args: Sequence[ast.expr] = node.args
    if callee == "partial":
        first = args[0] if args and type(args[0]) is not ast.Starred else None
        callee = first.attr if type(first) is ast.Attribute else first.id if type(first) is ast.Name else ""  # type: ignore[union-attr]
        if callee not in _OP_NAMES:
            return
        args = args[1:]
    slots = [(None, "*" if type(arg) is ast.Starred else "", _literal_argument(arg)) for arg in args]
    if callee in SPATIAL_INPUTS and slots and not slots[0][1]:
        # ``F.cross_entropy(logits.transpose(1, 2), target)``: an input that shows its rank
        rank = _shown_rank(args[0], aliases, ranks)
        if rank:
            slots[0] = (None, "", VisibleRank(rank))
    slots += [(k.arg, "" if k.arg is not None else "**", _literal_argument(k.value)) for k in node.keywords]
    op_calls.add((callee, tuple(slots)))


def _shown_rank(node: ast.AST, aliases: Mapping[str, str], ranks: Mapping[str, int] = _NO_RANKS) -> int:
    """The rank a Tensor method call shows by itself (:func:`~repro_lint.opcatalog.spatial_rank`;
    not through a name it is bound to), or that an unpacking of the shape of the name ``node``
    showed (``ranks``), else 0; a call of a function of an imported module
    (``torch.transpose(x, 1, 2)``, its head in ``aliases``) is no method."""
    if ranks and type(node) in (ast.Name, ast.Attribute):
        return ranks.get(_dotted(node) or "", 0)
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.keywords:  # type: ignore[attr-defined]
        return 0
    positional = node.args  # type: ignore[attr-defined]
    if any(type(arg) is ast.Starred for arg in positional) or type(node.func.value) is ast.Name and node.func.value.id in aliases:  # type: ignore[attr-defined]
        return 0  # ``torch.transpose(x, 1, 2)``: the input is an argument, not the receiver
    if node.func.attr in RESHAPES and len(positional) == 1 and type(positional[0]) in (ast.Tuple, ast.List):  # type: ignore[attr-defined]
        positional = positional[0].elts  # ``x.view((n, c, h, w))``
    values = [v if isinstance((v := ast_literal(arg)), int) and not isinstance(v, bool) else None for arg in positional]
    return spatial_rank(node.func.attr, values)  # type: ignore[attr-defined]


def _literal_argument(node: ast.AST) -> Any:
    """An argument as :meth:`~repro_lint.opcatalog.Condition.decides` takes it: its literal
    value, a tuple of those for a tuple or list display, else UNKNOWN."""
    if type(node) in (ast.Tuple, ast.List):
        elements = node.elts  # type: ignore[attr-defined]
        return UNKNOWN if any(type(e) is ast.Starred for e in elements) else tuple(ast_literal(e) for e in elements)
    return ast_literal(node)


def _note_bindings(node: ast.AST, called: Set[str], candidates: List[Tuple[str, str, str]], rebound: Set[str]) -> None:
    """For :attr:`ModuleFacts.called`: the last names of what an import binds (``from torch
    import manual_seed as ms``: ``manual_seed``, also :attr:`ModuleFacts.rebound`), and an
    assignment of a dotted name to a name (``ms = torch.manual_seed``), which binds it as the
    import table does once the head is bound (:func:`_called`)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            last = alias.name.rpartition(".")[2]
            called.add(last)
            if alias.asname is not None and alias.asname != last:
                rebound.add(last)
            if isinstance(node, ast.Import):
                called.add(alias.name.partition(".")[0])
            candidates.append((alias.asname or alias.name.partition(".")[0], "", ""))
    elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Name, ast.Attribute)):
        dotted = _dotted(node.value)
        if dotted is not None:
            head, _, rest = dotted.partition(".")
            for target in node.targets:
                if isinstance(target, ast.Name):
                    candidates.append((target.id, head, rest.rpartition(".")[2] or head))


def _note_assigned(node: ast.Assign, found: List[Tuple[str, str, str]]) -> None:
    """Add each attribute that ``node`` sets on a dotted name (also as an element of a tuple
    or list target) to ``found``, as (head, the object's last name, attribute)."""
    targets = list(node.targets)
    while targets:
        target = targets.pop()
        kind = type(target)
        if kind is ast.Attribute:
            dotted = _dotted(target.value)  # type: ignore[attr-defined]
            if dotted is not None:
                head, _, rest = dotted.partition(".")
                found.append((head, rest.rpartition(".")[2] or head, target.attr))  # type: ignore[attr-defined]
        elif kind is ast.Tuple or kind is ast.List:
            targets.extend(target.elts)  # type: ignore[attr-defined]
        elif kind is ast.Starred:
            targets.append(target.value)  # type: ignore[attr-defined]


def _assigned(collector: "_FactsCollector", bound: Set[str], star_imports: bool) -> str:
    """:attr:`ModuleFacts.assigned`: of the attributes set on dotted names, those whose head
    ``bound`` holds (the names imports and alias assignments bind; any, after a star import)."""
    lines = {f"{last}.{attr}" for head, last, attr in collector.assigned if star_imports or head in bound}
    return "\n" + "\n".join(sorted(lines)) + "\n" if lines else "\n"


def _called(collector: "_FactsCollector", star_imports: bool) -> Tuple[str, Set[str]]:
    """:attr:`ModuleFacts.called`: the callees' last names, and the last names the imports and
    the alias assignments whose head an import or another such assignment binds (any head,
    after a star import) bind names to, wherever in the module each binding is (those bound
    under another name join :attr:`ModuleFacts.rebound`); and the names the imports and alias
    assignments bind."""
    called = collector.called
    bound = {name for name, head, _ in collector.alias_candidates if not head}
    pending = [(name, head, last) for name, head, last in collector.alias_candidates if head]
    changed = True
    while changed and pending:
        changed = False
        left = []
        for name, head, last in pending:
            if star_imports or head in bound:
                called.add(last)
                if name != last:
                    collector.rebound.add(last)
                bound.add(name)
                changed = True
            else:
                left.append((name, head, last))
        pending = left
    return "\n" + "\n".join(sorted(called)) + "\n", bound


#: the sets of :class:`BodyFacts` (an empty set takes 216 bytes, and most bodies leave most of
#: them empty)
_BODY_SETS = tuple(f.name for f in fields(BodyFacts) if f.default_factory is set)
#: what an empty one of them becomes once the module's facts are extracted (shared, immutable)
_NO_ITEMS: FrozenSet[Any] = frozenset()


def _compact(facts: ModuleFacts) -> None:
    """Replace the bodies' empty sets with one shared empty frozenset: nothing changes the facts
    once they are extracted (a change would now fail loudly), and the facts of torch's source
    take less memory in every process that holds them."""
    for body in (facts.module_body, facts.main_body, *facts.functions.values()):
        values = body.__dict__
        for name in _BODY_SETS:
            if not values[name]:
                values[name] = _NO_ITEMS


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
            collector = _FactsCollector(facts, is_package)
            collector.dicts.source = source
            if CONSTANT_LINE.search(source):
                collector.constants[0].update(_module_constants(tree))
            # the module's own classes, also those defined below their first use
            # (``nn.ModuleList([equi_2_to_2(m, n) for ...])`` in a class above ``equi_2_to_2``)
            collector.own_classes = frozenset(node.name for node in tree.body if isinstance(node, ast.ClassDef))
            collector.own_functions = frozenset(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
            collector.visit(tree)
            collector.resolve_loader_workers()
            collector.resolve_option_draws()
            facts.called, bound = _called(collector, bool(facts.star_imports))
            facts.assigned = _assigned(collector, bound, bool(facts.star_imports))
            facts.rebound = frozenset(collector.rebound)
            facts.op_calls = frozenset(collector.op_calls)
            facts.text_key = (len(source), hash(source))
            facts.set_attributes = frozenset(collector.set_attributes)
            _compact(facts)
            if collector.renamed:
                bound = _top_level_bindings(tree)
                for name, qualified in collector.renamed.items():
                    if bound.get(name) == 1 and name not in facts.aliases:
                        facts.aliases[name] = qualified  # another name for it, as an import is
        except RecursionError:
            return None
        # freed while the collector is paused: re-enabled, it would first scan every node
        # allocated meanwhile that is still alive (a tenth of the whole pass). Its dict scopes
        # call back one of its methods: without that cycle, reference counting frees it (and
        # the nodes it holds) now, instead of leaving it to the cyclic garbage collector
        collector.dicts = None  # type: ignore[assignment]
        del tree, collector
    bodies = (facts.module_body, facts.main_body, *facts.functions.values())
    if any(body.made_by for body in bodies):
        # kept only for names a method is called on, there or in a function that sees them
        receivers = {call.partition(".")[0] for body in bodies for call in body.calls if "." in call}
        receivers |= {call.rpartition(".")[0] for body in bodies for call in body.calls if call.startswith("self.")}
        # and names called themselves (``sampler = get_sampler(4); sampler(2)``)
        receivers |= {call for body in bodies for call in body.calls if "." not in call or call.startswith("self.")}
        # and datasets handed to a loader (``ds = build_dataset(cfg)``, then ``DataLoader(ds)``)
        receivers |= {ref for body in bodies for ref in body.dataset_refs}
        for body in bodies:
            if body.made_by:
                body.made_by = {name: callee for name, callee in body.made_by.items() if name in receivers}
    facts.trains_at_module_level = _when_run(facts, lambda body: body.trains)
    facts.draws_at_module_level = _when_run(facts, lambda body: bool(body.draws) or INIT in body.uses or PRETRAINED in body.uses or SHUFFLES in body.uses, main=False)
    return facts


def _module_constants(tree: ast.Module) -> Dict[str, Any]:
    """The module's constants: upper-case names its top level binds once, to a literal
    (``NUM_GPUS = 2``, then ``Trainer(gpus=NUM_GPUS)``)."""
    bound = _top_level_bindings(tree)
    found: Dict[str, Any] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if name.isupper() and bound.get(name) == 1:
                value = ast_literal(stmt.value)
                if value is not UNKNOWN:
                    found[name] = value
    return found


def _top_level_bindings(tree: ast.Module) -> Dict[str, int]:
    """How many statements of the module's top level (``if``/``try`` blocks included) bind
    each name: assignments, definitions, imports, ``for`` and ``with`` targets."""
    counts: Dict[str, int] = {}
    stack: List[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        names: List[str] = []
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.extend((a.asname or a.name).split(".")[0] for a in stmt.names)
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else (
                [item.optional_vars for item in stmt.items if item.optional_vars is not None]
                if isinstance(stmt, (ast.With, ast.AsyncWith)) else [stmt.target]
            )
            names.extend(n.id for target in targets for n in _walk(target) if isinstance(n, ast.Name))
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for part in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(s for s in getattr(stmt, part, ()) if isinstance(s, (ast.stmt, ast.excepthandler)))
    return counts


def _when_run(facts: ModuleFacts, test: Callable[[BodyFacts], bool], main: bool = True) -> bool:
    """Does running the module's top level (and its ``__main__`` block, with ``main``) do
    what ``test`` asks (train, draw), directly or through the module's own functions
    (``train()`` called at module level)?"""
    seen: Set[str] = set()
    stack = [facts.module_body, facts.main_body] if main else [facts.module_body]
    while stack:
        body = stack.pop()
        if test(body):
            return True
        for call in body.calls:
            if call in body.imported:
                continue
            target = facts.functions.get(call) or facts.functions.get(f"{call}.__init__")
            if target is not None and target.name not in seen:
                seen.add(target.name)
                stack.append(target)
    return False


#: ``import`` then ``*``, with what may stand between them in a star import (spaces, tabs,
#: line continuations): a text without it star-imports nothing (:attr:`ModuleFacts.star_imports`).
#: That ``import`` starts a word is checked apart: a leading ``\b`` keeps the regular expression
#: engine from searching for the literal at C speed (the project corpus's texts: 203 ms, 10 ms)
_STAR_IMPORT = re.compile(r"import(?:[ \t\f]|\\(?:\r\n|\r|\n))*\*")


def may_star_import(source: str) -> bool:
    """Can ``source`` hold a star import (``from m import *``)? False means it holds none."""
    for match in _STAR_IMPORT.finditer(source):
        start = match.start()
        if not start or not is_name_char(source[start - 1]):
            return True
    return False


def might_be_entry_point(source: str) -> bool:
    """A cheap text check: only a file whose code (not its docstrings and comments:
    :func:`~repro_lint.source.in_code`) mentions ``__main__`` or calls a training method
    (``.backward(``, ``.step(``, ... with any spacing or line continuation) can be an entry point
    without the ``entry-points`` globs. Spares parsing library modules that merely mention
    ``steps`` or ``fit``, or show ``loss.backward()`` in a usage example (80 of the 169 such
    files of torch's source)."""
    return in_code(_mentions_entry, source)


def _mentions_entry(source: str) -> bool:
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


#: a top-level statement (not indented, not a definition or an import) that calls something
#: whose name contains one of :data:`~repro_lint.classify.SCRIPT_WORDS`
_SCRIPT_LINE = re.compile(
    r"^(?!def |class |import |from |async )(?=[A-Za-z_])[^\n]*?(?:" + "|".join(map(re.escape, SCRIPT_WORDS)) + r")[\w.]*\s*\(",
    re.MULTILINE,
)


def might_be_script(source: str) -> bool:
    """A cheap text check: only a file whose top level calls something that may draw random
    numbers or build a model by itself can be a script without a ``__main__`` block."""
    return _SCRIPT_LINE.search(source) is not None


#: a top-level statement (not indented, not a definition or an import) that calls something
_TOP_LEVEL_CALL = re.compile(r"^(?!def |class |import |from |async |@)(?=[A-Za-z_])[^\n]*?[\w)\]]\s*\(", re.MULTILINE)


def might_call_at_top_level(source: str) -> bool:
    """A cheap text check: only a file whose top level calls something (its own code, the
    project's, a library's) can be a script without a ``__main__`` block (in its code: a call
    in a usage example at the start of a docstring's line is none)."""
    return in_code(_calls_at_top_level, source)


def _calls_at_top_level(source: str) -> bool:
    return might_be_script(source) or _TOP_LEVEL_CALL.search(source) is not None


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+([^\n#]+))", re.MULTILINE)


def module_variable_device(source: str, name: str) -> Optional[str]:
    """The accelerator that the module's top-level assignment of ``name`` names (``device =
    torch.device("cuda" if torch.cuda.is_available() else "cpu")``: cuda), when it is assigned
    once at the top level, or only to accelerators in the branches of a ``try`` or an ``if``
    (the first one's); None otherwise, or when ``source`` does not parse."""
    tree = ast_module(source)
    if tree is None:
        return None
    # every binding an assignment of an accelerator's name, in the branches of a top-level
    # ``try``/``if`` too (TrTr's ``try: import torch_npu; device_label = 'npu'`` with ``except
    # ImportError: device_label = 'cuda'``): the first one's, where the import works
    assigned: List[ast.AST] = []

    def visit(statements: Iterable[ast.stmt]) -> None:
        for stmt in statements:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                assigned.append(stmt.value)
            elif isinstance(stmt, (ast.Try, ast.If)):
                visit(stmt.body)
                for handler in getattr(stmt, "handlers", ()):
                    visit(handler.body)
                visit(stmt.orelse)
                visit(getattr(stmt, "finalbody", ()))

    visit(tree.body)
    if not assigned or len(assigned) != _top_level_bindings(tree).get(name):
        return None
    devices = [_device_in(value) for value in assigned]
    return devices[0] if all(devices) else None


def object_attribute_device(source: str, name: str, attr: str) -> Optional[str]:
    """The accelerator that attribute ``attr`` of the object the module's top level binds once
    to ``name`` names, when that object is built from a class of the module (``model_config =
    ModelConfig()``) whose body assigns ``attr`` once (``device = torch.device("cuda" if
    torch.cuda.is_available() else "cpu")``); None otherwise."""
    tree = ast_module(source)
    if tree is None or _top_level_bindings(tree).get(name) != 1:
        return None
    built = next(
        (s.value for s in tree.body if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)),
        None,
    )
    if not (isinstance(built, ast.Call) and isinstance(built.func, ast.Name)):
        return None
    cls = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == built.func.id), None)
    assigned = [
        s.value for s in (cls.body if cls is not None else ())
        if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None
        and any(isinstance(t, ast.Name) and t.id == attr for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
    ]
    return _device_in(assigned[0]) if len(assigned) == 1 else None


def results_handed_to_trainer(source: str, name: str) -> Optional[bool]:
    """Is what every call of ``name`` in ``source`` returns handed to a Trainer's
    ``fit``/``validate``/``test``/``predict`` (``train_dl = make_loader(cfg)``, then
    ``trainer.fit(model, train_dl)``, directly or through the names and containers that hold
    it)? None when ``source`` never calls ``name`` (or does not parse); False when a call's
    result is used another way."""
    tree = ast_module(source)
    if tree is None:
        return None
    passed: Set[str] = set()
    built: List[Tuple[Set[str], Set[str]]] = []  # (targets, names in the value)
    results: List[Optional[Set[str]]] = []  # per call of ``name``: the names its result is bound to
    bound: Dict[int, Set[str]] = {}

    def names_in(node: ast.AST) -> Set[str]:
        return {n.id for n in _walk(node) if isinstance(n, ast.Name)}

    for node in _walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            targets = {n.id for t in node.targets for n in _walk(t) if isinstance(n, ast.Name)}
            bound[id(node.value)] = targets
        if isinstance(node, ast.Assign):
            built.append(({n.id for t in node.targets for n in _walk(t) if isinstance(n, ast.Name)}, names_in(node.value)))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if isinstance(func, ast.Attribute) and called in LIGHTNING_LOADER_CALLS:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    passed |= names_in(arg)
            if called == name:
                results.append(bound.get(id(node)))
    if not results:
        return None
    passed = names_feeding(passed, built)
    return all(targets and targets <= passed for targets in results)


def imported_modules(path: Path, source: str) -> Set[str]:
    """The dotted names a module may import (``import a.b`` gives ``a`` and ``a.b``; ``from
    a import b`` gives ``a`` and ``a.b``, which may be a module), relative imports resolved. A
    text scan (imports in strings count too): enough to tell that nothing imports a module."""
    name, is_package = module_name_for(path)
    found: Set[str] = set()
    for match in _IMPORT.finditer(source):
        base, names, plain = match.groups()
        if plain is not None:
            dotted = [part.split(" as ")[0].strip() for part in plain.split(",")]
        else:
            level = len(base) - len(base.lstrip("."))
            resolved = resolve_relative(name, is_package, level, base.lstrip(".")) if level else base
            if not resolved:
                continue
            names = re.sub(r"#[^\n]*", "", names).strip("()")
            dotted = [resolved] + [f"{resolved}.{part.split(' as ')[0].strip()}" for part in names.split(",") if part.strip()]
        for item in dotted:
            parts = item.split(".")
            found.update(".".join(parts[:cut]) for cut in range(1, len(parts) + 1) if all(parts[:cut]))
    return found


def module_name_for(path: Path, packages: Optional[Dict[str, Tuple[str, ...]]] = None) -> Tuple[str, bool]:
    """(dotted module name, is_package) from the package layout around ``path``.
    ``packages``: a memo of the package names of the folders seen (for one run: the layout
    may change between runs), so that many files of one folder look it up once."""
    absolute = os.path.abspath(path)
    folder, name = os.path.split(absolute)
    is_package = name == "__init__.py"
    parts = _package_parts(folder, {} if packages is None else packages)
    if not is_package:
        parts = (*parts, os.path.splitext(name)[0])
    return ".".join(parts), is_package


def _package_parts(folder: str, packages: Dict[str, Tuple[str, ...]]) -> Tuple[str, ...]:
    """The names of the packages from the outermost one down to ``folder`` (empty when
    ``folder`` holds no ``__init__.py``)."""
    found = packages.get(folder)
    if found is None:
        found = ()
        parent = os.path.dirname(folder)
        name = os.path.basename(folder)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            found = (*(_package_parts(parent, packages) if parent != folder else ()), name)
        elif parent != folder and name.isidentifier() and os.path.isfile(os.path.join(parent, "__init__.py")):
            # a folder without ``__init__.py`` inside a regular package is a namespace portion of
            # it (``torch_molecule/encoder/attrmask/``): ``torch_molecule.encoder.attrmask``
            found = (*_package_parts(parent, packages), name)
        packages[folder] = found
    return found


def source_root_for(path: Path, packages: Optional[Dict[str, Tuple[str, ...]]] = None) -> Path:
    """The folder a module's dotted name starts from (``packages``: as for
    :func:`module_name_for`)."""
    return Path(source_folder(os.path.dirname(os.path.abspath(path)), packages))


def source_folder(folder: str, packages: Optional[Dict[str, Tuple[str, ...]]] = None) -> str:
    """:func:`source_root_for` a module in the absolute path ``folder``, as a string."""
    for _ in _package_parts(folder, {} if packages is None else packages):
        folder = os.path.dirname(folder)
    return folder
