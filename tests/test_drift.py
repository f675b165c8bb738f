"""Bugs that came from the same knowledge written in several places (one test per bug):
each concept now has one implementation, and these pin the behaviour the copies disagreed on."""

from __future__ import annotations

import os
import time

import pytest

from conftest import codes, run_cli, write


def test_a_negated_main_guard_is_not_a_main_guard(lint, tmp_path):
    """``if __name__ != "__main__":`` runs on import: the file is not an entry point, and no
    setup block is inserted at module level."""
    code = """\
        import torch
        if __name__ != "__main__":
            layer = torch.nn.Linear(2, 2)
    """
    assert "RPL101" not in codes(lint(code))
    write(tmp_path, {"lib.py": code})
    done = run_cli(["--diff", "--select", "RPL1", "lib.py"], tmp_path)
    assert "seed_everything" not in done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("guard", ['__name__ == "__main__"', "'__main__' == __name__"])
def test_a_main_guard_either_way_round_is_one(lint, guard):
    code = f"""\
        import torch
        if {guard}:
            layer = torch.nn.Linear(2, 2)
    """
    assert "RPL101" in codes(lint(code))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_py_is_reported_not_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_text("import torch\ntorch.backends.cudnn.benchmark = True\n")
    started = time.monotonic()
    done = run_cli(["pipe.py", "ok.py", "--no-cache"], tmp_path)
    assert time.monotonic() - started < 30
    assert "pipe.py:1:1: RPL001" in done.stdout and "not a regular file" in done.stdout
    assert "ok.py:2:1: RPL201" in done.stdout
    assert done.returncode == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_py_in_a_folder_is_reported_not_read(tmp_path):
    (tmp_path / "src").mkdir()
    os.mkfifo(tmp_path / "src" / "pipe.py")
    done = run_cli(["src", "--no-cache"], tmp_path)
    assert "not a regular file" in done.stdout, done.stdout + done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_gitignore_or_config_is_never_opened(tmp_path):
    """Every file is read through source.read_bytes, which checks for a regular file first."""
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / ".gitignore")
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "ok.py").write_text("import torch\ntorch.backends.cudnn.benchmark = True\n")
    started = time.monotonic()
    done = run_cli(["."], tmp_path)
    assert "ok.py:2:1: RPL201" in done.stdout and done.returncode == 1, done.stdout + done.stderr
    done = run_cli(["--config", "fifo.toml", "ok.py"], tmp_path)
    assert done.returncode == 2 and "fifo.toml" in done.stderr
    assert time.monotonic() - started < 60


@pytest.mark.parametrize(
    "write_call, code",
    [
        ('os.environ.__setitem__("PYTHONHASHSEED", "0")', "RPL104"),
        ('os.environ.__setitem__("CUBLAS_WORKSPACE_CONFIG", ":0:0")', "RPL204"),
        ('os.environ.__setitem__("HCCL_DETERMINISTIC", "1")', "RPL208"),
        ('os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":0:0"', "RPL204"),
        ('os.environ.setdefault("HCCL_DETERMINISTIC", "1")', "RPL208"),
        ('os.putenv("PYTHONHASHSEED", "0")', "RPL104"),
        ('os.environ.update(PYTHONHASHSEED="0")', "RPL104"),
        ('os.environ.update({"CUBLAS_WORKSPACE_CONFIG": ":0:0"})', "RPL204"),
    ],
)
def test_every_environment_write_is_seen_by_every_rule(lint, write_call, code):
    found = lint(f"import os\n{write_call}\n", select=["RPL104", "RPL204", "RPL208"])
    assert codes(found) == [code]


def test_the_classifier_knows_every_dataloader_the_catalog_knows(lint):
    code = """\
        from torch.utils.data.dataloader import DataLoader

        if __name__ == "__main__":
            loader = DataLoader(list(range(10)), shuffle=True)
    """
    found = codes(lint(code, select=["RPL101", "RPL302"]))
    assert "RPL302" in found and "RPL101" in found
