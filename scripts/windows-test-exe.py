#!/usr/bin/env python3
"""The Windows test executables scripts/build-windows.sh built, read from cargo's artifact
messages (its windows-tests.json).

  windows-test-exe.py JSON SUITE   the executable of SUITE (`lib`: the library's unit tests;
                                   else tests/SUITE.rs)
  windows-test-exe.py JSON         the suites built, one a line (tests/*.rs names)
"""
import json
import sys


def artifacts(path):
    for line in open(path):
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            yield message["target"], message["executable"]


def main():
    path = sys.argv[1]
    if len(sys.argv) == 2:
        names = sorted({t["name"] for t, _ in artifacts(path) if t["kind"] == ["test"]})
        print("\n".join(names))
        return
    suite = sys.argv[2]
    found = [exe for t, exe in artifacts(path)
             if (t["kind"] == ["lib"] if suite == "lib" else
                 t["kind"] == ["test"] and t["name"] == suite)]
    if found:
        print(found[-1])


main()
