"""WSGI entry point: gunicorn runs ``wsgi:application`` with site/ on its python path."""

import os

from django.core.wsgi import get_wsgi_application

from database import start_embedded_database

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

# Without DATABASE_URL the site runs on the embedded server: start it before the first request.
start_embedded_database()
application = get_wsgi_application()
