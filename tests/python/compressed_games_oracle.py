"""python-chess's reading of compressed game files, for tests/downloaded_files.rs.

Usage: compressed_games_oracle.py FILE...

Each FILE is opened by Python alone: a `.gz` with the gzip module, a `.zip` with zipfile
(every entry in order), a `.zst` with the `zstandard` module when it is importable, else
with the `zstd` command (`zstd -dc`), else it is left out. The games are read with
`chess.pgn.read_game` and replayed. Prints one JSON object a FILE:
{"path": ..., "reader": ..., "games": N, "results": {"1-0": n, ...},
 "records": [{"result": ..., "plies": n, "final": FEN (Shredder castling)}, ...]}
or {"path": ..., "skipped": why}.
"""

import gzip
import io
import json
import shutil
import subprocess
import sys
import zipfile

import chess
import chess.pgn


def texts(path):
    """(reader, [text]) for `path`, or (None, why)."""
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return "gzip", [f.read()]
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            return "zipfile", [z.read(info) for info in z.infolist() if not info.is_dir()]
    if path.endswith(".zst"):
        try:
            import zstandard  # noqa: PLC0415

            with open(path, "rb") as f:
                reader = zstandard.ZstdDecompressor().stream_reader(f, read_across_frames=True)
                return "zstandard", [reader.read()]
        except ImportError:
            pass
        zstd = shutil.which("zstd")
        if zstd is None:
            return None, "neither the zstandard module nor the zstd command"
        data = subprocess.run([zstd, "-dc", path], check=True, capture_output=True).stdout
        return "zstd -dc", [data]
    with open(path, "rb") as f:
        return "plain", [f.read()]


def read(text):
    records = []
    stream = io.StringIO(text.decode("utf-8", errors="replace"))
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        board = game.end().board()
        records.append(
            {
                "result": game.headers.get("Result", "*"),
                "plies": len(list(game.mainline_moves())),
                "final": board.fen(shredder=True),
                "errors": len(game.errors),
            }
        )
    return records


def main():
    for path in sys.argv[1:]:
        reader, data = texts(path)
        if reader is None:
            print(json.dumps({"path": path, "skipped": data}))
            continue
        records = [r for text in data for r in read(text)]
        results = {}
        for r in records:
            results[r["result"]] = results.get(r["result"], 0) + 1
        print(
            json.dumps(
                {
                    "path": path,
                    "reader": reader,
                    "games": len(records),
                    "results": results,
                    "records": records,
                }
            )
        )


if __name__ == "__main__":
    main()
