"""Background work as a queue of jobs (``jobs`` table): reviews, reminders; see
docs/operations.md, "Background jobs"."""
