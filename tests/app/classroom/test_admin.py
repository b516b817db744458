"""The operator's command line (`python -m ui.classroom.admin`), run as a real process on a
real classes file: it lists the classes and ends one, in the file and in a running store."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

from harness.app_server import free_port
from harness.redis_server import RedisServer
from tests.app.classroom.conftest import redis_store
from ui.classroom.store import ClassStore

ROOT = Path(__file__).resolve().parents[3]
RUN = "0123456789abcdef"


def admin(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BPE_EXPLORER_REDIS")}
    return subprocess.run(
        [sys.executable, "-m", "ui.classroom.admin", *args],
        cwd=ROOT,
        env={**environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_list_and_end_a_class_of_a_running_store(tmp_path: Path) -> None:
    store = ClassStore(snapshot_path=tmp_path / "classes.json")
    squatter = store.start(RUN, "Bots · none · 300", client="10.0.0.66")
    kept = store.start(RUN, "Shakespeare · gpt4 · 1k", client="10.0.0.5")
    store.join(squatter.code, "bot")
    listed = admin("--runs-dir", str(tmp_path), "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split()[:2] == ["code", "students"] and len(lines) == 3
    assert any(squatter.code in line and "10.0.0.66" in line and " 1 " in line for line in lines)
    ended = admin("--runs-dir", str(tmp_path), "end", squatter.code.lower())
    assert ended.returncode == 0 and f"Class {squatter.code} ended" in ended.stdout
    time.sleep(1.1)  # the store looks for requests once a second
    assert store.version(squatter.code) is None  # ended in the running server too
    assert store.view(kept.code) is not None
    again = admin("--runs-dir", str(tmp_path), "list")
    assert squatter.code not in again.stdout and kept.code in again.stdout


def test_bad_input_gets_one_sentence(tmp_path: Path) -> None:
    wrong = admin("--runs-dir", str(tmp_path), "end", "O0O0O")
    assert wrong.returncode == 2 and "is not a class code" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    missing = admin("--runs-dir", str(tmp_path), "end", "ABCDE")
    assert missing.returncode == 1 and "No class has the code ABCDE" in missing.stdout
    (tmp_path / "classes.json").write_text("{not json", encoding="utf-8")
    broken = admin("--runs-dir", str(tmp_path), "list")
    assert broken.returncode == 1 and "not a classes file" in broken.stderr
    assert (tmp_path / "classes.json").exists()  # the operator's look moves nothing
    empty = admin("--runs-dir", str(tmp_path / "none"), "list")
    assert empty.returncode == 0 and "No class in" in empty.stdout


def test_list_and_end_a_class_in_redis(redis_server: RedisServer) -> None:
    """With BPE_EXPLORER_REDIS_URL, the operator acts on the classes every process shares."""
    prefix = f"admin-{secrets.token_hex(4)}:"
    store = redis_store(redis_server.url, prefix)
    squatter = store.start(RUN, "Bots · none · 300", client="10.0.0.66")
    kept = store.start(RUN, "Shakespeare · gpt4 · 1k", client="10.0.0.5")
    store.join(squatter.code, "bot")
    env = {"BPE_EXPLORER_REDIS_URL": redis_server.url, "BPE_EXPLORER_REDIS_PREFIX": prefix}
    listed = admin("list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert any(squatter.code in line and "10.0.0.66" in line for line in listed.stdout.splitlines())
    ended = admin("end", squatter.code.lower(), env=env)
    assert ended.returncode == 0 and f"Class {squatter.code} ended" in ended.stdout
    assert store.view(squatter.code) is None and store.view(kept.code) is not None
    missing = admin("end", squatter.code, env=env)
    assert missing.returncode == 1 and "No class has the code" in missing.stdout
    redis_server_url = redis_server.url.replace(str(redis_server.port), str(free_port()))
    down = admin("list", env={**env, "BPE_EXPLORER_REDIS_URL": redis_server_url})
    assert down.returncode == 1 and "Could not reach the classes' Redis" in down.stderr
    assert redis_server.password not in down.stderr + down.stdout
    assert "Traceback" not in down.stderr
