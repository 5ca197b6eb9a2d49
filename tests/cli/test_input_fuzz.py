"""Whatever a person types or pastes, a parser gives a valid value or a clear message that names the
setting: never another exception, in the core, on the command line or in the window."""

import contextlib
import io
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gpudemo.cli import arguments as cli
from gpudemo.core.base.messages import Message
from gpudemo.core.settings import rules
from gpudemo.core.settings.rules import InvalidSetting
from tests.devices import TWO_GPUS

# Text as people paste it: anything, and the awkward cases on purpose.
AWKWARD = [
    "",
    " ",
    "\t\n",
    "\u3000",
    "１２",
    "١٢٣",
    "1e3",
    "-0",
    "+5",
    "nan",
    "inf",
    "-inf",
    "1_000",
    "0x10",
    "٣.٥",
    "9" * 5000,
    "1" + "0" * 400,
    "1e400",
    "-1e-400",
    "😀",
    "\x00",
    "1,5",
    "１e-３",
    "𝟗",
]
TEXT = st.one_of(
    st.text(), st.sampled_from(AWKWARD), st.from_regex(r"\s*[+-]?\d{0,30}(\.\d{0,10})?(e[+-]?\d{1,4})?\s*")
)
VALUES = st.one_of(TEXT, st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.none(), st.booleans())
FAST = settings(max_examples=300, deadline=None)

PARSERS = {
    "epochs": (rules.parse_epochs, lambda v: isinstance(v, int) and rules.EPOCHS_MIN <= v <= rules.EPOCHS_MAX),
    "samples": (rules.parse_samples, lambda v: isinstance(v, int) and rules.SAMPLES_MIN <= v <= rules.SAMPLES_MAX),
    "width": (rules.parse_width, lambda v: isinstance(v, int) and rules.WIDTH_MIN <= v <= rules.WIDTH_MAX),
    "depth": (rules.parse_depth, lambda v: isinstance(v, int) and rules.DEPTH_MIN <= v <= rules.DEPTH_MAX),
    "batch size": (rules.parse_batch_size, lambda v: isinstance(v, int) and 0 <= v <= rules.BATCH_MAX),
    "learning rate": (
        rules.parse_learning_rate,
        lambda v: isinstance(v, float) and math.isfinite(v) and rules.LR_MIN <= v <= rules.LR_MAX,
    ),
    "seed": (rules.parse_seed, lambda v: isinstance(v, int) and rules.SEED_MIN <= v <= rules.SEED_MAX),
    "problem": (rules.parse_problem, lambda v: v in rules.PROBLEM_KEYS),
    "optimizer": (rules.parse_optimizer, lambda v: v in rules.OPTIMIZER_KEYS),
    "steps": (rules.parse_profile_steps, lambda v: isinstance(v, int) and 1 <= v <= rules.PROFILE_STEPS_MAX),
    "max size": (rules.parse_max_size, lambda v: isinstance(v, int) and 10 <= v <= rules.SAMPLES_MAX),
    "kind": (rules.parse_sweep_kind, lambda v: v in rules.SWEEP_KINDS),
    "dtype": (rules.parse_dtype, lambda v: v in rules.DTYPE_KEYS),
    "noise": (
        rules.parse_noise,
        lambda v: isinstance(v, float) and math.isfinite(v) and rules.NOISE_MIN <= v <= rules.NOISE_MAX,
    ),
    "point": (
        rules.parse_points,
        lambda v: (
            isinstance(v, list)
            and 0 < len(v) <= rules.POINTS_MAX
            and all(len(p) == 2 and all(math.isfinite(c) for c in p) for p in v)
        ),
    ),
}


def refused_clearly(error: InvalidSetting, name: str) -> None:
    """The message names the setting, renders in any language, and is one readable line."""
    text = str(error)
    assert error.setting == name and isinstance(error.message, Message)
    assert text.startswith(rules.NAMES[name]) or name in text, text
    assert error.message.render(lambda template: "«" + template + "»")
    assert len(text) < 300 and "\n" not in text and "Traceback" not in text


@pytest.mark.parametrize("name", PARSERS)
@FAST
@given(value=VALUES)
@example(value="9" * 5000)
@example(value=" 7 ")
def test_every_parser_gives_a_valid_value_or_names_the_setting(name, value):
    parse, valid = PARSERS[name]
    try:
        parsed = parse(value)
    except InvalidSetting as error:
        refused_clearly(error, name)
    else:
        assert valid(parsed), parsed


@FAST
@given(text=TEXT)
def test_values_to_predict_are_finite_numbers_or_a_message(text):
    try:
        values = rules.parse_values(text)
    except InvalidSetting as error:
        assert error.setting == "value" and ("value" in str(error) or "number" in str(error))
    else:
        assert values and all(math.isfinite(v) for v in values)


@FAST
@given(text=TEXT)
def test_a_device_is_one_listed_or_a_message_with_the_choices(text):
    try:
        device = TWO_GPUS.resolve(text)
    except InvalidSetting as error:
        assert "cuda:0, cuda:1, cpu" in str(error)
    else:
        assert device.id in TWO_GPUS.ids


@pytest.mark.parametrize(
    "option",
    ["--epochs", "--lr", "--seed", "--samples", "--batch-size", "--problem", "--optimizer", "--width", "--depth"],
)
@settings(max_examples=60, deadline=None)
@given(text=TEXT.filter(lambda t: "\x00" not in t))
def test_the_command_line_takes_or_refuses_any_value_with_status_2(option, text):
    parser = cli.build_parser()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            parser.parse_args(cli.join_values(["train", option, text]))
        except SystemExit as exit_:
            assert exit_.code == 2
            assert "Traceback" not in err.getvalue() and "gpudemo train: error:" in err.getvalue()


def _accepts(parse, text) -> bool:
    try:
        parse(text)
    except InvalidSetting:
        return False
    return True
