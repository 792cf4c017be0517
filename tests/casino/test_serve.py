"""casino.runtime.serve: a web process loads the application and its URLs, then keeps what it
loaded out of the garbage collector's walks before it serves."""

from __future__ import annotations

import gc
import sys

from casino.runtime import serve


def test_a_web_process_freezes_what_it_loaded_before_serving() -> None:
    gc.unfreeze()
    try:
        serve.load_and_freeze()
        assert "casino.asgi" in sys.modules
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # Django and the apps, not a handful of objects
        young = sum(gc.get_count())
        assert young < frozen
    finally:
        gc.unfreeze()
