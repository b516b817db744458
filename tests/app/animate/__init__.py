"""Tests of ui/animate/."""
