"""The GPU check: everything gpudemo can show on a CUDA machine without Qt, in one command.

    python -m benchmarks.gpu_check [--out DIR]          # everything: 7-9 minutes on one H200
    python -m benchmarks.gpu_check --quick-gpu [--out DIR]  # what never ran on a GPU: 7-10 minutes
    python -m benchmarks.gpu_check --first-gpu --out DIR --archive FILE   # first: at most 290 s
    python -m benchmarks.gpu_check --rest-gpu --out DIR --archive FILE    # then: the rest, 3-5 minutes

On a lease of 15 minutes, with at most 10 a command: --first-gpu first (the step modes' new paths,
the cuda tests, the compiled step in a second thread), then --rest-gpu if time is left. --archive
rewrites one .tar.gz of the output after every step, so a command stopped at its limit still leaves
everything it finished.

Made for a machine with a CUDA GPU, torch and pytest but no Qt (a GPU server), in under
8 minutes on one GPU. Each step writes what it printed to NAME.txt in DIR (default
gpu-check-<time>), its command and stderr to NAME.log, and summary.txt says what passed,
failed or was skipped, with times:
1. env: Python, torch, numpy, pytest, the driver and every device's properties;
2. probes: a 2,000-epoch line run under CUDA's sync debug mode (about one host sync per
   read-back), cold against warm epochs/s, the cuBLAS workspace after a run, a real
   out-of-memory error and what it leaves reserved, the same data on CPU and GPU
   (compare's final losses within 1e-4 relative), matmul in fp32/tf32/bf16 at n = 8192;
3. suite: the Qt-free tests, every `cuda` test among them;
4. cli: `gpudemo devices/train/compare/sweep/profile/transfer/parallel` on the GPU, the tutorial, the line
   at 1,000,000 samples, four precisions side by side, the digits and the circles;
5. benchmarks: `python -m benchmarks --only gpu`.

--quick-gpu runs, at small sizes, only the paths that have never run on a GPU (the 4 December run
measured the rest, the CPU baselines among them): the torch API the code relies on (`api`), the
`cuda` tests, a profile with its timeline, a roofline sweep, transfer, four precisions side by
side, the digits and the circles, a compiled run with a last minibatch of another size, the step
modes (profiled and compared side by side, the sweep with the graph step, the steps benchmark), data
parallel with nccl on every GPU, and the lesson's timed move; each step's time printed as it ends.

Without a GPU it runs the parts the CPU can (the environment, the CLI on the CPU at small
sizes) and says of each other step that it was skipped and why: the suite runs it that way
(tests/test_gpu_check.py), so the script cannot rot between GPU sessions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# pytest-benchmark (on the GPU image) warns that xdist disables it, and the suite makes warnings errors.
QT_FREE_SUITE = [
    "-m",
    "pytest",
    "-m",
    "not gui and not slow",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:benchmark",
    "-q",
    "-rs",
]


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def _spread() -> list[str]:
    """pytest-xdist's options where it is installed: the suite over every core (each worker on one thread)."""
    import importlib.util

    return ["-n", "auto"] if importlib.util.find_spec("xdist") is not None else []


def _run(out: Path, name: str, command: list[str], timeout: float) -> tuple[bool, str]:
    """Run `command` from the repository's root, its output to out/name.txt; (passed, a short note)."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        PYTHONUNBUFFERED="1",
    )
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        text = expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        (out / f"{name}.txt").write_text(text)
        (out / f"{name}.log").write_text(f"$ {' '.join(command)}\nTIMED OUT after {timeout:.0f} s\n")
        return False, f"timed out after {timeout:.0f} s"
    (out / f"{name}.txt").write_text(done.stdout)  # what the command printed: JSON where it prints JSON
    (out / f"{name}.log").write_text(f"$ {' '.join(command)}\n{done.stderr}\nexit status {done.returncode}\n")
    said = [line for line in (done.stderr + done.stdout).strip().splitlines() if line.strip(" {}[],")]
    return done.returncode == 0, (said[-1].strip()[:100] if said and not said[-1].startswith(" ") else "")


def _gpus() -> str:
    """Every GPU here, one worker each (data parallel across GPUs where there are several)."""
    import torch

    return str(max(1, torch.cuda.device_count()))


def gpudemo(*args: str) -> list[str]:
    return [sys.executable, "-m", "gpudemo", *args]


# The first GPU command (--first-gpu): what a reading of the step modes predicts, first, in at most
# FIRST_BUDGET_S (the lease is 15 minutes, a command at most 10): the api probe, the cuda tests, the
# compiled step in a second thread and what it leaves, the step modes profiled, compared and swept, a
# compiled run with a ragged last batch. Estimated 3-4.5 minutes on an H100/H200.
FIRST_GPU = (
    "env",
    "api",
    "cuda-tests",
    "probes-compiled",
    "cli-profile-steps",
    "cli-compare-steps",
    "cli-sweep-step-graph",
    "cli-train-compile",
)
FIRST_BUDGET_S = 290

# The steps of --quick-gpu, in order (each a few seconds to a minute on an H200; 7-10 minutes in all):
# --rest-gpu is those that --first-gpu leaves (3-5 minutes: the steps benchmark is most of it).
QUICK_GPU = (
    "env",
    "api",
    "cuda-tests",
    "cli-profile-line",
    "cli-sweep-roofline",
    "cli-transfer",
    "cli-compare-precisions",
    "cli-train-digits",
    "cli-compare-circles",
    "cli-train-compile",
    "cli-train-energy",
    "cli-compare-energy",
    "cli-profile-steps",
    "cli-compare-steps",
    "cli-sweep-step-graph",
    "steps-benchmark",
    "cli-parallel",
    "lesson-timing",
)

# Commands that only a GPU can run (the CPU refuses a graph step, exit 2, as train does): skipped without one.
CUDA_ONLY = {"cli-sweep-step-graph"}

# The compiled step on CUDA as the window runs it: a job in a thread of its own after one in another
# (torch 2.11 asserted there: PyTorch #123177), and what a compiled run leaves allocated after it.
PROBES_COMPILED = r"""
import json, threading, torch
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train
config = TrainingConfig(device="cuda:0", problem="line", samples=10000, epochs=50, step="compiled")
found = {"torch": torch.__version__}
first = train(config)
found["main_thread"] = {"status": first.status, "compile_seconds": first.compile_seconds}
torch.cuda.synchronize()
found["allocated_after_a_run"] = torch.cuda.memory_allocated()
done = {}
def job():
    try:
        done["result"] = train(config).status
    except Exception as error:
        done["error"] = repr(error)
thread = threading.Thread(target=job)
thread.start()
thread.join()
found["second_thread"] = done
torch.cuda.synchronize()
found["allocated_after_two_runs"] = torch.cuda.memory_allocated()
print(json.dumps(found, indent=2))
"""

API = r"""
import inspect, json, torch
from torch.autograd.profiler_util import FunctionEvent
found = {"torch": torch.__version__,
         "function_event_has_linked_correlation_id": "linked_correlation_id" in inspect.signature(
             FunctionEvent.__init__).parameters}
if torch.cuda.is_available():
    from gpudemo.core.measure.roofline import published
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        peak = published(props.name, "bfloat16")
        found[f"cuda:{index}"] = {"name": props.name, "capability": [props.major, props.minor],
                                  "bf16_supported_with_emulation": torch.cuda.is_bf16_supported(),
                                  "roofline_row": peak.detail if peak else None}
print(json.dumps(found, indent=2))
"""

LESSON_TIMING = r"""
import dataclasses, json, sys
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.lessons.figures import time_move
print(json.dumps(dataclasses.asdict(time_move(TrainingConfig(device=sys.argv[1]))), indent=2))
"""


def cli_commands(device: str, quick: bool) -> dict[str, list[str]]:
    """The commands a person would type, on `device`; at small sizes where `quick`."""
    samples = "10000" if quick else "1000000"
    epochs = "50" if quick else "500"
    commands = {
        "cli-devices": gpudemo("devices", "--json"),
        "cli-train-tutorial": gpudemo("train", "--device", device, "--json"),
        "cli-train-line": gpudemo(
            "train", "--device", device, "--problem", "line", "--samples", samples, "--epochs", epochs, "--json"
        ),
        "cli-compare-line": gpudemo(
            "compare", "--device", device, "--problem", "line", "--samples", samples, "--epochs", epochs, "--json"
        ),
        "cli-profile-tutorial": gpudemo("profile", "--device", device, "--json"),
        "cli-profile-line": gpudemo("profile", "--device", device, "--problem", "line", "--samples", samples, "--json"),
        "cli-sweep-step": gpudemo("sweep", "--device", device, "--json", *(["--max-size", "1000"] if quick else [])),
        "cli-sweep-roofline": gpudemo(
            "sweep", "--device", device, "--roofline", "--json", *(["--max-size", "1000"] if quick else [])
        ),
    }
    precisions = ("fp32", "tf32", "bf16", "fp16") if device.startswith("cuda") else ("fp32", "bf16")
    commands.update(
        {
            "cli-transfer": gpudemo(
                "transfer", "--device", device, "--json", *(["--max-size", "1048576"] if quick else [])
            ),
            "cli-compare-precisions": gpudemo(
                "compare",
                "--device",
                device,
                "--problem",
                "sine",
                "--samples",
                "1000" if quick else "100000",  # the CPU runs it too
                "--width",
                "256",
                "--depth",
                "3",
                "--epochs",
                "20" if quick else "50",
                *(arg for kind in precisions for arg in ("--precision", kind)),
                "--json",
            ),
            "cli-train-digits": gpudemo(
                "train",
                "--device",
                device,
                "--problem",
                "digits",
                "--width",
                "64",
                "--optimizer",
                "adam",
                "--lr",
                "0.01",
                "--epochs",
                "100" if quick else "500",
                "--json",
            ),
            "cli-compare-circles": gpudemo(
                "compare",
                "--device",
                device,
                "--problem",
                "circles",
                "--samples",
                "10000" if quick else "100000",
                "--width",
                "64",
                "--optimizer",
                "adam",
                "--lr",
                "0.01",
                "--epochs",
                "50" if quick else "200",
                "--json",
            ),
            "cli-parallel": gpudemo(
                "parallel",
                "--problem",
                "line",
                "--samples",
                samples,
                "--epochs",
                epochs,
                "--json",
                *(["--backend", "nccl", "--workers", _gpus()] if device.startswith("cuda") else ["--workers", "2"]),
            ),
            # 100,000 samples in batches of 30,000 end with one of 10,000: compiled before the clock too
            "cli-train-compile": gpudemo(
                "train", "--device", device, "--problem", "line", "--samples", "100000" if not quick else "1000",
                "--batch-size", "30000" if not quick else "300", "--epochs", "20", "--step", "compiled", "--json",
            ),
            # the GPU's real energy counter (NVML), the step repeated to its window: joules per epoch
            "cli-train-energy": gpudemo("train", "--device", device, "--epochs", "2000", "--energy", "--json"),
            # the second lesson's energy question: the line at its crossover size on the GPU and the CPU, each
            # metered (the figure its no-GPU note will quote; about 15 s)
            "cli-compare-energy": gpudemo(
                "compare", "--device", device, "--problem", "line", "--samples", "100000", "--epochs", "200",
                "--energy", "--json",
            ),
            # every step mode side by side, where the time goes in each (a graph: one launch per replay)
            "cli-profile-steps": gpudemo(
                "profile", "--device", device, "--compare-steps", "--steps", "64", "--json",
            ),
            "cli-compare-steps": gpudemo(
                "compare", "--device", device, "--step", "eager", "--step", "compiled", "--step", "graph",
                "--epochs", "200" if quick else "2000", "--json",
            ),
        }
    )  # fmt: skip
    for mode in ("eager", "compiled", "graph"):  # the crossover with each step mode (the CPU: its eager step)
        commands[f"cli-sweep-step-{mode}"] = gpudemo(
            "sweep", "--device", device, "--step", mode, "--max-size", "1000" if quick else "10000000", "--json"
        )
    for dtype in ("float32", "tf32", "bfloat16"):
        commands[f"cli-sweep-matmul-{dtype}"] = gpudemo(
            "sweep",
            "--device",
            device,
            "--kind",
            "matmul",
            "--dtype",
            dtype,
            "--max-size",
            "64" if quick else "8192",
            "--json",
        )
    return commands


PROBES = r"""
import json, sys, time, warnings
import torch
from benchmarks.gpu import syncs_per_read_back
from gpudemo.core.measure.compare import compare_devices
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import TrainingError, train

device = "cuda:0"
found = {}
began = time.perf_counter()
cold = train(TrainingConfig(device=device, epochs=2000))  # the first run in this process
warm = train(TrainingConfig(device=device, epochs=2000))
found["cold_vs_warm"] = {"cold_epochs_per_second": cold.epochs_per_second, "cold_warm_up_seconds": cold.warm_up_seconds,
                         "cold_to_device_seconds": cold.to_device_seconds,
                         "warm_epochs_per_second": warm.epochs_per_second, "warm_warm_up_seconds": warm.warm_up_seconds}
syncs, read_backs = syncs_per_read_back(device)
found["syncs"] = {"syncs": syncs, "read_backs": read_backs}
found["after_a_run"] = {"allocated": torch.cuda.memory_allocated()}
clear = getattr(torch._C, "_cuda_clearCublasWorkspaces", None)
if clear is not None:
    clear()
found["after_a_run"]["allocated_after_clearing_cublas"] = torch.cuda.memory_allocated()
timings = compare_devices(TrainingConfig(problem="line", samples=100_000, epochs=200), [device])
gpu, cpu = timings
found["same_data"] = {"gpu_final_loss": gpu.final_loss, "cpu_final_loss": cpu.final_loss,
                      "relative": abs(gpu.final_loss - cpu.final_loss) / abs(cpu.final_loss),
                      "speedup_vs_cpu": gpu.speedup_vs_cpu}
from gpudemo.core.training import budget
estimate_free, budget.free_bytes = budget.free_bytes, lambda device: 2**60  # past the estimate, to a real OOM
try:
    train(TrainingConfig(device=device, problem="sine", samples=10_000_000, width=4096, depth=8, epochs=1))
    found["out_of_memory"] = {"raised": False}
except TrainingError as error:
    found["out_of_memory"] = {"raised": True, "message": str(error), "reserved_after": torch.cuda.memory_reserved()}
finally:
    budget.free_bytes = estimate_free
MATMULS = (("fp32", torch.float32, False), ("tf32", torch.float32, True), ("bf16", torch.bfloat16, False))
for name, dtype, tf32 in MATMULS:
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(8192, 8192, device=device, dtype=dtype)
    b = torch.randn(8192, 8192, device=device, dtype=dtype)
    torch.mm(a, b)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        torch.mm(a, b)
    end.record()
    torch.cuda.synchronize()
    seconds = start.elapsed_time(end) / 1e3 / 10
    found[f"matmul_8192_{name}"] = {"seconds": seconds, "tflops": 2 * 8192**3 / seconds / 1e12}
    del a, b
torch.backends.cuda.matmul.allow_tf32 = False
torch.cuda.empty_cache()
from gpudemo.core.hardware.devices import read_memory
metrics = read_memory(device).metrics
found["nvml"] = None if metrics is None else metrics.__dict__
found["seconds"] = time.perf_counter() - began
print(json.dumps(found, indent=2))
ok = (syncs <= 2 * read_backs and found["same_data"]["relative"] <= 1e-4
      and found["after_a_run"]["allocated_after_clearing_cublas"] == 0)
sys.exit(0 if ok else 1)
"""

ENV = r"""
import json, platform, sys
import numpy, torch
try:
    import pytest
    pytest_version = pytest.__version__
except ImportError:
    pytest_version = None
found = {"python": sys.version, "platform": platform.platform(), "torch": torch.__version__,
         "torch_cuda": torch.version.cuda, "numpy": numpy.__version__, "pytest": pytest_version,
         "cuda_available": torch.cuda.is_available(), "threads": torch.get_num_threads()}
from gpudemo.core.hardware.devices import list_devices
began = __import__("time").perf_counter()
devices = list_devices()
found["list_devices_seconds"] = __import__("time").perf_counter() - began
found["devices"] = [device.to_json() for device in devices]
found["note"] = None if devices.note is None else str(devices.note)
print(json.dumps(found, indent=2))
"""


def all_steps(device: str, cuda: bool, quick: bool, out: Path) -> list[tuple[str, list[str] | None, float, str]]:
    """Every step of the check: (name, command or None where it cannot run here, timeout, why not)."""
    no_gpu = "skipped: torch sees no CUDA GPU here"
    steps = [
        ("env", [sys.executable, "-c", ENV], 60, ""),
        ("api", [sys.executable, "-c", API], 60, ""),
        (
            "cuda-tests",
            [sys.executable, "-m", "pytest", "-m", "cuda", "-p", "no:cacheprovider", "-p", "no:benchmark", "-q", "-rs"]
            if cuda
            else None,
            150,
            no_gpu,
        ),
        ("nvidia-smi", ["nvidia-smi", "-q"] if cuda else None, 30, no_gpu),
        ("probes", [sys.executable, "-c", PROBES] if cuda else None, 120, no_gpu),
        ("probes-compiled", [sys.executable, "-c", PROBES_COMPILED] if cuda else None, 120, no_gpu),
        (
            "suite",
            [sys.executable, *QT_FREE_SUITE, *_spread()] if cuda else None,
            240,
            "skipped: no GPU here, and CI runs the whole suite on the CPU (.ci/run)",
        ),
        *(
            (name, None if name in CUDA_ONLY and not cuda else command, 120, no_gpu)
            for name, command in cli_commands(device, quick).items()
        ),
        (
            "benchmarks",
            [sys.executable, "-m", "benchmarks", "--only", "gpu", "--json", str(out / "benchmarks.json")]
            if cuda
            else None,
            180,
            no_gpu,
        ),
    ]
    steps.append(
        (
            "steps-benchmark",  # eager, compiled and graph at 3 to 10,000,000 samples (quick: the targets' sizes)
            [
                sys.executable,
                "-m",
                "benchmarks",
                "--only",
                "steps",
                *(["--quick"] if quick else []),
                "--json",
                str(out / "steps.json"),
            ]
            if cuda
            else None,  # fmt: skip
            300,
            no_gpu,
        )
    )
    steps.append(("lesson-timing", [sys.executable, "-c", LESSON_TIMING, device], 60, ""))
    return steps


def _write_summary(out: Path, lines: list[str], cuda: bool, failed: int, archive: Path | None) -> None:
    """summary.txt and summary.json as things stand, and the archive of the whole folder (written beside, then
    renamed: a command killed mid-write leaves the last whole one)."""
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    (out / "summary.json").write_text(json.dumps({"cuda": cuda, "failed": failed, "lines": lines}, indent=2))
    if archive is not None:
        partial = archive.with_name(archive.name + ".partial")
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(out, arcname=out.name)
        os.replace(partial, archive)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gpu_check", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="the folder for every output (default gpu-check-<time>)")
    parser.add_argument("--quick", action="store_true", help="small sizes for the CLI (the CPU's dry run uses them)")
    parser.add_argument("--steps", metavar="NAME,...", help="run only these steps (by the names summary.txt gives)")
    parser.add_argument(
        "--quick-gpu", action="store_true", help="only what never ran on a GPU, at small sizes (7-10 minutes)"
    )
    parser.add_argument(
        "--first-gpu",
        action="store_true",
        help=f"the first of two GPU commands: the step modes' new paths first, at most {FIRST_BUDGET_S} s",
    )
    parser.add_argument("--rest-gpu", action="store_true", help="the second: the rest of --quick-gpu")
    parser.add_argument(
        "--budget", type=float, metavar="S", help="start no step after S seconds (--first-gpu: FIRST_BUDGET_S)"
    )
    parser.add_argument(
        "--archive", type=Path, metavar="FILE", help="one .tar.gz of the output folder, rewritten after every step"
    )
    args = parser.parse_args(argv)
    out = args.out or ROOT / time.strftime("gpu-check-%Y%m%d-%H%M%S")
    out.mkdir(parents=True, exist_ok=True)
    cuda = _has_cuda()
    quick = args.quick or args.quick_gpu or args.first_gpu or args.rest_gpu or not cuda
    device = "cuda:0" if cuda else "cpu"
    steps = all_steps(device, cuda, quick, out)
    if args.quick_gpu and not args.steps:
        args.steps = ",".join(QUICK_GPU)
    if args.first_gpu and not args.steps:
        args.steps = ",".join(FIRST_GPU)
        args.budget = args.budget or FIRST_BUDGET_S
    if args.rest_gpu and not args.steps:
        args.steps = ",".join(step for step in QUICK_GPU if step not in FIRST_GPU or step == "env")
    if args.steps:
        wanted = set(args.steps.split(","))
        unknown = wanted - {name for name, *_ in steps}
        if unknown:
            parser.error(f"no step named {', '.join(sorted(unknown))}")
        by_name = {step[0]: step for step in steps}
        steps = [by_name[name] for name in dict.fromkeys(args.steps.split(","))]  # in the order asked
    lines, failed, began = [], 0, time.perf_counter()
    for name, command, timeout, why_not in steps:
        left = None if args.budget is None else args.budget - (time.perf_counter() - began)
        if command is None:
            lines.append(f"{name:<28} SKIPPED  {why_not}")
            continue
        if left is not None and left < 10:
            lines.append(f"{name:<28} SKIPPED  not started: the budget of {args.budget:.0f} s is spent")
            print(lines[-1], flush=True)
            continue
        started = time.perf_counter()
        passed, note = _run(out, name, command, timeout if left is None else min(timeout, left))
        failed += not passed
        lines.append(f"{name:<28} {'ok' if passed else 'FAILED':<8} {time.perf_counter() - started:6.1f} s  {note}")
        print(lines[-1], flush=True)
        _write_summary(out, lines, cuda, failed, args.archive)  # after each step: a kill leaves what was done
    lines.append(
        f"\n{'on ' + device if cuda else 'no GPU: a dry run on the CPU'}; {failed} failed;"
        f" {time.perf_counter() - began:.0f} s in all; outputs in {out}"
    )
    _write_summary(out, lines, cuda, failed, args.archive)
    print("\n".join(line for line in lines if "SKIPPED" in line))
    print(lines[-1].strip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
