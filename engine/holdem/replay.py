"""Replay Hold'em hands written as JSON: the engine behind ``uth holdem replay``.

One hand is ``{"stacks": [..], "blinds": [sb, bb], "button": i, "hole_cards": ["AsKd",
..], "board": "Jc3d5cTs2h", "actions": [["call"], ["raise", 60], ["fold"], ...]}``: seats
clockwise, ``hole_cards[s]`` ``null`` (or ``""``) for a seat with no chips, the board as
far as the hand goes, the actions in turn order (the engine knows whose turn it is).

The answer for a hand is ``{"stacks": [final], "pots": [{"amount", "eligible",
"winners"}], "returned": [uncalled per seat]}``, or ``{"error": reason, "action_index":
k}`` -- ``k`` is the index of the offending action, ``null`` when the input itself is
malformed (bad JSON, bad or repeated cards, wrong fields).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from engine.cards import CardParseError, parse_cards
from engine.errors import IllegalActionError
from engine.holdem.actions import Action, Evaluate, Street
from engine.holdem.dealing import deck_for_deal
from engine.holdem.hand import HoldemHand


class ReplayInputError(ValueError):
    """The JSON of a hand is malformed (not an illegal action)."""


def _error(reason: str, index: int | None) -> dict[str, Any]:
    return {"error": reason, "action_index": index}


def _int_list(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise ReplayInputError(f"{name!r} must be a list of whole numbers")
    return value


def build_hand(data: Any, *, evaluate: Evaluate | None = None) -> tuple[HoldemHand, int]:
    """The hand described by ``data`` (not yet played) and the number of board cards given."""
    if not isinstance(data, dict):
        raise ReplayInputError("a hand is a JSON object")
    missing = [k for k in ("stacks", "blinds", "button", "hole_cards", "actions") if k not in data]
    if missing:
        raise ReplayInputError(f"missing field(s): {', '.join(missing)}")
    stacks = _int_list(data["stacks"], "stacks")
    blinds = _int_list(data["blinds"], "blinds")
    if len(blinds) != 2:
        raise ReplayInputError("'blinds' is [small blind, big blind]")
    button = data["button"]
    if type(button) is not int:
        raise ReplayInputError("'button' must be a seat number")
    holes_text = data["hole_cards"]
    if not isinstance(holes_text, list) or len(holes_text) != len(stacks):
        raise ReplayInputError("'hole_cards' needs one entry per seat (null for an empty seat)")
    holes: list[list[int] | None] = []
    for seat, text in enumerate(holes_text):
        if text in (None, ""):
            holes.append(None)
            continue
        if not isinstance(text, str):
            raise ReplayInputError(f'hole cards of seat {seat} must be text like "AsKd"')
        cards = parse_cards(text)
        if len(cards) != 2:
            raise ReplayInputError(f"seat {seat} must have exactly two hole cards")
        holes.append(cards)
    board_text = data.get("board", "")
    if board_text is None:
        board_text = ""
    if not isinstance(board_text, str):
        raise ReplayInputError("'board' must be text like \"Jc3d5cTs2h\"")
    board = parse_cards(board_text) if board_text.strip() else []
    if len(board) > 5:
        raise ReplayInputError("the board has at most five cards")
    if not isinstance(data["actions"], list):
        raise ReplayInputError("'actions' must be a list")
    if not (0 <= button < len(stacks)):
        raise ReplayInputError("'button' is not a seat")
    for seat, stack in enumerate(stacks):
        if stack > 0 and holes[seat] is None:
            raise ReplayInputError(f"seat {seat} has chips but no hole cards")
    deck = deck_for_deal(stacks, button, holes, board)
    hand = HoldemHand(stacks, button, blinds[0], blinds[1], deck=deck, evaluate=evaluate)
    return hand, len(board)


def _board_short(hand: HoldemHand, given: int) -> str | None:
    if len(hand.board) > given:
        return (
            f"the board gives {given} card(s) but the hand reaches the "
            f"{Street(min(3, len(hand.board) - 2)).name.lower()}"
        )
    return None


def replay_hand(data: Any, *, evaluate: Evaluate | None = None) -> dict[str, Any]:
    """Play one hand from its JSON object; the answer dict described in the module doc."""
    try:
        hand, given = build_hand(data, evaluate=evaluate)
    except (ReplayInputError, CardParseError, ValueError) as exc:
        return _error(str(exc), None)
    short = _board_short(hand, given)
    if short:
        return _error(short, None)
    actions = data["actions"]
    for k, item in enumerate(actions):
        if hand.is_over:
            return _error("the hand is already over", k)
        try:
            action = Action.from_list(item)
        except ValueError as exc:
            return _error(str(exc), k)
        try:
            hand.act(action)
        except IllegalActionError as exc:
            return _error(exc.reason, k)
        short = _board_short(hand, given)
        if short:
            return _error(short, k)
    if not hand.is_over:
        return _error(
            f"the actions stop before the hand is over: seat {hand.to_act} is to act", len(actions)
        )
    return hand.result().to_dict()


def parse_hands(text: str) -> Iterator[Any]:
    """The hands in ``text``: one JSON object (any layout), a JSON array, or JSON lines.

    A line that is not valid JSON yields a :class:`ReplayInputError` in its place.
    """
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    else:
        if isinstance(whole, list):
            yield from whole
        else:
            yield whole
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            yield ReplayInputError(f"bad JSON on line {number}: {exc.msg}")


def replay_all(hands: Iterable[Any], *, evaluate: Evaluate | None = None) -> Iterator[dict]:
    """Answers for each hand in order (errors included, never raised)."""
    for data in hands:
        if isinstance(data, ReplayInputError):
            yield _error(str(data), None)
        else:
            yield replay_hand(data, evaluate=evaluate)
