"""The memory line: the device a job uses, read twice a second while it goes, once more at its end."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

MEMORY_MS = 500


class MemoryWatch(QObject):
    read = Signal(object, bool)  # a MemoryReading (None: the device cannot say), and whether a job goes

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.device = "cpu"
        self._timer = QTimer(self)
        self._timer.setInterval(MEMORY_MS)
        self._timer.timeout.connect(self._read)

    def start(self, device: str) -> None:
        self.device = device
        self._timer.start()
        self._read()

    @Slot(str)
    def follow(self, device: str) -> None:
        """A job moved on to `device` (compare, sweep)."""
        self.device = device

    def stop(self) -> None:
        """The job ended: one last reading, then none until the next job."""
        self._timer.stop()
        self._read(running=False)

    def halt(self) -> None:
        """The window closes: no more readings."""
        self._timer.stop()

    @Slot()
    def _read(self, running: bool = True) -> None:
        from gpudemo.core.hardware.devices import read_memory  # a job goes: PyTorch has loaded

        try:
            reading = read_memory(self.device)
        except Exception:  # a device that cannot say (a lost GPU): show nothing rather than fail
            reading = None
        self.read.emit(reading, running)
