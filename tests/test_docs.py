"""The README is a front page and every link in the docs leads somewhere.

Plain file reading: no network (http links are not fetched), no browser. Each check is a
function of a repository folder, so the tests at the bottom can show it fails on a broken
copy in tmp_path.
"""

import re
import shlex
import unicodedata
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 200
RUN_COMMAND = "bash scripts/run.sh"

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# the target of every inline link or image: whatever the text, it ends "](target)"
INLINE_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_TARGET = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?")
HTML_TARGET = re.compile(r"""\b(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"""<[^>]*\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
LINK_TEXT = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def markdown_files(root: Path) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(INLINE_CODE.sub("", line))
    return lines


def code_block_lines(text: str) -> list[str]:
    """The lines inside fenced code blocks, stripped."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif fenced:
            lines.append(line.strip())
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped but - and _, spaces to -."""
    text = LINK_TEXT.sub(r"\1", heading).replace("`", "").lower()
    kept = "".join(
        ch
        for ch in text
        if ch in " -_" or unicodedata.category(ch)[0] in "LNM"  # letters, digits, marks
    )
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor GitHub gives a Markdown file: its headings' slugs (a repeated one gets
    -1, -2, ...) and any HTML id= or name=."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        for match in HTML_ANCHOR.finditer(line):
            found.add(match.group(1) or match.group(2))
    return found


def link_targets(path: Path) -> list[str]:
    """Every link and image target in a Markdown file, outside code."""
    targets = []
    for line in prose_lines(path.read_text(encoding="utf-8")):
        targets += INLINE_TARGET.findall(line)
        reference = REFERENCE_TARGET.match(line)
        if reference:
            targets.append(reference.group(1))
        targets += [a or b for a, b in HTML_TARGET.findall(line)]
    return targets


def broken_links(root: Path) -> list[str]:
    """Relative links and images in README.md and docs/ whose file is missing (or outside
    the repository), or whose #anchor is no heading of the Markdown file they name."""
    root = root.resolve()
    broken = []
    for source in markdown_files(root):
        for target in link_targets(source):
            where = f"{source.relative_to(root)}: ({target})"
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("//"):
                continue  # http(s), mailto: not fetched
            path_part, _, anchor = target.partition("#")
            file = (source.parent / unquote(path_part)).resolve() if path_part else source
            if not file.is_relative_to(root):
                broken.append(f"{where} leaves the repository")
            elif not file.exists():
                broken.append(f"{where} names no file")
            elif anchor and file.suffix == ".md" and unquote(anchor) not in anchors(file):
                broken.append(f"{where}: no heading #{anchor} in {file.relative_to(root)}")
    return broken


def ci_commands(root: Path) -> list[str]:
    """The commands .ci/run runs: its lines but comments, `set` and `cd`."""
    commands = []
    for line in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and line.split()[0] not in ("set", "cd"):
            commands.append(line)
    return commands


def missing_commands(root: Path) -> list[str]:
    """What is wrong with the README's two commands: each must be a line of a code block in
    README.md, the test command exactly what .ci/run runs, and both scripts must exist."""
    problems = []
    commands = ci_commands(root)
    if len(commands) != 1:
        problems.append(f".ci/run should run one command, the README's; it runs {commands}")
    in_code = set(code_block_lines((root / "README.md").read_text(encoding="utf-8")))
    for command in [*commands, RUN_COMMAND]:
        if command not in in_code:
            problems.append(f"README.md has no code block line `{command}`")
        words = shlex.split(command)
        if len(words) < 2 or words[0] != "bash" or not (root / words[1]).is_file():
            problems.append(f"`{command}` names no script in the repository")
    return problems


def readme_lines(root: Path) -> int:
    return len((root / "README.md").read_text(encoding="utf-8").splitlines())


# --- the repository itself


def test_readme_is_a_front_page():
    assert readme_lines(ROOT) <= README_MAX_LINES


def test_every_relative_link_and_image_resolves():
    assert broken_links(ROOT) == []


def test_readme_has_the_two_commands_ci_runs():
    assert ci_commands(ROOT) == ["bash scripts/test.sh"]
    assert missing_commands(ROOT) == []


# --- each check fails on a broken copy


def fake_repo(root: Path, readme: str, docs: dict[str, str] | None = None) -> Path:
    (root / ".ci").mkdir()
    (root / ".ci" / "run").write_text(
        '#!/usr/bin/env bash\nset -euo pipefail\ncd "$(dirname "$0")/.."\nbash scripts/test.sh\n'
    )
    (root / "scripts").mkdir()
    (root / "scripts" / "run.sh").write_text("")
    (root / "scripts" / "test.sh").write_text("")
    (root / "docs" / "screenshots").mkdir(parents=True)
    (root / "docs" / "screenshots" / "a.png").write_bytes(b"")
    (root / "README.md").write_text(readme, encoding="utf-8")
    for name, text in (docs or {}).items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    return root


GOOD_README = """# Title

![A page](docs/screenshots/a.png) To start: [two commands](#two-commands).

## Two commands

```bash
bash scripts/run.sh
```

```bash
bash scripts/test.sh
```

[Pages](docs/pages.md#animate-the-pair-table), [again](docs/pages.md#animate-the-pair-table-1)
"""

GOOD_PAGES = """# The pages

## Animate: the pair table

![x](screenshots/a.png) <img src="screenshots/a.png"> [back](../README.md#two-commands)

## Animate: the pair table

`[not a link](nowhere.md)`

```
[not a link either](nowhere.md)
```
"""


def test_a_good_copy_passes(tmp_path):
    root = fake_repo(tmp_path, GOOD_README, {"pages.md": GOOD_PAGES})
    assert (readme_lines(root), broken_links(root), missing_commands(root)) == (15, [], [])


def test_a_long_readme_fails(tmp_path):
    root = fake_repo(tmp_path, GOOD_README + "more\n" * README_MAX_LINES)
    assert readme_lines(root) > README_MAX_LINES


def test_a_missing_image_or_file_fails(tmp_path):
    pages = GOOD_PAGES.replace("(screenshots/a.png)", "(docs/screenshots/a.png)")
    root = fake_repo(tmp_path, GOOD_README, {"pages.md": pages})
    assert broken_links(root) == ["docs/pages.md: (docs/screenshots/a.png) names no file"]


def test_a_missing_html_src_fails(tmp_path):
    pages = GOOD_PAGES.replace('src="screenshots/a.png"', 'src="screenshots/b.png"')
    root = fake_repo(tmp_path, GOOD_README, {"pages.md": pages})
    assert broken_links(root) == ["docs/pages.md: (screenshots/b.png) names no file"]


def test_a_missing_anchor_fails(tmp_path):
    readme = GOOD_README.replace("#two-commands)", "#two-command)")
    root = fake_repo(tmp_path, readme, {"pages.md": GOOD_PAGES})
    assert broken_links(root) == [
        "README.md: (#two-command): no heading #two-command in README.md",
    ]


def test_an_anchor_in_another_file_fails(tmp_path):
    readme = GOOD_README.replace("pair-table-1)", "pair-table-2)")
    root = fake_repo(tmp_path, readme, {"pages.md": GOOD_PAGES})
    assert broken_links(root) == [
        "README.md: (docs/pages.md#animate-the-pair-table-2): "
        "no heading #animate-the-pair-table-2 in docs/pages.md",
    ]


def test_a_link_out_of_the_repository_fails(tmp_path):
    (tmp_path / "README.md").write_text("## Two commands\n")  # there, but outside the copy
    (tmp_path / "repo").mkdir()
    pages = GOOD_PAGES.replace("(../README.md#", "(../../README.md#")
    root = fake_repo(tmp_path / "repo", GOOD_README, {"pages.md": pages})
    assert broken_links(root) == [
        "docs/pages.md: (../../README.md#two-commands) leaves the repository"
    ]


def test_http_links_are_not_fetched(tmp_path):
    readme = GOOD_README + "[x](https://example.invalid/nowhere#no) [y](mailto:a@b.c)\n"
    root = fake_repo(tmp_path, readme, {"pages.md": GOOD_PAGES})
    assert broken_links(root) == []


def test_slugs_follow_github():
    assert slug("Metrics the literature compares with, and `python -m explorer report`") == (
        "metrics-the-literature-compares-with-and-python--m-explorer-report"
    )
    assert slug("One visitor's heavy work (bench/heavy_neighbour.py)") == (
        "one-visitors-heavy-work-benchheavy_neighbourpy"
    )
    assert slug("A room of sixty (issue 22 §5, bench/class_load.py)") == (
        "a-room-of-sixty-issue-22-5-benchclass_loadpy"
    )


def test_a_test_command_ci_does_not_run_fails(tmp_path):
    readme = GOOD_README.replace("bash scripts/test.sh", "bash scripts/test.sh --quick")
    root = fake_repo(tmp_path, readme)
    assert missing_commands(root) == ["README.md has no code block line `bash scripts/test.sh`"]


def test_a_command_outside_a_code_block_fails(tmp_path):
    readme = GOOD_README.replace("```bash\nbash scripts/run.sh\n```", "`bash scripts/run.sh`")
    root = fake_repo(tmp_path, readme)
    assert missing_commands(root) == ["README.md has no code block line `bash scripts/run.sh`"]


def test_a_missing_script_fails(tmp_path):
    root = fake_repo(tmp_path, GOOD_README)
    (root / "scripts" / "test.sh").unlink()
    assert missing_commands(root) == ["`bash scripts/test.sh` names no script in the repository"]


def test_ci_running_something_else_fails(tmp_path):
    root = fake_repo(tmp_path, GOOD_README)
    (root / ".ci" / "run").write_text("#!/usr/bin/env bash\nbash scripts/test.sh --quick\n")
    assert missing_commands(root) == [
        "README.md has no code block line `bash scripts/test.sh --quick`"
    ]
