"""The generated script, run as a learner would run it, prints what gpudemo computes."""

import ast
import dataclasses
import itertools
import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from gpudemo.core.outputs.script import generate_script
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.training import PREDICTING, TO_CPU, TO_DEVICE, TRAINING, train
from gpudemo.core.training.prediction import classify, predict
from tests.commands import gpudemo

RUNNER = """
import contextlib, io, json, sys
outputs = []
for text in json.load(sys.stdin):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text, "gpudemo_run.py", "exec"), {"__name__": "__main__"})
    outputs.append(printed.getvalue())
print(json.dumps(outputs))
"""


def _parse(stdout: str) -> dict:
    printed = {"predict": [], "classify": []}
    for line in stdout.splitlines():
        key, *values = line.split()
        if key == "predict" and values[0].startswith("["):
            printed["recognised"] = ast.literal_eval(line[len("predict ") : line.index(" true ")])
        elif key == "classify":
            printed["classify"].append(
                ((float(values[0]), float(values[1])), int(values[3]), [float(v) for v in values[5:]])
            )
        elif key == "accuracy":
            printed["accuracy"] = float(values[0])
        elif key == "test":
            printed["test_accuracy"] = float(values[1])
        elif key == "predict":
            printed["predict"].append(tuple(map(float, values)))
        elif key == "final":
            printed["final_loss"] = float(values[-1])
        elif key == "weight":
            printed["weight"], printed["bias"] = float(values[0]), float(values[2])
        elif key == "parameters":
            printed["parameters"] = float(values[0])
        elif key == "device":
            printed["device"] = values[0]
    return printed


def run_scripts(texts: list[str]) -> list[dict]:
    """Run each script as `python script.py` would, all in one fresh Python (torch is imported once)."""
    out = subprocess.run(
        [sys.executable, "-c", RUNNER], input=json.dumps(texts), capture_output=True, text=True, timeout=600, check=True
    )
    return [_parse(stdout) for stdout in json.loads(out.stdout)]


def run_script(text: str) -> dict:
    return run_scripts([text])[0]


def assert_script_matches(config: TrainingConfig, values: list, printed: dict) -> None:
    result = train(config)
    problem = PROBLEMS[config.problem]
    if problem.classes:
        assert_classifier_matches(result, values, printed)
        return
    assert printed["device"] == "cpu"
    if result.status == "diverged":
        assert printed["final_loss"] != printed["final_loss"] or abs(printed["final_loss"]) == float("inf")
        return
    assert abs(printed["final_loss"] - result.final_loss) <= 1e-6, config
    for name, value in result.parameters.items():
        assert abs(printed[name] - value) <= 1e-6, (config, name)
    expected = predict(result.model, values)
    assert [x for x, _ in printed["predict"]] == values
    for (_, y), want in zip(printed["predict"], expected, strict=True):
        assert abs(y - want) <= 1e-6, config


def assert_classifier_matches(result, points: list, printed: dict) -> None:
    problem, config = PROBLEMS[result.config.problem], result.config
    assert printed["device"] == "cpu"
    assert abs(printed["final_loss"] - result.final_loss) <= 1e-6, config
    assert printed["parameters"] == result.parameters["parameters"]
    assert abs(printed["accuracy"] - result.accuracy) <= 1e-6, config
    if problem.area is None:  # images: the test accuracy and ten recognised test images
        x_test, y_test = problem.make_test_data(config)
        assert abs(printed["test_accuracy"] - result.test_accuracy) <= 1e-6, config
        assert printed["recognised"] == classify(result.model, x_test[:10]).argmax(1).tolist()
        return
    expected = classify(result.model, points)
    assert [point for point, *_ in printed["classify"]] == points
    for (_, label, probabilities), want in zip(printed["classify"], expected, strict=True):
        assert label == int(want.argmax())
        assert max(abs(p - q) for p, q in zip(probabilities, want.tolist(), strict=True)) <= 1e-6, config


SETTINGS = [  # (epochs, lr, seed, values): the tutorial's, a longer one, one epoch, a diverging one
    (100, 0.1, 0, [4.0]),
    (250, 0.03, 7, [4.0, -1.5, 10.0]),
    (1, 1e-3, 123456789, [0.0]),
    (20, 100.0, 1, [4.0]),  # diverges: the script prints inf or nan, as gpudemo does
]
# Every problem x optimizer x batch setting: the full batch, minibatches with a ragged last
# one, and a batch larger than the data (which is the full batch).
MATRIX = [
    TrainingConfig(
        problem=problem,
        optimizer=optimizer,
        batch_size=batch,
        samples=50,
        width=8,
        depth=2,
        epochs=30,
        lr=0.01 if optimizer == "adam" else 0.05,
        seed=3,
    )
    for problem in PROBLEMS
    for optimizer in OPTIMIZERS
    for batch in (0, 16, 64)
]


def test_the_tutorials_script_prints_what_gpudemo_computes():
    configs = [TrainingConfig(epochs=e, lr=lr, seed=seed) for e, lr, seed, _ in SETTINGS]
    printed = run_scripts([generate_script(c, v).text for c, (*_, v) in zip(configs, SETTINGS, strict=True)])
    for config, (*_, values), out in zip(configs, SETTINGS, printed, strict=True):
        assert_script_matches(config, values, out)


def _inputs(config: TrainingConfig) -> list:
    problem = PROBLEMS[config.problem]
    if not problem.classes:
        return [0.5, -2.0]
    return [(0.5, -2.0), (1.0, 0.25)] if problem.area is not None else []


def test_every_problem_optimizer_and_batch_setting_has_a_script_that_reproduces_the_run():
    printed = run_scripts([generate_script(config, _inputs(config)).text for config in MATRIX])
    for config, out in zip(MATRIX, printed, strict=True):
        assert_script_matches(config, _inputs(config), out)


@pytest.mark.parametrize(
    "device, fallback",
    [
        ("cpu", None),
        ("cuda:0", "torch.cuda.is_available()"),
        ("cuda:1", "torch.cuda.is_available() and torch.cuda.device_count() > 1"),
        ("mps", "torch.backends.mps.is_available()"),
    ],
)
def test_the_device_line_falls_back_to_the_cpu(device, fallback):
    text = generate_script(TrainingConfig(device=device)).text
    ast.parse(text)
    lines = text.splitlines()
    device_line = next(line for line in lines if line.startswith("device = "))
    assert f'"{device}"' in device_line
    if fallback:
        assert f"has_gpu = {fallback}" in lines
        assert device_line == f'device = torch.device("{device}" if has_gpu else "cpu")'


@pytest.mark.parametrize("count, chosen", [(1, "cpu"), (2, "cuda:1")])
def test_the_script_for_a_second_gpu_runs_on_the_cpu_where_there_is_one_gpu(count, chosen):
    lines = generate_script(TrainingConfig(device="cuda:1")).text.splitlines()
    device_lines = [line for line in lines if line.startswith(("has_gpu = ", "device = "))]
    cuda = SimpleNamespace(is_available=lambda: True, device_count=lambda: count)
    namespace = {"torch": SimpleNamespace(cuda=cuda, device=str)}
    exec("\n".join(device_lines), namespace)
    assert namespace["device"] == chosen


def test_each_phase_spans_its_own_code():
    script = generate_script(TrainingConfig(epochs=10), [4.0, 5.0])
    lines = script.text.splitlines()

    def code(phase):
        return "\n".join(lines[i] for i in script.lines(phase))

    assert ".to(device)" in code(TO_DEVICE) and "torch.manual_seed(0)" in code(TO_DEVICE)
    assert "for epoch in range(10):" in code(TRAINING) and "loss.backward()" in code(TRAINING)
    assert 'model.to("cpu")' in code(TO_CPU)
    assert "x_test = torch.tensor([[4.0], [5.0]])" in code(PREDICTING)
    spans = [script.spans[p] for p in (TO_DEVICE, TRAINING, TO_CPU, PREDICTING)]
    assert all(first <= last for first, last in spans)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))
    assert all(lines[last].strip() for _, last in spans)


def test_the_command_line_prints_the_same_script(tmp_path):
    args = ["--epochs", "30", "--lr", "0.05", "--seed", "4", "--predict", "2", "3"]
    out = gpudemo("code", "--device", "cpu", *args)
    assert out.returncode == 0
    assert out.stdout == generate_script(TrainingConfig(epochs=30, lr=0.05, seed=4), [2.0, 3.0]).text
    target = tmp_path / "lesson.py"
    assert gpudemo("code", "--device", "cpu", *args, "-o", str(target)).returncode == 0
    assert "python lesson.py" in target.read_text()
    bad = gpudemo("code", "--lr", "-1")
    assert bad.returncode == 2 and "'-1'" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    "config",
    [
        TrainingConfig(problem="line", samples=200, epochs=30, precision="bf16"),
        TrainingConfig(
            problem="circles",
            samples=200,
            epochs=20,
            batch_size=64,
            width=8,
            optimizer="adam",
            lr=0.02,
            precision="bf16",
        ),
    ],
)
def test_a_bf16_script_trains_under_autocast_as_gpudemo_does(config):
    text = generate_script(config, _inputs(config)).text
    assert "with torch.autocast(device_type=device.type, dtype=torch.bfloat16):" in text
    assert_script_matches(config, _inputs(config), run_script(text))


def test_the_fp16_and_tf32_scripts_scale_the_loss_and_set_tf32():
    fp16 = generate_script(TrainingConfig(device="cuda:0", precision="fp16")).text
    assert "scaler = torch.amp.GradScaler(device.type)" in fp16 and "scaler.scale(loss).backward()" in fp16
    assert "scaler.step(optimizer)" in fp16 and "torch.float16" in fp16
    ast.parse(fp16)
    tf32 = generate_script(TrainingConfig(device="cuda:0", precision="tf32")).text
    assert "torch.backends.cuda.matmul.allow_tf32 = True" in tf32 and "autocast" not in tf32


# The compiled step (one graph) for every problem, each optimizer and each batch setting at least once: a
# script that crashed for every MLP (autograd's saved weights changed in place by the update) passed the
# tutorial's test alone.
COMPILED = [
    TrainingConfig(
        problem=problem,
        optimizer=optimizer,
        batch_size=batch,
        samples=50,
        width=8,
        depth=2,
        epochs=10,
        lr=0.01 if optimizer == "adam" else 0.05,
        seed=3,
        step="compiled",
    )  # fmt: skip
    for problem, (optimizer, batch) in zip(
        PROBLEMS, itertools.cycle([("sgd", 0), ("momentum", 16), ("adam", 64), ("adam", 0), ("sgd", 16)])
    )
]


@pytest.mark.slow
def test_every_problems_compiled_script_runs_and_prints_what_gpudemo_computes():
    texts = [generate_script(config, _inputs(config)).text for config in COMPILED]
    # The scripts and the app's compiled runs, each in a child of its own (a compile leaves its worker threads
    # in the process), side by side.
    app = ["import dataclasses, json, sys", "from gpudemo.core.settings.config import TrainingConfig",
           "from gpudemo.core.training import train",
           "print(json.dumps([train(TrainingConfig(**c)).final_loss for c in json.load(sys.stdin)]))"]  # fmt: skip
    children = [
        subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for code in (RUNNER, "\n".join(app))
    ]
    try:
        for child, feed in zip(children, (texts, [dataclasses.asdict(config) for config in COMPILED]), strict=True):
            child.stdin.write(json.dumps(feed))
            child.stdin.close()  # both start at once
        scripts, losses = (json.loads(child.stdout.read()) for child in children)
    finally:
        for child in children:
            child.kill()
            child.wait()
            child.stdout.close()
    for config, stdout, loss in zip(COMPILED, scripts, losses, strict=True):
        assert _parse(stdout)["final_loss"] == pytest.approx(loss, rel=5e-5), config


def test_each_step_mode_has_its_part_of_the_script():
    from gpudemo.core.outputs.script import SCRIPTED
    from gpudemo.core.step.modes import MODES

    assert list(SCRIPTED) == list(MODES)
    assert [mode.capturable for mode in SCRIPTED.values()] == [mode.captures for mode in MODES.values()]
