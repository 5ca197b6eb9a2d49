"""The second lesson's measurements taken where a GPU is (core/lessons/borrowed.py): the notebook runs with torch
alone and writes its result file; that file, read back, is checked as untrusted input."""

import json
import math
import re

import pytest

from gpudemo.core.lessons import borrowed
from gpudemo.core.lessons.borrowed import Borrowed, ResultRefused, read_result, read_result_file

H100 = {
    "format": "gpudemo-measurements",
    "version": 1,
    "device": "NVIDIA H100 80GB HBM3",
    "torch": "2.9.1+cu128",
    "date": "2026-12-05",
    "figures": {"crossover": 100000, "busy": 12.5, "doubling": 1.02, "modes": 9.5, "bf16": 14.8, "pinned": 2.1},
}


def test_a_result_round_trips():
    read = read_result(json.dumps(H100))
    assert read == Borrowed("NVIDIA H100 80GB HBM3", "2.9.1+cu128", "2026-12-05", {**H100["figures"]})
    assert read_result(json.dumps(read.to_json())) == read


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"format": "something else"}, "not the measurements notebook's result file"),
        ({"version": 2}, "of a version this gpudemo does not read"),
        ({"device": "A\x1b[2J"}, "its device must be a line of text"),
        ({"device": "x" * 500}, "at most 120 characters"),
        ({"torch": 2.9}, "its torch must be a line of text"),
        ({"date": "yesterday"}, "its date is not a date"),
        ({"figures": {"crossover": 10, "speed": 3}}, "its figures must be an object of crossover, busy"),
        ({"figures": [1, 2]}, "its figures must be an object"),
        ({"figures": {"busy": 140}}, "its figure busy must be a number from 0 to 100, or null"),
        ({"figures": {"bf16": math.inf}}, "its figure bf16 must be a number"),
        ({"figures": {"bf16": math.nan}}, "its figure bf16 must be a number"),
        ({"figures": {"modes": True}}, "its figure modes must be a number"),
        ({"figures": {"pinned": "2"}}, "its figure pinned must be a number"),
        ({"figures": {"crossover": -5}}, "its figure crossover must be a number from 1 to 1e+09"),
    ],
)
def test_a_result_that_is_not_whole_or_not_the_notebooks_is_refused_with_the_reason(change, said):
    with pytest.raises(ResultRefused, match=re.escape(said)):
        read_result(json.dumps({**H100, **change}))


def test_files_that_are_not_results_are_refused_too(tmp_path):
    for name, content, said in (
        ("a.json", b"{not json", "it is not JSON"),
        ("b.json", b"\xff\xfe\x00garbage", "it is not text"),
        ("c.json", b"[" * 100_000, "larger than 64 KiB"),
        ("d.json", json.dumps([H100]).encode(), "not the measurements notebook's result file"),
    ):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ResultRefused, match=re.escape(said)):
            read_result_file(str(tmp_path / name))
    with pytest.raises(ResultRefused, match="it cannot be read"):
        read_result_file(str(tmp_path / "missing.json"))


def test_the_notebook_is_the_measurements_script_in_cells():
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.reads(borrowed.measurements_notebook(), as_version=4)
    nbformat.validate(notebook)
    headings = [cell.source.splitlines()[0] for cell in notebook.cells if cell.cell_type == "markdown"]
    assert headings[1:7] == [
        "## 1. Where the GPU starts to win", "## 2. How busy the device is during the tutorial's step",
        "## 3. Twice the samples, twice the time?", "## 4. Capturing the step", "## 5. bfloat16 against float32",
        "## 6. Pinned against pageable memory",
    ]  # fmt: skip
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert "import gpudemo" not in code and "from gpudemo" not in code and "QUICK = False" in code
    assert notebook.metadata.accelerator == "GPU"


@pytest.mark.slow
def test_the_notebook_run_in_a_kernel_on_the_cpu_writes_a_result_the_lesson_reads(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    import torch

    notebook = nbformat.reads(borrowed.measurements_notebook(quick=True), as_version=4)
    nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    result = read_result_file(str(tmp_path / "gpudemo_measurements.json"))
    assert result.device == "CPU" and result.torch == torch.__version__
    assert set(result.figures) == set(borrowed.RANGES)
    assert result.figures["crossover"] is None and result.figures["pinned"] is None  # no GPU here
    assert 0 < result.figures["busy"] <= 100 and result.figures["doubling"] > 0 and result.figures["bf16"] > 0
