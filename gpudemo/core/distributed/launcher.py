"""Data parallel: one run on N workers with torch.distributed and DistributedDataParallel.

`run_parallel` starts N worker processes (core/distributed/worker.py) the way torchrun starts
them: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR=127.0.0.1 and a free MASTER_PORT in each
one's environment (env:// rendezvous), `gloo` between CPU processes or `nccl` with one process
per GPU. It reads rank 0's batches of losses as they come and returns the result.

The launcher owns the workers. Stop writes the stop file the workers vote on at their next
read-back, and kills them if they have not ended STOP_GRACE_S later. A worker that fails or is
killed ends the whole run at once (the others are killed, its last words are the reason); one
that hangs makes the others' next collective time out (`timeout`, 20 s by default), and they
fail. No worker outlives the call, whatever happens to it (Ctrl-C included).

The speedup of N workers over one is honest only when N workers have N devices' worth of
arithmetic: on the CPU each worker gets cores / N threads, so 2 workers on 2 cores split the
same cores, and only the parallel arithmetic outside torch's own threads (and the all-reduce's
cost) differ. On 3 samples the all-reduce dwarfs the step; on 1,000,000 the step dwarfs it.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gpudemo.core.base import oscalls, pace
from gpudemo.core.base.control import STOPPED, never
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.settings import config as settings
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import precision
from gpudemo.core.step.modes import mode_of

PREFIX = "GPUDEMO "  # rank 0's lines for the launcher: PREFIX, then one JSON object
STOP_GRACE_S = 5.0  # a stopped run's workers get this long to reach their read-back, then are killed
KILL_GRACE_S = 2.0  # SIGTERM, then SIGKILL after this
POLL_S = 0.05


class ParallelError(PersonError, RuntimeError):
    """The run could not go on: a worker failed, was killed or hung; every worker is gone."""


@dataclass(frozen=True)
class ParallelBatch:
    first_epoch: int
    losses: np.ndarray
    seconds: float

    @property
    def last_epoch(self) -> int:
        return self.first_epoch + len(self.losses) - 1


@dataclass
class ParallelResult:
    workers: int
    backend: str
    status: str  # completed, stopped or diverged
    epochs_run: int
    seconds: float  # the clock: from after epoch 1 (its one-time costs left out) to the last read-back
    final_loss: float | None
    allreduce_share: float
    losses: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    timed_epochs: int | None = None  # the epochs the clock covers: all but the first (None: all)

    @property
    def epochs_per_second(self) -> float:
        return pace.rate(self.epochs_run if self.timed_epochs is None else self.timed_epochs, self.seconds)


def free_port() -> int:
    """A TCP port free on localhost now (the rendezvous binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def nccl_built() -> bool:
    """Whether this PyTorch has NCCL: Linux's CUDA builds do; Windows' and macOS's never do."""
    import torch.distributed

    return torch.distributed.is_available() and torch.distributed.is_nccl_available()


def max_workers(backend: str) -> int:
    """How many workers this machine can run: its GPUs for nccl (none where this PyTorch has no NCCL), its
    CPUs for gloo."""
    if backend == "nccl":
        import torch

        return torch.cuda.device_count() if torch.cuda.is_available() and nccl_built() else 0
    return os.cpu_count() or 1


def backend_for(device: str) -> str:
    """The backend for workers on `device`'s kind: nccl between CUDA GPUs where this PyTorch has it, else gloo."""
    return "nccl" if device.startswith("cuda") and max_workers("nccl") > 0 else "gloo"


def worker_device(backend: str) -> str:
    """The device a worker of `backend` trains on: the CPU for gloo, a GPU for nccl (its first, for checks)."""
    return "cuda:0" if backend == "nccl" else "cpu"


def uneven_split(config: TrainingConfig, workers: int) -> Message | None:
    """Why `workers` do not minimise one worker's loss, where they do not: DistributedSampler pads a sample count
    that does not split evenly (it repeats the first samples), so some samples count twice; None where it splits."""
    from gpudemo.core.problems import problem_for

    samples = problem_for(config).samples(config)
    if workers < 2 or samples % workers == 0:
        return None
    padded = -(-samples // workers) * workers
    return message(
        QT_TRANSLATE_NOOP(
            "core",
            "{samples} samples do not split evenly over {workers} workers: DistributedSampler pads them to {padded}"
            " ({per} each) by repeating {twice} of them, so the workers minimise another loss than one worker does"
            " (their final losses differ; {even} samples would split evenly)",
        ),
        samples=f"{samples:,}",
        workers=workers,
        padded=f"{padded:,}",
        per=f"{padded // workers:,}",
        twice=f"{padded - samples:,}",
        even=f"{samples - samples % workers:,}",
    )


def check(config: TrainingConfig, workers: int, backend: str) -> None:
    """Refuse, before any worker starts, what the workers could not do: a precision their device
    cannot compute in (precision.PrecisionRefused), a step mode they cannot take (modes.StepRefused), more nccl workers
    than GPUs (ParallelError)."""
    if backend == "nccl" and workers > max_workers("nccl"):
        raise ParallelError(
            message(
                QT_TRANSLATE_NOOP("core", "nccl needs one GPU per worker: {workers} workers, {gpus} GPUs here"),
                workers=workers,
                gpus=max_workers("nccl"),
            )
        )
    precision.check(config.precision, worker_device(backend))
    mode_of(config).refuse_parallel()


def _ignore(batch: ParallelBatch) -> None:
    pass


class _Workers:
    """The worker processes of one run, and their ends."""

    def __init__(self, config: TrainingConfig, workers: int, backend: str, timeout: float, stop_file: str):
        port = free_port()
        threads = max(1, (os.cpu_count() or 1) // workers)
        command = [
            sys.executable,
            "-m",
            "gpudemo.core.distributed.worker",
            *settings.to_argv(config),
            "--backend",
            backend,
            "--stop-file",
            stop_file,
            "--timeout",
            repr(timeout),
            "--threads",
            str(threads),
        ]
        self.errors = [tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") for _ in range(workers)]
        self.processes: list[subprocess.Popen] = []
        root = str(Path(__file__).resolve().parents[2])  # the package's folder: importable from a source tree too
        for rank in range(workers):
            env = {
                **os.environ,
                "MASTER_ADDR": "127.0.0.1",
                "MASTER_PORT": str(port),
                "WORLD_SIZE": str(workers),
                "RANK": str(rank),
                "LOCAL_RANK": str(rank),
                "PYTHONUNBUFFERED": "1",
                "PYTHONUTF8": "1",  # the worker's words in UTF-8, as read here (Windows' code page mangled them)
                "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
                "OMP_NUM_THREADS": str(threads),
                **oscalls.worker_env(),
            }
            self.processes.append(
                subprocess.Popen(
                    command,
                    env=env,
                    stdout=subprocess.PIPE if rank == 0 else subprocess.DEVNULL,
                    stderr=self.errors[rank],
                    stdin=subprocess.DEVNULL,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    **oscalls.worker_options(),  # the terminal's Ctrl-C reaches the launcher, not the workers
                )
            )
            oscalls.tie_to_this_process(self.processes[-1])  # on Windows: ended with gpudemo, however it ends
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, name="gpudemo-parallel-reader", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stdout = self.processes[0].stdout
        for line in stdout:
            self.lines.put(line)
        self.lines.put(None)

    def failed(self) -> int | None:
        """The rank of a worker that ended with an error, if any."""
        for rank, process in enumerate(self.processes):
            code = process.poll()
            if code is not None and code != 0:
                return rank
        return None

    def all_done(self) -> bool:
        return all(process.poll() == 0 for process in self.processes)

    def last_words(self, rank: int) -> str:
        """The last meaningful line a worker wrote to stderr (its exception), or how it ended."""
        stream = self.errors[rank]
        stream.flush()
        stream.seek(0)
        lines = [line.strip() for line in stream.read().splitlines() if line.strip()]
        errors = [line for line in lines if "Error" in line or "error" in line]
        code = self.processes[rank].returncode
        if code is not None and code < 0:
            killed = (
                f"killed by signal {signal.Signals(-code).name}"
                if -code in signal.valid_signals()
                else f"killed by signal {-code}"
            )
            said = (errors or lines)[-1][:300] if errors or lines else ""
            return f"{killed} ({said})" if said else killed  # an abort's last words say why (gloo, the allocator)
        return (errors or lines or [f"exit status {code}"])[-1][:300]

    def end(self) -> None:
        """Every worker gone: asked to end (SIGTERM; on Windows, terminate), then made to (SIGKILL; kill)."""
        for process in self.processes:
            if process.poll() is None:
                oscalls.end_worker(process)
        deadline = time.monotonic() + KILL_GRACE_S
        for process in self.processes:
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                oscalls.end_worker(process, force=True)
                process.wait()
        for process in self.processes:
            if process.stdout is not None:
                process.stdout.close()
        self.reader.join(timeout=1.0)
        for stream in self.errors:
            stream.close()


def run_parallel(
    config: TrainingConfig,
    workers: int,
    backend: str = "gloo",
    should_stop: Callable[[], bool] = never,
    on_batch: Callable[[ParallelBatch], None] = _ignore,
    timeout: float = 20.0,
    on_start: Callable[[list[int]], None] | None = None,
) -> ParallelResult:
    """Train `config` on `workers` processes with DDP; raises ParallelError when a worker fails, and
    refuses first what the workers cannot do (see `check`).
    `on_start` hears the workers' process ids, rank by rank."""
    import json

    check(config, workers, backend)
    stop_file = os.path.join(tempfile.gettempdir(), f"gpudemo-stop-{os.getpid()}-{time.monotonic_ns()}")
    pool = _Workers(config, workers, backend, timeout, stop_file)
    if on_start is not None:
        on_start([process.pid for process in pool.processes])
    losses: list[np.ndarray] = []
    result = None
    stop_deadline = None
    try:
        while True:
            try:
                line = pool.lines.get(timeout=POLL_S)
            except queue.Empty:
                line = ""
            if line and line.startswith(PREFIX):
                item = json.loads(line[len(PREFIX) :])
                if item["type"] == "batch":
                    batch = ParallelBatch(item["first_epoch"], np.asarray(item["losses"], np.float32), item["seconds"])
                    losses.append(batch.losses)
                    on_batch(batch)
                elif item["type"] == "result":
                    result = item
            rank = pool.failed()
            if rank is not None:
                raise ParallelError(
                    message(
                        QT_TRANSLATE_NOOP("core", "worker {rank} of {workers} failed, and the run with it: {reason}"),
                        rank=rank,
                        workers=workers,
                        reason=pool.last_words(rank),
                    )
                )
            if result is not None and pool.all_done():
                break
            if line is None and result is None and all(p.poll() is not None for p in pool.processes):
                raise ParallelError(message(QT_TRANSLATE_NOOP("core", "the workers ended without a result")))
            if stop_deadline is None and should_stop():
                Path(stop_file).touch()
                stop_deadline = time.monotonic() + STOP_GRACE_S
            if stop_deadline is not None and time.monotonic() > stop_deadline:
                break  # they did not reach a read-back in time: killed below, the run ends with what came
    finally:
        pool.end()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(stop_file)
    history = np.concatenate(losses) if losses else np.zeros(0, np.float32)
    if result is None:  # stopped before a result came
        return ParallelResult(
            workers, backend, STOPPED, len(history), 0.0, float(history[-1]) if len(history) else None, 0.0, history
        )
    return ParallelResult(
        workers,
        backend,
        result["status"],
        result["epochs_run"],
        result["seconds"],
        result["final_loss"],
        result["allreduce_share"],
        history,
        result["timed_epochs"],
    )


def scaling(
    config: TrainingConfig,
    counts: Sequence[int],
    backend: str = "gloo",
    should_stop: Callable[[], bool] = never,
    on_result: Callable[[ParallelResult], None] | None = None,
) -> list[ParallelResult]:
    """The same run on 1, 2, ... workers in turn (the window's Data parallel tab)."""
    results = []
    for count in counts:
        if should_stop():
            break
        result = run_parallel(config, count, backend, should_stop)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
