"""Compare and sweep in the core and on the command line, with the CPU as the only device here."""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

from gpudemo.core.hardware import busy as load
from gpudemo.core.hardware import devices
from gpudemo.core.measure import compare
from gpudemo.core.measure import sweep as sweep_module
from gpudemo.core.measure.compare import (
    FAILED,
    NOT_RUN,
    CompareProgress,
    compare_devices,
    devices_to_compare,
)
from gpudemo.core.measure.sweep import SweepRequest, SweepResult, SweepRow, sweep
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import COMPLETED, train
from tests.commands import gpudemo
from tests.tutorial import tutorial_run


def test_the_cpu_is_always_measured_once():
    assert devices_to_compare(["cuda:0"]) == ["cuda:0", "cpu"]
    assert devices_to_compare(["cpu", "cuda:0", "cpu"]) == ["cpu", "cuda:0"]


def test_compare_on_the_cpu_is_the_same_run_with_a_speedup_of_one():
    progress = []
    timings = compare_devices(TrainingConfig(epochs=300, seed=2), ["cpu"], on_progress=progress.append)
    (cpu,) = timings
    assert cpu.device == "cpu" and cpu.status == COMPLETED and cpu.speedup_vs_cpu == 1.0
    assert cpu.final_loss == pytest.approx(tutorial_run(2, epochs=300)["losses"][-1], abs=1e-6)
    assert cpu.epochs_per_second == pytest.approx(300 / cpu.seconds)
    assert all(isinstance(p, CompareProgress) and p.device == "cpu" and p.total == 300 for p in progress)
    assert progress[-1].epochs == 300
    times, losses = cpu.curve
    assert len(times) == len(progress) and np.all(np.diff(times) >= 0) and losses[-1] == pytest.approx(cpu.final_loss)


def test_a_device_that_fails_is_reported_and_the_others_are_measured():
    timings = compare_devices(TrainingConfig(epochs=50), ["meta", "cpu"])
    meta, cpu = timings
    assert meta.status == FAILED and "meta" in str(meta.message) and meta.speedup_vs_cpu is None
    assert cpu.status == COMPLETED and cpu.speedup_vs_cpu == 1.0
    assert meta.to_json()["status"] == "failed"


def test_a_stop_leaves_the_rest_not_run():
    asked = []
    timings = compare_devices(
        TrainingConfig(epochs=100_000), ["cpu", "meta"], should_stop=lambda: asked.append(1) or len(asked) > 200
    )
    assert [t.status for t in timings] == ["stopped", NOT_RUN]


def test_the_sweep_times_growing_steps_on_the_cpu():
    rows = []
    result = sweep(SweepRequest(kind="step", devices=("cpu",), max_size=1000), on_row=rows.append)
    assert [r.size for r in result.rows] == [10, 100, 1000] and rows == result.rows
    for row in result.rows:
        assert row.seconds > 0 and row.throughput == pytest.approx(row.size / row.seconds)
    assert result.crossover == {} and result.complete
    data = result.to_json()
    assert data["kind"] == "step" and data["rows"][0]["samples_per_second"] > 0 and data["crossover"] == {}


def test_the_matmul_sweep_reports_gflops():
    result = sweep(SweepRequest(kind="matmul", devices=("cpu",), dtype="bfloat16", max_size=64))
    assert [r.size for r in result.rows] == [16, 32, 64]
    assert result.rows[-1].throughput == pytest.approx(2 * 64**3 / result.rows[-1].seconds / 1e9)
    assert result.to_json()["rows"][0]["gflops"] > 0


def test_the_crossover_is_the_first_size_where_a_device_beats_the_cpu():
    rows = [
        SweepRow("cpu", 10, 1e-5, 0),
        SweepRow("cuda:0", 10, 5e-5, 0),
        SweepRow("cpu", 100, 2e-5, 0),
        SweepRow("cuda:0", 100, 5e-5, 0),
        SweepRow("cpu", 1000, 9e-5, 0),
        SweepRow("cuda:0", 1000, 6e-5, 0),
        SweepRow("cpu", 10000, 9e-4, 0),
        SweepRow("cuda:0", 10000, 7e-5, 0),
        SweepRow("cuda:1", 10, 1e-3, 0),
    ]
    assert SweepResult("step", "float32", rows).crossover == {"cuda:0": 1000, "cuda:1": None}


def test_a_device_stops_growing_where_memory_runs_out(monkeypatch):
    monkeypatch.setattr(sweep_module, "free_bytes", lambda device: 100_000)
    result = sweep(SweepRequest(kind="step", devices=("cpu",), max_size=100_000))
    assert [r.size for r in result.rows] == [10, 100, 1000]  # 10,000 samples need more than 100 kB


def test_a_stopped_sweep_says_so():
    result = sweep(SweepRequest(kind="step", devices=("cpu",)), should_stop=lambda: True)
    assert result.rows == [] and not result.complete


def test_compare_json_has_the_promised_fields():
    out = gpudemo("compare", "--device", "cpu", "--epochs", "200", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["device"] for r in rows][-1] == "cpu"
    for row in rows:
        assert set(row) >= {"device", "status", "epochs_per_second", "seconds", "final_loss", "speedup_vs_cpu"}
    assert rows[-1]["speedup_vs_cpu"] == 1.0


def test_compare_table_and_sweep_json_and_bad_values():
    out = gpudemo("compare", "--device", "cpu", "--problem", "line", "--samples", "1000", "--epochs", "50")
    assert out.returncode == 0, out.stderr
    assert "SPEEDUP VS CPU" in out.stdout and "1.00x" in out.stdout
    out = gpudemo("sweep", "--device", "cpu", "--max-size", "100", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kind"] == "step" and [r["size"] for r in data["rows"]] == [10, 100] and data["crossover"] == {}
    for args, named in (
        (["sweep", "--kind", "fft"], "'fft'"),
        (["sweep", "--dtype", "float64"], "'float64'"),
        (["compare", "--device", "cuda:7"], "'cuda:7'"),
        (["sweep", "--max-size", "5"], "max size"),
    ):
        bad = gpudemo(*args)
        assert bad.returncode == 2 and named in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.cuda
def test_on_cuda_compare_and_the_sweep_measure_the_gpu():
    timings = compare_devices(TrainingConfig(problem="line", samples=1_000_000, epochs=50), ["cuda:0"])
    gpu, cpu = timings
    assert gpu.status == cpu.status == COMPLETED and gpu.speedup_vs_cpu > 0
    assert abs(gpu.final_loss - cpu.final_loss) <= 1e-4 * abs(cpu.final_loss)  # the same data on both
    result = sweep(SweepRequest(kind="step", devices=("cuda:0",), max_size=100_000))
    assert {r.device for r in result.rows} == {"cpu", "cuda:0"}
    assert result.crossover["cuda:0"] in (None, *(r.size for r in result.rows))
    assert torch.cuda.memory_allocated() < 2**30
    assert devices.read_memory("cuda:0").reserved is not None


def test_the_warm_up_lasts_its_time_keeps_the_cache_and_the_timed_run_hands_it_back(monkeypatch):
    calls = []
    real_train, real_warm_up = compare.train, compare.warm_up_for

    def recording_train(config, options, **kwargs):
        calls.append(("train", options.keep_cache))
        return real_train(config, options, **kwargs)

    def timed_warm_up(config, should_stop):
        began = time.perf_counter()
        epochs = real_warm_up(config, should_stop)
        calls.append(("warmed up", time.perf_counter() - began))
        return epochs

    monkeypatch.setattr(compare, "train", recording_train)
    monkeypatch.setattr(compare, "warm_up_for", timed_warm_up)
    monkeypatch.setattr(compare, "release_cache", lambda device: calls.append(("release", device)))
    compare.compare_devices(TrainingConfig(epochs=50), ["cpu"])
    *warm_ups, (_, warmed), timed, released = calls
    assert warm_ups and all(keep for _, keep in warm_ups)  # the warm-up's allocations stay cached...
    assert warmed >= compare.WARM_UP_SECONDS  # ...for a time, not 20 epochs...
    assert timed == ("train", False) and released == ("release", "cpu")  # ...until the timed run is done


def test_compare_gives_the_final_loss_of_a_plain_run_bit_for_bit():
    # The same data on every device (made on the CPU, then moved): here, against a second CPU-side run.
    config = TrainingConfig(problem="line", samples=2000, epochs=60, seed=3)
    (timing,) = compare.compare_devices(config, ["cpu"])
    assert timing.final_loss == train(config).final_loss


def test_float32_runs_with_tf32_off_and_tf32_with_it_on_whatever_was_set(monkeypatch):
    seen = []
    real = sweep_module._time

    def recording(step, device):
        seen.append(torch.backends.cuda.matmul.allow_tf32)
        return real(step, device)

    monkeypatch.setattr(sweep_module, "_time", recording)
    saved = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = True  # a global setting the sweep overrides
    try:
        sweep(SweepRequest(kind="matmul", devices=("cpu",), dtype="float32", max_size=16))
        sweep(SweepRequest(kind="matmul", devices=("cpu",), dtype="tf32", max_size=16))
        assert seen == [False, True] and torch.backends.cuda.matmul.allow_tf32 is True  # restored
    finally:
        torch.backends.cuda.matmul.allow_tf32 = saved


def test_a_cpu_figure_taken_while_threads_wait_for_each_other_is_marked_busy(monkeypatch):
    monkeypatch.setattr(torch, "get_num_threads", lambda: 2)
    monkeypatch.setattr(torch, "set_num_threads", lambda n: threads.append(n))
    threads = []

    def timed(step, sync, *limits):  # 16 ms on two threads, 8 us on one: another process held a core
        return 8e-6 if threads and threads[-1] == 1 else 16e-3

    monkeypatch.setattr(sweep_module, "median_seconds", timed)
    result = sweep(SweepRequest(kind="matmul", devices=("cpu",), max_size=32))
    assert [row.busy for row in result.rows] == [True, True] and result.busy
    assert result.rows[0].one_thread_seconds == 8e-6 and result.to_json()["busy"] is True
    assert threads == [1, 2, 1, 2]  # one thread for the check, then back


def test_a_quiet_machine_leaves_the_figures_unmarked():
    threads = torch.get_num_threads()
    torch.set_num_threads(2)  # the check applies where torch computes on several threads
    try:
        result = sweep(SweepRequest(kind="step", devices=("cpu",), max_size=10))
    finally:
        torch.set_num_threads(threads)
    (row,) = result.rows
    assert row.one_thread_seconds is not None  # a short CPU step is always checked...
    assert row.busy == load.contended(row.seconds, row.one_thread_seconds)  # ...and marked only when contended


def test_other_processes_load_is_measured_beside_our_own():
    spinner = subprocess.Popen(
        [sys.executable, "-c", "import time\nend = time.time() + 1.0\nwhile time.time() < end: pass"]
    )
    try:
        with load.OtherLoad() as other:
            spin_until = time.perf_counter() + 0.6
            while time.perf_counter() < spin_until:  # our own busy core is not counted as another's
                pass
    finally:
        spinner.wait()
    assert other.cores is not None and other.cores >= 0.5 and other.busy


def test_the_load_arithmetic():
    ticks = iter([10.0, 12.0])  # the machine's busy CPU seconds
    own = iter([1.0, 1.5])
    clock = iter([0.0, 1.0])
    with load.OtherLoad(None, lambda: next(ticks), lambda: next(own), lambda: next(clock)) as other:
        pass
    assert other.cores == 1.5 and other.busy
    ticks, own, clock = iter([10.0, 12.0]), iter([1.0, 1.5]), iter([0.0, 1.0])
    with load.OtherLoad(1, lambda: next(ticks), lambda: next(own), lambda: next(clock)) as other:
        pass  # our one thread left os.cpu_count() - 1 cores to the others
    assert other.busy == (1.5 >= (os.cpu_count() - 1) + load.BUSY_CORES)
    short = iter([0.0, 0.01])
    with load.OtherLoad(None, lambda: 1.0, lambda: 0.0, lambda: next(short)) as other:
        pass
    assert other.cores is None and not other.busy  # too short to tell


@pytest.mark.parametrize(
    "problem, model", [("circles", torch.nn.Sequential), ("digits", torch.nn.Linear), ("tutorial", torch.nn.Linear)]
)
def test_the_sweeps_step_is_a_full_batch_step_of_the_chosen_problem(monkeypatch, problem, model):
    seen = []
    real = sweep_module._training_step

    def recording(config, device, dtype):
        step = real(config, device, dtype)
        seen.append((config.problem, config.samples, config.batch_size))
        return step

    monkeypatch.setattr(sweep_module, "_training_step", recording)
    config = TrainingConfig(problem=problem, width=8, depth=0 if problem == "digits" else 2, batch_size=16)
    result = sweep(SweepRequest(kind="step", devices=("cpu",), config=config, max_size=100))
    expected = "line" if problem == "tutorial" else problem
    assert seen == [(expected, 10, 0), (expected, 100, 0)] and len(result.rows) == 2
    x, y = sweep_module._samples(sweep_module.sized(config, 3000), 3000)
    assert len(x) == len(y) == 3000
    if problem == "digits":  # 1,437 training images, repeated
        assert torch.equal(x[1437], x[0]) and y[2874] == y[0]
    made = PROBLEMS[expected].make_model(sweep_module.sized(config, 10))
    assert isinstance(made, model)
