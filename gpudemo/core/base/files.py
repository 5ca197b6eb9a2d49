"""Writing a file all or nothing, and checking before any work that it can be written.

Every file the app writes goes through `replaced_when_done` (or `write_atomically` on top of it):
the new content goes into a temporary file beside the target, is flushed to the disk, and is then
renamed over it, so a kill, a full disk or an error in the middle leaves the old file whole (or
none), never half a file. The target is respected, as `cp` or a shell's `>` would:
- a symlink is written through to the file it points to (the link stays a link);
- an existing file keeps its permissions; a new one gets the usual ones (0666 less the umask);
- on Windows a target another program holds open (Excel, OneDrive, a scan) is tried again for a moment;
  if it is still held, it stays as it was and the new content is kept beside it (`NAME (new).ext`),
  which the write says (`held_note`);
- a file this user may not write (read-only, another user's) is refused, never renamed over;
- a file with other hard links is replaced like any other (its old bytes stay whole until the new ones
  are): the name written gets the new file and the other names keep the old one, which the write says
  (`links_note`); writing in place would empty the old file before the new content is in, and a full
  disk or a kill at that moment would leave a fragment under every name;
- a target that is not a regular file (a device such as /dev/null, a FIFO) is written to directly,
  never replaced by a regular file; so are /dev/stdout, /dev/stderr and /dev/fd/N, which go to this
  process's own descriptor (never to the file a shell redirected it to, renamed over).

A temporary file is named `.NAME.gpudemo-partial-PID-XXXXXXXX` (with NAME's ending; NAME cut short so
that the whole name fits the folder's limit, 255 bytes on most): one left behind by a killed writer is
recognisable, and the next write to the same place removes it, unless its writer is still alive.

`check_writable` says before any work (a training of hours) whether a path can be written: its
folder exists and is writable, it is not itself a folder, and an existing file may be written.
"""

from __future__ import annotations

import errno
import os
import random
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from gpudemo.core.base import oscalls
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message

PARTIAL = ".gpudemo-partial-"  # in the name of every temporary file of a write
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # tempfile's own, for the random part of a name


class CannotWrite(PersonError, OSError):
    """A path the app cannot write to, and why (for a person: the path and the reason)."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _cannot(path: str | os.PathLike, reason: str) -> CannotWrite:
    return CannotWrite(
        message(QT_TRANSLATE_NOOP("core", "cannot write {path}: {reason}"), path=str(path), reason=reason)
    )


_STANDARD = {"/dev/stdout": 1, "/dev/stderr": 2}


def descriptor_of(path: str | os.PathLike) -> int | None:
    """The open descriptor of this process a path names (/dev/stdout, /dev/stderr, /dev/fd/N,
    /proc/self/fd/N), else None: such a path is written to through the descriptor itself."""
    name = os.path.normpath(os.path.abspath(path))
    if name in _STANDARD:
        return _STANDARD[name]
    found = re.fullmatch(rf"/(?:dev/fd|proc/self/fd|proc/{os.getpid()}/fd)/(\d+)", name)
    return int(found.group(1)) if found else None


def target_of(path: str | os.PathLike) -> Path:
    """Where a write to `path` lands: the file a symlink points to (through every link), else `path`
    (a path of one of this process's descriptors, /dev/stdout, stays as it is). CannotWrite for a symlink
    loop or a path the system cannot follow."""
    path = Path(path)
    if descriptor_of(path) is not None:
        return path
    try:
        return Path(os.path.realpath(path, strict=False)) if path.is_symlink() else path
    except OSError as error:  # ELOOP, ENAMETOOLONG...
        raise _cannot(path, _reason(error)) from None


def printable(name: str | os.PathLike) -> str:
    """A path as text that can be written in UTF-8 (in a script, a CSV, a message): the bytes of a name that
    are not UTF-8 (a Latin-1 terminal's `caf\xe9.pt`) written as `\\xe9`."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def check_writable(path: str | os.PathLike) -> Path:
    """The file a write to `path` would land in, after checking that it can be written; CannotWrite names
    the path and the reason (an empty path, a missing or read-only folder, a folder, a symlink loop, a file
    this user may not write, a descriptor not open for writing)."""
    if not str(path).strip():
        raise CannotWrite(message(QT_TRANSLATE_NOOP("core", "no file given: an empty path")))
    descriptor = descriptor_of(path)
    if descriptor is not None:
        try:
            mode = os.fstat(descriptor).st_mode
            writable = oscalls.open_for_writing(descriptor)
        except OSError as error:
            raise _cannot(path, _reason(error)) from None
        if not writable or stat.S_ISDIR(mode):
            raise _cannot(path, os.strerror(errno.EBADF))
        return Path(path)
    target = target_of(path)
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:  # a loop, a name too long, a component that is a file
        raise _cannot(path, _reason(error)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise _cannot(path, os.strerror(errno.EISDIR))
    if mode is not None and not os.access(target, os.W_OK):  # read-only, or another user's
        raise _cannot(path, os.strerror(errno.EACCES))
    if mode is not None and not stat.S_ISREG(mode):  # a device or a FIFO: written to directly
        return target
    folder = target.parent
    if not folder.is_dir():
        raise _cannot(path, f"{os.strerror(errno.ENOENT)}: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _cannot(path, f"{os.strerror(errno.EACCES)}: {folder}")
    return target


def same_file(first: str | os.PathLike, second: str | os.PathLike) -> bool:
    """Whether two paths name one file (through links, hard links too), existing or not."""
    one, other = target_of(first), target_of(second)
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist yet: compare where they would be, as the file system does
        return oscalls.same_path_text(one) == oscalls.same_path_text(other)


def _partial_prefix(target: Path, suffix: str) -> str:
    """`.NAME.gpudemo-partial-`, NAME cut (at a character) so that a whole temporary name fits the folder."""
    room = oscalls.name_max(target.parent) - len(f".{PARTIAL}{os.getpid()}-XXXXXXXX{suffix}".encode())
    name = os.fsencode(target.name)[: max(room, 1)]  # the bytes of the name, undecodable ones included
    return f".{os.fsdecode(name)}{PARTIAL}"


def _suffix(target: Path) -> str:
    return target.suffix if len(target.suffix.encode()) <= 32 else ""


def leftovers(path: str | os.PathLike) -> list[Path]:
    """Temporary files that interrupted writes to `path` left behind (a live writer's included)."""
    target = Path(path)
    return sorted(target.parent.glob(f"{_glob_escape(_partial_prefix(target, _suffix(target)))}*"))


def _glob_escape(text: str) -> str:
    """A name matched literally by Path.glob."""
    return re.sub(r"([*?[])", r"[\1]", text)


def _writer_alive(partial: Path) -> bool:
    """Whether the process that named a temporary file is still running (then it is its, not a leftover)."""
    found = re.match(r"(\d+)-", partial.name.split(PARTIAL, 1)[-1])
    if found is None:  # named before writers put their process in the name
        return False
    pid = int(found.group(1))
    return pid != os.getpid() and oscalls.process_alive(pid)


def write_atomically(path: str | os.PathLike, write: Callable[[IO], None], binary: bool = False) -> Message | None:
    """Call `write(file)` on a temporary file beside `path`, then put it in `path`'s place; what a person should
    know of the write (a hard link broken), else None. Every byte is checked written: the file is closed (and
    its buffer flushed) inside the block, so a full disk raises here, before anything is replaced."""
    text = {} if binary else {"encoding": "utf-8", "newline": ""}
    notes: list[Message] = []
    with replaced_when_done(path, empty_ok=True, notes=notes) as temporary:
        with open(temporary, "wb" if binary else "w", **text) as out:
            write(out)
    return notes[0] if notes else None


def held_note(path: str | os.PathLike, kept: Path) -> Message:
    """What a write says when another program held its target open (Windows): where the new content is."""
    return message(
        QT_TRANSLATE_NOOP(
            "core",
            "{path} is held open by another program (close it there), so it is as it was; the new content is in {kept}",
        ),
        path=str(path),
        kept=str(kept),
    )


def _beside(target: Path) -> Path:
    """A free name beside `target` for the content that could not replace it: NAME (new).pt, NAME (new 2).pt."""
    for number in range(1, 1000):
        label = "new" if number == 1 else f"new {number}"
        candidate = target.with_name(f"{target.stem} ({label}){target.suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(errno.EEXIST, "no free name beside it", str(target))


def links_note(path: str | os.PathLike, others: int) -> Message:
    """What a write over a file with `others` more hard links tells: they keep the old content."""
    return message(
        QT_TRANSLATE_NOOP(
            "core",
            "{path} had {count} other hard link(s): they keep the old content, and {path} is now a file of its own",
        ),
        path=str(path),
        count=others,
    )


def _copy_into(temporary: str, sink: IO) -> None:
    with open(temporary, "rb") as source:
        shutil.copyfileobj(source, sink)
    sink.flush()


@contextmanager
def replaced_when_done(
    path: str | os.PathLike, empty_ok: bool = False, notes: list[Message] | None = None
) -> Iterator[str]:
    """A temporary path beside `path` (same ending) for a writer; once the block ends well, the file is flushed
    to the disk and put in `path`'s place (see the module); when it fails or is interrupted, removed. OSError
    when the writer left it empty (unless `empty_ok`): an exporter that wrote nothing has failed. CannotWrite,
    before the writer runs, for a file this user may not write. What a person should know of the write (a hard
    link broken, `links_note`) is appended to `notes`."""
    descriptor = descriptor_of(path)
    target = target_of(path)
    suffix = _suffix(target)
    if descriptor is None:
        for old in leftovers(target):  # an earlier write here was killed: its temporary file goes now
            if not _writer_alive(old):
                old.unlink(missing_ok=True)
    try:
        existing = None if descriptor is not None else target.stat()
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISDIR(existing.st_mode) and not os.access(target, os.W_OK):
        raise _cannot(path, os.strerror(errno.EACCES))  # read-only, or another user's: never renamed over
    special = descriptor is not None or (existing is not None and not stat.S_ISREG(existing.st_mode))
    folder = Path(tempfile.gettempdir()) if special else target.parent
    prefix = _partial_prefix(folder / target.name, suffix) + f"{os.getpid()}-"
    named: list[str] = []  # the temporary file's name, kept before the file exists
    try:
        _create(folder, prefix, suffix, named)
        temporary = named[0]
        yield temporary
        if not empty_ok and not Path(temporary).stat().st_size:
            raise OSError(errno.EIO, "nothing was written", str(target))
        if descriptor is not None:  # /dev/stdout: after what this process printed, on the same descriptor
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
            with os.fdopen(os.dup(descriptor), "wb") as sink:
                _copy_into(temporary, sink)
            return
        if special:  # /dev/null, a FIFO: the bytes go to it, the node stays what it is
            with open(target, "wb") as sink:
                _copy_into(temporary, sink)
            return
        os.chmod(temporary, stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~oscalls.umask())
        oscalls.sync(temporary)
        try:
            oscalls.replace(temporary, target)
        except PermissionError as error:
            if not oscalls.held_open(error):
                raise
            kept = _beside(target)  # Windows: another program holds the target open, even after retries
            oscalls.replace(temporary, kept)
            if notes is not None:
                notes.append(held_note(path, kept))
            return
        if existing is not None and existing.st_nlink > 1 and notes is not None:
            notes.append(links_note(path, existing.st_nlink - 1))
    finally:
        for name in named:
            Path(name).unlink(missing_ok=True)


def _create(folder: Path, prefix: str, suffix: str, named: list[str]) -> None:
    """A new empty file `prefix` + 8 random letters + `suffix` in `folder`, as tempfile.mkstemp makes it, its
    name put in `named` before it exists: with mkstemp, a Ctrl-C between the file's creation and the caller's
    try (inside mkstemp, or as it returned) left the file behind, its name never known. The process id in
    `prefix` keeps the names this process may pick its own."""
    for _ in range(100):
        named.append(str(folder / f"{prefix}{''.join(random.choices(_LETTERS, k=8))}{suffix}"))
        try:
            os.close(os.open(named[-1], os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
            return
        except FileExistsError:
            named.pop()  # not this call's file
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(folder / prefix))
