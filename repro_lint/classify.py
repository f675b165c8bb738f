"""What one call does by itself: the classifier both syntax trees share.

:func:`classify_call` takes a call's import-qualified name, the method it calls and its
arguments (through a :class:`~repro_lint.syntax.CallArgs` adapter for either tree) and says
which generators it seeds, which determinism switches it turns on, which generators and
devices it will use, and which it draws from right away. Every name it knows comes from
:mod:`repro_lint.catalog`: supporting a library means editing those tables, not this code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import FrozenSet, Mapping, Optional, Set, Tuple

from . import catalog
from .syntax import MISSING, UNKNOWN, CallArgs, NoArgs

#: calls that, made at module level, mean the module itself trains (a script without a guard)
TRAINING_METHODS = frozenset({"backward", "step", "fit", "train_step", "zero_grad"})
#: words of the calls that, made at module level, may draw random numbers or build a model
#: (a script without a ``__main__`` block): ``torch.rand*``, ``np.random.*``, ``random.*``,
#: ``nn.Linear``/``nn.Conv2d``/..., model factories, shuffling DataLoaders and samplers
SCRIPT_WORDS = ("rand", "normal", "Linear", "Conv", "LSTM", "GRU", "Embedding", "Transformer", "create_model", "get_model", "models.", "Loader", "Sampler")
ENTRY_WORDS = ("__main__",) + tuple(sorted(TRAINING_METHODS)) + SCRIPT_WORDS

GENERATORS = catalog.GENERATORS
ALL_GENERATORS = frozenset(GENERATORS)
DETERMINISM = catalog.DETERMINISM_EFFECTS
DEVICES = catalog.DEVICES
#: the same, as a set (what ``uses`` names a device by)
DEVICE_USES = frozenset(DEVICES)
#: markers among ``uses``: torch draws that only initialise weights, a training call, a
#: checkpoint loaded over the initial weights
INIT = "torch_init"
#: a dropout layer built: torch's generator is used while its model trains (see ``INIT``)
DROPOUT_LAYER = "torch_dropout_layer"
TRAIN = "train"
LOAD = "load"
#: a model built with pretrained weights (``resnet18(pretrained=True)``,
#: ``AutoModelForSequenceClassification.from_pretrained(name)``): the weights it draws are
#: replaced, but only its own (not another model's, as a checkpoint loaded with
#: ``load_state_dict`` is taken to be); it draws what shows only while the program trains
#: (a head the checkpoint lacks, dropout)
PRETRAINED = "torch_pretrained"
#: a DataLoader or sampler that shuffles from torch's global generator (no ``generator=``): it
#: draws when it is iterated, which a script's top level does (what makes a file without a
#: ``__main__`` block a script, beside ``INIT`` and the draws)
SHUFFLES = "torch_shuffle"
#: marks, among ``effects``, a generator reseeded from OS entropy (``np.random.seed()``)
ENTROPY = "entropy:"
TRAIN_MARKERS = TRAINING_METHODS | {"train"}
#: stands for a computed object in a call name (``f().method()`` is recorded as ``?.method``)
UNNAMED = "?"
#: among ``uses``: a device that a command-line option's default names (``--device npu``),
#: prefixed; and the marker of a placement on a device the code does not spell out
#: (``model.to(args.device)``, ``torch.device(cfg.device)``, ``Trainer(accelerator=acc)``).
#: The option's device counts for an execution path that runs the code declaring the option
#: (a parser built in the script, or in a function it calls); where the option is declared in
#: the top level of a module the path only imports, it counts when the path places something
#: so (see :func:`placed_option_devices`): a script that imports a configuration module to
#: read its other settings runs nothing on that device.
OPTION_DEVICE = "option:"
PLACES = "places"


def placed_option_devices(uses: "Set[str] | FrozenSet[str]", placed: bool = False) -> Set[str]:
    """``uses`` with each option's device made plain where something is placed on a device
    named elsewhere (``placed``, or the ``PLACES`` marker among them), else dropped."""
    options = {use for use in uses if use.startswith(OPTION_DEVICE)}
    if not options:
        return set(uses)
    kept = set(uses) - options
    if placed or PLACES in uses:
        kept |= {use[len(OPTION_DEVICE) :] for use in options}
    return kept


def _transformers_model(qualified: str, args: CallArgs) -> Optional[str]:
    """``draw`` for a transformers or diffusers model built from scratch (``BertModel(config)``,
    ``AutoModel.from_config(config)``, ``UNet2DModel(...)``, ``AutoencoderKL(...)``), ``pretrained``
    for one loaded (``from_pretrained``), ``use`` for a collator that masks at random (not one that
    pads, ``DataCollatorWithPadding``, nor a language-modelling one given ``mlm=False``), None for
    anything else (tokenizers, configs, schedulers). The class is the first capitalised part of
    the name (``diffusers.models.UNet2DModel``)."""
    parts = qualified.split(".")
    at = next((i for i, part in enumerate(parts[1:], 1) if part[:1].isupper()), None)
    if at is None:
        return None
    cls, rest = parts[at], parts[at + 1 :]
    if cls.startswith("DataCollator"):
        if parts[0] != "transformers" or at != 1 or rest or cls not in catalog.MASKING_COLLATORS:
            return None
        return None if args.value(*catalog.MASKING_COLLATORS[cls]) is False else "use"
    if not (cls.endswith("Model") or "For" in cls or (cls.startswith("Auto") and "Model" in cls) or cls.startswith(_DIFFUSERS_MODELS)):
        return None
    if not rest or rest[0] == "from_config":
        return "draw"
    if rest[0] != "from_pretrained":
        return None
    # a task model given its labels (``AutoModelForSequenceClassification.from_pretrained(ckpt,
    # num_labels=3)``): a head of that size, which a base checkpoint does not hold, is drawn
    if "For" in cls and any(args.value(keyword, None) is not MISSING for keyword in catalog.HEAD_SIZE_KEYWORDS):
        return "draw"
    return "pretrained"


#: diffusers' model classes whose names do not end in ``Model`` (``AutoencoderKL``)
_DIFFUSERS_MODELS = ("Autoencoder", "UNet")


@dataclass(frozen=True)
class CallEffect:
    """What one call does by itself: seeds/enables (``effects``), will consume (``uses``:
    generators and devices), consumes right now (``draws``). ``known`` calls are torch, NumPy,
    ``random`` or library API: they are never resolved further nor taken for seeding helpers."""

    effects: FrozenSet[str] = frozenset()
    uses: FrozenSet[str] = frozenset()
    draws: FrozenSet[str] = frozenset()
    known: bool = False


NO_EFFECT = CallEffect()


def switch_effect(qualified: Optional[str], args: CallArgs) -> Optional[Tuple[str, bool]]:
    """What this call does to a determinism switch of
    :data:`~repro_lint.catalog.DETERMINISM_SWITCHES`: ``(effect, literal)`` when it turns the
    effect on, ``literal`` False when the value is chosen at run time
    (``use_deterministic_algorithms(args.deterministic)``); None when it turns nothing on.
    The one decision every rule reads: what may happen counts a run-time value as on; a
    finding that says determinism *is* on needs a literal."""
    switch = catalog.DETERMINISM_SWITCHES.get(qualified or "")
    if switch is None:
        return None
    value = args.value(switch.param, switch.position)
    if value is MISSING or not switch.turns_on(value):
        return None
    return switch.effect, value is not UNKNOWN


def _pretrained(args: CallArgs) -> bool:
    """A model factory asked for pretrained weights: ``pretrained=True`` (torchvision before
    0.13, timm), or ``weights=`` something other than None (torchvision's ``weights="DEFAULT"``,
    ``ResNet50_Weights.IMAGENET1K_V2``)."""
    if args.value("pretrained", None) is True:
        return True
    weights = args.node("weights", None)
    return weights is not MISSING and weights is not UNKNOWN and args.value("weights", None) is not None


#: the keywords of :data:`~repro_lint.catalog.DEVICE_KEYWORDS`
DEVICE_KEYWORD_NAMES = frozenset(keyword for keyword, _ in catalog.DEVICE_KEYWORDS)


def classify_call(qualified: Optional[str], method: Optional[str], args: CallArgs) -> CallEffect:
    """Classify a call from its import-qualified name (None when its head was not imported),
    the attribute it calls (``x.cuda()`` -> ``cuda``) and its arguments."""
    effects: Set[str] = set()
    uses: Set[str] = set()
    draws: Set[str] = set()
    known = False
    if qualified in catalog.PARTIALS:
        # ``partial(Agent, device="cuda")`` only binds arguments: whatever it wraps does the
        # work where it is called (the facts follow the name it is bound to)
        return NO_EFFECT
    if qualified is not None:
        known = True
        helper = catalog.SEED_HELPERS.get(qualified)
        sampler = catalog.RANDOM_SAMPLERS.get(qualified)
        reseed = catalog.ENTROPY_RESEEDS.get(qualified)
        if reseed is not None and (reseed[1] is None or args.value(*reseed[1]) in (MISSING, None)):
            effects.add(ENTROPY + reseed[0])
        elif qualified in catalog.SEED_CALLS:
            effects |= catalog.SEED_CALLS[qualified]
        elif helper is not None and _helper_seeds(helper, options := args.spread(*helper.options) if helper.options else args):
            entropy = helper.entropy_seed is not None and options.value(*helper.entropy_seed) in (MISSING, None)
            effects |= {ENTROPY + g for g in helper.seeds} if entropy else helper.seeds
            effects |= helper.always
            on = helper.determinism_default
            if helper.determinism_arg is not None:
                value = options.value(*helper.determinism_arg)
                if value is not MISSING:
                    on = catalog.is_on(value)
            if on:
                effects |= helper.determinism
            if helper.builds_model:
                draws.add("torch")
                uses.add(INIT)
            if helper.workers_arg is not None:
                workers = options.value(*helper.workers_arg)
                if workers is not MISSING and catalog.is_on(workers):
                    effects.add(catalog.SEEDS_WORKERS)
        elif qualified in catalog.DETERMINISM_SWITCHES:
            switched = switch_effect(qualified, args)
            if switched is not None:
                effects.add(switched[0])
        elif qualified in catalog.NOT_SEEDING:
            pass
        elif catalog.initialises_weights(qualified):
            draws.add("torch")
            # pretrained: the weights drawn are then replaced by the ones it downloads
            uses.add(PRETRAINED if _pretrained(args) else INIT)
        elif sampler is not None:
            if args.value("generator", sampler) is MISSING:
                if qualified.endswith(".random_split"):
                    draws.add("torch")  # splits when it is called
                else:
                    uses.add(SHUFFLES)
                uses.add("torch")
        elif qualified in catalog.FUNCTIONAL_DROPOUT and (training := args.value(*catalog.FUNCTIONAL_DROPOUT_TRAINING)) not in (MISSING, True):
            # ``F.dropout(x, training=self.training)`` draws only in training mode, as a dropout
            # layer does; ``training=False`` never draws (left out, or True, it always draws)
            if training not in (False, None):
                uses.add(DROPOUT_LAYER)
        elif qualified in catalog.TORCH_DRAWS or (
            # (not ``rng.shuffle(items)``: PyG's takes only ``return_perm``)
            qualified == catalog.PYG_DATASET_METHOD + "shuffle"
            and ((perm := args.value("return_perm", 0)) is MISSING or isinstance(perm, bool))
        ):
            draws.add("torch")
            uses.add("torch")
        elif qualified in catalog.DROPOUT_MODULES:
            # a dropout layer draws only while its model is in training mode: like the random
            # initial weights, it matters unless the weights are loaded by code that does not train
            uses.add(DROPOUT_LAYER)
        elif qualified in catalog.TORCH_USES or (
            qualified.startswith(catalog.TORCH_USE_PREFIXES)
            and not (qualified.startswith("torch.distributions.") and not qualified.rsplit(".", 1)[-1][:1].isupper())
        ):
            # a distribution built (``Normal(mu, std)``: its ``sample()`` draws), not a function
            # or a class's own switch (``kl_divergence(p, q)``, ``Distribution.set_default_validate_args``);
            # a random transform built or its ``get_params`` (which draws)
            uses.add("torch")
        elif qualified in catalog.DATALOADERS:
            params = catalog.DATALOADERS[qualified]
            shuffle = args.value("shuffle", catalog.loader_position(params, "shuffle"))
            generator = args.value("generator", catalog.loader_position(params, "generator"))
            if shuffle is not MISSING and catalog.is_on(shuffle) and generator is MISSING:
                uses.add("torch")
                uses.add(SHUFFLES)
        elif qualified.startswith("numpy.random.") and qualified.count(".") == 2:
            if qualified.rsplit(".", 1)[1] in catalog.NUMPY_LEGACY_FUNCTIONS:
                draws.add("numpy")
                uses.add("numpy")
        elif qualified in catalog.SKLEARN_NUMPY_DRAWS:
            at_call, shuffle_default = catalog.SKLEARN_NUMPY_DRAWS[qualified]
            shuffle = args.value("shuffle", None) if shuffle_default is not None else MISSING
            shuffles = shuffle_default is None or (
                shuffle_default if shuffle is MISSING else shuffle is not UNKNOWN and catalog.is_on(shuffle)
            )
            if shuffles and args.value("random_state", None) in (MISSING, None):
                uses.add("numpy")
                if at_call:
                    draws.add("numpy")
        elif qualified in catalog.HF_DATASET_DRAWS:
            seeds, shuffle_param = catalog.HF_DATASET_DRAWS[qualified]
            shuffle = args.value(*shuffle_param) if shuffle_param is not None else MISSING
            shuffles = shuffle is MISSING or (shuffle is not UNKNOWN and catalog.is_on(shuffle))
            if shuffles and all(args.value(*seed) in (MISSING, None) for seed in seeds) and args.node("buffer_size", None) is MISSING:
                draws.add("numpy")
                uses.add("numpy")
        elif qualified.startswith("random.") and qualified.count(".") == 1:
            if qualified[7:] in catalog.RANDOM_FUNCTIONS:
                draws.add("random")
                uses.add("random")
        elif qualified.startswith(("transformers.", "diffusers.")):
            kind = _transformers_model(qualified, args)
            if kind == "draw":
                draws.add("torch")
                uses.add(INIT)
            elif kind == "pretrained":
                uses.add(PRETRAINED)
            elif kind == "use":
                uses.add("torch")
        elif qualified in catalog.DEVICE_CONSTRUCTORS:
            where = catalog.DEVICE_CONSTRUCTORS[qualified]
            device = catalog.device_named(args.strings(*where), catalog.DEVICE_CONSTRUCTOR_NAMES.get(qualified, catalog.ACCELERATOR_PREFIXES))
            if device:
                uses.add(device)
            elif args.value(*where) is UNKNOWN:
                uses.add(PLACES)
        elif qualified in catalog.DEFAULT_DEVICE_CALLS:
            device = catalog.default_device_named(args.strings(*catalog.DEFAULT_DEVICE_CALLS[qualified]))
            if device:
                uses.add(device)
        elif qualified in catalog.PROCESS_GROUP_INITS:
            backend = args.value(*catalog.PROCESS_GROUP_INITS[qualified])
            if catalog.may_be_hccl(backend) and not (isinstance(backend, str) and "hccl" in backend.lower()):
                # a backend chosen at run time (a literal HCCL backend is reported at its call)
                uses.add(catalog.PROCESS_GROUP)
            elif isinstance(backend, str) and backend.lower() == "nccl":
                uses.add(catalog.NCCL_GROUP)  # HCCL where transfer_to_npu is imported
                # NCCL runs on CUDA devices only (a torchrun script's ``.to(local_rank)``), as
                # ``.cuda()`` does where transfer_to_npu makes it an NPU's
                uses.add("cuda")
        elif qualified in catalog.DEVICE_CALLS:
            cpu = catalog.CPU_SWITCHES.get(qualified)
            if cpu is None or args.value(cpu[0], cpu[1]) != cpu[2]:
                uses.add(catalog.DEVICE_CALLS[qualified])
        elif helper is None:
            known = qualified.startswith(("torch.", "numpy.", "random."))
        built = trainer_built(qualified, args)
        if built is not None:
            trainer = classify_call(built[0], None, built[1])
            effects |= trainer.effects
            uses |= trainer.uses
            draws |= trainer.draws
    if method in catalog.DEVICE_METHODS and qualified not in ("torch.cuda", "torch.npu"):
        uses.add(method)
    elif method == "to":
        device = catalog.device_named(args.strings("device", 0))
        if device:
            uses.add(device)
    elif method in catalog.TORCH_DRAW_METHODS and qualified is None:
        draws.add("torch")
        uses.add("torch")
    if method in TRAIN_MARKERS and not (method == "train" and args.value("mode", 0) is False):
        uses.add(TRAIN)  # ``model.train(False)`` switches to evaluation mode
    elif method in catalog.WEIGHT_LOADERS and method != "from_pretrained":
        # (``from_pretrained`` builds a pretrained object, which replaces no other model's
        # weights: a tokenizer's or a backbone's does not load the head's)
        uses.add(LOAD)
    other_runtime = qualified is not None and qualified.startswith(catalog.OTHER_RUNTIMES)
    for keyword, names in catalog.DEVICE_KEYWORDS if args.may_name(DEVICE_KEYWORD_NAMES) and not other_runtime else ():
        if args.node(keyword, None, callers=False) in (MISSING, UNKNOWN):
            continue  # not given (most calls), or maybe inside ``**kwargs``: no string, no evidence
        device = catalog.device_named(args.strings(keyword, None), names)
        if device:
            uses.add(device)
        elif args.value(keyword, None) is UNKNOWN:
            uses.add(PLACES)  # given explicitly (``device=self.device``), not maybe inside ``**kwargs``
    counted = catalog.DEVICE_COUNT_KEYWORDS.get(qualified or "")
    if counted is not None:
        given = args.value(counted[0], None)
        # (Lightning's ``gpus=-1`` is every GPU there is; elsewhere, ``--gpu -1`` is often the CPU)
        device = catalog.device_counted(given, counted[1]) or (counted[1] if given in (-1, "-1") and given is not True else None)
        if device:
            uses.add(device)
        elif given is UNKNOWN:
            uses.add(PLACES)
    if qualified in catalog.ACCELERATOR_BY_DEFAULT:
        where = catalog.ACCELERATOR_BY_DEFAULT[qualified]
        # (``Trainer(**cfg.trainer)`` may name the device inside the dict: no evidence; a count
        # of devices given, Lightning 1.x's ``gpus=``, is read as the count it is)
        counts = catalog.DEVICE_COUNT_KEYWORDS.get(qualified)
        if where is None or (args.node(*where) is MISSING and (counts is None or args.value(counts[0], None) is MISSING)) or args.value(*where) == "auto":
            uses.add("accelerator")
    if qualified in catalog.SB3_ALGORITHMS and args.value("seed", None) in (MISSING, None):
        # built without a seed: the policy's weights, drawn as it is built
        draws.add("torch")
        uses.add(INIT)
    if method == catalog.OPTION_DECLARATION[0]:
        device = option_device(args)
        if device:
            uses.add(OPTION_DEVICE + device)
    elif method == catalog.OPTION_DEFAULTS:
        uses.update(OPTION_DEVICE + device for device in options_defaults_devices(args))
    if not (effects or uses or draws or known):
        return NO_EFFECT
    return CallEffect(frozenset(effects), frozenset(uses), frozenset(draws), known)


def _helper_seeds(helper: catalog.SeedHelper, args: CallArgs) -> bool:
    """Does a seeding helper seed at all with these arguments (``LightningCLI(...,
    seed_everything_default=False)`` does not)?"""
    if helper.seeding_arg is None:
        return True
    value = args.value(*helper.seeding_arg)
    if value is MISSING:
        return helper.seeding_default
    return value is not False and value is not None  # a seed of 0 seeds


def trainer_built(qualified: Optional[str], args: CallArgs) -> Optional[Tuple[str, CallArgs]]:
    """The Trainer a call builds from a dict of its keywords
    (:data:`~repro_lint.catalog.TRAINER_KEYWORD_DICTS`), and that Trainer's arguments."""
    built = catalog.TRAINER_KEYWORD_DICTS.get(qualified or "")
    if built is None:
        return None
    return built[1], args.spread(*built[0])


#: binds only positional arguments (no keyword is named so)
POSITIONAL = ""


def option_device(args: CallArgs) -> Optional[str]:
    """The device a command-line option's default names (``add_argument("--device",
    default="cuda")``; ``add_argument("--gpus", type=int, default=1)``: an accelerator), or None."""
    for position in (0, 1):
        for text in args.strings(POSITIONAL, position):
            option = text.lstrip("-").replace("-", "_").lower()
            if option in catalog.DEVICE_OPTIONS:
                return _default_device(option, args, catalog.OPTION_DECLARATION[1])
    return None


def options_defaults_devices(args: CallArgs) -> Set[str]:
    """The devices that ``parser.set_defaults(gpus=1)`` (``device="cuda"``) makes the default
    of an option: what a declaration with that default would name."""
    found = {_default_device(option, args, option) for option in catalog.DEVICE_OPTIONS}
    return {device for device in found if device}


def _default_device(option: str, args: CallArgs, keyword: str) -> Optional[str]:
    """The device that the default of device option ``option`` (one of
    :data:`~repro_lint.catalog.DEVICE_OPTIONS`), given as keyword ``keyword`` of the call, names."""
    if catalog.DEVICE_OPTIONS[option] == "name":
        # the names the keyword of that name accepts (``--accelerator auto``, as ``accelerator="auto"``)
        names = dict(catalog.DEVICE_KEYWORDS).get(option, catalog.ACCELERATOR_PREFIXES)
        return catalog.device_named(args.strings(keyword, None), names)
    # a number of GPUs, or of NPUs in an NPU program: the accelerator it has
    return catalog.device_counted(args.value(keyword, None), "accelerator")


def library_method(method: Optional[str], aliases: Mapping[str, str], text: str) -> Optional[str]:
    """The library method that a call of ``method`` on an object of no known origin stands for,
    by what the module imports (``aliases``: local name -> the qualified name its import binds;
    ``text``: the module's source), else None: ``data["train"].shuffle()`` in a module that
    imports ``load_dataset`` from Hugging Face's ``datasets`` is ``Dataset.shuffle``
    (:data:`~repro_lint.catalog.HF_DATASET_DRAWS`); in one that imports PyG's datasets, PyG's
    (:data:`~repro_lint.catalog.LIBRARY_METHODS`). A package imported whole counts where the
    module calls one of those names through it (``import datasets``, then
    ``datasets.load_dataset(...)``)."""
    if method not in catalog.LIBRARY_METHOD_NAMES:
        return None
    for evidence, methods, owner in catalog.LIBRARY_METHODS:
        if method not in methods:
            continue
        prefixes = tuple(f"{e}." for e in evidence)
        for local, name in aliases.items():
            if name in evidence or name.startswith(prefixes):
                return owner + method
            # ``import datasets`` (as ``ds``) and ``ds.load_dataset(...)`` in the text
            if any(e.startswith(f"{name}.") and f"{local}.{e[len(name) + 1:]}(" in text for e in evidence):
                return owner + method
    return None


@functools.lru_cache(maxsize=4096)  # the catalog does not change; many calls share a name
def is_known(qualified: str) -> bool:
    """A torch/NumPy/random or library call the classifier knows: never a project helper."""
    return classify_call(qualified, qualified.rsplit(".", 1)[-1], NoArgs()).known


def is_device_name(name: str) -> bool:
    """A parameter, variable or key named as a device (``device``, ``train_device``,
    ``cfg.device``: the last part), as Lightning's accelerator (``accelerator = "cuda"`` then
    ``Trainer(accelerator=accelerator)``), or a variable named for a CUDA device (``cudaid``,
    ``cuda_id``; not a constant such as an enum member ``CUDA = "cuda"``)."""
    last = name.rsplit(".", 1)[-1]
    return "device" in last.lower() or last.lower() == "accelerator" or (last.startswith("cuda") and not last.isupper())


#: what a setting named ``accelerator`` may name, in Lightning's words (``"auto"``, a Trainer's
#: default, is the accelerator there is, as ``Trainer(accelerator="auto")`` and ``Trainer()`` are)
LIGHTNING_ACCELERATORS = dict(catalog.DEVICE_KEYWORDS)["accelerator"]


def setting_device(name: str, value: object) -> Optional[str]:
    """The accelerator a device setting or parameter named ``name`` names with the string
    ``value`` (``device="cuda:0"``; ``accelerator="gpu"`` or ``"auto"`` in Lightning's words,
    lower case), else None (``"cpu"``, not a string)."""
    if not isinstance(value, str):
        return None
    if name.rsplit(".", 1)[-1].lower() == "accelerator":
        return catalog.device_named([value], LIGHTNING_ACCELERATORS) if value == value.lower() else None
    return catalog.device_named([value])


def is_seed_parameter(name: str) -> bool:
    """A function parameter that takes a seed (``seed``, ``random_seed``, ``seed_value``)."""
    return "seed" in name.lower()


def is_seed_named(name: str, imported: bool, star_imports: bool = False) -> bool:
    """A call that resolves to nothing counts as seeding all three generators when its name
    contains ``seed``; getters (``get_seed``, ``initial_seed``) and the methods of RNG objects
    (``rng.seed(0)``, ``g.manual_seed(0)``, ``env.action_space.seed(0)`` on a local object) do
    not."""
    last = name.rsplit(".", 1)[-1].lower()
    if "seed" not in last or last.startswith("get") or last.endswith("initial_seed"):
        return False
    if last in ("seed_worker", "worker_init_fn"):
        return False
    if not imported and "." in name and last in ("seed", "manual_seed"):
        # ``np.random.seed(0)`` in a module with ``star_imports`` (of a module that is not
        # linted, which may bind ``np``): NumPy's spelling, which seeds (an RNG object is not
        # ``<x>.random``); without one, ``np`` is bound nowhere and the call fails
        return star_imports and name.endswith(".random.seed") and not name.startswith("self.")
    return True
