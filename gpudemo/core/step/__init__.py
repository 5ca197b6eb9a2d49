"""One optimizer step: the optimizers, the precisions, eager, compiled whole or captured in CUDA graphs, and the
step modes as objects.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
