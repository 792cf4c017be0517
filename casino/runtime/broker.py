"""The embedded Celery broker: Kombu's filesystem transport, with atomic writes.

Kombu's filesystem channel writes a message file in place while a consumer may
already be moving it away to read it; the consumer can then read an empty or
half-written file, fail to decode it and stop the worker. Here a message is
written under a name no consumer picks up and then renamed into place, which is
atomic on one filesystem, so a consumer only ever sees complete messages.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        staging = f"{final}.writing"  # ".writing" never matches a queue's "<queue>.msg"
        try:
            with open(staging, "wb") as message:
                message.write(str_to_bytes(dumps(payload)))
                message.flush()
                os.fsync(message.fileno())
            os.replace(staging, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
