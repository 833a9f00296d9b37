"""Export a tournament game's finished hands as JSON and PHH, to a USB stick or a folder.

Two files per export, named after the game: ``holdem-hands-<game>.json`` (the game's
public hand log with the seat names and the local player's own cards) and
``holdem-hands-<game>.phhs`` (every hand in the Poker Hand History format, sections
``[1]``, ``[2]`` ...; see :mod:`engine.holdem.phh`).  Only finished hands are written;
nobody's unshown cards are, except the local player's own.  Chips are points.

Removable media are the mounted file systems under ``/media/*`` (and ``/media/<user>/*``)
or ``/run/media/<user>/*``, and any mounted ``vfat`` or ``exfat`` file system outside
``/boot`` and ``/efi``, read from ``/proc/mounts`` (:func:`removable_media`).  Files are
written to a temporary name, flushed to the medium and renamed, so a stick pulled out
during an export holds no half-written file under the final name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from engine.holdem.phh import HandInfo, log_phh, phhs_text
from kiosk.tournament.store import TournamentStore, TournamentStoreError

MOUNTS_FILE = Path("/proc/mounts")
REMOVABLE_FILESYSTEMS = frozenset({"vfat", "exfat"})
EXPORT_FORMAT = "uth-holdem-hands"
EXPORT_VERSION = 1


class ExportError(Exception):
    """An export that cannot be made: ``reason`` says why (no medium, not writable...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ExportedHands:
    """Where an export went and how many hands it holds."""

    json_path: Path
    phh_path: Path
    hands: int


def _unescape(field: str) -> str:
    """``/proc/mounts`` writes a space as ``\\040`` (octal escapes)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1 : i + 4].isdigit() and len(field) >= i + 4:
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def _is_removable(mount_point: str, fstype: str) -> bool:
    parts = PurePosixPath(mount_point).parts  # ("/", "media", "usb0") ...
    if len(parts) in (3, 4) and parts[1] == "media":
        return True
    if len(parts) == 4 and parts[1:3] == ("run", "media"):
        return True
    if fstype in REMOVABLE_FILESYSTEMS:
        return len(parts) > 1 and parts[1] not in ("boot", "efi")
    return False


def removable_media(mounts_file: str | Path = MOUNTS_FILE) -> list[Path]:
    """Mount points of the removable media mounted now, in the order they were mounted
    (none if the mounts file cannot be read)."""
    try:
        text = Path(mounts_file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found: list[Path] = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        mount_point, fstype = _unescape(fields[1]), fields[2]
        options = fields[3].split(",") if len(fields) > 3 else []
        if "ro" in options or not _is_removable(mount_point, fstype):
            continue
        path = Path(mount_point)
        if path not in found:
            found.append(path)
    return found


def choose_folder(
    folder: str | Path | None,
    *,
    fallback: str | Path,
    usb_only: bool = False,
    mounts_file: str | Path = MOUNTS_FILE,
) -> Path:
    """Where to export: ``folder`` if given, else the first removable medium mounted, else
    ``fallback`` (the cabinet's own disk) -- unless ``usb_only``, which raises
    :class:`ExportError` when no medium is mounted."""
    if folder is not None:
        return Path(folder)
    media = removable_media(mounts_file)
    if media:
        return media[0]
    if usb_only:
        raise ExportError("no USB stick is mounted")
    return Path(fallback)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _game_name(game_id: str | None, now: datetime) -> str:
    if game_id:
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in game_id)
        return safe[:64]
    return now.strftime("%Y%m%d-%H%M%S")


def hands_document(
    state: Mapping[str, Any],
    *,
    game_id: str | None = None,
    my_seat: int | None = None,
    my_holes: Mapping[int, Sequence[int]] | None = None,
    exported_at: datetime | None = None,
) -> tuple[dict[str, Any], str]:
    """The JSON document and the PHH text of the finished hands of a saved game
    (``state`` is :meth:`engine.holdem.tournament.Tournament.to_dict`).

    ``my_holes`` maps a hand number to the local player's cards (seat ``my_seat``)."""
    config = state["config"]
    names = [str(s["name"]) for s in config["seats"]]
    table = str(config.get("table", ""))
    holes = dict(my_holes or {})
    entries = list(state.get("hand_log", []))
    phh = []
    hands = []
    for entry in entries:
        number = int(entry["hand"])
        mine = holes.get(number) if my_seat is not None else None
        known = {my_seat: mine} if my_seat is not None and mine is not None else None
        phh.append(log_phh(entry, HandInfo(names=names, number=number, table=table), known))
        hands.append({**entry, "my_cards": list(mine) if mine is not None else None})
    now = exported_at or datetime.now(UTC)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game_id": game_id,
        "exported_at": now.astimezone(UTC).isoformat(timespec="seconds"),
        "table": table,
        "players": names,
        "my_seat": my_seat,
        "starting_chips": config.get("starting_chips"),
        "hands": hands,
    }
    return document, phhs_text(phh)


def export_hands(
    state: Mapping[str, Any],
    folder: str | Path,
    *,
    game_id: str | None = None,
    my_seat: int | None = None,
    my_holes: Mapping[int, Sequence[int]] | None = None,
    exported_at: datetime | None = None,
) -> ExportedHands:
    """Write the game's finished hands as ``.json`` and ``.phhs`` into ``folder`` (made if
    missing).  Raises :class:`ExportError` if the folder cannot be written."""
    now = exported_at or datetime.now(UTC)
    document, phh = hands_document(
        state, game_id=game_id, my_seat=my_seat, my_holes=my_holes, exported_at=now
    )
    folder = Path(folder)
    stem = "holdem-hands-" + _game_name(game_id, now)
    json_path, phh_path = folder / f"{stem}.json", folder / f"{stem}.phhs"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write(json_path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        _write(phh_path, phh)
    except OSError as exc:
        raise ExportError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    _sync_folder(folder)
    return ExportedHands(json_path, phh_path, len(document["hands"]))


def find_kept_game(store: TournamentStore, game_id: str | None = None, *, player: str | None = None) -> str:
    """The id of a finished game whose hands are kept: ``game_id`` (or a prefix naming one
    game), else the latest (``player``'s only when given).  Raises :class:`ExportError`."""
    try:
        kept = store.kept_games(player)
    except TournamentStoreError as exc:
        raise ExportError(exc.reason) from None
    if game_id is None:
        if not kept:
            raise ExportError("no finished game's hands are kept")
        return kept[0].game_id
    found = [k.game_id for k in kept if k.game_id == game_id] or [
        k.game_id for k in kept if k.game_id.startswith(game_id)]
    if len(found) != 1:
        raise ExportError(f"no single kept game has the id {game_id!r}" if found
                          else f"the hands of game {game_id!r} are not kept")
    return found[0]


def export_finished(
    store: TournamentStore,
    game_id: str,
    *,
    fallback: str | Path,
    mounts_file: str | Path = MOUNTS_FILE,
) -> ExportedHands:
    """Export the kept hands of the finished game ``game_id`` to the first mounted USB
    stick, else to ``fallback`` (the cabinet's own disk).  Raises :class:`ExportError`."""
    try:
        loaded = store.finished_game(game_id)
    except TournamentStoreError as exc:
        raise ExportError(exc.reason) from None
    if loaded is None:
        raise ExportError(f"the hands of game {game_id!r} are not kept")
    _gid, state, session = loaded
    folder = choose_folder(None, fallback=fallback, mounts_file=mounts_file)
    holes = {int(k): tuple(v) for k, v in session.get("my_holes", {}).items()}
    return export_hands(state, folder, game_id=game_id, my_seat=session.get("human_seat"), my_holes=holes)
