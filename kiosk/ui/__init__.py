"""The cabinet's screens: a thin pygame skin over a station's controller
(:class:`kiosk.station.controller.StationController`).

Where things live:

* :mod:`kiosk.ui.app` -- the main loop: one scene at a time, overlays, frame pacing,
  systemd watchdog pings; :class:`~kiosk.ui.app.App` can also be stepped frame by frame
  by tests (``app.feed(events)``, ``app.step(dt)``) with no real input device.
  :data:`kiosk.ui.app.SCENES` lists every screen.
* :mod:`kiosk.ui.host` -- :class:`~kiosk.ui.host.SceneHost`, the app as a scene sees it
  (scenes never import the app).
* :mod:`kiosk.ui.events` / :mod:`kiosk.ui.input` / :mod:`kiosk.ui.shortcuts` -- the
  program's own input events (``Touch``, ``Key``, ``Command``), the one place raw pygame
  events are translated, and the keyboard shortcuts.
* :mod:`kiosk.ui.model` -- reads snapshots from the controller and sends it
  :mod:`kiosk.game.commands` commands; turns a refusal
  (:class:`kiosk.game.errors.MachineError`) into a translated note, by its ``code`` and
  ``params`` (:mod:`kiosk.ui.machine_messages`).
* :mod:`kiosk.ui.scenes` -- attract, table (a package: geometry, animation, requests,
  buttons, layers), paytable, help, recall, settings, cash-out, operator menu, and the
  tournament's screens; each has ``handle(event)``, ``update(dt)`` and ``draw(surface)``
  and never owns a game rule.
* :mod:`kiosk.ui.raise_range` -- the tournament raise panel's amounts.
* :mod:`kiosk.ui.layout`, :mod:`kiosk.ui.theme`, :mod:`kiosk.ui.text`,
  :mod:`kiosk.ui.cards`, :mod:`kiosk.ui.widgets` -- drawing: one design resolution
  (1280x720) scaled to the screen, cached text and card surfaces.
* :mod:`kiosk.ui.i18n` -- gettext catalogues in ``kiosk/locale`` (en, ja, th, fr), hand
  names built from :func:`engine.hands.categories.hand_class`, money formatting.
* :mod:`kiosk.ui.sound`, :mod:`kiosk.ui.prefs`, :mod:`kiosk.ui.demo` (the demo keys: bills
  and tickets into the device simulators, in one small adapter), :mod:`kiosk.ui.sdnotify`
  (systemd notify protocol).
"""
