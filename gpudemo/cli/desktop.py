"""`gpudemo desktop-entry install|uninstall`: gpudemo in the desktop's application menu, with its icon.

On Linux (freedesktop) install writes two files into the user's data folder ($XDG_DATA_HOME, else
~/.local/share): applications/gpudemo.desktop, whose Exec is the absolute path of this installed
`gpudemo` (quoted as the Desktop Entry spec asks, for a path with a space or a %), and
icons/hicolor/scalable/apps/gpudemo.svg. Both are checked before either is written, written all or
nothing, and the entry is checked with `desktop-file-validate` where that program exists. A relative
$XDG_DATA_HOME is ignored, as the XDG Base Directory spec says. Uninstall removes exactly those two
files, and only an entry that install wrote (it carries X-gpudemo-Version). Every failure is one line
naming the file and the reason. Elsewhere the command says it does not make menu entries there yet,
and exits 1.
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
from gpudemo.core.base.files import CannotWrite, check_writable, write_atomically

NAME = "gpudemo"
ENTRY = f"applications/{NAME}.desktop"
ICON = f"icons/hicolor/scalable/apps/{NAME}.svg"


MARK = "X-gpudemo-Version"  # in every entry install writes: uninstall removes no other


def data_home(say=lambda line: print(line, file=sys.stderr)) -> Path:
    """The user's data folder, as the XDG Base Directory spec says: $XDG_DATA_HOME where it is an absolute
    path, else ~/.local/share (a relative one is ignored, and `say` is told why)."""
    given = os.environ.get("XDG_DATA_HOME", "")
    if given and os.path.isabs(given):
        return Path(given)
    if given:
        say(f"gpudemo: XDG_DATA_HOME={given!r} is not an absolute path, so it is ignored (the XDG Base Directory"
            " spec); using ~/.local/share")  # fmt: skip
    return Path.home() / ".local" / "share"


_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")  # an Exec argument with any of these is quoted


def exec_argument(command: Path) -> str:
    """`command` as one argument of an Exec key: quoted where it holds a reserved character (with ", `, $ and
    \\ escaped inside the quotes), % doubled, then escaped as a string value (\\ written \\\\)."""
    text = str(command).replace("%", "%%")
    if any(character in _RESERVED for character in text):
        text = '"' + "".join("\\" + c if c in '"`$\\' else c for c in text) + '"'
    return text.replace("\\", "\\\\")


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
            f"Exec={exec_argument(command)}",
            f"Icon={NAME}",
            "Terminal=false",
            "Categories=Education;ComputerScience;",  # one main category: the menu lists it once
            "Keywords=PyTorch;GPU;CUDA;deep learning;training;",
            f"StartupWMClass={NAME}",
            f"{MARK}={__version__}",
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
        return _uninstall(entry, icon)
    from gpudemo.ui.base.resources import icon_path  # the window's own icon (loaded only for this command)

    command = installed_command()
    if command is None:
        print(
            "gpudemo: no `gpudemo` command is installed here (pipx install or uv tool install first)", file=sys.stderr
        )
        return EXIT_FAILED
    icon_was_there = icon.exists()
    try:
        for path in (entry, icon):  # both checked before either is written: no icon without its entry
            _make_folder(path.parent)
            check_writable(path)
        write_atomically(icon, lambda out: out.write(icon_path().read_bytes()), binary=True)
        try:
            write_atomically(entry, lambda out: out.write(entry_text(command)))
        except OSError:
            if not icon_was_there:
                icon.unlink(missing_ok=True)
            raise
    except CannotWrite as error:
        print(f"gpudemo: cannot write the menu entry: {error}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as error:
        print(f"gpudemo: cannot write the menu entry: {_reason(error)}", file=sys.stderr)
        return EXIT_FAILED
    validator = shutil.which("desktop-file-validate")
    if validator is not None:
        checked = subprocess.run([validator, str(entry)], capture_output=True, text=True)
        if checked.returncode != 0:
            print(f"gpudemo: desktop-file-validate refused {entry}:\n{checked.stdout}{checked.stderr}", file=sys.stderr)
            return EXIT_FAILED
    print(f"wrote {entry} (Exec={exec_argument(command)})\nwrote {icon}")
    return EXIT_OK


def _reason(error: OSError) -> str:
    """The system's reason with the path it was about."""
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def _make_folder(folder: Path) -> None:
    """`folder` and its parents; a dangling symbolic link on the way is named as such."""
    for part in [folder, *folder.parents]:
        if part.is_symlink() and not part.exists():
            raise OSError(0, f"a symbolic link to {os.readlink(part)}, which does not exist", str(part))
    folder.mkdir(parents=True, exist_ok=True)


def _uninstall(entry: Path, icon: Path) -> int:
    """Remove the entry install wrote and its icon; someone else's gpudemo.desktop stays, said so."""
    removed, status = [], EXIT_OK
    try:
        if entry.is_dir():
            print(f"gpudemo: {entry} is a folder, not a menu entry; left as it is", file=sys.stderr)
            return EXIT_FAILED
        ours = entry.exists() and any(
            line.startswith(f"{MARK}=") for line in entry.read_text(errors="replace").splitlines()
        )
        if entry.exists() and not ours:
            print(f"gpudemo: {entry} was not written by gpudemo desktop-entry (it has no {MARK}); left as it is",
                  file=sys.stderr)  # fmt: skip
            return EXIT_FAILED
        for path in (entry, icon) if ours or not entry.exists() else ():
            if path.is_file():
                path.unlink()
                removed.append(path)
    except OSError as error:
        print(f"gpudemo: cannot remove the menu entry: {_reason(error)}", file=sys.stderr)
        status = EXIT_FAILED
    if removed:
        print("\n".join(f"removed {path}" for path in removed))
    elif status == EXIT_OK:
        print("gpudemo: no menu entry was installed here")
    return status
