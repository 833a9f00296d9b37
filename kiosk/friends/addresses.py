"""Which address a phone on the venue's network can open: the host's link names it.

A server bound to every interface (``0.0.0.0``) is reached at the address of the
interface that carries the venue's traffic (the one the default route leaves by); a
server bound to loopback (``127.x``, the default configuration) is reached by nobody but
the cabinet itself, and :func:`is_loopback` says so for the Invite screen.
:func:`client_key` is what the server counts a client by: its IPv4 address, or the /64
of an IPv6 address (one device may hold a whole /64).
"""

from __future__ import annotations

import ipaddress
import socket

ANY = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) names this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address(probe: str = "192.0.2.1") -> str | None:
    """The address of the interface the default route leaves by (no packet is sent:
    a UDP socket is only connected), or ``None`` when the machine has no such route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((probe, 9))
        except OSError:
            return None
        address = str(s.getsockname()[0])
    return None if address in ANY or is_loopback(address) else address


def advertised(bind: str, advertise: str | None) -> str:
    """The host name a link names: ``advertise`` when given; for a server on every
    interface the venue network's address (loopback when there is none); else ``bind``."""
    if advertise:
        return advertise
    if bind in ANY:
        return lan_address() or "127.0.0.1"
    return bind


def client_key(address: str) -> str:
    """What the server limits and locks out a client by: an IPv4 address as it is (an
    IPv4-mapped IPv6 address as its IPv4 one), an IPv6 address by its /64 network (one
    phone or router may use any address of its /64), anything else as it is."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
