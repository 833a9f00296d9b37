"""The one game service: :class:`kiosk.service.table.Table` plays one Ultimate Texas
Hold'em round for 1-7 player stations (a lone cabinet is a table of one local station):
rounds, money in, payouts, operators, settings, audit, restore at power-up, the casino
system's requests, one typed handler table (:mod:`kiosk.service.dispatch`)."""
