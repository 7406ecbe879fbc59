"""The Django side shared by the Django examples: the project's database as the adapter reaches it
(fixtures and inspections through the models), and the Django account fixture. The server
processes, the app's HTTP client and the adapter's main loop are the loopback runner's
(`../loopback-common/loopback_rp.py`), shared with the Flask example.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "loopback-common"))

from loopback_rp import (CAPABILITIES, RP_ID, BasePackage, PackageServer, ProxiedClient,  # noqa: E402,F401
                         RegistrationRejected, authentication_json, challenge_in, parse_creation_options,
                         registration_flags, registration_json, run_adapter, typed_code)
from server import LookupFailed, Refused  # noqa: E402,F401


def use_database(path):
    """Points the adapter's own Django connection at a file (None: closes it)."""
    from django.db import connections
    connection = connections["default"]
    connection.close()
    if path is not None:
        connection.settings_dict["NAME"] = path


def set_up_django(project, settings_module):
    """Makes the example's Django project importable and configures Django in the adapter process."""
    if project not in sys.path:
        sys.path.insert(0, project)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    django.setup()


class DjangoPackage(BasePackage):
    """What a Django example says about its package; the fixtures common to every Django project.
    A subclass names the project and adds the package's own credential fixtures and inspections."""

    project = None
    settings_module = None

    @classmethod
    def serve_arguments(cls):
        return ["django", cls.project, cls.settings_module]

    @classmethod
    def prepare_template(cls, path):
        """An empty database with every migration applied, made once per run."""
        set_up_django(cls.project, cls.settings_module)
        use_database(path)
        from django.core.management import call_command
        call_command("migrate", verbosity=0)
        use_database(None)

    use_database = staticmethod(use_database)

    @staticmethod
    def create_account(username, display_name, password, policy, restricted, rp_id):
        """A Django user; a restricted account is an inactive one, which Django refuses at sign-in.
        The harness's account names are email addresses: the email field keeps it as the account's
        key, since a rename (the project's profile view) changes the username."""
        from django.contrib.auth import get_user_model
        first, _, last = display_name.partition(" ")
        get_user_model().objects.create_user(username=username, email=username, password=password, first_name=first,
                                             last_name=last, is_active=not restricted)

    @staticmethod
    def user(username):
        """The account the harness calls `username` (its key: the email field, see create_account)."""
        from django.contrib.auth import get_user_model
        try:
            return get_user_model().objects.get(email=username)
        except get_user_model().DoesNotExist:
            raise Refused(f"no account {username}") from None
