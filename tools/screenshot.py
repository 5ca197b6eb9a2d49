"""Take the README's screenshots:

    xvfb-run -s "-screen 0 1800x950x24" .venv/bin/python tools/screenshot.py [SCENE ...]


Runs the real program (the window as `gpudemo` opens it) once per scene and saves the window to assets/:
- runs (assets/screenshot.png): the sine's MLP trained three times in minibatches (SGD, then
  Adam at two learning rates), smoothing on, overlaid;
- landscape (assets/landscape.png): the line trained with SGD, momentum and Adam, their paths
  through the loss landscape;
- profile (assets/profile.png): a step of the line at 1,000,000 samples under torch.profiler, its timeline;
- roofline (assets/roofline.png): the sweep of the line's step with its roofline;
- lesson, lesson-chinese (assets/lesson.png, assets/lesson-chinese.png): Help → Lesson at its training
  step, after the run it starts, in English and in Simplified Chinese;
- small (assets/small-screen.png): the window on a 1024 x 768 screen after a run of the line;
- scaled (assets/scaled-150.png): the first lesson's training step at 150 % (QT_SCALE_FACTOR=1.5) on a
  1366 x 768 laptop with a 40-px taskbar: 911 x 485 logical pixels, the window's body scrolled;
- dark (assets/dark.png): the runs scene in the dark theme;
- chinese (assets/chinese.png): the runs scene where the system speaks Simplified Chinese (LANG=zh_CN.UTF-8);
- chinese-dark (assets/chinese-dark.png): the landscape scene in Chinese, in the dark theme;
- spiral (assets/spiral.png): an MLP learning the spiral, taken while its boundary forms, accuracy plotted;
- digits (assets/digits.png): the digits after a run: test images, confusion matrix, one image's classes;
- small-spiral (assets/small-spiral.png): the spiral learned on a 1024 x 768 screen: its boundary the large plot;
- gpu-lesson, gpu-lesson-chinese (assets/gpu-lesson.png, assets/gpu-lesson-chinese.png): Help → Lessons → Make
  the GPU win at its second step, a guess of 40 % measured, in English and in Simplified Chinese;
- loading (assets/loading.png): the window as it first paints, while PyTorch loads;
- energy-lesson (assets/energy-lesson.png): the second lesson's energy question, a guess of 2× measured
  (on a machine without energy counters: nothing metered, and why);
- borrowed-lesson (assets/borrowed-lesson.png): the second step again, after File > Load measurements of the
  result file that GPUDEMO_RESULT names (the lesson's notebook, run elsewhere): its figure beside the guess.
Each scene starts from the default settings (a settings folder of its own).

Qt's X11 plugin needs system libraries that a minimal Linux lacks (gpudemo names the
missing ones when it starts); with Xvfb, a Linux desktop needs:
  Debian/Ubuntu:  sudo apt install xvfb libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xinerama0 libxcb-randr0 libxcb-xkb1 libxcb-shape0 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3
  Fedora:         sudo dnf install xorg-x11-server-Xvfb xcb-util-cursor xcb-util-wm xcb-util-keysyms xcb-util-image xcb-util-renderutil libxcb libxkbcommon-x11 libglvnd-egl libglvnd-glx fontconfig dbus-libs
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QTimer

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SCENES = {
    "runs": "screenshot.png",
    "landscape": "landscape.png",
    "profile": "profile.png",
    "roofline": "roofline.png",
    "lesson": "lesson.png",
    "lesson-chinese": "lesson-chinese.png",
    "small": "small-screen.png",
    "scaled": "scaled-150.png",
    "dark": "dark.png",
    "chinese": "chinese.png",
    "chinese-dark": "chinese-dark.png",
    "spiral": "spiral.png",
    "digits": "digits.png",
    "small-spiral": "small-spiral.png",
    "gpu-lesson": "gpu-lesson.png",
    "gpu-lesson-chinese": "gpu-lesson-chinese.png",
    "loading": "loading.png",
    "energy-lesson": "energy-lesson.png",
    "borrowed-lesson": "borrowed-lesson.png",
}
LOCALE = {
    "chinese": "zh_CN.UTF-8",
    "chinese-dark": "zh_CN.UTF-8",
    "lesson-chinese": "zh_CN.UTF-8",
    "gpu-lesson-chinese": "zh_CN.UTF-8",
}  # the system language of a scene (else English)
RUNS_LIKE = ("runs", "dark", "chinese")
# (problem, samples, batch, epochs, [(optimizer, learning rate), ...]) of each training scene
TRAINING = {
    "runs": ("sine", 2000, 100, 150, [("sgd", "0.1"), ("adam", "0.001"), ("adam", "0.01")]),
    "landscape": ("line", 1000, 0, 300, [("sgd", "0.1"), ("momentum", "0.02"), ("adam", "0.1")]),
    "small": ("line", 1000, 0, 300, [("momentum", "0.02")]),
    "dark": ("sine", 2000, 100, 150, [("sgd", "0.1"), ("adam", "0.001"), ("adam", "0.01")]),
    "chinese": ("sine", 2000, 100, 150, [("sgd", "0.1"), ("adam", "0.001"), ("adam", "0.01")]),
    "chinese-dark": ("line", 1000, 0, 300, [("sgd", "0.1"), ("momentum", "0.02"), ("adam", "0.1")]),
    "spiral": ("spiral", 2000, 0, 3000, [("adam", "0.01")]),
    "digits": ("digits", 1437, 0, 300, [("adam", "0.01")]),
    "small-spiral": ("spiral", 2000, 0, 1500, [("adam", "0.01")]),
}
MODEL = {"spiral": (32, 3), "digits": (32, 2), "small-spiral": (32, 3)}  # (width, depth) where a scene sets them
FORMING = {"spiral": 0.35}  # taken while the run goes, at this share of its epochs


SCALED_SCREEN = (round(1366 / 1.5), round((768 - 40) / 1.5))  # 1366 x 768 at 150 %, less a 40-px taskbar


def choose(combo, key):
    combo.setCurrentIndex(combo.findData(key))


def scene(name: str, out: Path) -> int:
    from gpudemo.cli.window import run_window

    def save(window):
        window.grab().save(str(out))
        print(f"saved {out}")
        window.close()

    def next_run(window, runs):
        done = len(window.session.runs)
        if done == len(runs):
            QTimer.singleShot(200, lambda: save(window))
            return
        optimizer, lr = runs[done]
        choose(window.optimizerCombo, optimizer)
        window.lrInput.setText(lr)
        window.start_training()

    def on_shown(window):
        window.predictInput.setText(
            {
                **{scene: "-1.57, 0, 0.5, 1.57, 3" for scene in RUNS_LIKE},
                "spiral": "0.5,0.5; -0.5,0.2",
                "digits": "5",
            }.get(name, "4")
        )
        if name == "profile":
            choose(window.problemCombo, "line")
            window.samplesSpin.setValue(1_000_000)
            window.runFinished.connect(lambda: QTimer.singleShot(300, lambda: save(window)))
            QTimer.singleShot(1500, window.run_commands.start_profile)
            return
        if name in ("lesson", "lesson-chinese", "scaled"):
            if name == "scaled":
                from PySide6.QtCore import QRect

                from gpudemo.ui.shell.menus import fit_to_screen

                fit_to_screen(window, QRect(0, 0, *SCALED_SCREEN))

            def lesson():
                window.lessonButton.click()
                for _ in range(5):  # to its training step
                    window.lessonPanel.nextButton.click()
                window.runFinished.connect(lambda: QTimer.singleShot(300, lambda: save(window)))
                # The lesson's run holds after its first epoch (for Pause and Step): Resume, as a person does.
                window.job.pausedAt.connect(lambda epoch: QTimer.singleShot(300, window.actions.pause.trigger))
                window.lessonPanel.actionButton.click()

            QTimer.singleShot(1500, lesson)
            return
        if name in ("gpu-lesson", "gpu-lesson-chinese", "energy-lesson", "borrowed-lesson"):

            def guess_lesson():
                if name == "borrowed-lesson":  # a result file of the lesson's notebook (File > Load measurements)
                    window.gpu_lesson.load_measurements(os.environ["GPUDEMO_RESULT"])
                window.actions.gpu_lesson.trigger()
                energy = name == "energy-lesson"
                for _ in range(7 if energy else 1):  # to the energy question, or to how busy the device is
                    window.guessPanel.nextButton.click()
                window.guessPanel.guessInput.setText("2" if energy else "40")
                window.runFinished.connect(lambda: QTimer.singleShot(500, lambda: save(window)))
                window.guessPanel.actionButton.click()

            QTimer.singleShot(1500, guess_lesson)
            return
        if name == "roofline":
            window.sweepView.rooflineCheck.setChecked(True)
            window.runFinished.connect(lambda: QTimer.singleShot(300, lambda: save(window)))
            QTimer.singleShot(1500, window.run_commands.start_sweep)
            return
        problem, samples, batch, epochs, runs = TRAINING[name]
        choose(window.problemCombo, problem)
        window.samplesSpin.setValue(samples)
        window.batchSpin.setValue(batch)
        window.epochsSpin.setValue(epochs)
        if name in MODEL:
            window.widthSpin.setValue(MODEL[name][0])
            window.depthSpin.setValue(MODEL[name][1])
            window.metricCombo.setCurrentIndex(window.metricCombo.findData("accuracy"))
        if name in FORMING:

            def poll():
                run = window.session.current
                if run is not None and run.count >= FORMING[name] * run.config.epochs:
                    save(window)
                else:
                    QTimer.singleShot(50, poll)

            QTimer.singleShot(1500, poll)
        if name == "digits":
            window.runFinished.connect(
                lambda: QTimer.singleShot(100, lambda: window.trainingView.digitsView.images[4].click())
            )
        if name in ("dark", "chinese-dark"):
            window.set_theme("dark")
        if name in RUNS_LIKE:
            window.logScaleCheck.setChecked(True)
            window.smoothingSlider.setValue(60)
        elif name in ("small", "small-spiral"):
            from PySide6.QtCore import QRect

            from gpudemo.ui.shell.menus import fit_to_screen

            fit_to_screen(window, QRect(0, 0, 1024, 768))
        elif name not in MODEL:
            window.viewTabs.setCurrentWidget(window.landscapeView)
        window.runFinished.connect(lambda: QTimer.singleShot(300, lambda: next_run(window, runs)))
        QTimer.singleShot(1500, lambda: next_run(window, runs))

    def when_listed(window):
        """Each scene acts once PyTorch has loaded (the window paints before it); "loading" is that moment."""
        if name == "loading":
            QTimer.singleShot(0, lambda: save(window))
            return
        acted = []

        def act():
            if not acted:  # listed again if a slow probe answers late
                acted.append(True)
                on_shown(window)

        window.devicesListed.connect(act)
        if not window.loading:
            act()

    return run_window(on_shown=when_listed)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":  # one scene in this process (one QApplication each)
        name = sys.argv[2]
        sys.exit(scene(name, ASSETS / SCENES[name]))
    for name in sys.argv[1:] or SCENES:
        if name not in SCENES:
            sys.exit(f"screenshot.py: no scene {name!r}; the scenes are {', '.join(SCENES)}")
        with tempfile.TemporaryDirectory() as settings:
            subprocess.run(
                [sys.executable, __file__, "--one", name],
                check=True,
                env={
                    **os.environ,
                    "XDG_CONFIG_HOME": settings,
                    "LANG": LOCALE.get(name, "en_US.UTF-8"),
                    **({"QT_SCALE_FACTOR": "1.5"} if name == "scaled" else {}),
                },
            )
