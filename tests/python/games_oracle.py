"""python-chess's reading of every game of a PGN file, in Chess960 mode: the oracle of
tests/games_parity.rs.

usage: games_oracle.py GAMES.pgn

Each game is read with chess.pgn.read_game. Its board is the game's FEN tag (or the standard
start without one) with chess960=True: a Variant tag that means Chess960 in any producer's
spelling (or means chess, or is missing) is read as Chess960, so that python-chess 1.11.2's own
list of spellings (it reads `chess-960` as an unknown variant and falls back to standard chess)
does not decide the rules. The mainline is replayed and variations parsed by python-chess.

Prints one JSON object per game, in file order:
  line   the game's first line (its first tag)
  ok     python-chess read it without an error (a bad FEN, an illegal, ambiguous or
         unreadable move anywhere, variations included)
  errors python-chess's messages
  plies  mainline moves replayed
  final  the Shredder-FEN of the mainline's last position (en passant only when legal)
  start  the start's number: "518", "W:B" for a double-FRC pair, null for a position that is
         no untouched start (the turn, castling rights and en passant checked; counters not)
"""

import bisect
import io
import json
import sys

import chess
import chess.pgn

# The Variant values read as Chess960 here (letters and digits only, lower case): sp960's
# Chess960 spellings and its spellings of standard chess (a standard start replays the same
# in Chess960 castling).
CHESS960 = {"chess960", "fischerandom", "fischerrandom", "frc", "960"}
STANDARD = {"", "standard", "normal", "chess", "fromposition"}

BACK_RANKS = {}


def back_rank(number):
    board = chess.Board.from_chess960_pos(number)
    return "".join(board.piece_at(chess.square(f, 0)).symbol() for f in range(8))


def key(variant):
    return "".join(c for c in variant.lower() if c.isalnum())


class Chess960Builder(chess.pgn.GameBuilder):
    """python-chess's own GameBuilder, told that the game is Chess960."""

    def end_headers(self):
        variant = key(self.game.headers.get("Variant", ""))
        if variant in CHESS960 or variant in STANDARD:
            self.game.headers["Variant"] = "Chess960"
        return super().end_headers()


def start_of(board):
    """The SP number, `W:B` for a double-FRC pair, or None."""
    number = board.chess960_pos()
    if number is not None:
        return str(number)
    if board.turn != chess.WHITE or board.ep_square is not None:
        return None
    if board.pawns != chess.BB_RANK_2 | chess.BB_RANK_7:
        return None
    if board.occupied != chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8:
        return None
    if board.clean_castling_rights() != board.rooks:
        return None
    white = "".join(board.piece_at(chess.square(f, 0)).symbol() for f in range(8))
    black = "".join(board.piece_at(chess.square(f, 7)).symbol().upper() for f in range(8))
    if white.isupper() and white in BACK_RANKS and black in BACK_RANKS:
        return f"{BACK_RANKS[white]}:{BACK_RANKS[black]}"
    return None


def main():
    for number in range(960):
        BACK_RANKS[back_rank(number)] = number
    with open(sys.argv[1], encoding="utf-8", errors="replace") as file:
        text = file.read()
    line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    handle = io.StringIO(text)
    out = sys.stdout
    while True:
        before = handle.tell()
        game = chess.pgn.read_game(handle, Visitor=Chess960Builder)
        if game is None:
            break
        first = text.find("[", before)
        line = bisect.bisect_right(line_starts, first) if first >= 0 else 0
        record = {"line": line, "ok": False, "errors": [str(e) for e in game.errors]}
        try:
            board = game.board()
        except ValueError as error:
            record["errors"].append(f"board: {error}")
        else:
            record["start"] = start_of(board)
            plies = 0
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
            record["plies"] = plies
            record["final"] = board.fen(shredder=True)
            record["ok"] = not record["errors"]
        out.write(json.dumps(record) + "\n")


main()
