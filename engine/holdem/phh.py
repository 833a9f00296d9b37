"""Finished hands as PHH, the Poker Hand History format (https://phh.readthedocs.io).

A PHH hand is a small TOML document; its ``actions`` list replays the hand move by move:
``d dh p1 AsKd`` (hole cards dealt), ``d db Jc3d5c`` (board), ``p3 f`` (fold), ``p3 cc``
(check or call), ``p3 cbr 60`` (bet or raise *to* 60), ``p3 sm AsKd`` (cards shown).
Blinds and burned cards are left to the reader, as PHH does.  Hole cards nobody may see
are written ``????``.  The variant is ``NT`` (No-limit Texas hold'em); chips are whole
numbers (tournament points).

PHH numbers its players ``p1`` to ``pn`` from the seat left of the button, the button
last (heads-up ``p1`` is the big blind), so ``p1`` is not always the engine's seat 0:
only the seats dealt in are players, and the ``seats`` field gives each one's seat
number (1-based).  Several hands make a ``.phhs`` file: sections ``[1]``, ``[2]`` ...

The writer reads only the engine's records (:mod:`engine.holdem.records`): a hand being
played (:func:`hand_phh`) or the public log of a finished one (:func:`log_phh`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.cards import card_name
from engine.holdem.hand import HoldemHand
from engine.holdem.records import (
    BetMade,
    BlindPosted,
    BoardDealt,
    Called,
    Checked,
    Folded,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    Record,
    UncalledReturned,
    record_from_dict,
)

VARIANT = "NT"
UNKNOWN_CARDS = "????"


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What a hand history says about a hand besides its moves.

    ``names`` are per engine seat (seat 0 first), ``number`` the hand's number in its game
    (1-based), ``level`` the blind level (1-based), ``at`` when the hand was played (any
    aware datetime; written in UTC).
    """

    names: Sequence[str] | None = None
    number: int | None = None
    level: int | None = None
    table: str | None = None
    event: str | None = None
    at: datetime | None = None


def dealt_order(starting_stacks: Sequence[int], button: int) -> list[int]:
    """The engine seats PHH calls ``p1..pn``: dealt in, from the button's left, button last."""
    n = len(starting_stacks)
    return [s for s in ((button + 1 + i) % n for i in range(n)) if starting_stacks[s] > 0]


def starting_stacks_from_records(
    records: Iterable[Record], final_stacks: Sequence[int]
) -> tuple[int, ...]:
    """Each seat's chips before the hand: the final stack plus what it put in, less what
    came back (uncalled chips) and what it won."""
    start = list(final_stacks)
    bets = [0] * len(start)
    for r in records:
        if isinstance(r, BoardDealt):
            bets = [0] * len(start)
        elif isinstance(r, BlindPosted):
            start[r.seat] += r.amount
            bets[r.seat] += r.amount
        elif isinstance(r, Called):
            start[r.seat] += r.amount
            bets[r.seat] += r.amount
        elif isinstance(r, BetMade | Raised):
            start[r.seat] += r.total - bets[r.seat]
            bets[r.seat] = r.total
        elif isinstance(r, UncalledReturned):
            start[r.seat] -= r.amount
        elif isinstance(r, PotAwarded):
            for w, chips in zip(r.winners, r.shares, strict=True):
                start[w] -= chips
    return tuple(start)


def _cards(cards: Sequence[int]) -> str:
    return "".join(card_name(c) for c in cards)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no PHH form for {value!r}")


def phh_actions(
    records: Sequence[Record],
    order: Sequence[int],
    known_cards: Mapping[int, Sequence[int]] | None = None,
) -> list[str]:
    """The PHH ``actions`` of a hand from its records; ``order[i]`` is player ``p{i+1}``.

    Hole cards come from ``HoleCardsDealt`` records, else ``known_cards``, else the cards
    shown at the showdown, else ``????``.
    """
    label = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    holes: dict[int, Sequence[int]] = dict(known_cards or {})
    for r in records:
        if isinstance(r, HandShown | HoleCardsDealt):
            holes[r.seat] = r.cards
    out = [f"d dh {label[s]} {_cards(holes[s]) if s in holes else UNKNOWN_CARDS}" for s in order]
    for r in records:
        if isinstance(r, BoardDealt):
            out.append(f"d db {_cards(r.cards)}")
        elif isinstance(r, Folded):
            out.append(f"{label[r.seat]} f")
        elif isinstance(r, Checked | Called):
            out.append(f"{label[r.seat]} cc")
        elif isinstance(r, BetMade | Raised):
            out.append(f"{label[r.seat]} cbr {r.total}")
        elif isinstance(r, HandShown):
            out.append(f"{label[r.seat]} sm {_cards(r.cards)}")
    return out


def phh_text(
    starting_stacks: Sequence[int],
    button: int,
    blinds: tuple[int, int],
    records: Sequence[Record],
    *,
    final_stacks: Sequence[int] | None = None,
    info: HandInfo | None = None,
    known_cards: Mapping[int, Sequence[int]] | None = None,
) -> str:
    """One hand as PHH text.  ``starting_stacks`` and ``final_stacks`` are per engine seat
    (0 for a seat sitting out); ``blinds`` is (small, big)."""
    info = info or HandInfo()
    order = dealt_order(starting_stacks, button)
    small, big = blinds
    # heads-up PHH reads the list the other way round: the button (p2) posts the small blind
    posts = [small, big] + [0] * (len(order) - 2)
    fields: list[tuple[str, Any]] = [
        ("variant", VARIANT),
        ("ante_trimming_status", True),
        ("antes", [0] * len(order)),
        ("blinds_or_straddles", posts),
        ("min_bet", big),
        ("starting_stacks", [starting_stacks[s] for s in order]),
        ("actions", phh_actions(records, order, known_cards)),
    ]
    if info.event is not None:
        fields.append(("event", info.event))
    if info.at is not None:
        at = info.at.astimezone(UTC)
        fields += [("year", at.year), ("month", at.month), ("day", at.day)]
        fields.append(("time", at.strftime("%H:%M:%S")))
        fields.append(("time_zone", "UTC"))
    if info.number is not None:
        fields.append(("hand", info.number))
    if info.level is not None:
        fields.append(("level", info.level))
    fields.append(("seats", [s + 1 for s in order]))
    fields.append(("seat_count", len(starting_stacks)))
    if info.table is not None:
        fields.append(("table", info.table))
    if info.names is not None:
        fields.append(("players", [str(info.names[s]) for s in order]))
    if final_stacks is not None:
        fields.append(("finishing_stacks", [final_stacks[s] for s in order]))
    lines = []
    for key, value in fields:
        if key == "time":  # a TOML local time, not a string
            lines.append(f"time = {value}")
        elif key == "actions":
            lines.append("actions = [")
            lines += [f"  {_toml(a)}," for a in value]
            lines.append("]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def hand_phh(hand: HoldemHand, info: HandInfo | None = None) -> str:
    """A finished :class:`HoldemHand` as PHH, every hole card included (its full history)."""
    return phh_text(
        hand.starting_stacks,
        hand.button,
        (hand.small_blind, hand.big_blind),
        hand.history,
        final_stacks=hand.result().final_stacks,
        info=info,
    )


def log_phh(
    entry: Mapping[str, Any],
    info: HandInfo | None = None,
    known_cards: Mapping[int, Sequence[int]] | None = None,
) -> str:
    """A finished hand of a tournament's ``hand_log`` as PHH.

    The log holds the public records: hole cards are the ones shown at the showdown and
    ``known_cards`` (a seat's own cards, for its owner); the rest are ``????``.
    """
    records = [record_from_dict(r) for r in entry["records"]]
    final = list(entry["result"]["stacks"])
    start = entry.get("stacks") or starting_stacks_from_records(records, final)
    blinds = entry["blinds"]
    if info is None:
        info = HandInfo(number=int(entry["hand"]))
    if info.number is None or info.at is None:
        at = info.at
        if at is None and entry.get("started_at") is not None:
            at = datetime.fromtimestamp(float(entry["started_at"]), UTC)
        info = HandInfo(
            info.names,
            info.number if info.number is not None else int(entry["hand"]),
            info.level,
            info.table,
            info.event,
            at,
        )
    return phh_text(
        start,
        int(entry["button"]),
        (int(blinds[0]), int(blinds[1])),
        records,
        final_stacks=final,
        info=info,
        known_cards=known_cards,
    )


def phhs_text(hands: Iterable[str]) -> str:
    """Several PHH hands as one ``.phhs`` file: sections ``[1]``, ``[2]`` ..."""
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(hands, 1))
