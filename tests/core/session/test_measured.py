"""The session's record of measurements: each view's latest request, readings and result."""

from gpudemo.core.session.measured import Feed, Measured
from gpudemo.core.session.runs import Session


class Drawn:
    """A view that writes down what it was asked to show."""

    def __init__(self):
        self.shown = []

    def begin(self, *asked):
        self.shown.append(("begin", asked))

    def add(self, reading):
        self.shown.append(("add", reading))

    def end(self, *result):
        self.shown.append(("end", result))
        return f"ended with {result}"


def test_a_feed_records_what_it_draws_and_says_what_the_view_says():
    measured, view = Measured(), Drawn()
    feed = Feed(measured, "sweepView", view)
    feed.begin("step")
    feed.add(1)
    feed.add(2)
    assert feed.end("done") == "ended with ('done',)"
    assert view.shown == [("begin", ("step",)), ("add", 1), ("add", 2), ("end", ("done",))]
    latest = measured.latest("sweepView")
    assert (latest.asked, latest.readings, latest.result) == (("step",), [1, 2], ("done",))


def test_a_new_measurement_replaces_the_last_and_another_view_keeps_its_own():
    measured = Measured()
    measured.begin("sweepView", "step")
    measured.add("sweepView", 1)
    measured.end("sweepView", "first")
    measured.begin("transferView", "cuda:0")
    measured.begin("sweepView", "matmul")  # a second sweep, stopped before its end
    measured.add("sweepView", 7)
    again = Drawn()
    measured.show("sweepView", again)
    assert again.shown == [("begin", ("matmul",)), ("add", 7)]  # no end: it never ended
    assert measured.views() == ["sweepView", "transferView"] and measured.latest("compareView") is None


def test_the_session_keeps_its_measurements_beside_its_runs():
    session = Session()
    session.measured.begin("profileView")
    session.measured.end("profileView", "a profile", "tutorial")
    shown = Drawn()
    session.measured.show("profileView", shown)
    assert shown.shown == [("begin", ()), ("end", ("a profile", "tutorial"))]
