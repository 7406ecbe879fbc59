#!/usr/bin/env python3
"""Serves a relying party's WSGI application over HTTP on the loopback interface, for as long as its
parent wants it. Two kinds of project:

    python3 rp_serve.py django <project directory> <settings module> <SQLite file> [--verbose]
    python3 rp_serve.py wsgi <project directory> <module:factory> <SQLite file> [--verbose]

`django` sets DJANGO_SETTINGS_MODULE and serves Django's WSGI application; `wsgi` imports the module
and calls the factory with the SQLite file's path (a Flask app factory, say). Either way the SQLite
file is also in the environment as RP_DATABASE.

Binds 127.0.0.1 on a port the kernel chooses, writes "port <n>" on standard output, then serves
requests one at a time with the standard library's WSGI server (Django's subclass of it for Django,
the one `manage.py runserver` uses). It exits when its standard input reaches end of file, which
happens as soon as the adapter that started it exits for any reason (a kill included: the kernel
closes the pipe), and also once its parent has gone. Request logs go to standard error only with
--verbose.
"""

import importlib
import os
import sys
import threading
import time

sys.dont_write_bytecode = True

USAGE = ("usage: rp_serve.py django <project directory> <settings module> <SQLite file> [--verbose]\n"
         "       rp_serve.py wsgi <project directory> <module:factory> <SQLite file> [--verbose]")


def exit_when_orphaned():
    """Ends the process once its parent has gone (it is then adopted by another process). Linux's
    PR_SET_PDEATHSIG is no use here: it fires when the parent's *thread* that started the server
    ends, and the adapter starts servers from a thread that ends long before the adapter does."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def exit_at_end_of_input():
    """Reads standard input until end of file, then ends the process at once."""
    def watch():
        while sys.stdin.buffer.read(4096):
            pass
        os._exit(0)
    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()


def django_server(settings_module, verbose):
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    django.setup()
    from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer, get_internal_wsgi_application

    class Handler(WSGIRequestHandler):
        def log_message(self, format, *args):
            if verbose:
                super().log_message(format, *args)

    server = WSGIServer(("127.0.0.1", 0), Handler, ipv6=False)
    server.set_app(get_internal_wsgi_application())
    return server


def wsgi_server(factory_path, database, verbose):
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

    module_name, _, factory_name = factory_path.partition(":")
    if not factory_name:
        sys.exit(f"rp_serve.py: {factory_path!r} is not module:factory\n{USAGE}")
    application = getattr(importlib.import_module(module_name), factory_name)(database)

    class Handler(WSGIRequestHandler):
        def log_message(self, format, *args):
            if verbose:
                super().log_message(format, *args)

    server = WSGIServer(("127.0.0.1", 0), Handler)
    server.set_app(application)
    return server


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--verbose"]
    verbose = len(arguments) != len(sys.argv) - 1
    if len(arguments) != 4 or arguments[0] not in ("django", "wsgi"):
        sys.exit(USAGE)
    kind, project, entry, database = arguments
    exit_when_orphaned()
    exit_at_end_of_input()
    sys.path.insert(0, project)
    os.environ["RP_DATABASE"] = database
    server = django_server(entry, verbose) if kind == "django" else wsgi_server(entry, database, verbose)
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
