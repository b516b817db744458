"""Tests of ui/compare/."""
