"""Friends on their phones: the host cabinet's game server for remote players.

* :class:`FriendsGame` (:mod:`~kiosk.friends.game`): the game around the cabinet's
  :class:`~kiosk.tournament.session.TournamentSession` -- seats taken by name, moves
  checked before the rules see them, the away timer, Leave the game, the Next hand vote,
  each seat's own view (:mod:`~kiosk.friends.views`).  No I/O; one owner thread.
* :class:`FriendsServer` (:mod:`~kiosk.friends.server`): the page, its assets
  (``web/``, :mod:`~kiosk.friends.web`, :mod:`~kiosk.friends.strings`) and the socket,
  with every bad input refused; :mod:`~kiosk.friends.messages` the client's messages.
* :class:`FriendsHost` (:mod:`~kiosk.friends.host`): the two together, pumped by the
  cabinet's frame loop or a thread of its own.
* :class:`CabinetHost` (:mod:`~kiosk.friends.cabinet`): a game hosted by this cabinet
  as its screens use it (the lobby, Start, the frame loop's pump, the host leaving and
  coming back).
* :class:`FriendsClient` (:mod:`~kiosk.friends.client`): this cabinet's seat in a game
  another cabinet hosts, over the same socket protocol as the phones.
  :mod:`~kiosk.friends.joined` keeps the result of a joined game in this cabinet's
  records; :mod:`~kiosk.friends.station` (``uth tournament join --autoplay random
  --headless``) plays such a seat with random legal moves, the technician's burn-in.
* :mod:`~kiosk.friends.turns` (the turn timer), :mod:`~kiosk.friends.outbox` (what is
  waiting to be sent), :mod:`~kiosk.friends.vote` (Next hand).
* :mod:`~kiosk.friends.invite`: the QR code of the link (PNG or pygame surface);
  :mod:`~kiosk.friends.demo`: ``uth tournament host``.

Chips are points: nothing here touches credits, meters or the ledger.
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from kiosk.friends.cabinet import CabinetHost
    from kiosk.friends.client import FriendsClient, JoinRefused
    from kiosk.friends.codes import CODE_LENGTH, NAME_MAX, NameRefused, clean_name, new_code
    from kiosk.friends.game import FriendsGame
    from kiosk.friends.host import FriendsHost
    from kiosk.friends.invite import invite_png, invite_surface, qr_matrix
    from kiosk.friends.messages import MAX_FRAME_BYTES, Refusal
    from kiosk.friends.roster import Friend, FriendsTimers
    from kiosk.friends.server import FriendsServer, ServerLimits

#: Each name this package offers, by the module that defines it: imported on first use,
#: so a program that needs one module does not load every other.
_WHERE = {
    "CabinetHost": "kiosk.friends.cabinet",
    "FriendsClient": "kiosk.friends.client",
    "JoinRefused": "kiosk.friends.client",
    "CODE_LENGTH": "kiosk.friends.codes",
    "NAME_MAX": "kiosk.friends.codes",
    "NameRefused": "kiosk.friends.codes",
    "clean_name": "kiosk.friends.codes",
    "new_code": "kiosk.friends.codes",
    "FriendsGame": "kiosk.friends.game",
    "FriendsHost": "kiosk.friends.host",
    "invite_png": "kiosk.friends.invite",
    "invite_surface": "kiosk.friends.invite",
    "qr_matrix": "kiosk.friends.invite",
    "MAX_FRAME_BYTES": "kiosk.friends.messages",
    "Refusal": "kiosk.friends.messages",
    "Friend": "kiosk.friends.roster",
    "FriendsTimers": "kiosk.friends.roster",
    "FriendsServer": "kiosk.friends.server",
    "ServerLimits": "kiosk.friends.server",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "CODE_LENGTH",
    "CabinetHost",
    "MAX_FRAME_BYTES",
    "NAME_MAX",
    "Friend",
    "FriendsClient",
    "FriendsGame",
    "FriendsHost",
    "FriendsServer",
    "FriendsTimers",
    "JoinRefused",
    "NameRefused",
    "Refusal",
    "ServerLimits",
    "clean_name",
    "invite_png",
    "invite_surface",
    "new_code",
    "qr_matrix",
]
