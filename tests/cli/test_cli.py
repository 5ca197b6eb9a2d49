"""The `gpudemo` command, run as a person runs it: in a subprocess."""

import csv
import json
import os
import subprocess
import sys

import pytest

from tests.commands import gpudemo
from tests.tutorial import tutorial_run


def test_devices_table_lists_the_cpu():
    out = gpudemo("devices")
    assert out.returncode == 0
    header, *rows = out.stdout.splitlines()
    assert header.split()[:2] == ["ID", "NAME"]
    notes = [row for row in rows if row.startswith("energy of ")]  # under the table: what can be metered
    rows = [row for row in rows if row not in notes]
    assert rows[-1].startswith("cpu ") and notes[-1].startswith("energy of cpu: ")


def test_devices_json_has_the_promised_fields():
    out = gpudemo("devices", "--json", module=True)
    assert out.returncode == 0
    found = json.loads(out.stdout)
    assert found[-1]["id"] == "cpu"
    for device in found:
        assert {"id", "name", "kind", "total_memory"} <= device.keys()
        if device["kind"] == "cuda":
            assert device["capability"] and device["multiprocessors"]


def test_train_json_matches_the_tutorial(tmp_path):
    expected = tutorial_run(3)
    csv_path = tmp_path / "loss.csv"
    out = gpudemo(
        "train", "--device", "cpu", "--seed", "3", "--predict", "4", "-1", "--loss-csv", str(csv_path), "--json"
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["status"] == "completed"
    assert result["device"] == "cpu" and result["epochs_run"] == 100
    assert abs(result["final_loss"] - expected["losses"][-1]) <= 1e-6
    assert abs(result["parameters"]["weight"] - expected["weight"]) <= 1e-5
    assert abs(result["parameters"]["bias"] - expected["bias"]) <= 1e-5
    assert [p["x"] for p in result["predictions"]] == [4.0, -1.0]
    assert abs(result["predictions"][0]["y"] - expected["prediction"]) <= 1e-5
    assert result["seconds"] > 0 and result["epochs_per_second"] > 0
    assert result["to_device_seconds"] >= 0 and result["warm_up_seconds"] == 0  # the CPU needs no warm-up step
    assert out.stderr == ""  # no progress bar when stderr is not a terminal
    with csv_path.open() as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["epoch", "loss"] and len(rows) == 101
    assert rows[1][0] == "1" and abs(float(rows[-1][1]) - expected["losses"][-1]) <= 1e-6


def test_train_summary_is_readable():
    out = gpudemo("train", "--device", "cpu", "--epochs", "200", "--lr", "1e-2", "--predict", "4,5")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("completed: 200 of 200 epochs on cpu")
    assert "final loss" in text and "learned     y = " in text
    assert "not timed   moving model and data to cpu" in text
    assert "x = 4  ->  y = " in text and "x = 5  ->  y = " in text


def test_one_epoch_is_said_in_the_singular(tmp_path):
    model = tmp_path / "one.pt"
    out = gpudemo("train", "--device", "cpu", "--epochs", "1", "--save", str(model))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("completed: 1 of 1 epoch on cpu")
    out = gpudemo("predict", "--model", str(model), "4")
    assert out.returncode == 0, out.stderr
    assert ", 1 epoch\n" in out.stdout


def test_divergence_exits_1_with_a_reason_and_still_prints_json():
    out = gpudemo("train", "--device", "cpu", "--lr", "100", "--epochs", "1000", "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["status"] == "diverged" and result["diverged_at"] == result["epochs_run"]
    assert result["final_loss"] is None  # not finite: JSON has no inf
    assert "diverged at epoch" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, named",
    [
        (["--lr", "0"], "'0'"),
        (["--lr", "-0.5"], "'-0.5'"),
        (["--lr", "nan"], "'nan'"),
        (["--lr", "inf"], "'inf'"),
        (["--lr", "-inf"], "'-inf'"),
        (["--lr", "fast"], "'fast'"),
        (["--epochs", "0"], "epochs"),
        (["--epochs", "2.5"], "'2.5'"),
        (["--epochs", "many"], "'many'"),
        (["--device", "cuda:9"], "'cuda:9'"),
        (["--device", "tpu"], "'tpu'"),
        (["--device", ""], "the device is empty"),
        (["--seed", "-1"], "not -1"),
        (["--predict", "4", "x"], "'x'"),
        (["--loss-csv", "/no/such/folder/loss.csv"], "/no/such/folder/loss.csv"),
        (["--problem", "circle"], "'circle'"),
        (["--samples", "2"], "samples must be from 3 to 10,000,000, not 2"),
        (["--samples", "1e6"], "'1e6'"),
        (["--width", "4097"], "width must be from 1 to 4,096"),
        (["--depth", "-1"], "depth must be from 0 to 8"),
        (["--batch-size", "-5"], "batch size must be from 0"),
        (["--optimizer", "rmsprop"], "'rmsprop'"),
    ],
)
def test_bad_arguments_exit_2_naming_the_value(args, named):
    out = gpudemo("train", *args)
    assert out.returncode == 2, out
    assert named in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_help_is_quick_and_mentions_the_window():
    out = gpudemo("--help", module=True)
    assert out.returncode == 0 and "opens the window" in " ".join(out.stdout.split())


def test_no_display_gets_a_clear_message_not_a_qt_abort():
    if not sys.platform.startswith("linux"):
        pytest.skip("only Linux opens windows through DISPLAY or WAYLAND_DISPLAY")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    out = subprocess.run([sys.executable, "-m", "gpudemo"], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 1
    assert "no display" in out.stderr and "gpudemo train" in out.stderr and "Traceback" not in out.stderr


def test_train_the_line_with_minibatches_and_adam():
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "line",
        "--samples",
        "5000",
        "--batch-size",
        "500",
        "--optimizer",
        "adam",
        "--lr",
        "0.05",
        "--epochs",
        "60",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["problem"], result["samples"], result["batch_size"], result["optimizer"]) == (
        "line",
        5000,
        500,
        "adam",
    )
    assert abs(result["predictions"][0]["y"] - 8.0) < 0.2
    assert set(result["parameters"]) == {"weight", "bias"}


def test_train_the_sine_describes_the_mlp():
    out = gpudemo(
        "train",
        "--device",
        "cpu",
        "--problem",
        "sine",
        "--width",
        "16",
        "--depth",
        "3",
        "--samples",
        "200",
        "--epochs",
        "20",
    )
    assert out.returncode == 0, out.stderr
    assert "learned     an MLP of 593 parameters" in out.stdout


def test_a_run_too_large_for_the_device_exits_1_with_the_figures():
    out = gpudemo(
        "train", "--device", "cpu", "--problem", "sine", "--samples", "10000000", "--width", "4096", "--depth", "8"
    )
    assert out.returncode == 1
    assert "needs about" in out.stderr and "TiB" in out.stderr and "is free there" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_the_terminal_bar_reads_the_loops_clock_as_the_window_does():
    import io

    from gpudemo.cli.output import ProgressBar

    stream = io.StringIO()
    bar = ProgressBar(stream, 1000)
    bar.update(250, 0.5)
    assert "250/1,000 epochs  500 epochs/s  ETA 0:02" in stream.getvalue()
    bar.update(0, 0.0)
    assert stream.getvalue().endswith("0 epochs/s  ETA ?")


def test_a_reader_that_leaves_the_pipe_early_ends_the_command_without_a_traceback():
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "gpudemo", "code", "--device", "cpu", "-o", "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    child.stdout.close()  # `| head -0`: the reader is gone before the first line
    stderr = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=120) == 141 and "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


def test_emulated_windows_code_page_a_character_the_console_lacks_is_escaped_not_raised(tmp_path):
    # Redirected output on Windows is in the ANSI code page (cp1252, cp932): `gpudemo code` for a file named
    # café.csv raised UnicodeEncodeError. ASCII here, stricter still: the name is escaped, and in the
    # script's string the escape reads back as the character, so the printed script still runs.
    data = tmp_path / "café.csv"
    data.write_text("x,y\n1,2\n2,4\n3,6\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    command = [sys.executable, "-m", "gpudemo", "code", "--device", "cpu", "--problem", "data", "--data", str(data)]
    done = subprocess.run([*command, "--epochs", "5"], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-1500:]
    assert "caf\\xe9.csv" in done.stdout
    ran = subprocess.run([sys.executable, "-c", done.stdout], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and "final loss" in ran.stdout.lower(), ran.stderr[-1500:]
