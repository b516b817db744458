"""Compare's two tokenizers, A and B: chosen and sized (section), one of them at its size
(side), their merges shared and alone (merges), and where they split the passage (splits)."""
