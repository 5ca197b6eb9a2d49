"""A run's script as a Jupyter notebook, to take the lesson where a GPU is (a hosted notebook: Colab, Kaggle, a
lab's JupyterHub).

The notebook is the script the Code panel shows (core/outputs/script.py), cut where a learner reads it: each
paragraph of the script (the device, the model and the data, the loop, the model back on the CPU, the
prediction) a code cell, the comment that opens it a markdown cell above it, in the script's language. It runs
top to bottom in a fresh kernel with only torch installed and prints what the script prints, which is what
`gpudemo train` computes for the same settings on the same device. Made with nbformat (nbformat 4), and
validated against its schema before it is written.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP
from gpudemo.core.settings.config import TrainingConfig, to_argv

if TYPE_CHECKING:  # the lessons' notebook is made in the window before PyTorch loads: the script's module needs it
    from gpudemo.core.outputs.script import Script

NBFORMAT = 4
TITLE = QT_TRANSLATE_NOOP("script", "gpudemo: the PyTorch behind a run")
INTRO = QT_TRANSLATE_NOOP(
    "script",
    "The same run as `{command}`. Run the cells from the top (Run all): they need only PyTorch, which hosted"
    " notebooks have, and print what that command prints on the same device. On a hosted notebook with a GPU"
    " (Colab: Runtime, Change runtime type, a GPU), a notebook made for the device cuda trains there.",
)


def opening_comment(lines: list[str]) -> tuple[list[str], str]:
    """A block of script split into the comment lines that open it, each without its "#" and the space after,
    and the code under them."""
    opening = 0
    while opening < len(lines) and lines[opening].startswith("#"):
        opening += 1
    said = [line[2:] if line.startswith("# ") else line[1:] for line in lines[:opening]]
    return said, "\n".join(lines[opening:]).strip("\n")


def script_cells(text: str) -> list[tuple[str, str]]:
    """The script cut into (markdown, code) pairs, a pair a paragraph (lines between blank lines): the comment
    lines that open a paragraph become its markdown, the first one a heading; the rest is its code. The script's
    own heading (its first comment lines, which say how to run a .py file) is left out: the notebook has its
    own."""
    paragraphs = [block.strip("\n") for block in text.split("\n\n") if block.strip()]
    cells = []
    for number, paragraph in enumerate(paragraphs):
        said, code = opening_comment(paragraph.split("\n"))
        said = [] if number == 0 else [line.strip() for line in said]
        cells.append(("\n".join(["### " + said[0], *said[1:]]) if said else "", code))
    return cells


def notebook_of(cells: list[tuple[str, str]], gpu: bool) -> str:
    """(markdown, code) pairs as the text of a validated nbformat 4 notebook, each part a cell where it is not
    empty; `gpu`: Colab opens it asking for a GPU runtime."""
    import nbformat  # only an export needs it

    v4 = nbformat.v4
    made = []
    for markdown, code in cells:
        if markdown:
            made.append(v4.new_markdown_cell(markdown))
        if code:
            made.append(v4.new_code_cell(code))
    metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        **({"accelerator": "GPU"} if gpu else {}),
    }
    notebook = v4.new_notebook(cells=made, metadata=metadata)
    nbformat.validate(notebook)
    return nbformat.writes(notebook, version=NBFORMAT)


def notebook_text(config: TrainingConfig, script: Script, translate: Callable[[str], str] = str) -> str:
    """The notebook of `script`, the script of `config`'s run, as the text of an .ipynb file; its words through
    `translate` (the window's language; English by default)."""
    command = shlex.join(["gpudemo", "train", f"--device={config.device}", *to_argv(config)])
    title = (f"# {translate(TITLE)}\n\n" + translate(INTRO).format(command=command), "")
    return notebook_of([title, *script_cells(script.text)], gpu=config.device.startswith("cuda"))
