"""Your own data: a CSV read whole or refused with the reason (and the line), then trained as any problem."""

import json

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gpudemo.core.outputs.script import generate_script
from gpudemo.core.problems import datafile, problem_for
from gpudemo.core.problems.datafile import DataFileError, read_data
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.training import LoopOptions, budget, train
from gpudemo.core.training.prediction import classify
from tests.commands import gpudemo
from tests.core.outputs.test_script import run_script


def write(tmp_path, text: str | bytes, name="data.csv"):
    path = tmp_path / name
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


def test_x_y_rows_are_a_regression_and_a_header_is_skipped(tmp_path):
    data = read_data(write(tmp_path, "x,y\n1,2\n2,4\n\n3,6.5\n"))
    assert data.header and data.classes == 0 and data.rows == 3
    assert data.x.tolist() == [[1.0], [2.0], [3.0]] and data.y.tolist() == [[2.0], [4.0], [6.5]]


def test_x1_x2_label_rows_are_a_classification(tmp_path):
    data = read_data(write(tmp_path, "0.5,1,0\n-1,2e-1,2\n3,3,1\n"))
    assert not data.header and data.classes == 3 and data.y.dtype == torch.int64
    assert data.x.shape == (3, 2) and data.y.tolist() == [0, 2, 1]


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "is empty"),
        ("x,y\n", "no rows of numbers"),
        ("1,2\n3,4\n", "fewer than 3 rows"),
        ("1,2\n3,4\n5,six\n", "line 3: 'six' is not a finite number"),
        ("x,y\n1,2\n3,4\n5,inf\n", "line 4: 'inf' is not a finite number"),
        ("1,2,0\n3,4\n5,6,1\n", "line 2 has 2 values, not 3"),
        ("1;2\n3;4\n5;6\n", "separated by commas"),
        ("1\n2\n3\n", "1 values a row"),
        ("1,2,3,4\n1,2,3,4\n1,2,3,4\n", "4 values a row"),
        ("1,2,0\n1,2,0.5\n1,2,1\n", "line 2: the label '0.5' is not a whole number from 0 to 99"),
        ("x1,x2,label\n1,2,0\n\n1,2,-1\n1,2,1\n", "line 4: the label '-1'"),
        ("1,2,0\n1,2,0\n1,2,0\n", "one class only"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary file"),
        (b"1,2\n\xff\xfe,3\n4,5\n", "not UTF-8 text"),
    ],
)
def test_a_bad_file_is_refused_with_its_reason(tmp_path, text, says):
    with pytest.raises(DataFileError, match=says):
        read_data(write(tmp_path, text))


def test_a_missing_file_a_folder_and_a_file_too_large_are_refused(tmp_path, monkeypatch):
    with pytest.raises(DataFileError, match="cannot read missing.csv"):
        read_data(tmp_path / "missing.csv")
    with pytest.raises(DataFileError, match="is not a file"):
        read_data(tmp_path)
    path = write(tmp_path, "1,2\n2,3\n3,4\n")
    monkeypatch.setattr(datafile, "MAX_BYTES", 8)
    with pytest.raises(DataFileError, match="more than gpudemo reads"):
        read_data(path)


def test_more_rows_than_gpudemo_trains_on_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(datafile, "MAX_ROWS", 4)
    with pytest.raises(DataFileError, match="more than 4 rows"):
        read_data(write(tmp_path, "1,2\n" * 5))


def test_a_file_is_read_again_only_when_it_changed(tmp_path, monkeypatch):
    path = write(tmp_path, "1,2\n2,4\n3,6\n")
    first = read_data(path)
    assert read_data(path) is first
    path.write_text("1,2\n2,4\n3,6\n4,8\n")
    assert read_data(path).rows == 4


# Bytes and text as files come: anything, and rows that are almost right.
ROWS = st.lists(
    st.tuples(st.floats(allow_nan=True, allow_infinity=True), st.floats(width=32), st.integers(-2, 120)),
    min_size=0,
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300),
        ROWS.map(lambda rows: "\n".join(f"{a!r},{b!r},{c}" for a, b, c in rows)),
    )
)
@example(b"1,2\r\n3,4\r\n5,6\r\n")
@example("\ufeffx,y\n1,2\n3,4\n5,6\n")
def test_any_file_is_read_whole_or_refused_clearly(tmp_path_factory, content):
    path = write(tmp_path_factory.mktemp("fuzz"), content if isinstance(content, bytes) else content.encode())
    try:
        data = read_data(path)
    except DataFileError as error:
        text = str(error)
        assert text and "\n" not in text and "Traceback" not in text and len(text) < 400
        return
    assert data.rows >= 3 and torch.isfinite(data.x).all()
    assert data.x.shape[0] == data.y.shape[0] and data.x.shape[1] in (1, 2)


@pytest.fixture
def circle_file(tmp_path):
    generator = np.random.default_rng(0)
    points = generator.uniform(-2, 2, (300, 2))
    labels = (np.hypot(points[:, 0], points[:, 1]) > 1.2).astype(int)
    rows = "\n".join(f"{a:.5f},{b:.5f},{c}" for (a, b), c in zip(points, labels, strict=True))
    return write(tmp_path, "x1,x2,label\n" + rows + "\n")


def test_your_classes_train_draw_a_boundary_and_run_as_a_script(circle_file):
    config = TrainingConfig(
        problem="data", data=str(circle_file), width=16, depth=2, optimizer="adam", lr=0.02, epochs=300
    )
    batches = []
    result = train(config, LoopOptions(fit=True), on_batch=batches.append)
    assert result.accuracy > 0.9
    problem = problem_for(config)
    assert problem.classes == 2 and problem.area[0] < -2 and problem.area[1] > 2
    assert batches[-1].fit.shape[:2] == (128, 128)
    assert budget.estimate(config).data == 300 * (2 * 4 + 8)
    printed = run_script(generate_script(config, [(0.0, 0.0)]).text)
    assert abs(printed["final_loss"] - result.final_loss) <= 1e-6
    assert abs(printed["accuracy"] - result.accuracy) <= 1e-6
    assert printed["classify"][0][1] == int(classify(result.model, [(0.0, 0.0)]).argmax())


def test_your_line_is_the_tutorials_model_with_a_landscape(tmp_path):
    path = write(tmp_path, "x,y\n" + "".join(f"{x},{2 * x + 0.5}\n" for x in range(-5, 6)))
    config = TrainingConfig(problem="data", data=str(path), depth=0, lr=0.02, epochs=400)
    result = train(config)
    assert isinstance(result.model, torch.nn.Linear)
    assert result.parameters["weight"] == pytest.approx(2, abs=0.05)
    assert problem_for(config).has_plane(config)
    printed = run_script(generate_script(config, [4.0]).text)
    assert abs(printed["final_loss"] - result.final_loss) <= 1e-6


def test_emulated_windows_code_page_the_script_reads_a_utf8_header_as_gpudemo_did(tmp_path):
    # Windows opens a file in its ANSI code page (cp1252, cp936) unless told: a UTF-8 CSV with a BOM and a
    # non-ASCII header, which gpudemo reads, raised UnicodeDecodeError in the script "to run as it is".
    # Here the locale's encoding is ASCII (no UTF-8 mode, no locale coercion), stricter still.
    import os
    import subprocess
    import sys

    path = write(tmp_path, ("\ufefftempérature,ventes\n" + "".join(f"{x},{2 * x}\n" for x in range(5))).encode())
    config = TrainingConfig(problem="data", data=str(path), depth=0, lr=0.02, epochs=50)
    script = tmp_path / "run.py"
    script.write_text(generate_script(config, [4.0]).text, encoding="utf-8")
    ascii_locale = {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "LC_ALL": "C", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env={**os.environ, **ascii_locale}
    )
    assert done.returncode == 0, done.stderr[-1500:]
    assert f"{train(config).final_loss:.6g}"[:6] in done.stdout


def test_the_problem_data_needs_a_file():
    with pytest.raises(InvalidSetting, match="choose a data file"):
        TrainingConfig(problem="data")
    assert TrainingConfig(problem="line", data="ignored.csv").data == ""


def test_the_cli_trains_on_your_data_and_refuses_a_bad_file_with_status_2(circle_file, tmp_path):
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--data",
        str(circle_file),
        "--epochs",
        "50",
        "--optimizer",
        "adam",
        "--lr",
        "0.02",
        "--width",
        "8",
        "--predict",
        "0,0",
        "--json",
    )
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["problem"] == "data" and 0 < report["accuracy"] <= 1
    bad = write(tmp_path, "1,2\n3,x\n5,6\n", "bad.csv")
    out = gpudemo("train", "--device", "cpu", "--data", str(bad))
    assert out.returncode == 2 and "argument --data: line 2: 'x' is not a finite number" in out.stderr
    out = gpudemo("train", "--device", "cpu", "--problem", "data")
    assert out.returncode == 2 and "give it with --data PATH" in out.stderr
    out = gpudemo("compare", "--device", "cpu", "--data", str(circle_file), "--epochs", "5", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)[0]["status"] == "completed"
    out = gpudemo("sweep", "--device", "cpu", "--data", str(circle_file), "--max-size", "100", "--json")
    assert out.returncode == 0 and len(json.loads(out.stdout)["rows"]) == 2
