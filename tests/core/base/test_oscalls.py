"""The one seam of OS-specific calls (core/base/oscalls.py), and Windows' and macOS's rules emulated on Linux.

No Windows or macOS machine runs these tests: each `emulated_*` test makes Linux behave as the other system
does where it matters (a call refused, a call missing, a name compared otherwise) and checks what gpudemo
does then. A Windows or macOS run is still owed (README's "Where it has run").
"""

import errno
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpudemo.core.base import files, oscalls, power
from gpudemo.core.base.files import leftovers, same_file, write_atomically
from gpudemo.core.outputs import checkpoint
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train

ROOT = Path(__file__).resolve().parents[3]

# Calls whose behaviour differs by system: only core/base/oscalls.py makes them. display.py (Qt's X11 and
# Wayland libraries, the window's own seam), energy.py (RAPL's counters, a Linux feature by nature) and
# logfile.py (each system's folder for logs) are the other places that know which system runs.
OS_CALLS = re.compile(
    r"os\.killpg|os\.setsid|start_new_session|os\.kill\(|import fcntl|os\.pathconf|os\.getuid|/proc/|"
    r"resource\.getrusage|WinDLL|CREATE_NEW_PROCESS_GROUP|os\.fsync|os\.replace\("
)
# The seam; beside it, the lesson's notebook, which runs where gpudemo is not installed and so makes its own few
# calls (a platform branch beside each).
SEAMS = {
    "gpudemo/core/base/oscalls.py",
    "gpudemo/core/base/power.py",
    "gpudemo/resources/lesson/gpu_measurements.py",
    "gpudemo/display.py",
    "gpudemo/core/hardware/energy.py",
    "gpudemo/logfile.py",
}


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a module as code: its comments and docstrings left out (they may name the calls)."""
    import ast
    import io
    import tokenize

    source = path.read_text(encoding="utf-8")
    prose = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            prose.update(range(node.lineno, node.end_lineno + 1))
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            lines[row - 1] = lines[row - 1][:column]
    return [(number, line) for number, line in enumerate(lines, 1) if number not in prose]


def test_os_specific_calls_live_in_the_seam_only():
    found = []
    for path in sorted((ROOT / "gpudemo").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in SEAMS:
            found += [f"{name}:{number}: {line.strip()}" for number, line in _code_lines(path) if OS_CALLS.search(line)]
    assert found == []


def _read_only(descriptor: int) -> bool:
    import fcntl

    return fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY


@pytest.mark.linux
def test_emulated_windows_fsync_refuses_a_read_only_descriptor_and_every_save_still_works(tmp_path, monkeypatch):
    """Windows' FlushFileBuffers needs a writable handle: os.fsync of a read-only descriptor is EBADF there.
    Synced through one, `train --save` trained, then lost the model ("Bad file descriptor")."""
    real_fsync = os.fsync

    def windows_fsync(descriptor):
        if _read_only(descriptor):
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", windows_fsync)
    result = train(TrainingConfig(epochs=5))
    checkpoint.save(tmp_path / "m.pt", result.model, result.config, 5)
    write_atomically(tmp_path / "losses.csv", lambda out: out.write("epoch,loss\n"))
    assert checkpoint.load(tmp_path / "m.pt").epochs == 5 and (tmp_path / "losses.csv").read_text() == "epoch,loss\n"


def test_emulated_windows_ends_workers_without_killpg(monkeypatch):
    """Windows has no os.killpg: ending a data-parallel worker raised AttributeError and left it running."""
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.delattr(os, "killpg")
    monkeypatch.delattr(os, "setsid")
    for force in (False, True):
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            oscalls.end_worker(sleeper, force=force)
            assert sleeper.wait(timeout=10) != 0
        finally:
            sleeper.kill()
            sleeper.wait()
        oscalls.end_worker(sleeper, force=force)  # one that has ended: no error
    assert oscalls.worker_options() == {"creationflags": 0x200}  # CREATE_NEW_PROCESS_GROUP: no console Ctrl-C


def test_emulated_windows_liveness_never_sends_signal_0(tmp_path, monkeypatch):
    """On Windows signal 0 is CTRL_C_EVENT: os.kill(pid, 0) interrupts a console group instead of probing."""
    asked = []
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(oscalls, "_windows_process_alive", lambda pid: asked.append(pid) or False)

    def no_signals(pid, sig):
        raise AssertionError(f"os.kill({pid}, {sig}) on Windows")

    monkeypatch.setattr(os, "kill", no_signals)
    target = tmp_path / "m.pt"
    dead = tmp_path / f".m.pt{files.PARTIAL}424242-abcdefgh.pt"
    dead.write_bytes(b"a killed writer's")
    write_atomically(target, lambda out: out.write("new"))
    assert asked == [424242] and not dead.exists() and target.read_text() == "new"


def _held(times: list[int]):
    """os.replace as Windows does it while another program holds the target: PermissionError, WinError 32."""
    real = os.replace

    def replace(source, target):
        if times[0] > 0 and not str(target).count("(new"):
            times[0] -= 1
            error = PermissionError(errno.EACCES, "The process cannot access the file: it is in use")
            error.winerror = 32
            raise error
        real(source, target)

    return replace


def test_emulated_windows_a_target_held_open_for_a_moment_is_replaced_after_a_retry(tmp_path, monkeypatch):
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(oscalls, "REPLACE_WAIT_S", 0.001)
    monkeypatch.setattr(os, "replace", _held([3]))  # an antivirus scan, three tries long
    target = tmp_path / "losses.csv"
    target.write_text("old")
    assert write_atomically(target, lambda out: out.write("new")) is None
    assert target.read_text() == "new" and leftovers(target) == []


def test_emulated_windows_a_target_held_open_for_good_is_kept_and_the_new_content_goes_beside_it(tmp_path, monkeypatch):
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(oscalls, "REPLACE_WAIT_S", 0.001)
    monkeypatch.setattr(os, "replace", _held([10**6]))  # open in Excel
    target = tmp_path / "losses.csv"
    target.write_text("old")
    note = write_atomically(target, lambda out: out.write("new"))
    beside = tmp_path / "losses (new).csv"
    assert target.read_text() == "old" and beside.read_text() == "new" and leftovers(target) == []
    assert str(note) == (
        f"{target} is held open by another program (close it there), so it is as it was; the new content is in {beside}"
    )
    write_atomically(target, lambda out: out.write("newer"))
    assert (tmp_path / "losses (new 2).csv").read_text() == "newer"  # the first kept one is not written over


@pytest.mark.parametrize("system", ["WINDOWS", "MACOS"])
def test_emulated_case_insensitive_names_are_one_file_before_they_exist(tmp_path, monkeypatch, system):
    """NTFS and APFS (by default) ignore case and Unicode normalisation: --save M.pt --loss-csv m.pt is one file."""
    assert not same_file(tmp_path / "M.pt", tmp_path / "m.pt")  # ext4 here: two files
    monkeypatch.setattr(oscalls, system, True)
    assert same_file(tmp_path / "M.pt", tmp_path / "m.pt")
    assert same_file(tmp_path / "caf\u00e9.csv", tmp_path / "cafe\u0301.csv")  # é, and e + a combining accent
    assert not same_file(tmp_path / "a.pt", tmp_path / "b.pt")


def test_the_machines_memory_is_asked_of_the_system_on_every_platform(monkeypatch):
    """psutil answers on Linux, Windows and macOS; without it (a GPU server with torch alone), Linux's /proc."""
    found = oscalls.memory()
    assert found.total and found.available and 0 < found.available <= found.total
    assert oscalls.process_memory() > 0 and oscalls.machine_busy_seconds() > 0
    monkeypatch.setitem(sys.modules, "psutil", None)  # import psutil raises ImportError
    oscalls._this_process.cache_clear()  # the handle psutil made is kept: asked again, without psutil
    try:
        bare = oscalls.memory()
        assert bare.total and bare.available and oscalls.process_memory() > 0 and oscalls.machine_busy_seconds() > 0
        assert oscalls._this_process(os.getpid()) is None
    finally:
        oscalls._this_process.cache_clear()


def test_liveness_here_tells_a_running_process_from_an_ended_one():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    assert oscalls.process_alive(os.getpid())
    child.wait()
    deadline = time.monotonic() + 5
    while oscalls.process_alive(child.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not oscalls.process_alive(child.pid)


def test_emulated_no_nccl_the_workers_use_gloo_and_nccl_is_refused_in_one_line(monkeypatch):
    """Windows' and macOS's PyTorch have no NCCL: the window chose it for a CUDA device all the same."""
    import torch

    from gpudemo.core.distributed import launcher
    from tests.commands import gpudemo

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.distributed, "is_nccl_available", lambda: True)
    assert launcher.max_workers("nccl") == 2 and launcher.backend_for("cuda:0") == "nccl"  # Linux's CUDA build
    monkeypatch.setattr(torch.distributed, "is_nccl_available", lambda: False)  # Windows, macOS
    assert launcher.max_workers("nccl") == 0 and launcher.backend_for("cuda:0") == "gloo"
    assert launcher.backend_for("cpu") == "gloo"
    out = gpudemo("parallel", "--device", "cpu", "--backend", "nccl")
    assert (out.returncode, out.stderr) == (
        2,
        "gpudemo parallel: error: argument --backend: this PyTorch has no NCCL (Windows' and macOS's builds never"
        " do): use gloo\n",
    )


def test_emulated_no_cpp_compiler_the_compiled_step_is_refused_with_what_to_install(monkeypatch):
    """Most Windows PCs and Macs have no C++ compiler: torch.compile's inductor then failed in a traceback,
    and the second lesson chose the compiled step for the CPU all the same."""
    import shutil

    from gpudemo.core.settings.config import TrainingConfig
    from gpudemo.core.step import modes
    from tests.commands import gpudemo

    assert oscalls.cpp_compiler() is not None and modes.fastest_for("cpu") == modes.COMPILED  # g++ here
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    out = gpudemo("train", "--device", "cpu", "--step", "compiled")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr == (
        "gpudemo train: error: argument --step: the compiled step needs a C++ compiler for the CPU, and none was"
        " found here (on Windows, Visual Studio's Build Tools; on macOS, xcode-select --install; on Linux, g++):"
        " use eager\n"
    )
    assert modes.fastest_for("cpu") == modes.EAGER  # the lesson compares what can run here
    monkeypatch.setattr(oscalls, "has_module", lambda name: False)  # a CUDA build without Triton (Windows)
    with pytest.raises(modes.StepRefused, match="needs Triton for a CUDA GPU"):
        modes.refuse(TrainingConfig(device="cuda:0", step="compiled"))
    modes.refuse(TrainingConfig(device="cuda:0", step="compiled"), here=False)  # a script for another machine
    assert gpudemo("code", "--device", "cpu", "--step", "compiled").returncode == 0  # likewise


def test_emulated_windows_pytorchs_runtime_is_loaded_before_qt(monkeypatch):
    """torch >= 2.9 on Windows fails with WinError 1114 when Qt loaded an older msvcp140.dll first: its c10.dll
    is loaded before Qt (without importing torch, which stays after the first paint)."""
    import ctypes

    import gpudemo.cli.window as window

    loaded = []
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(ctypes, "WinDLL", lambda path: loaded.append(path), raising=False)
    monkeypatch.setattr(Path, "exists", lambda self: True)
    oscalls.preload_torch_libraries()
    assert len(loaded) == 1 and loaded[0].replace("\\\\", "/").endswith("torch/lib/c10.dll")
    source = Path(window.__file__).read_text(encoding="utf-8")
    assert source.index("oscalls.preload_torch_libraries()") < source.index("from gpudemo.ui")  # before any Qt
    monkeypatch.setattr(oscalls, "WINDOWS", False)
    oscalls.preload_torch_libraries()
    assert len(loaded) == 1  # nothing elsewhere


def test_a_cpu_only_pytorch_beside_an_nvidia_driver_says_the_command_that_brings_the_cuda_build(monkeypatch):
    import torch

    from gpudemo.core.hardware import devices

    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(oscalls, "nvidia_driver", lambda: True)  # Windows' pip: a CPU build beside the card
    _, note = devices._cuda_devices()
    assert str(note).endswith(
        "is a CPU-only build, and an NVIDIA driver is here. For the CUDA build: pip install --force-reinstall torch"
        " --index-url https://download.pytorch.org/whl/cu126"
    )
    monkeypatch.setattr(oscalls, "nvidia_driver", lambda: False)
    assert str(devices._cuda_devices()[1]).endswith("is a CPU-only build.")


def test_emulated_mps_a_run_is_checked_against_the_memory_metal_recommends(monkeypatch):
    import torch

    from gpudemo.core.hardware import devices

    monkeypatch.setattr(torch.mps, "recommended_max_memory", lambda: 8 * 2**30, raising=False)
    monkeypatch.setattr(torch.mps, "driver_allocated_memory", lambda: 2 * 2**30, raising=False)
    assert devices.free_bytes("mps") == 6 * 2**30  # was None: an MPS run was never checked beforehand


def test_emulated_windows_workers_ask_for_no_libuv(monkeypatch):
    assert oscalls.worker_env() == {}
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    assert oscalls.worker_env() == {"USE_LIBUV": "0"}  # torch 2.4-2.6 on Windows: every worker died without it


def test_emulated_mps_how_busy_the_apple_gpu_was_is_not_read_off_the_cpus_encoding():
    from gpudemo.core.lessons import guesses
    from gpudemo.core.measure.profile import StepProfile

    profile = StepProfile("mps", 50, 300.0, 900.0, 250.0, 20.0, ())  # ATen's self time: Metal's encoding, CPU side
    assert guesses.busy_percent(profile) is None
    assert guesses.busy_percent(StepProfile("cpu", 50, 300.0, 900.0, 250.0, 20.0, ())) == pytest.approx(250 / 9)


class _Recorder:
    """A foreign library's function: takes restype and argtypes as ctypes functions do, records its calls."""

    def __init__(self, calls: list, name: str, answer=None):
        self.calls, self.name, self.answer = calls, name, answer

    def __call__(self, *args):
        self.calls.append((self.name, args))
        return self.answer(*args) if callable(self.answer) else self.answer


class _Library:
    def __init__(self, calls: list, **answers):
        self._calls, self._answers = calls, answers

    def __getattr__(self, name):
        recorder = _Recorder(self._calls, name, self._answers.get(name))
        setattr(self, name, recorder)
        return recorder


def test_emulated_windows_a_job_turns_power_throttling_off_and_gives_it_back(monkeypatch):
    import ctypes

    calls = []
    kernel32 = _Library(calls, GetCurrentProcess=-1)
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(ctypes, "windll", type("WinDLLs", (), {"kernel32": kernel32}), raising=False)
    with power.unthrottled():
        during = list(calls)
    states = [ctypes.cast(args[2], ctypes.POINTER(ctypes.c_ulong * 3)).contents[:] for name, args in calls
              if name == "SetProcessInformation"]  # fmt: skip
    assert [name for name, _args in during] == ["GetCurrentProcess", "SetProcessInformation", "SetThreadExecutionState"]
    assert states == [[1, 1, 0], [1, 0, 0]]  # version 1: execution speed decided here, off; then the system's again
    assert [args[0] for name, args in calls if name == "SetThreadExecutionState"] == [0x80000001, 0x80000000]
    assert all(args[1] == 4 for name, args in calls if name == "SetProcessInformation")  # ProcessPowerThrottling


def names_of(calls, names) -> list[bytes]:
    """The selectors sent, in order."""
    by_number = {number: name for name, number in names.items()}
    return [by_number[args[1].value] for name, args in calls if name == "objc_msgSend"]


def test_emulated_macos_a_job_begins_an_activity_app_nap_respects_and_ends_it(monkeypatch):
    import ctypes

    calls = []
    names = {}

    def register(name):
        return names.setdefault(name, 1000 + len(names))

    def send(target, selector, *args):
        return {b"processInfo": 7, b"stringWithUTF8String:": 8, b"beginActivityWithOptions:reason:": 9}.get(
            next(name for name, number in names.items() if number == selector.value), 9
        )

    objc = _Library(calls, objc_getClass=lambda name: {b"NSProcessInfo": 1, b"NSString": 2}[name],
                    sel_registerName=register, objc_msgSend=send)  # fmt: skip
    loaded = []
    monkeypatch.setattr(oscalls, "MACOS", True)
    monkeypatch.setattr(ctypes.cdll, "LoadLibrary", lambda path: loaded.append(path) or objc)
    with power.unthrottled("gpudemo is training"):
        begun = [names_of(calls, names)]
    sent = names_of(calls, names)
    assert begun[0] == [b"processInfo", b"stringWithUTF8String:", b"beginActivityWithOptions:reason:", b"retain"]
    assert sent[4:] == [b"endActivity:", b"release"]
    begin = names[b"beginActivityWithOptions:reason:"]
    options = next(args[2] for name, args in calls if name == "objc_msgSend" and args[1].value == begin)
    assert options.value == 0x00FFFFFF | 0xFF00000000  # user initiated, latency critical
    assert loaded[0] == "/usr/lib/libobjc.A.dylib"


def test_emulated_a_system_that_refuses_the_activity_leaves_the_job_running(monkeypatch):
    import ctypes

    def refuse(*args):
        raise OSError(5, "Access is denied")

    monkeypatch.setattr(oscalls, "WINDOWS", True)
    kernel32 = _Library([], GetCurrentProcess=-1, SetProcessInformation=refuse)
    monkeypatch.setattr(ctypes, "windll", type("WinDLLs", (), {"kernel32": kernel32}), raising=False)
    ran = []
    with power.unthrottled():
        ran.append(True)
    assert ran == [True]
    monkeypatch.setattr(oscalls, "WINDOWS", False)  # Linux: nothing asked of anyone
    with power.unthrottled():
        ran.append(True)
    assert ran == [True, True]


def test_emulated_windows_each_worker_goes_in_one_job_that_ends_it_with_gpudemo(monkeypatch):
    import ctypes

    calls = []
    kernel32 = _Library(calls, CreateJobObjectW=77, SetInformationJobObject=1)
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(oscalls, "_job", None)
    monkeypatch.setattr(ctypes, "windll", type("WinDLLs", (), {"kernel32": kernel32}), raising=False)
    workers = [type("Popen", (), {"_handle": handle})() for handle in (501, 502)]
    for worker in workers:
        oscalls.tie_to_this_process(worker)
    assert [name for name, _args in calls] == [
        "CreateJobObjectW", "SetInformationJobObject", "AssignProcessToJobObject", "AssignProcessToJobObject"
    ]  # fmt: skip
    _name, (job, kind, limits, size) = calls[1]
    words = ctypes.cast(limits, ctypes.POINTER(ctypes.c_uint32 * 5)).contents  # two 64-bit limits, then the flags
    assert job == 77 and kind == 9 and size == (144 if ctypes.sizeof(ctypes.c_void_p) == 8 else 112)
    assert words[4] == 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    assert [args for name, args in calls[2:]] == [(77, 501), (77, 502)]


def test_emulated_windows_a_refused_job_leaves_the_worker_to_the_launcher(monkeypatch):
    import ctypes

    calls = []
    kernel32 = _Library(calls, CreateJobObjectW=77, SetInformationJobObject=0)  # refused: the job is closed
    monkeypatch.setattr(oscalls, "WINDOWS", True)
    monkeypatch.setattr(oscalls, "_job", None)
    monkeypatch.setattr(ctypes, "windll", type("WinDLLs", (), {"kernel32": kernel32}), raising=False)
    oscalls.tie_to_this_process(type("Popen", (), {"_handle": 501})())
    oscalls.tie_to_this_process(type("Popen", (), {"_handle": 502})())
    assert [name for name, _args in calls] == ["CreateJobObjectW", "SetInformationJobObject", "CloseHandle"]
    monkeypatch.setattr(oscalls, "WINDOWS", False)
    oscalls.tie_to_this_process(type("Popen", (), {"_handle": 503})())  # POSIX: the session does it
    assert len(calls) == 3
