"""Help (what each control does) and About (the versions, for a bug report): two small windows."""

from __future__ import annotations

import html
import platform
import shutil
import subprocess
import sys

from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtGui import QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
)

from gpudemo.core.base import units
from gpudemo.core.step import compile_cache
from gpudemo.logfile import current_log, log_path
from gpudemo.ui.base.resources import icon_path
from gpudemo.ui.shell.actions import plain


def versions(torch_failure: str = "") -> str:
    """Every version a bug report needs, one per line; where PyTorch could not be imported (`torch_failure`,
    its error), that, without importing it again."""
    import pyqtgraph
    import PySide6

    from gpudemo import __version__

    torch_lines = [f"torch: could not be imported ({torch_failure})"] if torch_failure else _torch_versions()
    lines = [
        f"gpudemo {__version__}",
        *torch_lines,
        f"Qt {qVersion()}",
        f"PySide6 {PySide6.__version__}",
        f"pyqtgraph {pyqtgraph.__version__}",
        f"Python {sys.version.split()[0]}",
        f"{platform.system()} {platform.release()} ({platform.machine()})",
        f"log file {current_log() or log_path()}",
    ]
    return "\n".join(lines)


def _torch_versions() -> list[str]:
    import torch

    lines = [f"torch {torch.__version__}"]
    if not torch.version.cuda:
        return [*lines, "CUDA: none (a CPU-only build of torch)"]
    lines.append(f"CUDA runtime {torch.version.cuda}")
    if torch.cuda.is_available():
        lines += [f"GPU {index}: {torch.cuda.get_device_name(index)}" for index in range(torch.cuda.device_count())]
    driver = _driver_version()
    if driver:
        lines.append(f"NVIDIA driver {driver}")
    return lines


def _driver_version() -> str | None:
    """The NVIDIA driver's version, from nvidia-smi where it is installed (torch does not say)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run(
            [smi, "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True, timeout=3
        )
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else None


def show_about(window: QMainWindow) -> QDialog:
    dialog = QDialog(window, objectName="aboutDialog")
    dialog.setWindowTitle(QCoreApplication.translate("Dialogs", "About gpudemo"))
    dialog.setWindowIcon(QIcon(str(icon_path())))
    text = versions(getattr(window, "torch_failure", ""))
    title = QLabel(
        QCoreApplication.translate(
            "Dialogs", "<b>gpudemo</b>: watch PyTorch train a model on a GPU, one epoch at a time."
        )
    )
    details = QLabel(text, objectName="aboutVersions")
    details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    copy = QPushButton(QCoreApplication.translate("Dialogs", "Copy for a bug report"), objectName="aboutCopyButton")
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
    cache = QLabel(_cache_text(), objectName="aboutCompileCache")
    cache.setWordWrap(True)
    cache.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    clear = QPushButton(QCoreApplication.translate("Dialogs", "Clear the compile cache"), objectName="aboutClearCache")

    def clear_cache() -> None:
        freed = compile_cache.clear()
        cache.setText(
            QCoreApplication.translate(
                "Dialogs", "Cleared {size}: the next compiled run compiles from nothing."
            ).format(size=units.bytes_text(freed))
        )
        clear.setEnabled(False)

    clear.clicked.connect(clear_cache)
    clear.setEnabled(compile_cache.size() > 0)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
    buttons.addButton(clear, QDialogButtonBox.ButtonRole.ActionRole)
    buttons.rejected.connect(dialog.close)
    layout = QVBoxLayout(dialog)
    for widget in (title, details, cache, buttons):
        layout.addWidget(widget)
    window.aboutDialog = dialog
    dialog.show()
    return dialog


def _cache_text() -> str:
    """The compile cache's size and folder (core/step/compile_cache.py)."""
    return QCoreApplication.translate(
        "Dialogs",
        "torch.compile's cache: {size} in {folder} (kept across restarts: a step compiled before compiles"
        " faster the next day).",
    ).format(size=units.bytes_text(compile_cache.size()), folder=compile_cache.folder())


def help_html(window: QMainWindow) -> str:
    """Every command with its shortcut and what it does, then the controls of the form."""
    rows = []
    for action in window.actions.all():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        rows.append((plain(action.text()), keys, action.toolTip()))
    panel = window.trainingPanel
    for label, widget in (
        (QCoreApplication.translate("Dialogs", "Device"), window.deviceList),
        (QCoreApplication.translate("Dialogs", "Problem"), panel.problemCombo),
        (QCoreApplication.translate("Dialogs", "Samples"), panel.samplesSpin),
        (QCoreApplication.translate("Dialogs", "MLP width"), panel.widthSpin),
        (QCoreApplication.translate("Dialogs", "MLP depth"), panel.depthSpin),
        (QCoreApplication.translate("Dialogs", "Batch"), panel.batchSpin),
        (QCoreApplication.translate("Dialogs", "Optimizer"), panel.optimizerCombo),
        (QCoreApplication.translate("Dialogs", "Precision"), panel.precisionCombo),
        (QCoreApplication.translate("Dialogs", "Step"), panel.stepCombo),
        (QCoreApplication.translate("Dialogs", "Epochs"), panel.epochsSpin),
        (QCoreApplication.translate("Dialogs", "Learning rate"), panel.lrInput),
        (QCoreApplication.translate("Dialogs", "Seed"), panel.seedInput),
        (QCoreApplication.translate("Dialogs", "Smoothing"), window.smoothingSlider),
        (QCoreApplication.translate("Dialogs", "x axis"), window.xAxisCombo),
        (QCoreApplication.translate("Dialogs", "Compare in precisions"), window.compareView.precisionsCombo),
        (QCoreApplication.translate("Dialogs", "Roofline"), window.sweepView.rooflineCheck),
    ):
        rows.append((label, "", widget.toolTip()))
    cells = "".join(
        f"<tr><td><b>{html.escape(name)}</b></td><td>{html.escape(keys)}</td><td>{html.escape(tip)}</td></tr>"
        for name, keys, tip in rows
    )
    return f"<table cellspacing='0' cellpadding='4'>{cells}</table>"


def show_help(window: QMainWindow) -> QDialog:
    dialog = QDialog(window, objectName="helpDialog")
    dialog.setWindowTitle(QCoreApplication.translate("Dialogs", "What each control does"))
    browser = QTextBrowser(objectName="helpText")
    browser.setHtml(help_html(window))
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    layout = QVBoxLayout(dialog)
    layout.addWidget(browser, 1)
    layout.addWidget(buttons)
    dialog.resize(760, 560)
    window.helpDialog = dialog
    dialog.show()
    return dialog
