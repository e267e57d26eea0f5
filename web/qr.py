"""The join code on the device page: a QR code (SVG) of the scoreboard's address on the LAN.

Phones on the table's Wi-Fi often cannot resolve ``.local`` names (Android before 12, many guest networks), so the
code carries the numeric LAN address.
"""

from __future__ import annotations

import ipaddress
import socket


def lan_ip() -> str:
    """This machine's address on the LAN: the source address the kernel would use to reach a private address.

    Connecting a UDP socket sends no packet; it only picks the route. Falls back to 127.0.0.1 with no network.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:
                continue
        if not ipaddress.ip_address(address).is_unspecified:
            return address
    return "127.0.0.1"


def join_url(host_header: str, scheme: str = "http") -> str:
    """The URL a phone should open: the LAN address with the port this request came in on."""
    port = None
    host = host_header
    if host.startswith("["):  # [v6]:port
        end = host.find("]")
        if end != -1 and host[end + 1 : end + 2] == ":":
            port = host[end + 2 :]
    elif host.count(":") == 1:
        port = host.rsplit(":", 1)[1]
    default = "443" if scheme == "https" else "80"
    suffix = f":{port}" if port and port.isdigit() and port != default else ""
    return f"{scheme}://{lan_ip()}{suffix}/"


def qr_svg(text: str) -> str:
    """``text`` as an inline SVG QR code (black modules on white, scales with its container)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    # Let CSS size it: drop the fixed millimetre size the library writes, keep the viewBox.
    start = svg.index("<svg")
    head_end = svg.index(">", start)
    head = svg[start:head_end]
    for attr in ("width", "height"):
        i = head.find(f' {attr}="')
        if i != -1:
            j = head.index('"', i + len(attr) + 3)
            head = head[:i] + head[j + 1 :]
    head += ' role="img" aria-label="QR code to open the scoreboard" class="qr"'
    return svg[:start] + head + svg[head_end:]
