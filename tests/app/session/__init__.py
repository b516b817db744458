"""Tests of ui/session/."""
