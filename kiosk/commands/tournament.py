"""``uth tournament``: tournament Hold'em with friends (see :mod:`kiosk.friends.demo`)."""

from kiosk.friends.demo import register

__all__ = ["register"]
