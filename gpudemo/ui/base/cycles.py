"""Python's cycle collector, run on the GUI thread between events instead of wherever an allocation trips it.

Left to itself, Python collects reference cycles whenever enough objects have been allocated: in any thread,
in the middle of any call. A cycle that holds a Qt object (pyqtgraph keeps each plot's menus in cycles with
the plot) is then destroyed wherever that happens. Seen here: a window's construction hung for good, its
GUI thread asleep on a lock it held itself (QObject::disconnect holds one of Qt's signal-slot locks; a
PySide override lookup inside it allocated, the collector ran and destroyed an old plot's QMenu, and the
menu's QAction, destroyed, asked for the same lock: Qt shares a pool of locks among all objects, by address,
so it happens only now and then). And a cycle collected on the training thread destroys its Qt objects off
the GUI thread. So the application turns automatic collection off and collects from its event loop, by
Python's own thresholds, a few times a second (pyqtgraph's GarbageCollector does the same), where no Qt
call is under way. torch.compile's own collection after each compile, on the compiling thread, is turned off
with it.
"""

from __future__ import annotations

import gc
import os
import sys

from PySide6.QtCore import QObject, QTimer, Slot

# torch.compile collects after each compile (torch._dynamo.config.run_gc_after_compile), on the thread that compiled
GC_AFTER_COMPILE = "TORCH_DYNAMO_RUN_GC_AFTER_COMPILE"
INTERVAL_MS = 250  # a look at the counts costs nothing; collecting the young generation well under a millisecond


class Cycles:
    """Collects what Python's automatic collector would have collected by now, when asked.

    As Python does, the oldest generation is collected only once the objects that reached it since its last
    collection are a quarter of those that lived through it: a whole collection takes ~100 ms beside PyTorch
    and the window (220,000 objects here), and most of what reaches it lives on. Counting that generation
    costs ~14 ms, so it is counted only where Python would look."""

    def __init__(self) -> None:
        self._middles = 0  # collections of the middle generation since the oldest was last looked at
        self._lived: int | None = None  # objects in the oldest generation after its last collection

    def collect_due(self) -> None:
        young, middle, _ = gc.get_count()
        first, second, third = gc.get_threshold()
        if young <= first:
            return
        if middle <= second:
            gc.collect(0)
            return
        gc.collect(1)
        self._middles += 1
        if self._middles <= third:
            return
        self._middles = 0
        old = len(gc.get_objects(2))
        if self._lived is None or old - self._lived > self._lived / 4:
            gc.collect(2)
            self._lived = len(gc.get_objects(2))


def no_collection_after_compile() -> None:
    """torch.compile's collection after a compile left out (the event loop's collects its garbage), unless the
    person's environment asks for it: for PyTorch imported later, by its variable, else in its config."""
    if os.environ.setdefault(GC_AFTER_COMPILE, "0") == "0":
        config = sys.modules.get("torch._dynamo.config")
        if config is not None:
            config.run_gc_after_compile = False


class CycleCollector(QObject):
    """Automatic collection off for the process; what is due collected from the event loop every `INTERVAL_MS`."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.cycles = Cycles()
        gc.disable()
        no_collection_after_compile()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect)
        self._timer.start(INTERVAL_MS)

    @Slot()
    def collect(self) -> None:
        self.cycles.collect_due()


def collect_between_events(app: QObject) -> CycleCollector:
    """The application's collector: started with its first window, the same one for every later window."""
    return app.findChild(CycleCollector) or CycleCollector(app)
