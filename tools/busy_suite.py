#!/usr/bin/env python3
"""Run the README's test command several times in a row while CPU hogs keep every core busy.

    python3 tools/busy_suite.py [--runs 3] [--hogs N] [-- pytest arguments]

The suite must pass every time on a busy machine; this is how to check it. The hogs
(`python3 -c "while True: pass"`, one per core unless --hogs says otherwise) are
started here and ended here, by their process ids, whatever happens to the runs.
Prints each run's exit status and duration; exits 1 if any run failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOG = "while True: pass"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/busy_suite.py", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="how many runs in a row (default 3)")
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 2, help="busy processes to keep running (default: one per core)"
    )
    parser.add_argument("pytest_args", nargs="*", help="passed on to `python3 dev.py test`")
    args = parser.parse_args(argv)

    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(args.hogs)]
    print(f"busy_suite: {len(hogs)} CPU hogs running, pids {' '.join(str(h.pid) for h in hogs)}", flush=True)
    results = []
    try:
        for run in range(1, args.runs + 1):
            started = time.perf_counter()
            code = subprocess.run([sys.executable, "dev.py", "test", *args.pytest_args], cwd=ROOT).returncode
            seconds = time.perf_counter() - started
            results.append((code, seconds))
            print(f"busy_suite: run {run}: exit {code} in {seconds:.0f} s", flush=True)
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()
        print(f"busy_suite: hogs {' '.join(str(h.pid) for h in hogs)} ended", flush=True)
    for run, (code, seconds) in enumerate(results, 1):
        print(f"run {run}: {'passed' if code == 0 else f'FAILED (exit {code})'} in {seconds:.0f} s")
    return 0 if results and all(code == 0 for code, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
