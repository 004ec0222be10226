"""Several processes on one database: the fan-out (LISTEN/NOTIFY), remote presence, the
catch-up from the log and the notes that carry a commit. It sees rooms only as a listener."""
