"""The window's language: Qt's translators for gpudemo's own strings and for Qt's dialogs.

English is the source language (no translator); Simplified Chinese comes from
`resources/translations/gpudemo_zh_CN.qm`, built from its .ts by `python3 dev.py
translations`, and from Qt's own `qtbase_zh_CN.qm` for standard dialogs and buttons.
The system locale picks the language at first start; after that the View menu does,
and the choice is remembered. Messages from the core (which imports no Qt) arrive as
`core.messages.Message` and are rendered here, in the "core" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from gpudemo.core.messages import CONTEXT, Message, PersonError
from gpudemo.ui.resources import translations_dir

ENGLISH, CHINESE = "en", "zh_CN"
# Each language's name as its speakers write it (a menu of languages is read by people who
# may not read the one shown now).
LANGUAGES = {ENGLISH: "English", CHINESE: "简体中文"}

_installed: list[QTranslator] = []  # Qt keeps no reference: these must live as long as they are installed
_current = ENGLISH


def system_language(locale: QLocale | None = None) -> str:
    """CHINESE for a Chinese locale written in simplified characters (zh_CN, zh_SG), else ENGLISH."""
    locale = locale if locale is not None else QLocale.system()
    if locale.language() == QLocale.Language.Chinese and locale.script() != QLocale.Script.TraditionalHanScript:
        return CHINESE
    return ENGLISH


def current() -> str:
    return _current


def install(language: str) -> bool:
    """Make `language` the application's; False (and English) when its translation cannot be loaded."""
    global _current
    app = QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    _current = ENGLISH
    if language == ENGLISH:
        return True
    if language not in LANGUAGES:
        return False
    ours = QTranslator(app)
    if not ours.load(f"gpudemo_{language}", str(translations_dir())):
        return False
    qt = QTranslator(app)  # Qt's own strings: the buttons of message boxes, file dialogs
    qt_found = qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    for translator in ([qt] if qt_found else []) + [ours]:
        app.installTranslator(translator)
        _installed.append(translator)
    _current = language
    return True


def status_text(status: str) -> str:
    """A run's status (core.runs, core.training) as a person reads it."""
    texts = {
        "preparing": QCoreApplication.translate("Status", "preparing"),
        "running": QCoreApplication.translate("Status", "training"),
        "paused": QCoreApplication.translate("Status", "paused"),
        "completed": QCoreApplication.translate("Status", "completed"),
        "stopped": QCoreApplication.translate("Status", "stopped"),
        "diverged": QCoreApplication.translate("Status", "diverged"),
        "failed": QCoreApplication.translate("Status", "failed"),
        "loaded": QCoreApplication.translate("Status", "loaded"),
    }
    return texts.get(status, status)


def problem_text(key: str) -> str:
    """A problem's short name (core.settings.PROBLEM_KEYS): the key itself in English, as the CLI takes it."""
    texts = {
        "tutorial": QCoreApplication.translate("Names", "tutorial"),
        "line": QCoreApplication.translate("Names", "line"),
        "sine": QCoreApplication.translate("Names", "sine"),
    }
    return texts.get(key, key)


def optimizer_text(key: str) -> str:
    """An optimizer's short name (core.settings.OPTIMIZER_KEYS), as problem_text."""
    texts = {
        "sgd": QCoreApplication.translate("Names", "sgd"),
        "momentum": QCoreApplication.translate("Names", "momentum"),
        "adam": QCoreApplication.translate("Names", "adam"),
    }
    return texts.get(key, key)


def say(text: Message | BaseException | str | None) -> str:
    """A core message, or an error's, in the window's language; plain text as it is."""
    if text is None:
        return ""
    if isinstance(text, PersonError):
        text = text.message
    if isinstance(text, Message):
        return text.render(lambda template: QCoreApplication.translate(CONTEXT, template))
    return str(text)
