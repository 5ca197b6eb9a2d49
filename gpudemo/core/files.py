"""Writing a file all or nothing: into a temporary file beside it, then renamed over it.

A crash, a kill or a full disk in the middle leaves the old file whole (or none), never
half a file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


def write_atomically(path: str | os.PathLike, write: Callable[[IO], None], binary: bool = False) -> None:
    """Call `write(file)` on a temporary file in `path`'s folder, then rename it to `path`."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        mode = "wb" if binary else "w"
        with os.fdopen(handle, mode, **({} if binary else {"encoding": "utf-8", "newline": ""})) as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def replaced_when_done(path: str | os.PathLike) -> Iterator[str]:
    """A temporary path beside `path` (same ending) for a writer that wants a name; renamed to `path` when
    the block ends well, removed when it fails. OSError when the writer left it empty."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=target.suffix, dir=target.parent)
    os.close(handle)
    try:
        yield temporary
        if not Path(temporary).stat().st_size:
            raise OSError(errno.EIO, "nothing was written", str(target))
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
