"""dev.py, the README's two commands: the Python checked before anything is made, and PyTorch's build chosen
where pip alone would take the wrong one (Windows beside an NVIDIA card). Emulated: no Windows or Mac here."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dev)


def test_a_python_that_cannot_run_gpudemo_is_said_in_one_sentence_with_what_to_do():
    assert dev.python_problem((3, 11, 7), 64, "linux", "x86_64") is None
    assert dev.python_problem((3, 12, 1), 64, "darwin", "arm64") is None
    assert dev.python_problem((3, 9, 18), 64, "linux", "x86_64") == (
        "gpudemo needs Python 3.10 or newer; this is 3.9: install a newer one"
    )
    assert "no 32-bit builds" in dev.python_problem((3, 12, 0), 32, "win32", "x86")
    assert "Intel Macs" in dev.python_problem((3, 12, 0), 64, "darwin", "x86_64")  # or arm64 Python under Rosetta


def test_emulated_windows_beside_an_nvidia_driver_installs_pytorchs_cuda_build_first():
    assert dev.torch_first("win32", driver=True) == ["torch", "--index-url", "https://download.pytorch.org/whl/cu126"]
    assert dev.torch_first("win32", driver=False) is None  # no card: PyPI's CPU build is right
    assert dev.torch_first("linux", driver=True) is None  # PyPI's Linux x86_64 wheel is a CUDA build already
    assert dev.torch_first("darwin", driver=False) is None  # MPS is in the macOS wheel
