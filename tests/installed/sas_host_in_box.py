"""The casino's system inside the booted Debian of the installed-cabinet test.

Run there by the installed program's own interpreter (``/opt/uth/.venv/bin/python -I``),
as root, beside the cabinet's unit: it opens a pseudo-terminal (the SAS line), gives its
machine end to the service user, writes that end's path to ``--port-file``, waits for the
machine's first answer (the kiosk restarted with ``sas_port`` set to it), then polls
address 1 every 40 ms for ``--seconds`` (a general poll, each exception acknowledged by
the next poll, an answer not started within 100 ms counted unanswered) and reads the
identity (1F) and the meters (0F).  Writes what it saw to ``--out`` (JSON) and ends.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import time
from pathlib import Path

from devices.sas.host import SasHost, decode
from devices.sas.line import PtyPair

POLL_S, ANSWER_TIMEOUT_S = 0.040, 0.100


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port-file", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--owner", default="uth", help="the user the machine end is given to")
    p.add_argument("--wait", type=float, default=240.0, help="seconds for the first answer")
    args = p.parse_args()
    pair = PtyPair()
    owner = pwd.getpwnam(args.owner)
    os.chown(pair.port, owner.pw_uid, owner.pw_gid)
    os.chmod(pair.port, 0o600)
    tmp = args.port_file.with_suffix(".tmp")
    tmp.write_text(pair.port)
    tmp.replace(args.port_file)
    host = SasHost(pair.line, answer_timeout=ANSWER_TIMEOUT_S, retries=0)
    result: dict[str, object] = {"port": pair.port}
    deadline = time.monotonic() + args.wait
    while host.general_poll(1).kind == "none":
        if time.monotonic() > deadline:
            result["error"] = f"no answer in {args.wait:g} s"
            args.out.write_text(json.dumps(result))
            return 1
        time.sleep(0.2)
    started = time.monotonic()
    polls, unanswered, starts, codes = 0, 0, [], []
    while time.monotonic() - started < args.seconds:
        at = time.monotonic()
        ex = host.general_poll(1)
        polls += 1
        if ex.kind == "none" or ex.start_s is None:
            unanswered += 1
        else:
            starts.append(ex.start_s)
        if ex.code:
            codes.append(ex.code)
            host.acknowledge()
        time.sleep(max(0.0, at + POLL_S - time.monotonic()))
    result.update(
        polls=polls,
        unanswered=unanswered,
        starts_ms=[round(1000 * s, 3) for s in starts],
        exceptions=codes,
        identity=decode(0x1F, host.long_poll(1, 0x1F).answer),
        meters=decode(0x0F, host.long_poll(1, 0x0F).answer),
    )
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(result))
    tmp.replace(args.out)
    pair.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
