"""File: export the losses and the plots, save and load a model.

Each command asks for a file name with a dialog unless given one (tests give one);
what it did, or why it could not, goes to the status line, never a traceback.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters as exporters
from PySide6.QtCore import QBuffer, QIODevice, QObject, QRect, QTimer, Slot
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QMainWindow

from gpudemo.core.base.errors import DataFileError
from gpudemo.core.base.files import write_atomically
from gpudemo.core.base.messages import Message
from gpudemo.core.outputs.export import write_losses_csv
from gpudemo.ui.base.i18n import epochs_text, name_text, say
from gpudemo.ui.base.places import ask_open, ask_save

# Each view (by its object name) and the plot File > Export the shown plot exports from it.
SHOWN_PLOTS = {
    "trainingView": "lossPlot", "landscapeView": "landscapePlot", "compareView": "comparePlot",
    "sweepView": "sweepPlot", "parallelView": "parallelPlot", "transferView": "transferPlot",
    "profileView": "timelinePlot",
}  # fmt: skip


class FileCommands(QObject):
    POLL_MS = 50  # how often a file being read is checked for the end

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        # One reader thread, owned here: closing waits for it (shutdown).
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpudemo-data")
        self._reading: tuple[str, Future] | None = None
        self._poll = QTimer(self, interval=self.POLL_MS)
        self._poll.timeout.connect(self._check_reading)

    # --- losses -------------------------------------------------------------------------

    @Slot()
    def export_losses(self, path: str | None = None) -> bool:
        """Every epoch's loss of the runs shown on the loss plot, as CSV."""
        window = self.window
        runs = [run for run in window.session.runs if window.lossView.is_shown(run) and run.count]
        if not runs:
            return self._say(self.tr("No losses to export: train a run first (or show a hidden one)."), error=True)
        path = path or ask_save(
            self.window, self.tr("Export losses"), "gpudemo_losses.csv", self.tr("CSV files (*.csv)")
        )
        if not path:
            return False
        done = self.tr("Exported {rows} losses of {runs} runs to {path}.").format(
            rows=f"{sum(run.count for run in runs):,}", runs=len(runs), path=path
        )
        return self._write(path, lambda: write_losses_csv(path, runs)[1], done)

    # --- plots ----------------------------------------------------------------------------

    @Slot()
    def export_shown_plot(self) -> bool:
        """The plot of the tab shown (the loss plot on the Training tab)."""
        window = self.window
        shown = window.viewTabs.currentWidget()
        name = SHOWN_PLOTS.get(shown.objectName() if shown is not None else "")
        if name is None:
            return self._say(self.tr("This tab has no plot to export."), error=True)
        return self.export_plot(getattr(window, name))

    def export_plot(self, widget: pg.PlotWidget, path: str | None = None) -> bool:
        """`widget`'s plot as a PNG picture or an SVG drawing, by the file name's ending."""
        path = path or ask_save(
            self.window,
            self.tr("Export the plot"),
            f"gpudemo_{widget.objectName()}.png",
            self.tr("PNG picture (*.png);;SVG drawing (*.svg)"),
        )
        if not path:
            return False
        suffix = Path(path).suffix.lower()
        if suffix not in (".png", ".svg"):
            return self._say(
                self.tr("Export the plot as a .png or an .svg file, not {name}.").format(name=Path(path).name),
                error=True,
            )
        if not _drawn(widget):
            return self._say(self.tr("This plot has nothing drawn yet: nothing exported."), error=True)
        picture = _svg_bytes(widget) if suffix == ".svg" else _png_bytes(widget)
        return self._write(
            path,
            lambda: write_atomically(path, lambda out: out.write(picture), binary=True),
            self.tr("Exported the plot to {path}.").format(path=path),
        )

    # --- models ---------------------------------------------------------------------------

    @Slot()
    def save_model(self, path: str | None = None) -> bool:
        """The chosen run's model, with the settings it was trained with."""
        run = self.window.trainingView.chosen()
        if run is None or run.model is None:
            return self._say(self.tr("No model to save: train one, or pause the run, first."), error=True)
        path = path or ask_save(
            self.window, self.tr("Save model"), f"gpudemo_run{run.number}.pt", self.tr("gpudemo checkpoints (*.pt)")
        )
        if not path:
            return False
        from gpudemo.core.outputs import checkpoint  # a model exists: PyTorch has loaded

        done = self.tr("Saved run #{number}'s model ({epochs}) to {path}.").format(
            number=run.number, epochs=epochs_text(run.model_epochs), path=path
        )
        return self._write(path, lambda: checkpoint.save(path, run.model, run.config, run.model_epochs), done)

    @Slot()
    def load_model(self, path: str | None = None) -> bool:
        """A saved model: it predicts again, as a run of its own, and its settings fill the form."""
        window = self.window
        if window.is_busy():
            return False
        if not path:
            path = ask_open(window, self.tr("Load model"), self.tr("gpudemo checkpoints (*.pt);;All files (*)"))
        if not path:
            return False
        from gpudemo.core.outputs import checkpoint  # the Load action waits for PyTorch

        try:
            loaded = checkpoint.load(path)
        except checkpoint.CheckpointError as error:
            return self._say(self.tr("Not loaded: {reason}.").format(reason=say(error)), error=True)
        config = loaded.config
        window.trainingPanel.set_config(config)
        run = window.session.add_loaded(config, loaded.model, loaded.epochs)
        said = self.tr("Loaded {path} as run #{number}: {problem}, {epochs}; Predict uses it.").format(
            path=Path(path).name,
            number=run.number,
            problem=name_text(config.problem),
            epochs=epochs_text(loaded.epochs),
        )
        return self._say(said + (f" {say(loaded.note)}." if loaded.note is not None else ""))

    @Slot()
    def open_data(self, path: str | None = None) -> bool:
        """Read a person's CSV on a thread of its own (10,000,000 rows take seconds); when it is read,
        it becomes the problem "data" in the form. A bad file is refused with its reason, and nothing
        of it is kept."""
        window = self.window
        if window.is_busy() or self._reading is not None:
            return False
        if not path:
            path = ask_open(window, self.tr("Open data"), self.tr("CSV files (*.csv *.txt);;All files (*)"))
        if not path:
            return False
        self._say(self.tr("Reading {path}…").format(path=Path(path).name))
        from gpudemo.core.problems.datafile import read_data  # the Open action waits for PyTorch (its tensors)

        self._reading = (path, self._reader.submit(read_data, path))
        self._poll.start()
        return True

    def is_reading(self) -> bool:
        return self._reading is not None

    def shutdown(self) -> None:
        """Closing: wait for a file being read (it cannot be interrupted; it takes seconds at most)."""
        self._poll.stop()
        self._reader.shutdown(wait=True)
        self._reading = None

    @Slot()
    def _check_reading(self) -> None:
        if self._reading is None or not self._reading[1].done():
            return
        self._poll.stop()
        path, future = self._reading
        self._reading = None
        self._data_read(path, future)

    def _data_read(self, path: str, future: Future) -> None:
        try:
            data = future.result()  # a core.datafile.DataSet
        except DataFileError as error:
            self._say(self.tr("Data not loaded: {reason}.").format(reason=say(error)), error=True)
            return
        except Exception as error:  # a reader's failure must not pass silently, nor end the window
            self._say(self.tr("Data not loaded: {reason}.").format(reason=str(error)), error=True)
            return
        self.window.trainingPanel.set_data(data.path, Path(data.path).name)
        kind = (
            self.tr("{classes} classes of 2-D points").format(classes=data.classes)
            if data.classes
            else self.tr("a regression of y on x")
        )
        said = self.tr("Loaded {path}: {rows} rows, {kind}. Start trains on it.").format(
            path=Path(data.path).name, rows=f"{data.rows:,}", kind=kind
        )
        from gpudemo.core.problems.datafile import starting_depth  # the file is read: PyTorch has loaded

        depth = starting_depth(data)
        if depth is not None and self.window.depthSpin.value() != depth:
            self.window.depthSpin.setValue(depth)  # a small regression: the tutorial's linear model learns it
            said += " " + self.tr("So few points start from the linear model, the tutorial's (depth 0).")
        self._say(said)

    # --- inside -----------------------------------------------------------------------------

    def _write(self, path: str, write: Callable[[], Message | None], done: str) -> bool:
        """`write()`, all or nothing (it goes through `files.write_atomically`, which checks every byte written):
        `done` on the status line, with what the write has to tell (a hard link broken), or why it failed."""
        try:
            note = write()
        except OSError as error:
            return self._say(
                self.tr("Could not write {path}: {reason}; what was there is as it was.").format(
                    path=path, reason=error.strerror or str(error)
                ),
                error=True,
            )
        return self._say(f"{done} {say(note)}" if note is not None else done)

    def _say(self, text: str, error: bool = False) -> bool:
        self.window.runStatus.say(text, error=error)
        return not error


def _drawn(widget: pg.PlotWidget) -> bool:
    """Whether a plot shows anything: a curve, bars or a picture with data."""
    for item in widget.getPlotItem().items:
        data = getattr(item, "getData", None)
        if data is not None:
            x, _ = data()
            if x is not None and len(x):
                return True
        elif isinstance(item, pg.ImageItem) and item.image is not None:
            return True
        elif isinstance(item, pg.BarGraphItem) and len(item.opts.get("height", ()) or ()):
            return True
    return False


def _laid_out(widget: pg.PlotWidget) -> None:
    """A plot never shown (its tab never opened) laid out as it would be: its axes and titles placed."""
    if not widget.isVisible():
        widget.resize(widget.size().expandedTo(widget.sizeHint()))
        widget.getPlotItem().layout.activate()
        widget.scene().update()


def _png_bytes(widget: pg.PlotWidget) -> bytes:
    """The plot as a PNG picture, at least 1200 px wide (crisp on a slide)."""
    _laid_out(widget)
    exporter = exporters.ImageExporter(widget.getPlotItem())
    exporter.parameters()["width"] = max(1200, int(widget.width()))
    image = exporter.export(toBytes=True)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(errno.EIO, "the picture could not be made")
    return bytes(buffer.data())


def _svg_bytes(widget: pg.PlotWidget) -> bytes:
    """The plot as drawn, painted onto an SVG drawing (vector lines and text).

    Not pyqtgraph's SVGExporter: with Qt 6.11 its rewriting of Qt's path data fails
    ("not enough values to unpack"), on every plot.
    """
    _laid_out(widget)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(widget.size())
    generator.setViewBox(QRect(0, 0, widget.width(), widget.height()))
    generator.setTitle(widget.objectName())
    generator.setResolution(widget.logicalDpiX())  # pyqtgraph sizes ticks and grids in device pixels
    painter = QPainter(generator)
    try:
        painter.fillRect(QRect(0, 0, widget.width(), widget.height()), widget.backgroundBrush())
        widget.render(painter)
    finally:
        painter.end()
    return bytes(buffer.data())
