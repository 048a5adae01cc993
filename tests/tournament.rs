//! `sp960 tournament`: golden command lines, parsed back against each tool's documented
//! syntax, books equal to `sp960 book`, and a real xboard match under Xvfb.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use predicates::prelude::*;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;
#[path = "support/process.rs"]
mod process;
use process::replay_games;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::sp960;

/// One golden case: the arguments after `sp960 tournament`, and the book's format.
struct Case {
    golden: &'static str,
    args: &'static [&'static str],
    /// `sp960 book` arguments that give the same book.
    book_args: &'static [&'static str],
    book: &'static str,
}

/// README's worked example 1 (tests/runners.rs plays it in cutechess-cli).
const CUTECHESS: Case = Case {
    golden: "cutechess.sh",
    args: &[
        "--emit",
        "cutechess",
        "--engine",
        "/usr/games/stockfish option.Hash=16",
        "--engine",
        "/usr/games/sjaakii proto=xboard 'name=Sjaak II'",
        "--engine",
        "/usr/games/fairy-stockfish proto=xboard name=fairy-xboard",
        "--sp",
        "860",
        "--sp",
        "0:959",
        "--tc",
        "40/60+0.6",
        "--book",
        "book-FRC.epd",
        "--pgnout",
        "games-960.pgn",
        "--concurrency",
        "2",
    ],
    book_args: &["860", "0:959"],
    book: "book-FRC.epd",
};

/// README's worked example 2 (tests/runners.rs plays it in fastchess).
const FASTCHESS: Case = Case {
    golden: "fastchess.sh",
    args: &[
        "--emit",
        "fastchess",
        "--engine",
        "/usr/games/stockfish option.Hash=16",
        "--engine",
        "/usr/games/ethereal-chess",
        "--engine",
        "/usr/games/toga2",
        "--sp",
        "0",
        "--dfrc-sample",
        "1",
        "--seed",
        "9",
        "--book-format",
        "pgn",
        "--book",
        "book-FRC.pgn",
    ],
    book_args: &["0", "--dfrc-sample", "1", "--seed", "9", "--format", "pgn"],
    book: "book-FRC.pgn",
};

const XBOARD_PROXY: Case = Case {
    golden: "xboard-proxy.sh",
    args: &[
        "--emit",
        "xboard",
        "--engine",
        "cmd=/usr/games/sjaakii proto=xboard",
        "--engine",
        "cmd=/usr/games/fairy-stockfish proto=xboard",
        "--sp",
        "860",
    ],
    book_args: &[],
    book: "",
};

const XBOARD_BOOK: Case = Case {
    golden: "xboard-book.sh",
    args: &[
        "--emit",
        "xboard",
        "--engine",
        "cmd=/usr/games/sjaakii proto=xboard",
        "--engine",
        "cmd=/usr/games/stockfish option.Hash=16",
        "--sp",
        "0:959,860",
        "--tc",
        "0:05+0.05",
    ],
    book_args: &["0:959,860", "--format", "fen"],
    book: "sp960-FRC.fen",
};

const XBOARD_NUMBER: Case = Case {
    golden: "xboard-number.sh",
    args: &[
        "--emit",
        "xboard",
        "--engine",
        "cmd=/usr/games/sjaakii proto=xboard",
        "--engine",
        "cmd=/usr/games/sjaakii proto=xboard",
        "--sp",
        "707",
        "--tc",
        "0:05+0.05",
    ],
    book_args: &[],
    book: "",
};

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/tournament")
        .join(name)
}

/// Runs the case in a fresh directory; checks stdout against the golden file (rewritten
/// with SP960_BLESS=1) and the book against `sp960 book`; returns the directory and argv.
fn run(case: &Case) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let output = sp960()
        .arg("tournament")
        .args(case.args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let line = String::from_utf8(output.stdout).unwrap();
    let golden = golden_path(case.golden);
    if std::env::var_os("SP960_BLESS").is_some() {
        std::fs::write(&golden, &line).unwrap();
    }
    assert_eq!(
        line,
        std::fs::read_to_string(&golden).unwrap(),
        "{} differs (SP960_BLESS=1 rewrites it)",
        case.golden
    );
    if !case.book.is_empty() {
        let book = sp960().arg("book").args(case.book_args).output().unwrap();
        assert_eq!(
            std::fs::read(dir.path().join(case.book)).unwrap(),
            book.stdout,
            "{}",
            case.book
        );
    }
    // A shell drops backslash-newline (line continuation) before splitting words.
    let argv = shlex::split(&line.replace("\\\n", "")).expect("the golden line is valid shell");
    (dir, argv)
}

/// The argv as (option, values) pairs: an option is a word starting with `-` and a letter.
fn groups(argv: &[String]) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for word in &argv[1..] {
        let is_option =
            word.starts_with('-') && word[1..].starts_with(|c: char| c.is_ascii_alphabetic());
        if is_option {
            groups.push((word.clone(), Vec::new()));
        } else {
            groups
                .last_mut()
                .expect("starts with an option")
                .1
                .push(word.clone());
        }
    }
    groups
}

#[test]
fn cutechess_command_line() {
    let (_dir, argv) = run(&CUTECHESS);
    // Fairy-Stockfish in XBoard mode wrapped (cutechess-cli sends it O-O), the others not;
    // one bad engine does not end the tournament.
    assert!(argv.contains(&"arg=/usr/games/fairy-stockfish".to_owned()));
    assert!(argv.contains(&"cmd=/usr/games/stockfish".to_owned()));
    assert!(argv.contains(&"name=Sjaak II".to_owned()));
    assert_eq!(argv.iter().filter(|word| *word == "cmd=sp960").count(), 1);
    assert!(argv.contains(&"-recover".to_owned()));
}

#[test]
fn fastchess_command_line() {
    let (_dir, argv) = run(&FASTCHESS);
    assert!(argv.contains(&"args=proxy --offer-chess960 -- /usr/games/toga2".to_owned()));
    assert!(argv.contains(&"cmd=/usr/games/ethereal-chess".to_owned()));
    assert!(argv.contains(&"-recover".to_owned()));
}

/// Flags of `man xboard` (4.9.1) that sp960 emits, and whether each takes a value.
const XBOARD_FLAGS: &[(&str, bool)] = &[
    ("-fcp", true),
    ("-scp", true),
    ("-fn", true),
    ("-sn", true),
    ("-fd", true),
    ("-sd", true),
    ("-fUCI", false),
    ("-sUCI", false),
    ("-firstOptions", true),
    ("-secondOptions", true),
    ("-smpCores", true),
    ("-variant", true),
    ("-defaultFrcPosition", true),
    ("-lpf", true),
    ("-lpi", true),
    ("-matchGames", true),
    ("-mps", true),
    ("-tc", true),
    ("-inc", true),
    ("-sgf", true),
    ("-xexit", false),
    ("-saveSettingsOnExit", true),
];

fn check_xboard(argv: &[String]) {
    assert_eq!(argv[0], "xboard");
    for (option, values) in groups(argv) {
        let takes_value = XBOARD_FLAGS
            .iter()
            .find(|(flag, _)| *flag == option)
            .unwrap_or_else(|| panic!("{option} is not an xboard flag sp960 means to emit"))
            .1;
        assert_eq!(
            values.len(),
            usize::from(takes_value),
            "{option} {values:?}"
        );
    }
}

#[test]
fn xboard_command_lines() {
    let (_dir, argv) = run(&XBOARD_PROXY);
    check_xboard(&argv);
    assert!(
        argv.contains(
            &"sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish"
                .to_owned()
        )
    );
    for case in [XBOARD_BOOK, XBOARD_NUMBER, XBOARD_GLAURUNG] {
        let (_dir, argv) = run(&case);
        check_xboard(&argv);
    }
}

/// `sp960 tournament ARGS` in an empty directory: its exit code and stderr, and that it
/// wrote nothing (no book, no command line).
fn refused(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = sp960()
        .current_dir(dir.path())
        .arg("tournament")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(output.stdout, b"", "{args:?}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no book written"
    );
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn refusals_name_the_reason_with_the_exit_code_of_its_kind() {
    let two = ["--engine", "a", "--engine", "b", "--sp", "0"];
    // An engine the tool cannot drive: 3, as for `proxy --require-chess960` and `match`.
    let (code, stderr) = refused(&[
        "--emit",
        "fastchess",
        "--engine",
        "a",
        "--engine",
        "b proto=xboard",
        "--sp",
        "0",
    ]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("fastchess speaks only UCI"), "{stderr}");
    // Usage errors: 2.
    for (extra, message) in [
        (&["--tc", "fast"][..], "time control 'fast'"),
        (
            &["--tc", "1e300"][..],
            "time control '1e300': 1e300 seconds is out of range",
        ),
    ] {
        let mut args = vec!["--emit", "xboard"];
        args.extend(two);
        args.extend(extra);
        let (code, stderr) = refused(&args);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
    for (engine, message) in [
        (
            "stockfish tc=1+0.1 ponder",
            "'ponder' is cutechess-cli's switch",
        ),
        ("stockfish hash=16", "unknown key 'hash'"),
        (
            "stockfish initstr=x",
            "initstr= is not supported by fastchess",
        ),
    ] {
        let (code, stderr) = refused(&[
            "--emit",
            "fastchess",
            "--engine",
            "a",
            "--engine",
            engine,
            "--sp",
            "0",
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("engine 2: {message}")) || stderr.contains(message),
            "{stderr}"
        );
    }
    let (code, stderr) = refused(&[
        "--emit",
        "xboard",
        "--engine",
        "a nodes=100",
        "--engine",
        "b",
        "--sp",
        "0",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("nodes= is not supported by xboard"),
        "{stderr}"
    );
    // A bad SPEC is invalid data: 1.
    let (code, stderr) = refused(&[
        "--emit",
        "cutechess",
        "--engine",
        "a",
        "--engine",
        "b",
        "--sp",
        "960",
    ]);
    assert_eq!(code, 1, "{stderr}");
}

/// The same kinds of error exit alike in `book`, `tournament` and `match`.
#[test]
fn book_tournament_and_match_share_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let code = |args: &[&str]| {
        sp960()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
            .unwrap()
    };
    // A bad SPEC: 1 everywhere.
    assert_eq!(code(&["book", "960"]), 1);
    assert_eq!(
        code(&[
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "a",
            "--engine",
            "b",
            "--sp",
            "960"
        ]),
        1
    );
    assert_eq!(code(&["match", "--sp", "960"]), 1);
    // A bad time control or engine key: 2 everywhere.
    assert_eq!(
        code(&[
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "a",
            "--engine",
            "b",
            "--sp",
            "0",
            "--tc",
            "x"
        ]),
        2
    );
    assert_eq!(code(&["match", "--sp", "0", "--tc", "x"]), 2);
    assert_eq!(
        code(&[
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "a dir",
            "--engine",
            "b",
            "--sp",
            "0"
        ]),
        0
    );
    assert_eq!(
        code(&[
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "a hash=1",
            "--engine",
            "b",
            "--sp",
            "0"
        ]),
        2
    );
    assert_eq!(code(&["match", "--engine", "a hash=1", "--sp", "0"]), 2);
    // A missing engine program: 127 for match (tournament only writes the line).
    assert_eq!(
        code(&["match", "--engine", "/nonexistent/engine", "--sp", "0"]),
        127
    );
}

/// Toga II (no UCI_Chess960: wrapped, the option offered, through polyglot) against the
/// built-in engine over XBoard, from an SP and a DFRC pair.
const XBOARD_TOGA: Case = Case {
    golden: "xboard-toga.sh",
    args: &[
        "--emit",
        "xboard",
        "--engine",
        "/usr/games/toga2",
        "--engine",
        "sp960 engine proto=xboard",
        "--sp",
        "860,0:959",
        "--tc",
        "0:05+0.05",
    ],
    book_args: &["860,0:959", "--format", "fen"],
    book: "sp960-FRC.fen",
};

/// Glaurung 2.2 from DFRC pairs whose castling files differ between the colours: wrapped
/// in the proxy (its shield) and given `Threads=1` by `-secondOptions`, through polyglot.
const XBOARD_GLAURUNG: Case = Case {
    golden: "xboard-glaurung.sh",
    args: &[
        "--emit",
        "xboard",
        "--engine",
        "sp960 engine proto=xboard",
        "--engine",
        "/usr/games/glaurung",
        "--sp",
        "860:1,0:959",
        "--tc",
        "0:05+0.05",
    ],
    book_args: &["860:1,0:959", "--format", "fen"],
    book: "sp960-FRC.fen",
};

/// Runs an emitted xboard command under Xvfb, made quick (no GUI, short pauses, shallow
/// searches, short games); returns what python-chess replays: White, Black, FEN, moves.
fn play_xboard(case: &Case) -> Vec<Vec<String>> {
    let (dir, argv) = run(case);
    let bin = Path::new(env!("CARGO_BIN_EXE_sp960")).parent().unwrap();
    let path = format!(
        "{}:/usr/games:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Process::new("timeout")
        .args(["50", "xvfb-run", "-a"])
        .args(&argv)
        .args([
            "-noGUI",
            "-matchPause",
            "100",
            "-depth",
            "3",
            "-adjudicateDrawMoves",
            "30",
        ])
        .args(["-debugMode", "true", "-nameOfDebugFile", "xboard.debug"])
        .env("PATH", path)
        .current_dir(dir.path())
        .output()
        .expect("xvfb-run and xboard are installed (scripts/test.sh installs them)");
    let debug = std::fs::read_to_string(dir.path().join("xboard.debug")).unwrap_or_default();
    assert!(
        output.status.success(),
        "xboard failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        &debug[debug.len().saturating_sub(3000)..]
    );
    assert!(
        !debug.contains("Illegal move"),
        "an engine made an illegal move"
    );
    replay_games(&dir.path().join("sp960-games.pgn"))
        .lines()
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}

fn identify(fen: &str) -> String {
    let output = sp960().args(["identify", fen]).output().unwrap();
    assert!(output.status.success(), "{fen}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

#[test]
fn xboard_plays_the_chosen_starts_with_both_colours() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Polyglot,
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::Stockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    // One SP by number: xboard's -defaultFrcPosition counts as Scharnagl does.
    let games = play_xboard(&XBOARD_NUMBER);
    assert_eq!(games.len(), 2, "{games:?}");
    for game in &games {
        assert_eq!(identify(&game[2]), "707");
        assert!(game[3].parse::<u32>().unwrap() > 0, "moves were played");
    }
    assert_eq!(
        (&games[0][0], &games[0][1]),
        (&games[1][1], &games[1][0]),
        "colours swap"
    );
    // A DFRC pair and an SP from a position file, each twice; a UCI engine via polyglot.
    let games = play_xboard(&XBOARD_BOOK);
    let starts: Vec<String> = games.iter().map(|game| identify(&game[2])).collect();
    assert_eq!(starts, ["0:959", "0:959", "860", "860"]);
    for pair in games.chunks(2) {
        assert_eq!(
            (&pair[0][0], &pair[0][1]),
            (&pair[1][1], &pair[1][0]),
            "colours swap"
        );
    }
    // README's worked example 3: Fairy-Stockfish wrapped for xboard's O-O, from SP 860.
    let games = play_xboard(&XBOARD_PROXY);
    assert_eq!(games.len(), 2, "{games:?}");
    for game in &games {
        assert_eq!(identify(&game[2]), "860");
    }
    assert_eq!((&games[0][0], &games[0][1]), (&games[1][1], &games[1][0]));
    let games = play_xboard(&XBOARD_BOOK);
    assert!(games.iter().any(|game| game[0].contains("Stockfish")
        || game[1].contains("Stockfish")
        || game[0] == "stockfish"
        || game[1] == "stockfish"));
}

#[test]
fn xboard_plays_toga_wrapped_and_the_builtin_engine() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Polyglot,
        Peer::Toga2,
        Peer::PythonChess,
    ]) {
        return;
    }
    let games = play_xboard(&XBOARD_TOGA);
    assert_played_in_pairs(&games, &["860", "860", "0:959", "0:959"]);
}

#[test]
fn xboard_plays_glaurung_wrapped_with_one_thread_on_mixed_castling_files() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Polyglot,
        Peer::Glaurung,
        Peer::PythonChess,
    ]) {
        return;
    }
    let games = play_xboard(&XBOARD_GLAURUNG);
    assert_played_in_pairs(&games, &["860:1", "860:1", "0:959", "0:959"]);
}

/// `games` (as [`play_xboard`] gives them) start from `starts`, in order, two games a start
/// with the colours swapped, and each pair's first game has moves.
fn assert_played_in_pairs(games: &[Vec<String>], starts: &[&str]) {
    let found: Vec<String> = games.iter().map(|game| identify(&game[2])).collect();
    assert_eq!(found, starts);
    for pair in games.chunks(2) {
        assert_eq!(
            (&pair[0][0], &pair[0][1]),
            (&pair[1][1], &pair[1][0]),
            "colours swap"
        );
        assert!(pair[0][3].parse::<u32>().unwrap() > 0, "moves were played");
    }
}

/// What the table in README claims for xboard's UCI path: Stockfish, Fairy-Stockfish and
/// Glaurung, run through polyglot with no wrapper, castle in Chess960. From two positions
/// where the only mate is castling (O-O-O with the king staying on c1; O-O with the king
/// staying on g1), each engine plays White from each once (`-lpi -2`); python-chess replays
/// the games.
#[test]
fn xboard_uci_engines_through_polyglot_castle_in_chess960() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Polyglot,
        Peer::SjaakII,
        Peer::Stockfish,
        Peer::FairyStockfish,
        Peer::Glaurung,
        Peer::PythonChess,
    ]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mates-FRC.fen"),
        "3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1\n5k2/4R1R1/8/8/8/8/7P/6KR w H - 0 1\n",
    )
    .unwrap();
    let path = format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default());
    for engine in ["stockfish", "fairy-stockfish", "glaurung"] {
        let pgn = format!("{engine}.pgn");
        let status = Process::new("timeout")
            .args([
                "50",
                "xvfb-run",
                "-a",
                "xboard",
                "-fcp",
                "/usr/games/sjaakii",
            ])
            .args([
                "-scp",
                &format!("/usr/games/{engine}"),
                "-sn",
                engine,
                "-sUCI",
            ])
            .args([
                "-variant",
                "fischerandom",
                "-lpf",
                "mates-FRC.fen",
                "-lpi",
                "-2",
            ])
            .args([
                "-matchGames",
                "4",
                "-matchPause",
                "100",
                "-tc",
                "0:10",
                "-inc",
                "0.1",
            ])
            .args([
                "-depth",
                "4",
                "-xexit",
                "-saveSettingsOnExit",
                "false",
                "-noGUI",
            ])
            .args(["-sgf", &pgn])
            .env("PATH", &path)
            .current_dir(dir.path())
            .output()
            .expect("xvfb-run and xboard are installed");
        assert!(status.status.success(), "{engine}: {status:?}");
        let text = std::fs::read_to_string(dir.path().join(&pgn)).unwrap();
        assert_eq!(text.matches("1. O-O-O#").count(), 2, "{engine}:\n{text}");
        assert_eq!(text.matches("1. O-O#").count(), 2, "{engine}:\n{text}");
        assert_eq!(text.matches("[Result \"1-0\"]").count(), 4, "{text}");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/replay_games.py");
        let replay = Process::new("python3")
            .arg(script)
            .arg(dir.path().join(&pgn))
            .output()
            .unwrap();
        assert!(
            replay.status.success(),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        let games = String::from_utf8(replay.stdout).unwrap();
        // The UCI engine had White (and castled) in games 2 and 4.
        let whites: Vec<&str> = games
            .lines()
            .map(|line| line.split('\t').next().unwrap())
            .collect();
        assert_eq!(whites[1], engine, "{games}");
        assert_eq!(whites[3], engine, "{games}");
    }
}

#[test]
fn a_book_name_without_frc_or_960_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    sp960()
        .current_dir(dir.path())
        .args([
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
        ])
        .args([
            "--sp",
            "0,959",
            "--book",
            "openings.epd",
            "--castling",
            "xfen",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("file=openings.epd"))
        .stderr(predicate::str::contains(
            "'openings.epd' has neither FRC nor 960",
        ));
    let book = std::fs::read_to_string(dir.path().join("openings.epd")).unwrap();
    assert_eq!(
        book,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - id \"SP 0\";\n\
         rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - id \"SP 959\";\n"
    );
}
