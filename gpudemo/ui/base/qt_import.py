"""Qt imported for the window, without PySide6's reading of every module imported after it.

Importing PySide6.QtCore replaces `builtins.__import__` with its `__feature__` hook: after each new module
it reads the module's whole source (`inspect.getsource`) to see whether it names PySide6, so that a module
which selects `from __feature__ import snake_case` gets its own view of the Qt classes. gpudemo selects no
feature, and torch's modules (about 1,000 at import, 830 more when the first optimizer is built, thousands
for torch.compile) never touch Qt, yet each is read and its text kept in `linecache`. Measured here
(2 cores, torch 2.13.0+cpu): `import torch` 0.93-1.0 s after PySide6 against 0.82-0.84 s with the reading
narrowed, the window's modules 0.38-0.44 s against 0.33-0.34 s; once the optimizer is warmed, the process
holds 360 MB instead of 450 (3 MB of source text in linecache instead of 38).

`narrow_source_scan()` keeps the reading for the packages that use Qt (gpudemo, pyqtgraph, pytest-qt, the
script run as __main__) and answers "does not use PySide6" for the others, which is what the reading finds
in them. A PySide6 without this private hook (another version) is left as it is.
"""

from __future__ import annotations

import sys
from types import ModuleType

QT_USERS = frozenset({"gpudemo", "pyqtgraph", "pytestqt", "__main__"})  # read as before: they use Qt
_FEATURE_MODULE = "shibokensupport.feature"


def narrow_source_scan() -> bool:
    """Import PySide6.QtCore (which installs the hook) and narrow the hook's reading to QT_USERS. True if the
    hook was found and narrowed (now or by an earlier call)."""
    import PySide6.QtCore  # noqa: F401  (the hook is installed by this import)

    feature = sys.modules.get(_FEATURE_MODULE)
    scan = getattr(feature, "_mod_uses_pyside", None)
    if scan is None:
        return False
    if getattr(scan, "narrowed", False):
        return True

    def uses_pyside(module: ModuleType) -> bool:
        name = getattr(module, "__name__", "") or ""
        return name.partition(".")[0] in QT_USERS and scan(module)

    uses_pyside.narrowed = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[union-attr]
    return True
