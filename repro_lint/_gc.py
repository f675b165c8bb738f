"""A pause of the cyclic garbage collector while a syntax tree is built and walked."""

from __future__ import annotations

import gc


class GCPaused:
    """No cyclic garbage collection while a tree is built and walked: a parse allocates
    millions of nodes (acyclic: reference counting frees them), and the collector would scan
    them over and over as they age (12 % of a LibCST parse; with ``ast``, whose trees are
    cheaper to build, the collector took more time than the parse itself). Cycles made
    meanwhile are collected once the collector runs again."""

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()
