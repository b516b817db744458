"""The join link: an address a student's phone can reach, and a QR code of it.

A server bound to every interface (`--server.address 0.0.0.0`, or no address) is reached
at `browser.serverAddress` when that is set, else at this machine's address on its local
network. One bound to loopback (the default `.streamlit/config.toml`) can be opened only
on this computer, and the page says so rather than print a link no phone can open.

    >>> join_host("0.0.0.0", "", lambda: "192.168.1.20")
    ('192.168.1.20', True)
    >>> join_host("", "class.example", lambda: "192.168.1.20")
    ('class.example', True)
    >>> join_host("127.0.0.1", "", lambda: "192.168.1.20")
    ('127.0.0.1', False)
    >>> join_url("http", "192.168.1.20", 8501, "", "animate", "ABC23")
    'http://192.168.1.20:8501/animate?class=ABC23'
"""

from __future__ import annotations

import base64
import io
import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import quote, urlencode

import segno

EVERY_INTERFACE = ("", "0.0.0.0", "::", "[::]")
# subtle: connecting a UDP socket sends nothing; it only asks the kernel which interface a
# packet to this address would leave by. 192.0.2.1 is TEST-NET-1, reserved for examples.
PROBE_ADDRESS = ("192.0.2.1", 9)


def lan_address() -> str | None:
    """This machine's address on its network, found without sending a packet (None when
    it has no route off this computer)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def is_loopback(host: str) -> bool:
    """
    >>> is_loopback("localhost"), is_loopback("127.0.0.2"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("10.0.0.5"), is_loopback("class.example")
    (False, False)
    """
    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def join_host(
    bind_address: str, server_address: str, find_lan: Callable[[], str | None] = lan_address
) -> tuple[str, bool]:
    """The host a join link names, and whether other devices can reach it."""
    bind = bind_address.strip()
    if bind in EVERY_INTERFACE:
        if server_address.strip():
            return server_address.strip(), True
        lan = find_lan()
        return (lan, True) if lan else ("localhost", False)
    return bind, not is_loopback(bind)


def join_url(scheme: str, host: str, port: int, base_path: str, page: str, code: str) -> str:
    """The page's own address with `?class=CODE` (an IPv6 host in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    path = "/".join(quote(part) for part in (base_path.strip("/"), page.strip("/")) if part)
    return f"{scheme}://{host}:{port}/{path}?{urlencode({'class': code})}"


def qr_img_html(link: str) -> str:
    """The QR code as an <img> with its PNG inline (st.html strips inline SVG; a data
    address needs no media file), its alt text saying what it is.

    >>> qr_img_html("http://h:1/?class=ABC23")[:60]
    '<img class="class-qr" alt="QR code of the join link" src="da'
    """
    data = base64.b64encode(qr_png(link)).decode("ascii")
    return (
        f'<img class="class-qr" alt="QR code of the join link" src="data:image/png;base64,'
        f'{data}" width="260" height="260" style="image-rendering:pixelated">'
    )


def qr_png(link: str, scale: int = 8) -> bytes:
    """A QR code of the link as a PNG, dark on white whatever the page's theme: a phone
    camera opens it from the back of a room."""
    sink = io.BytesIO()
    qr = segno.make(link, error="m", micro=False)
    qr.save(sink, kind="png", scale=scale, border=4, dark="#000", light="#fff")
    return sink.getvalue()
