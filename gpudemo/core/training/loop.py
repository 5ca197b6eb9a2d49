"""The training loop: the tutorial's five lines, run on any device, watched from outside.

The loop yields the loss in batches (one read-back from the device per batch, not
an `.item()` per epoch, which would stall a GPU at every step) and checks a stop
request before every epoch. Whoever drives it, the command line or the window's
worker thread, sees the same numbers the tutorial's own loop computes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import replace

import torch

from gpudemo.core.base.control import COMPLETED, DIVERGED, STOPPED
from gpudemo.core.hardware.busy import OtherLoad
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import precision
from gpudemo.core.step.modes import Stopped, compiled_graphs
from gpudemo.core.training.failures import not_prepared, training_error
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.loss_grid import least_squares
from gpudemo.core.training.options import UNWATCHED, LoopOptions
from gpudemo.core.training.plan import Plan, plan_of
from gpudemo.core.training.readback import FirstBatch, Readback
from gpudemo.core.training.records import PREPARING_STEP, TO_CPU, TO_DEVICE, TRAINING, LossBatch, TrainingResult
from gpudemo.core.training.run import PreparedRun


def run_training(
    job: TrainingConfig | Plan, options: LoopOptions = UNWATCHED
) -> Generator[LossBatch, None, TrainingResult]:
    """Train as the tutorial does, yielding losses in batches; returns the TrainingResult (see _run_training).

    `job` is the run's Plan, or its settings alone, whose preflight (core/training/plan.py) comes first: a
    precision the device cannot do, a step mode the run cannot take, a run larger than the device's
    free memory are refused before anything is allocated. TF32 is set as the precision says for the
    run, and restored after. `options`: how the run is steered and what it records (core/training/options.py).
    """
    plan = plan_of(job)
    with precision.matmul_precision(plan.config.precision):
        return (yield from _run_training(plan, options))


def _run_training(plan: Plan, options: LoopOptions = UNWATCHED) -> Generator[LossBatch, None, TrainingResult]:
    """Train as the tutorial does, yielding losses in batches; returns the TrainingResult.

    Raises TrainingError when the run cannot fit on its device (before anything is allocated), runs out of
    memory or the device fails; a loss that is not finite ends the run with status DIVERGED. What the options
    ask (a pause, a path through the landscape, the fit, the accuracy) is core/training/options.py's.

    The clock (`seconds`, epochs per second) covers the epochs and the read-backs of their losses. Moving the
    model and data to the device and one warm-up step on a copy of the model (on a GPU: the one-time costs of
    a device's first step) come before it, and are reported apart, as are a compile's or a capture's seconds;
    time paused or drawing landscapes is left out. The final model's training and test accuracy (a
    classification's) are measured after the clock stops.
    """
    config = plan.config
    options = replace(options, should_stop=options.stop_asked(), **_histories(plan, options))
    on_phase = options.on_phase
    run, readback = _prepared(plan, options)
    path, history, accuracy = readback.path, readback.history, readback.accuracy
    try:
        warm_up_seconds = run.warm_up()  # ends synchronised: the clock starts on an idle, warm device
    except (RuntimeError, MemoryError) as error:
        raise training_error(config, run, error, 0) from None
    compile_seconds, graphs_before = _prepare_step(run, config, on_phase, path is not None)
    on_phase(TRAINING)
    # Other processes' load, over the timed loop alone (a compile's worker processes, before it, are this run's).
    load = OtherLoad(torch.get_num_threads()) if run.device.type == "cpu" else None
    if load is not None:
        load.__enter__()
    readback.start_clock()
    status = COMPLETED
    try:
        status = yield from _epochs(run, readback, config, options)
        if readback.pending:
            yield readback.flush(final=True)
        if readback.diverged_at is not None:
            status = DIVERGED
        seconds = time.perf_counter() - readback.start - readback.paused
        if load is not None:
            load.__exit__(None, None, None)
        recompiles = compiled_graphs() - graphs_before if run.mode.compiles else 0
        final_accuracy, test_accuracy = _final_accuracy(run) if accuracy is not None else (None, None)
        on_phase(TO_CPU)
        model = run.model.to("cpu")
    except (RuntimeError, MemoryError) as error:
        failure = error
    else:
        failure = None
    if failure is not None:  # nothing lost: the epochs done before the fault keep their losses
        salvaged = readback.salvage()
        if salvaged is not None:
            yield salvaged
        raise training_error(config, run, failure, history.count) from None
    to_device_seconds = run.to_device_seconds
    run.release(options.keep_cache)
    return TrainingResult(
        status,
        config,
        model,
        history.values,
        seconds,
        readback.diverged_at,
        path.points if path is not None else None,
        to_device_seconds,
        warm_up_seconds,
        accuracy.values if accuracy is not None else None,
        final_accuracy,
        test_accuracy,
        compile_seconds,
        recompiles,
        load is not None and load.busy,
    )


def _final_accuracy(run: PreparedRun) -> tuple[float, float | None]:
    """A classification's final model on the training data and (where there is one) the test set, after the
    clock."""
    test = run.accuracy(run.x_test, run.y_test) if run.x_test is not None else None
    return run.accuracy(run.x_train, run.y_train), test


def _histories(plan: Plan, options: LoopOptions) -> dict[str, LossHistory | None]:
    """The run's loss history, and a classification's accuracy history: new ones, or empty ones given."""
    config, history, accuracy = plan.config, options.history, options.accuracy
    if history is None:
        history = LossHistory(config.epochs)
    elif history.count or history.capacity < config.epochs:
        raise ValueError(f"pass an empty history with room for {config.epochs} epochs")
    if not plan.problem.classes:
        accuracy = None
    elif accuracy is None:
        accuracy = LossHistory(config.epochs)
    elif accuracy.count or accuracy.capacity < config.epochs:
        raise ValueError(f"pass an empty accuracy history with room for {config.epochs} epochs")
    return {"history": history, "accuracy": accuracy}


def _prepared(plan: Plan, options: LoopOptions) -> tuple[PreparedRun, Readback]:
    """The run on its device, and its read-back with what rides on the first batch (the data, the path's
    start and its first landscape); a failure ends as a TrainingError, what was made freed."""
    run, path = None, options.path
    try:
        options.on_phase(TO_DEVICE)
        run = PreparedRun(plan, options.should_stop)
        data = run.data_sample() if options.fit else None
        landscape = minimum = None
        if run.plane is None:
            path = None
        if path is not None:
            path.extend(run.position().reshape(1, 2).to("cpu", torch.float32).numpy())
            minimum = least_squares(run.x_train, run.y_train)
            landscape = run.landscape(path, minimum)
    except Exception as error:  # a device fails to start in many ways ("Torch not compiled with CUDA" is an assert)
        raise training_error(plan.config, run, error, 0) from None
    return run, Readback(run, replace(options, path=path), FirstBatch(data, landscape, minimum))


def _prepare_step(
    run: PreparedRun, config: TrainingConfig, on_phase: Callable[[str], None], with_path: bool
) -> tuple[float, int]:
    """Compile or capture the step before the clock: (its seconds, the graphs torch.compile had built)."""
    if not run.mode.prepares:
        return 0.0, 0
    on_phase(PREPARING_STEP)
    began = time.perf_counter()
    try:
        return run.prepare_step(with_path), compiled_graphs() if run.mode.compiles else 0
    except Stopped:  # stopped between two compiles: the loop sees the stop before its first epoch
        return time.perf_counter() - began + run.step.setup_seconds, compiled_graphs()
    except (MemoryError, torch.cuda.OutOfMemoryError) as error:  # a graph's pools, say: not the mode's fault
        raise training_error(config, run, error, 0) from None
    except Exception as error:  # no compiler, an unsupported platform or model: say so, plainly
        run.release()
        raise not_prepared(config, error) from None


def _epochs(
    run: PreparedRun, readback: Readback, config: TrainingConfig, options: LoopOptions
) -> Generator[LossBatch, None, str]:
    """The epochs, each checked for a pause and a stop before it, read back in batches; how the loop ended
    (COMPLETED, or STOPPED; a divergence is the read-back's to say). The stop is asked once an epoch: before the
    first, then as each epoch ends, so that a stop's batch is read back as the final one (the stopped model's fit
    on it), and once more after a hold."""
    history, control, on_pause = readback.history, options.control, options.on_pause
    stop = options.should_stop()
    while readback.done < config.epochs:
        if stop:
            return STOPPED
        done = readback.done
        if control is not None and control.is_paused(done):
            if readback.pending:  # the plot shows every epoch up to the pause
                yield readback.flush(final=True)
                if readback.diverged_at is not None:
                    return COMPLETED
            if on_pause is not None:
                on_pause(history.count, run.snapshot())
            readback.paused += control.wait()
            readback.next_flush = time.perf_counter()  # a step's epoch comes back at once
            if options.should_stop():
                return STOPPED
        left = config.epochs - done  # as many epochs as may run before the next check (a graph: in one launch)
        most = left if control is None else control.epochs_before_hold(done, left)
        most = min(most, max(1, readback.in_flight - readback.pending_epochs))  # slow epochs: one at a time
        try:
            readback.add(*run.mode.advance(run, most))
        except Stopped:
            return STOPPED
        stop = options.should_stop()
        if readback.due() or stop:  # the last epoch's batch, or a stop's, is the final one: the model's fit on it
            batch = readback.flush(final=stop or readback.done >= config.epochs)
            yield batch
            if readback.diverged_at is not None:
                return COMPLETED
            readback.flushed(batch)
    return COMPLETED


def train(
    job: TrainingConfig | Plan,
    options: LoopOptions = UNWATCHED,
    on_batch: Callable[[LossBatch], None] | None = None,
) -> TrainingResult:
    """Run `run_training` to the end, handing each batch of losses to `on_batch`."""
    run = run_training(job, options)
    while True:
        try:
            batch = next(run)
        except StopIteration as finished:
            return finished.value
        if on_batch is not None:
            on_batch(batch)
