"""What a step compiled by torch.compile needs around it: its compiler loaded quietly, its CUDA graphs
working in whatever thread runs it, and nothing of it left once its run is over.

- `load_compiler`: inductor imported with the noise of its import silenced (a deprecation torch raises
  itself; a CUDA build's missing-runtime warning on a CPU run; the profiler-mark notice; inductor's
  advice to turn TF32 on, which the precision box turned off on purpose; dynamo's own read of a
  non-leaf's .grad).
- `cudagraph_trees_in_this_thread`: torch 2.11 keeps its CUDA-graph trees in the thread that first
  imported them, and any other thread's compiled step ends in a bare AssertionError (PyTorch #123177,
  fixed after 2.11). The window runs each job in a thread of its own: this gives the current thread
  the state the importing thread has, as the upstream fix does lazily.
- `CompiledCode`: dynamo installs each compiled region as a global of the module it traced
  (`__compiled_fn_*`, `__resume_at_*`), and `torch._dynamo.reset()` leaves them, with the compiled
  graphs and, on CUDA, their recorded graphs and memory pool. `release()` resets this thread's trees
  and removes what the run installed.
"""

from __future__ import annotations

import collections
import logging
import sys
import threading
import types
import warnings

import torch

from gpudemo.core.step import compile_cache

INSTALLED = ("__compiled_fn", "__resume_at")  # the names dynamo gives what it installs in a module


def _profiler_marks_ignored(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(("Profiler record function", "Profiler function"))


# For the process, not in a catch_warnings (not thread-safe; a compile runs on a worker thread):
# - a compiled fp32 CUDA step has TF32 off on purpose (the Precision box), and inductor's advice to turn
#   it on says the opposite;
# - dynamo, tracing an optimizer's step, reads a non-leaf's .grad and torch warns (where warnings are
#   errors, as under the tests' settings, the compile then fails).
QUIET = (r"TensorFloat32 tensor cores", r"The \.grad attribute of a Tensor that is not a leaf")


def load_compiler() -> None:
    """Import torch.compile's inductor quietly (see the module): noise, not news, on every compiled run."""
    for text in QUIET:  # (again at each compile: a filter already there is moved to the front, not doubled)
        warnings.filterwarnings("ignore", message=text, category=UserWarning)
    logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)
    for name in ("torch._dynamo.variables.ctx_manager", "torch._dynamo.variables.torch"):
        logger = logging.getLogger(name)
        if _profiler_marks_ignored not in logger.filters:
            logger.addFilter(_profiler_marks_ignored)
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r".*torch\.jit\.script_method.* is deprecated", category=DeprecationWarning
        )
        import torch._inductor.compile_fx  # noqa: F401
    compile_cache.keep_headers_in_user_cache()


def cudagraph_trees_in_this_thread() -> None:
    """Give this thread the CUDA-graph trees' thread-local state, where it has none (see the module)."""
    load_compiler()
    from torch._inductor import cudagraph_trees as trees

    if hasattr(trees.local, "tree_manager_containers") or torch._C._is_key_in_tls("tree_manager_containers"):
        return
    trees.local.tree_manager_containers = {}
    trees.local.tree_manager_locks = collections.defaultdict(threading.Lock)
    # stashed in the C++ thread-local state too, which autograd's threads copy
    torch._C._stash_obj_in_tls("tree_manager_containers", trees.local.tree_manager_containers)
    torch._C._stash_obj_in_tls("tree_manager_locks", trees.local.tree_manager_locks)


def installed() -> set[tuple[str, str]]:
    """Every (module, name) dynamo has installed so far, in every module loaded."""
    return {
        (module_name, name)
        for module_name, module in list(sys.modules.items())
        if isinstance(module, types.ModuleType)  # (sys.modules may hold other objects, some lazy)
        for name in list(module.__dict__)
        if name.startswith(INSTALLED)
    }


class CompiledCode:
    """What one compiled step installs, from its making to `release()`, which lets go of it all."""

    def __init__(self):
        self._before = installed()

    def release(self) -> None:
        """Reset torch.compile (in this thread: its CUDA-graph trees and their pool go) and remove every
        compiled region installed since this step was made. One compiled step lives at a time."""
        torch._dynamo.reset()
        names = {name for _, name in installed() - self._before}
        # Through dynamo's own cleanup (each installed name has a hook, run when its code object dies, which
        # here the module's code keeps alive): the hooks run now and are dropped, so none runs twice.
        manager = getattr(getattr(torch._dynamo.utils, "CleanupManager", None), "instance", None)
        if manager is None or not names:
            return
        for index, hooks in list(manager.values.items()):
            if any(getattr(hook, "name", None) in names for hook in hooks):
                manager._remove_id(index)
