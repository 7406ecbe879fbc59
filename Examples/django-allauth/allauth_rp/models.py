"""The project's one model: its audit record of the passkeys users removed."""

from django.conf import settings
from django.db import models


class RevokedPasskey(models.Model):
    """allauth deletes a passkey when the user removes it (mfa/base/internal/flows.py,
    delete_and_cleanup); the project keeps its credential id (the documented
    `authenticator_removed` signal), so that a later sign-in with it is refused as revoked rather
    than as a passkey the server never had."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    credential_id = models.BinaryField(unique=True)
