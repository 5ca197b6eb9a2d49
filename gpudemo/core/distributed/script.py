"""The data-parallel script behind a run: the same training with DistributedDataParallel, for torchrun,
its step written as the single-device script writes it (precision and a compiled step included).

Run with `torchrun --nproc-per-node N gpudemo_ddp.py` (one machine) it trains on N workers as
`gpudemo parallel --workers N` does, the same shards and steps, and rank 0 prints the same
final loss. Its comments go through `translate` like the single-device script's.
"""

from __future__ import annotations

from collections.abc import Callable

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP
from gpudemo.core.outputs.script import COMMENTS as SCRIPT_COMMENTS
from gpudemo.core.outputs.script import precision_lines, scripted
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.training.budget import batch_size

COMMENTS = {
    "title": QT_TRANSLATE_NOOP("script", "# gpudemo: the data-parallel PyTorch script behind this run."),
    "run": QT_TRANSLATE_NOOP("script", "# Run it on {workers} workers: torchrun --nproc-per-node {workers} {filename}"),
    "windows": QT_TRANSLATE_NOOP(
        "script",
        "# On Windows: set USE_LIBUV=0 first (its PyTorch has no libuv); torchrun there is best effort, WSL2 works.",
    ),
    "group": QT_TRANSLATE_NOOP(
        "script", "# 1. torchrun starts one process per worker; each joins the group and learns its rank."
    ),
    "model": QT_TRANSLATE_NOOP("script", "# 2. Every worker builds the same model and data from the seed..."),
    "shard": QT_TRANSLATE_NOOP(
        "script",
        "#    ...and keeps its shard, as DistributedSampler deals them (the last shards padded from the start).",
    ),
    "wrap": QT_TRANSLATE_NOOP(
        "script", "# 3. DDP all-reduces the gradients in backward: every worker takes the same step."
    ),
    "train": QT_TRANSLATE_NOOP("script", "# 4. Train: {epochs} epochs, each worker on its shard."),
    "result": QT_TRANSLATE_NOOP("script", "# 5. The run's loss is the mean of the workers' losses."),
    "compiled": SCRIPT_COMMENTS["compiled"],  # the single-device script's words for the same lines
}


def _say(translate: Callable[[str], str]) -> dict[str, str]:
    said = {}
    for key, english in COMMENTS.items():
        text = translate(english)
        ok = all(line.startswith("#") for line in text.split("\n")) and text.count("{") == english.count("{")
        said[key] = text if ok else english
    return said


def generate_parallel_script(
    config: TrainingConfig,
    workers: int = 2,
    backend: str = "gloo",
    filename: str = "gpudemo_ddp.py",
    translate: Callable[[str], str] = str,
) -> str:
    say = _say(translate)
    problem = problem_for(config)
    batch, samples = batch_size(config), problem.samples(config)
    minibatch = batch < samples
    optimizer = OPTIMIZERS[config.optimizer].line(config.lr)
    generator = [f"generator = torch.Generator().manual_seed({config.seed})"] if problem.uses_generator(config) else []
    lines = [
        say["title"],
        say["run"].format(workers=workers, filename=filename),
        say["windows"],
        *problem.script_imports(),
        "import math",
        "import os",
        "import torch",
        "import torch.distributed as dist",
        "from torch.nn.parallel import DistributedDataParallel",
        "from torch.utils.data import DistributedSampler",
        "",
        say["group"],
        *_group_lines(backend),
        "rank, world = dist.get_rank(), dist.get_world_size()",
        "",
        say["model"],
        f"torch.manual_seed({config.seed})",
        *problem.script_model(config),
        *generator,
        *problem.script_data(config),
        say["shard"],
    ]
    lines += _shard_lines(config, batch if minibatch else None)
    lines += [
        "",
        say["wrap"],
        'model = DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)',
        f"criterion = torch.nn.{type(problem.make_loss()).__name__}().to(device)",
        f"optimizer = {optimizer}",
        *precision_lines(config),
        "",
        say["train"].format(epochs=f"{config.epochs:,}"),
        *scripted(config).before_loop(config, say, cuda_graphs=False),
        f"for epoch in range({config.epochs}):",
        *_epoch_lines(config, minibatch),
    ]
    lines += [
        "",
        say["result"],
        "loss = loss.detach().float().reshape(1)",
        "dist.all_reduce(loss)",
        "if rank == 0:",
        '    print("workers", world)',
        '    print("final loss", (loss / world).item())',
        # Every worker past its last collective before any tears gloo down, and DDP (which holds the group
        # and its threads) freed while Python is whole: else a worker under load now and then aborted at
        # exit ("terminate called without an active exception", 1 run in 8 with the barrier alone).
        "dist.barrier()",
        "del model, optimizer",
        "dist.destroy_process_group()",
    ]
    return "\n".join(line for entry in lines for line in entry.split("\n")) + "\n"


def _group_lines(backend: str) -> list[str]:
    """Each worker joins the group: on its own GPU for nccl (one a worker), on the CPU for gloo."""
    if backend != "nccl":
        return ['device = torch.device("cpu")', f'dist.init_process_group("{backend}")']
    return [
        'local = int(os.environ["LOCAL_RANK"])',
        "if local >= torch.cuda.device_count():  # nccl: one GPU per worker",
        '    raise SystemExit(f"nccl needs one GPU per worker: local rank {local} has none here")',
        'device = torch.device("cuda", local)',
        "torch.cuda.set_device(device)",
        'dist.init_process_group("nccl", device_id=device)',
    ]


def _shard_lines(config: TrainingConfig, batch: int | None) -> list[str]:
    """Each worker's share: a sampler dealing the global `batch` over the workers each epoch, or (the full
    batch, `batch` None) its fixed shard of the data."""
    if batch is not None:
        return [
            "sampler = DistributedSampler(range(len(y_train)), num_replicas=world, rank=rank, shuffle=True,"
            f" seed={config.seed})",
            f"batch_size = math.ceil({batch} / world)  # the global batch, split over the workers",
        ]
    return [
        "shard = torch.tensor(list(DistributedSampler(range(len(y_train)), num_replicas=world, rank=rank,"
        " shuffle=False)))",
        "x_train, y_train = x_train[shard.to(device)], y_train[shard.to(device)]",
    ]


def _epoch_lines(config: TrainingConfig, minibatch: bool) -> list[str]:
    """One epoch inside the loop: the step on the shard, or on each minibatch of the sampler's order."""
    if not minibatch:
        return scripted(config).take(config, "x_train", "y_train", "    ", cuda_graphs=False)
    return [
        "    sampler.set_epoch(epoch)",
        "    order = torch.tensor(list(sampler), device=device)",
        "    total, batches = 0.0, 0",
        "    for start in range(0, len(order), batch_size):",
        "        index = order[start:start + batch_size]",
        *scripted(config).take(config, "x_train[index]", "y_train[index]", "        ", cuda_graphs=False),
        "        total = total + loss.detach()",
        "        batches += 1",
        "    loss = total / batches",
    ]
