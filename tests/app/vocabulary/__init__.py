"""Tests of ui/vocabulary/."""
