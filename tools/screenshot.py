"""Take the README's screenshot of a finished run: `xvfb-run -s "-screen 0 1800x950x24" .venv/bin/python tools/screenshot.py`.

Runs the real program through `main()`, trains, predicts, then saves the window to
assets/screenshot.png (or the path given).
"""

import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from gpudemo.cli import main
from gpudemo.ui.main_window import MainWindow

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "assets" / "screenshot.png")
shown = MainWindow.show


def show(self):
    shown(self)
    self.epochsSpin.setValue(2000)
    self.lrInput.setText("0.02")
    self.predictInput.setText("4, 5, 10, -1")
    self.logScaleCheck.setChecked(True)
    self.runFinished.connect(lambda: QTimer.singleShot(500, lambda: save(self)))
    QTimer.singleShot(1500, self.start_training)


def save(window):
    window.grab().save(str(OUT))
    print(f"saved {OUT}")
    window.close()


MainWindow.show = show
sys.argv = sys.argv[:1]
sys.exit(main([]))
