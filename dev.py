#!/usr/bin/env python3
"""Set gpudemo up in ./.venv and run it: `python3 dev.py app` or `python3 dev.py test`.

Needs nothing but Python 3.10+. The first call makes the virtual environment and
installs the project with its test tools; later calls reinstall only when
pyproject.toml changes. Arguments after `test` go to pytest.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".gpudemo-installed"


def ensure_environment() -> None:
    if not PYTHON.exists():
        print(f"dev.py: creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    print("dev.py: installing gpudemo and its test tools into .venv", flush=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-e", ".[test]"],
                   cwd=ROOT, check=True)
    STAMP.write_text(wanted + "\n")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("app", "test"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ensure_environment()
    if argv[0] == "app":
        command = [str(PYTHON), "-m", "gpudemo", *argv[1:]]
    else:
        command = [str(PYTHON), "-m", "pytest", *argv[1:]]
    return subprocess.run(command, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
