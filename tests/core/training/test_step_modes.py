"""The step modes (core/step/step.py, core/step/capture.py): eager, compiled and graph train the same numbers; what a
device cannot take is refused before anything starts, by name.

The graph step's loop (replays of many epochs, the records in buffers, exact pauses and stops) is checked
here on the CPU with a capture that runs its body as it is; the real torch.cuda.graph runs in the cuda tests.
"""

import dataclasses
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from gpudemo.core.base.control import RunControl
from gpudemo.core.outputs.script import generate_script
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import capture
from gpudemo.core.step.capture import EPOCHS_PER_REPLAY
from gpudemo.core.step.modes import StepRefused, check, mode_of
from gpudemo.core.training import COMPLETED, STOPPED, LoopOptions, train
from gpudemo.core.training.budget import batch_size, estimate
from gpudemo.core.training.landscape import PathHistory
from gpudemo.core.training.loop import _run_training
from gpudemo.core.training.plan import Plan
from tests.commands import gpudemo


def unchecked(config: TrainingConfig) -> Plan:
    """`config`'s plan without its preflight: a graph step on the CPU, whose capture the tests fake."""
    problem = problem_for(config)
    return Plan(config, problem, problem.samples(config), batch_size(config), mode_of(config), estimate(config))


ADAM_RTOL = 1e-4  # capturable Adam (the graph step's) against eager's: see the cuda test below

CASES = [
    TrainingConfig(problem="tutorial", optimizer="sgd", epochs=150),
    TrainingConfig(problem="tutorial", optimizer="momentum", epochs=150),
    TrainingConfig(problem="line", optimizer="adam", lr=0.01, epochs=150),
    TrainingConfig(problem="sine", optimizer="momentum", lr=0.05, epochs=150),
    TrainingConfig(problem="circles", optimizer="adam", lr=0.01, epochs=150),
    TrainingConfig(problem="digits", optimizer="sgd", epochs=70),
]


def _run(config, path=False, control=None, on_pause=None):
    """The loop itself, past the refusal of a graph on the CPU (run_training's check)."""
    history = PathHistory(config.epochs + 1) if path else None
    run = _run_training(unchecked(config), LoopOptions(path=history, control=control, on_pause=on_pause, fit=True))
    while True:
        try:
            next(run)
        except StopIteration as finished:
            return finished.value


@pytest.fixture
def graph_on_the_cpu(monkeypatch):
    """A capture that replays by running the body again: the graph step's loop, on the CPU."""
    monkeypatch.setattr(capture, "cuda_graph", lambda body, device: body)


@pytest.mark.parametrize("config", CASES, ids=lambda c: f"{c.problem}-{c.optimizer}")
def test_the_graph_loop_gives_the_eager_losses_bit_for_bit(config, graph_on_the_cpu):
    # The same kernels in the same order: equal, not close. The warm-up steps are rewound, not counted.
    path = config.problem in ("tutorial", "line")
    eager = _run(config, path=path)
    graph = _run(dataclasses.replace(config, step="graph"), path=path)
    assert graph.epochs_run == eager.epochs_run == config.epochs and graph.status == COMPLETED
    assert graph.losses.tobytes() == eager.losses.tobytes()
    if eager.accuracies is not None:
        np.testing.assert_array_equal(graph.accuracies, eager.accuracies)
    if path:
        np.testing.assert_array_equal(graph.path, eager.path)
    for a, b in zip(graph.model.parameters(), eager.model.parameters(), strict=True):
        assert torch.equal(a, b)
    assert graph.compile_seconds > 0  # the capture, before the clock


def test_a_graph_run_pauses_steps_and_stops_at_exact_epochs(graph_on_the_cpu):
    config = TrainingConfig(step="graph", epochs=1000)
    control = RunControl()
    control.pause_after(100)  # not a multiple of the replay's epochs
    seen = []

    def on_pause(epochs, model):
        seen.append(epochs)
        if len(seen) < 3:
            control.step()  # one epoch, then hold again
        else:
            control.stop()

    result = _run(config, control=control, on_pause=on_pause)
    assert EPOCHS_PER_REPLAY < 100 and 100 % EPOCHS_PER_REPLAY
    assert seen == [100, 101, 102] and result.status == STOPPED and result.epochs_run == 102
    assert result.losses.tobytes() == _run(TrainingConfig(epochs=102)).losses.tobytes()


def test_a_remainder_runs_in_the_one_epoch_graph(graph_on_the_cpu):
    config = TrainingConfig(step="graph", epochs=EPOCHS_PER_REPLAY * 2 + 5)
    result = _run(config)
    assert result.epochs_run == config.epochs
    assert result.losses.tobytes() == _run(dataclasses.replace(config, step="eager")).losses.tobytes()


def test_what_cannot_be_captured_is_refused_with_the_reason():
    with pytest.raises(StepRefused, match="captures a CUDA graph, and cpu has none: use compiled or eager"):
        check(TrainingConfig(step="graph"))
    with pytest.raises(StepRefused, match="captures the full batch"):
        check(TrainingConfig(device="cuda:0", step="graph", problem="line", samples=1000, batch_size=100))
    with pytest.raises(StepRefused, match="GradScaler reads its overflow check back"):
        check(TrainingConfig(device="cuda:0", step="graph", precision="fp16"))
    check(TrainingConfig(device="cuda:0", step="graph", problem="line", samples=1000, batch_size=1000))
    with pytest.raises(StepRefused, match="cpu has none"):
        train(TrainingConfig(step="graph"))  # never a silent fall back to eager


def test_the_command_line_refuses_a_graph_by_its_option():
    out = gpudemo("train", "--device", "cpu", "--step", "graph")
    assert out.returncode == 2 and "argument --step: the graph step captures a CUDA graph" in out.stderr
    assert "Traceback" not in out.stderr
    out = gpudemo("parallel", "--workers", "2", "--step", "graph")
    assert out.returncode == 2 and "argument --step:" in out.stderr and "all-reduce" in out.stderr
    out = gpudemo("profile", "--device", "cpu", "--step", "sideways")
    assert out.returncode == 2 and "step mode must be one of eager, compiled, graph" in out.stderr


def test_compare_runs_each_mode_and_marks_a_graph_on_the_cpu_refused():
    out = gpudemo("compare", "--device", "cpu", "--step", "eager", "--step", "graph", "--epochs", "20", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [(row["device"], row["step"], row["status"]) for row in rows] == [
        ("cpu", "eager", "completed"),
        ("cpu", "graph", "refused"),
    ]
    assert "cpu has none" in rows[1]["message"] and rows[0]["speedup_vs_cpu"] == 1.0


def test_a_sweep_says_the_mode_of_each_row_and_takes_one_mode_at_a_time():
    out = gpudemo("sweep", "--device", "cpu", "--max-size", "100", "--step", "graph", "--json")
    assert out.returncode == 2 and "the graph step captures a CUDA graph, and cpu has none" in out.stderr
    from gpudemo.core.measure.sweep import check_sweep

    check_sweep("step", TrainingConfig(step="graph"), ["cuda:0"])  # a GPU can: the CPU runs eager beside it
    with pytest.raises(StepRefused, match="cpu has none"):
        check_sweep("step", TrainingConfig(step="graph"), ["cpu"])  # nothing could: refused, never eager instead
    # in a child: the compiler's thread pool stays out of the test process
    out = gpudemo("sweep", "--device", "cpu", "--max-size", "100", "--step", "compiled", "--json", module=True)
    assert out.returncode == 0 and {row["step"] for row in json.loads(out.stdout)["rows"]} == {"compiled"}
    out = gpudemo("sweep", "--device", "cpu", "--step", "eager", "--step", "compiled")
    assert out.returncode == 2 and "one step mode at a time" in out.stderr


def test_the_profile_compares_the_modes_and_refuses_a_graph_on_the_cpu(monkeypatch):
    monkeypatch.setattr(torch, "compile", lambda step, **options: step)  # the compiler stays out of this process
    out = gpudemo("profile", "--device", "cpu", "--compare-steps", "--steps", "20", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [row["step"] for row in rows] == ["eager", "compiled", "graph"]
    assert rows[2]["status"] == "refused" and "cpu has none" in rows[2]["message"]
    for row in rows[:2]:
        per_step = row["per_step"]
        assert per_step["launches"] == per_step["kernels"] > 0  # on the CPU, each operator is its own launch
        assert per_step["host_us_per_launch"] == pytest.approx(per_step["cpu_us"] / per_step["launches"])
        assert 0 < per_step["busy_share"] <= 1 and row["timeline"] is not None


def test_the_scripts_write_each_mode():
    compiled = generate_script(TrainingConfig(step="compiled")).text
    assert "def train_step(x, y):" in compiled and "grad_and_value(loss_and_outputs, has_aux=True)" in compiled
    assert "train_step = torch.compile(train_step, fullgraph=True, dynamic=False, mode=mode)" in compiled
    assert "    loss = train_step(x_train, y_train)" in compiled and "optimizer = " not in compiled
    split = generate_script(TrainingConfig(device="cuda:0", step="compiled", precision="fp16")).text
    assert "train_step = torch.compile(train_step, mode=mode)" in split  # fp16's scaler: compiled in regions
    graph = generate_script(TrainingConfig(device="cuda:0", step="graph", optimizer="adam", lr=0.01)).text
    for line in (
        "optimizer.zero_grad(set_to_none=False)",
        "side.wait_stream(torch.cuda.current_stream())",
        "with torch.cuda.graph(graph):",
        f"losses = torch.empty({EPOCHS_PER_REPLAY}, device=device)",
        "    graph.replay()  # one launch for all its epochs",
        "torch.optim.Adam(model.parameters(), lr=0.01, capturable=True)",
    ):
        assert line in graph
    assert 'device = torch.device("cuda:0")' in graph and 'else "cpu"' not in graph  # no fall back: it needs CUDA
    on_the_cpu = generate_script(TrainingConfig(step="graph")).text  # the Code panel, a CPU picked
    assert 'device = torch.device("cuda")' in on_the_cpu and "only a CUDA GPU has" in on_the_cpu
    bf16 = generate_script(TrainingConfig(device="cuda:0", step="graph", precision="bf16")).text
    assert "dtype=torch.bfloat16, cache_enabled=False" in bf16
    compile(graph, "gpudemo_run.py", "exec")


def _child(code: str) -> dict:
    """Run `code` in a child (the compiler's threads and processes stay out of the test process): its JSON."""
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # a compile per problem: about a minute on this 2-core machine
def test_a_compiled_step_trains_the_eager_numbers_on_every_problem():
    # Inductor fuses: the MSE's mean, a cross-entropy, Adam's update each become one kernel with another
    # order of the same additions, so the losses agree to float32's rounding, not bit for bit. The first
    # epoch's loss (one forward) within 1e-6; over 50 epochs the rounding compounds, within 5e-5.
    found = _child(
        """
        import dataclasses, json
        import numpy as np
        from gpudemo.core.settings.config import TrainingConfig
        from gpudemo.core.training import train
        report = {}
        for problem, optimizer, batch in [("tutorial", "sgd", 0), ("line", "momentum", 0), ("sine", "adam", 0),
                                          ("circles", "adam", 0), ("spiral", "momentum", 0), ("digits", "sgd", 0),
                                          ("line", "sgd", 300)]:
            config = TrainingConfig(problem=problem, optimizer=optimizer, lr=0.01 if optimizer == "adam" else 0.05,
                                    samples=1000, batch_size=batch, epochs=50)
            eager, compiled = train(config), train(dataclasses.replace(config, step="compiled"))
            relative = np.abs(compiled.losses - eager.losses) / np.abs(eager.losses)
            report[f"{problem}-{optimizer}-{batch}"] = [float(relative[0]), float(relative.max()),
                                                        compiled.recompiles, compiled.epochs_run]
        # Run after run in one process (a window's day): each one compiled, none left to run uncompiled
        # once torch's cache of graphs for the step's code is full (the 8th, before each run started afresh).
        from gpudemo.core.training import compiled_graphs
        built = []
        for run in range(10):
            before = compiled_graphs()
            train(TrainingConfig(step="compiled", epochs=5, lr=0.05 + run / 1000))
            built.append(compiled_graphs() - before)
        print(json.dumps({"runs": report, "built": built}))
        """
    )
    assert all(graphs > 0 for graphs in found["built"]), found["built"]
    for case, (first, most, recompiles, epochs) in found["runs"].items():
        assert first <= 1e-6 and most <= 5e-5, case
        assert recompiles == 0 and epochs == 50, case


@pytest.mark.slow
def test_the_compiled_script_prints_the_core_s_final_loss():
    config = TrainingConfig(problem="line", samples=100, epochs=30, step="compiled")
    found = _child(
        """
        import contextlib, io, json
        from gpudemo.core.settings.config import TrainingConfig
        from gpudemo.core.outputs.script import generate_script
        config = TrainingConfig(problem="line", samples=100, epochs=30, step="compiled")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(generate_script(config).text, "gpudemo_run.py", "exec"), {"__name__": "__main__"})
        line = next(line for line in out.getvalue().splitlines() if line.startswith("final loss"))
        print(json.dumps({"loss": float(line.split()[-1])}))
        """
    )
    assert found["loss"] == pytest.approx(train(dataclasses.replace(config, step="eager")).final_loss, rel=1e-5)


@pytest.mark.cuda
@pytest.mark.parametrize("config", CASES, ids=lambda c: f"{c.problem}-{c.optimizer}")
def test_a_captured_graph_trains_the_eager_numbers_on_a_gpu(config):
    config = dataclasses.replace(config, device="cuda:0")
    eager, graph = train(config), train(dataclasses.replace(config, step="graph"))
    assert graph.epochs_run == eager.epochs_run and graph.status == COMPLETED
    # SGD and momentum: eager's kernels in eager's order. Adam: the graph builds it capturable, another branch
    # of torch's Adam (its bias corrections on the GPU in float32, the update reordered), while eager's are
    # Python floats: 1-2e-5 apart over 150-2,000 epochs (measured on the CPU with both branches).
    rtol = ADAM_RTOL if config.optimizer == "adam" else 1e-6
    np.testing.assert_allclose(graph.losses, eager.losses, rtol=rtol)


@pytest.mark.cuda
def test_the_graph_script_runs_on_a_gpu_and_prints_the_core_s_loss():
    import contextlib
    import io

    config = TrainingConfig(device="cuda:0", step="graph", epochs=EPOCHS_PER_REPLAY * 2 + 3)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(generate_script(config).text, "gpudemo_run.py", "exec"), {"__name__": "__main__"})
    line = next(line for line in out.getvalue().splitlines() if line.startswith("final loss"))
    assert float(line.split()[-1]) == pytest.approx(train(config).final_loss, rel=1e-6)


@pytest.mark.cuda
def test_a_graph_replay_is_one_launch_for_its_epochs():
    from gpudemo.core.measure.profile import profile_steps

    eager = profile_steps(TrainingConfig(device="cuda:0"), steps=EPOCHS_PER_REPLAY)
    graph = profile_steps(TrainingConfig(device="cuda:0", step="graph"), steps=EPOCHS_PER_REPLAY)
    assert graph.launches < 1 < eager.launches  # a replay (and a copy of the losses) for 64 epochs
    assert graph.kernels >= eager.kernels * 0.9  # the same kernels, run from the graph


@pytest.mark.cuda
@pytest.mark.parametrize("optimizer", ["sgd", "momentum", "adam"])
def test_the_compiled_step_is_one_cuda_graph_replay_a_step_with_eagers_losses(optimizer):
    # reduce-overhead replays the one graph (forward, loss, gradients, update) as one CUDA graph: at most a
    # replay and the loss's copy a step, not a graph per region with Python between them
    found = _child(
        f"""
        import json
        import numpy as np
        from gpudemo.core.settings.config import TrainingConfig
        from gpudemo.core.measure.profile import profile_steps
        from gpudemo.core.training import train
        config = TrainingConfig(device="cuda:0", problem="line", samples=1000, epochs=200,
                                optimizer="{optimizer}", lr=0.01)
        eager, compiled = train(config), train(config.__class__(**{{**config.__dict__, "step": "compiled"}}))
        profile = profile_steps(config.__class__(**{{**config.__dict__, "step": "compiled"}}), steps=64)
        print(json.dumps({{"launches": profile.launches, "worst": float(np.max(np.abs(compiled.losses - eager.losses))),
                          "recompiles": compiled.recompiles}}))
        """
    )
    assert found["launches"] <= 2 and found["recompiles"] == 0, found
    assert found["worst"] <= 1e-4, found
