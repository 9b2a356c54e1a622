"""32-bit two's-complement integers, as Java's ``int`` and mksh's arithmetic keep them."""

from __future__ import annotations


def to_int32(value: int) -> int:
    """The low 32 bits of ``value`` as a signed 32-bit integer: Java's ``(int) value`` cast, an ``int`` that
    overflows, mksh's ``$((…))`` (its ``mksh_ari_t`` is 32 bits), a ``uint32_t`` read as an ``int32_t``."""
    return (value + 2**31) % 2**32 - 2**31
