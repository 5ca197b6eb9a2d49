"""The suite on a machine with torch but no Qt (a GPU server): the window's tests are left out,
the rest runs; and the CUDA leak check counts what a test left, not cuBLAS's workspace."""

import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.leaks import cuda_bytes_left, settled_cuda_bytes

ROOT = Path(__file__).resolve().parent.parent
QT_FREE = 'python -m pytest -m "not gui"'  # the command the README gives for such a machine


class FakeCuda:
    """torch.cuda's allocator counter, with a cuBLAS workspace that only the private call frees."""

    def __init__(self):
        self.tensors = 0
        self.workspace = 0
        self.cleared = 0

    def memory_allocated(self):
        return self.tensors + self.workspace

    def synchronize(self):
        pass

    def clear_workspaces(self):
        self.cleared += 1
        self.workspace = 0


def fake_torch(cuda, with_clear=True):
    c = SimpleNamespace(_cuda_clearCublasWorkspaces=cuda.clear_workspaces) if with_clear else SimpleNamespace()
    return SimpleNamespace(cuda=cuda, _C=c)


def test_a_cublas_workspace_made_during_a_test_is_not_a_leak():
    cuda = FakeCuda()
    torch = fake_torch(cuda)
    cuda.tensors = 1000  # a model another fixture holds: there before the test, there after
    baseline = settled_cuda_bytes(torch)
    cuda.workspace = 32 * 2**20  # the test's first matmul
    assert cuda_bytes_left(torch, baseline) == 0 and cuda.cleared == 2


def test_memory_a_test_keeps_is_a_leak_whatever_the_baseline():
    cuda = FakeCuda()
    torch = fake_torch(cuda)
    cuda.workspace = 32 * 2**20  # left by an earlier test's matmul
    baseline = settled_cuda_bytes(torch)
    cuda.workspace = 32 * 2**20
    cuda.tensors = 512
    assert cuda_bytes_left(torch, baseline) == 512


def test_without_the_private_call_the_check_still_counts_against_the_baseline():
    cuda = FakeCuda()
    torch = fake_torch(cuda, with_clear=False)
    cuda.workspace = 32 * 2**20
    baseline = settled_cuda_bytes(torch)
    assert cuda_bytes_left(torch, baseline) == 0
    cuda.tensors = 4
    assert cuda_bytes_left(torch, baseline) == 4


def _without_qt(tmp_path):
    """An environment in which PySide6, shiboken6, pyqtgraph and pytest-qt cannot be imported."""
    blocked = tmp_path / "blocked"
    for name in ("PySide6", "shiboken6", "pyqtgraph", "pytestqt"):
        (blocked / name).mkdir(parents=True)
        (blocked / name / "__init__.py").write_text(f"raise ImportError('{name} is not installed here')\n")
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(blocked), str(ROOT)]), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"
    )  # as if pytest-qt's entry point were not installed
    return env


def _pytest(env, *args):
    command = [sys.executable, *shlex.split(QT_FREE)[1:], "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_without_qt_the_suite_collects_without_the_window_tests(tmp_path):
    out = _pytest(_without_qt(tmp_path), "--collect-only", "-q", "tests")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    collected = [line for line in out.stdout.splitlines() if "::" in line]
    assert len(collected) > 150
    assert not [line for line in collected if line.startswith("tests/ui/")]
    assert not [line for line in collected if "settings]" in line and "kill_during_a_write" in line]


@pytest.mark.slow
def test_without_qt_core_cli_and_cuda_tests_pass(tmp_path):
    # The files whose tests touched Qt at run time before (the display check reads the installed
    # Qt's plugins), the command line, and the cuda tests of the training loop.
    out = _pytest(
        _without_qt(tmp_path),
        "-q",
        "tests/core/training/test_control.py",
        "tests/core/hardware/test_devices.py",
        "tests/core/training/test_training.py",
        "tests/cli/test_cli.py",
        "tests/test_display.py",
        "tests/test_layering.py",
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert " passed" in out.stdout and " failed" not in out.stdout and " error" not in out.stdout


def test_the_readme_gives_the_qt_free_command():
    assert f"    {QT_FREE}\n" in (ROOT / "README.md").read_text(encoding="utf-8")
