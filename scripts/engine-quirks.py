#!/usr/bin/env python3
"""Which malformed GUI commands crash a real engine or make it never answer (issue 14, "Why").

Drives each engine directly (no proxy), one fresh engine process per case: handshake, the
case's lines, then the answer the protocol promises (`bestmove` after a UCI `go`, a `move`
after an XBoard `go`), then a liveness probe (`isready` -> `readyok`, `ping N` -> `pong N`).
Each case ends as one of:

  OK       every expected answer came within the bound (the answer is shown)
  HANG     no expected answer within --bound seconds while the engine lives; the script then
           sends `stop` (UCI) or `?` (XBoard) and says whether that brought the answer
  CRASH    the engine exited (exit code, or the signal that killed it)

Bounded time: every wait has a bound (--bound, default 4 s) and every engine is killed at the
end of its case. Usage:

  scripts/engine-quirks.py [--engine NAME ...] [--case SUBSTRING] [--bound S] [--markdown FILE]

With --markdown FILE the table is written in Markdown (docs/engine-quirks.md is its output);
without it, lines are printed as the cases finish. Run it under `nice -n 15`.
"""

from __future__ import annotations

import argparse

import chess
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

BIG = "9223372036854775808"  # 2^63
BIG64 = "18446744073709551616"  # 2^64
MOVE = "MOVE:"  # XBoard case lines: a move, sent as `usermove X` to engines that asked for it
SP860 = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1"
SP860_XFEN = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1"
# SP 860 after Ne3 Ne6 Ng3 Ng6 f3 f6 Bf2 Bf7: white may castle short (king c1, rook e1).
SP860_READY_MOVES = "d1e3 d8e6 f1g3 f8g6 f2f3 f7f6 g1f2 g8f7"
# SP 860 after Ne3 Ne6 a3 a6 Ba2 Ba7: white may castle long (king stays on c1, rook a1 to d1).
SP860_LONG_MOVES = "d1e3 d8e6 a2a3 a7a6 b1a2 b8a7"
STD_READY = "r3k2r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R3K2R w KQkq - 0 1"
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"  # black is mated
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


@dataclass
class EngineSpec:
    name: str
    cmd: list[str]
    protocol: str  # "uci" or "xboard"
    setup: list[str] = field(default_factory=list)  # sent after the handshake (UCI options)


ENGINES = [
    EngineSpec("stockfish", ["/usr/games/stockfish"], "uci"),
    EngineSpec("ethereal", ["/usr/games/ethereal-chess"], "uci"),
    EngineSpec("glaurung", ["/usr/games/glaurung"], "uci", ["setoption name Threads value 1"]),
    EngineSpec("fairy-stockfish", ["/usr/games/fairy-stockfish"], "uci"),
    EngineSpec("sjaakii-xb", ["/usr/games/sjaakii"], "xboard"),
    EngineSpec("fairy-stockfish-xb", ["/usr/games/fairy-stockfish"], "xboard"),
]


def knight_shuffle(n: int) -> str:
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    return " ".join(cycle[i % 4] for i in range(n))


def uci_cases() -> list[tuple[str, list[bytes | str]]]:
    """(label, lines). A `go` (not infinite/ponder) expects a `bestmove`; `isready` follows."""
    go = "go depth 4"
    c: list[tuple[str, list[bytes | str]]] = []

    def pos(label: str, fen_or_cmd: str, go_line: str = go, chess960: bool = False) -> None:
        lines: list[bytes | str] = []
        if chess960:
            lines.append("setoption name UCI_Chess960 value true")
        cmd = fen_or_cmd if fen_or_cmd.startswith("position") else f"position fen {fen_or_cmd}"
        lines += [cmd, go_line]
        c.append((label, lines))

    # --- positions
    pos("empty board", "8/8/8/8/8/8/8/8 w - - 0 1")
    pos("no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1")
    pos("no black king", "8/8/8/8/8/8/8/4K3 w - - 0 1")
    pos("two white kings", "4k3/8/8/8/8/8/8/3K1K2 w - - 0 1")
    pos("three kings each", "k1k1k3/8/8/8/8/8/8/K1K1K3 w - - 0 1")
    pos("white pawn on rank 8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    pos("black pawn on rank 1", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1")
    pos("pawns on both back ranks", "pppPk3/8/8/8/8/8/8/PPPpK3 w - - 0 1")
    pos("side not to move in check", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1")
    pos("kings adjacent", "8/8/8/8/8/3kK3/8/8 w - - 0 1")
    pos("castling rights, no rooks", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1")
    pos("castling rights, king off e1", "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1")
    pos("shredder rights, no rook on file", "4k3/8/8/8/8/8/8/4K3 w HAha - 0 1")
    pos("castling field garbage", "r3k2r/8/8/8/8/8/8/R3K2R w XYZxyz - 0 1")
    pos("impossible en passant e6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1")
    pos("en passant z9", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1")
    pos("side to move x", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
    pos("board field only", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    pos("9 ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("7 ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("rank of 9 squares", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("rank of 7 squares", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("unknown piece letter X", "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("digit 9 in rank", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos("position fen garbage", "position fen garbage")
    pos("position fen (no fen)", "position fen")
    pos("position (alone)", "position")
    pos("position moves e2e4 (no start)", "position moves e2e4")
    pos("halfmove clock 1000000", "4k3/8/8/8/8/8/8/R3K3 w - - 1000000 1")
    pos("halfmove clock -5", "4k3/8/8/8/8/8/8/R3K3 w - - -5 1")
    pos("fullmove 0 and 2^63", f"4k3/8/8/8/8/8/8/R3K3 w - - 0 {BIG}")
    pos("20 white queens", "4k3/8/8/4QQQQ/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1")
    pos("64 pieces (full board)", "rnbqkbnr/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/RNBQKBNR w - - 0 1")
    pos("checkmated side to move", MATED)
    pos("stalemated side to move", STALEMATE)
    pos("illegal move e2e5", "position startpos moves e2e5")
    pos("illegal move e1e8", "position startpos moves e1e8")
    pos("unreadable move xyz", "position startpos moves xyz")
    pos("move from empty square e3e4", "position startpos moves e3e4")
    pos("moving opponent's piece e7e5", "position startpos moves e7e5")
    pos("same move twice e2e4 e2e4", "position startpos moves e2e4 e2e4")
    pos("promotion suffix junk a2a3x", "position startpos moves a2a3x")
    pos("promotion to king", "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8k")
    pos("moves after mate", f"position fen {MATED[:-6]} w - - 0 1 moves g6h6 h8g8")
    pos("null move 0000 in list", "position startpos moves e2e4 0000 e4e5")
    pos("1001-ply knight shuffle (black to move)", f"position startpos moves {knight_shuffle(1001)}")
    pos("1527-ply knight shuffle (black to move)", f"position startpos moves {knight_shuffle(1527)}")
    pos("5000-ply knight shuffle", f"position startpos moves {knight_shuffle(5000)}")
    pos("100000-ply knight shuffle", f"position startpos moves {knight_shuffle(100000)}")
    pos("std castling e1g1 (UCI_Chess960 off)", f"position fen {STD_READY} moves e1g1")
    pos("king-takes-rook e1h1 (UCI_Chess960 off)", f"position fen {STD_READY} moves e1h1")
    pos("king-takes-rook e1h1 (UCI_Chess960 on)", f"position fen {STD_READY} moves e1h1", chess960=True)
    pos("king-two-squares e1g1 (UCI_Chess960 on)", f"position fen {STD_READY} moves e1g1", chess960=True)
    pos("SP 860 Shredder FEN, UCI_Chess960 off", f"position fen {SP860}")
    pos("SP 860 O-O as c1g1 (UCI_Chess960 on)", f"position fen {SP860} moves {SP860_READY_MOVES} c1g1", chess960=True)
    pos("SP 860 O-O as c1e1 (UCI_Chess960 off)", f"position fen {SP860_XFEN} moves {SP860_READY_MOVES} c1e1")
    pos("SP 860 O-O as c1e1 (UCI_Chess960 on)", f"position fen {SP860} moves {SP860_READY_MOVES} c1e1", chess960=True)
    pos("SP 860 O-O-O as c1c1 (UCI_Chess960 on)", f"position fen {SP860} moves {SP860_LONG_MOVES} c1c1", chess960=True)
    pos("SP 860 O-O-O as c1a1 (UCI_Chess960 on)", f"position fen {SP860} moves {SP860_LONG_MOVES} c1a1", chess960=True)
    pos("SP 860 O-O-O as c1a1 (UCI_Chess960 off)", f"position fen {SP860_XFEN} moves {SP860_LONG_MOVES} c1a1")
    # --- go parameters (on the start position)
    for g in [
        "go", "go depth 0", "go depth -1", f"go depth {BIG}", "go depth abc", "go depth",
        "go movetime 0", "go movetime -1", f"go movetime {BIG}", "go movetime abc",
        "go nodes 0", "go nodes -1", f"go nodes {BIG}", f"go nodes {BIG64}",
        "go wtime -1000 btime -1000", "go wtime 0 btime 0", "go wtime 0", "go btime 1000",
        f"go wtime {BIG} btime {BIG}", "go wtime abc btime abc", "go wtime 1000 winc -5000",
        "go wtime 1000 movestogo 0", "go wtime 1000 movestogo -1", f"go wtime 100 movestogo {BIG}",
        "go mate 0", "go mate -1", f"go mate {BIG}", "go mate 1",
        "go searchmoves e2e5", "go searchmoves xyz", "go searchmoves", "go searchmoves e1g1",
        "go depth 4 searchmoves e7e5", "go garbage", "go depth 4 garbage 7",
        "go perft 2", "go perft 0", "go perft -1",
    ]:
        c.append((g, ["position startpos", g]))
    c.append(("go infinite, no stop (by design)", ["position startpos", "go infinite"]))
    c.append(("go ponder, no ponderhit (by design)", ["position startpos moves e2e4", "go ponder wtime 1000 btime 1000"]))
    c.append(("go infinite, stop at once", ["position startpos", "go infinite", "stop"]))
    c.append(("go ponder, stop at once", ["position startpos moves e2e4", "go ponder wtime 1000 btime 1000", "stop"]))
    c.append(("go ponder, ponderhit at once", ["position startpos moves e2e4", "go ponder wtime 1000 btime 1000", "ponderhit"]))
    c.append(("go infinite, isready during the search, stop", ["position startpos", "go infinite", "isready", "WAIT:readyok", "stop"]))
    c.append(("go searchmoves e2e4 depth 2 (searchmoves not last)", ["position startpos", "go searchmoves e2e4 depth 2"]))
    c.append(("go depth 2 searchmoves (empty list)", ["position startpos", "go depth 2 searchmoves"]))
    c.append(("go winc 100 binc 100 (no wtime/btime)", ["position startpos", "go winc 100 binc 100"]))
    c.append(("go mate 2 depth 2", ["position startpos", "go mate 2 depth 2"]))
    c.append(("ucinewgame between position and go", ["position startpos moves e2e4", "ucinewgame", "go depth 4"]))
    c.append(("go depth 4 twice without waiting", ["position startpos", "go depth 4", "go depth 4"]))
    c.append(("go infinite then go depth 2", ["position startpos", "go infinite", "go depth 2"]))
    c.append(("position during go infinite, stop", ["position startpos", "go infinite", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "stop"]))
    c.append(("ucinewgame during go infinite, stop", ["position startpos", "go infinite", "ucinewgame", "stop"]))
    # --- setoption garbage, then a search
    for s in [
        "setoption name Hash value -1", "setoption name Hash value 0", f"setoption name Hash value {BIG}",
        "setoption name Hash value abc", "setoption name Threads value 0", "setoption name Threads value -1",
        "setoption name Threads value abc", "setoption name MultiPV value 0", "setoption name MultiPV value -3",
        "setoption name MultiPV value 1000", f"setoption name MultiPV value {BIG}",
        "setoption name Skill Level value -50",
        "setoption name Skill Level value 1000", "setoption name UCI_Elo value -1",
        "setoption name UCI_LimitStrength value maybe", "setoption name UCI_Chess960 value maybe",
        "setoption name Move Overhead value -1000", "setoption name Move Overhead value 100000",
        "setoption name SyzygyPath value /nonexistent", "setoption name EvalFile value /nonexistent",
        "setoption name UCI_Variant value nonsense", "setoption name Clear Hash",
        "setoption name", "setoption", "setoption name Foo value bar", "setoption value 3",
    ]:
        c.append((s, [s, "position startpos", go]))
    c.append(("setoption EvalFile /nonexistent + go (2nd case)", ["setoption name Use NNUE value true", "setoption name EvalFile value /nonexistent", "isready", "position startpos", go]))
    # --- the rest
    c.append(("ponderhit without ponder", ["ponderhit"]))
    c.append(("ponderhit after go depth (finished)", ["position startpos", "go depth 1", "ponderhit"]))
    c.append(("stop without search", ["stop"]))
    c.append(("stop twice", ["stop", "stop"]))
    c.append(("ucinewgame, go without position", ["ucinewgame", go]))
    c.append(("empty line", [""]))
    c.append(("spaces and tabs", ["  \t  "]))
    c.append(("binary line (NUL, 0xff)", [b"\x00\x01\xff\xfe\x80position\x00startpos"]))
    c.append(("invalid UTF-8 in position fen", [b"position fen rnbqkbnr/pppp\xffppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", go]))
    c.append(("CR LF line ending", [b"position startpos moves e2e4\r", b"go depth 4\r"]))
    c.append(("1 MB line of 'a'", ["a" * 1_000_000]))
    c.append(("1 MB go line (depth 4 + junk)", ["go depth 4 " + "x " * 500_000]))
    c.append(("1 MB position fen", ["position fen " + "8/" * 333_333, go]))
    return c


def xboard_cases() -> list[tuple[str, list[bytes | str]]]:
    """(label, lines). A `go` expects a `move` line; `ping 99` follows."""
    c: list[tuple[str, list[bytes | str]]] = []
    pre = ["new", "sd 4"]

    def sb(label: str, fen: str) -> None:
        c.append((label, pre + [f"setboard {fen}", "go"]))

    sb("setboard empty board", "8/8/8/8/8/8/8/8 w - - 0 1")
    sb("setboard no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1")
    sb("setboard two white kings", "4k3/8/8/8/8/8/8/3K1K2 w - - 0 1")
    sb("setboard white pawn on rank 8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    sb("setboard black pawn on rank 1", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1")
    sb("setboard side not to move in check", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1")
    sb("setboard castling rights, no rooks", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1")
    sb("setboard impossible en passant", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1")
    sb("setboard 9 ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    sb("setboard rank of 9 squares", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    sb("setboard garbage", "garbage")
    sb("setboard board field only", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    sb("setboard halfmove clock 1000000", "4k3/8/8/8/8/8/8/R3K3 w - - 1000000 1")
    sb("setboard 20 white queens", "4k3/8/8/4QQQQ/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1")
    sb("setboard 64 pieces", "rnbqkbnr/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/RNBQKBNR w - - 0 1")
    sb("setboard checkmated side to move", MATED)
    sb("setboard stalemated side to move", STALEMATE)
    c.append(("setboard (no fen)", pre + ["setboard", "go"]))
    c.append(("SP 860 setboard, variant fischerandom", pre + ["variant fischerandom", f"setboard {SP860}", "go"]))
    # moves (white to move after `new`; engine plays black after `go`)
    for label, moves in [
        ("illegal move e2e5", ["e2e5"]),
        ("move from empty square e3e4", ["e3e4"]), ("opponent's piece e7e5", ["e7e5"]),
        ("O-O at the start (illegal)", ["O-O"]), ("e1g1 at the start (illegal)", ["e1g1"]),
        ("promotion junk a2a3x", ["a2a3x"]), ("null move 0000", ["0000"]), ("@@@@", ["@@@@"]),
    ]:
        c.append((label, pre + ["force"] + [MOVE + m for m in moves] + ["go"]))
    for label, move in [("O-O", "O-O"), ("e1g1", "e1g1"), ("e1h1 (king takes rook)", "e1h1")]:
        c.append((f"standard castling {label}", pre + ["force", f"setboard {STD_READY}", MOVE + move, "go"]))
    for label, move in [("O-O", "O-O"), ("c1e1 (king takes rook)", "c1e1"), ("c1g1 (king to g1)", "c1g1")]:
        c.append((f"SP 860 castling {label}", pre + ["variant fischerandom", f"setboard {SP860}", "force"]
                  + [MOVE + m for m in SP860_READY_MOVES.split()] + [MOVE + move, "go"]))
    c.append(("500 moves knight shuffle", pre + ["force"] + [MOVE + m for m in knight_shuffle(500).split()] + ["go"]))
    c.append(("2000 moves knight shuffle", pre + ["force"] + [MOVE + m for m in knight_shuffle(2000).split()] + ["go"]))
    # time controls (no sd: the time decides)
    for tc in [
        ["level 0 0 0"], ["level -1 -1 -1"], ["level 40 0:-30 0"], ["level abc"], ["level"],
        [f"level {BIG} 1 1"], [f"level 40 {BIG} 0"], ["level 0 1 -5"],
        ["st 0"], ["st -1"], ["st abc"], [f"st {BIG}"], ["st"],
        ["sd 0"], ["sd -1"], ["sd abc"], ["sd 100000"],
        ["level 40 1 0", "time -1000", "otim -1000"], ["level 40 1 0", "time 0", "otim 0"],
        ["level 40 1 0", "time abc", "otim abc"], ["level 40 1 0", f"time {BIG}", f"otim {BIG}"],
        ["time 100"], ["level 0 0 0", "time 0"],
    ]:
        c.append((" + ".join(tc), ["new"] + tc + ["go"]))
    for p in ["ping", "ping abc", "ping -1", f"ping {BIG}", "ping 1 2"]:
        c.append((p, ["new", p]))
    c.append(("ping <1000 nines>", ["new", "ping " + "9" * 1000]))
    c.append(("undo at the start", pre + ["force", "undo", "go"]))
    c.append(("moves, setboard, undo x2 (past the setboard)", pre + ["force", MOVE + "e2e4", MOVE + "e7e5",
              "setboard 4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "undo", "undo"]))
    c.append(("remove at the start", pre + ["force", "remove", "go"]))
    c.append(("undo x5 after 2 moves", pre + ["force", MOVE + "e2e4", MOVE + "e7e5"] + ["undo"] * 5 + ["go"]))
    c.append(("go after mate", pre + ["force"] + [MOVE + m for m in ["f2f3", "e7e5", "g2g4", "d8h4"]] + ["go"]))
    c.append(("move without usermove prefix", pre + ["force", "e2e4", "go"]))
    c.append(("? without search", ["new", "?"]))
    c.append(("usermove (alone)", pre + ["usermove", "go"]))
    c.append(("variant nonsense", pre + ["variant nonsense", "go"]))
    c.append(("empty line", ["new", ""]))
    c.append(("binary line (NUL, 0xff)", ["new", b"\x00\x01\xff\xfe\x80setboard\x00x"]))
    c.append(("1 MB line of 'a'", ["new", "a" * 1_000_000]))
    c.append(("1 MB setboard", pre + ["setboard " + "8/" * 333_333, "go"]))
    return c


class Engine:
    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.proc = subprocess.Popen(
            spec.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.seen: list[str] = []
        self.usermove = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            self.lines.put(line.rstrip(b"\r\n"))
        self.lines.put(None)

    def send(self, line: bytes | str) -> bool:
        data = line.encode() if isinstance(line, str) else line
        try:
            assert self.proc.stdin
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def wait_for(self, pred, bound: float):
        """The first line matching pred, "EOF" if the engine closed its output, None on timeout."""
        deadline = time.monotonic() + bound
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                self.lines.put(None)
                return "EOF"
            text = line.decode("utf-8", "replace")
            self.seen.append(text)
            if pred(text):
                return text

    def exit_status(self, wait: float = 1.0) -> str | None:
        try:
            code = self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()


def handshake(e: Engine, bound: float) -> bool:
    if e.spec.protocol == "uci":
        e.send("uci")
        if e.wait_for(lambda t: t == "uciok", bound) in (None, "EOF"):
            return False
        for line in e.spec.setup:
            e.send(line)
        e.send("isready")
        return e.wait_for(lambda t: t == "readyok", bound) not in (None, "EOF")
    e.send("xboard")
    e.send("protover 2")
    deadline = time.monotonic() + bound
    while True:
        got = e.wait_for(lambda t: t.startswith("feature"), max(0.0, deadline - time.monotonic()))
        if got in (None, "EOF"):
            return False
        for name, value in re.findall(r'(\w+)=("[^"]*"|\S+)', got):
            if name == "usermove":
                e.usermove = value == "1"
            if name != "option":
                e.send(f"{'rejected' if name == 'san' else 'accepted'} {name}")
        if "done=1" in got:
            break
    e.send("ping 1")
    return e.wait_for(lambda t: t == "pong 1", bound) not in (None, "EOF")


def board_before_go(lines: list[bytes | str]) -> chess.Board | None:
    """The position a UCI engine should search at the case's first `go`, by python-chess
    (castling read in either form), or None where the case's input is not a legal position
    (those are judged by crash/hang only)."""
    board: chess.Board | None = chess.Board()
    for line in lines:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        words = text.split()
        if words[:1] == ["go"]:
            return board
        if words[:1] != ["position"]:
            continue
        try:
            at = words.index("moves") if "moves" in words else len(words)
            if words[1] == "startpos":
                b = chess.Board(chess960=True)
            elif words[1] == "fen":
                b = chess.Board(" ".join(words[2:at]), chess960=True)
            else:
                board = None
                continue
            for text_move in words[at + 1:]:
                if text_move == "0000":
                    raise ValueError("a null move: engines read it in different ways")
                try:
                    move = b.parse_uci(text_move)
                except ValueError:
                    standard = b.copy(stack=False)
                    standard.chess960 = False
                    move = standard.parse_uci(text_move)
                b.push(move)
            board = b if b.is_valid() else None
        except (ValueError, IndexError, AssertionError):
            board = None
    return board


def legal_texts(board: chess.Board) -> set[str]:
    """Every legal move of `board` in coordinates, castling in both forms."""
    texts = set()
    for move in board.legal_moves:
        texts.add(board.uci(move, chess960=True))
        texts.add(board.uci(move, chess960=False))
    return texts


def is_go(line: bytes | str) -> bool:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return text.rstrip("\r").split()[:1] == ["go"]


def run_case(spec: EngineSpec, lines: list[bytes | str], bound: float) -> tuple[str, str]:
    """(verdict, detail) for one case on a fresh engine."""
    e = Engine(spec)
    try:
        if not handshake(e, bound):
            st = e.exit_status(0.5)
            return ("CRASH" if st else "HANG", f"handshake failed ({st or 'no answer'})")
        uci = spec.protocol == "uci"
        answers: list[str] = []
        gos = 0
        for index, line in enumerate(lines):
            if isinstance(line, str) and line.startswith("WAIT:"):
                want = line[5:]
                got = e.wait_for(lambda t: t == want, bound)
                if got == "EOF":
                    return "CRASH", f"{e.exit_status() or 'closed its output'} (waiting for {want})"
                if got is None:
                    e.send("stop")
                    after = e.wait_for(lambda t: t.startswith("bestmove"), bound)
                    return "HANG", f"no {want} during the search" + (f"; `stop` brings `{after}`" if after and after != "EOF" else "")
                continue
            if isinstance(line, str) and line.startswith(MOVE):
                line = ("usermove " if e.usermove else "") + line[len(MOVE):]
            if not e.send(line):
                break
            if is_go(line):
                text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
                ended = any(later in ("stop", "ponderhit") for later in lines[index + 1:])
                if uci and ("infinite" in text or "ponder" in text) and not ended:
                    continue
                gos += 1
        if uci:
            # A `go` that is still running (infinite/ponder) gets its `bestmove` after `stop`.
            for _ in range(gos):
                got = e.wait_for(lambda t: t.startswith("bestmove"), bound)
                if got == "EOF":
                    return "CRASH", f"{e.exit_status() or 'closed its output'} (waiting for bestmove)"
                if got is None:
                    e.send("stop")
                    after = e.wait_for(lambda t: t.startswith("bestmove"), bound)
                    if after == "EOF":
                        return "CRASH", f"no bestmove in {bound:g}s; {e.exit_status() or 'closed its output'} after stop"
                    how = f"`stop` brings `{after}`" if after else "no bestmove even after `stop`"
                    return "HANG", f"no bestmove in {bound:g}s; {how}"
                answers.append(got)
            board = board_before_go(lines)
            if answers and board is not None:
                words = answers[0].split()
                best = words[1] if len(words) > 1 else ""
                texts = legal_texts(board)
                if texts and best not in texts:
                    return "ILLEGAL", f"`{answers[0]}` is no legal move in {board.fen()}"
            e.send("isready")
            got = e.wait_for(lambda t: t == "readyok", bound)
            if got == "EOF":
                return "CRASH", f"{e.exit_status() or 'closed its output'} (waiting for readyok)"
            if got is None:
                e.send("stop")
                after = e.wait_for(lambda t: t == "readyok" or t.startswith("bestmove"), bound)
                return "HANG", "no readyok" + (f"; `stop` brings `{after}`" if after and after != "EOF" else "")
        else:
            for _ in range(gos):
                got = e.wait_for(lambda t: t.startswith("move ") or t.startswith("Illegal")
                                 or t.startswith("Error") or t.startswith("tellusererror")
                                 or t.split()[:1] in (["1-0"], ["0-1"], ["1/2-1/2"], ["resign"]), bound)
                if got == "EOF":
                    return "CRASH", f"{e.exit_status() or 'closed its output'} (waiting for a move)"
                if got is None:
                    e.send("?")
                    after = e.wait_for(lambda t: t.startswith("move "), bound)
                    if after == "EOF":
                        return "CRASH", f"no move in {bound:g}s; {e.exit_status() or 'closed its output'} after ?"
                    how = f"`?` brings `{after}`" if after else "no move even after `?`"
                    return "HANG", f"no move in {bound:g}s; {how}"
                answers.append(got)
            e.send("ping 99")
            got = e.wait_for(lambda t: t == "pong 99", bound)
            if got == "EOF":
                return "CRASH", f"{e.exit_status() or 'closed its output'} (waiting for pong)"
            if got is None:
                return "HANG", "no pong 99"
        # Errors the engine wrote, worth knowing for the shield.
        notes = [t for t in e.seen if (t.startswith(("Error", "Illegal", "tellusererror", "info string", "pong"))
                 or "rror" in t[:40] or "llegal" in t[:40]) and "NNUE evaluation" not in t and t != "pong 99"
                 and t != "pong 1"]
        detail = "; ".join(f"`{a[:60]}`" for a in answers)
        if notes:
            detail = (detail + "; " if detail else "") + "said " + "; ".join(f"`{n[:70]}`" for n in notes[:2])
        return "OK", detail or "answers"
    finally:
        e.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", help="engine name (repeatable): " + ", ".join(s.name for s in ENGINES))
    ap.add_argument("--case", help="only cases whose label contains this")
    ap.add_argument("--bound", type=float, default=4.0, help="seconds to wait for each answer (default 4)")
    ap.add_argument("--markdown", help="write the results as a Markdown table to this file")
    ap.add_argument("--all", action="store_true", help="in --markdown, list the OK cases too (default: only crashes and hangs)")
    args = ap.parse_args()
    specs = [s for s in ENGINES if not args.engine or s.name in args.engine]
    if args.engine and len(specs) != len(args.engine):
        ap.error(f"unknown engine in {args.engine}")
    results: list[tuple[str, str, str, str]] = []
    counts: dict[str, dict[str, int]] = {}
    started = time.monotonic()
    for spec in specs:
        if not os.path.exists(spec.cmd[0]):
            print(f"{spec.name}: {spec.cmd[0]} is missing, skipped", file=sys.stderr)
            continue
        cases = uci_cases() if spec.protocol == "uci" else xboard_cases()
        for label, lines in cases:
            if args.case and args.case not in label:
                continue
            verdict, detail = run_case(spec, lines, args.bound)
            counts.setdefault(spec.name, {}).setdefault(verdict, 0)
            counts[spec.name][verdict] += 1
            results.append((spec.name, label, verdict, detail))
            print(f"{spec.name:20} {verdict:5} {label:45} {detail[:140]}", flush=True)
    elapsed = time.monotonic() - started
    summary = ", ".join(f"{n}: " + " ".join(f"{v} {k}" for k, v in sorted(c.items())) for n, c in counts.items())
    print(f"engine-quirks: {len(results)} cases in {elapsed:.0f}s ({summary})")
    if args.markdown:
        write_markdown(args.markdown, results, specs, args.bound, elapsed, summary, args.all)
    return 0


def write_markdown(path, results, specs, bound, elapsed, summary, show_all) -> None:
    versions = {
        "stockfish": "Stockfish 15.1", "ethereal": "Ethereal (Debian ethereal-chess)",
        "glaurung": "Glaurung 2.2 (Threads 1)", "fairy-stockfish": "Fairy-Stockfish 11.1 (UCI)",
        "sjaakii-xb": "Sjaak II 1.4.1 (XBoard)", "fairy-stockfish-xb": "Fairy-Stockfish 11.1 (XBoard)",
    }
    with open(path, "w") as f:
        f.write("# Engine quirks: malformed GUI input sent straight to the engines\n\n")
        f.write("Written by `nice -n 15 scripts/engine-quirks.py --markdown docs/engine-quirks.md` "
                f"(bound {bound:g} s per answer, {elapsed:.0f} s in all). No proxy: each case is a fresh engine, "
                "the handshake, the case's lines, then the answer the protocol promises (`bestmove` after a UCI "
                "`go`, a `move` after an XBoard `go`) and a liveness probe (`isready` / `ping 99`).\n\n")
        f.write("- **CRASH**: the engine exited (its exit code or signal).\n"
                f"- **HANG**: the engine lives but the answer did not come within {bound:g} s; the detail says "
                "whether `stop` (UCI) or `?` (XBoard) then brought it. A GUI that waits for it waits forever.\n"
                "- **ILLEGAL**: the `bestmove` is no legal move in the position the case set up (checked "
                "with python-chess where that position is legal; castling in either form).\n"
                "- **OK**: every answer came; the detail shows it (a `bestmove` that is no legal move, such as "
                "`bestmove (none)` or `bestmove a1a1`, is still \"OK\" here but matters to the proxy).\n\n")
        f.write(f"Engines: {', '.join(versions.get(s.name, s.name) for s in specs)}. Totals: {summary}.\n\n")
        bad = [r for r in results if r[2] != "OK"]
        f.write("## Crashes, hangs and illegal answers\n\n| engine | input | what happens |\n|---|---|---|\n")
        for name, label, verdict, detail in bad:
            f.write(f"| {versions.get(name, name)} | `{esc(label)}` | **{verdict}**: {esc(detail)} |\n")
        if not bad:
            f.write("| - | - | none |\n")
        odd = [r for r in results if r[2] == "OK" and is_odd(r[3])]
        f.write("\n## Answered, but with something a GUI cannot use\n\n"
                "`bestmove` with no legal move (`(none)`, `0000`, a null or illegal move) after a malformed position.\n\n"
                "| engine | input | answer |\n|---|---|---|\n")
        for name, label, _verdict, detail in odd:
            f.write(f"| {versions.get(name, name)} | `{esc(label)}` | {esc(detail)} |\n")
        if show_all:
            f.write("\n## Every case\n\n| engine | input | verdict | detail |\n|---|---|---|---|\n")
            for name, label, verdict, detail in results:
                f.write(f"| {versions.get(name, name)} | `{esc(label)}` | {verdict} | {esc(detail)} |\n")


def is_odd(detail: str) -> bool:
    return any(s in detail for s in ("bestmove (none)", "bestmove 0000", "bestmove a1a1", "bestmove NULL", "(none)"))


def esc(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


if __name__ == "__main__":
    sys.exit(main())
