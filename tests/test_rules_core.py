"""RPL201, RPL205 and RPL501: import forms, dynamic values, guards."""

from __future__ import annotations

import pytest

from conftest import codes


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.benchmark = True\n",
        "from torch.backends import cudnn\ncudnn.benchmark = True\n",
        "from torch.backends import cudnn as cb\ncb.benchmark = True\n",
        "import torch.backends.cudnn as cudnn\ncudnn.benchmark = True\n",
        "import torch as T\nT.backends.cudnn.benchmark = True\n",
        "import torch\nbk = torch.backends.cudnn\nbk.benchmark = True\n",
        "import torch\ndef setup():\n    torch.backends.cudnn.benchmark = True\n",
        "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=True):\n    pass\n",
        "import torch\nwith torch.backends.cudnn.flags(True, True):\n    pass\n",
        "import torch\nsetattr(torch.backends.cudnn, 'benchmark', True)\n",
        "import lightning as L\ntrainer = L.Trainer(max_epochs=1, benchmark=True)\n",
        "from pytorch_lightning import Trainer\nTrainer(benchmark=True)\n",
    ],
)
def test_rpl201_fires_under_every_import_form(lint, code):
    assert codes(lint(code)) == ["RPL201"]


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.benchmark = args.benchmark\n",
        "import torch\ntorch.backends.cudnn.benchmark = False\n",
        "import torch\ntorch.backends.cudnn.benchmark = cfg['cudnn_benchmark']\n",
        "import torch\ntorch.backends.mkldnn.enabled = True\n",
        "benchmark = True\n",  # not cudnn
        "class A:\n    pass\ncudnn = A()\ncudnn.benchmark = True\n",  # a local object, not torch's
        "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=flag):\n    pass\n",
    ],
)
def test_rpl201_stays_quiet_on_dynamic_or_unrelated_values(lint, code):
    assert "RPL201" not in codes(lint(code))


def test_rpl201_fix_replaces_only_the_value(lint):
    (diag,) = lint("import torch\ntorch.backends.cudnn.benchmark = True  # speed\n")
    assert diag.fix is not None and diag.fix.applicability == "safe"
    (edit,) = diag.fix.edits
    assert edit.content == "False" and edit.start == (2, 33) and edit.end == (2, 37)


@pytest.mark.parametrize(
    "code,attr,suggestion",
    [
        ("import torch\ntorch.backends.cudnn.enable = False\n", "enable", "enabled"),
        ("from torch.backends import cudnn\ncudnn.deterministc = True\n", "deterministc", "deterministic"),
        ("import torch.backends.cudnn as cb\ncb.benchmarks = False\n", "benchmarks", "benchmark"),
        ("import torch\ntorch.backends.mkldnn.determinstic = True\n", "determinstic", "deterministic"),
        ("import torch\ntorch.backends.cuda.matmul.allow_tf23 = False\n", "allow_tf23", "allow_tf32"),
    ],
)
def test_rpl205_names_the_real_flag(lint, code, attr, suggestion):
    (diag,) = lint(code)
    assert diag.code == "RPL205"
    assert f"'{attr}'" in diag.message and f".{suggestion}?" in diag.message
    assert diag.fix is not None and diag.fix.applicability == "unsafe"
    assert diag.fix.edits[0].content == suggestion


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.deterministic = True\n",
        "import torch\ntorch.backends.cudnn.enabled = False\n",
        "import torch\ntorch.backends.cudnn.allow_tf32 = False\n",
        "import torch\ntorch.backends.cuda.matmul.allow_tf32 = False\n",
        "import torch\ntorch.backends.mkldnn.deterministic = True\n",
        "import torch\nx = torch.backends.cudnn.enable\n",  # a read is not an assignment
    ],
)
def test_rpl205_accepts_real_flags(lint, code):
    assert "RPL205" not in codes(lint(code))


def test_rpl205_without_a_close_match_has_no_fix(lint):
    (diag,) = lint("import torch\ntorch.backends.cudnn.xyz = 1\n")
    assert diag.code == "RPL205" and diag.fix is None and "use one of" in diag.message


MODULE = """
import torch
import torch.nn as nn
import torch.nn.functional as F
{imports}

class Net({base}):
    def forward(self, x):
{body}
"""


def module(body, base="nn.Module", imports=""):
    indented = "\n".join("        " + line for line in body.strip().splitlines())
    return MODULE.format(body=indented, base=base, imports=imports)


@pytest.mark.parametrize(
    "body,imports",
    [
        ("return F.dropout(x, 0.5)", ""),
        ("return F.dropout2d(x, p=0.1)", ""),
        ("return torch.nn.functional.alpha_dropout(x)", ""),
        ("return dropout(x)", "from torch.nn.functional import dropout"),
        ("return fn.feature_alpha_dropout(x)", "from torch.nn import functional as fn"),
        ("if x.sum() > 0:\n    x = F.dropout3d(x)\nreturn x", ""),
        ("if self.training:\n    pass\nelse:\n    x = F.dropout(x)\nreturn x", ""),
    ],
)
def test_rpl501_fires(lint, body, imports):
    assert codes(lint(module(body, imports=imports))) == ["RPL501"]


@pytest.mark.parametrize(
    "body",
    [
        "return F.dropout(x, 0.5, self.training)",
        "return F.dropout(x, training=self.training)",
        "return F.dropout(x, training=True)",
        "if self.training:\n    x = F.dropout(x)\nreturn x",
        "return F.dropout(x) if self.training else x",
        "return F.dropout(x, **self.kw)",
        "return nn.Dropout(0.1)(x)",
    ],
)
def test_rpl501_quiet(lint, body):
    assert "RPL501" not in codes(lint(module(body)))


def test_rpl501_only_inside_modules(lint):
    code = "import torch.nn.functional as F\ndef augment(x):\n    return F.dropout(x)\nclass Helper:\n    def f(self, x):\n        return F.dropout(x)\n"
    assert codes(lint(code)) == []


def test_rpl501_sees_modules_through_a_base_class_in_the_same_file(lint):
    code = module("return F.dropout(x)", base="Base").replace("class Net", "class Base(nn.Module):\n    pass\n\nclass Net")
    assert codes(lint(code)) == ["RPL501"]


def test_rpl501_fix_uses_the_methods_own_first_parameter(lint):
    code = module("return F.dropout(x, 0.5)").replace("forward(self, x)", "forward(me, x)")
    (diag,) = lint(code)
    assert "me.training" in diag.message
    assert diag.fix.edits[0].content == ", training=me.training"
