"""The kiosk over a real controller for the operator menu's tests, fed the app's own
input events, with every string drawn in the last frame recorded.

Imported as ``support.operator_screens`` (``tests/`` is on the import path).
"""

from __future__ import annotations

from pathlib import Path

from support.cabinet import opened

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import SetDoor
from kiosk.ui.app import App
from kiosk.ui.events import Command, Key, Touch
from kiosk.wiring.cabinet import operator_menu

PEOPLE = (("Ann Smith", "attendant", "246810"), ("Ted Jones", "technician", "135790"),
          ("Cy Young", "manager", "975310"))


def cabinet_config(folder: Path, *, demo: bool = False):
    """A cabinet configuration with the three :data:`PEOPLE` (demo: the demo PINs)."""
    if demo:
        return load_config(None, db_path=folder / "uth.db")
    text = f'db_path = "{folder / "uth.db"}"\nmachine_number = "UT-0042"\n'
    for name, role, pin in PEOPLE:
        text += f'[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = folder / "cabinet.toml"
    path.write_text(text)
    return load_config(path)


class OperatorScreens:
    """The app at ``size`` over a lone cabinet's parts; ``texts`` holds what the last frame drew."""

    def __init__(self, folder: Path, size: tuple[int, int] = (800, 480), demo: bool = False,
                 printer=None, rng=None) -> None:
        self.config = cabinet_config(folder, demo=demo)
        rng = SeededRandomSource(7) if rng is None else rng
        self.printer = printer  # prints the cabinet's tickets (None: cash-outs are paid by hand)
        self.cabinet = opened(self.config, printer, rng=rng)
        self.app = App(
            self.cabinet.station,
            size,
            demo=demo,
            sound=False,
            operator_scene=operator_menu(self.cabinet),
        )
        self.size = size
        self.texts: list[tuple[str, int]] = []  # (text, pixel size) drawn in the last frame
        text = self.app.text
        render = text.render

        def recording(s: str, px: int, *args, **kw):
            self.texts.append((s, px))
            return render(s, px, *args, **kw)

        text.render = recording  # type: ignore[method-assign]
        self.frame()

    @property
    def scene(self):
        return self.app.scene

    @property
    def snap(self):
        return self.cabinet.station.snapshot()

    def frame(self) -> None:
        """One frame, drawn whole (a still screen is otherwise not drawn again), with
        :attr:`texts` its strings."""
        self.texts = []
        self.app.scene.invalidate()
        self.app.step(1 / 60)

    def drawn(self) -> str:
        """Every string of the last frame, one a line."""
        return "\n".join(t for t, _px in self.texts)

    def feed(self, *events) -> None:
        for ev in events:
            self.app.feed(ev)
            self.app.step(1 / 60, draw=False)
        self.frame()

    def key(self, name: str, text: str = "") -> None:
        self.feed(Key(name, text))

    def type_pin(self, pin: str) -> None:
        self.feed(*(Key(d, d) for d in pin), Key("return"))

    def buttons(self) -> dict[str, object]:
        return {b.id: b for b in self.scene.buttons()}

    def touch(self, bid: str) -> None:
        b = self.buttons().get(bid)
        assert b is not None, f"no button {bid!r}: {sorted(self.buttons())}"
        assert b.enabled, f"button {bid} is disabled"
        self.feed(Touch(self.app.layout.rect(*b.rect).center))

    def login(self, pin: str, door: bool = True) -> None:
        """Open the menu with the key switch (the door opened first when ``door``) and log in."""
        if door:
            self.cabinet.station.execute(SetDoor(True))
            self.frame()
        self.feed(Command("operator_key"))
        if self.scene.name != "operator":
            self.feed(Command("operator_key"))
        self.type_pin(pin)

    def shot(self, path: Path) -> None:
        self.frame()
        self.app.screenshot(path)

    def close(self) -> None:
        self.app.close()
        self.cabinet.close()
