"""What the patterns explorer.encoding.pattern_safety lets through cost to compile.

Not a test. Builds random patterns of nested repeats (counts up to 9,999, four levels,
groups, alternatives, lazy and possessive forms), keeps those the check passes, and
compiles each once (regex's cache off), under a 2 GB address-space cap so a miss fails
here rather than taking the machine. Prints how many passed and were refused, the
largest peak of Python-tracked memory while compiling one (tracemalloc sees regex's
allocations), and the slowest compile timed again without tracemalloc (best of three).

    .venv/bin/python -m bench.engine.pattern_compile_sweep [how many, default 3000]
"""

from __future__ import annotations

import json
import random
import resource
import sys
import time
import tracemalloc

import regex

from explorer.encoding.pattern_safety import pattern_problem

ATOMS = ["a", "ab", r"\w", "[a-z]", r"\p{L}", ".", r"\d", "xyz", "(?i:k)"]
COUNTS = [1, 2, 3, 5, 10, 30, 100, 300, 1000, 3000, 9999]


def repeat(rng: random.Random) -> str:
    n = rng.choice(COUNTS)
    m = n + rng.choice([1, 10, 1000])
    form = rng.choice([f"{{{n}}}", f"{{{n},}}", f"{{{n},{m}}}", "+", "*", "?", f"{{0,{n}}}"])
    return form + rng.choice(["", "", "?", "+"])


def pattern(rng: random.Random, depth: int) -> str:
    if depth == 0:
        return rng.choice(ATOMS)
    parts = [pattern(rng, depth - 1) for _ in range(rng.choice([1, 1, 2]))]
    body = rng.choice(["|", ""]).join(parts)
    return rng.choice(["(?:%s)", "(%s)", "(?>%s)"]) % body + repeat(rng)


def compile_cost(text: str) -> tuple[int, float]:
    """Peak tracked bytes while compiling, and the best of three untraced compile times."""
    tracemalloc.start()
    regex.compile(text, cache_pattern=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        regex.compile(text, cache_pattern=False)
        best = min(best, time.perf_counter() - started)
    return peak, best


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    how_many = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    rng = random.Random(7)
    passed, refused = [], 0
    for _ in range(how_many):
        text = pattern(rng, rng.choice([1, 2, 3, 4]))
        if pattern_problem(text) is None:
            passed.append(text)
        else:
            refused += 1
    costs = [(*compile_cost(text), text) for text in passed]
    peak = max(costs)
    slowest = max(costs, key=lambda cost: cost[1])
    print(
        json.dumps(
            {
                "passed": len(passed),
                "refused": refused,
                "largest_peak_mb": round(peak[0] / 1e6, 2),
                "largest_peak_pattern": peak[2],
                "slowest_compile_ms": round(slowest[1] * 1000, 1),
                "slowest_pattern": slowest[2],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
