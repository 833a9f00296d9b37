"""The app's scenes by name, each built the first time it is asked for.

A scene is given by its class (or any callable taking the app) or by ``"module:class"``:
the module is then imported only when the scene is first shown, so the code of screens
a player never opens (the tournament's, and through it the friends games') is not
loaded.  Asking whether a name is a scene (``name in scenes``) builds nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from kiosk.ui.scenes.base import Scene


def _load(path: str) -> Callable[[Any], Scene]:
    """The class ``"module:class"`` names (its module imported now)."""
    module, _, name = path.partition(":")
    built: Callable[[Any], Scene] = getattr(importlib.import_module(module), name)
    return built


class Scenes(Mapping[str, Scene]):
    """Every scene of ``app`` by name (``builders``: a class, a callable or a
    ``"module:class"`` path for each), built on first use and kept."""

    def __init__(self, app: Any, builders: Mapping[str, Callable[[Any], Scene] | str]) -> None:
        self._app = app
        self._builders = dict(builders)
        self._built: dict[str, Scene] = {}

    def __getitem__(self, name: str) -> Scene:
        scene = self._built.get(name)
        if scene is None:
            build = self._builders[name]  # KeyError: no such scene
            scene = (_load(build) if isinstance(build, str) else build)(self._app)
            if scene.name != name:
                raise ValueError(f"scene {name!r} was built as {scene.name!r}")
            self._built[name] = scene
        return scene

    def __contains__(self, name: object) -> bool:
        return name in self._builders

    def __iter__(self) -> Iterator[str]:
        return iter(self._builders)

    def __len__(self) -> int:
        return len(self._builders)

    def built(self) -> list[str]:
        """The names of the scenes built so far."""
        return list(self._built)
