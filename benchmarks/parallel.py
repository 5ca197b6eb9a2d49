"""Data parallel: 1 against 2 gloo workers on this machine, for the tutorial and the line at 1,000,000 samples.

Each figure is one run per worker count, the counts interleaved `repeats` times (medians), with
the launcher's start (processes, torch's import, the rendezvous) left out: the workers' own
clock runs from a barrier after set-up to the last read-back. The all-reduce share is the
workers' own measure (a forward and backward with DDP's all-reduce against the same without it).
"""

from benchmarks.stats import median
from gpudemo.core.distributed.launcher import run_parallel
from gpudemo.core.settings.config import TrainingConfig

CASES = {
    "tutorial": TrainingConfig(epochs=3000),
    "line 1,000,000": TrainingConfig(problem="line", samples=1_000_000, epochs=60),
}


def run(repeats: int = 3, scale: float = 1.0, backend: str = "gloo", workers: int = 2) -> list[dict]:
    rows = []
    for name, config in CASES.items():
        config = TrainingConfig(**{**config.__dict__, "epochs": max(5, int(config.epochs * scale))})
        rates = {1: [], workers: []}
        shares = []
        for _ in range(repeats):
            for count in (1, workers):
                result = run_parallel(config, count, backend)
                rates[count].append(result.epochs_per_second)
                if count == workers:
                    shares.append(result.allreduce_share)
        one, many = median(rates[1]), median(rates[workers])
        rows += [
            {"figure": f"parallel {backend}: {name}, 1 worker", "value": one, "unit": "epochs/s"},
            {"figure": f"parallel {backend}: {name}, {workers} workers", "value": many, "unit": "epochs/s"},
            {"figure": f"parallel {backend}: {name}, speedup of {workers}", "value": many / one, "unit": "x"},
            {
                "figure": f"parallel {backend}: {name}, all-reduce share of a step",
                "value": median(shares),
                "unit": "of step",
            },
        ]
    return rows
