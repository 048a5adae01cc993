"""Replays every game of an `sp960 match` PGN with python-chess (the oracle) and checks
that each move is legal, PlyCount is right and the result agrees with the final board.
Prints one JSON object per game; exits 1 with a message on the first problem."""
import json
import re
import sys

import chess
import chess.pgn


# A move's comment as sp960 match writes it (fastchess's): score/depth time, or `book` for
# an opening's move.
EVAL = re.compile(r"^(book|([+-]?(\d+\.\d\d|M\d+))?/\d+ \d+\.\d{3}s)")


def fail(game, message):
    print(f"round {game.headers.get('Round')}: {message}", file=sys.stderr)
    sys.exit(1)


def main(path):
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            headers = game.headers
            if game.errors:
                fail(game, f"python-chess could not replay: {game.errors}")
            for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result",
                        "Variant", "SetUp", "FEN", "PlyCount", "Termination", "TimeControl"):
                if tag not in headers:
                    fail(game, f"no {tag} tag")
            if headers["Variant"] != "Chess960" or headers["SetUp"] != "1":
                fail(game, "not tagged as a Chess960 setup")
            board = game.board()
            if not board.chess960:
                fail(game, "python-chess did not read a Chess960 board")
            plies = 0
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    fail(game, f"illegal move {move} in {board.fen()}")
                board.push(move)
                plies += 1
            if plies != int(headers["PlyCount"]):
                fail(game, f"PlyCount {headers['PlyCount']} but {plies} moves")
            result, termination = headers["Result"], headers["Termination"]
            if termination == "normal":
                if board.is_checkmate():
                    expected = "0-1" if board.turn == chess.WHITE else "1-0"
                elif (board.is_stalemate() or board.is_insufficient_material()
                      or board.halfmove_clock >= 100 or board.is_repetition(3)):
                    expected = "1/2-1/2"
                else:
                    fail(game, f"'normal' end but the board is not over: {board.fen()}")
                if result != expected:
                    fail(game, f"result {result} but the board says {expected}")
            elif termination == "adjudication":
                # --max-plies and --draw adjudicate draws; only --resign gives a winner.
                if result != "1/2-1/2" and "wins by adjudication" not in game.end().comment:
                    fail(game, f"adjudicated {result}")
            elif result not in ("1-0", "0-1", "1/2-1/2"):
                fail(game, f"result {result}")
            evals = []
            for node in game.mainline():
                found = EVAL.match(node.comment)
                if not found:
                    fail(game, f"move {node.move} without a score/depth time comment: {node.comment!r}")
                evals.append(found.group(0))
            # python-chess joins the last move's comment and the reason with a space.
            reason = game.end().comment
            if evals:
                reason = reason[len(evals[-1]):].lstrip()
            print(json.dumps({
                "evals": evals,
                "time_control": time_control(game),
                "round": int(headers["Round"]),
                "fen": headers["FEN"],
                "white": headers["White"],
                "black": headers["Black"],
                "result": result,
                "termination": termination,
                "comment": reason,
                "plies": plies,
            }))


def time_control(game):
    """The TimeControl tag as python-chess parses it: None for '-' (no clock), else
    [[moves, seconds, increment], ...]. A sub-second base, which PGN cannot express
    and sp960 writes as a decimal (as cutechess does), is returned as the text."""
    tag = game.headers["TimeControl"]
    try:
        control = game.time_control()
    except ValueError as error:
        base = tag.split("/")[-1].split("+")[0]
        if "." in base:
            return tag
        fail(game, f"python-chess cannot read [TimeControl \"{tag}\"]: {error}")
    if control.type == chess.pgn.TimeControlType.UNLIMITED:
        return None
    return [[part.moves, part.time, part.increment] for part in control.parts]


main(sys.argv[1])
