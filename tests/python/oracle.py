"""python-chess's verdict on each line of a FEN/EPD file, for tests/python_parity.rs.

Usage: python3 oracle.py FILE [chess960|standard]
Prints one character per line of FILE: '.' not a record (blank, comment), '1' valid,
'0' invalid, 'D' a documented difference (python-chess accepts, sp960 refuses on purpose;
README.md lists them).

The record shape is sp960's (README, "sp960 validate"): fields separated by spaces or tabs;
four position fields, then either two move counters (a FEN), EPD operations, or two counters
and then operations (as perft suites write them). The position itself is judged by
python-chess alone: chess.Board(fen, chess960=...).is_valid(); then, as `sp960 validate`
does by default, what the operations say about it: the moves of bm, am and sm legal there,
pv a legal line, perft counts (D1 20) right up to depth 4.
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


def operations(ops):
    """(opcode, [operand, ...]) for each operation; a quoted operand keeps its quotes."""
    result, i = [], 0
    while i < len(ops):
        if ops[i] in " \t;":
            i += 1
            continue
        m = OPCODE.match(ops, i)
        opcode, i, operands = m.group(0), m.end(), []
        while True:
            while i < len(ops) and ops[i] in " \t":
                i += 1
            if i >= len(ops) or ops[i] == ";":
                break
            if ops[i] == '"':
                end = ops.find('"', i + 1)
                operands.append(ops[i:end + 1])
                i = end + 1
            else:
                start = i
                while i < len(ops) and ops[i] not in " \t;":
                    i += 1
                operands.append(ops[start:i])
        result.append((opcode, operands))
    return result


def move(board, text):
    """`text` (UCI or SAN, perhaps quoted) as a legal move in `board`, or None."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbnk]?", text):
        # sp960's precedence: king takes rook, a plain move, king to its castling square.
        legal = {}
        for m in board.legal_moves:
            if board.is_castling(m):
                file = chess.FILE_NAMES[6 if m.to_square > m.from_square else 2]
                rank = chess.square_name(m.from_square)[1]
                legal[chess.square_name(m.from_square) + file + rank] = m
        legal.update({m.uci(): m for m in board.legal_moves})
        legal.update({board.uci(m, chess960=True): m for m in board.legal_moves})
        return legal.get(text)
    try:
        m = board.parse_san(text)
    except ValueError:
        return None
    # python-chess reads `--` and `0000` as the null move; sp960 plays no null move.
    return m if m else None


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    count = 0
    for m in list(board.legal_moves):
        board.push(m)
        count += perft(board, depth - 1)
        board.pop()
    return count


def operations_true(board, ops, perft_depth=4):
    """What sp960 validate checks of the operations holds in `board`."""
    for opcode, operands in operations(ops):
        if opcode in ("bm", "am", "sm"):
            if not operands or any(move(board, text) is None for text in operands):
                return False
        elif opcode == "pv":
            line = board.copy()
            for text in operands:
                m = move(line, text)
                if m is None:
                    return False
                line.push(m)
            if not operands:
                return False
        elif re.fullmatch(r"D[0-9]+", opcode):
            depth = int(opcode[1:])
            if not 1 <= depth <= 15 or len(operands) != 1 or not operands[0].isdigit():
                return False
            if depth <= perft_depth and perft(board, depth) != int(operands[0]):
                return False
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
    counters_then_operations = len(rest) > 2 and all(
        f.isascii() and f.isdigit() for f in rest[:2]
    )
    ops = ""
    if counters_then_operations:
        ops = stripped[re.match(r"(?:[^ \t]+[ \t]+){6}", stripped).end():]
        if not operations_ok(ops):
            return "0"
        fen = " ".join(fields[:6])
    elif counters:
        if len(rest) == 1:
            return "0"
        fen = " ".join(fields)
    else:
        if rest and not operations_ok(stripped[fifth_start:]):
            return "0"
        ops = stripped[fifth_start:] if rest else ""
        fen = " ".join(fields[:4])
    if any(ord(c) < 0x20 or ord(c) == 0x7F or ord(c) > 0x7E for c in fen):
        return "0"
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError:
        board = None
    if board is not None and board.is_valid():
        if documented_difference(fen, board):
            return "D"
        return "1" if operations_true(board, ops) else "0"
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
