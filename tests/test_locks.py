"""The locks (requirements*.txt) against the human lists (requirements*.in): uv, app, tests.

scripts/run.sh and scripts/test.sh install the locks with `pip install --require-hashes`, so a
lock that leaves a package unpinned or unhashed fails every install, and one that drifts from
its .in file installs something nobody chose. These checks read files only: no network, no pip.
Each check returns its problems as sentences; the last tests break copies in tmp_path to show
that each one can fail.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
# each human list and the lock generated from it by scripts/lock.sh
PAIRS = {
    "requirements-uv.in": "requirements-uv.txt",
    "requirements.in": "requirements.txt",
    "requirements-dev.in": "requirements-dev.txt",
}
# the locks that hold the app (the installer's lock holds uv alone)
APP_LOCKS = ("requirements.txt", "requirements-dev.txt")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def logical_lines(path: Path) -> list[str]:
    """The file's lines with comments dropped and backslash continuations joined."""
    lines: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line:
            lines.append(line)
    if pending.strip():
        lines.append(pending.strip())
    return lines


def direct(path: Path) -> dict[str, Requirement]:
    """The requirements a .in file names, following its -r includes, by canonical name."""
    found: dict[str, Requirement] = {}
    for line in logical_lines(path):
        include = re.match(r"^(?:-r|--requirement)(?:\s+|=)(\S+)$", line)
        if include:
            found.update(direct(path.parent / include.group(1)))
        elif not line.startswith("-"):
            requirement = Requirement(line)
            found[canonicalize_name(requirement.name)] = requirement
    return found


def locked(path: Path) -> tuple[dict[str, tuple[Requirement, list[str]]], list[str]]:
    """A lock's requirements by canonical name, each with its hashes; and its problems."""
    entries: dict[str, tuple[Requirement, list[str]]] = {}
    problems: list[str] = []
    for line in logical_lines(path):
        if line.startswith("-"):
            problems.append(f"{path.name}: an option line, not a locked requirement: {line!r}")
            continue
        hashes = HASH.findall(line)
        requirement = Requirement(re.sub(r"\s--hash=\S+", "", line).strip())
        name = canonicalize_name(requirement.name)
        specifiers = list(requirement.specifier)
        if len(specifiers) != 1 or specifiers[0].operator != "==" or "*" in specifiers[0].version:
            problems.append(f"{path.name}: {requirement.name} is not pinned with ==: {requirement}")
        if not hashes:
            problems.append(f"{path.name}: {requirement.name} has no --hash=sha256: line")
        if name in entries:
            problems.append(f"{path.name}: {requirement.name} is locked twice")
        entries[name] = (requirement, hashes)
    return entries, problems


def version(requirement: Requirement) -> str:
    return next(iter(requirement.specifier)).version


def lock_problems(root: Path) -> list[str]:
    """Everything wrong with the locks under root, as sentences; [] when they are sound."""
    problems: list[str] = []
    locks: dict[str, dict[str, tuple[Requirement, list[str]]]] = {}
    for source, lock in PAIRS.items():
        entries, found = locked(root / lock)
        locks[lock] = entries
        problems += found
        for name, wanted in direct(root / source).items():
            if name not in entries:
                problems.append(f"{lock}: {wanted.name}, named in {source}, is not locked")
                continue
            pinned, hashes = entries[name]
            if not hashes or len(pinned.specifier) != 1:
                continue  # already said above
            if not wanted.specifier.contains(Version(version(pinned)), prereleases=True):
                problems.append(
                    f"{lock}: {wanted.name}=={version(pinned)} is outside {source}'s "
                    f"{wanted.specifier}"
                )
    runtime, dev = locks["requirements.txt"], locks["requirements-dev.txt"]
    for name in sorted(runtime.keys() & dev.keys()):
        ours, theirs = str(runtime[name][0].specifier), str(dev[name][0].specifier)
        if ours != theirs:
            problems.append(f"{name}: {ours} in requirements.txt, {theirs} in requirements-dev.txt")
    for name in sorted(runtime.keys() - dev.keys()):
        problems.append(f"{name} is in requirements.txt but not in requirements-dev.txt")
    return problems


def test_the_locks_pin_and_hash_everything_the_lists_name() -> None:
    assert lock_problems(ROOT) == []


def test_streamlit_is_locked_inside_the_one_minor_series_we_read_internals_from() -> None:
    wanted = direct(ROOT / "requirements.in")["streamlit"]
    for lock in APP_LOCKS:
        pinned = Version(version(locked(ROOT / lock)[0]["streamlit"][0]))
        assert wanted.specifier.contains(pinned), f"{lock}: streamlit {pinned}, {wanted}"
        # one minor series: the range admits this version's patch releases and no other minor
        assert f"{pinned.major}.{pinned.minor + 1}" not in wanted.specifier


def test_the_locks_say_they_are_generated_and_how_to_refresh_them() -> None:
    for lock in PAIRS.values():
        head = (ROOT / lock).read_text(encoding="utf-8")[:400]
        assert "GENERATED" in head and "bash scripts/lock.sh" in head, lock


# --- the checks can fail: each breaks a copy of the real files in tmp_path -------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in [*PAIRS, *PAIRS.values()]:
        shutil.copy(ROOT / name, tmp_path / name)
    assert lock_problems(tmp_path) == []
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pin(path: Path, name: str) -> str:
    """The lock's `name==version`, without its hashes."""
    found = re.search(rf"^{name}==[^\s\\]+", path.read_text(encoding="utf-8"), re.M)
    assert found, f"{name} is not locked in {path.name}"
    return found.group(0)


def test_a_range_in_a_lock_fails(copy: Path) -> None:
    edit(copy / "requirements.txt", pin(copy / "requirements.txt", "pandas"), "pandas>=2.2")
    assert any("pandas is not pinned with ==" in p for p in lock_problems(copy))


def test_a_lock_line_without_hashes_fails(copy: Path) -> None:
    lock = copy / "requirements-dev.txt"
    entry = re.compile(r"^(pytest==\S+) \\\n(?:\s+--hash=\S+(?: \\)?\n)+", re.M)
    text, dropped = entry.subn(r"\1\n", lock.read_text(encoding="utf-8"))
    assert dropped == 1
    lock.write_text(text, encoding="utf-8")
    assert any("pytest has no --hash" in p for p in lock_problems(copy))


def test_a_direct_dependency_missing_from_its_lock_fails(copy: Path) -> None:
    with (copy / "requirements-dev.in").open("a", encoding="utf-8") as source:
        source.write("some-new-tool>=1\n")
    assert any("some-new-tool, named in requirements-dev.in" in p for p in lock_problems(copy))


def test_a_runtime_dependency_added_only_to_requirements_in_fails_both_locks(copy: Path) -> None:
    with (copy / "requirements.in").open("a", encoding="utf-8") as source:
        source.write("some-new-library\n")
    problems = lock_problems(copy)
    assert any(p.startswith("requirements.txt: some-new-library") for p in problems)
    assert any(p.startswith("requirements-dev.txt: some-new-library") for p in problems)


def test_the_two_locks_disagreeing_on_a_version_fails(copy: Path) -> None:
    lock = copy / "requirements-dev.txt"
    edit(lock, pin(lock, "numpy"), "numpy==1.0.0")
    assert any(p.startswith("numpy: ==") for p in lock_problems(copy))


def test_streamlit_outside_the_range_in_requirements_in_fails(copy: Path) -> None:
    for lock in APP_LOCKS:
        edit(copy / lock, pin(copy / lock, "streamlit"), "streamlit==1.68.0")
    problems = lock_problems(copy)
    assert any("streamlit==1.68.0 is outside requirements.in's" in p for p in problems)
