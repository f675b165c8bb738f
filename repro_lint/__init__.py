"""repro-lint: find, fix and verify reproducibility hazards in PyTorch training code."""

__version__ = "0.1.0"
