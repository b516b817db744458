"""Tests of ui/animate/pair_table/."""
