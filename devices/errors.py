"""Errors raised by the device layer.  Each carries what was wrong."""

from __future__ import annotations


class DeviceError(Exception):
    """Base class for device-layer errors."""


class FrameError(DeviceError):
    """A received frame is malformed; ``raw`` holds the offending bytes."""

    def __init__(self, message: str, raw: bytes = b"") -> None:
        super().__init__(message)
        self.raw = raw


class CrcError(FrameError):
    """The frame's CRC does not match its contents."""


class FrameLengthError(FrameError):
    """The frame's length byte is impossible or disagrees with the bytes received."""


class StatusFormatError(FrameError):
    """A TCL status response does not have the ``*S|...|*`` shape."""


class DeviceTimeoutError(DeviceError):
    """The device did not answer in time."""


class PrinterLayoutError(DeviceError):
    """The printer refused a region or template definition."""


class TicketDataError(ValueError):
    """A ticket field is invalid (bad amount, bad validation number, unprintable text...)."""
