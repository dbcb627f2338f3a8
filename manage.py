#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys
from pathlib import Path

# The project's settings, urls and wsgi modules live in site/ and are imported as
# top-level modules (`settings`, `urls`, `wsgi`): a package named `site` would
# collide with Python's own start-up module.
sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    # Commands (loads, exports, migrations) may run long; the timeout is for web requests.
    os.environ.setdefault("DJANGO_STATEMENT_TIMEOUT_MS", "0")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError

    from database import start_embedded_database

    try:
        # Without DATABASE_URL every command runs on the embedded server: start it first.
        start_embedded_database()
        execute_from_command_line(sys.argv)
    except (ImproperlyConfigured, OperationalError) as error:
        if "--traceback" in sys.argv:
            raise
        # A setting the user gave or a server that cannot be reached: what to fix, in a line,
        # not a traceback through Django's start-up.
        cause = "" if isinstance(error, ImproperlyConfigured) else "the database failed: "
        sys.stderr.write(f"manage.py: {cause}{error}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
