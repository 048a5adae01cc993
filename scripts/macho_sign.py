#!/usr/bin/env python3
"""Signs a thin 64-bit Mach-O executable ad hoc, as Apple Silicon requires of every program it
runs (scripts/release.sh, on each macOS slice before llvm-lipo joins them).

Usage: macho_sign.py BINARY IDENTIFIER

What it writes is what rcodesign (apple-codesign 0.29.0) writes for `rcodesign sign
--binary-identifier IDENTIFIER` with no certificate: an embedded-signature super-blob at the
end of __LINKEDIT (LC_CODE_SIGNATURE, added to the header when the linker wrote none) holding
  - a code directory (version 0x20400, SHA-256, ad hoc, 4 KiB pages) naming IDENTIFIER and the
    executable segment (__TEXT, main binary), with the hash of every page before the signature
    and of the requirements blob in its special slot;
  - an empty requirement set;
  - an empty CMS signature wrapper (no certificate: ad hoc);
padded with zeros to the size rcodesign reserves, __LINKEDIT's memory size in 16 KiB pages.
tests/python/check_macho.py reads it back (every page hash recomputed), and
tests/python/test_macho_sign.py holds it to rcodesign's bytes. The formats are those of
Apple's <mach-o/loader.h> and xnu's osfmk/kern/cs_blobs.h; no Apple tool is used.

It replaces rcodesign, a 400-crate build, on machines that build the download: the same
bytes for a Mach-O as zig links it, in 200 lines of Python's standard library.
"""
import hashlib
import struct
import sys

MH_MAGIC_64, MH_EXECUTE = 0xFEEDFACF, 0x2
LC_SEGMENT_64, LC_CODE_SIGNATURE = 0x19, 0x1D
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSMAGIC_REQUIREMENTS = 0xFADE0C01
CSMAGIC_BLOBWRAPPER = 0xFADE0B01
CSSLOT_CODEDIRECTORY, CSSLOT_REQUIREMENTS, CSSLOT_SIGNATURESLOT = 0, 2, 0x10000
CS_ADHOC, CS_HASHTYPE_SHA256, CS_EXECSEG_MAIN_BINARY = 0x2, 2, 0x1
CODE_DIRECTORY_VERSION = 0x20400
PAGE_SHIFT = 12
PAGE = 1 << PAGE_SHIFT
HASH_SIZE = 32
SPECIAL_SLOTS = 2  # -1 the Info.plist (none: zeros), -2 the requirements


class Bad(Exception):
    """Why the binary cannot be signed."""


def commands(data):
    """(cmd, offset, size) of each load command."""
    magic, _, _, filetype, ncmds, sizeofcmds = struct.unpack_from("<IiiIII", data, 0)
    if magic != MH_MAGIC_64:
        raise Bad(f"not a thin 64-bit little-endian Mach-O (magic {magic:#x}); sign each slice before lipo")
    if filetype != MH_EXECUTE:
        raise Bad(f"not an executable (file type {filetype})")
    found, offset = [], 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        found.append((cmd, offset, size))
        offset += size
    return found, 32 + sizeofcmds


def segment(data, commands_, name):
    """(offset of the command, vmaddr, vmsize, fileoff, filesize) of a segment."""
    for cmd, offset, _ in commands_:
        if cmd == LC_SEGMENT_64 and data[offset + 8:offset + 24].rstrip(b"\0") == name:
            return (offset, *struct.unpack_from("<QQQQ", data, offset + 24))
    raise Bad(f"no {name.decode()} segment")


def first_section_offset(data, commands_):
    """Where the first section's bytes begin: the header may grow up to there."""
    lowest = len(data)
    for cmd, offset, _ in commands_:
        if cmd == LC_SEGMENT_64:
            for i in range(struct.unpack_from("<I", data, offset + 64)[0]):
                section = offset + 72 + 80 * i
                section_offset, = struct.unpack_from("<I", data, section + 48)
                section_flags, = struct.unpack_from("<I", data, section + 64)
                if section_offset and section_flags & 0xFF not in (0x1, 0xC, 0x12):  # zerofill
                    lowest = min(lowest, section_offset)
    return lowest


def blob(magic, payload=b""):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def code_directory(data, code_limit, identifier, text_fileoff, text_filesize, requirements):
    ident = identifier.encode() + b"\0"
    header_size = 88
    ident_offset = header_size
    hash_offset = ident_offset + len(ident) + SPECIAL_SLOTS * HASH_SIZE
    pages = (code_limit + PAGE - 1) // PAGE
    special = hashlib.sha256(requirements).digest() + bytes(HASH_SIZE)  # slot -2, then -1
    code = b"".join(hashlib.sha256(data[i * PAGE:min((i + 1) * PAGE, code_limit)]).digest()
                    for i in range(pages))
    length = hash_offset + len(code)
    header = struct.pack(">IIIIIIIIIBBBBIIIIQQQQ", CSMAGIC_CODEDIRECTORY, length, CODE_DIRECTORY_VERSION,
                         CS_ADHOC, hash_offset, ident_offset, SPECIAL_SLOTS, pages, code_limit,
                         HASH_SIZE, CS_HASHTYPE_SHA256, 0, PAGE_SHIFT, 0, 0, 0, 0, 0,
                         text_fileoff, text_filesize, CS_EXECSEG_MAIN_BINARY)
    assert len(header) == header_size
    return header + ident + special + code


def super_blob(blobs):
    index = 12 + 8 * len(blobs)
    entries, body = b"", b""
    for slot, data in blobs:
        entries += struct.pack(">II", slot, index + len(body))
        body += data
    return struct.pack(">III", CSMAGIC_EMBEDDED_SIGNATURE, index + len(body), len(blobs)) + entries + body


def reserved_size(code_limit):
    """The bytes kept for the signature, as rcodesign reserves them before it knows the
    signature's size (macho_signing.rs, estimate_embedded_signature_size): 1,024 for the code
    directory's fixed part, the page hashes, the requirements blob, 4,096 for a CMS
    signature, then up to the next multiple of 1,024 (a whole 1,024 more when on one); the
    signature is padded with zeros to it."""
    pages = (code_limit + PAGE - 1) // PAGE
    size = 1024 + pages * HASH_SIZE + 12 + 4096
    return size + 1024 - size % 1024


def sign(data, identifier):
    """The signed binary's bytes."""
    data = bytearray(data)
    commands_, header_end = commands(data)
    link_cmd, _, _, link_fileoff, link_filesize = segment(data, commands_, b"__LINKEDIT")
    _, _, _, text_fileoff, text_filesize = segment(data, commands_, b"__TEXT")
    existing = [offset for cmd, offset, _ in commands_ if cmd == LC_CODE_SIGNATURE]
    if existing:
        signature_cmd = existing[0]
        dataoff, _ = struct.unpack_from("<II", data, signature_cmd + 8)
        if dataoff < link_fileoff:
            raise Bad("the existing code signature is not in __LINKEDIT")
    else:
        if link_fileoff + link_filesize != len(data):
            raise Bad("bytes after __LINKEDIT: not a linker's output")
        if header_end + 16 > first_section_offset(data, commands_):
            raise Bad("no room in the header for LC_CODE_SIGNATURE")
        signature_cmd = header_end
        data[signature_cmd:signature_cmd + 16] = struct.pack("<IIII", LC_CODE_SIGNATURE, 16, 0, 0)
        ncmds, sizeofcmds = struct.unpack_from("<II", data, 16)
        struct.pack_into("<II", data, 16, ncmds + 1, sizeofcmds + 16)
        dataoff = (link_fileoff + link_filesize + 15) // 16 * 16
    del data[dataoff:]
    data.extend(bytes(dataoff - len(data)))
    size = reserved_size(dataoff)
    struct.pack_into("<II", data, signature_cmd + 8, dataoff, size)
    # __LINKEDIT ends with the signature; its memory size is whole 16 KiB pages (as codesign
    # and rcodesign round it, whatever the CPU).
    filesize = dataoff + size - link_fileoff
    struct.pack_into("<Q", data, link_cmd + 32, (filesize + 0x3FFF) // 0x4000 * 0x4000)  # vmsize
    struct.pack_into("<Q", data, link_cmd + 48, filesize)
    requirements = blob(CSMAGIC_REQUIREMENTS, struct.pack(">I", 0))
    directory = code_directory(data, dataoff, identifier, text_fileoff, text_filesize, requirements)
    signature = super_blob([(CSSLOT_CODEDIRECTORY, directory), (CSSLOT_REQUIREMENTS, requirements),
                            (CSSLOT_SIGNATURESLOT, blob(CSMAGIC_BLOBWRAPPER))])
    if len(signature) > size:
        raise Bad(f"the signature ({len(signature)} bytes) outgrew its {size} reserved bytes")
    return bytes(data) + signature + bytes(size - len(signature))


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    path, identifier = sys.argv[1:3]
    try:
        signed = sign(open(path, "rb").read(), identifier)
    except (Bad, struct.error) as err:
        print(f"macho_sign.py: {path}: {err}", file=sys.stderr)
        sys.exit(1)
    with open(path, "wb") as out:
        out.write(signed)


if __name__ == "__main__":
    main()
