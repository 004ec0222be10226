"""Mü Online: the FastAPI server (see docs/protocol.md)."""
