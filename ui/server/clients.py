"""Who is asking: the one place that says what a visitor's session and address are.

The heavy-work queue shares its places by client (ui/server/job_queue.py). The address is
the one the browser's websocket comes from: None on this computer (loopback), where only
the session counts. Behind the stack's reverse proxy (`bash scripts/run.sh --processes N`,
deploy/nginx.conf) every websocket comes from the proxy, which names the visitor in
`X-Real-IP`; that header is believed only from the proxy's own address, given to each
process as BPE_EXPLORER_PROXY_ADDRESS (unset: no proxy, and the header is ignored, so a
browser cannot name itself another address).

A class counts devices, not sessions: `device_address` includes this computer's loopback
addresses (127.0.0.5 is one device of a room run on one machine), which the queue leaves
out so that every local tab stays a visitor of its own.

    >>> current_client()  # outside a script run: nobody in particular
    Client(session=None, address=None)
    >>> seen_from("127.0.0.1", [("X-Real-Ip", "10.0.0.7")], "127.0.0.1")
    '10.0.0.7'
    >>> seen_from("10.0.0.9", [("X-Real-Ip", "10.0.0.7")], "127.0.0.1")  # not the proxy
    '10.0.0.9'
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import streamlit as st

from ui.server.job_queue import Client
from ui.server.streamlit_internals import client_remote_ip, run_session_id

PROXY_VARIABLE = "BPE_EXPLORER_PROXY_ADDRESS"
LOOPBACK = frozenset({"127.0.0.1", "::1"})
MAX_ADDRESS = 45  # the longest IPv6 address written out


def current_client() -> Client:
    """This script run's session and the address its browser connects from."""
    session = run_session_id()
    return Client(session, None if session is None else client_address())


def client_address() -> str | None:
    """The visitor's address (None when it connects from this computer, or is unknown)."""
    address = visitor_address()
    return None if address is None or address in LOOPBACK else address


def device_address() -> str:
    """The address a class's per-client bounds count: the websocket's, loopback included
    ("" when not known, as in AppTest: no per-client bound then)."""
    return visitor_address() or ""


def visitor_address() -> str | None:
    """The websocket's address, or the visitor's behind the trusted proxy (None: unknown)."""
    peer = client_remote_ip()
    proxy = os.environ.get(PROXY_VARIABLE, "").strip()
    if peer is None or not proxy:
        return peer
    try:
        headers: Iterable[tuple[str, str]] = st.context.headers.items()
    except Exception:  # no runtime to ask (a bare script): the peer alone
        return peer
    return seen_from(peer, headers, proxy)


def seen_from(peer: str, headers: Iterable[tuple[str, str]], proxy: str) -> str:
    """`X-Real-IP` when the connection comes from the proxy (and says one), else the peer.

    >>> proxy = "127.0.0.1"
    >>> seen_from(proxy, [], proxy), seen_from(proxy, [("x-real-ip", " ")], proxy)
    ('127.0.0.1', '127.0.0.1')
    """
    if peer != proxy:
        return peer
    named = next((v.strip() for k, v in headers if k.lower() == "x-real-ip"), "")
    return named[:MAX_ADDRESS] if named else peer
