"""WSGI entry point: gunicorn runs ``wsgi:application`` with site/ on its python path."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

application = get_wsgi_application()
