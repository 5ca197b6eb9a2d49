"""The Qt face of gpudemo. `from gpudemo.ui import MainWindow` loads Qt; importing a room's module that
needs no Qt (ui/base/resources.py) does not."""

__all__ = ["MainWindow"]


def __getattr__(name: str):
    if name == "MainWindow":
        from gpudemo.ui.main_window import MainWindow

        return MainWindow
    raise AttributeError(name)
