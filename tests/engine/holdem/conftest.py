"""Fixtures of the Hold'em tests that compare the engine with pokerkit."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest
from pokerkit import StandardHighHand

from engine.holdem.hand import HoldemHand
from engine.holdem.records import PotAwarded


def _pokerkit_split(hand: HoldemHand) -> list[int]:
    """Our final stacks with the pots re-split the pokerkit way: hands that win nothing are
    mucked, pots whose remaining contenders are the same are merged, and each pot's odd
    chips all go to its first winner (in seat order from the left of the button)."""
    pots = [r for r in hand.history if isinstance(r, PotAwarded)]
    stacks = list(hand.stacks)
    for pot in pots:
        for w, chips in zip(pot.winners, pot.shares, strict=True):
            stacks[w] -= chips
    contenders = {w for pot in pots for w in pot.winners}
    merged: list[list] = []
    for pot in pots:
        eligible = tuple(s for s in pot.eligible if s in contenders)
        if merged and merged[-1][1] == eligible:
            merged[-1][0] += pot.amount
        else:
            merged.append([pot.amount, eligible, pot.winners])
    order = list(hand.players)
    for amount, _, winners in merged:
        ordered = sorted(winners, key=order.index)
        share, odd = divmod(amount, len(ordered))
        for w in ordered:
            stacks[w] += share
        stacks[ordered[0]] += odd
    return stacks


@pytest.fixture
def pokerkit_split() -> Callable[[HoldemHand], list[int]]:
    """A finished hand's final stacks as pokerkit splits pots (see ``_pokerkit_split``)."""
    return _pokerkit_split


@pytest.fixture
def pokerkit_hand_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memoise pokerkit's own hand evaluation (it re-evaluates the same seven cards a dozen
    times per hand); the answers are still pokerkit's, only computed once."""
    original = StandardHighHand.from_game.__func__  # type: ignore[attr-defined]
    cached = functools.lru_cache(maxsize=1 << 16)(
        lambda hole, board: original(StandardHighHand, hole, board)
    )

    def from_game(cls, hole_cards, board_cards=()):  # noqa: ANN001
        return cached(tuple(hole_cards), tuple(board_cards))

    monkeypatch.setattr(StandardHighHand, "from_game", classmethod(from_game))
