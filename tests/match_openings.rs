//! `sp960 match --openings`: EPD and PGN books played with both colours by real engines
//! (Stockfish over UCI, Sjaak II over XBoard); python-chess replays the games
//! (tests/python/match_check_pgn.py) and checks each opening was played as given
//! (tests/python/match_check_openings.py).

#[path = "support/peers.rs"]
mod peers;

use peers::{Peer, fixture, sp960_match};

use std::path::Path;
use std::process::Command;

fn python(script: &str, args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg(fixture(script))
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

const EPD: &str = "\
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - hmvc 0; fmvn 1; id \"SP 0\";
1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb -
rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ b EAea - 0 1
";

const PGN: &str = r#"[Event "Chess960 book"]
[Variant "Chess960"]
[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"]

1. O-O {castles onto its rook's square} O-O-O 2. d4 (2. f4) d5 3. c4 *

[Event "standard"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2
"#;

#[test]
fn epd_and_pgn_openings_are_played_as_given_with_both_colours() {
    if !peers::need(&[Peer::Stockfish, Peer::SjaakII, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("book.epd"), EPD).unwrap();
    std::fs::write(dir.path().join("book.pgn"), PGN).unwrap();
    for (book, format, plies, extra) in [
        ("book.epd", "epd", "0", &[][..]),
        ("book.pgn", "pgn", "3", &["--sp", "860"][..]),
    ] {
        let pgn = format!("{format}.pgn");
        let openings = format!(
            "file={book} plies={}",
            if plies == "0" { "99" } else { plies }
        );
        let mut args = vec![
            "--engine",
            "/usr/games/stockfish",
            "--engine",
            "proto=xboard name=Sjaak /usr/games/sjaakii",
            "--openings",
            &openings,
            "--depth",
            "2",
            "--max-plies",
            "40",
            "--concurrency",
            "2",
            "--pgn",
            &pgn,
            "--json",
        ];
        args.extend(extra);
        let output = sp960_match(dir.path(), &args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let games = summary["games"].as_array().unwrap();
        let expected_openings = 3;
        assert_eq!(games.len(), 2 * expected_openings, "{summary}");
        // Labels: the SP for --sp, FILE:LINE for the book's.
        let mut labels: Vec<&str> = games.iter().map(|g| g["start"].as_str().unwrap()).collect();
        labels.sort_unstable();
        labels.dedup();
        let expected: Vec<&str> = if format == "epd" {
            vec!["book.epd:1", "book.epd:2", "book.epd:3"]
        } else {
            vec!["860", "book.pgn:1", "book.pgn:7"]
        };
        assert_eq!(labels, expected);
        // Legal games (python-chess), and each opening as given, both colours.
        let path = dir.path().join(&pgn);
        python("match_check_pgn.py", &[path.to_str().unwrap()]);
        // `sp960 fen 860`.
        let sp860 = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1".to_owned();
        let mut check = vec![
            dir.path().join(book).display().to_string(),
            format.to_owned(),
            plies.to_owned(),
            path.display().to_string(),
        ];
        if format == "pgn" {
            check.push(sp860);
        }
        let check: Vec<&str> = check.iter().map(String::as_str).collect();
        let report: serde_json::Value =
            serde_json::from_str(&python("match_check_openings.py", &check)).unwrap();
        assert_eq!(report["games"], 6, "{report}");
        let played = report["played"].as_array().unwrap();
        assert_eq!(played.len(), 3, "every opening played: {report}");
        assert!(played.iter().all(|p| p[1] == 2), "{report}");
    }
}

#[test]
fn a_bad_opening_stops_the_match_before_any_game_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.pgn"),
        "[Event \"ok\"]\n\n1. e4 e5 *\n\n[Event \"bad\"]\n\n1. d4 d5 2. Qxd5 *\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("bad.epd"), "8/8/8/8/8/8/8/8 w - -\n").unwrap();
    for (args, code, message) in [
        (
            &["--openings", "file=bad.pgn"][..],
            1,
            "sp960: match: --openings: bad.pgn:7: 'Qxd5' is not legal after 2 moves of the opening",
        ),
        (
            &["--openings", "file=bad.epd"][..],
            1,
            "sp960: match: --openings: bad.epd:1: bad FEN '8/8/8/8/8/8/8/8 w - - 0 1'",
        ),
        (
            &["--openings", "file=missing.epd"][..],
            1,
            "sp960: match: --openings: missing.epd:0: cannot read",
        ),
        (
            &["--openings", "file=bad.pgn", "order=any"][..],
            2,
            "order=any: expected sequential or random",
        ),
        (&["--depth", "1"][..], 2, "--sp"),
    ] {
        let output = sp960_match(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!dir.path().join("sp960-match.pgn").exists());
}

#[test]
fn random_chess960_games_from_python_chess_are_read_move_for_move() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("random.pgn");
    // 40 random Chess960 games of up to 100 plies: castling both ways, promotions,
    // disambiguated moves, as python-chess writes them.
    python(
        "match_random_book.py",
        &["5", "40", "100", book.to_str().unwrap()],
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.contains("O-O-O") && text.contains("=R"),
        "the book exercises castling and promotions"
    );
    // --max-plies 100 ends each game where its book ends (the built-in engine plays the
    // rest of a shorter one): the PGN's moves are the book's.
    let output = sp960_match(
        dir.path(),
        &[
            "--openings",
            "file=random.pgn",
            "--max-plies",
            "100",
            "--depth",
            "1",
            "--concurrency",
            "2",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = dir.path().join("games.pgn");
    python("match_check_pgn.py", &[games.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_str(&python(
        "match_check_openings.py",
        &[book.to_str().unwrap(), "pgn", "0", games.to_str().unwrap()],
    ))
    .unwrap();
    assert_eq!(report["games"], 80, "{report}");
    assert_eq!(report["played"].as_array().unwrap().len(), 40, "{report}");
}

/// Every game of a PGN file as (root FEN, White, Black, Result, moves), counted.
fn game_set(pgn: &Path) -> std::collections::BTreeMap<String, usize> {
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)) is not None:
        h = g.headers
        print(g.board().fen(shredder=True), h["White"], h["Black"], h["Result"],
              " ".join(m.uci() for m in g.mainline_moves()), sep="|")
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut games = std::collections::BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        *games.entry(line.to_owned()).or_default() += 1;
    }
    games
}

/// The same PGN book with `plies=3` in sp960, cutechess-cli and fastchess: node-limited
/// engines play the same games, book moves (Chess960 castling included) first.
#[test]
fn a_pgn_book_gives_the_games_cutechess_cli_and_fastchess_give() {
    if !peers::need(&[
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::CutechessCli,
        Peer::Fastchess,
        Peer::PythonChess,
    ]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let book = |variant: &str| {
        format!(
            "[Event \"a\"]\n[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
             [FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n\
             1. O-O O-O-O 2. d4 d5 3. c4 *\n\n\
             [Event \"b\"]\n[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
             [FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n\
             1. d4 d5 2. Nde3 Nde6 *\n"
        )
    };
    std::fs::write(dir.path().join("fischerandom.pgn"), book("fischerandom")).unwrap();
    std::fs::write(dir.path().join("chess960.pgn"), book("Chess960")).unwrap();
    let engines = [
        ("a", "/usr/games/stockfish"),
        ("b", "/usr/games/ethereal-chess"),
    ];
    let runner = |program: &str, book: &str, out: &str| {
        let mut command = Command::new(program);
        command
            .current_dir(dir.path())
            .env("PATH", peers::search_path());
        for (name, cmd) in engines {
            command.args([
                "-engine".to_owned(),
                format!("cmd={cmd}"),
                format!("name={name}"),
                "nodes=1000".to_owned(),
            ]);
        }
        command
            .args(["-each", "proto=uci", "tc=inf", "-variant", "fischerandom"])
            .args(["-openings", &format!("file={book}"), "format=pgn"])
            .args(["order=sequential", "plies=3"])
            .args([
                "-games",
                "2",
                "-rounds",
                "2",
                "-repeat",
                "-concurrency",
                "1",
            ]);
        if program == "fastchess" {
            command.args(["-pgnout", &format!("file={out}")]);
        } else {
            command.args(["-pgnout", out]);
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "{program}: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        game_set(&dir.path().join(out))
    };
    let ours = |book: &str, out: &str| {
        let output = sp960_match(
            dir.path(),
            &[
                "--engine",
                "/usr/games/stockfish name=a nodes=1000",
                "--engine",
                "/usr/games/ethereal-chess name=b nodes=1000",
                "--openings",
                &format!("file={book} plies=3"),
                "--concurrency",
                "1",
                "--pgn",
                out,
            ],
        );
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        game_set(&dir.path().join(out))
    };
    let sp960 = ours("fischerandom.pgn", "sp960.pgn");
    assert_eq!(sp960.values().sum::<usize>(), 4);
    assert_eq!(
        sp960,
        runner("cutechess-cli", "fischerandom.pgn", "cutechess.pgn")
    );
    assert_eq!(
        sp960,
        runner("fastchess", "fischerandom.pgn", "fastchess.pgn")
    );
    // sp960 reads [Variant "Chess960"] as the same book; cutechess-cli 1.5.1 plays none of
    // its moves (its games start at the root, with no {book} comment).
    assert_eq!(ours("chess960.pgn", "sp960-chess960.pgn"), sp960);
    runner("cutechess-cli", "chess960.pgn", "cutechess-chess960.pgn");
    let theirs = std::fs::read_to_string(dir.path().join("cutechess-chess960.pgn")).unwrap();
    assert_eq!(theirs.matches("[Event ").count(), 4);
    assert!(!theirs.contains("{book}"), "{theirs}");
}
