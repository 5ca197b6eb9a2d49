"""gpudemo: watch PyTorch train a model on a GPU (or the CPU), step by step."""

__version__ = "0.1.0"
