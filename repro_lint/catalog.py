"""Data the rules, the rule pages and the tests read: facts about torch, kept in one place.

Sources: ``NONDETERMINISM.md`` section 2 (switches), checked against torch 2.13's
``torch/backends/{cudnn,mkldnn,cuda}/__init__.py``.

It is one module because it is the one place where knowledge about torch and its libraries
lives (supporting a library is an edit here, and nowhere else); it holds tables, not logic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Optional, Tuple

#: library modules whose public names their package re-exports, as (module prefix, package
#: prefix): ``from torchvision.transforms import transforms; transforms.RandomCrop(32)`` and
#: ``from torch.nn.modules.dropout import Dropout`` name what ``torchvision.transforms.RandomCrop``
#: and ``torch.nn.Dropout`` name, and the tables below list only the package's spelling
#: (:func:`public_name`). ``torch.nn.modules`` holds one submodule per family of layers.
REEXPORTING_PACKAGES = (
    ("torchvision.transforms.transforms.", "torchvision.transforms."),
    ("torch.utils.data.dataloader.", "torch.utils.data."),
    ("torch.utils.data.sampler.", "torch.utils.data."),
    ("torch.utils.data.dataset.", "torch.utils.data."),
    ("torch.utils.data.distributed.", "torch.utils.data."),
    ("torch.nn.modules.", "torch.nn."),
)
_REEXPORTED = tuple(module for module, _ in REEXPORTING_PACKAGES)


def public_name(qualified: str) -> str:
    """``qualified`` as its package spells it (:data:`REEXPORTING_PACKAGES`): a class or function
    of an implementation module, named through its package (``torch.nn.modules.dropout.Dropout``
    is ``torch.nn.Dropout``); any other name unchanged."""
    if not qualified.startswith(_REEXPORTED):
        return qualified
    for module, package in REEXPORTING_PACKAGES:
        if qualified.startswith(module):
            rest = qualified[len(module):]
            if module == "torch.nn.modules." and "." in rest and rest[:1].islower():
                rest = rest.partition(".")[2]  # the family's submodule (``dropout.Dropout``)
            return package + rest
    return qualified


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

#: trainers whose ``benchmark=True`` turns ``cudnn.benchmark`` on (also Lightning 1.x's
#: ``Trainer.from_argparse_args(args, benchmark=True)``, whose keywords override the options)
TRAINERS_WITH_BENCHMARK = frozenset(
    {
        name
        for trainer in ("lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer")
        for name in (trainer, f"{trainer}.from_argparse_args")
    }
)

#: functional dropout variants; ``training`` is the third positional parameter of each
FUNCTIONAL_DROPOUT = frozenset(
    f"torch.nn.functional.{name}"
    for name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout")
)
#: where a functional dropout takes ``training`` (``dropout(input, p=0.5, training=True, inplace=False)``)
FUNCTIONAL_DROPOUT_TRAINING = ("training", 2)

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

#: torch's calls that run a function (their first argument, ``fn``) in new processes started with
#: the spawn method: each child imports the module afresh (not as ``__main__``) and calls the
#: function, so nothing the parent seeded or switched reaches it (NONDETERMINISM.md section 1)
SPAWN_CALLS = frozenset(f"torch.multiprocessing{module}.{name}" for module in ("", ".spawn") for name in ("spawn", "start_processes"))

#: calls that start a new interpreter (or another program), which reads the environment as it
#: starts: ``PYTHONHASHSEED`` set before one of them, in the same function, is set for it
#: (NONDETERMINISM.md section 1: "subprocess, spawn children"; torch's ``spawn`` and
#: ``start_processes`` start their workers with the spawn method by default)
NEW_PROCESS_CALLS = frozenset(
    {f"subprocess.{name}" for name in ("Popen", "run", "call", "check_call", "check_output", "getoutput", "getstatusoutput")}
    | {f"os.{name}" for name in ("system", "popen", "posix_spawn", "posix_spawnp")}
    | {f"os.{kind}{suffix}" for kind in ("execv", "execl", "spawnv", "spawnl") for suffix in ("", "e", "p", "pe")}
    | SPAWN_CALLS
)

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
#: DGL's node/edge ``DataLoader``: its parameters in positional order, up to ``shuffle``
DGL_NODE_LOADER_PARAMS = (
    "graph", "indices", "graph_sampler", "device", "use_ddp", "ddp_seed", "batch_size", "drop_last", "shuffle",
)
#: DataLoaders, and the libraries' DataLoader subclasses that hand their other keywords to
#: DataLoader unchanged: qualified name -> the parameters they take by position (the
#: DataLoader parameters not listed are keyword-only there, through ``**kwargs``)
DATALOADERS: Dict[str, Tuple[str, ...]] = {
    "torch.utils.data.DataLoader": DATALOADER_PARAMS,
    "torch.utils.data.dataloader.DataLoader": DATALOADER_PARAMS,
    # torchdata 0.11: StatefulDataLoader(dataset, batch_size, shuffle, ..., generator, *, ...)
    "torchdata.stateful_dataloader.StatefulDataLoader": DATALOADER_PARAMS,
    "torchdata.stateful_dataloader.stateful_dataloader.StatefulDataLoader": DATALOADER_PARAMS,
    # PyG 2.x: DataLoader(dataset, batch_size=1, shuffle=False, follow_batch, exclude_keys, **kwargs)
    "torch_geometric.loader.DataLoader": ("dataset", "batch_size", "shuffle"),
    "torch_geometric.loader.dataloader.DataLoader": ("dataset", "batch_size", "shuffle"),
    # PyG's other batch loaders, and the 1.x module path of all three (still importable, with
    # a deprecation warning, in 2.x): (dataset, batch_size=1, shuffle=False, **kwargs)
    **{
        f"torch_geometric.{module}.{name}": ("dataset", "batch_size", "shuffle")
        for module, names in (
            ("data", ("DataLoader", "DataListLoader", "DenseDataLoader")),
            ("data.dataloader", ("DataLoader", "DataListLoader", "DenseDataLoader")),
            ("loader", ("DataListLoader", "DenseDataLoader")),
        )
        for name in names
    },
    # NeighborLoader(data, num_neighbors, input_nodes, ..., **kwargs): NodeLoader passes
    # shuffle, num_workers, worker_init_fn and generator to DataLoader as keywords
    **{
        f"torch_geometric.loader.{name}": ("data",)
        for name in (
            "NeighborLoader", "neighbor_loader.NeighborLoader",
            "LinkNeighborLoader", "link_neighbor_loader.LinkNeighborLoader",
        )
    },
    # PyG's samplers that are DataLoaders and hand their other keywords (shuffle, num_workers,
    # worker_init_fn, generator) to it: ClusterLoader(cluster_data, **kwargs),
    # GraphSAINT*Sampler(data, batch_size, [walk_length,] num_steps=1, sample_coverage=0,
    # save_dir=None, log=True, **kwargs) (their batch_size is their own: the DataLoader gets 1),
    # ShaDowKHopSampler(data, depth, num_neighbors, node_idx=None, replace=False, **kwargs),
    # RandomNodeLoader(data, num_parts, **kwargs); in 2.x under torch_geometric.loader, in 1.x
    # (still importable in 2.x) under torch_geometric.data
    **{
        f"torch_geometric.{package}.{name}": params
        for package in ("loader", "data")
        for names, params in (
            (("ClusterLoader", "cluster.ClusterLoader"), ("cluster_data",)),
            (
                (
                    "GraphSAINTSampler", "GraphSAINTNodeSampler", "GraphSAINTEdgeSampler",
                    "graph_saint.GraphSAINTSampler", "graph_saint.GraphSAINTNodeSampler",
                    "graph_saint.GraphSAINTEdgeSampler",
                ),
                ("data", "batch_size", "num_steps", "sample_coverage", "save_dir", "log"),
            ),
            (
                ("GraphSAINTRandomWalkSampler", "graph_saint.GraphSAINTRandomWalkSampler"),
                ("data", "batch_size", "walk_length", "num_steps", "sample_coverage", "save_dir", "log"),
            ),
            (("ShaDowKHopSampler", "shadow.ShaDowKHopSampler"), ("data", "depth", "num_neighbors", "node_idx", "replace")),
        )
        for name in names
    },
    **{
        f"torch_geometric.loader.{name}": ("data", "num_parts")
        for name in ("RandomNodeLoader", "random_node_loader.RandomNodeLoader")
    },
    # PyG 1.x-2.0 names, DataLoaders too: NeighborSampler(edge_index, sizes, node_idx=None,
    # num_nodes=None, return_e_id=True, transform=None, **kwargs) and
    # RandomNodeSampler(data, num_parts, shuffle=False, **kwargs), under torch_geometric.loader
    # (2.0) or torch_geometric.data (1.x)
    **{
        f"torch_geometric.{package}.{name}": params
        for package in ("loader", "data")
        for names, params in (
            (
                ("NeighborSampler", "neighbor_sampler.NeighborSampler"),
                ("edge_index", "sizes", "node_idx", "num_nodes", "return_e_id", "transform"),
            ),
            (("RandomNodeSampler", "random_node_sampler.RandomNodeSampler"), ("data", "num_parts", "shuffle")),
        )
        for name in names
    },
    # MONAI (monai/data/dataloader.py): DataLoader(dataset, num_workers=0, **kwargs), the other
    # keywords handed to torch's DataLoader (see LOADER_WORKER_INIT for its worker_init_fn)
    "monai.data.DataLoader": ("dataset", "num_workers"),
    "monai.data.dataloader.DataLoader": ("dataset", "num_workers"),
    # DGL 2.x: GraphDataLoader(dataset, collate_fn=None, use_ddp=False, ddp_seed=0, **kwargs)
    "dgl.dataloading.GraphDataLoader": ("dataset", "collate_fn", "use_ddp", "ddp_seed"),
    "dgl.dataloading.dataloader.GraphDataLoader": ("dataset", "collate_fn", "use_ddp", "ddp_seed"),
    # DGL >= 0.8: the node/edge loader DataLoader(graph, indices, graph_sampler, device=None,
    # use_ddp=False, ddp_seed=0, batch_size=1, drop_last=False, shuffle=False, ..., **kwargs),
    # and its aliases NodeDataLoader/EdgeDataLoader (EdgeDataLoader adds keywords after shuffle)
    **{
        f"dgl.dataloading.{module}{name}": DGL_NODE_LOADER_PARAMS
        for module in ("", "dataloader.")
        for name in ("DataLoader", "NodeDataLoader", "EdgeDataLoader")
    },
}
#: the word in the name of a class imported from another module that may be a project's own
#: DataLoader subclass (the project context reads that module to tell)
LOADER_WORD = "Loader"
#: the word in a loader factory's name (``build_dataloader``), in lower case
FACTORY_WORD = "loader"
#: loaders that, given this keyword true, shuffle with a DistributedSampler of their own seeded
#: from ``ddp_seed`` (DGL pops ``shuffle`` into it): no draw from the global torch RNG
OWN_SAMPLER_KEYWORD = {
    "dgl.dataloading.GraphDataLoader": "use_ddp",
    "dgl.dataloading.dataloader.GraphDataLoader": "use_ddp",
}
#: loaders that install a ``worker_init_fn`` of their own when the call passes none: MONAI's
#: DataLoader sets ``monai.data.utils.worker_init_fn`` (it seeds the dataset's randomizable
#: transforms from each worker's torch seed)
LOADER_WORKER_INIT = frozenset({"monai.data.DataLoader", "monai.data.dataloader.DataLoader"})
#: loaders that shuffle their index set themselves, each epoch, with a draw from a global RNG
#: they take no generator for (``shuffle`` never reaches DataLoader, so ``generator=`` does not
#: change the order): qualified name -> that RNG. DGL's node/edge DataLoader permutes its
#: index tensor with ``np.random.shuffle`` (DGL >= 1.0; ``torch.randperm`` in 0.8/0.9), also
#: with ``use_ddp=True`` (on rank 0, then shared)
SHUFFLES_ITSELF = {
    f"dgl.dataloading.{module}{name}": "NumPy"
    for module in ("", "dataloader.")
    for name in ("DataLoader", "NodeDataLoader", "EdgeDataLoader")
}
PARTIALS = frozenset({"functools.partial"})
#: the methods of a LightningModule that Lightning's evaluation loops run with autograd off
#: (``torch.no_grad()``, or ``torch.inference_mode()`` where the Trainer's ``inference_mode`` is on)
LIGHTNING_EVAL_STEPS = frozenset({"validation_step", "test_step", "predict_step"})
#: the methods of a LightningModule or LightningDataModule that build the loaders the Trainer runs
LIGHTNING_LOADER_HOOKS = frozenset({"train_dataloader", "val_dataloader", "test_dataloader", "predict_dataloader"})
#: Trainer methods that take loaders (``trainer.fit(model, train_loader, val_loader)``), and
#: Fabric's ``setup_dataloaders``, which installs the same worker seeding (``_auto_add_worker_init_fn``)
LIGHTNING_LOADER_CALLS = frozenset({"fit", "validate", "test", "predict", "setup_dataloaders"})
#: the effect of ``seed_everything(..., workers=True)``: Lightning's Trainer then installs its
#: rank-aware ``pl_worker_init_function`` on loaders without a ``worker_init_fn``
SEEDS_WORKERS = "seeds_workers"


def loader_position(params: Tuple[str, ...], name: str) -> Optional[int]:
    """The position of DataLoader parameter ``name`` in a loader's positional ``params``."""
    return params.index(name) if name in params else None

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

#: names whose value differs per worker and per epoch (inside a worker process): the worker's
#: torch seed, and the generators DataLoader seeded from it before ``worker_init_fn`` runs
WORKER_DEPENDENT_CALLS = frozenset({"initial_seed", "get_worker_info", "get_state", "getstate"})
#: keywords whose callback runs in each DataLoader worker process, not in the main process:
#: what it seeds there leaves the main process's generators as they were
WORKER_CALLBACKS = frozenset({"worker_init_fn"})
#: process pools whose ``initializer=`` runs in each worker process (``multiprocessing.Pool``,
#: ``torch.multiprocessing.Pool``, ``concurrent.futures.ProcessPoolExecutor``; not a thread pool,
#: whose threads share the main process's generators)
PROCESS_POOLS = frozenset({"Pool", "ProcessPoolExecutor"})
#: the generators a DataLoader worker seeds itself before it runs anything (``random.seed`` and
#: ``np.random.seed`` from ``base_seed + worker_id``; reference 1.1), where ``base_seed`` comes
#: from the loader's ``generator`` or the main process's torch RNG: what workers draw from them
#: depends on torch's seed, not on theirs in the main process
WORKER_SEEDED = frozenset({"numpy", "random"})
#: builtins that compute a seed from their arguments alone (any other call may vary)
ARITHMETIC_BUILTINS = frozenset({"int", "abs", "hash", "min", "max", "sum", "len", "round", "float", "str", "divmod", "pow"})

#: dropout layers and calls (RPL502); ``torch.*`` spellings are the ops behind the functional ones
DROPOUT_MODULES = frozenset(
    f"torch.nn.{name}"
    for name in ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout")
)
DROPOUT_CALLS = FUNCTIONAL_DROPOUT | frozenset(
    f"torch.{name}" for name in ("dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout")
)


# -- seeding: generators, the APIs that seed or consume them, and library helpers -----------
# Sources: NONDETERMINISM.md section 1 (sources of randomness) and section 4 (what each library
# helper really does). Read by repro_lint.classify (what one call does), the RPL1xx rules
# and RPL202, their pages and their tests. Names are fully qualified, as the import table
# resolves them.


#: the global generators the seeding rules track
GENERATORS = ("torch", "numpy", "random")
#: the effect of seeding only the device generators (``torch.cuda.manual_seed_all``)
DEVICE_SEEDS = "cuda"
#: effects beyond the generators: ``cuda`` (only the device generators were seeded: not the CPU
#: generator that initialises weights), ``deterministic`` (``torch.use_deterministic_algorithms``
#: on) and ``cudnn_deterministic`` (``torch.backends.cudnn.deterministic = True`` only)
DETERMINISM_EFFECTS = frozenset({"deterministic", "cudnn_deterministic"})
#: words of an option made for determinism (``if args.deterministic:``): a switch that such an
#: option turns on is the user's choice and counts as on, as ``deterministic=args.deterministic`` does
DETERMINISM_OPTION_WORDS = ("determin", "reproduc")
#: the one of them that makes ops such as ``index_add_`` and ``scatter_add_`` deterministic
DETERMINISTIC_ALGORITHMS = frozenset({"deterministic"})

#: calls that return a generator's state, by the call that sets it back: ``random.setstate(s)``
#: after ``s = random.getstate()`` in the same code restores the state it had, which seeds
#: nothing (a draw in between is put back, not made reproducible)
STATE_GETTERS: Dict[str, FrozenSet[str]] = {
    "random.setstate": frozenset({"random.getstate"}),
    "numpy.random.set_state": frozenset({"numpy.random.get_state"}),
    "torch.set_rng_state": frozenset({"torch.get_rng_state", "torch.random.get_rng_state"}),
    "torch.random.set_rng_state": frozenset({"torch.get_rng_state", "torch.random.get_rng_state"}),
}

#: direct seeding calls and the effect of each
SEED_CALLS: Dict[str, FrozenSet[str]] = {
    "torch.manual_seed": frozenset({"torch"}),
    "torch.random.manual_seed": frozenset({"torch"}),
    "torch.set_rng_state": frozenset({"torch"}),
    "torch.random.set_rng_state": frozenset({"torch"}),
    "numpy.random.seed": frozenset({"numpy"}),
    "numpy.random.set_state": frozenset({"numpy"}),
    "random.seed": frozenset({"random"}),
    "random.setstate": frozenset({"random"}),
    # device generators only: the CPU generator that initialises weights stays unseeded
    "torch.cuda.manual_seed": frozenset({DEVICE_SEEDS}),
    "torch.cuda.manual_seed_all": frozenset({DEVICE_SEEDS}),
    "torch.cuda.random.manual_seed": frozenset({DEVICE_SEEDS}),
    "torch.cuda.random.manual_seed_all": frozenset({DEVICE_SEEDS}),
    "torch.npu.manual_seed": frozenset({DEVICE_SEEDS}),
    "torch.npu.manual_seed_all": frozenset({DEVICE_SEEDS}),
    "torch_npu.npu.manual_seed": frozenset({DEVICE_SEEDS}),
    "torch_npu.npu.manual_seed_all": frozenset({DEVICE_SEEDS}),
    "torch.xpu.manual_seed": frozenset({DEVICE_SEEDS}),
    "torch.xpu.manual_seed_all": frozenset({DEVICE_SEEDS}),
    "torch.mps.manual_seed": frozenset({DEVICE_SEEDS}),
}

#: calls that reseed a global generator from OS entropy when the seed is left out (or None):
#: qualified name -> (generator, (parameter, position) of the seed, or None: it takes none).
#: ``np.random.seed()``, ``random.seed()`` and ``torch.seed()`` make the run unseeded.
ENTROPY_RESEEDS: Dict[str, Tuple[str, Optional[Tuple[str, int]]]] = {
    "numpy.random.seed": ("numpy", ("seed", 0)),
    "random.seed": ("random", ("a", 0)),
    "torch.seed": ("torch", None),
    "torch.random.seed": ("torch", None),
}

#: calls whose result is a new seed taken from OS entropy (``seed = torch.seed()``): a seeding
#: call given it seeds from entropy, as if it were left out
ENTROPY_RESULTS = frozenset(
    {
        "torch.seed", "torch.random.seed",
        # the operating system's randomness and the clock, as seeds are often made of them
        # (skrl's ``set_seed()``: ``int.from_bytes(os.urandom(4), byteorder=sys.byteorder)``)
        "os.urandom", "os.getrandom", "secrets.randbits", "secrets.randbelow", "secrets.token_bytes",
        "secrets.token_hex", "uuid.uuid4", "time.time", "time.time_ns", "time.perf_counter_ns",
        # collie's ``int(datetime.now().timestamp())``
        "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
    }
)

#: context managers that put generators back as they were when their block ends: qualified
#: name -> the effects a seed set inside the block loses (``torch.random.fork_rng`` restores the
#: CPU and device generators; the ``isolate_rng`` helpers every global generator)
#: context managers under which layers are built on the meta device, without weights (so
#: nothing is drawn): accelerate's ``init_empty_weights`` under its import paths (``with
#: torch.device("meta"):`` is recognised by its argument)
EMPTY_WEIGHT_CONTEXTS = frozenset(
    f"{module}.init_empty_weights" for module in ("accelerate", "accelerate.big_modeling", "accelerate.utils", "transformers.modeling_utils")
)
RNG_ISOLATION: Dict[str, FrozenSet[str]] = {
    "torch.random.fork_rng": frozenset({"torch", "cuda"}),
    **{
        f"{module}.isolate_rng": frozenset({"torch", "cuda", "numpy", "random"})
        for module in (
            "repro_lint.runtime", "repro_lint.runtime._rng", "lightning.pytorch.utilities",
            "lightning.pytorch.utilities.seed", "pytorch_lightning.utilities.seed",
        )
    },
}

#: names containing "seed" that do not seed anything (getters, or fresh entropy)
NOT_SEEDING = frozenset(
    {
        "torch.seed", "torch.initial_seed", "torch.random.seed", "torch.random.initial_seed",
        "torch.cuda.seed", "torch.cuda.seed_all", "torch.cuda.initial_seed",
        "torch.npu.seed", "torch.npu.initial_seed", "numpy.random.SeedSequence",
        "numpy.random.bit_generator.SeedSequence", "repro_lint.runtime.seed_worker",
        "transformers.trainer_utils.seed_worker",
        # OpenMMLab's hook that calls the sampler's set_epoch(epoch): it seeds no global generator
        "mmcv.runner.DistSamplerSeedHook", "mmcv.runner.hooks.DistSamplerSeedHook",
        "mmcv.runner.hooks.sampler_seed.DistSamplerSeedHook", "mmengine.hooks.DistSamplerSeedHook",
        "mmengine.hooks.sampler_seed_hook.DistSamplerSeedHook",
    }
)


@dataclass(frozen=True)
class SeedHelper:
    """What a library's seeding helper really does (reference section 4)."""

    #: generators it seeds
    seeds: FrozenSet[str]
    #: the (parameter, position) whose value turns determinism on; a literal False, None or 0
    #: turns it off, any other value (a literal true or a value chosen at run time) on
    determinism_arg: Optional[Tuple[str, Optional[int]]] = None
    #: the effects that argument turns on
    determinism: FrozenSet[str] = frozenset()
    #: whether determinism is on when the argument is not passed
    determinism_default: bool = False
    #: effects it has whatever the arguments
    always: FrozenSet[str] = frozenset()
    #: it seeds as a side effect of building something else (a Trainer, an RL algorithm): not a
    #: seeding call of its own
    implicit: bool = False
    #: it is given a model built before it (a Trainer): what building that model drew comes
    #: before its seeding (RPL105)
    given_model: bool = False
    #: its first argument is not the seed (detectron2's ``default_setup(cfg, args)``)
    seed_elsewhere: bool = False
    #: the (parameter, position) of the seed when leaving it out (or None) draws a fresh one
    entropy_seed: Optional[Tuple[str, Optional[int]]] = None
    #: the (parameter, position) whose true value makes the library seed DataLoader workers
    workers_arg: Optional[Tuple[str, Optional[int]]] = None
    #: the (parameter, position) whose literal ``False`` or ``None`` means it seeds nothing at
    #: all (any other value, a seed or ``True``, seeds), and whether it seeds when that
    #: argument is not passed
    seeding_arg: Optional[Tuple[str, Optional[int]]] = None
    seeding_default: bool = True
    #: it builds a model itself after it seeds (MMEngine's Runner, from a config): a draw of
    #: initial weights from torch's generator
    builds_model: bool = False
    #: the (parameter, position) of a dict whose keys are the parameters above (MMEngine's
    #: ``Runner(randomness=dict(seed=0, deterministic=True))``); None: the call's own
    options: Optional[Tuple[str, Optional[int]]] = None


_ALL3 = frozenset(GENERATORS)
_DET = DETERMINISTIC_ALGORITHMS
_FULL = frozenset({"deterministic", "cudnn_deterministic"})
_CUDNN = frozenset({"cudnn_deterministic"})

_LIGHTNING_SEED = SeedHelper(_ALL3, workers_arg=("workers", 1))  # no cudnn flags
_LIGHTNING_TRAINER = SeedHelper(frozenset(), ("deterministic", None), _DET)
_HF_SET_SEED = SeedHelper(_ALL3, ("deterministic", 1), _DET)
_HF_FULL = SeedHelper(_ALL3, always=_FULL)
_HF_TRAINER = SeedHelper(_ALL3, implicit=True, given_model=True)  # Trainer.__init__ calls set_seed(args.seed)
_HF_ARGS = SeedHelper(frozenset(), ("full_determinism", None), _FULL, implicit=True)
_ACCELERATE = SeedHelper(_ALL3, ("deterministic", 2), _DET)
_MMENGINE = SeedHelper(_ALL3, ("deterministic", 1), _FULL, entropy_seed=("seed", 0))
_DETECTRON2_SEED = SeedHelper(_ALL3, entropy_seed=("seed", 0))  # never enables deterministic algorithms
# MMEngine's Runner (mmengine/runner/runner.py) calls ``set_random_seed(**randomness)`` as it is
# built, before it builds a model given as a config (one given built was drawn before); its
# default ``randomness=dict(seed=None)`` draws a seed at random; ``Runner.from_cfg(cfg)`` reads
# ``cfg.randomness``, which the program's config decides (a value chosen at run time)
_MMENGINE_RUNNER = SeedHelper(
    _ALL3, ("deterministic", None), _FULL, implicit=True, entropy_seed=("seed", None), builds_model=True, options=("randomness", None)
)
_MMENGINE_FROM_CFG = SeedHelper(_ALL3, None, _FULL, determinism_default=True, implicit=True, builds_model=True)
#: MMEngine's Runner, as it is imported
MMENGINE_RUNNERS = ("mmengine.runner.Runner", "mmengine.runner.runner.Runner")
_DETECTRON2 = SeedHelper(_ALL3, seed_elsewhere=True)
# MONAI (monai/utils/misc.py): set_determinism(seed=np.iinfo(np.uint32).max,
# use_deterministic_algorithms=None, additional_settings=None) seeds torch, random and NumPy
# (with the default seed when none is given), sets cudnn.deterministic = True and
# cudnn.benchmark = False, and calls torch.use_deterministic_algorithms(flag) when the flag is
# given; seed=None (seeding from entropy and restoring the cuDNN flags) is not told apart
_MONAI = SeedHelper(_ALL3, ("use_deterministic_algorithms", 1), _DET, always=_CUDNN)
_FASTAI = SeedHelper(_ALL3, ("reproducible", 1), _CUDNN)  # cudnn flags only
# stable-baselines3 (common/base_class.py, common/utils.py): an algorithm built with ``seed=``
# calls ``set_random_seed(seed, using_cuda=...)`` (random, NumPy, torch; cuDNN's deterministic
# mode and no benchmark on CUDA) before it builds its policy; with ``seed=None``, the default, it
# seeds nothing and the policy's weights come from the global generator (:data:`SB3_ALGORITHMS`)
_SB3 = SeedHelper(_ALL3, always=_CUDNN, implicit=True, seeding_arg=("seed", None), seeding_default=False)
# OpenMMLab 1.x / 0.x codebases before MMEngine: mmcv 1.x (mmcv/runner/utils.py:
# set_random_seed(seed, deterministic=False, use_rank_shift=False)) and the copies that mmdet 2.x,
# mmcls 0.x and mmseg 0.x export from their apis (set_random_seed(seed, deterministic=False)) seed
# random, NumPy and torch (CPU and all GPUs); deterministic=True sets cudnn.deterministic = True
# and cudnn.benchmark = False, nothing more
_OPENMMLAB_0X = SeedHelper(_ALL3, ("deterministic", 1), _CUDNN)
_MSPROBE = SeedHelper(_ALL3, ("mode", 1), _DET, always=_CUDNN)  # cudnn.deterministic=True on GPU
_REPRO_LINT = SeedHelper(_ALL3, ("deterministic", None), _FULL, determinism_default=True)
# LightningCLI(model_class, datamodule_class, save_config_callback, save_config_kwargs,
# trainer_class, trainer_defaults, seed_everything_default=True, ...) calls
# seed_everything(seed, workers=True) before it builds the model, unless the seed is False;
# True calls seed_everything(workers=True), which seeds from PL_GLOBAL_SEED or 0 (a random
# seed, saved in the run's config.yaml, before Lightning 2.1). The 1.x
# pytorch_lightning.utilities.cli.LightningCLI took four more parameters before
# trainer_class, and its seed_everything_default=None seeded nothing.
_LIGHTNING_CLI = SeedHelper(_ALL3, always=frozenset({SEEDS_WORKERS}), seeding_arg=("seed_everything_default", 6))
_LIGHTNING_CLI_1X = SeedHelper(
    _ALL3, always=frozenset({SEEDS_WORKERS}), seeding_arg=("seed_everything_default", 8), seeding_default=False
)
#: the LightningCLI spellings
LIGHTNING_CLIS = ("lightning.pytorch.cli.LightningCLI", "pytorch_lightning.cli.LightningCLI")
LIGHTNING_CLI_1X = "pytorch_lightning.utilities.cli.LightningCLI"

#: the libraries whose objects' ``fit`` (or ``step``) is not training the program's model:
#: scikit-learn's scalers, encoders and estimators fit data transforms and classical models;
#: Gym's and Gymnasium's environments step a simulation (``env.step(action)``)
NOT_TRAINING_FIT = ("sklearn.", "gym.", "gymnasium.")
#: the name of an object whose ``step`` advances an environment, not an optimizer (``env``,
#: ``envs``, ``eval_env``, ``self.test_env``, ``environment``, and what holds environments:
#: adept's ``env_mgr``, ``env_manager``, ``env_pool``, ``vec_env``)
ENVIRONMENT_NAME = re.compile(
    r"^(?:\w+_)?envs?(?:_(?:mgr|manager|pool|wrapper|runner|group|workers?))?$|^environments?$", re.IGNORECASE
)

#: stable-baselines3's and sb3-contrib's algorithms, as imported: built without a seed, they draw
#: their policy's weights from the global torch generator, and run on the accelerator there is
#: (``device="auto"``) unless told otherwise
SB3_ALGORITHMS = frozenset(
    [f"stable_baselines3.{name}" for name in ("A2C", "DDPG", "DQN", "PPO", "SAC", "TD3")]
    + [
        f"stable_baselines3.{name.lower()}.{name}" for name in ("A2C", "DDPG", "DQN", "PPO", "SAC", "TD3")
    ]
    + [f"sb3_contrib.{name}" for name in ("ARS", "CrossQ", "MaskablePPO", "QRDQN", "RecurrentPPO", "TQC", "TRPO")]
)

#: known library helpers, by qualified name
SEED_HELPERS: Dict[str, SeedHelper] = {
    # Fabric's static ``seed_everything`` is Lightning's (``fabric.seed_everything(42, workers=True)``)
    **{
        f"{fabric}.seed_everything": _LIGHTNING_SEED
        for fabric in (
            "lightning.Fabric", "lightning.fabric.Fabric", "lightning.fabric.fabric.Fabric",
            "lightning_fabric.Fabric", "lightning_fabric.fabric.Fabric",
        )
    },
    **{
        f"{module}.seed_everything": _LIGHTNING_SEED
        for module in (
            "lightning", "lightning.pytorch", "lightning.fabric", "lightning.fabric.utilities",
            "lightning.fabric.utilities.seed", "lightning.pytorch.utilities.seed",
            "pytorch_lightning", "pytorch_lightning.utilities", "pytorch_lightning.utilities.seed",
            "lightning_fabric", "lightning_fabric.utilities.seed",
        )
    },
    **{
        f"{module}.Trainer{factory}": _LIGHTNING_TRAINER
        for factory in ("", ".from_argparse_args")  # the classmethod of Lightning 1.x
        for module in (
            "lightning", "lightning.pytorch", "lightning.pytorch.trainer", "lightning.pytorch.trainer.trainer",
            "pytorch_lightning", "pytorch_lightning.trainer", "pytorch_lightning.trainer.trainer",
        )
    },
    "transformers.set_seed": _HF_SET_SEED,
    "transformers.trainer_utils.set_seed": _HF_SET_SEED,
    "transformers.enable_full_determinism": _HF_FULL,
    "transformers.trainer_utils.enable_full_determinism": _HF_FULL,
    "transformers.Trainer": _HF_TRAINER,
    "transformers.Seq2SeqTrainer": _HF_TRAINER,
    "transformers.trainer.Trainer": _HF_TRAINER,
    "transformers.trainer_seq2seq.Seq2SeqTrainer": _HF_TRAINER,
    # TRL's trainers subclass transformers' Trainer and call its ``__init__`` (the PPO trainer
    # of TRL before 0.12 did not: it is left out)
    **{
        f"{module}.{name}": _HF_TRAINER
        for module in ("trl", "trl.trainer")
        for name in ("SFTTrainer", "DPOTrainer", "RewardTrainer", "ORPOTrainer", "KTOTrainer", "CPOTrainer", "GRPOTrainer")
    },
    "transformers.TrainingArguments": _HF_ARGS,
    "transformers.Seq2SeqTrainingArguments": _HF_ARGS,
    "transformers.training_args.TrainingArguments": _HF_ARGS,
    "transformers.training_args_seq2seq.Seq2SeqTrainingArguments": _HF_ARGS,
    **{
        f"{module}.{name}": _HF_ARGS  # TRL's configs subclass TrainingArguments
        for module in ("trl", "trl.trainer")
        for name in ("SFTConfig", "DPOConfig", "RewardConfig", "ORPOConfig", "KTOConfig", "CPOConfig", "GRPOConfig")
    },
    "accelerate.utils.set_seed": _ACCELERATE,
    "accelerate.utils.random.set_seed": _ACCELERATE,
    "mmengine.runner.set_random_seed": _MMENGINE,
    "mmengine.runner.utils.set_random_seed": _MMENGINE,
    **{name: _MMENGINE_RUNNER for name in MMENGINE_RUNNERS},
    **{f"{name}.from_cfg": _MMENGINE_FROM_CFG for name in MMENGINE_RUNNERS},
    **{
        f"{module}.set_random_seed": _OPENMMLAB_0X
        for module in (
            "mmcv.runner", "mmcv.runner.utils", "mmdet.apis", "mmdet.apis.train", "mmcls.apis",
            "mmcls.apis.train", "mmseg.apis", "mmseg.apis.train",
        )
    },
    "detectron2.utils.env.seed_all_rng": _DETECTRON2_SEED,
    "detectron2.engine.default_setup": _DETECTRON2,
    "detectron2.engine.defaults.default_setup": _DETECTRON2,
    **{
        f"fastai.{module}.set_seed": _FASTAI
        for module in ("torch_core", "basics", "vision.all", "text.all", "tabular.all", "collab")
    },
    **{name: _SB3 for name in SB3_ALGORITHMS},
    "monai.utils.set_determinism": _MONAI,
    "monai.utils.misc.set_determinism": _MONAI,
    "msprobe.pytorch.seed_all": _MSPROBE,
    "msprobe.pytorch.common.seed_all": _MSPROBE,
    "msprobe.pytorch.common.utils.seed_all": _MSPROBE,
    "repro_lint.runtime.seed_everything": _REPRO_LINT,
    "repro_lint.runtime._seed.seed_everything": _REPRO_LINT,
    **{name: _LIGHTNING_CLI for name in LIGHTNING_CLIS},
    LIGHTNING_CLI_1X: _LIGHTNING_CLI_1X,
}
#: Lightning's Trainer, as it is imported: it sets ``torch.use_deterministic_algorithms`` itself as
#: it is built, from its ``deterministic`` argument (Lightning 1.x turns it off when that is not
#: given, 2.x when it is False), so a switch turned on before it may be undone
LIGHTNING_TRAINERS = frozenset(name for name, helper in SEED_HELPERS.items() if helper is _LIGHTNING_TRAINER)

#: calls that seed a generator with their first argument (for RPL303): torch's, NumPy's and
#: Python's own seeding calls (not the state setters), the generators built from a seed, and the
#: library functions called to seed (not a class, a Trainer, whose first argument is no seed)
SEEDING_CALLS = frozenset(
    {name for name in SEED_CALLS if name.rsplit(".", 1)[-1] in ("seed", "manual_seed", "manual_seed_all")}
    | {"random.Random", "numpy.random.default_rng", "numpy.random.RandomState"}
    | {
        name
        for name, helper in SEED_HELPERS.items()
        if helper.seeds and not helper.implicit and not helper.seed_elsewhere and not any(part[:1].isupper() for part in name.split("."))
    }
)

#: the top-level packages of the libraries this catalog knows to run on torch: those whose
#: seeding helpers seed torch's generator or switch its determinism (Lightning, transformers,
#: accelerate, MMEngine, MONAI, fastai, msprobe, ...) and those whose DataLoaders it lists (DGL,
#: PyG, MONAI); with every package named for torch (:func:`builds_on_torch`), they tell a
#: program that runs torch from one that only names its devices (a code generator's table of
#: dispatch keys, ``{is_cuda_dispatch_key: "cuda"}``)
TORCH_LIBRARIES = frozenset({"torch"}) | frozenset(
    name.split(".", 1)[0]
    for name in [n for n, h in SEED_HELPERS.items() if "torch" in h.seeds or h.determinism or h.always] + list(DATALOADERS)
    if name.split(".", 1)[0]
)


def builds_on_torch(module: str) -> bool:
    """Is the (dotted) module torch, or part of a library built on it: a top-level package
    named for torch (``torchvision``, ``pytorch_lightning``, ``torch_npu``) or one of
    :data:`TORCH_LIBRARIES`?"""
    root = module.split(".", 1)[0]
    return "torch" in root or root in TORCH_LIBRARIES


#: calls that build a Trainer with the keywords of a dict they are given: qualified name ->
#: ((parameter, position) of the dict, the Trainer built). Every rule that reads a Trainer's
#: keywords (``benchmark``, ``deterministic``, ``accelerator``, ``gpus``) reads that dict's keys.
TRAINER_KEYWORD_DICTS: Dict[str, Tuple[Tuple[str, int], str]] = {
    **{name: (("trainer_defaults", 5), "lightning.pytorch.Trainer") for name in LIGHTNING_CLIS},
    # (1.x's CLI builds its Trainer from the options it parsed, with 1.x's defaults, as
    # ``from_argparse_args`` does: on the CPU unless they say otherwise)
    LIGHTNING_CLI_1X: (("trainer_defaults", 7), "pytorch_lightning.Trainer.from_argparse_args"),
}

#: PyG's ``Dataset.shuffle(return_perm=False)`` permutes the dataset with ``torch.randperm`` (a
#: draw from torch's global generator); a module that imports one of PyG's datasets, or its
#: dataset classes, calls it on them (``TUDataset(root, "MUTAG").shuffle()``)
PYG_DATASET_METHOD = "torch_geometric.data.Dataset."
#: calls that draw from torch's global generator when they run
TORCH_DRAWS = frozenset(
    [f"torch.{n}" for n in (
        "rand", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm", "normal",
        "bernoulli", "multinomial", "poisson", "svd_lowrank", "pca_lowrank",
    )]
    + [f"torch.nn.functional.{n}" for n in (
        "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
        "gumbel_softmax", "rrelu", "fractional_max_pool2d", "fractional_max_pool3d",
    )]
    + ["torch.utils.data.random_split"]
    # PyG's splits and negative sampling (``torch.randperm``, ``torch.randint`` inside)
    + [f"torch_geometric.utils.{n}" for n in (
        "negative_sampling", "batched_negative_sampling", "structured_negative_sampling", "train_test_split_edges",
    )]
)
#: calls that draw from torch's global generator to initialise weights: they matter unless the
#: weights are then loaded from a checkpoint
TORCH_INIT = frozenset(
    [f"torch.nn.init.{n}" for n in (
        "uniform_", "normal_", "trunc_normal_", "xavier_uniform_", "xavier_normal_",
        "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_",
    )]
    # layers whose parameters are initialised randomly when they are built
    + [f"torch.nn.{n}" for n in (
        "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
        "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d",
        "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d", "Embedding",
        "EmbeddingBag", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell",
        "MultiheadAttention", "Transformer", "TransformerEncoderLayer", "TransformerDecoderLayer",
    )]
    # timm's factory under each name it is imported by (``from timm.models import create_model``)
    + ["timm.create_model", "timm.models.create_model", "timm.models._factory.create_model", "timm.models.factory.create_model"]
    + ["torchvision.models.get_model"]
    # PEFT's adapters (LoRA's A matrices: kaiming_uniform_) initialised as they are added
    + ["peft.get_peft_model", "peft.mapping.get_peft_model", "peft.mapping_func.get_peft_model"]
    # segmentation_models_pytorch's architectures (``smp.Unet(...)``): a decoder and a head
    # initialised at random, also beside an encoder given ``encoder_weights="imagenet"``
    + [f"segmentation_models_pytorch.{n}" for n in (
        "Unet", "UnetPlusPlus", "MAnet", "Linknet", "FPN", "PSPNet", "DeepLabV3", "DeepLabV3Plus", "PAN",
        "UPerNet", "Segformer", "DPT", "create_model",
    )]
)
#: calls that set up later use of torch's global generator (dropout layers, random samplers,
#: random augmentations, distributions): a use, but nothing is drawn when they are built
TORCH_USES = frozenset(
    [f"torch.nn.{n}" for n in (
        "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
        "RReLU", "FractionalMaxPool2d", "FractionalMaxPool3d",
    )]
    + [f"torch.utils.data.{n}" for n in ("RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler")]
    + [f"torchvision.transforms.{v}{n}" for v in ("", "v2.") for n in (
        "ColorJitter", "AutoAugment", "RandAugment", "TrivialAugmentWide", "AugMix", "GaussianBlur",
        "ElasticTransform",
    )]
    # PyG's random splits, drawn with ``torch.randperm`` when the transform is applied
    + [f"torch_geometric.transforms.{n}" for n in ("RandomNodeSplit", "RandomLinkSplit")]
)
#: prefixes of torch RNG users: model factories initialise weights, the others use
TORCH_INIT_PREFIXES = ("torchvision.models.",)
#: libraries' model and layer modules: a class built from them (``GCNConv(16, 4)``,
#: ``dgl.nn.GraphConv``, MONAI's ``UNet``, torchrec's ``DLRM``, timm's ``ResNetV2``, whose
#: ``nn.Linear`` and embedding tables are made in their constructors) initialises its weights
#: randomly (``reset_parameters``); their functions (``global_mean_pool``) draw nothing
TORCH_LAYER_MODULES = (
    "torch_geometric.nn.", "dgl.nn.", "monai.networks.nets.", "monai.networks.blocks.", "torchrec.models.",
    "timm.models.", "timm.layers.",
    # meta-learning: torchmeta's layers (``MetaLinear``, ``MetaConv2d``: subclasses of ``nn.Linear``,
    # ``nn.Conv2d``) and learn2learn's models (``l2l.vision.models.OmniglotCNN``)
    "torchmeta.modules.", "learn2learn.vision.models.",
)
#: classes of those modules that hold no parameters, so that building one draws nothing:
#: DGL's readouts (``dgl.nn.pytorch.glob``: ``SumPooling()``, ``AvgPooling()``, ``MaxPooling()``,
#: ``SortPooling(k)`` take no sizes and make no layers) and PyG's fixed aggregations
#: (``torch_geometric.nn.aggr``: sum, mean, max, min, product, variance, standard deviation,
#: median, quantile)
PARAMETER_FREE_LAYERS = {
    "dgl.nn.": frozenset({"SumPooling", "AvgPooling", "MaxPooling", "SortPooling"}),
    # torchmeta's base class and container (the layers put into them are built by their own calls)
    "torchmeta.modules.": frozenset({"MetaModule", "MetaSequential"}),
    "torch_geometric.nn.": frozenset({
        "SumAggregation", "MeanAggregation", "MaxAggregation", "MinAggregation", "MulAggregation",
        "VarAggregation", "StdAggregation", "MedianAggregation", "QuantileAggregation",
    }),
}


def builds_library_layer(qualified: str) -> bool:
    """Is ``qualified`` a class of a library's model and layer modules
    (:data:`TORCH_LAYER_MODULES`) whose construction initialises parameters at random?"""
    if not qualified.startswith(TORCH_LAYER_MODULES):
        return False
    name = qualified.rsplit(".", 1)[-1]
    if not name[:1].isupper():
        return False  # a function (``global_mean_pool``)
    return not any(qualified.startswith(prefix) and name in names for prefix, names in PARAMETER_FREE_LAYERS.items())


def initialises_weights(qualified: str) -> bool:
    """Does calling ``qualified`` draw from torch's generator to initialise weights: an init
    function or a layer of :data:`TORCH_INIT`, a model factory (:data:`TORCH_INIT_PREFIXES`), a
    library layer (:func:`builds_library_layer`)? Building a class derived from such a layer
    does the same (``class EmbeddingDropout(nn.Embedding)``)."""
    return qualified in TORCH_INIT or qualified.startswith(TORCH_INIT_PREFIXES) or builds_library_layer(qualified)


#: keywords of transformers' ``from_pretrained`` that size a task model's head (its labels): a
#: head the checkpoint does not hold is initialised at random, the usual case when fine-tuning a
#: base checkpoint (transformers' ``TrainingArguments.seed`` documentation: use ``model_init``)
HEAD_SIZE_KEYWORDS = ("num_labels", "id2label")
#: transformers' collators that draw their masks from torch's generator when they are called:
#: class -> (the switch that turns masking off when False, its position)
MASKING_COLLATORS: Dict[str, Tuple[str, Optional[int]]] = {
    "DataCollatorForLanguageModeling": ("mlm", 1),
    "DataCollatorForWholeWordMask": ("mlm", 1),
    "DataCollatorForPermutationLanguageModeling": ("plm_probability", None),
    "DataCollatorForSOP": ("mlm", 1),
}
TORCH_USE_PREFIXES = ("torch.distributions.", "torchvision.transforms.Random", "torchvision.transforms.v2.Random")
#: in-place tensor methods that draw from torch's generator (``w.uniform_(-0.1, 0.1)``)
TORCH_DRAW_METHODS = frozenset(
    {"uniform_", "normal_", "bernoulli_", "random_", "exponential_", "cauchy_", "log_normal_", "geometric_"}
)

#: NumPy's legacy global RNG: ``numpy.random.<name>`` draws from it
NUMPY_LEGACY_FUNCTIONS = frozenset(
    {
        "rand", "randn", "randint", "random_integers", "random_sample", "random", "ranf", "sample",
        "choice", "bytes", "shuffle", "permutation", "beta", "binomial", "chisquare", "dirichlet",
        "exponential", "f", "gamma", "geometric", "gumbel", "hypergeometric", "laplace", "logistic",
        "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
        "noncentral_chisquare", "noncentral_f", "normal", "pareto", "poisson", "power", "rayleigh",
        "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
        "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
    }
)
#: scikit-learn's splits and shuffles that draw from NumPy's global RNG when ``random_state``
#: is None, its default (scikit-learn's glossary, "random_state": None uses the global
#: ``RandomState`` of ``numpy.random``); ``random_state`` and ``shuffle`` are keyword-only in
#: scikit-learn 1.x. Each: (draws when called, else when it splits; the ``shuffle`` parameter's
#: default, or None when the function always shuffles)
SKLEARN_NUMPY_DRAWS: Dict[str, Tuple[bool, Optional[bool]]] = {
    **{
        f"sklearn.model_selection{module}.{name}": entry
        for module in ("", "._split")
        for name, entry in (
            ("train_test_split", (True, True)),
            ("KFold", (False, False)),
            ("StratifiedKFold", (False, False)),
            ("RepeatedKFold", (False, None)),
            ("RepeatedStratifiedKFold", (False, None)),
            ("ShuffleSplit", (False, None)),
            ("StratifiedShuffleSplit", (False, None)),
            ("GroupShuffleSplit", (False, None)),
        )
    },
    "sklearn.utils.shuffle": (True, None),
    "sklearn.utils.resample": (True, None),
}
#: Hugging Face ``datasets``: ``Dataset.shuffle()`` and ``Dataset.train_test_split()`` given
#: neither a seed nor a generator take their generator from NumPy's global state
#: (``datasets.fingerprint``: ``_, seed, pos, *_ = np.random.get_state()``, then
#: ``np.random.default_rng(seed)``), so each call draws from it as ``np.random.permutation``
#: does. The method (named as :data:`HF_DATASET_METHOD` plus its name) -> the arguments that
#: seed it, as (keyword, position) (``DatasetDict.shuffle`` takes ``seeds`` first), and its
#: ``shuffle`` parameter (on by default), or None when it always shuffles. A streaming
#: ``IterableDataset.shuffle(buffer_size=...)`` draws a fresh seed from OS entropy instead: a call
#: given ``buffer_size`` is not counted.
HF_DATASET_METHOD = "datasets.Dataset."
HF_DATASET_DRAWS: Dict[str, Tuple[Tuple[Tuple[str, Optional[int]], ...], Optional[Tuple[str, int]]]] = {
    HF_DATASET_METHOD + "shuffle": ((("seed", 0), ("seeds", None), ("generator", 1), ("generators", None)), None),
    HF_DATASET_METHOD + "train_test_split": ((("seed", 4), ("generator", 5)), ("shuffle", 2)),
}
#: the library calls that draw from a global generator unless an argument seeds them
SEEDED_DRAWS = frozenset((*SKLEARN_NUMPY_DRAWS, *HF_DATASET_DRAWS))
#: the method names of :data:`HF_DATASET_DRAWS`
HF_DATASET_METHODS = frozenset(name[len(HF_DATASET_METHOD):] for name in HF_DATASET_DRAWS)
#: what a module imports from ``datasets`` that shows the datasets it calls those methods of
#: are Hugging Face's (``import datasets`` alone does not: many projects have a ``datasets``
#: package of their own; ``import datasets`` and a call ``datasets.load_dataset(...)`` do)
HF_DATASET_IMPORTS = frozenset(
    f"datasets.{name}"
    for name in ("load_dataset", "load_from_disk", "Dataset", "DatasetDict", "concatenate_datasets", "interleave_datasets")
)
#: what a module imports that shows the datasets it calls ``shuffle()`` of are PyG's
PYG_DATASET_IMPORTS = ("torch_geometric.datasets", "torch_geometric.data.Dataset", "torch_geometric.data.InMemoryDataset")
#: the methods of library objects of no known origin that the module's imports tell: (the
#: qualified names, or prefixes of them, whose import shows the objects are the library's, the
#: method names, how they are named)
LIBRARY_METHODS: Tuple[Tuple[Tuple[str, ...], FrozenSet[str], str], ...] = (
    (tuple(HF_DATASET_IMPORTS), HF_DATASET_METHODS, HF_DATASET_METHOD),
    (PYG_DATASET_IMPORTS, frozenset({"shuffle"}), PYG_DATASET_METHOD),
    # ``fabric = L.Fabric(...)``, then ``fabric.seed_everything(42, workers=True)``: Lightning's
    (
        ("lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric"),
        frozenset({"seed_everything"}), "lightning.fabric.Fabric.",
    ),
)
#: every method name of :data:`LIBRARY_METHODS`
LIBRARY_METHOD_NAMES = frozenset(name for _, names, _ in LIBRARY_METHODS for name in names)
#: Python's ``random`` module: ``random.<name>`` draws from its global generator
RANDOM_FUNCTIONS = frozenset(
    {
        "random", "uniform", "randint", "randrange", "choice", "choices", "shuffle", "sample", "gauss",
        "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate",
        "betavariate", "paretovariate", "weibullvariate", "triangular", "getrandbits", "randbytes",
        "binomialvariate",
    }
)

#: RNG objects that start from OS entropy unless given a seed: qualified name -> seed position
RNG_CONSTRUCTORS: Dict[str, Tuple[str, int]] = {
    "numpy.random.default_rng": ("seed", 0),
    "numpy.random.RandomState": ("seed", 0),
    "numpy.random.SeedSequence": ("entropy", 0),
    "numpy.random.PCG64": ("seed", 0),
    "numpy.random.PCG64DXSM": ("seed", 0),
    "numpy.random.MT19937": ("seed", 0),
    "numpy.random.Philox": ("seed", 0),
    "numpy.random.SFC64": ("seed", 0),
    "random.Random": ("x", 0),
}
#: RNG objects that are copied, state and all, into every DataLoader worker
RNG_OBJECTS = frozenset(
    {"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator", "random.Random", "torch.Generator"}
)
#: torch calls that return 64-bit seeds (too big for ``np.random.seed``)
SEED_GETTERS_64BIT = frozenset(
    {"torch.initial_seed", "torch.seed", "torch.random.initial_seed", "torch.random.seed",
     "torch.cuda.initial_seed", "torch.cuda.seed", "time.time_ns"}
)
#: methods and functions that load weights over the initial ones
WEIGHT_LOADERS = frozenset({"load_state_dict", "load_checkpoint", "load_from_checkpoint", "resume_or_load", "from_pretrained"})
#: ``torch.accelerator`` calls that put work on the accelerator (queries such as
#: ``current_accelerator()`` or ``device_count()`` alone do not: launchers make them too)
ACCELERATOR_ACTIONS = frozenset(
    f"torch.accelerator.{n}" for n in ("set_device_index", "set_device_idx", "device_index", "synchronize", "set_stream")
)


# -- switches and device evidence (NONDETERMINISM.md section 2) ---------------------------------

#: literal argument values that leave a switch off; any other value, a literal or one chosen at
#: run time (``use_deterministic_algorithms(args.deterministic)``), may turn it on (how each
#: kind counts is decided once, in ``repro_lint.classify.switch_effect``)
OFF_VALUES: FrozenSet[Any] = frozenset({False, None, ""})  # 0 == False, 0.0 == False


def is_on(value: Any, off: FrozenSet[Any] = OFF_VALUES) -> bool:
    """Does an argument value (a literal, or a value only known at run time) switch something
    on, given the literal values ``off`` that leave it off?"""
    try:
        return value not in off
    except TypeError:  # an unhashable literal: not a value that means off
        return True


@dataclass(frozen=True)
class Switch:
    """A call that turns a determinism effect on through one of its parameters."""

    #: what it turns on: ``deterministic`` or ``cudnn_deterministic``
    effect: str
    #: the parameter, and its position (None: keyword only)
    param: str
    position: Optional[int]
    #: literal values that leave it off
    off: FrozenSet[Any] = OFF_VALUES

    def turns_on(self, value: Any) -> bool:
        """Is the effect on for this argument value (a literal, or a run-time value)?"""
        return is_on(value, self.off)


USE_DETERMINISTIC = "torch.use_deterministic_algorithms"
DEBUG_MODE = "torch.set_deterministic_debug_mode"
#: determinism switches by qualified name
DETERMINISM_SWITCHES: Dict[str, Switch] = {
    USE_DETERMINISTIC: Switch("deterministic", "mode", 0),
    DEBUG_MODE: Switch("deterministic", "debug_mode", 0, frozenset({0, "default"})),
    "torch_npu.npu.set_deterministic_level": Switch("deterministic", "level", 0),
    "torch.npu.set_deterministic_level": Switch("deterministic", "level", 0),
    "torch.backends.cudnn.flags": Switch("cudnn_deterministic", "deterministic", CUDNN_FLAGS_PARAMS.index("deterministic")),
}
#: the attribute whose assignment turns cuDNN's deterministic mode on
CUDNN_DETERMINISTIC = "torch.backends.cudnn.deterministic"

#: the devices an entry point may run on, as the seeding rules name them
DEVICES = ("cuda", "npu", "accelerator")
#: Lightning Fabric's class, as it is imported
FABRICS = frozenset({
    "lightning.Fabric", "lightning.fabric.Fabric", "lightning.fabric.fabric.Fabric",
    "lightning_fabric.Fabric", "lightning_fabric.fabric.Fabric",
})
#: calls that put work on a device, or pick the device the program then runs on: qualified
#: name -> the device (accelerate's ``Accelerator()``/``PartialState()`` and Lightning's
#: ``Fabric()`` take the accelerator when there is one)
DEVICE_CALLS: Dict[str, str] = {
    "torch.cuda.set_device": "cuda",
    "torch.cuda.device": "cuda",
    # on whichever accelerator the program uses (torch_npu makes it run on NPUs)
    "torch.nn.DataParallel": "accelerator",
    "torch.npu.set_device": "npu",
    "torch_npu.npu.set_device": "npu",
    **{name: "accelerator" for name in ACCELERATOR_ACTIONS},
    **{
        f"accelerate.{module}{cls}": "accelerator"
        for module in ("", "accelerator.", "state.")
        for cls in ("Accelerator", "PartialState", "AcceleratorState")
    },
    # Lightning Fabric places the model and data itself, on ``accelerator="auto"`` by default
    **{name: "accelerator" for name in FABRICS},
    # DeepSpeed's engine moves the model to the local rank's accelerator
    # (``get_accelerator().device_name(local_rank)``: CUDA, or an NPU through torch_npu)
    "deepspeed.initialize": "accelerator",
}
#: of those, the ones an argument keeps on the CPU: name -> (parameter, position, the literal
#: value that does: accelerate's ``cpu=True``, Fabric's ``accelerator="cpu"``)
CPU_SWITCHES: Dict[str, Tuple[str, Optional[int], Any]] = {
    **{
        f"accelerate.{module}{cls}": ("cpu", None, True)
        for module in ("", "accelerator.", "state.")
        for cls in ("Accelerator", "PartialState", "AcceleratorState")
    },
    **{name: ("accelerator", 0, "cpu") for name in FABRICS},
}
#: calls that only ask which device there is: evidence when their result is the device the
#: program uses (``device = torch.accelerator.current_accelerator()``, ``x.to(...)``), not
#: alone (launchers ask too)
DEVICE_QUERIES: Dict[str, str] = {
    "torch.accelerator.current_accelerator": "accelerator",
    "torch.accelerator.current_device_index": "accelerator",
    "torch.accelerator.current_device_idx": "accelerator",
}
#: calls that report on a device given to them (``torch.cuda.get_device_properties(
#: torch.device("cuda"))``): a device named in their arguments is asked about, nothing is
#: placed or run on it, so it is no evidence that the program runs there
DEVICE_INFO_CALLS = frozenset(
    f"{module}.{name}"
    for module in ("torch.cuda", "torch.npu", "torch_npu.npu")
    for name in (
        "get_device_properties", "get_device_name", "get_device_capability", "mem_get_info",
        "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
        "memory_stats", "memory_summary", "utilization", "device_count", "is_available",
    )
)
#: helper functions that projects define as ``return val is not None`` (lucidrains' ``exists``):
#: ``if exists(seed):`` tests the parameter as ``if seed is not None:`` does
NOT_NONE_HELPERS = frozenset({"exists"})
#: command-line dispatchers: they call the function (or each function of a dict, the public
#: callables of a class or module) they are handed with the options the user gives, so on the
#: default path (no options) with its defaults
#: click's option decorators, whose ``default=`` is the decorated command's parameter's default
#: (``@click.option("--seed", default=None)`` on ``def main(seed)``)
CLICK_OPTIONS = frozenset({"click.option", "click.decorators.option"})
#: typer's parameter declarations, whose first argument (or ``default=``) is the parameter's
#: default (``seed: int = typer.Option(None)``; ``...``: required)
TYPER_OPTIONS = frozenset({"typer.Option", "typer.params.Option"})
#: the library names a module that does not bind them can only have from a star import, by
#: convention: ``torch`` and ``np`` (NumPy); the project context resolves every other name such
#: an import binds (``ProjectContext.star_library_names``)
STAR_BOUND_LIBRARIES = {"torch": "torch", "np": "numpy"}
CLI_DISPATCHERS = frozenset({"fire.Fire", "typer.run", "defopt.run", "plac.call", "jsonargparse.CLI", "jsonargparse.auto_cli", "clize.run"})
#: command-line applications whose decorator methods register a function as a command they call
#: with the options given (``app = typer.Typer()``, then ``@app.command()``): class -> methods
CLI_APPS: Dict[str, Tuple[str, ...]] = {"typer.Typer": ("command", "callback"), "typer.main.Typer": ("command", "callback")}
#: decorators that make a function a group of commands (``@click.group()`` on ``cli``), and the
#: group's decorator methods that register a command with it (``@cli.command()``)
CLI_GROUPS = frozenset({"click.group", "click.decorators.group"})
CLI_GROUP_METHODS = frozenset({"command", "group"})
#: modules whose import alone means the program runs on a device
DEVICE_MODULES: Dict[str, str] = {"torch_npu": "npu"}
#: device names as programs spell them -> the device the seeding rules name (Lightning's
#: ``accelerator="gpu"`` is CUDA; ``accelerator="auto"`` takes the accelerator when there is one)
DEVICE_ALIASES: Dict[str, str] = {"gpu": "cuda", "auto": "accelerator"}
#: keyword arguments that name a device, and the device names each accepts
DEVICE_KEYWORDS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("device", ("cuda", "npu")),
    ("accelerator", ("cuda", "npu", "gpu", "auto")),
)
#: libraries that run on a device of their own, with kernels torch's switches do not govern:
#: ``device="cuda"`` given to them (ONNX Runtime's on-device training ``Module``, a JAX or
#: TensorFlow call) places nothing of torch there
OTHER_RUNTIMES = ("onnxruntime.", "tensorflow.", "jax.", "jaxlib.", "cupy.", "tensorrt.", "paddle.", "mxnet.")
#: constructors with a keyword that counts GPUs (Lightning 1.x ``Trainer(gpus=2)``): qualified
#: name -> (keyword, device); a literal above 0 means that device
DEVICE_COUNT_KEYWORDS: Dict[str, Tuple[str, str]] = {
    f"{module}.Trainer{factory}": ("gpus", "cuda")
    for module in ("pytorch_lightning", "pytorch_lightning.trainer", "pytorch_lightning.trainer.trainer")
    for factory in ("", ".from_argparse_args")
}
#: trainers (and stable-baselines3's algorithms, whose ``device="auto"`` is the default) that run
#: on the accelerator when there is one, unless an argument says where:
#: qualified name -> the (parameter, position) that does, or None where no argument of the
#: call does. Lightning 2's ``Trainer()`` takes ``accelerator="auto"`` by default (a given
#: ``accelerator`` is read as the device keyword it is; Lightning 1.x's ``gpus`` as the count
#: it is, and its ``from_argparse_args`` is not here: 1.x ran on the CPU by default).
#: transformers' Trainer (and TRL's, built on it) places the model on its
#: ``TrainingArguments``' device, the accelerator unless ``use_cpu=True`` is set there.
ACCELERATOR_BY_DEFAULT: Dict[str, Optional[Tuple[str, Optional[int]]]] = {
    **{
        f"{module}.Trainer": ("accelerator", None)
        for module in (
            "lightning", "lightning.pytorch", "lightning.pytorch.trainer", "lightning.pytorch.trainer.trainer",
            "pytorch_lightning", "pytorch_lightning.trainer", "pytorch_lightning.trainer.trainer",
        )
    },
    **{name: None for name, helper in SEED_HELPERS.items() if helper is _HF_TRAINER},
    **{name: ("device", None) for name in SB3_ALGORITHMS},
    # MMEngine's Runner moves the model to ``get_device()``: an NPU, CUDA, MLU or MPS when there is one
    **{name: None for name, helper in SEED_HELPERS.items() if helper in (_MMENGINE_RUNNER, _MMENGINE_FROM_CFG)},
}
#: command-line options (``parser.add_argument("--device", default="cuda")``) whose default
#: says where the program runs when started as documented: option name -> ``name`` (the
#: default names a device) or ``count`` (a number of GPUs, or of NPUs in an NPU program: an accelerator above 0)
DEVICE_OPTIONS: Dict[str, str] = {
    "device": "name", "accelerator": "name",
    "gpus": "count", "gpu": "count", "ngpu": "count", "n_gpu": "count", "num_gpus": "count", "n_gpus": "count",
}
#: library classes whose methods run a method a subclass overrides: a call of the first on an
#: object of a project subclass runs the subclass's second (``class Learner(Process)``, then
#: ``learner.start()`` runs ``Learner.run`` in a new process)
DISPATCHED_METHODS: Dict[str, Dict[str, Tuple[str, ...]]] = {
    base: {"start": ("run",)}
    for base in (
        "multiprocessing.Process", "multiprocessing.context.Process", "multiprocessing.process.BaseProcess",
        "torch.multiprocessing.Process", "threading.Thread",
    )
}
#: decorators that fill a function's dataclass-annotated parameter from the command line
#: (``@pyrallis.wrap()`` on ``def train(config: TrainConfig)``): with no options given, each
#: field holds its default
DATACLASS_CLI_DECORATORS = frozenset({"pyrallis.wrap", "pyrallis.argparsing.wrap", "draccus.wrap"})
#: calls that build a dataclass from the command line, and where they take the class (keyword,
#: position): ``tyro.cli(TrainConfig)``, ``pyrallis.parse(config_class=TrainConfig)``
DATACLASS_CLI_PARSERS: Dict[str, Tuple[str, Optional[int]]] = {
    "tyro.cli": ("f", 0),
    "pyrallis.parse": ("config_class", 0),
    "pyrallis.argparsing.parse": ("config_class", 0),
    "draccus.parse": ("config_class", 0),
}
#: text that, in a file that may run with a sampler's module, means the sampler's ``set_epoch``
#: is called every epoch: the call itself, OpenMMLab's ``DistSamplerSeedHook`` (which calls it
#: before each epoch), and mmcv's ``IterBasedRunner`` (its ``IterLoader`` calls it on every pass
#: over the data)
SAMPLER_EPOCH_SETTERS = (".set_epoch(", "DistSamplerSeedHook(", "IterBasedRunner(")
#: the parser method that declares an option, and the name of its default
OPTION_DECLARATION = ("add_argument", "default")
#: the parser method that sets options' defaults by keyword (``parser.set_defaults(gpus=1)``)
OPTION_DEFAULTS = "set_defaults"
#: calls that return a configuration read from a file or built from a mapping: an attribute of
#: what they return (``cfg = Config.fromfile(args.config)``, then ``cfg.seed``) is the file's
#: value, never the command-line option of the same name
CONFIG_LOADERS = frozenset(
    {
        "mmcv.Config.fromfile", "mmcv.utils.Config.fromfile", "mmcv.utils.config.Config.fromfile",
        "mmengine.Config.fromfile", "mmengine.config.Config.fromfile",
        "omegaconf.OmegaConf.load", "omegaconf.OmegaConf.create", "omegaconf.OmegaConf.merge",
        "yaml.load", "yaml.safe_load", "yaml.full_load", "json.load", "json.loads", "toml.load", "tomllib.load",
        "easydict.EasyDict", "addict.Dict",
    }
)
#: calls that move the default device of new tensors, where the program then runs: qualified
#: name -> (parameter, position) of the device (``torch.set_default_device("cuda")``), or of
#: the tensor type, whose name tells its device (``set_default_tensor_type(
#: "torch.cuda.FloatTensor")``, nerf-pytorch)
DEFAULT_DEVICE_CALLS: Dict[str, Tuple[str, int]] = {
    "torch.set_default_device": ("device", 0), "torch.set_default_tensor_type": ("t", 0),
}


def default_device_named(texts: "Any") -> Optional[str]:
    """The accelerator a device name or a tensor type name (``"torch.cuda.FloatTensor"``) of
    :data:`DEFAULT_DEVICE_CALLS` names, else None."""
    return device_named([t.split(".")[1] if t.startswith("torch.") and t.count(".") == 2 else t for t in texts])


#: device constructors: qualified name -> (parameter, position) of the device type
DEVICE_CONSTRUCTORS: Dict[str, Tuple[str, int]] = {"torch.device": ("type", 0), "torch_geometric.device": ("device", 0)}
#: the device names a constructor of :data:`DEVICE_CONSTRUCTORS` takes, where not torch's:
#: PyG's ``torch_geometric.device("auto")`` is the accelerator there is (CUDA first)
DEVICE_CONSTRUCTOR_NAMES: Dict[str, Tuple[str, ...]] = {"torch_geometric.device": (*ACCELERATOR_PREFIXES, "auto")}


def device_named(texts: "Any", names: Tuple[str, ...] = ACCELERATOR_PREFIXES) -> Optional[str]:
    """The device that one of ``texts`` names (``"cuda:0"`` -> ``cuda``; ``gpu`` -> ``cuda``),
    among ``names``, or None."""
    for text in texts:
        head = text.split(":", 1)[0].strip().lower()
        if head in names:
            return DEVICE_ALIASES.get(head, head)
    return None


def device_counted(value: Any, device: str) -> Optional[str]:
    """``device`` when ``value`` is a literal count of devices above 0 (``2``, ``"0,1"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return device if value > 0 else None
    if isinstance(value, str) and value.strip() and value.replace(",", "").strip().isdigit():
        return device
    return None


# -- single-file seeding rules (RPL106-RPL109) ------------------------------------------------

#: methods that put an RNG object into a chosen state after it was created without a seed
RESEEDING_METHODS = frozenset({"seed", "setstate", "set_state", "manual_seed"})
#: torch factories that take ``device=`` and draw from that device's generator (RPL107)
RANDOM_FACTORIES = frozenset(f"torch.{n}" for n in ("rand", "randn", "randint", "randperm", "normal"))
#: dataset base classes (RPL108)
DATASET_BASES = frozenset(
    {
        "torch.utils.data.Dataset", "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.Dataset", "torch.utils.data.dataset.IterableDataset",
    }
)
#: dataset methods that run in the DataLoader workers (RPL108)
DRAWING_METHODS = ("__getitem__", "__iter__", "__getitems__")
#: NumPy calls whose seed must fit in 32 bits (RPL109): qualified name -> (parameter, position)
NUMPY_SEEDERS: Dict[str, Tuple[str, int]] = {"numpy.random.seed": ("seed", 0), "numpy.random.RandomState": ("seed", 0)}
#: the call that tells a DataLoader worker its identity and seed
WORKER_INFO = "torch.utils.data.get_worker_info"

# -- process-group backends (RPL601) ---------------------------------------------------------

#: process-group backends that are not HCCL (RPL601)
OTHER_BACKENDS = ("gloo", "mpi", "nccl", "ucc")


def may_be_hccl(backend: Any) -> bool:
    """A process group's backend that is HCCL or may be on an NPU: a literal naming HCCL, a
    value chosen at run time, or none given; only a literal naming another backend is not."""
    return not isinstance(backend, str) or backend.lower() not in OTHER_BACKENDS

#: calls that start a process group: qualified name -> (parameter, position) of the backend
PROCESS_GROUP_INITS: Dict[str, Tuple[str, int]] = {
    INIT_PROCESS_GROUP: ("backend", 0),
    **{f"deepspeed{m}.init_distributed": ("dist_backend", 0) for m in ("", ".comm", ".comm.comm")},
}
#: marks, among ``uses``, a process group started with a backend that may be HCCL (``hccl``, or
#: one chosen at run time, which is HCCL on an NPU)
PROCESS_GROUP = "process_group"
#: torch_npu's migration module: importing it makes CUDA calls run on the NPU and turns the
#: ``nccl`` backend of ``init_process_group`` into ``hccl`` (it wraps the call and replaces the
#: name), so a program written for CUDA runs its collectives on HCCL
NCCL_TO_HCCL_MODULES = frozenset({"torch_npu.contrib.transfer_to_npu"})
#: marks, among ``uses``: a process group started with a literal ``nccl`` backend (HCCL when
#: one of :data:`NCCL_TO_HCCL_MODULES` is imported), and the import of one of those modules
NCCL_GROUP = "process_group_nccl"
NCCL_AS_HCCL = "nccl_as_hccl"

# -- environment variables -------------------------------------------------------------------

ENVIRON = "os.environ"
#: calls that set one variable: ``(key, value)`` by position (``os.putenv`` names them too)
ENVIRON_SETTERS = frozenset({f"{ENVIRON}.setdefault", f"{ENVIRON}.__setitem__", "os.putenv"})
#: variables whose setting is an effect, like a switch: name -> (effect, the values, lower-cased,
#: that turn it on); a value chosen at run time counts as on. ``HCCL_DETERMINISTIC``: torch_npu
#: compares the lower-cased value with "true", CANN also documents "strict"; "1" is not on
#: (NONDETERMINISM.md section 2.2)
ENV_SWITCHES: Dict[str, Tuple[str, FrozenSet[str]]] = {
    "HCCL_DETERMINISTIC": ("hccl_deterministic", frozenset({"true", "strict"})),
}


#: files a framework imports by name, so they are libraries even with a ``__main__`` block:
#: ``torch.hub.load`` imports the repository's ``hubconf.py`` (torch.hub documentation,
#: "Publishing models")
FRAMEWORK_IMPORTED_FILES = frozenset({"hubconf.py"})
