"""Tests of ui/animate/quiz/."""
