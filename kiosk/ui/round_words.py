"""A settled round in the player's and the attendant's words, the same on the table, in
History, in game recall, in the station strip and at the dealer display.

Two amounts, never confused: what the round *paid back* (stakes returned and winnings,
the WIN meter's industry meaning, shown as "PAID $680.00") and the round's *net* (what
was paid back minus what was staked), shown signed ("+$525.00", "−$55.00") or as
"Push" when it is zero.  Amounts are integer cents.

:func:`why` explains a result the hand names alone do not: the same hand on both sides
decided by a kicker, or a dealer who did not qualify.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import rank_of
from engine.hands.categories import hand_class
from kiosk.ui.i18n import N_, P_, _, hand_name, tr

#: Cents -> the amount as shown (no sign).
Money = Callable[[int], str]

MINUS = "\u2212"  # the minus sign, not a hyphen

#: An attendant's words for a stored outcome (recall, History): never "You ...".
OUTCOME_WORDS = {
    "win": N_("Player won"),
    "loss": N_("Dealer won"),
    "push": N_("Push"),
    "fold": N_("Player folded"),
    "void": N_("Voided"),
}

#: A settled round's result (:func:`kiosk.ledger.meters.round_result`: everything paid
#: back against everything staked, Trips included) in the words of the Games meters;
#: game recall heads each round with the same words, so the two count alike.
RESULT_WORDS = {
    "won": N_("Player won"),
    "lost": N_("Player lost"),
    "pushed": N_("Pushed"),
}

_RANK_OF = (
    P_("rank", "two"), P_("rank", "three"), P_("rank", "four"), P_("rank", "five"),
    P_("rank", "six"), P_("rank", "seven"), P_("rank", "eight"), P_("rank", "nine"),
    P_("rank", "ten"), P_("rank", "jack"), P_("rank", "queen"), P_("rank", "king"),
    P_("rank", "ace"),
)


def net_text(cents: int, money: Money) -> str:
    """The round's net: "+$525.00", "−$55.00" or "Push" (zero)."""
    if cents > 0:
        return "+" + money(cents)
    if cents < 0:
        return MINUS + money(-cents)
    return _("Push")


def paid_text(cents: int, money: Money) -> str:
    """What the round paid back (the WIN meter's meaning): "PAID $680.00"."""
    return _("PAID {amount}").format(amount=money(cents))


def _ordered_ranks(cards: Sequence[int]) -> list[int]:
    """The ranks of a five-card hand in the order they are compared: by how many of
    each rank, then by rank (a pair of queens with A, 9, 4: Q Q A 9 4)."""
    counts = Counter(rank_of(c) for c in cards)
    return sorted((r for r in counts for _i in range(counts[r])), key=lambda r: (counts[r], r), reverse=True)


def kicker(player_five: Sequence[int], dealer_five: Sequence[int]) -> tuple[int, int] | None:
    """(player's rank, dealer's rank) of the first card that decides between two hands
    of the same category and the same named ranks, or ``None`` when the hand names
    already differ, the hands tie, or a card is missing."""
    if len(player_five) != 5 or len(dealer_five) != 5:
        return None
    mine, theirs = _ordered_ranks(player_five), _ordered_ranks(dealer_five)
    for a, b in zip(mine, theirs, strict=True):
        if a != b:
            return a, b
    return None


def why(player_strength: int, dealer_strength: int, player_five: Sequence[int], dealer_five: Sequence[int],
        dealer_qualifies: bool | None, folded: bool, blind_paid: bool = True) -> str:
    """One line explaining the main bets' result ("" when the hand names say it all):
    the same hand decided by a kicker ("Both have Pair of queens: the dealer's king
    kicker beats your ten"), or a better hand against a dealer who did not qualify
    ("Dealer does not qualify: the Ante pushes, Blind and Play are paid", or, when the
    Blind pushed, ``blind_paid`` False: the Blind pays only on a straight or better)."""
    if folded:
        return ""
    if dealer_qualifies is False and player_strength > dealer_strength and blind_paid:
        return _("Dealer does not qualify: the Ante pushes, Blind and Play are paid.")
    if dealer_qualifies is False and player_strength > dealer_strength:
        return _("Dealer does not qualify: the Ante and Blind push, Play is paid.")
    if dealer_qualifies is False and player_strength < dealer_strength:
        return _("Dealer does not qualify: the Ante pushes; the dealer's hand beats Blind and Play.")
    if player_strength == dealer_strength or hand_name(player_strength) != hand_name(dealer_strength):
        return ""
    if hand_class(player_strength).category != hand_class(dealer_strength).category:
        return ""
    k = kicker(player_five, dealer_five)
    if k is None:
        return ""
    mine, theirs = (tr(_RANK_OF[r]) for r in k)
    if player_strength > dealer_strength:
        return _("Both have {hand}: your {mine} kicker beats the dealer's {theirs}.").format(
            hand=hand_name(player_strength), mine=mine, theirs=theirs)
    return _("Both have {hand}: the dealer's {theirs} kicker beats your {mine}.").format(
        hand=hand_name(player_strength), mine=mine, theirs=theirs)
