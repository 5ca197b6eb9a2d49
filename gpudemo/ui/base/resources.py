"""Files the window needs at run time, shipped inside the package."""

from importlib.resources import files
from pathlib import Path


def icon_path() -> Path:
    return Path(str(files("gpudemo") / "resources" / "icon.svg"))


def translations_dir() -> Path:
    """The compiled translations (gpudemo_<language>.qm); their .ts sources lie beside them in the repository."""
    return Path(str(files("gpudemo") / "resources" / "translations"))
