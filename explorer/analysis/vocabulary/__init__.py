"""A vocabulary's own story: lineage, check-up, and overlap with another vocabulary."""
