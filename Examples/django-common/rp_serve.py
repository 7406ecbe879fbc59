#!/usr/bin/env python3
"""Serves a Django project over HTTP on the loopback interface, for as long as its parent wants it.

    python3 rp_serve.py <project directory> <settings module> <SQLite file>

Binds 127.0.0.1 on a port the kernel chooses, writes "port <n>" on standard output, then serves
requests one at a time with Django's own WSGI server (the one `manage.py runserver` uses). It exits
when its standard input reaches end of file, which happens as soon as the adapter that started it
exits for any reason (a kill included: the kernel closes the pipe), and also once its parent has
gone. Request logs go to standard error only with --verbose.
"""

import os
import sys
import threading
import time

sys.dont_write_bytecode = True


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


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: rp_serve.py <project directory> <settings module> <SQLite file> [--verbose]")
    project, settings_module, database = sys.argv[1:4]
    verbose = "--verbose" in sys.argv[4:]
    exit_when_orphaned()
    exit_at_end_of_input()
    sys.path.insert(0, project)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ["RP_DATABASE"] = database
    import django
    django.setup()
    from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer, get_internal_wsgi_application

    class Handler(WSGIRequestHandler):
        def log_message(self, format, *args):
            if verbose:
                super().log_message(format, *args)

    server = WSGIServer(("127.0.0.1", 0), Handler, ipv6=False)
    server.set_app(get_internal_wsgi_application())
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
