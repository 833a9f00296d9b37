"""Sequence numbers: the outbox keeps what is unacknowledged, the inbox delivers once and
in order."""

import threading

import pytest

from kiosk.link import OutboxFull, PassRound
from kiosk.link.sequencing import GapTooWide, Inbox, Outbox


def body(n: int) -> PassRound:
    return PassRound(round_id=n)


def test_the_outbox_numbers_from_one_and_forgets_what_is_acknowledged():
    box = Outbox()
    assert [box.put(body(i)) for i in range(1, 6)] == [1, 2, 3, 4, 5]
    box.ack(3)
    assert [p.seq for p in box.after(0)] == [4, 5]
    assert [p.seq for p in box.after(4)] == [5]
    box.ack(2)  # an old acknowledgement changes nothing
    assert len(box) == 2
    box.ack(99)  # never past what was given out
    assert box.acked == 5 and len(box) == 0


def test_a_full_outbox_refuses_and_queues_nothing():
    box = Outbox(capacity=2)
    box.put(body(1))
    box.put(body(2))
    with pytest.raises(OutboxFull):
        box.put(body(3))
    assert box.last_seq == 2


def test_the_outbox_is_thread_safe():
    box = Outbox(capacity=100_000)
    threads = [
        threading.Thread(target=lambda: [box.put(body(1)) for _ in range(2000)]) for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.seq for p in box.after(0)] == list(range(1, 8001))


def test_the_inbox_drops_duplicates_and_holds_gaps():
    inbox = Inbox()
    assert [s for s, _ in inbox.receive(1, body(1))] == [1]
    assert inbox.receive(1, body(1)) == []
    assert inbox.receive(3, body(3)) == []
    assert inbox.receive(3, body(3)) == []
    assert [s for s, _ in inbox.receive(2, body(2))] == [2, 3]
    assert inbox.last == 3 and inbox.duplicates == 2


def test_a_gap_too_wide_is_an_error():
    inbox = Inbox(ahead_capacity=2)
    inbox.receive(2, body(2))
    inbox.receive(3, body(3))
    with pytest.raises(GapTooWide):
        inbox.receive(4, body(4))
