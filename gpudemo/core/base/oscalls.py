"""Every call whose behaviour differs by operating system, in one place: Linux, Windows and macOS.

The rest of the package asks here and never tests the platform itself (tests/core/base/test_oscalls.py keeps
the calls below out of every other module). What each one does, and why it is not the obvious call:

- `sync(path)`: a closed file's bytes flushed to the disk, through a descriptor open for writing:
  Windows' FlushFileBuffers (behind os.fsync) refuses a read-only handle with EBADF, and every save
  failed after training.
- `replace(source, target)`: os.replace, retried briefly on Windows, where a file another program holds
  open (Excel, OneDrive, an antivirus scan) cannot be replaced for a moment (WinError 5 or 32).
- `process_alive(pid)`: whether a process runs. `os.kill(pid, 0)` is that test on POSIX only: on Windows
  signal 0 is CTRL_C_EVENT, sent to the pid's console group.
- `worker_options()`, `tie_to_this_process(process)` and `end_worker(process, force)`: a worker process of
  its own group, out of reach of the terminal's Ctrl-C (a new session on POSIX, a new process group on
  Windows), on Windows in a Job Object that ends it when gpudemo ends, however it ends (Task Manager, a
  crash), and ended with it (killpg on POSIX, where the worker's own children go too; terminate and kill
  on Windows, which has no killpg).
- `same_path_text(path)`: a path as the file system compares names: NTFS and APFS (by default) ignore
  case and Unicode normalisation, ext4 does neither.
- `umask()`, `open_for_writing(descriptor)`, `name_max(folder)`: what POSIX says through /proc, fcntl
  and pathconf, with the answer other systems need.
- `memory()` and `process_memory()`: the machine's total and available memory and this process's, from
  psutil where it is installed (every platform), else from Linux's /proc.
- `user_cache_dir()`: where this user's caches are kept across reboots: XDG_CACHE_HOME (~/.cache) on
  Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows (not the temporary folder, which many
  systems empty at boot).
The system's power management (a job not slowed by App Nap or power throttling) is beside, in power.py, on the
same switches (WINDOWS, MACOS).
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

WINDOWS = sys.platform == "win32"
MACOS = sys.platform == "darwin"
# A worker thread's stack: a main thread's on Linux and macOS (a secondary thread gets 512 KiB on macOS and
# 1 MiB on Windows by default, and torch.compile's tracing recurses deep).
THREAD_STACK_BYTES = 8 << 20
REPLACE_TRIES = 10  # Windows: a held file is tried again this many times, REPLACE_WAIT_S apart at first
REPLACE_WAIT_S = 0.05
_SHARING_ERRORS = {5, 32, 33}  # access denied, sharing violation, lock violation (Windows error codes)


def sync(path: str | os.PathLike) -> None:
    """Flush a closed file's bytes to the disk, through a descriptor open for writing."""
    descriptor = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def replace(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """os.replace; on Windows, a target held open by another program is tried again for about 2.5 s."""
    for attempt in range(REPLACE_TRIES if WINDOWS else 1):
        try:
            os.replace(source, target)
            return
        except PermissionError as error:
            if not WINDOWS or getattr(error, "winerror", None) not in _SHARING_ERRORS or attempt == REPLACE_TRIES - 1:
                raise
            time.sleep(REPLACE_WAIT_S * (attempt + 1))


def held_open(error: OSError) -> bool:
    """Whether a failed replace was another program holding the target open (Windows)."""
    return isinstance(error, PermissionError) and getattr(error, "winerror", None) in _SHARING_ERRORS


def process_alive(pid: int) -> bool:
    """Whether process `pid` is running (another user's counts)."""
    if WINDOWS:
        return _windows_process_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, another user's
        return True
    return True


def _windows_process_alive(pid: int) -> bool:
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return ctypes.get_last_error() == 5  # access denied: it exists, another user's
    try:
        code = ctypes.c_ulong()
        return bool(kernel32.GetExitCodeProcess(handle, ctypes.byref(code))) and code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def worker_options() -> dict:
    """Popen's options for a worker that the terminal's Ctrl-C must not reach (the launcher stops it)."""
    if WINDOWS:
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    return {"start_new_session": True}


_JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9
_JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
_job = None  # Windows: the Job Object every worker is put in, its handle closed (and they ended) with this process


def tie_to_this_process(process: subprocess.Popen) -> None:
    """On Windows, put a started worker in a Job Object that kills it when this process's last handle to the
    job closes, which the system does when this process ends in any way. POSIX has no such call: there the
    launcher ends its workers' session. Where the job cannot be had (a system that refuses nested jobs), the
    worker runs as it would have, ended by the launcher."""
    global _job
    if not WINDOWS:
        return
    try:
        if _job is None:
            _job = _kill_on_close_job()
        if _job:
            import ctypes

            ctypes.windll.kernel32.AssignProcessToJobObject(_job, int(process._handle))
    except (OSError, AttributeError, TypeError, ValueError):
        pass


def _kill_on_close_job():
    """CreateJobObjectW with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (JOBOBJECT_EXTENDED_LIMIT_INFORMATION)."""
    import ctypes

    class Basic(ctypes.Structure):  # JOBOBJECT_BASIC_LIMIT_INFORMATION
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", ctypes.c_uint32), ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", ctypes.c_uint32),
            ("Affinity", ctypes.c_size_t), ("PriorityClass", ctypes.c_uint32), ("SchedulingClass", ctypes.c_uint32),
        ]  # fmt: skip

    class Counters(ctypes.Structure):  # IO_COUNTERS
        _fields_ = [(name, ctypes.c_uint64) for name in ("Reads", "Writes", "Others", "ReadBytes", "WriteBytes",
                                                         "OtherBytes")]  # fmt: skip

    class Extended(ctypes.Structure):  # JOBOBJECT_EXTENDED_LIMIT_INFORMATION
        _fields_ = [
            ("Basic", Basic), ("Io", Counters), ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t), ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]  # fmt: skip

    kernel32 = ctypes.windll.kernel32
    job = kernel32.CreateJobObjectW(None, None)
    if not job:
        return 0
    limits = Extended()
    limits.Basic.LimitFlags = _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    size = ctypes.sizeof(limits)
    if not kernel32.SetInformationJobObject(job, _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), size):
        kernel32.CloseHandle(job)
        return 0
    return job


def worker_env() -> dict[str, str]:
    """What a data-parallel worker's environment needs on this system: on Windows, USE_LIBUV=0 (its PyTorch has
    no libuv, which torch 2.4-2.6's TCPStore asked for by default: every worker died, pytorch#139990)."""
    return {"USE_LIBUV": "0"} if WINDOWS else {}


def end_worker(process: subprocess.Popen, force: bool = False) -> None:
    """Ask a worker started with `worker_options()` to end (SIGTERM), or make it (`force`: SIGKILL); one that
    has ended meanwhile is no error."""
    try:
        if hasattr(os, "killpg") and not WINDOWS:
            os.killpg(process.pid, signal.SIGKILL if force else signal.SIGTERM)  # its own children too
        elif force:
            process.kill()
        else:
            process.terminate()
    except (ProcessLookupError, PermissionError):
        pass


def same_path_text(path: str | os.PathLike) -> str:
    """A path as this platform's usual file system compares names: Windows' and macOS's ignore case and
    Unicode normalisation (café typed as e + combining accent names the same file as é)."""
    text = os.path.abspath(path)
    if WINDOWS or MACOS:
        return unicodedata.normalize("NFC", os.path.normcase(text)).casefold()
    return text


def umask() -> int:
    """This process's umask, read without changing it where the system says (Linux 4.7+)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: the only way to read it is to set it, then put it back at once
    os.umask(mask)
    return mask


def open_for_writing(descriptor: int) -> bool:
    """Whether an open descriptor may be written to (POSIX's fcntl; on Windows, assumed so)."""
    try:
        import fcntl
    except ImportError:
        return True
    return fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)


def name_max(folder: Path) -> int:
    """The longest file name `folder` takes, in bytes (255 where the system does not say: NTFS, APFS)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def cpp_compiler() -> str | None:
    """The C++ compiler torch.compile's inductor would build a CPU step with, where one is found: $CXX, else
    MSVC's cl on Windows, else g++, clang++ or c++ (most Windows PCs and Macs have none until Visual
    Studio's Build Tools, or Xcode's command line tools, are installed)."""
    import shutil

    named = os.environ.get("CXX")
    if named:
        return shutil.which(named)
    for name in ("cl",) if WINDOWS else ("g++", "clang++", "c++"):
        found = shutil.which(name)
        if found:
            return found
    return None


def nvidia_driver() -> bool:
    """Whether an NVIDIA driver is installed: its nvidia-smi is on the PATH (Windows, Linux)."""
    import shutil

    return shutil.which("nvidia-smi") is not None


def preload_torch_libraries() -> None:
    """Windows: load PyTorch's c10.dll before Qt, without importing torch. torch 2.9 and later is built with an
    MSVC runtime whose std::mutex needs msvcp140.dll 14.40 or newer; the first msvcp140.dll loaded stays, and
    a Qt that loaded an older one first makes c10.dll fail with WinError 1114 (pytorch#166628). Loaded first,
    the system's own runtime wins. Nothing elsewhere, and nothing where torch is not installed."""
    if not WINDOWS:
        return
    import ctypes
    import importlib.util

    try:
        found = importlib.util.find_spec("torch")
        if found is None or not found.submodule_search_locations:
            return
        library = Path(next(iter(found.submodule_search_locations))) / "lib" / "c10.dll"
        if library.exists():
            ctypes.WinDLL(str(library))
    except (OSError, ImportError, ValueError):
        pass  # it fails again, with its reason, when torch is imported: the window says what fixes it


def has_module(name: str) -> bool:
    """Whether `name` can be imported (found, not imported: Triton is heavy)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def cpu_name() -> str:
    """The processor's name as its maker gives it: /proc/cpuinfo on Linux, sysctl on macOS, the registry's
    through platform on Windows."""
    import platform

    try:
        if sys.platform.startswith("linux"):
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    key, _, value = line.partition(":")
                    if key.strip() in ("model name", "Hardware", "Processor") and value.strip():
                        return value.strip()
        elif MACOS:
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=2
            )
            if out.returncode == 0 and out.stdout.strip():
                return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return platform.processor() or platform.machine() or "CPU"


def machine_busy_seconds() -> float | None:
    """CPU seconds all processes have used since boot (every core, idle and I/O wait left out), or None where
    unknown: psutil's CPU times where installed, else Linux's /proc/stat."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        times = psutil.cpu_times()
        return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Memory:
    total: int | None  # bytes
    available: int | None  # bytes a new allocation can take without swapping


def memory() -> Memory:
    """The machine's memory: psutil's where installed, else /proc/meminfo (Linux), else unknown."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        found = psutil.virtual_memory()
        return Memory(int(found.total), int(found.available))
    total = None
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pass
    fields = {}
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                name, _, rest = line.partition(":")
                if rest.split():
                    fields[name] = int(rest.split()[0]) * 1024
    except (OSError, ValueError):
        return Memory(total, None)
    return Memory(fields.get("MemTotal", total), fields.get("MemAvailable"))


@functools.cache
def _this_process(pid: int):
    """psutil's handle on process `pid` (this one: a child forked has its own), made once (making it reads
    /proc/PID/stat: a millisecond the window's memory line paid twice a second), or None without psutil."""
    try:
        import psutil
    except ImportError:
        return None
    return psutil.Process(pid)


def process_memory() -> int | None:
    """This process's resident memory in bytes: psutil's where installed, else /proc/self/statm."""
    this = _this_process(os.getpid())
    if this is not None:
        return int(this.memory_info().rss)
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def peak_process_memory() -> int | None:
    """This process's peak resident memory in bytes (ru_maxrss: bytes on macOS, KiB on Linux), where known."""
    try:
        import resource
    except ImportError:  # Windows
        try:
            import psutil

            return int(getattr(psutil.Process().memory_info(), "peak_wset", 0)) or None
        except ImportError:
            return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if MACOS else peak * 1024


def user_cache_dir() -> Path:
    """This user's cache folder on this system (see the module's notes)."""
    home = Path.home()
    if WINDOWS:
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    if MACOS:
        return home / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
