"""python-chess (and a UCI engine through it) as the oracle of a generated book.

usage:
  book_proof.py records BOOK.epd
      Every record: `id` and `c0` name the same start; the c0 moves, applied one by one to
      that start (built here by python-chess: chess.Board.from_chess960_pos, black's back
      rank from its own SP for DFRC) are legal in Chess960 and give the record's four fields
      (Shredder castling, en passant only when legal), its hmvc and fmvn. Prints, per record,
      the label and the start's FEN (for `sp960 identify`), tab-separated.
  book_proof.py pgn BOOK.pgn BOOK.epd
      Game i of the PGN book replays from its FEN tag to record i of the EPD book.
  book_proof.py reeval BOOK.epd ENGINE NODES LO HI
      Each record re-searched by ENGINE (Threads=1, UCI_Chess960, a new game each: cleared
      hash) from its start and moves at NODES nodes; prints JSON: the records, how many
      evaluations (from White's side) lie in LO..HI, the largest distance outside, and how
      many equal the record's `ce` exactly.
  book_proof.py games GAMES.pgn BOOK FORMAT
      Games a runner played from BOOK (epd or pgn): every game legal from its FEN tag, its
      FEN (EPD book) or its FEN plus the opening's moves (PGN book) is an opening of the
      book, and each opening is played twice with the engines' colours swapped. Prints JSON.
Exits 1 with a message on the first problem.
"""
import collections
import json
import re
import sys

import chess
import chess.engine
import chess.pgn


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def start_board(label):
    kind, number = label.split(" ", 1)
    if kind == "SP":
        return chess.Board.from_chess960_pos(int(number))
    if kind != "DFRC":
        fail(f"unknown start label {label!r}")
    white, black = (int(n) for n in number.split(":"))
    board = chess.Board.from_chess960_pos(white)
    other = chess.Board.from_chess960_pos(black)
    for square in chess.SQUARES:
        if chess.square_rank(square) in (6, 7):
            board.set_piece_at(square, other.piece_at(square))
    rooks = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    board.castling_rights = rooks
    return board


def operand(epd, opcode):
    match = re.search(rf'(?:^|; ){opcode} ("[^"]*"|[^;]*);', epd)
    if not match:
        return None
    value = match.group(1)
    return value[1:-1] if value.startswith('"') else value


def read_epd(path):
    records = []
    with open(path) as book:
        for number, line in enumerate(book, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split(" ", 4)
            records.append((number, " ".join(fields[:4]), fields[4] if len(fields) > 4 else ""))
    return records


def replay(number, position, ops):
    label = operand(ops, "id")
    c0 = operand(ops, "c0")
    if label is None or c0 is None:
        fail(f"line {number}: no id or c0")
    c0_label, _, moves = c0.partition(": ")
    if c0_label != label:
        fail(f"line {number}: c0 names {c0_label!r}, id {label!r}")
    board = start_board(label)
    start_fen = board.fen(shredder=True)
    for uci in moves.split():
        move = board.parse_uci(uci)  # raises on an illegal move
        if move not in board.legal_moves:
            fail(f"line {number}: {uci} is not legal in {board.fen()}")
        board.push(move)
    got = board.epd(shredder=True, en_passant="legal")
    if got != position:
        fail(f"line {number}: the moves give {got!r}, the record says {position!r}")
    if int(operand(ops, "hmvc")) != board.halfmove_clock:
        fail(f"line {number}: hmvc {operand(ops, 'hmvc')} != {board.halfmove_clock}")
    if int(operand(ops, "fmvn")) != board.fullmove_number:
        fail(f"line {number}: fmvn {operand(ops, 'fmvn')} != {board.fullmove_number}")
    return label, start_fen, board, moves.split()


def records(path):
    for number, position, ops in read_epd(path):
        label, start_fen, _, _ = replay(number, position, ops)
        print(f"{label}\t{start_fen}")


def pgn(pgn_path, epd_path):
    expected = read_epd(epd_path)
    games = 0
    with open(pgn_path) as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                fail(f"game {games + 1}: {game.errors}")
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            if games >= len(expected):
                fail("the PGN book has more games than the EPD book has records")
            if board.epd(shredder=True, en_passant="legal") != expected[games][1]:
                fail(f"game {games + 1} ends in {board.epd(shredder=True)}, record {expected[games][1]}")
            games += 1
    if games != len(expected):
        fail(f"{games} games, {len(expected)} records")
    print(games)


def reeval(path, engine_path, nodes, low, high):
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    engine.configure({"Threads": 1})
    inside = exact = 0
    worst = 0
    scores = []
    for number, position, ops in read_epd(path):
        label, start_fen, board, moves = replay(number, position, ops)
        root = start_board(label)
        for uci in moves:
            root.push(root.parse_uci(uci))
        info = engine.analyse(root, chess.engine.Limit(nodes=nodes), game=object())
        white = info["score"].white().score()
        ce = int(operand(ops, "ce"))
        ce_white = ce if board.turn == chess.WHITE else -ce
        if not low <= ce_white <= high:
            fail(f"line {number}: ce {ce} (White {ce_white}) is outside {low},{high}")
        scores.append([ce_white, white])
        if white is not None and low <= white <= high:
            inside += 1
        elif white is not None:
            worst = max(worst, low - white, white - high)
        exact += white == ce_white
    engine.quit()
    print(json.dumps({"records": len(scores), "in_window": inside, "exact": exact,
                      "worst_outside": worst, "scores": scores}))


def games(games_path, book_path, fmt):
    if fmt == "epd":
        openings = {position: [] for _, position, _ in read_epd(book_path)}
    else:
        openings = {}
        with open(book_path) as handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                board = game.board()
                moves = list(game.mainline_moves())
                for move in moves:
                    board.push(move)
                openings[(game.board().fen(shredder=True), tuple(m.uci() for m in moves))] = []
    played = collections.defaultdict(list)
    count = 0
    with open(games_path) as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            count += 1
            fen = game.headers.get("FEN")
            if not fen or game.errors:
                fail(f"game {count}: no FEN tag or errors {game.errors}")
            board = chess.Board(fen, chess960=True)
            moves = []
            for move in game.mainline_moves():
                if move not in board.legal_moves:
                    fail(f"game {count}: illegal {move} in {board.fen()}")
                moves.append(move.uci())
                board.push(move)
            if fmt == "epd":
                key = chess.Board(fen, chess960=True).epd(shredder=True, en_passant="legal")
            else:
                key = next((k for k in openings
                            if chess.Board(k[0], chess960=True).epd(shredder=True) ==
                            chess.Board(fen, chess960=True).epd(shredder=True)
                            and tuple(moves[:len(k[1])]) == k[1]), None)
            if key not in openings:
                fail(f"game {count}: FEN {fen} with moves {moves[:8]} is no opening of the book")
            played[key].append((game.headers["White"], game.headers["Black"]))
    both = all(len(p) == 2 and p[0] == (p[1][1], p[1][0]) for p in played.values())
    print(json.dumps({"games": count, "openings": len(openings), "played": len(played),
                      "both_colours": both}))


command = sys.argv[1]
if command == "records":
    records(sys.argv[2])
elif command == "pgn":
    pgn(sys.argv[2], sys.argv[3])
elif command == "reeval":
    reeval(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
elif command == "games":
    games(sys.argv[2], sys.argv[3], sys.argv[4])
else:
    fail(f"unknown command {command}")
