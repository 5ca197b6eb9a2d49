"""The table of training settings: every face of a config (command line, workers' argv, preferences)
gives the same config back."""

import argparse
import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudemo.core.settings import config, rules
from gpudemo.core.settings.config import SETTINGS, TrainingConfig

configs = st.builds(
    TrainingConfig,
    problem=st.sampled_from([key for key in rules.PROBLEM_KEYS if key != "data"]),
    samples=st.integers(rules.SAMPLES_MIN, rules.SAMPLES_MAX),
    noise=st.floats(rules.NOISE_MIN, rules.NOISE_MAX),
    width=st.integers(rules.WIDTH_MIN, rules.WIDTH_MAX),
    depth=st.integers(rules.DEPTH_MIN, rules.DEPTH_MAX),
    batch_size=st.integers(0, rules.BATCH_MAX),
    optimizer=st.sampled_from(rules.OPTIMIZER_KEYS),
    precision=st.sampled_from(rules.PRECISION_KEYS),
    step=st.sampled_from(rules.STEP_KEYS),
    epochs=st.integers(rules.EPOCHS_MIN, rules.EPOCHS_MAX),
    lr=st.floats(rules.LR_MIN, rules.LR_MAX),
    seed=st.integers(rules.SEED_MIN, rules.SEED_MAX),
) | st.builds(
    TrainingConfig,
    problem=st.just("data"),
    data=st.text(min_size=1, max_size=40).filter(lambda text: text.strip() and "\0" not in text),
)


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser()
    config.add_arguments(made)
    return made


@settings(max_examples=300, deadline=None)
@given(configs)
def test_a_config_through_the_command_line_is_the_same_config(made):
    back = config.from_arguments(parser().parse_args(config.to_argv(made)), made.device)
    assert back == made


@settings(max_examples=300, deadline=None)
@given(configs)
def test_a_config_through_the_preferences_is_the_same_config(made):
    values, skipped = config.from_texts(config.to_texts(dataclasses.asdict(made)))
    assert skipped == []
    forgotten = {setting.name for setting in SETTINGS if not setting.remembered}
    assert forgotten == {"data", "step"}
    assert TrainingConfig(**values, **{name: getattr(made, name) for name in forgotten}) == made


def test_every_field_but_the_device_is_in_the_table():
    names = [field.name for field in dataclasses.fields(TrainingConfig)]
    assert names[0] == "device" and [setting.name for setting in SETTINGS] == names[1:]


def test_a_remembered_value_that_fails_its_rule_is_skipped_and_named():
    values, skipped = config.from_texts({"epochs": "-5", "lr": "banana", "seed": "7", "step": "compiled"})
    assert values == {"seed": 7} and skipped == ["epochs", "lr"]  # the step mode is never read back


def test_a_step_only_parser_leaves_the_runs_length_at_its_defaults():
    made = argparse.ArgumentParser()
    config.add_arguments(made, per_step_only=True)
    args = made.parse_args(["--problem", "sine", "--lr", "0.5"])
    assert config.from_arguments(args, "cpu") == TrainingConfig(problem="sine", lr=0.5)
    options = {option for action in made._actions for option in action.option_strings}
    assert "--epochs" not in options and "--samples" not in options and "--data" in options
