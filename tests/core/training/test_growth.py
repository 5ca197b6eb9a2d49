"""A loss that grows by orders of magnitude is said while the run goes, not only once it is inf or NaN."""

import json

import numpy as np
import pytest

from gpudemo.core.training.growth import LossWatch, growth_warning
from tests.commands import gpudemo


def test_a_loss_a_thousand_times_its_lowest_is_growing_fed_in_any_batches():
    losses = np.array([10.0, 8.3, 50.0, 900.0, 8.3e3, 1e5], dtype=np.float32)
    for split in (1, 2, 6):
        watch = LossWatch()
        said = []
        for start in range(0, len(losses), split):
            watch.feed(losses[start : start + split])
            said.append(watch.growing())
        assert said[-1] and (split == 6 or not said[0]) and (watch.lowest_epoch, watch.seen) == (2, 6)
    assert str(growth_warning(losses, 0.1)) == (
        "the loss is growing: 1e+05 at epoch 6, 1e4 times its lowest (8.3 at epoch 2); the learning rate 0.1 is"
        " too large for this data: try a smaller one"
    )


def test_a_falling_or_noisy_loss_is_not_growing():
    falling = np.geomspace(10, 1e-6, 100)
    noisy = np.array([1.0, 0.5, 3.0, 0.4, 2.0, 0.3, 50.0])  # a minibatch's ups and downs, far from 1,000x
    assert growth_warning(falling, 0.1) is None and growth_warning(noisy, 0.1) is None
    assert growth_warning(np.array([1.0, 0.0, 0.0]), 0.1) is None  # a loss of exactly 0 has nothing to grow from


def test_the_tutorials_points_as_a_csv_learn_from_the_linear_model_and_an_mlp_is_said_to_grow(tmp_path):
    data = tmp_path / "bom.csv"
    data.write_bytes(b"\xef\xbb\xbfx,y\n1,2\n2,4\n3,6\n")
    out = gpudemo("train", "--device", "cpu", "--data", str(data), "--epochs", "20", "--depth", "2")
    assert "gpudemo: warning: the loss is growing:" in out.stderr and "try a smaller one" in out.stderr
    # Without --depth, so few points start from the tutorial's linear model, which learns them.
    first = gpudemo("train", "--device", "cpu", "--data", str(data), "--json")
    assert first.returncode == 0 and "warning" not in first.stderr
    assert "gpudemo: note: a regression of 3 rows starts from the linear model" in first.stderr
    assert json.loads(first.stdout)["predictions"][0]["y"] == pytest.approx(7.92072, abs=1e-4)
    calm = gpudemo("train", "--device", "cpu", "--epochs", "100")
    assert calm.returncode == 0 and "warning" not in calm.stderr
