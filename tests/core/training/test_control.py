"""Pause, step and stop from outside the loop (core/base/control.py): plain pytest, no Qt."""

import numpy as np
import pytest
import torch

from gpudemo.core import training
from gpudemo.core.base.control import RunControl
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import COMPLETED, STOPPED, LoopOptions, train
from tests.core.training.test_training import _offset_clock as offset_clock


@pytest.mark.parametrize(
    "config",
    [
        TrainingConfig(epochs=300),
        TrainingConfig(problem="sine", samples=200, batch_size=64, epochs=40, optimizer="adam", lr=0.01),
    ],
)
def test_a_paused_and_resumed_run_gives_exactly_the_same_losses(config):
    control = RunControl()
    control.pause_after(10)  # at the tenth epoch, however the read-backs fall
    pauses = []

    def on_pause(epochs, model):
        pauses.append(epochs)
        control.resume()

    paused = train(config, LoopOptions(control=control, on_pause=on_pause))
    plain = train(config)
    assert pauses == [10]
    assert paused.losses.tobytes() == plain.losses.tobytes()  # bit for bit
    for a, b in zip(paused.model.parameters(), plain.model.parameters(), strict=True):
        assert torch.equal(a, b)


def test_each_step_runs_one_epoch_and_the_snapshot_is_the_model_then():
    control = RunControl()
    control.pause()  # before the first epoch
    seen = []

    def on_pause(epochs, model):
        seen.append((epochs, model.weight.item(), next(model.parameters()).device.type))
        if len(seen) < 4:
            control.step()
        else:
            control.resume()

    result = train(TrainingConfig(epochs=20), LoopOptions(control=control, on_pause=on_pause))
    assert [epochs for epochs, _, _ in seen] == [0, 1, 2, 3]
    assert all(device == "cpu" for _, _, device in seen)
    torch.manual_seed(0)
    assert seen[0][1] == torch.nn.Linear(1, 1).weight.item()  # epoch 0: the initial weights
    assert result.status == COMPLETED and result.epochs_run == 20
    np.testing.assert_array_equal(result.losses, train(TrainingConfig(epochs=20)).losses)


def test_pause_after_holds_at_that_epoch_even_when_no_read_back_comes_near_it(monkeypatch):
    # No read-back until the end (the first-epoch one aside): the pause must still fall at epoch 7.
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 10**9)
    control = RunControl()
    control.pause_after(7)
    seen = []

    def on_pause(epochs, model):
        seen.append((epochs, model.weight.item()))
        control.resume()

    run = training.run_training(
        TrainingConfig(epochs=300), LoopOptions(control=control, on_pause=on_pause, flush_seconds=1e9, fit=True)
    )
    batches = []
    while True:
        try:
            batches.append(next(run))
        except StopIteration as finished:
            result = finished.value
            break
    assert [epochs for epochs, _ in seen] == [7] and result.epochs_run == 300
    # the pause reads back what came before it, and the first epoch after it comes back at once
    assert [batch.last_epoch for batch in batches] == [1, 7, 8, 300]
    assert seen[0][1] == train(TrainingConfig(epochs=7)).model.weight.item()


def test_a_stop_while_paused_ends_the_run():
    control = RunControl()
    control.pause()
    result = train(
        TrainingConfig(epochs=100), LoopOptions(control=control, on_pause=lambda epochs, model: control.stop())
    )
    assert result.status == STOPPED and result.epochs_run == 0


def test_paused_time_is_left_out_of_the_timing(monkeypatch):
    # A pause of 1,000 s on the loop's own clock, without waiting for it: a real wait would
    # make this test depend on how a busy machine schedules two threads.
    offset = offset_clock(monkeypatch)

    def pause_for_a_long_time(self):
        offset[0] += 1000.0
        self.resume()
        return 1000.0

    monkeypatch.setattr(RunControl, "wait", pause_for_a_long_time)
    control = RunControl()
    control.pause()
    result = train(TrainingConfig(epochs=50), LoopOptions(control=control))
    assert result.epochs_run == 50 and offset[0] == 1000.0
    assert 0 < result.seconds < 100  # without the pause left out it would be over 1,000


def test_a_step_or_resume_without_a_pause_changes_nothing():
    control = RunControl()
    control.step()
    control.resume()
    assert not control.is_paused() and control.wait() < 0.1
    assert train(TrainingConfig(epochs=5), LoopOptions(control=control)).epochs_run == 5
