"""The guided lessons, each read from a plain data file: "the tutorial, step by step" (tutorial.json)
and "Make the GPU win" (gpu_win.json), where each step asks a guess before it measures.

A lesson file (resources/lesson/NAME.json) is a list of steps, each:
- "key": a name for the step;
- "title", "text": {"en": ..., "zh_CN": ...}; a text may name the values the window fills in:
  {device}, {devices}, {w0}, {b0} (the model before training), {bytes}, {move} (what moving to
  the device moved and how long it took), {w}, {b}, {loss} (the lesson's run), {prediction};
- "widgets": the object names of the window's widgets the step talks about (highlighted);
- "code": pieces of code lines of the Code panel's script it explains (each must match a line);
- "tab": the object name of the tab to show, or null;
- "action": what its button does, one of ACTIONS, or null;
- "needs": "run" when it needs the lesson's run done first (its button then trains), or null;
- in a lesson of guesses: "guess" (what the learner may answer: {"kind": "choice", "choices": [...]},
  {"kind": "percent"} or {"kind": "ratio"}), "measure" (one of MEASURES: which of the tabs'
  measurements answers it), "explain" (the text shown once measured, {guess}, {measured}, {off},
  {note} filled in) and "no_gpu" (the note where the answer needs a GPU this machine lacks: what a
  GPU showed, with its device and date).
A teacher adds a step by adding an entry; a test checks every widget and code piece exists.

No Qt and no torch here: the window reads its lessons before PyTorch has loaded. What a step computes
with torch (the model's starting parameters, the data shown, the time moving the tutorial's model and
data to the device takes) is in core/lessons/figures.py.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, message
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import NUMBER, InvalidSetting, quoted

ENGLISH = "en"
TRAIN, PREDICT, COMPARE_LARGE, PROFILE = "train", "predict", "compare_large", "profile"
ACTIONS = (TRAIN, PREDICT, COMPARE_LARGE, PROFILE)
NEEDS_RUN = "run"
TUTORIAL = TrainingConfig()  # the tutorial's own settings: its three points, SGD at 0.1, 100 epochs, seed 0
LARGE = replace(TUTORIAL, problem="line", samples=1_000_000)  # where a GPU starts to pay
PREDICT_AT = "4"
KEYS = {"key", "title", "text", "widgets", "code", "tab", "action", "needs", "guess", "measure", "explain", "no_gpu"}
LESSONS = ("tutorial", "gpu_win")  # the lesson files, in the Help menu's order
# core/lessons/guesses.py reads each
MEASURES = ("crossover", "busy", "doubling", "modes", "bf16", "pinned", "parallel", "energy")

CHOICE, PERCENT, RATIO = "choice", "percent", "ratio"  # the kinds of guess
KINDS = (CHOICE, PERCENT, RATIO)
RATIO_RANGE = (0.01, 1000.0)  # how many times faster (or slower, below 1) a learner may guess


@dataclass(frozen=True)
class GuessSpec:
    """What a step lets a learner answer: one of `choices`, a percentage 0 to 100, or a ratio."""

    kind: str
    choices: tuple[float, ...] = ()

    @property
    def low(self) -> float:
        return 0.0 if self.kind == PERCENT else RATIO_RANGE[0]

    @property
    def high(self) -> float:
        return 100.0 if self.kind == PERCENT else RATIO_RANGE[1]


def spec_from(entry: object) -> GuessSpec | None:
    """A lesson file's "guess" entry, checked (ValueError says what is wrong), or None for no guess."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        raise ValueError(f"'guess' must be an object whose 'kind' is one of {', '.join(KINDS)}")
    choices = entry.get("choices", [])
    if entry["kind"] == CHOICE and (
        not isinstance(choices, list) or not choices or not all(isinstance(c, (int, float)) for c in choices)
    ):
        raise ValueError("a 'choice' guess needs a list of numbers in 'choices'")
    return GuessSpec(entry["kind"], tuple(float(c) for c in choices) if entry["kind"] == CHOICE else ())


THOUSANDS = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?")  # 1,000 or 12,345.5: a comma that groups


def parse_guess(spec: GuessSpec, value: object) -> float:
    """A learner's guess, checked against `spec`: a number (as typed: `1e-3`, `2`, `35 %`) in its range, or
    one of its choices. InvalidSetting names the guess and what would do."""
    if isinstance(value, str):
        text = value.strip().removesuffix("%").strip()
        if spec.kind == RATIO:  # "2x" or "2×", as the field shows it
            text = text.rstrip("xX×").strip()
        if "," in text:
            if not THOUSANDS.fullmatch(text):  # "1,5" is a decimal comma, not fifteen: ask for a point
                raise InvalidSetting(
                    "guess",
                    message(
                        QT_TRANSLATE_NOOP(
                            "core", "write decimals with a point ({example}), not a comma: {value} is ambiguous"
                        ),
                        example=text.replace(",", ".", 1) if text.count(",") == 1 else "1.5",
                        value=quoted(value),
                    ),
                )
            text = text.replace(",", "")
        number = float(text) + 0.0 if NUMBER.fullmatch(text) else math.nan  # + 0.0: "-0" is 0
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        number = math.nan
    if spec.kind == CHOICE:
        if number not in spec.choices:
            raise InvalidSetting(
                "guess",
                message(
                    QT_TRANSLATE_NOOP("core", "guess one of {choices}, not {value}"),
                    choices=", ".join(f"{c:,.0f}" for c in spec.choices),
                    value=quoted(value),
                ),
            )
        return number
    if not math.isfinite(number) or not spec.low <= number <= spec.high:
        template = (
            QT_TRANSLATE_NOOP("core", "guess a percentage from 0 to 100, not {value}")
            if spec.kind == PERCENT
            else QT_TRANSLATE_NOOP("core", "guess a ratio from 0.01 to 1000 (2 or 2x: twice), not {value}")
        )
        raise InvalidSetting("guess", message(template, value=quoted(value)))
    return number


class LessonError(ValueError):
    """The lesson file is not as described above: says which step and what is wrong."""


@dataclass(frozen=True)
class Step:
    key: str
    title: dict[str, str]
    text: dict[str, str]
    widgets: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    tab: str | None = None
    action: str | None = None
    needs: str | None = None
    guess: GuessSpec | None = None
    measure: str | None = None
    explain: dict[str, str] = field(default_factory=dict)
    no_gpu: dict[str, str] = field(default_factory=dict)

    def title_in(self, language: str) -> str:
        return self.title.get(language) or self.title[ENGLISH]

    def text_in(self, language: str) -> str:
        return self.text.get(language) or self.text[ENGLISH]

    def explain_in(self, language: str) -> str:
        return self.explain.get(language) or self.explain.get(ENGLISH, "")

    def no_gpu_in(self, language: str) -> str:
        return self.no_gpu.get(language) or self.no_gpu.get(ENGLISH, "")


def lesson_file(name: str = LESSONS[0]) -> Path:
    return Path(str(files("gpudemo") / "resources" / "lesson" / f"{name}.json"))


def load(path: Path | None = None, name: str = LESSONS[0]) -> tuple[Step, ...]:
    """The steps of a lesson file (`path`, or the lesson `name`'s); LessonError names the step and the fault."""
    path = path or lesson_file(name)
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LessonError(f"{path}: cannot be read as JSON: {error}") from error
    if not isinstance(entries, list) or not entries:
        raise LessonError(f"{path}: must hold a list of steps")
    return tuple(_step(entry, number) for number, entry in enumerate(entries, 1))


def _step(entry: object, number: int) -> Step:
    where = f"step {number}"
    if not isinstance(entry, dict):
        raise LessonError(f"{where}: must be an object")
    unknown = set(entry) - KEYS
    if unknown:
        raise LessonError(f"{where}: unknown keys {sorted(unknown)}; a step has {sorted(KEYS)}")
    for name in ("title", "text"):
        words = entry.get(name)
        if (
            not isinstance(words, dict)
            or not isinstance(words.get(ENGLISH), str)
            or not all(isinstance(value, str) for value in words.values())
        ):
            raise LessonError(f"{where}: {name!r} must map languages to texts, English ({ENGLISH!r}) among them")
    for name in ("widgets", "code"):
        if not isinstance(entry.get(name, []), list) or not all(isinstance(v, str) and v for v in entry.get(name, [])):
            raise LessonError(f"{where}: {name!r} must be a list of names")
    if entry.get("action") not in (None, *ACTIONS):
        raise LessonError(f"{where}: action {entry['action']!r} is not one of {', '.join(ACTIONS)}")
    if entry.get("needs") not in (None, NEEDS_RUN):
        raise LessonError(f"{where}: needs {entry['needs']!r} is not {NEEDS_RUN!r}")
    if not isinstance(entry.get("key"), str) or not isinstance(entry.get("tab") or "", str):
        raise LessonError(f"{where}: 'key' must be a name, 'tab' a name or null")
    if entry.get("measure") not in (None, *MEASURES):
        raise LessonError(f"{where}: measure {entry['measure']!r} is not one of {', '.join(MEASURES)}")
    for name in ("explain", "no_gpu"):
        words = entry.get(name, {})
        if not isinstance(words, dict) or not all(isinstance(value, str) for value in words.values()):
            raise LessonError(f"{where}: {name!r} must map languages to texts")
    try:
        guess = spec_from(entry.get("guess"))
    except ValueError as error:
        raise LessonError(f"{where}: {error}") from None
    if (guess is None) != (entry.get("measure") is None) or (guess is not None and not entry.get("explain")):
        raise LessonError(f"{where}: a step with a 'guess' has a 'measure' and an 'explain', and only such a step")
    return Step(
        entry["key"],
        dict(entry["title"]),
        dict(entry["text"]),
        tuple(entry.get("widgets", [])),
        tuple(entry.get("code", [])),
        entry.get("tab"),
        entry.get("action"),
        entry.get("needs"),
        guess,
        entry.get("measure"),
        dict(entry.get("explain", {})),
        dict(entry.get("no_gpu", {})),
    )


class _Known(dict):
    def __missing__(self, key: str) -> str:  # a value not known yet stays as its name
        return "{" + key + "}"


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with the {names} of `values` filled in; the others left as they are."""
    return text.format_map(_Known(values))


def code_lines(script: str, pieces: tuple[str, ...]) -> list[int]:
    """The numbers (from 0) of the script's lines that hold any of `pieces`."""
    return [number for number, line in enumerate(script.splitlines()) if any(piece in line for piece in pieces)]


def missing_code(script: str, pieces: tuple[str, ...]) -> list[str]:
    """The pieces no line of the script holds (a check for the tests: every step's marked code is in its script)."""
    lines = script.splitlines()
    return [piece for piece in pieces if not any(piece in line for line in lines)]
