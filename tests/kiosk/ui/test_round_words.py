"""One meaning of WIN: the WIN meter and PAID are what the round paid back; the round's
net is said in other words ("+$525.00", "−$55.00", "Push") on the table, in History and
recall, in the station strip and at the dealer display; and a result the hand names do
not explain (a kicker, a dealer who did not qualify) says why."""

from __future__ import annotations

from test_ui import NO_QUALIFY, PUSH, WIN, deck, start_round

from engine.cards import parse_cards
from engine.hands.evaluator import best_five, evaluate
from kiosk.ui import i18n
from kiosk.ui.i18n import money
from kiosk.ui.round_words import MINUS, kicker, net_text, why
from kiosk.ui.scenes.table import drawing
from kiosk.ui.scenes.table.meters import meter_readings

#: Pair of queens each: the dealer's king kicker beats the player's nine.
KICKER = deck("Qs 9d", "Qh Kc", "Qc 7s 5h 3d 2c")
#: A dealer with king high (no pair: does not qualify) against a straight.
NO_QUALIFY_STRAIGHT = deck("9h 8d", "4c 2d", "Kh Ts 7c 3s Jh")
#: The board of ``NO_QUALIFY``: aces against king high.
BOARD = parse_cards("Kh 9s 5c 3d 8h")




def _dollars(cents: int) -> str:
    return money(cents)


def test_net_words_are_signed_and_a_zero_is_a_push_in_every_language():
    assert net_text(52500, _dollars) == "+$525.00"
    assert net_text(-5500, _dollars) == MINUS + "$55.00"
    try:
        for lang in i18n.LANGUAGES:
            i18n.set_language(lang)
            push = net_text(0, _dollars)
            assert push and "$" not in push and "0" not in push
            if lang != "en":
                assert push != "Push", lang  # translated
    finally:
        i18n.set_language("en")


def test_the_win_meter_reads_what_was_paid_back_and_the_result_line_gives_the_net(kiosks):
    k = kiosks(WIN)
    start_round(k)
    k.key("p")
    k.settle()
    seat = k.snap.last_result.seat(1)
    credit, _bet, win = meter_readings(k.snap, k.snap.last_result, True)
    assert win == seat.returned and seat.net < seat.returned
    text, _c = k.scene.outcome_text(seat)
    assert text == f"PAID ${seat.returned / 100:,.2f} · +${seat.net / 100:,.2f}"
    assert "WIN" not in text


def test_a_push_returns_the_stakes_and_says_push(kiosks):
    k = kiosks(PUSH)
    start_round(k)
    k.key("k")
    k.settle()
    k.key("p")
    k.settle()
    seat = k.snap.last_result.seat(1)
    assert seat.net == 0
    assert k.scene.outcome_text(seat)[0] == f"PUSH · ${seat.returned / 100:,.2f} returned"
    assert meter_readings(k.snap, k.snap.last_result, True)[2] == seat.returned


def test_a_loss_names_the_deciding_kicker(kiosks):
    k = kiosks(KICKER)
    start_round(k)
    k.key("p")
    k.settle()
    res = k.snap.last_result
    seat = res.seat(1)
    assert seat.net < 0
    assert drawing.explain(res, seat) == "Both have Pair of queens: the dealer's king kicker beats your nine."
    assert k.scene.outcome_text(seat)[0] == f"Dealer wins · {MINUS}${-seat.net / 100:,.2f}"


def test_a_dealer_who_does_not_qualify_is_named_in_the_result(kiosks):
    k = kiosks(NO_QUALIFY)  # a pair of aces: the Blind pushes (it pays on a straight or better)
    start_round(k)
    k.key("p")
    k.settle()
    res = k.snap.last_result
    seat = res.seat(1)
    assert seat.blind_return == seat.blind
    assert drawing.explain(res, seat) == "Dealer does not qualify: the Ante and Blind push, Play is paid."


def test_a_dealer_who_does_not_qualify_against_a_straight_pays_the_blind(kiosks):
    k = kiosks(NO_QUALIFY_STRAIGHT)
    start_round(k)
    k.key("p")
    k.settle()
    res = k.snap.last_result
    seat = res.seat(1)
    assert not res.dealer_qualifies and seat.blind_return > seat.blind
    assert drawing.explain(res, seat) == "Dealer does not qualify: the Ante pushes, Blind and Play are paid."


def test_the_blind_that_pushed_is_never_said_paid_in_any_language():
    mine, theirs = (*parse_cards("As Ad"), *BOARD), (*parse_cards("7c 2d"), *BOARD)
    args = (evaluate(mine), evaluate(theirs), best_five(mine), best_five(theirs), False, False)
    paid_words = {"en": "Blind and Play are paid", "fr": "Blinde et Jouer sont payés",
                  "ja": "ブラインドとプレイに配当", "th": "ไบลนด์และเพลย์ได้รับเงิน"}
    try:
        for lang in i18n.LANGUAGES:
            i18n.set_language(lang)
            pushed, paid = why(*args, blind_paid=False), why(*args, blind_paid=True)
            assert paid_words[lang] in paid, lang
            assert paid_words[lang] not in pushed and pushed != paid, lang
            if lang != "en":
                assert "push" not in pushed, lang  # translated
    finally:
        i18n.set_language("en")


def test_kicker_finds_the_first_deciding_card_and_none_when_names_differ():
    board = parse_cards("Qc 7s 5h 3d 2c")
    mine, theirs = (*parse_cards("Qs 9d"), *board), (*parse_cards("Qh Kc"), *board)
    assert kicker(best_five(mine), best_five(theirs)) == (7, 11)  # nine against king
    two_pair = (*parse_cards("Ks 7d"), *board)
    assert why(evaluate(two_pair), evaluate(theirs), best_five(two_pair), best_five(theirs), True, False) == ""
    assert why(evaluate(mine), evaluate(theirs), best_five(mine), best_five(theirs), True, True) == ""  # folded
