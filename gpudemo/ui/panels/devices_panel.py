"""The device panel: every device torch can use here, with its details."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, Signal, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QListView,
    QVBoxLayout,
)

from gpudemo.core.base import units as fmt
from gpudemo.core.hardware.machine import DeviceInfo, DeviceList, MemoryReading
from gpudemo.ui.base.i18n import say


class DevicePanel(QGroupBox):
    deviceChanged = Signal(str)  # the id of the device now picked

    def __init__(self, devices: DeviceList, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("1. Device"))
        self._devices = devices
        self._shown: str | None = None  # the id whose details are shown
        self._model = QStandardItemModel(self)

        self.list = QListView()
        self.list.setObjectName("deviceList")
        self.list.setToolTip(
            self.tr(
                "Where the tensors live and the arithmetic runs. A GPU runs thousands of operations at once, but each"
                " step costs it a fixed launch time: on a few samples the CPU is faster, on millions the GPU is."
            )
        )
        self.list.setModel(self._model)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)

        self.details = QLabel()
        self.details.setObjectName("deviceDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.note = QLabel(objectName="deviceNote")
        self.note.setWordWrap(True)

        self.memoryLabel = QLabel(objectName="memoryLabel")
        self.memoryLabel.setWordWrap(True)
        self.memoryLabel.hide()

        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addWidget(self.details)
        layout.addWidget(self.memoryLabel)
        layout.addWidget(self.note)

        self.list.selectionModel().currentChanged.connect(self._on_current_changed)
        self.list.selectionModel().selectionChanged.connect(self._on_current_changed)
        self.set_devices(devices)

    def set_devices(self, devices: DeviceList, note: str | None = None) -> None:
        """List `devices` (the first accelerator picked), with their note, or `note` where given (the
        window's own: PyTorch loading, a probe that did not answer)."""
        self._devices, self._shown = devices, None
        self._model.clear()
        for device in devices:
            item = QStandardItem(f"{device.id}  —  {devices.label(device)}\n      {self._summary(device)}")
            item.setEditable(False)
            item.setToolTip(self._details(device))
            self._model.appendRow(item)
        rows = min(len(devices), 5)
        self.list.setFixedHeight(self.list.sizeHintForRow(0) * rows + 2 * self.list.frameWidth() + 10)
        text = note if note is not None else say(devices.note)
        self.note.setText(text)
        self.note.setVisible(bool(text))
        self.select(devices.default().id)

    def _summary(self, device: DeviceInfo) -> str:
        """One short line for the list, so every device's key figures show at once."""
        memory = fmt.gib(device.total_memory, digits=0)
        if device.kind == "cuda":
            return self.tr("{memory} · compute {major}.{minor} · {sms} SMs").format(
                memory=memory, major=device.capability[0], minor=device.capability[1], sms=device.multiprocessors
            )
        if device.kind == "cpu":
            return self.tr("{threads} threads · {memory}").format(threads=device.threads or "?", memory=memory)
        return memory if device.total_memory is not None else device.kind

    def _details(self, device: DeviceInfo) -> str:
        lines = [device.name]
        if device.kind == "cuda":
            if device.free_memory is None:  # not read: a GPU's free memory is read once it is picked
                lines.append(self.tr("Memory: {total} total").format(total=fmt.gib(device.total_memory)))
            else:
                lines.append(
                    self.tr("Memory: {total} total, {free} free").format(
                        total=fmt.gib(device.total_memory), free=fmt.gib(device.free_memory)
                    )
                )
            lines.append(
                self.tr("Compute capability {major}.{minor} · {sms} multiprocessors").format(
                    major=device.capability[0], minor=device.capability[1], sms=device.multiprocessors
                )
            )
            if device.pci_bus_id:
                lines.append(self.tr("PCI bus {bus}").format(bus=device.pci_bus_id))
        elif device.kind == "cpu":
            lines.append(
                self.tr("{threads} threads · memory: {total} total, {free} free").format(
                    threads=device.threads or "?", total=fmt.gib(device.total_memory), free=fmt.gib(device.free_memory)
                )
            )
        elif device.total_memory is not None:
            lines.append(self.tr("Memory: {total} total").format(total=fmt.gib(device.total_memory)))
        return "\n".join(lines)

    def show_memory(self, reading: MemoryReading | None, running: bool = True) -> None:
        """A device's memory as a run goes (None hides the line)."""
        if reading is None:
            self.memoryLabel.hide()
            return
        if reading.device.startswith("cuda"):
            text = self.tr("{device}: {allocated} allocated, {reserved} reserved, {free} free").format(
                device=reading.device,
                allocated=fmt.bytes_text(reading.allocated),
                reserved=fmt.bytes_text(reading.reserved),
                free=fmt.bytes_text(reading.free),
            )
        else:
            text = self.tr("{device}: this process holds {resident}; {free} free on the machine").format(
                device=reading.device, resident=fmt.bytes_text(reading.allocated), free=fmt.bytes_text(reading.free)
            )
        metrics = reading.metrics
        if metrics is not None:
            figures = []
            if metrics.utilization is not None:
                figures.append(self.tr("{percent}% busy").format(percent=metrics.utilization))
            if metrics.power_watts is not None:
                figures.append(self.tr("{watts} W").format(watts=f"{metrics.power_watts:,.0f}"))
            if metrics.sm_clock_mhz is not None:
                figures.append(self.tr("{mhz} MHz").format(mhz=f"{metrics.sm_clock_mhz:,}"))
            if metrics.temperature_c is not None:
                figures.append(self.tr("{celsius} °C").format(celsius=metrics.temperature_c))
            if figures:
                text += "\n" + " · ".join(figures)
        prefix = self.tr("Memory now") if running else self.tr("Memory after the run")
        self.memoryLabel.setText(f"{prefix} · {text}")
        self.memoryLabel.show()

    def current(self) -> DeviceInfo:
        """The selected device (the current row if none is selected; the CPU if neither)."""
        selected = self.list.selectionModel().selectedIndexes()
        index = selected[0] if selected else self.list.currentIndex()
        row = index.row() if index.isValid() else len(self._devices) - 1
        return self._devices[row]

    def select(self, device_id: str) -> None:
        row = self._devices.ids.index(device_id)
        self.list.selectionModel().setCurrentIndex(
            self._model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
        )

    @Slot()
    def _on_current_changed(self, *_args) -> None:
        device = self.current()
        if device.id == self._shown:
            return
        self._shown = device.id
        if device.kind == "cuda":  # its free memory, read for the picked GPU only (a context on it)
            from gpudemo.core.hardware.devices import with_free_memory  # a GPU is listed: PyTorch has loaded

            device = with_free_memory(device)
        self.details.setText(self._details(device))
        self.deviceChanged.emit(device.id)
