"""A player station's screens over the shared table: the cabinet's pygame screens driven
by a :class:`~kiosk.table.remote.RemoteTable` instead of a local machine.

* :mod:`.snapshot`: a :class:`~kiosk.table.snapshot.StationSnapshot` (plus the table's
  paytable and limits) as the :class:`~kiosk.machine.snapshot.MachineSnapshot` the
  screens read;
* :mod:`.controller`: :class:`StationController`, what the screens' model drives;
* :mod:`.strip`: what a station's table screen adds (the other seats, the countdown, the
  timeout notice);
* :mod:`.notes`: the station's bill validator (the ID-003 driver), two-phase through
  the host (``--validator PORT``);
* :mod:`.screens`: the station's window (``uth kiosk --station N --host ADDR``);
* :mod:`.display`: the dealer display fed by the host (``uth table display``).
"""
