"""adb's RSA key authentication, device side: which host keys adbd accepts, and checking a host's signature.

Formats follow AOSP:

* A public key line (``~/.android/adbkey.pub``, ``/data/misc/adb/adb_keys``) is the base64 of Android's
  ``RSAPublicKey`` struct, a space and a ``user@host`` comment (``libcrypto_utils/android_pubkey.cpp``): little-endian
  ``uint32 modulus_size_words`` (64 for the 2048-bit keys adb makes), ``uint32 n0inv``, the modulus as 256
  little-endian bytes, ``R^2 mod N`` as 256 bytes, ``uint32 exponent``.
* The handshake (``adb/protocol.txt``, ``adbd_auth.cpp``): the device answers CNXN with ``AUTH(TOKEN, 0, 20 random
  bytes)``; the host answers ``AUTH(SIGNATURE, 0, sig)`` for each of its keys, which the device checks
  (``RSA_verify(NID_sha1, token, ...)``: PKCS #1 v1.5 with the token taken as a SHA-1 digest), answering a wrong one
  with a fresh token; at last the host offers ``AUTH(RSAPUBLICKEY, 0, key line)``, which a real phone shows to its
  user — a served phone has none, so an unknown key stays ``unauthorized``.
* Which keys a host uses (``adb/client/auth.cpp``): ``~/.android/adbkey`` and every key named by
  ``ADB_VENDOR_KEYS`` (files, or folders of ``*.adb_key`` files); each private key's public half sits beside it
  as ``<key>.pub``.

The check is written by hand (modular exponentiation, then a comparison with the whole expected encoding, which
parses nothing) rather than adding a compiled cryptography library to the core for these few lines.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import os
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3  # adb.h
TOKEN_SIZE = 20
_MODULUS_WORDS = 64  # ANDROID_PUBKEY_MODULUS_SIZE / 4
_KEY_STRUCT = struct.Struct(f"<II{4 * _MODULUS_WORDS}s{4 * _MODULUS_WORDS}sI")
# DER DigestInfo header of a SHA-1 digest (RFC 8017, section 9.2, note 1).
_SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")


class AdbKeyError(ValueError):
    """A line or file that is not an adb public key."""


@dataclass(frozen=True)
class AdbPublicKey:
    """One host's RSA public key as adb stores it."""

    modulus: int
    exponent: int
    comment: str = ""

    @classmethod
    def parse(cls, line: str) -> AdbPublicKey:
        """A key from one ``adbkey.pub`` / ``adb_keys`` line (base64 struct, optional ``user@host``)."""
        encoded, _, comment = line.strip().partition(" ")
        try:
            blob = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as error:
            raise AdbKeyError(f"not base64: {error}") from error
        if len(blob) != _KEY_STRUCT.size:
            raise AdbKeyError(f"{len(blob)} bytes, an adb key has {_KEY_STRUCT.size}")
        words, _n0inv, modulus, _rr, exponent = _KEY_STRUCT.unpack(blob)
        if words != _MODULUS_WORDS:
            raise AdbKeyError(f"modulus of {words} words, adb keys have {_MODULUS_WORDS}")
        return cls(int.from_bytes(modulus, "little"), exponent, comment.strip())

    def verifies(self, token: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's PKCS #1 v1.5 signature of ``token`` taken as a SHA-1 digest."""
        size = (self.modulus.bit_length() + 7) // 8
        if len(token) != TOKEN_SIZE or len(signature) != size:
            return False
        value = int.from_bytes(signature, "big")
        if value >= self.modulus:
            return False
        suffix = _SHA1_DIGEST_INFO + token
        expected = b"\x00\x01" + b"\xff" * (size - 3 - len(suffix)) + b"\x00" + suffix
        return hmac.compare_digest(pow(value, self.exponent, self.modulus).to_bytes(size, "big"), expected)


def read_keys(path: Path) -> list[AdbPublicKey]:
    """Every key of an ``adb_keys``-style file (one key per line; blank lines and ``#`` comments skipped)."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise AdbKeyError(f"cannot read {path}: {error}") from error
    keys = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                keys.append(AdbPublicKey.parse(line))
            except AdbKeyError as error:
                raise AdbKeyError(f"{path}:{number}: {error}") from error
    return keys


def host_key_files(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The public-key files of the keys this machine's ``adb`` signs with (those that exist)."""
    environ = os.environ if environ is None else environ
    private = [Path(environ.get("HOME", "~")).expanduser() / ".android" / "adbkey"]
    for entry in filter(None, environ.get("ADB_VENDOR_KEYS", "").split(os.pathsep)):
        folder = Path(entry)
        private.extend(sorted(folder.glob("*.adb_key")) if folder.is_dir() else [folder])
    return [public for key in private if (public := key.with_name(key.name + ".pub")).is_file()]


def authorized_keys(files: Iterable[Path]) -> list[AdbPublicKey]:
    """The keys of all ``files``, in order."""
    return [key for path in files for key in read_keys(path)]
