"""Fault counters shared by the simulators: priority order, counting, chaos."""

from __future__ import annotations

from devices.sim.faults import FaultCounters


def test_counted_damage_is_served_in_priority_order_then_answers_are_intact() -> None:
    faults = FaultCounters(("partial", "crc"), ("drop",), seed=1)
    faults.add("crc")
    faults.add("partial", 2)
    assert [faults.next_damage() for _ in range(4)] == ["partial", "partial", "crc", None]
    assert faults.injected == 3


def test_other_counters_are_taken_one_at_a_time_and_do_not_count_as_damage() -> None:
    faults = FaultCounters(("garbage",), ("drop",), seed=1)
    faults.add("drop_ack", 2)
    assert [faults.take("drop_ack") for _ in range(3)] == [True, True, False]
    assert faults.next_damage() is None
    assert faults.injected == 0


def test_chaos_damages_about_its_probability_and_is_reproducible() -> None:
    def run() -> list[str | None]:
        faults = FaultCounters((), ("garbage", "drop"), seed=None)
        faults.set_chaos(0.5, seed=3)
        return [faults.next_damage() for _ in range(400)]

    first = run()
    assert first == run()
    damaged = [d for d in first if d is not None]
    assert 150 < len(damaged) < 250
    assert set(damaged) == {"garbage", "drop"}
    faults = FaultCounters((), ("garbage",), seed=3)
    faults.set_chaos(0)
    assert all(faults.next_damage() is None for _ in range(50))
