"""torch.compile: the compiled step trains to the same numbers, its first compile timed apart."""

import json

import pytest
import torch

from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.training import TrainingError, train
from tests.commands import gpudemo


@pytest.mark.slow  # the first compile takes tens of seconds on this 2-core machine
def test_a_compiled_run_gives_the_same_losses_and_times_its_compile_apart():
    # In a child: the compiler's worker threads and processes stay out of the test process.
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "line",
        "--samples",
        "1000",
        "--epochs",
        "50",
        "--step",
        "compiled",
        "--json",
        module=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    compiled = json.loads(out.stdout)
    plain = train(TrainingConfig(problem="line", samples=1000, epochs=50))
    assert compiled["final_loss"] == pytest.approx(plain.final_loss, rel=1e-5)
    assert compiled["compile_seconds"] > 0 and plain.compile_seconds == 0
    assert compiled["seconds"] < compiled["compile_seconds"]  # the compile is not in the epochs' clock


@pytest.mark.slow
def test_no_shape_is_first_compiled_inside_the_clock():
    # 1,000 samples in batches of 300 end with a batch of 100: before, its compile landed in the first
    # timed epoch (1.17 s of 1.18 timed); now it is warmed with the rest, and nothing compiles after.
    out = gpudemo(
        "train", "--device", "cpu", "--problem", "line", "--samples", "1000", "--batch-size", "300",
        "--epochs", "3", "--step", "compiled", "--json", module=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert report["recompiles"] == 0
    assert report["seconds"] < 0.1 * report["compile_seconds"]


def test_a_compiler_that_fails_is_named(monkeypatch):
    def broken(model, *args, **kwargs):
        def call(*inputs):
            raise RuntimeError("InductorError: no C++ compiler found\nmore")

        return call

    monkeypatch.setattr(torch, "compile", broken)
    with pytest.raises(TrainingError, match="torch.compile could not compile this step on cpu: InductorError: no C"):
        train(TrainingConfig(step="compiled", epochs=2))
    out = gpudemo("train", "--device", "cpu", "--step", "compiled", "--epochs", "2")
    assert out.returncode == 1 and "train without compiling" in out.stderr


def test_the_step_mode_is_one_of_three():
    with pytest.raises(InvalidSetting, match="step mode must be one of eager, compiled, graph, not 'yes'"):
        TrainingConfig(step="yes")
    assert TrainingConfig(step=" Graph ").step == "graph"
