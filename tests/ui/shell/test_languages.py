"""Simplified Chinese and English: every visible string translated, the system's language at first start,
a live switch that keeps the runs, and translations that stay complete and built."""

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTableWidget,
    QTabWidget,
    QWidget,
)

from gpudemo.core.base.messages import Message
from gpudemo.core.session.runs import Session
from gpudemo.core.settings import rules
from gpudemo.ui.base import i18n
from tests.ui.windows import open_window, run_to_end

ROOT = Path(__file__).resolve().parents[3]
TS = ROOT / "gpudemo" / "resources" / "translations" / "gpudemo_zh_CN.ts"
CJK = re.compile(r"[\u4e00-\u9fff]")
# Text that is the same in every language: numbers, units, symbols, names of things.
NEUTRAL = re.compile(
    r"^[\s\d.,:;·×%()\[\]/+\-=#µ?…—–|<>&*'\"]*$"
    r"|^(x|y|SGD|Adam|MLP|GFLOP/s|English|gpudemo|float32|bfloat16|cpu|cuda:\d|Test CPU|AMD EPYC.*|NVIDIA .*)$"
)
WORD = re.compile(r"[A-Za-z]{2,}")
# English words that stay English inside Chinese sentences: code, names, units.
KEPT = {
    "MSE",
    "SGD",
    "Adam",
    "MLP",
    "CPU",
    "GPU",
    "CUDA",
    "PyTorch",
    "torch",
    "profiler",
    "gpudemo",
    "SMs",
    "GiB",
    "MiB",
    "KiB",
    "SM",
    "tanh",
    "sin",
    "nn",
    "Linear",
    "lr",
    "ETA",
    "GFLOP",
    "PNG",
    "SVG",
    "CSV",
    "py",
    "pt",
    "manual_seed",
    "seed",
    "cpu",
    "cuda",
    "Python",
    "Test",
    "EPYC",
    "AMD",
    "NVIDIA",
    "bfloat",
    "float",
}


@pytest.fixture
def chinese(qapp):  # a translator is installed on the application: it must exist, whichever test runs first
    assert i18n.install(i18n.CHINESE)
    yield
    i18n.install(i18n.ENGLISH)


def visible_texts(window) -> list[tuple[str, str]]:
    """(where, text) for every string a person can see or hover over in the window and its menus."""
    found = [("window title", window.windowTitle())]

    def add(where, text):
        if text:
            found.append((where, text.replace("&", "")))

    for menu in window.menuBar().findChildren(QMenu):
        add("menu", menu.title())
        for action in menu.actions():
            add("menu item", action.text())
            add("menu item tip", action.toolTip())
    for widget in window.findChildren(QWidget):
        if widget.objectName() in ("codeView", "deviceList") or not widget.isVisibleTo(window):
            continue  # the script is code; the device names are names
        name = type(widget).__name__
        add(f"{name} tip", widget.toolTip())
        if isinstance(widget, QLabel) and widget.objectName() not in ("aboutVersions",):
            add(f"label {widget.objectName()}", re.sub(r"<[^>]+>", "", widget.text()))
        elif isinstance(widget, QAbstractButton):
            add(f"button {widget.objectName()}", widget.text())
        elif isinstance(widget, QGroupBox):
            add("group", widget.title())
        elif isinstance(widget, QDockWidget):
            add("dock", widget.windowTitle())
        elif isinstance(widget, QLineEdit):
            add("placeholder", widget.placeholderText())
        elif isinstance(widget, QTabWidget):
            for index in range(widget.count()):
                add("tab", widget.tabText(index))
        elif isinstance(widget, QComboBox):
            for index in range(widget.count()):
                add(f"combo {widget.objectName()}", widget.itemText(index))
        elif isinstance(widget, QTableWidget):
            for column in range(widget.columnCount()):
                header = widget.horizontalHeaderItem(column)
                if header is not None:
                    add("table header", header.text())
                    add("table header tip", header.toolTip())
    for plot in (window.lossPlot, window.fitPlot, window.landscapePlot, window.comparePlot, window.sweepPlot):
        item = plot.getPlotItem()
        for side in ("left", "bottom"):
            add(f"{plot.objectName()} axis", item.getAxis(side).labelText)
        add(f"{plot.objectName()} title", item.titleLabel.text)
    return found


def untranslated(texts) -> list[tuple[str, str]]:
    """Texts with no Chinese in them that are not the same in every language."""
    return [
        (where, text)
        for where, text in texts
        if not CJK.search(text)
        and not NEUTRAL.match(text.strip())
        and WORD.search(text)
        and not set(WORD.findall(text)) <= KEPT
    ]


def test_every_visible_string_of_the_window_is_in_chinese(qtbot, chinese):
    window = open_window(qtbot)
    assert untranslated(visible_texts(window)) == []


def test_what_a_run_and_a_bad_value_say_is_in_chinese(qtbot, chinese):
    window = open_window(qtbot)
    window.epochsSpin.setValue(30)
    run_to_end(qtbot, window)
    window.predictInput.setText("4")
    window.predictButton.click()
    texts = visible_texts(window)
    table = window.runsTable
    texts += [("runs table", table.item(0, column).text()) for column in range(table.columnCount())]
    assert untranslated(texts) == []
    assert "已完成" in window.statusLabel.text()
    window.lrInput.setText("fast")
    window.startButton.click()
    assert window.settingsError.text() == "学习率必须是数字，而不是 'fast'"


def test_core_messages_render_in_the_windows_language(chinese):
    with pytest.raises(rules.InvalidSetting) as refused:
        rules.parse_batch_size("-3")
    assert str(refused.value) == "batch size must be from 0 to 10,000,000 (0: the full batch), not -3"
    assert i18n.say(refused.value) == "批大小必须在 0 到 10,000,000 之间（0：全批量），而不是 -3"
    assert i18n.say("plain text") == "plain text" and i18n.say(None) == ""
    assert i18n.status_text("diverged") == "已发散"


def test_a_translation_with_a_broken_field_falls_back_to_english():
    message = Message("{device} failed", {"device": "cuda:0"})
    assert message.render(lambda text: "{设备} 失败") == "cuda:0 failed"


def test_the_code_panel_comments_follow_the_language(qtbot, chinese):
    window = open_window(qtbot)
    text = window.codePanel.view.toPlainText()
    assert "# 3. 训练：100 轮前向、损失、反向、更新。" in text
    assert "for epoch in range(100):" in text  # the code itself stays code
    compile(text, "gpudemo_run.py", "exec")


def test_the_language_menu_switches_at_once_and_keeps_the_runs(qtbot):
    window = open_window(qtbot, session=Session())
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    window.epochsSpin.setValue(37)
    window.viewTabs.setCurrentWidget(window.landscapeView)
    try:
        with qtbot.waitSignal(window.replaced) as replaced:
            window.actions.language_actions[i18n.CHINESE].trigger()
        new = replaced.args[0]
        qtbot.addWidget(new, before_close_func=lambda w: w.close())
        assert not window.isVisible()
        assert i18n.current() == i18n.CHINESE
        assert new.windowTitle() == "gpudemo — 看 PyTorch 在 GPU 上训练"
        assert new.isVisible() and new.epochsSpin.value() == 37
        bar = new.progressBar
        assert (bar.value(), bar.maximum()) == (20, 20) and "轮/秒" in new.rateLabel.text()  # the bar was empty
        assert new.viewTabs.currentWidget() is new.landscapeView
        assert new.runsTable.rowCount() == 1 and new.runsTable.item(0, 7).text() == "已完成"
        assert new.trainingView.chosen() is window.session.runs[0]
        assert new.actions.language_actions[i18n.CHINESE].isChecked()
        back = new.set_language(i18n.ENGLISH)
        qtbot.addWidget(back, before_close_func=lambda w: w.close())
        assert back.windowTitle() == "gpudemo — watch PyTorch train on a GPU"
        assert back.runsTable.item(0, 7).text() == "completed"
    finally:
        i18n.install(i18n.ENGLISH)


def test_the_language_cannot_change_while_a_run_goes(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    try:
        assert not window.actions.language_actions[i18n.CHINESE].isEnabled()
        assert window.set_language(i18n.CHINESE) is window and i18n.current() == i18n.ENGLISH
    finally:
        with qtbot.waitSignal(window.runFinished, timeout=60_000):
            window.stopButton.click()


def _first_start(tmp_path, **env):
    script = (
        "import json\n"
        "from gpudemo.ui.app import build_app\n"
        "app, shown = build_app([])\n"
        "window = shown.window\n"
        "menus = [action.text() for action in window.menuBar().actions()]\n"
        "print(json.dumps([window.windowTitle(), menus[:1]]))\n"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    environment.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path), **env)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_chinese_locale_gives_a_chinese_window_at_first_start(tmp_path):
    title, menus = _first_start(tmp_path, LANG="zh_CN.UTF-8")
    assert title == "gpudemo — 看 PyTorch 在 GPU 上训练" and menus == ["文件(&F)"]


def test_the_saved_language_wins_over_the_locale(tmp_path):
    (tmp_path / "gpudemo").mkdir()
    (tmp_path / "gpudemo" / "gpudemo.ini").write_text("[General]\nversion=1\nlanguage=en\n")
    title, _ = _first_start(tmp_path, LANG="zh_CN.UTF-8")
    assert title == "gpudemo — watch PyTorch train on a GPU"
    title, _ = _first_start(tmp_path / "other", LANG="en_US.UTF-8")
    assert title == "gpudemo — watch PyTorch train on a GPU"


def _messages(ts: Path) -> dict[tuple[str, str], str | None]:
    """(context, source) -> the translation, None where unfinished."""
    found = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            finished = translation.get("type") not in ("unfinished", "obsolete", "vanished")
            found[(name, message.findtext("source"))] = translation.text if finished else None
    return found


def test_the_translations_cover_every_string_and_are_built(tmp_path):
    """lupdate over the sources finds what the .ts has; each is translated with the same {fields};
    and the shipped .qm is what lrelease builds from the .ts (run `python3 dev.py translations`)."""
    sys.path.insert(0, str(ROOT))
    import dev

    fresh = tmp_path / TS.name
    fresh.write_bytes(TS.read_bytes())
    dev.update_translations([fresh], tmp_path)
    committed, updated = _messages(TS), _messages(fresh)
    assert set(updated) == set(committed), "run `python3 dev.py translations` and translate the new strings"
    unfinished = [key for key, text in committed.items() if not text]
    assert unfinished == []
    for (context, source), text in committed.items():
        assert sorted(re.findall(r"{\w*}", source)) == sorted(re.findall(r"{\w*}", text)), (context, source)
        assert re.findall(r"%\w", source) == re.findall(r"%\w", text), (context, source)
    assert (tmp_path / "gpudemo_zh_CN.qm").read_bytes() == TS.with_suffix(".qm").read_bytes()
