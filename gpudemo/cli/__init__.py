"""The `gpudemo` command: no argument opens the window; every other command works headless.

Rooms: `arguments` (every command's options and the checks that turn them into a run),
`train` (devices, train, predict, code), `measure` (compare, sweep, profile, transfer,
parallel), `window` (no command: the window), `desktop` (the menu entry), `output` (tables, exit statuses, Ctrl-C, the
progress bar). Only this module dispatches to the commands.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from gpudemo.cli import desktop, measure, train, window
from gpudemo.cli.arguments import parse, resolve_config, resolve_devices
from gpudemo.cli.output import EXIT_INTERRUPTED
from gpudemo.core.step import compile_cache


def main(argv: Sequence[str] | None = None) -> int:
    readable_anywhere()
    compile_cache.keep_in_user_cache()  # before anything compiles: kept across reboots, not in the temporary folder
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "devices":
            return train.run_devices(args)
        if args.command == "train":
            return train.run_train(args)
        if args.command in ("code", "notebook"):
            return train.run_code(args)
        if args.command == "predict":
            return train.run_predict(args)
        if args.command == "compare":
            return measure.run_compare(args, resolve_devices(args), resolve_config(args))
        if args.command == "profile":
            return measure.run_profile(args, resolve_config(args))
        if args.command == "sweep":
            return measure.run_sweep(args, resolve_devices(args), resolve_config(args))
        if args.command == "transfer":
            return measure.run_transfer(args, resolve_devices(args)[0])
        if args.command == "parallel":
            return measure.run_parallel_command(args, resolve_config(args))
        if args.command == "desktop-entry":
            return desktop.run_desktop_entry(args)
        return window.run_window()
    except KeyboardInterrupt:
        print("gpudemo: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `gpudemo ... | head`: the reader left; nothing more to say, and no traceback
        _quiet_stdout()
        return EXIT_PIPE_CLOSED


EXIT_PIPE_CLOSED = 141  # as a shell reports a command a closed pipe ended (128 + SIGPIPE)


def _quiet_stdout() -> None:
    """Point standard output at nothing, so that Python's flush at exit does not fail on the closed pipe."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def readable_anywhere() -> None:
    """A character the console's encoding lacks is written as its escape (\\xe9), as Python's stderr does, not
    raised: redirected on a Windows whose code page is cp1252 or cp932, a script naming `café.csv` and the "…"
    gpudemo prints raised UnicodeEncodeError. In a script's string the escape reads back as the character."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
