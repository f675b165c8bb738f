"""Determinism switches and backend flags (RPL2xx)."""

from __future__ import annotations

import difflib
from typing import Iterator, List, Optional, Tuple

from .._lazy import cst
from ..catalog import (
    DEBUG_MODE,
    USE_DETERMINISTIC,
    BACKEND_ATTRIBUTES,
    BACKEND_FLAGS,
    CUBLAS_CHECK_REMOVED,
    CUBLAS_WORKSPACE_VALUES,
    CUDA_STARTERS,
    CUDNN_FLAGS_PARAMS,
    DEVICE_METHODS,
    HCCL_DETERMINISTIC_VALUES,
    HCCL_FALSY,
    HCCL_TRUTHY,
    INIT_PROCESS_GROUP,
    PROCESS_GROUP_ENV,
    START_ONLY_ENV,
    TRAINER_KEYWORD_DICTS,
    TRAINERS_WITH_BENCHMARK,
    TRAINERS_WITH_DETERMINISTIC,
    device_named,
)
from ..classify import switch_effect, trainer_built
from ..syntax import CstArgs, assigned_pairs, int_value, string_value
from ..diagnostics import SAFE, UNSAFE
from ..names import dotted_name
from ..noqa import tool_directives
from ..values import OPEN, Const, any_const
from .base import KwargsDicts, NodeEdit, Rule, ValueScan, argument, enclosing_statement, environ_writes, is_false, is_true, keyword_arg, value_of

CUDNN = "torch.backends.cudnn"

#: the last names of the classes whose ``benchmark`` keyword RPL201 reads: the Trainers, and
#: what builds one from a dict of its keywords (``LightningCLI(trainer_defaults=...)``)
_BENCHMARK_CLASSES = frozenset(name.rsplit(".", 1)[-1] for name in (*TRAINERS_WITH_BENCHMARK, *TRAINER_KEYWORD_DICTS))
#: the last names of the calls RPL201 reads: those, ``cudnn.flags`` and ``setattr``
_BENCHMARK_CALLS = _BENCHMARK_CLASSES | {"flags", "setattr"}


def assigned_attributes(node: cst.Assign) -> Iterator[Tuple[cst.Attribute, Optional[cst.BaseExpression]]]:
    """The attributes an assignment sets, each with its value (:func:`assigned_pairs`)."""
    for target, value in assigned_pairs(node):
        if isinstance(target, cst.Attribute):
            yield target, value


class CudnnBenchmarkEnabled(Rule):
    code = "RPL201"
    name = "cudnn-benchmark-enabled"
    message = (
        "cudnn.benchmark = True lets cuDNN pick convolution algorithms by timing them, so runs differ: "
        "set torch.backends.cudnn.benchmark = False"
    )
    fix = SAFE
    fix_message = "Set cudnn.benchmark to False"
    triggers = ("benchmark", "cudnn")  # cudnn.flags(enabled, benchmark, ...) takes it by position
    whole_words = True
    uses = (KwargsDicts,)  # a Trainer's keywords in a dict (LightningCLI's trainer_defaults)

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        # ``cudnn.benchmark = True`` sets an attribute of that name on an imported name; a call
        # it reads is named so (the callee's or its import's last name); ``super().__init__(
        # benchmark=True)`` builds the library class a class of the module derives from
        return (
            facts.sets_attribute("benchmark")
            or any(map(facts.calls, _BENCHMARK_CALLS))
            or any(base.rsplit(".", 1)[-1] in _BENCHMARK_CLASSES for bases in facts.bases.values() for base, _ in bases)
        )

    def _flip(self, value: cst.CSTNode) -> Tuple[List[NodeEdit], Optional[str]]:
        """Report and flip ``value`` to False. A comment at the end of the line described the
        old value (``# faster convolutions``) and would now be wrong: the fix drops it when the
        line holds this statement alone, and is unsafe otherwise. The parts of the comment that
        instruct a tool (``# type: ignore``, ``# noqa: E501``) stay."""
        edits = [self.replace(value, "False")]
        applicability = None
        stmt = enclosing_statement(self.file.ancestors)
        trailing = stmt.trailing_whitespace if stmt is not None else None
        comment = trailing.comment.value if trailing is not None and trailing.comment is not None else None
        kept = tool_directives(comment) if comment is not None else None
        if stmt is not None and trailing is not None and comment is not None and kept != comment:
            if len(stmt.body) == 1 and "\n" not in self.file.code_for(stmt.body[0]).rstrip():
                edits.append(NodeEdit("replace", f"{trailing.whitespace.value}{kept}\n" if kept else "\n", trailing))
            else:
                applicability = UNSAFE
        return edits, applicability

    def _on(self, value: cst.BaseExpression) -> bool:
        """True, or a value that is True on the default path (a parameter defaulting to True,
        an option whose default is True); other run-time values are the user's choice."""
        return is_true(value) or any_const(value_of(self, value), lambda v: v is True)

    def _flip_literal(self, value: cst.BaseExpression) -> Tuple[List[NodeEdit], Optional[str]]:
        """The fix flips a literal True; a value true only on the default path has no fix (the
        user's other paths keep their choice), nor a literal set only where an option asks
        for it (see :meth:`_option_guard`)."""
        return self._flip(value) if is_true(value) and self._option_guard() is None else ([], None)

    def _option_guard(self) -> Optional[bool]:
        """``if args.benchmark: cudnn.benchmark = True`` is ``cudnn.benchmark = args.benchmark``
        written as a branch: the user's choice where the option is. For the ``if``s around the
        node (in its function) whose branch holding it is taken only where a setting says so
        (:func:`_option_reads`: ``args.benchmark``, ``cfg.get("benchmark")``, ``not fast``, one
        side of an ``and``; not ``torch.cuda.is_available()``, which asks the machine): False
        when the default path does not take such a branch, or takes it on a value the program
        does not fix (a parameter, a config read); True when the setting is on there
        (reported, no fix: the other paths keep the user's choice); None when there is none."""
        ancestors = self.file.ancestors
        values = self.file.analysis(ValueScan).values
        on = None
        for index in range(len(ancestors) - 1, 0, -1):
            node = ancestors[index - 1]
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                break
            if not isinstance(node, cst.If) or ancestors[index] is not node.body:
                continue
            for read in _option_reads(node.test):
                truth = values.truth(read, ancestors[:index])
                if truth is None:
                    found = value_of(self, read)
                    if found is not None and any(c is not OPEN and not isinstance(c, Const) and not _option_reads(c) for c in found):
                        continue  # what the program computes (``on = torch.cuda.is_available()``)
                    truth = any_const(found, bool)
                if not truth:
                    return False
                on = True
        return on

    def visit_Assign(self, node: cst.Assign) -> None:
        for target, value in assigned_attributes(node):
            if target.attr.value == "benchmark" and self.qualify(target.value) == CUDNN and value is not None and self._on(value):
                if is_true(value) and self._option_guard() is False:
                    continue  # set only where the user's option asks for it
                edits, applicability = self._flip_literal(value)
                self.report(target, edits=edits, applicability=applicability)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func) or self._base_built(node)
        if qualified is None:
            return
        if qualified == f"{CUDNN}.flags":
            arg = argument(node, "benchmark", CUDNN_FLAGS_PARAMS.index("benchmark"))
        elif qualified in TRAINERS_WITH_BENCHMARK:
            arg = argument(node, "benchmark")
            if arg is None:
                # ``pl.Trainer(**train_params)`` with ``train_params["benchmark"] = True``
                value = CstArgs(node, self.file.analysis(KwargsDicts).expand).node("benchmark", None)
                if isinstance(value, cst.BaseExpression) and self._on(value):
                    self.report(value, edits=[self.replace(value, "False")] if is_true(value) else [])
                return
        else:
            self._trainer_dict(qualified, node)
            return
        if arg is not None and self._on(arg.value):
            edits, applicability = self._flip_literal(arg.value)
            self.report(arg, edits=edits, applicability=applicability)

    def _base_built(self, node: cst.Call) -> Optional[str]:
        """For ``super().__init__(...)`` in a class whose first base is a library class
        (``class CollieTrainer(Trainer)``): that class, built with these arguments."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__" and isinstance(func.value, cst.Call)):
            return None
        if not (isinstance(func.value.func, cst.Name) and func.value.func.value == "super"):
            return None
        owner = next((n for n in reversed(self.file.ancestors) if isinstance(n, cst.ClassDef)), None)
        return self.qualify(owner.bases[0].value) if owner is not None and owner.bases else None

    def _trainer_dict(self, qualified: str, node: cst.Call) -> None:
        """``LightningCLI(trainer_defaults={"benchmark": True})`` builds ``Trainer(benchmark=True)``."""
        built = trainer_built(qualified, CstArgs(node, self.file.analysis(KwargsDicts).expand))
        if built is None or built[0] not in TRAINERS_WITH_BENCHMARK:
            return
        value = built[1].node("benchmark", None)
        if isinstance(value, cst.BaseExpression) and self._on(value):
            self.report(value, edits=[self.replace(value, "False")] if is_true(value) else [])

    def visit_Expr(self, node: cst.Expr) -> None:
        # setattr(torch.backends.cudnn, "benchmark", True)
        call = node.value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "setattr"):
            return
        if len(call.args) != 3 or any(a.keyword or a.star for a in call.args):
            return
        obj, attr, value = (a.value for a in call.args)
        if string_value(attr) == "benchmark" and is_true(value) and self.qualify(obj) == CUDNN:
            edits, applicability = self._flip(value)
            self.report(call, edits=edits, applicability=applicability)


def _option_reads(test: object) -> List[cst.BaseExpression]:
    """The parts of an ``if`` test that must hold for its branch and that read a setting:
    the test itself when it is one (``benchmark``, ``args.benchmark``, ``self.cfg.fast``,
    ``cfg["benchmark"]``, ``cfg.get("benchmark")``, ``not args.fast``), else such operands of an
    ``and``; never a call that asks the machine (``torch.cuda.is_available()``) or a comparison."""
    if isinstance(test, cst.BooleanOperation):
        return _option_reads(test.left) + _option_reads(test.right) if isinstance(test.operator, cst.And) else []
    inner = test.expression if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) else test
    if isinstance(inner, cst.Call):
        func = inner.func
        reads = isinstance(func, cst.Attribute) and func.attr.value == "get" and bool(inner.args) and string_value(inner.args[0].value) is not None
    elif isinstance(inner, cst.Subscript):
        reads = len(inner.slice) == 1 and isinstance(inner.slice[0].slice, cst.Index) and string_value(inner.slice[0].slice.value) is not None
    else:
        reads = isinstance(inner, (cst.Name, cst.Attribute)) and dotted_name(inner) is not None and dotted_name(inner) not in ("True", "False", "None")
    return [test] if reads else []  # type: ignore[list-item]


def suggest(attribute: str, module: str) -> Optional[str]:
    matches = difflib.get_close_matches(attribute, sorted(BACKEND_FLAGS[module]), n=1, cutoff=0.6)
    return matches[0] if matches else None


class UnknownBackendFlag(Rule):
    code = "RPL205"
    name = "unknown-backend-flag"
    message = "{module} has no attribute '{attr}': the assignment {effect}; {advice}"
    fix = UNSAFE
    fix_message = "Assign {module}.{suggestion} instead"
    triggers = tuple(sorted({module.rsplit(".", 1)[-1] for module in BACKEND_ATTRIBUTES}))
    whole_words = True

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        # an attribute set on a backend module named as itself (``torch.backends.cudnn``, ``from
        # torch.backends import cudnn``), or bound under another name (``import ... as cb``, here
        # or in a module star-imported)
        return bool(facts.star_imports) or any(facts.sets_attribute_on(name) or name in facts.rebound for name in cls.triggers)

    def _check(self, target: cst.Attribute) -> Optional[Tuple[str, str]]:
        module = self.qualify(target.value)
        if module not in BACKEND_ATTRIBUTES:
            return None
        attr = target.attr.value
        if attr in BACKEND_ATTRIBUTES[module] or attr.startswith("_"):
            return None
        return module, attr

    def visit_Assign(self, node: cst.Assign) -> None:
        for target, _ in assigned_attributes(node):
            found = self._check(target)
            if found is None:
                continue
            module, attr = found
            effect = "raises AttributeError" if module.endswith("matmul") else "is accepted silently and changes nothing"
            suggestion = suggest(attr, module)
            if suggestion:
                advice = f"did you mean {module}.{suggestion}?"
                edits = [self.replace(target.attr, suggestion)]
            else:
                flags = ", ".join(sorted(BACKEND_FLAGS[module]))
                advice = f"use one of {flags}"
                edits = []
            self.report(
                target, module=module, attr=attr, effect=effect, advice=advice,
                suggestion=suggestion or "", edits=edits,
            )


# -- deterministic mode ----------------------------------------------------------------------



def enables_determinism(qualified: Optional[str], call: cst.Call) -> bool:
    """Does this call turn deterministic algorithms on, with a literal argument? (The
    classifier's decision, :func:`~repro_lint.classify.switch_effect`.)"""
    return switch_effect(qualified, CstArgs(call)) == ("deterministic", True)


def string_literal(node: cst.CSTNode, text: str) -> str:
    """``text`` as a string literal written with the quotes of ``node`` (a string literal)."""
    quote = node.quote if isinstance(node, cst.SimpleString) else '"'
    return f"{quote}{text}{quote}"


class CublasWorkspaceConfigMissing(Rule):
    code = "RPL203"
    name = "cublas-workspace-config-missing"
    message = (
        "deterministic algorithms are enabled but CUBLAS_WORKSPACE_CONFIG is never set: with torch "
        "{version} on CUDA >= 10.2, cuBLAS ops (torch.mm, nn.Linear) raise RuntimeError; set "
        "os.environ[\"CUBLAS_WORKSPACE_CONFIG\"] = \":4096:8\" before any CUDA work, or in the launcher"
    )
    triggers = ("use_deterministic_algorithms", "set_deterministic_debug_mode")
    whole_words = True

    def visit_Call(self, node: cst.Call) -> None:
        version = self.file.settings.torch_version
        if version >= CUBLAS_CHECK_REMOVED:
            return  # torch 2.10 removed the check: cuBLAS is deterministic per stream without it
        if not enables_determinism(self.qualify(node.func), node):
            return
        if "CUBLAS_WORKSPACE_CONFIG" in self.file.source:
            return
        if self.file.project.mentioned_with(self.file.path, "CUBLAS_WORKSPACE_CONFIG"):
            return
        self.report(node, version=f"{version[0]}.{version[1]}")


class CublasWorkspaceConfigInvalid(Rule):
    code = "RPL204"
    name = "cublas-workspace-config-invalid"
    message = (
        "CUBLAS_WORKSPACE_CONFIG={value!r} does not make cuBLAS deterministic: use \":4096:8\" "
        "(about 24 MiB more GPU memory) or \":16:8\" (may be slower)"
    )
    fix = SAFE
    fix_message = 'Set CUBLAS_WORKSPACE_CONFIG to ":4096:8"'
    triggers = ("CUBLAS_WORKSPACE_CONFIG",)
    whole_words = True

    def _check(self, node: cst.CSTNode) -> None:
        for name, value, _anchor in environ_writes(self.qualify, node, self.file.module_constants):
            if name != "CUBLAS_WORKSPACE_CONFIG" or value is None:
                continue
            text = string_value(value)
            if text is None or text in CUBLAS_WORKSPACE_VALUES:
                continue  # dynamic values are the user's choice
            self.report(value, value=text, edits=[self.replace(value, string_literal(value, ":4096:8"))])

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)


def starts_accelerator(qualified: Optional[str], call: cst.Call) -> Optional[str]:
    """A short description if ``call`` starts CUDA/NPU work or a process group, else None."""
    if qualified in CUDA_STARTERS:
        return f"{qualified.rsplit('.', 1)[-1]}()"
    func = call.func
    if isinstance(func, cst.Attribute) and qualified is None:
        method = func.attr.value
        if method in DEVICE_METHODS:
            return f".{method}()"
        if method == "to":
            target = argument(call, "device", 0)
            if target is not None and _names_accelerator(target.value):
                return ".to(device)"
    device = keyword_arg(call, "device")
    if device is not None and _names_accelerator(device.value):
        return "a tensor created on the device"
    return None


def _names_accelerator(node: cst.CSTNode) -> bool:
    """A device string naming an accelerator: ``"cuda:0"``, or ``torch.device("npu", 0)``."""
    text = string_value(node)
    if text is None and isinstance(node, cst.Call) and node.args:
        func = node.func
        if isinstance(func, (cst.Attribute, cst.Name)) and (
            (func.attr.value if isinstance(func, cst.Attribute) else func.value) == "device"
        ):
            text = string_value(node.args[0].value)
    return text is not None and device_named([text]) is not None


class EnvSetAfterCudaInit(Rule):
    code = "RPL206"
    name = "env-set-after-cuda-init"
    message = (
        "{var} is set after `{call}` already started {started}, and {reason}: this assignment has "
        "no effect; set it before that point (top of the script) or in the launcher"
    )
    triggers = tuple(START_ONLY_ENV)
    whole_words = True

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: per scope (module, then each enclosing function): the first call that started
        #: CUDA/NPU work, and the first that started a process group
        self.device: List[Optional[cst.Call]] = [None]
        self.group: List[Optional[cst.Call]] = [None]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.device.append(None)
        self.group.append(None)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.device.pop()
        self.group.pop()

    def _check(self, node: cst.CSTNode) -> None:
        if self.device[-1] is None:
            return
        for name, _value, anchor in environ_writes(self.qualify, node, self.file.module_constants):
            if name not in START_ONLY_ENV:
                continue
            if name in PROCESS_GROUP_ENV:
                call, started = self.group[-1], "a process group"
            else:
                call, started = self.device[-1], "CUDA/NPU work"
            if call is not None:
                self.report(anchor, var=name, call=self._short(call), started=started, reason=START_ONLY_ENV[name])

    def _short(self, call: cst.Call) -> str:
        code = " ".join(self.file.code_for(call).split())
        return code if len(code) <= 40 else code[:37] + "..."

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)
        qualified = self.qualify(node.func)
        if self.device[-1] is None and starts_accelerator(qualified, node) is not None:
            self.device[-1] = node
        if self.group[-1] is None and qualified == INIT_PROCESS_GROUP:
            self.group[-1] = node


class DeterministicWarnOnly(Rule):
    code = "RPL207"
    name = "deterministic-warn-only"
    default = False
    message = (
        "{call} only warns when an op has no deterministic implementation, so nondeterministic "
        "ops still run: remove {arg} once the warnings are dealt with"
    )
    fix = UNSAFE
    fix_message = "Make nondeterministic ops raise ({replacement})"
    triggers = ("warn_only", "set_deterministic_debug_mode", "deterministic")

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified == USE_DETERMINISTIC:
            mode = argument(node, "mode", 0)
            warn = keyword_arg(node, "warn_only")
            if warn is None or not is_true(warn.value) or (mode is not None and is_false(mode.value)):
                return
            self.report(
                warn, call="use_deterministic_algorithms(True, warn_only=True)", arg="warn_only=True",
                replacement="warn_only=False", edits=[self.replace(warn.value, "False")],
            )
        elif qualified == DEBUG_MODE:
            mode = argument(node, "debug_mode", 0)
            if mode is None:
                return
            value = int_value(mode.value)
            if value == 1 or string_value(mode.value) == "warn":
                new = "2" if value == 1 else string_literal(mode.value, "error")
                self.report(
                    mode, call=f"set_deterministic_debug_mode({self.file.code_for(mode.value)})",
                    arg="the warn level (use \"error\")", replacement=new, edits=[self.replace(mode.value, new)],
                )
        elif qualified in TRAINERS_WITH_DETERMINISTIC:
            arg = keyword_arg(node, "deterministic")
            if arg is not None and string_value(arg.value) == "warn":
                self.report(
                    arg, call='Trainer(deterministic="warn")', arg='"warn" (use deterministic=True)',
                    replacement="deterministic=True", edits=[self.replace(arg.value, "True")],
                )


class HcclDeterministicInvalid(Rule):
    code = "RPL208"
    name = "hccl-deterministic-invalid"
    message = (
        "HCCL_DETERMINISTIC={value!r} is not a value torch_npu accepts: it lower-cases the value and "
        "compares it with \"true\", so collectives stay nondeterministic; {advice}"
    )
    fix = SAFE
    fix_message = "Set HCCL_DETERMINISTIC to {new}"
    triggers = ("HCCL_DETERMINISTIC",)
    whole_words = True

    def _check(self, node: cst.CSTNode) -> None:
        for name, value, _anchor in environ_writes(self.qualify, node, self.file.module_constants):
            if name != "HCCL_DETERMINISTIC" or value is None:
                continue
            text = string_value(value)
            if text is None or text.lower() in HCCL_DETERMINISTIC_VALUES:
                continue
            lowered = text.strip().lower()
            if lowered in HCCL_FALSY:
                new, advice = "false", 'write "false" to turn it off, or "true" for deterministic collectives'
            elif lowered in HCCL_TRUTHY:
                new, advice = "true", 'write "true"'
            else:
                new, advice = None, 'write "true" (or "strict", which CANN documents for strict reduction order)'
            edits = [self.replace(value, string_literal(value, new))] if new else []
            self.report(value, value=text, advice=advice, new=f'"{new}"', edits=edits)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)
