"""How a game record is kept in the database: its JSON, compressed with zlib against a preset dictionary.

Records are small JSON objects that repeat the same keys, so a dictionary of the ``arena-record/1``
skeleton roughly thirds them. zlib names the dictionary a stream was compressed with (its Adler-32
checksum, in the stream's header), so a stream names its own dictionary: new dictionaries can be added
later without making stored records unreadable. Records written by arena before compression are JSON
text and are read as they are.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

# The skeleton of a record (``arena.core.records.build_record``) as ``json.dumps`` writes it. Never
# change it: stored records name it by its checksum. Add a new one to ``_DICTIONARIES`` instead.
_DICTIONARY_1 = (
    b'{"format": "arena-record/1", "game": "", "options": {}, "map": {"name": "", "text": ""}, "seed": , '
    b'"players": [{"seat": 0, "bot": "", "version": ""}, {"seat": 1, "bot": "", "version": ""}], '
    b'"turns": [{"0": "", "1": ""}, {"0": "", "1": ""}], "result": {"ranks": [1, 2], "reason": ""}, '
    b'"failures": [], "think_time": []}'
)
_DICTIONARIES = {zlib.adler32(_DICTIONARY_1): _DICTIONARY_1}
_WRITE_WITH = _DICTIONARY_1
_PRESET_DICTIONARY_FLAG = 0x20


_LOOKAHEAD = 262
"""Bytes at the end of zlib's window that its matches cannot reach (``MIN_LOOKAHEAD`` in zlib's source)."""


def _window_bits(size: int) -> int:
    """The smallest zlib window (as ``wbits``, 9 to 15) that holds ``size`` bytes and the dictionary, so
    every match the full window would find is found. A small window is much cheaper to set up than zlib's
    default 32 KB, and a reader (any ``wbits`` of 15) inflates a stream of a smaller window as it is."""
    return max(9, min(zlib.MAX_WBITS, (size + len(_WRITE_WITH) + _LOOKAHEAD).bit_length()))


def encode_record(record: dict[str, Any]) -> bytes:
    """The stored form of a record: its JSON (as ``json.dumps`` writes it), zlib-compressed."""
    text = json.dumps(record).encode()
    window = _window_bits(len(text))
    # Memory in proportion to the window: zlib clears its hash table for every stream, and a block holds
    # 2 ** (memLevel + 6) symbols, which at this level still exceeds the record's bytes.
    compressor = zlib.compressobj(zlib.Z_BEST_COMPRESSION, zlib.DEFLATED, window, max(1, min(9, window - 6)),
                                  zdict=_WRITE_WITH)
    return compressor.compress(text) + compressor.flush()


def record_json(stored: bytes | str) -> str:
    """The JSON text of a stored record, compressed or (written before compression) plain."""
    if isinstance(stored, str):
        return stored
    if stored[1] & _PRESET_DICTIONARY_FLAG:
        dictionary = _DICTIONARIES.get(int.from_bytes(stored[2:6], "big"))
        if dictionary is None:
            raise ValueError("a stored record was compressed with a dictionary this arena does not know")
        decompressor = zlib.decompressobj(zdict=dictionary)
        return (decompressor.decompress(stored) + decompressor.flush()).decode()
    return zlib.decompress(stored).decode()


def decode_record(stored: bytes | str) -> dict[str, Any]:
    """A stored record as the dict it was stored from."""
    record: dict[str, Any] = json.loads(record_json(stored))
    return record
