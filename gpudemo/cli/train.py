"""The training commands: `gpudemo devices`, `train`, `predict` and `code`."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from gpudemo.cli.arguments import resolve_config, resolve_inputs, resolve_plan
from gpudemo.cli.output import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, ProgressBar, stop_on_ctrl_c, table
from gpudemo.cli.outputs import check_outputs, write_run_outputs, written
from gpudemo.core.base import units
from gpudemo.core.base.files import write_atomically


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def run_devices(args: argparse.Namespace) -> int:
    from gpudemo.core.hardware.devices import list_devices, with_free_memory

    found = list_devices()
    # Asked for: each GPU's free memory too (a CUDA context on each, for this short process only).
    described = [with_free_memory(device) if device.kind == "cuda" else device for device in found]
    from gpudemo.core.hardware.energy import status

    energy = {device.id: status(device.id, device.pci_bus_id) for device in described}
    if args.json:
        listed = [{**device.to_json(), "energy": _energy_status(energy[device.id])} for device in described]
        print(json.dumps(listed, indent=2))
    else:
        rows = [("ID", "NAME", "MEMORY", "FREE", "DETAILS")]
        for device in described:
            if device.kind == "cuda":
                details = f"compute {device.capability[0]}.{device.capability[1]}, {device.multiprocessors} SMs"
                details += f", PCI {device.pci_bus_id}" if device.pci_bus_id else ""
            elif device.kind == "cpu":
                details = f"{device.threads} threads"
            else:
                details = ""
            rows.append(
                (
                    device.id,
                    found.label(device),
                    units.gib(device.total_memory, unknown="-"),
                    units.gib(device.free_memory, unknown="-"),
                    details,
                )
            )
        print(table(rows))
        for device in described:  # what `train --energy` can meter where
            reason = energy[device.id]
            print(
                f"energy of {device.id}: " + ("metered by its counter" if reason is None else f"not metered: {reason}")
            )
    if found.note:
        print(found.note, file=sys.stderr)
    return EXIT_OK


def _energy_status(reason) -> dict:
    return {"available": reason is None, "reason": None if reason is None else str(reason)}


def predictions_json(model, inputs: list) -> list[dict]:
    """Each prediction: {"x", "y"} for a value; {"x": [x1, x2], "class", "probabilities"} for a point."""
    from gpudemo.core.training.prediction import classify, predict

    if not inputs:
        return []
    if isinstance(inputs[0], tuple):
        probabilities = classify(model, inputs)
        return [
            {"x": list(point), "class": int(row.argmax()), "probabilities": [float(p) for p in row]}
            for point, row in zip(inputs, probabilities, strict=True)
        ]
    return [{"x": x, "y": _finite(y)} for x, y in zip(inputs, predict(model, inputs), strict=True)]


def _prediction_lines(predictions: list[dict]) -> list[str]:
    lines = []
    for item in predictions:
        if "class" in item:
            x1, x2 = item["x"]
            lines.append(
                f"classify    ({x1:g}, {x2:g})  ->  class {item['class']} ({item['probabilities'][item['class']]:.1%})"
            )
        else:
            y = item["y"]
            lines.append(
                f"predict     x = {item['x']:g}  ->  y = {y:.6g}"
                if y is not None
                else f"predict     x = {item['x']:g}  ->  y = -"
            )
    return lines


def _result_json(result, predictions: list[dict]) -> dict:
    return {
        "status": result.status,
        "device": result.config.device,
        "epochs": result.config.epochs,
        "epochs_run": result.epochs_run,
        "lr": result.config.lr,
        "seed": result.config.seed,
        "problem": result.config.problem,
        "optimizer": result.config.optimizer,
        "samples": result.config.samples,
        "width": result.config.width,
        "depth": result.config.depth,
        "batch_size": result.config.batch_size,
        "noise": result.config.noise,
        "precision": result.config.precision,
        "step": result.config.step,
        "final_loss": _finite(result.final_loss),
        "accuracy": result.accuracy,
        "test_accuracy": result.test_accuracy,
        "diverged_at": result.diverged_at,
        "parameters": {name: _finite(value) for name, value in result.parameters.items()},
        "predictions": predictions,
        "seconds": result.seconds,
        "epochs_per_second": result.epochs_per_second,
        "to_device_seconds": result.to_device_seconds,
        "warm_up_seconds": result.warm_up_seconds,
        "compile_seconds": result.compile_seconds,
        "recompiles": result.recompiles,
        "busy": result.busy,
    }


def _energy(args: argparse.Namespace, result) -> dict:
    """The run's "energy" block (core/measure/joules.py): metered after a completed run with --energy."""
    from gpudemo.core.measure.joules import energy_json
    from gpudemo.core.training import COMPLETED

    metered = args.energy and result.status == COMPLETED
    if args.energy and not args.json and sys.stderr.isatty() and metered:
        print("gpudemo: metering the step's energy (the idle power, then the step repeated for 4 s)…", file=sys.stderr)
    return energy_json(result.config, metered)


def _energy_line(energy: dict) -> str:
    if not energy["available"]:
        return f"\nenergy      not metered: {energy['reason']}"
    if not energy["measured"]:
        return "\nenergy      not metered (the run did not complete)"
    return (
        f"\nenergy      {energy['joules_per_epoch']:.3g} J/epoch,"
        f" {energy['above_idle_joules_per_epoch']:.3g} of it above idle ({energy['idle_watts']:.3g} W idle;"
        f" {energy['source']}: the step repeated {energy['repeated']} times"
        f" over {energy['seconds']:.1f} s, {energy['epochs']:,} epochs)"
    )


def _summary(result, predictions: list[dict]) -> str:
    from gpudemo.core.step.modes import mode_of

    lines = [
        f"{result.status}: {result.epochs_run:,} of {units.epochs(result.config.epochs)} on {result.config.device}"
        f" in {result.seconds:.3g} s ({result.epochs_per_second:,.0f} epochs/s)",
        f"final loss  {result.final_loss:.6g}" if result.final_loss is not None else "final loss  -",
        f"not timed   moving model and data to {result.config.device} {result.to_device_seconds * 1e3:.3g} ms,"
        f" a warm-up step {result.warm_up_seconds * 1e3:.3g} ms"
        + (
            f", {prepared}"
            if (prepared := mode_of(result.config).prepared(result.compile_seconds, result.config))
            else ""
        ),
    ]
    if result.busy:
        lines.append(
            "busy        other programs took the cores this run's threads needed: its epochs/s is too slow."
            " Close them and train again (or set OMP_NUM_THREADS=1)"
        )
    if result.accuracy is not None:
        test = f", test {result.test_accuracy:.1%}" if result.test_accuracy is not None else ""
        lines.append(f"accuracy    {result.accuracy:.1%}{test}")
    params = result.parameters
    if set(params) == {"weight", "bias"}:
        sign = "-" if params["bias"] < 0 else "+"
        lines.append(f"learned     y = {params['weight']:.6g} * x {sign} {abs(params['bias']):.6g}")
    elif "parameters" in params:
        kind = "a linear model" if result.config.depth == 0 else "an MLP"
        lines.append(f"learned     {kind} of {params['parameters']:,.0f} parameters")
    lines.extend(_prediction_lines(predictions))
    return "\n".join(lines)


def run_train(args: argparse.Namespace) -> int:
    from gpudemo.core.base.errors import TrainingError
    from gpudemo.core.training.growth import growth_warning

    try:
        plan = resolve_plan(args)
    except TrainingError as error:  # larger than the device's free memory
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    config = plan.config
    inputs = resolve_inputs(args, config, args.predict)
    # before hours of training: each output writable, and none of them the data read or another output
    check_outputs(args, ("--loss-csv", args.loss_csv), ("--save", args.save), inputs=(("--data", args.data),))

    from gpudemo.core.training import COMPLETED, DIVERGED, PREPARING_STEP, STOPPED, LoopOptions, train

    bar = ProgressBar(sys.stderr, config.epochs) if not args.json and sys.stderr.isatty() else None
    phase = [None]
    waits_for = plan.mode.interrupting()
    try:
        with stop_on_ctrl_c(lambda: str(waits_for) if phase[0] == PREPARING_STEP and waits_for else None) as stop:
            result = train(
                plan,
                LoopOptions(should_stop=stop.is_set, on_phase=lambda name: phase.__setitem__(0, name)),
                on_batch=bar and (lambda batch: bar.update(batch.last_epoch, batch.seconds)),
            )
    except TrainingError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        if bar is not None:
            bar.close()

    predictions = predictions_json(result.model, inputs)
    energy = _energy(args, result) if args.json or args.energy else None  # not read otherwise: no counter opened
    if args.json:
        print(json.dumps({**_result_json(result, predictions), "energy": energy}, indent=2), flush=True)
    else:
        print(_summary(result, predictions) + (_energy_line(energy) if args.energy else ""), flush=True)
    # after the summary: a write that fails or is interrupted still leaves what the run did on the screen
    outputs_ok = write_run_outputs(args, result)
    if result.status == DIVERGED:
        print(
            f"gpudemo: training diverged at epoch {result.diverged_at:,} (the loss stopped being a finite number);"
            f" try a smaller learning rate than {config.lr:g}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if result.status == STOPPED:
        print("gpudemo: stopped by the user", file=sys.stderr)
        return EXIT_INTERRUPTED
    assert result.status == COMPLETED
    growing = growth_warning(result.losses, config.lr)
    if growing is not None:  # completed, but its loss was not minimised
        print(f"gpudemo: warning: {growing}", file=sys.stderr)
    return EXIT_OK if outputs_ok else EXIT_FAILED


def run_predict(args: argparse.Namespace) -> int:
    from gpudemo.core.outputs.checkpoint import CheckpointError, load

    try:
        checkpoint = load(args.model)
    except CheckpointError as error:
        print(f"gpudemo: {error}", file=sys.stderr)
        return EXIT_FAILED
    config = checkpoint.config
    if checkpoint.note is not None:
        print(f"gpudemo: note: {checkpoint.note}", file=sys.stderr)
    predictions = predictions_json(checkpoint.model, resolve_inputs(args, config, args.values, "X"))
    if args.json:
        print(
            json.dumps(
                {
                    "model": str(args.model),
                    "problem": config.problem,
                    "epochs": checkpoint.epochs,
                    "predictions": predictions,
                },
                indent=2,
            )
        )
    else:
        trained = units.epochs(checkpoint.epochs)
        print(f"model       {config.problem}, {config.optimizer} at lr {config.lr:g}, {trained}")
        print("\n".join(_prediction_lines(predictions)))
    return EXIT_OK


def run_code(args: argparse.Namespace) -> int:
    """`code`: the script; `notebook`: the same script as a Jupyter notebook (core/outputs/notebook.py), or with
    --lesson the second lesson's measurements (core/lessons/borrowed.py)."""
    from gpudemo.core.base.errors import RunRefused
    from gpudemo.core.outputs.script import generate_script

    if getattr(args, "lesson", False):
        return _write_text(args, "the notebook", _lesson_notebook())
    config = resolve_config(args)
    values = resolve_inputs(args, config, args.predict)
    to_stdout = args.output in (None, "-")
    filename = "gpudemo_run.py" if to_stdout else os.path.basename(args.output)
    try:
        script = generate_script(config, values, filename=filename)
    except RunRefused as refused:  # a graph script the run itself would refuse (resolve_config checks most)
        args.parser.error(f"argument --{refused.setting}: {refused}")
    if getattr(args, "not_here", None):
        print(f"gpudemo: note: {args.not_here} is not here: a script for a machine with a CUDA GPU, not run on"
              " this one", file=sys.stderr)  # fmt: skip
    what, text = "the script", script.text
    if args.command == "notebook":
        from gpudemo.core.outputs.notebook import notebook_text

        what, text = "the notebook", notebook_text(config, script)
    return _write_text(args, what, text)


def _lesson_notebook() -> str:
    from gpudemo.core.lessons.borrowed import measurements_notebook

    return measurements_notebook()


def _write_text(args: argparse.Namespace, what: str, text: str) -> int:
    """`text` to standard output, or to --output all or nothing."""
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return EXIT_OK
    check_outputs(args, ("--output", args.output))
    written_ok = written(args.output, what, lambda path: write_atomically(path, lambda out: out.write(text)))
    return EXIT_OK if written_ok else EXIT_FAILED
