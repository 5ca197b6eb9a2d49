"""The check before Qt opens a window on Linux: a clear word instead of Qt's abort.

The subprocess tests go through the real `main()`; where they need a state this
machine does not have (an X server that answers), the driver says so by replacing
one function of gpudemo.display, and everything after it runs for real.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpudemo import display
from gpudemo.display import DisplayProblem, Platform, choose_platform

ROOT = Path(__file__).resolve().parent.parent
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check runs on Linux only")
QT_ABORT_WORDS = ("Could not load the Qt platform plugin", "core dumped", "Aborted", "Traceback")


def run_main(environ: dict, before_main: str = "") -> subprocess.CompletedProcess:
    """`gpudemo` with no argument (the window), in a child whose environment is exactly `environ`."""
    code = textwrap.dedent(before_main) + "\nimport sys\nfrom gpudemo.cli import main\nsys.exit(main([]))\n"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"],
        **environ,
    }
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)


def assert_clear_failure(out: subprocess.CompletedProcess) -> None:
    assert out.returncode == 1, (out.returncode, out.stderr)
    for words in QT_ABORT_WORDS:
        assert words not in out.stderr, out.stderr
    assert "`gpudemo train`" in out.stderr and out.stdout == ""


# --- through main(), in a subprocess --------------------------------------------------


@linux_only
def test_a_display_that_cannot_be_reached_is_named():
    if Path("/tmp/.X11-unix/X123").exists():
        pytest.skip("an X server listens at :123 here")
    out = run_main({"DISPLAY": ":123"})
    assert_clear_failure(out)
    assert "':123'" in out.stderr and "cannot be reached" in out.stderr and "ssh -X" in out.stderr


@linux_only
@pytest.mark.gui  # starts the window's path in a child: it imports Qt
def test_missing_x11_libraries_are_named_with_the_commands_that_install_them():
    # The loader's answer is simulated: these two are what a fresh Debian lacks first.
    out = run_main(
        {"DISPLAY": ":0"},
        """
        from gpudemo import display
        display.x_display_reachable = lambda name, timeout=0: True
        display.missing_libraries = lambda plugin: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"]
    """,
    )
    assert_clear_failure(out)
    assert "X11 platform plugin (libqxcb.so)" in out.stderr
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4" in out.stderr
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4" in out.stderr
    assert "sudo dnf install xcb-util-cursor xcb-util-wm" in out.stderr


@linux_only
@pytest.mark.skipif(shutil.which("cc") is None or shutil.which("ldd") is None, reason="needs a C compiler and ldd")
def test_a_real_plugin_whose_library_is_missing_is_caught_before_qt_loads_it(tmp_path):
    # A stand-in libqxcb.so linked against a library that is then deleted: the real
    # loader, through ldd, finds it missing. Qt looks in QT_QPA_PLATFORM_PLUGIN_PATH
    # first, and so does the check.
    source = tmp_path / "empty.c"
    source.write_text("int gpudemo_stand_in(void) { return 0; }\n")
    absent = tmp_path / "libgpudemo-absent.so.0"
    subprocess.run(["cc", "-shared", "-fPIC", "-Wl,-soname,libgpudemo-absent.so.0", "-o", absent, source], check=True)
    plugins = tmp_path / "platforms"
    plugins.mkdir()
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-o", plugins / "libqxcb.so", source, "-Wl,--no-as-needed", absent], check=True
    )
    absent.unlink()
    assert display.missing_libraries(plugins / "libqxcb.so") == ["libgpudemo-absent.so.0"]

    out = run_main(
        {"DISPLAY": ":0", "QT_QPA_PLATFORM_PLUGIN_PATH": str(plugins)},
        """
        from gpudemo import display
        display.x_display_reachable = lambda name, timeout=0: True
    """,
    )
    assert_clear_failure(out)
    assert "libgpudemo-absent.so.0" in out.stderr and "dnf provides" in out.stderr


@linux_only
@pytest.mark.gui  # starts the window's path in a child: it imports Qt
def test_a_qt_module_that_cannot_load_its_libraries_is_named():
    # Qt's GUI libraries need libEGL and friends; without them, loading a GUI module fails
    # in the dynamic loader. Here the import fails with the loader's words.
    out = run_main(
        {"QT_QPA_PLATFORM": "offscreen"},
        """
        import importlib.abc, sys

        class Missing(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name in ("PySide6.QtGui", "PySide6.QtWidgets"):
                    raise ImportError("libEGL.so.1: cannot open shared object file: No such file or directory",
                                      name=name)

        sys.meta_path.insert(0, Missing())
    """,
    )
    assert_clear_failure(out)
    assert "libEGL.so.1" in out.stderr and "sudo apt install libegl1" in out.stderr


# --- the decision, in-process (no Qt) -------------------------------------------------


def test_elsewhere_and_with_a_chosen_platform_nothing_is_checked(monkeypatch):
    monkeypatch.setattr(display, "x_display_reachable", lambda *a, **k: pytest.fail("checked"))
    assert choose_platform({"DISPLAY": ":0"}, platform="darwin") == Platform()
    assert choose_platform({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, platform="linux") == Platform()


def test_no_display_at_all():
    with pytest.raises(DisplayProblem, match="no display"):
        choose_platform({}, platform="linux")


def test_a_working_x11_leaves_the_choice_to_qt(monkeypatch):
    monkeypatch.setattr(display, "x_display_reachable", lambda *a, **k: True)
    monkeypatch.setattr(display, "missing_libraries", lambda plugin: [])
    assert choose_platform({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, platform="linux") == Platform()


@pytest.mark.gui  # looks for the Wayland plugin in the installed Qt
def test_broken_x11_falls_back_to_a_working_wayland(monkeypatch):
    monkeypatch.setattr(display, "x_display_reachable", lambda *a, **k: True)
    monkeypatch.setattr(
        display, "missing_libraries", lambda plugin: ["libxcb-cursor.so.0"] if "xcb" in plugin.name else []
    )
    monkeypatch.setattr(display, "wayland_reachable", lambda environ: True)
    chosen = choose_platform({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, platform="linux")
    assert chosen.name == "wayland"
    assert "libxcb-cursor.so.0" in chosen.note and "Wayland instead" in chosen.note
    assert "sudo apt install libxcb-cursor0" in chosen.note


def test_unreachable_x11_and_unusable_wayland_is_a_problem(monkeypatch):
    monkeypatch.setattr(display, "x_display_reachable", lambda *a, **k: False)
    monkeypatch.setattr(display, "missing_libraries", lambda plugin: ["libwayland-cursor.so.0"])
    with pytest.raises(DisplayProblem, match="cannot be reached"):
        choose_platform({"DISPLAY": "localhost:10.0", "WAYLAND_DISPLAY": "wayland-0"}, platform="linux")


@pytest.mark.gui  # looks for the Wayland plugin in the installed Qt
def test_only_wayland_is_chosen_explicitly_and_checked(monkeypatch, tmp_path):
    monkeypatch.setattr(display, "missing_libraries", lambda plugin: [])
    environ = {"WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": str(tmp_path)}
    with pytest.raises(DisplayProblem, match="'wayland-7'.*cannot be reached"):
        choose_platform(environ, platform="linux")
    monkeypatch.setattr(display, "wayland_reachable", lambda environ: True)
    assert choose_platform(environ, platform="linux") == Platform("wayland")


def test_a_display_nobody_listens_on_is_unreachable_quickly():
    assert display.x_display_reachable("localhost:59", timeout=5) is False  # TCP 6059: nothing there
    assert display._x_socket_answers("not a display", 1) is False


def test_install_lines_name_each_package_once_and_the_unknown():
    lines = display.install_lines(["libxcb-xkb.so.1", "libxcb-randr.so.0", "libmystery.so.2"])
    assert lines[0].split() == ["Debian/Ubuntu:", "sudo", "apt", "install", "libxcb-xkb1", "libxcb-randr0"]
    assert lines[1].split() == ["Fedora:", "sudo", "dnf", "install", "libxcb"]
    assert "libmystery.so.2" in lines[2]


@pytest.mark.parametrize("path", ["README.md", "tools/screenshot.py"])
def test_the_readme_and_the_screenshot_tool_name_the_desktop_packages(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    for line in display.desktop_install_lines():
        packages = line.split(" install ", 1)[1].strip()
        assert packages in text, f"{path} lacks: {packages}"
