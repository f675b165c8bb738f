"""Data loading: worker seeding, shuffling generators, samplers (RPL3xx)."""

from __future__ import annotations

import re
from typing import Any, List, Optional, Sequence, Tuple

import libcst as cst

from ..catalog import (
    DISTRIBUTED_SAMPLER_SHUFFLE_POSITION,
    DISTRIBUTED_SAMPLERS,
    OWN_SAMPLER_KEYWORD,
    RANDOM_SAMPLERS,
)
from ..diagnostics import SAFE, UNSAFE
from ..syntax import MISSING, UNKNOWN, bind, cst_slots
from ..values import all_consts, any_const, bind_parameter
from .base import KwargsDicts, NodeEdit, Rule, indentation, is_false, value_of
from .loaders import FACTORY_WORD, LOADER_NAMES, LoaderCall, factory_loaders, loader_call, seeded_by_library
from .seeding import UnseededTorch

RUNTIME = "repro_lint.runtime"


Found = Any  # MISSING, UNKNOWN or the argument's value (an expression)


# -- what the DataLoader rules share --------------------------------------------------------


def bound(rule: Rule, args: Sequence[cst.Arg], name: str, position: Optional[int]) -> Found:
    """The value bound to parameter ``name`` by ``args``, MISSING, or UNKNOWN when a
    ``*args``/``**kwargs`` we cannot follow may carry it (``**`` dicts built in this
    function are followed)."""

    dicts = rule.file.analysis(KwargsDicts)
    found = bind(cst_slots(args), name, position, lambda arg: dicts.expand(arg.value))
    return found.value if isinstance(found, cst.Arg) else found


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
        "DataLoader with num_workers={workers} and no worker_init_fn: pass worker_init_fn=seed_worker "
        "(from repro_lint.runtime) so random and NumPy in every worker are seeded from that worker's "
        "torch seed, as the PyTorch reproducibility notes recommend"
    )
    fix = SAFE
    fix_message = "Pass worker_init_fn=seed_worker"
    triggers = LOADER_NAMES
    whole_words = True
    uses = (KwargsDicts,)

    def visit_Call(self, node: cst.Call) -> None:
        call = loader_call(self, node)
        if call is None:
            return
        workers = bound(self, call.args, "num_workers", call.position("num_workers"))
        if not isinstance(workers, cst.BaseExpression) or not call.own(workers):
            return  # no workers (the default), we cannot tell, or the partial's finding
        if all_consts(value_of(self, workers), lambda v: v in (0, None)):
            return  # no workers on any path we can see (``num_workers=args.workers``, default 0)
        init = bound(self, call.args, "worker_init_fn", call.position("worker_init_fn"))
        if init is UNKNOWN or call.fixes("worker_init_fn"):
            return
        exact = not isinstance(init, cst.BaseExpression) or _is_none(init)
        if not exact and not all_consts(value_of(self, init), lambda v: v is None):
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
        self.report(node, workers=literal_text(workers, self.file.module), edits=edits)


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
    fix = SAFE
    fix_message = "Pass generator={generator}"
    # "loader", "Loader" (any part of a word): an entry point that calls a loader factory
    triggers = LOADER_NAMES + tuple(sorted({name.rsplit(".", 1)[-1] for name in RANDOM_SAMPLERS})) + (FACTORY_WORD, FACTORY_WORD.title())
    whole_words = False
    uses = (KwargsDicts,)

    def visit_Call(self, node: cst.Call) -> None:
        call = loader_call(self, node)
        fixable = True
        if call is None:
            self._factory(node)
        if call is not None:
            shuffle = bound(self, call.args, "shuffle", call.position("shuffle"))
            if not isinstance(shuffle, cst.BaseExpression) or not call.own(shuffle):
                return
            if not any_const(value_of(self, shuffle), bool):
                return  # not shuffled on any path we can see
            if _own_sampler(self, call):
                return
            if call.fixes("generator"):
                return
            args, position = call.args, call.position("generator")
            fixable = call.accepts("generator")
            what, drawn = f"{call.short}(shuffle=True)", "the data order"
        else:
            qualified = self.qualify(node.func)
            if qualified not in RANDOM_SAMPLERS:
                return
            args, position = node.args, RANDOM_SAMPLERS[qualified]
            short = qualified.rsplit(".", 1)[-1]
            what = f"{short}(...)"
            drawn = "the split" if short == "random_split" else "the data order"
        generator = bound(self, args, "generator", position)
        if generator is UNKNOWN or (isinstance(generator, cst.BaseExpression) and not _is_none(generator)):
            return
        expression, imported, applicability = seeded_generator(self)
        edits: List[NodeEdit] = []
        if expression is not None and fixable:
            edits = add_keyword(self, node, generator, "generator", expression)
            if edits and imported is not None:
                edits.append(imported)
        self.report(node, what=what, drawn=drawn, generator=expression or "", edits=edits, applicability=applicability)


    def _factory(self, node: cst.Call) -> None:
        """An entry point's call of a project factory whose loader shuffles only because of
        this call's arguments (``build_loader(ds, shuffle=True)`` with ``shuffle=False`` by
        default): reported here, where that knowledge is (the factory's own file reports the
        loaders that shuffle whoever calls them)."""
        for built in factory_loaders(self, node):
            call = built.call
            shuffle = bind(cst_slots(call.args), "shuffle", call.position("shuffle"))
            generator = bind(cst_slots(call.args), "generator", call.position("generator"))
            if not isinstance(shuffle, cst.Arg) or generator is UNKNOWN:
                continue
            if isinstance(generator, cst.Arg) and not self._none_here(built, generator.value, node):
                continue
            if any_const(built.values.of(shuffle.value, built.chain), bool):
                continue  # shuffled whoever calls it: the factory's own finding
            if not isinstance(shuffle.value, cst.Name):
                continue
            given = bind_parameter(built.function, shuffle.value.value, node.args)
            if isinstance(given, cst.Arg) and any_const(value_of(self, given.value), bool):
                name = built.function.name.value
                self.report(node, what=f"{name}(...) (its {call.short}(shuffle=True))", drawn="the data order", generator="")
                return


    def _none_here(self, built, value: cst.BaseExpression, node: cst.Call) -> bool:  # type: ignore[no-untyped-def]
        """``value`` in the factory is ``None`` for this call: ``None``, or a parameter this
        call leaves at its default ``None`` or passes ``None``."""
        if _is_none(value):
            return True
        if not isinstance(value, cst.Name):
            return False
        given = bind_parameter(built.function, value.value, node.args)
        if given is MISSING:
            param = next((p for p in built.function.params.params if p.name.value == value.value), None)
            return param is not None and param.default is not None and _is_none(param.default)
        return isinstance(given, cst.Arg) and all_consts(value_of(self, given.value), lambda v: v is None)


def _own_sampler(rule: Rule, call: LoaderCall) -> bool:
    """The loader shuffles with a seeded sampler of its own (DGL's ``use_ddp=True``), or may."""
    keyword = OWN_SAMPLER_KEYWORD.get(call.qualified)
    if keyword is None:
        return False
    given = bound(rule, call.args, keyword, call.position(keyword))
    if given is MISSING:
        return False
    return given is UNKNOWN or not all_consts(value_of(rule, given), lambda v: not v)


def seeded_generator(rule: Rule) -> Tuple[Optional[str], Optional[NodeEdit], str]:
    """The ``generator=`` a fix passes, the import it needs, and how safe it is.

    The generator follows the seed the program already gives torch, so ``--seed 1`` and
    ``--seed 2`` still give different orders and each rank of a ``seed + rank`` script keeps
    its own: ``make_generator()`` (which defaults to that seed) in an entry point, or, without
    repro-lint, ``torch.Generator().manual_seed(torch.initial_seed())``. The configured
    ``seed`` is written only where nothing seeds torch on the entry point's path and RPL101,
    whose fix inserts the seeding block in the same run, is not selected. A module
    that is not an entry point gets only the torch form, as an unsafe fix: it changes the
    order for every caller, and it may not start to depend on repro-lint."""
    file = rule.file
    settings = file.settings
    entry = file.is_entry_point
    seeded = (
        not entry
        or UnseededTorch.code in file.codes  # its setup block seeds torch in the same fix
        or file.project.entry_summary(file.path, file.source).seeds("torch")
    )
    seed = "" if seeded else str(settings.seed)
    if entry and file.may_import_runtime:
        usable, imported = runtime_name(rule, "make_generator")
        return (f"make_generator({seed})", imported, SAFE) if usable else (None, None, SAFE)
    torch = file.names.local_name("torch")
    if torch is None:
        return None, None, SAFE  # no name for torch here: the finding has no fix
    expression = f"{torch}.Generator().manual_seed({seed or f'{torch}.initial_seed()'})"
    return expression, None, SAFE if entry else UNSAFE


class DistributedSamplerWithoutSetEpoch(Rule):
    code = "RPL304"
    name = "distributed-sampler-without-set-epoch"
    message = (
        "DistributedSampler shuffles with seed + epoch, but set_epoch is never called in this module "
        "(or anywhere in the project), so every epoch repeats the same order: call "
        "sampler.set_epoch(epoch) at the start of each epoch"
    )
    triggers = ("DistributedSampler",)
    whole_words = True
    uses = (KwargsDicts,)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.samplers: List[cst.Call] = []
        self.sets_epoch = False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "set_epoch":
            self.sets_epoch = True
            return
        if self.qualify(func) not in DISTRIBUTED_SAMPLERS:
            return
        shuffle = bound(self, node.args, "shuffle", DISTRIBUTED_SAMPLER_SHUFFLE_POSITION)
        if isinstance(shuffle, cst.BaseExpression) and is_false(shuffle):
            return
        self.samplers.append(node)

    def leave_Module(self, node: cst.Module) -> None:
        if self.sets_epoch or not self.samplers:
            return
        if self.file.project.any_file_mentions("set_epoch("):
            return
        for sampler in self.samplers:
            self.report(sampler)
