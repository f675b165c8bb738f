"""Data loading: worker seeding, shuffling generators, samplers (RPL3xx)."""

from __future__ import annotations

import re
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple

from .._lazy import cst
from ..catalog import LOADER_WORKER_INIT, OWN_SAMPLER_KEYWORD
from ..catalog import RANDOM_SAMPLERS, SHUFFLES_ITSELF
from ..diagnostics import SAFE, UNSAFE
from ..syntax import MISSING, UNKNOWN, bind, cst_slots
from ..values import Candidates, Const, all_consts, any_const, bind_parameter
from .base import KwargsDicts, NodeEdit, Rule, ValueScan, indentation, value_of
from .loaders import FACTORY_TRIGGERS, LOADER_NAMES, FactoryLoader, LoaderCall, aliased_names, built_repeatedly, factory_loaders, forwarded_switch_off, loader_call, may_build_loader, none_on_every_path, off_in_factory
from .trainer_loaders import seeded_by_library
from .seeding import UnseededTorch, seed_given_after, seed_order, seeded_after_through_calls

RUNTIME = "repro_lint.runtime"
#: the last names of :data:`~repro_lint.catalog.RANDOM_SAMPLERS`
_SAMPLER_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in RANDOM_SAMPLERS)


Found = Any  # MISSING, UNKNOWN or the argument's value (an expression)


# -- what the DataLoader rules share --------------------------------------------------------


def bound(rule: Rule, args: Sequence[cst.Arg], name: str, position: Optional[int]) -> Found:
    """The value bound to parameter ``name`` by ``args``, MISSING, or UNKNOWN when a ``*args``/``**kwargs``
    we cannot follow may carry it (:class:`KwargsDicts` follows dicts of the function and of ``self``)."""

    dicts = rule.file.analysis(KwargsDicts)
    found = bind(cst_slots(args), name, position, lambda arg: dicts.expand(arg.value))
    return found.value if isinstance(found, cst.Arg) else found


#: where the value a factory's loader gets comes from: the factory's call, or the factory itself
AT_CALL, IN_FACTORY = "call", "factory"


class Through(NamedTuple):
    """What a call of a factory gives one parameter of the factory's loader."""

    #: AT_CALL, IN_FACTORY, or None (``value`` is MISSING or UNKNOWN)
    where: Optional[str]
    value: Found


def through_factory(rule: Rule, built: FactoryLoader, node: cst.Call, name: str) -> Through:
    """What ``node``, a call of the factory that builds ``built``, gives the loader's
    parameter ``name``: the call's argument (AT_CALL) when it reaches the loader through a
    parameter the factory passes on (``shuffle=shuffle``) or through the factory's
    ``**kwargs`` passed on whole; the factory's own value (IN_FACTORY: its argument, or the
    default of the parameter the call leaves out); else MISSING, or UNKNOWN (a ``**cfg`` or
    ``*args`` we cannot follow, at the call or in the factory)."""
    function, call = built.function, built.call
    params = function.params
    named = {p.name.value: p for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    rest = params.star_kwarg.name.value if isinstance(params.star_kwarg, cst.Param) else None

    varargs = params.star_arg.name.value if isinstance(params.star_arg, cst.Param) else None

    def forwarded(arg: cst.Arg) -> bool:
        return arg.star == "**" and isinstance(arg.value, cst.Name) and arg.value.value == rest

    # a dict the factory builds and passes (``cfg = {"num_workers": num_workers}``, then
    # ``DataLoader(ds, **cfg)``) is read as its keywords
    own = list(built.values.spread_dicts([arg for arg in call.args if not forwarded(arg)], built.chain))
    positional = [arg for arg in node.args if arg.keyword is None]
    if (
        varargs is not None and (params.posonly_params or params.params)
        and not any(arg.star for arg in positional)
        and len(positional) <= len(params.posonly_params) + len(params.params) - (1 if built.method else 0)
    ):
        # ``def loader(dataset, *args, **kwargs)`` called with no more positional arguments than
        # it names: its ``*args`` passed on is empty for this call
        own = [arg for arg in own if not (arg.star == "*" and isinstance(arg.value, cst.Name) and arg.value.value == varargs)]
    if varargs is not None and not params.posonly_params and not params.params and any(
        arg.star == "*" and isinstance(arg.value, cst.Name) and arg.value.value == varargs for arg in own
    ):
        # a wrapper that passes its call's arguments on as they are (``def DataLoader(*args,
        # **kwargs): return TorchLoader(*args, collate_fn=collate, **kwargs)``): its own
        # keywords, else the call's arguments in the loader's places
        found = bind(cst_slots([arg for arg in own if not arg.star]), name, None)
        if isinstance(found, cst.Arg):
            return Through(IN_FACTORY, found.value)
        given = bound(rule, node.args, name, call.position(name))
        return Through(AT_CALL, given) if isinstance(given, cst.BaseExpression) else Through(None, given)
    found = bind(cst_slots(own), name, call.position(name))
    if found is UNKNOWN:
        return Through(None, UNKNOWN)
    if isinstance(found, cst.Arg):
        inner = found.value
        if not (isinstance(inner, cst.Name) and inner.value in named):
            return Through(IN_FACTORY, inner)
        given = bind_parameter(function, inner.value, node.args, built.method)
        if isinstance(given, cst.Arg):
            return Through(AT_CALL, given.value)
        default = named[inner.value].default
        if given is MISSING and default is not None:
            return Through(IN_FACTORY, default)
        return Through(None, given)
    if not any(forwarded(arg) for arg in call.args):
        return Through(None, MISSING)  # the factory passes on no keywords of its call
    passed_on = [arg for arg in node.args if arg.star == "**" or (arg.keyword is not None and arg.keyword.value not in named)]
    given = bound(rule, passed_on, name, None)
    return Through(AT_CALL, given) if isinstance(given, cst.BaseExpression) else Through(None, given)


def add_keyword(rule: Rule, node: cst.Call, current: Found, keyword: str, value: str) -> List[NodeEdit]:
    """Edits that pass ``keyword=value`` (replacing an explicit ``None``), following the
    call's own layout: in a call written one argument per line, on a line of its own with
    the arguments' indentation and a trailing comma; else after the last argument."""
    if isinstance(current, cst.BaseExpression):
        return [rule.replace(current, value)]
    if not node.args:
        return []
    last = node.args[-1]
    indent = one_per_line(node)
    if indent is not None and node.whitespace_before_args.indent:  # type: ignore[union-attr]
        indent = indentation(rule.file.module, rule.file.ancestors) + indent  # LibCST keeps it relative
    if indent is None:
        return [NodeEdit("after", f", {keyword}={value}", last, wrap_at=node.args[0])]
    edits = [NodeEdit("line_after", f"{indent}{keyword}={value},\n", last)]
    if not isinstance(last.comma, cst.Comma):
        edits.append(rule.insert_after(last, ","))
    return edits


def one_per_line(call: cst.Call) -> Optional[str]:
    """The arguments' indentation when ``call`` is written one argument per line (each on a
    line of its own, the closing parenthesis on the next), else None."""
    def newline(whitespace: object) -> bool:
        return isinstance(whitespace, cst.ParenthesizedWhitespace)

    if not newline(call.whitespace_before_args):
        return None
    for arg in call.args[:-1]:
        if not (isinstance(arg.comma, cst.Comma) and newline(arg.comma.whitespace_after)):
            return None
    last = call.args[-1]
    closing = last.comma.whitespace_after if isinstance(last.comma, cst.Comma) else last.whitespace_after_arg
    if not newline(closing):
        return None
    return call.whitespace_before_args.last_line.value  # type: ignore[union-attr]


def runtime_name(rule: Rule, name: str) -> Tuple[bool, Optional[NodeEdit]]:
    """(usable, import edit) for a helper of ``repro_lint.runtime``: a function of that
    name defined in the file itself is used as it is."""
    if re.search(rf"^\s*def {name}\(", rule.file.source, re.MULTILINE):
        return True, None
    bound_to = rule.file.names.aliases.get(name)
    if bound_to is not None and bound_to != f"{RUNTIME}.{name}":
        return False, None  # the name means something else here
    return True, rule.ensure_import(RUNTIME, name)


def literal_text(node: cst.CSTNode, module: cst.Module) -> str:
    return " ".join(module.code_for_node(node).split())


class DataLoaderWorkerInitMissing(Rule):
    code = "RPL301"
    name = "dataloader-worker-init-missing"
    message = (
        "{what} with num_workers={workers} and no worker_init_fn: pass worker_init_fn=seed_worker "
        "(from repro_lint.runtime) so random and NumPy in every worker are seeded from that worker's "
        "torch seed, as the PyTorch reproducibility notes recommend"
    )
    fix = SAFE
    fix_message = "Pass worker_init_fn=seed_worker"
    # the loader names, and "loader", "Loader" (any part of a word): a call of a loader factory
    triggers = LOADER_NAMES + FACTORY_TRIGGERS
    uses = (KwargsDicts,)

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        return may_build_loader(facts, words, project, text)

    def visit_Call(self, node: cst.Call) -> None:
        call = loader_call(self, node)
        if call is None:
            self._factory(node)
            return
        workers = bound(self, call.args, "num_workers", call.position("num_workers"))
        default = call.default("num_workers") if workers is MISSING else MISSING
        if isinstance(default, int) and not isinstance(default, bool) and default > 0:
            workers = cst.Integer(str(default))  # a project subclass's own default (``num_workers=1``)
        elif not isinstance(workers, cst.BaseExpression) or not call.own(workers):
            return  # no workers (the default), we cannot tell, or the partial's finding
        elif all_consts(value_of(self, workers), lambda v: v in (0, None)):
            return  # no workers on any path we can see (``num_workers=args.workers``, default 0)
        elif off_in_factory(self, workers, lambda v: v in (0, None)):
            return  # a factory's ``num_workers=0`` default: the calls that pass more are reported
        init = bound(self, call.args, "worker_init_fn", call.position("worker_init_fn"))
        if init is UNKNOWN or call.fixes("worker_init_fn") or (init is MISSING and call.qualified in LOADER_WORKER_INIT):
            return  # not known, or the loader's own (MONAI's DataLoader installs one)
        exact = not isinstance(init, cst.BaseExpression) or _is_none(init)
        if not exact and not all_consts(value_of(self, init), lambda v: v is None) and not self._none_in_a_call(workers, init):
            return  # a worker_init_fn, on some path at least
        if seeded_by_library(self, node):
            return  # Lightning's seed_everything(workers=True) seeds the loaders its Trainer runs
        edits: List[NodeEdit] = []
        usable, imported = runtime_name(self, "seed_worker")
        # only an entry point may start to depend on repro-lint at run time; the inline style
        # never does (a module seeds its workers itself, or the user writes a worker_init_fn);
        # a worker_init_fn that is None only on the default path is not replaced
        if usable and exact and call.accepts("worker_init_fn") and self.file.is_entry_point and self.file.may_import_runtime:
            edits = add_keyword(self, node, init, "worker_init_fn", "seed_worker")
            if edits and imported is not None:
                edits.append(imported)
        self.report(node, what=call.short, workers=literal_text(workers, self.file.module), edits=edits)

    def _none_in_a_call(self, workers: cst.BaseExpression, init: cst.BaseExpression) -> bool:
        """Does one call of the function holding the loader give it workers and a
        ``worker_init_fn`` that is None, its arguments taken together (``build_loader(ds,
        seed=0)`` for training and ``build_loader(ds)`` for validation, with
        ``init_fn = seed_worker if seed is not None else None``)?"""
        project, path = self.file.project, self.file.path
        # each call as it is written (a loader factory's evaluator otherwise leaves the
        # arguments a call passes straight on to the loader to that call's own finding)
        rows = self.file.analysis(ValueScan).values.each_call(
            [workers, init], self.file.ancestors, lambda function, elsewhere=False: project.caller_arguments(path, function, elsewhere)
        )
        return rows is not None and any(
            _some_workers(given_workers) and all_consts(given_init, lambda v: v is None) for given_workers, given_init in rows
        )

    def _factory(self, node: cst.Call) -> None:
        """A call of a project factory whose loader has workers only because of this call's
        arguments (``get_loader(ds, num_workers=4)``, the factory passing ``num_workers`` or its
        ``**kwargs`` on): reported here, as RPL302 reports such a call."""
        for built in factory_loaders(self, node):
            workers = through_factory(self, built, node, "num_workers")
            if workers.where != AT_CALL or not _some_workers(value_of(self, workers.value)):
                continue  # no workers by this call's arguments (a value not known may be some, as at a loader)
            if _reported_in_factory(built, "num_workers", _some_workers, "worker_init_fn"):
                continue  # workers whoever calls it: the factory's own finding
            if not _none_through(self, built, node, "worker_init_fn") or seeded_by_library(self, node):
                continue
            what = f"{built.function.name.value}(...) builds a {built.call.short}"
            self.report(node, what=what, workers=literal_text(workers.value, self.file.module))
            return


def _some_workers(found: Candidates) -> bool:
    return not all_consts(found, lambda v: v in (0, None))


def _shuffles(found: Candidates) -> bool:
    return any_const(found, bool)


def _reported_in_factory(built: FactoryLoader, switch: str, on: Callable[[Candidates], bool], guard: str) -> bool:
    """The factory's loader is reported in the factory's own file, as the rule reports a
    loader: its ``switch`` is on on the factory's default path, and its ``guard`` is not
    passed, or is ``None``."""
    call = built.call
    value = bind(cst_slots(call.args), switch, call.position(switch))
    if not isinstance(value, cst.Arg) or (isinstance(value.value, cst.Name) and value.value.value in built.decided):
        return False  # not passed, or every call passes it: each call that turns it on is reported
    if isinstance(value.value, cst.Name) and forwarded_switch_off(
        built.function, value.value.value, lambda default: built.values.of(default, ()), lambda v: not on([Const(v)]), switch == "shuffle"
    ):
        return False  # a parameter passed on as it is, off by default: each call that turns it on is reported
    if not on(built.values.of(value.value, built.chain)):
        return False
    given = bind(cst_slots(call.args), guard, call.position(guard))
    return given is MISSING or (
        isinstance(given, cst.Arg) and all_consts(built.values.of(given.value, built.chain), lambda v: v is None)
    )


def _none_through(rule: Rule, built: FactoryLoader, node: cst.Call, name: str) -> bool:
    """The factory's loader gets no ``name`` (or ``None``) from this call of the factory."""
    given = through_factory(rule, built, node, name)
    if given.where == AT_CALL:
        return all_consts(value_of(rule, given.value), lambda v: v is None)
    if given.where == IN_FACTORY:
        # the factory's own value, with this call's arguments (``g = make_generator() if
        # seeded else None`` is None for a call passing ``seeded=False``)
        here = rule.file.analysis(ValueScan).values
        found = None if built.method else here.of_in_call(node, rule.file.ancestors, built.values, built.function, given.value, built.chain)
        return all_consts(found if found is not None else built.values.of(given.value, built.chain), lambda v: v is None)
    return given.value is MISSING


def _is_none(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


class ShuffleWithoutGenerator(Rule):
    code = "RPL302"
    name = "shuffle-without-generator"
    message = (
        "{what} draws {drawn} from the global torch RNG, so any other use of that RNG "
        "changes it: pass generator=make_generator(seed) (from repro_lint.runtime) or a seeded "
        "torch.Generator"
    )
    #: for a loader that shuffles its indices itself (``catalog.SHUFFLES_ITSELF``), with or
    #: without ``generator=``
    message_shuffles_itself = (
        "{what}(shuffle=True) shuffles its indices itself, every epoch, with a draw from the global "
        "{rng} RNG, and takes no generator (generator= does not change the order), so any other use "
        "of that RNG changes the data order: re-seed that RNG with the epoch right before each "
        "epoch's loop, or pass shuffle=False and permute the indices with a seeded generator"
    )
    fix = SAFE
    fix_message = "Pass generator={generator}"
    # "loader", "Loader" (any part of a word): a call of a loader factory
    triggers = LOADER_NAMES + tuple(sorted(_SAMPLER_NAMES)) + FACTORY_TRIGGERS
    whole_words = False
    uses = (KwargsDicts,)

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        return may_build_loader(facts, words, project, text)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: the generators this file's fixes have written so far (:meth:`_apart`)
        self.seeded_here = 0

    def _apart(self, expression: str) -> str:
        """Each loader its own order: the n-th generator this file's fixes write (from 0) is
        stream n of the seed, ``make_generator(stream=1)``, or, where the seed is written out
        with torch alone, that seed plus n (``torch.Generator().manual_seed(torch.initial_seed()
        + 1)``), so two loaders built side by side (a source and a target domain) never
        shuffle alike."""
        before, self.seeded_here = self.seeded_here, self.seeded_here + 1
        if not before:
            return expression
        if "make_generator(" in expression:
            return f"{expression[:-1]}{', ' if not expression.endswith('()') else ''}stream={before})"
        return f"{expression[:-1]} + {before})"

    def visit_Call(self, node: cst.Call) -> None:
        call = loader_call(self, node)
        fixable = True
        if call is None:
            self._factory(node)
        if call is not None:
            if call.fixes("shuffle"):
                return  # the subclass's ``__init__`` sets it itself (cogdl's ``ClusteredLoader``)
            shuffle = bound(self, call.args, "shuffle", call.position("shuffle"))
            if shuffle is MISSING and call.default("shuffle") is True:
                pass  # a project subclass that shuffles by default (``shuffle=True`` passed on)
            elif not isinstance(shuffle, cst.BaseExpression) or not call.own(shuffle):
                return
            elif not any_const(value_of(self, shuffle), bool):
                return  # not shuffled on any path we can see
            elif off_in_factory(self, shuffle, lambda v: not v, no_default_off=True):
                return  # a factory's ``shuffle=False`` default: the calls that pass True are reported
            if _own_sampler(self, call):
                return
            if call.qualified in SHUFFLES_ITSELF:
                self.report(node, self.message_shuffles_itself.format(what=call.short, rng=SHUFFLES_ITSELF[call.qualified]))
                return
            if call.fixes("generator"):
                return
            args, position = call.args, call.position("generator")
            fixable = call.accepts("generator")
            what, drawn = f"{call.short}(shuffle=True)", "the data order"
        else:
            qualified = self.qualify(node.func)
            if qualified is not None and qualified not in RANDOM_SAMPLERS and qualified.rsplit(".", 1)[-1] in _SAMPLER_NAMES:
                # a project module's other name for one (``from sampler import RandomSampler``,
                # where ``sampler.py`` imports torch's)
                qualified = self.file.project.library_name(qualified) or qualified
            if qualified not in RANDOM_SAMPLERS:
                # through a local name (FixMatch's ``train_sampler = RandomSampler if ... else ...``)
                qualified = next((q for q in map(self.qualify, aliased_names(self, node.func, lambda n: self.qualify(n) in RANDOM_SAMPLERS)) if q in RANDOM_SAMPLERS), None)
                fixable = False  # the name may stand for a sampler that takes no generator
            if qualified is None:
                return
            args, position = node.args, RANDOM_SAMPLERS[qualified]
            short = qualified.rsplit(".", 1)[-1]
            what = f"{short}(...)"
            drawn = "the split" if short == "random_split" else "the data order"
        generator = bound(self, args, "generator", position)
        if generator is UNKNOWN or (isinstance(generator, cst.BaseExpression) and not _is_none(generator) and not none_on_every_path(self, generator)):
            return
        expression, imported, applicability = seeded_generator(self, node)
        edits: List[NodeEdit] = []
        if expression is not None and fixable and not built_repeatedly(self, node):  # (no fix: each epoch one order)
            expression = self._apart(expression)
            edits = add_keyword(self, node, generator, "generator", expression)
            if edits and imported is not None:
                edits.append(imported)
        self.report(node, what=what, drawn=drawn, generator=expression or "", edits=edits, applicability=applicability)

    def _factory(self, node: cst.Call) -> None:
        """A call of a project factory whose loader shuffles only because of this call's
        arguments (``build_loader(ds, shuffle=True)`` with ``shuffle=False`` by default, or a
        factory that passes its ``**kwargs`` on to the loader): reported here, where that
        knowledge is (the factory's own file reports the loaders that shuffle whoever calls
        them)."""
        for built in factory_loaders(self, node):
            shuffle = through_factory(self, built, node, "shuffle")
            if shuffle.where != AT_CALL or not any_const(value_of(self, shuffle.value), bool):
                continue  # not shuffled by this call's arguments
            if _reported_in_factory(built, "shuffle", _shuffles, "generator"):
                continue  # shuffled whoever calls it: the factory's own finding
            if not _none_through(self, built, node, "generator"):
                continue
            what = f"{built.function.name.value}(...) builds a {built.call.short}(shuffle=True) that"
            self.report(node, what=what, drawn="the data order", generator="")
            return


def _own_sampler(rule: Rule, call: LoaderCall) -> bool:
    """The loader shuffles with a seeded sampler of its own (DGL's ``use_ddp=True``), or may."""
    keyword = OWN_SAMPLER_KEYWORD.get(call.qualified)
    if keyword is None:
        return False
    given = bound(rule, call.args, keyword, call.position(keyword))
    if given is MISSING:
        return False
    return given is UNKNOWN or not all_consts(value_of(rule, given), lambda v: not v)


def seeded_generator(rule: Rule, node: cst.Call) -> Tuple[Optional[str], Optional[NodeEdit], str]:
    """The ``generator=`` a fix passes, the import it needs, and how safe it is.

    The generator follows the seed the program already gives torch, so ``--seed 1`` and
    ``--seed 2`` still give different orders and each rank of a ``seed + rank`` script keeps
    its own: ``make_generator()`` (which defaults to that seed) in an entry point, or, without
    repro-lint, ``torch.Generator().manual_seed(torch.initial_seed())``. The configured
    ``seed`` is written only where nothing seeds torch on the entry point's path and RPL101,
    whose fix inserts the seeding block in the same run, is not selected. A module that is not
    an entry point gets only the torch form, as an unsafe fix: it changes the order for every
    caller, and may not start to depend on repro-lint. An entry point that seeds torch only
    after the loader (``node``) gets that seed (:func:`seed_given_after`), or no fix."""
    file = rule.file
    entry = file.is_entry_point
    if not entry and not any(isinstance(n, (cst.FunctionDef, cst.Lambda)) for n in file.ancestors):
        # built as the module is imported, before any program that imports it can seed torch:
        # ``torch.initial_seed()`` is then a random one (the caller's seed never reaches it)
        return None, None, SAFE
    path_seeds = entry and file.project.entry_summary(file.path, file.source).seeds("torch")
    seeded = not entry or UnseededTorch.code in file.codes or path_seeds  # (RPL101's block seeds it)
    seed = "" if seeded else str(file.settings.seed)
    order = seed_order(rule, node, "torch") if path_seeds else None
    if order is True:  # seeded only after the loader, in the body that builds it
        later = seed_given_after(rule, node, "torch")
        if later is None:
            return None, None, SAFE
        seed = file.code_for(later)  # the seed the script gives torch next (``set_seed(seed)``)
    elif order is None and path_seeds and seeded_after_through_calls(rule, node, "torch"):
        # seeded by what a later call runs (``net = Net()``, whose constructor seeds), and by
        # nothing known before: not yet when the loader is built, with a seed the fix cannot name
        return None, None, SAFE
    if entry and file.may_import_runtime:
        usable, imported = runtime_name(rule, "make_generator")
        return (f"make_generator({seed})", imported, SAFE) if usable else (None, None, SAFE)
    torch = file.names.local_name("torch")
    if torch is None:
        return None, None, SAFE  # no name for torch here: the finding has no fix
    expression = f"{torch}.Generator().manual_seed({seed or f'{torch}.initial_seed()'})"
    return expression, None, SAFE if entry else UNSAFE
