"""Writing a file all or nothing, and checking before any work that it can be written.

Every file the app writes goes through `replaced_when_done` (or `write_atomically` on top of it):
the new content goes into a temporary file beside the target, is flushed to the disk, and is then
renamed over it, so a kill, a full disk or an error in the middle leaves the old file whole (or
none), never half a file. The target is respected:
- a symlink is written through to the file it points to (the link stays a link);
- an existing file keeps its permissions; a new one gets the usual ones (0666 less the umask);
- a target that is not a regular file (a device such as /dev/null, a FIFO) is written to directly,
  never replaced by a regular file.

A temporary file is named `.NAME.gpudemo-partial-XXXXXXXX` (with NAME's ending): one left behind by a
killed writer is recognisable, and the next write to the same place removes it.

`check_writable` says before any work (a training of hours) whether a path can be written: its
folder exists and is writable, and it is not itself a folder.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from gpudemo.core.messages import QT_TRANSLATE_NOOP, PersonError, message

PARTIAL = ".gpudemo-partial-"  # in the name of every temporary file of a write


class CannotWrite(PersonError, OSError):
    """A path the app cannot write to, and why (for a person: the path and the reason)."""


def _umask() -> int:
    """This process's umask, read without changing it where the system says (Linux 4.7+)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: the only way to read it is to set it, then put it back at once
    os.umask(mask)
    return mask


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def target_of(path: str | os.PathLike) -> Path:
    """Where a write to `path` lands: the file a symlink points to (through every link), else `path`.
    CannotWrite for a symlink loop or a path the system cannot follow."""
    path = Path(path)
    try:
        return Path(os.path.realpath(path, strict=False)) if path.is_symlink() else path
    except OSError as error:  # ELOOP, ENAMETOOLONG...
        raise CannotWrite(
            message(QT_TRANSLATE_NOOP("core", "cannot write {path}: {reason}"), path=str(path), reason=_reason(error))
        ) from None


def check_writable(path: str | os.PathLike) -> Path:
    """The file a write to `path` would land in, after checking that it can be written; CannotWrite names
    the path and the reason (an empty path, a missing or read-only folder, a folder, a symlink loop)."""
    if not str(path).strip():
        raise CannotWrite(message(QT_TRANSLATE_NOOP("core", "no file given: an empty path")))
    target = target_of(path)

    def refuse(reason: str) -> CannotWrite:
        return CannotWrite(message(QT_TRANSLATE_NOOP("core", "cannot write {path}: {reason}"), path=str(path),
                                   reason=reason))  # fmt: skip

    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:  # a loop, a name too long, a component that is a file
        raise refuse(_reason(error)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise refuse(os.strerror(errno.EISDIR))
    if mode is not None and not stat.S_ISREG(mode):  # a device or a FIFO: written to directly
        if not os.access(target, os.W_OK):
            raise refuse(os.strerror(errno.EACCES))
        return target
    folder = target.parent
    if not folder.is_dir():
        raise refuse(f"{os.strerror(errno.ENOENT)}: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise refuse(f"{os.strerror(errno.EACCES)}: {folder}")
    return target


def leftovers(path: str | os.PathLike) -> list[Path]:
    """Temporary files that interrupted writes to `path` left behind."""
    target = Path(path)
    return sorted(target.parent.glob(f".{target.name}{PARTIAL}*"))


def write_atomically(path: str | os.PathLike, write: Callable[[IO], None], binary: bool = False) -> None:
    """Call `write(file)` on a temporary file beside `path`, then put it in `path`'s place."""
    text = {} if binary else {"encoding": "utf-8", "newline": ""}
    with replaced_when_done(path, empty_ok=True) as temporary:
        with open(temporary, "wb" if binary else "w", **text) as out:
            write(out)


@contextmanager
def replaced_when_done(path: str | os.PathLike, empty_ok: bool = False) -> Iterator[str]:
    """A temporary path beside `path` (same ending) for a writer; once the block ends well, the file is flushed
    to the disk and put in `path`'s place (see the module); when it fails or is interrupted, removed. OSError
    when the writer left it empty (unless `empty_ok`): an exporter that wrote nothing has failed."""
    target = target_of(path)
    for old in leftovers(target):  # an earlier write here was killed: its temporary file goes now
        old.unlink(missing_ok=True)
    try:
        existing = target.stat()
    except FileNotFoundError:
        existing = None
    special = existing is not None and not stat.S_ISREG(existing.st_mode)
    folder = Path(tempfile.gettempdir()) if special else target.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}{PARTIAL}", suffix=target.suffix, dir=folder)
    os.close(handle)
    try:
        yield temporary
        if not empty_ok and not Path(temporary).stat().st_size:
            raise OSError(errno.EIO, "nothing was written", str(target))
        if special:  # /dev/null, a FIFO: the bytes go to it, the node stays what it is
            with open(temporary, "rb") as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink)
            return
        os.chmod(temporary, stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask())
        written = os.open(temporary, os.O_RDONLY)
        try:
            os.fsync(written)
        finally:
            os.close(written)
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
