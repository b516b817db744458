"""Training: counting a corpus's chunks and learning merges from them, recording every step.

Counting chunks in memory, in file blocks and on several cores (`corpus`, `parallel`), the
learner and its pair queue (`learner`, `pair_queue`), the tie rules (`tie_rules`), the
merge history (`history`), held-out splits (`holdout`) and the entry points (`train`).
May import `explorer.encoding` and `explorer.base`.
"""
