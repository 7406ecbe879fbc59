"""Django REST framework's token sign-in and the package's REST API, as its DRF guide mounts them."""

from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token

urlpatterns = [
    path("api/token/", obtain_auth_token),
    path("passkeys/api/", include("passkeys.api.urls")),
]
