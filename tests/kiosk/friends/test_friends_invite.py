"""The invitation's QR code reads back as the game's link, from the PNG and from the
cabinet's pygame surface (decoded by an independent reader, zxing-cpp)."""

from __future__ import annotations

import numpy as np
import pygame
import zxingcpp

from kiosk.friends.invite import invite_png, invite_surface

LINK = "http://192.168.1.20:8765/g/K7PXM3"


def _decode(pixels: np.ndarray) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(pixels)]


def test_the_png_reads_back_as_the_link(tmp_path):
    path = tmp_path / "invite.png"
    path.write_bytes(invite_png(LINK, scale=6))
    image = pygame.image.load(str(path))
    grey = pygame.surfarray.array3d(image).mean(axis=2).astype(np.uint8).T
    assert _decode(np.ascontiguousarray(grey)) == [LINK]


def test_the_cabinet_surface_reads_back_as_the_link():
    surface = invite_surface(LINK, 300)
    assert surface.get_size() == (300, 300)
    grey = pygame.surfarray.array3d(surface).mean(axis=2).astype(np.uint8).T
    assert _decode(np.ascontiguousarray(grey)) == [LINK]


def test_another_link_gives_another_code():
    a = pygame.surfarray.array3d(invite_surface(LINK, 300))
    b = pygame.surfarray.array3d(invite_surface(LINK + "X", 300))
    assert (a != b).any()
