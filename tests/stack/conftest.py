"""What the stack's tests need: Debian's nginx and redis-server, or a clean skip (under
CI=true, a failure: CI must run them; scripts/test.sh installs both with apt-get)."""

from __future__ import annotations

import os
import shutil

import pytest

MISSING = "Debian's nginx and redis-server are needed: apt-get install nginx redis-server"


def require_stack_programs() -> None:
    """Skip without nginx or redis-server; under CI=true, fail."""
    if (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")) and shutil.which(
        "redis-server"
    ):
        return
    if os.environ.get("CI") == "true":
        pytest.fail(MISSING, pytrace=False)
    pytest.skip(MISSING)
