"""The value evaluator (repro_lint.values) and the op rules that ask it: a parameter's mode,
and whether a method-form op's receiver is a tensor."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from conftest import codes
from repro_lint.values import INTEGER, NUMPY, OPEN, TORCH, Const, Values

IMPORTS = "import numpy as np\nimport torch\nimport torch.nn.functional as F\n\n"
#: the evaluator's depth limit (``repro_lint.values._MAX_DEPTH``), for parametrized tests
from repro_lint.values import _MAX_DEPTH as _MAX_DEPTH_FOR_TESTS  # noqa: E402


def evaluate(code: str, keyword: str):
    """The candidates of ``keyword=`` in the last call of ``code`` that passes it."""
    module = cst.parse_module(textwrap.dedent(code))
    found = []
    stack = [(module, ())]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, cst.Call):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == keyword:
                    found.append((node, arg, chain))
        stack.extend((child, chain + (node,)) for child in reversed(node.children))
    node, arg, chain = found[-1]
    got = Values(module).of(arg.value, chain + (node,))
    return None if got is None else [c.value if isinstance(c, Const) else c for c in got]


@pytest.mark.parametrize(
    "code, expected",
    [
        ("f(x=1)", [1]),
        ("a = 2\nf(x=a)", [2]),
        ("a = 2\na = 3\nf(x=a)", [3]),
        ("if c:\n    a = 1\nelse:\n    a = 2\nf(x=a)", [1, 2]),  # ``c`` unknown: either branch
        ("c = True\nif c:\n    a = 1\nelse:\n    a = 2\nf(x=a)", [1]),
        ("def g(c):\n    if c:\n        a = 1\n    else:\n        a = 2\n    f(x=a)\n", [1, 2]),
        ("def g(c):\n    a = 0\n    for i in c:\n        a = 1\n    f(x=a)\n", [0, 1]),
        ("def g(c):\n    a, b = 1, 2\n    f(x=b)\n", [2]),
        ("def g(c):\n    a, b = c\n    f(x=b)\n", None),  # unpacking a value we cannot see
        ("def g(m='bicubic'):\n    f(x=m)\n", ["bicubic", OPEN]),
        ("def g(m='bicubic'):\n    f(x=m)\ng()\ng(m='nearest')\n", ["bicubic", "nearest"]),
        ("def g(m='bicubic'):\n    f(x=m)\ng(m=h())\n", ["<call>"]),  # every call passes it
        # a call whose *args/**kwargs we cannot read may leave the parameter out, or pass anything
        ("def g(m='bicubic'):\n    f(x=m)\ng(*a)\n", ["bicubic", OPEN]),
        ("def g(m):\n    f(x=m)\ng(**cfg)\n", None),
        ("def g(m):\n    f(x=m)\n", [OPEN]),
        ("def g(m='bicubic'):\n    f(x='a' if m == 'bicubic' else 'b')\ng()\n", ["a"]),
        ("def g(s=None):\n    f(x=s is None)\ng()\n", [True]),
        ("def g(s=None):\n    f(x=not s)\ng()\n", [True]),
        ("import os\ndef g():\n    f(x=os)\n", None),
        ("def g():\n    f(x=[i for i in y])\n", ["<expr>"]),
        # a parameter rebound on some paths only keeps its own value on the others
        ("def g(m=True, s=None):\n    if s is not None:\n        m = False\n    f(x=m)\ng()\n", [True]),
        ("def g(m=True, s=None):\n    if s is not None:\n        m = False\n    f(x=m)\ng(s=1)\n", [False]),
        ("def g(m=True, s=None):\n    if s is not None:\n        m = False\n    f(x=m)\ng()\ng(s=1)\n", [True, False]),
        ("def g(m=True, s=None):\n    if h():\n        m = False\n    f(x=m)\ng()\n", [True, False]),
        ("def g(m=True):\n    for i in y:\n        m = 2\n    f(x=m)\ng()\n", [True, 2]),
        # rebound on every path: only the new values
        ("def g(m=True, s=None):\n    if h():\n        m = False\n    else:\n        m = 3\n    f(x=m)\ng()\n", [False, 3]),
        ("def g(m=True):\n    m = False\n    if h():\n        m = 3\n    f(x=m)\ng()\n", [False, 3]),
        # a module's name that another function assigns under ``global``
        ("d = None\ndef use():\n    f(x=d)\ndef main():\n    global d\n    d = 'cuda'\n", [None, "cuda"]),
        ("d = 1\ndef use():\n    f(x=d)\ndef main():\n    global d\n    if h():\n        d = 2\n    else:\n        d = 3\n", [1, 2, 3]),
        ("def use():\n    f(x=d)\ndef main():\n    global d\n    d = 'cuda'\n", ["cuda"]),
        ("d = 1\ndef use():\n    f(x=d)\ndef main():\n    global d\n    for d in y:\n        pass\n", None),  # unknown there
        ("d = 1\ndef use():\n    f(x=d)\ndef main():\n    d = 2\n", [1]),  # a local of main's
        ("d = 1\ndef use():\n    f(x=d)\ndef main():\n    def inner():\n        global d\n        d = 2\n", [1, 2]),
        # a test decided by what the name holds at the test itself
        ("def g(gpus=None):\n    if gpus is None:\n        gpus = 5\n    f(x=gpus)\ng()\n", [5]),
        ("def g(gpus=None):\n    if gpus is None:\n        gpus = 5\n    f(x=gpus)\ng(gpus=3)\n", [3]),
        # a free name of a nested function: what the enclosing function binds it to
        ("def outer(a=1):\n    d = 'cuda'\n    def inner():\n        f(x=d)\n    inner()\nouter()\n", ["cuda"]),
        ("def outer(a=1):\n    def inner():\n        f(x=a)\n    inner()\nouter()\n", [1]),
        ("d = 5\ndef outer(a=1):\n    def inner():\n        f(x=d)\n    inner()\nouter()\n", [5]),
        ("def outer(a=1):\n    d = 1\n    def inner():\n        f(x=d)\n    d = 2\n    inner()\nouter()\n", [1, 2]),
        # an entry a mapping's .get gives, or its default
        ("d = {'a': 1}\nf(x=d.get('a', 2))\n", [1]),
        ("d = {'a': 1}\nf(x=d.get('b', 2))\n", [2]),
        ("d = {'a': 1}\nf(x=d.get('b'))\n", [None]),
        ("import argparse\ndef run(variant):\n    f(x=variant.get('device', 'cuda'))\n"
         "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
         "    parser.add_argument('--device', default='cpu')\n    args = parser.parse_args()\n    run(vars(args))\n", ["cpu"]),
        ("import argparse\ndef run(variant):\n    f(x=variant.get('device', 'cuda'))\n"
         "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
         "    parser.add_argument('--seed', default=0)\n    args = parser.parse_args()\n    run(vars(args))\n", ["cuda"]),
        # the size of a display
        ("def g(gpus=None):\n    if gpus is None:\n        gpus = []\n    f(x=len(gpus) > 1)\ng()\n", [False]),
        ("def g():\n    a = (1, 2)\n    f(x=len(a))\n", [2]),
        ("def g():\n    a = [*b]\n    f(x=len(a))\n", ["<call>"]),  # starred: not known, the call itself
        ("def g():\n    a = {}\n    f(x=bool(a))\n", [False]),
        # ... unless it may change size after it is built (a buffer that fills up)
        ("def g():\n    a = []\n    a.append(1)\n    f(x=len(a))\n", ["<call>"]),
        ("def g():\n    a = {}\n    a['k'] = 1\n    f(x=bool(a))\n", ["<call>"]),
        ("def g():\n    a = []\n    a += [1]\n    f(x=len(a))\n", ["<call>"]),
        ("def g():\n    a = []\n    fill(a)\n    f(x=len(a))\n", ["<call>"]),  # a callee may fill it
        ("def g():\n    a = []\n    print(a)\n    f(x=len(a))\n", [0]),  # a builtin that only reads
        ("def g():\n    a = (1, 2)\n    fill(a)\n    f(x=len(a))\n", [2]),  # a tuple never changes
        ("class B:\n    def __init__(self):\n        self.data = []\n    def push(self, e):\n"
         "        f(x=len(self.data) < 3)\n        self.data.append(e)\n", None),
        ("class B:\n    def __init__(self):\n        self.data = []\n    def push(self, e):\n"
         "        f(x=len(self.data) < 3)\n", [True]),
        # a membership test in a display of literals (PySlowFast's ``if split in ["train"]:``)
        ("def g(split):\n    if split in ['train']:\n        s = True\n    elif split in ('val', 'test'):\n        s = False\n    f(x=s)\ng('train')\n", [True]),
        ("def g(split):\n    if split in ['train']:\n        s = True\n    elif split in ('val', 'test'):\n        s = False\n    f(x=s)\ng('val')\n", [False]),
        ("def g(split):\n    f(x=split not in {'train', 'val'})\ng('test')\n", [True]),
        ("def g(split):\n    f(x=split in [other, 'val'])\ng('val')\n", None),  # a name in the display: not known
    ],
)
def test_values(code, expected):
    got = evaluate(code, "x")
    if expected == ["<expr>"]:
        assert got is not None and len(got) == 1 and isinstance(got[0], cst.ListComp)
    elif expected == ["<call>"]:
        assert got is not None and len(got) == 1 and isinstance(got[0], cst.Call)
    else:
        assert got == expected


def test_argparse_defaults_are_the_default_path():
    code = (
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('-j', '--num-workers', default=4)\n"
        "p.add_argument('--eval', action='store_true')\n"
        "p.add_argument('--keep', action='store_false')\n"
        "p.add_argument('--out', dest='target')\n"
        "args = p.parse_args()\n"
        "f(a=args.num_workers, b=args.eval, c=args.keep, d=args.target, e=args.missing)\n"
    )
    assert [evaluate(code, k) for k in "abcde"][:4] == [[4], [False], [True], [None]]
    assert evaluate(code, "e")[0].__class__ is cst.Attribute  # not an option: the expression


OPTIONS = (
    "import argparse\np = argparse.ArgumentParser()\n"
    "p.add_argument('--world-size', default=1, type=int)\n"
    "p.add_argument('--multiprocessing-distributed', action='store_true')\n"
    "p.add_argument('--device', default='cpu')\n"
    "args = p.parse_args()\n"
)


@pytest.mark.parametrize(
    "code, expected",
    [
        # set from other options in the same function, then read
        ("def main():\n    args.distributed = args.world_size > 1\n    f(a=args.distributed)\n", [False]),
        # set once in one function, read in another (a read before it is set would raise)
        (
            "def main():\n    args.distributed = args.world_size > 1 or args.multiprocessing_distributed\n    worker()\n"
            "def worker():\n    f(a=False if not args.distributed else True)\n",
            [False],
        ),
        # set in two places: not known where it is read
        (
            "def main():\n    args.distributed = args.world_size > 1\n    worker()\n"
            "def other():\n    args.distributed = True\n"
            "def worker():\n    f(a=args.distributed)\n",
            None,
        ),
        # ``vars(args).update(...)`` may set anything
        (
            "def main():\n    args.distributed = args.world_size > 1\n    vars(args).update(load())\n    worker()\n"
            "def worker():\n    f(a=args.distributed)\n",
            None,
        ),
        # an option changed only under a branch the default path skips keeps its default
        ("def main():\n    if args.world_size > 1:\n        args.device = 'cuda:0'\n    f(a=args.device)\n", ["cpu"]),
        # the same at the module's top level (GCA's ``if use_nni and args.device != 'cpu':``)
        ("if args.world_size > 1:\n    args.device = 'cuda:0'\nf(a=args.device)\n", ["cpu"]),
        ("args.device = 'cuda:0'\nf(a=args.device)\n", ["cuda:0"]),
        # changed in another function too: not known here
        (
            "def setup():\n    args.device = 'cuda:0'\n"
            "def main():\n    if args.world_size > 1:\n        args.device = 'cuda:1'\n    f(a=args.device)\n",
            None,
        ),
        # not an options object: its attributes are not followed this way
        ("def main():\n    cfg.distributed = False\n    worker()\ndef worker():\n    f(a=cfg.distributed)\n", None),
    ],
)
def test_an_attribute_set_on_the_parsed_options(code, expected):
    got = evaluate(OPTIONS + code, "a")
    if expected is None:
        assert got is None or all(isinstance(c, cst.Attribute) for c in got)  # unknown (at most the expression)
    else:
        assert got == expected


def test_self_attributes_and_hparams():
    code = """\
        class M:
            def __init__(self, mode="bicubic", other=None):
                self.mode = mode
                self.other = other

            def forward(self):
                return f(x=self.mode, y=self.hparams.mode, z=self.unset)
        """
    assert evaluate(code, "x") == ["bicubic", OPEN]
    assert evaluate(code, "y") == ["bicubic", OPEN]
    assert evaluate(code, "z") is None


def test_a_method_call_binds_self():
    code = """\
        class M:
            def load(self, ds, shuffle=False):
                return f(x=shuffle)

            def train(self):
                return self.load([], True)

            def test(self):
                return self.load([])
        """
    assert evaluate(code, "x") == [False, True]


def test_recursion_is_bounded():
    assert evaluate("def g(a=1):\n    f(x=a)\n    g(a)\n", "x") is None
    assert evaluate("a = b\nb = a\nf(x=a)\n", "x") is None


def _first_call(code: str):
    """The module of ``code``, the call in the first statement of its first function, and the
    nodes enclosing that call (the call included)."""
    module = cst.parse_module(code)
    function = module.body[0]
    call = function.body.body[0].body[0].value
    return module, call, (module, function, function.body, function.body.body[0], function.body.body[0].body[0], call)


def test_an_answer_cut_short_by_the_depth_limit_is_not_kept():
    """A parameter's values found from deep inside another evaluation (where the depth limit
    cuts them short) must not stand for the answer asked afresh: an answer never depends on
    which question came first (decision-transformer's ``experiment(..., variant)``, whose
    ``variant.get("device", "cuda")`` was once unknown for RPL202 after RPL102 had asked)."""
    from repro_lint.values import _MAX_DEPTH

    module, call, chain = _first_call("def experiment(variant):\n    f(x=variant)\n\n\nexperiment(variant=3)\n")
    values = Values(module)
    assert values.of(call.args[0].value, chain, _MAX_DEPTH) is None  # too deep to follow the call
    assert values.of(call.args[0].value, chain) == [Const(3)]


@pytest.mark.parametrize("first", range(_MAX_DEPTH_FOR_TESTS + 1))
def test_an_answer_asked_first_from_deep_down_is_the_answer_asked_afresh(first):
    """What a call returns, and a parameter's values that depend on it, found from deep inside
    another evaluation are not kept when the depth limit cut them short (bert-ner's ``args =
    get_argparse().parse_args()`` passed to ``train(args, ...)``: the options, or the call left
    unevaluated, depending on which rule asked first)."""
    code = "def experiment(variant):\n    f(x=variant)\n\n\ndef make():\n    return 3\n\n\nexperiment(variant=make())\n"
    module, call, chain = _first_call(code)
    values = Values(module)
    values.of(call.args[0].value, chain, first)
    assert values.of(call.args[0].value, chain) == [Const(3)]


# -- the receiver of a method-form op -----------------------------------------------------------


def kind_of(code: str):
    module = cst.parse_module(IMPORTS + textwrap.dedent(code))
    from repro_lint.names import ImportTable  # noqa: F401  (only for the qualifier below)

    aliases = {"np": "numpy", "torch": "torch", "F": "torch.nn.functional"}

    def qualify(node):
        parts = []
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if isinstance(node, cst.Name) and node.value in aliases:
            return ".".join([aliases[node.value], *reversed(parts)])
        return None

    stack = [(module, ())]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "cumsum":
            return Values(module).kind(node.func.value, chain + (node,), qualify)
        stack.extend((child, chain + (node,)) for child in reversed(node.children))
    raise AssertionError("no cumsum")


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def f(x):\n    return np.arange(3).cumsum()\n", NUMPY),
        ("def f(x):\n    a = np.zeros(3)\n    return a.cumsum()\n", NUMPY),
        ("def f(x):\n    a = x.numpy()\n    return (1 - a).cumsum()\n", NUMPY),
        ("def f(tp, conf):\n    i = np.argsort(-conf)\n    tp, conf = tp[i], conf[i]\n    return tp.cumsum(0)\n", NUMPY),
        ("def f(x: np.ndarray):\n    return x.cumsum(0)\n", NUMPY),
        ("def f(x):\n    return torch.zeros(3).cumsum(0)\n", TORCH),
        ("def f(x: torch.Tensor):\n    return (x * 2).cumsum(0)\n", TORCH),
        ("def f(x):\n    return (x * 2).cumsum(0)\n", None),
        ("def f(x, i):\n    return x[0].cumsum(0)\n", None),
        ("def f(x):\n    a = np.zeros(3)\n    a = torch.tensor(a)\n    return a.cumsum(0)\n", TORCH),
        # visibly integer or bool tensors, also through a local variable
        ("def f(text, eos):\n    is_eos = (text == eos)\n    return is_eos.cumsum(dim=-1)\n", INTEGER),
        ("def f(x, y):\n    m = x <= y\n    return (~m).cumsum(0)\n", INTEGER),
        ("def f(x, y):\n    return ((x > 0) & (y != 1)).cumsum(0)\n", INTEGER),
        ("def f(x):\n    m = x.bool()\n    return m.cumsum(0)\n", INTEGER),
        ("def f(x):\n    return x.to(torch.long).cumsum(0)\n", INTEGER),
        ("def f(x):\n    return x.to(dtype=torch.int32).cumsum(0)\n", INTEGER),
        ("def f(x):\n    return torch.arange(0, 10, 2).cumsum(0)\n", INTEGER),
        ("def f(x, n=8):\n    return torch.arange(n).cumsum(0)\n\nf(1)\n", INTEGER),
        ("def f(x):\n    return torch.full((3,), 1, dtype=torch.bool).cumsum(0)\n", INTEGER),
        ("def f(x):\n    i = x.argmax(-1)\n    return i.view(-1).cumsum(0)\n", INTEGER),
        ("def f(x):\n    return (torch.nonzero(x) + 1).cumsum(0)\n", INTEGER),
        # tensors of sizes: a shape made a tensor, joined, reduced, moved to a device
        ("def f(x):\n    return torch._shape_as_tensor(x)[2:].to(x.device).cumsum(0)\n", INTEGER),
        ("def f(x):\n    return torch.tensor(x.shape).cumsum(0)\n", INTEGER),
        ("def f(x):\n    return torch.tensor([x.size(0), x.shape[1], 1]).cumsum(0)\n", INTEGER),
        ("def f(x, y):\n    s = torch.stack([x.argmax(-1), (y > 0).long()])\n    return s.prod(0).cumsum(0)\n", INTEGER),
        ("def f(xs):\n    parts = []\n    for x in xs:\n        parts.append(torch._shape_as_tensor(x)[2:])\n"
         "    parts = torch.cat(parts).view(-1, 2)\n    return parts.prod(1).cumsum(0)\n", INTEGER),
        ("def f(x):\n    n = torch.tensor(x.shape)\n    return n.new_tensor([1, 2]).cumsum(0)\n", INTEGER),
        # the name rebound to the joined tensor, then handed on: uses after the read do not count
        ("def f(xs, g):\n    s = []\n    for x in xs:\n        s.append(torch.tensor(x.shape))\n"
         "    s = torch.cat(s)\n    g(s)\n    return s.cumsum(0)\n", INTEGER),
        # floating, or not visibly integral: stays a (possibly floating) tensor or unknown
        ("def f(x):\n    return (x > 0).float().cumsum(0)\n", TORCH),
        ("def f(x):\n    return torch.arange(0.5, 3).cumsum(0)\n", TORCH),
        ("def f(x, n):\n    return torch.arange(n).cumsum(0)\n", TORCH),
        ("def f(x):\n    return torch.zeros(3, dtype=torch.float16).cumsum(0)\n", TORCH),
        ("def f(x):\n    return ((x > 0) * 0.5).cumsum(0)\n", TORCH),
        ("def f(x, w):\n    return ((x > 0) * w).cumsum(0)\n", TORCH),
        ("def f(x, c):\n    m = x > 0\n    if c:\n        m = x\n    return m.cumsum(0)\n", TORCH),
        ("def f(x):\n    return (x.numpy() > 0).cumsum(0)\n", NUMPY),
        # a part of another kind, a list changed in other ways, a cast or a move that takes a dtype
        ("def f(x, y):\n    return torch.cat([x.float(), (y > 0).long()]).cumsum(0)\n", TORCH),
        ("def f(x, y):\n    return torch.cat([x, (y > 0).long()]).cumsum(0)\n", TORCH),
        ("def f(xs, extra):\n    parts = []\n    for x in xs:\n        parts.append(x.argmax(-1))\n"
         "    parts.extend(extra)\n    return torch.cat(parts).cumsum(0)\n", TORCH),
        ("def f(xs, g):\n    parts = [torch.tensor(xs[0].shape)]\n    g(parts)\n    return torch.cat(parts).cumsum(0)\n", TORCH),
        # appended later in the loop around the read: a later pass reads it
        ("def f(xs):\n    parts = [torch.tensor(xs[0].shape)]\n    for x in xs:\n        if x is None:\n"
         "            return torch.cat(parts).cumsum(0)\n        parts.append(x.float())\n", TORCH),
        ("def f(x):\n    return torch.tensor(x.shape).sum(dtype=torch.float32).cumsum(0)\n", TORCH),
        ("def f(x, w):\n    return torch.tensor(x.shape).to(w).cumsum(0)\n", TORCH),
        ("def f(x):\n    return torch.tensor([0.5, x.shape[0]]).cumsum(0)\n", TORCH),
        ("def f(x):\n    return x.new_tensor(x.shape).cumsum(0)\n", None),  # x's dtype, which may be float
        # what a function of the module returns, on every path; an entry of a local dict display
        ("def h(i, s):\n    return torch.zeros(3, dtype=torch.long).scatter(0, i, s)\n"
         "def f(i, s):\n    return h(i, s).cumsum(0)\n", INTEGER),
        ("def h(x):\n    return torch.rand(3)\ndef f(x):\n    return h(x).cumsum(0)\n", TORCH),
        ("def h(x):\n    if x:\n        return torch.zeros(3, dtype=torch.long)\n"
         "def f(x):\n    return h(x).cumsum(0)\n", TORCH),  # or None, at the end of the body
        ("def f(x):\n    d = {'a': x > 0, 'b': x}\n    return d['a'].cumsum(0)\n", INTEGER),
        ("def f(x):\n    d = {'a': x > 0, 'b': x}\n    return d['b'].cumsum(0)\n", None),
    ],
)
def test_receiver_kinds(code, expected):
    assert kind_of(code) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        # NumPy receivers are not tensors (ap_per_class in detection metrics)
        ("def ap(tp, conf):\n    i = np.argsort(-conf)\n    tp = tp[i]\n    return tp.cumsum(0)\n", []),
        ("def ap(x):\n    return x.numpy().cumsum(0)\n", []),
        ("def ap(x):\n    return x.tolist().index_add_(0, 1, 2)\n", []),
        # tensors and unknown receivers stay reported
        ("def ap(x):\n    return torch.rand(3, device=x.device).cumsum(0)\n", ["RPL402"]),
        ("def ap(x):\n    return x.cumsum(0)\n", ["RPL402"]),
    ],
)
def test_rpl402_method_form_ops_only_on_tensors(lint, code, expected):
    # torch 2.10: the last release in which a floating cumsum on CUDA raises under the flag
    assert codes(lint(IMPORTS + code, select=["RPL402"], torch_version_text="2.10")) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def resize(x, mode='bicubic'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n", ["RPL402"]),
        ("def resize(x, mode='nearest'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n", []),
        (
            "def resize(x, mode='nearest'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n\n"
            "def up(x):\n    return resize(x, mode='bicubic')\n",
            ["RPL402"],
        ),
        (
            "def resize(x, mode='bicubic'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n\n"
            "def up(x):\n    return resize(x, mode='nearest')\n",
            [],
        ),
        # the accumulate flag of index_put_ through a parameter
        ("def put(x, idx, v, acc=True):\n    return x.index_put_((idx,), v, acc)\n", ["RPL401"]),
        ("def put(x, idx, v, acc=False):\n    return x.index_put_((idx,), v, accumulate=acc)\n\nput(1, 2, 3)\n", ["RPL401"]),
    ],
)
def test_modes_through_parameters(lint, code, expected):
    assert codes(lint(IMPORTS + code, select=["RPL401", "RPL402"])) == expected


INHERITED = """\
class Base(nn.Module):
    def __init__(self, upsample_mode={default!r}):
        super().__init__()
        self.upsample_mode = upsample_mode


class Child(Base):
    def __init__(self, upsample_mode={child!r}):
        super().__init__(upsample_mode)
{own}
    def forward(self, x):
        return F.interpolate(x, size=(8, 8), mode=self.upsample_mode)
"""


@pytest.mark.parametrize(
    "default, child, own, expected",
    [
        # set in the base's __init__ only: the values that reach it there
        ("bicubic", "bicubic", "", ["RPL402"]),
        ("nearest", "bicubic", "", ["RPL402"]),
        ("bicubic", "nearest", "", []),
        # the subclass assigns it itself: its own value counts
        ("bicubic", "bicubic", "        self.upsample_mode = 'nearest'\n", []),
    ],
)
def test_a_self_attribute_set_in_the_base_class_of_the_module(lint, default, child, own, expected):
    code = "import torch.nn as nn\n" + IMPORTS + INHERITED.format(default=default, child=child, own=own)
    assert codes(lint(code, select=["RPL402"])) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        # a call's result is an object, not None; both branches stay possible
        ("def g(dist):\n    if dist:\n        s = make()\n    else:\n        s = None\n    f(x=s is None)\n", [False, True]),
        # a caller we cannot see stays open through arithmetic
        ("def g(t=False):\n    f(x=not t)\n", [True, OPEN]),
        ("def g(a=True, b=True):\n    f(x=a and b)\n", [True, OPEN]),
    ],
)
def test_computed_values_keep_what_is_known(code, expected):
    assert evaluate(code, "x") == expected


def test_an_open_parameter_keeps_both_branches_of_is_none():
    # seed=None by default, but callers we cannot see may pass one: either branch may run
    code = "def build(seed=None):\n    init = None\n    if seed is not None:\n        init = make(seed)\n    f(x=init)\n"
    got = evaluate(code, "x")
    assert got is not None and None in got and any(isinstance(c, cst.Call) for c in got)


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def h():\n    return 1\nf(x=h())", [1]),
        ("def h(c):\n    if c:\n        return True\n    return False\nf(x=h(1))", [True]),
        ("def h(c):\n    if c:\n        return True\n    return False\nf(x=h(0))", [False]),
        ("def h(c):\n    if c:\n        return True\n    return False\nf(x=h(c))", [True, False]),  # ``c`` unknown
        ("def h(s=None):\n    return s\nf(x=h())", [None]),
        ("def h(s=None):\n    return s\nf(x=h(s=3))", [3]),
        ("def h(s=None):\n    if s is not None:\n        return s\n    return 42\nf(x=h())", [42]),
        ("def h():\n    return True, None\na, b = h()\nf(x=a)", [True]),
        ("def h():\n    return True, None\na, b = h()\nf(x=b)", [None]),
        (  # a branch that raises goes no further
            "def h(w):\n    if w == 0:\n        s = True\n    elif w == 1:\n        s = False\n"
            "    else:\n        raise ValueError(w)\n    return s, None\n"
            "def g(w):\n    a, b = h(w)\n    f(x=a)\n",
            [True, False],
        ),
        (
            "def h(w):\n    if w == 0:\n        s = True\n    elif w == 1:\n        s = False\n"
            "    else:\n        raise ValueError(w)\n    return s, None\n"
            "a, b = h(1)\nf(x=a)\n",
            [False],
        ),
        ("def h():\n    return g()\nf(x=h())", ["<call>"]),  # what it returns is a call: the call
        ("a, b = g()\nf(x=a)", None),  # not a project function: unpacking cannot be followed
        ("def h():\n    yield 1\nf(x=h())", ["<call>"]),  # a generator
        ("def h(n):\n    return h(n)\nf(x=h(1))", None),  # recursion
        ("def h():\n    return 1\ndef g(h):\n    f(x=h())\n", ["<call>"]),  # a parameter named h
        ("def h():\n    return 1\nh = g\nf(x=h())", ["<call>"]),  # the module rebinds the name
        ("def h(c):\n    if c:\n        return 1\nf(x=h(0))", [None]),  # the end of the body returns None
        ("def h(w):\n    return isinstance(w, int)\nf(x=h([1.0]))", [False]),
        ("def h(w):\n    return isinstance(w, (int, float))\nf(x=h(0.5))", [True]),
        ("def h(w):\n    return isinstance(w, Tensor)\nf(x=h(0))", ["<call>"]),  # not a built-in type
    ],
)
def test_calls_of_the_modules_functions_give_what_they_return(code, expected):
    got = evaluate(code, "x")
    if expected == ["<call>"]:
        assert got is not None and len(got) == 1 and isinstance(got[0], cst.Call)
    else:
        assert got == expected


@pytest.mark.parametrize(
    "default, expected",
    [
        ('dict(mode="bicubic", align_corners=False)', ["RPL402"]),  # the entry of the default
        ('{"mode": "bicubic"}', ["RPL402"]),
        ('dict(mode="nearest")', []),
        ("None", []),  # not a dict: the subscript stays an expression
    ],
)
def test_an_entry_of_a_dict_a_parameter_defaults_to(lint, default, expected):
    code = (
        "from torch import nn\n\n\nclass Fuse(nn.Module):\n"
        f"    def __init__(self, cfg={default}):\n        super().__init__()\n"
        "        self.up = nn.Upsample(scale_factor=2, mode=cfg[\"mode\"])\n"
    )
    assert codes(lint(code, select=["RPL402"])) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        # an equality test pins an unknown value in its branch; elif, either side, in, !=, and, not
        ("def g(m):\n    if m == 'linear':\n        f(x=m)\n", ["linear"]),
        ("def g(m):\n    if m == 'nearest':\n        pass\n    elif m == 'linear':\n        f(x=m)\n", ["linear"]),
        ("def g(m):\n    if 'linear' == m:\n        f(x=m)\n", ["linear"]),
        ("def g(m):\n    if m in ('linear', 'bicubic'):\n        f(x=m)\n", ["linear", "bicubic"]),
        ("def g(m):\n    if m != 'linear':\n        pass\n    else:\n        f(x=m)\n", ["linear"]),
        ("def g(m, k):\n    if k and m == 'linear':\n        f(x=m)\n", ["linear"]),
        ("def g(m):\n    if not m == 'linear':\n        pass\n    else:\n        f(x=m)\n", ["linear"]),
        ("def g(m):\n    f(x=m if m == 'linear' else 'nearest')\n", ["linear", "nearest"]),
        ("def g(m='bicubic'):\n    if m == 'linear':\n        f(x=m)\n", ["linear"]),  # several candidates
        ("class C:\n    def __init__(self, m):\n        self.m = m\n"
         "    def g(self):\n        if self.m == 'linear':\n            f(x=self.m)\n", ["linear"]),
        # where it does not pin: the other branch, a rebinding, a loop target, a nested scope
        ("def g(m):\n    if m == 'linear':\n        pass\n    else:\n        f(x=m)\n", [OPEN]),
        ("def g(m):\n    if m != 'linear':\n        f(x=m)\n", [OPEN]),
        ("def g(m):\n    if m in ('linear', 'bicubic'):\n        pass\n    else:\n        f(x=m)\n", [OPEN]),
        ("def g(m, k):\n    if k or m == 'linear':\n        f(x=m)\n", [OPEN]),
        ("def g(m):\n    if m == 'linear':\n        m = h()\n        f(x=m)\n", ["<call>"]),
        ("def g(m):\n    if m == 'linear':\n        for m in ms:\n            f(x=m)\n", "<not pinned>"),
        ("def g(m):\n    if m == 'linear':\n        k = lambda m: f(x=m)\n", [OPEN]),
        ("def g(m):\n    if m == 'linear':\n        f(x=n)\n", None),  # another name
        ("def g(m):\n    m = 'nearest'\n    if m == 'linear':\n        f(x=m)\n", ["nearest"]),  # known: kept
    ],
)
def test_an_equality_test_narrows_the_value_in_its_branch(code, expected):
    got = evaluate(code, "x")
    if expected == "<not pinned>":
        assert got is None or "linear" not in got
    elif expected == ["<call>"]:
        assert got is not None and len(got) == 1 and isinstance(got[0], cst.Call)
    else:
        assert got == expected


def test_a_narrowed_value_does_not_decide_tests():
    # the test of ``if m == "a"`` is decided once for every use, not under the branch of the use
    code = "def g(m):\n    a = 0\n    if m == 'linear':\n        a = 1\n    if m == 'linear':\n        f(x=a)\n"
    assert evaluate(code, "x") == [0, 1]
    code = "def g(m):\n    if m == 'linear':\n        a = 1\n    else:\n        a = 2\n    f(x=a)\n"
    assert evaluate(code, "x") == [1, 2]


@pytest.mark.parametrize(
    "branch, expected",
    [("nearest", []), ("linear", ["RPL402"])],
)
def test_rpl402_mode_pinned_by_the_branch(lint, branch, expected):
    code = (
        "from torch import nn\n\n\nclass Up(nn.Module):\n    def __init__(self, mode):\n        super().__init__()\n"
        "        self.mode = mode\n\n    def forward(self, x):\n"
        f"        if self.mode == {branch!r}:\n            return F.interpolate(x, size=8, mode=self.mode)\n        return x\n"
    )
    assert codes(lint(IMPORTS + code, select=["RPL402"])) == expected


def test_a_use_the_default_path_does_not_reach_keeps_the_values_of_any_path():
    """torch-rechub: ``if split_ratio is None: ... return`` and then loaders with
    ``num_workers=num_workers``; the default path returns first, the parameter still holds
    its default there (not an unknown value)."""
    code = (
        "def g(num_workers=0, split=None):\n    if split is None:\n        return 1\n"
        "    f(x=num_workers)\ng()\n"
    )
    assert evaluate(code, "x") == [0]


def test_a_method_s_self_takes_no_argument_of_its_calls():
    """``self`` sits before the arguments a call of a method passes (position -1 once the
    receiver is left out): it never takes the last one, and a call with no positional
    argument does not fail (LAVIS's ``_create_loader`` nested in ``create_loaders(self, ...)``
    reads ``self.use_distributed``)."""
    from repro_lint.syntax import MISSING, literal_argument

    assert literal_argument((), {"datasets": 1}, "self", -1) is MISSING
    assert literal_argument((1, 2), {}, "self", -1) is MISSING
    assert literal_argument((1, 2), {}, "datasets", 0) == 1


def test_a_parameter_passed_on_is_read_whatever_facts_are_kept(tmp_path):
    """The value a call passes on from its function's parameter (``inner(flag)`` in ``def
    outer(flag=False)``) is read from that module's facts, whether or not they are known yet."""
    from repro_lint.config import Settings
    from repro_lint.context import ProjectContext

    (tmp_path / "m.py").write_text("def inner(x):\n    pass\n\n\ndef outer(flag=False):\n    inner(flag)\n", encoding="utf-8")
    (tmp_path / "main.py").write_text("from m import outer\n\nouter()\n", encoding="utf-8")
    files = [tmp_path / "m.py", tmp_path / "main.py"]
    context = ProjectContext(Settings(root=tmp_path), files)
    path = str((tmp_path / "m.py").resolve())
    assert path not in context._facts  # not extracted yet
    assert context._parameter_value(path, "outer", "flag") is False
    assert path in context._facts and context._parameter_value(path, "outer", "flag") is False


def _calls_through_names(module: cst.Module):
    """Every call whose callee is a plain name, with its enclosing nodes."""
    stack = [(module, ())]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            yield node, chain
        stack.extend((child, chain + (node,)) for child in reversed(node.children))


MAY_NAME_CASES = [
    "fn = DataLoader\nfn(ds)\n",
    "fn = A if fast else B\nfn(ds)\n",
    "a = DataLoader\nb = a\nc = b\nc(ds)\n",
    "fn, n = loaders.Fast, 4\nfn(ds)\n",
    "fn: type = loaders.Fast\nfn(ds)\n",
    "def make(ds, klass=DataLoader):\n    return klass(ds)\nmake(1)\n",
    "def make(ds, fast=True):\n    fn = DataLoader\n    if fast:\n        fn = Fast\n    return fn(ds)\n",
    "fn = DataLoader\ndef make(ds):\n    return fn(ds)\n",
    "def outer():\n    fn = Fast\n    def inner(ds):\n        return fn(ds)\n    return inner\n",
    "fn = None\ndef setup():\n    global fn\n    fn = Fast\ndef run(ds):\n    return fn(ds)\n",
    "class C:\n    loader_cls = DataLoader\n    def make(self, ds):\n        fn = self.loader_cls\n        return fn(ds)\n",
    "for fn in (A, B):\n    fn(ds)\n",
    "with ctx() as fn:\n    fn(ds)\n",
    "fn = build()\nfn(ds)\n",
]


@pytest.mark.parametrize("code", MAY_NAME_CASES)
def test_may_name_holds_every_name_the_evaluator_finds(code):
    """``Values.may_name`` (one pass, no control flow) is a superset of what ``Values.names``
    finds at each call through a local name: the callers skip the evaluator when nothing in it
    is what they look for, so a name missing from it would lose a finding."""
    module = cst.parse_module(code)
    values = Values(module)
    calls = list(_calls_through_names(module))
    assert calls
    for call, chain in calls:
        found = values.names(call.func, chain + (call,)) or []
        allowed = [call.func, *values.may_name(call.func.value)]
        assert all(any(n is a for a in allowed) for n in found), (code, [cst.Module([]).code_for_node(n) for n in found])


def test_may_name_on_real_code():
    """The same on every call through a local name in real modules (this package's own, which
    bind functions and classes to local names in every shape)."""
    import repro_lint

    root = __import__("pathlib").Path(repro_lint.__file__).parent
    checked = 0
    for path in sorted(root.rglob("*.py"))[:16]:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        values = Values(module)
        for call, chain in _calls_through_names(module):
            found = values.names(call.func, chain + (call,)) or []
            allowed = [call.func, *values.may_name(call.func.value)]
            assert all(any(n is a for a in allowed) for n in found), (path, call.func.value)
            checked += len(found)
    assert checked > 100


@pytest.mark.parametrize(
    "code, expected",
    [
        ("a = DataLoader\nb = a\nc = b if x else other.Loader\n", {"c": ["DataLoader", "a", "b", "other.Loader"]}),
        ("fn, n = loaders.Fast, 4\n", {"fn": ["loaders.Fast"], "n": ["loaders.Fast"]}),
        ("def f(klass=DataLoader):\n    pass\n", {"klass": ["DataLoader"]}),
        ("fn = build()\n", {"fn": []}),
        ("x = x\n", {"x": ["x"]}),  # a cycle ends
    ],
)
def test_may_name(code, expected):
    values = Values(cst.parse_module(code))
    for name, names in expected.items():
        got = sorted(cst.Module([]).code_for_node(n) for n in values.may_name(name))
        assert got == sorted(names)


def _passed_guard_reference(test, chain, module):
    """The guard check as first written: every statement between the use and a guard is read
    (its names, the attributes it changes) while walking back to the guard."""
    from repro_lint.values import _always_leaves, _changed_attributes_in, _statements, bound_names, cst_names_read

    code = module.code_for_node(test)
    read = cst_names_read(test, dotted=True)
    roots = {name.partition(".")[0] for name in read}
    for index in range(len(chain) - 1, 0, -1):
        block, inner = chain[index - 1], chain[index]
        if isinstance(block, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        statements = _statements(block) if isinstance(block, (cst.IndentedBlock, cst.Else, cst.Finally)) else ()
        if inner not in statements:
            continue
        for stmt in reversed(statements[: statements.index(inner)]):
            if isinstance(stmt, cst.If) and module.code_for_node(stmt.test) == code and stmt.orelse is not None:
                if _always_leaves(_statements(stmt.orelse)) and not _always_leaves(_statements(stmt.body)):
                    return True
            elif isinstance(stmt, cst.If) and module.code_for_node(stmt.test) == code and _always_leaves(_statements(stmt.body)):
                return False
            changed = _changed_attributes_in(stmt)
            if roots & bound_names(stmt) or read & changed or any(c.endswith(".*") and c[:-2] in roots for c in changed):
                return None
    return None


_GUARDS = '''
def main(args, ok, mode):
    if args.distributed:
        setup()
    else:
        raise SystemExit(1)
    if args.distributed:
        a = 1
    if not ok:
        return
    if not ok:
        b = 2
    args.distributed = False
    if args.distributed:
        c = 3
    if mode == "a":
        raise ValueError
    elif mode == "b":
        return
    if mode == "a":
        d = 4
    if mode:
        return
    else:
        return
    if mode:
        e = 5
    if flag:
        pass
    else:
        return
    if flag:
        f = 6
'''


def test_a_guard_is_found_first_and_the_statements_between_read_only_then():
    """``_passed_guard`` looks for the guard before reading the statements between it and the
    use; it answers as the first version did, which read every statement on the way back, on
    synthetic guards and on every ``if`` test of this package's own modules."""
    from pathlib import Path

    from repro_lint.values import _passed_guard

    sources = [_GUARDS] + [p.read_text(encoding="utf-8") for p in sorted((Path(__file__).resolve().parent.parent / "repro_lint").rglob("*.py"))]
    compared, decided = 0, 0
    for source in sources:
        module = cst.parse_module(source)
        stack = [(module, ())]
        while stack:
            node, chain = stack.pop()
            here = chain + (node,)
            if isinstance(node, cst.If):
                # the test asked about again where the ``if`` stands (the chain of a later use)
                expected = _passed_guard_reference(node.test, here[:-1] + (node,), module)
                assert _passed_guard(node.test, here[:-1] + (node,), module) == expected
                compared += 1
                decided += expected is not None
            stack.extend((child, here) for child in node.children)
    assert compared > 1000 and decided >= 3


def test_called_answers_as_a_search_for_each_name_and_reads_the_text_once(monkeypatch):
    """``Values.called`` (may the module call ``name``?) finds the words written before ``(``
    in one pass over the text, when first asked; for the identifiers of this package's own
    modules, and for words that are parts of longer ones or set apart by spaces and line
    breaks, it answers as the search of the text for each name that it replaced does."""
    import re
    from pathlib import Path

    import repro_lint.values as values_module

    def searched(text: str, name: str) -> bool:
        return re.search(rf"\b{re.escape(name)}\s*\(", text) is not None

    tricky = "a__init__(x)\nobj . run (1)\nf\n(2)\nnot_g = g\nh2(g_)\ncafé(3)\n"
    for name in ("__init__", "a__init__", "run", "f", "g", "not_g", "g_", "h2", "h", "café", "caf", "obj"):
        assert Values(cst.parse_module("pass\n"), tricky).called(name) == searched(tricky, name), name
    root = Path(values_module.__file__).resolve().parent
    checked = 0
    for path in sorted(root.glob("*.py"))[:10]:
        text = path.read_text(encoding="utf-8")
        values = Values(cst.parse_module("pass\n"), text)
        names = sorted(set(re.findall(r"[A-Za-z_]\w*", text)))
        for name in names[:: max(1, len(names) // 150)]:
            assert values.called(name) == searched(text, name), (path.name, name)
            checked += 1
    assert checked > 1_000

    passes = []

    class Counted:
        def findall(self, text: str) -> list:
            passes.append(text)
            return re.findall(r"(\w+)\s*\(", text)

    monkeypatch.setattr(values_module, "_CALLED_WORD", Counted())
    values = Values(cst.parse_module("pass\n"), tricky)
    assert [values.called(name) for name in ("run", "g", "f", "run")] == [True, False, True, True]
    assert len(passes) == 1
