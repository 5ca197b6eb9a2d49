"""The `gpudemo` command in the tests: in this process where the process adds nothing (a second
torch start costs seconds), in a child where it matters (`python -m gpudemo`, start-up, signals)."""

import contextlib
import io
import subprocess
import sys

from gpudemo.cli import main


def gpudemo(*args: str, module: bool = False, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `gpudemo ARGS`: its exit status, stdout and stderr, as a child's would be."""
    if module:
        return subprocess.run([sys.executable, "-m", "gpudemo", *args], capture_output=True, text=True, timeout=timeout)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse's refusals and --help
            status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return subprocess.CompletedProcess(["gpudemo", *args], status, out.getvalue(), err.getvalue())
