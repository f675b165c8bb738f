"""Data the rules, the rule pages and the tests read: facts about torch, kept in one place.

Sources: ``NONDETERMINISM.md`` section 2 (switches), checked against torch 2.13's
``torch/backends/{cudnn,mkldnn,cuda}/__init__.py``.
"""

from __future__ import annotations

from typing import Dict, FrozenSet

#: attributes that really exist on the backend flag objects (union over supported torch
#: versions). ``torch.backends.cudnn`` and ``torch.backends.mkldnn`` accept any other
#: attribute silently and ignore it; ``torch.backends.cuda.matmul`` raises.
BACKEND_ATTRIBUTES: Dict[str, FrozenSet[str]] = {
    "torch.backends.cudnn": frozenset(
        {
            # flags (properties of CudnnModule)
            "enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32",
            "fp32_precision", "conv", "rnn", "depthwise_kernel",
            # module contents
            "flags", "set_flags", "is_available", "is_acceptable", "version", "CUDNN_TENSOR_DTYPES",
        }
    ),
    "torch.backends.mkldnn": frozenset(
        {
            "enabled", "deterministic", "allow_tf32", "fp32_precision", "conv", "rnn", "matmul",
            "flags", "set_flags", "is_available", "is_acl_available", "verbose",
            "VERBOSE_OFF", "VERBOSE_ON", "VERBOSE_ON_CREATION",
        }
    ),
    "torch.backends.cuda.matmul": frozenset(
        {
            "allow_tf32", "allow_fp16_reduced_precision_reduction",
            "allow_bf16_reduced_precision_reduction", "allow_fp16_accumulation", "fp32_precision",
            "allow_fp16_reduced_precision_reduction_split_k",
            "allow_bf16_reduced_precision_reduction_split_k",
        }
    ),
}

#: the settable flags among them (what a misspelling most likely meant)
BACKEND_FLAGS: Dict[str, FrozenSet[str]] = {
    "torch.backends.cudnn": frozenset(
        {"enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32", "fp32_precision"}
    ),
    "torch.backends.mkldnn": frozenset({"enabled", "deterministic", "allow_tf32", "fp32_precision"}),
    "torch.backends.cuda.matmul": BACKEND_ATTRIBUTES["torch.backends.cuda.matmul"],
}

#: ``torch.backends.cudnn.flags(...)`` parameters, in order
CUDNN_FLAGS_PARAMS = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")

#: trainers whose ``benchmark=True`` turns ``cudnn.benchmark`` on
TRAINERS_WITH_BENCHMARK = frozenset(
    {"lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer"}
)

#: functional dropout variants; ``training`` is the third positional parameter of each
FUNCTIONAL_DROPOUT = frozenset(
    f"torch.nn.functional.{name}"
    for name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout")
)
