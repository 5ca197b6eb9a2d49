"""The `gpudemo` command: no argument opens the window; subcommands work headless."""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence

from gpudemo import __version__
from gpudemo.core import settings

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _argument(parse: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse type that validates with the core's rule, so the words match the window's."""

    def convert(text: str) -> object:
        try:
            return parse(text)
        except settings.InvalidSetting as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = parse.__name__.removeprefix("parse_")
    return convert


VALUE_OPTIONS = ("--precision", "--data", "--workers", "--backend", "--device", "--epochs", "--lr", "--seed", "--problem", "--samples", "--width", "--depth", "--noise",
                 "--batch-size", "--optimizer", "--loss-csv", "--output", "-o", "--kind", "--dtype", "--max-size")


def _is_option(token: str) -> bool:
    """`--json` or `-o` is an option; `-1.5` and `-inf` are values."""
    return token.startswith("--") or (len(token) == 2 and token[0] == "-" and token[1].isalpha())


def join_values(argv: Sequence[str]) -> list[str]:
    """Glue each option to its value (`--lr=-inf`), so that argparse does not take a value
    that starts with '-' for an option, and its message can name the bad value."""
    joined: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token in VALUE_OPTIONS and i < len(argv):
            joined.append(f"{token}={argv[i]}")
            i += 1
        elif token == "--predict":
            start = i
            while i < len(argv) and not _is_option(argv[i]):
                i += 1
            joined.append(f"--predict={','.join(argv[start:i])}")
        else:
            joined.append(token)
    return joined


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpudemo",
        description="Watch PyTorch train a model on a GPU or the CPU. With no command, opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"gpudemo {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    devices = commands.add_parser("devices", help="list the devices torch can train on here")
    devices.add_argument("--json", action="store_true", help="print a JSON list instead of a table")

    train = commands.add_parser("train", help="train a model headless and print the result")
    train.set_defaults(parser=train)
    add_training_arguments(train)
    train.add_argument("--loss-csv", metavar="PATH", help="write every epoch's loss to this CSV file")
    train.add_argument("--json", action="store_true", help="print one JSON object instead of a summary")
    train.add_argument("--save", metavar="PATH", help="write the trained model and its settings to this checkpoint")

    predict = commands.add_parser("predict", help="predict with a model saved by --save or the window")
    predict.set_defaults(parser=predict)
    predict.add_argument("--model", metavar="PATH", required=True, help="a checkpoint gpudemo wrote")
    predict.add_argument("values", nargs="+", type=_argument(settings.parse_values), metavar="X",
                         help="values to predict for, spaces or commas between them")
    predict.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    code = commands.add_parser("code", help="print the plain PyTorch script for these settings")
    code.set_defaults(parser=code)
    add_training_arguments(code)
    code.add_argument("--output", "-o", metavar="PATH", help="write the script to this file instead")

    transfer = commands.add_parser("transfer", help="what moving data to a GPU and back costs, by size")
    transfer.set_defaults(parser=transfer)
    transfer.add_argument("--device", metavar="ID", help="the GPU to copy to and from (default: the best one here)")
    transfer.add_argument("--max-size", type=_argument(settings.parse_transfer_bytes), metavar="BYTES",
                          help="stop growing at this many bytes (default 1 GiB, or what fits)")
    transfer.add_argument("--json", action="store_true", help="print one JSON object instead of a table")

    parallel = commands.add_parser("parallel", help="one run on several worker processes with DistributedDataParallel")
    parallel.set_defaults(parser=parallel)
    add_training_arguments(parallel)
    parallel.add_argument("--workers", type=_argument(settings.parse_workers), default=2, metavar="N",
                          help="worker processes (default 2): CPU processes with gloo, one per GPU with nccl")
    parallel.add_argument("--backend", type=_argument(settings.parse_backend), default="gloo",
                          metavar="|".join(settings.BACKEND_KEYS),
                          help="gloo: processes on the CPU (default); nccl: one process per CUDA GPU")
    parallel.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    compare = commands.add_parser("compare", help="the same run on each device in turn, timed fairly, against the CPU")
    compare.set_defaults(parser=compare, many_devices=True)
    add_training_arguments(compare, many_devices=True)
    compare.add_argument("--json", action="store_true", help="print a JSON list instead of a table")

    profile = commands.add_parser("profile", help="where a training step's time goes, under torch.profiler")
    profile.set_defaults(parser=profile)
    add_training_arguments(profile)
    profile.add_argument("--steps", type=_argument(settings.parse_profile_steps), default=20, metavar="N",
                         help="steps to profile, after 5 that are not (default 20)")
    profile.add_argument("--json", action="store_true", help="print one JSON object instead of a table")

    sweep = commands.add_parser("sweep", help="time per step on each device as the size grows: where a GPU wins")
    sweep.set_defaults(parser=sweep, many_devices=True)
    add_training_arguments(sweep, many_devices=True, model_only=True)
    sweep.add_argument("--kind", type=_argument(settings.parse_sweep_kind), default="step",
                       metavar="|".join(settings.SWEEP_KINDS),
                       help="step: a full-batch training step of --problem (the tutorial's is the line's) on 10 to"
                       " 10,000,000 samples; matmul: an n x n matrix product, n from 16 (default step)")
    sweep.add_argument("--dtype", type=_argument(settings.parse_dtype), default="float32",
                       metavar="|".join(settings.DTYPE_KEYS),
                       help="float32 (TF32 off: full float32 matmuls), tf32 (float32 data, CUDA matmuls in TF32 on"
                       " tensor cores) or bfloat16 (default float32)")
    sweep.add_argument("--max-size", type=_argument(settings.parse_max_size), metavar="N",
                       help="stop growing at this size (default: as far as memory and time allow)")
    sweep.add_argument("--roofline", action="store_true",
                       help="also count each size's FLOPs and bytes and set them against the device's peaks"
                       " (a known GPU's published figures, else measured)")
    sweep.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return parser


def add_training_arguments(parser: argparse.ArgumentParser, many_devices: bool = False,
                           model_only: bool = False) -> None:
    """The settings of a run; `model_only`: those of its step (problem, model, optimizer), not its length."""
    if many_devices:
        parser.add_argument("--device", metavar="ID", action="append",
                            help="a device to run on (repeat for more; default: every one listed); the CPU always is")
    else:
        parser.add_argument("--device", metavar="ID", help="cpu, cuda:0, ... (default: the best one here)")
    parser.add_argument(
        "--problem", type=_argument(settings.parse_problem), default=None,
        metavar="|".join(settings.PROBLEM_KEYS),
        help="tutorial: y = 2x from three points; line: y = 2x + noise at --samples points;"
        " sine: sin(x) + noise fitted by an MLP; circles, xor, spiral: two classes of 2-D points;"
        " digits: 8x8 handwritten digits, 10 classes; data: the file of --data (default tutorial, or data"
        " with --data)",
    )
    parser.add_argument(
        "--data", metavar="PATH",
        help="your own data: a CSV file of x,y rows (a regression) or x1,x2,label rows (a classification),"
        f" {settings.SAMPLES_MIN} to {settings.SAMPLES_MAX:,} rows, a first line of names allowed",
    )
    parser.add_argument(
        "--width", type=_argument(settings.parse_width), default=settings.DEFAULT_WIDTH, metavar="N",
        help=f"the MLP (sine, circles, xor, spiral, digits): units per hidden layer, {settings.WIDTH_MIN} to {settings.WIDTH_MAX}"
        f" (default {settings.DEFAULT_WIDTH})",
    )
    parser.add_argument(
        "--depth", type=_argument(settings.parse_depth), default=settings.DEFAULT_DEPTH, metavar="N",
        help=f"the MLP: hidden layers, {settings.DEPTH_MIN} (a linear model) to {settings.DEPTH_MAX}"
        f" (default {settings.DEFAULT_DEPTH})",
    )
    parser.add_argument(
        "--noise", type=_argument(settings.parse_noise), default=settings.DEFAULT_NOISE, metavar="SD",
        help=f"circles, xor, spiral: the noise added to each point, {settings.NOISE_MIN:g} to {settings.NOISE_MAX:g}"
        f" (default {settings.DEFAULT_NOISE:g})",
    )
    parser.add_argument(
        "--precision", type=_argument(settings.parse_precision), metavar="|".join(settings.PRECISION_KEYS),
        action="append" if many_devices else "store",
        help="fp32 (default), tf32 (CUDA matmuls on tensor cores), bf16 or fp16 (mixed precision with"
        " torch.autocast; fp16 with a GradScaler); refused where the device cannot"
        + ("; repeat it to compare precisions side by side" if many_devices else ""),
    )
    parser.add_argument(
        "--compile", action="store_true",
        help="run the model through torch.compile (its first compile, tens of seconds, is timed apart)",
    )
    parser.add_argument(
        "--optimizer", type=_argument(settings.parse_optimizer), default=settings.DEFAULT_OPTIMIZER,
        metavar="|".join(settings.OPTIMIZER_KEYS),
        help="sgd, momentum (SGD with momentum 0.9) or adam (default sgd)",
    )
    parser.add_argument(
        "--lr", type=_argument(settings.parse_learning_rate), default=settings.DEFAULT_LR,
        help=f"learning rate, {settings.short_number(settings.LR_MIN)} to {settings.short_number(settings.LR_MAX)}"
        f" (default {settings.DEFAULT_LR})",
    )

    if model_only:  # a step's settings only: the run's length and its data's seed stay at their defaults
        parser.set_defaults(samples=settings.DEFAULT_SAMPLES, batch_size=settings.DEFAULT_BATCH,
                            epochs=settings.DEFAULT_EPOCHS, seed=settings.DEFAULT_SEED, predict=None)
        return
    parser.add_argument(
        "--samples", type=_argument(settings.parse_samples), default=settings.DEFAULT_SAMPLES, metavar="N",
        help=f"training points of line, sine, circles, xor and spiral, {settings.SAMPLES_MIN} to {settings.SAMPLES_MAX:,}"
        f" (default {settings.DEFAULT_SAMPLES:,})",
    )
    parser.add_argument(
        "--batch-size", type=_argument(settings.parse_batch_size), default=settings.DEFAULT_BATCH, metavar="N",
        help="samples per step, shuffled each epoch; 0 or absent: the full batch",
    )
    parser.add_argument(
        "--epochs", type=_argument(settings.parse_epochs), default=settings.DEFAULT_EPOCHS,
        help=f"epochs to train, {settings.EPOCHS_MIN} to {settings.EPOCHS_MAX:,} (default {settings.DEFAULT_EPOCHS})",
    )
    parser.add_argument(
        "--seed", type=_argument(settings.parse_seed), default=settings.DEFAULT_SEED,
        help=f"seed for torch.manual_seed (default {settings.DEFAULT_SEED})",
    )
    parser.add_argument(
        "--predict", nargs="+", type=_argument(settings.parse_values), default=None, metavar="X",
        help="values to predict for after training, spaces or commas between them (default 4); for circles, xor"
        " and spiral, points x1,x2 to classify (default none)",
    )


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _gigabytes(value: int | None) -> str:
    return "-" if value is None else f"{value / 2**30:.1f} GiB"


def run_devices(args: argparse.Namespace) -> int:
    from gpudemo.core.devices import list_devices, with_free_memory

    found = list_devices()
    # Asked for: each GPU's free memory too (a CUDA context on each, for this short process only).
    described = [with_free_memory(device) if device.kind == "cuda" else device for device in found]
    if args.json:
        print(json.dumps([device.to_json() for device in described], indent=2))
    else:
        rows = [("ID", "NAME", "MEMORY", "FREE", "DETAILS")]
        for device in described:
            if device.kind == "cuda":
                details = f"compute {device.capability[0]}.{device.capability[1]}, {device.multiprocessors} SMs"
                details += f", PCI {device.pci_bus_id}" if device.pci_bus_id else ""
            elif device.kind == "cpu":
                details = f"{device.threads} threads"
            else:
                details = ""
            rows.append(
                (device.id, found.label(device), _gigabytes(device.total_memory), _gigabytes(device.free_memory),
                 details)
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    if found.note:
        print(found.note, file=sys.stderr)
    return EXIT_OK


def resolve_devices(args: argparse.Namespace) -> list[str]:
    """The listed devices `--device` names (each may be given more than once), or every listed one."""
    from gpudemo.core.devices import list_devices

    found = list_devices()
    if getattr(args, "many_devices", False):
        if not args.device:
            return list(found.ids)
        wanted = args.device
    elif args.device is None:
        return [found.default().id]
    else:
        wanted = [args.device]
    try:
        return [found.resolve(text).id for text in wanted]
    except settings.InvalidSetting as error:
        args.parser.error(f"argument --device: {error}")


def resolve_config(args: argparse.Namespace) -> settings.TrainingConfig:
    """The validated run the arguments ask for; a bad device or data file ends with exit status 2."""
    problem = args.problem or ("data" if args.data else settings.DEFAULT_PROBLEM)
    if problem == "data" and not args.data:
        args.parser.error("argument --problem: data trains on your own file: give it with --data PATH")
    if args.data and problem != "data":
        args.parser.error(f"argument --data: a data file is its own problem; leave out --problem {problem}")
    config = settings.TrainingConfig(
        device=resolve_devices(args)[0], epochs=args.epochs, lr=args.lr, seed=args.seed, problem=problem,
        optimizer=args.optimizer, samples=args.samples, width=args.width, depth=args.depth,
        batch_size=args.batch_size, noise=args.noise, data=args.data or "",
        precision=precisions(args)[0], compile=args.compile,
    )
    if not getattr(args, "many_devices", False):
        from gpudemo.core.precision import PrecisionRefused, check

        try:
            check(config.precision, config.device)
        except PrecisionRefused as refused:
            args.parser.error(f"argument --precision: {refused}")
    if args.data:
        from gpudemo.core.datafile import DataFileError, read_data

        try:
            read_data(args.data)  # read once here, with the reason on a bad file; the run finds it kept
        except DataFileError as error:
            args.parser.error(f"argument --data: {error}")
    return config


def precisions(args: argparse.Namespace) -> list[str]:
    """The precisions asked for (compare and sweep may take several); fp32 when none."""
    given = getattr(args, "precision", None)
    if not given:
        return [settings.DEFAULT_PRECISION]
    return list(dict.fromkeys(given)) if isinstance(given, list) else [given]


def resolve_inputs(args: argparse.Namespace, config: settings.TrainingConfig, groups: list[list[float]] | None,
                   option: str = "--predict") -> list:
    """What --predict asks for: values for a regression (4 when not given), points x1,x2 for a 2-D
    classification (none when not given); digits take no --predict (the window picks test images)."""
    from gpudemo.core.problems import problem_for

    kind, problem = problem_for(config), config.problem
    values = [value for group in groups for value in group] if groups is not None else None
    if not kind.classes:
        return [4.0] if values is None else values
    if values is None:
        return []
    if kind.area is None:
        args.parser.error(f"argument {option}: {problem} classifies images; pick test images in the window")
    try:
        return settings.parse_points(",".join(repr(value) for value in values))
    except settings.InvalidSetting as error:
        args.parser.error(f"argument {option}: {error}")


def predictions_json(model, inputs: list) -> list[dict]:
    """Each prediction: {"x", "y"} for a value; {"x": [x1, x2], "class", "probabilities"} for a point."""
    from gpudemo.core.prediction import classify, predict

    if not inputs:
        return []
    if isinstance(inputs[0], tuple):
        probabilities = classify(model, inputs)
        return [{"x": list(point), "class": int(row.argmax()), "probabilities": [float(p) for p in row]}
                for point, row in zip(inputs, probabilities)]
    return [{"x": x, "y": _finite(y)} for x, y in zip(inputs, predict(model, inputs))]


def _prediction_lines(predictions: list[dict]) -> list[str]:
    lines = []
    for item in predictions:
        if "class" in item:
            x1, x2 = item["x"]
            lines.append(f"classify    ({x1:g}, {x2:g})  ->  class {item['class']}"
                         f" ({item['probabilities'][item['class']]:.1%})")
        else:
            y = item["y"]
            lines.append(f"predict     x = {item['x']:g}  ->  y = {y:.6g}" if y is not None else
                         f"predict     x = {item['x']:g}  ->  y = -")
    return lines


def _result_json(result, predictions: list[dict]) -> dict:
    return {
        "status": result.status,
        "device": result.config.device,
        "epochs": result.config.epochs,
        "epochs_run": result.epochs_run,
        "lr": result.config.lr,
        "seed": result.config.seed,
        "problem": result.config.problem,
        "optimizer": result.config.optimizer,
        "samples": result.config.samples,
        "width": result.config.width,
        "depth": result.config.depth,
        "batch_size": result.config.batch_size,
        "noise": result.config.noise,
        "precision": result.config.precision,
        "final_loss": _finite(result.final_loss),
        "accuracy": result.accuracy,
        "test_accuracy": result.test_accuracy,
        "diverged_at": result.diverged_at,
        "parameters": {name: _finite(value) for name, value in result.parameters.items()},
        "predictions": predictions,
        "seconds": result.seconds,
        "epochs_per_second": result.epochs_per_second,
        "to_device_seconds": result.to_device_seconds,
        "warm_up_seconds": result.warm_up_seconds,
        "compile_seconds": result.compile_seconds,
    }


def _summary(result, predictions: list[dict]) -> str:
    lines = [
        f"{result.status}: {result.epochs_run:,} of {result.config.epochs:,} epochs on {result.config.device}"
        f" in {result.seconds:.3g} s ({result.epochs_per_second:,.0f} epochs/s)",
        f"final loss  {result.final_loss:.6g}" if result.final_loss is not None else "final loss  -",
        f"not timed   moving model and data to {result.config.device} {result.to_device_seconds * 1e3:.3g} ms,"
        f" a warm-up step {result.warm_up_seconds * 1e3:.3g} ms"
        + (f", compiling the step {result.compile_seconds:.3g} s" if result.config.compile else ""),
    ]
    if result.accuracy is not None:
        test = f", test {result.test_accuracy:.1%}" if result.test_accuracy is not None else ""
        lines.append(f"accuracy    {result.accuracy:.1%}{test}")
    params = result.parameters
    if set(params) == {"weight", "bias"}:
        lines.append(f"learned     y = {params['weight']:.6g} * x + {params['bias']:.6g}")
    elif "parameters" in params:
        kind = "a linear model" if result.config.depth == 0 else "an MLP"
        lines.append(f"learned     {kind} of {params['parameters']:,.0f} parameters")
    lines.extend(_prediction_lines(predictions))
    return "\n".join(lines)


def run_train(args: argparse.Namespace) -> int:
    config = resolve_config(args)
    inputs = resolve_inputs(args, config, args.predict)
    csv_file = None
    if args.loss_csv:
        try:
            csv_file = open(args.loss_csv, "w", encoding="utf-8", newline="")
        except OSError as error:
            args.parser.error(f"argument --loss-csv: cannot write {args.loss_csv!r}: {error.strerror}")

    from gpudemo.core.training import COMPLETED, DIVERGED, STOPPED, TrainingError, train

    bar = None
    if not args.json and sys.stderr.isatty():
        from gpudemo.terminal import ProgressBar

        bar = ProgressBar(sys.stderr, config.epochs)
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        result = train(config, stop.is_set, on_batch=bar and (lambda batch: bar.update(batch.last_epoch, batch.seconds)))
    except TrainingError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        signal.signal(signal.SIGINT, previous)
        if bar is not None:
            bar.close()

    predictions = predictions_json(result.model, inputs)
    if args.save:
        from gpudemo.core.checkpoint import save

        try:
            save(args.save, result.model, config, result.epochs_run)
        except OSError as error:
            print(f"gpudemo: cannot write the checkpoint {args.save!r}: {error.strerror}", file=sys.stderr)
            return EXIT_FAILED
    if csv_file is not None:
        with csv_file:
            csv_file.write("epoch,loss\n")
            csv_file.writelines(f"{epoch},{loss!r}\n" for epoch, loss in enumerate(result.losses.tolist(), 1))
    if args.json:
        print(json.dumps(_result_json(result, predictions), indent=2))
    else:
        print(_summary(result, predictions))
    if result.status == DIVERGED:
        print(
            f"gpudemo: training diverged at epoch {result.diverged_at:,} (the loss stopped being a finite number);"
            f" try a smaller learning rate than {config.lr:g}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if result.status == STOPPED:
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    assert result.status == COMPLETED
    return EXIT_OK


def run_predict(args: argparse.Namespace) -> int:
    from gpudemo.core.checkpoint import CheckpointError, load

    try:
        checkpoint = load(args.model)
    except CheckpointError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    config = checkpoint.config
    predictions = predictions_json(checkpoint.model, resolve_inputs(args, config, args.values, "X"))
    if args.json:
        print(json.dumps({"model": str(args.model), "problem": config.problem, "epochs": checkpoint.epochs,
                          "predictions": predictions}, indent=2))
    else:
        print(f"model       {config.problem}, {config.optimizer} at lr {config.lr:g}, {checkpoint.epochs:,} epochs")
        print("\n".join(_prediction_lines(predictions)))
    return EXIT_OK


def run_code(args: argparse.Namespace) -> int:
    from gpudemo.core.script import generate_script

    config = resolve_config(args)
    values = resolve_inputs(args, config, args.predict)
    script = generate_script(config, values, filename=os.path.basename(args.output or "gpudemo_run.py"))
    if args.output is None:
        sys.stdout.write(script.text)
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(script.text)
    except OSError as error:
        args.parser.error(f"argument --output: cannot write {args.output!r}: {error.strerror}")
    return EXIT_OK


def run_window() -> int:
    """Open the window, after checking that Qt can open one here (see gpudemo.display)."""
    from gpudemo import display

    try:
        chosen = display.choose_platform()
    except display.DisplayProblem as problem:
        print(problem, file=sys.stderr)
        return EXIT_FAILED
    if chosen.note:
        print(chosen.note, file=sys.stderr)
    if chosen.name:
        os.environ["QT_QPA_PLATFORM"] = chosen.name
    try:
        from gpudemo.ui.main_window import MainWindow  # noqa: F401  (loads QtGui and QtWidgets now)
        from gpudemo.ui.shell.app import run_app
    except ImportError as error:
        missing = display.missing_for_import_error(error)
        if not missing:
            raise
        print(display.missing_libraries_message("Qt", missing), file=sys.stderr)
        return EXIT_FAILED
    return run_app()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(join_values(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "devices":
            return run_devices(args)
        if args.command == "train":
            return run_train(args)
        if args.command == "code":
            return run_code(args)
        if args.command == "predict":
            return run_predict(args)
        if args.command == "compare":
            from gpudemo.measure_cli import run_compare

            return run_compare(args, resolve_devices(args), resolve_config(args))
        if args.command == "profile":
            from gpudemo.measure_cli import run_profile

            return run_profile(args, resolve_config(args))
        if args.command == "sweep":
            from gpudemo.measure_cli import run_sweep

            return run_sweep(args, resolve_devices(args), resolve_config(args))
        if args.command == "transfer":
            from gpudemo.measure_cli import run_transfer

            return run_transfer(args, resolve_devices(args)[0])
        if args.command == "parallel":
            from gpudemo.measure_cli import run_parallel_command

            return run_parallel_command(args, resolve_config(args))
        return run_window()
    except KeyboardInterrupt:
        print("gpudemo: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
