"""The lesson file and what the core computes for it (the window's walk is in tests/ui/shell/test_lesson_window.py)."""

import json

import pytest

from gpudemo.core.lessons import figures as lesson_figures
from gpudemo.core.lessons.lesson import ACTIONS, TUTORIAL, LessonError, fill, load, missing_code
from gpudemo.core.outputs.script import generate_script


def test_the_packaged_lesson_walks_the_tutorial_in_its_order_in_both_languages():
    steps = load()
    assert [step.key for step in steps] == [
        "devices",
        "data",
        "model",
        "move",
        "loss",
        "train",
        "cpu",
        "predict",
        "gpu",
        "profile",
    ]
    for step in steps:
        assert set(step.title) == set(step.text) == {"en", "zh_CN"}, step.key
        assert all(text.strip() for text in (*step.title.values(), *step.text.values()))
        sentences = step.text["en"].count(". ") + 1
        assert 2 <= sentences <= 4, (step.key, sentences)  # two or three sentences, as the issue asks
        assert step.action in (None, *ACTIONS)
    assert {step.key for step in steps if step.needs == "run"} == {"cpu", "predict"}


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
def test_every_code_piece_is_a_line_of_the_tutorials_script(device):
    script = generate_script(TUTORIAL.__class__(**{**TUTORIAL.__dict__, "device": device}), [4.0]).text
    for step in load():
        assert missing_code(script, step.code) == [], step.key


def test_a_value_not_known_yet_stays_as_its_name():
    assert fill("w = {w}, b = {b}", {"w": "1.9"}) == "w = 1.9, b = {b}"


def test_the_model_starts_where_a_run_of_the_tutorial_starts():
    from gpudemo.core.training import prepared

    w0, b0 = lesson_figures.initial_parameters(TUTORIAL)
    with prepared(TUTORIAL) as run:
        assert run.model.weight.item() == w0 and run.model.bias.item() == b0


def test_moving_the_tutorial_moves_its_two_parameters_and_six_numbers():
    move = lesson_figures.time_move(TUTORIAL)
    assert move.bytes == (2 + 6) * 4 and 0 < move.seconds < 1


@pytest.mark.parametrize(
    "entry, says",
    [
        ({"key": "x", "title": {"zh_CN": "只有中文"}, "text": {"en": "t"}}, "English"),
        ({"key": "x", "title": {"en": "t"}, "text": {"en": "t"}, "action": "dance"}, "action 'dance'"),
        ({"key": "x", "title": {"en": "t"}, "text": {"en": "t"}, "widgets": "lossPlot"}, "'widgets' must be a list"),
        ({"key": "x", "title": {"en": "t"}, "text": {"en": "t"}, "colour": "red"}, "unknown keys ['colour']"),
        ({"key": "x", "title": {"en": "t"}, "text": {"en": "t"}, "needs": "gpu"}, "needs 'gpu'"),
    ],
)
def test_a_teachers_mistake_is_named_with_its_step(tmp_path, entry, says):
    good = {"key": "a", "title": {"en": "t"}, "text": {"en": "t"}}
    path = tmp_path / "lesson.json"
    path.write_text(json.dumps([good, entry]), encoding="utf-8")
    with pytest.raises(LessonError, match="step 2") as raised:
        load(path)
    assert says in str(raised.value)


def test_a_file_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "lesson.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(LessonError, match="cannot be read as JSON"):
        load(path)
