"""Before Qt opens a window on Linux: is there a display, can it be reached, can Qt load for it?

Where one of these fails, Qt prints a misleading line about plugins and aborts the
process (status 134, often a core dump). This module looks first, without creating
any Qt object, and says what is wrong in words a person can act on: which display
could not be reached, or which system libraries are missing and the command that
installs them. No Qt import here; it runs before Qt is loaded.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

HEADLESS_HINT = "`gpudemo train`, `gpudemo devices` and `gpudemo code` work without a window."

# The system libraries Qt's desktop plugins load, by soname: (Debian/Ubuntu package, Fedora package).
# Qt 6's X11 plugin (libqxcb.so) alone needs the first eleven, which a minimal system lacks.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libSM.so.6": ("libsm6", "libSM"),
    "libICE.so.6": ("libice6", "libICE"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}
# What a Linux desktop needs for gpudemo's window: the X11 plugin's libraries and Qt's own.
DESKTOP_LIBRARIES = (
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-keysyms.so.1",
    "libxcb-image.so.0",
    "libxcb-render-util.so.0",
    "libxcb-xinerama.so.0",
    "libxcb-randr.so.0",
    "libxcb-xkb.so.1",
    "libxcb-shape.so.0",
    "libxkbcommon-x11.so.0",
    "libEGL.so.1",
    "libGL.so.1",
    "libfontconfig.so.1",
    "libdbus-1.so.3",
)

X_CONNECT_SECONDS = 5.0  # a display over a dead network must not hang the start


class DisplayProblem(Exception):
    """The window cannot open here; the message says why and what to do."""


@dataclass(frozen=True)
class Platform:
    """What to tell Qt: `name` for QT_QPA_PLATFORM (None: let Qt choose), and a note to print."""

    name: str | None = None
    note: str | None = None


def install_lines(sonames: Iterable[str]) -> list[str]:
    """One install command per distribution family for these libraries, packages deduplicated."""
    debian: list[str] = []
    fedora: list[str] = []
    unknown: list[str] = []
    for soname in sonames:
        if soname not in PACKAGES:
            unknown.append(soname)
            continue
        deb, rpm = PACKAGES[soname]
        debian += [deb] if deb not in debian else []
        fedora += [rpm] if rpm not in fedora else []
    lines = []
    if debian:
        lines.append(f"  Debian/Ubuntu:  sudo apt install {' '.join(debian)}")
        lines.append(f"  Fedora:         sudo dnf install {' '.join(fedora)}")
    if unknown:
        lines.append(
            f"  and the packages that provide {', '.join(unknown)}"
            " (`apt-file search NAME` or `dnf provides '*/NAME'` finds them)"
        )
    return lines


def desktop_install_lines() -> list[str]:
    """The README's line per distribution family: everything the window needs on a Linux desktop (the tests
    check that README and tools/screenshot.py say the same)."""
    return install_lines(DESKTOP_LIBRARIES)


# --- finding Qt's plugins and what they lack ------------------------------------------


def plugin_directories(environ: Mapping[str, str]) -> list[Path]:
    """Where Qt looks for platform plugins, in Qt's order: its environment variables, then PySide6's own."""
    found = [Path(p) for p in environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    found += [Path(p) / "platforms" for p in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    spec = importlib.util.find_spec("PySide6")
    if spec is not None and spec.origin:
        found.append(Path(spec.origin).parent / "Qt" / "plugins" / "platforms")
    return found


def platform_plugin(name: str, environ: Mapping[str, str]) -> Path | None:
    """The file of Qt's platform plugin `name` ("xcb", "wayland") that Qt would load, if any."""
    for directory in plugin_directories(environ):
        candidate = directory / f"libq{name}.so"
        if candidate.is_file():
            return candidate
    return None


_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
_CANNOT_OPEN = re.compile(r"([^\s:/]+\.so[.\d]*): cannot open shared object file")


def missing_libraries(library: Path) -> list[str]:
    """The sonames `library` needs (directly or through others) that the dynamic loader cannot find.

    Asks `ldd`, which lists every missing one; where there is no ldd, loads the library,
    which names the first one missing.
    """
    ldd = shutil.which("ldd")
    if ldd is not None:
        try:
            out = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            out = None
        if out is not None and out.returncode == 0:
            return list(dict.fromkeys(_NOT_FOUND.findall(out.stdout)))
    try:
        ctypes.CDLL(str(library))
    except OSError as error:
        return _CANNOT_OPEN.findall(str(error))[:1] or [f"(a library {library.name} needs: {error})"]
    return []


def missing_for_import_error(error: ImportError) -> list[str]:
    """The system libraries behind an ImportError of a Qt module ("libEGL.so.1: cannot open ..."), or []."""
    named = _CANNOT_OPEN.findall(str(error))
    if not named:
        return []
    module = Path(error.path) if error.path else None
    if module is not None and module.is_file():
        return missing_libraries(module) or named
    return named


def missing_libraries_message(what: str, sonames: list[str]) -> str:
    return "\n".join(
        [
            f"gpudemo: cannot open the window: {what} needs system libraries that are not installed:"
            f" {', '.join(sonames)}. Install them with:",
            *install_lines(sonames),
            HEADLESS_HINT,
        ]
    )


# --- can the display be reached ------------------------------------------------------


def _x_socket_answers(display: str, timeout: float) -> bool:
    """Whether something listens where DISPLAY points ("[host]:N[.screen]"); no X handshake."""
    match = re.fullmatch(r"(?:(.*?)/)?(.*):(\d+)(?:\.\d+)?", display)
    if match is None:
        return False
    host, number = match.group(2), int(match.group(3))
    try:
        if host in ("", "unix"):
            path = f"/tmp/.X11-unix/X{number}"
            for address in ("\0" + path, path):  # Linux's abstract socket first, then the file
                with socket.socket(socket.AF_UNIX) as sock:
                    sock.settimeout(timeout)
                    try:
                        sock.connect(address)
                        return True
                    except OSError:
                        continue
            return False
        with socket.create_connection((host, 6000 + number), timeout=timeout):
            return True
    except OSError:
        return False


def _xcb_connects(display: str) -> bool | None:
    """Connect as Qt's X11 plugin will, through libxcb (it reads the Xauthority too); None without libxcb."""
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.restype = ctypes.c_int
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return xcb.xcb_connection_has_error(connection) == 0
    finally:
        xcb.xcb_disconnect(connection)


def x_display_reachable(display: str, timeout: float = X_CONNECT_SECONDS) -> bool:
    """Whether an X server answers at `display` and lets this user in, within `timeout` seconds."""
    answer: list[bool | None] = []

    def connect() -> None:
        answer.append(_xcb_connects(display))

    # ctypes lets go of the GIL: a connect that hangs on a dead network is left behind, not waited for.
    thread = threading.Thread(target=connect, name="gpudemo-x-check", daemon=True)
    thread.start()
    thread.join(timeout)
    if not answer:
        return False
    if answer[0] is None:
        return _x_socket_answers(display, timeout)
    return answer[0]


def wayland_reachable(environ: Mapping[str, str]) -> bool:
    name = environ.get("WAYLAND_DISPLAY", "")
    path = name if name.startswith("/") else os.path.join(environ.get("XDG_RUNTIME_DIR", ""), name)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(2.0)
        try:
            sock.connect(path)
        except OSError:
            return False
    return True


# --- the decision --------------------------------------------------------------------


def _x11_problem(display: str, environ: Mapping[str, str]) -> str | None:
    if not x_display_reachable(display):
        return (
            f"gpudemo: cannot open the window: the X display {display!r} (DISPLAY) cannot be reached:"
            " no X server answers there, or it does not let this user in. Over SSH, connect with"
            " `ssh -X`; on a machine without a screen, unset DISPLAY.\n" + HEADLESS_HINT
        )
    plugin = platform_plugin("xcb", environ)
    missing = missing_libraries(plugin) if plugin is not None else []
    if missing:
        return missing_libraries_message(f"Qt's X11 platform plugin ({plugin.name})", missing)
    return None


def _wayland_problem(environ: Mapping[str, str]) -> str | None:
    plugin = platform_plugin("wayland", environ)
    if plugin is None:
        return "gpudemo: cannot open the window: this Qt has no Wayland platform plugin.\n" + HEADLESS_HINT
    missing = missing_libraries(plugin)
    if missing:
        return missing_libraries_message(f"Qt's Wayland platform plugin ({plugin.name})", missing)
    if not wayland_reachable(environ):
        return (
            f"gpudemo: cannot open the window: the Wayland display {environ['WAYLAND_DISPLAY']!r}"
            " (WAYLAND_DISPLAY) cannot be reached.\n" + HEADLESS_HINT
        )
    return None


def choose_platform(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Platform:
    """Check the display before Qt does; raises DisplayProblem where the window cannot open.

    Only on Linux, and only where the person has not chosen a platform (QT_QPA_PLATFORM).
    X11 first, as Qt does; where X11 cannot work and a Wayland display can, Wayland.
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux") or environ.get("QT_QPA_PLATFORM"):
        return Platform()
    x_display, wayland = environ.get("DISPLAY"), environ.get("WAYLAND_DISPLAY")
    if not x_display and not wayland:
        raise DisplayProblem(
            "gpudemo: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).\n" + HEADLESS_HINT
        )
    if not x_display:
        problem = _wayland_problem(environ)
        if problem is not None:
            raise DisplayProblem(problem)
        return Platform("wayland")
    problem = _x11_problem(x_display, environ)
    if problem is None:
        return Platform()
    if wayland and _wayland_problem(environ) is None:
        note = problem.replace("cannot open the window", "cannot use X11", 1)
        return Platform("wayland", note.replace(HEADLESS_HINT, "Opening the window on Wayland instead."))
    raise DisplayProblem(problem)
