"""The two ends of the tournament's seat port (:mod:`kiosk.tournament.seat_port`), side
by side: the cabinet player's seat of the game in this process (:mod:`.local`, friends
around it when the cabinet hosts) and a seat in a game another cabinet hosts, over the
friends link (:mod:`.link`).  Both make the same :class:`TableView` of the same table."""
