//! `sp960 tournament`: golden command lines, parsed back against each tool's documented
//! syntax, books equal to `sp960 book`, and a real xboard match under Xvfb.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;
use predicates::prelude::*;

#[path = "support/process.rs"]
mod process;
use process::replay_games;

fn sp960() -> Command {
    Command::cargo_bin("sp960").expect("binary built")
}

/// One golden case: the arguments after `sp960 tournament`, and the book's format.
struct Case {
    golden: &'static str,
    args: &'static [&'static str],
    /// `sp960 book` arguments that give the same book.
    book_args: &'static [&'static str],
    book: &'static str,
}

const CUTECHESS: Case = Case {
    golden: "cutechess.sh",
    args: &[
        "--emit",
        "cutechess",
        "--engine",
        "cmd=/usr/games/stockfish option.Hash=16 option.Threads=1",
        "--engine",
        "cmd=/usr/games/fairy-stockfish",
        "--engine",
        "cmd=/usr/games/sjaakii proto=xboard 'name=Sjaak II'",
        "--engine",
        "cmd=/usr/games/fairy-stockfish proto=xboard name=fairy-xboard",
        "--sp",
        "0,518,959",
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
    book_args: &["0,518,959", "0:959"],
    book: "book-FRC.epd",
};

const FASTCHESS: Case = Case {
    golden: "fastchess.sh",
    args: &[
        "--emit",
        "fastchess",
        "--engine",
        "cmd=/usr/games/stockfish option.Hash=16",
        "--engine",
        "cmd=/usr/games/ethereal-chess",
        "--engine",
        "cmd=/usr/games/glaurung castling=xfen",
        "--sp",
        "0-3",
        "--dfrc-sample",
        "2",
        "--seed",
        "9",
        "--book-format",
        "pgn",
        "--book",
        "book-FRC.pgn",
    ],
    book_args: &[
        "0-3",
        "--dfrc-sample",
        "2",
        "--seed",
        "9",
        "--format",
        "pgn",
    ],
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

fn key_values(values: &[String]) -> Vec<(&str, &str)> {
    values
        .iter()
        .map(|value| {
            value
                .split_once('=')
                .unwrap_or_else(|| panic!("'{value}' is not key=value"))
        })
        .collect()
}

/// Checks a cutechess-cli or fastchess argv against the options each documents.
fn check_runner(argv: &[String], fastchess: bool, starts: usize, book: &str, format: &str) {
    assert_eq!(
        argv[0],
        if fastchess {
            "fastchess"
        } else {
            "cutechess-cli"
        }
    );
    let engine_keys: &[&str] = if fastchess {
        &["cmd", "name", "args", "dir", "proto"]
    } else {
        &["cmd", "name", "arg", "dir", "proto"]
    };
    let mut seen = Vec::new();
    let mut engines = 0;
    for (option, values) in groups(argv) {
        seen.push(option.clone());
        match option.as_str() {
            "-engine" => {
                engines += 1;
                let pairs = key_values(&values);
                for (key, value) in &pairs {
                    assert!(
                        engine_keys.contains(key) || key.starts_with("option."),
                        "engine key {key}"
                    );
                    if *key == "proto" {
                        assert!(if fastchess {
                            *value == "uci"
                        } else {
                            ["uci", "xboard"].contains(value)
                        });
                    }
                }
                for required in ["cmd", "name", "proto"] {
                    assert!(
                        pairs.iter().any(|(key, _)| *key == required),
                        "{required} in {values:?}"
                    );
                }
                // A wrapped engine runs `sp960 proxy [flags] -- ENGINE`.
                if pairs.contains(&("cmd", "sp960")) {
                    let args: Vec<&str> = if fastchess {
                        pairs
                            .iter()
                            .find(|(key, _)| *key == "args")
                            .unwrap()
                            .1
                            .split(' ')
                            .collect()
                    } else {
                        pairs
                            .iter()
                            .filter(|(key, _)| *key == "arg")
                            .map(|(_, v)| *v)
                            .collect()
                    };
                    assert_eq!(args[0], "proxy");
                    let dashes = args
                        .iter()
                        .position(|a| *a == "--")
                        .expect("-- before the engine");
                    assert!(args[dashes + 1].starts_with("/usr/games/"));
                    for flag in args[1..dashes].chunks(2) {
                        assert!(
                            matches!(
                                flag,
                                ["--protocol", "uci" | "xboard"]
                                    | ["--engine-castling", "shredder" | "xfen" | "oo" | "kxr"]
                            ),
                            "{flag:?}"
                        );
                    }
                }
            }
            "-each" => assert!(key_values(&values).iter().all(|(key, _)| *key == "tc")),
            "-variant" => assert_eq!(values, ["fischerandom"]),
            "-openings" => {
                let pairs = key_values(&values);
                assert_eq!(
                    pairs,
                    [("file", book), ("format", format), ("order", "sequential")]
                );
            }
            "-games" => assert_eq!(values, ["2"]),
            "-rounds" => assert_eq!(values, [starts.to_string()]),
            "-repeat" => assert!(values.is_empty()),
            "-concurrency" => assert!(values[0].parse::<u32>().is_ok()),
            "-pgnout" => {
                assert_eq!(values.len(), 1);
                assert_eq!(values[0].starts_with("file="), fastchess);
            }
            other => panic!("{other} is not an option sp960 means to emit"),
        }
    }
    assert!(engines >= 2);
    for required in [
        "-each",
        "-variant",
        "-openings",
        "-games",
        "-rounds",
        "-repeat",
        "-pgnout",
    ] {
        assert!(seen.iter().any(|s| s == required), "{required} missing");
    }
}

#[test]
fn cutechess_command_line() {
    let (_dir, argv) = run(&CUTECHESS);
    check_runner(&argv, false, 4, "book-FRC.epd", "epd");
    // Fairy-Stockfish wrapped (cutechess would send UCI_Variant chess960), the others not.
    assert!(argv.contains(&"arg=/usr/games/fairy-stockfish".to_owned()));
    assert!(argv.contains(&"cmd=/usr/games/stockfish".to_owned()));
    assert!(argv.contains(&"name=Sjaak II".to_owned()));
    // cutechess-cli sends XBoard engines king-takes-rook, which Fairy-Stockfish takes.
    assert!(argv.contains(&"cmd=/usr/games/fairy-stockfish".to_owned()));
    assert_eq!(argv.iter().filter(|word| *word == "cmd=sp960").count(), 1);
}

#[test]
fn fastchess_command_line() {
    let (_dir, argv) = run(&FASTCHESS);
    check_runner(&argv, true, 6, "book-FRC.pgn", "pgn");
    assert!(argv.contains(&"args=proxy --engine-castling xfen -- /usr/games/glaurung".to_owned()));
    assert!(!argv.iter().any(|w| w.contains("fairy")));
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
    for case in [XBOARD_BOOK, XBOARD_NUMBER] {
        let (_dir, argv) = run(&case);
        check_xboard(&argv);
    }
}

#[test]
fn engines_that_cannot_play_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    sp960()
        .current_dir(dir.path())
        .args([
            "tournament",
            "--emit",
            "cutechess",
            "--engine",
            "cmd=/usr/games/stockfish",
        ])
        .args(["--engine", "cmd=/usr/games/toga2", "--sp", "0"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            predicate::str::contains("'toga2' cannot play Chess960 under cutechess-cli")
                .and(predicate::str::contains("UCI_Chess960")),
        );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no book written"
    );
    sp960()
        .current_dir(dir.path())
        .args([
            "tournament",
            "--emit",
            "fastchess",
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b proto=xboard",
            "--sp",
            "0",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("fastchess speaks only UCI"));
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
            "--sp",
            "0",
            "--tc",
            "fast",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("time control 'fast'"));
    // A base too long for a clock is refused, not written as `-tc 307445734561825860:15`.
    sp960()
        .current_dir(dir.path())
        .args([
            "tournament",
            "--emit",
            "xboard",
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
            "--sp",
            "0",
            "--tc",
            "1e300",
        ])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "time control '1e300': 1e300 seconds is out of range",
        ));
}

/// Runs an emitted xboard command under Xvfb, made quick (no GUI, short pauses, shallow
/// searches, short games); returns what python-chess replays: White, Black, FEN, moves.
fn play_xboard(case: &Case) -> Vec<Vec<String>> {
    let (dir, argv) = run(case);
    let path = format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default());
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
        .expect("xvfb-run and xboard are installed (.ci/run installs them)");
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
    assert!(games.iter().any(|game| game[0].contains("Stockfish")
        || game[1].contains("Stockfish")
        || game[0] == "stockfish"
        || game[1] == "stockfish"));
}

/// What the table in README claims for xboard's UCI path: Stockfish, Fairy-Stockfish and
/// Glaurung, run through polyglot with no wrapper, castle in Chess960. From two positions
/// where the only mate is castling (O-O-O with the king staying on c1; O-O with the king
/// staying on g1), each engine plays White from each once (`-lpi -2`); python-chess replays
/// the games.
#[test]
fn xboard_uci_engines_through_polyglot_castle_in_chess960() {
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
