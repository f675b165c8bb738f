"""``disable_dropout``: switch dropout off for precision-alignment runs.

When two implementations (e.g. GPU and NPU, or eager and compiled) are compared
layer by layer, dropout masks differ between devices even with equal seeds, so
dropout has to be removed from both sides.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

__all__ = ["DropoutDisabled", "disable_dropout"]

#: ``torch.nn.functional`` entry points replaced by the identity inside ``with``.
FUNCTIONAL_DROPOUTS: Tuple[str, ...] = (
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "alpha_dropout",
    "feature_alpha_dropout",
)

_MODULE_DROPOUTS: Tuple[str, ...] = (
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "AlphaDropout",
    "FeatureAlphaDropout",
)


def _no_dropout(input: Any, *args: Any, **kwargs: Any) -> Any:
    """Identity stand-in for ``torch.nn.functional`` dropout functions."""
    return input


class DropoutDisabled:
    """Handle returned by :func:`disable_dropout`; ``restore()`` undoes it.

    On creation, every dropout module of the model gets ``p = 0`` and is put in
    eval mode (eval mode skips the dropout kernel entirely; ``p = 0`` keeps
    dropout off after a later ``model.train()``). Used as a context
    manager it additionally replaces the ``torch.nn.functional`` dropout
    functions by the identity until the block exits, also on exception.
    """

    def __init__(self, model: Any = None) -> None:
        import torch

        if model is not None and not isinstance(model, torch.nn.Module):
            raise TypeError(f"model must be a torch.nn.Module, got {type(model).__name__}")
        classes = tuple(getattr(torch.nn, name) for name in _MODULE_DROPOUTS
                        if hasattr(torch.nn, name))
        self._modules: List[Tuple[Any, float, bool]] = []
        self._functions: Dict[str, Callable[..., Any]] = {}
        if model is not None:
            for module in model.modules():
                if isinstance(module, classes):
                    self._modules.append((module, module.p, module.training))
                    module.p = 0.0
                    module.training = False

    @property
    def modules_disabled(self) -> int:
        """Number of dropout modules currently switched off by this handle."""
        return len(self._modules)

    def restore(self) -> None:
        """Put back the original ``p``/mode of each module and the functional API."""
        import torch.nn.functional as F

        for name, function in self._functions.items():
            setattr(F, name, function)
        self._functions.clear()
        for module, p, training in reversed(self._modules):
            module.p = p
            module.training = training
        self._modules.clear()

    def __enter__(self) -> "DropoutDisabled":
        import torch.nn.functional as F

        for name in FUNCTIONAL_DROPOUTS:
            if hasattr(F, name) and name not in self._functions:
                self._functions[name] = getattr(F, name)
                setattr(F, name, _no_dropout)
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.restore()


def disable_dropout(model: Any = None) -> DropoutDisabled:
    """Turn dropout off, for runs whose outputs are compared across devices.

    ``disable_dropout(model)`` sets ``p = 0`` and eval mode on the model's
    dropout modules and returns a handle; call ``.restore()`` to undo it.
    ``with disable_dropout(model): ...`` does the same and also makes
    ``torch.nn.functional.dropout`` (``dropout1d/2d/3d``, ``alpha_dropout``,
    ``feature_alpha_dropout``) the identity inside the block, which covers
    functional calls and modules created inside the block. Not covered: names
    bound before the block (``from torch.nn.functional import dropout``),
    ``torch.dropout``/``Tensor`` methods, and ``dropout_p`` arguments such as
    ``F.scaled_dot_product_attention(dropout_p=...)``.
    """
    return DropoutDisabled(model)
