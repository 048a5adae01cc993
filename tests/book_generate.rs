//! `sp960 book --plies N --engine ...` with Stockfish: the same bytes twice and at any
//! `--concurrency`, every record replaying from its start to its fields and scored inside
//! its window, PGN holding the same openings, Ctrl-C then `--resume` giving the
//! uninterrupted book, an engine that crashes or hangs once restarted without changing the
//! book (the scripted engine relays to Stockfish and fails on cue), and bad arguments named.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Output};

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use sp960::Start;
use sp960::parse_move;
use sp960::{CastlingNotation, epd_fields};

#[path = "support/peers.rs"]
mod peers;
#[path = "support/process.rs"]
mod process;
use peers::Peer;
use process::fake_engine;

const STOCKFISH: &str = "/usr/games/stockfish";

/// `sp960 book ARGS` in `dir`.
fn sp960(dir: &Path, args: &[&str]) -> Output {
    Command::new(peers::sp960())
        .arg("book")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The arguments of a small balanced book: 4 starts (one DFRC pair), 4 plies, 2 positions
/// each, 5000 nodes.
fn small(window: &str) -> Vec<String> {
    [
        "0,518,860",
        "100:200",
        "--plies",
        "4",
        "--engine",
        STOCKFISH,
        "--nodes",
        "5000",
        "--per-start",
        "2",
        "--window",
        window,
        "--seed",
        "11",
    ]
    .map(String::from)
    .to_vec()
}

fn run_ok(dir: &Path, args: &[String], extra: &[&str]) -> Vec<u8> {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend_from_slice(extra);
    let output = sp960(dir, &all);
    assert!(output.status.success(), "{all:?}: {}", stderr(&output));
    let file = all[all.iter().position(|a| *a == "-o").unwrap() + 1];
    std::fs::read(dir.join(file)).unwrap()
}

/// One EPD record's parts.
struct Record {
    fields: String,
    ce: i32,
    id: String,
    c0: String,
    ops: HashMap<String, String>,
}

fn parse(line: &str) -> Record {
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    let mut ops = HashMap::new();
    for op in fields[4]
        .split(';')
        .map(str::trim)
        .filter(|op| !op.is_empty())
    {
        let (name, value) = op.split_once(' ').unwrap();
        ops.insert(name.to_owned(), value.trim_matches('"').to_owned());
    }
    Record {
        fields: fields[..4].join(" "),
        ce: ops["ce"].parse().unwrap(),
        id: ops["id"].clone(),
        c0: ops["c0"].clone(),
        ops,
    }
}

fn start_of(label: &str) -> Start {
    let number = label
        .strip_prefix("SP ")
        .or_else(|| label.strip_prefix("DFRC "))
        .unwrap();
    number.parse().unwrap()
}

/// Checks every record of an EPD book: its c0 names its id and replays from the start to
/// its four fields and counters; its score from White's side is in the window; no position
/// twice; at most `per_start` per start. Returns the records per start label.
fn check_book(
    text: &str,
    plies: usize,
    window: (i32, i32),
    per_start: usize,
) -> HashMap<String, usize> {
    let mut keys = HashSet::new();
    let mut per = HashMap::new();
    for line in text.lines() {
        let record = parse(line);
        let (label, moves) = record.c0.split_once(": ").unwrap();
        assert_eq!(label, record.id, "{line}");
        let mut position: Chess = start_of(label).position().unwrap();
        for m in moves.split(' ') {
            let m = parse_move(&position, m.as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
            position.play_unchecked(m);
        }
        assert_eq!(moves.split(' ').count(), plies, "{line}");
        let setup = position.to_setup(EnPassantMode::Legal);
        assert_eq!(
            epd_fields(&setup, CastlingNotation::Shredder),
            record.fields,
            "{line}"
        );
        assert_eq!(record.ops["hmvc"], setup.halfmoves.to_string(), "{line}");
        assert_eq!(record.ops["fmvn"], setup.fullmoves.to_string(), "{line}");
        assert!(record.ops["acn"].parse::<u64>().unwrap() > 0, "{line}");
        assert!(record.ops["acd"].parse::<u32>().unwrap() > 0, "{line}");
        // ce is the side to move's; the window is White's.
        let white = if position.turn().is_white() {
            record.ce
        } else {
            -record.ce
        };
        assert!(
            (window.0..=window.1).contains(&white),
            "{line}: {white} from White's side"
        );
        assert!(keys.insert(record.fields.clone()), "{line}: twice");
        *per.entry(record.id).or_default() += 1;
    }
    assert!(
        per.values().all(|&n| (1..=per_start).contains(&n)),
        "{per:?}"
    );
    per
}

#[test]
fn the_same_bytes_twice_and_at_any_concurrency_every_record_replaying_into_its_window() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = small("-35,35");
    let first = run_ok(dir.path(), &args, &["-o", "a-FRC.epd"]);
    let second = run_ok(dir.path(), &args, &["-o", "b-FRC.epd"]);
    let parallel = run_ok(
        dir.path(),
        &args,
        &["-o", "c-FRC.epd", "--concurrency", "2"],
    );
    assert!(first == second, "two runs differ");
    assert!(first == parallel, "--concurrency 2 differs");
    let text = String::from_utf8(first).unwrap();
    let per = check_book(&text, 4, (-35, 35), 2);
    assert_eq!(per.len(), 4, "{per:?}");
    assert!(per.contains_key("DFRC 100:200"));
    // Another seed, other openings; a UHO window, White ahead.
    let mut reseeded = args.clone();
    *reseeded.last_mut().unwrap() = "12".into();
    assert!(run_ok(dir.path(), &reseeded, &["-o", "d-FRC.epd"]) != text.as_bytes());
    // A UHO window, White ahead: more plies and a wider margin let White get ahead.
    let mut uho = small("90,119");
    uho[3] = "6".into();
    let extra = ["-o", "uho-FRC.epd", "--margin", "200", "--multipv", "8"];
    let uho = run_ok(dir.path(), &uho, &extra);
    let per = check_book(&String::from_utf8(uho).unwrap(), 6, (90, 119), 2);
    assert_eq!(per.len(), 4, "{per:?}");
}

/// A start that reaches no position in the window is a note, not the end of the run, even
/// when it is the first to finish: DFRC 0:959 is White-favoured by 60-185 cp after 4 plies
/// (Stockfish, 5000 nodes), 100:200 reaches -35,35. Only a book left empty is an error.
#[test]
fn a_start_out_of_the_windows_reach_is_a_note_and_only_an_empty_book_an_error() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut args = small("-35,35");
    args[0] = "0:959".into();
    let output = sp960(
        dir.path(),
        &args
            .iter()
            .map(String::as_str)
            .chain(["-o", "reach-FRC.epd"])
            .collect::<Vec<_>>(),
    );
    let message = stderr(&output);
    assert!(output.status.success(), "{message}");
    assert!(
        message.contains("DFRC 0:959: 0 of 2 positions (--per-start) after 100 tries"),
        "{message}"
    );
    let text = std::fs::read_to_string(dir.path().join("reach-FRC.epd")).unwrap();
    let per = check_book(&text, 4, (-35, 35), 2);
    assert_eq!(per.keys().collect::<Vec<_>>(), ["DFRC 100:200"], "{per:?}");
    // The pair alone: nothing written, and the error names the window and the start.
    let alone: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "100:200")
        .chain(["-o", "empty-FRC.epd"])
        .collect();
    let output = sp960(dir.path(), &alone);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("--window -35,35: no position of DFRC 0:959 reached it in 100 tries"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn pgn_books_hold_the_same_openings_from_the_start_in_san() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = small("-35,35");
    let epd = String::from_utf8(run_ok(dir.path(), &args, &["-o", "a-FRC.epd"])).unwrap();
    let pgn = String::from_utf8(run_ok(
        dir.path(),
        &args,
        &["-o", "a-FRC.pgn", "--format", "pgn", "--castling", "xfen"],
    ))
    .unwrap();
    let games: Vec<&str> = pgn.split("\n\n[Event").collect();
    let records: Vec<Record> = epd.lines().map(parse).collect();
    assert_eq!(games.len(), records.len());
    for (game, record) in games.iter().zip(&records) {
        assert!(game.contains(&format!(" \"{}\"]\n", record.id)), "{game}");
        assert!(
            game.contains("[Variant \"fischerandom\"]\n[SetUp \"1\"]\n"),
            "{game}"
        );
        let fen = game
            .split("[FEN \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut position: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        assert_eq!(position, start_of(&record.id).position().unwrap());
        let movetext = game.rsplit("\n\n").next().unwrap().trim_end();
        assert!(
            movetext.starts_with("1. ") && movetext.ends_with(" *"),
            "{movetext}"
        );
        for word in movetext
            .split(' ')
            .filter(|w| !w.ends_with('.') && *w != "*")
        {
            let m = word.parse::<San>().unwrap().to_move(&position).unwrap();
            position.play_unchecked(m);
        }
        let setup = position.to_setup(EnPassantMode::Legal);
        assert_eq!(
            epd_fields(&setup, CastlingNotation::Shredder),
            record.fields
        );
    }
}

#[cfg(unix)] // SIGINT
#[test]
fn ctrl_c_writes_the_finished_starts_and_resume_gives_the_uninterrupted_book() {
    interrupt_then_resume(false);
}

/// A terminal's Ctrl-C reaches the engines too (they die of it): their deaths are not
/// engine failures to retry, and the book resumes the same.
#[cfg(unix)] // SIGINT to a process group
#[test]
fn ctrl_c_to_the_whole_process_group_is_no_engine_failure() {
    interrupt_then_resume(true);
}

#[cfg(unix)]
fn interrupt_then_resume(whole_group: bool) {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut args = small("-40,40");
    args[0] = "0-7".into();
    args[1] = "0:959".into();
    args[7] = "20000".into();
    let full = run_ok(dir.path(), &args, &["-o", "full-FRC.epd"]);
    let part = dir.path().join("part-FRC.epd");
    let child = Command::new(peers::sp960())
        .arg("book")
        .args(&args)
        .args(["-o", "part-FRC.epd"])
        .current_dir(dir.path())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&part).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < deadline, "nothing written in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill(2) on our own child (or the process group it leads).
    unsafe {
        libc::kill(if whole_group { -pid } else { pid }, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(130), "{message}");
    assert!(message.contains("interrupted: "), "{message}");
    assert!(
        message.contains("run the same command with --resume"),
        "{message}"
    );
    let written = std::fs::read(&part).unwrap();
    assert!(!written.is_empty() && written.len() < full.len());
    assert!(full.starts_with(&written), "the finished starts, in order");
    let resumed = run_ok(dir.path(), &args, &["-o", "part-FRC.epd", "--resume"]);
    assert!(
        resumed == full,
        "resumed book differs from the uninterrupted one"
    );
    // Resuming a finished book adds nothing.
    assert!(run_ok(dir.path(), &args, &["-o", "part-FRC.epd", "--resume"]) == full);
}

#[test]
fn an_engine_that_crashes_or_hangs_once_is_restarted_and_the_book_is_the_same() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clean = run_ok(dir.path(), &small("-35,35"), &["-o", "clean-FRC.epd"]);
    let fake = fake_engine();
    for (mode, said) in [
        (
            "relay-crash-once",
            "the engine died unexpectedly from signal 6",
        ),
        ("relay-hang-once", "the engine did not answer within 1s"),
    ] {
        let marker = dir.path().join(format!("{mode}.marker"));
        let mut args = small("-35,35");
        args[5] = format!(
            "{} {mode} {} 3 {STOCKFISH}",
            fake.display(),
            marker.display()
        );
        args.extend(["--engine-timeout".into(), "1".into()]);
        args.extend(["-o".into(), format!("{mode}-FRC.epd")]);
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = sp960(dir.path(), &arg_refs);
        let message = stderr(&output);
        assert!(output.status.success(), "{mode}: {message}");
        assert!(marker.exists(), "{mode}: never failed");
        assert!(
            message.contains(&format!(
                "sp960: book: SP 0: {said}; restarting the engine and retrying the start (1 of 2)"
            )),
            "{mode}: {message}"
        );
        let book = std::fs::read(dir.path().join(format!("{mode}-FRC.epd"))).unwrap();
        assert!(book == clean, "{mode}: the book differs");
    }
}

#[test]
fn an_engine_that_always_crashes_skips_every_start_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("{} crash-on-go", fake_engine().display());
    let output = sp960(
        dir.path(),
        &[
            "860",
            "--plies",
            "2",
            "--engine",
            &engine,
            "--seed",
            "1",
            "-o",
            "x-FRC.epd",
        ],
    );
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(4), "{message}");
    assert_eq!(
        message.matches("restarting the engine").count(),
        2,
        "{message}"
    );
    assert!(
        message
            .contains("SP 860: skipped: the engine died unexpectedly from signal 6 (3 attempts)"),
        "{message}"
    );
    assert!(message.ends_with("sp960: book: --engine: every start was skipped (the last, SP 860: the engine died unexpectedly from signal 6 (3 attempts))\n"), "{message}");
}

#[test]
fn bad_arguments_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let engine = "sp960 engine";
    let cases: [(&[&str], &str); 8] = [
        (
            &["--plies", "0", "--engine", engine],
            "--plies 0: give 1 to 200 plies",
        ),
        (
            &["--plies", "2", "--engine", engine, "--window", "35,-35"],
            "--window 35,-35: the window is empty",
        ),
        (
            &["--plies", "2", "--engine", engine, "--window=10"],
            "--window 10: expected LO,HI",
        ),
        (
            &["--plies", "2", "--engine", engine, "--per-start", "0"],
            "--per-start 0:",
        ),
        (
            &["--plies", "2", "--engine", engine, "--resume"],
            "--resume needs --output FILE",
        ),
        (&["--plies", "2"], "--plies needs --engine"),
        (
            &["--plies", "2", "--engine", "sf proto=xboard"],
            "--engine: proto=xboard: book generation needs a UCI engine",
        ),
        (
            &["--nodes", "5"],
            "--nodes generates openings: give --plies N",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["860"];
        all.extend_from_slice(args);
        let output = sp960(dir.path(), &all);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{all:?}: {message}");
        assert!(
            message.starts_with(&format!("sp960: book: {expected}")),
            "{all:?}: {message}"
        );
        assert!(output.stdout.is_empty());
    }
    let output = sp960(
        dir.path(),
        &[
            "860",
            "--plies",
            "2",
            "--engine",
            "/nonexistent/engine",
            "--seed",
            "1",
        ],
    );
    assert_eq!(output.status.code(), Some(127), "{}", stderr(&output));
    assert!(stderr(&output).contains("--engine: engine '/nonexistent/engine' not found"));
}

/// cutechess-cli and fastchess play a generated PGN book's moves from its start (their
/// `{book}` comments), both colours.
#[test]
fn cutechess_cli_and_fastchess_play_the_moves_of_a_generated_pgn_book() {
    if !peers::need(&[Peer::Stockfish, Peer::CutechessCli, Peer::Fastchess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = [
        "860",
        "0:959",
        "--plies",
        "4",
        "--engine",
        STOCKFISH,
        "--nodes",
        "5000",
        "--seed",
        "1",
        "--format",
        "pgn",
        "-o",
        "gen-FRC.pgn",
    ]
    .map(String::from)
    .to_vec();
    let book = String::from_utf8(run_ok(dir.path(), &args, &[])).unwrap();
    // The SAN moves of each game, as the book holds them.
    let lines: Vec<Vec<&str>> = book
        .split("\n\n")
        .filter(|part| part.starts_with("1. "))
        .map(|movetext| {
            movetext
                .split_whitespace()
                .filter(|w| !w.ends_with('.') && *w != "*")
                .collect()
        })
        .collect();
    assert_eq!(lines.len(), 2);
    for program in ["cutechess-cli", "fastchess"] {
        let out = format!("{program}.pgn");
        let pgnout = if program == "fastchess" {
            format!("file={out}")
        } else {
            out.clone()
        };
        let output = Command::new(program)
            .current_dir(dir.path())
            .env("PATH", peers::search_path())
            .args(["-engine", "cmd=/usr/games/stockfish", "name=a"])
            .args(["-engine", "cmd=/usr/games/stockfish", "name=b"])
            .args([
                "-each",
                "proto=uci",
                "tc=inf",
                "nodes=1000",
                "-variant",
                "fischerandom",
            ])
            .args([
                "-openings",
                "file=gen-FRC.pgn",
                "format=pgn",
                "order=sequential",
            ])
            .args([
                "-games",
                "2",
                "-rounds",
                "2",
                "-repeat",
                "-concurrency",
                "1",
            ])
            .args(["-pgnout", &pgnout])
            .output()
            .unwrap();
        assert!(output.status.success(), "{program}: {output:?}");
        let games = std::fs::read_to_string(dir.path().join(&out)).unwrap();
        let played: Vec<&str> = games
            .split("\n\n")
            .filter(|p| p.starts_with("1. "))
            .collect();
        assert_eq!(played.len(), 4, "{program}: {games}");
        for (index, game) in played.iter().enumerate() {
            // Round r plays opening r, both colours.
            let expected: String = lines[index / 2]
                .iter()
                .enumerate()
                .map(|(ply, san)| {
                    let number = if ply % 2 == 0 {
                        format!("{}. ", ply / 2 + 1)
                    } else {
                        String::new()
                    };
                    format!("{number}{san} {{book}} ")
                })
                .collect();
            let flat = game.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.starts_with(expected.trim_end()),
                "{program}: {flat}\nexpected {expected}"
            );
        }
    }
}
