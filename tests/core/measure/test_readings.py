"""A measurement's reading: the sentences the command line prints and the window shows, made once from the
result (core/measure/readings.py)."""

from gpudemo.core.base.messages import Message
from gpudemo.core.measure import readings
from gpudemo.core.measure.profile import OpTiming, StepProfile
from gpudemo.core.measure.roofline import MEASURED, Peak, Work
from gpudemo.core.measure.sweep import SweepResult, SweepRow
from tests.commands import gpudemo

WAITING_GPU = StepProfile("cuda:0", 20, cpu_us=120.0, wall_us=140.0, device_us=30.0, kernels=9.0,
                          ops=(OpTiming("aten::addmm", 1.0, 15.0, 6.0),), on_gpu=True, waiting_us=95.0)  # fmt: skip


def test_a_gpu_waiting_for_its_host_is_read_as_too_small_a_step_and_its_unsynchronised_clock_as_too_fast():
    said = [str(sentence) for sentence in readings.profile_reading(WAITING_GPU, "line")]
    assert said[0] == "20 steps of line on cuda:0, after 5 that were not profiled."
    assert "30.0 µs of GPU work in 9 kernels" in said[1] and "95.0 µs of it the CPU waited" in said[1]
    assert said[2].startswith("The GPU computes 21% of the step and waits for the CPU the rest")
    assert "1.2× too fast" in said[3]
    assert said[4].startswith("Eager step (op by op): 0.00 launches a step")
    assert all(isinstance(sentence, Message) for sentence in readings.profile_reading(WAITING_GPU, "line"))


def test_a_compiled_profile_says_its_regions_and_breaks_apart():
    profile = StepProfile("cpu", 10, 50.0, 50.0, 40.0, 20.0, (), step="compiled", launches=20.0, regions=1.0,
                          graph_breaks=0)  # fmt: skip
    said = [str(sentence) for sentence in readings.profile_reading(profile, "tutorial")]
    assert said[-1] == "Compiled regions entered a step: 1.0; graph breaks: 0."
    assert "operator calls a step" in said[-2]  # a CPU launches nothing


def _row(device: str, size: int, seconds: float, **more) -> SweepRow:
    return SweepRow(device, size, seconds, size / seconds, **more)


def test_a_sweep_reads_its_wins_apart_from_the_roofs_the_modes_and_a_busy_machine():
    work = Work(flops=2e6, bytes=1e6)
    rows = [
        _row("cpu", 10, 1e-5, one_thread_seconds=1e-6, busy=True, work=work),
        _row("cuda:0", 10, 1e-3, step="eager"),
        _row("cpu", 1000, 1e-3, one_thread_seconds=1e-3, work=work),
        _row("cuda:0", 1000, 1e-4),
    ]
    result = SweepResult("step", "float32", rows, complete=False, peaks={"cpu": Peak(1e10, 1e9, MEASURED)})
    reading = readings.sweep_reading(result, "graph")
    assert [str(sentence) for sentence in reading.wins] == ["cuda:0 beats the CPU from 1,000 on."]
    more = [str(sentence) for sentence in reading.more]
    assert more[0].startswith("Roofline of cpu (measured here): 10 GFLOP/s at most, 1 GB/s from memory")
    assert "At 1,000 this step does 2.00 per byte and reaches 100% of the roof above it." in more[0]
    assert more[1:3] == [
        "cpu: the graph step cannot run there, so it ran eager beside the others.",
        "cuda:0: the graph step cannot run there, so it ran eager beside the others.",
    ]
    assert more[3] == "Stopped before the end."
    assert more[4].startswith("The machine was busy: the CPU's figures at 10 are too slow, 10x slower")
    assert reading.all == [*reading.wins, *reading.more]


def test_the_command_line_prints_the_readings_sentences(monkeypatch):
    from gpudemo.core.measure import profile

    monkeypatch.setattr(profile, "profile_steps", lambda config, steps: WAITING_GPU)
    out = gpudemo("profile", "--device", "cpu", "--problem", "line")
    assert out.returncode == 0, out.stderr
    for sentence in readings.profile_reading(WAITING_GPU, "line"):
        assert f"{sentence}\n" in out.stdout
