"""python-chess's verdict on each line of a FEN/EPD file, for tests/python_parity.rs.

Usage: python3 oracle.py FILE [chess960|standard]
Prints one character per line of FILE: '.' not a record (blank, comment), '1' valid,
'0' invalid, 'D' a documented difference (python-chess accepts, sp960 refuses on purpose;
README.md lists them).

The record shape is sp960's (README, "sp960 validate"): fields separated by spaces or tabs;
four position fields, then either two move counters (a FEN) or EPD operations. The
position itself is judged by python-chess alone: chess.Board(fen, chess960=...).is_valid().
"""

import re
import sys

import chess

OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def operations_ok(ops):
    """sp960's EPD operation syntax: `opcode operand...;`, last `;` optional."""
    i, expect_opcode = 0, True
    while i < len(ops):
        c = ops[i]
        if c in " \t":
            i += 1
        elif c == ";":
            expect_opcode, i = True, i + 1
        elif expect_opcode:
            m = OPCODE.match(ops, i)
            if not m:
                return False
            i = m.end()
            if i < len(ops) and ops[i] not in " \t;":
                return False
            expect_opcode = False
        elif c == '"':
            end = ops.find('"', i + 1)
            if end < 0:
                return False
            i = end + 1
        else:
            while i < len(ops) and ops[i] not in " \t;":
                i += 1
    return True


def python_int(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


def documented_difference(fen, board):
    """python-chess accepts these on purpose or by accident; sp960 does not."""
    fields = fen.split(" ")
    # Counters Python's int() reads but that are not plain digits ("-0", "+1", "1_0").
    for counter in fields[4:6]:
        if not (counter.isascii() and counter.isdigit()) and python_int(counter) and int(counter) >= 0:
            return True
    # A Q/q right when the side has a king but no rook at all on its back rank: python-chess
    # drops it silently (lsb(0) is -1); sp960 reports a right with no rook.
    for flag in fields[2] if len(fields) > 2 and fields[2] != "-" else "":
        color = flag.isupper()
        rooks = board.pieces_mask(chess.ROOK, color) & (chess.BB_RANK_1 if color else chess.BB_RANK_8)
        if flag.lower() == "q" and board.king(color) is not None and not rooks:
            return True
    return False


def verdict(line, chess960):
    line = line.rstrip("\r")
    stripped = line.strip(" \t")
    if not stripped or stripped.startswith("#"):
        return "."
    fields = re.split(r"[ \t]+", stripped)
    if len(fields) < 4:
        return "0"
    rest = fields[4:]
    # Offsets: the operations start at the fifth field.
    fifth_start = None
    if rest:
        fifth_start = re.match(r"(?:[^ \t]+[ \t]+){4}", stripped).end()
    counters = (
        0 < len(rest) <= 2
        and ";" not in stripped[fifth_start:]
        and any(f.isascii() and f.isdigit() for f in rest)
    )
    if counters:
        if len(rest) == 1:
            return "0"
        fen = " ".join(fields)
    else:
        if rest and not operations_ok(stripped[fifth_start:]):
            return "0"
        fen = " ".join(fields[:4])
    if any(ord(c) < 0x20 or ord(c) == 0x7F or ord(c) > 0x7E for c in fen):
        return "0"
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError:
        board = None
    if board is not None and board.is_valid():
        return "D" if documented_difference(fen, board) else "1"
    return "0"


def main():
    path = sys.argv[1]
    chess960 = (sys.argv[2] if len(sys.argv) > 2 else "chess960") == "chess960"
    with open(path, encoding="utf-8", newline="\n") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sys.stdout.write("".join(verdict(line, chess960) for line in lines))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
