"""The casino's slot system (SAS 6.02), machine side: the cabinet (or each station of a
table) answers the casino's host.

* :mod:`kiosk.sas.port` -- the one port to the game service (:class:`GamePort`);
  :mod:`kiosk.sas.game_port` implements it over the game service.
* :mod:`kiosk.sas.codes`, :mod:`kiosk.sas.codec` -- the vocabulary and the long-poll codec.
* :mod:`kiosk.sas.exceptions` -- which exception each ledger event or round raises.
* :mod:`kiosk.sas.store`, :mod:`kiosk.sas.view`, :mod:`kiosk.sas.shared` -- the queue
  and exchanges on disk, the picture the poll thread answers from, what the threads share.
* :mod:`kiosk.sas.egm` -- one address answering; :mod:`kiosk.sas.responder` -- the poll
  thread; :mod:`kiosk.sas.link` -- the updater thread; :mod:`kiosk.sas.service` -- all of it.
* :mod:`kiosk.sas.process` -- all of it in a child process of the game's (the cabinet's:
  its screens never delay an answer); :mod:`kiosk.sas.remote` -- that process and its
  port; :mod:`kiosk.sas.wire` -- the port's calls between the two, checked.

The line itself (CRC, wakeup bit, UART, pty, the technician's host) is :mod:`devices.sas`.
"""
