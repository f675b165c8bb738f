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

#: the values torch accepted for ``CUBLAS_WORKSPACE_CONFIG`` in deterministic mode (1.7 to 2.9)
CUBLAS_WORKSPACE_VALUES = (":4096:8", ":16:8")
#: the first torch release without the cuBLAS workspace check (PR pytorch#161749)
CUBLAS_CHECK_REMOVED = (2, 10)

#: ``HCCL_DETERMINISTIC`` values: torch_npu lower-cases the value and compares it with "true";
#: CANN documents "true", "false" and "strict" (NONDETERMINISM.md section 2.2)
HCCL_DETERMINISTIC_VALUES = ("true", "false", "strict")
HCCL_TRUTHY = frozenset({"1", "yes", "y", "on", "enable", "enabled"})
HCCL_FALSY = frozenset({"0", "no", "n", "off", "disable", "disabled"})

#: environment variables read once (at CUDA/NCCL/HCCL initialisation or interpreter start):
#: setting them in-process after that point has no effect (NONDETERMINISM.md sections 1, 2, 5)
START_ONLY_ENV = {
    "CUBLAS_WORKSPACE_CONFIG": "cuBLAS reads it when it creates its workspace, at the first GEMM",
    "CUDA_LAUNCH_BLOCKING": "CUDA reads it when it initialises",
    "HCCL_DETERMINISTIC": "HCCL reads it when the first communicator is created",
    "NCCL_ALGO": "NCCL reads it when the first communicator is created",
    "PYTHONHASHSEED": "Python reads it only when the interpreter starts",
}

#: calls after which CUDA/NPU (or a process group) has started in this process
CUDA_STARTERS = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.cuda.init",
        "torch.cuda.set_device",
        "torch.cuda.synchronize",
        "torch.cuda.current_device",
        "torch.cuda.get_device_name",
        "torch.cuda.get_device_properties",
        "torch.cuda.mem_get_info",
        "torch.npu.set_device",
        "torch_npu.npu.set_device",
        "torch.npu.synchronize",
        "torch_npu.npu.synchronize",
    }
)
#: tensor/module methods that move data to an accelerator
DEVICE_METHODS = frozenset({"cuda", "npu"})
ACCELERATOR_PREFIXES = ("cuda", "npu")

#: trainers whose ``deterministic="warn"`` means ``use_deterministic_algorithms(True, warn_only=True)``
TRAINERS_WITH_DETERMINISTIC = TRAINERS_WITH_BENCHMARK

#: ``torch.distributed.init_process_group(backend=None, init_method=None, ...)``
INIT_PROCESS_GROUP = "torch.distributed.init_process_group"
#: of those, the ones read when a communicator is created (after ``init_process_group``)
PROCESS_GROUP_ENV = frozenset({"HCCL_DETERMINISTIC", "NCCL_ALGO"})

# -- data loading (NONDETERMINISM.md section 1.1) --------------------------------------------

#: ``torch.utils.data.DataLoader`` parameters in positional order (torch 2.13)
DATALOADER_PARAMS = (
    "dataset", "batch_size", "shuffle", "sampler", "batch_sampler", "num_workers", "collate_fn",
    "pin_memory", "drop_last", "timeout", "worker_init_fn", "multiprocessing_context", "generator",
)
DATALOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
PARTIALS = frozenset({"functools.partial"})

#: samplers and splits that draw from the global torch RNG unless given ``generator=``:
#: qualified name -> position of the ``generator`` parameter
RANDOM_SAMPLERS = {
    **{f"torch.utils.data{mod}.RandomSampler": 3 for mod in ("", ".sampler")},
    **{f"torch.utils.data{mod}.SubsetRandomSampler": 1 for mod in ("", ".sampler")},
    **{f"torch.utils.data{mod}.WeightedRandomSampler": 3 for mod in ("", ".sampler")},
    **{f"torch.utils.data{mod}.random_split": 2 for mod in ("", ".dataset")},
}
DISTRIBUTED_SAMPLERS = frozenset(
    {"torch.utils.data.DistributedSampler", "torch.utils.data.distributed.DistributedSampler"}
)
#: ``DistributedSampler(dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False)``
DISTRIBUTED_SAMPLER_SHUFFLE_POSITION = 3

#: calls that seed a generator with their first argument (for RPL303)
SEEDING_CALLS = frozenset(
    {
        "random.seed", "random.Random", "numpy.random.seed", "numpy.random.default_rng",
        "numpy.random.RandomState", "torch.manual_seed", "torch.random.manual_seed",
        "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
        "lightning.seed_everything", "pytorch_lightning.seed_everything",
        "lightning.fabric.utilities.seed.seed_everything", "transformers.set_seed",
        "accelerate.utils.set_seed", "repro_lint.runtime.seed_everything",
    }
)
#: names whose value differs per worker (inside a worker process)
WORKER_DEPENDENT_CALLS = frozenset({"initial_seed", "get_worker_info"})

#: dropout layers and calls (RPL502); ``torch.*`` spellings are the ops behind the functional ones
DROPOUT_MODULES = frozenset(
    f"torch.nn.{name}"
    for name in ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout")
)
DROPOUT_CALLS = FUNCTIONAL_DROPOUT | frozenset(
    f"torch.{name}" for name in ("dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout")
)
