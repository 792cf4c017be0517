from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
application = get_wsgi_application()

from casino.startup import require_collected_static  # noqa: E402  (needs the settings)

require_collected_static()
