"""The dealing order of a Hold'em hand, and a deck that deals chosen cards.

A hand deals two hole cards to each player one at a time starting with the small blind
(heads-up the button), then burns a card before the flop, the turn and the river.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import check_distinct


def deck_for_deal(
    stacks: Sequence[int],
    button: int,
    hole_cards: Sequence[Sequence[int] | None],
    board: Iterable[int],
) -> list[int]:
    """A deck order that deals the given hole cards and board (burns from unused cards).

    ``hole_cards[s]`` is the pair for seat ``s`` (``None`` for a seat with no chips).  A
    board of fewer than five cards is padded with unused cards (check the hand did not
    need them).  Raises :class:`engine.cards.CardParseError` if a card repeats.
    """
    n = len(stacks)
    order = [(button + 1 + i) % n for i in range(n)]
    order = [s for s in order if stacks[s] > 0]
    if len(order) == 2:
        order = [order[1], order[0]]  # heads-up: the button is the small blind
    board = list(board)
    used: list[int] = []
    for s in order:
        cards = hole_cards[s]
        if cards is None or len(cards) != 2:
            raise ValueError(f"seat {s} needs two hole cards")
        used.extend(cards)
    used.extend(board)
    check_distinct(used)
    taken = set(used)
    spare = [c for c in range(52) if c not in taken]
    deck = [hole_cards[s][0] for s in order] + [hole_cards[s][1] for s in order]  # type: ignore[index]
    full_board = board[:5] + spare[: max(0, 5 - len(board))]
    spare = spare[max(0, 5 - len(board)) :]
    deck += [spare[0], *full_board[:3], spare[1], full_board[3], spare[2], full_board[4]]
    return deck
