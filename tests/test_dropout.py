"""Dropout rules (RPL501, RPL502): repro_lint/rules/dropout.py."""

from __future__ import annotations

import pytest

from conftest import codes

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


# -- RPL502 ----------------------------------------------------------------------------------


def test_rpl502_is_off_by_default(lint):
    assert codes(lint("import torch.nn as nn\nd = nn.Dropout(0.1)\n")) == []


@pytest.mark.parametrize(
    "code",
    [
        "import torch.nn as nn\nd = nn.Dropout(0.1)\n",
        "import torch.nn as nn\nd = nn.Dropout()\n",
        "from torch.nn import Dropout2d\nd = Dropout2d(p=0.2)\n",
        "import torch.nn as nn\nd = nn.AlphaDropout(0.1)\n",
        "import torch.nn.functional as F\ny = F.dropout(x, 0.5, training=self.training)\n",
        "import torch\ny = torch.dropout(x, 0.3, True)\n",
        "import torch\ny = torch.nn.functional.feature_alpha_dropout(x, 0.1)\n",
    ],
)
def test_rpl502_reports_dropout(lint, code):
    found = lint(code, select=["RPL502"])
    assert codes(found) == ["RPL502"]
    assert "disable_dropout" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "import torch.nn as nn\nd = nn.Dropout(0.0)\n",
        "import torch.nn as nn\nd = nn.Dropout(p=0)\n",
        "import torch.nn.functional as F\ny = F.dropout(x, 0.5, False)\n",
        "import torch\ny = torch.dropout(x, 0.3, train=False)\n",
        "dropout = 0.1\n",
    ],
)
def test_rpl502_quiet(lint, code):
    assert codes(lint(code, select=["RPL502"])) == []
