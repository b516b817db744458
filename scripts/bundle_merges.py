"""Write the bundled rank files' merges, rebuilt the slow way, beside them in vocabularies/.

    python -m scripts.bundle_merges

Prints each file's sha256, to pin in explorer/files/bundled.py (`Bundled.merges_file`).
Run it only if a rank file changes; tests/engine/files/test_bundled_merges.py checks the
committed files are what this writes.
"""

from __future__ import annotations

import hashlib

from explorer.files.bundled import BUNDLED, VOCABULARY_DIR, rebuilt_merges
from explorer.files.bundled_merges import merges_text


def main() -> None:
    for name, spec in BUNDLED.items():
        if spec.merges_file is None:
            continue
        rank_file, rank_sha = spec.files[0]
        text = merges_text(rebuilt_merges(name), rank_file, rank_sha)
        (VOCABULARY_DIR / spec.merges_file[0]).write_text(text, encoding="ascii", newline="\n")
        print(spec.merges_file[0], hashlib.sha256(text.encode("ascii")).hexdigest())


if __name__ == "__main__":
    main()
