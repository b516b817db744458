"""No file but the door reaches into Streamlit's privates: a plain walk over the source.

Every .py under ui/, pages/, harness/, scripts/, bench/ and tests/, and streamlit_app.py,
except ui/server/streamlit_internals.py and its canaries: no import of streamlit.runtime,
.proto, .elements, .web or .errors (however written), no `x._name` on a name bound by an
import from streamlit (`st._main`, `st.session_state._state`, `AppTest._tree`), and in ui/
no getattr/setattr/hasattr with a "_name" string. What it cannot see: a private attribute
of an object that came back from a Streamlit call (`app = AppTest...; app._tree`). The
import rule is import-linter's contract "streamlit-internals-door" too; this one also
covers streamlit_app.py and the private attributes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import tomllib

from scripts.import_contracts import forbidden_name

ROOT = Path(__file__).resolve().parents[3]
FOLDERS = ("ui", "pages", "harness", "scripts", "bench", "tests")
DOORS = {"ui/server/streamlit_internals.py", "tests/app/server/test_streamlit_internals.py"}


def door_contract() -> dict[str, Any]:
    """pyproject.toml's import-linter contract for the door: one list of private parts."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [
        contract
        for contract in contracts["tool"]["importlinter"]["contracts"]
        if contract["id"] == "streamlit-internals-door"
    ]
    assert found, "pyproject.toml has no import-linter contract 'streamlit-internals-door'"
    return found[0]


# streamlit.runtime, .proto, .elements, .web and .errors, as the contract names them
PRIVATE = tuple(door_contract()["forbidden_parts"])
PRIVATE_ATTRIBUTE = re.compile(r"_[a-z]")
REFLECTION = {"getattr", "setattr", "hasattr", "delattr"}


def is_private(name: str) -> bool:
    """`streamlit.runtime.app_session` yes; `streamlit`, `streamlit.testing.v1` no."""
    return forbidden_name([name], PRIVATE) is not None


def imported(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """(the dotted name brought in, the local name bound) for each name of an import."""
    if isinstance(node, ast.Import):
        return [(a.name, a.asname or a.name.split(".")[0]) for a in node.names]
    if node.level or not node.module:
        return []
    return [(f"{node.module}.{a.name}", a.asname or a.name) for a in node.names]


def streamlit_names(tree: ast.AST) -> set[str]:
    """The local names a file binds by importing from streamlit (`st`, `AppTest`, ...)."""
    return {
        local
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name, local in imported(node)
        if name == "streamlit" or name.startswith("streamlit.")
    }


def root_name(node: ast.expr) -> str | None:
    """The name an attribute chain starts from: `st.session_state._state` -> "st"."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def violations(relative: str, source: str) -> list[str]:
    """Each reach into Streamlit's privates in one file, as "file:line what"."""
    tree = ast.parse(source, filename=relative)
    bound = streamlit_names(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [name for name, _ in imported(node)]
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
            found += [f"{relative}:{node.lineno} imports {n}" for n in names if is_private(n)][:1]
        elif (
            isinstance(node, ast.Attribute)
            and PRIVATE_ATTRIBUTE.match(node.attr)
            and root_name(node) in bound
        ):
            found.append(f"{relative}:{node.lineno} reads .{node.attr} of Streamlit's")
        elif (
            relative.startswith("ui/")
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in REFLECTION
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and PRIVATE_ATTRIBUTE.match(node.args[1].value)
        ):
            found.append(f"{relative}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    return sorted(found, key=lambda line: int(line.split(":")[1].split()[0]))


def checked_files() -> list[Path]:
    files = [ROOT / "streamlit_app.py"]
    for folder in FOLDERS:
        files += sorted((ROOT / folder).rglob("*.py"))
    return [path for path in files if path.relative_to(ROOT).as_posix() not in DOORS]


def test_nothing_but_the_door_reaches_into_streamlits_privates() -> None:
    files = checked_files()
    assert len(files) > 300  # the walk found the project
    found = [
        line
        for path in files
        for line in violations(path.relative_to(ROOT).as_posix(), path.read_text("utf-8"))
    ]
    assert not found, (
        "Streamlit's private internals outside ui/server/streamlit_internals.py (use the "
        "public API, or add a function with its fallback and canary to the door):\n"
        + "\n".join(found)
    )


def test_the_walk_finds_each_kind_of_reach(tmp_path: Path) -> None:
    """The check can fail: a file with one of each is named, line by line."""
    source = """\
import streamlit as st
import streamlit.runtime.app_session
from streamlit import runtime
from streamlit.errors import FragmentHandledException
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.testing.v1 import AppTest
from streamlit import config

st.session_state._state
AppTest._tree
runner = getattr(session, "_scriptrunner")
st.write("fine")
config.get_option("server.port")
"""
    (tmp_path / "reach.py").write_text(source)
    found = violations("ui/reach.py", (tmp_path / "reach.py").read_text())
    assert found == [
        "ui/reach.py:2 imports streamlit.runtime.app_session",
        "ui/reach.py:3 imports streamlit.runtime",
        "ui/reach.py:4 imports streamlit.errors.FragmentHandledException",
        "ui/reach.py:5 imports streamlit.proto.ForwardMsg_pb2.ForwardMsg",
        "ui/reach.py:9 reads ._state of Streamlit's",
        "ui/reach.py:10 reads ._tree of Streamlit's",
        "ui/reach.py:11 getattr(..., '_scriptrunner')",
    ]
    assert violations("tests/reach.py", 'getattr(x, "_private")') == []  # ui/ only
