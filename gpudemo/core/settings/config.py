"""The training settings, declared once: `TrainingConfig`, whose every field carries its rule,
its default, its command-line option and help, and whether the window remembers it.

Everything that lists the settings reads them from here: the command line's options
(`add_arguments`, `from_arguments`), the options that hand a run to a data-parallel worker
(`to_argv`), the window's remembered values (`to_texts`, `from_texts`) and the form. Adding a
setting is one field below, plus its widget in the form.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from gpudemo.core.settings import rules
from gpudemo.core.settings.rules import InvalidSetting


@dataclass(frozen=True)
class Setting:
    """How one field of TrainingConfig is typed, checked, offered on the command line and remembered."""

    name: str  # the field's name
    parse: Callable[[object], object]  # the rule: a value (or its text) to the value, or InvalidSetting
    default: object
    help: str  # the command line's help
    metavar: str | None = None
    remembered: bool = True  # the window keeps it between sessions
    per_step: bool = True  # part of a step (a sweep's options); else the run's length, data or seed

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def _setting(default: object, parse: Callable[[object], object], help: str, **options: object):
    return field(default=default, metadata={"setting": dict(parse=parse, default=default, help=help, **options)})


def _choices(keys: Iterable[str]) -> str:
    return "|".join(keys)


@dataclass(frozen=True)
class TrainingConfig:
    """Everything that decides a run. Validated on construction, so a config is always usable;
    a field given as text (typed, or read back) is parsed by its rule.

    `samples`, `width`, `depth` and `noise` are kept whatever the problem, and used only by
    the problems they apply to (the tutorial has its three points; the line has no MLP; only
    the 2-D classes have noise to set). `batch_size` 0, or one at least as large as the data,
    is the full batch.
    """

    device: str = "cpu"  # chosen from the devices found (core/hardware/devices.py), not a setting of the table
    problem: str = _setting(
        rules.DEFAULT_PROBLEM,
        rules.parse_problem,
        metavar=_choices(rules.PROBLEM_KEYS),
        help="tutorial: y = 2x from three points; line: y = 2x + noise at --samples points; sine: sin(x) + noise"
        " fitted by an MLP; circles, xor, spiral: two classes of 2-D points; digits: 8x8 handwritten digits,"
        " 10 classes; data: the file of --data (default tutorial, or data with --data)",
    )
    data: str = _setting(
        "",
        rules.parse_data_path,
        metavar="PATH",
        remembered=False,
        help="your own data: a CSV file of x,y rows (a regression) or x1,x2,label rows (a classification),"
        f" {rules.SAMPLES_MIN} to {rules.SAMPLES_MAX:,} rows, a first line of names allowed",
    )
    samples: int = _setting(
        rules.DEFAULT_SAMPLES,
        rules.parse_samples,
        metavar="N",
        per_step=False,
        help=f"training points of line, sine, circles, xor and spiral, {rules.SAMPLES_MIN} to"
        f" {rules.SAMPLES_MAX:,} (default {rules.DEFAULT_SAMPLES:,})",
    )
    noise: float = _setting(
        rules.DEFAULT_NOISE,
        rules.parse_noise,
        metavar="SD",
        help=f"circles, xor, spiral: the noise added to each point, {rules.NOISE_MIN:g} to {rules.NOISE_MAX:g}"
        f" (default {rules.DEFAULT_NOISE:g})",
    )
    width: int = _setting(
        rules.DEFAULT_WIDTH,
        rules.parse_width,
        metavar="N",
        help=f"the MLP (sine, circles, xor, spiral, digits): units per hidden layer, {rules.WIDTH_MIN} to"
        f" {rules.WIDTH_MAX} (default {rules.DEFAULT_WIDTH})",
    )
    depth: int = _setting(
        rules.DEFAULT_DEPTH,
        rules.parse_depth,
        metavar="N",
        help=f"the MLP: hidden layers, {rules.DEPTH_MIN} (a linear model) to {rules.DEPTH_MAX}"
        f" (default {rules.DEFAULT_DEPTH})",
    )
    batch_size: int = _setting(
        rules.DEFAULT_BATCH,
        rules.parse_batch_size,
        metavar="N",
        per_step=False,
        help="samples per step, shuffled each epoch; 0 or absent: the full batch",
    )
    optimizer: str = _setting(
        rules.DEFAULT_OPTIMIZER,
        rules.parse_optimizer,
        metavar=_choices(rules.OPTIMIZER_KEYS),
        help="sgd, momentum (SGD with momentum 0.9) or adam (default sgd)",
    )
    precision: str = _setting(
        rules.DEFAULT_PRECISION,
        rules.parse_precision,
        metavar=_choices(rules.PRECISION_KEYS),
        help="fp32 (default), tf32 (CUDA matmuls on tensor cores), bf16 or fp16 (mixed precision with"
        " torch.autocast; fp16 with a GradScaler); refused where the device cannot",
    )
    # Not remembered: a first compile takes tens of seconds, which the next session should not
    # spring on a person who chose it once.
    step: str = _setting(
        rules.DEFAULT_STEP,
        rules.parse_step,
        metavar=_choices(rules.STEP_KEYS),
        remembered=False,
        help="how each step is launched: eager (op by op, the tutorial's loop; default), compiled (the whole"
        " step under torch.compile, with CUDA graphs on a GPU; its first compile is timed apart) or graph"
        " (CUDA only: the whole step captured by hand with torch.cuda.graph, several epochs per replay)",
    )
    epochs: int = _setting(
        rules.DEFAULT_EPOCHS,
        rules.parse_epochs,
        metavar="N",
        per_step=False,
        help=f"epochs to train, {rules.EPOCHS_MIN} to {rules.EPOCHS_MAX:,} (default {rules.DEFAULT_EPOCHS})",
    )
    lr: float = _setting(
        rules.DEFAULT_LR,
        rules.parse_learning_rate,
        metavar="LR",
        help=f"learning rate, {rules.short_number(rules.LR_MIN)} to {rules.short_number(rules.LR_MAX)}"
        f" (default {rules.DEFAULT_LR})",
    )
    seed: int = _setting(
        rules.DEFAULT_SEED,
        rules.parse_seed,
        metavar="SEED",
        per_step=False,
        help=f"seed for torch.manual_seed (default {rules.DEFAULT_SEED})",
    )

    def __post_init__(self) -> None:
        for setting in SETTINGS:
            if setting.name != "data":
                object.__setattr__(self, setting.name, setting.parse(getattr(self, setting.name)))
        # A data file belongs to the problem "data" alone: checked against the problem, kept only there.
        object.__setattr__(self, "data", rules.parse_data_path(self.data, self.problem))


SETTINGS: tuple[Setting, ...] = tuple(
    Setting(name=each.name, **each.metadata["setting"])
    for each in dataclasses.fields(TrainingConfig)
    if "setting" in each.metadata
)
BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}


def text(value: object) -> str:
    """A setting's value as text its rule reads back to the same value (floats exactly)."""
    return repr(value) if isinstance(value, float) else str(value)


# The command line -----------------------------------------------------------------------------


def argparse_type(parse: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse type that checks with the core's rule, so its words are the window's."""

    def convert(value: str) -> object:
        try:
            return parse(value)
        except InvalidSetting as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = parse.__name__.removeprefix("parse_")
    return convert


def add_arguments(
    parser: argparse.ArgumentParser,
    repeatable: Iterable[str] = (),
    per_step_only: bool = False,
    help_suffix: Mapping[str, str] | None = None,
) -> None:
    """An option for each setting. `repeatable`: settings that may be given several times (a list);
    `per_step_only`: a step's settings only, the others left at their defaults."""
    for setting in SETTINGS:
        if per_step_only and not setting.per_step:
            parser.set_defaults(**{setting.name: setting.default})
            continue
        help = setting.help + (help_suffix or {}).get(setting.name, "")
        if setting.name == "data":  # read and checked against the problem once both are known
            parser.add_argument(setting.flag, metavar=setting.metavar, help=help)
        else:
            # No default here: a setting not given is the config's default, and one a person
            # gave is told apart from it (the problem "data" is implied by --data).
            parser.add_argument(
                setting.flag,
                type=argparse_type(setting.parse),
                metavar=setting.metavar,
                action="append" if setting.name in repeatable else "store",
                help=help,
            )


def given(args: argparse.Namespace) -> dict[str, object]:
    """The settings the arguments give (the first of a repeated one); the problem "data" when a data
    file is given without a problem."""
    values = {}
    for setting in SETTINGS:
        value = getattr(args, setting.name, None)
        if isinstance(value, list):
            value = value[0] if value else None
        if value is not None and value != "":
            values[setting.name] = value
    if values.get("data") and "problem" not in values:
        values["problem"] = "data"
    return values


def from_arguments(args: argparse.Namespace, device: str) -> TrainingConfig:
    """The run the arguments ask for on `device` (raises InvalidSetting, e.g. a problem "data" without a file)."""
    return TrainingConfig(device=device, **given(args))


def to_argv(config: TrainingConfig) -> list[str]:
    """The options that make `add_arguments`' parser give `config` back (its device apart)."""
    argv: list[str] = []
    for setting in SETTINGS:
        value = getattr(config, setting.name)
        if value != "" or setting.name != "data":
            argv.append(f"{setting.flag}={text(value)}")  # joined: a value may start with '-'
    return argv


# What the window remembers ----------------------------------------------------------------------

REMEMBERED = tuple(setting.name for setting in SETTINGS if setting.remembered)


def to_texts(values: Mapping[str, object]) -> dict[str, str]:
    """The remembered settings among `values` (a config's, or the form's, typed text included), as text."""
    return {name: text(values[name]) for name in REMEMBERED if name in values}


def from_texts(texts: Mapping[str, object]) -> tuple[dict[str, object], list[str]]:
    """Remembered settings read back through their rules: (the good values, the names that failed)."""
    values, skipped = {}, []
    for name in REMEMBERED:
        if name in texts and texts[name] is not None:
            try:
                values[name] = BY_NAME[name].parse(str(texts[name]))
            except InvalidSetting:
                skipped.append(name)
    return values, skipped
