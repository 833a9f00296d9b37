"""Differential test: engine.holdem.hand against pokerkit on 10,000 random hands.

Both engines get the same deal (seeded generator) and the same actions, chosen at
random among the actions legal in *both*; at every decision the legal options are
compared, and at the end the final stacks.

Known, explained differences (each is checked to be exactly that, never skipped blindly):

1. **Short big blind.**  When the big blind cannot post in full, we make the others call
   the full big blind (casino convention; "the big blind ... is also the smallest bet
   allowed"); pokerkit lets them call the short amount.  Such a hand is followed until
   the first disagreement, which must be the call amount before the flop; the rest of
   that hand is not compared.
2. **Short all-ins and reopening.**  We reopen the betting for a player who already
   acted only when the bet he faces has gone up by a full raise (the last full raise, at
   least one big blind) since he acted.  pokerkit keeps one table-wide count, starts it
   at 0 each round (the big blind is not an opening bet for it), and counts a short
   opening bet as "full"; so after some short all-ins it lets a player raise where we do
   not.  At such a point the two agree on everything else and the player calls or folds.
3. **Odd chips.**  We split every pot on its own and give its odd chips one at a time,
   starting with the first winner left of the button.  pokerkit gives all of a pot's odd
   chips to that first winner, and before splitting it mucks the hands that win nothing
   and merges pots left with the same contenders (seed 8368: pots of 290 and 1,550 split
   three ways are 614/614/612 here, one pot of 1,840 giving 614/613/613 there).  When
   stacks differ they must equal exactly that pokerkit-style re-split of our pots.
4. **A pointless check.**  When everyone else is all in and there is nothing to call,
   pokerkit still asks the last player for a check; we deal on.  The test checks for him.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Callable

import pytest
from pokerkit import Automation, Mode, NoLimitTexasHoldem

from engine.cards import card_name
from engine.hands.evaluator import evaluate
from engine.holdem.actions import Action
from engine.holdem.hand import HoldemHand
from engine.holdem.records import BetMade, Called, Raised

HANDS = int(__import__("os").environ.get("PK_HANDS", "10000"))
SB, BB = 10, 20

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

_SPLIT_BOARDS = [
    # boards that every hand plays (or nearly): lots of split pots
    [4 * 12 + 0, 4 * 11 + 1, 4 * 10 + 2, 4 * 9 + 3, 4 * 8 + 0],  # A K Q J T rainbow
    [4 * 12 + 3, 4 * 11 + 3, 4 * 10 + 3, 4 * 9 + 3, 4 * 8 + 3],  # royal flush in spades
    [4 * 7 + 0, 4 * 7 + 1, 4 * 7 + 2, 4 * 7 + 3, 4 * 12 + 0],  # quad nines, ace kicker
]


def _random_stacks(rng: random.Random, n: int) -> list[int]:
    stacks = []
    for _ in range(n):
        r = rng.random()
        if r < 0.25:
            stacks.append(rng.randint(1, 4 * BB))  # short: all-ins everywhere
        elif r < 0.9:
            stacks.append(rng.randint(4 * BB, 60 * BB))
        else:
            stacks.append(rng.randint(60 * BB, 200 * BB))
    return stacks


def _random_deck(rng: random.Random, n_players: int) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    if rng.random() < 0.2:
        board = rng.choice(_SPLIT_BOARDS)
        rest = [c for c in deck if c not in board]
        holes = rest[: 2 * n_players]
        spare = rest[2 * n_players :]
        deck = holes + [spare[0], *board[:3], spare[1], board[3], spare[2], board[4]] + spare[3:]
    elif rng.random() < 0.15:
        # everyone gets the same two ranks (different suits where possible): chops
        r1, r2 = rng.sample(range(13), 2)
        pairs = [(4 * r1 + s, 4 * r2 + (s + 1) % 4) for s in range(4)]
        rng.shuffle(pairs)
        holes = pairs[: min(n_players, 4)]
        used = {c for p in holes for c in p}
        rest = [c for c in deck if c not in used]
        while len(holes) < n_players:
            holes.append((rest.pop(), rest.pop()))
        deck = [p[0] for p in holes] + [p[1] for p in holes] + rest
    return deck


def _choose(rng: random.Random, la, pk_can_raise: bool) -> Action:
    can_raise = (la.can_bet or la.can_raise) and pk_can_raise
    r = rng.random()
    if can_raise and r < 0.30:
        choice = rng.random()
        if choice < 0.35:
            to = la.min_to
        elif choice < 0.6:
            to = la.max_to
        elif choice < 0.8:
            to = la.pot_fraction_to(rng.choice([0.5, 0.75, 1.0]), round_to=1)
        else:
            to = rng.randint(la.min_to, la.max_to)
        return Action.bet(to) if la.can_bet else Action.raise_to(to)
    if can_raise and r < 0.36:
        return Action.all_in()
    if la.can_fold and r < 0.50:
        return Action.fold()
    return Action.check() if la.can_check else Action.call()


class _Pk:
    """A pokerkit state seated like our hand: pk index i = our live seat ``order[i]``."""

    def __init__(self, hand: HoldemHand) -> None:
        self.order = list(hand.players)
        self.index = {s: i for i, s in enumerate(self.order)}
        stacks = tuple(hand.starting_stacks[s] for s in self.order)
        self.st = NoLimitTexasHoldem.create_state(
            _AUTOMATIONS, True, 0, (SB, BB), BB, stacks, len(stacks), mode=Mode.TOURNAMENT
        )
        for s in self.order:
            self.st.deal_hole("".join(card_name(c) for c in hand.hole_cards[s]), self.index[s])

    def advance_dealer(self, hand: HoldemHand) -> None:
        st = self.st
        while True:
            if st.can_burn_card():
                st.burn_card("??")
            elif st.can_deal_board():
                k = st.board_dealing_count
                have = sum(len(b) for b in st.board_cards)
                st.deal_board("".join(card_name(c) for c in hand_board(hand)[have : have + k]))
            else:
                return

    def legal(self):
        st = self.st
        actor = st.actor_index
        if actor is None:
            return None
        can_raise = st.can_complete_bet_or_raise_to()
        return {
            "seat": self.order[actor],
            "can_fold": st.can_fold(),
            "call": st.checking_or_calling_amount,
            "can_raise": can_raise,
            "min_to": st.min_completion_betting_or_raising_to_amount if can_raise else None,
            "max_to": st.max_completion_betting_or_raising_to_amount if can_raise else None,
        }

    def act(self, record) -> None:
        st = self.st
        if isinstance(record, BetMade | Raised):
            st.complete_bet_or_raise_to(record.total)
        elif isinstance(record, Called):
            st.check_or_call()
        elif type(record).__name__ == "Checked":
            st.check_or_call()
        else:
            st.fold()

    def stacks(self, n: int) -> list[int]:
        out = [0] * n
        for s, i in self.index.items():
            out[s] = self.st.stacks[i]
        return out


def hand_board(hand: HoldemHand) -> list[int]:
    """The five board cards this hand will deal (read from the deck by the test only)."""
    n = len(hand.players)
    deck = hand._deck
    return [deck[2 * n + 1 + i] for i in (0, 1, 2)] + [deck[2 * n + 5], deck[2 * n + 7]]


def _play(seed: int, stats: Counter, pokerkit_split: Callable[[HoldemHand], list[int]]) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    stacks = _random_stacks(rng, n)
    button = rng.randrange(n)
    deck = _random_deck(rng, n)
    hand = HoldemHand(stacks, button, SB, BB, deck=deck, evaluate=evaluate)
    pk = _Pk(hand)
    short_bb = stacks[hand.big_blind_seat] < BB
    stats["short big blind"] += short_bb
    while True:
        pk.advance_dealer(hand)
        mine = hand.legal_actions()
        theirs = pk.legal()
        if mine is None and theirs is not None and theirs["call"] == 0:
            # difference 4 (cosmetic): pokerkit still asks for a check from a player who
            # cannot change anything (everyone else all in, nothing to call); we skip it.
            assert not theirs["can_raise"], (seed, theirs, hand.history)
            pk.st.check_or_call()
            stats["pointless check asked by pokerkit"] += 1
            continue
        if mine is None or theirs is None:
            assert mine is None and theirs is None, (seed, mine, theirs, hand.history)
            break
        assert theirs["seat"] == mine.seat, (seed, hand.history)
        if theirs["call"] != mine.call_amount or theirs["can_fold"] != mine.can_fold:
            # difference 1: only ever the full-big-blind call before the flop
            assert short_bb and hand.street == 0, (seed, mine, theirs, hand.history)
            stats["diverged: full big blind"] += 1
            return
        my_raise = mine.can_bet or mine.can_raise
        if my_raise != theirs["can_raise"]:
            # difference 2: pokerkit reopens after short all-ins where we do not
            assert theirs["can_raise"] and hand.raise_blocked_by_short_all_in(mine.seat), (
                seed,
                mine,
                theirs,
                hand.history,
            )
            stats["raise allowed only by pokerkit"] += 1
        elif my_raise:
            assert (theirs["min_to"], theirs["max_to"]) == (mine.min_to, mine.max_to), (
                seed,
                mine,
                theirs,
                hand.history,
            )
        record = hand.act(_choose(rng, mine, theirs["can_raise"]))
        stats["all-in"] += bool(getattr(record, "all_in", False))
        pk.act(record)
    assert hand.is_over and not pk.st.status, (seed, hand.history)
    result = hand.result()
    stats["hands compared"] += 1
    stats["showdown"] += result.showdown
    stats["side pots"] += len(result.pots) > 1
    stats["split pots"] += any(len(p.winners) > 1 for p in result.pots)
    stats["uncalled returned"] += any(result.returned)
    assert sum(result.final_stacks) == sum(stacks)
    theirs = pk.stacks(n)
    if list(result.final_stacks) != theirs:
        # difference 3: odd chips
        assert pokerkit_split(hand) == theirs, (seed, result, theirs, hand.history)
        stats["odd chips one at a time"] += 1


@pytest.mark.heavy
@pytest.mark.slow
def test_against_pokerkit(pokerkit_hand_cache: None, pokerkit_split: Callable) -> None:
    stats: Counter = Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(HANDS):
            _play(seed, stats, pokerkit_split)
    print(dict(stats))
    assert stats["hands compared"] >= 0.95 * HANDS
    for key in ("showdown", "side pots", "split pots", "all-in", "uncalled returned"):
        assert stats[key] >= 200, (key, stats)
    assert stats["short big blind"] >= 50
