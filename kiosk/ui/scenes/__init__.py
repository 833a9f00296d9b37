"""The cabinet's screens.  Each is a :class:`~kiosk.ui.scenes.base.Scene`.

``attract`` -> ``table`` (bets, decisions, results) with ``paytable``, ``help``,
``recall`` and ``settings`` a touch away; ``cashout`` while a payout runs; ``operator``
behind the key switch (F12) or the hidden corner sequence and a PIN.
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

    scenes = (AttractScene, TableScene, PaytableScene, HelpScene, RecallScene, SettingsScene,
              CashoutScene, OperatorScene)
    return {cls.name: cls for cls in scenes}
