"""`sp960 engine` against real peers: python-chess as the GUI (UCI and XBoard) and as the
legality oracle, Stockfish as opponent and as the judge of mates.

Usage: python3 engine_peers.py CASE SP960_BINARY [STOCKFISH]
Every case raises (exit status 1) on failure; python-chess itself rejects any illegal move
an engine sends (EngineError).
"""

import random
import sys

import chess
import chess.engine

SP960 = sys.argv[2]
STOCKFISH = sys.argv[3] if len(sys.argv) > 3 else "/usr/games/stockfish"
TIMEOUT = 20.0


def sp960_uci():
    engine = chess.engine.SimpleEngine.popen_uci([SP960, "engine"], timeout=TIMEOUT)
    assert engine.id["name"].startswith("sp960"), engine.id
    return engine


def sp960_xboard():
    engine = chess.engine.SimpleEngine.popen_xboard([SP960, "engine"], timeout=TIMEOUT)
    assert engine.id["name"] == "sp960", engine.id
    return engine


def start_board(sp):
    board = chess.Board.from_chess960_pos(sp)
    assert board.chess960
    return board


def play_game(board, white, black, limits, max_plies=120):
    """Plays until the game ends or max_plies; returns the board. python-chess raises on
    any illegal move."""
    players = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = players[board.turn]
        result = engine.play(board, limits[board.turn], info=chess.engine.INFO_SCORE)
        assert result.move is not None, f"no move in {board.fen()}"
        assert board.is_legal(result.move), f"illegal {result.move} in {board.fen()}"
        board.push(result.move)
    return board


def castlings(board, color):
    replay = board.root()
    count = 0
    for move in board.move_stack:
        if replay.turn == color and replay.is_castling(move):
            count += 1
        replay.push(move)
    return count


def uci_vs_stockfish():
    ours, stockfish = sp960_uci(), chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=TIMEOUT)
    stockfish.configure({"Threads": 1, "Hash": 16})
    plies = 0
    try:
        for sp in (0, 518, 860, 959):
            for ours_white in (True, False):
                board = start_board(sp)
                white, black = (ours, stockfish) if ours_white else (stockfish, ours)
                limits = {
                    chess.WHITE: chess.engine.Limit(depth=3 if ours_white else 1),
                    chess.BLACK: chess.engine.Limit(depth=1 if ours_white else 3),
                }
                board = play_game(board, white, black, limits, max_plies=80)
                plies += board.ply()
        # A classic game on a standard board: UCI_Chess960 off, castling as e1g1.
        board = chess.Board()
        board = play_game(board, ours, ours, {c: chess.engine.Limit(nodes=300) for c in chess.COLORS}, 60)
        plies += board.ply()
    finally:
        ours.quit()
        stockfish.quit()
    assert plies >= 200, plies
    print(f"uci_vs_stockfish: {plies} plies, all legal")


def uci_castles_by_itself():
    """Positions where castling is the only mate: the engine must play it, in the
    notation python-chess manages (UCI_Chess960 on for Chess960 boards)."""
    ours = sp960_uci()
    try:
        for fen, expected in (
            ("3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1", "c1a1"),  # O-O-O, the king stays on c1
            ("5k2/4R1R1/8/8/8/8/7P/6KR w H - 0 1", "g1h1"),  # O-O, the king stays on g1
        ):
            board = chess.Board(fen, chess960=True)
            result = ours.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_SCORE)
            assert result.move == chess.Move.from_uci(expected), (fen, result.move)
            board.push(result.move)
            assert board.is_checkmate(), fen
            assert result.info["score"].relative == chess.engine.Mate(1), result.info
    finally:
        ours.quit()
    print("uci_castles_by_itself: castling mates found")


def xboard_games():
    ours_xb, ours_uci = sp960_xboard(), sp960_uci()
    stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=TIMEOUT)
    stockfish.configure({"Threads": 1, "Hash": 16})
    plies = 0
    try:
        for sp, limit in (
            (860, chess.engine.Limit(depth=2)),
            (0, chess.engine.Limit(time=0.05)),
            (959, chess.engine.Limit(nodes=300)),
        ):
            board = start_board(sp)
            board = play_game(board, ours_xb, stockfish, {chess.WHITE: limit, chess.BLACK: chess.engine.Limit(depth=1)}, 60)
            plies += board.ply()
        # XBoard against UCI, both ours, on a clock (level/time/otim vs wtime/btime).
        board = start_board(518)
        clock = chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05)
        board = play_game(board, ours_uci, ours_xb, {chess.WHITE: clock, chess.BLACK: clock}, 40)
        plies += board.ply()
        # The castling mate through XBoard: O-O-O must come back as a legal castle.
        board = chess.Board("3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1", chess960=True)
        result = ours_xb.play(board, chess.engine.Limit(depth=3))
        assert board.is_castling(result.move), result.move
    finally:
        ours_xb.quit()
        ours_uci.quit()
        stockfish.quit()
    assert plies >= 120, plies
    print(f"xboard_games: {plies} plies, all legal")


# Mates in one and two (Stockfish confirms each), Chess960 castling mates among them.
MATES = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "1k6/8/1K6/8/8/8/8/5R2 w - - 0 1",
    "3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1",
    "5k2/4R1R1/8/8/8/8/7P/6KR w H - 0 1",
    "k7/8/2K5/8/8/8/8/7R w - - 0 1",
    "7r/8/8/8/8/2k5/8/K7 b - - 0 1",
    "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
]


def mates_against_stockfish():
    ours = sp960_uci()
    stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=TIMEOUT)
    found = {1: 0, 2: 0}
    try:
        for fen in MATES:
            board = chess.Board(fen, chess960=True)
            oracle = stockfish.analyse(board, chess.engine.Limit(depth=14))["score"].relative
            assert oracle.is_mate() and oracle.mate() in (1, 2), (fen, oracle)
            n = oracle.mate()
            result = ours.play(board, chess.engine.Limit(depth=2 * n + 1), info=chess.engine.INFO_SCORE)
            assert result.info["score"].relative == chess.engine.Mate(n), (fen, result.info)
            board.push(result.move)
            if n == 1:
                assert board.is_checkmate(), (fen, result.move)
            else:
                after = stockfish.analyse(board, chess.engine.Limit(depth=14))["score"].relative
                assert after == chess.engine.Mate(-1), (fen, result.move, after)
            found[n] += 1
    finally:
        ours.quit()
        stockfish.quit()
    print(f"mates_against_stockfish: mates in one and two found: {found}")


def beats_random_mover():
    rng = random.Random(960)
    ours = sp960_uci()
    score = {"win": 0, "draw": 0, "loss": 0}
    try:
        for game in range(10):
            board = start_board(rng.randrange(960))
            ours_color = chess.WHITE if game % 2 == 0 else chess.BLACK
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                if board.turn == ours_color:
                    move = ours.play(board, chess.engine.Limit(depth=3)).move
                else:
                    move = rng.choice(list(board.legal_moves))
                board.push(move)
            outcome = board.outcome(claim_draw=True)
            if outcome is None or outcome.winner is None:
                score["draw"] += 1
            elif outcome.winner == ours_color:
                score["win"] += 1
            else:
                score["loss"] += 1
    finally:
        ours.quit()
    print(f"beats_random_mover: {score}")
    assert score["loss"] == 0 and score["win"] >= 8, score


CASES = {
    name: function
    for name, function in globals().items()
    if name in ("uci_vs_stockfish", "uci_castles_by_itself", "xboard_games", "mates_against_stockfish", "beats_random_mover")
}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
