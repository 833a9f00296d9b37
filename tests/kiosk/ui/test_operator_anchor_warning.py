"""The operator menu and the Machine page say in words when the ledger's anchor is
beside the database (demo mode: a copied-back database goes undetected), and say
nothing of it on an installed cabinet whose anchor is elsewhere.  Real pygame (SDL
dummy driver) over a real controller and ledger."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.operator_screens import PEOPLE, OperatorScreens

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet

WARNING = "the ledger's anchor is beside the database; a copied-back database cannot be detected"
TECHNICIAN = PEOPLE[1][2]


class InstalledScreens(OperatorScreens):
    """:class:`OperatorScreens` on an installed layout: the anchor on another medium."""

    def __init__(self, folder: Path) -> None:
        (folder / "medium").mkdir()
        text = (
            f'db_path = "{folder / "uth.db"}"\nmachine_number = "UT-0042"\n'
            f'anchor_path = "{folder / "medium" / "uth.anchor"}"\n'
        )
        for name, role, pin in PEOPLE:
            text += f'[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
        (folder / "cabinet.toml").write_text(text)
        self.config = load_config(folder / "cabinet.toml")
        self.printer = None
        self.cabinet = LoneCabinet.open(self.config, rng=SeededRandomSource(7))
        PaperlessPrinter(ready=False).attach(self.cabinet.link)  # cash-outs are paid by hand
        self.app = cabinet_app(self.cabinet, (800, 480), demo=False, sound=False)
        self.size = (800, 480)
        self.texts = []
        render = self.app.text.render

        def recording(s: str, px: int, *args, **kw):
            self.texts.append((s, px))
            return render(s, px, *args, **kw)

        self.app.text.render = recording  # type: ignore[method-assign]
        self.frame()


@pytest.fixture
def screens(tmp_path):
    made: list[OperatorScreens] = []

    def make(installed: bool) -> OperatorScreens:
        folder = tmp_path / f"cabinet{len(made)}"
        folder.mkdir()
        s = InstalledScreens(folder) if installed else OperatorScreens(folder, demo=True)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def shown(s: OperatorScreens) -> str:
    return " ".join(t for t, _px in s.texts)


def test_the_menu_and_the_machine_page_warn_when_the_anchor_is_beside_the_database(screens):
    s = screens(installed=False)
    assert s.snap.anchor_beside_db
    s.login("2222")  # the demo technician
    assert s.scene.name == "operator" and s.scene.state == "menu"
    assert WARNING in shown(s)
    s.touch("page_machine")
    assert s.scene.current is not None and s.scene.current.id == "machine"
    assert WARNING in shown(s) and str(s.config.anchor_file) in shown(s)


def test_an_installed_cabinet_with_its_anchor_elsewhere_shows_no_warning(screens):
    s = screens(installed=True)
    assert not s.snap.anchor_beside_db and not s.snap.tilts
    s.login(TECHNICIAN)
    assert s.scene.state == "menu" and "OPERATOR MENU" in shown(s)
    assert "anchor" not in shown(s)
    s.touch("page_machine")
    assert "anchor is beside" not in shown(s) and str(s.config.anchor_file) in shown(s)
