"""Groups of friends: a private link gathering tables, names, standings and ratings."""
