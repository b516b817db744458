"""The stack's parts without starting it: the shipped nginx configuration as filled in
(checked by nginx itself, `nginx -t`), Redis's configuration, the launcher's options."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scripts.stack import launch, proxy, store
from tests.stack.conftest import require_stack_programs


def test_the_shipped_template_is_what_is_filled_in(tmp_path: Path) -> None:
    text = proxy.render(
        proxy.TEMPLATE.read_text(), tmp_path, "127.0.0.1:8501", ["127.0.0.1:9001", "127.0.0.1:9002"]
    )
    assert not re.search(r"{{(PREFIX|LISTEN|SERVERS)}}", text)
    assert "hash $bpe_process consistent;" in text
    assert "server 127.0.0.1:9001 max_fails=1" in text and "server 127.0.0.1:9002 " in text
    assert "proxy_next_upstream error timeout;" in text
    assert "listen 127.0.0.1:8501;" in text


def test_nginx_accepts_the_configuration_and_writes_only_under_its_prefix(tmp_path: Path) -> None:
    require_stack_programs()
    prefix = tmp_path / "nginx"
    config = proxy.write_config(prefix, "127.0.0.1:1", ["127.0.0.1:9001"])
    text = config.read_text()
    settings = [line.split("#", 1)[0] for line in text.splitlines()]
    paths = [w.rstrip(";") for line in settings for w in line.split() if w.startswith("/")]
    paths.remove("/")  # `location /`: every path of the app
    assert paths and all(p.startswith(str(prefix)) for p in paths)
    checked = subprocess.run(
        [*proxy.command(prefix, config), "-t"], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


def test_redis_password_is_in_a_private_file_not_on_the_command_line(tmp_path: Path) -> None:
    config = store.write_config(tmp_path / "redis", 6390, "s3cret-pw")
    assert config.stat().st_mode & 0o077 == 0
    assert "requirepass s3cret-pw" in config.read_text()
    assert "bind 127.0.0.1" in config.read_text()
    if store.shutil.which("redis-server"):
        assert not any("s3cret" in word for word in store.command(config))


@pytest.mark.parametrize(
    "argv",
    [["--processes", "0"], ["--processes", "17"], ["--processes", "2", "--server.port", "1"]],
)
def test_the_launcher_refuses_what_it_cannot_serve(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        launch.parse_args(argv)


def test_the_launcher_passes_streamlit_options_on() -> None:
    args, options = launch.parse_args(["--processes", "3", "--theme.base", "dark"])
    assert args.processes == 3 and args.port == 8501 and options == ["--theme.base", "dark"]
