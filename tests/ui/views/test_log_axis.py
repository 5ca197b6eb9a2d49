"""A log axis's labels: each where it has room (the powers of ten first, then 5 and 2), never over another."""

import math

import pytest
from PySide6.QtGui import QImage, QPainter

from gpudemo.ui.views.plot_style import new_plot


def drawn_labels(qtbot, height: int, low: float, high: float) -> list[tuple[float, float, str]]:
    """(top, bottom, text) of each label the left axis draws over `low`..`high` on a plot `height` pixels tall,
    as the loss plot sets its axis (no SI prefix)."""
    widget = new_plot("logPlot", "epoch", "loss")
    qtbot.addWidget(widget)
    widget.resize(500, height)
    widget.show()
    qtbot.waitExposed(widget)
    item = widget.getPlotItem()
    axis = item.getAxis("left")
    axis.enableAutoSIPrefix(False)
    item.setLogMode(y=True)
    item.setYRange(math.log10(low), math.log10(high), padding=0)
    qtbot.waitUntil(lambda: min(axis.range) == pytest.approx(math.log10(low)))  # the view tells its axis
    image = QImage(600, height, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return sorted((rect.top(), rect.bottom(), text) for rect, _flags, text in texts)


@pytest.mark.parametrize("height", [180, 260, 400])
def test_no_two_labels_touch_and_the_powers_of_ten_are_kept(qtbot, height):
    labels = drawn_labels(qtbot, height, 0.008, 0.15)  # the sine's losses in the README's screenshot
    texts = [text for _, _, text in labels]
    assert "0.1" in texts and "0.01" in texts
    assert len(texts) == len(set(texts))  # a power of ten once, not drawn over itself
    for (_, above_bottom, above), (below_top, _, below) in zip(labels, labels[1:], strict=False):
        assert above_bottom <= below_top, (above, below)


def test_with_room_every_multiple_is_labelled(qtbot):
    labels = drawn_labels(qtbot, 900, 0.0095, 0.105)
    assert {text for _, _, text in labels} == {f"0.0{n}" for n in range(1, 10)} | {"0.1"}
