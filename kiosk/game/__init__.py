"""The game's vocabulary and rules, shared by the service, the stations and the screens:
typed commands, refusals and their codes, the screens' snapshot, bets and spots, the
round book and the decision values; the pure checks (:mod:`kiosk.game.rules`) and paytable
administration (:mod:`kiosk.game.paytables`).  Imports no service, station or screen."""
