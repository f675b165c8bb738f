"""Seeding mistakes visible in one file (RPL104, RPL106-RPL109): environment and RNG objects
that cannot be seeded the way the code tries, device generators, RNG objects copied into
DataLoader workers, and seeds out of NumPy's range. The rules about an entry point's whole
execution path (RPL101-RPL103, RPL105, RPL202) are in :mod:`repro_lint.rules.seeding`."""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from .._lazy import cst
from .. import catalog
from ..diagnostics import SAFE
from ..names import dotted_name
from ..syntax import cst_generic_origin, cst_literal, int_value, string_value
from .base import Rule, ValueScan, argument, environ_writes, keyword_arg, short
from ..children import CALLS, DEFINITIONS, syntax_children


# -- RPL104 -----------------------------------------------------------------------------------------

HASHSEED = "PYTHONHASHSEED"


def _reads_hashseed(qualify: "object", candidate: object) -> bool:
    """Is ``candidate`` (a value the evaluator found) a read of PYTHONHASHSEED from the
    environment: ``os.getenv("PYTHONHASHSEED")``, ``os.environ.get(...)``, ``os.environ[...]``?"""
    if isinstance(candidate, cst.Call) and candidate.args and string_value(candidate.args[0].value) == HASHSEED:
        return qualify(candidate.func) in ("os.getenv", "os.environ.get")  # type: ignore[operator]
    if isinstance(candidate, cst.Subscript) and len(candidate.slice) == 1 and isinstance(candidate.slice[0].slice, cst.Index):
        return qualify(candidate.value) == "os.environ" and string_value(candidate.slice[0].slice.value) == HASHSEED  # type: ignore[operator]
    return False


class HashSeedSetAtRuntime(Rule):
    code = "RPL104"
    name = "hashseed-set-at-runtime"
    message = (
        "setting PYTHONHASHSEED inside a running interpreter does not change its hash(), only that of "
        "processes started later: set it before Python starts (PYTHONHASHSEED=0 python train.py, or in "
        "the job script), or pass it in env= to the subprocess that needs it"
    )
    triggers = (HASHSEED,)
    whole_words = True

    def _check(self, node: cst.CSTNode) -> None:
        for name, value, anchor in environ_writes(self.qualify, node, self.file.module_constants):
            if name == HASHSEED:
                if self._starts_process_after(node):
                    return  # set for the interpreter started next (a launcher, a test runner)
                if value is not None and self._restores(value):
                    return  # the value it had before, put back (after starting the process that needed another)
                # a call is reported whole (one finding for ``update(...)``), an assignment at its target
                self.report(node if isinstance(node, cst.Call) else anchor)
                return

    def _restores(self, value: cst.BaseExpression) -> bool:
        """Is ``value`` the variable as the program read it before (``saved =
        os.getenv("PYTHONHASHSEED")`` ... ``os.environ["PYTHONHASHSEED"] = saved``, SymPy's test
        runner in its ``finally:``)? Putting back what the interpreter started with changes
        nothing about this interpreter's hashing."""
        if not isinstance(value, cst.Name):
            return False
        found = self.file.analysis(ValueScan).values.of(value, self.file.ancestors)
        return bool(found) and all(_reads_hashseed(self.qualify, c) for c in found)  # type: ignore[union-attr]

    def _starts_process_after(self, node: cst.CSTNode) -> bool:
        """Does the function around ``node`` (or the module's top level) start a new
        interpreter after it (:data:`~repro_lint.catalog.NEW_PROCESS_CALLS`)? Nested functions
        and classes do not count: they run where they are called."""
        scope = next((a for a in reversed(self.file.ancestors) if isinstance(a, (cst.FunctionDef, cst.Module))), None)
        if scope is None:
            return False
        stack: List[cst.CSTNode] = [scope.body] if isinstance(scope, cst.FunctionDef) else list(reversed(scope.body))
        seen = False
        while stack:
            current = stack.pop()
            if current is node:
                seen = True
                continue
            if type(current) in DEFINITIONS:
                continue
            if seen and type(current) in CALLS and self.qualify(current.func) in catalog.NEW_PROCESS_CALLS:  # type: ignore[attr-defined]
                return True
            stack.extend(reversed(syntax_children(current)))
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)



# -- RPL106 -----------------------------------------------------------------------------------------




class UnseededRngObject(Rule):
    code = "RPL106"
    name = "unseeded-rng-object"
    message = (
        "{call}() without a seed starts from fresh OS entropy, so every run draws different numbers: "
        "pass a seed, e.g. {call}(seed)"
    )
    triggers = tuple(sorted({name.rsplit(".", 1)[-1] for name in catalog.RNG_CONSTRUCTORS}))
    whole_words = True

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: unseeded objects assigned to a name, reported at the end unless reseeded
        self.pending: List[Tuple[str, cst.Call]] = []
        #: names whose RNG object gets a state later (``self._rng.seed(s)``)
        self.reseeded: Set[str] = set()

    def _assigned_to(self) -> Optional[List[str]]:
        """The names the enclosing assignment binds, when the current call is its value
        (or part of it); None outside an assignment."""
        for node in reversed(self.file.ancestors):
            if isinstance(node, cst.Assign):
                return [dotted_name(t.target) or "" for t in node.targets]
            if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
                return [dotted_name(node.target) or ""]
            if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda)):
                return None
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in catalog.RESEEDING_METHODS:
            owner = dotted_name(node.func.value)
            if owner:
                self.reseeded.add(owner)
        qualified = self.qualify(node.func)
        spec = catalog.RNG_CONSTRUCTORS.get(qualified or "")
        if spec is None or any(arg.star for arg in node.args):
            return
        arg = argument(node, *spec)
        if arg is not None and cst_literal(arg.value) is not None:
            return
        targets = self._assigned_to()
        if targets and any("seed" in t.rsplit(".", 1)[-1].lower() for t in targets):
            return  # drawing a fresh seed on purpose: ``seed = np.random.RandomState().randint(...)``
        if targets and len(targets) == 1 and targets[0] and self.file.parent is not None and isinstance(
            self.file.parent, (cst.Assign, cst.AnnAssign)
        ):
            self.pending.append((targets[0], node))  # ``self._rng = random.Random()``: maybe seeded later
            return
        self.report(node, call=short(self.file.code_for(node.func)))

    def leave_Module(self, node: cst.Module) -> None:
        for target, call in self.pending:
            if target not in self.reseeded:
                self.report(call, call=short(self.file.code_for(call.func)))


# -- RPL107 -----------------------------------------------------------------------------------------



def _is_cpu(node: cst.CSTNode, rule: Rule) -> bool:
    value = cst_literal(node)
    if isinstance(value, str):
        return value.split(":", 1)[0].strip().lower() == "cpu"
    if isinstance(node, cst.Call) and rule.qualify(node.func) == "torch.device" and node.args:
        first = cst_literal(node.args[0].value)
        return isinstance(first, str) and first.split(":", 1)[0].strip().lower() == "cpu"
    return False


class RandomTensorOnDevice(Rule):
    code = "RPL107"
    name = "random-tensor-on-device"
    default = False
    message = (
        "{func}(..., device={device}) draws from that device's own generator, and the same seed gives "
        "different numbers on CPU, CUDA and NPU: generate on CPU and move the result with .to({device}) "
        "when results must match across hardware"
    )
    triggers = ("rand", "normal")

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified not in catalog.RANDOM_FACTORIES:
            return
        device = keyword_arg(node, "device")
        if device is None or _is_cpu(device.value, self):
            return
        self.report(node, func=qualified, device=short(self.file.code_for(device.value), 32))


# -- RPL108 -----------------------------------------------------------------------------------------



class _DatasetClass:
    def __init__(self, node: cst.ClassDef) -> None:
        self.node = node
        self.created: Dict[str, Tuple[cst.CSTNode, str]] = {}
        self.used: Set[str] = set()


def _constructed(value: cst.BaseExpression) -> Optional[cst.Call]:
    """The call that builds what ``value`` is (``torch.Generator().manual_seed(s)`` returns the
    generator ``torch.Generator()`` builds), else None."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Call):
        value = value.func.value
    return value if isinstance(value, cst.Call) else None


class RngObjectOnDataset(Rule):
    code = "RPL108"
    name = "rng-object-on-dataset"
    message = (
        "self.{attr} = {ctor}(...) on a Dataset is copied, in the same state, into every DataLoader worker, "
        "so all workers draw the same numbers: create it per worker (seeded from "
        "torch.utils.data.get_worker_info().seed) or reseed it in a worker_init_fn"
    )
    triggers = ("Dataset",)
    #: the constructors of ``catalog.RNG_OBJECTS``, by their last name
    also_triggers = tuple(sorted({name.rsplit(".", 1)[-1] for name in catalog.RNG_OBJECTS}))

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: per enclosing class: the dataset being analysed, or None
        self.classes: List[Optional[_DatasetClass]] = []
        #: per enclosing function: its name, and whether it is a method of a dataset
        self.functions: List[str] = []
        self.reseeds = "get_worker_info" in file.source

    def _is_dataset(self, node: cst.ClassDef) -> bool:
        for base in node.bases:
            value = cst_generic_origin(base.value)  # ``Dataset[Sample]``: the typed way of writing ``Dataset``
            qualified = self.qualify(value)
            written = dotted_name(value) or ""
            if qualified in catalog.DATASET_BASES or (qualified or written).endswith("Dataset"):
                return True
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(_DatasetClass(node) if self._is_dataset(node) else None)
        self.functions.append("")

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.functions.pop()
        dataset = self.classes.pop()
        if dataset is None or self.reseeds:
            return
        for attr, (where, ctor) in dataset.created.items():
            if attr in dataset.used:
                self.report(where, attr=attr, ctor=ctor)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node.name.value)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def _method(self) -> Optional[str]:
        """The method of a dataset class the current node is in (a nested function counts
        as its method)."""
        if not self.classes or self.classes[-1] is None:
            return None
        # functions: "" marks the class; the method is the entry right after the last ""
        index = len(self.functions) - 1 - self.functions[::-1].index("")
        return self.functions[index + 1] if index + 1 < len(self.functions) else None

    def visit_Assign(self, node: cst.Assign) -> None:
        method = self._method()
        if method is None or method in catalog.DRAWING_METHODS:
            return
        # either branch of ``np.random if overfit else np.random.RandomState(seed)`` (boltz)
        branches: List[cst.BaseExpression] = []
        todo = [node.value]
        while todo:
            part = todo.pop()
            if isinstance(part, cst.IfExp):
                todo += [part.orelse, part.body]
            else:
                branches.append(part)
        value = next((v for v in map(_constructed, branches) if v is not None and self.qualify(v.func) in catalog.RNG_OBJECTS), None)
        if value is None:
            return
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                dataset = self.classes[-1]
                assert dataset is not None
                dataset.created.setdefault(t.attr.value, (node, short(self.file.code_for(value.func), 32)))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._method() in catalog.DRAWING_METHODS and isinstance(node.value, cst.Name) and node.value.value == "self":
            dataset = self.classes[-1]
            assert dataset is not None
            dataset.used.add(node.attr.value)


# -- RPL109 -----------------------------------------------------------------------------------------

MAX_SEED = 2**32 - 1


def _constant(node: cst.CSTNode) -> Optional[int]:
    """The value of a small integer expression (``2**32``, ``1 << 32``, ``2**32 - 1``), or None."""
    value = int_value(node)
    if value is not None:
        return value
    if isinstance(node, cst.BinaryOperation):
        left, right = _constant(node.left), _constant(node.right)
        if left is None or right is None:
            return None
        op = node.operator
        try:
            if isinstance(op, cst.Power) and 0 <= right <= 128:
                return left**right
            if isinstance(op, cst.LeftShift) and 0 <= right <= 128:
                return left << right
            if isinstance(op, cst.Add):
                return left + right
            if isinstance(op, cst.Subtract):
                return left - right
            if isinstance(op, cst.Multiply):
                return left * right
        except (OverflowError, ValueError):
            return None
    return None


class NumpySeedOutOfRange(Rule):
    code = "RPL109"
    name = "numpy-seed-out-of-range"
    message = (
        "{func}({arg}) raises ValueError when the value exceeds 2**32-1 ({why}): reduce it with "
        "% 2**32, as in np.random.seed(torch.initial_seed() % 2**32)"
    )
    fix = SAFE
    fix_message = "Reduce the seed modulo 2**32"
    triggers = ("seed", "RandomState")
    #: a call of NumPy's ``seed`` or ``RandomState`` names it whole, as written, imported or aliased
    whole_words = True
    called_words = True

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: local names bound to get_worker_info() (their .seed is 64-bit)
        self.worker_infos: Set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if isinstance(value, cst.Call) and self.qualify(value.func) == catalog.WORKER_INFO:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.worker_infos.add(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        spec = catalog.NUMPY_SEEDERS.get(qualified or "")
        if spec is None:
            return
        arg = argument(node, *spec)
        if arg is None or arg.star:
            return
        why = self._too_big(arg.value)
        if why is None:
            return
        # the reported range excludes the node's own parentheses: they stay around the edit
        bare = arg.value.with_changes(lpar=[], rpar=[]) if getattr(arg.value, "lpar", ()) else arg.value
        text = self.file.module.code_for_node(bare)
        atomic = isinstance(bare, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer))
        wrapped = f"{text} % 2**32" if atomic else f"({text}) % 2**32"
        self.report(
            arg.value,
            func=short(self.file.code_for(node.func), 24),
            arg=short(text, 40),
            why=why,
            edits=[self.replace(arg.value, wrapped)],
        )

    def _too_big(self, node: cst.CSTNode, follow: bool = True) -> Optional[str]:
        """Why ``node`` can fall outside [0, 2**32-1], or None. A local name is followed (once)
        to every value its function may bind it to (``seed = torch.initial_seed() % 2**32 +
        worker_id``, then ``np.random.seed(seed)``)."""
        value = _constant(node)
        if value is not None:
            return None if 0 <= value <= MAX_SEED else "a literal out of range"
        if isinstance(node, cst.Name) and follow:
            for bound in self.file.analysis(ValueScan).values.made_of(node, self.file.ancestors) or ():
                if bound is not node and isinstance(bound, cst.BaseExpression):
                    why = self._too_big(bound, follow=False)
                    if why is not None:
                        return why
            return None
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.BinaryOperation) and isinstance(current.operator, (cst.Modulo, cst.BitAnd)):
                bound = _constant(current.right)
                if bound is None or bound <= MAX_SEED + 1:
                    continue  # reduced: what is inside cannot overflow
            if isinstance(current, cst.Call):
                qualified = self.qualify(current.func)
                if qualified in catalog.SEED_GETTERS_64BIT:
                    return f"{qualified}() is a 64-bit seed"
            if isinstance(current, cst.Attribute) and current.attr.value == "seed":
                owner = current.value
                if isinstance(owner, cst.Call) and self.qualify(owner.func) == catalog.WORKER_INFO:
                    return "get_worker_info().seed is a 64-bit seed"
                if isinstance(owner, cst.Name) and owner.value in self.worker_infos:
                    return f"{owner.value}.seed from get_worker_info() is a 64-bit seed"
            stack.extend(syntax_children(current))
        return None
