from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "allauth_rp"
    default_auto_field = "django.db.models.AutoField"

    def ready(self):
        from allauth.mfa.models import Authenticator
        from allauth.mfa.signals import authenticator_removed

        from allauth_rp.project import record_revocation
        authenticator_removed.connect(record_revocation, sender=Authenticator)
