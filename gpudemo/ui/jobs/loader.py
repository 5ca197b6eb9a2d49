"""PyTorch, loaded after the window's first paint: the window paints without it (its modules import no
torch at load), then this imports it, lists the devices and warms the optimizer on threads of its own.

- `torch_loaded`: torch is imported (seconds on a cold disk or a CUDA build).
- `listed(DeviceList)`: the devices are found. Finding a GPU asks its driver (`torch.cuda.is_available()`),
  which a broken driver can hang for minutes: the probe runs on a daemon thread of its own, so a probe
  that never answers holds neither this thread nor the process's exit. The window waits PROBE_TIMEOUT_MS,
  then lists the CPU with a note; an answer that comes later still lists the GPUs.
- `probe_failed(str)`: finding the devices raised (list_devices itself never does; a fake can): the CPU alone.
- `failed(str)`: torch could not be imported (a broken install); nothing can train.

Signals reach the window's slots on its GUI thread (queued: the window lives there, the threads do not).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from gpudemo.ui.base.qt_import import narrow_source_scan

PROBE_TIMEOUT_MS = 15_000  # the device probe's answer waited for, from torch loaded, before the CPU alone is listed


def _import_torch() -> None:
    narrow_source_scan()  # where the window was built without the command line (a test): torch's modules unread
    import torch  # noqa: F401  (the import is the work: a second or more)


def _list_devices():
    from gpudemo.core.hardware.devices import list_devices

    return list_devices()


def _warm_up() -> None:
    from gpudemo.core.training import warm_up

    warm_up()


class TorchLoader(QObject):
    torch_loaded = Signal()
    listed = Signal(object)  # DeviceList
    probe_failed = Signal(str)  # why the devices could not be found
    failed = Signal(str)  # why torch could not be imported

    def __init__(
        self,
        parent: QObject | None = None,
        load: Callable[[], None] | None = None,
        probe: Callable[[], object] | None = None,
        warm: Callable[[], None] | None = None,
    ):
        """The three steps: import torch, list the devices, warm the optimizer (a test hands fakes, or patches
        this module's functions: one that raises, one that hangs)."""
        super().__init__(parent)
        self._load, self._probe, self._warm = load or _import_torch, probe or _list_devices, warm or _warm_up
        self._thread: threading.Thread | None = None
        self._probed = threading.Event()  # the probe answered, or the window closes: no more waiting for it
        self._closing = False

    def start(self) -> None:
        if self._thread is not None:
            return
        # Not a daemon: the interpreter waits for it rather than dying under an import.
        self._thread = threading.Thread(target=self._run, name="gpudemo-load-torch")
        self._thread.start()

    def stop(self) -> None:
        """The window closes: no warm-up after the import (which cannot be interrupted), no wait for a probe
        that hangs, so the process exits as soon as the import is done."""
        self._closing = True
        self._probed.set()

    def is_started(self) -> bool:
        return self._thread is not None

    def wait(self, seconds: float | None = None) -> None:
        """Wait for the import and the warm-up (not for a probe that hangs)."""
        if self._thread is not None:
            self._thread.join(seconds)

    def _run(self) -> None:
        if self._closing:  # closed before the first paint's timer fired
            return
        try:
            self._load()
        except Exception as error:  # a broken install: the window says so and stays usable
            self._emit(self.failed, f"{type(error).__name__}: {error}")
            return
        self._emit(self.torch_loaded)
        threading.Thread(target=self._find, name="gpudemo-device-probe", daemon=True).start()
        self._probed.wait(PROBE_TIMEOUT_MS / 1000)  # the devices first: the warm-up's imports would slow them
        if self._closing:
            return
        try:
            self._warm()
        except Exception:  # a warm-up that fails only costs the first Start its import
            pass

    def _find(self) -> None:
        try:
            devices = self._probe()  # list_devices never raises: a failing driver is its note
        except Exception as error:
            self._emit(self.probe_failed, f"{type(error).__name__}: {error}")
            return
        finally:
            self._probed.set()
        self._emit(self.listed, devices)

    @staticmethod
    def _emit(signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the window closed before this thread had its say
            pass
