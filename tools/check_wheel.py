#!/usr/bin/env python3
"""CI's check that what is built works on its own: `python tools/check_wheel.py [--keep DIR]`.

1. Builds the sdist and, from it, the wheel (`python -m build`), and a second wheel straight from the
   tree: the two wheels must hold the same files with the same bytes (the sdist lacks nothing).
2. The wheel must carry every file the app reads at run time: the translations, the lesson's steps,
   the digits and their licence, the icon, and the project's licence.
3. Installs the wheel into a fresh virtual environment (the CPU torch wheel first, as .ci/run does),
   and from a folder outside the source tree runs `gpudemo --version`, `gpudemo devices --json`,
   `gpudemo train --json`, the lesson file's loader, and the window, offscreen: opened and closed by
   a driver, and the installed `gpudemo` command itself ended by SIGTERM (it closes as its close button
   does, exit 0).
Exits 1 with the step that failed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_FILES = (
    "gpudemo/resources/icon.svg",
    "gpudemo/resources/translations/gpudemo_zh_CN.qm",
    "gpudemo/resources/lesson/tutorial.json",
    "gpudemo/resources/data/digits.csv.gz",
    "gpudemo/resources/data/DIGITS-LICENSE.txt",
)
WINDOW = """
import sys
from PySide6.QtCore import QTimer
from gpudemo.cli.window import run_window
seen = []
def shown(window):
    seen.append(window.findChild(object, "startButton") is not None)
    QTimer.singleShot(500, window.close)
status = run_window(on_shown=shown)
sys.exit(status if seen == [True] else 3)
"""


def fail(step: str, detail: str = "") -> None:
    print(f"check_wheel: FAILED: {step}\n{detail}".rstrip(), file=sys.stderr)
    sys.exit(1)


def run(step: str, command: list[str], **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **options)
    if done.returncode != 0:
        fail(step, f"$ {' '.join(map(str, command))}\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    print(f"check_wheel: ok: {step}", flush=True)
    return done


def contents(wheel: Path) -> dict[str, str]:
    """Each file of a wheel and its bytes' SHA-256 (RECORD, which lists the hashes itself, left out)."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            name: hashlib.sha256(archive.read(name)).hexdigest()
            for name in archive.namelist()
            if not name.endswith(".dist-info/RECORD")
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--keep",
        type=Path,
        help="build and install here, and keep it (default: a temporary folder, removed once passed)",
    )
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="gpudemo-wheel-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"check_wheel: building and installing in {work} (kept where a check fails)", flush=True)
    python = sys.executable
    from_sdist, from_tree = work / "dist", work / "tree"
    run("build the sdist, then the wheel from it", [python, "-m", "build", "--outdir", str(from_sdist), str(ROOT)])
    run("build a wheel from the tree", [python, "-m", "build", "--wheel", "--outdir", str(from_tree), str(ROOT)])
    wheel = next(from_sdist.glob("gpudemo-*.whl"))
    built, tree = contents(wheel), contents(next(from_tree.glob("gpudemo-*.whl")))
    if built != tree:
        differ = sorted(name for name in set(built) | set(tree) if built.get(name) != tree.get(name))
        fail("the sdist's wheel and the tree's differ", "\n".join(differ))
    missing = [name for name in RUNTIME_FILES if name not in built]
    if not any(name.endswith(".dist-info/licenses/LICENSE") for name in built):
        missing.append("the project's LICENSE")
    if missing:
        fail("files the app needs are missing from the wheel", "\n".join(missing))
    print(f"check_wheel: ok: {wheel.name} holds {len(built)} files, every run-time file among them", flush=True)

    venv = work / "venv"
    run("a fresh virtual environment", [python, "-m", "venv", str(venv)])
    bin_ = venv / "bin"
    pip = [str(bin_ / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    run("the CPU torch wheel first", [*pip, "torch==2.13.0"])
    run("the wheel and what it needs", [*pip, str(wheel)])
    elsewhere = Path(tempfile.mkdtemp(prefix="gpudemo-elsewhere-"))  # no source tree to import from
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(elsewhere / "config"),
               XDG_STATE_HOME=str(elsewhere / "state"))  # fmt: skip
    gpudemo = str(bin_ / "gpudemo")
    options = {"cwd": elsewhere, "env": env, "timeout": 300}
    import gpudemo as source

    version = run("gpudemo --version", [gpudemo, "--version"], **options).stdout.strip()
    if version != f"gpudemo {source.__version__}":
        fail("gpudemo --version", version)
    which = [str(bin_ / "python"), "-c", "import gpudemo; print(gpudemo.__file__)"]
    where = run("it imports from the environment", which, **options).stdout.strip()
    if not where.startswith(str(venv)):
        fail("it imports from the environment", where)
    devices = json.loads(run("gpudemo devices --json", [gpudemo, "devices", "--json"], **options).stdout)
    if devices[-1]["id"] != "cpu":
        fail("gpudemo devices --json", json.dumps(devices))
    trained = json.loads(run("gpudemo train --json", [gpudemo, "train", "--device", "cpu", "--json"], **options).stdout)
    if trained["status"] != "completed" or abs(trained["predictions"][0]["y"] - 8) > 1:
        fail("gpudemo train --json", json.dumps(trained))
    steps = run("the lesson file's loader", [str(bin_ / "python"), "-c",
                "from gpudemo.core.lessons.lesson import load; print(len(load()))"], **options).stdout  # fmt: skip
    if int(steps) < 1:
        fail("the lesson file's loader", steps)
    run("the window opens and closes, offscreen", [str(bin_ / "python"), "-c", WINDOW], **options)
    child = subprocess.Popen(
        [gpudemo], cwd=elsewhere, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = child.communicate(timeout=20)  # it runs until it is asked to close
        fail("the installed gpudemo command keeps its window open", err)
    except subprocess.TimeoutExpired:
        child.terminate()  # SIGTERM: closed as its close button does
        out, err = child.communicate(timeout=60)
    if child.returncode != 0 or "Traceback" in err:
        fail("the installed gpudemo command, ended by SIGTERM", f"exit {child.returncode}\n{err}")
    print("check_wheel: ok: the installed gpudemo command ran 20 s with its window, then closed on SIGTERM (exit 0)")
    shutil.rmtree(elsewhere, ignore_errors=True)
    if args.keep:
        print(f"check_wheel: every check passed ({work})")
    else:  # its environment holds a PyTorch (1.2 GB): a failed check keeps it to look at, a passed one not
        shutil.rmtree(work, ignore_errors=True)
        print("check_wheel: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
