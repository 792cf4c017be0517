"""One uvicorn process serving a listening socket it inherited: ``runall --workers N``.

uvicorn's own ``--workers N`` shares one listening socket among its processes, and the
process that wakes first accepts every connection waiting: in the benchmarks one of two
processes often held all sixteen clients' connections while the other idled. runall
instead opens one socket per web process, each with ``SO_REUSEPORT``, so the kernel
spreads new connections across them, and starts ``python -m casino.runtime.serve --fd N`` on
each. (uvicorn's ``--fd`` would take the descriptor for a Unix socket and lose the
client's address.) The options are runall's for uvicorn: the access line is Django's
(``casino.access``), no lifespan, live streams closed 5 s into a shutdown.

Before serving, the process loads the application and its URL patterns, so that its
first request does not pay for them.
"""

from __future__ import annotations

import argparse
import socket

import uvicorn


def load() -> None:
    """Import the application and its URL patterns."""
    from django.urls import get_resolver

    import casino.asgi  # noqa: F401  (uvicorn finds it imported)

    get_resolver().reverse_dict  # noqa: B018  (the URL patterns, imported and indexed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m casino.runtime.serve")
    parser.add_argument("--fd", type=int, required=True, help="A listening TCP socket.")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    listening = socket.socket(fileno=args.fd)  # family and type read from the descriptor
    load()
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
