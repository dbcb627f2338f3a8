from django.apps import AppConfig
from django.db.models.signals import post_migrate


class PapersConfig(AppConfig):
    name = "papers"
    verbose_name = "Conference papers"

    def ready(self):
        from .caching import bump_after_migrations

        post_migrate.connect(bump_after_migrations, sender=self)
