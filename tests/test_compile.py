"""torch.compile: the compiled step trains to the same numbers, its first compile timed apart."""

import json

import pytest
import torch

from gpudemo.core.config import TrainingConfig
from gpudemo.core.rules import InvalidSetting
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
        "--compile",
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


def test_a_compiler_that_fails_is_named(monkeypatch):
    def broken(model, *args, **kwargs):
        def call(*inputs):
            raise RuntimeError("InductorError: no C++ compiler found\nmore")

        return call

    monkeypatch.setattr(torch, "compile", broken)
    with pytest.raises(TrainingError, match="torch.compile could not compile this step on cpu: InductorError: no C"):
        train(TrainingConfig(compile=True, epochs=2))
    out = gpudemo("train", "--device", "cpu", "--compile", "--epochs", "2")
    assert out.returncode == 1 and "train without compiling" in out.stderr


def test_compile_is_on_or_off():
    with pytest.raises(InvalidSetting, match="compile must be on or off"):
        TrainingConfig(compile="yes")
