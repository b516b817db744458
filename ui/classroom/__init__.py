"""A class that takes part: a teacher's class, its students, their answers (store.py), and
the app's views of it (start, join, follow, ask); see ui/classroom/session.py."""
