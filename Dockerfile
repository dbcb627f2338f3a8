# The production image: gunicorn serving the app, whitenoise serving static files; each start
# migrates and adds the vocabulary's missing topics (load_topics, as make run does).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# collectstatic needs a secret key to import the settings; the real one comes at run time.
RUN DJANGO_SECRET_KEY=build-only DATABASE_URL=postgres://build@localhost/build \
    python manage.py collectstatic --noinput

RUN useradd --system --home /app papers && chown -R papers /app
USER papers
EXPOSE 8000

CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py load_topics --verbosity 0 && exec gunicorn --config gunicorn.conf.py --bind 0.0.0.0:8000 wsgi:application"]
