"""Tables, the lowest layer of app/: models, repository, the one writer, tokens, the live table
and the one replay. Imports no other part of app/ but config, db and logging."""
