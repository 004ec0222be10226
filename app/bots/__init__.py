"""Computer players at the table: seating bots (host only) and the runner that moves them."""
