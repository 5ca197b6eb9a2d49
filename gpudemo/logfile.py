"""The log file: what went wrong, kept for a bug report, in the user's state directory.

On Linux `$XDG_STATE_HOME/gpudemo/gpudemo.log` (`~/.local/state/gpudemo/gpudemo.log`), on macOS
`~/Library/Logs/gpudemo/gpudemo.log`, on Windows `%LOCALAPPDATA%\\gpudemo\\Logs\\gpudemo.log`. It rotates
at 1 MiB and keeps three old files, so it never grows without bound. No Qt here: the window
and the command line can both log.
"""

from __future__ import annotations

import logging
import os
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

MAX_BYTES = 2**20
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
LOGGER = "gpudemo"


def state_dir() -> Path:
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "gpudemo" / "Logs"
    if sys.platform == "darwin":
        return home / "Library" / "Logs" / "gpudemo"
    return Path(os.environ.get("XDG_STATE_HOME") or home / ".local" / "state") / "gpudemo"


def log_path() -> Path:
    return state_dir() / "gpudemo.log"


def start_logging() -> Path | None:
    """Send gpudemo's log records to the rotating file (once); returns its path, or None when the
    directory cannot be made (a read-only home): then records go to stderr only."""
    if current_log() is not None:
        return current_log()
    logger = logging.getLogger(LOGGER)
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return path


def current_log() -> Path | None:
    """The log file records go to now, if any."""
    for handler in logging.getLogger(LOGGER).handlers:
        if isinstance(handler, RotatingFileHandler):
            return Path(handler.baseFilename)
    return None
