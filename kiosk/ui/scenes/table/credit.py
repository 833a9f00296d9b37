"""The credit rules, said before they bite: what a deal needs, what the player can do now.

A deal needs credits for Ante + Blind + Trips plus a 1x Play
(:func:`kiosk.game.rules.betting.deal_cost`), and its bets must lie within the table
limits; the controller's own check (:func:`kiosk.game.rules.betting.check_bets`) decides
whether DEAL is lit.  The decisions the round allows come from the engine
(:data:`engine.uth.round.LEGAL_BY_PHASE`), the affordable ones from the snapshot's
``offers``: the others are shown disabled.  Amounts are cents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.uth.round import LEGAL_BY_PHASE, PLAY_MULTIPLE, Action
from kiosk.game.errors import InsufficientCredits, MachineError
from kiosk.game.rules.betting import check_bets, check_progressive, deal_cost, require_ante
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.game.vocabulary import Bets
from kiosk.ui.i18n import N_, _

#: Cents -> the amount as shown.
Money = Callable[[int], str]

#: The decisions the player can afford -> the prompt naming exactly those.
PLAY_PROMPTS: dict[frozenset[Action], str] = {
    frozenset({Action.PLAY_4X, Action.PLAY_3X, Action.CHECK}): N_("Play 4× or 3× your Ante, or check."),
    frozenset({Action.PLAY_3X, Action.CHECK}): N_("Play 3× your Ante, or check. Your credits do not cover 4×."),
    frozenset({Action.PLAY_2X, Action.CHECK}): N_("Play 2× your Ante, or check."),
    frozenset({Action.CHECK}): N_("Check: your credits do not cover a Play bet now."),
    frozenset({Action.PLAY_1X, Action.FOLD}): N_("Play 1× your Ante, or fold."),
    frozenset({Action.FOLD}): N_("Fold: your credits do not cover the Play bet."),
}

NEEDS = N_("You need {needed}: Ante, Blind and the 1x Play.")
NEEDS_TRIPS = N_("You need {needed}: Ante, Blind, Trips and the 1x Play.")
READY = N_("Touch DEAL. This bet needs {needed}: Ante, Blind and the 1x Play.")
READY_TRIPS = N_("Touch DEAL. This bet needs {needed}: Ante, Blind, Trips and the 1x Play.")
#: (ready, with Trips, with the progressive) -> what the bet needs, in words.
NEED_TEXTS: dict[tuple[bool, bool, bool], str] = {
    (False, False, False): NEEDS,
    (False, True, False): NEEDS_TRIPS,
    (True, False, False): READY,
    (True, True, False): READY_TRIPS,
    (False, False, True): N_("You need {needed}: Ante, Blind, progressive and the 1x Play."),
    (False, True, True): N_("You need {needed}: Ante, Blind, Trips, progressive and the 1x Play."),
    (True, False, True): N_("Touch DEAL. This bet needs {needed}: Ante, Blind, progressive and the 1x Play."),
    (True, True, True): N_(
        "Touch DEAL. This bet needs {needed}: Ante, Blind, Trips, progressive and the 1x Play."),
}
#: (with Trips, with the progressive) -> what a rebet needs, in words.
REBET_TEXTS: dict[tuple[bool, bool], str] = {
    (False, False): N_("A rebet needs {needed}: Ante, Blind and the 1x Play."),
    (True, False): N_("A rebet needs {needed}: Ante, Blind, Trips and the 1x Play."),
    (False, True): N_("A rebet needs {needed}: Ante, Blind, progressive and the 1x Play."),
    (True, True): N_("A rebet needs {needed}: Ante, Blind, Trips, progressive and the 1x Play."),
}


@dataclass(frozen=True)
class Decision:
    """A decision of the round now: ``play`` cents it wagers (0 for a check or a fold),
    ``affordable`` when the credits cover it (it is among the snapshot's offers)."""

    action: Action
    play: int
    affordable: bool


def decisions(snap: MachineSnapshot) -> tuple[Decision, ...]:
    """Every decision the round allows now, in the engine's order; the ones the credits
    do not cover are ``affordable=False``.  Empty when nothing is to be decided."""
    offered = {o.action: o.play for o in snap.offers}
    if snap.phase is not MachinePhase.IN_ROUND or snap.game_phase not in LEGAL_BY_PHASE or not offered:
        return tuple(Decision(a, p, True) for a, p in offered.items())
    out = []
    for action in LEGAL_BY_PHASE[snap.game_phase]:
        play = offered.get(action, PLAY_MULTIPLE.get(action, 0) * snap.ante)
        out.append(Decision(action, play, action in offered))
    return tuple(out)


def decision_prompt(snap: MachineSnapshot) -> str:
    """The prompt naming only the decisions the player can take now ("" for none)."""
    key = frozenset(o.action for o in snap.offers)
    msgid = PLAY_PROMPTS.get(key)
    return _(msgid) if msgid else ""


def bets_to_deal(snap: MachineSnapshot) -> Bets:
    """What DEAL would wager: the chips placed, else (after a round) the rebet."""
    if snap.bet_ante or snap.bet_trips or snap.bet_progressive:
        return Bets(snap.bet_ante, snap.bet_trips, snap.bet_progressive)
    if snap.phase is MachinePhase.RESULT:  # the progressive again while it is offered
        again = snap.progressive if snap.progressive == snap.progressive_wager else 0
        return Bets(snap.ante, snap.trips, again)
    return Bets()


def deal_refusal(snap: MachineSnapshot) -> MachineError | None:
    """Why the controller would refuse DEAL now (``None``: it would deal)."""
    bets = bets_to_deal(snap)
    try:
        require_ante(bets)
        check_progressive(snap.paytable.progressive if snap.progressive_wager else None, bets)
        check_bets(snap.limits, snap.credits, bets, complete=True)
    except MachineError as exc:
        return exc
    return None


def _need_text(bets: Bets, money: Money, ready: bool) -> str:
    needed = money(deal_cost(bets))
    return _(NEED_TEXTS[ready, bool(bets.trips), bool(bets.progressive)]).format(needed=needed)


def betting_prompt(snap: MachineSnapshot, chip: int, money: Money) -> str:
    """The prompt between rounds: what the chips placed need, or why DEAL is not lit,
    or what the chosen ``chip`` (cents) would need as an Ante."""
    lim = snap.limits
    placed = bool(snap.bet_ante or snap.bet_trips or snap.bet_progressive)
    if not placed and snap.phase is MachinePhase.RESULT and snap.ante:
        if deal_refusal(snap) is None:
            return _("Place your bets, or rebet and deal.")
        return _("Place your bets. A rebet needs {needed}.").format(needed=money(deal_cost(bets_to_deal(snap))))
    if not snap.bet_ante:
        smallest = deal_cost(Bets(lim.ante_min))
        if snap.credits < smallest:
            return _("The smallest bet needs {needed}: Ante, Blind and the 1x Play.").format(needed=money(smallest))
        chosen = deal_cost(Bets(max(chip, lim.ante_min), snap.bet_trips))
        if snap.credits < chosen:
            return _("A {chip} Ante needs {needed}: Ante, Blind and the 1x Play. Choose a smaller chip.").format(
                chip=money(chip), needed=money(chosen))
        if placed:
            return _("Touch ANTE: a deal needs an Ante.")
        return _("Choose a chip, then touch ANTE.")
    refusal = deal_refusal(snap)
    bets = bets_to_deal(snap)
    if refusal is None:
        return _need_text(bets, money, ready=True)
    if isinstance(refusal, InsufficientCredits):
        return _need_text(bets, money, ready=False)
    rule = refusal.params.get("rule")
    if rule == "ante_min":
        return _("The Ante minimum is {amount}: add chips to ANTE.").format(amount=money(lim.ante_min))
    if rule == "trips_min":
        return _("The Trips minimum is {amount}: add chips to TRIPS.").format(amount=money(lim.trips_min))
    return _("That bet is outside the table limits.")


def refusal_text(snap: MachineSnapshot, exc: MachineError, money: Money, *, rebet: bool = False) -> str | None:
    """The words for a refused chip or rebet where the table knows more than the error:
    what a rebet needs (``rebet``), or what the smallest bet needs when the credits do
    not cover even the minimum Ante; ``None`` keeps the error's own words."""
    if not isinstance(exc, InsufficientCredits):
        return None
    needed = exc.params.get("needed")
    if rebet:
        bets = bets_to_deal(snap)
        cost = needed if isinstance(needed, int) else deal_cost(bets)
        return _(REBET_TEXTS[bool(snap.trips), bool(bets.progressive)]).format(needed=money(cost))
    smallest = deal_cost(Bets(snap.limits.ante_min))
    if not snap.bet_ante and snap.credits < smallest:
        return _("The smallest bet needs {needed}: Ante, Blind and the 1x Play.").format(needed=money(smallest))
    return None
