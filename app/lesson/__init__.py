"""Lessons: a guided hand played in the real table UI against scripted bots (issue 27).

A lesson is data (``lessons/<name>.toml``): a stacked deal, then steps, each with a sentence,
the element it points at, and the learner's intended move or none.  The server keeps no
state: every request rebuilds the hand from the script with the engine (``replay.py``).
"""
