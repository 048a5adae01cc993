#!/usr/bin/env python3
"""scripts/macho_sign.py against rcodesign (apple-codesign 0.29.0), the signer it replaced.

Usage: test_macho_sign.py ZIG_PYTHON LIPO

ZIG_PYTHON is the python of the venv scripts/release.sh installs PyPI's ziglang 0.17.0 into
(~/.cache/sp960-zig/bin/python); LIPO is Debian's llvm-lipo. For each macOS target, a small C
program is linked by zig as scripts/release.sh links sp960 (arm64 for macOS 11.0, which zig
signs ad hoc itself under the file's name; x86_64 for 10.12, which it leaves unsigned; stripped,
so no path of this machine is in it), then:
- the unsigned input must be the one rcodesign was run on (its SHA-256, recorded below): if
  zig's output changed, the comparison no longer says anything, and the test says so;
- macho_sign.py's output must be byte for byte the output of
  `rcodesign sign --binary-identifier sp960 INPUT OUTPUT`, recorded below (SHA-256), run on
  that input with rcodesign 0.29.0 built from crates.io (`cargo install apple-codesign
  --version 0.29.0 --no-default-features`);
- the two signed slices, joined by lipo, pass tests/python/check_macho.py;
- macho_sign.py refuses what it cannot sign: a universal binary, and a file that is not Mach-O.
Prints one line per check; exits 1 at the first failure.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SIGNER = os.path.join(HERE, "..", "..", "scripts", "macho_sign.py")
CHECKER = os.path.join(HERE, "check_macho.py")
PROGRAM = b"int main(void) { return 0; }\n"

# target: (zig -target, SHA-256 of zig's output, SHA-256 of rcodesign's signed output)
RECORDED = {
    "arm64": ("aarch64-macos.11.0", "892de72743bfc969616bc95a84695907925c93beeac4ec9d508bd33c00289346",
               "7e027cfa72d8b12720b24d8b78d9787589ddcf87c1211276b7a53e5307c3e565"),
    "x86_64": ("x86_64-macos.10.12", "1bf335aa09bc83fb5b56672ceac105cf64fec65a8fba5f5a2cdf687cfeb06a08",
                "bc62f552b1e536aa8129caea526da9b2740eb039a5c35f426786d0a064f800b3"),
}


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def fail(message):
    print(f"test_macho_sign: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    zig_python, lipo = sys.argv[1:3]
    work = tempfile.mkdtemp()
    source = os.path.join(work, "hello.c")
    open(source, "wb").write(PROGRAM)
    slices = []
    for arch, (target, input_sha, rcodesign_sha) in RECORDED.items():
        folder = os.path.join(work, arch)
        os.mkdir(folder)
        # The output's name is the identifier zig signs the arm64 slice with: always `hello`.
        binary = os.path.join(folder, "hello")
        subprocess.run([zig_python, "-m", "ziglang", "cc", "-target", target, "-O1", "-s", "-o", binary, source],
                       check=True, cwd=folder)
        got = sha256(binary)
        if got != input_sha:
            fail(f"{arch}: zig linked {got}, not the input rcodesign was run on ({input_sha}): "
                 "record the input and rcodesign's output again (this file's docstring says how)")
        subprocess.run([sys.executable, SIGNER, binary, "sp960"], check=True)
        got = sha256(binary)
        if got != rcodesign_sha:
            fail(f"{arch}: macho_sign.py wrote {got}, rcodesign 0.29.0 wrote {rcodesign_sha}")
        print(f"test_macho_sign: {arch} ({target}): macho_sign.py's bytes are rcodesign's ({got[:16]}...)")
        slices.append(binary)
    universal = os.path.join(work, "universal")
    subprocess.run([lipo, "-create", "-output", universal, *slices], check=True)
    checked = subprocess.run([sys.executable, CHECKER, universal, "sp960"], capture_output=True, text=True)
    if checked.returncode != 0:
        fail(f"check_macho.py on the two signed slices: {checked.stderr.strip()}")
    print("test_macho_sign: check_macho.py reads both slices back: " + " / ".join(checked.stdout.split("\n")[:2]))
    for what, path in (("a universal binary", universal), ("a file that is not Mach-O", source)):
        refused = subprocess.run([sys.executable, SIGNER, path, "sp960"], capture_output=True, text=True)
        if refused.returncode != 1 or "macho_sign.py:" not in refused.stderr:
            fail(f"macho_sign.py on {what}: exit {refused.returncode}, {refused.stderr.strip()!r}")
        print(f"test_macho_sign: refuses {what}: {refused.stderr.strip().split(': ', 2)[-1]}")


main()
