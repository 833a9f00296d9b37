"""JCM ID-003 bill validator: CRC, framing, codes, denomination tables, the framed exchange,
the escrow cycle and the host driver.

Serial line: 9600 baud, 8 data bits, even parity, 1 stop bit.
"""

from devices.id003.codes import Command, Status
from devices.id003.config import ValidatorConfig
from devices.id003.crc import crc16_kermit
from devices.id003.denominations import DEFAULT_USD, USD_ASSIGNMENT, Denomination, DenominationTable
from devices.id003.driver import BillValidator
from devices.id003.frame import BadFrame, Frame, FrameDecoder, decode_frame, encode_frame
from devices.id003.link import CommStats

__all__ = [
    "DEFAULT_USD",
    "USD_ASSIGNMENT",
    "BadFrame",
    "BillValidator",
    "Command",
    "CommStats",
    "Denomination",
    "DenominationTable",
    "Frame",
    "FrameDecoder",
    "Status",
    "ValidatorConfig",
    "crc16_kermit",
    "decode_frame",
    "encode_frame",
]
