"""torch.compile's caches in the user's cache folder (core/step/compile_cache.py), kept across a reboot that
empties the temporary folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpudemo.core.base import oscalls
from gpudemo.core.step import compile_cache


def test_torchs_caches_go_to_the_users_cache_folder_unless_the_person_chose_one(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    environ = {"TRITON_CACHE_DIR": "/mine/triton"}
    chosen = compile_cache.keep_in_user_cache(environ)
    assert chosen == {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "gpudemo" / "torch-compile" / "inductor")}
    assert environ["TRITON_CACHE_DIR"] == "/mine/triton"  # the person's own, kept


@pytest.mark.parametrize("system", ["win32", "darwin"])
def test_emulated_windows_and_macos_the_cache_folder_is_the_systems(monkeypatch, tmp_path, system):
    monkeypatch.setattr(oscalls, "WINDOWS", system == "win32")
    monkeypatch.setattr(oscalls, "MACOS", system == "darwin")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.setattr(Path, "home", lambda: tmp_path / "home")
    expected = {"win32": tmp_path / "Local", "darwin": tmp_path / "home" / "Library" / "Caches"}[system]
    assert compile_cache.folder() == expected / "gpudemo" / "torch-compile"


def test_its_size_is_counted_and_clearing_frees_it(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    graphs = compile_cache.folder() / "inductor" / "fxgraph"
    graphs.mkdir(parents=True)
    (graphs / "a").write_bytes(b"x" * 1000)
    (graphs / "b").write_bytes(b"y" * 24)
    assert compile_cache.size() == 1024
    assert compile_cache.clear() == 1024 and compile_cache.size() == 0 and not compile_cache.folder().exists()
    assert compile_cache.clear() == 0  # nothing there: nothing to do


@pytest.mark.slow
def test_a_compiled_run_leaves_its_graphs_in_the_cache_folder_and_nothing_in_the_temporary_one(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "TMPDIR": str(temporary)}
    for variable in compile_cache.VARIABLES:
        env.pop(variable, None)
    command = [sys.executable, "-m", "gpudemo", "train", "--device", "cpu", "--step", "compiled", "--epochs", "3"]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["status"] == "completed"
    inductor = tmp_path / "cache" / "gpudemo" / "torch-compile" / "inductor"
    assert any((inductor / "fxgraph").rglob("*")), sorted(p.name for p in inductor.iterdir())
    assert not list(temporary.glob("torchinductor_*"))  # what a reboot empties holds none of it
    from torch._inductor import codecache

    if hasattr(codecache, "_HEADER_DIR"):  # inductor's precompiled header, moved beside the rest
        assert any((inductor.parent / "precompiled_headers").glob("*.h"))
