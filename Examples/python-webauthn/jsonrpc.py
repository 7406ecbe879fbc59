"""JSON-RPC 2.0 over a pair of byte streams, one message per line, as the adapter protocol frames it.

Both peers call each other: the harness calls the adapter (`session.perform`, ...) and, while such
a call is in progress, the adapter calls the harness (`platform.createCredential`, `clock.now`,
...). This module does it without threads: `Connection.call` writes its request and reads lines
until its answer arrives, keeping any request that arrives meanwhile for the main loop. The
harness answers every call at once, so this never waits for long.

Binary values travel as unpadded base64url strings: `bytes` in a message are encoded so on the
way out, and `Params.bytes` decodes them on the way in.
"""

import json
from collections import deque
from typing import NamedTuple, Optional

from encoding import b64url_decode, b64url_encode

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
