"""One uvicorn process serving a listening socket it inherited: ``runall --workers N``.

uvicorn's own ``--workers N`` shares one listening socket among its processes, and the
process that wakes first accepts every connection waiting: in the benchmarks one of two
processes often held all sixteen clients' connections while the other idled. runall
instead opens one socket per web process, each with ``SO_REUSEPORT``, so the kernel
spreads new connections across them, and starts ``python -m casino.runtime.serve --fd N`` on
each. (uvicorn's ``--fd`` would take the descriptor for a Unix socket and lose the
client's address.) The options are runall's for uvicorn: the access line is Django's
(``casino.access``), no lifespan, live streams closed 5 s into a shutdown.

Before serving, the process loads the application and its URLs and hands every object
made so far to ``gc.freeze()``: Django, the apps, the URL patterns and the settings stay
for the process's life, and the cyclic garbage collector need not walk them again on
every full collection (in one process over 100 rounds: 1.09 -> 0.54 ms of collection per
round; a round allocates many more containers than a ``/health/`` request).
"""

from __future__ import annotations

import argparse
import gc
import socket

import uvicorn


def load_and_freeze() -> None:
    """Import the application and its URL patterns, then keep everything made so far out
    of the cyclic garbage collector's walks (it lives as long as the process)."""
    from django.urls import get_resolver

    import casino.asgi  # noqa: F401  (uvicorn finds it imported)

    get_resolver().reverse_dict  # noqa: B018  (the URL patterns, imported and indexed)
    gc.collect()
    gc.freeze()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m casino.runtime.serve")
    parser.add_argument("--fd", type=int, required=True, help="A listening TCP socket.")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    listening = socket.socket(fileno=args.fd)  # family and type read from the descriptor
    load_and_freeze()
    config = uvicorn.Config(
        "casino.asgi:application",
        log_level=args.log_level,
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=5,
    )
    uvicorn.Server(config).run(sockets=[listening])


if __name__ == "__main__":
    main()
