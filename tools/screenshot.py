"""Take the README's screenshot: `xvfb-run -s "-screen 0 1800x950x24" .venv/bin/python tools/screenshot.py`.

Runs the real program through `main()`, trains the sine's MLP three times in minibatches
(Adam at two learning rates, then SGD), smoothing on, predicts, then saves the window
to assets/screenshot.png (or the path given).

Qt's X11 plugin needs system libraries that a minimal Linux lacks (gpudemo names the
missing ones when it starts); with Xvfb, a Linux desktop needs:
  Debian/Ubuntu:  sudo apt install xvfb libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xinerama0 libxcb-randr0 libxcb-xkb1 libxcb-shape0 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3
  Fedora:         sudo dnf install xorg-x11-server-Xvfb xcb-util-cursor xcb-util-wm xcb-util-keysyms xcb-util-image xcb-util-renderutil libxcb libxkbcommon-x11 libglvnd-egl libglvnd-glx fontconfig dbus-libs
"""

import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from gpudemo.cli import main
from gpudemo.ui.main_window import MainWindow

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "assets" / "screenshot.png")
shown = MainWindow.show


RUNS = (("sgd", "0.1"), ("adam", "0.001"), ("adam", "0.01"))  # (optimizer, learning rate), in order


def show(self):
    shown(self)
    self.problemCombo.setCurrentIndex(self.problemCombo.findData("sine"))
    self.samplesSpin.setValue(2000)
    self.batchSpin.setValue(100)
    self.epochsSpin.setValue(150)
    self.predictInput.setText("-1.57, 0, 0.5, 1.57, 3")
    self.logScaleCheck.setChecked(True)
    self.smoothingSlider.setValue(60)
    self.runFinished.connect(lambda: QTimer.singleShot(300, lambda: next_run(self)))
    QTimer.singleShot(1500, lambda: next_run(self))


def next_run(window):
    done = len(window.session.runs)
    if done == len(RUNS):
        QTimer.singleShot(200, lambda: save(window))
        return
    optimizer, lr = RUNS[done]
    window.optimizerCombo.setCurrentIndex(window.optimizerCombo.findData(optimizer))
    window.lrInput.setText(lr)
    window.start_training()


def save(window):
    window.grab().save(str(OUT))
    print(f"saved {OUT}")
    window.close()


MainWindow.show = show
sys.argv = sys.argv[:1]
sys.exit(main([]))
