"""The one composition root: every runnable thing built from its configuration, and
torn down, in one place.

* :mod:`kiosk.wiring.cabinet`: the lone cabinet (``uth kiosk``): the game service with
  its one local station, its devices, the slot-system link, the tournament and the
  screens; the demo's scripted player;
* :mod:`kiosk.wiring.station`: a player station of a shared table (``uth kiosk
  --station N``): its link, validator, printer, controller and screens;
* :mod:`kiosk.wiring.host`: the table host (``uth table serve``, also the burn-in): the
  game service of 1-7 stations, its link, the dealer displays' link and the
  slot-system link; nothing of the screens;
* :mod:`kiosk.wiring.door`: the slot door switch of the configuration, on a cabinet.

The submodules are imported by name (this package imports none of them), so a host
never loads the screens.
"""
