"""Classification: the 2-D classes and the digits, their accuracy, boundary and targets."""

import gzip
import json
import math

import numpy as np
import pytest
import torch

from gpudemo.core.problems import PROBLEMS
from gpudemo.core.problems import digits as digits_module
from gpudemo.core.problems.classes import INNER_RADIUS, XOR_MARGIN
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.training import BOUNDARY_SIDE, LoopOptions, budget, run_training, train
from gpudemo.core.training.prediction import classify, confusion
from tests.commands import gpudemo

POINTS = ("circles", "xor", "spiral")
# The setting for its targets: an MLP of width 16 and depth 2, Adam at 0.01, 1,000 samples, 500 epochs.
TARGET = dict(width=16, depth=2, optimizer="adam", lr=0.01, samples=1000, epochs=500)


def data(problem: str, **settings_) -> tuple[torch.Tensor, torch.Tensor]:
    config = TrainingConfig(problem=problem, **settings_)
    return PROBLEMS[problem].make_data(config, torch.Generator().manual_seed(config.seed))


@pytest.mark.parametrize("problem", POINTS)
def test_two_balanced_classes_of_points_from_the_seed(problem):
    x, y = data(problem, samples=1001, seed=5)
    assert x.shape == (1001, 2) and x.dtype == torch.float32
    assert y.dtype == torch.int64 and set(y.tolist()) == {0, 1} and abs(int(y.sum()) - 500) <= 1
    again, _ = data(problem, samples=1001, seed=5)
    other, _ = data(problem, samples=1001, seed=6)
    assert torch.equal(x, again) and not torch.equal(x, other)
    assert x.abs().max() < 1.5  # noise 0.1 stays inside the area the boundary is drawn over


def test_without_noise_the_circles_are_circles_and_xor_keeps_its_quadrants():
    x, y = data("circles", noise=0.0, samples=400)
    radius = x.norm(dim=1)
    assert torch.allclose(radius[y == 0], torch.full_like(radius[y == 0], INNER_RADIUS), atol=1e-6)
    assert torch.allclose(radius[y == 1], torch.ones_like(radius[y == 1]), atol=1e-6)
    x, y = data("xor", noise=0.0, samples=400)
    assert ((x[:, 0] * x[:, 1] > 0) == (y == 0)).all()
    assert x.abs().min() >= XOR_MARGIN - 1e-6


def test_noise_is_the_stated_standard_deviation():
    clean, _ = data("circles", noise=0.0, samples=20000)
    noisy, _ = data("circles", noise=0.3, samples=20000)
    # the same draws before the noise: the difference is the noise alone
    assert abs(float((noisy - clean).std()) - 0.3) < 0.01


def test_the_digits_are_the_shipped_images_split_the_same_for_every_seed():
    problem = PROBLEMS["digits"]
    x_train, y_train = problem.make_data(TrainingConfig(problem="digits", seed=1), torch.Generator())
    x_test, y_test = problem.make_test_data(TrainingConfig(problem="digits", seed=2))
    assert x_train.shape == (1437, 64) and x_test.shape == (360, 64)
    assert 0 <= float(x_train.min()) and float(x_train.max()) == 1.0
    assert set(y_test.tolist()) == set(range(10))
    rows = {tuple(row.tolist()) for row in torch.cat((x_train, y_train[:, None].float()), dim=1)}
    held = {tuple(row.tolist()) for row in torch.cat((x_test, y_test[:, None].float()), dim=1)}
    assert len(rows) + len(held) >= 1790  # a few images repeat in the data set; the split shares none by index
    with gzip.open(digits_module.data_path(), "rt") as file:
        assert sum(1 for _ in file) == 1797
    notice = (digits_module.data_path().parent / "DIGITS-LICENSE.txt").read_text()
    assert "CC BY 4.0" in notice and "UCI" in notice


@pytest.mark.parametrize("problem", ["circles", "xor"])
def test_an_mlp_reaches_95_percent_on_the_2d_classes(problem):
    result = train(TrainingConfig(problem=problem, **TARGET))
    assert result.accuracy >= 0.95, result.accuracy


def test_an_mlp_reaches_90_percent_on_the_digits_test_set():
    result = train(TrainingConfig(problem="digits", **TARGET))
    assert result.test_accuracy >= 0.9, result.test_accuracy


def test_a_linear_model_fails_on_the_circles():
    result = train(TrainingConfig(problem="circles", **{**TARGET, "depth": 0}))
    assert isinstance(result.model, torch.nn.Linear)
    assert result.accuracy <= 0.7, result.accuracy


def test_accuracy_is_read_back_with_the_losses_every_epoch():
    config = TrainingConfig(problem="circles", width=8, depth=1, optimizer="adam", lr=0.05, epochs=60, samples=300)
    run = run_training(config, LoopOptions(flush_seconds=0.0, fit=True))
    batches = []
    while True:
        try:
            batches.append(next(run))
        except StopIteration as done:
            result = done.value
            break
    assert all(batch.accuracy is not None and len(batch.accuracy) == len(batch.losses) for batch in batches)
    assert len(result.accuracies) == 60
    assert np.array_equal(np.concatenate([b.accuracy for b in batches]), result.accuracies)
    assert ((0 <= result.accuracies) & (result.accuracies <= 1)).all()
    # each epoch's accuracy is of its outputs before its step: the first is the untrained model's
    torch.manual_seed(config.seed)
    untrained = PROBLEMS["circles"].make_model(config)
    x, y = data("circles", samples=300)
    assert result.accuracies[0] == pytest.approx(float((classify(untrained, x).argmax(1) == y).float().mean()))
    # the final accuracy is the final model's, measured after the clock
    assert result.accuracy == pytest.approx(float((classify(result.model, x).argmax(1) == y).float().mean()))


def test_minibatch_accuracy_counts_every_sample_of_the_epoch_once():
    config = TrainingConfig(problem="xor", width=8, depth=1, epochs=5, samples=100, batch_size=32)
    result = train(config)
    assert all(value * 100 == pytest.approx(round(value * 100), abs=1e-4) for value in result.accuracies)


def test_the_digits_runs_report_test_accuracy_as_they_go_and_at_the_end():
    config = TrainingConfig(problem="digits", width=16, depth=1, optimizer="adam", lr=0.01, epochs=30)
    batches = []
    result = train(config, LoopOptions(fit=True), on_batch=batches.append)
    assert batches[-1].test_accuracy is not None and batches[-1].fit is None and batches[0].data is None
    x_test, y_test = PROBLEMS["digits"].make_test_data(config)
    assert result.test_accuracy == pytest.approx(
        float((classify(result.model, x_test).argmax(1) == y_test).float().mean())
    )
    matrix = confusion(result.model, x_test, y_test, 10)
    assert matrix.shape == (10, 10) and int(matrix.sum()) == 360
    assert int(matrix.trace()) == round(result.test_accuracy * 360)


def _boundary(depth: int) -> tuple[np.ndarray, np.ndarray]:
    config = TrainingConfig(problem="circles", **{**TARGET, "depth": depth, "epochs": 300})
    batches = []
    train(config, LoopOptions(fit=True), on_batch=batches.append)
    return batches[0].data.grid, batches[-1].fit


def test_the_boundary_is_the_class_probabilities_over_the_area():
    grid, probabilities = _boundary(depth=2)
    assert probabilities.shape == (BOUNDARY_SIDE, BOUNDARY_SIDE, 2) and BOUNDARY_SIDE >= 128
    assert np.allclose(probabilities.sum(axis=2), 1, atol=1e-5)
    assert grid[0] == -1.5 and grid[-1] == 1.5
    middle = BOUNDARY_SIDE // 2
    assert probabilities[middle, middle].argmax() == 0  # the inner circle's class at the centre
    assert probabilities[0, 0].argmax() == 1 and probabilities[-1, -1].argmax() == 1  # the outer one's in the corners


def test_a_linear_models_boundary_is_a_straight_line():
    grid, probabilities = _boundary(depth=0)
    x2, x1 = np.meshgrid(grid, grid, indexing="ij")
    logit = np.log(probabilities[..., 1]) - np.log(probabilities[..., 0])
    design = np.stack((x1.ravel(), x2.ravel(), np.ones(x1.size)), axis=1)
    coefficients, *_ = np.linalg.lstsq(design, logit.ravel(), rcond=None)
    assert np.abs(design @ coefficients - logit.ravel()).max() < 1e-3  # the logit is affine: its zero a line


@pytest.mark.parametrize(
    "text, points",
    [
        ("0.5,0.5", [(0.5, 0.5)]),
        ("1,2; -3,4", [(1.0, 2.0), (-3.0, 4.0)]),
        ("(1, 2) (3, 4)", [(1.0, 2.0), (3.0, 4.0)]),
        ("1e-3 2", [(0.001, 2.0)]),
    ],
)
def test_points_are_pairs(text, points):
    assert rules.parse_points(text) == points


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "type at least one point"),
        ("1,2,3", "has 3 numbers"),
        ("1,nan", "finite"),
        ("a,b", "must be a number"),
        ("1,2 " * 10_001, "at most 10,000 points"),
    ],
)
def test_bad_points_are_named(text, says):
    with pytest.raises(InvalidSetting, match=says):
        rules.parse_points(text)


@pytest.mark.parametrize(
    "value, says", [("-0.1", "noise must be from 0 to 1"), ("x", "noise must be a number"), ("inf", "finite")]
)
def test_bad_noise_is_named(value, says):
    with pytest.raises(InvalidSetting, match=says):
        TrainingConfig(noise=value)


def test_the_memory_estimate_counts_inputs_labels_and_the_test_set():
    circles = budget.estimate(TrainingConfig(problem="circles", samples=1_000_000, width=16, depth=2))
    assert circles.data == 1_000_000 * (2 * 4 + 8)
    digits = budget.estimate(TrainingConfig(problem="digits", width=16, depth=2))
    assert digits.data == 1797 * (64 * 4 + 8)
    assert digits.parameters == ((64 + 1) * 16 + 17 * 16 + 17 * 10) * 4


def test_the_cli_reports_accuracy_and_classifies_points():
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "circles",
        "--width",
        "16",
        "--optimizer",
        "adam",
        "--lr",
        "0.01",
        "--epochs",
        "200",
        "--predict",
        "0,0",
        "1.2,1.2",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert 0.9 <= report["accuracy"] <= 1 and report["test_accuracy"] is None and report["noise"] == 0.1
    centre, corner = report["predictions"]
    assert centre["x"] == [0.0, 0.0] and centre["class"] == 0 and corner["class"] == 1
    assert math.isclose(sum(centre["probabilities"]), 1, rel_tol=1e-5)
    text = gpudemo("train", "--device", "cpu", "--problem", "xor", "--epochs", "5", "--predict", "0.5,0.5")
    assert "accuracy    " in text.stdout and "classify    (0.5, 0.5)  ->  class " in text.stdout


def test_the_cli_reports_the_digits_test_accuracy():
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "digits",
        "--epochs",
        "20",
        "--optimizer",
        "adam",
        "--lr",
        "0.01",
        "--json",
    )
    report = json.loads(out.stdout)
    assert 0 < report["accuracy"] <= 1 and 0 < report["test_accuracy"] <= 1 and report["predictions"] == []


@pytest.mark.parametrize(
    "args, says",
    [
        (["--problem", "circles", "--predict", "1,2,3"], "each point needs two numbers"),
        (["--problem", "digits", "--predict", "4"], "digits classifies images"),
        (["--problem", "circles", "--noise", "2"], "noise must be from 0 to 1, not '2'"),
    ],
)
def test_the_cli_refuses_bad_classification_input_with_status_2(args, says):
    out = gpudemo("train", "--device", "cpu", "--epochs", "1", *args)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_a_saved_classifier_classifies_again(tmp_path):
    path = tmp_path / "circles.pt"
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "circles",
        "--width",
        "8",
        "--epochs",
        "30",
        "--save",
        str(path),
        "--predict",
        "0,0",
        "--json",
    )
    trained = json.loads(out.stdout)["predictions"][0]
    again = json.loads(gpudemo("predict", "--model", str(path), "0,0", "--json").stdout)["predictions"][0]
    assert again == trained
    out = gpudemo("predict", "--model", str(path), "1", "2", "3")
    assert out.returncode == 2 and "argument X: each point needs two numbers" in out.stderr


def test_profile_and_compare_run_the_classes():
    for problem in ("circles", "digits"):
        out = gpudemo("profile", "--device", "cpu", "--problem", problem, "--steps", "3", "--json")
        assert out.returncode == 0 and json.loads(out.stdout)["steps"] == 3
        out = gpudemo("compare", "--device", "cpu", "--problem", problem, "--epochs", "3", "--json")
        assert out.returncode == 0 and json.loads(out.stdout)[0]["final_loss"] > 0
