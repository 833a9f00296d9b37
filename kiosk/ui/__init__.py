"""The cabinet's screens: a thin pygame skin over :class:`kiosk.machine.controller.Machine`.

Where things live:

* :mod:`kiosk.ui.app` -- the main loop: one scene at a time, overlays, frame pacing,
  systemd watchdog pings; :class:`~kiosk.ui.app.App` can also be stepped frame by frame
  by tests (``app.feed(events)``, ``app.step(dt)``) with no real input device.
* :mod:`kiosk.ui.events` / :mod:`kiosk.ui.input` -- the program's own input events
  (``Touch``, ``Key``, ``Command``) and the one place raw pygame events are translated.
* :mod:`kiosk.ui.model` -- reads snapshots from the controller and calls it; turns a
  refused operation (:class:`kiosk.machine.controller.MachineError`) into a translated note, by its
  ``code`` and ``params`` (:mod:`kiosk.ui.machine_messages`).
* :mod:`kiosk.ui.scenes` -- attract, table, paytable, help, recall, settings, cash-out,
  operator menu; each has ``handle(event)``, ``update(dt)`` and ``draw(surface)`` and
  never owns a game rule.
* :mod:`kiosk.ui.layout`, :mod:`kiosk.ui.theme`, :mod:`kiosk.ui.text`,
  :mod:`kiosk.ui.cards`, :mod:`kiosk.ui.widgets` -- drawing: one design resolution
  (1280x720) scaled to the screen, cached text and card surfaces.
* :mod:`kiosk.ui.i18n` -- gettext catalogues in ``kiosk/locale`` (en, ja, th, fr), hand
  names built from :func:`engine.hands.categories.hand_class`, money formatting.
* :mod:`kiosk.ui.sound`, :mod:`kiosk.ui.prefs`, :mod:`kiosk.ui.demo` (the demo keys: bills
  and tickets into the device simulators, in one small adapter), :mod:`kiosk.ui.sdnotify`
  (systemd notify protocol).
"""
