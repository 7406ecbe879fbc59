"""A small, strict CBOR decoder (RFC 8949) for the subset WebAuthn registration needs.

It reads what a "none" attestation object and an ES256 COSE_Key contain: unsigned and negative
integers, byte strings, text strings, arrays, maps, false, true and null. Anything else is
rejected with an error that says what is wrong and at which byte: indefinite lengths, tags,
floats and other simple values, lengths not in their shortest form, map keys that are neither
integers nor text, duplicate map keys, text that is not UTF-8, nesting deeper than 16 levels,
and (for `decode`) bytes left over after the item.

Values map to Python as int, bytes, str, list, dict, bool and None.
"""

MAX_DEPTH = 16

_SIMPLE_VALUES = {20: False, 21: True, 22: None}


class CBORError(ValueError):
    """The bytes are not CBOR of the supported subset; `offset` is where the problem starts."""

    def __init__(self, message, offset):
        super().__init__(f"CBOR at byte {offset}: {message}")
        self.offset = offset


def decode(data):
    """Decodes exactly one item that spans all of `data`."""
    value, end = decode_prefix(data, 0)
    if end != len(data):
        raise CBORError(f"{len(data) - end} byte(s) left over after the item", end)
    return value


def decode_prefix(data, offset=0):
    """Decodes the item that starts at `offset`; returns it and the offset just past it."""
    return _Reader(bytes(data)).item(offset, depth=0)


class _Reader:
    def __init__(self, data):
        self.data = data

    def take(self, offset, count):
        end = offset + count
        if end > len(self.data):
            raise CBORError(f"needs {count} byte(s), only {len(self.data) - offset} left", offset)
        return self.data[offset:end], end

    def head(self, offset):
        """The major type, the argument (a length or a value) and where the content starts."""
        (initial,), position = self.take(offset, 1)
        major, info = initial >> 5, initial & 0x1F
        if major == 7:
            if info in _SIMPLE_VALUES:
                return major, info, position
            raise CBORError(f"float or simple value 0x{initial:02x} is not supported", offset)
        if info < 24:
            return major, info, position
        if info == 31:
            raise CBORError("indefinite lengths are not supported", offset)
        if info > 27:
            raise CBORError(f"reserved additional information {info}", offset)
        size = 1 << (info - 24)  # 1, 2, 4 or 8 bytes
        raw, position = self.take(position, size)
        argument = int.from_bytes(raw, "big")
        smallest = 24 if size == 1 else 1 << (4 * size)
        if argument < smallest:
            raise CBORError(f"the argument {argument} is not in its shortest form", offset)
        return major, argument, position

    def item(self, offset, depth):
        if depth > MAX_DEPTH:
            raise CBORError(f"nested deeper than {MAX_DEPTH} levels", offset)
        major, argument, position = self.head(offset)
        if major == 0:
            return argument, position
        if major == 1:
            return -1 - argument, position
        if major == 2:
            return self.take(position, argument)
        if major == 3:
            raw, end = self.take(position, argument)
            try:
                return raw.decode("utf-8"), end
            except UnicodeDecodeError:
                raise CBORError("a text string is not valid UTF-8", offset) from None
        if major == 4:
            items = []
            for _ in range(argument):
                value, position = self.item(position, depth + 1)
                items.append(value)
            return items, position
        if major == 5:
            result = {}
            for _ in range(argument):
                key_offset = position
                key, position = self.item(position, depth + 1)
                if isinstance(key, bool) or not isinstance(key, (int, str)):
                    raise CBORError("a map key must be an integer or a text string", key_offset)
                if key in result:
                    raise CBORError(f"the map key {key!r} appears twice", key_offset)
                result[key], position = self.item(position, depth + 1)
            return result, position
        if major == 6:
            raise CBORError("tags are not supported", offset)
        return _SIMPLE_VALUES[argument], position  # major 7: false, true, null
