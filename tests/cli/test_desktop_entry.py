"""`gpudemo desktop-entry`: the menu entry and icon in the user's data folder, and exactly those removed."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpudemo.cli import desktop
from gpudemo.ui.base.resources import icon_path
from tests.commands import gpudemo


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop menu entries are made on Linux")
def test_install_writes_the_entry_and_icon_and_uninstall_removes_exactly_them(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    mine = tmp_path / "applications" / "other.desktop"  # someone else's entry, beside ours
    mine.parent.mkdir(parents=True)
    mine.write_text("[Desktop Entry]\n")
    out = gpudemo("desktop-entry", "install")
    assert out.returncode == 0, out.stderr
    entry = tmp_path / "applications" / "gpudemo.desktop"
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "gpudemo.svg"
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    command = Path(fields["Exec"].strip('"'))
    assert command.is_absolute() and command.name == "gpudemo" and os.access(command, os.X_OK)
    assert fields["Icon"] == "gpudemo" and icon.read_bytes() == icon_path().read_bytes()
    assert fields["Categories"] == "Education;ComputerScience;" and fields["Name"] == "gpudemo"
    assert "Comment[zh_CN]" in fields and fields["Comment"].startswith("Watch PyTorch train")
    if shutil.which("desktop-file-validate"):
        assert subprocess.run(["desktop-file-validate", str(entry)], capture_output=True).returncode == 0
    assert gpudemo("desktop-entry", "uninstall").returncode == 0
    assert not entry.exists() and not icon.exists() and mine.read_text() == "[Desktop Entry]\n"
    again = gpudemo("desktop-entry", "uninstall")
    assert again.returncode == 0 and "no menu entry was installed" in again.stdout


def test_elsewhere_it_says_it_does_nothing_yet_and_exits_1(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(desktop.sys, "platform", "darwin")
    out = gpudemo("desktop-entry", "install")
    assert out.returncode == 1 and "on darwin it does nothing yet" in out.stderr and not any(tmp_path.iterdir())


def test_the_version_lives_in_one_place():
    import importlib.metadata

    import gpudemo as package

    out = gpudemo("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"gpudemo {package.__version__}"
    assert importlib.metadata.version("gpudemo") == package.__version__  # pyproject reads it from there


LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop menu entries are made on Linux")


@LINUX
def test_a_path_with_a_space_or_a_percent_is_quoted_as_the_spec_asks(tmp_path, monkeypatch):
    assert desktop.exec_argument(Path("/opt/gpudemo/bin/gpudemo")) == "/opt/gpudemo/bin/gpudemo"
    assert desktop.exec_argument(Path("/home/a/My Apps/bin/gpudemo")) == '"/home/a/My Apps/bin/gpudemo"'
    assert desktop.exec_argument(Path("/home/a/100%/gpudemo")) == "/home/a/100%%/gpudemo"
    assert desktop.exec_argument(Path('/x/a"b$c/gpudemo')) == '"/x/a\\\\"b\\\\$c/gpudemo"'
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(desktop, "installed_command", lambda: Path("/home/a/My Apps/bin/gpudemo"))
    out = gpudemo("desktop-entry", "install")
    entry = tmp_path / "applications" / "gpudemo.desktop"
    assert 'Exec="/home/a/My Apps/bin/gpudemo"' in entry.read_text(), out.stderr
    if shutil.which("desktop-file-validate"):
        assert out.returncode == 0, out.stderr


@LINUX
def test_a_relative_data_home_is_ignored_and_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for relative in ("rel/xdg", "~/share"):
        monkeypatch.setenv("XDG_DATA_HOME", relative)
        out = gpudemo("desktop-entry", "install")
        assert out.returncode == 0 and "is not an absolute path, so it is ignored" in out.stderr, out.stderr
        assert (tmp_path / "home" / ".local" / "share" / "applications" / "gpudemo.desktop").exists()
        assert not (tmp_path / "rel").exists() and not (tmp_path / "~").exists()


@LINUX
def test_uninstall_keeps_an_entry_it_did_not_write_and_says_why_it_cannot_remove(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    entry = tmp_path / "applications" / "gpudemo.desktop"
    entry.parent.mkdir(parents=True)
    own = "[Desktop Entry]\nName=My own gpudemo launcher\nExec=/opt/custom/gpudemo --flag\n"
    entry.write_text(own)
    out = gpudemo("desktop-entry", "uninstall")
    assert out.returncode == 1 and "was not written by gpudemo desktop-entry" in out.stderr
    assert entry.read_text() == own
    entry.unlink()
    entry.mkdir()
    out = gpudemo("desktop-entry", "uninstall")
    assert out.returncode == 1 and "is a folder, not a menu entry" in out.stderr and "Traceback" not in out.stderr
    entry.rmdir()
    assert gpudemo("desktop-entry", "install").returncode == 0
    monkeypatch.setattr(desktop.Path, "unlink", _permission_denied)
    out = gpudemo("desktop-entry", "uninstall")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert f"cannot remove the menu entry: {entry}: Permission denied" in out.stderr


def _permission_denied(path, missing_ok=False):
    raise PermissionError(13, "Permission denied", str(path))


@LINUX
def test_a_failed_install_names_the_path_and_leaves_no_icon_without_its_entry(tmp_path, monkeypatch):
    dangling = tmp_path / "dangling"
    (dangling / "applications").parent.mkdir()
    (dangling / "applications").symlink_to(tmp_path / "nowhere")
    monkeypatch.setenv("XDG_DATA_HOME", str(dangling))
    out = gpudemo("desktop-entry", "install")
    assert out.returncode == 1 and "which does not exist" in out.stderr and str(dangling / "applications") in out.stderr
    file = tmp_path / "a-file"
    file.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(file))
    out = gpudemo("desktop-entry", "install")
    assert out.returncode == 1 and str(file) in out.stderr and "Traceback" not in out.stderr
    home = tmp_path / "half"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    real_write = desktop.write_atomically

    def entry_fails(path, write, binary=False):
        if str(path).endswith(".desktop"):
            raise OSError(28, "No space left on device", str(path))
        real_write(path, write, binary)

    monkeypatch.setattr(desktop, "write_atomically", entry_fails)
    out = gpudemo("desktop-entry", "install")
    assert out.returncode == 1 and "No space left on device" in out.stderr
    assert not (home / desktop.ICON).exists()
