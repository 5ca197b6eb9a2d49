"""The window's language: Qt's translators for gpudemo's own strings and for Qt's dialogs.

English is the source language (no translator); Simplified Chinese comes from
`resources/translations/gpudemo_zh_CN.qm`, built from its .ts by `python3 dev.py
translations`, and from Qt's own `qtbase_zh_CN.qm` for standard dialogs and buttons.
The system locale picks the language at first start; after that the View menu does,
and the choice is remembered. Messages from the core (which imports no Qt) arrive as
`core.messages.Message` and are rendered here, in the "core" context.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QTranslator,
)

from gpudemo.core.base.messages import CONTEXT, Message, PersonError
from gpudemo.ui.base.resources import translations_dir

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


def has_font_for(language: str) -> bool:
    """Whether a font on this machine draws `language`'s script (without one, Qt draws boxes)."""
    from PySide6.QtGui import QFontDatabase

    if language != CHINESE:
        return True
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


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


# What a person reads for a key of the core: a run's status (core.runs, core.training), a problem and an
# optimizer (core.settings): English as the command line takes them, translated where shown.
STATUSES = {
    "preparing": QT_TRANSLATE_NOOP("Status", "preparing"),
    "running": QT_TRANSLATE_NOOP("Status", "training"),
    "paused": QT_TRANSLATE_NOOP("Status", "paused"),
    "completed": QT_TRANSLATE_NOOP("Status", "completed"),
    "stopped": QT_TRANSLATE_NOOP("Status", "stopped"),
    "diverged": QT_TRANSLATE_NOOP("Status", "diverged"),
    "failed": QT_TRANSLATE_NOOP("Status", "failed"),
    "refused": QT_TRANSLATE_NOOP("Status", "refused"),
    "loaded": QT_TRANSLATE_NOOP("Status", "loaded"),
}
NAMES = {
    "tutorial": QT_TRANSLATE_NOOP("Names", "tutorial"),
    "line": QT_TRANSLATE_NOOP("Names", "line"),
    "sine": QT_TRANSLATE_NOOP("Names", "sine"),
    "circles": QT_TRANSLATE_NOOP("Names", "circles"),
    "xor": QT_TRANSLATE_NOOP("Names", "xor"),
    "spiral": QT_TRANSLATE_NOOP("Names", "spiral"),
    "digits": QT_TRANSLATE_NOOP("Names", "digits"),
    "sgd": QT_TRANSLATE_NOOP("Names", "sgd"),
    "momentum": QT_TRANSLATE_NOOP("Names", "momentum"),
    "adam": QT_TRANSLATE_NOOP("Names", "adam"),
}


def status_text(status: str) -> str:
    return QCoreApplication.translate("Status", STATUSES[status]) if status in STATUSES else status


def name_text(key: str) -> str:
    """A problem's or an optimizer's key as a person reads it."""
    return QCoreApplication.translate("Names", NAMES[key]) if key in NAMES else key


def say(text: Message | BaseException | str | None) -> str:
    """A core message, or an error's, in the window's language; plain text as it is."""
    if text is None:
        return ""
    if isinstance(text, PersonError):
        text = text.message
    if isinstance(text, Message):
        return text.render(lambda template: QCoreApplication.translate(CONTEXT, template))
    return str(text)


def epochs_text(count: int) -> str:
    """ "1 epoch", "1,234 epochs": a count of epochs as a person reads it (a run stopped after its first, a
    step taken from a pause), in the window's language."""
    if count == 1:
        return QCoreApplication.translate("Units", "1 epoch")
    return QCoreApplication.translate("Units", "{count} epochs").format(count=f"{count:,}")
