"""Problems, optimizers, batches, the fit view's data, and runs that do not fit: plain pytest, no Qt."""

import math

import numpy as np
import pytest
import torch

from gpudemo.core import training
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.training import (
    COMPLETED,
    STOPPED,
    TO_DEVICE,
    LoopOptions,
    TrainingError,
    budget,
    run_training,
    train,
)
from gpudemo.core.training.plan import preflight
from gpudemo.core.training.prediction import predict
from tests.tutorial import drain, tutorial_run


def test_the_registries_offer_what_the_settings_name():
    assert (*PROBLEMS, "data") == rules.PROBLEM_KEYS  # "data": a person's file, made by problem_for
    assert tuple(OPTIMIZERS) == rules.OPTIMIZER_KEYS
    assert TrainingConfig().problem == "tutorial" and TrainingConfig().optimizer == "sgd"


@pytest.mark.parametrize("batch", [0, 3, 100])
def test_the_tutorial_is_unchanged_bit_for_bit(batch):
    expected = tutorial_run(0)
    result = train(TrainingConfig(batch_size=batch, samples=500))  # samples do not apply to it
    assert result.losses.tolist() == np.array(expected["losses"], dtype=np.float32).tolist()
    assert result.parameters == {"weight": expected["weight"], "bias": expected["bias"]}


def make_data(config):
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    return PROBLEMS[config.problem].make_data(config, generator)


def test_the_line_is_2x_plus_the_stated_noise_on_the_stated_range():
    x, y = make_data(TrainingConfig(problem="line", samples=200_000, seed=5))
    assert x.shape == y.shape == (200_000, 1)
    assert -3.0 <= x.min() and x.max() <= 3.0 and x.min() < -2.99 and x.max() > 2.99
    noise = y - 2 * x
    assert abs(noise.mean()) < 0.01 and abs(noise.std() - 0.5) < 0.01


def test_the_data_comes_from_the_seed():
    a = make_data(TrainingConfig(problem="sine", samples=100, seed=1))
    b = make_data(TrainingConfig(problem="sine", samples=100, seed=1))
    c = make_data(TrainingConfig(problem="sine", samples=100, seed=2))
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1]) and not torch.equal(a[0], c[0])
    x, y = a
    assert -math.pi <= x.min() and x.max() <= math.pi
    assert (y - torch.sin(x)).abs().max() < 0.6  # sin(x) plus noise of 0.1


def test_the_line_predicts_about_8_for_4():
    result = train(TrainingConfig(problem="line", samples=10_000, epochs=300))
    assert result.status == COMPLETED
    assert predict(result.model, [4.0])[0] == pytest.approx(8.0, abs=0.1)
    assert result.parameters["weight"] == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize("width, depth", [(1, 1), (32, 2), (7, 8)])
def test_the_sine_mlp_has_the_width_and_depth_asked_for(width, depth):
    config = TrainingConfig(problem="sine", width=width, depth=depth, samples=20, epochs=3)
    result = train(config)
    linears = [m for m in result.model if isinstance(m, torch.nn.Linear)]
    assert len(linears) == depth + 1 and linears[0].out_features == width
    count = sum(p.numel() for p in result.model.parameters())
    assert result.parameters == {"parameters": count} and PROBLEMS["sine"].parameter_count(config) == count
    assert len(predict(result.model, [0.0, 1.0, -1.0])) == 3


def test_an_mlp_learns_the_sine():
    result = train(TrainingConfig(problem="sine", samples=2000, epochs=1500, optimizer="adam", lr=0.01))
    grid = np.linspace(-3, 3, 13)
    assert np.abs(np.array(predict(result.model, grid)) - np.sin(grid)).max() < 0.15
    assert result.final_loss < 0.02  # the noise alone is 0.01


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_every_optimizer_trains_the_line(optimizer):
    result = train(TrainingConfig(problem="line", optimizer=optimizer, lr=0.05, epochs=400))
    assert result.status == COMPLETED and result.final_loss < 0.3  # the noise alone is 0.25


@pytest.mark.parametrize(
    "optimizer, kind, extra",
    [
        ("sgd", torch.optim.SGD, {"momentum": 0}),
        ("momentum", torch.optim.SGD, {"momentum": 0.9}),
        ("adam", torch.optim.Adam, {}),
    ],
)
def test_the_optimizers_are_what_they_say(optimizer, kind, extra):
    made = OPTIMIZERS[optimizer].make(torch.nn.Linear(1, 1).parameters(), 0.02)
    assert type(made) is kind and made.defaults["lr"] == 0.02
    for key, value in extra.items():
        assert made.defaults[key] == value


def test_minibatches_shuffle_from_the_seed_and_an_epoch_is_one_pass():
    config = TrainingConfig(problem="line", samples=100, batch_size=30, epochs=5, seed=4)
    a, b = train(config), train(config)
    assert a.losses.tolist() == b.losses.tolist()
    assert a.losses.tolist() != train(TrainingConfig(**{**config.__dict__, "seed": 5})).losses.tolist()
    assert a.losses.tolist() != train(TrainingConfig(**{**config.__dict__, "batch_size": 0})).losses.tolist()
    # One pass: 100 samples in batches of 30 is 4 optimizer steps an epoch.
    calls = []
    run = training.PreparedRun(preflight(config), lambda: False)
    real_step = run.train_step
    run.train_step = lambda x, y: calls.append(1) or real_step(x, y)
    run.epoch()
    assert len(calls) == 4


def test_minibatch_losses_stay_on_the_device_until_a_flush(monkeypatch):
    stacks = []
    real_stack = torch.stack
    monkeypatch.setattr(
        torch, "stack", lambda tensors, *a, **k: stacks.append(len(tensors)) or real_stack(tensors, *a, **k)
    )
    monkeypatch.setattr(torch.Tensor, "item", lambda self: pytest.fail("a sync per batch"))
    result = run_training(
        TrainingConfig(problem="line", samples=2000, batch_size=10, epochs=50), LoopOptions(fit=False, flush_seconds=60)
    )  # no flush by time: 10,000 steps, read back twice
    try:
        while True:
            next(result)
    except StopIteration as done:
        assert done.value.epochs_run == 50
    assert sum(stacks) == 50 and len(stacks) == 2  # the first epoch at once, then the rest


def test_a_stop_between_minibatches_ends_the_run_without_the_partial_epoch():
    asked = []

    def stop_in_the_third_epoch():
        asked.append(1)
        # 10 batches an epoch: asked before each epoch and before each batch after its first,
        # so 10 times an epoch; the 26th question falls in the middle of the third epoch.
        return len(asked) > 25

    config = TrainingConfig(problem="line", samples=100, batch_size=10, epochs=100)
    result = train(config, LoopOptions(should_stop=stop_in_the_third_epoch))
    assert result.status == STOPPED and result.epochs_run == 2
    assert result.losses.tolist() == train(TrainingConfig(**{**config.__dict__, "epochs": 2})).losses.tolist()


def test_the_fit_view_gets_the_data_and_the_models_curve():
    config = TrainingConfig(problem="sine", samples=5000, epochs=50, width=8)
    run = run_training(config, LoopOptions(fit=True))
    batches, result = drain(run)
    data = batches[0].data
    assert data is not None and all(b.data is None for b in batches[1:])
    assert len(data.x) == len(data.y) == training.DATA_SHOWN
    x, y = make_data(config)
    np.testing.assert_array_equal(data.x, x[: training.DATA_SHOWN, 0].numpy())
    assert len(data.grid) == training.FIT_POINTS and data.grid[0] == pytest.approx(-math.pi)
    assert batches[0].fit is not None and batches[-1].fit is not None
    with torch.no_grad():
        final = result.model(torch.from_numpy(data.grid).unsqueeze(1)).reshape(-1).numpy()
    np.testing.assert_allclose(batches[-1].fit, final, atol=1e-6)


def test_a_small_data_set_is_shown_whole():
    run = run_training(TrainingConfig(epochs=2), LoopOptions(fit=True))
    first = next(run)
    np.testing.assert_array_equal(first.data.x, [1, 2, 3])
    assert first.data.grid[0] == 0 and first.data.grid[-1] == 4


# --- memory -----------------------------------------------------------------------------


def test_the_estimate_adds_up_what_a_step_holds():
    config = TrainingConfig(problem="sine", width=100, depth=3, samples=10_000, batch_size=1000, optimizer="adam")
    need = budget.estimate(config)
    params = PROBLEMS["sine"].parameter_count(config) * 4
    assert need.parameters == need.gradients == params and need.optimizer_state == 2 * params
    assert need.data == 2 * 10_000 * 4 + 10_000 * 8 + 2 * 1000 * 4
    assert need.activations == 1000 * (4 * 100 * 3 + 8) * 4
    assert need.total == sum((need.parameters, need.gradients, need.optimizer_state, need.data, need.activations))


def test_a_run_that_cannot_fit_is_refused_before_anything_is_made(monkeypatch):
    phases = []
    monkeypatch.setattr(budget, "free_bytes", lambda device: 10 * 2**20)
    config = TrainingConfig(problem="line", samples=10_000_000)
    with pytest.raises(budget.RunTooLarge) as refused:
        train(config, LoopOptions(on_phase=phases.append))
    assert phases == []
    message = str(refused.value)
    assert "needs about 381.5 MiB on cpu (76.3 MiB data, 305.2 MiB activations" in message
    assert "only 10.0 MiB is free" in message
    assert isinstance(refused.value, TrainingError)


def test_the_biggest_mlp_on_the_biggest_data_is_refused_here():
    with pytest.raises(budget.RunTooLarge, match="TiB"):
        budget.check_fits(TrainingConfig(problem="sine", samples=10_000_000, width=4096, depth=8))


@pytest.mark.parametrize(
    "error", [MemoryError(), torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2 GiB")]
)
def test_running_out_of_memory_ends_the_run_clearly_and_frees_it(monkeypatch, error):
    released = []
    original_epoch, original_release = training.PreparedRun.epoch, training.PreparedRun.release
    calls = []

    def epoch(self):
        calls.append(1)
        if len(calls) == 4:
            raise error
        return original_epoch(self)

    monkeypatch.setattr(training.PreparedRun, "epoch", epoch)
    monkeypatch.setattr(training.PreparedRun, "release", lambda self: released.append(1) or original_release(self))
    with pytest.raises(TrainingError, match="cpu ran out of memory after 3 epochs; what the run held is freed"):
        train(TrainingConfig(epochs=100), on_batch=None)
    assert released == [1]
    monkeypatch.undo()
    assert train(TrainingConfig(epochs=5)).status == COMPLETED  # and the next run works


@pytest.mark.parametrize(
    "parse, bad, name",
    [
        (rules.parse_samples, "2", "samples"),
        (rules.parse_samples, "10000001", "samples"),
        (rules.parse_width, "0", "width"),
        (rules.parse_width, "4097", "width"),
        (rules.parse_depth, "9", "depth"),
        (rules.parse_batch_size, "-1", "batch size"),
        (rules.parse_problem, "circle", "problem"),
        (rules.parse_optimizer, "rmsprop", "optimizer"),
        (rules.parse_samples, "1e6", "samples"),
    ],
)
def test_new_settings_refuse_and_name_the_value(parse, bad, name):
    with pytest.raises(InvalidSetting) as error:
        parse(bad)
    assert error.value.setting == name and name in str(error.value)


def test_new_settings_accept_their_ranges():
    assert rules.parse_samples("3") == 3 and rules.parse_samples("10000000") == 10_000_000
    assert rules.parse_width(4096) == 4096 and rules.parse_depth("8") == 8
    assert rules.parse_batch_size("") == 0 and rules.parse_batch_size("0") == 0
    assert rules.parse_problem(" Sine ") == "sine" and rules.parse_optimizer("ADAM") == "adam"
    assert budget.batch_size(TrainingConfig(problem="line", samples=100, batch_size=500)) == 100
    assert TO_DEVICE == "to_device"


@pytest.mark.cuda
def test_on_cuda_the_line_trains_with_minibatches_and_predicts_about_8():
    result = train(
        TrainingConfig(
            device="cuda:0",
            problem="line",
            samples=100_000,
            batch_size=10_000,
            epochs=30,
            optimizer="momentum",
            lr=0.01,
        )
    )
    assert result.status == COMPLETED and all(p.device.type == "cpu" for p in result.model.parameters())
    assert predict(result.model, [4.0])[0] == pytest.approx(8.0, abs=0.1)


@pytest.mark.cuda
def test_on_cuda_a_real_out_of_memory_ends_the_run_and_frees_the_device(monkeypatch):
    monkeypatch.setattr(budget, "free_bytes", lambda device: 2**60)  # let it past the estimate
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    with pytest.raises(TrainingError, match="cuda:0 ran out of memory"):
        train(TrainingConfig(device="cuda:0", problem="sine", samples=10_000_000, width=4096, depth=8, epochs=2))
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == before
    assert train(TrainingConfig(device="cuda:0", epochs=5)).status == COMPLETED
