from django.apps import AppConfig


class PapersConfig(AppConfig):
    name = "papers"
    verbose_name = "Conference papers"
