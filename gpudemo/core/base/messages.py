"""Sentences for a person, kept as an English template and its fields, so the window can translate them.

The core imports no Qt, so it cannot translate; it only marks its templates with
`QT_TRANSLATE_NOOP("core", ...)`, which pyside6-lupdate finds by name. The command line
prints a message as it is (`str(message)`); the window renders it through Qt's
translator (`gpudemo.ui.base.i18n.say`). A field may be a Message itself (a setting's name),
rendered in the same language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

CONTEXT = "core"  # the translation context of every template here


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 (the name lupdate looks for)
    """Mark `text` for translation in `context`; it is translated where it is shown."""
    return text


def _keep(text: str) -> str:
    return text


@dataclass(frozen=True)
class Message:
    template: str  # English, with {name} fields
    fields: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = _keep) -> str:
        values = {
            key: value.render(translate) if isinstance(value, Message) else value for key, value in self.fields.items()
        }
        try:
            return translate(self.template).format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with a broken field: the English is right
            return self.template.format(**values)

    def __str__(self) -> str:
        return self.render()


def message(template: str, **fields: Any) -> Message:
    return Message(template, fields)


class PersonError(Exception):
    """An error whose text is for a person: `str(error)` in English, `error.message` to translate."""

    def __init__(self, message: Message | str):
        if isinstance(message, str):
            message = Message(message)
        super().__init__(str(message))
        self.message = message


def epochs_phrase(count: int) -> Message:
    """ "1 epoch", "2,000 epochs"."""
    if count == 1:
        return Message(QT_TRANSLATE_NOOP("core", "1 epoch"))
    return message(QT_TRANSLATE_NOOP("core", "{count} epochs"), count=f"{count:,}")
