"""kiosk.tournament.export and ``uth holdem export``: a game's hands as JSON and PHH, to a
USB stick when one is mounted (a temporary folder stands for the mount point)."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from engine.holdem.stats import GameSummary
from engine.holdem.tournament import Tournament
from engine.rng import SeededRandomSource
from kiosk.cli import main
from kiosk.tournament.export import (
    ExportError,
    choose_folder,
    export_hands,
    removable_media,
)
from kiosk.tournament.store import KEEP_HAND_GAMES, TournamentStore


def _game(hands: int = 8) -> Tournament:
    seats = [SeatSpec("You"), SeatSpec("Ike"), SeatSpec("Max"), SeatSpec("Rosa")]
    t = Tournament(
        TournamentConfig.for_table("classic", seats), rng=SeededRandomSource(3), bot_samples=0
    )
    for _ in range(hands):
        t.start_hand()
        t.run_bots()
    return t


def _mounts(tmp_path: Path, *lines: str) -> Path:
    f = tmp_path / "mounts"
    f.write_text("".join(line + "\n" for line in lines))
    return f


def test_removable_media_from_the_mounts_file(tmp_path: Path) -> None:
    mounts = _mounts(
        tmp_path,
        "/dev/sda1 / ext4 rw,relatime 0 0",
        "/dev/sda2 /boot/efi vfat rw 0 0",
        "proc /proc proc rw 0 0",
        "/dev/sdb1 /media/usb0 vfat rw,nosuid 0 0",
        "/dev/sdc1 /run/media/kiosk/MY\\040STICK exfat rw 0 0",
        "/dev/sdd1 /media/kiosk/CDROM iso9660 ro 0 0",
        "/dev/sde1 /mnt/card exfat rw 0 0",
    )
    assert removable_media(mounts) == [
        Path("/media/usb0"),
        Path("/run/media/kiosk/MY STICK"),
        Path("/mnt/card"),
    ]
    assert removable_media(tmp_path / "missing") == []


def test_choose_folder(tmp_path: Path) -> None:
    none = _mounts(tmp_path, "/dev/sda1 / ext4 rw 0 0")
    assert choose_folder(None, fallback=tmp_path, mounts_file=none) == tmp_path
    assert choose_folder(tmp_path / "x", fallback=tmp_path, mounts_file=none) == tmp_path / "x"
    with pytest.raises(ExportError):
        choose_folder(None, fallback=tmp_path, usb_only=True, mounts_file=none)
    stick = tmp_path / "media" / "usb0"
    usb = _mounts(tmp_path, f"/dev/sdb1 {stick} vfat rw 0 0")
    assert choose_folder(None, fallback=tmp_path, mounts_file=usb) == stick


def test_export_writes_json_and_phh_that_pokerkit_reads(tmp_path: Path) -> None:
    t = _game()
    state = t.to_dict()
    done = export_hands(state, tmp_path, game_id="g-1", my_seat=0, my_holes={1: (0, 5)})
    assert done.hands == len(t.hand_log) == 8
    doc = json.loads(done.json_path.read_text())
    assert doc["players"] == ["You", "Ike", "Max", "Rosa"]
    assert [h["hand"] for h in doc["hands"]] == list(range(1, 9))
    assert doc["hands"][0]["my_cards"] == [0, 5] and doc["hands"][1]["my_cards"] is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hands = list(HandHistory.loads_all(done.phh_path.read_text()))
        for hh, entry in zip(hands, t.hand_log, strict=True):
            final = list(hh)[-1]
            order = hh.seats
            assert order is not None
            got = [0] * 4
            for i, seat in enumerate(order):
                got[seat - 1] = final.stacks[i]
            assert got == entry["result"]["stacks"]
    assert "d dh p" in done.phh_path.read_text()
    assert not list(tmp_path.glob("*.tmp"))


def test_uth_holdem_export_to_a_mounted_stick(tmp_path: Path, capsys) -> None:
    db = tmp_path / "uth.db"
    store = TournamentStore.open(db, create=True)
    t = _game(5)
    store.save("game-7", t.to_dict(), {"human_seat": 0, "my_holes": {"2": [8, 9]}})
    store.close()
    stick = tmp_path / "media" / "usb0"
    stick.mkdir(parents=True)
    mounts = _mounts(tmp_path, f"/dev/sdb1 {stick} vfat rw 0 0")
    assert main(["holdem", "export", "--db", str(db), "--mounts", str(mounts)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 5 and Path(out["phh"]).parent == stick
    doc = json.loads(Path(out["json"]).read_text())
    assert doc["game_id"] == "game-7" and doc["hands"][1]["my_cards"] == [8, 9]

    empty = _mounts(tmp_path, "/dev/sda1 / ext4 rw 0 0")
    assert main(["holdem", "export", "--db", str(db), "--usb", "--mounts", str(empty)]) == 2
    assert "no USB stick" in json.loads(capsys.readouterr().out)["error"]
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(t.to_dict()))
    folder = tmp_path / "out"
    assert main(["holdem", "export", "--game", str(saved), "--to", str(folder)]) == 0
    assert len(list(folder.glob("holdem-hands-*.phhs"))) == 1


def _summary(hands: int) -> GameSummary:
    return GameSummary(table="classic", players=4, place=2, hands_played=hands, hands_won=1, vpip_hands=1,
                       biggest_pot=100, best_hand=None, ai_strengths=["normal"], duration_s=60.0,
                       finished_at=time.time())


def test_the_hands_of_the_latest_finished_games_are_kept(tmp_path: Path) -> None:
    store = TournamentStore.open(tmp_path / "uth.db", create=True)
    t = _game(3)
    store.save("g0", {**t.to_dict(), "hand_log": t.to_dict()["hand_log"][:2]},
               {"human_seat": 0, "my_holes": {"1": [0, 5]}})
    # the last hand reaches the store with the finish, the saved ones stay
    assert store.finish("g0", _summary(3), player="Ana", state=t.to_dict(),
                        session={"human_seat": 0, "my_holes": {"1": [0, 5]}})
    assert not store.has_saved_game()
    assert [(k.game_id, k.player, k.hands) for k in store.kept_games()] == [("g0", "Ana", 3)]
    gid, state, session = store.finished_game("g0")
    assert state["hand_log"] == t.to_dict()["hand_log"] and session["my_holes"] == {"1": [0, 5]}
    assert state["config"] == t.to_dict()["config"]
    # without the state, the saved game's own is kept
    store.save("g1", _game(2).to_dict(), {"human_seat": 0, "my_holes": {}})
    store.finish("g1", _summary(2), player="Bo")
    assert [k.hands for k in store.kept_games()] == [2, 3]
    assert [k.game_id for k in store.kept_games("Ana")] == ["g0"]
    # a new game and an abandoned one leave the kept hands alone
    store.save("g2", _game(1).to_dict(), {"human_seat": 0})
    store.save("g3", _game(1).to_dict(), {"human_seat": 0})
    store.discard()
    assert [k.hands for k in store.kept_games()] == [2, 3]
    # only the latest KEEP_HAND_GAMES are kept
    small = _game(1).to_dict()
    for i in range(KEEP_HAND_GAMES):
        store.finish(f"n{i}", _summary(1), state=small, session={"human_seat": 0})
    kept = store.kept_games()
    assert len(kept) == KEEP_HAND_GAMES and kept[0].game_id == f"n{KEEP_HAND_GAMES - 1}"
    assert store.finished_game("g0") is None
    games = {r[0] for r in store.conn.execute("SELECT DISTINCT game_id FROM tournament_hands")}
    assert games == {k.game_id for k in kept}
    # Delete all removes the kept hands with the records
    store.delete_all()
    assert store.kept_games() == [] and not store.conn.execute("SELECT 1 FROM tournament_hands").fetchone()
    store.close()


def test_uth_holdem_export_a_finished_game(tmp_path: Path, capsys) -> None:
    db = tmp_path / "uth.db"
    store = TournamentStore.open(db, create=True)
    first, second = _game(4), _game(6)
    store.finish("a1b2c3", _summary(4), state=first.to_dict(), session={"human_seat": 0, "my_holes": {"3": [1, 2]}})
    store.finish("d4e5f6", _summary(6), state=second.to_dict(), session={"human_seat": 0})
    store.close()
    none = _mounts(tmp_path, "/dev/sda1 / ext4 rw 0 0")
    out_dir = tmp_path / "out"
    assert main(["holdem", "export", "--db", str(db), "--last", "--to", str(out_dir), "--mounts", str(none)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 6 and json.loads(Path(out["json"]).read_text())["game_id"] == "d4e5f6"
    assert main(["holdem", "export", "--db", str(db), "--game-id", "a1b", "--mounts", str(none)]) == 0
    out = json.loads(capsys.readouterr().out)
    doc = json.loads(Path(out["json"]).read_text())
    assert out["hands"] == 4 and Path(out["json"]).parent == tmp_path  # beside the database
    assert doc["game_id"] == "a1b2c3" and doc["hands"][2]["my_cards"] == [1, 2]
    assert main(["holdem", "export", "--db", str(db), "--game-id", "zzz", "--mounts", str(none)]) == 2
    assert "not kept" in json.loads(capsys.readouterr().out)["error"]
