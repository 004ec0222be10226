"""Practice tables (issue 39): play on from any moment of a finished hand, or play its deal again.

``service.open_practice`` opens a private table on a finished hand's deal at one step of its
replay; ``router`` is its HTTP route. The table is a real one (same server, rules and views);
its options say where it branched from (``TableOptions.practice``) and nothing counts it as a
game (score sheets of games, groups, ratings, "my tables").
"""
