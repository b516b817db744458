"""Tests of ui/tokens/."""
