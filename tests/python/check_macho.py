#!/usr/bin/env python3
"""Reads a universal (fat) Mach-O binary byte by byte and checks what macOS needs to run it
(scripts/test-release.sh, on the macOS download's `sp960`). No Apple tool is used: the formats
are those of Apple's <mach-o/fat.h>, <mach-o/loader.h> and the code-signing blobs of xnu's
osfmk/kern/cs_blobs.h.

Usage: check_macho.py BINARY IDENTIFIER

Checks, and prints one line per slice:
- a fat header (0xcafebabe) with exactly two slices, arm64 and x86_64, each a 64-bit
  MH_EXECUTE of the fat header's CPU type, with an entry point (LC_MAIN);
- the minimum macOS of each slice (LC_BUILD_VERSION, platform macOS, or LC_VERSION_MIN_MACOSX):
  11.0 for arm64, 10.12 or lower for x86_64;
- every dylib it loads is a system one, under /usr/lib/ (no @rpath, no /usr/local);
- a code signature (LC_CODE_SIGNATURE, at the end of the slice's __LINKEDIT): an embedded
  signature super-blob whose code directories (SHA-256, ad-hoc) carry IDENTIFIER and the
  executable segment of __TEXT, cover every byte of the slice before the signature, and
  whose page hashes match the SHA-256 of each page, computed here; the special slots of the
  blobs present (requirements, entitlements) match their hashes too.
Exits 1 naming the slice and what is wrong (a page: its number and file offset).
"""
import hashlib
import struct
import sys

CPU = {0x0100000C: "arm64", 0x01000007: "x86_64"}
MIN_MACOS = {"arm64": ((11, 0, 0), "=="), "x86_64": ((10, 12, 0), "<=")}
LC_SEGMENT_64, LC_MAIN, LC_CODE_SIGNATURE = 0x19, 0x80000028, 0x1D
LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX = 0x32, 0x24
DYLIB_COMMANDS = {0xC: "LC_LOAD_DYLIB", 0x80000018: "LC_LOAD_WEAK_DYLIB", 0x8000001F: "LC_REEXPORT_DYLIB",
                  0x20: "LC_LAZY_LOAD_DYLIB", 0x80000023: "LC_LOAD_UPWARD_DYLIB"}
CSMAGIC_EMBEDDED_SIGNATURE, CSMAGIC_CODEDIRECTORY = 0xFADE0CC0, 0xFADE0C02
CSSLOT_CODEDIRECTORY, CSSLOT_ALTERNATE_CODEDIRECTORIES = 0, 0x1000
CS_ADHOC, CS_HASHTYPE_SHA256, CS_EXECSEG_MAIN_BINARY = 0x2, 2, 0x1


class Bad(Exception):
    """What is wrong with the binary."""


def version(packed):
    """macOS's xxxx.yy.zz nibble-packed version as a tuple."""
    return (packed >> 16, (packed >> 8) & 0xFF, packed & 0xFF)


def dotted(v):
    return ".".join(map(str, v if v[2] else v[:2]))


def load_commands(data):
    """(cmd, offset of the command, its bytes) for each load command of a 64-bit slice."""
    magic, cputype, _, filetype, ncmds, sizeofcmds, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    if magic != 0xFEEDFACF:
        raise Bad(f"not a 64-bit little-endian Mach-O (magic {magic:#x})")
    offset, commands = 32, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if size < 8 or offset + size > 32 + sizeofcmds:
            raise Bad(f"load command {cmd:#x} at {offset} overruns the header")
        commands.append((cmd, offset, data[offset:offset + size]))
        offset += size
    return cputype, filetype, commands


def minimum_macos(arch, commands):
    found = []
    for cmd, _, raw in commands:
        if cmd == LC_BUILD_VERSION:
            platform, minos = struct.unpack_from("<II", raw, 8)
            if platform != 1:
                raise Bad(f"LC_BUILD_VERSION is for platform {platform}, not macOS (1)")
            found.append(("LC_BUILD_VERSION", version(minos)))
        elif cmd == LC_VERSION_MIN_MACOSX:
            found.append(("LC_VERSION_MIN_MACOSX", version(struct.unpack_from("<I", raw, 8)[0])))
    if len(found) != 1:
        raise Bad(f"expected one minimum-version command, found {found}")
    (command, minos), (wanted, relation) = found[0], MIN_MACOS[arch]
    if not (minos == wanted if relation == "==" else minos <= wanted):
        raise Bad(f"{command} minos {dotted(minos)}, wanted {relation} {dotted(wanted)}")
    return f"{command} minos {dotted(minos)}"


def dylibs(commands):
    names = []
    for cmd, _, raw in commands:
        if cmd in DYLIB_COMMANDS:
            name_offset = struct.unpack_from("<I", raw, 8)[0]
            name = raw[name_offset:].split(b"\0", 1)[0].decode()
            if not name.startswith("/usr/lib/") or ".." in name:
                raise Bad(f"{DYLIB_COMMANDS[cmd]} {name}: not a system library under /usr/lib/")
            names.append(name)
    if not names:
        raise Bad("loads no dylib (libSystem is required on macOS)")
    return names


def segments(commands):
    found = {}
    for cmd, _, raw in commands:
        if cmd == LC_SEGMENT_64:
            name = raw[8:24].split(b"\0", 1)[0].decode()
            vmaddr, vmsize, fileoff, filesize = struct.unpack_from("<QQQQ", raw, 24)
            found[name] = (fileoff, filesize)
    return found


def check_code_directory(data, blob_offset, identifier, limit, text, special_blobs):
    """Checks one code directory at blob_offset of the slice; returns a description."""
    cd = data[blob_offset:]
    magic, length, cd_version, flags, hash_offset, ident_offset, n_special, n_code, code_limit, \
        hash_size, hash_type, _, page_shift = struct.unpack_from(">IIIIIIIIIBBBB", cd, 0)
    if magic != CSMAGIC_CODEDIRECTORY:
        raise Bad(f"code directory magic {magic:#x}")
    cd = cd[:length]
    if hash_type != CS_HASHTYPE_SHA256 or hash_size != 32:
        return None  # another digest (SHA-1) beside a SHA-256 one: not checked here
    name = cd[ident_offset:].split(b"\0", 1)[0].decode()
    if name != identifier:
        raise Bad(f"code directory identifier {name!r}, expected {identifier!r}")
    if not flags & CS_ADHOC:
        raise Bad(f"code directory flags {flags:#x}: not ad-hoc")
    if code_limit != limit:
        raise Bad(f"the signature covers {code_limit} bytes, the slice has {limit} before it")
    page = 1 << page_shift
    if n_code != -(-code_limit // page):
        raise Bad(f"{n_code} page hashes for {code_limit} bytes in pages of {page}")
    for number in range(n_code):
        start = number * page
        stored = cd[hash_offset + number * 32:hash_offset + (number + 1) * 32]
        if hashlib.sha256(data[start:min(start + page, code_limit)]).digest() != stored:
            raise Bad(f"page {number} (file offset {start:#x} of the slice) does not match its hash")
    for slot, blob in special_blobs.items():
        if slot > n_special:
            raise Bad(f"blob of special slot {slot} has no hash slot")
        stored = cd[hash_offset - slot * 32:hash_offset - (slot - 1) * 32]
        if hashlib.sha256(blob).digest() != stored:
            raise Bad(f"special slot {slot} does not match its blob")
    if cd_version < 0x20400:
        raise Bad(f"code directory version {cd_version:#x} has no executable segment (0x20400 has)")
    seg_base, seg_limit, seg_flags = struct.unpack_from(">QQQ", cd, 64)
    if (seg_base, seg_limit) != text or not seg_flags & CS_EXECSEG_MAIN_BINARY:
        raise Bad(f"executable segment {seg_base:#x}+{seg_limit:#x} flags {seg_flags:#x}, "
                  f"__TEXT is {text[0]:#x}+{text[1]:#x} of a main binary")
    return f"{n_code} pages of {page} B, SHA-256"


def signature(data, commands, identifier):
    found = [raw for cmd, _, raw in commands if cmd == LC_CODE_SIGNATURE]
    if len(found) != 1:
        raise Bad(f"{len(found)} LC_CODE_SIGNATURE commands, expected 1")
    dataoff, datasize = struct.unpack_from("<II", found[0], 8)
    seg = segments(commands)
    linkedit = seg.get("__LINKEDIT")
    if linkedit is None or dataoff + datasize > linkedit[0] + linkedit[1] or dataoff < linkedit[0]:
        raise Bad(f"the signature ({dataoff}+{datasize}) is not inside __LINKEDIT {linkedit}")
    if dataoff + datasize > len(data):
        raise Bad("the signature runs past the end of the slice")
    blob = data[dataoff:dataoff + datasize]
    magic, length, count = struct.unpack_from(">III", blob, 0)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE or length > datasize:
        raise Bad(f"signature super-blob magic {magic:#x}, length {length} of {datasize}")
    index = [struct.unpack_from(">II", blob, 12 + 8 * i) for i in range(count)]
    special = {}
    for slot, offset in index:
        if 1 <= slot < CSSLOT_ALTERNATE_CODEDIRECTORIES:
            size = struct.unpack_from(">I", blob, offset + 4)[0]
            special[slot] = blob[offset:offset + size]
    text = segments(commands).get("__TEXT")
    checked = [check_code_directory(data, dataoff + offset, identifier, dataoff, text, special)
               for slot, offset in index
               if slot == CSSLOT_CODEDIRECTORY or CSSLOT_ALTERNATE_CODEDIRECTORIES <= slot < 0x1005]
    checked = [c for c in checked if c]
    if not checked:
        raise Bad("no SHA-256 code directory")
    slots = f", special slots {sorted(special)} match" if special else ""
    return f"signed ad hoc as {identifier!r}, {'; '.join(checked)}: every page hash matches{slots}"


def check_slice(data, arch, identifier):
    cputype, filetype, commands = load_commands(data)
    if CPU.get(cputype) != arch:
        raise Bad(f"header CPU type {cputype:#x}, the fat header says {arch}")
    if filetype != 2:
        raise Bad(f"file type {filetype}, not MH_EXECUTE (2)")
    if not any(cmd == LC_MAIN for cmd, _, _ in commands):
        raise Bad("no LC_MAIN: no entry point")
    return (f"{minimum_macos(arch, commands)}; dylibs {', '.join(dylibs(commands))}; "
            f"{signature(data, commands, identifier)}")


def main():
    path, identifier = sys.argv[1:3]
    data = open(path, "rb").read()
    magic, count = struct.unpack_from(">II", data, 0)
    if magic != 0xCAFEBABE:
        sys.exit(f"{path}: not a universal binary (magic {magic:#x})")
    slices = {}
    for i in range(count):
        cputype, _, offset, size, _ = struct.unpack_from(">iiIII", data, 8 + 20 * i)
        arch = CPU.get(cputype, f"CPU {cputype:#x}")
        if arch in slices:
            sys.exit(f"{path}: two {arch} slices")
        slices[arch] = data[offset:offset + size]
    if sorted(slices) != ["arm64", "x86_64"]:
        sys.exit(f"{path}: slices {sorted(slices)}, expected arm64 and x86_64")
    for arch in ("arm64", "x86_64"):
        try:
            print(f"{arch}: {check_slice(slices[arch], arch, identifier)}")
        except (Bad, struct.error, UnicodeDecodeError) as error:
            sys.exit(f"{path}: {arch} slice: {error}")


if __name__ == "__main__":
    main()
