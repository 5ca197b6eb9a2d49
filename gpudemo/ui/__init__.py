"""The Qt face of gpudemo."""

from gpudemo.ui.main_window import MainWindow

__all__ = ["MainWindow"]
