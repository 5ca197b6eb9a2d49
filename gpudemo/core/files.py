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
    text = {} if binary else {"encoding": "utf-8", "newline": ""}
    with replaced_when_done(path, empty_ok=True) as temporary:
        with open(temporary, "wb" if binary else "w", **text) as out:
            write(out)


@contextmanager
def replaced_when_done(path: str | os.PathLike, empty_ok: bool = False) -> Iterator[str]:
    """A temporary path beside `path` (same ending) for a writer; once the block ends well, the file is flushed
    to the disk and renamed to `path`; when it fails, removed. OSError when the writer left it empty (unless
    `empty_ok`): an exporter that wrote nothing has failed."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=target.suffix, dir=target.parent)
    os.close(handle)
    try:
        yield temporary
        if not empty_ok and not Path(temporary).stat().st_size:
            raise OSError(errno.EIO, "nothing was written", str(target))
        written = os.open(temporary, os.O_RDONLY)
        try:
            os.fsync(written)
        finally:
            os.close(written)
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
