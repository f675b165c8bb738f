"""Nondeterministic ops, read from the op catalog (RPL4xx).

It is one module because both op rules read a call the same way: which catalog entries it is,
with their argument conditions, on which device and with autograd on or off; split, each half
would reach into the other's helpers."""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple
from pathlib import Path

from .._lazy import cst
from ..catalog import LIGHTNING_EVAL_STEPS, PARTIALS, builds_on_torch
from ..opcatalog import (
    ARRAY_LIBRARIES,
    ARRAY_METHODS,
    BACKWARD,
    DEFAULT_DEVICE_SETTERS,
    EXPORT_TESTS,
    DETERMINISTIC,
    FORWARD,
    NO_GRAD_CONTEXTS,
    OPS,
    RAISES,
    Condition,
    Op,
    FACTORIES,
    FLOATING_DTYPES,
    INTEGER_DTYPES,
    RESHAPES,
    AXIS_SWAPS,
    EINOPS_PATTERNS,
    einops_output_rank,
    index_by_name,
    spatial_rank,
    may_match,
    op_names,
)
from ..values import INTEGER, NUMPY, Const, any_const, dict_entries, is_dict_display
from .base import Analysis, Rule, ValueScan, argument, has_star_kwargs, keyword_arg, receiver_root, value_of
from .flags import enables_determinism
from ..classify import is_known
from ..facts import imported_modules
from ..syntax import MISSING, UNKNOWN, cst_generic_origin, cst_literal, int_value, string_value, unreachable

FUNCTIONS, METHODS, MODULES = index_by_name()


def _is_number(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))


#: library constants that are numbers (a scalar fill value, ``x.scatter(-1, idx, math.inf)``)
_NUMBER_CONSTANTS = frozenset({"math.inf", "math.nan", "math.pi", "math.e", "numpy.inf", "numpy.nan", "numpy.pi", "torch.inf", "torch.nan"})


def _numeric(rule: Rule, node: cst.BaseExpression) -> bool:
    """A value that is a number on every path we see: ``float('-inf')``, ``-math.inf``, a name
    bound to one, a parameter whose default and every call's argument is one."""
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, (cst.Name, cst.Attribute)) and rule.qualify(node) in _NUMBER_CONSTANTS:
        return True
    found = value_of(rule, node)
    return bool(found) and all(isinstance(c, Const) and isinstance(c.value, (int, float)) for c in found)  # type: ignore[union-attr]


def _global_size_value(rule: Rule, node: cst.BaseExpression) -> bool:
    """A tuple element that is 1 on every path seen (``self.adaptive_pool_size`` from a
    parameter defaulting to 1 that no call gives another value)."""
    if isinstance(node, (cst.Tuple, cst.List)) or isinstance(node, cst.StarredElement):
        return False
    found = value_of(rule, node)
    return bool(found) and all(isinstance(c, Const) and c.value == 1 and not isinstance(c.value, bool) for c in found)  # type: ignore[union-attr]


def _triggers(category: str, forward_only: bool) -> Tuple[str, ...]:
    words = set()
    for op in OPS:
        if not any(span.category == category for span in op.behaviour):
            continue
        if forward_only and op.passes != FORWARD:
            continue
        words.update(op.methods)
        words.update(name.rsplit(".", 1)[-1] for name in op.functions + op.modules)
    return tuple(sorted(words))


# -- matching calls against the catalog (shared by RPL401 and RPL402) ------------------------



class _Matches(Analysis):
    """What :func:`matched` found for each call of the file: RPL401 and RPL402 both ask it
    of every call, at the same node, and the answer depends only on the file."""

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.found: Dict[int, Tuple[List[Op], str]] = {}
        self._array_module: Optional[bool] = None

    def array_module(self) -> bool:
        """Does the module import an array library (:data:`ARRAY_LIBRARIES`) and no library built
        on torch (:func:`~repro_lint.catalog.builds_on_torch`: ``torch``, ``torchvision``,
        ``pytorch_lightning``, ``transformers``)? The project's own package counts for what its
        modules import, not for its name (stable-baselines3's ``results_plotter``, which imports
        pandas and ``stable_baselines3.common.monitor``)."""
        if self._array_module is None:
            roots = {name.split(".", 1)[0] for name in imported_modules(Path(self.file.path), self.file.source)}
            self._array_module = not roots.isdisjoint(ARRAY_LIBRARIES) and not any(
                builds_on_torch(root) and not self._own_package(root) for root in roots
            )
        return self._array_module

    def _own_package(self, root: str) -> bool:
        """Is ``root`` the package of the module's own file, found in the project, and not named
        for torch (torch's own modules, torchvision's, deal in tensors)?"""
        if self.file.module_name.split(".", 1)[0] != root or "torch" in root:
            return False
        project = self.file.project
        with project.importing(self.file.path):
            return project.resolve_module(root) is not None


def matched(rule: Rule, node: cst.Call) -> Tuple[List[Op], str]:
    """The catalog entries this call is, with their argument conditions checked, and how the
    call is named in messages (``F.interpolate``, ``Tensor.index_add_``): asked once per call
    (:class:`_Matches`)."""
    found = rule.file.analysis(_Matches).found
    key = id(node)
    if key not in found:
        found[key] = _matched(rule, node)
    return found[key]


def _matched(rule: Rule, node: cst.Call) -> Tuple[List[Op], str]:
    func = node.func
    qualified = rule.qualify(func)
    if qualified is not None and qualified not in FUNCTIONS and qualified not in MODULES and not is_known(qualified):
        # a project module's other name for one (``from detectron2.layers import interpolate``)
        qualified = rule.file.project.library_name(qualified) or qualified
    if qualified in PARTIALS and node.args and node.args[0].keyword is None and not node.args[0].star:
        # ``partial(F.interpolate, mode="bicubic")``: the op, with the arguments the partial binds
        bound_op = rule.qualify(node.args[0].value)
        if bound_op in FUNCTIONS:
            node = node.with_changes(func=node.args[0].value, args=node.args[1:])
            func, qualified = node.func, bound_op
    if qualified in FUNCTIONS:
        form, candidates = "function", FUNCTIONS[qualified]
    elif qualified in MODULES:
        form, candidates = "module", MODULES[qualified]
    elif qualified is None and isinstance(func, cst.Attribute) and func.attr.value in METHODS:
        root = receiver_root(func.value)
        owner = rule.qualify(root) if isinstance(root, (cst.Name, cst.Attribute)) else None
        if owner is not None and owner.split(".", 1)[0] not in ("torch", "torch_npu") and owner not in EINOPS_PATTERNS:
            return [], ""  # np.arange(3).cumsum(), df.median(axis=0): not a tensor
        values = rule.file.analysis(ValueScan).values
        kind = values.kind(func.value, rule.file.ancestors, rule.qualify)
        if kind == NUMPY:
            return [], ""  # arr.cumsum() on an array made by np.*, .numpy(), .tolist() or a list
        if kind is None and func.attr.value in ARRAY_METHODS and rule.file.analysis(_Matches).array_module():
            return [], ""  # df.steps.cumsum() in a module that imports pandas or NumPy, and no torch
        if kind is None and func.attr.value in rule.file.project.named_class_methods(rule.file.path, rule.file.source):
            return [], ""  # v.median(200) where the module names a project class with its own median()
        cls = values.own_object(func.value, rule.file.ancestors)
        if cls is not None and not any((rule.qualify(b.value) or "").endswith(".Tensor") for b in cls.bases):
            return [], ""  # self.scatter(inputs, ...): the class's own method (or DataParallel's), not a tensor's
        form, candidates = "method", METHODS[func.attr.value]
    else:
        return [], ""
    if form == "method":
        called = f"Tensor.{func.attr.value}"  # type: ignore[union-attr]
    else:
        called = (qualified or "").replace("torch.nn.functional.", "F.").replace("torch.nn.", "nn.")
    found = [op for op in candidates if op.condition is None or _holds(rule, op.condition, form, node)]
    if found and all(op.device == "CUDA" for op in found) and _on_cpu(rule, form, node):
        return [], ""  # torch.zeros(n).index_add_(...): a CUDA-only hazard on a tensor made on the CPU
    return (found, called) if not found or not unreachable(rule.file.ancestors) else ([], "")  # (below a ``return``: never runs)


def _on_cpu(rule: Rule, form: str, call: cst.Call) -> bool:
    """Is the tensor the op works on (a method's receiver, a function's first argument) visibly
    made on the CPU (:meth:`Values.made_on_cpu`), in a project that never moves the default
    device of new tensors (``torch.set_default_device``, ``set_default_tensor_type``)?"""
    if form == "method":
        subject = call.func.value  # type: ignore[attr-defined]
    elif form == "function" and call.args and call.args[0].keyword is None and not call.args[0].star:
        subject = call.args[0].value
    else:
        return False
    values = rule.file.analysis(ValueScan).values
    if not values.made_on_cpu(subject, rule.file.ancestors, rule.qualify):
        return False
    project = rule.file.project
    return not any(project.any_file_mentions(setter) or setter in rule.file.source for setter in DEFAULT_DEVICE_SETTERS)

def display(op: Op, called: str) -> str:
    """How the message names the op: the name called, with the variant when it matters."""
    if op.condition is not None and op.condition.test in ("equals", "present", "tensor"):
        variant = op.name.split("(", 1)[1].rstrip(")") if "(" in op.name else ""
        if op.condition.test == "tensor":
            variant = "tensor src"
        return f"{called}({variant})" if variant else called
    return called

def _holds(rule: Rule, cond: Condition, form: str, call: cst.Call) -> bool:
    return _holds_one(rule, cond, form, call) and (cond.also is None or _holds(rule, cond.also, form, call))


def _holds_one(rule: Rule, cond: Condition, form: str, call: cst.Call) -> bool:
    # what a literal argument, or none, decides is the catalog's (Condition.decides), which
    # the module facts' op calls are read with too (opcatalog.may_match)
    arg = argument(call, cond.param, cond.position(form)) if cond.param else None
    unknown_args = arg is None and (has_star_kwargs(call) or any(a.star == "*" for a in call.args))
    if cond.test == "equals":
        if arg is None and unknown_args:
            # ``F.interpolate(x, **self.upsample_cfg)``: what the mappings passed give it
            given = _from_mappings(rule, call, cond.param, cond.default)
            return given is not None and any_const(given, lambda v: bool(cond.decides(v)))
        if arg is None:
            return bool(cond.decides(MISSING))
        # a literal, or what a parameter's default and the file's calls give (mode=mode)
        return any_const(value_of(rule, arg.value), lambda v: bool(cond.decides(v)))
    if cond.test == "present":
        return bool(cond.decides(MISSING if arg is None else cst_literal(arg.value)))
    if cond.test == "length":
        # a list or tuple display without starred parts: its length; else the condition's default
        value = arg.value if arg is not None else None
        if isinstance(value, (cst.Tuple, cst.List)) and not any(
            isinstance(e, cst.StarredElement) for e in value.elements
        ):
            return bool(cond.decides(tuple(UNKNOWN for _ in value.elements)))
        return bool(cond.decides(MISSING if value is None else UNKNOWN))
    if cond.test == "tensor":
        if keyword_arg(call, "value") is not None or arg is None:
            return False
        return not _is_number(arg.value) and not _numeric(rule, arg.value)
    if cond.test == "not_global":
        if arg is None:
            return bool(cond.decides(MISSING))
        value = arg.value
        if cond.decides(cst_literal(value)) is False:
            return False  # ``1``
        if isinstance(value, (cst.Tuple, cst.List)) and value.elements and all(
            int_value(e.value) == 1 or _global_size_value(rule, e.value) for e in value.elements
        ):
            return False  # ``(1, 1)``, or ``(size, size)`` with each element 1 on every path
        # a parameter whose default, and every call's argument, is 1 (``output_size=1``)
        found = value_of(rule, value)
        return not found or not all(_is_global_size(c) for c in found)
    if cond.test == "spatial":
        if form != "function" or not call.args or call.args[0].keyword or call.args[0].star:
            return False
        if arg is not None and cst_literal(arg.value) != "mean" and cst_literal(arg.value) != "sum":
            return False  # reduction="none", or a value we cannot read
        return _rank(rule, call.args[0].value) >= 3
    if cond.test == "floating":
        dtype = keyword_arg(call, "dtype")
        if dtype is not None:
            named = rule.qualify(dtype.value)
            if named in INTEGER_DTYPES:
                return False
            if named in FLOATING_DTYPES:
                return True  # a floating scan, whatever the input's dtype
        subject = call.func.value if form == "method" and isinstance(call.func, cst.Attribute) else (
            call.args[0].value if call.args else None
        )
        if subject is None:
            return True
        return rule.file.analysis(ValueScan).values.kind(subject, rule.file.ancestors, rule.qualify) != INTEGER
    return False

def _is_global_size(candidate: Any) -> bool:
    """A value that is an output size of 1 (``1``, ``(1, 1)``): a global pool."""
    if isinstance(candidate, (cst.Tuple, cst.List)):
        return bool(candidate.elements) and all(int_value(e.value) == 1 for e in candidate.elements)
    if not isinstance(candidate, Const):
        return False
    value = candidate.value
    if isinstance(value, (tuple, list)):
        return bool(value) and all(v == 1 and not isinstance(v, bool) for v in value)
    return value == 1 and not isinstance(value, bool)


def _from_mappings(rule: Rule, call: cst.Call, name: str, default: Any) -> Optional[List[Any]]:
    """What the ``**mapping`` arguments of ``call`` give parameter ``name`` on the default path,
    from the dict displays and ``dict(...)`` calls each mapping may hold (as
    ``upsample_cfg=dict(mode="bilinear")`` assigned in ``__init__`` gives
    ``self.upsample_cfg``): the literal of its entry, or ``default`` where it has none. Values
    that are not such a display (a caller's argument) add nothing, as for a plain argument;
    None when no mapping is known (or a ``*args`` may pass it)."""
    if any(a.star == "*" for a in call.args):
        return None
    found: List[Any] = []
    for arg in call.args:
        if arg.star != "**":
            continue
        for candidate in value_of(rule, arg.value) or ():
            if not is_dict_display(candidate):
                continue  # a value we cannot read (what another caller passes): not a known one
            entries = dict_entries(candidate)
            if name not in entries:
                found.append(Const(default))
                continue
            literal = cst_literal(entries[name])
            if literal is not None:
                found.append(Const(literal))
    return found or None


def _rank(rule: Rule, node: cst.CSTNode, follow: bool = True) -> int:
    """The rank of a tensor expression when the call that makes it shows it (at least that
    rank, for a swap of two dimensions), else 0. A local name is followed (once) to what it
    may be bound to there, on any path: the least rank of those values (0 when one is not
    known: a parameter left as it is)."""
    if isinstance(node, cst.Name) and follow:
        found = rule.file.analysis(ValueScan).values.made_of(node, rule.file.ancestors) or ()
        return min((_rank(rule, c, follow=False) for c in found), default=0)
    if isinstance(node, cst.Subscript):
        # slicing keeps a dimension (``logits[:, :, :n]``), an index drops one, ``None`` adds one
        rank = _rank(rule, node.value, follow)
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                item = element.slice.value
                if isinstance(item, cst.Name) and item.value == "None":
                    rank += 1
                elif not isinstance(item, cst.Ellipsis):
                    rank -= 1
        return max(rank, 0)
    if not isinstance(node, cst.Call):
        return 0
    positional = [a for a in node.args if a.keyword is None]
    if any(a.star for a in positional):
        return 0
    if rule.qualify(node.func) in EINOPS_PATTERNS:
        pattern = string_value(positional[1].value) if len(positional) > 1 else None
        return einops_output_rank(pattern) if pattern is not None else 0
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    if (method in RESHAPES or method in AXIS_SWAPS) and rule.qualify(node.func) is None:
        shape: Sequence[Any] = positional
        if method in RESHAPES and len(positional) == 1 and isinstance(positional[0].value, (cst.Tuple, cst.List)):
            shape = positional[0].value.elements  # ``x.view((n, c, h, w))``
        return spatial_rank(method, [int_value(a.value) for a in shape])  # type: ignore[arg-type]
    if rule.qualify(node.func) in FACTORIES and positional:
        if isinstance(positional[0].value, (cst.Tuple, cst.List)):
            return len(positional[0].value.elements)
        shape = positional[:-1] if rule.qualify(node.func) == "torch.full" else positional
        return len(shape) if all(int_value(a.value) is not None or isinstance(a.value, cst.Name) for a in shape) else 0
    return 0

def _where(op: Op) -> str:
    return f"{op.device}, {op.passes} pass"


def _may_hold_ops(facts: Any, project: Any, path: str, wanted: Callable[[Op], bool]) -> bool:
    """Can a call of the module whose facts are ``facts`` be an op that ``wanted`` accepts, as
    :func:`matched` reads calls? Its calls of an op's name whose literal arguments do not rule
    that out (:func:`~repro_lint.opcatalog.may_match`), an op imported or aliased under another
    name, a star import that binds one, or a project function that stands for one
    (:meth:`~repro_lint.context.ProjectContext.library_name`)."""
    if may_match(facts.op_calls, wanted) or not facts.rebound.isdisjoint(op_names()):
        return True
    if facts.star_imports and any(name in FUNCTIONS or name in MODULES for name in project.star_library_names(path).values()):
        return True
    names = op_names()
    asked: Set[str] = set()  # (each name once: the same import is called in many functions)
    for body in (facts.module_body, facts.main_body, *facts.functions.values()):
        for name in body.imported:
            if name in asked or name.rsplit(".", 1)[-1] in names or name in FUNCTIONS or name in MODULES or is_known(name):
                continue  # asked already, recorded as an op call, or a library's own name
            asked.add(name)
            other = project.library_name(name)
            if other is not None and (other in FUNCTIONS or other in MODULES):
                return True
    return False


def _turns_grad_off(rule: Rule, node: cst.BaseExpression) -> bool:
    """Does ``node``, a ``with`` item or a decorator, turn autograd off (``torch.no_grad()``,
    ``@torch.inference_mode()``, ``torch.set_grad_enabled(False)``: :data:`NO_GRAD_CONTEXTS`)?"""
    call = node if isinstance(node, cst.Call) else None
    name = rule.qualify(call.func if call is not None else node)
    if name not in NO_GRAD_CONTEXTS:
        return False
    spec = NO_GRAD_CONTEXTS[name]
    if spec is None:
        return True
    param, position, off, default = spec
    given = argument(call, param, position) if call is not None else None
    value = cst_literal(given.value) if given is not None else default
    return value is off


def _without_grad(rule: Rule) -> bool:
    """Is the node being visited in a ``with`` block or a function decorated that turns autograd
    off, a Lightning evaluation step, or an ``if`` branch that runs only while the model is
    exported (:data:`~repro_lint.opcatalog.EXPORT_TESTS`)? Its callers decide the rest."""
    ancestors = rule.file.ancestors
    for index in range(len(ancestors) - 1, -1, -1):
        node = ancestors[index]
        if isinstance(node, cst.With):
            if any(_turns_grad_off(rule, item.item) for item in node.items):
                return True
        elif isinstance(node, cst.If):
            test = node.test
            inside = index + 1 < len(ancestors) and ancestors[index + 1] is node.body
            if inside and isinstance(test, cst.Call) and not test.args and rule.qualify(test.func) in EXPORT_TESTS:
                return True
        elif isinstance(node, cst.FunctionDef):
            owner = ancestors[index - 2] if index >= 2 else None  # (the class, around its body)
            if node.name.value in LIGHTNING_EVAL_STEPS and isinstance(owner, cst.ClassDef) and any(
                (rule.qualify(cst_generic_origin(base.value)) or "").endswith("LightningModule") for base in owner.bases
            ):
                return True  # ``test_step``: Lightning runs it under ``torch.no_grad()``
            return any(_turns_grad_off(rule, decorator.decorator) for decorator in node.decorators) or _grad_off_for_good(rule)
        elif isinstance(node, (cst.Lambda, cst.ClassDef)):
            return False
    return _grad_off_for_good(rule)


def _grad_off_for_good(rule: Rule) -> bool:
    """Does the module's own top level turn autograd off as a statement,
    ``torch.set_grad_enabled(False)`` (pytorch-pwc's ``run.py``), with nothing in it turning it
    on again (``set_grad_enabled(True)``, ``enable_grad``)? No gradient is recorded after it."""
    source = rule.file.source
    if "set_grad_enabled" not in source or "enable_grad" in source or re.search(r"set_grad_enabled\(\s*(True|mode=True)", source):
        return False
    return any(
        isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and (rule.qualify(small.value.func) or "").endswith(".set_grad_enabled")
        and _turns_grad_off(rule, small.value)
        for stmt in rule.file.module.body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body
    )


class NondeterministicOp(Rule):
    code = "RPL401"
    name = "nondeterministic-op"
    message = (
        "{op} is nondeterministic on {device} in the forward pass (parallel updates of the same "
        "element run in a varying order) and this project never enables deterministic algorithms: "
        "call torch.use_deterministic_algorithms(True) at startup, which switches it to a "
        "deterministic implementation (repro_lint.runtime.seed_everything does this)"
    )
    triggers = _triggers(DETERMINISTIC, forward_only=True)
    whole_words = True

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        version = settings.torch_version
        if not _may_hold_ops(facts, project, path, lambda op: op.category(version) == DETERMINISTIC and op.passes == FORWARD):
            return False
        # where the project turns deterministic algorithms on in a program that runs the module,
        # :meth:`leave_Module` reports nothing (asked once the entry points' summaries are known:
        # the survey's workers would compute them all)
        return not (project.prepared and project.enables_determinism(path))

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.found: List[Tuple[cst.Call, Op, str]] = []
        self.file_enables = False

    def visit_Call(self, node: cst.Call) -> None:
        if enables_determinism(self.qualify(node.func), node):
            self.file_enables = True
            return
        ops, called = matched(self, node)
        if not ops:
            return
        version = self.file.settings.torch_version
        if any(op.category(version) == RAISES for op in ops):
            return  # RPL402's
        for op in ops:
            if op.category(version) == DETERMINISTIC and op.passes == FORWARD:
                self.found.append((node, op, display(op, called)))
                return

    def leave_Module(self, node: cst.Module) -> None:
        if not self.found or self.file_enables or self.file.project.enables_determinism(self.file.path):
            return
        for call, op, shown in self.found:
            self.report(call, op=shown, device=op.device)


class OpWithoutDeterministicImplementation(Rule):
    code = "RPL402"
    name = "op-without-deterministic-implementation"
    message = (
        "{op} has no deterministic implementation ({where}): under "
        "torch.use_deterministic_algorithms(True) it raises RuntimeError, and without it results vary "
        "between runs; {advice}"
    )
    triggers = _triggers(RAISES, forward_only=False)
    whole_words = True

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        version = settings.torch_version
        return _may_hold_ops(facts, project, path, lambda op: op.category(version) == RAISES)

    def visit_Call(self, node: cst.Call) -> None:
        version = self.file.settings.torch_version
        ops, called = matched(self, node)
        for op in ops:
            if op.category(version) != RAISES:
                continue
            # (a layer runs where it is called: here, when built and called at once, ``Pool(3)(x)``)
            ancestors = self.file.ancestors
            runs_here = not called.rsplit(".", 1)[-1][:1].isupper() or (bool(ancestors) and isinstance(ancestors[-1], cst.Call) and ancestors[-1].func is node)
            if op.passes == BACKWARD and runs_here and _without_grad(self):
                # no gradient is recorded there: its backward pass never runs (a layer built
                # there, ``nn.AdaptiveAvgPool2d(2)``, runs where it is called)
                continue
            advice = op.alternative or (
                "there is no deterministic alternative: run it on CPU, or keep it and accept the "
                "variation (# noqa: RPL402)"
            )
            self.report(node, op=display(op, called), where=_where(op), advice=advice)
            return
