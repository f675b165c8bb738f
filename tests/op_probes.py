"""Calls of the ops in ``repro_lint/opcatalog.py``, to check the catalog against torch itself.

``tests/test_op_probes.py`` runs them on the CPU (and on CUDA when there is a device);
``scripts/gpu_check.py`` runs them on a GPU and prints what each did. Each probe builds its
inputs from the seeded generators on ``device``, calls one op (and its backward pass where the
catalog's bullet is about differentiating) and returns the tensors it produced, so that
``repro_lint.runtime.check_determinism`` can run it twice and compare the results bitwise. A
probe is named by the catalog entry it exercises (``Op.name``), plus a variant label; ``expect``
is ``"catalog"`` when the op should raise under ``torch.use_deterministic_algorithms(True)`` exactly when the catalog
files it under "raises" for the installed torch, or ``False`` for a variant that a rule's
condition leaves out (``mode="nearest"``, a global pool, ``reduction="none"``, ...), which
must not raise. A catalog entry applies to a probe's device when its ``device`` names it
(``"CUDA"``, ``"CPU"``, ``"CPU and CUDA"``, ``"any device"``); an op that no applicable entry
files under "raises" must run under the flag.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, List, NamedTuple, Optional, Tuple, Union

from repro_lint.opcatalog import OPS, RAISES, Op, Version
from repro_lint.runtime import ReproducibilityWarning, check_determinism

NOT_DETERMINISTIC = "does not have a deterministic implementation"


class Probe(NamedTuple):
    op: str
    variant: str
    expect: Union[str, bool]
    run: Callable[[], List[Any]]
    #: the device kinds ("cpu", "cuda") it runs on; empty: all
    only: Tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.op} [{self.variant}]" if self.variant else self.op


def entries(name: str, device: str) -> List[Op]:
    """The catalog entries named ``name`` that apply on ``device`` ("cpu" or "cuda")."""
    kind = device.split(":")[0].upper()
    return [op for op in OPS if op.name == name
            and (op.device == "any device" or kind in op.device.upper().replace(" AND ", " ").split())]


def expected_to_raise(probe: Probe, version: Version, device: str) -> bool:
    if probe.expect is False:
        return False
    return any(op.category(version) == RAISES for op in entries(probe.op, device))


class Outcome(NamedTuple):
    raised: bool
    detail: str
    #: the results of two runs under the flag were bitwise equal (None: it raised)
    repeatable: Optional[bool]


def outcome(probe: Probe) -> Outcome:
    """``probe`` run twice by ``check_determinism``, which seeds every run with
    ``seed_everything`` (the flag on) and compares the results bitwise."""
    try:
        result = _checked(probe.run, 2)
    except RuntimeError as exc:
        message = str(exc).splitlines()[0]
        if NOT_DETERMINISTIC not in message:
            raise
        return Outcome(True, message[:120], None)
    return Outcome(False, "ran", result.ok)


def judge(probe: Probe, version: Version, device: str) -> Tuple[bool, Outcome, str]:
    """Does ``probe`` behave under the flag as the catalog says on ``device``? (ok, what it
    did, and a line saying so)."""
    result = outcome(probe)
    expected = expected_to_raise(probe, version, device)
    filed = ", ".join(f"{op.device}: {op.category(version) or 'not listed'}"
                      for op in entries(probe.op, device)) or f"no entry for {device}"
    if result.raised:
        line = f"raised under the flag ({filed}): {result.detail}"
    else:
        line = (f"ran under the flag, two runs {'bitwise equal' if result.repeatable else 'DIFFER'}"
                f" ({filed})")
    if result.raised != expected:
        line += (f"; the catalog says it should {'' if expected else 'not '}raise: update "
                 "repro_lint/opcatalog.py (spans keyed by version) and regenerate the rule pages")
    return result.raised == expected and result.repeatable is not False, result, line


def differs_without_flag(torch: Any, probe: Probe, runs: int = 3) -> bool:
    """Did ``runs`` seeded runs with ``torch.use_deterministic_algorithms`` off (the other
    switches as ``seed_everything`` sets them) give results that differ bitwise?"""

    def unflagged() -> List[Any]:
        torch.use_deterministic_algorithms(False)  # check_determinism turned it on, and restores it
        return probe.run()

    return not _checked(unflagged, runs).ok


def _checked(fn: Callable[[], List[Any]], runs: int) -> Any:
    with warnings.catch_warnings():
        # seed_everything's PYTHONHASHSEED warning: about the interpreter, not the op
        warnings.simplefilter("ignore", ReproducibilityWarning)
        return check_determinism(fn, runs=runs)


def probes(torch: Any, device: str) -> List[Probe]:
    F = torch.nn.functional
    nn = torch.nn

    def leaf(*shape: int, low: float = -1.0) -> Any:
        return (torch.rand(*shape, device=device) * (1 - low) + low).requires_grad_()

    def back(out: Any, *inputs: Any) -> List[Any]:
        out.backward(torch.rand_like(out))
        return [out.detach()] + [x.grad for x in inputs]

    def module(cls: Any, *args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs).to(device)

    def bins(n: int, k: int) -> Any:
        return torch.randint(0, k, (n,), device=device)

    def conv(cls: Any, dims: int) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            layer = module(cls, 8, 16, 3)
            x = leaf(4, 8, *(12,) * dims)
            return back(layer(x), x) + [layer.weight.grad]
        return run

    def pool(cls: Any, dims: int, *args: Any, **kwargs: Any) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            x = leaf(4, 8, *(16,) * dims)
            return back(module(cls, *args, **kwargs)(x), x)
        return run

    def unpool(dims: int) -> Callable[[], List[Any]]:
        pool_fn = getattr(F, f"max_pool{dims}d")
        unpool_cls = getattr(nn, f"MaxUnpool{dims}d")

        def run() -> List[Any]:
            x = torch.rand(4, 8, *(16,) * dims, device=device)
            pooled, indices = pool_fn(x, 2, return_indices=True)
            return [module(unpool_cls, 2)(pooled, indices)]
        return run

    def interpolate(mode: str, dims: int, **extra: Any) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            x = leaf(4, 8, *(16,) * dims)
            if mode not in ("nearest", "area"):
                extra.setdefault("align_corners", False)
            return back(F.interpolate(x, scale_factor=2, mode=mode, **extra), x)
        return run

    def embedding(max_norm: Any = None) -> List[Any]:
        layer = module(nn.Embedding, 64, 32)
        out = layer(torch.randint(0, 64, (4096,), device=device))
        return back(out) + [layer.weight.grad]

    def embedding_bag(mode: str) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            layer = module(nn.EmbeddingBag, 64, 32, mode=mode)
            out = layer(torch.randint(0, 64, (512, 8), device=device))
            return back(out) + [layer.weight.grad]
        return run

    def nll(reduction: str, spatial: bool) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            shape = (8, 10, 16, 16) if spatial else (2048, 10)
            x = leaf(*shape)
            target_shape = (8, 16, 16) if spatial else (2048,)
            target = torch.randint(0, 10, target_shape, device=device)
            weight = torch.rand(10, device=device)
            out = F.nll_loss(F.log_softmax(x, 1), target, weight=weight, reduction=reduction)
            return back(out, x)
        return run

    def put(accumulate: bool) -> List[Any]:
        x = torch.zeros(64, device=device)
        return [x.put_(bins(4096, 64), torch.rand(4096, device=device), accumulate=accumulate)]

    def index_put(accumulate: bool) -> List[Any]:
        x = torch.zeros(64, device=device)
        return [x.index_put_((bins(4096, 64),), torch.rand(4096, device=device), accumulate=accumulate)]

    def scatter_reduce(reduce: str) -> List[Any]:
        src = torch.rand(4096, device=device) + 0.5
        return [torch.zeros(64, device=device).scatter_reduce_(0, bins(4096, 64), src, reduce=reduce)]

    def scattered_sum(mean: bool) -> Any:
        src, index = torch.rand(4096, 8, device=device), bins(4096, 64)
        out = src.new_zeros(64, 8).scatter_add_(0, index.view(-1, 1).expand_as(src), src)
        if not mean:
            return out
        count = src.new_zeros(64).scatter_add_(0, index, src.new_ones(4096)).clamp(min=1)
        return out / count.view(-1, 1)

    def upsample_bilinear() -> List[Any]:
        x = leaf(4, 8, 16, 16)
        return back(module(nn.UpsamplingBilinear2d, scale_factor=2)(x), x)

    def advanced_index() -> List[Any]:
        x = leaf(64, 32)
        return back(x[(bins(4096, 64),)], x)

    def quantized_resize() -> List[Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # quantized tensors are deprecated in torch 2.13
            q = torch.quantize_per_tensor(torch.rand(64, device=device), 0.1, 0, torch.quint8)
        return [q.resize_(8, 8).dequantize()]

    def sparse_bmm() -> List[Any]:
        dense = torch.rand(4, 64, 64, device=device)
        sparse = (dense * (dense > 0.9)).to_sparse()
        other = leaf(4, 64, 32)
        return back(torch.bmm(sparse, other), other)

    def ctc() -> List[Any]:
        log_probs = leaf(50, 16, 20)
        targets = torch.randint(1, 20, (16, 30), device=device)
        out = F.ctc_loss(F.log_softmax(log_probs, 2), targets, torch.full((16,), 50, device=device),
                         torch.randint(10, 30, (16,), device=device))
        return back(out, log_probs)

    def grid_sample() -> List[Any]:
        x = leaf(4, 8, 16, 16)
        grid = torch.rand(4, 24, 24, 2, device=device) * 2 - 1
        return back(F.grid_sample(x, grid, align_corners=False), x)

    def gathered() -> List[Any]:
        x = leaf(64, 32)
        return back(x.gather(0, torch.randint(0, 64, (4096, 32), device=device)), x)

    def selected() -> List[Any]:
        x = leaf(64, 32)
        return back(x.index_select(0, bins(4096, 64)), x)

    def repeated() -> List[Any]:
        x = leaf(64, 32)
        return back(x.repeat_interleave(64, dim=0), x)

    def reflect(cls: Any, dims: int) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            x = leaf(4, 8, *(16,) * dims)
            return back(module(cls, 2)(x), x)
        return run

    def padded(mode: str, dims: int = 2) -> Callable[[], List[Any]]:
        def run() -> List[Any]:
            x = leaf(4, 8, *(16,) * dims)
            return back(F.pad(x, (2, 2) * dims, mode=mode), x)
        return run

    out: List[Probe] = [
        *(Probe(f"nn.{cls}", "", "catalog", conv(getattr(nn, cls), dims)) for cls, dims in (
            ("Conv1d", 1), ("Conv2d", 2), ("Conv3d", 3),
            ("ConvTranspose1d", 1), ("ConvTranspose2d", 2), ("ConvTranspose3d", 3))),
        *(Probe(f"nn.ReplicationPad{d}d", "", "catalog", reflect(getattr(nn, f"ReplicationPad{d}d"), d))
          for d in (1, 2, 3)),
        Probe("bilinear upsampling", "", "catalog", upsample_bilinear),
        Probe("__getitem__", "x[[index]]", "catalog", advanced_index),
        Probe("resize_ (quantized)", "", "catalog", quantized_resize, only=("cpu",)),
        Probe("torch.bmm (sparse)", "", "catalog", sparse_bmm),
        Probe("index_put(accumulate=False)", "", "catalog", lambda: index_put(False)),
        Probe("index_put(accumulate=True)", "", "catalog", lambda: index_put(True)),
        Probe("scatter_add", "", "catalog", lambda: [torch.zeros(64, device=device).scatter_add_(
            0, bins(4096, 64), torch.rand(4096, device=device))]),
        # torch_scatter's and PyG's ``scatter`` with a sum or mean reduction: the torch op they call
        # (``src.new_zeros(size).scatter_add_(dim, index, src)``, the mean divided by the counts)
        Probe("scatter(reduce=sum/mean)", "sum", "catalog", lambda: [scattered_sum(False)]),
        Probe("scatter(reduce=sum/mean)", "mean", "catalog", lambda: [scattered_sum(True)]),
        # PyG's readouts with a batch vector: the same sums and means over the graphs of a batch
        Probe("global_add_pool/global_mean_pool(batch)", "add", "catalog", lambda: [scattered_sum(False)]),
        Probe("global_add_pool/global_mean_pool(batch)", "mean", "catalog", lambda: [scattered_sum(True)]),
        Probe("gather", "", "catalog", gathered),
        Probe("index_add", "", "catalog", lambda: [torch.zeros(64, 8, device=device).index_add_(
            0, bins(4096, 64), torch.rand(4096, 8, device=device))]),
        Probe("index_select", "", "catalog", selected),
        Probe("repeat_interleave", "", "catalog", repeated),
        Probe("index_copy", "", "catalog", lambda: [torch.zeros(4096, 8, device=device).index_copy_(
            0, torch.randperm(4096, device=device), torch.rand(4096, 8, device=device))]),
        Probe("scatter (tensor src)", "", "catalog", lambda: [torch.zeros(64, device=device).scatter_(
            0, bins(4096, 64), torch.rand(4096, device=device))]),
        Probe("scatter_reduce(sum/mean)", "sum", "catalog", lambda: scatter_reduce("sum")),
        Probe("scatter_reduce(sum/mean)", "mean", "catalog", lambda: scatter_reduce("mean")),
        Probe("scatter_reduce(prod)", "", "catalog", lambda: scatter_reduce("prod")),
        Probe("nn.MaxPool3d", "", "catalog", pool(nn.MaxPool3d, 3, 3, stride=2)),
        Probe("nn.Embedding", "", "catalog", embedding),
        Probe("nn.AvgPool3d", "", "catalog", pool(nn.AvgPool3d, 3, 3, stride=2)),
        Probe("nn.AdaptiveAvgPool2d", "output 5", "catalog", pool(nn.AdaptiveAvgPool2d, 2, 5)),
        Probe("nn.AdaptiveAvgPool2d", "output 1 (global)", False, pool(nn.AdaptiveAvgPool2d, 2, 1)),
        Probe("nn.AdaptiveAvgPool3d", "output 5", "catalog", pool(nn.AdaptiveAvgPool3d, 3, 5)),
        Probe("nn.AdaptiveAvgPool3d", "output 1 (global)", False, pool(nn.AdaptiveAvgPool3d, 3, 1)),
        Probe("nn.AdaptiveMaxPool2d", "", "catalog", pool(nn.AdaptiveMaxPool2d, 2, 5)),
        Probe("nn.FractionalMaxPool2d", "", "catalog", pool(nn.FractionalMaxPool2d, 2, 3, output_size=8)),
        Probe("nn.FractionalMaxPool3d", "", "catalog", pool(nn.FractionalMaxPool3d, 3, 3, output_size=8)),
        *(Probe(f"nn.MaxUnpool{d}d", "", "catalog", unpool(d)) for d in (1, 2, 3)),
        *(Probe("F.interpolate(linear/bicubic)", mode, "catalog", interpolate(mode, dims))
          for mode, dims in (("linear", 1), ("bicubic", 2))),
        *(Probe("F.interpolate(bilinear/trilinear)", mode, "catalog", interpolate(mode, dims))
          for mode, dims in (("bilinear", 2), ("trilinear", 3))),
        Probe("F.interpolate(bilinear/trilinear)", "bilinear, align_corners=True", "catalog",
              interpolate("bilinear", 2, align_corners=True)),
        Probe("F.interpolate(bilinear, antialias=True)", "", "catalog",
              interpolate("bilinear", 2, antialias=True)),
        *(Probe("F.interpolate(area)", f"{dims}-d", "catalog", interpolate("area", dims)) for dims in (2, 3)),
        Probe("F.interpolate(linear/bicubic)", "nearest", False, interpolate("nearest", 2)),
        *(Probe(f"nn.ReflectionPad{d}d", "", "catalog", reflect(getattr(nn, f"ReflectionPad{d}d"), d))
          for d in (1, 2, 3)),
        Probe('F.pad(mode="reflect")', "2 values", "catalog", padded("reflect", 1)),
        Probe('F.pad(mode="reflect")', "6 values", "catalog", padded("reflect", 3)),
        Probe('F.pad(mode="reflect", 4 values)', "", "catalog", padded("reflect", 2)),
        Probe('F.pad(mode="reflect")', 'mode="replicate"', False, padded("replicate")),
        Probe("nll_loss (spatial)", "(N, C, H, W), mean", "catalog", nll("mean", True)),
        Probe("nll_loss (spatial)", 'reduction="none"', False, nll("none", True)),
        Probe("nll_loss (spatial)", "(N, C), mean", False, nll("mean", False)),
        Probe("nn.CTCLoss", "", "catalog", ctc),
        Probe('nn.EmbeddingBag(mode="max")', "", "catalog", embedding_bag("max")),
        Probe('nn.EmbeddingBag(mode="max")', 'mode="sum"', False, embedding_bag("sum")),
        Probe("put_(accumulate=False)", "", "catalog", lambda: put(False)),
        Probe("put_(accumulate=True)", "", "catalog", lambda: put(True)),
        Probe("histc", "", "catalog", lambda: [torch.rand(1 << 16, device=device).histc(64)]),
        Probe("bincount(weights=)", "", "catalog",
              lambda: [bins(1 << 16, 64).bincount(torch.rand(1 << 16, device=device))]),
        Probe("bincount(weights=)", "no weights", False, lambda: [bins(1 << 16, 64).bincount()]),
        Probe("median(dim)", "", "catalog", lambda: list(torch.rand(64, 255, device=device).median(1))),
        Probe("median(dim)", "no dim", False, lambda: [torch.rand(64, 255, device=device).median()]),
        Probe("F.grid_sample", "", "catalog", grid_sample),
        Probe("cumsum", "float32", "catalog", lambda: [torch.rand(1 << 16, device=device).cumsum(0)]),
        Probe("cumsum", "float64, 2-D, dim 1", "catalog",
              lambda: [torch.rand(64, 4096, device=device, dtype=torch.float64).cumsum(1)]),
        Probe("cumsum", "float16, 2-D, dim 0", "catalog",
              lambda: [torch.rand(4096, 64, device=device).half().cumsum(0)]),
        Probe("cumsum", "float32, backward", "catalog", lambda: (lambda x: back(x.cumsum(0), x))(leaf(1 << 16))),
        Probe("cumsum", "int64", False, lambda: [bins(1 << 16, 64).cumsum(0)]),
        Probe("kthvalue", "", "catalog", lambda: list(torch.rand(64, 255, device=device).kthvalue(7, 1))),
    ]
    kind = device.split(":")[0]
    return [probe for probe in out if not probe.only or kind in probe.only]
