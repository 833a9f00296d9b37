"""The operator menu: the scene (PIN, menu, title bar) and one module per page."""

from kiosk.ui.scenes.operator.scene import PAGES, OperatorScene

__all__ = ["PAGES", "OperatorScene"]
