"""``isolate_rng()``: save every global generator's state and put it back afterwards.

Also the one place that knows how to read and write those states; ``check_determinism``
uses it to leave the process as it found it.
"""

from __future__ import annotations

import random
import sys
from contextlib import contextmanager
from typing import Any, Dict, Iterator

__all__ = ["isolate_rng", "collect_rng_states", "restore_rng_states"]


def _npu_random(torch: Any) -> Any:
    """``torch_npu.npu`` when torch_npu is imported and its generators exist, else None."""
    npu = sys.modules.get("torch_npu")
    module = getattr(npu, "npu", None)
    if module is None or not hasattr(module, "get_rng_state_all"):
        return None
    initialized = getattr(module, "is_initialized", None)
    return module if initialized is None or initialized() else None


def collect_rng_states(include_cuda: bool = True) -> Dict[str, Any]:
    """The states of Python's ``random``, NumPy's global RNG, torch's CPU generator and,
    when initialised, every CUDA and NPU generator.

    Nothing is imported or initialised to read them: NumPy only if it is imported, CUDA
    only if ``torch.cuda.is_initialized()``, NPU only if torch_npu is imported (and, where
    it says so, initialised).
    """
    states: Dict[str, Any] = {"random": random.getstate()}
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        states["numpy"] = numpy.random.get_state()
    torch = sys.modules.get("torch")
    if torch is not None:
        states["torch"] = torch.get_rng_state()
        if include_cuda and torch.cuda.is_initialized():
            states["cuda"] = torch.cuda.get_rng_state_all()
        npu = _npu_random(torch)
        if include_cuda and npu is not None:
            states["npu"] = npu.get_rng_state_all()
    return states


def restore_rng_states(states: Dict[str, Any]) -> None:
    """Put back what :func:`collect_rng_states` returned."""
    random.setstate(states["random"])
    if "numpy" in states:
        sys.modules["numpy"].random.set_state(states["numpy"])
    torch = sys.modules.get("torch")
    if torch is None:
        return
    if "torch" in states:
        torch.set_rng_state(states["torch"])
    if "cuda" in states:
        torch.cuda.set_rng_state_all(states["cuda"])
    if "npu" in states:
        sys.modules["torch_npu"].npu.set_rng_state_all(states["npu"])


@contextmanager
def isolate_rng(include_cuda: bool = True) -> Iterator[None]:
    """``with isolate_rng(): ...``: draws inside the block leave the global generators
    outside it untouched.

    Saves the states of Python's ``random``, NumPy's global RNG, torch's CPU generator and
    (``include_cuda=True``, the default) every initialised CUDA and NPU generator, and
    restores them when the block exits, also on an exception (Lightning's
    ``isolate_rng`` does the same for Python, NumPy, torch CPU and CUDA). Generators that
    were not initialised when the block started (CUDA initialised inside it) are not
    restored; objects with their own state (``torch.Generator()``,
    ``np.random.default_rng()``) are not touched.
    """
    states = collect_rng_states(include_cuda)
    try:
        yield
    finally:
        restore_rng_states(states)
