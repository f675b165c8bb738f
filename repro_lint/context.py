"""Project context: what rules may ask about the whole linted project.

Built once per run, before the per-file rule pass, and shared with every worker:
- which modules are **entry points** (an ``if __name__ == "__main__":`` block, training
  run at module level, a top level that draws random numbers, builds a model or trains (by
  itself or through the project's code it calls) in a module outside any package that no file
  of the run imports, a package's ``__main__.py``, the module
  of a console script that the packaging metadata declares (:mod:`repro_lint.console_scripts`),
  a Jupyter notebook, or a path matching the ``entry-points`` globs);
- each file's **module name** (from the package layout), to resolve project imports;
- **module facts** for the files that matter (entry points and the project modules they reach),
  extracted with Python's ``ast`` (fast, and only for those files): the imports, the functions
  and classes each module defines, the calls each body makes, and what each body seeds, uses
  and turns on directly (:class:`BodyFacts`);
- **effects**, computed from the facts over the project's call graph, across files, memoised
  and cycle-safe: which generators a call seeds (``torch``, ``numpy``, ``random``), whether it
  turns determinism on, and which generators and devices it uses. :meth:`ProjectContext.effects`
  answers for one call; :meth:`ProjectContext.entry_summary` for an entry point's whole
  execution path (module top level, the ``__main__`` block, the functions its console scripts
  name, and every project function and module reached from them).

The call graph has one node per body: a module's top level (``<module>``), its ``__main__``
block (``<main>``), each function or method, each class (building an instance reaches its
constructor), each instance handed to other code (``trainer.fit(model)``: all of its methods),
and each call of a function with effects under ``if <parameter>:`` whose literal arguments turn
that parameter off (``setup|deterministic``: the function without those effects). A method
called on a local instance (``model = Net(); model.fit()``) resolves to that class's method.
A call is resolved, in this order, through the ``seed-functions`` setting,
the module's own functions and classes (``self.method()`` included), then its imports into the
project's other modules (``from utils.seed import set_seed``, ``import utils;
utils.set_seed()``, relative imports, re-exports in a package ``__init__``, named or starred:
``from .net import *``). Known torch,
NumPy, ``random`` and library calls (``repro_lint.catalog``) are classified where they are made,
with their arguments (``use_deterministic_algorithms(False)`` enables nothing), by
:mod:`repro_lint.classify`; the facts come from :mod:`repro_lint.facts`. A call that
resolves to nothing and whose name contains ``seed`` counts as seeding all three generators.
Importing a project module runs its top level (``<imported>``: its own calls, not the modules
it imports in turn), so that is reached too: calls are followed, imports only one step.

Everything here is plain data (picklable), and nothing imports or runs user code.

The results cache keys a file's findings on every file the context consulted while the file
was linted: each method that reads a file, or looks for one, calls :meth:`ProjectContext.consult`
with its path, and every answer drawn from the (memoised) call graph consults
:data:`ALL_FILES`, since the graph spans the project. New methods must do the same, or the
cache could serve stale findings.

It is one module because the entry points, the module resolution, the call graph and its
memo tables are one piece of state, and every answer records what it consulted in it.
"""

from __future__ import annotations

import ast
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union


from .cache import ALL_FILES_KEY, MEMBER_KEY_PREFIX, MODULE_KEY_PREFIX
from .catalog import DATALOADERS, DETERMINISTIC_ALGORITHMS, DRAWING_METHODS, FACTORY_WORD, DEVICE_METHODS, DISPATCHED_METHODS, FRAMEWORK_IMPORTED_FILES, SEEDS_WORKERS, TORCH_LIBRARIES, WORKER_SEEDED, builds_on_torch, is_on
from .classify import (
    ALL_GENERATORS, DETERMINISM, ENTROPY, CallEffect, DROPOUT_LAYER, INIT, LOAD, PRETRAINED, SHUFFLES, TRAIN, classify_call, is_device_name, is_known, is_seed_named, is_seed_parameter, placed_option_devices, setting_device, UNNAMED,
)
from .config import Settings
from .console_scripts import console_scripts
from .facts import (
    ATTRIBUTE_GUARD,
    DEVICE_VARIABLE,
    has_workers,
    HELD,
    CALL_METHODS,
    CLASS_PREFIX,
    CONSTRUCTION_METHODS,
    IMPORTED_BODY,
    INSTANCE_PREFIX,
    OBJECT_PREFIX,
    MAIN_BODY,
    MODULE_BODY,
    UNKNOWN_ARGUMENTS,
    OptionValue,
    ParamAttr,
    ParamValue,
    ParsedOptions,
    RETURNED_CALL,
    SelfValue,
    SUPER_CALL,
    BodyFacts,
    ModuleFacts,
    extract_facts,
    imported_modules,
    might_be_entry_point,
    might_call_at_top_level,
    module_name_for,
    module_variable_device,
    object_attribute_device,
    results_handed_to_trainer,
    source_folder,
    source_root_for,
)
from .notebook import is_notebook
from .modulefiles import ModuleFiles
from .source import read_text
from .syntax import COMPARISONS, MISSING, UNKNOWN, LiteralArgs, NoArgs, UnknownArgs, literal_argument

#: a derived answer being computed (a cycle through it sees nothing known)
_IN_PROGRESS: Any = object()

#: a file that turns determinism on contains one of these (a cheap text check before parsing)
DETERMINISM_WORDS = ("determinis", "seed_all", "reproducible", "seed_everything")


def mentions_determinism(text: str) -> bool:
    """Does ``text`` contain one of :data:`DETERMINISM_WORDS`? (``str.find`` per word: a
    regular expression of the alternatives tries each at every position, 4.5 times slower.)"""
    return any(word in text for word in DETERMINISM_WORDS)


# -- the project -------------------------------------------------------------------------------

#: what :meth:`ProjectContext.survey` learns of a file: whether it is an entry point (None: not
#: decided yet), whether its text mentions determinism, and what that entry-point answer
#: depends on besides the file (None: nothing else; see ``ProjectContext._asked_importers``)
Learnt = Tuple[Optional[bool], bool, Optional[Tuple[str, ...]]]

#: a node of the call graph: (absolute path of the module, body name)
Node = Tuple[str, str]
#: joins a function's name and the parameters that are off in a call (``setup|deterministic``):
#: the node for that call, without what the function does only when they are on
VARIANT = "|"
#: among a variant's parameters: the function makes what DataLoader workers run (a dataset factory
#: whose result the caller hands to a loader with worker processes): the objects it hands on, in
#: its own body and its callees', run in those workers (never a parameter's name)
FOR_WORKERS = ">workers"

#: consulted by answers that may depend on any file of the run (the results cache then keys
#: the file on all of them)
ALL_FILES = ALL_FILES_KEY


#: marks a use of a generator that DataLoader workers seed themselves (``catalog.WORKER_SEEDED``)
#: in code they run: ``in-workers:random``
IN_WORKERS = "in-workers:"
#: marks (as a variant) an object that only a DataLoader receives, as its dataset: of its
#: methods, only the dataset methods it calls run (:data:`~repro_lint.catalog.DRAWING_METHODS`)
LOADER_DATASET = "<dataset>"
#: the generators each DataLoader worker seeds from the loader's generator, when it has one
LOADER_SEEDED = WORKER_SEEDED | {"torch"}


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
        """Is ``generator`` seeded on the path, and not also reseeded from OS entropy somewhere
        on it (``np.random.seed()`` in a sampler, run as the data is drawn: the order between
        bodies is not known, and such a reseed is made to draw different numbers again)?"""
        return generator in self.effects and ENTROPY + generator not in self.effects

    def uses_generator(self, generator: str) -> bool:
        """Does this code consume ``generator``? Weight initialisation and dropout layers count for torch unless
        the weights are then loaded from a checkpoint by code that does not train. Draws in
        DataLoader workers from a generator they seed themselves count only when torch is not
        seeded: their seed is drawn from torch's."""
        if generator in self.uses or (IN_WORKERS + generator in self.uses and not self.seeds("torch")):
            return True
        if generator == "torch" and (INIT in self.uses or DROPOUT_LAYER in self.uses):
            return TRAIN in self.uses or LOAD not in self.uses
        return generator == "torch" and PRETRAINED in self.uses and TRAIN in self.uses

    def generator_uses(self, generator: str) -> FrozenSet[str]:
        """The ``uses`` entries that stand for ``generator`` (where a finding about it is
        placed): a dropout layer only when the code trains or nothing else uses torch (a model
        only evaluated draws its initial weights, not dropout masks)."""
        if generator != "torch":
            return frozenset({generator})
        if TRAIN not in self.uses and (generator in self.uses or INIT in self.uses):
            return frozenset({generator, INIT})
        if TRAIN not in self.uses:
            return frozenset({generator, INIT, DROPOUT_LAYER})
        return frozenset({generator, INIT, DROPOUT_LAYER, PRETRAINED})

    @property
    def deterministic(self) -> bool:
        return bool(self.effects & DETERMINISM)

    def reached_in(self, path: str) -> FrozenSet[str]:
        """The bodies of module ``path`` that this code reaches (a function reached through a
        call that leaves some of its effects off, ``setup|deterministic``, by its own name)."""
        key = os.path.abspath(path)
        return frozenset(name.partition(VARIANT)[0] for p, name in self.reached if p == key)


EMPTY = Summary()


@dataclass(frozen=True)
class _NodeInfo:
    edges: Tuple[Node, ...]
    effects: FrozenSet[str]
    uses: FrozenSet[str]
    draws: FrozenSet[str]
    #: the bodies it hands to DataLoader worker processes (``worker_init_fn``): what they use
    #: counts, what they seed does not (it seeds the workers' generators, not the main process's)
    workers: Tuple[Node, ...] = ()
    #: how many of ``edges``, first, are what its own calls run (the rest: objects handed on,
    #: names looked up, modules imported)
    called: int = 0
    #: of what it hands to DataLoader workers, the bodies that only the workers of loaders with
    #: a generator of their own run (:attr:`~repro_lint.facts.BodyFacts.seeded_worker_refs`)
    seeded_workers: Tuple[Node, ...] = ()


#: the tables of :class:`ProjectContext` keyed by a file's absolute path that hold what was
#: learnt from that file's text alone (:meth:`ProjectContext.forget` drops its entries)
_OWN = ("_facts", "_entry", "_asked_importers", "_mentions_determinism", "_nodes", "_attributes")

#: the answers :class:`ProjectContext` derives from the call graph or from every file's text,
#: which a change to any file may change: what :meth:`ProjectContext.forget` starts again
#: (a new table, or None: not computed)
_DERIVED: Dict[str, Optional[Callable[[], Any]]] = {
    "_objects": dict,
    "_stars": dict,
    "_settings": dict,
    "_words": dict,
    "_caller_arguments": dict,
    "_never_called": set,
    "_derived": dict,
    "_calling": dict,
    "_closures": dict,
    "_entries": dict,
    "_mentioning": dict,
    "_imported": None,
    "_enables_determinism": None,
    "_seeds_workers": None,
    "_program_index": None,
    "_program_sets": dict,
}


class _Before:
    """What :meth:`ProjectContext.trying` keeps of a project before the fixes of one file."""

    #: marks a file that had no entry in a table
    NONE: Any = object()

    def __init__(
        self, key: str, text: Optional[str], own: Dict[str, Any], sent: bool, imports: Dict[str, FrozenSet[str]], derived: Dict[str, Any],
        outer: "Optional[_Before]",
    ) -> None:
        self.key, self.text, self.own, self.sent, self.imports, self.derived = key, text, own, sent, imports, derived
        self.outer = outer  # the trial this one runs in, if any: it sees every change too
        self.changed = False  # the file's text changed meanwhile
        self.others = False  # another file's did

    def forgot(self, key: str) -> None:
        trial: Optional[_Before] = self
        while trial is not None:
            if key == trial.key:
                trial.changed = True
            else:
                trial.others = True
            trial = trial.outer


class ProjectContext:
    """Entry points, module facts and effects for one run. Cheap to build; facts are computed on
    demand, and :meth:`prepare` computes everything the entry points need in the parent process
    so that workers inherit it."""

    def __init__(self, settings: Settings, files: Iterable[Path] = ()) -> None:
        #: path as asked -> its absolute path (:meth:`_absolute`)
        self._absolutes: Dict[Any, str] = {}
        self.settings = settings
        self.files = [f if isinstance(f, Path) else Path(f) for f in files]
        self._entry_globs = None
        if settings.entry_points:
            import pathspec  # only for configured globs: a run without them never imports it

            self._entry_globs = pathspec.GitIgnoreSpec.from_lines(settings.entry_points)
        self._facts: Dict[str, Optional[ModuleFacts]] = {}
        #: absolute path -> the text the file has for this run when not the one on disk
        #: (:meth:`learn_text`: a fix's new text, an editor's unsaved one)
        self._texts: Dict[str, str] = {}
        self._entry: Dict[str, bool] = {}
        #: files whose text mentions determinism (None: not read yet)
        self._mentions_determinism: Dict[str, bool] = {}
        self._enables_determinism: Optional[FrozenSet[str]] = None  # the files that turn it on
        #: the modules some file of the run imports, with the positions in ``files`` of the
        #: files that import each (see :meth:`index_imports`)
        self._imported: Optional[Dict[str, List[int]]] = None
        #: each file's imports (by its path as given), kept when another file is forgotten
        self._imports_of: Dict[str, FrozenSet[str]] = {}
        #: the files whose text holds a method call, by its text (see :meth:`_files_calling`)
        self._calling: Dict[str, List[Path]] = {}
        #: per module path and class name: the class's ``self.attr = Cls()`` attributes -> the
        #: method that sets each
        self._attributes: Dict[str, Dict[str, Dict[str, BodyFacts]]] = {}
        #: per file whose entry-point answer asked who imports it (that index), what the answer
        #: depends on, for every question that reads it (:meth:`is_entry_point`): the files that
        #: import it, as members of the run, when some do (another file's imports cannot undo
        #: that), else every file
        self._asked_importers: Dict[str, Tuple[str, ...]] = {}
        #: :meth:`prepare` has run: every file that may be an entry point has been asked
        self._prepared = False
        self._packages: Dict[str, Tuple[str, ...]] = {}  # source_root_for's memo
        top = os.path.join(self._absolute(settings.root), "")
        roots = {self._absolute(settings.root)}
        # asked once per folder (a tree of 1,500 files has about 260)
        for folder in {os.path.dirname(self._absolute(f)) for f in self.files}:
            roots.add(source_folder(folder, self._packages))
            # a ``src`` folder under the linted root is one too: namespace packages without an
            # ``__init__.py`` (``src/f5_tts/model/cfm.py``, imported as ``f5_tts.model.cfm``)
            while folder.startswith(top) and len(folder) >= len(top):
                if os.path.basename(folder) == "src":
                    roots.add(folder)
                    break
                folder = os.path.dirname(folder)
        self._roots: Set[Path] = {Path(root) for root in roots}
        self._modules: Dict[Any, Optional[str]] = {}
        self._paths: Dict[str, Path] = {}  # the paths resolve_module returns, made once each
        #: the paths each look-up beside an importing file looked at (see :meth:`resolve_module`)
        self._beside_looked: Dict[Any, Tuple[str, ...]] = {}
        #: the file whose imports are being resolved (see :meth:`importing`)
        self._importer: Optional[str] = None
        self._module_files = ModuleFiles(self._roots)
        #: what each node of the call graph does (:meth:`_node`), by file and name: a file's
        #: are forgotten together (:meth:`forget`, twice per fixed file)
        self._nodes: Dict[str, Dict[str, Optional[_NodeInfo]]] = {}
        #: what a project name stands for when handed on (see :meth:`_object_nodes`)
        self._objects: Dict[Tuple[str, bool, Tuple[str, ...]], Tuple[Node, ...]] = {}
        #: the names ``from <module> import *`` binds, by module path (see :meth:`_star_names`)
        self._stars: Dict[str, FrozenSet[str]] = {}
        #: the files whose facts :meth:`unsent_facts` already handed on
        self._sent: Set[str] = set()
        self._closures: Dict[Node, Summary] = {}
        self._entries: Dict[Tuple[str, Optional[str]], Summary] = {}
        #: answers of :meth:`any_file_mentions` and :meth:`sets_anywhere`
        self._words: Dict[str, bool] = {}
        self._caller_arguments: Dict[Tuple[Node, bool, bool], Any] = {}
        #: answers rules derive from the project that do not depend on the file asking
        #: (:meth:`remembered`)
        self._derived: Dict[Tuple[Any, ...], Any] = {}
        #: the functions nothing in the project calls nor hands on (see :meth:`never_called`)
        self._never_called: Set[Node] = set()
        self._seeds_workers: Optional[FrozenSet[str]] = None
        #: :meth:`_programs`, and the files that contain a word (:meth:`mentioned_with`)
        self._program_index: Optional[Dict[str, FrozenSet[str]]] = None
        #: :meth:`_held_by_programs`, by the files asked about
        self._program_sets: Dict[Tuple[str, ...], Tuple[FrozenSet[str], Tuple[str, ...]]] = {}
        self._mentioning: Dict[str, Tuple[str, ...]] = {}
        self._settings: Dict[Tuple[str, str], FrozenSet[str]] = {}
        #: module path -> the functions (``main``, ``Class.method``) its console scripts call,
        #: and the files that answer depends on (packaging files, modules looked for)
        self._console: Optional[Dict[str, Tuple[str, ...]]] = None
        self._console_files: Tuple[str, ...] = ()
        #: when a set, the absolute paths of the files consulted (read, or looked for) are added
        self.consulted: Optional[Set[str]] = None
        #: the file whose fixes are being tried (:meth:`trying`), and what was known before
        self._trial: Optional[_Before] = None

    def _absolute(self, path: "str | Path") -> str:
        """``os.path.abspath(path)``, remembered: the questions of a run ask for the same few
        thousand paths 230,000 times on the project corpus (its working folder does not change
        while this context is used)."""
        try:
            return self._absolutes[path]
        except KeyError:
            found = self._absolutes[path] = os.path.abspath(path)
            return found

    def consult(self, path: "str | Path") -> None:
        """Record that an answer depends on the file at ``path`` (its content, or that it is
        missing), or on every file of the run (:data:`ALL_FILES`)."""
        if self.consulted is not None:
            self.consulted.add(ALL_FILES if path == ALL_FILES else self._absolute(path))

    @property
    def roots(self) -> Tuple[Path, ...]:
        """The source roots searched for the project's modules."""
        return tuple(sorted(self._roots))

    def state_key(self) -> str:
        """What answers depend on besides file contents and settings: the source roots searched."""
        return "|".join(sorted(str(root) for root in self._roots))

    # -- entry points ----------------------------------------------------------------------
    def matches_entry_glob(self, path: "str | Path") -> bool:
        if self._entry_globs is None:
            return False
        try:
            rel = Path(self._absolute(path)).relative_to(self.settings.root).as_posix()
        except ValueError:
            rel = Path(path).as_posix()
        return self._entry_globs.match_file(rel)

    def is_entry_point(self, path: "str | Path", source: Optional[str] = None) -> bool:
        key = self._absolute(path)
        self.console_functions(key)  # consults the packaging metadata, which may make it one
        cached = self._entry.get(key)
        if cached is None:
            cached = self._compute_entry(Path(key), source)
            self._entry[key] = cached
        asked = self._asked_importers.get(key)
        if asked is not None and self.consulted is not None:
            self.consulted.update(asked)  # whether it is a script depends on who imports it
        return cached

    def _compute_entry(self, path: Path, source: Optional[str]) -> bool:
        key = str(path)
        if source is None:
            source = self.text(path)
        if source is not None:
            self._mentions(key, source)
        if self.matches_entry_glob(path) or is_notebook(path):  # a notebook is a script
            return True
        if self.starts_program(key):
            return True
        if source is None:
            return False
        if might_be_entry_point(source):
            facts = self.facts(path, source)
            if facts is not None and (facts.has_main_guard or facts.trains_at_module_level):
                return True
        # a script without a ``__main__`` block: no file of the project imports it (a module
        # others import is a library), and outside any package its top level draws, builds a
        # model or trains (by itself, or through the project's code it calls); a module of a
        # package (``examples/cart_dqn.py`` beside an ``__init__.py``) may be imported by name
        # at run time, so it is one only when it defines no class and its top level trains
        # through the project's code (``runner.run()``), which no library module does when imported
        name, is_package = module_name_for(path)
        if is_package or not might_call_at_top_level(source):
            return False
        # who imports it first (one index for the run), its facts only when nothing does
        importers = self._importer_keys(name)  # (is_imported's answer, with what it depends on)
        self._asked_importers[key] = (key, *importers) if importers else (ALL_FILES,)
        if importers:
            return False
        facts = self.facts(path, source)
        if facts is None or facts.has_main_guard or not facts.module_body.calls:
            return False
        if "." in name:
            # (one that defines classes is there to be imported: in torch's source 74 such
            # modules that nothing imports by name, none a script)
            return not facts.classes and self._runs_through_project(facts, trains_only=True)
        return facts.draws_at_module_level or self._runs_through_project(facts)

    def _runs_through_project(self, facts: ModuleFacts, trains_only: bool = False) -> bool:
        """Do the project bodies that the calls of the module's top level run (a project class
        built, a function called, transitively, across files) draw random numbers, build a
        model or train (``trains_only``: train)? Outside a package (not ``trains_only``), also
        what a library call runs that it hands a project function or class to (``fire.Fire(train)``,
        ``wandb.agent(sweep, function=train)``, as in a ``__main__`` block); never what importing
        its modules runs."""
        info = self._node((facts.path, MODULE_BODY))
        body = facts.body(MODULE_BODY)
        if info is None or body is None:
            return False
        # (a module of a package hands its functions on to be registered, ``callbacks = {...}``,
        # for the package's code to run later: only its own calls count there)
        in_workers = self.worker_refs(body)
        handed = [] if trains_only else [n for ref in body.refs if ref not in in_workers for n in self._ref_targets(facts, MODULE_BODY, body, ref)]
        if not info.called and not handed:
            return False
        summary = self.closure(list(dict.fromkeys(info.edges[: info.called] + tuple(handed))))
        if trains_only:
            return TRAIN in summary.uses
        return bool(summary.draws) or INIT in summary.uses or PRETRAINED in summary.uses or SHUFFLES in summary.uses or TRAIN in summary.uses

    def is_imported(self, module: str) -> bool:
        """Does a file of the run import module ``module`` (``import m``, ``from m import x``,
        ``from pkg import m``, relative imports)? An index of every file's imports, built once.
        Yes depends on the files that import it, while they are files of the run (a file that
        starts to import it too changes nothing); no, on every file."""
        importers = self._importer_keys(module)
        if self.consulted is not None:
            self.consulted.update(importers or (ALL_FILES,))
        return bool(importers)

    def _importer_keys(self, module: str) -> Tuple[str, ...]:
        """The dependencies on the files of the run that import ``module``, as members of the
        run (:data:`~repro_lint.cache.MEMBER_KEY_PREFIX`)."""
        files = self.files
        return tuple(MEMBER_KEY_PREFIX + self._absolute(files[position]) for position in self.index_imports().get(module, ()))

    def index_imports(self) -> Dict[str, List[int]]:
        """The modules some file of the run imports (:meth:`is_imported`), each with the
        positions in ``files`` of the files that import it (:meth:`_files_importing`), from
        every file's text, built once. A parallel run builds it before forking its survey
        workers, which would each build it otherwise."""
        if self._imported is None:
            imported: Dict[str, List[int]] = {}
            for position, path in enumerate(self.files):
                key = str(path)
                found = self._imports_of.get(key)
                if found is None:
                    text = self.text(path)
                    found = self._imports_of[key] = frozenset(imported_modules(path, text)) if text is not None else frozenset()
                for name in found:
                    imported.setdefault(name, []).append(position)
            self._imported = imported
        return self._imported

    def starts_program(self, path: "str | Path") -> bool:
        """Is the file at ``path`` where an installed program starts, whatever its text says: a
        package's ``__main__.py`` (``python -m pkg`` runs its top level) or the module of a
        console script of the packaging metadata (the installed wrapper calls its function)?"""
        key = self._absolute(path)
        if os.path.basename(key) == "__main__.py" and module_name_for(Path(key))[0].count(".") >= 1:
            return True
        return bool(self.console_functions(key))

    def entry_point_without_words(self, path: "str | Path", source: str) -> bool:
        """Is the file at ``path`` (text ``source``) an entry point whose text may have none of
        the words that make a file one (``classify.ENTRY_WORDS``)? Where an installed program
        starts (:meth:`starts_program`), or a script without a ``__main__`` block whose top level
        draws (outside any package) or trains only through the project's code (``net =
        Net(3)``, ``runner.run()``; see :meth:`is_entry_point`)."""
        if self.starts_program(path):
            return True
        if len(source) > self.settings.max_file_size:
            return False  # never parsed (RPL001 says why): its own top level is not analysed
        name, is_package = module_name_for(Path(self._absolute(path)))
        if is_package or not might_call_at_top_level(source):
            return False
        return self.is_entry_point(path, source)

    def console_functions(self, path: "str | Path") -> Tuple[str, ...]:
        """The functions of the module at ``path`` (``main``, ``Class.method``) that console
        scripts declared in the project's packaging metadata call: ``[project.scripts]``,
        ``setup.cfg``, ``setup.py`` in a source root or the folder above a ``src`` root. The
        metadata is read once per run."""
        if self._console is None:
            self._console = self._read_console_scripts()
        if self.consulted is not None:
            self.consulted.update(self._console_files)
        return self._console.get(self._absolute(path), ())

    def _read_console_scripts(self) -> Dict[str, Tuple[str, ...]]:
        folders: Set[str] = set()
        for root in self._roots:
            folders.add(str(root))
            if root.name == "src":
                folders.add(str(root.parent))
        found: Dict[str, List[str]] = {}
        depends: List[str] = []
        for folder in sorted(folders):
            scripts, looked = console_scripts(folder)
            depends += looked
            for script in scripts:
                consulted, self.consulted = self.consulted, set()
                try:
                    module = self.resolve_module(script.module)
                    depends += sorted(self.consulted)
                finally:
                    self.consulted = consulted
                if module is not None:
                    attrs = found.setdefault(self._absolute(module), [])
                    if script.attr not in attrs:
                        attrs.append(script.attr)
        self._console_files = tuple(dict.fromkeys(depends))
        return {path: tuple(attrs) for path, attrs in found.items()}

    def console_nodes(self, path: "str | Path", only: Optional[str] = None) -> List[Node]:
        """The call-graph nodes of the functions that console scripts call in module ``path``
        (each followed through re-exports to where it is defined); ``only``: of that one."""
        facts = self.facts(path)
        nodes: List[Node] = []
        for attr in self.console_functions(path):
            if only is not None and attr != only:
                continue
            found = _local_target(facts, attr) if facts is not None else None
            node = (facts.path, found) if facts is not None and found is not None else None
            if node is None and facts is not None and facts.module_name:
                node = self._resolve_qualified(f"{facts.module_name}.{attr}")
            if node is not None:
                nodes.append(node)
        return nodes

    # -- module facts ----------------------------------------------------------------------
    def facts(self, path: "str | Path", source: Optional[str] = None) -> Optional[ModuleFacts]:
        if type(path) is str and path in self._facts:
            # asked by its key, which is an absolute path already: no ``abspath`` (asked
            # 117,000 times in a run of the project corpus, mostly by the call graph)
            if self.consulted is not None:
                self.consulted.add(path)
            return self._facts[path]
        key = self._absolute(path)
        self.consult(key)
        if key not in self._facts:
            text = source if source is not None else self.text(key)
            self._facts[key] = extract_facts(Path(key), text) if text is not None else None
        return self._facts[key]

    def known_facts(self, path: "str | Path", text: str) -> Optional[ModuleFacts]:
        """The facts of ``text`` at ``path`` if this process has them already (extracted here
        or handed on), else None: never extracts them, and consults no file but ``path``."""
        facts = self._facts.get(self._absolute(path))
        return facts if facts is not None and facts.of_text(text) else None

    def text_facts(self, path: "str | Path", text: str) -> Optional[ModuleFacts]:
        """The facts of ``text`` at ``path`` (None where it does not parse): those this process
        holds, else extracted now, and kept unless it holds another version's; consults no file
        but ``path``. What the prefilter's gates ask before a file is parsed: which of the rules
        its words select its own facts rule out. Extracting them costs less than the parse they
        often spare; with only the facts a process happened to hold, which files a run parsed
        depended on the questions asked before (torch's source: 198 files parsed instead of
        374 in a serial run, for 165 modules' facts more)."""
        held = self.known_facts(path, text)
        if held is not None:
            return held
        key = self._absolute(path)
        if key not in self._facts:
            return self.facts(key, text)
        self.consult(key)
        return extract_facts(Path(key), text)

    def survey(self, path: "str | Path") -> "Learnt":
        """Learn now, e.g. in a worker process, what a run may later ask of the file at
        ``path`` from its text alone: whether it mentions determinism. Returns what is known of
        the file, for :meth:`absorb` in another process.

        Its facts are extracted here only where a question of the run reaches them: a file
        that mentions determinism, whose facts :meth:`prepare` reads (whether the project turns
        deterministic algorithms on) before the lint workers are forked, is extracted here, in
        parallel, instead of there, one after the other (torch's source: 184 such files, 3.8 s
        of the parent's 4.2 s in ``prepare``); the questions that decide whether to parse a file
        have asked for those they need already (:meth:`unsent_facts` hands them all on).
        Extracting every file's facts in the survey's workers, as an earlier version did, took
        38 % more ``ast`` passes on the project corpus (1,522 against 1,103: only 1,014 of its
        1,519 files are reached by a question), and more memory on torch's source
        (``docs/performance.md``)."""
        key = self._absolute(path)
        mentions = self._mentions(key)
        if mentions:
            self.facts(key)
        return (self._entry.get(key), mentions, self._asked_importers.get(key))

    def absorb(self, path: "str | Path", learnt: "Learnt") -> None:
        """Take what :meth:`survey` learnt of ``path`` (in another process) as known here."""
        key = self._absolute(path)
        entry, mentions, asked = learnt
        if entry is not None:
            self._entry.setdefault(key, entry)
            if asked is not None:
                self._asked_importers.setdefault(key, asked)
        self._mentions_determinism.setdefault(key, mentions)

    def unsent_facts(self) -> Dict[str, Optional[ModuleFacts]]:
        """The facts of modules this process knows and has not handed on by this method yet (a
        survey worker sends them with each batch of answers, for :meth:`absorb_facts`)."""
        fresh = {key: facts for key, facts in self._facts.items() if key not in self._sent}
        self._sent.update(fresh)
        return fresh

    def absorb_facts(self, found: Dict[str, Optional[ModuleFacts]]) -> None:
        """Take facts that another process extracted (:meth:`unsent_facts`) as known here."""
        for key, facts in found.items():
            self._facts.setdefault(key, facts)

    def text(self, path: "str | Path") -> Optional[str]:
        """The text of the file at ``path`` for this run: the one :meth:`learn_text` gave, else
        the one on disk (None when it cannot be read)."""
        if self._texts:
            given = self._texts.get(self._absolute(path))
            if given is not None:
                return given
        return read_text(path)

    def learn_text(self, path: "str | Path", text: Optional[str]) -> None:
        """From now on, the file at ``path`` has ``text`` (a fix's new text, an editor's unsaved
        one), or, with None, the text on disk again. What was learnt from the text it had is
        forgotten, and every later question reads this one, whichever question comes first: an
        entry point's summary that reaches the file sees it as the file's own lint does."""
        key = self._absolute(path)
        if text is None:
            self._texts.pop(key, None)
        else:
            self._texts[key] = text
        self.forget(key)

    def forget(self, path: "str | Path") -> None:
        """Drop what was learnt from ``path``'s text (it changed, e.g. after a fix). Once
        :meth:`prepare` has run, every file's entry-point flag stays known (:meth:`entry_points`
        lists the flags): the file's is decided again, from its text now."""
        key = self._absolute(path)
        if self._trial is not None:
            self._trial.forgot(key)
        self._facts.pop(key, None)
        self._sent.discard(key)
        flagged = self._entry.pop(key, None) is not None
        self._asked_importers.pop(key, None)
        self._mentions_determinism.pop(key, None)
        self._nodes.pop(key, None)
        self._attributes.pop(key, None)
        for known in self._imports_keys(key):
            del self._imports_of[known]
        # everything derived from the call graph may have gone through that file: new tables,
        # not the old ones emptied (:meth:`trying` may hold those)
        for name, make in _DERIVED.items():
            setattr(self, name, make() if make is not None else None)
        if flagged and self._prepared:
            self.is_entry_point(key)

    def _imports_keys(self, key: str) -> List[str]:
        """The keys of ``_imports_of`` (paths as the run names its files) that name the file
        at absolute path ``key``: only a key with the file's name may be it."""
        name = os.path.basename(key)
        return [k for k in self._imports_of if k.endswith(name) and self._absolute(k) == key]

    @contextmanager
    def trying(self, path: "str | Path") -> Iterator[None]:
        """While the fixes of the file at ``path`` are tried: the texts :meth:`learn_text`
        gives it meanwhile are its own until the end, when it has the text it had before
        again. What the project knew then comes back as it was, instead of being derived again
        from that text, unless another file's text changed meanwhile (then the file's text is
        learnt again, as :meth:`learn_text` does)."""
        key = self._absolute(path)
        before = _Before(
            key,
            self._texts.get(key),
            {table: getattr(self, table).get(key, _Before.NONE) for table in _OWN},
            key in self._sent,
            {k: self._imports_of[k] for k in self._imports_keys(key)},
            {name: getattr(self, name) for name in _DERIVED},
            self._trial,
        )
        self._trial = before
        try:
            yield
        finally:
            self._trial = before.outer
            if before.others:
                self.learn_text(key, before.text)
            elif before.changed:
                self._restore(before)

    def _restore(self, before: "_Before") -> None:
        """Take back what :meth:`trying` kept of the project before the fixes of a file
        (``before.key``), whose text was the only one to change meanwhile."""
        key = before.key
        if before.text is None:
            self._texts.pop(key, None)
        else:
            self._texts[key] = before.text
        for table, value in before.own.items():
            known = getattr(self, table)
            if value is _Before.NONE:
                known.pop(key, None)
            else:
                known[key] = value
        if before.sent:
            self._sent.add(key)
        else:
            self._sent.discard(key)
        for known in self._imports_keys(key):
            del self._imports_of[known]
        self._imports_of.update(before.imports)
        for name, value in before.derived.items():
            setattr(self, name, value)

    def resolve_module(self, dotted: str) -> Optional[Path]:
        """The project file defining module ``dotted`` (searched in the project's source roots;
        where several roots hold its first part, those of the file importing it first: see
        :meth:`importing`)."""
        head = dotted.partition(".")[0]
        prefer = self._module_files.preferred(head, self._importer) if self._importer and head in self._module_files.ambiguous() else ()
        key = (dotted, prefer) if prefer else dotted
        if key not in self._modules:
            self._modules[key] = self._module_files.find(dotted, self._importer) if prefer else self._module_files.find(dotted)
        found = self._modules[key]
        if self.consulted is not None:  # the answer depends on where the name resolves, and that file
            self.consulted.add(MODULE_KEY_PREFIX + dotted)
            if found:
                self.consulted.add(found)
        if found is None and self._importer is not None:
            # no root has it: a flat import of a module beside the importing script, in a
            # folder that is part of a package (``pkg/sub/train.py``: ``from dev import f``)
            beside = ("beside", os.path.dirname(self._importer), dotted)
            if beside not in self._modules:
                self._modules[beside], looked = self._module_files.beside(dotted, self._importer)
                self._beside_looked[beside] = looked
            found = self._modules[beside]
            for path in self._beside_looked.get(beside, ()):
                self.consult(path)
        if not found:
            return None
        made = self._paths.get(found)
        if made is None:
            made = self._paths[found] = Path(found)
        return made

    def resolve_function(self, qualified: str) -> Optional[Tuple[ModuleFacts, BodyFacts]]:
        """``pkg.mod.func`` (or ``pkg.mod.Class.method``) defined in the project, with its facts."""
        node = self._resolve_qualified(qualified)
        if node is None or node[1].startswith(CLASS_PREFIX):
            return None
        facts = self.facts(node[0])
        body = facts.body(node[1]) if facts else None
        return (facts, body) if facts is not None and body is not None else None

    def resolve_method(self, qualified: str) -> Optional[Tuple[ModuleFacts, BodyFacts]]:
        """:meth:`resolve_function` for ``pkg.mod.Class.method``, also where the class inherits
        the method from a project base (``class Exp(BaseExp)`` without an ``__init__`` of its
        own: ``BaseExp.__init__``, with its module's facts)."""
        found = self.resolve_function(qualified)
        if found is not None:
            return found
        owner, _, method = qualified.rpartition(".")
        node = self._resolve_qualified(owner) if owner else None
        if node is None or not node[1].startswith(CLASS_PREFIX):
            return None
        facts = self.facts(node[0])
        inherited = self._class_methods(facts, node[1][len(CLASS_PREFIX) :], (method,)) if facts is not None else ()
        if not inherited:
            return None
        base_facts = self.facts(inherited[0][0])
        body = base_facts.body(inherited[0][1]) if base_facts is not None else None
        return (base_facts, body) if base_facts is not None and body is not None else None

    def loader_class(self, qualified: str, depth: int = 0) -> Optional[LoaderBase]:
        """A project class named ``qualified`` (``pkg.mod.Class``, in any module of the
        project) that derives from a DataLoader of ``catalog.DATALOADERS``, through other
        project classes or not: (that DataLoader, the parameters the class takes by position,
        the keywords its ``__init__`` passes itself, whether it forwards other keywords, the
        defaults of those it passes on: :data:`LoaderBase`), or None. Read from the modules'
        facts (each extracted once per run)."""
        if is_known(qualified):  # a library's name (torch's own, in its source)
            return None
        node = self._resolve_qualified(qualified)
        return self._loader_node(node, depth) if node is not None else None

    def _loader_node(self, node: Node, depth: int = 0) -> Optional[LoaderBase]:
        """:meth:`loader_class` for the call-graph node of a class (``(path, "class Name")``)."""
        if depth > 8 or not node[1].startswith(CLASS_PREFIX):
            return None
        facts = self.facts(node[0])
        own = facts.loaders.get(node[1][len(CLASS_PREFIX) :]) if facts is not None else None
        if own is None:
            return None
        if own.base in DATALOADERS:
            base: Optional[LoaderBase] = (own.base, DATALOADERS[own.base], frozenset(), True, ())
        else:
            base = self.loader_class(own.base, depth + 1)
        if base is None:
            return None
        if own.params is None:
            return base
        # its own defaults first; a base's default holds for what it leaves to the base
        defaults = tuple(dict([*base[4], *own.defaults]).items())
        return base[0], own.params, own.fixed | base[2], own.forwards, defaults

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
            method = self._instance_method_of(facts, parts[cut:])
            if method is not None:
                return method
            target = facts.aliases.get(parts[cut]) or self._star_target(facts, parts[cut])
            # (also a function its package re-exports under its own module's name: ``from
            # pkg.train import train`` in ``pkg/__init__.py`` makes ``pkg.train`` the function)
            if target and target != qualified:
                rest = ".".join(parts[cut + 1 :])
                return self._resolve_qualified(f"{target}.{rest}" if rest else target, depth + 1)
            # the module the importer's own root gives binds no such name: the same module of
            # another root that does is the one the program runs with (``from utils import f``
            # in ``pkg/sub/train.py``, run as ``python -m pkg.sub.train``, beside a
            # ``pkg/sub/utils.py`` without ``f``)
            other = self._module_files.find(".".join(parts[:cut])) if self._importer is not None else None
            other_facts = self.facts(other) if other is not None and self._absolute(other) != self._absolute(path) else None
            found = _local_target(other_facts, ".".join(parts[cut:])) if other_facts is not None else None
            return (other_facts.path, found) if other_facts is not None and found is not None else None
        return None

    def _instance_method_of(self, facts: ModuleFacts, parts: List[str]) -> Optional[Node]:
        """The method that a call of ``parts`` runs where module ``facts`` binds ``parts[0]`` at
        its top level to a project class's object (``data_generator = Data(path)``, imported by
        another module that calls ``data_generator.sample()``: ``Data.sample``, its own or a
        base's; the object called, ``net(x)``: its ``forward``). Importing the module built it."""
        if len(parts) > 2 or parts[0] not in facts.module_body.instances:
            return None
        for cls in self._instance_classes(facts, MODULE_BODY, facts.module_body, parts[0]):
            owner = self.facts(cls[0])
            if owner is None:
                continue
            found = self._class_methods(owner, cls[1][len(CLASS_PREFIX) :], (parts[1],) if len(parts) == 2 else CALL_METHODS)
            if found:
                return found[0]
        return None

    def named_class_methods(self, path: str, source: Optional[str] = None) -> FrozenSet[str]:
        """The method names of the project classes module ``path`` defines or imports by name
        (``from .history_buffer import HistoryBuffer``): an object of unknown kind whose method
        has one of these names may be one of them (``v.median(200)`` on a ``HistoryBuffer``)
        rather than a tensor. Classes deriving from ``Tensor`` are left out."""
        return self.remembered(("named class methods", self._absolute(path)), lambda: self._named_class_methods(path, source))

    def _named_class_methods(self, path: str, source: Optional[str]) -> FrozenSet[str]:
        names: Set[str] = set()
        facts = self.facts(path, source)
        if facts is not None:
            classes: List[Tuple[ModuleFacts, str]] = [(facts, c) for c in facts.classes]
            for qualified in set(facts.aliases.values()):
                if is_known(qualified):
                    continue
                node = self._resolve_qualified(qualified)
                if node is not None and node[1].startswith(CLASS_PREFIX):
                    owner = self.facts(node[0])
                    if owner is not None:
                        classes.append((owner, node[1][len(CLASS_PREFIX) :]))
            for owner, cls in classes:
                if any(base.endswith("Tensor") for base, _ in owner.bases.get(cls, ())):
                    continue
                names.update(f.rsplit(".", 1)[1] for _, f in _methods(owner, cls, None))
        return frozenset(names)

    def library_name(self, qualified: Optional[str], depth: int = 0) -> Optional[str]:
        """The library name that project name ``qualified`` stands for, when a project module
        binds it to one (``interpolate = F.interpolate`` in ``layers/wrappers.py``, re-exported
        by ``layers/__init__.py``: ``pkg.layers.interpolate`` is
        ``torch.nn.functional.interpolate``); None for anything else."""
        if qualified is None or depth > 16:
            return None
        parts = qualified.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            path = self.resolve_module(".".join(parts[:cut]))
            if path is None:
                continue
            facts = self.facts(path)
            if facts is None or _local_target(facts, ".".join(parts[cut:])) is not None:
                return None  # the project's own function or class
            target = facts.aliases.get(parts[cut]) or self._star_target(facts, parts[cut])
            if not target or target == qualified or target.startswith(qualified + "."):
                return None
            rest = ".".join(parts[cut + 1 :])
            target = f"{target}.{rest}" if rest else target
            if any(self.resolve_module(".".join(target.split(".")[:end])) is not None for end in range(1, target.count(".") + 1)):
                return self.library_name(target, depth + 1)  # another project name
            return target
        return None

    def _star_target(self, facts: ModuleFacts, name: str) -> Optional[str]:
        """What ``name`` stands for in module ``facts`` when one of its star imports of a
        project module binds it (``from .net import *`` in ``models/__init__.py``:
        ``models.build`` is ``models.net.build``), qualified; the last such import wins, as
        when the module runs. None for a name no star import of a project module binds."""
        for module in reversed(facts.star_imports):
            path = self.resolve_module(module)
            if path is not None and name in self._star_names(str(path)):
                return f"{module}.{name}"
        return None

    def star_library_names(self, path: "str | Path") -> Dict[str, str]:
        """The library names the star imports of project modules bind in the module at
        ``path`` (``from data_loader import *`` where ``data_loader`` does ``from
        torch.utils.data import DataLoader``: ``DataLoader`` is torch's), qualified, that
        the module does not define itself; the last star import wins, as when it runs."""
        facts = self.facts(path)
        if facts is None or not facts.star_imports:
            return {}
        found: Dict[str, str] = {}
        for module in facts.star_imports:
            star = self.resolve_module(module)
            if star is not None:
                found.update(self._star_library(str(star), frozenset()))
        own = set(facts.functions) | set(facts.classes)
        return {name: target for name, target in found.items() if name not in own}

    def _star_library_call(self, facts: ModuleFacts, name: str, argless: bool = False) -> Optional[CallEffect]:
        """What a call of a library's name that a star import of a project module binds does
        (``torch.randn(3)`` after ``from utils import *`` where ``utils`` imports ``torch``;
        the facts of the module, which does not import it, could not tell), classified without
        the arguments the facts do not keep (``argless``: it was given none); None for any
        other name."""
        head, dot, rest = name.partition(".")
        if not facts.star_imports or head in ("self", "cls"):
            return None
        library = self.remembered(("star library", facts.path), lambda: self.star_library_names(facts.path)).get(head)
        if library is None:
            return None
        qualified = f"{library}{dot}{rest}"
        method = qualified.rsplit(".", 1)[-1]
        # what it draws or uses with its defaults; what it seeds with arguments the facts did
        # not keep (``np.random.seed(args.seed)`` seeds, it does not reseed from entropy), unless
        # it was given none (``argless``: ``np.random.seed()`` does)
        used = classify_call(qualified, method, NoArgs())
        return used if argless else replace(used, effects=classify_call(qualified, method, UnknownArgs()).effects)

    def _star_library(self, path: str, seen: FrozenSet[str]) -> Dict[str, str]:
        """:meth:`star_library_names` that ``from <the module at path> import *`` binds."""
        key = self._absolute(path)
        facts = self.facts(key) if key not in seen else None
        if facts is None:
            return {}
        found: Dict[str, str] = {}
        if facts.exports is None:
            for module in facts.star_imports:
                star = self.resolve_module(module)
                if star is not None:
                    found.update(self._star_library(str(star), seen | {key}))
        for alias, target in facts.aliases.items():
            if alias.startswith("_") or (facts.exports is not None and alias not in facts.exports):
                continue
            head = target.split(".", 1)[0]
            if self.resolve_module(head) is None:  # a library's name or module (``torch``), not the project's
                found[alias] = target
        return found

    def _star_names(self, path: str) -> FrozenSet[str]:
        """The names ``from <the module at path> import *`` binds: its ``__all__``, else its
        public names (:func:`_public_names`) and those its own star imports of project modules
        bind. Memoised; a chain of star imports that loops sees nothing more on the way back."""
        key = self._absolute(path)
        found = self._stars.get(key)
        if found is not None:
            return found
        self._stars[key] = frozenset()  # a cycle through this module sees nothing more
        facts = self.facts(key)
        names: Set[str] = set()
        if facts is not None:
            names.update(_public_names(facts))
            if facts.exports is None:
                for module in facts.star_imports:
                    star = self.resolve_module(module)
                    if star is not None:
                        names.update(n for n in self._star_names(str(star)) if not n.startswith("_"))
                if key.endswith("__init__.py"):
                    # a package that imports its own submodule binds the submodule's name too
                    # (``from .exp import *`` or ``from .exp import run`` in ``pkg/__init__.py``:
                    # ``pkg.exp``), as importing a submodule sets it on its package
                    prefix = facts.module_name + "."
                    for target in (*facts.star_imports, *facts.aliases.values()):
                        sub = target[len(prefix) :].partition(".")[0] if target.startswith(prefix) else ""
                        if sub and not sub.startswith("_") and self.resolve_module(prefix + sub) is not None:
                            names.add(sub)
        found = self._stars[key] = frozenset(names)
        return found

    def _module_nodes(self, dotted: str) -> Iterator[Node]:
        """The top levels that importing ``dotted`` runs (each project package on the way: the
        folders the module is in, whose ``__init__.py`` runs; a folder without one, a namespace
        package, runs nothing, even where another project has a module of its name)."""
        parts = dotted.split(".")
        full = self.resolve_module(dotted) if len(parts) > 1 else None
        root = _module_root(str(full), parts) if full is not None else None
        for cut in range(1, len(parts) + 1):
            path = self.resolve_module(".".join(parts[:cut]))
            if path is None:
                continue
            if root is not None and cut < len(parts) and self._absolute(path) != self._absolute(os.path.join(root, *parts[:cut], "__init__.py")):
                continue  # not the package the module is in
            yield self._absolute(path), MODULE_BODY

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
        if facts is not None and facts.path != self._importer:
            outer, self._importer = self._importer, facts.path  # as the module imports it
            try:
                return self.resolve_call(facts, scope, name, imported)
            finally:
                self._importer = outer
        names = [name]
        if not imported and facts is not None and facts.module_name:
            names.append(f"{facts.module_name}.{name}")
        configured = self._configured(names)
        if configured is not None:
            return configured
        if imported:
            if is_known(name):
                return None
            node = self._resolve_qualified(name)
            if node is not None:
                return node
        elif facts is not None:
            found = self._local(facts, scope, name)
            if found is not None:
                return facts.path, found
            head, dot, rest = name.partition(".")
            body = facts.body(scope) if scope and head == "self" and rest and "." not in rest else None
            if body is not None and body.owner:
                # ``self.draw()`` in a class that inherits ``draw`` from a project base (of this
                # module or another)
                inherited = self._class_methods(facts, body.owner, (rest,))
                if inherited:
                    return inherited[0]
            target = facts.aliases.get(head)
            if target is None and head not in ("self", "cls"):
                target = self._star_target(facts, head)  # ``from models import *``; ``build()``
            if target is not None and head not in ("self", "cls"):
                # an import the caller's own table lost track of (``model = model.Net()``
                # rebinds the module's name while the call is being evaluated)
                return self.resolve_call(facts, scope, f"{target}{dot}{rest}", True)
            star = self._star_library_call(facts, name)
            if star is not None:
                return frozenset(star.effects) if star.effects else None
        if is_seed_named(name, imported, bool(facts is not None and facts.star_imports)):
            return ALL_GENERATORS
        return None

    @staticmethod
    def _local(facts: ModuleFacts, scope: Optional[str], name: str) -> Optional[str]:
        """A name as written in body ``scope``: one of the module's functions or classes,
        ``self.method`` inside a class, or ``cls`` in a class method (``cls(size)`` builds the
        class)."""
        head, _, rest = name.partition(".")
        if head in ("self", "cls") and (rest or head == "cls"):
            body = facts.body(scope) if scope else None
            owner = body.owner if body is not None else None
            return _local_target(facts, f"{owner}.{rest}" if rest else owner) if owner else None
        if not rest and scope and scope not in (MODULE_BODY, MAIN_BODY, IMPORTED_BODY):
            # a function (or class) defined inside the calling function or one enclosing it
            # (``def main(): def step(): ...; step()``); a class body is no scope for its methods
            parts = scope.split(".")
            for cut in range(len(parts), 0, -1):
                prefix = ".".join(parts[:cut])
                if prefix in facts.classes:
                    continue
                found = _local_target(facts, f"{prefix}.{name}")
                if found is not None:
                    return found
                body = facts.functions.get(prefix)
                if body is not None and name in body.local_params:
                    return None  # a parameter (``def _run(predict): predict(x)``): what the caller passes
        return _local_target(facts, name)

    def _node(self, node: Node) -> Optional[_NodeInfo]:
        known = self._nodes.get(node[0])
        if known is None:
            known = self._nodes[node[0]] = {}
        elif node[1] in known:
            return known[node[1]]
        known[node[1]] = None  # a cycle through this node sees nothing more
        facts = self.facts(node[0])
        info = None
        if facts is not None:
            outer, self._importer = self._importer, facts.path  # its names as its module imports them
            try:
                info = self._node_info(facts, node[1])
            finally:
                self._importer = outer
        known[node[1]] = info
        return info

    def _node_info(self, facts: ModuleFacts, name: str) -> Optional[_NodeInfo]:
        for prefix, wanted in ((CLASS_PREFIX, CONSTRUCTION_METHODS), (INSTANCE_PREFIX, None), (OBJECT_PREFIX, None)):
            if name.startswith(prefix):
                name, _, off = name.partition(VARIANT)
                # building a class runs the construction methods it inherits too; an object handed
                # on may have any of its own methods called (not every inherited one: a
                # framework's base class holds far more than a program calls), and the dataset
                # methods a DataLoader calls, its own or inherited from a project base
                # (``class Items(BaseDataSet)`` whose ``__getitem__`` is the base's)
                cls = name[len(prefix) :]
                if wanted is not None:
                    edges = self._class_methods(facts, cls, wanted)
                elif LOADER_DATASET in off.split(","):
                    # handed to a DataLoader alone: it calls the dataset methods, no other
                    edges = self._class_methods(facts, cls, DRAWING_METHODS)
                else:
                    edges = tuple(dict.fromkeys(_methods(facts, cls, None) + self._class_methods(facts, cls, DRAWING_METHODS)))
                if wanted is None:
                    # but not its own moves to a device (``Data.cuda()``, ``Data.to(device)``):
                    # what receives an object does not move it; the program calls them itself
                    edges = tuple(n for n in edges if n[1].rsplit(".", 1)[-1] not in HANDED_MOVES)
                    if prefix == OBJECT_PREFIX:
                        # nor, for an object built already, what built it (with the arguments its
                        # construction gave, which the path has already)
                        edges = tuple(n for n in edges if n[1].rsplit(".", 1)[-1] not in CONSTRUCTION_METHODS)
                    # and with no call of a method in view, its parameters hold their defaults:
                    # ``def sample(self, seed=None): if exists(seed): torch.manual_seed(seed)``
                    # seeds nothing where whoever receives the object calls ``sample(cond)``
                    edges = tuple(n if n[1].rsplit(".", 1)[-1] in CONSTRUCTION_METHODS else self._default_variant(n) for n in edges)
                if wanted is not None:
                    edges = edges + self._overrides_built(facts, cls, edges)
                if off:  # building it with arguments that leave some of ``__init__``'s effects off
                    # (and what its methods do under a test of an attribute ``__init__`` kept from
                    # such an argument: ``self.method = method``, ``if self.method == "train":``)
                    kept = [key for key in off.split(",") if key.startswith(ATTRIBUTE_GUARD)]
                    edges = tuple(
                        (p, f"{f}{VARIANT}{off}") if f.endswith(".__init__") else _with_off((p, f), kept) if kept else (p, f)
                        for p, f in edges
                    )
                helper = self._helper_base(facts, cls) if prefix == CLASS_PREFIX else None
                if helper is None:
                    return _NodeInfo(edges, frozenset(), frozenset(), frozenset())
                # building a subclass of a library class with an effect does what building it
                # does with its defaults (``class MyCLI(LightningCLI)``: ``MyCLI()`` seeds; ``class
                # EmbeddingDropout(nn.Embedding)``: building it draws initial weights)
                effect = classify_call(helper, helper.rsplit(".", 1)[-1], NoArgs())
                return _NodeInfo(edges, effect.effects, effect.uses, effect.draws)
        name, _, off = name.partition(VARIANT)
        body = facts.body(name)
        if body is None:
            return None
        edges: List[Node] = []
        effects = set(body.effects)
        if name not in (MODULE_BODY, MAIN_BODY, IMPORTED_BODY):
            # code of a module runs only once the module is imported, which ran its top level:
            # what that seeds is seeded before (``np.random.seed(0)`` at the top of the module
            # whose transform draws, imported one module away: sthalles/SimCLR)
            effects |= facts.module_body.effects & ALL_GENERATORS
        # an option's device counts where the path runs the code that declares it; in the top
        # level of a module it only imports, where the path places something too
        uses = set(body.uses) if name == IMPORTED_BODY else placed_option_devices(body.uses, True)
        offs = off.split(",")
        for param, guarded in body.guarded.items():
            if param not in offs:
                effects |= guarded
        for param, device in body.device_params.items():
            if param not in offs:
                # ``def __init__(self, device=DEFAULT_DEVICE)``: what its module assigns it
                known = self.imported_variable_device(device[len(DEVICE_VARIABLE) :]) if device.startswith(DEVICE_VARIABLE) else device
                if known is not None:
                    uses.add(known)
        for variable in body.device_vars:
            # ``from settings import device_label``, then ``.to(torch.device(device_label, 0))``
            device = self.imported_variable_device(variable)
            if device is not None:
                uses.add(device)
        draws = set(body.draws)
        for param, held in body.guarded_uses.items():
            if param not in offs:
                uses |= held
                draws |= body.guarded_draws.get(param, frozenset())
        skipped = {index for param, calls in body.guarded_calls.items() if param in offs for index in calls}
        for_workers = FOR_WORKERS in offs
        in_workers = self.worker_refs(body)
        factories = _worker_factories(body, in_workers)
        for index, call in enumerate(body.calls):
            if index in skipped:
                continue  # made only under ``if <parameter>:``, off in this variant
            # a keyword left off for this body stays off where its ``**kwargs`` is passed on
            inherited = offs if off and index in body.kwargs_forwarded else ()
            # (what a dataset factory the workers' dataset comes from hands on runs there)
            mark = _for_workers if for_workers or call in factories else _unmarked
            method = self._called_methods(facts, name, body, call)
            if method is not None:
                # each with the effects it makes under ``if seed is not None:`` left out when
                # this call leaves them off (``Sampler().sample(3)``), as for a function
                edges.extend(mark(self._variant(target, facts.path, name, index, inherited)) for target in method)
                continue
            target = self.resolve_call(facts, name, call, call in body.imported)
            if isinstance(target, tuple):
                edges.append(mark(self._variant(target, facts.path, name, index, inherited)))
                if target[1].startswith(CLASS_PREFIX):
                    uses |= self._loader_uses(target, facts.path, name, index)
                if index in body.call_devices:
                    uses |= self._devices_passed(target, body.call_devices[index])
                continue
            star = self._star_library_call(facts, call, index in body.argless_calls) if facts.star_imports and call not in body.imported else None
            if star is not None:
                # a library's call the module names through a star import (``torch.randn``); of
                # such seedings, the last the body makes (not under an ``if``) decides, as in the facts
                if index not in body.conditional_calls:
                    effects.difference_update({e[len(ENTROPY) :] if e.startswith(ENTROPY) else ENTROPY + e for e in star.effects})
                effects |= star.effects
                uses |= star.uses
                draws |= star.draws
            elif target:
                effects |= target
        called = len(dict.fromkeys(edges))
        workers: List[Node] = []
        seeded: List[Node] = []
        for ref in body.refs:
            # a callback that DataLoader workers run (``worker_init_fn``) runs in their processes
            targets = self._ref_targets(facts, name, body, ref)
            if body.cli_refs and ref in body.cli_refs:
                targets = tuple(self._command_variant(target) for target in targets)
            if not for_workers and ref in body.seeded_worker_refs:
                seeded.extend(targets)
                continue
            (workers if for_workers or ref in in_workers else edges).extend(targets)
        if body.owner is not None and name.rpartition(".")[2] not in CONSTRUCTION_METHODS:
            # what the object's construction stored on it is used by its other methods
            for method in CONSTRUCTION_METHODS:
                init = facts.body(f"{body.owner}.{method}")
                for ref in init.held_refs if init is not None else ():
                    edges.extend(self._ref_targets(facts, init.name, init, ref))
        for lookup in body.lookups:
            edges.extend(self._looked_up(facts, *lookup))
        if name == MODULE_BODY:
            # importing a project module runs its top level (but what that imports in turn is
            # not followed: importing a large package does not run everything in it)
            for target in set(facts.aliases.values()).union(facts.star_imports, facts.dotted_imports):
                edges.extend((n[0], IMPORTED_BODY) for n in self._module_nodes(target) if n[0] != facts.path)
            heads = self._module_files.heads()
            for target in set(facts.aliases.values()):
                # a name a package re-exports (``from utils import device`` where
                # ``utils/__init__.py`` does ``from .other import *``): importing it runs the
                # top level of the module that binds it (only a project name can be one)
                if target.partition(".")[0] not in heads:
                    continue
                defining = self._reexporting_module(target)
                if defining is not None and defining != facts.path:
                    edges.append((defining, IMPORTED_BODY))
        if name == MAIN_BODY:
            edges.append((facts.path, MODULE_BODY))
        return _NodeInfo(
            tuple(dict.fromkeys(edges)),
            frozenset(effects),
            frozenset(uses),
            frozenset(draws),
            tuple(dict.fromkeys(workers)),
            called,
            tuple(dict.fromkeys(seeded)),
        )

    def handed_on_summary(self, facts: Optional[ModuleFacts], scope: Optional[str], refs: Iterable[str]) -> Summary:
        """What the project names a call hands on (``DataLoader(dataset)``, ``fire.Fire(train)``)
        lead to, as the call graph follows such names (:meth:`_ref_targets`): ``refs`` are
        written as the facts write them (an imported name qualified)."""
        body = facts.body(scope) if facts is not None and scope is not None else None
        if body is None:
            return EMPTY
        nodes = [node for ref in refs for node in self._ref_targets(facts, scope, body, ref)]  # type: ignore[arg-type]
        return self.closure(list(dict.fromkeys(nodes))) if nodes else EMPTY

    def _looked_up(self, facts: ModuleFacts, module: str, attr: Optional[str], option: Optional[str]) -> Tuple[Node, ...]:
        """``getattr(module, name)``: the attribute named, when the name is known (a literal,
        an option's default), else any public name of the module."""
        if attr is None and option is not None and isinstance(facts.options.get(option), str):
            attr = facts.options[option]
        targets = self._object_nodes(f"{module}.{attr}") if attr is not None else ()
        if not targets and (attr is None or self.resolve_module(module) is None):
            targets = self._object_nodes(module)
        return targets

    def looked_up_summary(self, facts: Optional[ModuleFacts], scope: Optional[str], written: Optional[str]) -> Summary:
        """What the names body ``scope`` looks up on the project module named ``written``
        (``getattr(models, args.model)``; qualified through the module's imports, as the facts
        record it, also where the statement rebinds it: ``model = getattr(model, name)(...)``)
        lead to; ``written`` None: on the module itself (``globals()[args.model]``)."""
        body = facts.body(scope) if facts is not None and scope is not None else None
        if body is None:
            return EMPTY
        if written is None:
            module = facts.module_name  # type: ignore[union-attr]
        else:
            head, _, rest = written.partition(".")
            target = facts.aliases.get(head)  # type: ignore[union-attr]
            if target is None:
                return EMPTY
            module = f"{target}.{rest}" if rest else target
        nodes = [node for lookup in body.lookups if lookup[0] == module for node in self._looked_up(facts, *lookup)]  # type: ignore[arg-type]
        return self.closure(list(dict.fromkeys(nodes))) if nodes else EMPTY

    def _ref_targets(self, facts: ModuleFacts, name: str, body: BodyFacts, ref: str) -> Tuple[Node, ...]:
        """What a body reaches through a name it passes on: a function passed as an argument (a
        callback), when it is one of the project's; an object passed on (``trainer.fit(model)``),
        whose methods whoever receives it calls; a project module passed on, whose public names
        whoever receives it may use."""
        if ref in body.imported:
            if ref in body.built_refs and self.resolve_module(ref) is not None:
                return ()  # a module only looked at (``inspect.getfile(accelerate)``): nothing of it runs
            if ref in body.built_refs:  # only looked at, or built here: not built again
                return tuple(
                    _handed(self._built_variant(facts, name, body, ref, (n[0], CLASS_PREFIX + n[1][len(INSTANCE_PREFIX) :])), built=True)
                    if n[1].startswith(INSTANCE_PREFIX) else n
                    for n in self._object_nodes(ref)
                )
            return self._object_nodes(ref)
        found = self._local(facts, name, ref)
        objects = self._instance_classes(facts, name, body, ref) if found is None else ()
        if not objects and found is None and ref in body.dataset_refs:
            # a dataset handed to a loader, bound to what a call made (``ds =
            # train_dataset_loader(...)``, ``ds = build_dataset(cfg)``): the classes it may hold
            objects = self._made_classes(facts, name, body, ref)
        classes = ((facts.path, found),) if found is not None else objects
        if not classes and facts.star_imports and "." not in ref and "(" not in ref:
            starred = self._star_target(facts, ref)  # ``from ops.transforms import *``
            if starred is not None:
                return self._object_nodes(starred)
        if not classes and "." in ref:
            # a bound method handed on (``collate_fn=collator.collate``,
            # ``collate_fn=Collator().collate``): whoever receives it calls that method
            return tuple(self._instance_method(facts, name, body, ref) or ())
        # (a class only looked at, ``isinstance(dm, DataModule)``, ``print(Net)``, or whose
        # object the body built itself, is not built again by whoever receives it)
        built = bool(objects) or ref in body.built_refs
        if built:
            classes = tuple(self._built_variant(facts, name, body, ref, target) for target in classes)
        handed = tuple(_handed(target, built=built) for target in classes)
        if objects and ref in body.dataset_refs and body.refs.count(ref) == 1:
            # an object handed to a DataLoader as its dataset and to nothing else
            handed = tuple(_with_off(node, [LOADER_DATASET]) for node in handed)
        return handed

    def _built_variant(self, facts: ModuleFacts, scope: str, body: BodyFacts, ref: str, target: Node) -> Node:
        """Class node ``target`` as the body's one construction of the object ``ref`` names
        gave it (``ds = Crowd(method="val")``, ``DataLoader(Crowd(method="val"))``): with what
        that call's arguments leave off where they decide what the object's methods do (an
        attribute its ``__init__`` kept from a parameter, :meth:`_kept_guards`); else itself."""
        if not target[1].startswith(CLASS_PREFIX) or not self._kept_guards(target):
            return target
        made = body.instances.get(ref, (ref,) if body.refs.count(ref) == 1 else ())
        # (one class per branch, ``ds = Crowd_qnrf(...)`` or ``ds = Crowd_sh(...)``: each call
        # that builds this one, when it is the only one)
        calls = [c for c in made if self.resolve_call(facts, scope, c, c in body.imported) == (target[0], target[1].partition(VARIANT)[0])]
        if len(calls) != 1 or body.calls.count(calls[0]) != 1:
            return target  # built in several places (or the class handed on as well)
        variant = self._variant(target, facts.path, scope, body.calls.index(calls[0]))
        # (not one the building module sets on an object afterwards: ``ds.method = "train"``)
        text = self.text(facts.path) or ""
        return _with_off(target, [
            key for key in variant[1].partition(VARIANT)[2].split(",")
            if key.startswith(ATTRIBUTE_GUARD) and not _sets_attribute(text, key[len(ATTRIBUTE_GUARD) :].partition("#")[0])
        ])

    def _reexporting_module(self, qualified: str, depth: int = 0) -> Optional[str]:
        """The project module whose top level binds the name ``qualified`` when the module it
        is imported from binds it only by importing it from another project module (named, or
        through a star import); None when the name is bound where it is imported from, is a
        module, or is not the project's."""
        module, _, attr = qualified.rpartition(".")
        owner = self.resolve_module(module) if module and depth < 8 else None
        facts = self.facts(owner) if owner is not None else None
        if facts is None or self.resolve_module(qualified) is not None:
            return None
        target = facts.aliases.get(attr) or self._star_target(facts, attr) or self._star_variable(facts, attr)
        if target is None or target == qualified:
            return None if depth == 0 else facts.path
        return self._reexporting_module(target, depth + 1) or (None if depth == 0 else facts.path)

    def imported_variable_device(self, qualified: str) -> Optional[str]:
        """The accelerator that the project module-level variable ``qualified`` (as an import
        qualifies it: ``utils.device``, also re-exported by a package) names where its module
        assigns it once (:func:`~repro_lint.facts.module_variable_device`), else None."""
        module, _, attr = qualified.rpartition(".")
        if not module or self.resolve_module(qualified) is not None:
            return None
        owner = self.resolve_module(module)
        facts = self.facts(owner) if owner is not None else None
        if facts is None:
            # ``model_config.device`` after ``from config import model_config``, where
            # ``config.py`` builds it from a class whose body declares the device
            base, _, name = module.rpartition(".")
            path = self.resolve_module(base) if base else None
            if path is None or self.facts(path) is None:
                return None
            self.consult(path)
            return self.remembered(("object device", path, name, attr), lambda: object_attribute_device(self.text(path) or "", name, attr))
        defining = self._reexporting_module(qualified) or facts.path
        self.consult(defining)
        return self.remembered(("variable device", defining, attr), lambda: module_variable_device(self.text(defining) or "", attr))

    def _star_variable(self, facts: ModuleFacts, name: str) -> Optional[str]:
        """Like :meth:`_star_target`, for a plain variable that a star-imported project module
        assigns at its top level (``device = torch.device(...)``; the facts keep no list of
        them): found in its text, at column 0. The last such import wins."""
        if name.startswith("_"):
            return None
        assigned = re.compile(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)", re.M)
        for module in reversed(facts.star_imports):
            path = self.resolve_module(module)
            star = self.facts(path) if path is not None else None
            if star is None or (star.exports is not None and name not in star.exports):
                continue
            self.consult(path)
            if assigned.search(self.text(path) or ""):
                return f"{module}.{name}"
        return None

    def _object_nodes(self, qualified: str, depth: int = 0) -> Tuple[Node, ...]:
        """What the object a project name stands for does when handed on (``qualified``,
        import-qualified): a function's node; the instance node of a class (all its methods);
        for an instance built at a module's top level (``dqn = Builder(DQNPreset)``), that top
        level and its class's instance node; for a project module, its top level and what each
        of its public names stands for (:func:`_public_names`, not further than a submodule's
        own names). Nothing for a library's name."""
        if depth > 8 or is_known(qualified):
            return ()
        # where the name's first part is in several roots, what it stands for depends on the importer
        head = qualified.partition(".")[0]
        prefer = self._module_files.preferred(head, self._importer) if self._importer and head in self._module_files.ambiguous() else ()
        key = (qualified, depth > 0, prefer)
        found = self._objects.get(key)
        if found is not None:
            return found
        self._objects[key] = ()  # a cycle through this name sees nothing more
        found = self._object_nodes_of(qualified, depth)
        self._objects[key] = found
        return found

    def _object_nodes_of(self, qualified: str, depth: int) -> Tuple[Node, ...]:
        node = self._resolve_qualified(qualified)
        if node is not None:
            return (_handed(node),)
        module, _, attr = qualified.rpartition(".")
        owner = self.resolve_module(module) if module else None
        facts = self.facts(owner) if owner is not None else None
        if facts is not None and attr:
            if attr in facts.tables:
                # a dict of classes an importer calls an entry of: any of them built
                return tuple(_handed(n) for c in facts.tables[attr] if (n := self._resolve_qualified(c)) is not None)
            if attr in facts.module_body.instances:
                classes = self._instance_classes(facts, MODULE_BODY, facts.module_body, attr)
                return ((facts.path, IMPORTED_BODY),) + tuple(_handed(cls, built=True) for cls in classes)
            target = facts.aliases.get(attr) or self._star_target(facts, attr)
            if target is not None and target != qualified:
                return self._object_nodes(target, depth + 1)
        path = self.resolve_module(qualified)
        facts = self.facts(path) if path is not None else None
        if facts is None:
            return ()
        nodes: List[Node] = [(facts.path, IMPORTED_BODY)]
        if depth <= 1:
            public_names = _public_names(facts)
            stars = sorted(self._star_names(facts.path).difference(public_names)) if facts.star_imports else []
            for public in (*public_names, *stars):
                nodes.extend(self._object_nodes(f"{qualified}.{public}", depth + 1))
        return tuple(dict.fromkeys(nodes))

    def _called_methods(self, facts: ModuleFacts, name: str, body: BodyFacts, call: str) -> Optional[Sequence[Node]]:
        """The methods call ``call`` of body ``name`` runs when it is one on an object (a local,
        ``self``, a base's through ``super()``), else None."""
        method = self._instance_method(facts, name, body, call)
        if method is None and body.owner is not None and call.startswith(SUPER_CALL + "."):
            method = self._base_methods(facts, body.owner, call[len(SUPER_CALL) + 1 :])
        return method

    def _forwarded_guards(self, target: Node, depth: int = 0) -> Dict[str, Tuple[BodyFacts, ...]]:
        """The keywords that a call of ``target`` passes on through its ``**kwargs`` (``class
        Agent(Base)`` whose ``__init__(self, size, **kwargs)`` calls ``super().__init__(
        **kwargs)``) to a callee that decides effects with them (``Base.__init__``'s ``if
        seed is not None:``, ``if "seed" in kwargs:``): keyword -> the bodies that test it."""
        callee = self._callee_body(target)
        if callee is None or not callee.kwargs_forwarded or depth > 4:
            return {}

        def compute() -> Dict[str, Tuple[BodyFacts, ...]]:
            facts = self._facts.get(target[0]) or self.facts(target[0])
            found: Dict[str, Tuple[BodyFacts, ...]] = {}
            if facts is None:
                return found
            for index, named in callee.kwargs_forwarded.items():
                call = callee.calls[index]
                method = self._called_methods(facts, callee.name, callee, call)
                if method is None:
                    resolved = self.resolve_call(facts, callee.name, call, call in callee.imported)
                    method = [resolved] if isinstance(resolved, tuple) else []
                for inner_target in method:
                    inner = self._callee_body(inner_target)
                    if inner is None:
                        continue
                    keys = {param: (inner,) for param in _guard_parameters(inner)}
                    for key, bodies in self._forwarded_guards(inner_target, depth + 1).items():
                        keys[key] = keys.get(key, ()) + bodies
                    for key, bodies in keys.items():
                        if key not in named and key not in callee.local_params:  # not consumed on the way
                            found[key] = found.get(key, ()) + bodies
            return found

        return self.remembered(("forwarded guards", target), compute)

    def _command_variant(self, target: Node) -> Node:
        """A command that a command-line library calls with the options given (a click group's
        ``@cli.command()``): on the default path, with the defaults its click decorators give,
        so the effects under a parameter's test that such a default leaves off are left out (a
        ``--seed`` defaulting to None under ``if seed is not None:``); a determinism flag is the
        user's choice, on, as ``deterministic=args.deterministic`` is (:meth:`_variant`)."""
        callee = self._callee_body(target)
        if callee is None or not callee.click_defaults or not (callee.guarded or callee.guarded_uses or callee.guarded_calls):
            return target  # (a default written in the signature: the rules read it there)
        off = [
            param for param in _guard_parameters(callee)
            if param in callee.click_defaults and callee.guarded.get(param, frozenset()).isdisjoint(DETERMINISM)
            and (value := callee.defaults.get(param, UNKNOWN)) is not UNKNOWN and _guard_off(callee, param, value)
        ]
        return _variant_node(target, off) if off else target

    def _variant(self, target: Node, path: str, scope: str, index: int, inherited: Sequence[str] = ()) -> Node:
        """The node for call number ``index`` of body ``scope`` in module ``path``, a call of
        function ``target``: the function with the effects it makes under ``if <parameter>:``
        left out for each parameter that is off in this call (passed, or defaulting to, False,
        None or 0); ``inherited``: the parameters off in the calling body's own variant, which
        stay off where it passes its ``**kwargs`` on."""
        callee = self._callee_body(target)
        kept = self._kept_guards(target) if target[1].startswith(CLASS_PREFIX) else {}
        if callee is None or not (callee.guarded or callee.guarded_uses or callee.guarded_calls or callee.device_params or callee.kwargs_forwarded or kept):
            return target
        own = callee.guarded or callee.guarded_uses or callee.guarded_calls or callee.device_params or kept
        forwarded = self._forwarded_guards(target) if callee.kwargs_forwarded else {}
        if not (own or forwarded or inherited):
            return target  # it passes its ``**kwargs`` on to nothing that tests them
        literals = self._call_literals(path, scope, index)

        def given(param: str) -> object:
            # a seed passed from an option is its default on the default path (``--seed``
            # defaulting to -1 with ``if seed > 0:``); a determinism flag from an option is the
            # user's choice, which counts as on (``deterministic=args.deterministic``); a flag
            # that only decides calls (``if flag: helper()``) counts as one, unless it is a seed
            makes = param in callee.guarded or param in callee.guarded_uses or is_seed_parameter(param)
            if makes and callee.guarded.get(param, frozenset()).isdisjoint(DETERMINISM):
                return _given(callee, self._call_literals(path, scope, index, options=True), param)
            return _given(callee, literals, param)

        off = [param for param in _guard_parameters(callee) if (value := given(param)) is not UNKNOWN and _guard_off(callee, param, value)]
        # keywords it passes on through ``**kwargs`` to a callee that tests them: off where this
        # call leaves them out (the callee's default) or gives a value that is off, or where the
        # caller's own variant has them off (a keyword it did not get either)
        if forwarded or inherited:
            positional, keywords = self._call_literals(path, scope, index, options=True)
            for param in sorted(set(forwarded) | (set(inherited) & set(_guard_parameters(callee)))):
                if param in off:
                    continue
                if param in inherited:
                    off.append(param)
                    continue
                value = keywords.get(param, MISSING)
                if value is MISSING and len(positional) == UNKNOWN_ARGUMENTS:
                    continue  # ``**mapping``: may pass it
                if all((v := (b.defaults.get(param, UNKNOWN) if value is MISSING else value)) is not UNKNOWN and _guard_off(b, param, v) for b in forwarded[param]):
                    off.append(param)
        # an attribute ``__init__`` kept from a parameter (``self.method = method``) that the
        # methods testing it find off (``if self.method == "train":`` with ``method="val"``)
        off += [
            key for key, (param, methods) in kept.items()
            if (value := _given(callee, literals, param)) is not UNKNOWN and all(_guard_off(m, key, value) for m in methods)
        ]
        # a device parameter given a device string that names no accelerator (``device="cpu"``)
        off += [
            param
            for param in sorted(callee.device_params)
            if isinstance(value := _given(callee, literals, param), str) and setting_device(param, value) is None and param not in off
        ]
        return _variant_node(target, off)

    def _kept_guards(self, target: Node) -> Dict[str, Tuple[str, Tuple[BodyFacts, ...]]]:
        """For a class node: the attributes its ``__init__`` kept from a parameter
        (:attr:`~repro_lint.facts.ModuleFacts.kept_parameters`) that its methods test, by the
        key the tests are recorded under: (the parameter, the methods testing it)."""
        facts = self._facts.get(target[0]) or self.facts(target[0])
        cls = target[1][len(CLASS_PREFIX) :].partition(VARIANT)[0]
        kept = facts.kept_parameters.get(cls) if facts is not None else None
        if not kept:
            return {}

        def compute() -> Dict[str, Tuple[str, Tuple[BodyFacts, ...]]]:
            found: Dict[str, Tuple[str, Tuple[BodyFacts, ...]]] = {}
            own = [body for body in facts.functions.values() if body.owner == cls]  # type: ignore[union-attr]
            for attr, param in kept.items():
                prefix = f"{ATTRIBUTE_GUARD}{attr}#"  # a key per test (``facts._keyed``)
                for body in own:
                    for key in _guard_parameters(body):
                        if key.startswith(prefix):
                            found[key] = (param, found.get(key, (param, ()))[1] + (body,))
            return found

        return self.remembered(("kept guards", target[0], cls), compute)  # type: ignore[no-any-return]

    def _default_variant(self, target: Node) -> Node:
        """:meth:`_variant` for a call of ``target`` that passes nothing: each parameter it
        tests holds its default."""
        callee = self._callee_body(target)
        if callee is None or not (callee.guarded or callee.guarded_uses or callee.guarded_calls):
            return target
        method = target[1].rsplit(".", 1)[-1]
        off = [
            param
            for param in _guard_parameters(callee)
            if (value := callee.defaults.get(param, UNKNOWN)) is not UNKNOWN and _guard_off(callee, param, value)
            and not self._passed_by_keyword(method, param)
        ]
        return _variant_node(target, off)

    def _passed_by_keyword(self, method: str, param: str) -> bool:
        """Does a file of the run call a method named ``method`` with keyword ``param``
        (``model.sample(cond, seed=seed)``)? (A text check: such a call may turn it on.)"""
        call = re.compile(rf"\.{re.escape(method)}\((?:[^()]|\([^()]*\))*?\b{re.escape(param)}\s*=(?!=)")
        return any(call.search(self.text(path) or "") for path in self.mentioning(f".{method}("))

    def _callee_body(self, target: Node) -> Optional[BodyFacts]:
        """The body a call of project function ``target`` runs (a class's ``__init__``)."""
        facts = self._facts.get(target[0]) or self.facts(target[0])  # known: the call resolved into it
        function = target[1]
        if function.startswith(CLASS_PREFIX):  # building a class runs its ``__init__``
            function = f"{function[len(CLASS_PREFIX) :]}.__init__"
        return facts.functions.get(function) if facts is not None else None

    def _devices_passed(self, target: Node, named: Tuple[Optional[str], ...]) -> Set[str]:
        """The accelerators a call of project function ``target`` passes by position to a
        parameter named as a device (``def __init__(self, steps, device)``)."""
        callee = self._callee_body(target)
        if callee is None:
            return set()
        return {
            device
            for param, device in zip(callee.params, named)
            if device is not None and is_device_name(param)
        }

    def _call_literals(
        self, path: str, scope: str, index: int, options: bool = False, mapped: bool = False
    ) -> Tuple[Tuple[object, ...], Dict[str, object]]:
        """The literal arguments of call number ``index`` of body ``scope`` in module ``path``
        (positional, keyword; UNKNOWN where not a literal), from the module's facts.
        ``options``: an argument ``args.<dest>`` is the default of the module's option ``dest``
        (else UNKNOWN, as a value chosen at run time). ``mapped``: a call through a
        ``**mapping`` gives its other arguments
        (:attr:`~repro_lint.facts.BodyFacts.mapped_literals`), not nothing."""
        caller = self.facts(path)
        body = caller.body(scope) if caller is not None else None
        if body is None:
            return (UNKNOWN,) * UNKNOWN_ARGUMENTS, {}
        positional, keywords = body.call_literals.get(index, ((), {}))
        if mapped and index in body.mapped_literals:
            positional, keywords = body.mapped_literals[index]

        def value(given: object) -> object:
            if isinstance(given, ParamValue):
                return self._parameter_value(path, scope, given.name)
            if isinstance(given, SelfValue):
                return self._self_value(path, caller, scope, given.attr)
            if isinstance(given, ParamAttr):
                # ``set_random_seed(args.seed)`` in ``def setup_run(args)``: the option's default
                # where every call passes the parsed options, else read as the module's option
                passed = self._parameter_value(path, scope, given.param) if options else UNKNOWN
                if isinstance(passed, ParsedOptions) and passed.default(given.attr) is not UNKNOWN:
                    return passed.default(given.attr)
                given = OptionValue(given.attr)
            if isinstance(given, ParsedOptions):
                if not options or caller is None or "*" in caller.set_attributes:
                    return UNKNOWN
                if given.origin:
                    # ``build_loader(args)`` after ``args = parse_args()``: the options of the
                    # module whose function returns them, where it does
                    return self._returned_options(given.origin, caller.set_attributes)
                # the defaults of the options the module never sets again (``args.gpu = 0``)
                return ParsedOptions(tuple((k, v) for k, v in caller.options.items() if k not in caller.set_attributes))
            if not isinstance(given, OptionValue):
                return given
            return caller.options.get(given.dest, UNKNOWN) if options and caller is not None else UNKNOWN

        return tuple(value(v) for v in positional), {k: value(v) for k, v in keywords.items()}

    def worker_refs(self, body: BodyFacts) -> "Set[str] | FrozenSet[str]":
        """The refs ``body`` hands to DataLoader workers (:attr:`~repro_lint.facts.BodyFacts.worker_refs`),
        and those of its loaders whose ``num_workers`` is an option that another project function
        returns with a positive default (``sets = parse_opts()``, then ``num_workers=sets.num_workers``)."""
        if not body.option_worker_refs:
            return body.worker_refs
        found = set(body.worker_refs)
        for origin, dest, refs in body.option_worker_refs:
            options = self._returned_options(origin, frozenset())
            if isinstance(options, ParsedOptions) and has_workers(options.default(dest)):
                found.update(refs)
        return found

    def _returned_options(self, origin: str, changed: FrozenSet[str]) -> object:
        """What a call of project function ``origin`` returns, where that is its module's parsed
        command-line options (:attr:`~repro_lint.facts.BodyFacts.returns_options`): their
        defaults, less the options that module or the caller's (``changed``) sets again; else
        UNKNOWN."""
        found = self.resolve_method(origin)
        for _ in range(3):  # ``parse()`` returning what ``gather_options()`` returns
            if found is None or found[1].returns_options or not found[1].returns_origin:
                break
            found = self.resolve_method(found[1].returns_origin)
        if found is None or not found[1].returns_options or "*" in found[0].set_attributes:
            return UNKNOWN
        facts = found[0]
        return ParsedOptions(tuple((k, v) for k, v in facts.options.items() if k not in facts.set_attributes and k not in changed))

    def _self_value(self, path: str, facts: Optional[ModuleFacts], scope: str, attr: str) -> object:
        """``self.<attr>`` passed by a method (body ``scope`` of module ``path``): what its
        class's own ``__init__`` stores there, on the default path (a literal; a parameter's
        value, :meth:`_parameter_value`; an attribute of a parameter that every construction of
        the class passes the parsed options, ``Solver(config)``: that option's default); else
        UNKNOWN."""
        body = facts.body(scope) if facts is not None else None
        owner = body.owner if body is not None else None
        init = facts.body(f"{owner}.__init__") if facts is not None and owner and "." not in owner else None
        source = init.self_sources.get(attr, UNKNOWN) if init is not None else UNKNOWN
        if isinstance(source, ParamValue):
            return self._parameter_value(path, f"{owner}.__init__", source.name)
        if isinstance(source, ParamAttr):
            return self._option_passed(path, owner, init, source)  # type: ignore[arg-type]
        return source

    def _option_passed(self, path: str, owner: str, init: BodyFacts, source: ParamAttr) -> object:
        """The default of option ``source.attr`` when every construction of class ``owner`` passes
        the parsed options as its ``__init__``'s parameter ``source.param``; else UNKNOWN."""
        key = ("option passed", self._absolute(path), owner, source)
        if key in self._derived:
            found = self._derived[key]
            return UNKNOWN if found is _IN_PROGRESS else found
        self._derived[key] = _IN_PROGRESS
        found: object = UNKNOWN
        calls = self.caller_arguments(path, CLASS_PREFIX + owner)
        values = set()
        for arguments in calls or ():
            given = _given(init, arguments, source.param)
            default = given.default(source.attr) if isinstance(given, ParsedOptions) else UNKNOWN
            try:
                values.add(default)
            except TypeError:  # an unhashable literal (a list): not followed
                values.add(UNKNOWN)
        if len(values) == 1 and UNKNOWN not in values:
            found = values.pop()
        self._derived[key] = found
        return found

    def _parameter_value(self, path: str, scope: str, param: str) -> object:
        """The value on the default path of parameter ``param`` of function ``scope`` in module
        ``path``, when a call there passes it on (``Big(bilinear=bilinear)`` in
        ``Imagine.__init__``): its literal default, when the project never calls the function or
        every call the project makes of it leaves the parameter at its default or passes that
        same value; the one value all of them pass otherwise; else UNKNOWN."""
        facts = self.facts(path)
        body = facts.body(scope) if facts is not None else None
        if body is None or param not in body.params or body.defaults.get(param) is UNKNOWN:
            return UNKNOWN  # (no default: the calls may all pass the parsed options, ``main(config)``)
        if body.owner is not None:
            callee = CLASS_PREFIX + body.owner if scope == f"{body.owner}.__init__" else scope
        else:
            callee = scope
        if "." in callee and not callee.startswith(CLASS_PREFIX) and callee.count(".") > 1:
            return UNKNOWN  # a nested class's or function's: its calls are not followed
        key = ("parameter value", self._absolute(path), scope, param)
        if key in self._derived:
            found = self._derived[key]
            return UNKNOWN if found is _IN_PROGRESS else found
        self._derived[key] = _IN_PROGRESS  # a cycle of calls: not known
        found = self._parameter_from_calls(path, callee, body, param)
        self._derived[key] = found
        return found

    def _parameter_from_calls(self, path: str, callee: str, body: BodyFacts, param: str) -> object:
        default = body.defaults.get(param, UNKNOWN)
        calls = self.caller_arguments(path, callee, mapped=True)
        if calls is None:
            return default if self.never_called(path, callee) else UNKNOWN
        values = set()
        options = {_given(body, arguments, param) for arguments in calls}
        if len(options) == 1 and isinstance(next(iter(options)), ParsedOptions):
            return options.pop()  # every call passes the parsed options (``main(config)``)
        for arguments in calls:
            given = _given(body, arguments, param)
            if given is UNKNOWN or isinstance(given, (ParsedOptions, ParamValue)):
                return UNKNOWN
            try:
                values.add(given)
            except TypeError:  # an unhashable literal (a list): not followed
                return UNKNOWN
        return values.pop() if len(values) == 1 else (default if not values else UNKNOWN)

    def _loader_uses(self, target: Node, path: str, scope: str, index: int) -> FrozenSet[str]:
        """What building the project DataLoader class ``target`` (:meth:`loader_class`) with
        the arguments of call number ``index`` of body ``scope`` in module ``path`` uses, as
        :func:`~repro_lint.classify.classify_call` counts the DataLoader it derives from: torch,
        when it shuffles with no generator. The arguments are the call's literals, bound to the
        class's own parameters; one the class's ``__init__`` passes itself is not the caller's
        (a shuffle it sets is not counted, a generator it sets is one)."""
        facts = self._facts.get(target[0]) or self.facts(target[0])  # known: the call resolved into it
        if facts is None or target[1][len(CLASS_PREFIX) :] not in facts.loaders:
            return frozenset()  # the cheap check: not a class derived from a loader
        spec = self._loader_node(target)
        if spec is None:
            return frozenset()
        return built_loader_uses(spec, *self._call_literals(path, scope, index))

    def _instance_classes(self, facts: ModuleFacts, scope: str, body: BodyFacts, name: str) -> Tuple[Node, ...]:
        """The project classes whose instance the local ``name`` holds (``model = Net()``; one
        per class it is bound to), or the attribute ``self.name`` that one of the class's
        methods sets (``self.buffer = Buffer()`` in ``__init__``)."""
        callees, where = body.instances.get(name), body
        if callees is None and name.startswith("self.") and body.owner:
            classes = self._attributes.setdefault(facts.path, {})
            attributes = classes.get(body.owner)
            if attributes is None:
                attributes = classes[body.owner] = {
                    attr: method
                    for method in facts.functions.values() if method.owner == body.owner
                    for attr in method.instances if attr.startswith("self.")
                }
            if name in attributes:
                where = attributes[name]
                callees = where.instances[name]
        if callees is None and "." not in name and name not in body.local_params:
            # a name of an enclosing function (a closure), or a module global (also one the
            # ``__main__`` block binds): the innermost that binds it
            for outer in _enclosing_bodies(scope):
                found = facts.body(outer)
                if found is not None and name in found.instances:
                    callees, where = found.instances[name], found
                    break
                if found is not None and name in found.local_params:
                    break  # a parameter of the enclosing function
        classes: List[Node] = []
        for callee in callees or ():
            target = self.resolve_call(facts, where.name, callee, callee in where.imported)
            if isinstance(target, tuple) and target[1].startswith(CLASS_PREFIX):
                classes.append(target)
        return tuple(classes)

    def _class_methods(self, facts: ModuleFacts, cls: str, wanted: Optional[Tuple[str, ...]], depth: int = 0) -> Tuple[Node, ...]:
        """The nodes of class ``cls``'s methods named in ``wanted`` (None: all of them), those it
        inherits from project bases included (``class AtomMessagePassing(_Base)`` built runs
        ``_Base.__init__``); the class's own definition wins, then its bases in order."""
        return tuple(node for _, node in self._class_method_pairs(facts, cls, wanted, depth))

    def _class_method_pairs(self, facts: ModuleFacts, cls: str, wanted: Optional[Tuple[str, ...]], depth: int) -> List[Tuple[str, Node]]:
        pairs = [(node[1].rsplit(".", 1)[1], node) for node in _methods(facts, cls, wanted)]
        if facts.method_aliases:
            pairs += self._aliased_methods(facts, cls, wanted, {name for name, _ in pairs})
        bases = facts.bases.get(cls)
        if not bases or depth > MAX_BASE_DEPTH:
            return pairs
        have = {name for name, _ in pairs}
        missing = None if wanted is None else tuple(w for w in wanted if w not in have)
        if missing == ():
            return pairs
        for base_facts, base in self._project_bases(facts, cls):
            for name, node in self._class_method_pairs(base_facts, base, missing, depth + 1):
                if name not in have:
                    have.add(name)
                    pairs.append((name, node))
        return pairs

    def _aliased_methods(self, facts: ModuleFacts, cls: str, wanted: Optional[Tuple[str, ...]], have: Set[str]) -> List[Tuple[str, Node]]:
        """The methods class ``cls``'s body binds to a function (``decode = decode_function``,
        imported or of the module), named in ``wanted`` and not among ``have``: the function
        runs when the method is called on the class's object."""
        prefix = cls + "."
        found: List[Tuple[str, Node]] = []
        for key, (target, imported) in facts.method_aliases.items():
            name = key[len(prefix) :] if key.startswith(prefix) else ""
            if not name or "." in name or name in have or (wanted is not None and name not in wanted):
                continue
            node = self.resolve_call(facts, MODULE_BODY, target, imported)
            if isinstance(node, tuple):
                found.append((name, node))
        return found

    def project_class(self, qualified: str) -> Optional[Tuple[str, str]]:
        """The path of the module that defines the project class ``qualified`` names (followed
        through re-exports: ``from .config import Cfg`` in a package's ``__init__``) and the
        class's name there; None for a name that is not a project class."""
        if is_known(qualified):
            return None
        node = self._resolve_qualified(qualified)
        if node is None or not node[1].startswith(CLASS_PREFIX):
            return None
        return str(node[0]), node[1][len(CLASS_PREFIX) :]

    def class_method_modules(self, qualified: str, method: str) -> Optional[List[str]]:
        """For ``qualified`` (``pkg.opts.TrainOptions``) a project class that has ``method``
        (its own or a project base's): the paths of the modules of the class and of its project
        bases, the class's first; None when it is no project class or has no such method."""
        if is_known(qualified):
            return None
        node = self._resolve_qualified(qualified)
        if node is None or not node[1].startswith(CLASS_PREFIX):
            return None
        facts = self.facts(node[0])
        if facts is None or not self._class_methods(facts, node[1][len(CLASS_PREFIX) :], (method,)):
            return None
        return list(dict.fromkeys(str(ancestor.path) for ancestor, _ in self._ancestors(facts, node[1][len(CLASS_PREFIX) :])))

    def library_bases(self, qualified: str) -> FrozenSet[str]:
        """The library classes (as imported: ``torch.utils.data.DistributedSampler``) that the
        project class ``qualified`` derives from, directly or through other project classes;
        empty for a name that is not a project class."""
        if is_known(qualified):
            return frozenset()
        node = self._resolve_qualified(qualified)
        if node is None or not node[1].startswith(CLASS_PREFIX):
            return frozenset()
        return self._library_bases_of(node)

    def called_class_library_bases(self, path: str, source: Optional[str], qualified: Optional[str], name: Optional[str]) -> FrozenSet[str]:
        """:meth:`library_bases` of the class a call in module ``path`` names: ``qualified``
        through the module's imports, else ``name``, a plain name, as a class of the module."""
        if qualified is not None:
            return self.library_bases(qualified)
        if name is not None and "." not in name:
            return self.own_class_library_bases(path, source, name)
        return frozenset()

    def own_class_library_bases(self, path: str, source: Optional[str], name: str) -> FrozenSet[str]:
        """:meth:`library_bases` of the module-level class ``name`` that module ``path`` defines
        itself (a call of it is not qualified through an import); empty for another name."""
        facts = self.facts(path, source)
        if facts is None or name not in facts.classes:
            return frozenset()
        return self._library_bases_of((facts.path, CLASS_PREFIX + name))

    def _library_bases_of(self, node: Node) -> FrozenSet[str]:
        """:meth:`library_bases` of the class at call-graph node ``node``."""
        facts = self.facts(node[0])
        if facts is None:
            return frozenset()
        found: Set[str] = set()
        for ancestor, cls in self._ancestors(facts, node[1][len(CLASS_PREFIX) :]):
            found.update(
                base for base, imported in ancestor.bases.get(cls, ())
                if imported and not isinstance(self.resolve_call(ancestor, MODULE_BODY, base, imported), tuple)
            )
        return frozenset(found)

    def _ancestors(self, facts: ModuleFacts, cls: str) -> Iterator[Tuple[ModuleFacts, str]]:
        """Class ``cls`` of module ``facts`` and its project bases, directly or not, depth first
        in the order the bases are written (each once; at most ``4 * MAX_BASE_DEPTH + 1``), a
        base's module looked up only when the walk gets there."""
        seen: Set[Tuple[str, str]] = set()
        stack = [(facts, cls)]
        while stack and len(seen) <= MAX_BASE_DEPTH * 4:
            current, name = stack.pop()
            if (str(current.path), name) in seen:
                continue
            seen.add((str(current.path), name))
            yield current, name
            stack.extend(reversed(list(self._project_bases(current, name))))

    def _overrides_built(self, facts: ModuleFacts, cls: str, construction: Tuple[Node, ...]) -> Tuple[Node, ...]:
        """Building class ``cls`` runs the construction methods ``construction`` (its own or
        inherited); where one of them calls on ``self`` a method that only says it is not
        implemented (``self._build_model()`` in ``Exp_Basic.__init__``), the override that
        ``cls`` has, or inherits from a nearer base, runs instead."""
        found: List[Node] = []
        bodies = list(construction)
        for path, name in bodies:
            base_facts = self.facts(path)
            body = base_facts.body(name.partition(VARIANT)[0]) if base_facts is not None else None
            if body is None:
                continue
            # and the bases' construction methods it runs (``super().__init__(args)``)
            if body.owner is not None and len(bodies) < 16:
                for method in CONSTRUCTION_METHODS:
                    if f"{SUPER_CALL}.{method}" in body.calls:
                        bodies.extend(n for n in self._base_methods(base_facts, body.owner, method) if n not in bodies)
            for call in body.calls:
                if not call.startswith("self.") or call.count(".") != 1:
                    continue
                target = self.resolve_call(base_facts, body.name, call, False)
                called = base_facts.body(target[1]) if isinstance(target, tuple) and target[0] == base_facts.path else None
                if called is None and isinstance(target, tuple):
                    other = self.facts(target[0])
                    called = other.body(target[1]) if other is not None else None
                if called is None or not called.abstract:
                    continue
                found.extend(n for n in self._class_methods(facts, cls, (call[len("self.") :],)) if n != target)
        return tuple(dict.fromkeys(found))

    def _helper_base(self, facts: ModuleFacts, cls: str) -> Optional[str]:
        """The library class with an effect when built (a seeding class, ``LightningCLI``; a
        layer initialised at random, ``nn.Embedding``) that class ``cls`` derives from: as
        its module's facts record it (directly, or through a class of that module), else
        through its project bases in other modules (``class ModelCLI(CLI)`` where ``cli.py``
        has ``class CLI(LightningCLI)``)."""
        return next((f.helper_bases[c] for f, c in self._ancestors(facts, cls) if c in f.helper_bases), None)

    def _project_bases(self, facts: ModuleFacts, cls: str) -> Iterator[Tuple[ModuleFacts, str]]:
        """The bases of class ``cls`` that are project classes, in order: each one's module
        facts and class name (library classes and unknown names are left out)."""
        for base, imported in facts.bases.get(cls, ()):
            target = self.resolve_call(facts, MODULE_BODY, base, imported)
            if not isinstance(target, tuple) or not target[1].startswith(CLASS_PREFIX):
                continue
            base_facts = self._facts.get(target[0]) or self.facts(target[0])
            if base_facts is not None:
                yield base_facts, target[1][len(CLASS_PREFIX) :]

    def _base_methods(self, facts: ModuleFacts, cls: str, method: str) -> List[Node]:
        """What ``super().<method>(...)`` in a method of class ``cls`` runs: the first
        definition of ``method`` among its project bases, in order (this module's or another's)."""
        for base_facts, base in self._project_bases(facts, cls):
            found = self._class_methods(base_facts, base, (method,))
            if found:
                return list(found)
        return []

    def methods_called(self, path: "str | Path", scope: str, call: str) -> List[Node]:
        """The project methods the call ``call`` made in body ``scope`` of module ``path`` runs
        (``self._data_loader`` in a subclass: its base class's), as the call graph finds them."""
        self.consult(ALL_FILES)
        facts = self.facts(path)
        body = facts.body(scope) if facts is not None else None
        if facts is None or body is None:
            return []
        head, _, method = call.partition(".")
        if head == "self" and method and "." not in method and body.owner:
            return list(self._class_methods(facts, body.owner, (method,)))  # its own, else a base's
        return list(self._instance_method(facts, scope, body, call) or ())

    def _instance_method(self, facts: ModuleFacts, scope: str, body: BodyFacts, call: str) -> Optional[List[Node]]:
        """The methods a call on an instance runs (``model.fit()`` -> ``Net.fit``, ``model(x)``
        -> ``Net.forward``, ``self.buffer.sample()`` -> ``Buffer.sample``), or None when
        ``call`` is not made on one."""
        if call in body.imported:
            return None
        if call.startswith("self.") and call.count(".") == 2:
            head, dot, method = call.rpartition(".")
        elif call.startswith("self.") and call.count(".") == 1 and self._instance_classes(facts, scope, body, call):
            head, dot, method = call, "", ""  # ``self.model(x)``: the object it holds is called
        elif call.startswith("self.") and call.count(".") == 1 and (made := self._made_classes(facts, scope, body, call, functions=True)):
            # ``self.z_sampler(n)`` after ``self.z_sampler = get_latent_sampler(...)``: the
            # function that factory defined and returned
            return list(made)
        else:
            head, dot, method = call.partition(".")
            if "." in method:
                # an attribute known to hold an object (``train_loader.dataset.ng_sample()``:
                # the dataset the DataLoader was given)
                head, dot, method = call.rpartition(".")
                if head not in body.instances:
                    return None
        classes = self._instance_classes(facts, scope, body, head) or self._made_classes(facts, scope, body, head)
        if not classes and not dot:
            # what a project function returned, called: a function it defined and returned
            functions = self._made_classes(facts, scope, body, head, functions=True)
            return list(functions) if functions else None
        if not classes:
            return None
        methods: List[Node] = []
        for cls in classes:
            target_facts = self.facts(cls[0])
            if target_facts is None:
                continue
            name = cls[1][len(CLASS_PREFIX) :]
            found = self._class_methods(target_facts, name, (method,) if dot else CALL_METHODS)
            if not found and dot:
                # a library method that runs the class's override (``learner.start()`` runs
                # ``Learner.run`` for ``class Learner(Process)``)
                dispatched = {m for base in self._library_bases_of(cls) for m in DISPATCHED_METHODS.get(base, {}).get(method, ())}
                if dispatched:
                    found = self._class_methods(target_facts, name, tuple(sorted(dispatched)))
            methods.extend(found)
        if not dot and not methods and head in facts.classes:
            # ``Runner = Runner(10)``: the name was the class when it was called (an object of
            # it that cannot be called)
            return None
        return methods

    def _made_classes(self, facts: ModuleFacts, scope: str, body: BodyFacts, name: str, functions: bool = False) -> Tuple[Node, ...]:
        """The project classes the local ``name`` may hold an instance of when a project
        function made it (``sampler = make_sampler(name)``, where ``make_sampler`` returns
        ``Uniform(...)`` or ``LossAware(...)``): the classes its ``return`` statements build.
        The name may be one of an enclosing function's, or a module global, as in
        :meth:`_instance_classes`. ``functions``: the functions it defines and returns instead
        (``def get_sampler(dim): def sample(n): ...; return sample``)."""
        callee = body.made_by.get(name)
        if callee is None and name.startswith("self.") and name.count(".") == 1 and body.owner:
            # ``self.model = self.get_model(...)`` in another method of the class (the first)
            maker = next(
                (m for m in facts.functions.values() if m.owner == body.owner and name in m.made_by and name not in m.instances),
                None,
            )
            if maker is not None:
                callee, body = maker.made_by[name], maker
        if callee is None and "." not in name and name not in body.local_params and name not in body.instances:
            for outer in _enclosing_bodies(scope):
                enclosing = facts.body(outer)
                if enclosing is None or name in enclosing.instances or name in enclosing.local_params:
                    break  # bound there to something else, or a parameter of the enclosing function
                if name in enclosing.made_by:
                    callee, body = enclosing.made_by[name], enclosing
                    break
        if callee is None:
            return ()
        target = self.resolve_call(facts, body.name, callee, callee in body.imported)
        if isinstance(target, tuple) and target[1].startswith(CLASS_PREFIX):
            # a class not named as one (``net = model(...)``)
            return () if functions else ((target[0], target[1].partition(VARIANT)[0]),)
        if not isinstance(target, tuple) or target[1].startswith(CLASS_PREFIX):
            return ()
        target_facts = self.facts(target[0])
        function = target_facts.body(target[1].partition(VARIANT)[0]) if target_facts is not None else None
        if function is None or not (function.returns or (functions and function.returned_classes)):
            return ()
        found: List[Node] = []
        for returned in function.returns:
            cls = self.resolve_call(target_facts, function.name, returned, returned in function.imported)
            if isinstance(cls, tuple) and cls[1].startswith(CLASS_PREFIX) != functions and cls not in found:
                found.append(cls)
        for returned in function.returned_classes if functions else ():
            # a class it returns as an object: calling that builds one
            cls = self.resolve_call(target_facts, function.name, returned, returned in function.imported)
            if isinstance(cls, tuple) and cls[1].startswith(CLASS_PREFIX) and cls not in found:
                found.append(cls)
        return tuple(found)

    def closure(
        self,
        starts: Iterable[Node],
        without: FrozenSet[Node] = frozenset(),
        held: FrozenSet[Tuple[Node, str]] = frozenset(),
        cut: FrozenSet[Tuple[Node, Node]] = frozenset(),
        held_uses: FrozenSet[Tuple[Node, str]] = frozenset(),
    ) -> Summary:
        """Everything reached from ``starts`` over the call graph, and what it all does;
        ``without``: functions whose calls are left out (each with its variants); ``held``:
        (body, effect) pairs, the effect that body makes itself left out (``held_uses``: the
        same for what it uses, a device); ``cut``: (body, function) pairs, that body's calls of
        the function left out (each with its variants)."""
        starts = tuple(starts)
        plain = not (without or held or cut or held_uses)
        if len(starts) == 1 and plain and starts[0] in self._closures:
            return self._closures[starts[0]]
        reached: Set[Node] = set()
        effects: Set[str] = set()
        uses: Set[str] = set()
        draws: Set[str] = set()
        workers: List[Node] = []
        seeded: List[Node] = []
        stack = list(starts)
        while stack:
            node = stack.pop()
            if node in reached:
                continue
            reached.add(node)
            if without and (node[0], node[1].partition(VARIANT)[0]) in without:
                continue  # left out: reached, but nothing it does counts
            info = self._node(node)
            if info is None:
                continue
            base = (node[0], node[1].partition(VARIANT)[0])
            effects |= info.effects if not held else {e for e in info.effects if (base, e) not in held}
            uses |= info.uses if not held_uses else {u for u in info.uses if (base, u) not in held_uses}
            draws |= info.draws
            workers.extend(info.workers)
            seeded.extend(info.seeded_workers)
            stack.extend(
                e for e in info.edges if e not in reached and not (cut and (base, (e[0], e[1].partition(VARIANT)[0])) in cut)
            )
        # what DataLoader workers run: its uses count, those of the generators each worker seeds
        # itself (from torch's seed) as such; its seeding is the workers' own. Then what only the
        # workers of loaders with a generator of their own run: the generators each worker seeds
        # (torch's too) are seeded from that generator (NONDETERMINISM.md 1.1)
        for pending, own in ((workers, False), (seeded, True)):
            stack = [w for w in pending if w not in reached]
            while stack:
                node = stack.pop()
                if node in reached:
                    continue
                reached.add(node)
                info = self._node(node)
                if info is None:
                    continue
                if own:
                    uses |= info.uses - LOADER_SEEDED
                    draws |= info.draws - LOADER_SEEDED
                else:
                    uses |= {IN_WORKERS + use if use in WORKER_SEEDED else use for use in info.uses}
                    draws |= info.draws
                stack.extend(e for e in (*info.edges, *info.workers, *info.seeded_workers) if e not in reached)
        summary = Summary(frozenset(effects), frozenset(placed_option_devices(uses)), frozenset(draws), frozenset(reached - without))
        if len(starts) == 1 and plain:
            self._closures[starts[0]] = summary
        return summary

    def entry_summary(self, path: "str | Path", source: Optional[str] = None, console: Optional[str] = None) -> Summary:
        """What the execution path of entry point ``path`` does: its top level, its
        ``__main__`` block and every project body they reach, across files. ``console``: of
        one of the programs that share the module (see :meth:`entry_starts`)."""
        key = self._absolute(path)
        self.consult(ALL_FILES)
        self.console_functions(key)
        if (key, console) not in self._entries:
            facts = self.facts(key, source)
            self._entries[(key, console)] = EMPTY if facts is None else self.closure(self.entry_starts(key, console))
        return self._entries[(key, console)]

    def entry_starts(self, path: "str | Path", console: Optional[str] = None) -> List[Node]:
        """Where the execution path of entry point ``path`` starts: its top level, its
        ``__main__`` block and the functions its console scripts call. ``console``: one program
        of a module that several share (``train = cli:train`` and ``predict = cli:predict``):
        the top level and that console script's function, or, with :data:`MAIN_BODY`, the top
        level and the ``__main__`` block (``python cli.py``)."""
        key = self._absolute(path)
        starts = [(key, MODULE_BODY)]
        if console is None or console == MAIN_BODY:
            starts.append((key, MAIN_BODY))
        if console != MAIN_BODY:
            starts += self.console_nodes(key, console)
        return starts

    def spawned_summary(self, path: "str | Path", function: str) -> Summary:
        """What a process that ``torch.multiprocessing.spawn`` starts to run the module-level
        ``function`` of module ``path`` does: it imports the module afresh (its top level, not
        its ``__main__`` block) and calls the function, with nothing of its parent's generators
        or switches."""
        key = self._absolute(path)
        self.consult(ALL_FILES)
        return self.closure([(key, MODULE_BODY), (key, function)])

    def entry_summary_without(
        self,
        path: "str | Path",
        without: FrozenSet[Node],
        source: Optional[str] = None,
        *,
        held: FrozenSet[Tuple[Node, str]] = frozenset(),
        cut: FrozenSet[Tuple[Node, Node]] = frozenset(),
        held_uses: FrozenSet[Tuple[Node, str]] = frozenset(),
        console: Optional[str] = None,
    ) -> Summary:
        """What entry point ``path`` (``console``: see :meth:`entry_starts`) does with the calls of the functions ``without`` left out
        (what it would seed without a call that seeds with a value drawn at random), and the
        effects, uses and calls ``held``, ``held_uses`` and ``cut`` (see :meth:`closure`: what
        it would seed, or run on, without the calls that do not run on the default path)."""
        key = self._absolute(path)
        self.consult(ALL_FILES)
        if self.facts(key, source) is None:
            return EMPTY
        starts = self.entry_starts(key, console)
        return self.closure(starts, frozenset(without), frozenset(held), frozenset(cut), frozenset(held_uses))

    def import_summary(self, path: "str | Path", modules: Iterable[str]) -> Summary:
        """What importing the project modules ``modules`` (qualified names, as module ``path``
        imports them) runs: their top levels, as the call graph follows an import."""
        self.consult(ALL_FILES)
        key = self._absolute(path)
        with self.importing(key):
            nodes = [(node[0], IMPORTED_BODY) for module in modules for node in self._module_nodes(module) if node[0] != key]
        return self.closure(list(dict.fromkeys(nodes))) if nodes else EMPTY

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
        # a method called on an object (``neg.draw(10)`` after ``neg = Sampler(...)``,
        # ``TrainOptions().parse()``), or the object called (``generator(z)`` runs its
        # ``forward``), as the call graph follows it
        methods = self.instance_methods(facts, scope, name)
        return self.closure(methods) if methods else EMPTY

    def instance_methods(self, facts: Optional[ModuleFacts], scope: Optional[str], name: str) -> List[Node]:
        """The project methods a call on an object runs (``trainer.train()`` after ``trainer =
        Trainer(...)``, ``TrainOptions().parse()``), as the call graph follows them; empty for
        other calls."""
        body = facts.body(scope) if facts is not None and scope is not None else None
        if body is None:
            return []
        return self._instance_method(facts, scope, body, name) or []  # type: ignore[arg-type]

    def effects(self, name: str, path: "str | Path | None" = None) -> FrozenSet[str]:
        """Which generators a call of ``name`` seeds and what it turns on, transitively (known
        library helpers taken with their default arguments). ``name`` is fully qualified, or,
        with ``path``, may also be one of that module's own functions or classes."""
        self.consult(ALL_FILES)
        facts = self.facts(path) if path is not None else None
        local = facts is not None and self._local(facts, None, name) is not None
        if not local:
            effect = classify_call(name, name.rsplit(".", 1)[-1], NoArgs())
            if effect.known:
                return effect.effects
        return self.call_summary_in(facts, None, name, imported=not local).effects

    def enables_determinism(self, path: "str | Path | None" = None) -> bool:
        """Does the linted project turn deterministic algorithms on, in a file that may run with
        the module at ``path`` (:meth:`may_run_with`; any file of the run without ``path``)?

        Rules that report individual nondeterministic ops stay quiet when it does. A file
        counts when one of its bodies calls ``torch.use_deterministic_algorithms(True)`` or a
        library helper with that switch on (``set_seed(s, deterministic=True)``,
        ``Trainer(deterministic=True)``, ``enable_full_determinism``). ``torch.backends.cudnn.
        deterministic = True`` alone does not count: it fixes cuDNN's convolutions, not
        ``index_add_`` or ``scatter_add_``. Only files whose text mentions determinism are parsed.
        """
        self.consult(ALL_FILES)
        if self._enables_determinism is None:
            self._enables_determinism = frozenset(
                key
                for key in (self._absolute(p) for p in self.files)
                if self._mentions(key) and self._file_enables_determinism(key)
            )
        enabling = self._enables_determinism
        if not enabling or path is None:
            return bool(enabling)
        return self.may_run_with_any(path, tuple(sorted(enabling)))

    def _mentions(self, key: str, text: Optional[str] = None) -> bool:
        """Does the text of the file at absolute path ``key`` (``text``, or read here unless
        known) mention determinism? Docstrings and comments count: of the 184 files of torch's
        source with such a word, 102 have it only there ("may be nondeterministic"), but the
        facts that :meth:`prepare` extracts for them before the lint workers are forked are
        ones that the workers' questions need later, each worker for itself otherwise
        (``docs/performance.md``)."""
        mentions = self._mentions_determinism.get(key)
        if mentions is None:
            if text is None:
                text = self.text(key)
            mentions = bool(text) and mentions_determinism(text)
            self._mentions_determinism[key] = mentions
        return mentions

    def _file_enables_determinism(self, path: str) -> bool:
        return self._file_has(path, DETERMINISTIC_ALGORITHMS)

    def _file_has(self, path: str, wanted: FrozenSet[str]) -> bool:
        """Does a body of the module at ``path`` have one of the effects ``wanted``?"""
        facts = self.facts(path)
        if facts is None:
            return False
        bodies = [facts.module_body, facts.main_body, *facts.functions.values()]
        if any(body.effects & wanted for body in bodies):
            return True
        # only under ``if <parameter>:``: when an entry point's path has it, or, with no entry
        # point to say how the function is called, when the parameter is not off by default
        guarded = [(body, param) for body in bodies for param, effects in body.guarded.items() if effects & wanted]
        if not guarded:
            return False
        # after :meth:`prepare`, every file that may be an entry point has been asked
        entries = self.entry_points() if self._prepared else [p for p in self.files if self.is_entry_point(p)]
        if entries:
            return any(self.entry_summary(entry).effects & wanted for entry in entries)
        return any((value := body.defaults.get(param, UNKNOWN)) is UNKNOWN or not _guard_off(body, param, value) for body, param in guarded)

    def sets_anywhere(self, effect: str, word: str, path: "str | Path", source: str) -> bool:
        """Does the file at ``path`` (whose text is ``source``, maybe not yet written) or another
        file that may run with it (:meth:`may_run_with`) have ``effect`` (an ``ENV_SWITCHES``
        effect) in a body that counts (see :meth:`enables_determinism`)? Only files that contain
        ``word`` are parsed."""
        self.consult(ALL_FILES)
        key = self._absolute(path)
        if word in source:
            self.facts(key, source)
            if self._file_has(key, frozenset({effect})):
                return True
        found = self._settings.get((effect, word))
        if found is None:
            candidates = [self._absolute(f) for f in self.files] if self.any_file_mentions(word) else []
            found = self._settings[(effect, word)] = frozenset(
                other for other in candidates
                if word in (self.text(other) or "") and self._file_has(other, frozenset({effect}))
            )
        return self.may_run_with_any(key, tuple(sorted(found - {key})))

    @contextmanager
    def importing(self, path: "str | Path | None") -> Iterator[None]:
        """Resolve module names as the file at ``path`` imports them, meanwhile (a module name
        that two projects of the tree both define is the importer's own project's)."""
        outer = self._importer
        self._importer = str(path) if path is not None else None
        try:
            yield
        finally:
            self._importer = outer

    @property
    def prepared(self) -> bool:
        """Has :meth:`prepare` computed the entry points' summaries?"""
        return self._prepared

    def prepare(self, paths: Iterable[Path]) -> None:
        """Compute, now (e.g. before forking workers), the entry-point flags, the facts and
        the execution-path summaries of every entry point among ``paths``, and whether the
        project enables determinism."""
        paths = list(paths)
        for path in paths:
            if self.is_entry_point(path):
                self.entry_summary(path)
        self._prepared = True
        self.enables_determinism()

    def entry_calls(self, path: "str | Path", source: Optional[str] = None) -> Iterator[str]:
        """Every call recorded in the bodies the execution path of entry point ``path``
        reaches, across files (names as in :class:`~repro_lint.facts.BodyFacts`)."""
        for module, name in sorted(self.entry_summary(path, source).reached):
            facts = self.facts(module)
            body = facts.body(name.partition(VARIANT)[0]) if facts is not None else None
            if body is not None:
                yield from body.calls

    def caller_keywords(self, path: "str | Path", function: str) -> Optional[FrozenSet[str]]:
        """The keywords that the project's calls of the module-level ``function`` of module
        ``path`` pass, when every call is known (see :meth:`caller_arguments`)."""
        arguments = self.caller_arguments(path, function)
        return None if arguments is None else frozenset(k for _, keywords in arguments for k in keywords)

    def caller_arguments(
        self, path: "str | Path", function: str, elsewhere: bool = False, mapped: bool = False
    ) -> Optional[Tuple[Tuple[Tuple[object, ...], Dict[str, object]], ...]]:
        """The literal arguments (positional, keyword; UNKNOWN where not a literal) of every call
        the project makes of the module-level ``function`` of module ``path`` (a class's
        constructor calls, for ``CLASS_PREFIX + name``): None when a call passes ``*args`` or
        ``**mapping``, when the function is handed on as a value (it may be called anywhere),
        when the project never calls it (its callers are elsewhere), and, for a class, when a
        file that may call it defines a class deriving from one of that name (building the
        subclass passes other arguments). ``elsewhere``: only the calls made in other modules
        (none: an empty tuple), for a function that its own module calls too. ``mapped``: a
        call through a ``**mapping`` (and no ``*args``) is one that may leave any parameter out,
        with its other arguments and the key :data:`~repro_lint.syntax.MERGE` (``Crop(**paras)``
        builds a ``Crop`` with its defaults on the default path), not a call that cannot be read."""
        self.consult(ALL_FILES)
        node = (self._absolute(path), function)
        key = (node, elsewhere, mapped)
        if key not in self._caller_arguments:
            self._caller_arguments[key] = self._find_caller_arguments(node, elsewhere, mapped)
        return self._caller_arguments[key]

    def remembered(self, key: Tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """``compute()``, once per run for ``key``: an answer a rule derives from the project
        that does not depend on the file asking (what another module's function does on the
        default path), shared by every file linted in this process; forgotten with the other
        derived answers when a file changes."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]

    def remembered_for_file(self, facts: ModuleFacts, key: Tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """``compute()``, once per question about the module whose facts are ``facts`` for
        ``key``, while the files consulted go to the same record (one file's prefilter or lint):
        two rules' gates that ask the same share the answer, and the record holds the files
        consulted for it whichever rule asked first (a later question, in another record, asks
        again, so that its record holds them too)."""
        slot = ("for file", id(facts), *key)
        held = self._derived.get(slot)
        if held is not None and held[0] is facts and held[1] is self.consulted:
            return held[2]
        value = compute()
        self._derived[slot] = (facts, self.consulted, value)  # (holding both: their ids stay theirs)
        return value

    def runs_torch(self, path: "str | Path", summary: Summary) -> bool:
        """Does the program of the entry point at ``path``, whose execution path ``summary``
        is, import torch or a library built on it (:func:`~repro_lint.catalog.builds_on_torch`)
        in the entry point or in a module its path reaches? A program that does not runs
        nothing on a device through torch, whatever device strings it holds (a code
        generator's table of dispatch keys); one that hands its device to another library
        leaves torch's switches to it. (A text scan of the imports: one in a docstring counts.)"""
        modules = sorted({self._absolute(path)} | {module for module, _ in summary.reached})
        for module in modules:
            self.consult(module)
        return any(self.remembered(("imports torch", module), lambda module=module: self._imports_torch(module)) for module in modules)

    def _imports_torch(self, path: str) -> bool:
        """Does the module at ``path`` import torch or a library built on it? One the catalog
        knows (:data:`~repro_lint.catalog.TORCH_LIBRARIES`) counts wherever it is, in torch's own
        source too; a package only named for torch counts where it is not the project's own
        (torch's code generator ``torchgen``, linted with its project): then its modules count
        where the path reaches them. So does a star import of a module outside the project:
        the names it binds are not known (``from common import *``, then ``Model().cuda()``)."""
        text = self.text(path)
        if text is None:
            return False
        roots = {name.split(".", 1)[0] for name in imported_modules(Path(path), text)}
        facts = self.facts(path)
        with self.importing(path):
            if facts is not None and any(self.resolve_module(module) is None for module in facts.star_imports):
                return True
            return any(
                builds_on_torch(root) and (root in TORCH_LIBRARIES or self.resolve_module(root) is None) for root in sorted(roots)
            )

    def never_called(self, path: "str | Path", function: str) -> bool:
        """Does nothing in the project call ``function`` of module ``path`` (named as
        :meth:`caller_arguments` names it), nor hand it on as a value? A library function
        then runs with its defaults on its default path: its callers, outside the project,
        are where other values come from."""
        self.caller_arguments(path, function)
        return (self._absolute(path), function) in self._never_called

    def called_in_loop_elsewhere(self, path: "str | Path", function: str) -> bool:
        """Does another file of the run that may call function ``function`` of the module at
        ``path`` (``Class.method`` for a method: any object's method of that name) make a call of
        that name inside a loop (``for epoch in ...: loader.run("warmup")``)? Read with CPython's
        ``ast``, only in the files whose text holds the name called."""
        self.consult(ALL_FILES)
        owner, _, name = function.rpartition(".")
        for other in self._importers((self._absolute(path), function))[1:]:
            text = self.text(other) or ""
            if f"{name}(" not in text:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            # a function by its name or through a module the file imports (``data.make(...)``,
            # not ``model.make(...)``); a method on any object
            modules = {alias.asname or alias.name.partition(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for alias in n.names}

            def calls_it(call: ast.AST) -> bool:
                if not isinstance(call, ast.Call):
                    return False
                func = call.func
                if isinstance(func, ast.Name):
                    return not owner and func.id == name
                return isinstance(func, ast.Attribute) and func.attr == name and (
                    bool(owner) or (isinstance(func.value, ast.Name) and func.value.id in modules)
                )

            for loop in ast.walk(tree):
                if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) and any(
                    calls_it(n) for stmt in (*loop.body, *loop.orelse) for n in ast.walk(stmt)
                ):
                    return True
        return False

    def imported_elsewhere(self, path: "str | Path", function: str) -> bool:
        """May another file of the run call function ``function`` of the module at ``path``
        (does one import that module, or a package that re-exports the function)?"""
        self.consult(ALL_FILES)
        return len(self._importers((self._absolute(path), function))) > 1

    def _importers(self, node: Node) -> List[Path]:
        """The files that may call function ``node`` by name: its module, and the files that
        import that module or a package that re-exports the function (``from .builder import
        build_dataloader`` in ``pkg/__init__.py``), from the index of every file's imports."""
        facts = self.facts(node[0])
        if facts is None or not facts.module_name:
            return [Path(node[0])]
        module = facts.module_name
        name = _bare(node[1])
        # and the names it has under a source root above its package (``common/dataset.py``
        # in a folder without ``__init__.py`` is imported as ``common.dataset``)
        wanted = {module, *self._namespace_names(node[0])}
        parts = module.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            package = ".".join(parts[:cut])
            found = self.resolve_module(package)
            package_facts = self.facts(found) if found is not None else None
            target = (package_facts.aliases.get(name) or self._star_target(package_facts, name)) if package_facts is not None else None
            # re-exported, directly or through another package's re-export (``from .datamodule
            # import *`` where ``datamodule/__init__.py`` imports it from its module)
            resolved = self._resolve_qualified(target) if target is not None and target != f"{module}.{name}" else None
            if target == f"{module}.{name}" or (resolved is not None and resolved[1] == node[1] and self._absolute(resolved[0]) == self._absolute(node[0])):
                wanted.add(package)
            elif package_facts is not None and module in package_facts.aliases.values():
                # the module itself re-exported (``from .core import utils`` in ``pkg/__init__.py``;
                # ``from pkg import utils; utils.build_loaders(...)``)
                wanted.add(package)
        self.is_imported(module)  # builds the index of every file's imports
        key = self._absolute(node[0])
        files = [path for path in self._files_importing(wanted) if self._absolute(path) != key]
        ambiguous = self._module_files.ambiguous()
        if any(name.partition(".")[0] in ambiguous for name in wanted):
            # several roots hold the name (two copies of a project in one tree): a file whose
            # imports of it all resolve elsewhere (to its own copy) cannot call this function,
            # as its calls resolve the same way; not reading those files keeps the questions
            # linear in the number of copies
            files = [path for path in files if self._may_import(path, wanted, key)]
        return [Path(node[0])] + files

    def _files_importing(self, names: Set[str]) -> List[Path]:
        """The files of the run whose imports name one of ``names``, in the run's order, from
        the index of every file's imports (asking every file for each question grew with the
        square of the files)."""
        index = self.index_imports()
        positions = sorted({position for name in names for position in index.get(name, ())})
        return [self.files[position] for position in positions]

    def _files_calling(self, called: str) -> List[Path]:
        """The files of the run whose text holds ``called`` (``.train_dataloader(``), found
        once per text for the run: every copy of a project in one tree asks again for its own
        factory's method, and reading every file for each question grew with the square of
        the files."""
        if called not in self._calling:
            self._calling[called] = [path for path in self.files if called in (self.text(path) or "")]
        return self._calling[called]

    def _may_import(self, path: Path, wanted: Set[str], target: str) -> bool:
        """Does one of the names ``wanted`` that the file at ``path`` imports resolve, as that
        file imports it, to the module ``target`` or to a package above it (which may
        re-export its function)?"""
        folder = os.path.dirname(target) + os.sep
        with self.importing(path):
            for name in wanted & self._imports_of.get(str(path), frozenset()):
                found = self.resolve_module(name)
                where = self._absolute(found) if found is not None else None
                if where == target or (where is not None and os.path.basename(where) == "__init__.py" and folder.startswith(os.path.dirname(where) + os.sep)):
                    return True
        return False

    def _namespace_names(self, path: str) -> List[str]:
        """The dotted names under which ``path`` resolves from the source roots that hold it
        deeper than its own folder (the folders between are namespace packages)."""
        names = []
        folder = os.path.dirname(self._absolute(path))
        stem = os.path.splitext(os.path.basename(path))[0]
        for root in self._module_files.roots_above(folder):
            parts = [*os.path.relpath(folder, root).split(os.sep), stem]
            dotted = ".".join(parts)
            if all(part.isidentifier() for part in parts) and self.resolve_module(dotted) == Path(self._absolute(path)):
                names.append(dotted)
        return names

    def _find_caller_arguments(self, node: Node, elsewhere: bool, mapped: bool = False) -> Optional[Tuple[Tuple[Tuple[object, ...], Dict[str, object]], ...]]:
        """See :meth:`caller_arguments`. With ``elsewhere`` the answer adds to the calls the
        module makes itself, so a call that cannot be read is one whose arguments are all
        unknown (``ANY_CALL``), not a reason to know nothing: the other calls still show
        values the function is called with."""
        found: List[Tuple[Tuple[object, ...], Dict[str, object]]] = []
        # a method of a module-level class (``Gen.generate_dataloader``): its calls are made on
        # the class's objects (``Gen(data).generate_dataloader(...)``, ``g.generate_dataloader``)
        method = "." in node[1] and not node[1].startswith(CLASS_PREFIX)
        name = node[1].rsplit(".", 1)[-1] if method else _bare(node[1])

        def calls_it(facts: ModuleFacts, body: BodyFacts, call: str) -> bool:
            if method and call.startswith("self.") and call.count(".") == 1 and body.owner:
                # a method called on ``self``: its class's (or a base's) method of that name
                # only, not another class's (``self.forward(x, y)`` in ``DiT``)
                return node in self._class_methods(facts, body.owner, (call[len("self.") :],))
            if method:
                # on an object of the class, or of a type not known (``train_data.make_iter(...)``
                # on a parameter, in joeynmt's trainer): a call of it, maybe
                found = self._instance_method(facts, body.name, body, call)
                return node in found if found is not None else "." in call and not call.startswith((SUPER_CALL, UNNAMED))
            return self.resolve_call(facts, body.name, call, call in body.imported) == node

        def unreadable() -> bool:  # record a call we cannot read; True: the answer is None
            if elsewhere:
                found.append(ANY_CALL)
            return not elsewhere

        # a loader factory's method is called on objects, which any module may be handed
        # (``dm.train_dataloader(...)`` on a data module a registry built): every file that
        # calls a method of that name may call it
        anywhere = method and FACTORY_WORD in name.lower()
        called = f".{name}("
        files = self._importers(node) if not anywhere else [Path(node[0])] + [f for f in self._files_calling(called) if self._absolute(f) != node[0]]
        for file in files[1 if elsewhere else 0 :]:
            text = self.text(file)
            # (a file without the name may call the function only through what a call returns,
            # ``get_fn(kind)(x)``, which no call of a method is: see the loop below)
            if text is None or (name not in text and (method or ")(" not in text)) or (anywhere and called not in text and self._absolute(file) != node[0]):
                continue
            if len(text) > CALLERS_READ_LIMIT:
                # a generated or table-sized module: not read for its literals
                if unreadable():
                    return None
                continue
            facts = self.facts(file, text)
            if facts is None:
                continue
            if node[1].startswith(CLASS_PREFIX):
                for cls, bases in facts.bases.items():
                    if not any(base.rsplit(".", 1)[-1] == name for base, _ in bases):
                        continue
                    # a subclass: its ``__init__``'s ``super().__init__(...)`` is a call of this
                    # class's (pypots' ``TEFN`` -> ``BaseNNDetector`` -> ``BaseNNModel``); one
                    # without an ``__init__`` is built with arguments we would have to follow
                    init = facts.functions.get(f"{cls}.__init__")
                    if init is None:
                        if unreadable():
                            return None
                        continue
                    for index, call in enumerate(init.calls):
                        if call != f"{SUPER_CALL}.__init__":
                            continue
                        positional, passed = self._call_literals(str(facts.path), init.name, index, options=True, mapped=mapped)
                        if len(positional) == UNKNOWN_ARGUMENTS:
                            if unreadable():
                                return None
                            continue
                        found.append((positional, passed))
            for body in (facts.module_body, facts.main_body, *facts.functions.values()):
                for ref in body.refs:
                    if ref.rsplit(".", 1)[-1] == name and ref not in body.built_refs and calls_it(facts, body, ref):
                        if ref in body.cli_refs:
                            found.append(((), {}))  # ``fire.Fire(train)``: its defaults, on the default path
                        elif unreadable():  # handed on: called where we cannot see
                            return None
                for index, call in enumerate(body.calls):
                    if call.startswith(RETURNED_CALL):
                        # ``get_dataset_fn(kind)(args, is_train=True)``: a call of each function
                        # the project function returns
                        if method or node not in self._made_classes(facts, body.name, body, call, functions=True):
                            continue
                    elif call.rsplit(".", 1)[-1] != name or not calls_it(facts, body, call):
                        continue
                    positional, passed = self._call_literals(str(facts.path), body.name, index, options=True, mapped=mapped)
                    if len(positional) == UNKNOWN_ARGUMENTS:
                        if unreadable():  # ``*args`` or ``**mapping``
                            return None
                        continue
                    found.append((positional, passed))
        if not found and not elsewhere:
            self._never_called.add(node)
        return tuple(found) if found or elsewhere else None

    def results_handed_to_trainer(self, path: "str | Path", function: str) -> bool:
        """Does every call the project makes of the module-level ``function`` of module ``path``
        hand what it returns to a Trainer (``train_dl = create_dataloader(cfg)``, then
        ``trainer.fit(model, train_dl)``), and is there at least one? (See
        :func:`~repro_lint.facts.results_handed_to_trainer`.)"""
        self.consult(ALL_FILES)
        node = (self._absolute(path), function)

        def compute() -> bool:
            answers = []
            for file in self._importers(node):
                text = self.text(file)
                if text is not None and function in text:
                    answers.append(results_handed_to_trainer(text, function))
            known = [a for a in answers if a is not None]
            return bool(known) and all(known)

        return bool(self.remembered(("handed to trainer", node), compute))

    def any_file_mentions(self, word: str) -> bool:
        """Does any file of the run contain ``word``? (A text check, cached per run.)"""
        self.consult(ALL_FILES)
        found = self._words.get(word)
        if found is None:
            found = self._words[word] = any(word in (self.text(path) or "") for path in self.files)
        return found

    def is_library(self, path: "str | Path", module: str) -> bool:
        """Is the module at ``path`` (named ``module``) imported by a file of the run, under its
        full name or a shorter one (``import val`` where a script puts its folder on
        ``sys.path``), or by a framework (``catalog.FRAMEWORK_IMPORTED_FILES``: torch.hub
        imports ``hubconf.py``)? Such a module is a library too, even with a ``__main__`` block:
        what it imports, its importers import. So is the module of a console script, which the
        installed wrapper imports: a fix there must not make the installed program depend on
        repro-lint. So is every module of a regular package (a folder with ``__init__.py``, the
        ``__init__.py`` itself included): the package is what ``pip install`` ships, and code
        outside the run (its users, a registry that imports by name) may import any of its
        modules, even one with a ``__main__`` demo that nothing here imports (pip's vendored
        ``rich/layout.py``). Only a script outside a package is a program alone."""
        if os.path.basename(path) in FRAMEWORK_IMPORTED_FILES or self.console_functions(path):
            return True
        if (os.path.basename(path) == "__init__.py" or "." in module) and not is_notebook(path):
            return True  # a module of a package (a notebook beside one is no module of it)
        # (named by its folders too: ``from src.callback.patch_mask import *`` imports
        # ``src/callback/patch_mask.py`` where ``src`` and ``callback`` have no ``__init__.py``)
        parts = module.split(".")
        folders = os.path.dirname(self._absolute(path)).split(os.sep)
        del folders[len(folders) - len(parts) + 1:]  # those the module's name holds
        while folders and folders[-1].isidentifier():
            parts.insert(0, folders.pop())
        return any(self.is_imported(".".join(parts[cut:])) for cut in range(len(parts)))

    def seeds_workers(self, path: "str | Path | None" = None) -> bool:
        """Does a library helper that seeds DataLoader workers (Lightning's
        ``seed_everything(..., workers=True)``, a ``LightningCLI`` that seeds) run on the
        execution path of every entry point that runs the module at ``path`` (the module
        itself when it is one, else the entry points whose path reaches it, else any entry
        point)? Which entry points seed workers is computed once per run."""
        self.consult(ALL_FILES)
        if self._seeds_workers is None:
            self._seeds_workers = frozenset(
                self._absolute(entry)
                for entry in (self.files if self.any_file_mentions("workers") else ())
                if self.is_entry_point(entry) and SEEDS_WORKERS in self.entry_summary(entry).effects
            )
        seeding = self._seeds_workers
        if not seeding or path is None:
            return bool(seeding)
        key = self._absolute(path)
        if self.is_entry_point(key):
            return key in seeding
        entries = [self._absolute(p) for p in self.files if self.is_entry_point(p)]
        reaching = [entry for entry in entries if self.entry_summary(entry).reached_in(key)]
        if reaching:
            return all(entry in seeding for entry in reaching)
        # no entry point of the run reaches the module (a data module that a config or a
        # console script left out of the run chooses): a seeding program of its own project
        # may run it, one of another project linted in the same tree does not
        return any(self._same_project(key, entry) for entry in seeding)

    def _same_project(self, module: str, entry: str) -> bool:
        """Is the file ``entry`` (an entry point, or another module) in the project of
        ``module``: under the folder its dotted name starts from, beside the package
        (``train.py`` next to ``src/pkg``), or importing from the module's top-level package
        (``scripts/train.py`` doing ``from libcll.datasets import ...``)?"""
        root = os.path.join(str(source_root_for(Path(module), self._packages)), "")
        if entry.startswith(root) or root.startswith(os.path.join(os.path.dirname(entry), "")):
            return True

        # (each side once: a tree of several projects asks this of most pairs of its files)
        tops = self._package_tops(module)
        return bool(tops) and not tops.isdisjoint(self._import_tops(entry))

    def _package_tops(self, module: str) -> FrozenSet[str]:
        """The top-level names under which the module at absolute path ``module`` is imported:
        its dotted name's, and those from the source roots above its package (as the file
        whose names are being resolved imports them, :meth:`importing`)."""

        def compute() -> FrozenSet[str]:
            facts = self.facts(module)
            names = [facts.module_name, *self._namespace_names(module)] if facts is not None and facts.module_name else []
            return frozenset(name.split(".", 1)[0] for name in names)

        return self.remembered(("package tops", module, self._importer), compute)

    def _import_tops(self, path: str) -> FrozenSet[str]:
        """The top-level names of the modules the file at absolute path ``path`` imports."""

        def compute() -> FrozenSet[str]:
            text = self.text(path)
            return frozenset(m.split(".", 1)[0] for m in imported_modules(Path(path), text)) if text is not None else frozenset()

        return self.remembered(("import tops", path), compute)

    def may_run_with(self, path: "str | Path", other: "str | Path") -> bool:
        """Can the code of the file ``other`` run in a program that runs the module at ``path``?

        A program is an entry point and the modules its execution path reaches. ``other``
        cannot when an entry point's program holds the module and every program that holds
        ``other`` is another one: another training script, another project linted in the same
        tree. When no entry point reaches the module (a library module, a file run in a way the
        call graph does not see), it can if it is of the module's own project (see
        :meth:`_same_project`); when none reaches ``other``, it can if ``other`` is of the
        module's own project (a helper the call graph does not see run; not another project's
        file that is linted in the same tree)."""
        return self.may_run_with_any(path, (self._absolute(other),))

    def may_run_with_any(self, path: "str | Path", others: Tuple[str, ...]) -> bool:
        """Can the code of one of the files ``others`` (absolute paths, asked in that order) run
        in a program that runs the module at ``path`` (:meth:`may_run_with` of each)? Those that
        programs hold are asked as one set: the programs that hold any of them, gathered once
        per ``others``, meet the module's or not (asking each file for each module grew with the
        square of the files in a tree of several projects)."""
        self.consult(ALL_FILES)
        if not others:
            return False
        key = self._absolute(path)
        mine = self._programs().get(key)
        if not mine:
            return any(self._same_project(key, other) for other in others)
        held, unheld = self._held_by_programs(others)
        return not mine.isdisjoint(held) or any(self._same_project(key, other) for other in unheld)

    def _held_by_programs(self, others: Tuple[str, ...]) -> Tuple[FrozenSet[str], Tuple[str, ...]]:
        """The entry points whose programs hold one of the files ``others``, and those of
        ``others`` that no program holds (in their order)."""
        found = self._program_sets.get(others)
        if found is None:
            programs = self._programs()
            held: Set[str] = set()
            unheld = []
            for other in others:
                theirs = programs.get(other)
                if theirs:
                    held |= theirs
                else:
                    unheld.append(other)
            found = self._program_sets[others] = (frozenset(held), tuple(unheld))
        return found

    def _programs(self) -> Dict[str, FrozenSet[str]]:
        """For each file that an entry point's program holds, the entry points whose programs
        hold it (computed once per run)."""
        if self._program_index is None:
            index: Dict[str, Set[str]] = {}
            for entry in (self._absolute(p) for p in self.files):
                if not self.is_entry_point(entry):
                    continue
                index.setdefault(entry, set()).add(entry)
                for module, _ in self.entry_summary(entry).reached:
                    index.setdefault(module, set()).add(entry)
            self._program_index = {module: frozenset(entries) for module, entries in index.items()}
        return self._program_index

    def mentioned_with(self, path: "str | Path", word: str) -> bool:
        """Does a file that may run with the module at ``path`` (:meth:`may_run_with`) contain
        ``word``? (A text check.)"""
        return self.may_run_with_any(path, self.mentioning(word))

    def mentioning(self, word: str) -> Tuple[str, ...]:
        """The files of the run that contain ``word`` (a text check, cached per run), absolute."""
        if not self.any_file_mentions(word):
            return ()
        found = self._mentioning.get(word)
        if found is None:
            found = self._mentioning[word] = tuple(
                self._absolute(f) for f in self.files if word in (self.text(f) or "")
            )
        return found

    def entry_points(self) -> FrozenSet[str]:
        return frozenset(p for p, is_entry in self._entry.items() if is_entry)



def _enclosing_bodies(scope: str) -> List[str]:
    """The bodies whose names a body sees, innermost first: its enclosing functions
    (``outer`` for ``outer.inner``; a method's class is not a scope), then the ``__main__``
    block and the module's top level."""
    found = []
    parts = scope.split(".") if scope not in (MODULE_BODY, MAIN_BODY) else []
    for cut in range(len(parts) - 1, 0, -1):
        found.append(".".join(parts[:cut]))
    return found + [MAIN_BODY, MODULE_BODY]


#: the largest module (in characters) whose calls are read for what they pass to a function's
#: ``**kwargs``: reading a module's literals parses it (when its facts are not known yet), and
#: a parse takes a few hundred bytes per byte of source
CALLERS_READ_LIMIT = 256 * 1024

#: how many levels of project base classes a method is looked up through
MAX_BASE_DEPTH = 8


#: the methods of a project object handed on that the receiver is not taken to call: moves to a
#: device, which the program makes itself (``batch.cuda()``)
HANDED_MOVES = DEVICE_METHODS | {"to", "cpu"}


def _methods(facts: ModuleFacts, cls: str, wanted: Optional[Tuple[str, ...]]) -> Tuple[Node, ...]:
    """The nodes of class ``cls``'s methods named in ``wanted`` (None: all of them)."""
    depth = cls.count(".") + 1
    return tuple(
        (facts.path, f)
        for f, body in facts.functions.items()
        if body.owner == cls and f.count(".") == depth and (wanted is None or f.rsplit(".", 1)[1] in wanted)
    )


def _module_root(path: str, parts: List[str]) -> Optional[str]:
    """The folder the module ``parts`` (``data.loader``) was found under, given its file."""
    for rel in (os.path.join(*parts) + ".py", os.path.join(*parts, "__init__.py")):
        if path.endswith(os.sep + rel):
            return path[: -len(rel)]
    return None


def _guard_parameters(callee: BodyFacts) -> List[str]:
    """The parameters whose test decides what ``callee`` turns on, seeds or uses."""
    return sorted(set(callee.guarded) | set(callee.guarded_uses) | set(callee.guarded_calls))


def _given(callee: BodyFacts, arguments: Tuple[Tuple[object, ...], Mapping[str, object]], param: str) -> object:
    """What a call's literal arguments (positional, keywords) give parameter ``param`` of
    ``callee`` (by keyword or position), else its literal default, else UNKNOWN."""
    position = callee.params.index(param) if param in callee.params else None
    value = literal_argument(*arguments, param, position)
    if value is MISSING and len(arguments[0]) == UNKNOWN_ARGUMENTS:
        return UNKNOWN  # ``*args``/``**mapping`` may pass it (a keyword-only parameter, a key of ``**kwargs``)
    return callee.defaults.get(param, UNKNOWN) if value is MISSING else value


def _guard_off(callee: BodyFacts, param: str, value: object) -> bool:
    """Does ``value`` of ``param`` leave the effects ``callee`` makes under its test of that
    parameter off: ``if deterministic:`` with a false value; ``if seed > 0:`` with ``-1``
    (:attr:`~repro_lint.facts.BodyFacts.guard_tests`; a comparison that cannot be made, or a
    parameter tested in different ways, leaves them on)?"""
    test = callee.guard_tests.get(param)
    if test is None:
        return not is_on(value)
    operator, literal = test
    compare = COMPARISONS.get(operator)
    if compare is None:
        return False
    try:
        return not compare(value, literal)
    except TypeError:  # ``None > 0``: the program would fail there
        return False


def _worker_factories(body: BodyFacts, in_workers: "Set[str] | FrozenSet[str]") -> FrozenSet[str]:
    """The calls (as ``body.calls`` names them) that make a dataset the body hands to DataLoader
    workers (``ds = Factory(root).get_dataset(name)``, then ``DataLoader(ds, num_workers=4)``),
    each made once in the body (else another of its results may stay in the main process);
    ``in_workers``: the body's refs in workers (:meth:`ProjectContext.worker_refs`)."""
    made = [body.made_by[ref] for ref in body.dataset_refs if ref in in_workers and ref in body.made_by]
    return frozenset(call for call in made if body.calls.count(call) == 1)


def _for_workers(node: Node) -> Node:
    """The variant of call-graph node ``node`` that makes what DataLoader workers run
    (:data:`FOR_WORKERS`): a function's; a class built or an object handed on is itself."""
    if node[1].startswith((CLASS_PREFIX, INSTANCE_PREFIX, OBJECT_PREFIX)):
        return node
    return _with_off(node, [FOR_WORKERS])


def _unmarked(node: Node) -> Node:
    return node


def _variant_node(target: Node, off: List[str]) -> Node:
    """The call-graph node of function ``target`` with the effects under its parameters ``off``
    left out (``target`` itself when there are none)."""
    return _with_off(target, off)


def _sets_attribute(text: str, attr: str) -> bool:
    """Does ``text`` set ``attr`` on an object other than a method's own (``ds.method = x``,
    ``setattr(ds, "method", x)``; not ``self.method = x``)?"""
    written = (*re.finditer(r"\bsetattr\(\s*(\w+)", text), *re.finditer(rf"\b(\w+)\s*\.\s*{re.escape(attr)}\s*=(?!=)", text))
    return any(match.group(1) not in ("self", "cls") for match in written)


def _with_off(node: Node, off: Sequence[str]) -> Node:
    """Call-graph node ``node`` (maybe a variant already) with the parameters ``off`` off too."""
    name, _, had = node[1].partition(VARIANT)
    keys = list(dict.fromkeys([*(had.split(",") if had else ()), *off]))
    return (node[0], f"{name}{VARIANT}{','.join(keys)}") if keys else node


def _handed(node: Node, built: bool = False) -> Node:
    """A body handed on as an object: a class's instance node (all its methods; ``built``: an
    object built already, whose construction is not run again), else itself."""
    if node[1].startswith(CLASS_PREFIX):
        return (node[0], (OBJECT_PREFIX if built else INSTANCE_PREFIX) + node[1][len(CLASS_PREFIX) :])
    return node


def _public_names(facts: ModuleFacts) -> Tuple[str, ...]:
    """The names a module offers: its ``__all__``, else its public module-level functions,
    classes, instances and the names it imports from the project's modules (``from .dqn
    import dqn``; an import of another top-level package is a library's)."""
    if facts.exports is not None:
        return facts.exports
    names = [f for f, body in facts.functions.items() if "." not in f and body.owner is None]
    names += [c for c in facts.classes if "." not in c]
    names += [i for i in facts.module_body.instances if "." not in i and "(" not in i and not i.endswith(HELD)]
    top = facts.module_name.split(".", 1)[0]
    names += [alias for alias, target in facts.aliases.items() if target.split(".", 1)[0] == top and target != facts.module_name]
    return tuple(dict.fromkeys(n for n in names if not n.startswith("_")))


#: what :meth:`ProjectContext.loader_class` tells of a project DataLoader class: the library
#: loader it derives from, the parameters it takes by position, the keywords it passes itself,
#: whether it forwards others, and its own defaults for those it passes on
LoaderBase = Tuple[str, Tuple[str, ...], FrozenSet[str], bool, Tuple[Tuple[str, Any], ...]]


def built_loader_uses(spec: LoaderBase, positional: Sequence[object], keywords: Mapping[str, object]) -> FrozenSet[str]:
    """What building a project DataLoader class (``spec``, :meth:`ProjectContext.loader_class`)
    with these argument values uses, as :func:`~repro_lint.classify.classify_call` counts the
    DataLoader it derives from: the values bound to the class's own parameters over its
    defaults; one the class's ``__init__`` passes itself is not the caller's (a shuffle it sets
    is not counted, a generator it sets is one)."""
    base, params, fixed, _, defaults = spec
    bound: Dict[str, object] = dict(defaults)  # what the class itself defaults to
    bound.update(zip(params, positional))
    bound.update(keywords)
    for param in fixed:
        bound.pop(param, None)
    if "generator" in fixed:
        bound["generator"] = UNKNOWN
    return classify_call(base, None, LiteralArgs(bound)).uses


#: a call whose arguments cannot be read (``f(*args)``, ``f(**cfg)``, ``f`` handed on): every
#: positional argument unknown, as the facts record a call with ``*args``
ANY_CALL: Tuple[Tuple[object, ...], Dict[str, object]] = ((UNKNOWN,) * UNKNOWN_ARGUMENTS, {})


def _bare(node_name: str) -> str:
    """A call-graph body's name as calls write it (a class node without its prefix)."""
    return node_name[len(CLASS_PREFIX) :] if node_name.startswith(CLASS_PREFIX) else node_name


def _local_target(facts: ModuleFacts, name: str) -> Optional[str]:
    """The body of this module that calling ``name`` runs: a function, or a class node."""
    if name in facts.functions:
        return name
    if name in facts.classes:
        return CLASS_PREFIX + name
    return None
