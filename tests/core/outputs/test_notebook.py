"""A run's script as a Jupyter notebook (core/outputs/notebook.py): cut where a learner reads it, valid nbformat 4,
and, run in a real kernel from the top, printing what gpudemo computes for the same settings."""

import json

import pytest

from gpudemo.core.outputs.notebook import notebook_text, script_cells
from gpudemo.core.outputs.script import generate_script
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train
from tests.commands import gpudemo

nbformat = pytest.importorskip("nbformat")


def _notebook(config: TrainingConfig, values=(4.0,)):
    return nbformat.reads(notebook_text(config, generate_script(config, values)), as_version=4)


def test_the_tutorials_notebook_is_its_script_cut_where_a_learner_reads_it():
    config = TrainingConfig()
    script = generate_script(config, (4.0,))
    notebook = _notebook(config)
    nbformat.validate(notebook)
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds == ["markdown", "code"] + ["markdown", "code"] * 5
    headings = [cell.source.splitlines()[0] for cell in notebook.cells[2::2]]
    assert [heading.split(":")[0].split(",")[0] for heading in headings] == [
        "### 1. The device", "### 2. Model", "### 3. Train", "### 4. Bring the model back to the CPU.",
        "### 5. Predict on the CPU for new x.",
    ]  # fmt: skip
    assert "gpudemo train --device=cpu --problem=tutorial" in notebook.cells[0].source
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert code[0] == "import torch"
    script_code = [line for line in script.text.splitlines() if line and not line.startswith("# ")]
    notebook_code = [line for cell in code for line in cell.splitlines() if line and not line.startswith("# ")]
    assert notebook_code == script_code  # every line of code, in order, and nothing else
    assert notebook.metadata.kernelspec.name == "python3" and "accelerator" not in notebook.metadata


def test_a_notebook_for_a_gpu_asks_a_hosted_notebook_for_one():
    notebook = _notebook(TrainingConfig(device="cuda"))
    assert notebook.metadata.accelerator == "GPU"
    assert any('torch.device("cuda" if has_gpu else "cpu")' in cell.source for cell in notebook.cells)


def test_a_paragraph_without_an_opening_comment_is_code_alone_and_the_scripts_heading_is_left_out():
    cells = script_cells("# heading\n# run it so\nimport torch\n\nx = 1\n\n# 2. Two\n#    more said\ny = 2\n")
    assert cells == [("", "import torch"), ("", "x = 1"), ("### 2. Two\nmore said", "y = 2")]


def _executed(notebook) -> str:
    """What a fresh kernel prints running `notebook` from the top (nbclient, this Python's kernel)."""
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=300).execute()
    return "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "config",
    [TrainingConfig(), TrainingConfig(problem="circles", samples=300, batch_size=64, optimizer="adam", epochs=30)],
    ids=["tutorial", "circles-minibatch-adam"],
)
def test_the_notebook_run_in_a_kernel_prints_the_final_loss_gpudemo_trains(config):
    printed = _executed(_notebook(config, values=(4.0,) if config.problem == "tutorial" else ((0.1, 0.2),)))
    final = [line for line in printed.splitlines() if line.startswith("final loss")]
    assert final and float(final[0].split()[-1]) == pytest.approx(train(config).final_loss, rel=1e-5)
    assert "device cpu" in printed


def test_the_command_line_writes_the_notebook_and_prints_it_without_a_file(tmp_path):
    out = gpudemo("notebook", "--device", "cpu", "--epochs", "20")
    assert out.returncode == 0, out.stderr
    nbformat.validate(nbformat.reads(out.stdout, as_version=4))
    target = tmp_path / "lesson.ipynb"
    out = gpudemo("notebook", "--device", "cpu", "--problem", "line", "-o", str(target))
    assert out.returncode == 0 and out.stdout == "", out.stderr
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written["nbformat"] == 4 and "--problem=line" in "".join(written["cells"][0]["source"])
    out = gpudemo("notebook", "--device", "cuda", "-o", str(tmp_path / "gpu.ipynb"))
    assert out.returncode == 0 and "cuda:0 is not here: a script for a machine with a CUDA GPU" in out.stderr
    assert json.loads((tmp_path / "gpu.ipynb").read_text(encoding="utf-8"))["metadata"]["accelerator"] == "GPU"
    refused = gpudemo("notebook", "--device", "cpu", "--epochs", "0")
    assert refused.returncode == 2 and "epochs" in refused.stderr
