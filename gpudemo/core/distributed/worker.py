"""One worker of a data-parallel run: `python -m gpudemo.core.distributed.worker [training options]`.

It is started the way `torchrun` starts workers (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and
MASTER_PORT in its environment, env:// rendezvous), by gpudemo's launcher (core/distributed/launcher.py) or
by torchrun itself, on one machine or several:

    torchrun --nnodes 2 --nproc-per-node 1 --node-rank 0 --rdzv-backend c10d \\
        --rdzv-endpoint HOST:29500 -m gpudemo.core.distributed.worker --problem line --samples 1000000

Every worker builds the same model from the seed (DistributedDataParallel also broadcasts
rank 0's weights), draws the same data on the CPU and keeps its shard, as PyTorch's
DistributedSampler shards it: indices rank, rank + N, rank + 2N, ... of the data (shuffled
each epoch from seed + epoch for minibatches), the last shards padded from the start so
that all are equal. Each step's gradients are all-reduced by DDP, so every worker takes the
same step; with equal shards and the full batch, it is the full-batch step of one device.
The global batch stays the person's: each worker takes batch / N of it.

Losses stay on the device and are read back in batches, at epochs 1, 2, 4, ... 256 and every
256 after (the same epochs on every worker, so no worker waits for another's clock): one
all-reduce carries the batch's losses (their mean over workers is the run's loss) and a stop
vote (the launcher's stop file exists, or a loss is not finite), so all workers stop at the
same epoch. Rank 0 prints each batch and the result as a `GPUDEMO {json}` line on stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from gpudemo.core.base.control import COMPLETED, DIVERGED, STOPPED
from gpudemo.core.distributed.launcher import PREFIX
from gpudemo.core.problems import problem_for
from gpudemo.core.settings import config as settings
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import precision
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.step.step import Step
from gpudemo.core.training.budget import batch_size

FLUSH_EPOCHS_MAX = 256
SHARE_STEPS = 20  # steps timed with and without DDP's all-reduce, for the communication share...
SHARE_REPEATS = 3  # ...this many times each, medians
DEFAULT_TIMEOUT_S = 20.0  # a collective that waits longer (a worker hung) fails, and the run with it


def emit(kind: str, **fields: object) -> None:
    print(PREFIX + json.dumps({"type": kind, **fields}), flush=True)


def shard_indices(samples: int, world: int, rank: int, seed: int, epoch: int, shuffle: bool) -> torch.Tensor:
    """This rank's sample indices, as torch.utils.data.DistributedSampler gives them (drop_last False)."""
    if shuffle:
        generator = torch.Generator().manual_seed(seed + epoch)
        order = torch.randperm(samples, generator=generator)
    else:
        order = torch.arange(samples)
    total = math.ceil(samples / world) * world
    if total > samples:  # pad from the start, repeating as often as needed
        order = torch.cat((order, order.repeat(math.ceil((total - samples) / samples))[: total - samples]))
    return order[rank:total:world]


def no_gpu_for(local: int, gpus: int) -> str:
    """Why a worker of local rank `local` cannot use nccl on a node of `gpus` GPUs."""
    return (
        f"nccl needs one GPU per worker: local rank {local} has none, this machine has {gpus} GPU(s);"
        f" start at most {gpus} worker(s) per machine (torchrun --nproc-per-node {max(gpus, 1)}), or use gloo"
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gpudemo.core.distributed.worker")
    settings.add_arguments(parser)
    parser.add_argument("--backend", type=settings.argparse_type(rules.parse_backend), default="gloo")
    parser.add_argument("--stop-file", default="", help="stop all workers after the next read-back once it exists")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds a collective may wait")
    parser.add_argument("--threads", type=int, default=0, help="torch threads per worker on the CPU (0: torch's)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    rank, world = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", str(rank)))
    if args.backend == "nccl":
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if local >= gpus:  # torchrun with more processes per node than GPUs: say so, not "invalid device ordinal"
            print(no_gpu_for(local, gpus), file=sys.stderr)
            return 2
        device = torch.device("cuda", local)
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
        if args.threads > 0:
            torch.set_num_threads(args.threads)
    config = settings.from_arguments(args, str(device))
    precision.check(config.precision, config.device)
    dist.init_process_group(
        args.backend,
        init_method="env://",
        timeout=timedelta(seconds=args.timeout),
        **({"device_id": device} if args.backend == "nccl" else {}),
    )
    try:
        with precision.matmul_precision(config.precision):
            train_shard(config, rank, world, args.stop_file, device)
    finally:
        dist.destroy_process_group()
    return 0


def train_shard(config: TrainingConfig, rank: int, world: int, stop_file: str, device: torch.device) -> None:
    problem = problem_for(config)
    torch.manual_seed(config.seed)
    model = problem.make_model(config).to(device)
    x_all, y_all = problem.make_data(config, torch.Generator().manual_seed(config.seed))
    samples = len(y_all)
    full = batch_size(config) >= samples
    local_batch = max(1, math.ceil(batch_size(config) / world))
    if full:  # the shard never changes: on the device once
        shard = shard_indices(samples, world, rank, config.seed, 0, shuffle=False)
        x_train, y_train = x_all[shard].to(device), y_all[shard].to(device)
    else:
        x_train, y_train = x_all.to(device), y_all.to(device)
    del x_all, y_all
    ddp = DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    criterion = problem.make_loss().to(device)
    optimizer = OPTIMIZERS[config.optimizer].make(ddp.parameters(), config.lr)
    step = Step(model, criterion, optimizer, config, device, module=ddp).take  # as one device steps

    def epoch_loss(epoch: int) -> torch.Tensor:
        if full:
            return step(x_train, y_train)[1].detach()
        order = shard_indices(samples, world, rank, config.seed, epoch, shuffle=True).to(device)
        total, batches = 0.0, 0
        for start in range(0, len(order), local_batch):
            index = order[start : start + local_batch]
            total = total + step(x_train[index], y_train[index])[1].detach()
            batches += 1
        return total / batches

    dist.barrier()
    start = time.perf_counter()
    # The clock restarts after epoch 1's read-back (an all-reduce: every worker has finished it): the first
    # step's one-time costs (kernels loaded, cuBLAS's workspace, the allocator's first blocks, DDP's bucket
    # rebuild, NCCL's connections) stay out of the rate, as the one-device loop's untimed warm-up keeps them.
    clock, clocked_from = start, 0
    pending: list[torch.Tensor] = []
    first, next_flush, status, epochs_run, last_loss = 1, 1, COMPLETED, 0, None
    for epoch in range(config.epochs):
        pending.append(epoch_loss(epoch))
        done = epoch + 1
        if done != next_flush and done != config.epochs:
            continue
        values, stop_votes, diverged = _read_back(pending, bool(stop_file) and os.path.exists(stop_file), world)
        status = DIVERGED if diverged else status
        epochs_run = first - 1 + len(values)
        last_loss = float(values[-1])
        if rank == 0:
            emit("batch", first_epoch=first, losses=[float(v) for v in values], seconds=time.perf_counter() - start)
        first = done + 1
        next_flush = (
            min(next_flush * 2, done + FLUSH_EPOCHS_MAX) if next_flush < FLUSH_EPOCHS_MAX else done + FLUSH_EPOCHS_MAX
        )
        if status == DIVERGED:
            break
        if stop_votes > 0:
            status = STOPPED if done < config.epochs else status
            break
        if done == 1 and config.epochs > 1:
            clock, clocked_from = time.perf_counter(), 1
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    seconds = time.perf_counter() - clock
    share = communication_share(ddp, criterion, x_train, y_train, local_batch, device) if world > 1 else 0.0
    if rank == 0:
        emit(
            "result",
            status=status,
            epochs_run=epochs_run,
            timed_epochs=epochs_run - clocked_from,
            seconds=seconds,
            final_loss=last_loss if last_loss is not None and math.isfinite(last_loss) else None,
            allreduce_share=share,
            device=str(device),
            world=world,
        )


def _read_back(pending: list[torch.Tensor], stop: bool, world: int) -> tuple[torch.Tensor, float, bool]:
    """The epochs' losses since the last read-back, averaged over the workers, and the stop votes, in one
    collective; the losses trimmed after the first that is not finite: (losses, stop votes, diverged)."""
    device = pending[0].device
    packet = torch.cat((torch.stack(pending).float(), torch.tensor([1.0 if stop else 0.0], device=device)))
    dist.all_reduce(packet)  # one collective: the losses (summed, then averaged) and the stop votes
    values = (packet[:-1] / world).cpu()
    pending.clear()
    bad = ~torch.isfinite(values)
    if bad.any():
        return values[: int(bad.nonzero()[0]) + 1], float(packet[-1]), True
    return values, float(packet[-1]), False


def communication_share(ddp, criterion, x_train, y_train, batch: int, device: torch.device) -> float:
    """The share of a forward and backward spent in DDP's all-reduce: the same steps timed with it and
    without it (`no_sync`), on every worker in step; the weights are not changed."""
    x, y = x_train[:batch], y_train[:batch]

    def timed(sync: bool) -> float:
        dist.barrier()
        began = time.perf_counter()
        for _ in range(SHARE_STEPS):
            with contextlib.nullcontext() if sync else ddp.no_sync():
                criterion(ddp(x), y).backward()
            ddp.zero_grad(set_to_none=True)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        return time.perf_counter() - began

    timed(True)  # warm
    pairs = [(timed(True), timed(False)) for _ in range(SHARE_REPEATS)]  # interleaved: the same machine load
    with_sync = sorted(pair[0] for pair in pairs)[SHARE_REPEATS // 2]
    without = sorted(pair[1] for pair in pairs)[SHARE_REPEATS // 2]
    return min(1.0, max(0.0, (with_sync - without) / with_sync)) if with_sync > 0 else 0.0


if __name__ == "__main__":
    sys.exit(main())
