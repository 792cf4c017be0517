"""The parts of Django, asgiref, uvicorn and Celery that the project copies or leans on
beyond their documented use (docs/architecture.md, "What replaces the framework").

Each test here fails when an upgrade changes such a part, so that someone compares the
project's code with the new version before it ships. Where the project copies a piece of
Django's code (the ASGI handler's request cycle), the test
holds a digest of that piece as it was when it was copied: comments, docstrings and
layout do not count, any change of the code does.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import inspect
import socket
import textwrap
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from django import forms


def code_digest(function: Any) -> str:
    """A digest of ``function``'s code: its syntax tree without docstrings."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()[:16]


def run_loop(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own (a browser test may hold this one's loop)."""
    with ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, coroutine).result()


# casino/asgi.py ---------------------------------------------------------------------


def test_the_request_cycle_casino_asgi_copies_is_still_djangos() -> None:
    """``ASGIHandler._respond_in_thread`` and ``handle`` repeat these four in one hop to
    the request's thread. A new Django that changes one of them: compare casino/asgi.py."""
    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.base import BaseHandler

    assert {
        "BaseHandler.get_response": code_digest(BaseHandler.get_response),
        "ASGIHandler.handle": code_digest(ASGIHandler.handle),
        "ASGIHandler.run_get_response": code_digest(ASGIHandler.run_get_response),
        "ASGIHandler.__call__": code_digest(ASGIHandler.__call__),
    } == {
        "BaseHandler.get_response": "bffcc87645ac3679",
        "ASGIHandler.handle": "7c6356071533fad4",
        "ASGIHandler.run_get_response": "d965f06f1bf0c7f6",
        "ASGIHandler.__call__": "569fba593644398a",
    }


def test_the_asgi_handler_has_the_parts_casino_asgi_calls() -> None:
    from django.core.handlers import asgi

    handler = asgi.ASGIHandler
    for name in ("read_body", "send_response", "listen_for_disconnect"):
        assert inspect.iscoroutinefunction(getattr(handler, name)), name
    assert list(inspect.signature(handler.read_body).parameters) == ["self", "receive"]
    assert list(inspect.signature(handler.create_request).parameters) == [
        "self",
        "scope",
        "body_file",
    ]
    assert list(inspect.signature(handler.send_response).parameters) == [
        "self",
        "response",
        "send",
    ]
    assert inspect.signature(handler.load_middleware).parameters["is_async"].default is False
    assert isinstance(handler.chunk_size, int)
    assert list(inspect.signature(asgi.get_script_prefix).parameters) == ["scope"]
    # The live stream tells ASGI from WSGI by this class (baccarat/full/live.py).
    from casino.asgi import ASGIHandler

    assert ASGIHandler.request_class is asgi.ASGIRequest


def test_a_response_closes_through_its_resource_closers(monkeypatch: Any) -> None:
    """casino/asgi.py appends the request's close to ``_resource_closers`` and sets
    ``_handler_class``; ``close()`` runs the one and names the other in the
    ``request_finished`` signal (which gives the database connection back)."""
    from django.http import HttpResponse
    from django.http import response as http_response

    closed: list[str] = []
    senders: list[Any] = []

    class Finished:
        def send(self, sender: Any, **kwargs: Any) -> None:
            senders.append(sender)

    monkeypatch.setattr(http_response.signals, "request_finished", Finished())
    response = HttpResponse("ok")
    assert isinstance(response._resource_closers, list)
    response._resource_closers.append(lambda: closed.append("request"))
    response._handler_class = "casino-handler"
    response.close()
    assert closed == ["request"] and senders == ["casino-handler"]


def test_a_thread_sensitive_context_runs_sync_code_in_the_executor_it_is_given() -> None:
    """casino/asgi.py hands each request an idle one-thread executor through asgiref's
    ``ThreadSensitiveContext(executor=...)``: every sync call of the request runs there."""
    from asgiref.sync import ThreadSensitiveContext, sync_to_async

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kept")

    async def go() -> list[str]:
        names = []
        async with ThreadSensitiveContext(executor=executor):
            for _ in range(3):
                names.append(await sync_to_async(lambda: threading.current_thread().name)())
        return names

    try:
        names = run_loop(go())
    finally:
        executor.shutdown()
    assert len(set(names)) == 1 and names[0].startswith("kept")


# casino/middleware.py ---------------------------------------------------------------


def test_the_admin_answers_a_filter_it_cannot_use_with_its_error_flag() -> None:
    """``AdminFilterGuardMiddleware`` answers a too-large number as the admin answers any
    unusable filter: the list again with ``?e=1``."""
    from django.contrib.admin import options
    from django.contrib.admin.views.main import ERROR_FLAG

    assert ERROR_FLAG == "e"
    assert 'ERROR_FLAG + "=1"' in inspect.getsource(options.ModelAdmin.changelist_view)


# casino/runtime/postgresql ----------------------------------------------------------


def test_bulk_writes_and_collected_deletes_are_cut_by_bulk_batch_size() -> None:
    """The backend caps ``bulk_batch_size``; Django asks it for ``bulk_create`` and for
    the deletes it collects, and the feature it tests is Django's own."""
    from types import SimpleNamespace

    from django.db.backends.postgresql.features import DatabaseFeatures
    from django.db.models import deletion, query

    from casino.runtime.postgresql.base import MAX_BOUND_VALUES, DatabaseOperations

    assert "bulk_batch_size(" in inspect.getsource(query.QuerySet._batched_insert)
    assert "bulk_batch_size(fields, objs)" in inspect.getsource(deletion.Collector.get_del_batches)
    assert hasattr(DatabaseFeatures, "uses_server_side_binding")
    bound = SimpleNamespace(features=SimpleNamespace(uses_server_side_binding=True))
    free = SimpleNamespace(features=SimpleNamespace(uses_server_side_binding=False))
    fields, rows = ["a", "b", "c", "d", "e"], list(range(70_000))
    assert DatabaseOperations(bound).bulk_batch_size(fields, rows) == MAX_BOUND_VALUES // 5
    assert DatabaseOperations(free).bulk_batch_size(fields, rows) == 70_000


# casino/accounts --------------------------------------------------------------------


def test_pbkdf2_verify_hashes_through_encode(monkeypatch: Any) -> None:
    """casino/accounts/hashers.py wraps only PBKDF2's ``encode`` in a password slot,
    because Django's ``verify`` hashes through it."""
    from casino.accounts import hashers

    hasher = hashers.PBKDF2PasswordHasher()
    encoded = hasher.encode("s3cret-word", hasher.salt(), iterations=1_000)
    slots: list[int] = []
    real = hashers.password_slot

    @contextmanager
    def counted() -> Any:
        slots.append(1)
        with real():
            yield

    monkeypatch.setattr(hashers, "password_slot", counted)
    assert hasher.verify("s3cret-word", encoded)
    assert slots == [1]


def test_django_classes_take_type_arguments() -> None:
    """``django_stubs_ext.monkeypatch()`` (settings.py) lets ``UserManager["User"]`` and
    ``forms.ModelForm[User]`` run, not only type-check."""
    from django.contrib.auth.models import UserManager

    assert UserManager["Any"] is not None  # type: ignore[type-arg,misc]
    assert forms.ModelForm["Any"] is not None  # type: ignore[misc]


# casino/runtime/serve.py and runall -------------------------------------------------


def test_uvicorn_serves_a_listening_socket_it_is_handed() -> None:
    """casino/runtime/serve.py builds ``uvicorn.Config`` with these options and runs
    ``Server.run(sockets=[...])`` on the socket runall opened."""
    import uvicorn

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"served"})

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    listening.listen(16)
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]})
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
            assert answer.read() == b"served"
    finally:
        server.should_exit = True
        thread.join(15)
        listening.close()
    assert not thread.is_alive()


def test_uvicorn_reads_the_options_runall_and_the_operator_give_it(monkeypatch: Any) -> None:
    """runall's command line for one web process, and ``FORWARDED_ALLOW_IPS`` read from
    the environment by uvicorn itself (docs/operations.md)."""
    import uvicorn
    from uvicorn.main import main

    options = {opt for param in main.params for opt in [*param.opts, *param.secondary_opts]}
    assert {
        "--host",
        "--port",
        "--log-level",
        "--timeout-graceful-shutdown",
        "--no-access-log",
        "--lifespan",
        "--workers",
        "--reload",
        "--reload-dir",
    } <= options
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.5")
    config = uvicorn.Config(app=lambda scope, receive, send: None)
    assert config.forwarded_allow_ips == "10.0.0.5" and config.proxy_headers is True


# casino/celery.py -------------------------------------------------------------------


def test_a_task_gets_the_header_its_sender_added_as_a_request_attribute() -> None:
    """The request id rides as a message header added in ``before_task_publish`` and is
    read back as ``task.request.casino_request_id``: Celery copies every header of the
    message onto the task's request."""
    from celery.app.task import Context
    from celery.worker.request import Request
    from kombu import Connection

    import baccarat.tasks  # noqa: F401  (registers the tasks)
    from casino.celery import REQUEST_ID_HEADER, app
    from casino.runtime import logs

    token = logs.request_id.set("req-7")
    try:
        with Connection("memory://") as connection:
            with app.producer_or_acquire(app.amqp.Producer(connection)) as producer:
                app.send_task("baccarat.tasks.purge_chat", producer=producer, queue="internals")
            message = connection.SimpleQueue("internals").get(timeout=5)
    finally:
        logs.request_id.reset(token)
    assert message.headers[REQUEST_ID_HEADER] == "req-7"
    request = Request(message, app=app, task=app.tasks["baccarat.tasks.purge_chat"])
    assert getattr(Context(request.request_dict), REQUEST_ID_HEADER) == "req-7"


# casino/settings.py -----------------------------------------------------------------


def test_the_warning_settings_silences_is_still_worded_so() -> None:
    """settings.py silences Django's warning about WhiteNoise's file iterators by its
    words; reworded, it would be printed for every static file again."""
    from django.http import response

    assert "StreamingHttpResponse must consume synchronous iterators" in inspect.getsource(response)
