"""The cabinet's screens.  Each is a :class:`~kiosk.ui.scenes.base.Scene`.

``attract`` -> ``table`` (bets, decisions, results) with ``paytable``, ``help``,
``recall`` and ``settings`` a touch away; ``cashout`` while a payout runs; ``operator``
behind the key switch (F12) or the hidden corner sequence and a PIN.  The Tournament
button on the attract screen opens ``tournament_setup`` -> ``tournament`` (the table) with
``tournament_history``, ``tournament_rankings``, ``tournament_results`` and
``tournament_records``.
"""

from __future__ import annotations


def registry() -> dict[str, type]:
    from kiosk.ui.scenes.attract import AttractScene
    from kiosk.ui.scenes.cashout import CashoutScene
    from kiosk.ui.scenes.help import HelpScene
    from kiosk.ui.scenes.operator import OperatorScene
    from kiosk.ui.scenes.paytable import PaytableScene
    from kiosk.ui.scenes.recall import RecallScene
    from kiosk.ui.scenes.settings import SettingsScene
    from kiosk.ui.scenes.table import TableScene
    from kiosk.ui.scenes.tournament.history import TournamentHistoryScene
    from kiosk.ui.scenes.tournament.rankings import TournamentRankingsScene
    from kiosk.ui.scenes.tournament.records import TournamentRecordsScene
    from kiosk.ui.scenes.tournament.results import TournamentResultsScene
    from kiosk.ui.scenes.tournament.setup import TournamentSetupScene
    from kiosk.ui.scenes.tournament.table import TournamentTableScene

    scenes = (AttractScene, TableScene, PaytableScene, HelpScene, RecallScene, SettingsScene,
              CashoutScene, OperatorScene,
              # tournament mode (free play, chips are points): setup -> table -> results
              TournamentSetupScene, TournamentTableScene, TournamentHistoryScene, TournamentRankingsScene,
              TournamentResultsScene, TournamentRecordsScene)
    return {cls.name: cls for cls in scenes}
