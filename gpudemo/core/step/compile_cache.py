"""torch.compile's caches kept in the user's cache folder, not the temporary one.

torch keeps what a compile makes (inductor's graphs and kernels, AOTAutograd's joint graphs, Triton's
kernels) under the temporary folder by default (`/tmp/torchinductor_<user>`), which many systems empty at
boot: the next day a learner waited the whole compile again (11.7 s cold here, 2.7 s from the cache).
Here they go to gpudemo's folder in the user's cache folder (core/base/oscalls.user_cache_dir: XDG on
Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows), unless the person set torch's own
variables. Set before torch compiles anything: the command line sets it first thing, and data-parallel
workers inherit it. The window's About says the size and clears it.

Inductor's precompiled C++ header (149 MB here, seconds to build) is kept apart, in the temporary folder
whatever the variables say (torch/_inductor/codecache.py's `_HEADER_DIR`, fixed when inductor loads):
`keep_headers_in_user_cache` moves it beside the rest once inductor has loaded, where this torch has it.

Dynamo's tracing is not cached by torch at all (it reruns in every process), and a CUDA graph is recorded
again in each: what the cache saves is the rest.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gpudemo.core.base import oscalls

VARIABLES = {"TORCHINDUCTOR_CACHE_DIR": "inductor", "TRITON_CACHE_DIR": "triton"}  # torch's variable: our folder


def folder() -> Path:
    return oscalls.user_cache_dir() / "gpudemo" / "torch-compile"


def keep_in_user_cache(environ: dict | None = None) -> dict[str, str]:
    """Point torch's compile caches at `folder()` where the person has not pointed them elsewhere; returns
    what was set."""
    environ = os.environ if environ is None else environ
    chosen = {}
    for variable, name in VARIABLES.items():
        if not environ.get(variable):
            environ[variable] = chosen[variable] = str(folder() / name)
    return chosen


def size() -> int:
    """Bytes the caches in `folder()` hold (0 where there are none)."""
    total = 0
    for root, _dirs, files in os.walk(folder()):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:  # gone meanwhile
                continue
    return total


def clear() -> int:
    """Remove the caches in `folder()` (never a folder the person chose); returns the bytes freed. The next
    compile is a cold one."""
    freed = size()
    shutil.rmtree(folder(), ignore_errors=True)
    return freed


def keep_headers_in_user_cache() -> bool:
    """Inductor's precompiled headers beside the other caches, where they would be in the temporary folder
    (torch keeps their folder in a private name of codecache: left alone where it is not there, or where
    the person pointed TORCHINDUCTOR_CACHE_DIR elsewhere). Returns whether they were moved."""
    import tempfile

    from torch._inductor import codecache

    header_dir = getattr(codecache, "_HEADER_DIR", None)
    ours = os.environ.get("TORCHINDUCTOR_CACHE_DIR", "")
    if not isinstance(header_dir, str) or not header_dir.startswith(tempfile.gettempdir()):
        return False
    if not ours.startswith(str(folder())):
        return False
    codecache._HEADER_DIR = str(folder() / "precompiled_headers")
    codecache._HEADER_LOCK_DIR = os.path.join(codecache._HEADER_DIR, "locks")
    return True
