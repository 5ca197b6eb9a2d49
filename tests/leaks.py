"""What a test may leave on a CUDA device: nothing beyond what it found there (no Qt, no pytest).

cuBLAS keeps a workspace (about 32 MiB on Hopper) in the caching allocator from its first
matmul on a handle and stream, and `empty_cache()` does not free it; PyTorch's own
CudaMemoryLeakCheck clears those workspaces before it counts. So do we, and we count
against what was allocated when the test began, not against zero.
"""

from __future__ import annotations

import gc


def settled_cuda_bytes(torch) -> int:
    """Bytes allocated on the current CUDA device once garbage and cuBLAS workspaces are let go."""
    gc.collect()
    torch.cuda.synchronize()
    clear = getattr(torch._C, "_cuda_clearCublasWorkspaces", None)  # private, so guarded
    if clear is not None:
        clear()
    return int(torch.cuda.memory_allocated())


def cuda_bytes_left(torch, baseline: int) -> int:
    """What a test left allocated beyond `baseline` (0 when it left nothing)."""
    return max(0, settled_cuda_bytes(torch) - baseline)
