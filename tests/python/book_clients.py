"""The book checks of OpenBench's and fishtest's workers, run on an `sp960 book package`.

usage: book_clients.py openbench|fishtest PACKAGE_DIR NAME

Each check is the clients' own code, quoted with its source:
- OpenBench (GPL-3.0), AndyGrant/OpenBench 9906bad18e04, Client/utils.py
  `download_opening_book` (unzip to a folder, move the sole file to Books/NAME, sha256 of
  the text read, compared to the server's `sha`) and Client/worker.py lines 403-406 (FRC by
  name); OpenBench/models.py `book_name = CharField(max_length=32)`.
- fishtest, official-stockfish/fishtest b8eecff220b5, worker/games.py `text_hash`, `unzip`
  and the variant choice (line 1758).
- The books repository (CC0-1.0), official-stockfish/books 33185e117fc2, update_json.py
  `get_stats_and_sri`, copied verbatim below: it computes the books.json entry that fishtest's
  server hands its workers.

Prints `ok` and exits 0 when every check passes; exits 1 with the first failure.
"""
import base64
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path
from zipfile import ZipFile


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


# --- OpenBench Client/utils.py download_opening_book, the download replaced by a copy -----
def openbench_download_opening_book(book_sha, zip_source, book_name):
    book_path = os.path.join("Books", book_name)
    if not os.path.exists(book_path):
        with tempfile.TemporaryDirectory() as temp_dir:
            zip_path = os.path.join(temp_dir, "%s.zip" % (book_name))
            shutil.copy(zip_source, zip_path)  # was: requests.get(book_source).content
            unzip_path = os.path.join(temp_dir, book_name)
            with zipfile.ZipFile(zip_path, "r") as zip_file:
                zip_file.extractall(unzip_path)
            unzip_root = os.path.join(unzip_path, os.listdir(unzip_path)[0])
            shutil.move(unzip_root, book_path)
    with open(book_path) as fin:
        content = fin.read().encode("utf-8")
        sha256 = hashlib.sha256(content).hexdigest()
    if book_sha.upper() != sha256.upper():
        os.remove(book_path)
        raise Exception("Invalid sha for %s" % (book_name))


# --- fishtest worker/games.py -----------------------------------------------------------
def text_hash(file):
    # text mode to have newline translation!
    return base64.b64encode(
        hashlib.sha384(file.read_text().encode("utf8")).digest()
    ).decode("utf8")


def unzip(blob, save_dir):
    cd = Path.cwd()
    os.chdir(save_dir)
    zipball = io.BytesIO(blob)
    with ZipFile(zipball) as zip_file:
        zip_file.extractall()
        file_list = zip_file.infolist()
    os.chdir(cd)
    return file_list


# --- official-stockfish/books update_json.py, verbatim (CC0-1.0) --------------------------
def get_stats_and_sri(compressedbook, old_stats):
    import chess, chess.pgn

    content_bytes = None
    book = compressedbook
    if compressedbook.endswith(".zip"):
        book, _, _ = compressedbook.rpartition(".zip")
        with zipfile.ZipFile(compressedbook) as zip_file:
            content_bytes = zip_file.read(book)
    if content_bytes is None:
        return book, {}

    content_bytes = content_bytes.replace(b"\r\n", b"\n").replace(b"\r", b"\n")

    sri = base64.b64encode(hashlib.sha384(content_bytes).digest()).decode("utf8")

    if book in old_stats and "sri" in old_stats[book] and old_stats[book]["sri"] == sri:
        return book, None  # book is unchanged, no need to compute stats

    content = content_bytes.decode("utf-8", errors="ignore")
    white = black = 0
    min_depth = 2**16
    max_depth = -1
    if book.endswith(".epd"):
        lines = content.splitlines()
        total = len(lines)

        for line in lines:
            fields = line.split()
            if len(fields) > 1:
                if fields[1] == "w":
                    white += 1
                elif fields[1] == "b":
                    black += 1
                else:
                    print("Error: Invalid FEN {line}")
                    return book, {}
            if len(fields) > 5 and fields[5].isdigit():
                move = int(fields[5])
                ply = (move - 1) * 2 if fields[1] == "w" else (move - 1) * 2 + 1
                min_depth = min(min_depth, ply)
                max_depth = max(max_depth, ply)
    elif book.endswith(".pgn"):
        pgn_stream = io.StringIO(content)
        while True:
            game = chess.pgn.read_game(pgn_stream)
            if game is None:
                break
            ply = game.ply() + len(list(game.mainline_moves()))
            min_depth = min(min_depth, ply)
            max_depth = max(max_depth, ply)
            if ply % 2:
                black += 1
            else:
                white += 1

    if min_depth > max_depth:
        min_depth = max_depth = None

    return book, {
        "total": white + black,
        "white": white,
        "black": black,
        "min_depth": min_depth,
        "max_depth": max_depth,
        "sri": sri,
    }


def check_openbench(package, name):
    if len(name) > 32:
        fail(f"{name}: longer than OpenBench's book_name (max_length=32)")
    book_name = name.upper()
    is_frc = "FRC" in book_name or "960" in book_name or "FISCHER" in book_name
    if not is_frc:
        fail(f"{name}: OpenBench would play it as standard chess")
    config = json.loads((package / f"{name}.json").read_text())
    if sorted(config) != ["sha", "source"]:
        fail(f"Books/{name}.json has keys {sorted(config)}")
    with tempfile.TemporaryDirectory() as worker:
        os.chdir(worker)
        os.mkdir("Books")
        openbench_download_opening_book(config["sha"], package / f"{name}.zip", name)
        if Path("Books", name).read_bytes() != (package / name).read_bytes():
            fail("the unzipped book differs from the package's book")


def check_fishtest(package, name):
    book = name
    if not any(substring in book.upper() for substring in ["FRC", "960"]):
        fail(f"{name}: fishtest would play it as standard chess")
    entry = json.loads((package / f"{name}.json").read_text())
    if list(entry) != [name]:
        fail(f"the books.json entry is keyed {list(entry)}, not [{name!r}]")
    book_sri = entry[name]["sri"]
    with tempfile.TemporaryDirectory() as worker:
        testing_dir = Path(worker)
        unzip((package / f"{name}.zip").read_bytes(), testing_dir)
        if text_hash(testing_dir / book) != book_sri:
            fail(f"fishtest's text_hash {text_hash(testing_dir / book)} != sri {book_sri}")
        # The books repository's CI recomputes the entry from the zip.
        shutil.copy(package / f"{name}.zip", testing_dir / f"{name}.zip")
        os.chdir(testing_dir)
        _, stats = get_stats_and_sri(f"{name}.zip", {})
        if stats != entry[name]:
            fail(f"update_json.py computes {stats}, the package says {entry[name]}")


def main():
    system, package, name = sys.argv[1], Path(sys.argv[2]).resolve(), sys.argv[3]
    with zipfile.ZipFile(package / f"{name}.zip") as archive:
        if archive.namelist() != [name]:
            fail(f"the zip holds {archive.namelist()}, not [{name!r}]")
        if archive.testzip() is not None:
            fail("the zip's CRC is wrong")
    {"openbench": check_openbench, "fishtest": check_fishtest}[system](package, name)
    print("ok")


main()
