"""What the cabinet's start-up loads: ``uth kiosk`` imports its own command module, not
every command's libraries, and the screens' first frame needs no module that only a
later screen uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kiosk.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_a_command_named_like_its_module_imports_that_module_alone():
    loaded = modules_after(
        "from kiosk.cli import main\n"
        "try:\n    main(['kiosk', '--help'])\nexcept SystemExit:\n    pass"
    )
    assert {m for m in loaded if m.startswith("kiosk.commands.")} == {"kiosk.commands.kiosk"}


def test_help_and_unknown_words_still_see_every_command():
    every = build_parser()
    assert "kiosk" in every.format_help() and "audit" in every.format_help()
    for word in ("seeding", "nonsense", None):  # a module with no command, no module, no word
        assert build_parser(word).format_help() == every.format_help()
    # a command whose module registers another module's subcommand keeps it
    assert build_parser("table").parse_args(["table", "demo"]).func.__name__ == "cmd_demo"
