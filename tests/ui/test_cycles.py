"""Python's cycles are collected on the GUI thread between events, never inside a Qt call or on the training
thread (ui/base/cycles.py). Without it a window's construction hung now and then for good: a collection set off
inside QObject::disconnect destroyed an old plot's menu, whose action asked for the lock the disconnect held."""

import gc
import threading
import weakref

import pytest

from gpudemo.ui.base.cycles import GC_AFTER_COMPILE, CycleCollector, Cycles, no_collection_after_compile


class Node:
    """One half of a reference cycle; says on which thread it was freed."""

    freed_on: list[int] = []

    def __init__(self):
        self.other = None

    def __del__(self):
        Node.freed_on.append(threading.get_ident())


class Leaf:
    """An object Python's collector counts (empty lists come from a free list it does not count)."""

    __slots__ = ("value",)


def leaves(count: int) -> list[Leaf]:
    return [Leaf() for _ in range(count)]


def two_nodes() -> Node:
    """A reference cycle of two nodes; the first of them."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first


def cycle() -> weakref.ref:
    """A reference cycle nothing holds (alive until a collection frees it)."""
    return weakref.ref(two_nodes())


def test_the_application_collects_cycles_from_its_event_loop_not_wherever_an_allocation_trips_it():
    import subprocess
    import sys

    code = (
        "import gc\n"
        "from gpudemo.ui.app import build_app\n"
        "from gpudemo.ui.base.cycles import CycleCollector\n"
        "app, shown = build_app([])\n"
        "build_app([])\n"  # a second window in the same application: still one collector
        "print(gc.isenabled(), len(app.findChildren(CycleCollector)))\n"
        "import torch._dynamo.config\n"  # PyTorch comes after the window: the compile collects nothing itself
        "print(torch._dynamo.config.run_gc_after_compile)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "1", "False"]


def test_torch_compile_collects_nothing_on_its_thread_unless_the_environment_asks(monkeypatch):
    import torch._dynamo.config as dynamo

    monkeypatch.setattr(dynamo, "run_gc_after_compile", True)
    monkeypatch.setenv(GC_AFTER_COMPILE, "1")  # the person's choice stands
    no_collection_after_compile()
    assert dynamo.run_gc_after_compile
    monkeypatch.delenv(GC_AFTER_COMPILE)
    no_collection_after_compile()  # PyTorch imported before the window
    assert not dynamo.run_gc_after_compile


def test_a_cycle_dropped_on_the_training_thread_is_freed_on_the_gui_thread(qtbot, qapp):
    assert qapp.findChild(CycleCollector) is not None and not gc.isenabled()  # as the app has it
    Node.freed_on.clear()
    dropped = []

    def training():
        dropped.append(cycle())
        # As a run does: enough allocations to have set Python's own collector off, here, many times over
        # (kept: what is freed counts back down).
        dropped.append(leaves(50 * gc.get_threshold()[0]))

    thread = threading.Thread(target=training)
    thread.start()
    thread.join()
    assert dropped[0]() is not None  # nothing collected it on the training thread
    qtbot.waitUntil(lambda: dropped[0]() is None, timeout=5_000)
    assert set(Node.freed_on) == {threading.main_thread().ident}
    dropped.clear()


@pytest.fixture
def collected():
    """Automatic collection off (as the window has it) and nothing pending, for a test that collects by hand."""
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    yield
    if was:
        gc.enable()


def test_collect_due_collects_what_pythons_thresholds_say_and_no_sooner(collected):
    cycles = Cycles()
    young = cycle()
    cycles.collect_due()
    assert young() is not None  # a few objects: not due yet
    many = leaves(gc.get_threshold()[0] + 10)
    cycles.collect_due()
    assert young() is None
    del many


def in_the_oldest_generation() -> weakref.ref:
    """A cycle that lived through a collection of the middle generation (so reached the oldest), then dropped."""
    held = two_nodes()
    gc.collect(1)
    assert any(node is held for node in gc.get_objects(2))
    found = weakref.ref(held)
    del held
    return found


def test_the_oldest_generation_is_collected_only_once_a_quarter_more_has_reached_it(collected):
    cycles = Cycles()
    old = in_the_oldest_generation()
    first, second, third = gc.get_threshold()

    def due_rounds(rounds):
        for _ in range(rounds):
            kept = leaves(first + 1)
            cycles.collect_due()
            del kept

    due_rounds((second + 1) * (third + 2))  # the first look collects it: nothing had lived through one
    assert old() is None
    old = in_the_oldest_generation()
    due_rounds((second + 1) * (third + 2))  # a look: far less than a quarter more than lived through it
    assert old() is not None
    kept = leaves(len(gc.get_objects(2)))  # as many again, promoted to the oldest
    gc.collect(1)  # promoted to the oldest
    due_rounds((second + 1) * (third + 2))
    assert old() is None
    del kept
