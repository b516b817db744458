"""`python -m scripts.screenshots KIND [options]`: take one kind of picture (see __init__)."""

from __future__ import annotations

import importlib
import sys

from scripts.screenshots import KINDS


def main(argv: list[str]) -> int:
    """Run KIND's own main() with the options after it.

    >>> main(["nothing"])  # doctest: +NORMALIZE_WHITESPACE
    usage: python -m scripts.screenshots
        {pages,pairs,classroom,compare_pair,heldout,models,real_models} [options]
    2
    """
    if not argv or argv[0] not in KINDS:
        print(f"usage: python -m scripts.screenshots {{{','.join(KINDS)}}} [options]")
        return 2
    kind, options = argv[0], argv[1:]
    sys.argv = [f"python -m scripts.screenshots {kind}", *options]
    importlib.import_module(f"scripts.screenshots.{kind}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
