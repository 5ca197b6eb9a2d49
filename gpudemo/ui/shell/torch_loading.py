"""The window while PyTorch loads: it paints first, then the loader (ui/jobs/loader.py) imports torch and
finds the devices; this says what the window shows meanwhile and lists them when they come.

- Loading: the CPU listed with the note that PyTorch is loading, the Code panel's placeholder, the status
  line's; Start is taken (run_commands queues it), what else needs torch is greyed (actions.State.loading).
- Listed: the devices (the first accelerator picked), every command enabled, then the script, then a Start
  pressed before. A probe that does not answer in PROBE_TIMEOUT_MS, or that raises: the CPU with the reason;
  the GPUs if it answers later (during a job: when it ends).
- Torch that cannot be imported: the reason in the device note, the Code panel and the status line.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Slot

from gpudemo.core.hardware.machine import DeviceList, cpu_device
from gpudemo.ui.jobs import loader
from gpudemo.ui.jobs.loader import TorchLoader

UNPAINTED_LOAD_MS = 1000  # PyTorch starts loading this long after the window is shown if no paint came first


class TorchLoading(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.loader = TorchLoader(self)
        self.loader.torch_loaded.connect(self._on_torch_loaded)
        self.loader.listed.connect(self._on_listed)
        self.loader.probe_failed.connect(self._on_probe_failed)
        self.loader.failed.connect(self._on_failed)
        self._probe_wait = QTimer(self, singleShot=True, interval=loader.PROBE_TIMEOUT_MS)
        self._probe_wait.timeout.connect(self._on_probe_silent)
        self._posted = False
        self._late: DeviceList | None = None  # listed while a job went: shown when it ends
        window.runFinished.connect(self._list_late)

    def begin(self) -> None:
        """What the window shows until PyTorch is there."""
        w = self.window
        w.devicePanel.set_devices(w.devices, note=self.tr("PyTorch is loading: the GPUs are listed when it has…"))
        w.codePanel.say(self.tr("# The script appears here once PyTorch has loaded…"))
        if w.statusLabel.text() == w.runStatus.ready():  # not over a note of the settings restored
            w.runStatus.say(w.runStatus.loading())

    def painted(self) -> None:
        """The window's first paint is done (or about to be): the import may take the GIL now."""
        if not self._posted:
            self._posted = True
            QTimer.singleShot(0, self.loader.start)

    def stop(self) -> None:
        """The window closes: the loader ends after the import it is in (no warm-up, no wait for a probe)."""
        self._probe_wait.stop()
        self.loader.stop()

    def shown(self) -> None:
        """A window not painted (shown minimised) loads PyTorch all the same."""
        QTimer.singleShot(UNPAINTED_LOAD_MS, self.loader.start)

    @Slot()
    def _on_torch_loaded(self) -> None:
        self._probe_wait.start()

    @Slot(object)
    def _on_listed(self, devices: DeviceList) -> None:
        self._probe_wait.stop()
        self._list(devices)

    @Slot()
    def _on_probe_silent(self) -> None:
        self._list(
            DeviceList((cpu_device(),)),
            self.tr(
                "No GPU listed: the GPU driver has not answered for {seconds} s (torch.cuda.is_available() hangs:"
                " a broken driver?). The CPU trains meanwhile; the GPUs appear here if the driver answers."
            ).format(seconds=f"{self._probe_wait.interval() / 1000:g}"),
        )

    @Slot(str)
    def _on_probe_failed(self, error: str) -> None:
        self._probe_wait.stop()
        self._list(
            DeviceList((cpu_device(),)),
            self.tr("No GPU listed: finding the devices failed ({error}). The CPU trains.").format(error=error),
        )

    @Slot(str)
    def _on_failed(self, error: str) -> None:
        w = self.window
        if "WinError 1114" in error or "c10.dll" in error:  # an old MSVC runtime loaded first (pytorch#166628)
            w.torch_error = self.tr(
                "PyTorch could not be loaded ({error}): Windows could not start its libraries, which need a newer"
                " Microsoft Visual C++ runtime than the one loaded. Install the current Microsoft Visual C++"
                " Redistributable (x64) and start gpudemo again; reinstalling PyTorch does not help."
            ).format(error=error)
        else:
            w.torch_error = self.tr(
                "PyTorch could not be loaded ({error}): nothing can train. Reinstall it (pip install torch) and"
                " start gpudemo again."
            ).format(error=error)
        w.devicePanel.set_devices(w.devices, note=w.torch_error)
        w.codePanel.say("# " + w.torch_error)
        w.runStatus.say(w.torch_error, error=True)
        w.torch_failure = error
        w.run_commands.cancel_queued()
        w.run_commands.update_actions()  # About opens: the versions and the reason, for a bug report

    @Slot()
    def _list_late(self) -> None:
        if self._late is not None:
            devices, self._late = self._late, None
            self._list(devices)

    def _list(self, devices: DeviceList, note: str | None = None) -> None:
        w = self.window
        if w.is_busy():  # the probe answered late, during a run on the CPU: listed when it ends
            self._late = devices
            return
        w.devices = devices
        w.devicePanel.set_devices(devices, note)
        was_loading, w.loading = w.loading, False
        if was_loading and w.statusLabel.text() == w.runStatus.loading():
            w.runStatus.say(w.runStatus.ready())
        w.run_commands.update_actions()  # every command can run now
        w.devicesListed.emit()
        w.update_script()
        if was_loading:
            w.run_commands.start_queued()
