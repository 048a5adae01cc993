"""The independent computation `sp960 results` is held against (tests/results.rs).

Usage: results_oracle.py GAMES.pgn RESULTS.json

Reads GAMES.pgn with python-chess (each game replayed; its start found by python-chess's
own Chess960 numbering), computes per start White's W/D/L, score and 95% Wilson interval,
Pearson's chi-square test of homogeneity with scipy.stats.chi2_contingency, the
Bonferroni-corrected count of starts whose interval excludes the overall score, and a
permutation p-value with numpy; then compares every figure with sp960's JSON. Prints the
figures and exits 0 when they agree, 1 (naming the first difference) otherwise.
"""
import json
import logging
import math
import sys

import chess
import chess.pgn
import numpy as np
from scipy.stats import chi2_contingency, norm

# Back rank (white's, upper case) -> SP number, from python-chess's numbering.
SP_OF_RANK = {chess.Board.from_chess960_pos(n).board_fen().split("/")[7]: n for n in range(960)}


def start_of(board):
    """'518' or '0:959' when `board` is an untouched Chess960 start, else None."""
    fen = board.board_fen().split("/")
    if fen[1:7] != ["pppppppp", "8", "8", "8", "8", "PPPPPPPP"] or board.turn != chess.WHITE:
        return None
    white, black = SP_OF_RANK.get(fen[7]), SP_OF_RANK.get(fen[0].upper())
    if white is None or black is None or bin(board.castling_rights).count("1") != 4:
        return None
    return str(white) if white == black else f"{white}:{black}"


def read(path):
    table, skipped = {}, {"standard-chess": 0, "not-a-start": 0, "does-not-replay": 0, "unfinished": 0}
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            variant = game.headers.get("Variant", "").lower()
            if game.errors:
                skipped["does-not-replay"] += 1
                continue
            if "960" not in variant and "fischer" not in variant:
                skipped["standard-chess"] += 1
                continue
            start = start_of(game.board())
            if start is None:
                skipped["not-a-start"] += 1
                continue
            result = game.headers.get("Result")
            if result not in ("1-0", "1/2-1/2", "0-1"):
                skipped["unfinished"] += 1
                continue
            row = table.setdefault(start, [0, 0, 0])
            row[("1-0", "1/2-1/2", "0-1").index(result)] += 1
    return table, skipped


def wilson(points, n, z):
    p = points / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def permutation_p(rows, observed, shuffles=2000, seed=1):
    outcomes = np.repeat(np.arange(3), np.array(rows).sum(axis=0))
    sizes = np.array(rows).sum(axis=1)
    cuts = np.cumsum(sizes)[:-1]
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(shuffles):
        rng.shuffle(outcomes)
        shuffled = [np.bincount(part, minlength=3) for part in np.split(outcomes, cuts)]
        table = np.array(shuffled)
        table = table[:, np.array(rows).sum(axis=0) > 0]
        statistic = chi2_contingency(table, correction=False)[0]
        hits += statistic >= observed * (1 - 1e-9)
    return (hits + 1) / (shuffles + 1)


def close(name, ours, theirs, tolerance=1e-9):
    if ours is None or abs(ours - theirs) > tolerance:
        sys.exit(f"results_oracle: {name}: sp960 {ours}, scipy {theirs}")


def main():
    logging.disable(logging.CRITICAL)  # python-chess logs the illegal move it skips
    pgn, report_path = sys.argv[1], sys.argv[2]
    with open(report_path, encoding="utf-8") as handle:
        report = json.load(handle)
    table, skipped = read(pgn)
    z = norm.ppf(0.975)
    starts = sorted(table)
    rows = [table[s] for s in starts]
    totals = np.array(rows).sum(axis=0)
    games = int(totals.sum())
    score = (totals[0] + totals[1] / 2) / games
    if report["games"] != games or report["tested"] != len(starts):
        sys.exit(f"results_oracle: games {report['games']}/{games}, starts {report['tested']}/{len(starts)}")
    close("overall score", report["score"], score)
    got = {row["start"]: row for row in report["rows"]}
    z_corrected = norm.ppf(1 - 0.05 / (2 * len(starts)))
    differing = 0
    for start, (w, d, l) in zip(starts, rows):
        row = got.get(start)
        if row is None or [row["wins"], row["draws"], row["losses"]] != [w, d, l]:
            sys.exit(f"results_oracle: start {start}: sp960 {row}, python-chess {[w, d, l]}")
        n = w + d + l
        low, high = wilson(w + d / 2, n, z)
        close(f"start {start} low", row["low"], low)
        close(f"start {start} high", row["high"], high)
        corrected = wilson(w + d / 2, n, z_corrected)
        differs = not (corrected[0] <= score <= corrected[1])
        differing += differs
        if row["differs"] != differs:
            sys.exit(f"results_oracle: start {start}: differs {row['differs']}, scipy {differs}")
    used = np.array(rows)[:, totals > 0]
    chi2, p, df, _ = chi2_contingency(used, correction=False)
    test = report["homogeneity"]
    close("chi-square", test["chi_square"], chi2, 1e-6)
    close("p-value", test["p_value"], p, 1e-9)
    if test["df"] != df or report["differing"] != differing:
        sys.exit(f"results_oracle: df {test['df']}/{df}, differing {report['differing']}/{differing}")
    permuted = permutation_p(rows, chi2)
    # Two Monte Carlo estimates of one p-value: 2000 shuffles each.
    close("permutation p", test["permutation_p"], permuted, max(0.02, 4 * math.sqrt(permuted / 2000)))
    counted = {entry["reason"]: entry["games"] for entry in report["skipped"]}
    for reason, count in skipped.items():
        if counted.get(reason, 0) != count:
            sys.exit(f"results_oracle: skipped {reason}: sp960 {counted.get(reason, 0)}, python-chess {count}")
    print(f"agree: {games} games, {len(starts)} starts, chi2 {chi2:.4f} df {df} p {p:.3g}, "
          f"permutation p {permuted:.4f} (sp960 {test['permutation_p']:.4f}), "
          f"{differing} starts differ (Bonferroni), skipped {skipped}")


if __name__ == "__main__":
    main()
