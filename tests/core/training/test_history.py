import numpy as np
import pytest

from gpudemo.core.training.history import BLOCK, LossHistory


def filled(values):
    history = LossHistory(len(values))
    for chunk in np.array_split(np.asarray(values, dtype=np.float32), 7):
        history.extend(chunk)
    return history


def test_extend_keeps_every_value_in_order():
    values = np.random.default_rng(0).random(1000).astype(np.float32)
    history = filled(values)
    np.testing.assert_array_equal(history.values, values)
    assert history.count == 1000 and history.values.dtype == np.float32


def test_few_points_are_drawn_one_per_epoch():
    history = filled(np.arange(10, dtype=np.float32))
    x, y = history.envelope(10, 1, 10, bins=100)
    np.testing.assert_array_equal(x, np.arange(1, 11))
    np.testing.assert_array_equal(y, np.arange(10))


@pytest.mark.parametrize(
    "n, first, last, bins",
    [
        (100_000, 1, 100_000, 500),
        (5_000, 1, 5_000, 300),
        (100_000, 12_345, 54_321, 400),
        (1_000_003, 1, 1_000_003, 1000),
    ],
)
def test_envelope_keeps_every_spike_and_the_range(n, first, last, bins):
    rng = np.random.default_rng(1)
    values = rng.random(n).astype(np.float32)
    spikes = rng.integers(first - 1, last, 5)
    values[spikes] = 100.0 + np.arange(5)
    values[rng.integers(first - 1, last, 3)] = -50.0
    history = filled(values)
    x, y = history.envelope(n, first, last, bins)
    assert len(x) <= 2 * bins + 2
    visible = values[first - 1 : last]
    assert np.nanmax(y) == visible.max() and np.nanmin(y) == visible.min()
    assert x[0] <= first + BLOCK and x[-1] >= last - BLOCK and x[-1] <= n
    assert np.all(np.diff(x) >= 0)


def test_envelope_reads_no_further_than_the_count_given():
    history = LossHistory(1000)
    history.extend(np.ones(500, dtype=np.float32))
    x, y = history.envelope(300, 1, 1000, bins=10)
    assert x.max() <= 300


def test_extremes_ignore_non_finite_and_track_the_smallest_positive():
    history = filled(np.array([4.0, 0.5, 0.0, 0.25, np.inf], dtype=np.float32))
    assert history.min_positive == 0.25 and history.max_finite == 4.0 and history.min_finite == 0.0


def test_bytes_per_epoch():
    history = LossHistory(10_000_000)
    assert history.nbytes / history.capacity <= 4.2
