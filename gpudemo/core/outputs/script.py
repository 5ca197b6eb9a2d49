"""The plain PyTorch script behind a run: what a learner can read, copy and run at home.

Run as it is, with nothing but torch installed, it prints the final loss, the learned
parameters and the predictions that gpudemo computes for the same settings. Each part
of it is tagged with the phase of the run it shows, so a view can mark the part that
is executing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from gpudemo.core.base.files import printable
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import fullgraph
from gpudemo.core.step.capture import EPOCHS_PER_REPLAY, WARM_UP_STEPS
from gpudemo.core.step.modes import COMPILED, EAGER, GRAPH, mode_of
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.training import PREDICTING, TO_CPU, TO_DEVICE, TRAINING
from gpudemo.core.training.budget import batch_size

# The comments, in English; a view passes `translate` to show them in its language (the
# templates are marked for pyside6-lupdate in the "script" context).
COMMENTS = {
    "title": QT_TRANSLATE_NOOP("script", "# gpudemo: the PyTorch script behind this run."),
    "run": QT_TRANSLATE_NOOP("script", "# Run it with only torch installed: python {filename}"),
    "device_gpu": QT_TRANSLATE_NOOP("script", "# 1. The device: {wanted} when torch can see it, else the CPU."),
    "device_graph": QT_TRANSLATE_NOOP(
        "script", "# 1. The device: {wanted}. The graph step captures CUDA graphs, which only a CUDA GPU has."
    ),
    "device_cpu": QT_TRANSLATE_NOOP(
        "script",
        '# 1. The device: the CPU. For a GPU, write\n#    torch.device("cuda" if torch.cuda.is_available() else "cpu")',
    ),
    "seed": QT_TRANSLATE_NOOP("script", "#    Same seed, same starting weights, same run."),
    "to_device": QT_TRANSLATE_NOOP("script", "# 2. Model, data and loss on that device; then the optimizer."),
    "generator": QT_TRANSLATE_NOOP(
        "script", "#    The data is drawn on the CPU from the seed, then moved: the same numbers on every device."
    ),
    "shuffle": QT_TRANSLATE_NOOP("script", "#    Each epoch's shuffle is drawn on the device, from the seed."),
    "training": QT_TRANSLATE_NOOP("script", "# 3. Train: {epochs} epochs of forward, loss, backward, step."),
    "minibatch": QT_TRANSLATE_NOOP(
        "script",
        "# 3. Train: {epochs} epochs; each one passes over the data in shuffled"
        " batches of {batch},\n#    and its loss is the mean over its batches"
        " (added up on the device: no sync).",
    ),
    "compiled": QT_TRANSLATE_NOOP(
        "script",
        "#    The whole step compiled by torch.compile on its first call (on a GPU, replayed as CUDA graphs).",
    ),
    "one_graph": QT_TRANSLATE_NOOP(
        "script",
        "#    The whole step as one graph: forward, loss, gradients and the optimizer's update in one function\n"
        "#    that torch.compile traces without a break (fullgraph=True), compiled on its first call (on a GPU,\n"
        "#    replayed as one CUDA graph a step). loss.backward() and optimizer.step() would each break it.",
    ),
    "graph": QT_TRANSLATE_NOOP(
        "script",
        "# 3. Train: {epochs} epochs, the step captured once in a CUDA graph, then replayed:\n"
        "#    {replay} epochs per launch, each epoch's loss written into a buffer on the GPU.",
    ),
    "warm_up": QT_TRANSLATE_NOOP(
        "script",
        "#    A few steps on a side stream first (they make the optimizer's state and cuBLAS's workspace),\n"
        "#    then back to the starting weights and a fresh optimizer, in place: the capture needs fixed tensors.",
    ),
    "to_cpu": QT_TRANSLATE_NOOP("script", "# 4. Bring the model back to the CPU."),
    "predicting": QT_TRANSLATE_NOOP("script", "# 5. Predict on the CPU for new x."),
    "classifying": QT_TRANSLATE_NOOP("script", "# 5. Classify new points on the CPU: each class's probability."),
    "recognising": QT_TRANSLATE_NOOP("script", "# 5. Recognise test images on the CPU: the class and the true one."),
}


def _comments(translate: Callable[[str], str]) -> dict[str, str]:
    """Each comment in the language `translate` gives; a translation that is not a comment is not used."""
    said = {}
    for key, english in COMMENTS.items():
        text = translate(english)
        fields = english.count("{")
        lines_ok = all(line.startswith("#") for line in text.split("\n"))
        said[key] = text if lines_ok and text.count("{") == fields else english
    return said


@dataclass(frozen=True)
class Script:
    text: str
    spans: dict[str, tuple[int, int]]  # phase -> (first line, last line), 0-based, inclusive

    def lines(self, phase: str) -> range:
        first, last = self.spans[phase]
        return range(first, last + 1)


def _device_lines(device: str) -> list[str]:
    """The tutorial's check for a GPU, for the device picked, falling back to the CPU."""
    checks = {
        "cuda": "torch.cuda.is_available()",
        "mps": "torch.backends.mps.is_available()",
        "xpu": "torch.xpu.is_available()",
    }
    kind, _, index = device.partition(":")
    check = checks.get(kind)
    if check is None:
        return ['device = torch.device("cpu")']
    if index and int(index) > 0:  # cuda:1 on a machine with one GPU would be "invalid device ordinal"
        check += f" and torch.{kind}.device_count() > {int(index)}"
    return [f"has_gpu = {check}", f'device = torch.device("{device}" if has_gpu else "cpu")']


def _device_part(config: TrainingConfig, say: dict[str, str]) -> list[str]:
    """The device's comment and lines (a graph step's: its mode's)."""
    own = scripted(config).device_part(config, say)
    if own is not None:
        return own
    if config.device == "cpu":
        return [say["device_cpu"], *_device_lines(config.device)]
    return [say["device_gpu"].format(wanted=config.device), *_device_lines(config.device)]


AUTOCAST_DTYPES = {"bf16": "torch.bfloat16", "fp16": "torch.float16"}


def step_lines(config: TrainingConfig, x: str, y: str, indent: str, captured: bool = False) -> list[str]:
    """zero_grad, forward and loss (under autocast for bf16 and fp16), backward and step (fp16's scaled).
    `captured`: for a CUDA graph, the gradients zeroed in place and autocast without its cache."""
    dtype = AUTOCAST_DTYPES.get(config.precision)
    body = [f"outputs = model({x})", f"loss = criterion(outputs, {y})"]
    if dtype is not None:
        cache = ", cache_enabled=False" if captured else ""
        body = [
            f"with torch.autocast(device_type=device.type, dtype={dtype}{cache}):",
            *("    " + line for line in body),
        ]
    if config.precision == "fp16":
        tail = ["scaler.scale(loss).backward()", "scaler.step(optimizer)", "scaler.update()"]
    else:
        tail = ["loss.backward()", "optimizer.step()"]
    zero = "optimizer.zero_grad(set_to_none=False)" if captured else "optimizer.zero_grad()"
    return [indent + line for line in (zero, *body, *tail)]


def compiled_step_lines(config: TrainingConfig, say: dict[str, str], cuda_graphs: bool = True) -> list[str]:
    """The step as a function, compiled whole (core/step/step.py's compiled mode); with `cuda_graphs`, replayed as
    CUDA graphs on a GPU (not for data parallel, whose all-reduce runs between the graphs)."""
    if _Compiled.one_graph(config, cuda_graphs):
        return _one_graph_lines(config, say)
    return [
        say["compiled"],
        "def train_step(x, y):",
        *step_lines(config, "x", "y", "    "),
        "    return loss",
        "",
        *(['mode = "reduce-overhead" if device.type == "cuda" else None'] if cuda_graphs else ["mode = None"]),
        "train_step = torch.compile(train_step, mode=mode)",
        "",
    ]


def _one_graph_lines(config: TrainingConfig, say: dict[str, str]) -> list[str]:
    """core/step/fullgraph.py's step as a person writes it: the gradients from torch.func.grad_and_value (which
    torch.compile traces on every version gpudemo runs on; gpudemo traces torch.autograd.grad where torch
    2.13 can, the same arithmetic), the optimizer's update written out, all in one graph."""
    dtype = AUTOCAST_DTYPES.get(config.precision)
    forward = ["outputs = functional_call(model, params, (x,))", "loss = criterion(outputs, y)"]
    if dtype is not None:
        forward = [
            f"with torch.autocast(device_type=device.type, dtype={dtype}):",
            *("    " + line for line in forward),
        ]
    return [
        say["one_graph"],
        "from torch.func import functional_call, grad_and_value",
        "",
        "params = dict(model.named_parameters())",
        *OPTIMIZERS[config.optimizer].one_graph.script_state,
        "",
        "def loss_and_outputs(params, x, y):",
        *("    " + line for line in forward),
        "    return loss.float(), outputs",
        "",
        "gradients = grad_and_value(loss_and_outputs, has_aux=True)",
        "",
        "def train_step(x, y):",
        "    # the gradients of detached weights: autograd keeps nothing of them that the update below could change",
        "    grads, (loss, outputs) = gradients({name: p.detach() for name, p in params.items()}, x, y)",
        "    with torch.no_grad():",
        *("        " + line for line in OPTIMIZERS[config.optimizer].one_graph.script_update),
        "    return loss",
        "",
        'mode = "reduce-overhead" if device.type == "cuda" else None',
        "train_step = torch.compile(train_step, fullgraph=True, dynamic=False, mode=mode)",
        "",
    ]


def precision_lines(config: TrainingConfig) -> list[str]:
    if config.precision == "tf32":
        return ["torch.backends.cuda.matmul.allow_tf32 = True  # tf32: matmuls on the tensor cores, in TF32"]
    if config.precision == "fp16":
        return ["scaler = torch.amp.GradScaler(device.type)  # fp16: the loss scaled, so small gradients survive"]
    return []


def _full_batch_loop(config: TrainingConfig, say: dict[str, str]) -> list[str]:
    lines = scripted(config)
    return [
        say["training"].format(epochs=f"{config.epochs:,}"),
        *lines.before_loop(config, say),
        f"for epoch in range({config.epochs}):",
        *lines.take(config, "x_train", "y_train", "    "),
    ]


def _graph_loop(config: TrainingConfig, say: dict[str, str]) -> list[str]:
    """core/step/capture.py's graph step, as a person would write it."""
    replay = min(EPOCHS_PER_REPLAY, config.epochs)
    whole, rest = divmod(config.epochs, replay)
    return [
        say["graph"].format(epochs=f"{config.epochs:,}", replay=f"{replay:,}"),
        "def train_step():",
        *step_lines(config, "x_train", "y_train", "    ", captured=True),
        "    return loss.detach().float()",
        "",
        say["warm_up"],
        "saved = [p.detach().clone() for p in model.parameters()]",
        "side = torch.cuda.Stream()",
        "side.wait_stream(torch.cuda.current_stream())",
        "with torch.cuda.stream(side):",
        f"    for _ in range({WARM_UP_STEPS}):",
        "        train_step()",
        "torch.cuda.current_stream().wait_stream(side)",
        "with torch.no_grad():",
        "    for p, value in zip(model.parameters(), saved):",
        "        p.copy_(value)",
        "        p.grad.zero_()",
        "    for state in optimizer.state.values():",
        "        for value in state.values():",
        "            if torch.is_tensor(value):",
        "                value.zero_()",
        "",
        f"losses = torch.empty({replay}, device=device)",
        "graph = torch.cuda.CUDAGraph()",
        "with torch.cuda.graph(graph):",
        f"    for i in range({replay}):",
        "        losses[i].copy_(train_step())",
        "last = torch.empty(1, device=device)  # one epoch, for what is left over",
        "one = torch.cuda.CUDAGraph()",
        "with torch.cuda.graph(one):",
        "    last[0].copy_(train_step())",
        "",
        f"for replay in range({whole}):",
        "    graph.replay()  # one launch for all its epochs",
        *([f"for epoch in range({rest}):", "    one.replay()", "loss = last[0]"] if rest else ["loss = losses[-1]"]),
    ]


def _minibatch_loop(config: TrainingConfig, batch: int, say: dict[str, str]) -> list[str]:
    lines = scripted(config)
    return [
        say["minibatch"].format(epochs=f"{config.epochs:,}", batch=f"{batch:,}"),
        *lines.before_loop(config, say),
        f"batch_size = {batch}",
        f"for epoch in range({config.epochs}):",
        "    order = torch.randperm(len(x_train), generator=shuffle, device=device)",
        "    total, batches = 0.0, 0",
        "    for start in range(0, len(x_train), batch_size):",
        "        index = order[start:start + batch_size]",
        *lines.take(config, "x_train[index]", "y_train[index]", "        "),
        "        total = total + loss.detach()",
        "        batches += 1",
        "    loss = total / batches",
    ]


IMAGES_SHOWN = 10  # test images a digits script recognises


def _predicting(problem, values: Sequence, say: dict[str, str]) -> list[str]:
    if problem.classes and problem.area is None:  # images
        return [
            say["recognising"],
            "with torch.no_grad():",
            f"    predicted = model(x_test[:{IMAGES_SHOWN}]).argmax(1)",
            f'print("predict", predicted.tolist(), "true", y_test[:{IMAGES_SHOWN}].tolist())',
        ]
    if problem.classes:
        points = [tuple(point) for point in values] or [(0.0, 0.0)]
        return [
            say["classifying"],
            f"x_test = torch.tensor([{', '.join(f'[{float(a)!r}, {float(b)!r}]' for a, b in points)}])",
            "with torch.no_grad():",
            "    probabilities = torch.softmax(model(x_test), dim=1)",
            "for x, p in zip(x_test.tolist(), probabilities.tolist()):",
            '    print("classify", *x, "class", max(range(len(p)), key=p.__getitem__), "probabilities", *p)',
        ]
    return [
        say["predicting"],
        f"x_test = torch.tensor([{', '.join(f'[{float(v)!r}]' for v in values)}])",
        "with torch.no_grad():",
        "    y_test = model(x_test)",
        "for x, y in zip(x_test.flatten(), y_test.flatten()):",
        '    print("predict", x.item(), y.item())',
    ]


class ScriptedMode:
    """A step mode's part of the script (core/step/modes.py's eager mode; the others below): what it writes
    before the loop, how the loop takes a step, its loop, its device. The script asks its mode, never its name."""

    capturable = False  # the optimizer made so that its step can be captured in a CUDA graph

    def device_part(self, config: TrainingConfig, say: dict[str, str]) -> list[str] | None:
        """Its own device lines (None: the tutorial's)."""
        return None

    @staticmethod
    def one_graph(config: TrainingConfig, cuda_graphs: bool = True) -> bool:
        """Its step is one graph, its update written out (core/step/fullgraph.py)."""
        return False

    def before_loop(self, config: TrainingConfig, say: dict[str, str], cuda_graphs: bool = True) -> list[str]:
        """What comes between the optimizer and the loop (a compiled step's function)."""
        return []

    def take(self, config: TrainingConfig, x: str, y: str, indent: str, cuda_graphs: bool = True) -> list[str]:
        """A step of the loop on (x, y): the statements themselves."""
        return step_lines(config, x, y, indent)

    def training(self, config: TrainingConfig, batch: int, minibatch: bool, say: dict[str, str]) -> list[str]:
        """The loop: over minibatches, or the full batch an epoch."""
        return _minibatch_loop(config, batch, say) if minibatch else _full_batch_loop(config, say)


class _Compiled(ScriptedMode):
    @staticmethod
    def one_graph(config: TrainingConfig, cuda_graphs: bool = True) -> bool:
        """One graph with CUDA graphs where gpudemo's compiled step is one (not fp16's, nor data parallel's)."""
        return cuda_graphs and fullgraph.one_graph_refusal(config, None) is None

    def before_loop(self, config: TrainingConfig, say: dict[str, str], cuda_graphs: bool = True) -> list[str]:
        return compiled_step_lines(config, say, cuda_graphs)

    def take(self, config: TrainingConfig, x: str, y: str, indent: str, cuda_graphs: bool = True) -> list[str]:
        """A call of the compiled step (on a GPU, each a new step of its CUDA graphs)."""
        mark = [
            'if device.type == "cuda":',
            "    torch.compiler.cudagraph_mark_step_begin()  # a new step of the graphs",
        ]  # noqa: E501
        return [indent + line for line in (*(mark if cuda_graphs else []), f"loss = train_step({x}, {y})")]


class _Graph(ScriptedMode):
    capturable = True

    def device_part(self, config: TrainingConfig, say: dict[str, str]) -> list[str]:
        """A CUDA GPU, with no fall back to the CPU: a capture needs one."""
        wanted = config.device if config.device.startswith("cuda") else "cuda"
        return [say["device_graph"].format(wanted=wanted), f'device = torch.device("{wanted}")']

    def training(self, config: TrainingConfig, batch: int, minibatch: bool, say: dict[str, str]) -> list[str]:
        return _graph_loop(config, say)


SCRIPTED: dict[str, ScriptedMode] = {EAGER: ScriptedMode(), COMPILED: _Compiled(), GRAPH: _Graph()}


def scripted(config: TrainingConfig) -> ScriptedMode:
    """The script's part of `config`'s step mode."""
    return SCRIPTED[config.step]


def generate_script(
    config: TrainingConfig,
    values: Sequence = (4.0,),
    filename: str = "gpudemo_run.py",
    translate: Callable[[str], str] = str,
) -> Script:
    """The script for `config`, predicting for `values` (x values, or points x1,x2 for a 2-D classification);
    its comments through `translate` (English by default). A graph step's script is refused (StepRefused,
    the run's own reason) where the run would be for any GPU (fp16's scaler, minibatches): it would fail
    at its capture."""
    if mode_of(config).captures:
        mode_of(config).refuse(replace(config, device=config.device if config.device.startswith("cuda") else "cuda:0"))
    say = _comments(translate)
    problem = problem_for(config)
    batch = batch_size(config)
    minibatch = batch < problem.samples(config)
    sections: list[tuple[str | None, list[str]]] = [
        (
            None,
            [
                say["title"],
                say["run"].format(filename=printable(filename)),
                *problem.script_imports(),
                "import torch",
                "",
            ],
        ),
        (TO_DEVICE, _to_device(config, problem, minibatch, say)),
        (
            TRAINING,
            [
                *scripted(config).training(config, batch, minibatch, say),
                'print("device", device)',
                'print("final loss", loss.item())',
                "",
            ],
        ),
        (
            TO_CPU,
            [
                say["to_cpu"],
                'model = model.to("cpu")',
                *problem.script_result(),
                "",
            ],
        ),
        (PREDICTING, _predicting(problem, values, say)),
    ]
    return _assembled(sections)


def _to_device(config: TrainingConfig, problem, minibatch: bool, say: dict[str, str]) -> list[str]:
    """The device, the seed, then the model, the data, the loss and the optimizer made there."""
    generator = []
    if problem.uses_generator(config):
        generator = [say["generator"], f"generator = torch.Generator().manual_seed({config.seed})"]
    if minibatch:
        generator += [say["shuffle"], f"shuffle = torch.Generator(device=device).manual_seed({config.seed})"]
    optimizer = OPTIMIZERS[config.optimizer].line(config.lr, capturable=scripted(config).capturable)
    return [
        *_device_part(config, say),
        say["seed"],
        f"torch.manual_seed({config.seed})",
        "",
        say["to_device"],
        *problem.script_model(config),
        *generator,
        *problem.script_data(config),
        f"criterion = torch.nn.{type(problem.make_loss()).__name__}().to(device)",
        *(
            [f"lr = {config.lr!r}  # the update is written out in the step"]
            if scripted(config).one_graph(config)
            else [f"optimizer = {optimizer}"]
        ),
        *precision_lines(config),
        "",
    ]


def _assembled(sections: list[tuple[str | None, list[str]]]) -> Script:
    """The script's lines, section after section, and the lines each phase spans (its last line of code)."""
    lines: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    for phase, body in sections:
        body = [line for entry in body for line in entry.split("\n")]  # a comment may hold several lines
        if phase is not None:
            last = len(lines) + len(body) - 1
            while not body[last - len(lines)]:  # a span ends on its last line of code
                last -= 1
            spans[phase] = (len(lines), last)
        lines.extend(body)
    return Script("\n".join(lines) + "\n", spans)
