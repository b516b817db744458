"""The README's and docs' pictures, taken in headless Chromium: one entry for all of them.

    .venv/bin/python -m scripts.screenshots pages [--out docs/screenshots] [--scheme dark]
    .venv/bin/python -m scripts.screenshots pairs | classroom | compare_pair | heldout [...]
    .venv/bin/python -m scripts.screenshots models  # a real model's pages (../shared)
    .venv/bin/python -m scripts.screenshots real_models [--out docs/screenshots]

Each kind is a module here with its own `main()` and options (`... KIND --help`).
"""

KINDS = ("pages", "pairs", "classroom", "compare_pair", "heldout", "models", "real_models")
