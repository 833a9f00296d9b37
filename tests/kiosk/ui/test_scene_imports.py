"""What a cabinet session loads: the tournament's screens, the tournament and the
friends games' code (and the network link and QR code libraries they bring) are
imported when a tournament screen is first opened, not before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.ui.app import TOURNAMENT_SCENES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

#: Modules a session of the casino game (its rounds, its pages) never uses.
NOT_LOADED = (
    "kiosk.ui.scenes.tournament",
    "kiosk.friends.cabinet",
    "kiosk.friends.game",
    "kiosk.friends.server",
    "kiosk.friends.client",
    "kiosk.tournament.session",
    "kiosk.tournament.settings",
    "kiosk.link.server",
    "kiosk.link.client",
    "engine.holdem.bots",
    "engine.holdem.tournament",
    "websockets",
    "segno",
)

#: The child: the command line's modules, the screens over a cabinet with its
#: tournament (a database of its own), a round played; then (``open``) the
#: tournament's setup screen.  Prints the modules loaded after each.
CHILD = """
import json, sys
from pathlib import Path
sys.path.insert(0, {here!r})
import kiosk.cli, kiosk.wiring.cabinet
from kiosk.friends.context import TournamentContext
from test_ui import WIN, Kiosk, start_round

tmp = Path({tmp!r})
tournament = TournamentContext(tmp / "tournament.db")
k = Kiosk(tmp, (800, 480), WIN)
k.app.tournament = tournament
start_round(k)
k.touch("act_play_4x")
k.settle()
k.run(0.2)
out = {{"round": sorted(sys.modules), "built": k.app.scenes.built()}}
k.app.go("tournament_setup")
k.run(0.2)
out["open"] = sorted(sys.modules)
out["scene"] = k.scene.name
k.close()
print(json.dumps(out))
"""


def loaded(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in NOT_LOADED)]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("session")
    code = CHILD.format(here=str(HERE), tmp=str(tmp))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return got


def test_a_round_of_the_casino_game_loads_no_tournament_code(session):
    round_modules = session["round"]
    assert isinstance(round_modules, list)
    assert loaded(round_modules) == []
    assert not set(session["built"]) & set(TOURNAMENT_SCENES)  # type: ignore[arg-type]


def test_the_tournament_setup_is_loaded_and_built_when_opened(session):
    assert session["scene"] == "tournament_setup"
    opened = session["open"]
    assert isinstance(opened, list)
    assert "kiosk.ui.scenes.tournament.setup" in opened
    assert "kiosk.tournament.settings" in opened


def test_each_tournament_scene_is_the_class_its_name_names():
    from kiosk.ui.scenes.scene_map import _load

    for name, path in TOURNAMENT_SCENES.items():
        assert _load(path).name == name
