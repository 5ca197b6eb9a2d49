"""The multilayer perceptron the sine and the classes share: `depth` hidden layers of `width` tanh units.

Depth 0 is a linear model (no hidden layer): a learner sees it draw a straight boundary
and fail on the circles, where one hidden layer already succeeds.
"""

from __future__ import annotations

from torch import nn


def mlp(inputs: int, outputs: int, width: int, depth: int) -> nn.Module:
    """`inputs` -> `depth` hidden layers of `width` tanh units -> `outputs`; nn.Linear alone for depth 0."""
    if depth == 0:
        return nn.Linear(inputs, outputs)
    layers: list[nn.Module] = [nn.Linear(inputs, width), nn.Tanh()]
    for _ in range(depth - 1):
        layers += [nn.Linear(width, width), nn.Tanh()]
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


def parameter_count(inputs: int, outputs: int, width: int, depth: int) -> int:
    if depth == 0:
        return inputs * outputs + outputs
    return (inputs + 1) * width + (depth - 1) * (width + 1) * width + (width + 1) * outputs


def activation_floats(inputs: int, outputs: int, width: int, depth: int) -> int:
    """Floats one sample keeps alive through a step: each hidden layer's linear and tanh outputs and
    their gradients (4 per unit), and the input and output ends with theirs."""
    return 4 * width * depth + 2 * (inputs + outputs) + 4


def script_lines(inputs: int, outputs: int, width: int, depth: int) -> list[str]:
    """The generated script's lines that build the same model (seeded alike) on `device`."""
    if depth == 0:
        return [f"model = torch.nn.Linear({inputs}, {outputs}).to(device)  # no hidden layer: a linear model"]
    return [
        f"units_per_layer, hidden_layers = {width}, {depth}",
        f"layers = [torch.nn.Linear({inputs}, units_per_layer), torch.nn.Tanh()]",
        "for _ in range(hidden_layers - 1):",
        "    layers += [torch.nn.Linear(units_per_layer, units_per_layer), torch.nn.Tanh()]",
        f"layers.append(torch.nn.Linear(units_per_layer, {outputs}))",
        "model = torch.nn.Sequential(*layers).to(device)",
    ]
