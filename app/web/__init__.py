"""Server-rendered pages (home, invite, table) and their translations."""
