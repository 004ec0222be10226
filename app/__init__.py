"""Mü Online: the FastAPI server (see docs/protocol.md).

Importing the package sets the garbage collector's pace for the server. Measured with
bench/ws_bench.py at K = 200 tables: with CPython's default thresholds the server stopped for a
collection longer than 5 ms about three times a second (the longest ~0.45 s on a busy machine),
which set the latency tail; with these settings, 8 such pauses in the whole run. Most garbage
here is freed by reference counting anyway, so collect far less often (``python -m app`` also
freezes the objects that exist once the app is built). Set here, before anything else of the
app is imported, because the imports themselves ran about 0.25 s of collections.
"""

import gc

GC_THRESHOLDS = (50_000, 50, 1000)
gc.set_threshold(*GC_THRESHOLDS)
