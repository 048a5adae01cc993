"""python-chess as an independent oracle of `sp960 book stats`.

usage: book_stats_oracle.py BOOK_OUT SEED

Writes a book to BOOK_OUT: random legal openings from random Chess960 and DFRC starts, as
FEN lines (move counters), EPD lines with `c0 "SP n: MOVES"` / `id` and a `ce`, the bare
starts, and some positions twice. Prints, as JSON, what `sp960 book stats --json` must say
of it, computed here from python-chess's own boards (`ce` is from the side to move's view;
`eval_white` negates it with black to move).
"""
import json
import math
import random
import sys

import chess

out, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)


def start_board(white, black):
    board = chess.Board.from_chess960_pos(white)
    if black != white:
        other = chess.Board.from_chess960_pos(black)
        for square in chess.SQUARES:
            if chess.square_rank(square) in (6, 7):
                board.set_piece_at(square, other.piece_at(square))
        board.set_castling_fen("KQkq")
        # X-FEN KQkq names the outermost rooks: the right rooks of a start.
    return board


def label(white, black):
    return f"SP {white}" if white == black else f"DFRC {white}:{black}"


lines, positions = [], []
per_start, evals, evals_white, depths = {}, [], [], []
white_to_move = black_to_move = 0
seen, duplicates = set(), 0
for index in range(60):
    white = rng.randrange(960)
    black = white if index % 3 else rng.randrange(960)
    board = start_board(white, black)
    plies = rng.randrange(0, 7)
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(board.uci(move, chess960=True))
        board.push(move)
    kind = index % 4
    if kind == 0 and moves:
        # A FEN line: counters give the plies; the start is unknown.
        text = board.fen(shredder=True)
        start = None
    elif kind == 1:
        ce = rng.randrange(-300, 301)
        evals.append(ce)
        evals_white.append(ce if board.turn == chess.WHITE else -ce)
        text = board.epd(shredder=True, c0=f"{label(white, black)}: {' '.join(moves)}", ce=ce)
        start = (white, black)
    else:
        text = board.epd(shredder=True, id=label(white, black))
        start = (white, black)
    if not moves:
        start = (white, black)  # an untouched start is known by its position
    key = board.epd(shredder=True, en_passant="legal")
    for copy in range(2 if index % 17 == 5 else 1):
        lines.append(text)
        if key in seen:
            duplicates += 1
        seen.add(key)
        if board.turn == chess.WHITE:
            white_to_move += 1
        else:
            black_to_move += 1
        if start is not None:
            per_start[start] = per_start.get(start, 0) + 1
        if kind == 0 and moves or kind == 1 or not moves:
            depths.append(len(moves))
        if copy == 1 and kind == 1:
            evals.append(ce)
            evals_white.append(ce if board.turn == chess.WHITE else -ce)

with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")

counts = sorted(per_start.values())


def distribution(values):
    values = sorted(values)
    rank = lambda p: values[max(1, math.ceil(len(values) * p / 100)) - 1]
    return {"count": len(values), "min": values[0], "q1": rank(25), "median": rank(50),
            "q3": rank(75), "max": values[-1]}


print(json.dumps({
    "total": len(lines),
    "white": white_to_move,
    "black": black_to_move,
    "min_depth": min(depths),
    "max_depth": max(depths),
    "unknown_depth": len(lines) - len(depths),
    "starts": len(per_start),
    "unknown_start": len(lines) - sum(counts),
    "per_start": {"min": counts[0], "median": counts[(len(counts) - 1) // 2], "max": counts[-1]},
    "duplicates": duplicates,
    "eval": distribution(evals),
    "eval_white": distribution(evals_white),
}))
