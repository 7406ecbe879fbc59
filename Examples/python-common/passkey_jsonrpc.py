"""The adapter protocol's transport, shared by every Python example (Examples/python-common/).

JSON-RPC 2.0 over a pair of byte streams, one message per line, as the adapter protocol frames it:
standard input and output (`stdio_connection`), or a stream socket the adapter listens on
(`--listen unix:PATH` or `--listen tcp:127.0.0.1:PORT`, served by `serve_socket`). Standard library
only. An example reaches it by putting this directory on `sys.path`:

    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python-common"))

Both peers call each other: the harness calls the adapter (`session.perform`, ...) and, while such
a call is in progress, the adapter calls the harness (`platform.createCredential`, `clock.now`,
...). This module does it without threads: `Connection.call` writes its request and reads lines
until its answer arrives, keeping any request that arrives meanwhile for the main loop. The
harness answers every call at once, so this never waits for long.

Binary values travel as unpadded base64url strings: `bytes` in a message are encoded so on the
way out, and `Params.bytes` decodes them on the way in.
"""

import json
import os
import signal
import socket
import stat
import sys
import traceback
from collections import deque
from typing import Callable, NamedTuple, Optional

from passkey_base64url import b64url_decode, b64url_encode

MAX_LINE_BYTES = 16 << 20

# Error codes: JSON-RPC's own, and the protocol's in the server-error range.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
ADAPTER_ERROR = -32000  # the relying party or the adapter failed while handling the call
UNKNOWN_SESSION = -32001
UNSUPPORTED_VERSION = -32002  # incompatible protocol versions, or adapter.hello not called yet
PLATFORM_CALL_FAILED = -32003  # a call to the harness made while handling this one got no valid answer


class RpcError(Exception):
    """An error answer: its code, message and optional data."""

    def __init__(self, code, message, data=None, id=None):
        super().__init__(message)
        self.code, self.message, self.data, self.id = code, message, data, id


class InvalidParams(RpcError):
    def __init__(self, message):
        super().__init__(INVALID_PARAMS, f"invalid params: {message}")


class HarnessGone(Exception):
    """The harness closed its end while the adapter waited for an answer."""


class Message(NamedTuple):
    kind: str  # "request", "notification", "result" or "error"
    id: object = None
    method: Optional[str] = None
    params: Optional[dict] = None
    result: object = None
    error: Optional[dict] = None


class Connection:
    def __init__(self, reader, writer, log=None):
        self.reader = reader  # binary, line by line
        self.writer = writer  # binary
        self.log = log or (lambda text: None)
        self.next_id = 1
        self.waiting_requests = deque()  # harness requests read while waiting for an answer

    def next_request(self) -> Optional[Message]:
        """The next request or notification from the harness; None at the end of its input."""
        if self.waiting_requests:
            return self.waiting_requests.popleft()
        while True:
            message = self._read()
            if message is None or message.kind in ("request", "notification"):
                return message
            self.log(f"ignored an answer to id {message.id!r}, which no call is waiting for")

    def answer(self, id, result):
        self._write({"jsonrpc": "2.0", "id": id, "result": result})

    def answer_error(self, id, code, message, data=None):
        error = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self._write({"jsonrpc": "2.0", "id": id, "error": error})

    def notify(self, method, params):
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def call(self, method, params):
        """Calls the harness and returns its result; raises RpcError(PLATFORM_CALL_FAILED) on an error answer."""
        id, self.next_id = self.next_id, self.next_id + 1
        self._write({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        while True:
            message = self._read()
            if message is None:
                raise HarnessGone(f"the harness closed the connection before it answered {method}")
            if message.kind in ("request", "notification"):
                self.waiting_requests.append(message)
            elif message.id != id or isinstance(message.id, bool):
                self.log(f"ignored an answer to id {message.id!r} while waiting for {id}")
            elif message.kind == "error":
                raise RpcError(PLATFORM_CALL_FAILED, f"the harness answered {method} with error "
                               f"{message.error.get('code')}: {message.error.get('message')}")
            else:
                return message.result

    def _write(self, message):
        line = json.dumps(message, separators=(",", ":"), default=_encode_bytes)
        self.writer.write(line.encode("utf-8") + b"\n")
        self.writer.flush()

    def _read(self) -> Optional[Message]:
        """The next well-formed message. A malformed line is answered with an error and skipped."""
        while True:
            line = self.reader.readline(MAX_LINE_BYTES + 1)
            if not line:
                return None
            if len(line) > MAX_LINE_BYTES:
                while line and not line.endswith(b"\n"):  # drop the rest of the line
                    line = self.reader.readline(MAX_LINE_BYTES)
                self.answer_error(None, INVALID_REQUEST, f"a line is longer than {MAX_LINE_BYTES} bytes")
                continue
            if not line.strip():
                continue
            try:
                return parse_message(line)
            except RpcError as error:
                self.log(f"malformed message: {error.message}")
                self.answer_error(error.id, error.code, error.message)


def parse_message(line) -> Message:
    """Reads one line as a JSON-RPC 2.0 message of this protocol; raises RpcError if it is not one."""
    try:
        value = json.loads(line.decode("utf-8"), object_pairs_hook=_object_without_duplicates,
                           parse_constant=_reject_constant)
    except _DuplicateMember as error:
        raise RpcError(INVALID_REQUEST, str(error)) from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise RpcError(PARSE_ERROR, f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise RpcError(INVALID_REQUEST, "batches are not part of this protocol" if isinstance(value, list)
                       else "a message must be a JSON object")
    id = value.get("id")
    id_is_valid = isinstance(id, str) or (isinstance(id, int) and not isinstance(id, bool))
    answer_id = id if id_is_valid else None
    if value.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, 'missing "jsonrpc": "2.0"', id=answer_id)
    if "id" in value and not id_is_valid and not (id is None and "error" in value):
        raise RpcError(INVALID_REQUEST, "an id must be a string or an integer")
    if "method" in value:
        if not isinstance(value["method"], str):
            raise RpcError(INVALID_REQUEST, "the method must be a string", id=answer_id)
        if "result" in value or "error" in value:
            raise RpcError(INVALID_REQUEST, "a call carries neither result nor error", id=answer_id)
        params = value.get("params", {})
        if not isinstance(params, dict):
            raise RpcError(INVALID_REQUEST, "params must be an object", id=answer_id)
        return Message("request" if "id" in value else "notification", id, value["method"], params)
    if "id" not in value or ("result" in value) == ("error" in value):
        raise RpcError(INVALID_REQUEST, "an answer needs an id and exactly one of result and error", id=answer_id)
    if "error" in value:
        error = value["error"] if isinstance(value["error"], dict) else {"message": str(value["error"])}
        return Message("error", id, error=error)
    return Message("result", id, result=value["result"])


class _DuplicateMember(ValueError):
    pass


def _object_without_duplicates(pairs):
    result = {}
    for key, item in pairs:
        if key in result:
            raise _DuplicateMember(f'the member "{key}" appears twice')
        result[key] = item
    return result


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _encode_bytes(value):
    if isinstance(value, (bytes, bytearray)):
        return b64url_encode(bytes(value))
    raise TypeError(f"{type(value).__name__} cannot be sent as JSON")


class Params:
    """A JSON object from the harness, read member by member with type checks. A missing or
    mistyped member raises InvalidParams naming its path, e.g. `params.action.kind`."""

    def __init__(self, value, path="params"):
        if not isinstance(value, dict):
            raise InvalidParams(f"{path} must be an object")
        self.value, self.path = value, path

    def _member(self, key, types, what, optional):
        item = self.value.get(key)
        if item is None:
            if optional:
                return None
            raise InvalidParams(f"{self.path}.{key} is missing")
        if not isinstance(item, types) or (isinstance(item, bool) and bool not in types):
            raise InvalidParams(f"{self.path}.{key} must be {what}")
        return item

    def string(self, key, optional=False) -> Optional[str]:
        return self._member(key, (str,), "a string", optional)

    def choice(self, key, allowed, optional=False) -> Optional[str]:
        text = self.string(key, optional)
        if text is not None and text not in allowed:
            raise InvalidParams(f"{self.path}.{key} must be one of {', '.join(allowed)}, not {text!r}")
        return text

    def integer(self, key, optional=False) -> Optional[int]:
        return self._member(key, (int,), "an integer", optional)

    def boolean(self, key, optional=False) -> Optional[bool]:
        return self._member(key, (bool,), "true or false", optional)

    def bytes(self, key, optional=False):
        text = self._member(key, (str,), "a base64url string", optional)
        if text is None:
            return None
        try:
            return b64url_decode(text)
        except ValueError as error:
            raise InvalidParams(f"{self.path}.{key}: {error}") from None

    def object(self, key, optional=False) -> Optional["Params"]:
        item = self._member(key, (dict,), "an object", optional)
        return None if item is None else Params(item, f"{self.path}.{key}")

    def objects(self, key):
        """A member that is an array of objects."""
        items = self._member(key, (list,), "an array", optional=False)
        return [Params(item, f"{self.path}.{key}[{index}]") for index, item in enumerate(items)]


# Where the adapter serves the protocol: standard input and output, or a stream socket.

EX_USAGE = 64  # a malformed --listen (sysexits.h), as reference-rp-adapter exits
EX_SOFTWARE = 70  # the socket could not be listened on, as reference-rp-adapter exits

LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


def stdio_connection(log):
    """A connection on standard input and a private copy of standard output. File descriptor 1 then
    points at standard error, so that a stray print() cannot corrupt the message stream."""
    protocol_output = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return Connection(sys.stdin.buffer, protocol_output, log=log)


class ListenAddress(NamedTuple):
    """`unix:PATH` or `tcp:HOST:PORT` (HOST one of LOOPBACK_HOSTS), as `--listen` takes it."""

    kind: str  # "unix" or "tcp"
    path: Optional[str] = None
    host: Optional[str] = None
    port: Optional[int] = None

    def __str__(self):
        if self.kind == "unix":
            return f"unix:{self.path}"
        return f"tcp:[{self.host}]:{self.port}" if ":" in self.host else f"tcp:{self.host}:{self.port}"


def parse_listen_address(text) -> ListenAddress:
    """Reads `unix:PATH` or `tcp:HOST:PORT` (`tcp:[::1]:PORT` for IPv6), the forms the harness's
    `--adapter-connect` takes; raises ValueError, with a message for the user, for anything else."""
    if text.startswith("unix:"):
        path = text[len("unix:"):]
        if not path:
            raise ValueError(f"'{text}' names no socket path; write unix:/path/to/socket")
        return ListenAddress("unix", path=path)
    if not text.startswith("tcp:"):
        raise ValueError(f"'{text}' is not a socket address; write unix:PATH or tcp:127.0.0.1:PORT")
    host, colon, port = text[len("tcp:"):].rpartition(":")
    if not colon or not host:
        raise ValueError(f"'{text}' has no port; write tcp:127.0.0.1:PORT")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise ValueError(f"the port in '{text}' is not a number from 1 to 65535")
    if host not in LOOPBACK_HOSTS:
        raise ValueError(f"'{text}': only a loopback host (127.0.0.1, ::1, localhost) is accepted; the protocol "
                         "carries no authentication, so forward a remote port to this machine instead")
    return ListenAddress("tcp", host=host, port=int(port))


def listen_argument(arguments, program) -> Optional[ListenAddress]:
    """The address of `--listen ADDRESS` (or `--listen=ADDRESS`) among the command-line arguments,
    None without one. A missing or malformed address is reported on standard error and the process
    exits with status 64."""
    for index, argument in enumerate(arguments):
        if argument == "--listen" or argument.startswith("--listen="):
            text = argument[len("--listen="):] if "=" in argument else (
                arguments[index + 1] if index + 1 < len(arguments) else None)
            if text is None:
                usage_error(program, "--listen needs an address: unix:PATH or tcp:127.0.0.1:PORT")
            try:
                return parse_listen_address(text)
            except ValueError as error:
                usage_error(program, f"--listen: {error}")
    return None


def usage_error(program, message):
    print(f"{program}: {message}", file=sys.stderr, flush=True)
    raise SystemExit(EX_USAGE)


class Stopped(BaseException):
    """SIGTERM arrived: stop listening. A BaseException, so that no `except Exception` of a main
    loop answers it as a failed call."""


def serve_socket(address: ListenAddress, serve_connection: Callable[[Connection], None], log, verbose=False):
    """Listens at the address and serves one harness connection at a time, each with
    `serve_connection(connection)`, the same loop as on standard input and output, until that
    connection ends (end of input, or `adapter.shutdown` answered); then accepts the next one. A
    connection that ends or breaks does not end the process: SIGTERM or SIGINT do, and remove the
    socket file of a unix: address. Returns the exit status: 0 once stopped, 70 if the address
    cannot be listened on."""
    try:
        listener = _listen(address)
    except (OSError, ValueError) as error:
        log(f"cannot listen at {address}: {error}")
        return EX_SOFTWARE
    socket_file = _identity(address.path) if address.kind == "unix" else None
    previous_handler = signal.signal(signal.SIGTERM, _stop)
    try:
        # One line on standard error once connections are accepted: scripts wait for it.
        log(f"listening at {address}")
        while True:
            client, _ = listener.accept()
            if verbose:
                log("a harness connected")
            try:
                try:
                    _serve_client(client, serve_connection, log)
                except OSError as error:  # the harness's end broke mid-message (reset, broken pipe)
                    log(f"the connection ended: {error}")
                except Exception:  # noqa: BLE001  (a bug of the adapter: report it, keep listening)
                    log(f"the connection failed:\n{traceback.format_exc()}")
            except BaseException:  # stopped (SIGTERM, SIGINT) while serving it
                client.close()
                raise
            _close(client)
            if verbose:
                log("the connection ended; listening for the next one")
    except (KeyboardInterrupt, Stopped):
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
        listener.close()
        if socket_file is not None and _identity(address.path) == socket_file:
            os.unlink(address.path)


def _stop(signal_number, frame):
    raise Stopped()


def _listen(address):
    if address.kind == "unix":
        _remove_stale_socket(address.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(address.path)
        except OSError:
            listener.close()
            raise
    else:
        family, kind, protocol, _, socket_address = socket.getaddrinfo(
            address.host, address.port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, protocol)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(socket_address)
        except OSError:
            listener.close()
            raise
    listener.listen(8)
    return listener


def _remove_stale_socket(path):
    """Removes a socket file that no process listens on any more; refuses to remove anything else."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise ValueError(f"{path} exists and is not a socket; remove it or choose another path")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except OSError:
        os.unlink(path)  # nobody listens there: a socket file left behind by a process that died
    else:
        raise ValueError("another process is listening there")
    finally:
        probe.close()


def _identity(path):
    """The socket file at path as (device, inode), None if there is none: the file removed at the end
    must be the one this process made."""
    try:
        status = os.lstat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _serve_client(client, serve_connection, log):
    reader, writer = client.makefile("rb"), client.makefile("wb")
    try:
        serve_connection(Connection(reader, writer, log=log))
    finally:
        for stream in (writer, reader):
            try:
                stream.close()
            except OSError:
                pass


def _close(client):
    """Ends a connection without losing the last answer: shuts the sending side, reads what the
    harness still sends until it closes its end (briefly), then closes. Closing with unread input
    would reset the connection and could destroy answers the harness has not read yet."""
    try:
        client.shutdown(socket.SHUT_WR)
        client.settimeout(2)
        while client.recv(65536):
            pass
    except OSError:
        pass
    finally:
        client.close()
