"""`gpudemo desktop-entry install|uninstall`: gpudemo in the desktop's application menu, with its icon.

On Linux (freedesktop) install writes two files into the user's data folder ($XDG_DATA_HOME, else
~/.local/share): applications/gpudemo.desktop, whose Exec is the absolute path of this installed
`gpudemo`, and icons/hicolor/scalable/apps/gpudemo.svg. Both are written all or nothing, and the entry
is checked with `desktop-file-validate` where that program exists. Uninstall removes exactly those
two files. Elsewhere the command says it does not make menu entries there yet, and exits 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from gpudemo import __version__
from gpudemo.cli.output import EXIT_FAILED, EXIT_OK
from gpudemo.core.files import write_atomically

NAME = "gpudemo"
ENTRY = f"applications/{NAME}.desktop"
ICON = f"icons/hicolor/scalable/apps/{NAME}.svg"


def data_home() -> Path:
    """The user's data folder, as the XDG Base Directory spec says."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def installed_command() -> Path | None:
    """The absolute path of this installation's `gpudemo` command: beside this Python, else on PATH."""
    beside = Path(sys.executable).parent / NAME
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside.absolute()
    found = shutil.which(NAME)
    return Path(found).absolute() if found else None


def entry_text(command: Path) -> str:
    """The freedesktop entry for `command`."""
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",
            "Name=gpudemo",
            "GenericName=PyTorch on a GPU, step by step",
            "GenericName[zh_CN]=逐步观看 PyTorch 在 GPU 上训练",
            "Comment=Watch PyTorch train a model on your GPU, one epoch at a time",
            "Comment[zh_CN]=观看 PyTorch 在你的 GPU 上训练模型，一次一个轮次",
            f"Exec={command}",
            f"Icon={NAME}",
            "Terminal=false",
            "Categories=Education;Science;",
            "Keywords=PyTorch;GPU;CUDA;deep learning;training;",
            f"StartupWMClass={NAME}",
            f"X-gpudemo-Version={__version__}",
            "",
        ]
    )


def add_arguments(commands) -> None:
    desktop = commands.add_parser("desktop-entry", help="add gpudemo to the desktop's application menu, or remove it")
    desktop.set_defaults(parser=desktop)
    desktop.add_argument(
        "action", choices=("install", "uninstall"), help="write the menu entry and icon, or remove them"
    )


def run_desktop_entry(args: argparse.Namespace) -> int:
    if not sys.platform.startswith("linux"):
        print(
            f"gpudemo: desktop-entry makes freedesktop menu entries, on Linux; on {sys.platform} it does nothing yet."
            " Start gpudemo from a terminal with `gpudemo`.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    home = data_home()
    entry, icon = home / ENTRY, home / ICON
    if args.action == "uninstall":
        removed = [path for path in (entry, icon) if path.exists()]
        for path in removed:
            path.unlink()
        print("\n".join(f"removed {path}" for path in removed) or "gpudemo: no menu entry was installed here")
        return EXIT_OK
    from gpudemo.ui.base.resources import icon_path  # the window's own icon (loaded only for this command)

    command = installed_command()
    if command is None:
        print(
            "gpudemo: no `gpudemo` command is installed here (pipx install or uv tool install first)", file=sys.stderr
        )
        return EXIT_FAILED
    try:
        for path in (entry, icon):
            path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(icon, lambda out: out.write(icon_path().read_bytes()), binary=True)
        write_atomically(entry, lambda out: out.write(entry_text(command)))
    except OSError as error:
        print(f"gpudemo: cannot write the menu entry: {error.strerror or error}", file=sys.stderr)
        return EXIT_FAILED
    validator = shutil.which("desktop-file-validate")
    if validator is not None:
        checked = subprocess.run([validator, str(entry)], capture_output=True, text=True)
        if checked.returncode != 0:
            print(f"gpudemo: desktop-file-validate refused {entry}:\n{checked.stdout}{checked.stderr}", file=sys.stderr)
            return EXIT_FAILED
    print(f"wrote {entry} (Exec={command})\nwrote {icon}")
    return EXIT_OK
