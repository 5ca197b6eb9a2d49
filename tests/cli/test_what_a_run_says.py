"""What a run and a measurement say beside their numbers: a CPU figure taken while other processes held its
cores is marked (over the timed loop alone, not a compile's own workers); a compile's seconds count the
compiler's loading; workers on an uneven split say why their loss is not one worker's; a compiled row beside
an eager one says why their last digits may differ."""

import json

from gpudemo.core import training
from gpudemo.core.distributed.launcher import uneven_split
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import LoopOptions, train
from tests.commands import gpudemo


class _Busy:
    """OtherLoad as on a machine where another process held a core all along."""

    def __init__(self, threads=None):
        self.busy = True
        self.cores = 1.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def test_a_cpu_run_timed_while_others_held_its_cores_is_marked_busy(monkeypatch):
    monkeypatch.setattr(training.loop, "OtherLoad", _Busy)
    result = train(TrainingConfig(device="cpu", epochs=20))
    assert result.busy
    out = gpudemo("train", "--device", "cpu", "--epochs", "20")
    assert "busy        other programs took the cores this run's threads needed" in out.stdout
    assert json.loads(gpudemo("train", "--device", "cpu", "--epochs", "20", "--json").stdout)["busy"] is True


def test_the_busy_check_covers_the_timed_loop_not_what_comes_before(monkeypatch):
    events = []

    class Watching(_Busy):
        def __enter__(self):
            events.append("enter")
            return self

    monkeypatch.setattr(training.loop, "OtherLoad", Watching)
    train(TrainingConfig(device="cpu", epochs=3), LoopOptions(on_phase=events.append))
    assert events.index("enter") > events.index(training.TRAINING)  # after the warm-up and any compile


def test_a_compiles_seconds_count_loading_the_compiler(monkeypatch):
    import torch

    from gpudemo.core.step import step as step_module

    monkeypatch.setattr(torch, "compile", lambda fn, **options: fn)  # the compiler stays out of this process
    monkeypatch.setattr(step_module, "load_compiler", lambda: __import__("time").sleep(0.3))
    result = train(TrainingConfig(device="cpu", epochs=3, step="compiled"))
    assert result.compile_seconds >= 0.3


def test_workers_on_an_uneven_split_say_why_their_loss_differs():
    note = uneven_split(TrainingConfig(), 2)  # the tutorial's 3 samples on 2 workers
    assert str(note).startswith("3 samples do not split evenly over 2 workers: DistributedSampler pads them to 4")
    assert "(2 each) by repeating 1 of them" in str(note)
    assert uneven_split(TrainingConfig(problem="line", samples=1000), 2) is None
    assert uneven_split(TrainingConfig(), 1) is None


def test_a_compiled_row_beside_an_eager_one_says_why_their_digits_may_differ(monkeypatch):
    import torch

    monkeypatch.setattr(torch, "compile", lambda fn, **options: fn)
    out = gpudemo("compare", "--device", "cpu", "--step", "eager", "--step", "compiled", "--epochs", "5")
    assert out.returncode == 0 and "cpu · compiled: compiled fuses operations and adds in another order" in out.stdout
    alone = gpudemo("compare", "--device", "cpu", "--step", "compiled", "--epochs", "5")
    assert "adds in another order" not in alone.stdout
