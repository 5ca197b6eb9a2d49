import math

import pytest

from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import (
    InvalidSetting,
    parse_epochs,
    parse_learning_rate,
    parse_seed,
    parse_values,
)


@pytest.mark.parametrize("text, expected", [("1", 1), ("100", 100), (" 10000000 ", 10_000_000), (7, 7)])
def test_epochs_accepts_whole_numbers_in_range(text, expected):
    assert parse_epochs(text) == expected


@pytest.mark.parametrize("text", ["0", "-5", "10000001", "1.5", "abc", "", "1e3", "nan", True])
def test_epochs_refuses_and_names_the_value(text):
    with pytest.raises(InvalidSetting) as error:
        parse_epochs(text)
    assert error.value.setting == "epochs"
    assert "epochs" in str(error.value)
    if isinstance(text, str) and text:
        assert text in str(error.value) or str(int(text)) in str(error.value).replace(",", "")


@pytest.mark.parametrize("text, expected", [("0.1", 0.1), ("1e-3", 1e-3), ("1E-8", 1e-8), ("1000", 1000.0), (0.5, 0.5)])
def test_learning_rate_accepts_positive_finite_numbers(text, expected):
    assert parse_learning_rate(text) == expected


@pytest.mark.parametrize("text", ["0", "-0.1", "nan", "inf", "-inf", "abc", "", "1e-9", "1001", "0x10"])
def test_learning_rate_refuses_and_names_the_value(text):
    with pytest.raises(InvalidSetting) as error:
        parse_learning_rate(text)
    assert error.value.setting == "learning rate"
    assert repr(text) in str(error.value)


def test_seed_range():
    assert parse_seed("0") == 0
    assert parse_seed(str(2**63 - 1)) == 2**63 - 1
    for bad in ["-1", str(2**63), "1.0", "x", ""]:
        with pytest.raises(InvalidSetting, match="seed"):
            parse_seed(bad)


def test_values_split_on_commas_and_spaces_in_order():
    assert parse_values("4, 5 -1.5;1e2") == [4.0, 5.0, -1.5, 100.0]


@pytest.mark.parametrize("text, bad", [("4, x", "'x'"), ("1 nan", "'nan'"), ("2,,inf", "'inf'")])
def test_values_name_the_bad_token(text, bad):
    with pytest.raises(InvalidSetting) as error:
        parse_values(text)
    assert bad in str(error.value)


def test_values_need_at_least_one():
    with pytest.raises(InvalidSetting, match="at least one"):
        parse_values("  , ")


def test_config_validates_everything():
    config = TrainingConfig(epochs="50", lr="1e-2", seed="3")
    assert (config.epochs, config.lr, config.seed) == (50, 0.01, 3)
    assert math.isclose(TrainingConfig().lr, 0.1)
    with pytest.raises(InvalidSetting, match="problem"):
        TrainingConfig(problem="nope")
    with pytest.raises(InvalidSetting, match="optimizer"):
        TrainingConfig(optimizer="nope")
