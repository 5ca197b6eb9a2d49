"""The measuring commands: `gpudemo compare`, `sweep`, `profile`, `transfer` and `parallel`: how much faster a
device trains, from which size on, where a step's time goes, what moving data costs and what several workers gain."""

from __future__ import annotations

import argparse
import json
import sys

from gpudemo.cli.arguments import precisions, step_modes
from gpudemo.cli.output import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, number, stop_on_ctrl_c, table
from gpudemo.core.base import units
from gpudemo.core.settings.config import TrainingConfig

PRECISIONS = {
    "float32": "float32 (TF32 off)",
    "tf32": "TF32 (float32 data; CUDA matmuls on tensor cores)",
    "bfloat16": "bfloat16",
}


def run_compare(args: argparse.Namespace, devices: list[str], config: TrainingConfig) -> int:
    from gpudemo.core.base.errors import RunRefused
    from gpudemo.core.measure.compare import FAILED, REFUSED, check_compare, compare_devices
    from gpudemo.core.training import DIVERGED

    try:
        check_compare(config, devices, precisions(args), step_modes(args))  # nothing could run: as train refuses
    except RunRefused as refused:
        args.parser.error(f"argument --{refused.setting}: {refused}")
    with stop_on_ctrl_c() as stop:
        timings = compare_devices(
            config, devices, stop.is_set, precisions=precisions(args), steps=step_modes(args), energy=args.energy
        )
    if args.json:
        print(json.dumps([timing.to_json() for timing in timings], indent=2))
    else:
        energy = ("J/EPOCH", "J/EPOCH ABOVE IDLE") if args.energy else ()
        rows = [("DEVICE", "STATUS", "EPOCHS/S", "SECONDS", "FINAL LOSS", "SPEEDUP VS CPU", *energy)]
        rows += [
            (
                t.label,
                t.status,
                number(t.epochs_per_second, ",.0f"),
                number(t.seconds, ".3g"),
                number(t.final_loss, ".6g"),
                "-" if t.speedup_vs_cpu is None else f"{t.speedup_vs_cpu:.2f}x",
                *(_joules(t.energy) if args.energy else ()),
            )
            for t in timings
        ]
        print(f"{units.epochs(config.epochs)} of {config.problem} on each device, after a warm-up that is not timed")
        print(table(rows, numbers_right=True))
        for timing in timings:
            if timing.busy:
                print(
                    f"{timing.label}: timed while other programs took the cores its threads needed: its figure"
                    " is too slow. Close them and compare again."
                )
            if timing.status == REFUSED:
                print(f"{timing.label}: not run: {timing.message}")
            elif timing.message is not None and timing.status != FAILED:
                print(f"{timing.label}: {timing.message}")
            if timing.energy is not None and not timing.energy.measured:
                print(f"{timing.label}: energy not metered: {timing.energy.reason}")
    for timing in timings:
        if timing.status == FAILED:
            print(f"gpudemo: {timing.label}: {timing.message}", file=sys.stderr)
    if stop.is_set():
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    ran = [t for t in timings if t.status not in (FAILED, REFUSED)]
    if ran and all(t.status == DIVERGED for t in ran):  # as train: a run that diverged has failed
        print(f"gpudemo: every run diverged; try a smaller learning rate than {config.lr:g}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_FAILED if not ran or any(t.status == FAILED for t in timings) else EXIT_OK


def _joules(energy) -> tuple[str, str]:
    """A compare row's joules per epoch (core/measure/joules.RunEnergy), in total and above idle ("-" where
    not metered)."""
    return _energy_cells(energy.figures if energy is not None else None)


def run_sweep(args: argparse.Namespace, devices: list[str], config: TrainingConfig) -> int:
    from gpudemo.core.measure.readings import sweep_reading
    from gpudemo.core.measure.sweep import STEP, SweepRequest, check_sweep, sized, sweep
    from gpudemo.core.step.modes import StepRefused
    from gpudemo.core.step.precision import SWEEP_DTYPE

    if len(step_modes(args)) > 1:
        args.parser.error("argument --step: a sweep measures one step mode at a time: run it once for each")
    if len(precisions(args)) > 1:
        args.parser.error(
            "argument --precision: a sweep measures one precision at a time: run it once for each"
            " (compare runs several side by side)"
        )
    if args.precision:  # the sweep's own precisions, by their dtype names
        asked = precisions(args)[0]
        if asked not in SWEEP_DTYPE:
            args.parser.error(f"argument --precision: the sweep measures fp32, tf32 and bf16, not {asked}")
        if args.dtype is not None and args.dtype != SWEEP_DTYPE[asked]:
            args.parser.error(
                f"argument --precision: --precision {asked} and --dtype {args.dtype} ask for two precisions: give one"
            )
        args.dtype = SWEEP_DTYPE[asked]
    args.dtype = args.dtype or "float32"
    if args.energy and args.kind != STEP:
        args.parser.error("argument --energy: joules per epoch are a training step's: use it with --kind step")
    try:
        check_sweep(args.kind, config, devices)  # as train refuses it: never a silent fall back to eager
    except StepRefused as refused:
        args.parser.error(f"argument --step: {refused}")

    progress = (
        None
        if args.json or not sys.stderr.isatty()
        else (lambda row: print(f"  {row.device} at {row.size:,}: {row.seconds * 1e6:,.1f} us", file=sys.stderr))
    )
    with stop_on_ctrl_c() as stop:
        asked = SweepRequest(
            args.kind, tuple(devices), args.dtype, config, args.roofline, max_size=args.max_size, energy=args.energy
        )
        result = sweep(asked, stop.is_set, progress)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        unit = "SAMPLES/S" if args.kind == STEP else "GFLOP/S"
        rows = [("DEVICE", "STEP", "SIZE", "US/STEP", unit)]
        rows += [
            (
                r.device,
                r.step,
                f"{r.size:,}",
                f"{r.seconds * 1e6:,.1f}" + (" *" if r.busy else ""),
                f"{r.throughput:,.3g}",
            )
            for r in result.rows
        ]
        if args.roofline:
            flops = args.kind == STEP  # a matmul's throughput is already its GFLOP/s
            rows = [(*rows[0], "FLOP/BYTE", *(("GFLOP/S",) if flops else ()), "GB/S", "OF ROOF")] + [
                (*row, *_roofline_cells(r, result.peaks.get(r.device), flops))
                for row, r in zip(rows[1:], result.rows, strict=True)
            ]
        if args.energy:
            rows = [(*rows[0], "J/EPOCH", "ABOVE IDLE")] + [
                (*row, *_energy_cells(r.energy)) for row, r in zip(rows[1:], result.rows, strict=True)
            ]
        what = f"a step of {sized(config, 10).problem}" if args.kind == STEP else "matmul"
        print(
            f"{what} in {PRECISIONS[args.dtype]}: median time per step, the device synchronised before each clock read"
        )
        print(table(rows, numbers_right=True))
        for sentence in sweep_reading(result, config.step).all:
            print(sentence)
    if not result.complete:
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _energy_cells(energy) -> tuple[str, str]:
    """A sweep row's joules per epoch (core/energy.EnergyPerEpoch), in total and above idle; "-" if not metered."""
    if energy is None:
        return "-", "-"
    return f"{energy.joules_per_epoch:.3g}", f"{energy.above_idle_per_epoch:.3g}"


def _roofline_cells(row, peak, flops: bool) -> tuple[str, ...]:
    """Intensity, achieved GFLOP/s (when `flops`) and GB/s, and the share of the roof above this intensity."""
    if row.work is None:
        return ("-",) * (4 if flops else 3)
    roof = peak.roof(row.work.intensity) if peak is not None else None
    return (
        f"{row.work.intensity:,.2f}",
        *((f"{row.flops_per_second / 1e9:,.3g}",) if flops else ()),
        f"{row.bytes_per_second / 1e9:,.3g}",
        f"{row.flops_per_second / roof:.1%}" if roof else "-",
    )


def _one_step(config: TrainingConfig) -> tuple[str, str]:
    """What one profiled "step" is, and its "per": a full-batch step, or an epoch of minibatch steps."""
    from gpudemo.core.problems import problem_for
    from gpudemo.core.training.budget import batch_size

    samples, batch = problem_for(config).samples(config), batch_size(config)
    if batch < samples:
        return f"an epoch ({-(-samples // batch):,} minibatch steps of {batch:,})", "per epoch"
    return "a step", "per step"


def run_compare_steps(args: argparse.Namespace, config: TrainingConfig) -> int:
    """Every step mode profiled on the device: wall time, device time, kernels and launches per step."""
    from gpudemo.core.base.errors import RunRefused, TrainingError
    from gpudemo.core.measure.profile import compare_steps
    from gpudemo.core.settings.rules import STEP_KEYS

    try:
        profiles = compare_steps(config, args.steps)
    except TrainingError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(
            json.dumps(
                [
                    {"step": mode, "status": "refused", "message": str(p)}
                    if isinstance(p, RunRefused)
                    else {"status": "completed", **p.to_json()}
                    for mode, p in zip(STEP_KEYS, profiles, strict=True)
                ],
                indent=2,
            )
        )
        return EXIT_OK
    unit = "KERNELS" if config.device.startswith("cuda") else "OPERATORS"
    rows = [
        ("STEP", "US/STEP", "DEVICE US", "BUSY", unit, "LAUNCHES", "HOST US/LAUNCH", "REGIONS", "BREAKS", "VS EAGER")
    ]
    eager = profiles[0] if not isinstance(profiles[0], RunRefused) else None
    refused = []
    for mode, p in zip(STEP_KEYS, profiles, strict=True):
        if isinstance(p, RunRefused):
            rows.append((mode, "refused", "-", "-", "-", "-", "-", "-", "-", "-"))
            refused.append(f"{mode}: {p}")
            continue
        rows.append(
            (
                mode,
                f"{p.wall_us:,.1f}",
                f"{p.device_us:,.1f}",
                f"{p.busy_share:.0%}",
                f"{p.kernels:,.1f}",
                f"{p.launches:,.1f}",
                f"{p.host_us_per_launch:,.2f}",
                f"{p.regions:,.1f}" if p.regions else "-",
                f"{p.graph_breaks:,}" if p.graph_breaks is not None else "-",
                f"{eager.wall_us / p.wall_us:.2f}x" if eager is not None and p.wall_us > 0 else "-",
            )
        )
    what, per = _one_step(config)
    print(f"{what} of {config.problem} on {config.device} in each step mode, {per} (compiles and captures not"
          " counted)")  # fmt: skip
    print(table(rows, numbers_right=True))
    print("REGIONS: torch.compile's compiled graphs entered a step; BREAKS: graph breaks made compiling the step")
    for line in refused:
        print(line)
    return EXIT_OK


def run_profile(args: argparse.Namespace, config: TrainingConfig) -> int:
    from gpudemo.core.base.errors import TrainingError
    from gpudemo.core.measure.profile import profile_steps
    from gpudemo.core.measure.readings import profile_reading

    if args.compare_steps:
        if args.step is not None:
            args.parser.error(
                "argument --step: --compare-steps profiles every step mode side by side: leave out --step"
            )
        return run_compare_steps(args, config)

    try:
        profile = profile_steps(config, args.steps)
    except TrainingError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(profile.to_json(), indent=2))
        return EXIT_OK
    for sentence in profile_reading(profile, config.problem):
        print(sentence)
    rows = [("OPERATION", "CALLS/STEP", "CPU US/STEP", "DEVICE US/STEP")]
    rows += [(op.name, f"{op.calls:g}", f"{op.cpu_us:,.1f}", f"{op.device_us:,.1f}") for op in profile.ops]
    print(table(rows, numbers_right=True))
    return EXIT_OK


def run_parallel_command(args: argparse.Namespace, config: TrainingConfig) -> int:
    """N workers, then the same settings on one, both timed here: epochs/s, speedup, communication share."""
    from gpudemo.core.base.control import DIVERGED
    from gpudemo.core.base.errors import RunRefused
    from gpudemo.core.distributed.launcher import (
        ParallelError,
        check,
        max_workers,
        nccl_built,
        run_parallel,
        uneven_split,
        worker_device,
    )

    if args.backend == "nccl" and not nccl_built():
        args.parser.error(
            "argument --backend: this PyTorch has no NCCL (Windows' and macOS's builds never do): use gloo"
        )
    if args.workers > max_workers(args.backend):
        where = "GPUs" if args.backend == "nccl" else "CPUs"
        args.parser.error(
            f"argument --workers: {args.workers} workers, but this machine has"
            f" {max_workers(args.backend)} {where} for {args.backend}"
        )
    try:
        check(config, args.workers, args.backend)
    except RunRefused as refused:
        args.parser.error(
            f"argument --{refused.setting}: {args.backend} workers train on"
            f" {worker_device(args.backend).split(':')[0]}: {refused}"
        )
    try:
        with stop_on_ctrl_c() as stop:
            many = run_parallel(config, args.workers, args.backend, stop.is_set)
            one = run_parallel(config, 1, args.backend, stop.is_set) if args.workers > 1 and not stop.is_set() else many
    except ParallelError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    speedup = many.epochs_per_second / one.epochs_per_second if one.epochs_per_second > 0 else None
    if args.json:
        print(
            json.dumps(
                {
                    "workers": many.workers,
                    "backend": many.backend,
                    "status": many.status,
                    "epochs_run": many.epochs_run,
                    "timed_epochs": many.timed_epochs,  # epoch 1 is not timed: its one-time costs
                    "epochs_per_second": many.epochs_per_second,
                    "seconds": many.seconds,
                    "final_loss": many.final_loss,
                    "speedup_vs_one": speedup,
                    "allreduce_share": many.allreduce_share,
                    "one_worker_epochs_per_second": one.epochs_per_second,
                    "one_worker_final_loss": one.final_loss,
                    "uneven_split": None if (note := uneven_split(config, many.workers)) is None else str(note),
                },
                indent=2,
            )
        )
    else:
        print(f"{units.epochs(config.epochs)} of {config.problem} with DistributedDataParallel ({args.backend})")
        rows = [("WORKERS", "STATUS", "EPOCHS/S", "SECONDS", "FINAL LOSS", "SPEEDUP", "ALL-REDUCE")]
        for result in [one, many] if many is not one else [many]:
            rows.append(
                (
                    str(result.workers),
                    result.status,
                    number(result.epochs_per_second, ",.0f"),
                    number(result.seconds, ".3g"),
                    number(result.final_loss, ".6g"),
                    f"{result.epochs_per_second / one.epochs_per_second:.2f}x" if one.epochs_per_second else "-",
                    f"{result.allreduce_share:.0%}",
                )
            )
        print(table(rows, numbers_right=True))
        print("ALL-REDUCE: the share of a forward and backward spent all-reducing the gradients")
        uneven = uneven_split(config, many.workers)
        if uneven is not None:
            print(f"note: {uneven}")
    if stop.is_set():
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    if many.status == DIVERGED:
        print(
            f"gpudemo: training diverged (the loss stopped being a finite number); try a smaller learning rate"
            f" than {config.lr:g}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return EXIT_OK


def run_transfer(args: argparse.Namespace, device: str) -> int:
    """Copy times and bandwidths both ways, pageable and pinned, by size; the overlap lesson after."""
    from gpudemo.core.measure.transfer import DEVICE_TO_HOST, HOST_TO_DEVICE, measure_transfers

    with stop_on_ctrl_c() as stop:
        result = measure_transfers(device, args.max_size, stop.is_set)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    elif result.note:
        print(f"{device}: {result.note}")
    else:
        print(f"copies between this machine's memory and {device}: median time per copy, the device synchronised")
        rows = [("SIZE", "TO GPU pageable", "TO GPU pinned", "TO HOST pageable", "TO HOST pinned")]
        for size in dict.fromkeys(row.bytes for row in result.rows):
            cells = [units.power_of_two_bytes(size)]
            for direction in (HOST_TO_DEVICE, DEVICE_TO_HOST):
                for pinned in (False, True):
                    row = next((r for r in result.series(direction, pinned) if r.bytes == size), None)
                    cells.append("-" if row is None else f"{row.seconds * 1e6:,.1f} us {row.gb_per_second:6.2f} GB/s")
            rows.append(tuple(cells))
        print(table(rows, numbers_right=True))
        fixed, peak = result.fixed_cost(), result.peak()
        if fixed is not None and peak is not None:
            print(
                f"a copy costs at least {fixed * 1e6:,.1f} us whatever its size (pinned, to the GPU): 1,000 copies"
                f" of 1 KiB take {fixed * 1e3:,.1f} ms, one of 1 MiB far less; the bandwidth levels off near"
                f" {peak:,.1f} GB/s"
            )
        if result.overlap is not None:
            o = result.overlap
            print(
                f"non_blocking=True from pinned memory: a {units.power_of_two_bytes(o.bytes)} copy"
                f" ({o.copy_seconds * 1e3:,.2f} ms)"
                f" beside compute ({o.compute_seconds * 1e3:,.2f} ms): {o.serial_seconds * 1e3:,.2f} ms one after"
                f" the other, {o.overlapped_seconds * 1e3:,.2f} ms at once ({o.hidden:.0%} of the {o.hidden_part}"
                f" hidden behind the {'compute' if o.hidden_part == 'copy' else 'copy'})"
            )
    if not result.complete:
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK
