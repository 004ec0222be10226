"""Play over WebSockets: rooms (one writer per table), the hub, the socket endpoint, the fan-out
between processes and the wire protocol. Built on ``app.tables``."""
