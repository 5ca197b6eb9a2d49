"""Files the window needs at run time, shipped inside the package."""

from importlib.resources import files
from pathlib import Path


def icon_path() -> Path:
    return Path(str(files("gpudemo") / "resources" / "icon.svg"))
