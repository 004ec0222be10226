"""What crosses a wire: the client's messages and their refusals, the server's frames and
the views in them, the notes between processes. Values and their encodings, no behaviour;
imports only ``app.tables`` and ``engine``."""
