"""Runs, the session that keeps them, smoothing and pace: the core, without Qt."""

import math

import numpy as np
import pytest

from gpudemo.core.base import pace
from gpudemo.core.base.control import RunControl
from gpudemo.core.session.runs import PAUSED, PREPARING, RUNNING, Session
from gpudemo.core.session.smoothing import SmoothedHistory, ema
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import (
    COMPLETED,
    DIVERGED,
    FAILED,
    STOPPED,
    LoopOptions,
    run_training,
    train,
)
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.landscape import PathHistory


def tensorboard_smoothing(values, weight):
    """TensorBoard's own loop (tf_smoothing in its scalar dashboard), one value at a time."""
    out, last, count = [], 0.0, 0
    for value in values:
        if not math.isfinite(value):
            out.append(value)
            continue
        last = last * weight + (1 - weight) * value
        count += 1
        out.append(last / (1 - weight**count) if weight < 1 else last)
    return np.array(out)


@pytest.mark.parametrize("weight", [0.0, 0.01, 0.3, 0.6, 0.9, 0.99])
def test_smoothing_is_tensorboards_debiased_average_batch_by_batch(weight):
    rng = np.random.default_rng(1)
    losses = (5 * np.exp(-np.arange(6000) / 700) + rng.random(6000)).astype(np.float32)
    history = LossHistory(len(losses))
    smoothed = SmoothedHistory(history, weight)
    for start in range(0, len(losses), 977):  # batches of any length, as a run hands them over
        history.extend(losses[start : start + 977])
        smoothed.update(history.count)
    expected = tensorboard_smoothing(losses.astype(np.float64).tolist(), weight)
    np.testing.assert_allclose(smoothed.history.values, expected, rtol=2e-6)
    assert smoothed.history.values[0] == pytest.approx(losses[0])  # debiased: no start from zero


def test_smoothing_leaves_a_diverged_runs_last_loss_as_it_is():
    history = LossHistory(4)
    history.extend(np.array([1.0, 2.0, 3.0, np.inf], dtype=np.float32))
    values = SmoothedHistory(history, 0.5).update(4).values
    np.testing.assert_allclose(values[:3], tensorboard_smoothing([1.0, 2.0, 3.0], 0.5), rtol=1e-6)
    assert np.isinf(values[3])


def test_smoothing_ten_million_losses_matches_the_loop_where_it_is_checked():
    values = np.random.default_rng(2).random(10_000_000).astype(np.float32)
    averaged = ema(values, 0.9)
    state = 0.0
    for index in range(2000):  # the recurrence, by hand, over the first blocks and across their seams
        state = 0.9 * state + 0.1 * float(values[index])
    assert averaged[1999] == pytest.approx(state, rel=1e-12)
    assert np.isfinite(averaged).all() and abs(averaged[-1000:].mean() - 0.5) < 0.05


def test_weights_outside_the_range_are_refused():
    with pytest.raises(ValueError, match="smoothing must be from 0 to 0.99"):
        SmoothedHistory(LossHistory(1), 1.0)


def test_pace_is_the_same_arithmetic_everywhere():
    assert pace.rate(100, 2.0) == 50.0 and pace.rate(0, 2.0) == 0.0 and pace.rate(10, 0.0) == 0.0
    assert pace.eta(100, 300, 2.0) == 4.0
    assert pace.eta(300, 300, 2.0) == 0.0 and pace.eta(0, 300, 0.0) == math.inf


def test_a_history_trims_to_what_it_ran_and_reserves_room():
    history = LossHistory(1000)
    history.extend(np.arange(1, 101, dtype=np.float32))
    history.trim()
    assert history.capacity == 100 and history.nbytes < 600
    history.reserve(300)
    history.extend(np.full(200, 0.5, dtype=np.float32))
    x, y = history.envelope(history.count, 1, 300, 10)
    assert y.max() == 100 and y.min() == 0.5 and history.values[99] == 100


def drive(session, config, control=None, on_pause=None):
    """What the window does with a run: start it in the session, hand it every batch, finish it."""
    run = session.start(config)
    batches = run_training(config, LoopOptions(history=run.history, control=control, on_pause=on_pause, fit=True))
    run.began()
    while True:
        try:
            run.add(next(batches))
        except StopIteration as finished:
            run.finish(finished.value)
            session.changed(run)
            return run


def test_a_run_keeps_its_numbers_its_clock_and_its_model():
    session = Session()
    added, changed = [], []
    session.subscribe(added=added.append, changed=changed.append)
    run = drive(session, TrainingConfig(epochs=300))
    assert added == [run] and changed == [run] and run.number == 1
    assert run.status == COMPLETED and run.count == 300 and run.model_epochs == 300
    assert run.final_loss == pytest.approx(run.result.final_loss)
    assert run.rate == pytest.approx(300 / run.result.seconds) and run.eta == 0.0
    assert run.history.capacity == 300
    seconds = run.seconds_at(np.array([0.0, 300.0]))
    assert seconds[0] == 0 and seconds[1] == pytest.approx(run.result.seconds)
    assert run.epochs_at(run.result.seconds) == pytest.approx(300)
    times = run.seconds_at(np.arange(1, 301, dtype=np.float64))
    assert (np.diff(times) >= 0).all()


def test_a_stopped_run_gives_back_the_room_it_did_not_use():
    session = Session()
    run = session.start(TrainingConfig(epochs=1_000_000))
    assert run.history.nbytes > 4_000_000
    calls = iter(range(10**9))
    batches = run_training(
        run.config, LoopOptions(should_stop=lambda: next(calls) >= 50, history=run.history, fit=True)
    )
    while True:
        try:
            run.add(next(batches))
        except StopIteration as finished:
            run.finish(finished.value)
            break
    assert run.status == STOPPED and run.count == 50 and run.history.nbytes < 1000


def test_a_run_stopped_before_its_first_epoch_ends_cleanly():
    session = Session()
    run = session.start(TrainingConfig(epochs=100))
    result = train(run.config, LoopOptions(should_stop=lambda: True, history=run.history))
    run.finish(result)
    assert run.status == STOPPED and run.count == 0 and run.final_loss is None and run.rate == 0.0
    assert run.seconds_at(np.array([0.0]))[0] == 0.0


def test_a_paused_run_holds_a_model_and_takes_no_time_while_held():
    session = Session()
    control = RunControl()
    control.pause()
    held = []

    def on_pause(epochs, model):
        run.hold(epochs, model)
        held.append((run.status, epochs, run.model))
        control.resume()
        run.resume()

    run = session.start(TrainingConfig(epochs=50))
    batches = run_training(run.config, LoopOptions(history=run.history, control=control, on_pause=on_pause, fit=True))
    assert run.status == PREPARING
    for batch in batches:
        run.add(batch)
    assert held[0][0] == PAUSED and held[0][1] == 0 and held[0][2] is not None
    assert run.status == RUNNING and run.count == 50


def test_the_session_keeps_at_most_so_many_runs_the_oldest_going_first():
    session = Session(max_runs=3)
    removed = []
    session.subscribe(removed=removed.append)
    runs = [drive(session, TrainingConfig(epochs=5, seed=seed)) for seed in range(5)]
    assert session.runs == runs[2:] and removed == runs[:2]
    assert [run.number for run in session.runs] == [3, 4, 5]


def test_the_session_keeps_within_its_memory_and_says_how_much_it_holds():
    session = Session()
    runs = [drive(session, TrainingConfig(epochs=2000))]
    going = LossHistory(2000).nbytes + PathHistory(2000).nbytes  # a run going holds room for all its epochs
    session.max_bytes = going + int(2.5 * runs[0].nbytes)  # a run going and two finished ones
    runs += [drive(session, TrainingConfig(epochs=2000, seed=seed)) for seed in range(1, 5)]
    assert session.nbytes <= session.max_bytes
    assert session.runs == runs[-3:]
    session.set_smoothing(0.6)  # smoothed curves count too
    assert session.nbytes <= session.max_bytes and session.runs[-1] is runs[-1]


def test_clear_keeps_the_run_going_and_a_second_run_cannot_start_beside_it():
    session = Session()
    drive(session, TrainingConfig(epochs=5))
    going = session.start(TrainingConfig(epochs=5))
    with pytest.raises(RuntimeError, match="still going"):
        session.start(TrainingConfig(epochs=5))
    session.clear()
    assert session.runs == [going] and session.live is going
    going.fail("cuda:0 ran out of memory")
    assert going.status == FAILED and session.live is None
    session.clear()
    assert session.runs == [] and session.current is None


def test_a_diverged_run_says_so():
    run = drive(Session(), TrainingConfig(epochs=100, lr=1000.0))
    assert run.status == DIVERGED and not math.isfinite(run.final_loss)
