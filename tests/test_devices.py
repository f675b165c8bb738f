"""RPL601 (HCCL determinism on NPU) and RPL502 (dropout present, off by default)."""

from __future__ import annotations

import pytest

from fixtools import apply_fixes
from conftest import codes, lint_files_in, write

# -- RPL601 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import torch.distributed as dist\ndist.init_process_group(backend='hccl')\n",
        "import torch.distributed as dist\ndist.init_process_group('hccl', rank=0, world_size=1)\n",
        "import torch.distributed as dist\ndist.init_process_group('cpu:gloo,npu:hccl')\n",
        "import torch_npu\nimport torch.distributed as dist\ndist.init_process_group(backend=args.backend)\n",
        "import torch_npu\nfrom torch.distributed import init_process_group\ninit_process_group()\n",
    ],
)
def test_rpl601_npu_process_group_without_hccl_deterministic(lint, code):
    found = lint(code, select=["RPL601"])
    assert codes(found) == ["RPL601"]
    assert "HCCL_DETERMINISTIC=true" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "import torch.distributed as dist\ndist.init_process_group('nccl')\n",
        "import torch_npu\nimport torch.distributed as dist\ndist.init_process_group('gloo')\n",
        "import os\nimport torch.distributed as dist\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n"
        "dist.init_process_group('hccl')\n",
    ],
)
def test_rpl601_quiet(lint, code):
    assert codes(lint(code, select=["RPL601"])) == []


def test_rpl601_variable_set_in_another_project_file(tmp_path):
    write(
        tmp_path,
        {
            "launch.py": "import os\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n",
            "dist_setup.py": "import torch.distributed as dist\ndist.init_process_group('hccl')\n",
        },
    )
    files = [tmp_path / "launch.py", tmp_path / "dist_setup.py"]
    assert codes(lint_files_in(files, tmp_path, ["RPL601"])) == []
    assert codes(lint_files_in(files[1:], tmp_path, ["RPL601"])) == ["RPL601"]


def test_rpl601_fix_sets_the_variable_before_the_call_with_its_indentation(lint):
    code = (
        "import os\nimport torch.distributed as dist\n\n\ndef setup():\n"
        "    if True:\n        dist.init_process_group('hccl')\n"
    )
    found = lint(code, select=["RPL601"])
    assert found[0].fix.applicability == "safe"
    assert apply_fixes(code, found) == (
        "import os\nimport torch.distributed as dist\n\n\ndef setup():\n    if True:\n"
        '        os.environ.setdefault("HCCL_DETERMINISTIC", "true")\n'
        "        dist.init_process_group('hccl')\n"
    )
