"""python-chess as the reader of `sp960 normalize`'s PGN, and as the oracle of the original.

usage: normalized_games.py ORIGINAL NORMALIZED

The original's games are read by python-chess in Chess960 as their producers meant them: the
test edits only their headers first (the Variant tag set to Chess960, a second FEN tag
dropped), so that python-chess does not fall back to standard chess on a spelling it does
not know. The normalized games are read as they are. Prints one JSON line per game pair:
plies, final FENs (Shredder), UCI moves (king takes rook) and python-chess's errors on the
normalized game; exits 1 when a pair differs or python-chess found an error.
"""

import io
import json
import re
import sys

import chess
import chess.pgn


def games(text):
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        yield game


def as_chess960(text):
    """The original's header blocks, Variant set to Chess960 and one FEN tag kept."""
    out = []
    seen_fen = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("[Event "):
            seen_fen = False
        if stripped.startswith("[FEN "):
            if seen_fen:
                continue
            seen_fen = True
        line = re.sub(r'^\[Variant "[^"]*"\]', '[Variant "Chess960"]', line)
        out.append(line)
    return "".join(out)


def summary(game):
    board = game.board()
    moves = []
    for move in game.mainline_moves():
        moves.append(board.uci(move, chess960=True))
        board.push(move)
    return {
        "plies": len(moves),
        "final": board.fen(shredder=True),
        "uci": moves,
        "errors": [str(error) for error in game.errors],
        "chess960": board.chess960,
    }


original = open(sys.argv[1], encoding="utf-8", newline="").read()
normalized = open(sys.argv[2], encoding="utf-8", newline="").read()
pairs = list(zip(games(as_chess960(original)), games(normalized)))
failed = len(pairs) != len(list(games(normalized))) or not pairs
for number, (before, after) in enumerate(pairs, 1):
    a, b = summary(before), summary(after)
    same = a["final"] == b["final"] and a["uci"] == b["uci"] and not b["errors"] and b["chess960"]
    failed |= not same or bool(a["errors"])
    print(json.dumps({"game": number, "same": same, "original": a, "normalized": b}))
sys.exit(1 if failed else 0)
