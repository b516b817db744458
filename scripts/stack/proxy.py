"""nginx's configuration from deploy/nginx.conf, and the command that runs it.

The template's fields are `{{PREFIX}}` (nginx's own folder: its pid, logs and temp files),
`{{LISTEN}}` (the address and port browsers open) and `{{SERVERS}}` (one line per
Streamlit process). Nothing else in the template changes, so what the tests and the bench
run is what ships; deploy/compose.yaml fills it in too (`python -m scripts.stack.proxy`).

    >>> template = "listen {{LISTEN}};\\n{{SERVERS}}"
    >>> text = render(template, Path("/s/nginx"), "127.0.0.1:8501", ["127.0.0.1:9001"])
    >>> print(text)
    listen 127.0.0.1:8501;
            server 127.0.0.1:9001 max_fails=1 fail_timeout=5s;
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx.conf"
# a process that refused a connection is left out this long, then tried again (a
# restarted process answers again); its browsers meanwhile go to the next process
FAIL_SECONDS = 5
TEMP_FOLDERS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def render(template: str, prefix: Path, listen: str, servers: list[str]) -> str:
    """The template with its three fields filled in (`servers`: each process's host:port)."""
    lines = "\n".join(
        f"        server {server} max_fails=1 fail_timeout={FAIL_SECONDS}s;" for server in servers
    )
    return (
        template.replace("{{PREFIX}}", str(prefix))
        .replace("{{LISTEN}}", listen)
        .replace("{{SERVERS}}", lines)
    )


def listen_on(address: str, port: int) -> str:
    """nginx's `listen` value: `listen_on("127.0.0.1", 8501)` is "127.0.0.1:8501".

    >>> listen_on("::1", 8501), listen_on("0.0.0.0", 80)
    ('[::1]:8501', '0.0.0.0:80')
    """
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def write_config(prefix: Path, listen: str, servers: list[str]) -> Path:
    """nginx's folder made (its temp folders too), the configuration written into it."""
    for name in TEMP_FOLDERS:
        (prefix / "temp" / name).mkdir(parents=True, exist_ok=True)
    config = prefix / "nginx.conf"
    config.write_text(render(TEMPLATE.read_text(encoding="utf-8"), prefix, listen, servers))
    return config


def nginx_binary() -> str:
    """Debian's nginx (`apt-get install nginx`), or a ValueError saying so."""
    found = shutil.which("nginx") or next(
        (str(p) for p in (Path("/usr/sbin/nginx"),) if p.exists()), None
    )
    if found is None:
        raise ValueError("nginx is not installed: apt-get install nginx")
    return found


def command(prefix: Path, config: Path) -> list[str]:
    """nginx in the foreground (`daemon off;` is in the template) on this prefix: its
    error log from the first line on (-e), never the system's /var/log/nginx."""
    return [nginx_binary(), "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log")]


def main(argv: list[str] | None = None) -> None:
    """`python -m scripts.stack.proxy --listen 0.0.0.0:8080 --prefix /tmp/nginx app-1:8501
    app-2:8501`: write the configuration and become nginx (deploy/compose.yaml's proxy)."""
    import argparse
    import os

    parser = argparse.ArgumentParser(description="nginx in front of the app's processes")
    parser.add_argument("--listen", required=True, help="address:port browsers open")
    parser.add_argument("--prefix", type=Path, required=True, help="nginx's own folder")
    parser.add_argument("servers", nargs="+", help="each Streamlit process's host:port")
    args = parser.parse_args(argv)
    config = write_config(args.prefix, args.listen, args.servers)
    binary, *rest = command(args.prefix, config)
    os.execv(binary, [binary, *rest])


if __name__ == "__main__":
    main()
