"""The casino's slot system link (SAS 6.02): the line, not the game.

* :mod:`devices.sas.crc` -- CRC-16/KERMIT, the message CRC (x^16+x^12+x^5+1, seed 0).
* :mod:`devices.sas.bcd` -- packed BCD, the numbers of meters, amounts and dates.
* :mod:`devices.sas.marks` -- the wakeup bit as bytes: the encoding Linux gives a reader of
  a UART in space parity with ``INPCK | PARMRK``, which is also the pseudo-terminal test
  transport's framing.
* :mod:`devices.sas.line` -- the :class:`~devices.sas.line.WakeupLine` protocol and its
  pseudo-terminal implementation; :mod:`devices.sas.uart` the real UART (mark / space
  parity through ``termios``'s ``CMSPAR``) and its probe.
* :mod:`devices.sas.frames` -- message lengths and framing (type R, S, M, G polls, their
  answers, ACK / NACK / busy).
* :mod:`devices.sas.host` -- a technician's host: general polls, long polls with implied
  NACK retries, the answers decoded; what ``uth sas host`` drives.

Money is integer cents; SAS meters here count the accounting denomination of one cent.
"""
