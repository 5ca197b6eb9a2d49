"""Data parallel: DDP on worker processes (gloo on this CPU), its numbers, its stops and its failures."""

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import torch
from torch.utils.data import DistributedSampler

from gpudemo.core.distributed.launcher import PREFIX, ParallelError, free_port, run_parallel
from gpudemo.core.distributed.script import generate_parallel_script
from gpudemo.core.distributed.worker import shard_indices
from gpudemo.core.settings.config import TrainingConfig, to_argv
from gpudemo.core.step.precision import PrecisionRefused
from gpudemo.core.training import train
from tests.commands import gpudemo

# each run starts worker processes that import torch (seconds each here), on local ports: one group, one at a time
# `processes` on each test that starts data-parallel workers (dev.py test runs those alone, after the rest);
# the samplers, the nccl check and the command line's refusals start none and run in the spread phase.
pytestmark = [pytest.mark.slow]

LINE = TrainingConfig(problem="line", samples=1000, epochs=60, lr=0.1)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("samples, world", [(3, 2), (10, 3), (1000, 2), (7, 4)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_shards_are_distributed_samplers(samples, world, shuffle):
    for rank in range(world):
        sampler = DistributedSampler(range(samples), num_replicas=world, rank=rank, shuffle=shuffle, seed=5)
        sampler.set_epoch(3)
        assert shard_indices(samples, world, rank, 5, 3, shuffle).tolist() == list(sampler)


@pytest.mark.processes
def test_two_workers_take_the_full_batch_step_of_one_device():
    batches = []
    result = run_parallel(LINE, 2, on_batch=batches.append)
    single = train(LINE)
    assert result.status == "completed" and result.epochs_run == 60 and result.workers == 2
    assert abs(result.final_loss - single.final_loss) <= 1e-5 * abs(single.final_loss)
    np.testing.assert_allclose(result.losses, single.losses, rtol=1e-5)
    assert [b.first_epoch for b in batches] == [1, 2, 3, 5, 9, 17, 33] and batches[-1].last_epoch == 60
    assert 0.0 <= result.allreduce_share <= 1.0 and result.epochs_per_second > 0


@pytest.mark.processes
def test_two_workers_train_in_the_precision_asked():
    fp32 = TrainingConfig(problem="sine", samples=1000, epochs=100, lr=0.1, width=32, depth=2)
    bf16 = dataclasses.replace(fp32, precision="bf16")
    out = gpudemo("parallel", "--device", "cpu", *to_argv(bf16), "--workers", "2", "--json")
    assert out.returncode == 0, out.stderr
    workers, one, as_fp32 = json.loads(out.stdout)["final_loss"], train(bf16).final_loss, train(fp32).final_loss
    # bf16 ends 38% away from fp32 here. Each worker rounds its half of the gradient to bf16 before the
    # all-reduce adds them, which one device's whole gradient is not: 0.5% apart measured, not 1e-5.
    assert abs(workers - one) <= 0.02 * one
    assert abs(workers - as_fp32) >= 0.2 * as_fp32


@pytest.mark.processes
def test_a_precision_the_workers_cannot_do_is_refused_before_any_starts():
    with pytest.raises(PrecisionRefused, match="fp16"):
        run_parallel(dataclasses.replace(LINE, precision="fp16"), 2)
    out = gpudemo("parallel", "--device", "cpu", "--precision", "fp16", "--epochs", "1")
    assert out.returncode == 2 and "fp16" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.processes
def test_minibatches_split_the_global_batch_and_train():
    config = TrainingConfig(
        problem="circles", samples=400, batch_size=100, width=8, optimizer="adam", lr=0.02, epochs=40
    )
    result = run_parallel(config, 2)
    assert (
        result.status == "completed"
        and result.final_loss < train(TrainingConfig(**{**config.__dict__, "epochs": 1})).final_loss
    )


@pytest.mark.processes
def test_a_stop_ends_every_worker_at_the_same_read_back():
    pids = []
    seen = []
    config = TrainingConfig(problem="line", samples=1000, epochs=10_000_000)
    result = run_parallel(config, 2, should_stop=lambda: len(seen) >= 3, on_batch=seen.append, on_start=pids.extend)
    assert result.status == "stopped" and 0 < result.epochs_run < config.epochs
    assert all(gone(pid) for pid in pids)


@pytest.mark.processes
@pytest.mark.linux
def test_a_killed_worker_ends_the_run_at_once_and_no_worker_is_left():
    pids = []
    killed = []

    def kill_one(batch):
        if not killed:
            os.kill(pids[1], signal.SIGKILL)
            killed.append(time.monotonic())

    with pytest.raises(ParallelError, match="failed, and the run with it") as failure:
        run_parallel(
            TrainingConfig(problem="line", samples=1000, epochs=10_000_000), 2, on_batch=kill_one, on_start=pids.extend
        )
    assert time.monotonic() - killed[0] < 10
    assert "worker 1 of 2" in str(failure.value) or "worker 0 of 2" in str(failure.value)
    assert all(gone(pid) for pid in pids)


@pytest.mark.processes
def test_a_hung_worker_times_the_others_out():
    pids = []
    stopped = []

    def freeze_one(batch):
        if not stopped:
            os.kill(pids[1], signal.SIGSTOP)
            stopped.append(time.monotonic())

    with pytest.raises(ParallelError, match="worker 0 of 2 failed"):
        run_parallel(
            TrainingConfig(problem="line", samples=1000, epochs=10_000_000),
            2,
            on_batch=freeze_one,
            on_start=pids.extend,
            timeout=3.0,
        )
    assert time.monotonic() - stopped[0] < 15
    assert all(gone(pid) for pid in pids)


@pytest.mark.processes
def test_the_cli_reports_workers_speedup_and_communication():
    out = gpudemo(
        "parallel",
        "--device",
        "cpu",
        "--problem",
        "line",
        "--samples",
        "1000",
        "--epochs",
        "30",
        "--workers",
        "2",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert {
        "workers",
        "backend",
        "epochs_per_second",
        "seconds",
        "final_loss",
        "speedup_vs_one",
        "allreduce_share",
    } <= set(report)
    assert report["workers"] == 2 and report["backend"] == "gloo" and report["speedup_vs_one"] > 0
    assert report["final_loss"] == pytest.approx(report["one_worker_final_loss"], rel=1e-5)
    # the clock starts after epoch 1, whose first-step costs (and the first all-reduce's) it leaves out
    assert report["epochs_run"] == 30 and report["timed_epochs"] == 29
    assert report["epochs_per_second"] == pytest.approx(29 / report["seconds"])


def test_nccl_without_a_gpu_for_the_worker_says_so_plainly(monkeypatch, capsys):
    from gpudemo.core.distributed import worker

    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setenv("LOCAL_RANK", "1")
    assert worker.main(["--backend", "nccl", "--epochs", "1"]) == 2
    said = capsys.readouterr().err
    assert "local rank 1 has none, this machine has 1 GPU(s)" in said and "--nproc-per-node 1" in said
    script = generate_parallel_script(TrainingConfig(), 2, backend="nccl")
    assert "torch.cuda.set_device(device)" in script and 'init_process_group("nccl", device_id=device)' in script
    assert "if local >= torch.cuda.device_count():" in script


@pytest.mark.parametrize(
    "args, says",
    [
        (["--workers", "999"], "must be from 1 to 64"),
        (["--workers", "64"], "but this machine has"),
        (["--backend", "mpi"], "backend must be one of gloo, nccl"),
    ],
)
def test_the_cli_refuses_what_the_machine_cannot_run(args, says):
    if torch.cuda.is_available() and "nccl" in args:
        pytest.skip("this machine has GPUs")
    out = gpudemo("parallel", "--epochs", "1", *args)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


@pytest.mark.processes
@pytest.mark.linux
def test_two_torchrun_nodes_on_localhost_train_the_same_run():
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--nnodes",
        "2",
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"127.0.0.1:{port}",
        "--rdzv-id",
        "gpudemo-test",
        "-m",
        "gpudemo.core.distributed.worker",
        *to_argv(LINE),
    ]
    nodes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        for _ in range(2)
    ]
    try:
        outputs = [node.communicate(timeout=120) for node in nodes]
    finally:
        for node in nodes:
            if node.poll() is None:
                os.killpg(node.pid, signal.SIGKILL)
    assert all(node.returncode == 0 for node in nodes), [err[-2000:] for _, err in outputs]
    lines = [line for out, _ in outputs for line in out.splitlines() if line.startswith(PREFIX)]
    result = json.loads([line for line in lines if '"result"' in line][0][len(PREFIX) :])
    assert result["world"] == 2 and result["epochs_run"] == 60
    assert result["final_loss"] == pytest.approx(train(LINE).final_loss, rel=1e-5)


@pytest.mark.processes
@pytest.mark.parametrize(
    "config",
    [
        LINE,
        TrainingConfig(
            problem="circles",
            samples=400,
            batch_size=100,
            width=8,
            optimizer="adam",
            lr=0.02,
            epochs=20,
            precision="bf16",
        ),  # minibatches, and the step under autocast as the workers take it
    ],
)
def test_the_ddp_script_under_torchrun_prints_the_runs_final_loss(tmp_path, config):
    from gpudemo.core.distributed.script import generate_parallel_script

    script = tmp_path / "gpudemo_ddp.py"
    text = generate_parallel_script(config, 2)
    for call in (
        "dist.init_process_group(",
        "DistributedSampler(",
        "DistributedDataParallel(model",
        "dist.destroy_process_group()",
    ):
        assert call in text
    assert "torchrun --nproc-per-node 2 gpudemo_ddp.py" in text
    script.write_text(text)
    # --standalone: torchrun binds a free port itself, with no window for another process to take it.
    out = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    printed = dict(line.rsplit(" ", 1) for line in out.stdout.splitlines() if line.startswith(("final", "workers")))
    assert printed["workers"] == "2"
    assert float(printed["final loss"]) == pytest.approx(run_parallel(config, 2).final_loss, rel=1e-6)
