#!/usr/bin/env python3
"""Serves a Django project over HTTP on the loopback interface, for as long as its parent wants it.

    python3 rp_serve.py <project directory> <settings module> <SQLite file>

Binds 127.0.0.1 on a port the kernel chooses, writes "port <n>" on standard output, then serves
requests one at a time with Django's own WSGI server (the one `manage.py runserver` uses). It exits
when its standard input reaches end of file, which happens as soon as the adapter that started it
exits for any reason (a kill included: the kernel closes the pipe), and on Linux also when the
parent dies (PR_SET_PDEATHSIG). Request logs go to standard error only with --verbose.
"""

import os
import sys
import threading

sys.dont_write_bytecode = True


def die_with_parent():
    """Asks Linux to send SIGKILL when the parent process exits (a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent already died before the request took effect
            os._exit(0)
    except (OSError, AttributeError):
        pass


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
    die_with_parent()
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
