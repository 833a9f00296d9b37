"""A paytable written out for the regulator or another cabinet: its TOML, exactly as
the file, and its PAR sheet (the exact optimal-play report as text, when computed), into
a folder (a USB stick, or the cabinet's own disk).  The export is recorded in the
ledger with the manager who made it and the table's SHA-256."""

from __future__ import annotations

import os
from pathlib import Path

from engine.maths.cache import cached_par
from engine.maths.par_report import format_report
from engine.uth.paytable import PaytableError, load_paytable
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError
from kiosk.game.paytables.draft import default_stem
from kiosk.ledger.kinds import EventKind
from kiosk.service.state import TableState

PAR_SUFFIX = "-par.txt"


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` durably (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def export_paytable(
    st: TableState, station: int, source: str | Path, folder: str | Path, stem: str = ""
) -> list[Path]:
    """Write the paytable file ``source`` as ``<stem>.toml`` and its PAR sheet as
    ``<stem>-par.txt`` into ``folder`` (created); a manager logged in at ``station``
    only.  Returns the files
    written (no PAR sheet when the table's exact RTP is not computed).  Refused
    (:class:`ConfigurationError`) for a file that is not a valid paytable or a folder
    that cannot be written."""
    st.require_ledger()
    operator = st.require_role(station, "manager")
    try:
        table = load_paytable(source)
        text = Path(source).read_text(encoding="utf-8")
    except (PaytableError, OSError) as exc:
        raise ConfigurationError(
            f"{Path(source).name} cannot be exported: {exc}", code=ErrorCode.EXPORT_FAILED
        ) from None
    stem = stem or default_stem(table.name, table.sha256)
    if not stem or "/" in stem or stem.startswith("."):
        raise ConfigurationError(f"not a file name: {stem!r}", code=ErrorCode.EXPORT_FAILED)
    sheet = cached_par(table, "optimal")
    out = Path(folder)
    files = [out / f"{stem}.toml"]
    try:
        out.mkdir(parents=True, exist_ok=True)
        _write(files[0], text)
        if sheet is not None:
            files.append(out / f"{stem}{PAR_SUFFIX}")
            head = f"{table.name} {table.version}  SHA-256 {table.sha256}\n\n"
            _write(files[1], head + format_report(sheet) + "\n")
    except OSError as exc:
        raise ConfigurationError(
            f"cannot write to {out}: {exc.strerror or exc}", code=ErrorCode.EXPORT_FAILED
        ) from None
    st.event(
        EventKind.PAYTABLE_EXPORTED,
        {
            "operator": operator,
            "sha256": table.sha256,
            "name": table.name,
            "version": table.version,
            "folder": str(out),
            "files": [f.name for f in files],
            "par": sheet is not None,
            **st.at(station),
        },
        station,
    )
    return files
