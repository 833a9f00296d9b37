"""Cabinet peripherals: bill validator and ticket printer drivers, and their simulators.

Where things live:

* :mod:`devices.host` -- the interface a controller implements (``ValidatorHost``,
  ``DeviceEventSink``) and the ``DeviceEvent`` record every fault becomes.
* :mod:`devices.polling` -- the lifecycle every driver shares: the serial port, the polling
  thread, its interval and exception policy, and a port that vanishes (closed, reported,
  reopened on the back-off of :mod:`devices.port_loss`); :mod:`devices.comm_health` counts
  failed exchanges and retries them; :mod:`devices.serialport` opens a UART or a pty.
* :mod:`devices.id003` -- JCM ID-003 bill validator: CRC, frames, codes, denominations, the
  framed exchange (``link``), the escrow cycle (``escrow``), driver.
* :mod:`devices.tcl` -- TCL ticket printer (FutureLogic GEN2/GEN5 style): status, commands,
  ticket layout, driver.
* :mod:`devices.ticket`, :mod:`devices.validation`, :mod:`devices.itf` -- the cash-out ticket
  record, amounts in words, 18-digit validation numbers and their interleaved 2-of-5 barcode.
* :mod:`devices.sim` -- protocol-exact simulators on the master side of a pseudo-terminal,
  with shared fault injection (:mod:`devices.sim.faults`).
* :mod:`devices.probe` -- identify whatever answers on a serial port.

Money is always integer cents.
"""
