"""One live table per process: the room (its single writer, ``Room.apply``), the hub of rooms,
the connections, seating, talk, undo, hints, the socket endpoint and the changes."""
