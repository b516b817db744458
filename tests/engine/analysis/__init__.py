"""Tests of explorer/analysis/."""
