"""The second lesson's guesses (core/lessons/guesses.py, core/lessons/lesson.py): what a learner may answer, what each
measurement says in the question's units, how far off a guess was, the table as CSV. Plain pytest."""

import csv
import io
import json
import re

import pytest

from gpudemo.core.distributed.launcher import ParallelResult
from gpudemo.core.lessons import guesses
from gpudemo.core.lessons.lesson import CHOICE, PERCENT, RATIO, GuessSpec, LessonError, load, parse_guess
from gpudemo.core.measure.compare import DeviceTiming
from gpudemo.core.measure.roofline import Peak, Work
from gpudemo.core.measure.sweep import SweepResult, SweepRow
from gpudemo.core.measure.transfer import DEVICE_TO_HOST, HOST_TO_DEVICE, TransferResult, TransferRow
from gpudemo.core.settings.rules import InvalidSetting

SIZES = GuessSpec(CHOICE, (10.0, 1000.0, 100000.0))


def test_a_guess_is_one_of_the_choices_a_percentage_or_a_ratio():
    assert parse_guess(SIZES, "1,000") == 1000 and parse_guess(SIZES, 100000.0) == 100000
    assert parse_guess(GuessSpec(PERCENT), " 35 % ") == 35 and parse_guess(GuessSpec(RATIO), "1e-2") == 0.01
    for spec, value, says in (
        (SIZES, "50", "guess one of 10, 1,000, 100,000, not '50'"),
        (GuessSpec(PERCENT), "101", "a percentage from 0 to 100, not '101'"),
        (GuessSpec(PERCENT), "nan", "not 'nan'"),
        (GuessSpec(RATIO), "0.001", "guess a ratio from 0.01 to 1000 (2 or 2x: twice), not '0.001'"),
        (GuessSpec(RATIO), "inf", "not 'inf'"),
        (GuessSpec(RATIO), True, "not True"),
        (GuessSpec(RATIO), "１２", "not '１２'"),  # full-width digits: not a number here, as everywhere
    ):
        with pytest.raises(InvalidSetting, match=re.escape(says)) as refused:
            parse_guess(spec, value)
        assert refused.value.setting == "guess"


def test_a_decimal_comma_is_refused_and_a_times_sign_and_minus_zero_are_read():
    for typed, spec in (("1,5", GuessSpec(RATIO)), ("0,5", GuessSpec(PERCENT)), ("10,00", GuessSpec(PERCENT))):
        with pytest.raises(InvalidSetting, match=f"write decimals with a point .*not a comma: '{typed}' is ambiguous"):
            parse_guess(spec, typed)
    assert parse_guess(SIZES, "100,000") == 100000 and parse_guess(GuessSpec(RATIO), "1,000") == 1000
    assert parse_guess(GuessSpec(RATIO), "2x") == parse_guess(GuessSpec(RATIO), " 2 × ") == 2
    with pytest.raises(InvalidSetting):
        parse_guess(GuessSpec(PERCENT), "2x")  # a percentage is no ratio
    zero = parse_guess(GuessSpec(PERCENT), "-0")
    assert zero == 0 and str(zero) == "0.0"


def test_how_far_off_a_guess_was():
    assert str(guesses.off_by(GuessSpec(PERCENT), 40, 58.4)) == "-18 points"
    assert str(guesses.off_by(GuessSpec(RATIO), 4, 1.0)) == "x4 too high"
    assert str(guesses.off_by(GuessSpec(RATIO), 0.5, 2.0)) == "x4 too low"
    assert str(guesses.off_by(GuessSpec(RATIO), 1.1, 1.0)) == "about right"
    assert str(guesses.off_by(SIZES, 1000, None)) == "-"


def _row(device, size, seconds, work=None):
    return SweepRow(device, size, seconds, size / seconds, work=work)


def test_each_measurement_read_in_its_question_s_units():
    sweep = SweepResult("step", "float32", [_row("cpu", 10, 1e-4), _row("cuda:0", 10, 5e-4),
                                            _row("cpu", 1000, 2e-4), _row("cuda:0", 1000, 1e-4)])  # fmt: skip
    assert guesses.crossover(sweep) == 1000
    assert guesses.crossover(SweepResult("step", "float32", [_row("cpu", 10, 1e-4)])) is None  # no GPU
    peak = Peak(1e12, 1e11, "measured")  # the ridge at 10 FLOP/byte
    small = SweepResult("step", "float32", [_row("cpu", 100, 1e-4, Work(1, 1)), _row("cpu", 200, 1.1e-4, Work(2, 2))])
    assert guesses.doubling(small, "cpu") == (pytest.approx(1.1), guesses.OVERHEAD)
    assert not guesses.timing_doubtful(small, "cpu")
    # 150 ms a step cannot be fixed costs: a busy machine timed one of the two; the roofline says the bound
    busy = SweepResult("step", "float32", [_row("cpu", 100, 0.15), _row("cpu", 200, 0.162, Work(2, 20))],
                       peaks={"cpu": peak})  # fmt: skip
    assert guesses.doubling(busy, "cpu") == (pytest.approx(1.08), guesses.MEMORY)
    assert guesses.timing_doubtful(busy, "cpu")
    memory = SweepResult("step", "float32", [_row("cpu", 100, 1.0), _row("cpu", 200, 2.0, Work(2, 20))],
                         peaks={"cpu": peak})  # fmt: skip
    assert guesses.doubling(memory, "cpu") == (2.0, guesses.MEMORY)
    compute = SweepResult("step", "float32", [_row("cpu", 100, 1.0), _row("cpu", 200, 2.0, Work(400, 20))],
                          peaks={"cpu": peak})  # fmt: skip
    assert guesses.doubling(compute, "cpu") == (2.0, guesses.COMPUTE)
    timings = [DeviceTiming("cpu", "completed", 1000.0, step="eager"), DeviceTiming("cpu", "completed", 250.0,
               step="compiled"), DeviceTiming("cpu", "refused", step="graph")]  # fmt: skip
    assert guesses.speedup(timings, "cpu", "compiled") == 0.25 and guesses.speedup(timings, "cpu", "graph") is None
    f32 = SweepResult("matmul", "float32", [_row("cpu", 256, 2e-3)])
    bf16 = SweepResult("matmul", "bfloat16", [_row("cpu", 256, 8e-3)])
    assert guesses.matmul_speedup(f32, bf16, "cpu") == 0.25
    copies = TransferResult("cuda:0", [TransferRow(HOST_TO_DEVICE, False, 2**20, 1e-4),
                                       TransferRow(HOST_TO_DEVICE, True, 2**20, 4e-5),
                                       TransferRow(DEVICE_TO_HOST, True, 2**20, 1e-5)])  # fmt: skip
    assert guesses.pinned_speedup(copies) == pytest.approx(2.5)
    assert guesses.pinned_speedup(TransferResult("cpu", note="no GPU")) is None
    runs = [ParallelResult(1, "gloo", "completed", 100, 1.0, 0.1, 0.0),
            ParallelResult(2, "gloo", "completed", 100, 2.0, 0.1, 0.6)]  # fmt: skip
    assert guesses.parallel_speedup(runs) == (0.5, 0.6)


def test_the_table_exports_as_csv_and_the_guesses_are_kept_as_text():
    rows = [guesses.Outcome("busy", "How busy?", 40.0, 31.25, guesses.off_by(GuessSpec(PERCENT), 40, 31.25), "CPU"),
            guesses.Outcome("pinned", 'Pinned, "really"?', 2.0, None, guesses.NOTHING, "no GPU")]  # fmt: skip
    read = list(csv.DictReader(io.StringIO(guesses.to_csv(rows))))
    assert [r["step"] for r in read] == ["busy", "pinned"] and read[0]["measured"] == "31.25"
    assert read[0]["off by"] == "+9 points" and read[1]["off by"] == "-"
    assert read[1]["measured"] == "" and read[1]["question"] == 'Pinned, "really"?'
    texts = guesses.guesses_to_texts({"busy": 40.0, "doubling": 1 / 3})
    assert guesses.guesses_from_texts({**texts, "bad": "x", "inf": "inf"}) == {"busy": 40.0, "doubling": 1 / 3}


def test_a_lesson_file_s_guess_steps_are_checked(tmp_path):
    steps = load(name="gpu_win")
    assert len(steps) == 9 and all(step.explain for step in steps if step.guess)
    good = {"key": "k", "title": {"en": "t"}, "text": {"en": "x"}, "guess": {"kind": "ratio"},
            "measure": "busy", "explain": {"en": "e"}}  # fmt: skip
    for broken, says in (
        ({**good, "measure": None}, "a step with a 'guess' has a 'measure'"),
        ({**good, "guess": {"kind": "maybe"}}, "'kind' is one of choice, percent, ratio"),
        ({**good, "guess": {"kind": "choice", "choices": []}}, "needs a list of numbers"),
        ({**good, "measure": "speed"}, "measure 'speed' is not one of"),
        ({**good, "explain": {}}, "and an 'explain'"),
    ):
        path = tmp_path / "lesson.json"
        path.write_text(json.dumps([broken]), encoding="utf-8")
        with pytest.raises(LessonError, match=re.escape(says)):
            load(path)


def test_the_energy_ratio_is_the_gpus_joules_over_the_cpus_where_both_were_metered():
    from gpudemo.core.hardware.energy import EnergyPerEpoch
    from gpudemo.core.measure.compare import DeviceTiming
    from gpudemo.core.measure.joules import RunEnergy

    def timing(device, joules=None, status="completed"):
        figures = EnergyPerEpoch(device, "fake", joules, 0, 1, 4, 9, 2) if joules else None
        return DeviceTiming(device, status, 1.0, energy=RunEnergy(figures is not None, figures))

    assert guesses.energy_ratio([timing("cuda:0", 0.5), timing("cpu", 0.25)], "cuda:0") == 2.0
    assert guesses.energy_ratio([timing("cuda:0"), timing("cpu", 0.25)], "cuda:0") is None  # no GPU counter
    assert guesses.energy_ratio([timing("cuda:0", 0.5), timing("cpu", 0.25, "failed")], "cuda:0") is None


def test_how_busy_is_the_share_the_profiled_steps_timeline_shows():
    from gpudemo.core.measure.profile import StepProfile
    from gpudemo.core.measure.timeline import Span, Timeline

    # A step of 270 us on the CPU, 108 us of it inside operators (40 %, what the Profile tab says); the
    # operators' time under the profiler against the step timed alone was another figure (142 of 1,938 us: 7 %).
    timeline = Timeline("cpu", 270.0, (Span("aten::addmm", 10.0, 60.0), Span("aten::mse_loss", 100.0, 48.0)))
    profile = StepProfile("cpu", 50, 1900.0, 1938.0, 142.0, 66.0, (), timeline=timeline)
    assert guesses.busy_percent(profile) == pytest.approx(100 * timeline.operator_share) == pytest.approx(40.0)
    assert guesses.busy_percent(StepProfile("cpu", 50, 1900.0, 1938.0, 142.0, 66.0, ())) == pytest.approx(
        100 * 142 / 1938
    )  # no timeline: the profile's own figure
