"""History: score sheets, finished hands and their replays, and "my tables"."""
