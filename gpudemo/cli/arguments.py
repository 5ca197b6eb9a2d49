"""The command line's words: every command's options (the training settings from core/settings/config.py),
and the checks that turn them into a run's devices, config and inputs. A bad value ends with
its reason on stderr and exit status 2, in the window's words."""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Sequence

from gpudemo import __version__
from gpudemo.cli import desktop
from gpudemo.core.settings import config as settings
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig, argparse_type


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusal is the one line that matters: `gpudemo train: error: argument --lr: ...`,
    exit 2, without the usage block argparse prints above it (`--help` shows that). Every command's parser is
    one (add_subparsers makes its parsers of the parent's class)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Every negative number is a value, not an option: argparse's own pattern takes -4 and -0.5 but not
        # -1e5 or -inf, which it read as unknown options ("the following arguments are required: X").
        self._negative_number_matcher = re.compile(rf"^-(?:{rules.NUMBER.pattern.replace('[+-]?', '')})$", re.I)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gpudemo",
        description="Watch PyTorch train a model on a GPU or the CPU. With no command, opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"gpudemo {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _run_commands(commands)
    _measure_commands(commands)
    _sweep_command(commands)
    desktop.add_arguments(commands)
    return parser


def _run_commands(commands) -> None:
    """devices, train, predict, code: a run and what it leaves."""
    devices = commands.add_parser("devices", help="list the devices torch can train on here")
    devices.add_argument("--json", action="store_true", help="print a JSON list instead of a table")

    train = commands.add_parser("train", help="train a model headless and print the result")
    add_training_arguments(train, predicts=True)
    train.add_argument("--loss-csv", metavar="PATH", help="write every epoch's loss to this CSV file")
    train.add_argument("--json", action="store_true", help="print one JSON object instead of a summary")
    train.add_argument("--save", metavar="PATH", help="write the trained model and its settings to this checkpoint")
    train.add_argument(
        "--energy",
        action="store_true",
        help="after the run, meter its step's joules per epoch with the device's energy counter (NVML on a GPU,"
        " RAPL on the CPU): about 5 s more; where there is no counter, the reason",
    )

    predict = commands.add_parser("predict", help="predict with a model saved by --save or the window")
    predict.set_defaults(parser=predict)
    predict.add_argument("--model", metavar="PATH", required=True, help="a checkpoint gpudemo wrote")
    predict.add_argument(
        "values",
        nargs="+",
        type=argparse_type(rules.parse_values),
        metavar="X",
        help="values to predict for, spaces or commas between them",
    )
    predict.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    code = commands.add_parser("code", help="print the plain PyTorch script for these settings")
    add_training_arguments(code, predicts=True)
    code.add_argument("--output", "-o", metavar="PATH", help="write the script to this file instead")
    notebook = commands.add_parser(
        "notebook",
        help="the same script as a Jupyter notebook (.ipynb), to run where a GPU is: Colab, Kaggle, a JupyterHub",
    )
    add_training_arguments(notebook, predicts=True)
    notebook.add_argument("--output", "-o", metavar="PATH", help="write the notebook to this file (else: print it)")
    notebook.add_argument(
        "--lesson",
        action="store_true",
        help="the second lesson's measurements instead (PyTorch alone; it writes gpudemo_measurements.json, which"
        " the window's File > Load measurements reads)",
    )


def _measure_commands(commands) -> None:
    """transfer, parallel, compare, profile: what a run costs where."""
    transfer = commands.add_parser("transfer", help="what moving data to a GPU and back costs, by size")
    transfer.set_defaults(parser=transfer)
    transfer.add_argument("--device", metavar="ID", help="the GPU to copy to and from (default: the best one here)")
    transfer.add_argument(
        "--max-size",
        type=argparse_type(rules.parse_transfer_bytes),
        metavar="BYTES",
        help="stop growing at this many bytes (default 1 GiB, or what fits)",
    )
    transfer.add_argument("--json", action="store_true", help="print one JSON object instead of a table")

    parallel = commands.add_parser("parallel", help="one run on several worker processes with DistributedDataParallel")
    add_training_arguments(parallel)
    parallel.add_argument(
        "--workers",
        type=argparse_type(rules.parse_workers),
        default=2,
        metavar="N",
        help="worker processes (default 2): CPU processes with gloo, one per GPU with nccl",
    )
    parallel.add_argument(
        "--backend",
        type=argparse_type(rules.parse_backend),
        default="gloo",
        metavar="|".join(rules.BACKEND_KEYS),
        help="gloo: processes on the CPU (default); nccl: one process per CUDA GPU",
    )
    parallel.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    compare = commands.add_parser("compare", help="the same run on each device in turn, timed fairly, against the CPU")
    add_training_arguments(compare, many_devices=True)
    compare.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    compare.add_argument(
        "--energy",
        action="store_true",
        help="after each device's run, meter its step's joules per epoch with the device's energy counter"
        " (about 5 s more each); where there is none, the reason",
    )

    profile = commands.add_parser("profile", help="where a training step's time goes, under torch.profiler")
    add_training_arguments(profile)
    profile.add_argument(
        "--steps",
        type=argparse_type(rules.parse_profile_steps),
        default=20,
        metavar="N",
        help="steps to profile, after 5 that are not (default 20)",
    )
    profile.add_argument(
        "--compare-steps",
        action="store_true",
        help="profile the step in every step mode (eager, compiled, graph) side by side; a mode this device"
        " cannot take is shown refused, with the reason",
    )
    profile.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def _sweep_command(commands) -> None:
    """sweep: where a GPU wins, by size."""
    sweep = commands.add_parser("sweep", help="time per step on each device as the size grows: where a GPU wins")
    add_training_arguments(sweep, many_devices=True, model_only=True)
    sweep.add_argument(
        "--kind",
        type=argparse_type(rules.parse_sweep_kind),
        default="step",
        metavar="|".join(rules.SWEEP_KINDS),
        help="step: a full-batch training step of --problem (the tutorial's is the line's) on 10 to"
        " 10,000,000 samples; matmul: an n x n matrix product, n from 16 (default step)",
    )
    sweep.add_argument(
        "--dtype",
        type=argparse_type(rules.parse_dtype),
        default=None,
        metavar="|".join(rules.DTYPE_KEYS),
        help="float32 (TF32 off: full float32 matmuls), tf32 (float32 data, CUDA matmuls in TF32 on"
        " tensor cores) or bfloat16 (default float32; --precision fp32, tf32 or bf16 names the same three)",
    )
    sweep.add_argument(
        "--max-size",
        type=argparse_type(rules.parse_max_size),
        metavar="N",
        help="stop growing at this size (default: as far as memory and time allow)",
    )
    sweep.add_argument(
        "--roofline",
        action="store_true",
        help="also count each size's FLOPs and bytes and set them against the device's peaks"
        " (a known GPU's published figures, else measured)",
    )
    sweep.add_argument(
        "--energy",
        action="store_true",
        help="a step sweep: also meter each size's joules per epoch with the device's energy counter (NVML on a"
        " GPU, RAPL on the CPU; 5 s more a size), and find where the GPU uses less energy per epoch than the CPU",
    )
    sweep.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def add_training_arguments(
    parser: argparse.ArgumentParser, many_devices: bool = False, model_only: bool = False, predicts: bool = False
) -> None:
    """The device, the settings of a run (`model_only`: those of its step, not its length) and, for a command
    that predicts after training (`predicts`: train, code), --predict; the others do not take it."""
    parser.set_defaults(parser=parser, many_devices=many_devices)
    if many_devices:
        parser.add_argument(
            "--device",
            metavar="ID",
            action="append",
            help="a device to run on (repeat for more; default: every one listed); the CPU always is",
        )
    else:
        parser.add_argument("--device", metavar="ID", help="cpu, cuda:0, ... (default: the best one here)")
    settings.add_arguments(
        parser,
        repeatable=("precision", "step") if many_devices else (),
        per_step_only=model_only,
        help_suffix={  # compare runs each one asked; a sweep takes one of each, and refuses a second
            "precision": "; repeat it to compare precisions side by side",
            "step": "; repeat it to compare step modes side by side",
        }
        if many_devices and not model_only
        else {"precision": "; one at a time", "step": "; one at a time"}
        if many_devices
        else None,
    )
    if not predicts:
        parser.set_defaults(predict=None)
        return
    parser.add_argument(
        "--predict",
        nargs="+",
        type=argparse_type(rules.parse_values),
        default=None,
        metavar="X",
        help="values to predict for after training, spaces or commas between them (default 4); for circles, xor"
        " and spiral, points x1,x2 to classify (default none)",
    )


def _value_options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option, of any command, that takes one value."""
    found: set[str] = set()
    for action in parser._actions:  # argparse keeps no public list of a parser's actions
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                found |= _value_options(command)
        elif action.option_strings and action.nargs is None:
            found.update(action.option_strings)
    return found


def _is_option(token: str) -> bool:
    """`--json` or `-o` is an option; `-1.5` and `-inf` are values."""
    return token.startswith("--") or (len(token) == 2 and token[0] == "-" and token[1].isalpha())


def join_values(argv: Sequence[str], parser: argparse.ArgumentParser | None = None) -> list[str]:
    """Glue each option to its value (`--lr=-inf`), so that argparse does not take a value
    that starts with '-' for an option, and its message can name the bad value."""
    value_options = _value_options(parser or build_parser())
    joined: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token in value_options and i < len(argv):
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


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = build_parser()
    return parser.parse_args(join_values(argv, parser))


def resolve_devices(args: argparse.Namespace) -> list[str]:
    """The listed devices `--device` names (each may be given more than once), or every listed one."""
    from gpudemo.core.hardware.devices import list_devices

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
    except rules.InvalidSetting as error:
        elsewhere = _cuda_elsewhere(args, wanted)
        if elsewhere is None:
            args.parser.error(f"argument --device: {error}")
        return [elsewhere]


SCRIPTS = ("code", "notebook")  # the commands that write a script for a machine, not run on this one


def _cuda_elsewhere(args: argparse.Namespace, wanted: list[str]) -> str | None:
    """For `code` and `notebook`, which only write a script: a CUDA GPU that is not here ("cuda", "cuda:1"), kept
    in `args.not_here` (the script is for a machine that has one); None for anything else."""
    text = wanted[0].strip().lower() if wanted and isinstance(wanted[0], str) else ""
    if getattr(args, "command", None) not in SCRIPTS or not re.fullmatch(r"cuda(:[0-9]{1,2})?", text):
        return None
    args.not_here = text if ":" in text else "cuda:0"  # run_code says so once the script is written
    return args.not_here


def resolve_config(args: argparse.Namespace, checked: bool = True) -> TrainingConfig:
    """The validated run the arguments ask for; a bad device or data file ends with exit status 2, and so
    (`checked`) does a precision or step mode the device cannot take. Train leaves that to its preflight
    (see resolve_plan)."""
    if args.data is not None and not args.data.strip():
        args.parser.error("argument --data: no file given: an empty path")
    if args.problem == "data" and not args.data:
        args.parser.error("argument --problem: data trains on your own file: give it with --data PATH")
    if args.data and args.problem not in (None, "data"):
        args.parser.error(f"argument --data: a data file is its own problem; leave out --problem {args.problem}")
    config = settings.from_arguments(args, resolve_devices(args)[0])
    # compare and sweep mark each device that cannot; parallel's workers check their own device (cli/measure.py)
    if checked and not getattr(args, "many_devices", False) and getattr(args, "command", None) != "parallel":
        from gpudemo.core.base.errors import RunRefused
        from gpudemo.core.step.modes import check

        try:
            check(config, here=getattr(args, "command", None) not in SCRIPTS)  # a script may run on another machine
        except RunRefused as refused:
            args.parser.error(f"argument --{refused.setting}: {refused}")
    if args.data:
        from gpudemo.core.problems.datafile import DataFileError, read_data, starting_depth

        try:
            data = read_data(args.data)  # read once here, with the reason on a bad file; the run finds it kept
        except DataFileError as error:
            args.parser.error(f"argument --data: {error}")
        if getattr(args, "depth", None) is None and starting_depth(data) is not None:
            config = dataclasses.replace(config, depth=starting_depth(data))
            print(f"gpudemo: note: a regression of {data.rows:,} rows starts from the linear model, the tutorial's"
                  " (--depth 0); give --depth for an MLP", file=sys.stderr)  # fmt: skip
    return config


def resolve_plan(args: argparse.Namespace):
    """The run `train` asks for, checked whole once (core/training/plan.py's preflight, which the loop then takes):
    a refused setting ends with exit status 2; a run larger than its device's free memory is a
    TrainingError (RunTooLarge) for the caller to report."""
    config = resolve_config(args, checked=False)
    from gpudemo.core.base.errors import RunRefused
    from gpudemo.core.training.plan import preflight

    try:
        return preflight(config)
    except RunRefused as refused:
        args.parser.error(f"argument --{refused.setting}: {refused}")


def precisions(args: argparse.Namespace) -> list[str]:
    """The precisions asked for (compare and sweep may take several); fp32 when none."""
    return _repeated(args, "precision", rules.DEFAULT_PRECISION)


def step_modes(args: argparse.Namespace) -> list[str]:
    """The step modes asked for (compare may take several); eager when none."""
    return _repeated(args, "step", rules.DEFAULT_STEP)


def _repeated(args: argparse.Namespace, name: str, default: str) -> list[str]:
    given = getattr(args, name, None)
    if not given:
        return [default]
    return list(dict.fromkeys(given)) if isinstance(given, list) else [given]


def resolve_inputs(
    args: argparse.Namespace, config: TrainingConfig, groups: list[list[float]] | None, option: str = "--predict"
) -> list:
    """What --predict asks for: values for a regression (4 when not given), points x1,x2 for a 2-D
    classification (none when not given); digits take no --predict (the window picks test images)."""
    from gpudemo.core.problems import problem_for

    kind, problem = problem_for(config).predicts_from, config.problem
    values = [value for group in groups for value in group] if groups is not None else None
    if kind == rules.VALUES:
        return [4.0] if values is None else values
    if values is None:
        return []
    if kind == rules.IMAGES:
        args.parser.error(f"argument {option}: {problem} classifies images; pick test images in the window")
    try:
        return rules.parse_points(",".join(repr(value) for value in values))
    except rules.InvalidSetting as error:
        args.parser.error(f"argument {option}: {error}")
