"""Every command says the same thing the same way: a refusal is exit 2 and one line naming the option (no
usage block above it), a run that cannot start anywhere is refused as train refuses it, every option a
command takes is one it uses, and a sweep measures what it was asked or says plainly that it will not."""

import json

import pytest

from tests.commands import gpudemo

GRAPH_ON_CPU = "argument --step: the graph step captures a CUDA graph, and cpu has none: use compiled or eager there"


@pytest.mark.parametrize("command", ["train", "code", "profile", "compare", "sweep"])
def test_the_graph_step_on_the_cpu_is_one_line_and_exit_2_in_every_command(command):
    out = gpudemo(command, "--device", "cpu", "--step", "graph")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"gpudemo {command}: error: {GRAPH_ON_CPU}\n"


def test_parallel_refuses_the_graph_step_in_one_line():
    out = gpudemo("parallel", "--device", "cpu", "--step", "graph")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "argument --step" in out.stderr


def test_a_refusal_has_no_usage_block_above_it():
    out = gpudemo("train", "--device", "cpu", "--lr", "abc")
    said = "gpudemo train: error: argument --lr: learning rate must be a number, not 'abc'\n"
    assert out.returncode == 2 and out.stderr == said
    assert "usage:" in gpudemo("train", "--help", any_device=True).stdout  # --help still shows it


def test_a_sweep_takes_one_precision_and_refuses_a_second_or_a_contradiction():
    for args, says in [
        (("--precision", "bf16", "--precision", "fp32"), "a sweep measures one precision at a time"),
        (("--precision", "bf16", "--dtype", "float32"), "--precision bf16 and --dtype float32 ask for two"),
        (("--dtype", "bfloat16", "--precision", "fp32"), "--precision fp32 and --dtype bfloat16 ask for two"),
        (("--kind", "matmul", "--step", "compiled"), "a matmul sweep times one matrix product"),
        (("--kind", "matmul", "--energy"), "joules per epoch are a training step's"),
    ]:
        out = gpudemo("sweep", "--device", "cpu", *args, "--max-size", "10")
        assert out.returncode == 2 and says in out.stderr and out.stderr.count("\n") == 1, args
    out = gpudemo("sweep", "--device", "cpu", "--precision", "bf16", "--max-size", "10", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["dtype"] == "bfloat16"
    agreed = gpudemo("sweep", "--device", "cpu", "--precision", "bf16", "--dtype", "bfloat16", "--max-size", "10")
    assert agreed.returncode == 0 and "in bfloat16" in agreed.stdout
    assert "side by side" not in gpudemo("sweep", "--help", any_device=True).stdout


def test_compare_refuses_what_no_device_can_run_and_fails_when_every_run_diverged():
    mixed = gpudemo("compare", "--device", "cpu", "--step", "eager", "--step", "graph", "--epochs", "5")
    assert mixed.returncode == 0 and "cpu · graph: not run" in mixed.stdout  # one could run: the other shown refused
    diverged = gpudemo("compare", "--device", "cpu", "--lr", "1000", "--epochs", "20")
    assert diverged.returncode == 1 and "every run diverged" in diverged.stderr


def test_options_a_command_would_ignore_are_refused():
    for command in ("profile", "parallel", "compare"):
        out = gpudemo(command, "--device", "cpu", "--predict", "3")
        assert out.returncode == 2 and "unrecognized arguments: --predict" in out.stderr, command
    out = gpudemo("profile", "--device", "cpu", "--compare-steps", "--step", "compiled")
    assert out.returncode == 2 and "--compare-steps profiles every step mode side by side" in out.stderr


def test_a_negative_intercept_reads_as_a_subtraction():
    out = gpudemo("train", "--device", "cpu", "--epochs", "100")
    learned = next(line for line in out.stdout.splitlines() if line.startswith("learned"))
    assert "+ -" not in learned and (" + " in learned or " - " in learned)


def test_numbers_read_the_same_whatever_their_sign_or_size(tmp_path):
    model = tmp_path / "t.pt"
    assert gpudemo("train", "--device", "cpu", "--epochs", "3", "--save", str(model)).returncode == 0
    said = {
        ("predict", "--model", str(model), "1e39"): "gpudemo predict: error: argument X: value '1e39' is too large"
        " for the model (float32 holds up to 3.4e38)\n",  # it answered "y = -"
        ("predict", "--model", str(model), "-inf"): "gpudemo predict: error: argument X: value must be a finite"
        " number, not '-inf'\n",  # argparse read -inf as an option
        ("train", "--device", "cpu", "--predict", "-1e39"): "gpudemo train: error: argument --predict: value"
        " '-1e39' is too large for the model (float32 holds up to 3.4e38)\n",
        ("train", "--device", "cpu", "--epochs", "-0"): "gpudemo train: error: argument --epochs: epochs must be"
        " from 1 to 10,000,000, not '-0'\n",  # said "not 0"
        ("train", "--device", "cpu", "--seed", "-1"): "gpudemo train: error: argument --seed: seed must be from 0"
        " to 2**63-1, not -1\n",
    }
    for args, line in said.items():
        out = gpudemo(*args)
        assert (out.returncode, out.stderr) == (2, line), args
    negative = gpudemo("predict", "--model", str(model), "-1e5", "--json")  # a value, not an unknown option
    assert negative.returncode == 0 and json.loads(negative.stdout)["predictions"][0]["x"] == -1e5
    assert (
        gpudemo("train", "--device", "cpu", "--epochs", "1", "--seed", "-0").returncode == 0
    )  # -0 is 0, as for --depth


def test_a_refused_label_is_quoted_as_the_file_writes_it(tmp_path):
    data = tmp_path / "l.csv"
    data.write_text("1,1,0\n2,2,1\n3,3,1000000\n")
    out = gpudemo("train", "--device", "cpu", "--data", str(data))
    assert out.returncode == 2 and "line 3: the label '1000000' is not a whole number from 0 to 99" in out.stderr
