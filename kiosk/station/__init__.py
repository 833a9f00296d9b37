"""A player station: its port to the game service, the port's two adapters side by side,
and the controller the cabinet's pygame screens drive over either.

* :mod:`.port`: :class:`StationPort`, what a station needs of the game service;
* :mod:`.local`: :class:`LocalTable`, the port in the service's own process (the lone
  cabinet);
* :mod:`.remote`: :class:`RemoteTable`, the port over the table's link (a shared
  table's station);
* :mod:`.snapshot`: a :class:`~kiosk.service.snapshot.StationSnapshot` (plus the table's
  paytable and limits) as the :class:`~kiosk.game.snapshot.MachineSnapshot` the
  screens read;
* :mod:`.controller`: :class:`StationController`, what the screens' model drives;
* :mod:`.strip`: what a station's table screen adds (the other seats, the countdown, the
  timeout notice);
* :mod:`.notes`: the station's bill validator (the ID-003 driver), two-phase through
  the host (``--validator PORT``);
* :mod:`.screens`: the station's window (``uth kiosk --station N --host ADDR``);
* :mod:`.display`: the dealer display fed by the host (``uth table display``);
* :mod:`.autoplay`: the station's burn-in player over a :class:`RemoteTable`.
"""
