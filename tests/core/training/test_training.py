import dataclasses
import itertools
import time
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from gpudemo.core import training
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import (
    COMPLETED,
    DIVERGED,
    STOPPED,
    TO_CPU,
    TO_DEVICE,
    TRAINING,
    LoopOptions,
    TrainingError,
    run_training,
    train,
)
from gpudemo.core.training.prediction import predict
from tests.core.training.test_step_modes import unchecked
from tests.tutorial import drain, tutorial_run


@pytest.mark.parametrize("seed", [0, 1, 42, 2024, 123456789])
def test_matches_the_tutorial_loop(seed):
    expected = tutorial_run(seed)
    result = train(TrainingConfig(device="cpu", epochs=100, lr=0.1, seed=seed))
    assert result.status == COMPLETED
    assert result.epochs_run == 100
    assert abs(result.final_loss - expected["losses"][-1]) <= 1e-6
    np.testing.assert_allclose(result.losses, expected["losses"], rtol=0, atol=1e-6)
    assert abs(result.parameters["weight"] - expected["weight"]) <= 1e-5
    assert abs(result.parameters["bias"] - expected["bias"]) <= 1e-5
    assert abs(predict(result.model, [4.0])[0] - expected["prediction"]) <= 1e-5


def test_other_settings_match_the_tutorial_too():
    expected = tutorial_run(7, epochs=1000, lr=0.01, x_test=-2.5)
    result = train(TrainingConfig(epochs=1000, lr=0.01, seed=7))
    assert abs(result.final_loss - expected["losses"][-1]) <= 1e-6
    assert abs(predict(result.model, [-2.5])[0] - expected["prediction"]) <= 1e-5


def test_predicts_about_eight_for_four():
    result = train(TrainingConfig(epochs=100, lr=0.1, seed=0))
    (y,) = predict(result.model, [4.0])
    assert 7.5 < y < 8.5


def test_predictions_keep_the_order_given():
    result = train(TrainingConfig(epochs=300, seed=0))
    ys = predict(result.model, [3.0, -1.0, 10.0])
    assert ys[0] == pytest.approx(6.0, abs=0.05)
    assert ys[1] == pytest.approx(-2.0, abs=0.1)
    assert ys[2] == pytest.approx(20.0, abs=0.3)


def test_model_comes_back_on_the_cpu():
    result = train(TrainingConfig(epochs=3))
    assert all(p.device.type == "cpu" for p in result.model.parameters())
    assert result.seconds > 0 and result.epochs_per_second > 0


def test_batches_cover_every_epoch_once_in_order(monkeypatch):
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 7)
    batches = []
    result = train(TrainingConfig(epochs=50), on_batch=batches.append)
    assert batches[0].first_epoch == 1
    for before, after in itertools.pairwise(batches):
        assert after.first_epoch == before.last_epoch + 1
    assert batches[-1].last_epoch == 50
    assert max(len(b.losses) for b in batches) <= 7
    np.testing.assert_array_equal(np.concatenate([b.losses for b in batches]), result.losses)
    assert result.losses.dtype == np.float32


@pytest.mark.parametrize("problem", ["tutorial", "circles"])
def test_the_last_batch_carries_the_final_models_fit_when_it_falls_due_with_the_last_epoch(monkeypatch, problem):
    # FLUSH_EPOCHS divides the epochs: the last batch is read back inside the loop, as it falls due, not after
    # it; and the fit's cadence would skip it (its evaluations kept to a share of the run)
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 10)
    monkeypatch.setattr(training.readback, "FIT_SHARE", 1e-9)
    batches = []
    config = TrainingConfig(problem=problem, epochs=61, samples=64)  # epoch 1 alone, then 6 batches of 10
    result = train(config, LoopOptions(fit=True, flush_seconds=60), on_batch=batches.append)
    assert batches[-1].last_epoch == 61 and len(batches[-1].losses) == 10 and batches[-1].fit is not None
    grid = torch.as_tensor(batches[0].data.grid, dtype=torch.float32)
    with torch.no_grad():
        if problem == "circles":
            x2, x1 = torch.meshgrid(grid, grid, indexing="ij")
            outputs = torch.softmax(result.model(torch.stack((x1.reshape(-1), x2.reshape(-1)), dim=1)), dim=1)
        else:
            outputs = result.model(grid.reshape(-1, 1))
    np.testing.assert_allclose(batches[-1].fit.reshape(-1), outputs.numpy().reshape(-1), rtol=1e-5, atol=1e-6)


def test_a_stop_asked_during_the_epoch_whose_batch_falls_due_ends_on_the_stopped_models_fit(monkeypatch):
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 10)
    monkeypatch.setattr(training.readback, "FIT_SHARE", 1e-9)  # the fit's cadence would skip every later batch
    asked, batches = [], []

    def stop_during_epoch_31():  # asked before epoch 1, then as each epoch ends: the 32nd ask ends epoch 31
        asked.append(1)
        return len(asked) > 31

    config = TrainingConfig(epochs=1000)
    result = train(config, LoopOptions(should_stop=stop_during_epoch_31, fit=True, flush_seconds=60), batches.append)
    assert result.status == STOPPED and result.epochs_run == 31 and len(asked) == 32
    assert batches[-1].last_epoch == 31 and batches[-1].fit is not None  # epochs 22-31: due with the stop
    grid = torch.as_tensor(batches[0].data.grid, dtype=torch.float32)
    with torch.no_grad():
        np.testing.assert_allclose(
            batches[-1].fit.reshape(-1), result.model(grid.reshape(-1, 1)).numpy().reshape(-1), rtol=1e-5, atol=1e-6
        )


def test_the_first_epoch_comes_back_on_its_own_at_once(monkeypatch):
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 100)
    run = run_training(TrainingConfig(epochs=10_000), LoopOptions(flush_seconds=60, fit=True))
    first, second = next(run), next(run)
    assert (first.first_epoch, first.last_epoch) == (1, 1)
    assert second.first_epoch == 2 and len(second.losses) == training.readback.FLUSH_EPOCHS
    run.close()


def test_losses_are_read_back_in_batches_not_every_epoch(monkeypatch):
    calls = []
    real_stack = torch.stack
    monkeypatch.setattr(
        torch, "stack", lambda tensors, *a, **k: calls.append(len(tensors)) or real_stack(tensors, *a, **k)
    )
    train(TrainingConfig(epochs=2000))
    assert sum(calls) == 2000
    assert len(calls) < 200


def test_stop_is_checked_before_every_epoch():
    asked = []

    def stop_after_ten():
        asked.append(1)
        return len(asked) > 10

    result = train(TrainingConfig(epochs=1000), LoopOptions(should_stop=stop_after_ten))
    assert result.status == STOPPED
    assert result.epochs_run == 10
    assert result.final_loss == pytest.approx(tutorial_run(0, epochs=10)["losses"][-1], abs=1e-6)


def test_stop_at_once_runs_no_epoch():
    result = train(TrainingConfig(epochs=5), LoopOptions(should_stop=lambda: True))
    assert result.status == STOPPED
    assert result.epochs_run == 0 and result.final_loss is None


def test_divergence_names_the_first_bad_epoch():
    expected = tutorial_run(0, epochs=60, lr=100)
    first_bad = next(i for i, loss in enumerate(expected["losses"], 1) if not np.isfinite(loss))
    result = train(TrainingConfig(epochs=100_000, lr=100, seed=0))
    assert result.status == DIVERGED
    assert result.diverged_at == first_bad
    assert result.epochs_run == first_bad
    assert np.isfinite(result.losses[:-1]).all() and not np.isfinite(result.losses[-1])


def test_divergence_in_the_middle_of_a_batch(monkeypatch):
    monkeypatch.setattr(training.readback, "FLUSH_EPOCHS", 3)
    result = train(TrainingConfig(epochs=1000, lr=100, seed=0))
    assert result.status == DIVERGED
    assert len(result.losses) == result.diverged_at


def test_phases_follow_the_tutorial():
    phases = []
    train(TrainingConfig(epochs=2), LoopOptions(on_phase=phases.append))
    assert phases == [TO_DEVICE, TRAINING, TO_CPU]


def test_a_failing_device_raises_training_error(monkeypatch):
    def broken(config, generator):
        raise RuntimeError("CUDA error: an illegal memory access was encountered")

    monkeypatch.setattr(PROBLEMS["tutorial"], "make_data", broken)
    with pytest.raises(TrainingError, match="could not prepare cpu: CUDA error: an illegal memory access"):
        train(TrainingConfig(epochs=2))


def test_the_generator_returns_the_result():
    run = run_training(TrainingConfig(epochs=5))
    batches, result = drain(run)
    assert sum(len(b.losses) for b in batches) == 5
    assert result.status == COMPLETED


def test_predict_refuses_a_model_off_the_cpu():
    model = torch.nn.Linear(1, 1).to("meta")
    with pytest.raises(ValueError, match="CPU"):
        predict(model, [1.0])


@pytest.mark.cuda
@pytest.mark.parametrize("seed", [0, 5])
def test_cuda_matches_the_tutorial_on_cuda(seed):
    expected = tutorial_run(seed, device="cuda:0")
    result = train(TrainingConfig(device="cuda:0", epochs=100, seed=seed))
    assert result.status == COMPLETED
    assert abs(result.final_loss - expected["losses"][-1]) <= 1e-6
    assert abs(predict(result.model, [4.0])[0] - expected["prediction"]) <= 1e-5
    assert all(p.device.type == "cpu" for p in result.model.parameters())


# --- what a run's clock holds, and what it leaves out (honest GPU figures) ---


def _offset_clock(monkeypatch):
    """The loop's perf_counter, which a test can move on without waiting."""
    real, offset = time.perf_counter, [0.0]
    clock = SimpleNamespace(perf_counter=lambda: real() + offset[0])
    for room in (training.loop, training.readback, training.run):  # the loop's, the read-back's, the run's
        monkeypatch.setattr(room, "time", clock)
    return offset


@pytest.mark.parametrize(
    "config",
    [
        TrainingConfig(epochs=30),
        TrainingConfig(problem="sine", samples=300, batch_size=64, epochs=5, optimizer="adam", lr=0.01),
        TrainingConfig(problem="circles", samples=300, batch_size=64, width=8, epochs=5),
    ],
)
def test_the_warm_up_step_is_untimed_and_changes_nothing(monkeypatch, config):
    plain = train(config)
    assert plain.warm_up_seconds == 0.0  # the CPU has no first-step costs to take out
    monkeypatch.setattr(training.run, "WARMED_DEVICE_TYPES", frozenset({"cpu"}))  # warm the CPU as a GPU would be
    offset = _offset_clock(monkeypatch)
    real_warm_up = training.PreparedRun.warm_up

    def slow_first_step(run):
        offset[0] += 1000.0  # a cold device's first step, on the loop's clock
        return real_warm_up(run) + 1000.0

    monkeypatch.setattr(training.PreparedRun, "warm_up", slow_first_step)
    warmed = train(config)
    assert warmed.warm_up_seconds > 1000.0 and warmed.seconds < 100  # not inside the run's figure
    assert warmed.losses.tobytes() == plain.losses.tobytes()  # same model, optimizer and random numbers
    for a, b in zip(warmed.model.parameters(), plain.model.parameters(), strict=True):
        assert torch.equal(a, b)


def test_the_warm_up_launches_what_the_loop_will_fp16_scaler_shuffle_count_and_read_back(monkeypatch):
    monkeypatch.setattr(training.run, "WARMED_DEVICE_TYPES", frozenset({"cpu"}))
    config = TrainingConfig(problem="circles", samples=200, batch_size=50, width=8, epochs=3)
    # fp16 on the CPU, which a run refuses: here only to take the GradScaler's path on this machine.
    run = training.PreparedRun(unchecked(dataclasses.replace(config, precision="fp16")), lambda: False)
    calls = []
    for name, cls in (("update", torch.amp.GradScaler), ("randperm", torch)):
        real = getattr(cls, name)
        monkeypatch.setattr(cls, name, lambda *a, real=real, name=name, **k: calls.append(name) or real(*a, **k))
    hits = training.PreparedRun.hits_of
    monkeypatch.setattr(training.PreparedRun, "hits_of", staticmethod(lambda *a: calls.append("_hits") or hits(*a)))
    state = run.generator.get_state()
    assert run.warm_up() > 0
    assert {"update", "randperm", "_hits"} <= set(calls)
    assert torch.equal(run.generator.get_state(), state)  # the run's shuffles are untouched
    run.release()


def test_moving_the_data_is_timed_apart(monkeypatch):
    offset = _offset_clock(monkeypatch)
    real_to = torch.Tensor.to
    phases = []

    def slow_copy(tensor, *args, **kwargs):
        if phases == [TO_DEVICE]:
            offset[0] += 100.0  # each copy to the device, on the loop's clock
        return real_to(tensor, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "to", slow_copy)
    result = train(TrainingConfig(problem="line", samples=100, epochs=20), LoopOptions(on_phase=phases.append))
    assert result.to_device_seconds >= 200.0 and result.seconds < 100


@pytest.mark.parametrize("problem", ["tutorial", "line", "sine"])
def test_the_data_is_made_on_the_cpu_from_the_seed_and_moved(problem):
    config = TrainingConfig(problem=problem, samples=1000, seed=7)
    x, y = PROBLEMS[problem].make_data(config, torch.Generator().manual_seed(7))
    assert x.device.type == y.device.type == "cpu"  # every device gets these very numbers
    with training.prepared(config) as run:
        assert torch.equal(run.x_train.cpu(), x) and torch.equal(run.y_train.cpu(), y)


def test_after_a_failure_the_frames_are_freed_before_the_cache_is_emptied(monkeypatch):
    order = []
    real_clear, real_release = training.failures.traceback.clear_frames, training.PreparedRun.release
    monkeypatch.setattr(
        training.failures.traceback, "clear_frames", lambda tb: order.append("clear frames") or real_clear(tb)
    )
    monkeypatch.setattr(
        training.PreparedRun,
        "release",
        lambda run, keep_cache=False: order.append("release") or real_release(run, keep_cache),
    )
    calls = [0]
    real_epoch = training.PreparedRun.epoch

    def out_of_memory_at_the_fifth(run):
        calls[0] += 1
        if calls[0] == 5:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real_epoch(run)

    monkeypatch.setattr(training.PreparedRun, "epoch", out_of_memory_at_the_fifth)
    with pytest.raises(TrainingError, match="ran out of memory after 4 epochs"):
        train(TrainingConfig(epochs=10))
    assert order == ["clear frames", "release"]
