"""Read a wheel (a zip file) on a web server without downloading it: HTTP range requests fetch the end of the file,
then its central directory (the list of members), then only the members asked for.

PyPI's file host (files.pythonhosted.org) honours byte ranges; a server that ignores them is an error, never a
whole download. The bytes are untrusted data: every size and offset is checked against the file's size and the
limits given, a member is checked against its CRC-32 and its stated size, and anything malformed raises `ZipError`
(an `OSError`) whose message names the wheel and the member, for the command to print as one line.
"""

from __future__ import annotations

import http.client
import struct
import urllib.request
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

TAIL = 1 << 16  # the end of a zip, where its central directory usually starts
MAX_DIRECTORY = 1 << 26  # 64 MiB: a torch wheel's directory is a few MB
DEFAULT_MAX_MEMBER = 1 << 26  # what `read` holds in memory unless told otherwise
CHUNK = 1 << 20
LOCAL_SLACK = 1 << 12  # room in a member's range for its local header's extra field, which the directory does not give
TIMEOUT_SECONDS = 120
STORED, DEFLATED = 0, 8


class ZipError(OSError):
    """A remote zip that cannot be read as one: its message names the wheel and, where there is one, the member."""


@dataclass(frozen=True)
class Member:
    """One file inside a zip, as its central directory describes it."""

    name: str
    method: int  # 0 stored, 8 deflated
    packed: int  # its size in the zip
    size: int  # its size once unpacked
    offset: int  # where its local header starts
    crc: int
    flags: int


def _get(url: str, byte_range: str) -> tuple[bytes, int]:
    """The bytes of `url` in `byte_range` ("-65536", "100-199") and the file's whole size."""
    with _open(url, byte_range) as response:
        try:
            return response.read(), _total(url, response)
        except http.client.HTTPException as error:  # such as an answer cut short: an OSError like the others
            raise OSError(f"{url}: {error!r}") from None


def _open(url: str, byte_range: str):
    """The response to a range request; an error unless the server answered with the range (206)."""
    request = urllib.request.Request(url, headers={"Range": f"bytes={byte_range}"})
    response = urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS)
    if response.status != 206:
        response.close()
        raise OSError(f"{url}: the server ignored the byte range (HTTP {response.status})")
    return response


def _total(url: str, response) -> int:
    """The whole file's size, from a 206 response's Content-Range."""
    try:
        return int(response.headers["Content-Range"].rpartition("/")[2])
    except (AttributeError, ValueError) as error:
        raise OSError(f"{url}: no usable Content-Range in the answer ({error})") from None


def _zip64_sizes(extra: bytes, packed: int, unpacked: int, local: int) -> tuple[int, int, int]:
    """A member's sizes and offset, from its zip64 extra field where the 32-bit fields are full."""
    position = 0
    while position + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, position)
        if kind == 1:
            values, index = extra[position + 4 : position + 4 + length], 0
            found = []
            for value in (unpacked, packed, local):
                if value == 0xFFFFFFFF:
                    found.append(struct.unpack_from("<Q", values, index)[0])
                    index += 8
                else:
                    found.append(value)
            return found[1], found[0], found[2]
        position += 4 + length
    return packed, unpacked, local


def parse_directory(directory: bytes) -> dict[str, Member]:
    """The members a central directory lists, by name (struct.error on truncated data)."""
    members, position = {}, 0
    while directory[position : position + 4] == b"PK\x01\x02":
        flags, method, _, _, crc, packed, unpacked = struct.unpack_from("<HHHHIII", directory, position + 8)
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", directory, position + 28)
        local = struct.unpack_from("<I", directory, position + 42)[0]
        start = position + 46
        if start + name_length + extra_length > len(directory):
            raise struct.error("a directory entry runs past the directory's end")
        name = directory[start : start + name_length].decode("utf-8", "replace")
        extra = directory[start + name_length : start + name_length + extra_length]
        packed, unpacked, local = _zip64_sizes(extra, packed, unpacked, local)
        members[name] = Member(name, method, packed, unpacked, local, crc, flags)
        position = start + name_length + extra_length + comment_length
    return members


class RemoteZip:
    """A zip on a web server that honours byte ranges: its members, and the bytes of the ones asked for.

    `label` names the file in messages (the wheel's file name; the URL by default); `downloaded` counts the bytes
    received so far."""

    def __init__(self, url: str, label: str | None = None, *, max_directory: int = MAX_DIRECTORY) -> None:
        self.url, self.label, self.downloaded = url, label or url, 0
        tail, self.total = self._get(f"-{TAIL}")
        try:
            self.members = self._directory(tail, max_directory)
        except struct.error as error:
            raise ZipError(f"{self.label}: a malformed zip directory ({error})") from None

    def _get(self, byte_range: str) -> tuple[bytes, int]:
        data, total = _get(self.url, byte_range)
        self.downloaded += len(data)
        return data, total

    def _directory(self, tail: bytes, max_directory: int) -> dict[str, Member]:
        start = self.total - len(tail)
        end = tail.rfind(b"PK\x05\x06")
        if end < 0 or end + 22 > len(tail):
            raise ZipError(f"{self.label}: not a zip (no zip directory in its last {len(tail)} bytes)")
        size, offset = struct.unpack_from("<II", tail, end + 12)
        if 0xFFFFFFFF in (size, offset):  # zip64: the directory's place is in the zip64 end record
            locator = tail.rfind(b"PK\x06\x07", 0, end)
            if locator < 0:
                raise ZipError(f"{self.label}: a zip64 directory without its locator")
            record = struct.unpack_from("<Q", tail, locator + 8)[0]
            if not 0 <= record < self.total:
                raise ZipError(f"{self.label}: the zip64 end record is outside the file")
            found = tail[record - start : record - start + 56] if record >= start else self._get(f"{record}-{record + 55}")[0]
            if found[:4] != b"PK\x06\x06":
                raise ZipError(f"{self.label}: no zip64 end record where its locator points")
            size, offset = struct.unpack_from("<QQ", found, 40)
        if size > max_directory:
            raise ZipError(f"{self.label}: its zip directory is {size} bytes, more than the {max_directory} allowed")
        if offset + size > self.total:
            raise ZipError(f"{self.label}: its zip directory runs past the end of the file")
        directory = tail[offset - start : offset - start + size] if offset >= start else self._get(f"{offset}-{offset + size - 1}")[0]
        members = parse_directory(directory)
        if not members:
            raise ZipError(f"{self.label}: its zip directory lists no members")
        return members

    def member(self, name: str) -> Member:
        """A member by name, checked to lie inside the file."""
        if name not in self.members:
            raise ZipError(f"{self.label}: no member {name}")
        found = self.members[name]
        if found.flags & 1:
            raise ZipError(f"{self.label}: {name} is encrypted")
        if found.method not in (STORED, DEFLATED):
            raise ZipError(f"{self.label}: {name} is compressed with method {found.method}, not deflate")
        if found.offset + 30 + found.packed > self.total:
            raise ZipError(f"{self.label}: {name} runs past the end of the file")
        return found

    def read(self, name: str, *, max_size: int = DEFAULT_MAX_MEMBER) -> bytes:
        """The unpacked bytes of one member (at most `max_size`, else an error)."""
        return b"".join(self.stream(name, max_size=max_size))

    def stream(self, name: str, *, max_size: int, chunk: int = CHUNK) -> Iterator[bytes]:
        """The unpacked bytes of one member, a piece at a time as they arrive; checked against the member's size and
        CRC-32 at its end. `max_size` bounds the member's stated size and what is unpacked."""
        found = self.member(name)
        if found.size > max_size or found.packed > max_size:
            raise ZipError(f"{self.label}: {name} is {max(found.size, found.packed)} bytes, more than the {max_size} allowed")
        last = min(self.total - 1, found.offset + 30 + len(found.name.encode()) + LOCAL_SLACK + found.packed)
        with _open(self.url, f"{found.offset}-{last}") as response:
            header = self._exactly(response, 30, name)
            if header[:4] != b"PK\x03\x04":
                raise ZipError(f"{self.label}: {name} has no local header where the directory says")
            name_length, extra_length = struct.unpack_from("<HH", header, 26)
            if found.offset + 30 + name_length + extra_length + found.packed > last + 1:
                raise ZipError(f"{self.label}: {name}'s local header is larger than its range allows")
            self._exactly(response, name_length + extra_length, name)
            unpack = zlib.decompressobj(-15) if found.method == DEFLATED else None
            left, unpacked, crc = found.packed, 0, 0
            while left:
                packed = self._exactly(response, min(chunk, left), name)
                left -= len(packed)
                try:
                    piece = unpack.decompress(packed, max_size + 1 - unpacked) if unpack else packed
                except zlib.error as error:
                    raise ZipError(f"{self.label}: {name} does not inflate ({error})") from None
                if unpack and unpack.unconsumed_tail:
                    raise ZipError(f"{self.label}: {name} inflates to more than the {max_size} bytes allowed")
                unpacked += len(piece)
                if unpacked > found.size:
                    raise ZipError(f"{self.label}: {name} inflates to more than the {found.size} bytes its directory says")
                crc = zlib.crc32(piece, crc)
                yield piece
            if unpack and not unpack.eof:
                raise ZipError(f"{self.label}: {name} does not end its deflate stream where its packed size says")
        if unpacked != found.size:
            raise ZipError(f"{self.label}: {name} is {unpacked} bytes, its directory says {found.size}")
        if crc != found.crc:
            raise ZipError(f"{self.label}: {name} does not match its CRC-32")

    def _exactly(self, response, count: int, name: str) -> bytes:
        """`count` bytes of a streamed answer, or an error naming the member."""
        try:
            data = response.read(count)
        except http.client.HTTPException as error:
            raise ZipError(f"{self.label}: {name} could not be read ({error!r})") from None
        self.downloaded += len(data)
        if len(data) != count:
            raise ZipError(f"{self.label}: {name} is cut short ({len(data)} of {count} bytes arrived)")
        return data
