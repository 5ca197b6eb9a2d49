"""Precision: what a step computes in, and which device can do it.

- fp32: float32 throughout, TF32 off (PyTorch's default for matmuls).
- tf32: float32 data, but CUDA matmuls and convolutions round their inputs to TF32 (10-bit
  mantissa) on the tensor cores of an Ampere or newer GPU (`torch.backends.cuda.matmul.
  allow_tf32`): several times faster on large products.
- bf16: mixed precision through `torch.autocast`: matmuls in bfloat16 (float32's range,
  8 bits of mantissa), losses and reductions in float32; the weights stay float32.
- fp16: mixed precision in float16 (a narrower range), with a `GradScaler` that scales the
  loss so that small gradients do not underflow to zero.

A device that cannot do a precision is refused before the run, with the reason.

The sweep and the roofline measure bare matmuls and steps, not training, in three storage types
(rules.DTYPE_KEYS): `float32` (TF32 off), `tf32` (float32 data, TF32 matmuls) and `bfloat16`,
the model and data cast whole (`STORAGE`), not autocast. `SWEEP_DTYPE` names the training
precision each one measures; fp16 has none (its GradScaler belongs to training).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from gpudemo.core.base.errors import RunRefused
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, message

FP32, TF32, BF16, FP16 = "fp32", "tf32", "bf16", "fp16"
AUTOCAST = {BF16: torch.bfloat16, FP16: torch.float16}
STORAGE = {"float32": torch.float32, "tf32": torch.float32, "bfloat16": torch.bfloat16}  # keyed as rules.DTYPE_KEYS
SWEEP_DTYPE = {FP32: "float32", TF32: "tf32", BF16: "bfloat16"}


class PrecisionRefused(RunRefused):
    """This device cannot compute in this precision; the message says why and what would do."""

    setting = "precision"


def check(precision: str, device: str) -> None:
    """Refuse a precision `device` cannot do (raises PrecisionRefused)."""
    kind = torch.device(device).type
    if precision == FP32:
        return
    if precision == TF32:
        if kind != "cuda":
            raise PrecisionRefused(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "tf32 is a format of NVIDIA tensor cores (Ampere and newer); {device} computes float32:"
                        " use fp32 or bf16 there",
                    ),
                    device=device,
                )
            )
        major, minor = torch.cuda.get_device_capability(torch.device(device))
        if major < 8:
            raise PrecisionRefused(
                message(
                    QT_TRANSLATE_NOOP(
                        "core", "tf32 needs compute capability 8.0 (Ampere) or newer; {device} has {major}.{minor}"
                    ),
                    device=device,
                    major=major,
                    minor=minor,
                )
            )
        return
    if precision == BF16:
        # The chosen GPU's own capability: torch.cuda.is_bf16_supported() asks the current device, and
        # counts the emulation of older GPUs (a T4 or a V100 "supports" bf16 at a fraction of fp32's speed).
        if kind == "cuda" and torch.cuda.get_device_capability(torch.device(device)) < (8, 0):
            raise PrecisionRefused(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "{device} cannot compute in bfloat16 (it needs compute capability 8.0 or newer): use fp16"
                        " or fp32",
                    ),
                    device=device,
                )
            )
        if kind not in ("cuda", "cpu"):
            raise PrecisionRefused(
                message(
                    QT_TRANSLATE_NOOP("core", "bf16 runs on a CUDA GPU or the CPU here, not on {device}"), device=device
                )
            )
        return
    if precision == FP16:
        if kind != "cuda":
            raise PrecisionRefused(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "fp16 training with a GradScaler needs a CUDA GPU; on {device} use bf16 (the same speed-up"
                        " where it has one, and no scaling)",
                    ),
                    device=device,
                )
            )
        return
    raise ValueError(f"unknown precision {precision!r}")


@contextlib.contextmanager
def matmul_precision(precision: str) -> Iterator[None]:
    """TF32 on for tf32 (a precision's key and a sweep's dtype alike), off otherwise, whatever was set
    before (restored after)."""
    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    on = precision == TF32
    torch.backends.cuda.matmul.allow_tf32 = on
    torch.backends.cudnn.allow_tf32 = on
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved


def autocast(precision: str, device: torch.device, cache: bool = True):
    """The autocast context for a step's forward and loss, or None for a float32 step. `cache`: off for
    a step captured in a CUDA graph, whose casts of the weights must be redone at every replay."""
    dtype = AUTOCAST.get(precision)
    return None if dtype is None else torch.autocast(device_type=device.type, dtype=dtype, cache_enabled=cache)


def grad_scaler(precision: str, device: torch.device) -> torch.amp.GradScaler | None:
    return torch.amp.GradScaler(device.type) if precision == FP16 else None
