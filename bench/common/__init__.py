"""What the benchmark groups share: BENCHMARKS.md's named blocks and the commit measured."""
