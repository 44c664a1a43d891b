"""The GPU code a CUDA library carries, read from its fat binaries (what `cuobjdump --list-elf/--list-ptx` lists).

nvcc embeds device code in an ELF section as fat binaries: a 16-byte header (magic 0xBA55ED50, version 1, header
size, size of what follows) and entries, each with its kind (1 PTX, 2 cubin), sizes and the architecture it was
built for (sm_XY as XY). Compressed entries keep their headers readable, so no decompression is needed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC = struct.pack("<I", 0xBA55ED50)
HEADER = struct.Struct("<IHHQ")  # magic, version, header size, size of the entries
ENTRY = struct.Struct("<HHIQ")  # kind, version, entry header size, payload size
ARCH_OFFSET = 0x1C  # the entry's architecture (sm_XY as XY), after sizes and the toolkit version
PTX, CUBIN = 1, 2


@dataclass(frozen=True)
class DeviceCode:
    """The architectures a library has cubins for (runs there as built) and PTX for (compiled by the driver)."""

    cubins: frozenset[int]
    ptx: frozenset[int]
    size: int  # bytes of device code read: the library that carries the most is the one torch's kernels are in


def device_code(library: bytes) -> DeviceCode:
    """Every architecture in the library's fat binaries; an unreadable stretch is skipped, not guessed."""
    cubins, ptx, total = set(), set(), 0
    position = library.find(MAGIC)
    while position >= 0:
        _, version, header_size, size = HEADER.unpack_from(library, position)
        end = position + header_size + size
        if version != 1 or header_size != HEADER.size or end > len(library):
            position = library.find(MAGIC, position + 4)
            continue
        entry = position + header_size
        while entry + ARCH_OFFSET + 4 <= end:
            kind, _, entry_size, payload = ENTRY.unpack_from(library, entry)
            if kind not in (PTX, CUBIN) or entry_size < ARCH_OFFSET + 4:
                break
            (arch,) = struct.unpack_from("<I", library, entry + ARCH_OFFSET)
            (cubins if kind == CUBIN else ptx).add(arch)
            total += payload
            entry += entry_size + payload
        position = library.find(MAGIC, end)
    return DeviceCode(frozenset(cubins), frozenset(ptx), total)
