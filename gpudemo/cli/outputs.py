"""The files a command writes: checked before any work, written all or nothing after it, and never one
that a failed, diverged or empty run would put over what the person had.

- Before the run: every output can be written (core/base/files.py: the folder, the file's own permission, a
  name within the limit), and no two outputs, nor an output and an input, are one file.
- After it: a run that diverged saves no checkpoint and writes its losses only to a file that is not
  there yet; a run stopped before its first epoch writes nothing; a stopped run with epochs saves them
  and says so. One output that fails does not keep the others from being written.
- Ctrl-C during a write leaves the old file whole and ends as "interrupted" (exit 130), no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from gpudemo.core.base.files import CannotWrite, check_writable, same_file, write_atomically


def check_outputs(
    args: argparse.Namespace, *outputs: tuple[str, str | None], inputs: tuple[tuple[str, str | None], ...] = ()
) -> None:
    """Every output path given can be written (its folder exists and takes files, it is no folder, an existing
    file may be written), and no two of the paths given, outputs and inputs, are one file; checked before any
    work, else exit 2 naming the option and the reason."""
    given = [(option, path) for option, path in outputs if path is not None]
    for option, path in given:
        try:
            check_writable(path)
        except CannotWrite as error:
            args.parser.error(f"argument {option}: {error}")
    others = [(option, path) for option, path in inputs if path]
    for index, (option, path) in enumerate(given):
        for other, other_path in given[:index] + others:
            if same_file(path, other_path):
                what = "the same file as" if (other, other_path) in given else "the file read by"
                args.parser.error(f"argument {option}: {path} is {what} {other} ({other_path}): give another path")


def _interrupted(error: BaseException) -> bool:
    """Ctrl-C, or an error a library raised while it handled one (torch's zip writer turns it into a RuntimeError)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__context__ or error.__cause__
    return False


def written(path: str, what: str, write: Callable[[str], object]) -> bool:
    """`write(path)`, all or nothing; a failure (a full disk, a folder gone since the check) is one line on
    stderr naming the file and the reason, never a traceback. Ctrl-C in the middle leaves what was there and
    is raised on as KeyboardInterrupt (the command ends as interrupted)."""
    try:
        note = write(path)
    except BaseException as error:
        if _interrupted(error):
            print(f"gpudemo: interrupted while writing {what} {path!r}; what was there is as it was", file=sys.stderr)
            raise KeyboardInterrupt from None
        if not isinstance(error, OSError):
            raise
        reason = error.strerror or str(error)
        print(f"gpudemo: cannot write {what} {path!r}: {reason}; what was there is as it was", file=sys.stderr)
        return False
    if note is not None:  # a hard link broken
        print(f"gpudemo: {note}", file=sys.stderr)
    return True


def write_run_outputs(args: argparse.Namespace, result) -> bool:
    """The loss CSV and the checkpoint a run asked for, as far as the run earned them (see the module);
    each decision said on stderr. False when a write failed."""
    from gpudemo.core.training import DIVERGED, STOPPED

    wanted = [path for path in (args.loss_csv, args.save) if path is not None]
    if not wanted:
        return True
    if result.status == STOPPED and result.epochs_run == 0:
        print(f"gpudemo: stopped before the first epoch: nothing written ({', '.join(wanted)} as they were)",
              file=sys.stderr)  # fmt: skip
        return True
    ok = True
    if args.loss_csv is not None:

        def write_losses(out) -> None:
            out.write("epoch,loss\n")
            out.writelines(f"{epoch},{loss!r}\n" for epoch, loss in enumerate(result.losses.tolist(), 1))

        if result.status == DIVERGED and os.path.lexists(args.loss_csv):
            print(f"gpudemo: the run diverged: its losses are not written over {args.loss_csv!r}, which is as it"
                  " was", file=sys.stderr)  # fmt: skip
        elif written(args.loss_csv, "the loss CSV", lambda path: write_atomically(path, write_losses)):
            if result.status == DIVERGED:
                print(f"gpudemo: the diverged run's losses are in {args.loss_csv!r} (a new file)", file=sys.stderr)
        else:
            ok = False
    if args.save is not None:
        from gpudemo.core.outputs.checkpoint import save

        epochs = result.epochs_run
        if result.status == DIVERGED:
            print(f"gpudemo: the run diverged: its weights are not numbers, so nothing is saved to {args.save!r}"
                  " (what was there is as it was)", file=sys.stderr)  # fmt: skip
        elif written(args.save, "the checkpoint", lambda path: save(path, result.model, result.config, epochs)):
            if result.status == STOPPED:
                print(f"gpudemo: stopped at epoch {result.epochs_run:,}: the model of those epochs is saved to"
                      f" {args.save!r}", file=sys.stderr)  # fmt: skip
        else:
            ok = False
    return ok
