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
    command = Path(fields["Exec"])
    assert command.is_absolute() and command.name == "gpudemo" and os.access(command, os.X_OK)
    assert fields["Icon"] == "gpudemo" and icon.read_bytes() == icon_path().read_bytes()
    assert fields["Categories"] == "Education;Science;" and fields["Name"] == "gpudemo"
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
