"""The GPU check runs here too, as a dry run on the CPU: it cannot rot between GPU sessions."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU machine the check is run by hand, at full size")
def test_without_a_gpu_the_check_runs_the_cpu_side_and_says_what_it_skipped(tmp_path):
    # Every step that needs a GPU, and of the CLI's (tested on their own in test_cli and beside it)
    # the first, a profile and a sweep in each precision: each is a torch process of its own.
    # (Each of its other commands is parsed by the command line's own parser below, without a process.)
    steps = "env,api,cuda-tests,nvidia-smi,probes,suite,benchmarks,cli-train-tutorial,"
    steps += "cli-profile-steps,cli-sweep-step-graph,steps-benchmark,cli-sweep-matmul-bfloat16"
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.gpu_check", "--out", str(tmp_path), "--steps", steps],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["cuda"] is False and summary["failed"] == 0
    lines = (tmp_path / "summary.txt").read_text().splitlines()
    skipped = {line.split()[0] for line in lines if " SKIPPED " in line}
    assert skipped == {
        "nvidia-smi",
        "probes",
        "suite",
        "benchmarks",
        "cuda-tests",
        "steps-benchmark",
        "cli-sweep-step-graph",
    }
    assert all("torch sees no CUDA GPU" in line or "no GPU here" in line for line in lines if " SKIPPED " in line)
    api = json.loads((tmp_path / "api.txt").read_text())
    assert api["torch"] == torch.__version__ and isinstance(api["function_event_has_linked_correlation_id"], bool)
    env = json.loads((tmp_path / "env.txt").read_text())
    assert env["cuda_available"] is False and env["devices"][-1]["id"] == "cpu"
    train = json.loads((tmp_path / "cli-train-tutorial.txt").read_text())
    assert train["device"] == "cpu" and train["status"] == "completed"
    assert json.loads((tmp_path / "cli-sweep-matmul-bfloat16.txt").read_text())["dtype"] == "bfloat16"
    modes = json.loads((tmp_path / "cli-profile-steps.txt").read_text())
    assert [(row["step"], row["status"]) for row in modes] == [
        ("eager", "completed"), ("compiled", "completed"), ("graph", "refused")
    ]  # fmt: skip
    assert not (tmp_path / "cli-sweep-step-graph.txt").exists()  # no GPU: a graph sweep is refused, so skipped


@pytest.mark.parametrize("device", ["cuda:0", "cpu"])
@pytest.mark.parametrize("quick", [True, False])
def test_every_command_of_the_gpu_check_is_one_the_command_line_takes(device, quick):
    from benchmarks.gpu_check import cli_commands
    from gpudemo.cli.arguments import build_parser

    parser = build_parser()
    for name, command in cli_commands(device, quick).items():
        assert command[1:3] == ["-m", "gpudemo"], name
        try:
            parser.parse_args(command[3:])
        except SystemExit:  # argparse's refusal, said on stderr
            pytest.fail(f"{name}: gpudemo refuses {' '.join(command[3:])}")


def test_the_quick_gpu_check_runs_only_steps_that_exist_and_what_never_ran_on_a_gpu(tmp_path):
    from benchmarks.gpu_check import QUICK_GPU, all_steps

    names = [name for name, *_ in all_steps("cuda:0", True, True, tmp_path)]
    assert set(QUICK_GPU) <= set(names)
    assert {"cli-profile-line", "cli-sweep-roofline", "cli-transfer", "cli-compare-precisions", "cli-train-compile",
            "cli-parallel", "lesson-timing", "cuda-tests", "api", "cli-profile-steps", "cli-compare-steps",
            "cli-sweep-step-graph", "steps-benchmark"} <= set(QUICK_GPU)  # fmt: skip
    assert not {"suite", "benchmarks", "cli-compare-line", "cli-sweep-step"} & set(QUICK_GPU)  # measured 4 December


def test_the_gpu_check_runs_as_two_commands_new_first_each_leaving_one_archive(tmp_path):
    import tarfile

    from benchmarks.gpu_check import FIRST_BUDGET_S, FIRST_GPU, QUICK_GPU

    assert FIRST_GPU[:3] == ("env", "api", "cuda-tests") and FIRST_BUDGET_S <= 300  # 5 minutes at most
    assert set(FIRST_GPU) - {"probes-compiled"} <= set(QUICK_GPU)
    archive = tmp_path / "check.tar.gz"
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.gpu_check", "--out", str(tmp_path / "out"), "--steps", "env,api",
         "--budget", "10.1", "--archive", str(archive)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    summary = (tmp_path / "out" / "summary.txt").read_text()
    assert (
        "env" in summary and "api                          SKIPPED  not started: the budget of 10 s is spent" in summary
    )  # no step starts with under 10 s left: env starts with 10.1, api after env's second or so (it took 1.0 s once:
    # with a budget of 11, api then started)
    with tarfile.open(archive) as tar:  # one file to fetch, holding every output and the summary
        names = tar.getnames()
    assert "out/summary.txt" in names and "out/env.txt" in names
