"""The join link: the address other devices can reach, and a QR code a real decoder reads."""

from __future__ import annotations

import base64
import io
import re

import pytest
import zxingcpp
from PIL import Image

from ui.classroom.address import join_host, join_url, lan_address, qr_img_html, qr_png


@pytest.mark.parametrize(
    ("bind", "server_address", "lan", "expected"),
    [
        ("0.0.0.0", "", "10.1.2.3", ("10.1.2.3", True)),
        ("", "", "10.1.2.3", ("10.1.2.3", True)),
        ("0.0.0.0", "classroom.example", "10.1.2.3", ("classroom.example", True)),
        ("0.0.0.0", "", None, ("localhost", False)),  # no network: say only this computer
        ("127.0.0.1", "classroom.example", "10.1.2.3", ("127.0.0.1", False)),
        ("localhost", "", "10.1.2.3", ("localhost", False)),
        ("10.9.8.7", "", "10.1.2.3", ("10.9.8.7", True)),  # bound to one interface: that one
    ],
)
def test_the_join_host(bind, server_address, lan, expected) -> None:
    assert join_host(bind, server_address, lambda: lan) == expected


def test_the_lan_address_is_never_loopback() -> None:
    found = lan_address()  # a UDP connect: no packet leaves the machine
    assert found is None or not found.startswith("127.")


def test_the_link_carries_only_the_code() -> None:
    link = join_url("https", "::1", 8501, "/lesson/", "animate", "ABC23")
    assert link == "https://[::1]:8501/lesson/animate?class=ABC23"


def test_the_qr_code_decodes_to_the_link() -> None:
    link = join_url("http", "192.168.1.20", 8501, "", "animate", "XYZ78")
    shown = qr_img_html(link)  # what the teacher's card draws
    data = re.search(r'src="data:image/png;base64,([^"]+)"', shown).group(1)
    assert base64.b64decode(data) == qr_png(link)
    picture = Image.open(io.BytesIO(base64.b64decode(data)))
    found = zxingcpp.read_barcodes(picture.convert("L"))
    assert [code.text for code in found] == [link]
