"""The shared table's soak, CI-sized: a host and seven headless station processes
(``uth kiosk --station N --autoplay random``), each with its validator (and printer)
simulators in a process of its own and its link through a fault proxy of its own,
play for a minute and a quarter under seeded random cuts of the host, the stations and
the links (see ``tests/support/table_soak.py``; ``bench/table_soak.py`` runs it
longer).  At the end every station balances from the host's ledger, every note the
patrons inserted is in a cash box and credited once or was returned, every seat of
every round is settled once, and ``uth audit verify --replay`` passes."""

from __future__ import annotations

from collections import Counter

import pytest
from support.table_soak import CUT_KINDS, Plan, Soak, tickets_in_hand
from support.table_soak_check import StationBook, check

PLAN = Plan(seed=7, seconds=75.0, cut_every=(2.0, 4.5))
NUMBER = "123456789012345678"


@pytest.mark.heavy
@pytest.mark.slow
def test_seven_stations_lose_nothing_through_random_cuts(tmp_path):
    soak = Soak(tmp_path, PLAN)
    try:
        soak.start()
        soak.run()
        soak.finish()
    except BaseException:
        print(soak.tails())
        raise
    finally:
        soak.close()
    result = check(soak)
    print("\n".join(soak.timeline))
    print(result.summary())
    assert not result.problems, "\n".join(result.problems) + "\n" + soak.tails()
    assert result.money_lost == 0
    assert {kind for kind in CUT_KINDS if result.cuts[kind]} == set(CUT_KINDS), result.cuts
    assert sum(result.cuts[kind] for kind in CUT_KINDS) >= 12, result.cuts
    assert result.rounds >= 15 and result.seat_rows >= 2 * result.rounds, result.summary()
    if soak.printers:  # cash-outs print tickets that other stations redeem
        assert sum(b.ticket_in_count for b in result.books.values()) >= 3, result.summary()
    for book in result.books.values():
        assert book.rounds >= 5 and book.validator_notes > 0, book
        assert book.virtual_notes == 0 and book.credits == 0, book  # cashed out at the end


def test_the_patrons_hold_a_ticket_until_it_is_inserted_and_again_when_returned():
    printed = "VALIDATION 12-3456-7890-1234-5678"  # separators are not part of the number
    held = {
        1: {"printed": [printed, "  "], "returned": [], "cashbox": []},
        2: {"printed": [], "returned": [], "cashbox": [{"bill": 2000}]},
    }
    inserts: Counter[str] = Counter()
    assert tickets_in_hand(held, inserts) == [(NUMBER, 1)]
    inserts[NUMBER] += 1  # inserted at station 2, in its validator
    assert tickets_in_hand(held, inserts) == []
    held[2]["returned"].append({"ticket": NUMBER})  # refused: back in hand
    assert tickets_in_hand(held, inserts) == [(NUMBER, 1)]
    inserts[NUMBER] += 1
    held[2]["cashbox"].append({"ticket": NUMBER})  # stacked this time
    assert tickets_in_hand(held, inserts) == []


def test_a_station_book_balances_only_when_every_cent_is_accounted_for():
    book = StationBook(3, validator_notes=10_000, tickets_in=2500, handpays=4000)
    book.tickets_out, book.credits, book.seat_net = 3000, 1500, -4000
    assert book.imbalance == 0
    book.validator_notes += 2000  # a note credited that went nowhere
    assert book.imbalance == 2000
    book.credits += 2000
    book.jackpots, book.seat_net = 500, -3500  # a jackpot paid by hand is a seat's win
    assert book.imbalance == 0
