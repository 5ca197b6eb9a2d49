#!/usr/bin/env python3
"""Set gpudemo up in ./.venv and run it: `python3 dev.py app`, `test`, `lint` or `translations`
(on Windows, `py dev.py app`: python.org's installer puts the `py` launcher on the PATH, not `python3`).

Needs nothing but a 64-bit Python 3.10+ (it says so, and what to do, on any other). On Windows with an
NVIDIA driver, PyTorch's CUDA build is installed first from PyTorch's own index (pip alone takes a
CPU-only build there). The first call makes the virtual environment and
installs the project with its test tools; later calls reinstall only when
pyproject.toml changes. `test` alone runs the suite spread over every core
(pytest-xdist's `-n auto`), then the tests marked `processes` (they start worker
processes of their own) one at a time; arguments after `test` go to pytest as they are
(spread over every core unless they give `-n` themselves).

`lint` checks that imports only go down with no circles (lint-imports, the contracts in
pyproject.toml), then the code's lint and format (ruff check, ruff format --check); `ruff format .`
and `ruff check --fix .` from .venv/bin mend most of what they find.

`translations` gathers every translatable string of the package into the .ts sources
(pyside6-lupdate: new strings are added unfinished, gone ones marked obsolete, done
translations kept) and compiles them into the .qm files the package ships
(pyside6-lrelease). Translate a .ts with Qt Linguist, or any editor, then run it again.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import struct
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".gpudemo-installed"


# PyTorch's own index of CUDA 12.6 builds (pytorch.org's install selector): pip on Windows takes a CPU-only
# build from PyPI whatever card is there; drivers from 560 on run these.
CUDA_INDEX = "https://download.pytorch.org/whl/cu126"


def python_problem(version=sys.version_info, bits: int = struct.calcsize("P") * 8, system: str = sys.platform,
                   machine: str = platform.machine()) -> str | None:  # fmt: skip
    """Why this Python cannot run gpudemo, in one sentence with what to do; None when it can."""
    if version < (3, 10):
        return f"gpudemo needs Python 3.10 or newer; this is {version[0]}.{version[1]}: install a newer one"
    if bits != 64:
        return "PyTorch has no 32-bit builds: install the 64-bit Python (python.org's Windows installer (64-bit))"
    if system == "darwin" and machine.lower() in ("x86_64", "amd64", "i386"):
        return (
            "PyTorch stopped building for Intel Macs at 2.2 and gpudemo needs 2.4 or newer: on an Apple-silicon Mac"
            " use an arm64 Python (not one under Rosetta); an Intel Mac can run gpudemo in Linux or Windows"
        )
    return None


def torch_first(system: str = sys.platform, driver: bool | None = None) -> list[str] | None:
    """pip's arguments that install PyTorch before the project, where pip alone would take the wrong build:
    Windows with an NVIDIA driver (PyPI's Windows wheels have no CUDA); None elsewhere."""
    driver = shutil.which("nvidia-smi") is not None if driver is None else driver
    if system == "win32" and driver:
        return ["torch", "--index-url", CUDA_INDEX]
    return None


def ensure_environment() -> None:
    problem = python_problem()
    if problem is not None:
        print(f"dev.py: {problem}", file=sys.stderr)
        sys.exit(1)
    if not PYTHON.exists():
        print(f"dev.py: creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check"]
    first = torch_first()
    if first is not None:
        print(f"dev.py: an NVIDIA driver is here: PyTorch's CUDA build first ({' '.join(first)})", flush=True)
        subprocess.run([*pip, *first], cwd=ROOT, check=True)
    print("dev.py: installing gpudemo and its test tools into .venv", flush=True)
    subprocess.run([*pip, "-e", ".[test]"], cwd=ROOT, check=True)
    STAMP.write_text(wanted + "\n")


TRANSLATIONS = ROOT / "gpudemo" / "resources" / "translations"
LANGUAGES = ("zh_CN",)


def sources() -> list[str]:
    """Every module of the package, relative to the root (lupdate writes these paths into the .ts)."""
    return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "gpudemo").rglob("*.py"))


def update_translations(ts_files: list[Path] | None = None, qm_dir: Path | None = None) -> None:
    """lupdate the .ts files from the sources, then lrelease each into its .qm."""
    ts_files = ts_files or [TRANSLATIONS / f"gpudemo_{language}.ts" for language in LANGUAGES]
    for ts in ts_files:
        subprocess.run(
            [tool("pyside6-lupdate"), "-locations", "none", "-no-obsolete", *sources(), "-ts", str(ts)],
            cwd=ROOT,
            check=True,
        )
        qm = (qm_dir or ts.parent) / ts.with_suffix(".qm").name
        subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], cwd=ROOT, check=True)


LINTS = (["lint-imports"], ["ruff", "check", "."], ["ruff", "format", "--check", "."])


def tool(name: str) -> str:
    """A command installed in .venv: its .exe on Windows (a path with a folder gets no .exe added there)."""
    return shutil.which(name, path=str(BIN)) or str(BIN / name)


def main(argv: list[str]) -> int:
    if argv and argv[0] == "translations":
        ensure_environment()
        update_translations()
        return 0
    if argv and argv[0] == "lint":
        ensure_environment()
        failed = [" ".join(lint) for lint in LINTS if subprocess.run([tool(lint[0]), *lint[1:]], cwd=ROOT).returncode]
        if failed:
            print(f"dev.py: failed: {', '.join(failed)}", file=sys.stderr)
        return 1 if failed else 0
    if not argv or argv[0] not in ("app", "test"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ensure_environment()
    if argv[0] == "app":
        command = [str(PYTHON), "-m", "gpudemo", *argv[1:]]
    else:
        tests = [str(PYTHON), "-m", "pytest"]
        if len(argv) > 1:  # a call that says what to run: as it says, spread over every core unless it says how
            spread = any(arg == "-n" or arg.startswith(("-n", "--numprocesses")) for arg in argv[1:])
            command = [*tests, *([] if spread else ["-n", "auto"]), *argv[1:]]
        else:
            # The whole suite: spread over every core (pytest-xdist), then the tests that start worker processes
            # of their own, one at a time with nothing beside them. A data-parallel worker, now and then, is
            # aborted inside torch 2.13's gloo ("terminate called without an active exception", SIGABRT), a
            # pure-torch torchrun script's too, about one run in three of the suite and never alone: such a
            # test is run once more (pytest-rerunfailures), for that abort only; any other failure stands.
            spread = subprocess.run([*tests, "-n", "auto", "-m", "not processes"], cwd=ROOT).returncode
            once_more = ["--reruns", "1", "--only-rerun", "SIGABRT|exitcode: -6"]
            alone = subprocess.run([*tests, "-m", "processes", *once_more], cwd=ROOT).returncode
            return spread or alone
    return subprocess.run(command, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
