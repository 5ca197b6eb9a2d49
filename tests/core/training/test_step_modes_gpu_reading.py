"""What a reading of the step modes against torch 2.11's sources predicted for their first GPU, fixed and
pinned here on the CPU (fakes where a GPU is needed): ../shared/reviews/cuda-reading-2026-12-05b.md."""

import dataclasses
import threading

import pytest
import torch

from gpudemo.core import training
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import capture, compiled
from gpudemo.core.step import step as step_module
from gpudemo.core.training import LoopOptions, train
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.loop import _run_training
from tests.core.training.test_step_modes import _child, unchecked


def _identity_compile(monkeypatch, mode=None):
    monkeypatch.setattr(torch, "compile", lambda fn, **options: fn)  # the compiler stays out of this process
    if mode is not None:
        monkeypatch.setattr(step_module, "compile_mode", lambda device, module=None: mode)


# 1. CUDA-graph trees in any thread -------------------------------------------------------------------------


def test_the_cuda_graph_trees_state_is_made_in_each_thread_that_compiles(monkeypatch):
    compiled.load_compiler()
    from torch._inductor import cudagraph_trees as trees

    seen = []

    def in_a_fresh_thread():
        compiled.cudagraph_trees_in_this_thread()
        seen.append((hasattr(trees.local, "tree_manager_containers"), type(trees.get_container(0)).__name__))

    for _ in range(2):  # two jobs, two threads: each gets the trees' state, as the importing thread has it
        thread = threading.Thread(target=in_a_fresh_thread)
        thread.start()
        thread.join()
    assert seen == [(True, "TreeManagerContainer")] * 2
    calls = []
    monkeypatch.setattr(step_module, "cudagraph_trees_in_this_thread", lambda: calls.append(1))
    _identity_compile(monkeypatch, "reduce-overhead")
    train(TrainingConfig(device="cpu", step="compiled", epochs=2))
    assert calls == [1]  # made before every reduce-overhead compile (torch 2.11 asserts without it)


# 2. The graph step's Adam is capturable Adam --------------------------------------------------------------


def test_capturable_adam_is_close_to_eagers_but_not_bit_for_bit(monkeypatch):
    # The graph step builds Adam capturable (bias corrections on the device, in float32, another order);
    # eager does not. On the CPU with both branches: close, within the cuda tests' ADAM_RTOL, not equal.
    from torch.optim import adam

    from tests.core.training.test_step_modes import ADAM_RTOL

    monkeypatch.setattr(adam, "_get_capturable_supported_devices", lambda supports_xla=True: ["cpu", "cuda"])
    torch.manual_seed(0)
    x, y = torch.randn(64, 1), torch.randn(64, 1)
    losses = {}
    for capturable in (False, True):
        torch.manual_seed(0)
        model = torch.nn.Linear(1, 1)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01, capturable=capturable, foreach=True)
        run = []
        for _ in range(150):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            run.append(loss.item())
        losses[capturable] = torch.tensor(run, dtype=torch.float64)
    worst = ((losses[True] - losses[False]).abs() / losses[False].abs()).max().item()
    assert 0 < worst < ADAM_RTOL


# 3. The capture on the run's own device -------------------------------------------------------------------


def test_a_capture_on_a_gpu_that_is_not_the_current_one_is_made_on_that_gpu(monkeypatch):
    devices = []

    class Fake:
        def __init__(self, *args, device=None, **kwargs):
            self.device = None if device is None else str(device)
            devices.append((type(self).__name__, self.device))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def replay(self):
            return None

        def wait_stream(self, other):
            return None

    class Stream(Fake):
        pass

    class CUDAGraph(Fake):
        pass

    class Device(Fake):
        def __init__(self, device):
            devices.append(("current device", str(device)))

    class Capturing(Fake):
        def __init__(self):
            pass

    def graph(cuda_graph, stream=None, capture_error_mode="global"):
        devices.append(("captured on a stream of", stream.device if stream is not None else "the default stream"))
        return Capturing()

    monkeypatch.setattr(torch.cuda, "Stream", Stream)
    monkeypatch.setattr(torch.cuda, "CUDAGraph", CUDAGraph)
    monkeypatch.setattr(torch.cuda, "graph", graph)
    monkeypatch.setattr(torch.cuda, "device", Device)
    replay = capture.cuda_graph(lambda: None, torch.device("cuda:1"))
    assert devices[:4] == [("CUDAGraph", None), ("current device", "cuda:1"), ("Stream", "cuda:1"),
                           ("captured on a stream of", "cuda:1")]  # fmt: skip
    assert replay is not None


# 4. Nothing of a compiled run left after it ---------------------------------------------------------------


def test_a_compiled_run_leaves_no_compiled_code_behind():
    # In a child: the compiler's threads and processes stay out of the test process.
    found = _child(
        """
        import gc, json
        from torch._inductor.output_code import CompiledFxGraph
        from gpudemo.core.step import compiled
        from gpudemo.core.settings.config import TrainingConfig
        from gpudemo.core.training import train
        before = compiled.installed()
        for optimizer in ("sgd", "adam"):
            train(TrainingConfig(device="cpu", step="compiled", epochs=3, optimizer=optimizer))
        gc.collect()
        live = sum(isinstance(o, CompiledFxGraph) for o in gc.get_objects())
        print(json.dumps({"left": sorted(n for _, n in compiled.installed() - before), "graphs": live}))
        """
    )
    assert found == {"left": [], "graphs": 0}  # were 8 globals and 4 compiled graphs after two runs


# 5. Nothing compiled or recorded inside the clock ---------------------------------------------------------


@pytest.mark.slow  # three compiles in a child: ~20 s here
def test_the_compiled_warm_up_goes_on_until_a_round_compiles_nothing():
    found = _child(
        """
        import json
        from gpudemo.core import training
        from gpudemo.core.settings.config import TrainingConfig
        real, report = training.PreparedRun.prepare_step, {}

        def watching(run, with_path):
            take, calls = run.train_step, []
            def counted(x, y):
                graphs = training.compiled_graphs()
                result = take(x, y)
                calls.append(training.compiled_graphs() - graphs)
                return result
            run.train_step = counted
            try:
                return real(run, with_path)
            finally:
                run.train_step = take
                report[run.config.optimizer] = calls

        training.PreparedRun.prepare_step = watching
        for optimizer in ("sgd", "momentum", "adam"):
            result = training.train(TrainingConfig(device="cpu", step="compiled", optimizer=optimizer, epochs=5))
            report[optimizer + " recompiles"] = result.recompiles
        print(json.dumps(report))
        """
    )
    for optimizer in ("sgd", "momentum", "adam"):  # momentum compiled a graph more on its 2nd call: warmed past it
        assert found[optimizer][-2:] == [0, 0] and found[optimizer + " recompiles"] == 0, found


# 6. The full batch static, the outputs copied only where read ---------------------------------------------


def test_a_full_batch_is_the_cuda_graphs_own_input_and_unread_outputs_are_not_copied(monkeypatch):
    marked = []
    monkeypatch.setattr(torch._dynamo, "mark_static_address", lambda tensor, guard=False: marked.append(tensor))
    _identity_compile(monkeypatch, "reduce-overhead")
    monkeypatch.setattr(torch.compiler, "cudagraph_mark_step_begin", lambda: None)
    train(TrainingConfig(device="cpu", step="compiled", problem="line", samples=100, epochs=2))
    # the weight and bias, updated in place in the one graph, then the full batch
    assert [tuple(t.shape) for t in marked] == [(1, 1), (1,), (100, 1), (100, 1)]
    marked.clear()
    train(TrainingConfig(device="cpu", step="compiled", problem="line", samples=100, batch_size=30, epochs=2))
    assert [tuple(t.shape) for t in marked] == [(1, 1), (1,)]  # minibatches are indexed copies: not marked
    outputs = torch.ones(3)
    take = step_module.Step._with_mark(lambda x, y: (outputs, torch.tensor(1.0)), keep_outputs=False)
    assert take(None, None)[0].data_ptr() == outputs.data_ptr()
    take = step_module.Step._with_mark(lambda x, y: (outputs, torch.tensor(1.0)), keep_outputs=True)
    assert take(None, None)[0].data_ptr() != outputs.data_ptr()


# 7. The graph step's work in flight bounded by time -------------------------------------------------------


def test_a_graph_run_queues_no_more_epochs_than_the_device_runs_in_a_flush_interval(monkeypatch):
    monkeypatch.setattr(capture, "cuda_graph", lambda body, device: body)
    now = [0.0]
    monkeypatch.setattr(training.loop.time, "perf_counter", lambda: now[0])  # the host sees no time pass...

    class SlowDevice(LossHistory):
        def extend(self, values):  # ...until a read-back waits for the device: 10 ms an epoch
            now[0] += 0.010 * len(values)
            return super().extend(values)

    config = TrainingConfig(problem="line", samples=50, step="graph", epochs=1000)
    sizes = [
        len(batch.losses)
        for batch in _run_training(unchecked(config), LoopOptions(history=SlowDevice(1000), fit=False))
    ]
    # 10 ms an epoch: 0.05 s of work is 5 epochs, in one-epoch replays (8,192 epochs were queued before)
    assert sum(sizes) == 1000 and max(sizes[1:]) <= 5, sizes


# 8 and 10. Scripts for a device that is not here; no graph script for a run that would be refused ---------


def test_code_writes_a_cuda_script_on_a_machine_without_the_gpu():
    from tests.commands import gpudemo

    for step in ("eager", "compiled", "graph"):
        out = gpudemo("code", "--device", "cuda", "--step", step)
        assert out.returncode == 0 and "import torch" in out.stdout, (step, out.stderr)
        assert (
            out.stderr.count("\n") == 1 and "a script for a machine with a CUDA GPU, not run on this one" in out.stderr
        )
    assert 'device = torch.device("cuda:1")' in gpudemo("code", "--device", "cuda:1", "--step", "graph").stdout
    for refused, says in ((["--precision", "fp16"], "fp16's GradScaler"), (["--batch-size", "2"], "minibatch")):
        out = gpudemo("code", "--device", "cuda", "--step", "graph", *refused)
        assert out.returncode == 2 and "argument --" in out.stderr and says in out.stderr, out.stderr
    assert gpudemo("code", "--device", "mps").returncode == 2  # not a device kind gpudemo writes scripts for


# 9. The smaller ones ---------------------------------------------------------------------------------------


def test_inductors_tf32_advice_is_filtered_for_the_process():
    import warnings

    compiled.load_compiler()
    assert any(
        action == "ignore" and pattern is not None and pattern.pattern.startswith("TensorFloat32 tensor cores")
        for action, pattern, category, module, line in warnings.filters
    )


def test_a_capture_that_runs_out_of_memory_is_said_as_out_of_memory(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(training.PreparedRun, "prepare_step", out_of_memory)
    with pytest.raises(training.TrainingError, match="ran out of memory before it began"):
        train(TrainingConfig(device="cpu", step="compiled", epochs=3))


def test_the_budget_counts_a_graphs_pools():
    from gpudemo.core.training.budget import estimate

    eager = TrainingConfig(device="cuda:0", problem="line", samples=1_000_000)
    assert estimate(dataclasses.replace(eager, step="graph")).activations == 3 * estimate(eager).activations
