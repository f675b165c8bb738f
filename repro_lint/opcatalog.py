"""The catalog of ops that ``torch.use_deterministic_algorithms`` lists, as data.

One entry per bullet of that function's docstring (some bullets are split into several
entries, e.g. ``interpolate`` and ``nn.Upsample``), keyed by torch version: an entry says in
which releases the op is in the list of ops that *act deterministically* under the flag
(catalog A, :data:`DETERMINISTIC`) or that *raise* under it (catalog B, :data:`RAISES`).
RPL401 and RPL402 read it, the tables on their rule pages are rendered from it
(``python -m repro_lint.opcatalog``), and ``tests/test_ops.py`` compares it with the list in
the installed torch's docstring, so a torch release that changes the list fails a test.

Sources: NONDETERMINISM.md section 3 (torch 2.13 docstring, verified; 2.14 from the wheel) and
the published docs of earlier releases (2.1, 2.2, 2.6, 2.7, and 2.11 read on a GPU machine).
Where a move between the lists is known only to have happened between two releases, the entry
says so in ``note``.

The docstring is not always what torch does. ``runs_since`` records an op that the docstring
still lists as raising but that ran under the flag, with bitwise-equal results on two runs, when
``scripts/gpu_check.py`` called it on a GPU (``tests/op_probes.py``): from that version on the
rules treat it as deterministic under the flag (:meth:`Op.category`), while the docstring test
keeps reading the lists (:meth:`Op.documented_category`).

It is one module because it is one table with the receiver facts the op rules read beside
it (which dtypes and methods keep a tensor integral): splitting it would split one source.
This module never imports torch.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .syntax import MISSING, UNKNOWN, bind

Version = Tuple[int, int]

DETERMINISTIC = "deterministic"  # catalog A: nondeterministic by default, deterministic under the flag
RAISES = "raises"  # catalog B: raises under the flag (warns with warn_only), nondeterministic without

FORWARD = "forward"
BACKWARD = "backward"
ALGORITHM = "algorithm"  # cuDNN algorithm choice (convolutions): covered by RPL202, not per call

F = "torch.nn.functional."
NN = "torch.nn."


@dataclass(frozen=True)
class Span:
    """The op is in list ``category`` for torch ``since`` <= version < ``until``."""

    category: str
    since: Version = (1, 0)
    until: Optional[Version] = None

    def covers(self, version: Version) -> bool:
        return self.since <= version and (self.until is None or version < self.until)


@dataclass(frozen=True)
class Condition:
    """The argument that decides whether a call is the listed variant.

    ``test`` names a predicate that ``repro_lint/rules/ops.py`` implements:
    ``equals`` (the value is one of ``values``; ``default`` when absent), ``present`` (given
    and not ``None``), ``tensor`` (a tensor ``src``, not a scalar ``value``),
    ``not_global`` (an output size other than 1 / ``(1, 1)``), ``spatial`` (an input of
    rank >= 3 visible in the call, and a reduction other than ``"none"``), ``floating``
    (not visibly an integer tensor), ``length`` (a list or tuple display of a length in
    ``values``; ``default`` when the length is not visible). Positions are those of the
    function form (input first), the Tensor method form (self excluded) and the nn.Module
    constructor.
    """

    test: str
    param: str = ""
    function_position: Optional[int] = None
    method_position: Optional[int] = None
    module_position: Optional[int] = None
    values: Tuple[object, ...] = ()
    default: object = None
    #: a second condition that must hold too (``F.pad``: the mode and the length of ``pad``)
    also: Optional["Condition"] = None

    def position(self, form: str) -> Optional[int]:
        """Where :attr:`param` is passed by position in ``form`` (``function``, ``method``,
        ``module``), if it can be."""
        return {"function": self.function_position, "method": self.method_position, "module": self.module_position}[form]

    def decides(self, given: Any) -> Optional[bool]:
        """Whether this test (not :attr:`also`) holds of a call whose argument for
        :attr:`param` is ``given``: a literal value, a tuple for a tuple or list display (with
        :data:`~repro_lint.syntax.UNKNOWN` for an element that is not a literal),
        :data:`~repro_lint.syntax.MISSING` when the call passes none, UNKNOWN for any other
        expression. None when that alone does not decide it: the rules then read more (the
        values a name takes, the input's rank or dtype, ``repro_lint/rules/ops.py``), and a
        module whose calls none of this decides may hold the op (:func:`may_match`)."""
        if self.test == "equals":
            value = self.default if given is MISSING else given
            return None if value is UNKNOWN else value in self.values
        if self.test == "present":
            return given is not MISSING and given is not None
        if self.test == "not_global":
            if given is MISSING:
                return False
            sizes = given if isinstance(given, tuple) else (given,)
            if sizes and all(size == 1 and not isinstance(size, bool) for size in sizes):
                return False  # ``1``, ``(1, 1)``: a global pool
            return None if any(size is UNKNOWN for size in sizes) else True
        if self.test == "length":
            return len(given) in self.values if isinstance(given, tuple) else bool(self.default)
        return None


@dataclass(frozen=True)
class Op:
    #: short name used in messages
    name: str
    #: the docstring bullet, normalised by :func:`normalize` (the version test compares it)
    doc: str
    spans: Tuple[Span, ...]
    #: qualified functions taking the input first (``torch.scatter_add``, ``F.grid_sample``)
    functions: Tuple[str, ...] = ()
    #: Tensor methods (``x.scatter_add_(...)``)
    methods: Tuple[str, ...] = ()
    #: nn.Module classes, matched at construction
    modules: Tuple[str, ...] = ()
    device: str = "CUDA"
    passes: str = BACKWARD
    condition: Optional[Condition] = None
    #: the deterministic alternative, written as advice ("" when there is none)
    alternative: str = ""
    note: str = ""
    #: first release seen running deterministically under the flag on a GPU although the
    #: docstring lists it as raising (None: behaves as documented)
    runs_since: Optional[Version] = None

    def documented_category(self, version: Version) -> Optional[str]:
        """The docstring's list that names this op in torch ``version``."""
        for span in self.spans:
            if span.covers(version):
                return span.category
        return None

    def category(self, version: Version) -> Optional[str]:
        """What the op does under the flag in torch ``version``: the docstring's list, unless it
        was seen running deterministically there (``runs_since``)."""
        if self.runs_since is not None and version >= self.runs_since:
            return DETERMINISTIC
        return self.documented_category(version)

    @property
    def behaviour(self) -> Tuple[Span, ...]:
        """The spans of :meth:`category`: the docstring's, cut at ``runs_since``."""
        if self.runs_since is None:
            return self.spans
        cut = [Span(s.category, s.since, self.runs_since if s.until is None else min(s.until, self.runs_since))
               for s in self.spans if s.since < self.runs_since]
        return tuple(cut) + (Span(DETERMINISTIC, since=self.runs_since),)

    @property
    def visible(self) -> bool:
        """Can a call to it be seen in source at all?"""
        return bool(self.functions or self.methods or self.modules)


A = (Span(DETERMINISTIC),)
B = (Span(RAISES),)


def _moved(version: Version) -> Tuple[Span, ...]:
    """Raised under the flag before ``version``, deterministic under it since."""
    return (Span(RAISES, until=version), Span(DETERMINISTIC, since=version))


_ACCUMULATE_FALSE = Condition("equals", "accumulate", 3, 2, None, (False,), False)
_ACCUMULATE_TRUE = Condition("equals", "accumulate", 3, 2, None, (True,), False)
_INTERPOLATE_DOC = (
    "torch.nn.functional.interpolate when attempting to differentiate a CUDA tensor and one of the "
    "following modes is used: - linear - bilinear - bicubic - trilinear"
)
_LINEAR_DECOMPOSITION = (
    "the docstring (2.11, 2.13) lists it as raising, but F.interpolate routes bilinear and trilinear "
    "CUDA input to a decomposition under the flag (pytorch#129864, #154239): it ran, bitwise equal "
    "twice, on an H200 with torch 2.11; earlier releases are not verified"
)
_REFLECT_2D = (
    "the docstring (2.11, 2.13) lists it as raising, but its backward ran under the flag, bitwise equal "
    "twice, on an H200 with torch 2.11 (1-D and 3-D reflection still raised there); earlier releases "
    "are not verified"
)
_REFLECT = Condition("equals", "mode", 2, None, None, ("reflect",), "constant")

#: torch_scatter's sums (PyG's message passing): its Python ``scatter_sum`` is
#: ``out.scatter_add_(dim, index, src)`` and ``scatter_mean`` divides such a sum, so each is
#: torch's ``scatter_add_`` (atomics on CUDA; the maintainer: "non-deterministic by design",
#: rusty1s/pytorch_scatter#226; under the flag it is torch's op that answers, pyg-team/
#: pytorch_geometric#3175); ``scatter(reduce="max")`` and ``"mul"`` are its own kernels, and
#: ``scatter(..., reduce=...)`` is left out with them (one name for every reduction)
_TORCH_SCATTER_SUMS = ("torch_scatter.scatter_add", "torch_scatter.scatter_sum", "torch_scatter.scatter_mean")
#: the one name for every reduction, where the reduction is a sum: ``torch_scatter.scatter(src,
#: index, dim=-1, out=None, dim_size=None, reduce="sum")`` calls ``scatter_sum`` for ``"sum"`` and
#: ``"add"``, ``scatter_mean`` for ``"mean"``; PyG's ``torch_geometric.utils.scatter(src, index,
#: dim=0, dim_size=None, reduce="sum")`` calls ``scatter_add_`` itself for those three
_SUM_REDUCTIONS = ("sum", "add", "mean")
#: a sum into a tensor that is not visibly of integers: integer additions give the same total in
#: any order (degree counts, ``zeros(n, dtype=torch.long).scatter_add_(0, index, ones)``), so the
#: atomics' varying order changes nothing there
_FLOATING_SUM = Condition("floating", "dtype")
_INTEGER_SUMS = "not reported where the tensor summed into is visibly of integers (its sums are exact)"
#: PyG's graph readouts ``global_add_pool(x, batch, size=None)`` and ``global_mean_pool``:
#: ``scatter(x, batch, dim=-2, dim_size=size, reduce="sum"/"mean")`` (2.x, ``nn/pool/glob.py``;
#: torch_scatter's ``scatter(reduce="add"/"mean")`` in 1.x, ``nn/glob/glob.py``), and
#: ``x.sum(dim)`` when ``batch`` is None; under every name they are imported by
_PYG_SUM_POOLS = tuple(
    f"torch_geometric.nn.{module}{name}"
    for module in ("", "pool.", "pool.glob.", "glob.", "glob.glob.")
    for name in ("global_add_pool", "global_mean_pool")
)

OPS: Tuple[Op, ...] = (
    # ---- A: deterministic under the flag ------------------------------------------------
    *(
        Op(
            f"nn.{cls}", f"torch.nn.{cls} when called on CUDA tensor", A,
            functions=(F + func,), modules=(NN + cls,), passes=ALGORITHM,
            alternative="torch.use_deterministic_algorithms(True) or cudnn.deterministic = True",
        )
        for cls, func in (
            ("Conv1d", "conv1d"), ("Conv2d", "conv2d"), ("Conv3d", "conv3d"),
            ("ConvTranspose1d", "conv_transpose1d"), ("ConvTranspose2d", "conv_transpose2d"),
            ("ConvTranspose3d", "conv_transpose3d"),
        )
    ),
    Op(
        "nn.ReplicationPad1d", "torch.nn.ReplicationPad1d when attempting to differentiate a CUDA tensor",
        _moved((2, 8)), modules=(NN + "ReplicationPad1d",),
        note="2.7 docs list it as raising, 2.13 as deterministic (PR pytorch#148633, 2025)",
    ),
    Op(
        "nn.ReplicationPad2d", "torch.nn.ReplicationPad2d when attempting to differentiate a CUDA tensor",
        _moved((2, 2)), modules=(NN + "ReplicationPad2d",),
        note="2.1 docs list it as raising, 2.2 docs as deterministic",
    ),
    Op(
        "nn.ReplicationPad3d", "torch.nn.ReplicationPad3d when attempting to differentiate a CUDA tensor",
        _moved((2, 8)), modules=(NN + "ReplicationPad3d",),
        note="2.7 docs list it as raising, 2.13 as deterministic (PR pytorch#148633, 2025)",
    ),
    Op(
        "torch.bmm (sparse)", "torch.bmm when called on sparse-dense CUDA tensors", A, passes=FORWARD,
        note="sparsity is not visible in source: not matched",
    ),
    Op(
        "__getitem__", "torch.Tensor.__getitem__ when attempting to differentiate a CPU tensor and the "
        "index is a list of tensors", A, device="CPU",
        note="advanced indexing is not an op call: not matched",
    ),
    Op(
        "index_put(accumulate=False)", "torch.Tensor.index_put with accumulate=False", A,
        functions=("torch.index_put", "torch.index_put_"), methods=("index_put", "index_put_"),
        device="any device", passes=FORWARD, condition=_ACCUMULATE_FALSE,
        note="x[idx] = v also reaches index_put_ but is not reported: it is ordinary indexing",
    ),
    Op(
        "index_put(accumulate=True)", "torch.Tensor.index_put with accumulate=True when called on a CPU tensor",
        A, functions=("torch.index_put", "torch.index_put_"), methods=("index_put", "index_put_"),
        device="CPU", passes=FORWARD, condition=_ACCUMULATE_TRUE,
    ),
    Op(
        "put_(accumulate=True)", "torch.Tensor.put_ with accumulate=True when called on a CPU tensor", A,
        methods=("put_",), device="CPU", passes=FORWARD, condition=_ACCUMULATE_TRUE,
    ),
    Op(
        "scatter_add", "torch.Tensor.scatter_add_ when called on a CUDA tensor", A,
        functions=("torch.scatter_add", *_TORCH_SCATTER_SUMS), methods=("scatter_add", "scatter_add_"), passes=FORWARD,
        condition=_FLOATING_SUM, note=_INTEGER_SUMS,
    ),
    Op(
        "scatter(reduce=sum/mean)", "torch.Tensor.scatter_add_ when called on a CUDA tensor", A,
        functions=("torch_scatter.scatter",), passes=FORWARD,
        condition=Condition("equals", "reduce", 5, None, None, _SUM_REDUCTIONS, "sum"),
    ),
    Op(
        "scatter(reduce=sum/mean)", "torch.Tensor.scatter_add_ when called on a CUDA tensor", A,
        functions=("torch_geometric.utils.scatter",), passes=FORWARD,
        condition=Condition("equals", "reduce", 4, None, None, _SUM_REDUCTIONS, "sum"),
    ),
    Op(
        "global_add_pool/global_mean_pool(batch)", "torch.Tensor.scatter_add_ when called on a CUDA tensor", A,
        functions=_PYG_SUM_POOLS, passes=FORWARD, condition=Condition("present", "batch", 1),
        note="PyG's readouts: a sum or mean scatter over the batch vector (without one, a plain sum)",
    ),
    Op(
        "gather", "torch.gather when called on a CUDA tensor that requires grad", A,
        functions=("torch.gather",), methods=("gather",),
    ),
    Op(
        "index_add", "torch.index_add when called on CUDA tensor", A,
        functions=("torch.index_add",), methods=("index_add", "index_add_"), passes=FORWARD,
        condition=_FLOATING_SUM, note=_INTEGER_SUMS,
    ),
    Op(
        "index_select", "torch.index_select when attempting to differentiate a CUDA tensor", A,
        functions=("torch.index_select",), methods=("index_select",),
    ),
    Op(
        "repeat_interleave", "torch.repeat_interleave when attempting to differentiate a CUDA tensor", A,
        functions=("torch.repeat_interleave",), methods=("repeat_interleave",),
    ),
    Op(
        "index_copy", "torch.Tensor.index_copy when called on a CPU or CUDA tensor", A,
        functions=("torch.index_copy",), methods=("index_copy", "index_copy_"),
        device="CPU and CUDA", passes=FORWARD,
    ),
    Op(
        "scatter (tensor src)", "torch.Tensor.scatter when src type is Tensor and called on CUDA tensor", A,
        functions=("torch.scatter",), methods=("scatter", "scatter_"), passes=FORWARD,
        condition=Condition("tensor", "src", 3, 2),
    ),
    Op(
        "scatter_reduce(sum/mean)",
        "torch.Tensor.scatter_reduce when reduce='sum' or reduce='mean' and called on CUDA tensor", A,
        functions=("torch.scatter_reduce",), methods=("scatter_reduce", "scatter_reduce_"), passes=FORWARD,
        condition=Condition("equals", "reduce", 4, 3, None, ("sum", "mean")),
    ),
    Op(
        "nn.MaxPool3d", "torch.nn.MaxPool3d when attempting to differentiate a CUDA tensor", _moved((2, 12)),
        functions=(F + "max_pool3d",), modules=(NN + "MaxPool3d",),
        note="raising in the 2.1 and 2.11 docs (and on an H200 with torch 2.11), deterministic in 2.13 "
        "(a decomposition in F.max_pool3d); 2.12 is not verified",
    ),
    Op(
        "nn.Embedding", "torch.nn.Embedding when attempting to differentiate a CUDA tensor",
        (Span(DETERMINISTIC, since=(2, 14)),), functions=(F + "embedding",), modules=(NN + "Embedding",),
        note="added to the list in 2.14 (wording not verified)",
    ),
    # ---- B: raise under the flag ------------------------------------------------------------
    *(
        Op(
            f"nn.{cls}", f"torch.nn.{cls} when attempting to differentiate a CUDA tensor", B,
            functions=tuple(F + f for f in funcs), modules=(NN + cls,), condition=condition,
            alternative=alternative,
        )
        for cls, funcs, condition, alternative in (
            ("AvgPool3d", ("avg_pool3d",), None, ""),
            (
                "AdaptiveAvgPool2d", ("adaptive_avg_pool2d",), Condition("not_global", "output_size", 1, None, 0),
                "for a global pool use x.mean(dim=(-2, -1), keepdim=True); for a fixed ratio use "
                "avg_pool2d with a fixed kernel",
            ),
            (
                "AdaptiveAvgPool3d", ("adaptive_avg_pool3d",), Condition("not_global", "output_size", 1, None, 0),
                "for a global pool use x.mean(dim=(-3, -2, -1), keepdim=True)",
            ),
            ("AdaptiveMaxPool2d", ("adaptive_max_pool2d",), None, "use amax over the pooled dims, or max_pool2d"),
            ("FractionalMaxPool2d", ("fractional_max_pool2d",), None, ""),
            ("FractionalMaxPool3d", ("fractional_max_pool3d",), None, ""),
        )
    ),
    *(
        Op(
            f"nn.{cls}", f"torch.nn.{cls}", B, functions=(F + cls.lower().replace("maxunpool", "max_unpool"),),
            modules=(NN + cls,), device="any device", passes=FORWARD,
            alternative="rewrite the unpooling with scatter/index_put on a flattened view",
        )
        for cls in ("MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d")
    ),
    Op(
        "F.interpolate(linear/bicubic)", _INTERPOLATE_DOC, B,
        functions=(F + "interpolate", F + "upsample"), modules=(NN + "Upsample",),
        condition=Condition("equals", "mode", 3, None, 2, ("linear", "bicubic"), "nearest"),
        alternative='use mode="nearest", or "bilinear" on 4-D input (deterministic under the flag in '
        "torch >= 2.11)",
    ),
    Op(
        "F.interpolate(bilinear/trilinear)", _INTERPOLATE_DOC, B,
        functions=(F + "interpolate", F + "upsample"), modules=(NN + "Upsample",),
        condition=Condition("equals", "mode", 3, None, 2, ("bilinear", "trilinear"), "nearest",
                            also=Condition("equals", "antialias", 6, None, None, (False,), False)),
        alternative='upgrade to torch >= 2.11 (deterministic under the flag), or use mode="nearest"',
        runs_since=(2, 11), note=_LINEAR_DECOMPOSITION,
    ),
    Op(
        "F.interpolate(bilinear, antialias=True)", _INTERPOLATE_DOC, B,
        functions=(F + "interpolate",),
        condition=Condition("equals", "mode", 3, None, None, ("bilinear",), "nearest",
                            also=Condition("equals", "antialias", 6, None, None, (True,), False)),
        alternative='drop antialias=True (then deterministic under the flag in torch >= 2.11), or use '
        'mode="nearest"',
        note="the antialiased kernel is not decomposed: it raised under the flag on an H200 with torch 2.11",
    ),
    Op(
        "F.interpolate(area)", "torch.nn.AdaptiveAvgPool2d when attempting to differentiate a CUDA tensor", B,
        functions=(F + "interpolate",), modules=(NN + "Upsample",),
        condition=Condition("equals", "mode", 3, None, 2, ("area",), "nearest"),
        alternative='for a whole-number ratio use F.avg_pool2d with kernel_size=stride=the ratio; or '
        'mode="nearest"',
        note='F.interpolate computes mode="area" with adaptive_avg_pool1d/2d/3d (the AdaptiveAvgPool2d and 3d '
        "bullets)",
    ),
    Op(
        "bilinear upsampling", _INTERPOLATE_DOC, B,
        functions=(F + "upsample_bilinear",), modules=(NN + "UpsamplingBilinear2d",),
        alternative='upgrade to torch >= 2.11 (deterministic under the flag), or use '
        'nn.Upsample(mode="nearest")',
        runs_since=(2, 11), note=_LINEAR_DECOMPOSITION,
    ),
    *(
        Op(
            f"nn.{cls}", f"torch.nn.{cls} when attempting to differentiate a CUDA tensor", B,
            modules=(NN + cls,),
            alternative=("upgrade to torch >= 2.11 (deterministic under the flag), or " if runs else "")
            + "use replication padding (mode=\"replicate\"), which is deterministic under the flag "
            "but changes border values",
            runs_since=runs, note=_REFLECT_2D if runs else "",
        )
        for cls, runs in (("ReflectionPad1d", None), ("ReflectionPad2d", (2, 11)), ("ReflectionPad3d", None))
    ),
    Op(
        'F.pad(mode="reflect")', "torch.nn.ReflectionPad1d when attempting to differentiate a CUDA tensor", B,
        functions=(F + "pad",), condition=replace(_REFLECT, also=Condition("length", "pad", 1, values=(2, 6), default=True)),
        alternative='use mode="replicate", which is deterministic under the flag but changes border values',
        note="a pad of 2 or 6 values (1-D or 3-D reflection), or of a length not visible in the call",
    ),
    Op(
        'F.pad(mode="reflect", 4 values)', "torch.nn.ReflectionPad2d when attempting to differentiate a CUDA tensor",
        B, functions=(F + "pad",), condition=replace(_REFLECT, also=Condition("length", "pad", 1, values=(4,), default=False)),
        alternative='upgrade to torch >= 2.11 (deterministic under the flag), or use mode="replicate", which '
        "is deterministic under the flag but changes border values",
        runs_since=(2, 11), note=_REFLECT_2D,
    ),
    Op(
        "nll_loss (spatial)", "torch.nn.NLLLoss when called on a CUDA tensor", B,
        functions=(F + "nll_loss", F + "cross_entropy"), passes=FORWARD,
        condition=Condition("spatial", "reduction", 6, None, None),
        alternative='compute the loss with reduction="none" and then .mean() (for a weighted mean, divide '
        "by the sum of the weights), or flatten the input to (N*H*W, C)",
        note="only calls whose input rank is visible (>= 3) are matched",
    ),
    Op(
        "nn.CTCLoss", "torch.nn.CTCLoss when attempting to differentiate a CUDA tensor", B,
        functions=(F + "ctc_loss",), modules=(NN + "CTCLoss",),
    ),
    Op(
        'nn.EmbeddingBag(mode="max")',
        "torch.nn.EmbeddingBag when attempting to differentiate a CUDA tensor when mode='max'", B,
        functions=(F + "embedding_bag",), modules=(NN + "EmbeddingBag",),
        condition=Condition("equals", "mode", 6, None, 5, ("max",), "mean"),
        alternative='use mode="sum" or mode="mean"',
    ),
    Op(
        "put_(accumulate=False)", "torch.Tensor.put_ when accumulate=False", B,
        methods=("put_",), device="any device", passes=FORWARD, condition=_ACCUMULATE_FALSE,
        alternative="use index_put_ on a flattened view (deterministic under the flag)",
    ),
    Op(
        "put_(accumulate=True)", "torch.Tensor.put_ when accumulate=True and called on a CUDA tensor", B,
        methods=("put_",), passes=FORWARD, condition=_ACCUMULATE_TRUE,
        alternative="use index_put_((index,), source, accumulate=True) on a flattened view",
    ),
    Op(
        "histc", "torch.histc when called on a CUDA tensor", B,
        functions=("torch.histc",), methods=("histc",), passes=FORWARD,
        alternative="use torch.bincount without weights on bucketized values, or compute it on CPU",
    ),
    Op(
        "bincount(weights=)", "torch.bincount when called on a CUDA tensor and weights tensor is given", B,
        functions=("torch.bincount",), methods=("bincount",), passes=FORWARD,
        condition=Condition("present", "weights", 1, 0),
        alternative="compute it on CPU, or use scatter_add/index_add_ under the flag",
    ),
    Op(
        "median(dim)", "torch.median with indices output when called on a CUDA tensor", B,
        functions=("torch.median",), methods=("median",), passes=FORWARD,
        condition=Condition("present", "dim", 1, 0),
        alternative="use sort along the dim and index the middle element",
    ),
    Op(
        "F.grid_sample", "torch.nn.functional.grid_sample when attempting to differentiate a CUDA tensor", B,
        functions=(F + "grid_sample",),
    ),
    Op(
        "cumsum", "torch.cumsum when called on a CUDA tensor when dtype is floating point or complex",
        (Span(RAISES, until=(2, 14)), Span(DETERMINISTIC, since=(2, 14))),
        functions=("torch.cumsum",), methods=("cumsum", "cumsum_"), passes=FORWARD,
        condition=Condition("floating", "dtype"),
        alternative="upgrade to torch >= 2.11 (deterministic under the flag), or accumulate in float64 on CPU",
        runs_since=(2, 11),
        note="moved to the deterministic list of the docstring in 2.14, but it ran under the flag, bitwise "
        "equal twice, on an H200 with torch 2.11; earlier releases are not verified",
    ),
    Op(
        "scatter_reduce(prod)", "torch.Tensor.scatter_reduce when reduce='prod' and called on CUDA tensor", B,
        functions=("torch.scatter_reduce",), methods=("scatter_reduce", "scatter_reduce_"), passes=FORWARD,
        condition=Condition("equals", "reduce", 4, 3, None, ("prod",)),
    ),
    Op(
        "resize_ (quantized)", "torch.Tensor.resize_ when called with a quantized tensor", B, device="any device",
        passes=FORWARD, note="quantization is not visible in source: not matched",
    ),
    Op(
        "kthvalue", "torch.kthvalue when called on a CUDA tensor", (Span(RAISES, until=(2, 2)),),
        functions=("torch.kthvalue",), methods=("kthvalue",), passes=FORWARD,
        alternative="use sort along the dim and index the k-th element",
        note="listed in the 2.0/2.1 docs, absent in 2.13; the release in between is not verified",
    ),
)


# -- reading the catalog -------------------------------------------------------------------------


def ops_at(version: Version, category: str) -> List[Op]:
    """The ops that act as ``category`` under the flag in torch ``version``."""
    return [op for op in OPS if op.category(version) == category]


@functools.lru_cache(maxsize=None)
def _by_name() -> Tuple[Dict[str, List[Op]], Dict[str, List[Op]], Dict[str, List[Op]]]:
    return index_by_name()


def may_raise(name: str, version: Version) -> bool:
    """Is a call recorded as ``name`` in the module facts (a qualified function or module
    class, or ``<anything>.<method>``) an op without a deterministic implementation under
    torch ``version``, whatever its arguments? Ops that raise only for some arguments
    (``cross_entropy`` on spatial input, ``interpolate`` in some modes) are not counted: the
    facts do not hold arguments, and counting them would take nearly every script."""
    functions, methods, modules = _by_name()
    candidates = functions.get(name) or modules.get(name)
    if candidates is None and "." in name:
        candidates = methods.get(name.rsplit(".", 1)[1])
    return any(op.condition is None and op.category(version) == RAISES for op in candidates or ())


@functools.lru_cache(maxsize=None)
def op_names() -> FrozenSet[str]:
    """The last names of every op's functions and classes, and its methods: a call whose callee
    is named so may be one (the module facts record such calls, :func:`may_match`)."""
    functions, methods, modules = _by_name()
    return frozenset([*(n.rsplit(".", 1)[-1] for n in (*functions, *modules)), *methods])


#: the arguments recorded for an op's module that is built inside something else the code
#: builds, with arguments it does not see: a project class derived from the module (``class
#: CTCLossWrapper(nn.CTCLoss)``), or a library model that runs the op (:data:`LIBRARY_HEADS`)
BUILT_INSIDE: Tuple[Tuple[Optional[str], str, Any], ...] = (("<inside>", "", True),)

#: library models whose forward runs an op of the catalog when given labels, as (package
#: prefix of the qualified name, suffix of the class name, the op's module): transformers' CTC
#: heads (``Wav2Vec2ForCTC``, ``HubertForCTC``, ``WavLMForCTC``, ``AutoModelForCTC``, ...)
#: compute ``nn.functional.ctc_loss`` under ``torch.backends.cudnn.flags(enabled=False)``, the
#: native kernel, whose CUDA backward has no deterministic implementation
LIBRARY_HEADS: Tuple[Tuple[str, str, str], ...] = (("transformers.", "ForCTC", "CTCLoss"),)


def library_head_op(qualified: str) -> Optional[str]:
    """The op's module (:data:`LIBRARY_HEADS`) a library model named ``qualified`` runs, or None."""
    for package, suffix, op in LIBRARY_HEADS:
        if qualified.startswith(package) and qualified.endswith(suffix):
            return op
    return None

#: a call as the module facts record it for :func:`may_match`: its callee's last name, and each
#: argument as (keyword or None, ``"*"``/``"**"``/``""``, its literal value as
#: :meth:`Condition.decides` takes it)
OpCall = Tuple[str, Tuple[Tuple[Optional[str], str, Any], ...]]


def literal_verdict(condition: Condition, form: str, slots: Sequence[Tuple[Optional[str], str, Any]]) -> Optional[bool]:
    """Whether ``condition`` (with :attr:`~Condition.also`) holds of a call of ``form`` with
    arguments ``slots`` (:data:`OpCall`) as far as their literal values decide it; None where
    they do not (``*args`` or ``**kwargs`` may pass the argument, a value is not a literal)."""
    starred = any(star for _, star, _ in slots)
    verdict: Optional[bool] = True
    current: Optional[Condition] = condition
    while current is not None:
        given = bind(slots, current.param, current.position(form))
        decided = None if given is UNKNOWN or (given is MISSING and starred) else current.decides(given)
        if decided is False:
            return False
        if decided is None:
            verdict = None
        current = current.also
    return verdict


def _named(name: str) -> List[Tuple[Op, str]]:
    """The ops a call whose callee's last name is ``name`` may be, each with the form it would
    take (``"function"``, ``"module"``: a layer built, ``"method"``: a Tensor method)."""
    functions, methods, modules = _by_name()
    candidates = [(op, "function") for key, ops in functions.items() if key.rsplit(".", 1)[-1] == name for op in ops]
    candidates += [(op, "module") for key, ops in modules.items() if key.rsplit(".", 1)[-1] == name for op in ops]
    return candidates + [(op, "method") for op in methods.get(name, ())]


@dataclass(frozen=True)
class VisibleRank:
    """In an :data:`OpCall`, the input of an op whose condition is ``spatial`` when the
    expression passed shows its rank itself (``logits.transpose(1, 2)``: at least 3;
    ``x.view(n, c, h, w)``: 4), as ``repro_lint/rules/ops.py`` reads it on the call alone; any
    other argument there is no literal (UNKNOWN)."""

    rank: int


#: the ops' functions whose condition is ``spatial`` (their input's rank decides)
SPATIAL_INPUTS = frozenset({"nll_loss", "cross_entropy"})
#: the loss modules whose call is one of those functions with the module's ``reduction``
#: (``criterion = nn.CrossEntropyLoss()``, then ``criterion(logits.transpose(1, 2), y)``)
SPATIAL_LOSS_MODULES = {
    f"torch.nn.{module}{cls}": function
    for module in ("", "modules.loss.")
    for cls, function in (("CrossEntropyLoss", "cross_entropy"), ("NLLLoss", "nll_loss"))
}
#: segmentation losses of other libraries whose call is one of those functions on their input,
#: which their contract makes at least (batch, classes, height, width): MONAI's ``DiceCELoss``
#: (``nn.CrossEntropyLoss(reduction=reduction)`` on (B, N, H, W[, D]) logits, N > 1)
SEGMENTATION_LOSS_MODULES = {f"monai.losses.{module}DiceCELoss": "cross_entropy" for module in ("", "dice.")}
#: the rank the input of a :data:`SEGMENTATION_LOSS_MODULES` call has at least
SEGMENTATION_RANK = 4


def spatial_rank(method: str, positional: Sequence[Optional[int]]) -> int:
    """The rank a Tensor method call shows (``x.view(a, b, c)``: 3; ``x.transpose(1, 2)``: at
    least 3), given its positional arguments as integers (None where not one), else 0: as
    ``repro_lint/rules/ops.py``'s ``_rank`` reads a call of :data:`RESHAPES` or :data:`AXIS_SWAPS`."""
    if method in RESHAPES:
        return len(positional)
    if method in AXIS_SWAPS and len(positional) == 2 and all(d is not None and d >= 0 for d in positional):
        return max(positional) + 1  # type: ignore[type-var,operator]
    return 0


def _surely_spatial(condition: Condition, form: str, slots: Sequence[Tuple[Optional[str], str, Any]]) -> bool:
    """Does a call (:data:`OpCall`) of an op whose condition is ``spatial`` show an input of
    rank 3 or more and leave the reduction at ``mean`` or ``sum``?"""
    if form != "function" or any(star for _, star, _ in slots):
        return False
    given = bind(slots, "input", 0)
    if not (isinstance(given, VisibleRank) and given.rank >= 3):
        return False
    reduction = bind(slots, condition.param, condition.position(form))
    return reduction is MISSING or reduction in ("mean", "sum")


def surely_raises(calls: Iterable[OpCall], version: Version) -> bool:
    """Is one of ``calls`` (:data:`OpCall`) an op that raises under deterministic mode in torch
    ``version`` for the literal arguments it is given (``nn.AdaptiveAvgPool2d(3)``,
    ``F.interpolate(x, mode="bicubic")``)? Its condition must be decided to hold, not merely
    possible, except for an adaptive average pool whose output size is no literal: a pyramid
    pooling module's ``nn.AdaptiveAvgPool2d(size)`` for each ``size`` of ``(1, 2, 3, 6)``
    (PSPNet, UPerNet), where the global pool, which has a deterministic kernel, is written
    ``1``. With :func:`may_raise`, what the setup block asks before it turns strict mode on."""
    for name, slots in calls:
        for op, form in _named(name):
            if op.category(version) != RAISES:
                continue
            if op.condition is None:
                if slots == BUILT_INSIDE and form == "module":
                    return True  # built inside a project class or a library model, on the path
                continue
            verdict = literal_verdict(op.condition, form, slots)
            if verdict or (verdict is None and op.condition.test == "not_global"):
                return True
            if op.condition.test == "spatial" and _surely_spatial(op.condition, form, slots):
                return True
    return False


def may_match(calls: Iterable[OpCall], wanted: Callable[[Op], bool]) -> bool:
    """Can one of ``calls`` be an op that ``wanted`` accepts, in any form its callee's name may
    be (function, class or Tensor method), as far as its literal arguments tell? False only
    where each is decided not to be one (``F.interpolate(x, mode="nearest")``,
    ``nn.AdaptiveAvgPool2d(1)``, ``x.bincount()``): the op rules cannot report on such calls."""
    for name, slots in calls:
        for op, form in _named(name):
            if wanted(op) and (op.condition is None or literal_verdict(op.condition, form, slots) is not False):
                return True
    return False


def index_by_name() -> Tuple[Dict[str, List[Op]], Dict[str, List[Op]], Dict[str, List[Op]]]:
    """(function name -> ops, method name -> ops, module class -> ops)."""
    functions: Dict[str, List[Op]] = {}
    methods: Dict[str, List[Op]] = {}
    modules: Dict[str, List[Op]] = {}
    for op in OPS:
        for name in op.functions:
            functions.setdefault(name, []).append(op)
        for name in op.methods:
            methods.setdefault(name, []).append(op)
        for name in op.modules:
            modules.setdefault(name, []).append(op)
    return functions, methods, modules


# -- the docstring, for the version test --------------------------------------------------------

_ROLE = re.compile(r":(?:class|func|meth|attr):")


def normalize(text: str) -> str:
    """A docstring bullet without Sphinx roles, backticks and line breaks."""
    text = _ROLE.sub("", text).replace("`", "")
    return " ".join(text.split())


def parse_docstring(doc: str) -> Dict[str, Set[str]]:
    """The two lists of ``torch.use_deterministic_algorithms.__doc__``, normalised:
    ``{DETERMINISTIC: {...}, RAISES: {...}}``."""
    heads = {
        DETERMINISTIC: re.search(r"will act\s+deterministically when[^\n]*\n", doc),
        RAISES: re.search(r"will throw a\s+:class:`RuntimeError` when ``mode=True``[^\n]*\n", doc),
    }
    lists: Dict[str, Set[str]] = {DETERMINISTIC: set(), RAISES: set()}
    for category, head in heads.items():
        if head is None:
            continue
        bullets: List[List[str]] = []
        for line in doc[head.end():].splitlines():
            stripped = line.strip()
            if stripped.startswith("* "):
                bullets.append([stripped[2:]])
            elif not stripped:
                continue
            elif bullets and (stripped.startswith("- ") or line.startswith(" " * 10)):
                bullets[-1].append(stripped)  # a continuation line or a sub-bullet
            else:
                break  # the next paragraph
        lists[category] = {normalize(" ".join(parts)) for parts in bullets}
    return lists


def documented(version: Version) -> Dict[str, Set[str]]:
    """What the catalog says the docstring of torch ``version`` lists."""
    return {category: {op.doc for op in OPS if op.documented_category(version) == category}
            for category in (DETERMINISTIC, RAISES)}


# -- the tables on the rule pages ----------------------------------------------------------------


def _names(op: Op) -> str:
    shown = [name.replace("torch.nn.functional.", "F.").replace("torch.nn.", "nn.") for name in op.functions]
    shown += [f"Tensor.{m}" for m in op.methods]
    shown += [name.replace("torch.nn.", "nn.") for name in op.modules]
    return ", ".join(f"`{n}`" for n in dict.fromkeys(shown)) or "(not visible in source)"


def _versions(op: Op, category: str) -> str:
    parts = []
    for span in op.behaviour:
        if span.category != category:
            continue
        low = "" if span.since == (1, 0) else f">= {span.since[0]}.{span.since[1]}"
        high = "" if span.until is None else f"< {span.until[0]}.{span.until[1]}"
        parts.append(", ".join(p for p in (low, high) if p) or "all")
    return "; ".join(parts)


def markdown_table(category: str, passes: Iterable[str]) -> str:
    """The table of ``category`` ops with one of ``passes`` (rendered onto the rule pages)."""
    wanted = set(passes)
    advice = category == RAISES
    rows = ["| op | names matched | device | pass | torch versions |" + (" alternative |" if advice else "")]
    rows.append("|---|---|---|---|---|" + ("---|" if advice else ""))
    for op in OPS:
        if op.passes not in wanted or not any(s.category == category for s in op.behaviour) or not op.visible:
            continue
        row = f"| {op.name} | {_names(op)} | {op.device} | {op.passes} | {_versions(op, category)} |"
        rows.append(row + (f" {op.alternative or '-'} |" if advice else ""))
    return "\n".join(rows) + "\n"


TABLE_START = "<!-- op catalog: generated by `python -m repro_lint.opcatalog` -->\n"
TABLE_END = "<!-- end of op catalog -->"


def page_tables() -> Dict[str, str]:
    """The generated table of each page that shows one (code -> table)."""
    return {
        "RPL401": markdown_table(DETERMINISTIC, (FORWARD,)),
        "RPL402": markdown_table(RAISES, (FORWARD, BACKWARD)),
    }


if __name__ == "__main__":  # pragma: no cover - prints the tables for the rule pages
    for code, table in page_tables().items():
        print(f"{code}:\n{table}")


# -- what decides an op's variant (RPL4xx conditions) -------------------------------------------

#: dtypes that make ``cumsum`` an integer scan (deterministic)
INTEGER_DTYPES = frozenset(
    f"torch.{name}" for name in ("long", "int", "int64", "int32", "int16", "int8", "uint8", "short", "bool")
)
#: dtypes that make ``cumsum`` a floating (or complex) scan whatever its input: the
#: nondeterministic CUDA variant
FLOATING_DTYPES = frozenset(
    f"torch.{name}"
    for name in (
        "float", "float16", "float32", "float64", "half", "double", "bfloat16",
        "complex64", "complex128", "cfloat", "cdouble", "chalf", "complex32",
    )
)
INTEGER_CASTS = frozenset({"long", "int", "short", "byte", "bool"})
#: ops whose result is an int64 tensor, as ``torch.*`` functions and Tensor methods: indices,
#: or a tensor's shape (``torch._shape_as_tensor(x)``)
#: the legacy typed constructors that make an integer (or bool) tensor (``torch.LongTensor(sizes)``,
#: also their ``torch.cuda`` forms)
INTEGER_TENSOR_TYPES = frozenset(
    f"torch.{module}{name}"
    for module in ("", "cuda.")
    for name in ("LongTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor")
)
INDEX_RESULTS = frozenset(
    {"argmax", "argmin", "nonzero", "_shape_as_tensor",
     # ``F.one_hot(indices, n)``: an int64 tensor of zeros and ones (mixture-of-experts routing masks)
     "one_hot",
     # DGL graphs' per-graph counts of a batched graph (int64)
     "batch_num_nodes", "batch_num_edges"}
)
#: comparisons and logical ops whose result is a bool tensor, as ``torch.*`` functions and
#: Tensor methods (``x.ge(0)`` is ``x >= 0``)
#: ops whose result is an int64 tensor unless given the keyword or the positional argument at
#: this index (``torch.bincount(x)`` counts; ``bincount(x, weights)`` sums the weights): as
#: ``torch.*`` functions (the tensor first) and Tensor methods (the tensor is the receiver)
#: einops's functions that rearrange a tensor by a pattern (``rearrange(x, "b n c -> b c n")``):
#: the result has the pattern's output axes and the input's dtype (``reduce`` with a reduction
#: of those in :data:`EINOPS_INTEGER_REDUCTIONS` keeps an integer input integral; ``mean`` does not)
EINOPS_PATTERNS = frozenset({"einops.rearrange", "einops.repeat", "einops.reduce"})
EINOPS_INTEGER_REDUCTIONS = frozenset({"sum", "max", "min", "prod", "any", "all"})


def einops_output_rank(pattern: str) -> int:
    """The number of axes an einops pattern's output names (``"b n c -> b c n"``: 3; a
    parenthesised group is one axis; ``...`` adds none, so it is at least that rank); 0 when
    ``pattern`` is not one."""
    if pattern.count("->") != 1:
        return 0
    output = pattern.split("->", 1)[1]
    depth = axes = 0
    for token in output.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            depth += 1
            axes += depth == 1
        elif token == ")":
            depth -= 1
        elif depth == 0 and token != "...":
            axes += 1
    return axes if depth == 0 else 0


COUNT_RESULTS = {"bincount": ("weights", 1)}
BOOL_RESULTS = frozenset(
    {"eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal",
     "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf", "isfinite", "isclose",
     "isin", "isneginf", "isposinf", "signbit",
     # a reduction of a tensor to whether all (any) of it is nonzero: ``torch.all(cmp, dim=-1)``
     "all", "any"}
)
#: Tensor methods that keep an integer (or bool) tensor integral (``prod``/``sum`` of integers
#: are int64; ``new_tensor``/``new_zeros``/... take the receiver's dtype unless given ``dtype=``;
#: ``scatter``/``index_add``/``masked_fill``/... write into the receiver, keeping its dtype)
INTEGER_KEEPING = frozenset(
    {"view", "reshape", "permute", "expand", "flatten", "unsqueeze", "squeeze", "transpose",
     "contiguous", "clone", "detach", "flip", "cumsum", "sum", "prod", "cuda", "cpu",
     "new_tensor", "new_zeros", "new_ones", "new_full", "new_empty",
     "scatter", "scatter_", "scatter_add", "scatter_add_", "index_add", "index_add_",
     "index_fill", "index_fill_", "masked_fill", "masked_fill_"}
)
#: ``torch.*`` functions that join tensors: the result is integral when every part is
JOINS = frozenset(f"torch.{name}" for name in ("cat", "concat", "concatenate", "stack", "hstack", "vstack"))
#: ``torch.*`` functions that build a tensor from data: int64 from a shape (``torch.tensor(x.shape)``)
FROM_DATA = frozenset({"torch.tensor", "torch.as_tensor"})
#: the attribute and the method that give a tensor's shape (a ``torch.Size``, or an int)
SHAPE_ATTRIBUTE = "shape"
SHAPE_METHOD = "size"
#: tensor factories whose positional arguments are the shape
FACTORIES = frozenset(f"torch.{name}" for name in ("randn", "rand", "zeros", "ones", "empty", "full"))
#: torch calls that make a new tensor on the default device (the CPU, unless the program sets
#: another: ``DEFAULT_DEVICE_SETTERS``) when given no ``device``; not the ``*_like`` ones, nor
#: ``as_tensor`` (they keep their input's device)
CPU_FACTORIES = FACTORIES | frozenset(
    f"torch.{name}" for name in ("tensor", "arange", "eye", "linspace", "randint", "randperm", "from_numpy", "empty_strided")
)
#: the context managers (also used as decorators) under which autograd records nothing, so no
#: backward pass runs through the ops called there ("bwd": "only if grad is required",
#: NONDETERMINISM.md section 3): qualified name -> None (always), or the (parameter,
#: position) whose literal value says so, the value that turns gradients off, and the value
#: when it is not passed (``torch.inference_mode(False)`` records them)
NO_GRAD_CONTEXTS: Dict[str, Optional[Tuple[str, int, bool, Optional[bool]]]] = {
    **{f"{module}.no_grad": None for module in ("torch", "torch.autograd", "torch.autograd.grad_mode")},
    **{f"{module}.inference_mode": ("mode", 0, True, True) for module in ("torch", "torch.autograd", "torch.autograd.grad_mode")},
    **{f"{module}.set_grad_enabled": ("mode", 0, False, None) for module in ("torch", "torch.autograd", "torch.autograd.grad_mode")},
}
#: the tests that hold only while a model is exported (``if torch.onnx.is_in_onnx_export():``):
#: the export traces the forward pass and differentiates nothing, so no backward pass runs
#: through the ops of that branch
EXPORT_TESTS = frozenset({"torch.onnx.is_in_onnx_export", "torch.onnx.utils.is_in_onnx_export"})
#: what moves the default device of new tensors away from the CPU (a ``with torch.device(...)``
#: block does too)
DEFAULT_DEVICE_SETTERS = ("set_default_device", "set_default_tensor_type")
#: Tensor methods of the catalog that the array libraries' objects have too (NumPy's arrays and
#: pandas' Series and DataFrames: ``df.steps.cumsum()``, ``series.median(0)``), and those
#: libraries (the top-level names a module imports): on a receiver of unknown type, in a module
#: that imports one of them and nothing named for torch, such a call is taken for theirs
ARRAY_METHODS = frozenset({"cumsum", "median"})
ARRAY_LIBRARIES = frozenset({"numpy", "pandas", "xarray", "dask", "cupy", "jax"})
RESHAPES = frozenset({"view", "reshape", "permute", "expand"})
#: tensor methods that swap or move two dimensions: ``x.transpose(1, 2)`` has at least 3
AXIS_SWAPS = frozenset({"transpose", "swapaxes", "swapdims", "movedim"})
