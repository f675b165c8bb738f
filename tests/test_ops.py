"""RPL401/RPL402 and the op catalog they read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, codes, lint_files_in, write
from repro_lint import opcatalog
from repro_lint.config import parse_version
from repro_lint.opcatalog import Span, DETERMINISTIC, OPS, RAISES, documented, page_tables, parse_docstring

IMPORTS = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
#: the last release in which a floating cumsum on CUDA raises under the flag (it ran, bitwise equal,
#: on a GPU with torch 2.11: ``runs_since`` in the catalog); the cumsum tests read the integer and
#: floating variants there
CUMSUM_RAISES = "2.10"


# -- the catalog against the installed torch -------------------------------------------------


def test_catalog_matches_the_installed_torch_docstring():
    torch = pytest.importorskip("torch")
    version = parse_version(torch.__version__)
    listed = parse_docstring(torch.use_deterministic_algorithms.__doc__)
    assert len(listed[DETERMINISTIC]) > 10 and len(listed[RAISES]) > 10, "the docstring's lists were not found"
    expected = documented(version)
    for category in (DETERMINISTIC, RAISES):
        missing = listed[category] - expected[category]
        stale = expected[category] - listed[category]
        assert not missing and not stale, (
            f"torch {torch.__version__} lists under {category!r} ops the catalog does not have there: "
            f"{sorted(missing)}; the catalog has there ops this torch does not list: {sorted(stale)}. "
            "Update repro_lint/opcatalog.py (spans keyed by version) and regenerate the rule pages."
        )


def test_docstring_parser_reads_both_lists():
    doc = """Sets whether ...

    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

        * :class:`torch.nn.Conv1d` when called on CUDA tensor
        * :func:`torch.Tensor.__getitem__` when attempting to differentiate a CPU tensor
          and the index is a list of tensors

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

        * :func:`torch.nn.functional.interpolate` when attempting to differentiate a CUDA tensor
          and one of the following modes is used:

          - ``linear``
          - ``bilinear``

        * :class:`torch.nn.MaxUnpool1d`

    In addition, several operations fill uninitialized memory.
    """
    lists = parse_docstring(doc)
    assert lists[DETERMINISTIC] == {
        "torch.nn.Conv1d when called on CUDA tensor",
        "torch.Tensor.__getitem__ when attempting to differentiate a CPU tensor and the index is a list of tensors",
    }
    assert lists[RAISES] == {
        "torch.nn.functional.interpolate when attempting to differentiate a CUDA tensor and one of the "
        "following modes is used: - linear - bilinear",
        "torch.nn.MaxUnpool1d",
    }


def test_version_deltas_are_in_the_catalog():
    by_name = {op.name: op for op in OPS}
    # the docstring moves cumsum in 2.14; it already ran deterministically under the flag in 2.11
    assert by_name["cumsum"].documented_category((2, 13)) == RAISES
    assert by_name["cumsum"].documented_category((2, 14)) == DETERMINISTIC
    assert by_name["cumsum"].category((2, 10)) == RAISES
    assert by_name["cumsum"].category((2, 11)) == DETERMINISTIC
    assert by_name["cumsum"].behaviour == (Span(RAISES, until=(2, 11)), Span(DETERMINISTIC, since=(2, 11)))
    for name in ("F.interpolate(bilinear/trilinear)", "bilinear upsampling", "nn.ReflectionPad2d"):
        assert by_name[name].documented_category((2, 13)) == RAISES, name
        assert (by_name[name].category((2, 10)), by_name[name].category((2, 11))) == (RAISES, DETERMINISTIC), name
    for name in ("F.interpolate(linear/bicubic)", "nn.ReflectionPad1d", "nn.ReflectionPad3d"):
        assert by_name[name].category((2, 13)) == RAISES, name
    assert by_name["nn.MaxPool3d"].category((2, 11)) == RAISES
    assert by_name["nn.MaxPool3d"].category((2, 13)) == DETERMINISTIC
    assert by_name["kthvalue"].category((2, 1)) == RAISES and by_name["kthvalue"].category((2, 13)) is None
    assert by_name["nn.ReplicationPad1d"].category((2, 7)) == RAISES
    assert by_name["nn.ReplicationPad1d"].category((2, 13)) == DETERMINISTIC
    assert by_name["nn.Embedding"].category((2, 13)) is None


@pytest.mark.parametrize("code", ["RPL401", "RPL402"])
def test_rule_pages_show_the_catalog(code):
    page = (REPO / "rules" / f"{code}.md").read_text(encoding="utf-8")
    match = re.search(re.escape(opcatalog.TABLE_START) + r"(.*?)" + re.escape(opcatalog.TABLE_END), page, re.S)
    assert match, f"{code}.md has no generated op table"
    assert match.group(1) == page_tables()[code], "regenerate the table with: python -m repro_lint.opcatalog"


# -- RPL401 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        "x.scatter_add_(0, idx, src)",
        "x.scatter_add(0, idx, src)",
        "torch.scatter_add(x, 0, idx, src)",
        "x.index_add_(0, idx, src)",
        "torch.index_add(x, 0, idx, src)",
        "x.index_copy_(0, idx, src)",
        "x.index_put_((idx,), src)",
        "x.index_put_((idx,), src, accumulate=True)",
        "x.index_put_((idx,), src, True)",
        "torch.index_put(x, (idx,), src)",
        "x.scatter_(1, idx, src)",
        "x.scatter(1, idx, src=src)",
        "x.scatter_reduce_(0, idx, src, 'sum')",
        "x.scatter_reduce(0, idx, src, reduce='mean')",
        "self.buffer[0].index_add_(0, idx, src)",
    ],
)
def test_rpl401_forward_nondeterministic_ops(lint, call):
    found = lint(IMPORTS + f"def f(self, x, idx, src):\n    return {call}\n", select=["RPL401"])
    assert codes(found) == ["RPL401"]
    assert "use_deterministic_algorithms(True)" in found[0].message


@pytest.mark.parametrize(
    "body, expected",
    [
        ("    return x.sum()\n\n    # the old readout, no longer reached\n    return x.scatter_add(0, idx, src)\n", []),
        ("    if x is None:\n        raise ValueError(x)\n        x.index_add_(0, idx, src)\n    return x\n", []),
        ("    for i in idx:\n        continue\n        x.index_add_(0, i, src)\n    return grid_sample(x, src)\n", ["RPL402"]),
        # before the return, or in a branch the return is not in: it runs
        ("    out = x.scatter_add(0, idx, src)\n    return out\n", ["RPL401"]),
        ("    if x is None:\n        return x\n    return x.scatter_add(0, idx, src)\n", ["RPL401"]),
    ],
)
def test_an_op_below_a_return_never_runs(lint, body, expected):
    """DimeNet-dgl's readout left below an early ``return``: nothing runs there."""
    code = IMPORTS + "from torch.nn.functional import grid_sample\n\n\ndef f(x, idx, src):\n" + body
    assert codes(lint(code, select=["RPL401", "RPL402"])) == expected


@pytest.mark.parametrize(
    "call",
    [
        "x[idx] = src",  # ordinary indexing assignment
        "x.scatter_(1, idx, 1.0)",  # scalar value
        "x.scatter_(1, idx, value=0)",
        "x.scatter_reduce_(0, idx, src, 'amax')",
        "x.scatter_reduce_(0, idx, src, reduce)",  # unknown reduce
        "torch.gather(x, 0, idx)",  # backward only: RPL202's
        "x.index_select(0, idx)",
        "nn.Conv2d(3, 3, 3)",
        "x.repeat_interleave(2)",
        "x.put_(idx, src, accumulate=True)",  # raises on CUDA: RPL402's
        "np.add.at(x, idx, src)",
        "np.zeros(3).cumsum()",
    ],
)
def test_rpl401_quiet(lint, call):
    code = "import numpy as np\n" + IMPORTS + f"def f(x, idx, src, reduce):\n    {call}\n"
    assert codes(lint(code, select=["RPL401"])) == []


@pytest.mark.parametrize(
    "enable",
    [
        "torch.use_deterministic_algorithms(True)\n",
        "torch.use_deterministic_algorithms(mode=True, warn_only=True)\n",
        "torch.set_deterministic_debug_mode('error')\n",
    ],
)
def test_rpl401_quiet_when_the_file_enables_determinism(lint, enable):
    code = IMPORTS + "def f(x, idx, src):\n    x.scatter_add_(0, idx, src)\n" + enable
    assert codes(lint(code, select=["RPL401"])) == []


def test_rpl401_quiet_when_an_entry_point_enables_determinism(tmp_path):
    write(
        tmp_path,
        {
            "model.py": IMPORTS + "def f(x, idx, src):\n    return x.scatter_add_(0, idx, src)\n",
            "train.py": "import torch\nfrom model import f\n\nif __name__ == '__main__':\n"
            "    torch.use_deterministic_algorithms(True)\n",
        },
    )
    alone = lint_files_in([tmp_path / "model.py"], tmp_path, ["RPL401"])
    project = lint_files_in([tmp_path / "model.py", tmp_path / "train.py"], tmp_path, ["RPL401"])
    assert codes(alone) == ["RPL401"] and codes(project) == []


def test_rpl401_a_switch_in_another_program_does_not_count(tmp_path):
    """Two projects linted in one tree: one entry point turns deterministic algorithms on, the
    other runs its op without them; only the second project's op is reported."""
    write(
        tmp_path,
        {
            "a/model_a.py": IMPORTS + "def f(x, idx, src):\n    return x.scatter_add_(0, idx, src)\n",
            "a/train_a.py": "import torch\nfrom model_a import f\n\nif __name__ == '__main__':\n"
            "    torch.use_deterministic_algorithms(True)\n    f(x, i, s)\n",
            "b/model_b.py": IMPORTS + "def g(x, idx, src):\n    return x.index_add_(0, idx, src)\n",
            "b/train_b.py": "from model_b import g\n\nif __name__ == '__main__':\n    g(x, i, s)\n",
        },
    )
    files = [tmp_path / name for name in ("a/model_a.py", "a/train_a.py", "b/model_b.py", "b/train_b.py")]
    found = lint_files_in(files, tmp_path, ["RPL401"])
    assert [(f.code, Path(f.path).name) for f in found] == [("RPL401", "model_b.py")]


@pytest.mark.parametrize(
    "setting",
    [
        "torch.backends.cudnn.deterministic = True",
        "torch.backends.cudnn.deterministic = args.torch_deterministic",
    ],
)
def test_rpl401_cudnn_deterministic_alone_does_not_fix_forward_ops(tmp_path, setting):
    # cuDNN's flag covers convolutions, not index_add_: the project still runs it nondeterministically
    write(
        tmp_path,
        {
            "model.py": IMPORTS + "def project(x, idx, src):\n    return x.index_add_(0, idx, src)\n",
            "train.py": "import torch\nfrom model import project\n\nif __name__ == '__main__':\n"
            f"    args = parse()\n    {setting}\n",
        },
    )
    project = lint_files_in([tmp_path / "model.py", tmp_path / "train.py"], tmp_path, ["RPL401"])
    assert [(f.code, Path(f.path).name) for f in project] == [("RPL401", "model.py")]


def test_rpl401_quiet_when_a_library_helper_enables_deterministic_algorithms(tmp_path):
    write(
        tmp_path,
        {
            "model.py": IMPORTS + "def project(x, idx, src):\n    return x.index_add_(0, idx, src)\n",
            "train.py": "from transformers import set_seed\nfrom model import project\n\n"
            "if __name__ == '__main__':\n    set_seed(0, deterministic=True)\n",
        },
    )
    assert codes(lint_files_in([tmp_path / "model.py", tmp_path / "train.py"], tmp_path, ["RPL401"])) == []


def test_cumsum_moves_from_rpl402_to_rpl401_with_the_torch_version(lint):
    code = IMPORTS + "def f(x):\n    return x.cumsum(0)\n"
    assert codes(lint(code, select=["RPL401", "RPL402"], torch_version_text=CUMSUM_RAISES)) == ["RPL402"]
    assert codes(lint(code, select=["RPL401", "RPL402"], torch_version_text="2.11")) == ["RPL401"]
    assert codes(lint(code, select=["RPL401", "RPL402"], torch_version_text="2.14")) == ["RPL401"]


# -- RPL402 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bicubic')\n",
        "import torch.nn.functional as F\ny = F.interpolate(x, None, 2, 'bicubic')\n",  # positional mode
        "import torch\ny = torch.nn.functional.upsample(x, scale_factor=2, mode='linear')\n",
        "from torch.nn import Upsample\nup = Upsample(scale_factor=2, mode='bicubic')\n",
        "import torch.nn as nn\nup = nn.Upsample(None, 2, 'linear')\n",
        "from torch.nn.functional import interpolate as resize\ny = resize(x, size=(8, 8), mode='bicubic')\n",
        "import torch.nn as nn\np = nn.AdaptiveAvgPool2d((7, 7))\n",
        "import torch.nn as nn\np = nn.AdaptiveAvgPool2d(size)\n",
        "import torch.nn.functional as F\ny = F.adaptive_avg_pool2d(x, 4)\n",
        "import torch.nn as nn\np = nn.AdaptiveMaxPool2d(1)\n",
        "import torch.nn as nn\np = nn.AvgPool3d(2)\n",
        "import torch.nn as nn\np = nn.ReflectionPad3d(1)\n",
        "import torch.nn.functional as F\ny = F.pad(x, (1, 1), mode='reflect')\n",
        "import torch.nn as nn\nu = nn.MaxUnpool2d(2)\n",
        "import torch.nn as nn\nl = nn.CTCLoss()\n",
        "import torch.nn as nn\ne = nn.EmbeddingBag(10, 3, mode='max')\n",
        "import torch.nn as nn\ne = nn.EmbeddingBag(10, 3, None, 2.0, False, 'max')\n",
        "import torch.nn.functional as F\ny = F.grid_sample(x, grid)\n",
        "import torch\nh = torch.histc(x, bins=10)\n",
        "import torch\nb = torch.bincount(idx, weights=w)\n",
        "import torch\nb = idx.bincount(w)\n",
        "import torch\nm = torch.median(x, 1)\n",
        "import torch\nm = x.median(dim=0)\n",
        "import torch\nx.put_(idx, src)\n",
        "import torch\nx.scatter_reduce_(0, idx, src, reduce='prod')\n",
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.permute(0, 3, 1, 2), target)\n",
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.transpose(1, 2), target, weight)\n",
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.movedim(3, 1), target)\n",
        "import torch\nimport torch.nn.functional as F\nl = F.nll_loss(torch.randn(2, 5, 4, 4, device='cuda'), target, reduction='sum')\n",
        # einops: the pattern's output has three axes (meshgpt, spear-tts)
        "import torch.nn.functional as F\nfrom einops import rearrange\nl = F.cross_entropy(rearrange(logits, 'b n c -> b c n'), t)\n",
        "import einops\nimport torch.nn.functional as F\nl = F.cross_entropy(einops.rearrange(x, 'b (h w) c -> b c h w', h=4), t)\n",
        # through a local variable, bound after an early return (the default path returns first)
        "import torch.nn.functional as F\nfrom einops import rearrange\ndef f(logits, t, return_loss=False):\n"
        "    if not return_loss:\n        return logits\n    logits = rearrange(logits, 'b n c -> b c n')\n"
        "    return F.cross_entropy(logits, t)\n",
        "import torch.nn.functional as F\ndef f(x, t):\n    y = x.view(2, 5, -1)\n    return F.cross_entropy(y, t)\n",
        # slicing keeps the rank (dalle-pytorch's text and image parts of the logits)
        "import torch.nn.functional as F\nfrom einops import rearrange\ndef f(logits, t, n):\n"
        "    logits = rearrange(logits, 'b n c -> b c n')\n    return F.cross_entropy(logits[:, :, :n], t[:, :n])\n",
        "import torch.nn.functional as F\nl = F.cross_entropy(x.view(4, 2, 5, 3)[0], t)\n",  # one index of a rank-4 tensor
        "import torch.nn.functional as F\nl = F.cross_entropy(x.view(2, 5)[:, None], t)\n",  # None adds an axis
        # through a name the module's top level (a script, a notebook, its __main__ block) binds
        "import torch\nimport torch.nn.functional as F\nlogits = torch.randn(2, 3, 8, 8, device='cuda')\nl = F.cross_entropy(logits, t)\n",
        "import torch\nimport torch.nn.functional as F\nif __name__ == '__main__':\n"
        "    logits = torch.randn(2, 3, 8, 8, device='cuda')\n    l = F.cross_entropy(logits, t)\n",
    ],
)
def test_rpl402_ops_without_a_deterministic_implementation(lint, code):
    found = lint(code, select=["RPL402"], torch_version_text="2.13")
    assert codes(found) == ["RPL402"]
    assert "raises RuntimeError" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2)\n",  # default nearest
        "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='nearest')\n",
        "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode=mode)\n",
        "import torch.nn as nn\nup = nn.Upsample(scale_factor=2)\n",
        "import torch.nn as nn\np = nn.AdaptiveAvgPool2d(1)\n",
        "import torch.nn as nn\np = nn.AdaptiveAvgPool2d((1, 1))\n",
        # mmselfsup's AvgPool2dNeck: a parameter whose default, and every call's argument, is 1
        "import torch.nn as nn\nclass Neck(nn.Module):\n    def __init__(self, output_size=1):\n"
        "        self.p = nn.AdaptiveAvgPool2d(output_size)\n\ndef build():\n    return Neck(), Neck(output_size=(1, 1))\n",
        "import torch.nn.functional as F\ny = F.adaptive_avg_pool2d(x, (1, 1))\n",
        "import torch.nn as nn\ne = nn.EmbeddingBag(10, 3)\n",
        "import torch.nn as nn\ne = nn.EmbeddingBag(10, 3, mode='sum')\n",
        "import torch\nb = torch.bincount(idx)\n",
        "import torch\nm = x.median()\n",
        "import torch\nc = mask.long().cumsum(-1)\n",
        "import torch\nc = torch.cumsum(mask, dim=1, dtype=torch.long)\n",
        "import numpy as np\nimport torch\nc = np.cumsum(x)\nd = np.arange(3).cumsum()\n",
        "import pandas as pd\nimport torch\nm = pd.Series([1]).median(0)\n",
        "import torch.nn.functional as F\ny = F.pad(x, (1, 1), mode='replicate')\n",
        "import torch.nn.functional as F\nl = F.cross_entropy(logits, target)\n",  # rank not visible
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.transpose(0, 1), target)\n",  # rank 2 or more
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.transpose(-1, -2), target)\n",  # rank 2 or more
        "import torch.nn.functional as F\nl = F.cross_entropy(logits.permute(0, 3, 1, 2), target, reduction='none')\n",
        "import torch\nx.scatter_reduce_(0, idx, src, reduce='sum')\n",
        "import torch.nn as nn\np = nn.MaxPool3d(2)\n",  # deterministic under the flag in 2.13
        "import torch\nk = torch.kthvalue(x, 2)\n",
        # einops: two output axes; a sum of an integer tensor is integral
        "import torch.nn.functional as F\nfrom einops import rearrange\nl = F.cross_entropy(rearrange(logits, 'b n c -> (b n) c'), t)\n",
        "import torch\nfrom einops import reduce, repeat\ndef f(mask):\n    a = reduce(mask.long(), 'b n -> b', 'sum').cumsum(0)\n"
        "    return a, repeat(mask.bool(), 'b n -> b n r', r=2).cumsum(0)\n",
        "import numpy as np\nimport torch\nfrom einops import rearrange\nc = rearrange(np.zeros((2, 3)), 'a b -> b a').cumsum(0)\n",
        # a legacy typed constructor (PyTorch-BigGraph's tensorlist offsets)
        "import torch\ndef f(sizes):\n    return torch.LongTensor(sizes).cumsum(0)\n",
        "import torch\ndef f(sizes):\n    return torch.cuda.IntTensor(sizes).cumsum(0)\n",
        # a variable bound to a rank-2 value on one path is not visibly of rank 3
        "import torch.nn.functional as F\ndef f(x, t, flat):\n    y = x.view(2, 5, -1)\n    if flat:\n"
        "        y = x.view(-1, 5)\n    return F.cross_entropy(y, t)\n",
        "import torch.nn.functional as F\ndef f(logits, t):\n    return F.cross_entropy(logits, t)\n",  # a parameter
        "import torch.nn.functional as F\nl = F.cross_entropy(x.view(2, 5, 3)[0], t)\n",  # an index drops an axis
        "import torch.nn.functional as F\nl = F.cross_entropy(x.view(2, 5, 3)[:, idx], t)\n",
    ],
)
def test_rpl402_quiet(lint, code):
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == []


@pytest.mark.parametrize(
    "code",
    [
        # a comparison gives a bool tensor: its cumsum is an integer scan (dalle2-pytorch)
        "def f(text, eos_id):\n    is_eos_id = (text == eos_id)\n    return is_eos_id.cumsum(dim = -1) == 0\n",
        "def f(x):\n    return torch.cumsum(~(x < 0), dim=0)\n",
        "def f(x):\n    return torch.arange(10).cumsum(0)\n",
        "def f(x):\n    idx = x.argmax(dim=-1)\n    return idx.cumsum(0)\n",
        # sizes of feature maps (mmdet's level_start_index)
        "def f(feats):\n    shapes = []\n    for feat in feats:\n        hw = torch._shape_as_tensor(feat)[2:].to(feat.device)\n"
        "        shapes.append(hw)\n    shapes = torch.cat(shapes).view(-1, 2)\n    return shapes.prod(1).cumsum(0)\n",
        "def f(x):\n    return torch.tensor(x.shape).prod().cumsum(0)\n",
        # comparison methods and functions give bool tensors (k-diffusion's dists.ge(0).cumsum(0))
        "def f(dists):\n    return dists.ge(0).cumsum(0)\n",
        "def f(x):\n    return torch.cumsum(torch.logical_not(torch.isnan(x)), 0)\n",
        # a batched DGL graph's node counts are int64 (dgllife's jtvae)
        "def f(bg):\n    return bg.batch_num_nodes().cpu().cumsum(0)\n",
    ],
)
def test_rpl402_integer_cumsum_is_quiet(lint, code):
    assert codes(lint("import torch\n\n" + code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == []


@pytest.mark.parametrize(
    "code",
    [
        "def f(x):\n    return x.cumsum(0)\n",
        "def f(text, eos_id):\n    is_eos_id = (text == eos_id).float()\n    return is_eos_id.cumsum(dim=-1)\n",
        "def f(x):\n    m = x > 0\n    return (m * 0.5).cumsum(0)\n",
        "def f(x):\n    return torch.cumsum(torch.arange(0.0, 3.0, device=x.device), 0)\n",
        # a floating dtype= makes the scan floating, whatever the input (mmdet's positional encoding)
        "def f(mask):\n    not_mask = 1 - mask.to(torch.int)\n    return not_mask.cumsum(1, dtype=torch.float32)\n",
        "def f(x):\n    return torch.cumsum(x.long(), dim=0, dtype=torch.float64)\n",
        # one floating part makes the join floating
        "def f(x, y):\n    return torch.cat([x.float(), y]).cumsum(0)\n",
        "def f(x, y):\n    return torch.cat([x.float(), torch.tensor(y.shape)]).cumsum(0)\n",
        "c = torch.cumsum(x, dim=0)\n",
        # einops keeps the input's dtype; a mean is not integral
        "from einops import reduce\ndef f(mask):\n    return reduce(mask.long(), 'b n -> b', 'mean').cumsum(0)\n",
        "from einops import rearrange\ndef f(x):\n    return rearrange(x, 'b n -> n b').cumsum(0)\n",
    ],
)
def test_rpl402_floating_cumsum_still_fires(lint, code):
    assert codes(lint("import torch\n\n" + code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == ["RPL402"]


@pytest.mark.parametrize(
    "code,old",
    [
        ("import torch.nn as nn\np = nn.MaxPool3d(2)\n", "2.11"),
        ("import torch.nn as nn\np = nn.ReplicationPad3d(1)\n", "2.7"),
        ("import torch\nk = torch.kthvalue(x, 2)\n", "2.1"),
        # the docstring still lists these as raising; they ran deterministically on a GPU with 2.11
        ("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bilinear')\n", "2.10"),
        ("import torch.nn.functional as F\ny = F.interpolate(x, None, 2, 'trilinear', True)\n", "2.10"),
        ("from torch.nn import Upsample\nup = Upsample(scale_factor=2, mode='bilinear')\n", "2.10"),
        ("import torch.nn as nn\nup = nn.UpsamplingBilinear2d(scale_factor=2)\n", "2.10"),
        ("import torch.nn as nn\np = nn.ReflectionPad2d(1)\n", "2.10"),
        ("import torch.nn.functional as F\ny = F.pad(x, (1, 1, 2, 2), mode='reflect')\n", "2.10"),
        ("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bilinear', antialias=False)\n",
         "2.10"),
        ("import torch\nc = torch.cumsum(x, dim=0)\n", "2.10"),
    ],
)
def test_rpl402_follows_the_torch_version(lint, code, old):
    assert codes(lint(code, select=["RPL402"], torch_version_text=old)) == ["RPL402"]
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == []


@pytest.mark.parametrize(
    "call, expected",
    [
        ("F.pad(x, (1, 1), mode='reflect')", ["RPL402"]),  # 1-D reflection: still raises
        ("F.pad(x, [1, 1, 1, 1, 1, 1], 'reflect')", ["RPL402"]),  # 3-D, mode by position
        ("F.pad(x, pad, mode='reflect')", ["RPL402"]),  # a length the call does not show
        ("F.pad(x, (*p, 1, 1), mode='reflect')", ["RPL402"]),
        ("F.pad(x, (1, 1, 1, 1), mode='reflect')", []),  # 2-D: deterministic under the flag from 2.11
        ("F.pad(x, (1, 1), mode='replicate')", []),
    ],
)
def test_rpl402_reflect_padding_by_the_length_of_pad(lint, call, expected):
    code = "import torch.nn.functional as F\n\n\ndef f(x, pad, p):\n    return " + call + "\n"
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("F.interpolate(x, scale_factor=2, mode='bilinear', antialias=True)", ["RPL402"]),
        ("F.interpolate(x, None, 2, 'bilinear', False, None, True)", ["RPL402"]),  # by position
        ("F.interpolate(x, scale_factor=2, mode='bilinear', antialias=False)", []),
        ("F.interpolate(x, scale_factor=2, mode='bicubic', antialias=True)", ["RPL402"]),
    ],
)
def test_rpl402_antialiased_bilinear_interpolation_still_raises(lint, call, expected):
    """The antialiased kernel is not decomposed under the flag (it raised on a GPU with 2.11)."""
    code = "import torch.nn.functional as F\n\n\ndef f(x):\n    return " + call + "\n"
    found = lint(code, select=["RPL402"], torch_version_text="2.13")
    assert codes(found) == expected
    assert len(found) <= 1



def test_rpl402_message_names_the_alternative(lint):
    (diag,) = lint("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bicubic')\n", select=["RPL402"])
    assert 'mode="nearest"' in diag.message
    (diag,) = lint("import torch.nn.functional as F\ny = F.grid_sample(x, g)\n", select=["RPL402"])
    assert "no deterministic alternative" in diag.message


HISTOGRAM = (
    "def integer_histogram(data, bins=10):\n    uniques, counts = torch.unique(data, return_counts=True)\n"
    "    return torch.zeros(bins, dtype=torch.long).scatter(dim=0, index=uniques, src=counts)\n\n"
)


@pytest.mark.parametrize(
    "code",
    [
        # a project function that visibly returns an integer tensor (pytorch-forecasting's histogram)
        HISTOGRAM + "def f(lengths):\n    hist = integer_histogram(lengths)\n    return hist.flip(0).cumsum(0)\n",
        HISTOGRAM + "def f(lengths):\n    return integer_histogram(lengths)[1:].cumsum(0)\n",
        # through a local, on every path
        "def counts(x, sort=False):\n    c = torch.zeros(3, dtype=torch.long).index_add_(0, x, torch.ones_like(x))\n"
        "    if sort:\n        return c.sort().values.long()\n    return c\n\n"
        "def f(x):\n    return counts(x).cumsum(0)\n",
        # an entry of a dict display of the same function
        "def f(x):\n    d = {'hist': torch.zeros(3, dtype=torch.long), 'x': x}\n    return d['hist'].flip(0).cumsum(0)\n",
        HISTOGRAM + "def f(x):\n    d = dict(hist=integer_histogram(x))\n    return d['hist'].cumsum(0)\n",
    ],
)
def test_rpl402_integer_cumsum_of_project_returns_and_dict_items_is_quiet(lint, code):
    assert codes(lint("import torch\n\n" + code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == []


@pytest.mark.parametrize(
    "code",
    [
        # a float tensor on one path (a caller may take it), or the end of the body reached
        "def counts(x, normalize=False):\n    c = torch.zeros(3, dtype=torch.long).scatter_add(0, x, x)\n"
        "    if normalize:\n        return c / c.sum()\n    return c\n\n"
        "def f(x):\n    return counts(x).cumsum(0)\n",
        "def counts(x, normalize=False):\n    if normalize:\n        return torch.rand(3)\n"
        "    return torch.zeros(3, dtype=torch.long)\n\ndef f(x):\n    return counts(x, normalize=True).cumsum(0)\n",
        "def counts(x):\n    if x is not None:\n        return torch.zeros(3, dtype=torch.long)\n\n"
        "def f(x):\n    return counts(x).cumsum(0)\n",
        "def ident(x):\n    return x\n\ndef f(x):\n    return ident(x).cumsum(0)\n",
        "def counts(x):\n    return counts(x)\n\ndef f(x):\n    return counts(x).cumsum(0)\n",  # recursion
        # a dict whose entry may change, or is not visibly integral
        "def f(x):\n    d = {'hist': torch.zeros(3, dtype=torch.long)}\n    d['hist'] = x\n    return d['hist'].cumsum(0)\n",
        "def f(x):\n    d = {'hist': torch.zeros(3, dtype=torch.long)}\n    d.update(hist=x)\n    return d['hist'].cumsum(0)\n",
        "def f(x, g):\n    d = {'hist': torch.zeros(3, dtype=torch.long)}\n    g(d)\n    return d['hist'].cumsum(0)\n",
        "def f(x):\n    d = {'hist': x}\n    return d['hist'].cumsum(0)\n",
        "def f(x, d):\n    return d['hist'].cumsum(0)\n",
    ],
)
def test_rpl402_floating_or_unknown_project_returns_still_fire(lint, code):
    assert codes(lint("import torch\n\n" + code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == ["RPL402"]


@pytest.mark.parametrize(
    "returned, expected",
    [
        ("torch.zeros(n, dtype=torch.long).scatter(0, idx, counts)", []),
        ("torch.zeros(n).scatter(0, idx, counts)", ["RPL402"]),
    ],
)
def test_rpl402_follows_a_project_function_in_another_module(tmp_path, returned, expected):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/stats.py": f"import torch\n\n\ndef histogram(idx, counts, n):\n    return {returned}\n",
            "pkg/model.py": "from pkg.stats import histogram\nfrom pkg import stats\n\n\n"
            "def f(idx, counts):\n    hist = histogram(idx, counts, 8)\n    return hist.flip(0).cumsum(0)\n\n\n"
            "def g(idx, counts):\n    hist = stats.histogram(idx, counts, 8)\n    return hist.cumsum(0)\n",
        },
    )
    paths = [tmp_path / "pkg" / name for name in ("__init__.py", "stats.py", "model.py")]
    found = lint_files_in(paths, tmp_path, ["RPL402"], torch_version_text=CUMSUM_RAISES)
    assert codes(found) == expected * 2


WRAPPERS = """\
import torch.nn as nn
import torch.nn.functional as F


def resize(input, size=None, mode='nearest'):
    return F.interpolate(input, size, None, mode)


class Upsample(nn.Module):
    def __init__(self, mode='nearest'):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        return resize(x, None, self.mode)
"""


@pytest.mark.parametrize(
    "head, expected",
    [
        ("return resize(x, y.shape[2:], mode='bicubic')", [("wrappers.py", 6)]),
        ("return resize(x, None, 'bicubic')", [("wrappers.py", 6)]),
        ("return resize(x, y.shape[2:], mode='nearest')", []),
        ("return resize(x, y.shape[2:])", []),
        # a call we cannot read (``**cfg``) does not hide what the others show
        ("return resize(x, **cfg) + resize(x, mode='bicubic')", [("wrappers.py", 6)]),
        ("return resize(x, **cfg)", []),
    ],
)
def test_rpl402_reads_the_calls_other_modules_make_of_a_wrapper_its_own_module_calls(tmp_path: Path, head: str, expected):
    """``resize`` is called in its own module (``Upsample.forward``, nearest) and by the heads
    of other modules: the modes those calls give count too."""
    write(tmp_path, {"wrappers.py": WRAPPERS, "head.py": f"from wrappers import resize\n\n\ndef decode(x, y):\n    {head}\n"})
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL402"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


CPU_MADE = """\
import torch


def count(idxs, weights, n, dev):
    a = torch.zeros(n)
    a.index_add_(0, idxs, weights)
    b = torch.zeros(n, device=dev)
    b.index_add_(0, idxs, weights)
    c = torch.zeros(n).cuda()
    c.index_add_(0, idxs, weights)
    d = torch.zeros(n)
    if dev:
        d = d.to(dev)
    d.index_add_(0, idxs, weights)
    with torch.device("cuda"):
        e = torch.zeros(n)
        e.index_add_(0, idxs, weights)
    f = weights.cpu()
    f.scatter_add_(0, idxs, weights)
    g = torch.ones(n, **options)
    g.index_add_(0, idxs, weights)
    return torch.index_add(torch.zeros(n), 0, idxs, weights)
"""


def test_a_cuda_only_op_on_a_tensor_made_on_the_cpu_is_not_reported(lint):
    """``torch.zeros(n).index_add_(...)``: the op is nondeterministic on CUDA only, and the
    tensor is made on the CPU (no device, no ``**`` that may hold one, no ``torch.device``
    block, on every path that reaches it); moved (``.cuda()``, ``.to(dev)`` on some path) or
    made on a device, it is reported."""
    found = lint(CPU_MADE, select=["RPL401"])
    assert [d.line for d in found] == [8, 10, 14, 17, 21]


def test_a_default_device_set_anywhere_makes_new_tensors_unknown(tmp_path):
    """A program that moves the default device of new tensors (``torch.set_default_device``,
    ``torch.set_default_tensor_type``), in any file of the run, makes ``torch.zeros(n)``
    a tensor on that device."""
    write(tmp_path, {"ops.py": CPU_MADE, "train.py": "import torch\n\ntorch.set_default_tensor_type('torch.cuda.FloatTensor')\n"})
    found = lint_files_in([tmp_path / "ops.py", tmp_path / "train.py"], tmp_path, ["RPL401"])
    assert [d.line for d in found] == [6, 8, 10, 14, 17, 19, 21, 22]


@pytest.mark.parametrize(
    "init, call, expected",
    [
        ('upsample_cfg=dict(mode="bicubic", align_corners=True)', "F.interpolate(x, size=s, **self.upsample_cfg)", ["RPL402"]),
        ('upsample_cfg={"mode": "bicubic"}', "nn.Upsample(scale_factor=2, **self.upsample_cfg)(x)", ["RPL402"]),
        ('upsample_cfg=dict(mode="nearest")', "F.interpolate(x, size=s, **self.upsample_cfg)", []),
        ("upsample_cfg=dict(align_corners=None)", "F.interpolate(x, size=s, **self.upsample_cfg)", []),  # default: nearest
        ("upsample_cfg=None", "F.interpolate(x, size=s, **self.upsample_cfg)", []),  # not a mapping we can read
        ("upsample_cfg", "F.interpolate(x, size=s, **self.upsample_cfg)", []),  # whatever the caller passes
        ('upsample_cfg=dict(mode="nearest")', 'F.interpolate(x, size=s, **dict(mode="bicubic"))', ["RPL402"]),
        ('upsample_cfg=dict(mode="nearest")', "F.interpolate(x, *args, **self.upsample_cfg)", []),  # *args may pass it
    ],
)
def test_an_interpolation_mode_passed_in_a_mapping(lint, init, call, expected):
    """``F.interpolate(x, **self.upsample_cfg)`` (OpenMMLab's decoders), with the mapping's
    default a dict display or ``dict(...)`` set in ``__init__``: its ``mode`` entry, or the
    function's default where it has none."""
    code = IMPORTS + (
        "\n\nclass Decoder(nn.Module):\n"
        f"    def __init__(self, {init}):\n"
        "        super().__init__()\n"
        "        self.upsample_cfg = upsample_cfg\n\n"
        "    def forward(self, x, s, *args):\n"
        f"        return {call}\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "wrappers, expected",
    [
        ("import torch.nn.functional as F\n\ninterpolate = F.interpolate\n", ["RPL402", "RPL402"]),
        # bound twice (a version test): not known to be that function
        (
            "import torch.nn.functional as F\n\nif F:\n    interpolate = F.interpolate\nelse:\n"
            "    def interpolate(x, **kwargs):\n        return x\n",
            [],
        ),
        ("def interpolate(x, **kwargs):\n    return x\n", []),  # the project's own function
    ],
)
def test_a_library_function_renamed_in_a_project_module(tmp_path, wrappers, expected):
    """``interpolate = F.interpolate`` in a project module, imported from it or from its
    package's re-export (detectron2's ``layers.interpolate``), is ``F.interpolate``."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/layers/__init__.py": "from .wrappers import interpolate\n",
            "pkg/layers/wrappers.py": wrappers,
            "pkg/head.py": """\
                from pkg.layers import interpolate
                from pkg.layers.wrappers import interpolate as direct


                def up(x):
                    return interpolate(x, scale_factor=2, mode="bicubic") + direct(x, scale_factor=2, mode="bicubic")
                """,
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL402"])
    assert codes(found) == expected


def test_rpl402_an_adaptive_pool_size_a_call_makes_other_than_one(lint):
    code = (
        "import torch.nn as nn\nclass Neck(nn.Module):\n    def __init__(self, output_size=1):\n"
        "        self.p = nn.AdaptiveAvgPool2d(output_size)\n\ndef build():\n    return Neck(), Neck(output_size=(7, 7))\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == ["RPL402"]


@pytest.mark.parametrize(
    "code, expected",
    [
        # a method of the class itself (DataParallel's scatter in a subclass), not a tensor's
        ("from torch import nn\nclass Par(nn.DataParallel):\n    def forward(self, *inputs, **kwargs):\n"
         "        return self.scatter(inputs, kwargs, self.device_ids)\n", []),
        # ... but a tensor subclass's own op, and an op on a tensor the object holds, are ops
        ("import torch\nclass T(torch.Tensor):\n    def f(self, i, src):\n        return self.scatter_add_(0, i, src)\n", ["RPL401"]),
        ("import torch\nclass M(torch.nn.Module):\n    def forward(self, i, src):\n        return self.buf.index_add_(0, i, src)\n", ["RPL401"]),
        # a scalar fill value is not a tensor source
        ("import torch\ndef f(x, i):\n    return x.scatter(-1, i, float('-inf'))\n", []),
        ("import math\nimport torch\ndef f(x, i):\n    return x.scatter(-1, i, -math.inf)\n", []),
        ("import torch\ndef f(x, i, fill=0.0):\n    return x.scatter(-1, i, fill)\n", []),
        ("import torch\ndef f(x, i, src):\n    return x.scatter(-1, i, src)\n", ["RPL401"]),
        # arithmetic of numbers is a number (classy-vision's label smoothing) ...
        ("import torch\ndef f(x, i):\n    return x.scatter_(1, i, 1.0 - 0.1)\n", []),
        ("import torch\ndef one_hot(x, i, on_value=1.0):\n    return x.scatter_(1, i, on_value)\n\n\n"
         "def smooth(x, i, smoothing=0.1, off_value=0.0):\n    on_value = 1.0 - smoothing + off_value\n"
         "    return one_hot(x, i, on_value=on_value)\n", []),
        ("import torch\ndef f(x, i, n=4):\n    return x.scatter_(1, i, -(1 / n))\n", []),
        # ... but arithmetic with a tensor is a tensor
        ("import torch\ndef f(x, i, mask):\n    return x.scatter_(1, i, 1.0 - mask)\n", ["RPL401"]),
        ("import torch\ndef f(x, i, n=4):\n    return x.scatter_(1, i, torch.ones(3) * n)\n", ["RPL401"]),
    ],
)
def test_rpl401_receivers_and_scalar_sources(lint, code, expected):
    assert codes(lint(code, select=["RPL401"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        # InternEvo's mixture-of-experts routing: scans of one-hot masks and of all/any are integer
        ("F.one_hot(idx, 8)", []),
        ("torch.nn.functional.one_hot(idx, 8).sum(0)", []),
        ("torch.all(logits > 0, dim=-1)", []),
        ("logits.any(-1)", []),
        ("F.softmax(logits, -1)", ["RPL402"]),  # a floating tensor
        ("F.one_hot(idx, 8).float()", ["RPL402"]),  # cast to floating
    ],
)
def test_rpl402_cumsum_of_a_one_hot_mask_or_an_all_any_reduction_is_an_integer_scan(lint, value, expected):
    code = f"import torch\nimport torch.nn.functional as F\n\n\ndef route(idx, logits):\n    mask = {value}\n    return mask.cumsum(0)\n"
    assert codes(lint(code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == expected


@pytest.mark.parametrize(
    "imported, call, expected",
    [
        # pykeen: an optional dependency whose fallback is None is still that module where it is used
        ("try:\n    import torch_scatter\nexcept ImportError:\n    torch_scatter = None\n", "torch_scatter.scatter_max(x, i, dim=0)", []),
        ("try:\n    import torch_scatter\nexcept ImportError:\n    torch_scatter = None\n", "torch_scatter.scatter_add(x, i, dim=0)", ["RPL401"]),
        ("try:\n    import torch.nn.functional as F\nexcept ImportError:\n    F = None\n", "F.interpolate(x, scale_factor=2, mode='bicubic')", ["RPL402"]),
        # rebound to something else: not the module any more (a tensor, maybe)
        ("import torch_scatter\ntorch_scatter = torch.zeros(3)\n", "torch_scatter.scatter_add(0, i, x)", ["RPL401"]),
    ],
)
def test_an_optional_import_whose_fallback_is_none_keeps_its_module(lint, imported, call, expected):
    code = f"import torch\n{imported}\n\ndef f(x, i):\n    return {call}\n"
    assert codes(lint(code, select=["RPL401", "RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "default, size, expected",
    [
        # stable-pretraining's aggregator: a tuple of an attribute that is 1 on every path
        (1, "(self.size, self.size)", []),
        (1, "(self.size, self.size, self.size)", []),
        (2, "(self.size, self.size)", ["RPL402"]),
        (1, "(self.size, 7)", ["RPL402"]),
    ],
)
def test_rpl402_an_adaptive_pool_size_tuple_of_values_that_are_one(lint, default, size, expected):
    code = (
        "import torch.nn.functional as F\nfrom torch import nn\n\n\nclass Agg(nn.Module):\n"
        f"    def __init__(self, size={default}):\n        super().__init__()\n        self.size = size\n\n"
        f"    def forward(self, x):\n        return F.adaptive_avg_pool2d(x, {size})\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


def test_rpl402_an_adaptive_pool_size_defaulting_to_a_tuple_of_ones(lint):
    code = "from torch import nn\nclass Net(nn.Module):\n    def __init__(self, pool_size=(1, 1)):\n        self.p = nn.AdaptiveAvgPool2d(pool_size)\n"
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == []


@pytest.mark.parametrize(
    "call, expected",
    [
        ("Disc(**cfg)", ["RPL402"]),  # gigagan: the mapping may leave resize_mode out
        ("Disc(resize_mode='nearest')", []),
        ("Disc(**cfg, resize_mode='nearest')", []),
    ],
)
def test_rpl402_a_default_mode_through_a_call_that_passes_a_mapping(lint, call, expected):
    code = (
        "import torch.nn.functional as F\nfrom torch import nn\n\n\nclass Disc(nn.Module):\n"
        "    def __init__(self, resize_mode='bicubic'):\n        super().__init__()\n        self.resize_mode = resize_mode\n\n"
        "    def forward(self, x):\n        return F.interpolate(x, 8, mode=self.resize_mode)\n\n\n"
        f"def build(cfg):\n    return {call}\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("Crop(**paras)", [("functional.py", 5)]),  # pytorchvideo: the mapping may leave mode out
        ("Crop(size, **paras)", [("functional.py", 5)]),
        ("Crop(size, mode='nearest', **paras)", []),
        ("Crop(size, mode='nearest')", []),
        ("Crop(*sizes, **paras)", []),  # ``*args`` may pass the mode by position: not known
    ],
)
def test_rpl402_a_constructor_default_stored_on_self_when_another_module_builds_it_from_a_mapping(tmp_path: Path, call, expected):
    """``Crop`` stores its ``mode`` (default bilinear) on ``self`` and hands it to a function of
    another module; the only construction, in a third module, passes a mapping whose entries
    are not known: on the default path it leaves ``mode`` at its default."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/functional.py": "import torch\n\n\ndef crop(x, size, mode='bicubic'):\n    return torch.nn.functional.interpolate(x, size=size, mode=mode)\n",
            "pkg/transforms.py": (
                "import torch\nimport pkg.functional\n\n\nclass Crop(torch.nn.Module):\n"
                "    def __init__(self, size, mode='bicubic'):\n        super().__init__()\n        self._size = size\n        self._mode = mode\n\n"
                "    def forward(self, x):\n        return pkg.functional.crop(x, self._size, self._mode)\n"
            ),
            "pkg/factory.py": f"from pkg.transforms import Crop\n\n\ndef make_crop(size, sizes, paras):\n    return {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL402"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize(
    "bound, expected",
    [
        ("partial(F.interpolate, mode='bicubic', align_corners=True)", ["RPL402"]),  # mmgen's SinGAN
        ("partial(F.interpolate, mode='nearest')", []),
        ("partial(F.interpolate)", []),  # the default mode, nearest
        ("functools.partial(F.interpolate, mode='bicubic')", ["RPL402"]),
    ],
)
def test_rpl402_an_op_bound_in_a_partial_with_its_mode(lint, bound, expected):
    code = f"import functools\nfrom functools import partial\n\nimport torch.nn.functional as F\n\nupsample = {bound}\n"
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("self._history[k].median(window_size)", []),  # fastreid: a HistoryBuffer, the project's class
        ("torch.stack(list(self._history.values())).median(window_size)", ["RPL402"]),  # a tensor
    ],
)
def test_rpl402_an_unknown_receiver_of_a_method_a_named_project_class_defines(tmp_path, call, expected):
    write(
        tmp_path,
        {
            "history_buffer.py": "class HistoryBuffer:\n    def median(self, window_size):\n        return 0.0\n",
            "events.py": "from collections import defaultdict\n\nimport torch\n\nfrom history_buffer import HistoryBuffer\n\n\n"
            "class Storage:\n    def __init__(self):\n        self._history = defaultdict(HistoryBuffer)\n\n"
            f"    def latest(self, k, window_size=20):\n        return {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL402"], torch_version_text="2.13")
    assert codes(found) == expected


MODEL_WITH_FLAG = (
    "import torch.nn.functional as F\nfrom torch import nn\n\n\nclass Big(nn.Module):\n    def __init__(self, bilinear=False):\n"
    "        super().__init__()\n        self.settings = {'mode': 'bicubic', 'align_corners': False} if bilinear else {'mode': 'nearest'}\n\n"
    "    def forward(self, x):\n        return F.interpolate(x, scale_factor=2, **self.settings)\n\n\n"
    "class Imagine(nn.Module):\n    def __init__(self, bilinear=False):\n        super().__init__()\n        self.model = Big(bilinear=bilinear)\n"
)


@pytest.mark.parametrize(
    "cli, expected",
    [
        # big-sleep: the flag goes down from the command line through two constructors
        ("import fire\n\nfrom model import Imagine\n\n\ndef train(bilinear=False):\n    Imagine(bilinear=bilinear)\n\n\n"
         "def main():\n    fire.Fire(train)\n", []),
        ("import fire\n\nfrom model import Imagine\n\n\ndef train(bilinear=False):\n    Imagine(bilinear=bilinear)\n\n\n"
         "def main():\n    fire.Fire({'train': train})\n", []),
        ("from model import Imagine\n\n\ndef train(bilinear=False):\n    Imagine(bilinear=bilinear)\n\n\n"
         "if __name__ == '__main__':\n    train()\n", []),
        ("from model import Imagine\n\n\ndef train(bilinear=False):\n    Imagine(bilinear=bilinear)\n\n\n"
         "if __name__ == '__main__':\n    train(bilinear=True)\n", ["RPL402"]),
        ("from model import Imagine\n\n\ndef train(bilinear=True):\n    Imagine(bilinear=bilinear)\n\n\n"
         "def main():\n    import fire\n    fire.Fire(train)\n", ["RPL402"]),
        # handed to a library that calls it with anything: not known
        ("from model import Imagine\n\n\ndef train(bilinear=False):\n    Imagine(bilinear=bilinear)\n\n\n"
         "def main(pool):\n    pool.map(train, [True, False])\n", ["RPL402"]),
    ],
)
def test_rpl402_a_flag_passed_down_from_a_callers_parameter(tmp_path, cli, expected):
    write(tmp_path, {"model.py": MODEL_WITH_FLAG, "cli.py": cli})
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL402"], torch_version_text="2.13")
    assert codes(found) == expected


@pytest.mark.parametrize(
    "body, expected",
    [
        ("    x = x.cpu().float()\n    return torch.median(x, 1)\n", []),  # GaitSet
        ("    x = x.cpu()\n    return torch.median(x[:, 1:], 1)\n", []),
        ("    return torch.median(x.cpu().detach().view(-1, 4), 1)\n", []),
        ("    x = x.float()\n    return torch.median(x, 1)\n", ["RPL402"]),  # not known to be on the CPU
        ("    x = x.cpu().cuda()\n    return torch.median(x, 1)\n", ["RPL402"]),
        ("    return torch.histc(x[0].cpu().data.float(), bins=4)\n", []),  # Ascend ENet's loss: ``.data``
        ("    return torch.histc(x.data.float(), bins=4)\n", ["RPL402"]),
    ],
)
def test_rpl402_a_cpu_tensor_converted_viewed_or_indexed_stays_on_the_cpu(lint, body, expected):
    code = "import torch\n\n\ndef f(x):\n" + body
    assert codes(lint(code, select=["RPL402"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "expression, expected",
    [
        # DINO's MultiCropWrapper: the crops' sizes, counted on the CPU
        ("torch.cumsum(torch.unique_consecutive(torch.tensor([i.shape[-1] for i in x]), return_counts=True)[1], 0)", []),
        ("torch.cumsum(torch.flip(torch.arange(4), [0]), 0)", []),
        ("torch.zeros_like(torch.ones(3)).index_add_(0, idx, src)", []),
        ("torch.cumsum(torch.unique_consecutive(torch.tensor([1, 2], device='cuda'), return_counts=True)[1], 0)", ["RPL401"]),
        ("torch.cumsum(torch.unique_consecutive(x, return_counts=True)[1], 0)", ["RPL401"]),  # not known to be on the CPU
        ("torch.cumsum(torch.unique_consecutive(torch.tensor([1, 2]).cuda(), return_counts=True)[1], 0)", ["RPL401"]),
    ],
)
def test_rpl401_a_torch_function_of_a_cpu_tensor_makes_its_result_on_the_cpu(lint, expression, expected):
    code = f"import torch\n\n\ndef f(x, idx, src):\n    return {expression}\n"
    assert codes(lint(code, select=["RPL401"], torch_version_text="2.13")) == expected


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("torch.bincount(x).cumsum(0)", []),  # counts: an int64 tensor (cogdl's graph_utils)
        ("torch.cumsum(torch.bincount(x, minlength=3), 0)", []),
        ("x.bincount().cumsum(0)", []),
        ("torch.bincount(x, w).cumsum(0)", ["RPL402", "RPL402"]),  # weights: summed as floats, and bincount itself
        ("x.bincount(weights=w).cumsum(0)", ["RPL402", "RPL402"]),
    ],
)
def test_rpl402_cumsum_of_counts_is_an_integer_cumsum(lint, expression, expected):
    code = f"import torch\n\n\ndef f(x, w):\n    return {expression}\n"
    assert codes(lint(code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == expected


@pytest.mark.parametrize(
    "train, expected",
    [
        ("projA/train.py", ["RPL401"]),  # chgnet beside alignn: another project's switch does not count
        ("projB/train.py", []),  # a script of its own project, beside the package
    ],
)
def test_rpl401_a_library_module_no_entry_point_reaches_and_a_switch_elsewhere(tmp_path, train, expected):
    write(
        tmp_path,
        {
            train: "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            "    torch.use_deterministic_algorithms(True)\n    model = torch.nn.Linear(4, 2).cuda()\n",
            "projB/projb/__init__.py": "",
            "projB/projb/ops.py": "def aggregate(data, owners, n):\n    out = data.new_zeros([n, data.shape[1]])\n"
            "    return out.index_add_(0, owners, data)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL401"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "made, expected",
    [
        ("np.zeros((n, 4))", []),  # ctgan's DataSampler: a NumPy array kept on the object
        ("torch.zeros((n, 4))", ["RPL402"]),
        ("n", ["RPL402"]),  # not known: a method that may be Tensor.cumsum
    ],
)
def test_rpl402_cumsum_on_an_array_the_object_holds(lint, made, expected):
    code = (
        "import numpy as np\nimport torch\n\n\nclass Sampler:\n    def __init__(self, n):\n"
        f"        self._prob = {made}\n\n    def pick(self, i):\n        probs = self._prob[i]\n        return probs.cumsum(axis=1)\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == expected


@pytest.mark.parametrize(
    "made, again, expected",
    [
        # q-transformer's replay memories: a NumPy memmap reindexed in place
        ("np.zeros((n, 4), dtype=bool)", "self.dones[self.lengths > 2]", []),
        ("np.zeros((n, 4), dtype=bool)", "self.dones * 2", []),
        ("torch.zeros((n, 4))", "self.dones[self.lengths > 2]", ["RPL402"]),
        ("np.zeros((n, 4), dtype=bool)", "torch.from_numpy(self.dones)", ["RPL402"]),  # a tensor after all
    ],
)
def test_rpl402_an_attribute_assigned_from_itself_is_what_its_other_values_are(lint, made, again, expected):
    code = (
        "import numpy as np\nimport torch\n\n\nclass Memories:\n    def __init__(self, n):\n"
        f"        self.dones = {made}\n        self.lengths = (self.dones.cumsum(axis=-1) == 0).sum(axis=-1)\n"
        f"        self.dones = {again}\n"
    )
    assert codes(lint(code, select=["RPL402"], torch_version_text=CUMSUM_RAISES)) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        # stable-baselines3's results_plotter: a DataFrame's column, in a module without torch
        ("import numpy as np\n\ndef plot(data_frame, n):\n    return data_frame[data_frame.l.cumsum() <= n]\n", []),
        # numpy's own tests: a masked array from a helper
        ("import numpy.ma as ma\n\ndef check(data):\n    mx = data[5]\n    return mx.cumsum(0)\n", []),
        ("import pandas as pd\n\ndef middle(frame):\n    return frame.reward.median(0)\n", []),
        # the same calls where the module imports torch, or a library named for it
        ("import numpy as np\nimport torch\n\ndef plot(data_frame, n):\n    return data_frame.l.cumsum(0)\n", ["RPL401"]),
        ("import numpy as np\nimport pytorch_lightning as pl\n\ndef f(t):\n    return t.cumsum(0)\n", ["RPL401"]),
        # a library the catalog knows to run on torch hands tensors over too
        ("import numpy as np\nfrom transformers import AutoModel\n\ndef f(t):\n    return t.cumsum(0)\n", ["RPL401"]),
        ("import pandas as pd\nimport torch\n\ndef middle(frame):\n    return frame.reward.median(0)\n", ["RPL402"]),
        # an import inside a function counts too
        ("def f(t):\n    import numpy as np\n    import torch\n    return t.cumsum(0)\n", ["RPL401"]),
        # no array library: a helper that tensors are handed to
        ("def f(t):\n    return t.cumsum(0)\n", ["RPL401"]),
        # a method NumPy's and pandas' objects do not have
        ("import numpy as np\n\ndef f(t, i, v):\n    t.index_add_(0, i, v)\n", ["RPL401"]),
    ],
)
def test_a_method_array_libraries_share_is_theirs_in_a_module_that_imports_one_and_no_torch(lint, code, expected):
    assert codes(lint(code, select=["RPL401", "RPL402"])) == expected


@pytest.mark.parametrize(
    "package, expected",
    [
        # stable-baselines3's own results_plotter: its package is known to run on torch, but a
        # module of it counts for what it imports (pandas, and the package's monitor)
        ("stable_baselines3", []),
        # a user's module that imports that library: it may hand tensors over
        ("mypkg", ["RPL401"]),
    ],
)
def test_a_module_of_a_torch_library_counts_for_what_it_imports(tmp_path, package, expected):
    write(
        tmp_path,
        {
            f"{package}/__init__.py": "",
            f"{package}/common/__init__.py": "",
            f"{package}/common/monitor.py": "def load_results(path):\n    return path\n",
            f"{package}/common/results_plotter.py": "import numpy as np\n"
            "from stable_baselines3.common.monitor import load_results\n\n\n"
            "def plot(folder, n):\n    data_frame = load_results(folder)\n    return data_frame[data_frame.l.cumsum() <= n]\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("results_plotter.py")), tmp_path, ["RPL401"])
    assert [d.code for d in found] == expected


def test_rpl401_and_rpl402_match_each_call_against_the_catalog_once(tmp_path, monkeypatch):
    """Both rules ask which catalog ops a call is; the file's answer for each call is shared,
    and both still report what they report alone."""
    from repro_lint.rules import ops

    code = IMPORTS + (
        "\n\ndef f(x, index, src):\n"
        "    y = x.index_add_(0, index, src)\n"
        "    z = F.interpolate(y, scale_factor=2, mode='bicubic')\n"
        "    return torch.bincount(z.flatten().long()) + x.cumsum(0)\n"
    )
    write(tmp_path, {"model.py": code})
    path = tmp_path / "model.py"
    alone = {rule: codes(lint_files_in([path], tmp_path, [rule])) for rule in ("RPL401", "RPL402")}
    asked = []
    original = ops._matched
    monkeypatch.setattr(ops, "_matched", lambda rule, node: (asked.append(id(node)), original(rule, node))[1])
    both = codes(lint_files_in([path], tmp_path, ["RPL401", "RPL402"]))
    assert sorted(both) == sorted(alone["RPL401"] + alone["RPL402"]) and alone["RPL401"] and alone["RPL402"]
    assert asked and len(asked) == len(set(asked))  # each call once, though both rules asked


@pytest.mark.parametrize(
    "wrap, expected",
    [
        ("def resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        # no gradient is recorded: the backward pass, where the op has no deterministic kernel, never runs
        ("def resize(x):\n    with torch.no_grad():\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        ("@torch.no_grad()\ndef resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        ("@torch.no_grad\ndef resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        ("@torch.inference_mode()\ndef resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        ("def resize(x):\n    with torch.set_grad_enabled(False):\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        ("def resize(x):\n    with torch.autograd.no_grad(), open('f') as f:\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", []),
        # gradients recorded after all
        ("def resize(x):\n    with torch.set_grad_enabled(True):\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        ("def resize(x):\n    with torch.set_grad_enabled(x.requires_grad):\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        ("def resize(x):\n    with torch.inference_mode(False):\n        return F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        ("@torch.enable_grad()\ndef resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        # a function defined in the block runs where it is called
        ("def resize(x):\n    with torch.no_grad():\n        def up(y):\n            return F.interpolate(y, scale_factor=2, mode='bicubic')\n    return up(x)\n", ["RPL402"]),
        # a layer built there runs where it is called
        ("def build():\n    with torch.no_grad():\n        return torch.nn.AdaptiveAvgPool2d((2, 2))\n", ["RPL402"]),
        ("def pool(x):\n    with torch.no_grad():\n        return F.adaptive_avg_pool2d(x, (2, 2))\n", []),
        # an op whose forward pass has no deterministic kernel is reported there too
        ("def hist(x):\n    with torch.no_grad():\n        return torch.histc(x.cuda(), bins=4)\n", ["RPL402"]),
        # only while the model is exported (segmentation_models_pytorch's PSP block): nothing is differentiated
        ("def pool(x):\n    if torch.onnx.is_in_onnx_export():\n        x = F.interpolate(x, size=(2, 2), mode='area')\n    return x\n", []),
        ("def pool(x):\n    if torch.onnx.is_in_onnx_export():\n        return x\n    else:\n        return F.interpolate(x, size=(2, 2), mode='area')\n", ["RPL402"]),
        ("def pool(x):\n    if torch.jit.is_scripting():\n        x = F.interpolate(x, size=(2, 2), mode='area')\n    return x\n", ["RPL402"]),
        ("def pool(x):\n    if torch.onnx.is_in_onnx_export():\n        return torch.histc(x.cuda(), bins=4)\n    return x\n", ["RPL402"]),
        # a layer built and called right there runs there
        ("def pool(x):\n    with torch.no_grad():\n        return torch.nn.AdaptiveAvgPool2d((3, 3))(x)\n", []),
        # Lightning runs its evaluation steps without gradients (PatchCore's ``test_step``)
        ("import pytorch_lightning as pl\n\n\nclass Net(pl.LightningModule):\n    def test_step(self, batch, i):\n"
         "        return F.adaptive_avg_pool2d(batch, (3, 3))\n", []),
        ("import pytorch_lightning as pl\n\n\nclass Net(pl.LightningModule):\n    def training_step(self, batch, i):\n"
         "        return F.adaptive_avg_pool2d(batch, (3, 3))\n", ["RPL402"]),
        ("class Net:\n    def test_step(self, batch, i):\n        return F.adaptive_avg_pool2d(batch, (3, 3))\n", ["RPL402"]),
        # autograd turned off for the whole module by a statement at its top (pytorch-pwc's run.py)
        ("torch.set_grad_enabled(False)\n\n\ndef warp(x, g):\n    return F.grid_sample(x, g, align_corners=True)\n", []),
        ("torch.set_grad_enabled(False)\n\n\ndef warp(x, g):\n    torch.set_grad_enabled(True)\n    return F.grid_sample(x, g, align_corners=True)\n", ["RPL402"]),
        ("def warp(x, g):\n    torch.set_grad_enabled(False)\n    return F.grid_sample(x, g, align_corners=True)\n", ["RPL402"]),
    ],
)
def test_rpl402_a_backward_only_op_where_autograd_records_nothing(lint, wrap, expected):
    """nnU-Net's ``resample_torch``: ``F.interpolate`` inside ``with torch.no_grad():``."""
    code = f"import torch\nimport torch.nn.functional as F\n\n\n{wrap}"
    assert codes(lint(code, select=["RPL402"])) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        # torch_scatter's sums are torch's scatter_add_ (its Python scatter_sum; scatter_mean divides one)
        ("torch_scatter.scatter_add(x, index, dim=0)", ["RPL401"]),
        ("scatter_sum(x, index, dim=0)", ["RPL401"]),
        ("scatter_mean(x, index, dim=0, dim_size=4)", ["RPL401"]),
        # ``scatter``, the one name for every reduction: a sum by default, or "add" or "mean"
        ("torch_scatter.scatter(x, index, dim=0)", ["RPL401"]),
        ("torch_scatter.scatter(x, index, dim=0, reduce='mean')", ["RPL401"]),
        ("torch_scatter.scatter(x, index, 0, None, None, 'add')", ["RPL401"]),
        ("torch_scatter.scatter(x, index, dim=0, reduce=reduction)", ["RPL401"]),  # its default, a sum
        ("torch_scatter.scatter(x, index, dim=0, reduce=unknown)", []),  # as any op's unknown mode
        # PyG's, which calls scatter_add_ itself for those
        ("pyg_utils.scatter(x, index, 0, None, 'sum')", ["RPL401"]),
        ("pyg_utils.scatter(x, index, reduce='mean')", ["RPL401"]),
        # its own kernels: not listed
        ("torch_scatter.scatter_max(x, index, dim=0)", []),
        ("torch_scatter.scatter(x, index, dim=0, reduce='max')", []),
        ("torch_scatter.scatter(x, index, 0, None, None, 'mul')", []),
        ("pyg_utils.scatter(x, index, reduce='max')", []),
    ],
)
def test_rpl401_torch_scatters_sums_are_torchs_scatter_add(lint, call, expected):
    code = (
        "import torch\nimport torch_scatter\nfrom torch_scatter import scatter_mean, scatter_sum\n"
        "import torch_geometric.utils as pyg_utils\n\n\n"
        f"def aggregate(x, index, unknown, reduction='sum'):\n    return {call}\n"
    )
    assert codes(lint(code, select=["RPL401"])) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        # PyG's readouts over a batch vector are scatter sums and means (pretrain-gnns, mutag_gin)
        ("global_add_pool(x, batch)", ["RPL401"]),
        ("gmp(x, batch, size=4)", ["RPL401"]),
        ("pool.global_mean_pool(x, batch=batch)", ["RPL401"]),
        # without a batch vector, a plain sum over the nodes
        ("global_add_pool(x, None)", []),
        ("global_add_pool(x)", []),
        ("pool.global_mean_pool(x, batch=None)", []),
        # a maximum is its own kernel, not a sum
        ("pool.global_max_pool(x, batch)", []),
    ],
)
def test_rpl401_pyg_sum_and_mean_readouts_are_scatter_sums(lint, call, expected):
    code = (
        "import torch\nfrom torch_geometric.nn import global_add_pool, global_mean_pool as gmp\n"
        "import torch_geometric.nn.pool as pool\n\n\n"
        f"def readout(x, batch):\n    return {call}\n"
    )
    assert codes(lint(code, select=["RPL401"])) == expected


@pytest.mark.parametrize(
    "body, expected",
    [
        # degree counts (PyG-style code): integer sums are exact in any order
        ("deg = torch.zeros(n, dtype=torch.long, device=ei.device)\n    return deg.scatter_add_(0, ei[1], torch.ones_like(ei[1]))", []),
        ("deg = torch.zeros(n, dtype=torch.long, device='cuda')\n    return deg.index_add_(0, ei[0], ones)", []),
        ("return torch_scatter.scatter_add(torch.ones(ei.size(1), dtype=torch.long, device=ei.device), ei[0], dim=0)", []),
        # floating (the default dtype) or unknown: reported as before
        ("deg = torch.zeros(n, device=ei.device)\n    return deg.scatter_add_(0, ei[1], torch.ones(ei.size(1), device=ei.device))", ["RPL401"]),
        ("return torch.zeros(n, dtype=torch.float16, device='cuda').index_add_(0, ei[0], w)", ["RPL401"]),
        ("return out.index_add_(0, ei[0], w)", ["RPL401"]),
        ("return torch_scatter.scatter_add(w, ei[0], dim=0)", ["RPL401"]),
    ],
)
def test_rpl401_integer_sums_are_exact_in_any_order(lint, body, expected):
    code = f"import torch\nimport torch_scatter\n\n\ndef degree(ei, n, out, w, ones):\n    {body}\n"
    assert codes(lint(code, select=["RPL401"])) == expected


@pytest.mark.parametrize(
    "made, expected",
    [
        # a CPU tensor scaled by numbers stays on the CPU (minDiffusion's noise schedule)
        ("(beta2 - beta1) * torch.arange(0, T + 1, dtype=torch.float32) / T + beta1", []),
        ("-torch.linspace(0, 1, T)", []),
        ("1 - torch.arange(T) * torch.arange(T)", []),
        # a 0-dim CPU tensor may join a CUDA tensor's arithmetic: not known
        ("torch.tensor(2.0) * x", ["RPL401"]),
        ("x * beta1", ["RPL401"]),
        ("torch.arange(T) @ x", ["RPL401"]),
    ],
)
def test_rpl401_arithmetic_of_a_cpu_tensor_stays_on_the_cpu(lint, made, expected):
    code = (
        "import torch\n\n\ndef schedule(beta1, beta2, T, x):\n"
        f"    beta_t = {made}\n    return torch.cumsum(torch.log(1 - beta_t), dim=0)\n"
    )
    assert codes(lint(code, select=["RPL401"], torch_version_text="2.13")) == expected


def test_rpl401_the_cpu_schedule_of_mindiffusion_through_its_locals(lint):
    """minDiffusion's ``ddpm_schedules``: the CPU tensor reaches ``cumsum`` through four locals
    and two arithmetic steps; the depth of an expression's own nesting is no limit."""
    code = (
        "import torch\n\n\ndef ddpm_schedules(beta1, beta2, T):\n"
        "    beta_t = (beta2 - beta1) * torch.arange(0, T + 1, dtype=torch.float32) / T + beta1\n"
        "    alpha_t = 1 - beta_t\n    log_alpha_t = torch.log(alpha_t)\n"
        "    alphabar_t = torch.cumsum(log_alpha_t, dim=0).exp()\n    return alphabar_t\n"
    )
    assert codes(lint(code, select=["RPL401"], torch_version_text="2.13")) == []
