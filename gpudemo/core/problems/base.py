"""What every problem provides; the defaults fit a one-input, one-output regression.

A classification sets `classes` (and `inputs`): its labels are int64 of shape (samples,),
its model gives one logit per class, its loss is CrossEntropyLoss and its runs record
their accuracy. A 2-D one sets `area`, the square its decision boundary is drawn over.
"""

from __future__ import annotations

import torch
from torch import nn

from gpudemo.core.settings import rules
from gpudemo.core.settings.choices import PROBLEM_CHOICES
from gpudemo.core.settings.config import TrainingConfig


class Problem:
    key: str = ""
    x_range: tuple[float, float] = (0.0, 1.0)  # where the fit view draws the model
    inputs: int = 1  # numbers per sample
    classes: int = 0  # 0: a regression; else the classes its labels count, 0 to classes - 1
    area: tuple[float, float] | None = None  # a 2-D problem's boundary is drawn over this square (x1 and x2)
    image_side: int = 0  # an image problem's samples are side x side pixels

    @property
    def predicts_from(self) -> str:
        """What its prediction takes: VALUES of x (a regression), POINTS x1,x2 (a 2-D classification) or test
        IMAGES by number (the digits)."""
        if not self.classes:
            return rules.VALUES
        return rules.POINTS if self.area is not None else rules.IMAGES

    def parse_inputs(self, text: str) -> list:
        """What a person typed for a prediction, checked by the rules of what it takes; raises InvalidSetting."""
        return rules.parse_prediction(self.predicts_from, text)

    @property
    def uses(self) -> frozenset[str]:
        """Which of "samples", "width", "depth", "noise" apply (the rules' table: the form reads it without torch)."""
        return PROBLEM_CHOICES[self.key].uses

    def samples(self, config: TrainingConfig) -> int:
        return config.samples

    def make_model(self, config: TrainingConfig) -> nn.Module:
        raise NotImplementedError

    def make_data(self, config: TrainingConfig, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """(x_train, y_train), each of shape (samples, 1), made on the CPU from `generator` (a CPU one).

        The run moves them to its device, as the tutorial moves its data: the same seed gives the
        same numbers on every device (a CUDA generator's draws differ from the CPU's, and even
        between GPU models)."""
        raise NotImplementedError

    def make_test_data(self, config: TrainingConfig) -> tuple[torch.Tensor, torch.Tensor] | None:
        """(x_test, y_test) held out from training, on the CPU; None when the problem has no test set."""
        return None

    def make_loss(self) -> nn.Module:
        return nn.CrossEntropyLoss() if self.classes else nn.MSELoss()

    def has_plane(self, config: TrainingConfig) -> bool:
        """Whether its model is y = weight·x + bias: a loss landscape over (weight, bias) can be drawn."""
        return not self.classes and self.parameter_count(config) == 2

    def describe(self, model: nn.Module) -> dict[str, float]:
        """What was learned, as numbers: a line's weight and bias, an MLP's parameter count."""
        return {"weight": model.weight.item(), "bias": model.bias.item()}

    def plane(self, model: nn.Module) -> tuple[nn.Parameter, nn.Parameter] | None:
        """(weight, bias) when the model is y = weight·x + bias: the loss landscape's two axes; else None."""
        if isinstance(model, nn.Linear) and model.weight.numel() == 1 and not self.classes:
            return model.weight, model.bias
        return None

    def parameter_count(self, config: TrainingConfig) -> int:
        return 2

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        """Floats one sample keeps alive through a step (forward, loss, backward), roughly."""
        return 8

    # --- its part of the generated script (tests run the script against the core) ---

    def uses_generator(self, config: TrainingConfig) -> bool:
        """Whether its data draws from the seeded `generator` (on the CPU)."""
        return True

    def script_model(self, config: TrainingConfig) -> list[str]:
        raise NotImplementedError

    def script_data(self, config: TrainingConfig) -> list[str]:
        """Lines that make x_train and y_train on `device` (drawing on the CPU from `generator`)."""
        raise NotImplementedError

    def script_result(self) -> list[str]:
        """Lines that print what was learned, after `model = model.to("cpu")`."""
        return ['print("weight", model.weight.item(), "bias", model.bias.item())']

    def script_imports(self) -> list[str]:
        return []
