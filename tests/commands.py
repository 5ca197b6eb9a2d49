"""The `gpudemo` command in the tests: in this process where the process adds nothing (a second
torch start costs seconds), in a child where it matters (`python -m gpudemo`, start-up, signals)."""

import contextlib
import io
import subprocess
import sys

from gpudemo.cli import main

# The commands that run on a device: without --device they take the best one here, cuda:0 on a GPU
# machine, where a test written on the CPU would run something else than it checks.
ON_A_DEVICE = {"train", "compare", "sweep", "profile", "code", "transfer", "parallel"}


def gpudemo(
    *args: str, module: bool = False, timeout: float = 120, any_device: bool = False
) -> subprocess.CompletedProcess:
    """Run `gpudemo ARGS`: its exit status, stdout and stderr, as a child's would be. A command that ran on a
    device (anything but a refusal of its arguments, exit 2) must have named it (`--device cpu`), unless the
    test is about the default (`any_device=True`)."""
    if module:
        done = subprocess.run([sys.executable, "-m", "gpudemo", *args], capture_output=True, text=True, timeout=timeout)
    else:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as exit_:  # argparse's refusals and --help
                status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        done = subprocess.CompletedProcess(["gpudemo", *args], status, out.getvalue(), err.getvalue())
    if args and args[0] in ON_A_DEVICE and done.returncode != 2 and not any_device:
        named = any(arg == "--device" or arg.startswith("--device=") for arg in args)
        assert named, f"gpudemo {' '.join(args)} ran on the best device here: name it (--device cpu)"
    return done
