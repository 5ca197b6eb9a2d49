# gpudemo: the second lesson's measurements, with PyTorch alone, on whatever device runs this.
# Made into a notebook by File > Export the lesson's measurements (gpudemo notebook --lesson): each "# %%" starts
# a cell, its first comment lines the markdown above it. It writes gpudemo_measurements.json, which
# File > Load measurements reads back into the lesson.
# %%
# ## The device, and how long each measurement may take
# A CUDA GPU if there is one (Colab: Runtime, Change runtime type, a GPU), else the CPU. QUICK takes small
# sizes only: a minute on a CPU.
import datetime
import json
import statistics
import time

import torch

QUICK = False
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
on_gpu = device.type == "cuda"
name = torch.cuda.get_device_name(device) if on_gpu else "CPU"
print("measuring on", name, "with torch", torch.__version__)


def sync(where):
    if where.type == "cuda":
        torch.cuda.synchronize(where)


def seconds_per_call(step, where, least=0.05):
    """The median time of `step()`, the device synchronised around each timing of repeated calls."""
    step()
    sync(where)
    timings = []
    for _ in range(5):
        calls, began = 0, time.perf_counter()
        while True:
            step()
            calls += 1
            sync(where)
            took = time.perf_counter() - began
            if took >= least:
                break
        timings.append(took / calls)
    return statistics.median(timings)


def line_step(samples, where):
    """One full-batch step of nn.Linear(1, 1) on `samples` points of y = 2x + noise: the lesson's line."""
    torch.manual_seed(0)
    x = torch.rand(samples, 1, device=where) * 6 - 3
    y = 2 * x + 0.5 * torch.randn(samples, 1, device=where)
    model = torch.nn.Linear(1, 1).to(where)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = torch.nn.MSELoss()

    def step():
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()

    return step


figures = {}
# %%
# ## 1. Where the GPU starts to win
# The line's step at growing sizes on the GPU and on the CPU: the smallest size at which the GPU's step is
# faster (none without a GPU).
sizes = [10, 1_000, 100_000] if QUICK else [10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]
crossover = None
for size in sizes:
    cpu = seconds_per_call(line_step(size, torch.device("cpu")), torch.device("cpu"))
    gpu = seconds_per_call(line_step(size, device), device) if on_gpu else None
    print(f"{size:>12,} samples: CPU {cpu * 1e6:,.1f} µs" + (f", GPU {gpu * 1e6:,.1f} µs" if gpu else ""))
    if gpu is not None and gpu < cpu and crossover is None:
        crossover = size
figures["crossover"] = crossover
print("the GPU beats the CPU from", crossover)
# %%
# ## 2. How busy the device is during the tutorial's step
# torch.profiler over a few steps of the tutorial (3 points): the share of a step the device computes (on the
# CPU: the share inside PyTorch's operators).
from torch.profiler import ProfilerActivity, profile  # noqa: E402

x3 = torch.tensor([[1.0], [2.0], [3.0]], device=device)
step = line_step(3, device)
for _ in range(5):
    step()
sync(device)
activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
steps = 20
with profile(activities=activities) as profiled:
    began = time.perf_counter()
    for _ in range(steps):
        step()
    sync(device)
    wall_us = (time.perf_counter() - began) * 1e6
events = profiled.key_averages()
if on_gpu:  # torch before 2.4 called it self_cuda_time_total
    busy_us = sum(getattr(event, "self_device_time_total", None) or event.self_cuda_time_total for event in events)
else:
    busy_us = sum(event.self_cpu_time_total for event in events if event.key.startswith("aten::"))
figures["busy"] = min(100.0, 100 * busy_us / wall_us)
print(f"the device computes {figures['busy']:.0f} % of the step")
# %%
# ## 3. Twice the samples, twice the time?
# The line's step at 1,000,000 and 2,000,000 samples: a time that barely grows is fixed costs (launches,
# Python); one that doubles is the work itself.
small, large = (10_000, 20_000) if QUICK else (1_000_000, 2_000_000)
figures["doubling"] = seconds_per_call(line_step(large, device), device) / seconds_per_call(
    line_step(small, device), device
)
print(f"twice the samples took {figures['doubling']:.2f} times as long")
# %%
# ## 4. Capturing the step
# The tutorial's step captured once in a CUDA graph and replayed, against the same step launched op by op:
# how many times as fast (a GPU only).
figures["modes"] = None
if on_gpu:
    torch.manual_seed(0)
    model = torch.nn.Linear(1, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    y3 = 2 * x3

    def eager():
        optimizer.zero_grad(set_to_none=False)
        loss = torch.nn.functional.mse_loss(model(x3), y3)
        loss.backward()
        optimizer.step()

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            eager()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(64):
            eager()
    figures["modes"] = seconds_per_call(eager, device) * 64 / seconds_per_call(graph.replay, device)
    print(f"the captured step is {figures['modes']:.1f} times as fast")
# %%
# ## 5. bfloat16 against float32
# An n x n matrix product in float32 (TF32 off) and in bfloat16: how many times as fast bfloat16 is.
n = 256 if QUICK or not on_gpu else 4096
torch.backends.cuda.matmul.allow_tf32 = False
a32, b32 = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
a16, b16 = a32.bfloat16(), b32.bfloat16()
figures["bf16"] = seconds_per_call(lambda: a32 @ b32, device) / seconds_per_call(lambda: a16 @ b16, device)
print(f"n = {n}: bfloat16 is {figures['bf16']:.1f} times as fast")
# %%
# ## 6. Pinned against pageable memory
# 256 MiB copied to the GPU from ordinary (pageable) memory and from pinned memory: how many times the
# bandwidth (a GPU only: pinning needs CUDA).
figures["pinned"] = None
if on_gpu:
    pageable = torch.empty(256 * 2**20, dtype=torch.uint8)
    pinned = pageable.pin_memory()
    into = torch.empty_like(pageable, device=device)
    figures["pinned"] = seconds_per_call(lambda: into.copy_(pageable), device) / seconds_per_call(
        lambda: into.copy_(pinned, non_blocking=True), device
    )
    print(f"pinned copies are {figures['pinned']:.1f} times as fast")
# %%
# ## 7. Energy per epoch
# Where this machine lets PyTorch read its energy counters (the GPU's through NVML, the CPU's through Linux's
# RAPL): the joules an epoch of the line at 100,000 samples takes on the GPU over the CPU's, idle power
# included. Hosted notebooks often hide the CPU's counter: then nothing is written, and the reason is printed.
import glob  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402


def gpu_joules():
    import pynvml  # nvidia-ml-py: pip install nvidia-ml-py where it is missing

    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(device.index or 0)
    return lambda: pynvml.nvmlDeviceGetTotalEnergyConsumption(handle) / 1e3  # millijoules


def cpu_joules():
    # Linux shows the CPU's RAPL counter as files; Windows keeps it behind a kernel driver and macOS behind
    # powermetrics (root, a tool of its own): neither can be read from here, so nothing is metered there.
    if not sys.platform.startswith("linux"):
        raise OSError(f"the CPU's energy counter is read on Linux only, not on {sys.platform}")
    zones = [path for path in glob.glob("/sys/class/powercap/intel-rapl:*/energy_uj") if path.count(":") == 1]
    if not zones:
        raise OSError("no RAPL energy counter here")

    def read():
        total = 0
        for zone in zones:
            with open(zone) as counter:
                total += int(counter.read())
        return total / 1e6  # microjoules

    read()  # raises where the counter is not readable (not root)
    return read


def joules_per_epoch(step, where, counter, seconds=2.0):
    step()
    sync(where)
    before, began, epochs = counter(), time.perf_counter(), 0
    while time.perf_counter() - began < seconds:
        step()
        epochs += 1
    sync(where)
    return (counter() - before) / epochs


figures["energy"] = None
try:
    if not on_gpu:
        raise OSError("no GPU here")
    gpu_epoch = joules_per_epoch(line_step(100_000, device), device, gpu_joules())
    cpu_epoch = joules_per_epoch(line_step(100_000, torch.device("cpu")), torch.device("cpu"), cpu_joules())
    figures["energy"] = gpu_epoch / cpu_epoch
    print(f"an epoch takes the GPU {gpu_epoch:.3g} J and the CPU {cpu_epoch:.3g} J")
except Exception as error:  # no NVML, a counter hidden or unreadable: said, and nothing written
    print("energy not metered:", error)
# %%
# ## The result file
# Every figure, with the device, torch's version and the date: download gpudemo_measurements.json (Colab:
# the folder icon on the left) and open it in gpudemo with File > Load measurements.
result = {
    "format": "gpudemo-measurements",
    "version": 1,
    "device": name,
    "torch": torch.__version__,
    "date": datetime.date.today().isoformat(),
    "figures": figures,
}
# Written beside, then put in place: a kernel stopped or a full disk leaves the last file whole, never half of one.
with open("gpudemo_measurements.json.part", "w", encoding="utf-8") as out:
    json.dump(result, out, indent=2)
    out.flush()
    os.fsync(out.fileno())
os.replace("gpudemo_measurements.json.part", "gpudemo_measurements.json")
print(json.dumps(result, indent=2))
