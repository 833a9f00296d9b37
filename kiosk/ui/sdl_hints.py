"""SDL settings the cabinet needs before the display opens.

On X11, SDL decides how to present a software-drawn window by creating a throw-away
OpenGL context and reading its vendor: only ATI or NVIDIA drivers make it draw through
a GL texture, every other one (Mesa's llvmpipe, Xvfb, most panel PCs) ends up with the
native MIT-SHM framebuffer anyway.  The probe alone loads Mesa and LLVM into the
process, about 115 MB resident that stays after the context is gone.  Asking for the
native framebuffer up front gives the same presentation on those drivers without it.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

#: The SDL hint (read from the environment) that picks how a window surface is shown.
FRAMEBUFFER_ACCELERATION = "SDL_FRAMEBUFFER_ACCELERATION"


def prefer_native_framebuffer(environ: MutableMapping[str, str] | None = None) -> bool:
    """Ask SDL for the window system's own framebuffer (no OpenGL probe) unless the
    environment already chose; call before ``pygame.display.init()``.  Returns True
    when the setting was made here."""
    env = os.environ if environ is None else environ
    if FRAMEBUFFER_ACCELERATION in env:
        return False
    env[FRAMEBUFFER_ACCELERATION] = "0"
    return True
