//! `sp960 match --runner fastchess|cutechess`: the same small fixed-node match played by the
//! built-in runner and handed to each real runner gives the same games move for move and
//! the same table and JSON, read back from the runner's PGN; options a runner cannot honour
//! are refused before anything runs.
//!
//! A missing runner or engine skips its test with a message, except when `CI` is set: then
//! it is a failure (tests/support/peers.rs).

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Mutex;

use serde_json::Value;

#[path = "support/peers.rs"]
mod peers;
use peers::{Peer, games, search_path};

/// One match at a time on a 2-core machine.
static RUNNING: Mutex<()> = Mutex::new(());

const ENGINES: [&str; 2] = [
    "/usr/games/stockfish name=a nodes=800",
    "/usr/games/stockfish name=b nodes=400",
];

fn sp960(dir: &Path, args: &[&str], path: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sp960"))
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap()
}

/// `sp960 match` with `extra` options, in `dir`, through `runner` (or the built-in runner);
/// returns stdout, asserting success.
fn play(dir: &Path, runner: Option<&str>, extra: &[&str]) -> String {
    let mut args = vec!["match", "--engine", ENGINES[0], "--engine", ENGINES[1]];
    args.extend([
        "--sp",
        "100-102",
        "--concurrency",
        "1",
        "--pgn",
        "games.pgn",
    ]);
    args.extend(extra);
    if let Some(runner) = runner {
        args.extend(["--runner", runner]);
    }
    let output = sp960(dir, &args, &search_path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// Each game of a `--json` summary without its reason (the runners word it their way).
fn listed(summary: &Value) -> Vec<Value> {
    summary["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| {
            let mut game = game.clone();
            game.as_object_mut().unwrap().remove("reason");
            game
        })
        .collect()
}

/// Plays the match with the built-in runner and with `runner` (each in a directory of its
/// own, with the same PGN name), as a table and as JSON, and compares.
fn same_as_built_in(runner: &str, extra: &[&str]) -> (Value, String) {
    let builtin = tempfile::tempdir().unwrap();
    let handed = tempfile::tempdir().unwrap();
    let ours = play(builtin.path(), None, extra);
    let theirs = play(handed.path(), Some(runner), extra);
    assert_eq!(ours, theirs, "the tables differ");
    let pgn = |dir: &Path| std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let our_games = games(&pgn(builtin.path()));
    let their_games = games(&pgn(handed.path()));
    assert_eq!(our_games.len(), 6);
    assert_eq!(our_games, their_games, "{runner} played other games");

    // --json: the same games, starts, plies and statistics; the PGN (now 12 games) is only
    // read from where this run began.
    let mut json = extra.to_vec();
    json.push("--json");
    let ours: Value = serde_json::from_str(&play(builtin.path(), None, &json)).unwrap();
    let theirs: Value = serde_json::from_str(&play(handed.path(), Some(runner), &json)).unwrap();
    assert_eq!(listed(&ours), listed(&theirs));
    for key in [
        "score",
        "stats",
        "sprt",
        "unpaired_games",
        "engines",
        "standings",
        "pairs",
    ] {
        assert_eq!(ours[key], theirs[key], "{key}");
    }
    let plies: Vec<u64> = listed(&theirs)
        .iter()
        .map(|game| game["plies"].as_u64().unwrap())
        .collect();
    let counted: Vec<u64> = their_games.iter().map(|(_, m)| m.len() as u64).collect();
    assert_eq!(plies, counted, "plies read back from {runner}'s PGN");
    let starts: Vec<String> = listed(&theirs)
        .iter()
        .map(|game| game["start"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(starts, ["100", "100", "101", "101", "102", "102"]);
    (theirs, pgn(handed.path()))
}

#[test]
fn fastchess_plays_the_same_games_and_sprt_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::Fastchess]) {
        return;
    }
    let (summary, pgn) = same_as_built_in(
        "fastchess",
        &["--sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"],
    );
    assert!(summary["stats"]["llr"].is_number(), "{summary}");
    assert!(pgn.contains("[Event \"Fastchess Tournament\"]"), "{pgn}");
    assert!(
        pgn.contains("w HEhe - 0 1\"]"),
        "fastchess writes Shredder castling"
    );
}

#[test]
fn cutechess_adjudicates_the_same_games_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::CutechessCli]) {
        return;
    }
    let (summary, pgn) = same_as_built_in(
        "cutechess",
        &[
            "--resign",
            "movecount=3 score=400",
            "--draw",
            "movenumber=20 movecount=4 score=15",
            "--max-plies",
            "60",
        ],
    );
    let terminations: Vec<&str> = summary["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["termination"].as_str().unwrap())
        .collect();
    assert!(terminations.contains(&"adjudication"), "{summary}");
    assert!(
        summary["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|game| game["plies"].as_u64().unwrap() <= 60),
        "{summary}"
    );
    assert!(
        pgn.contains("w KQkq - 0 1\"]"),
        "cutechess-cli writes X-FEN castling"
    );
}

#[test]
fn options_a_runner_cannot_honour_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = search_path();
    for (runner, extra, message) in [
        (
            "fastchess",
            &["--max-plies", "7"][..],
            "--runner fastchess: --max-plies 7: the runner's -maxmoves counts moves of both sides",
        ),
        (
            "cutechess",
            &["--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05"][..],
            "--runner cutechess-cli: --sprt is fastchess's SPRT",
        ),
        (
            "fastchess",
            &["--tc", "10+0.1", "--movetime", "100"][..],
            "--tc with a time per move",
        ),
        (
            "fastchess",
            &[
                "--engine",
                "/usr/games/stockfish name=b",
                "--engine",
                "/usr/games/stockfish name=c",
                "--sp",
                "101-102",
            ][..],
            "fastchess gives each of the 3 pairings in turn the next opening of a book it cuts \
             to -rounds (3) openings, so 3 openings × 1 rounds would not reach every pairing \
             with every opening; give --rounds a multiple of 3, or use --runner cutechess",
        ),
        (
            "cutechess",
            &["--log", "logs"][..],
            "--log is the built-in runner's",
        ),
        (
            "fastchess",
            &["--affinity", "0"][..],
            "--affinity is the built-in runner's (fastchess has its own -use-affinity",
        ),
        (
            "fastchess",
            &["--resume"][..],
            "--resume is the built-in runner's (fastchess resumes from its own -config file=)",
        ),
        (
            "cutechess",
            &["--site", "Lab"][..],
            "--event and --site are the built-in runner's",
        ),
    ] {
        let mut args = vec!["match", "--engine", ENGINES[0], "--sp", "100", "--runner"];
        // (--sp given twice adds the starts.)
        args.push(runner);
        args.extend(extra);
        let output = sp960(dir.path(), &args, &path);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing is written"
    );
    // A runner not on PATH: named, exit 127, before any engine starts.
    let output = sp960(
        dir.path(),
        &["match", "--sp", "100", "--runner", "cutechess"],
        dir.path().to_str().unwrap(),
    );
    assert_eq!(output.status.code(), Some(127));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sp960: match: --runner: 'cutechess-cli' not found on PATH\n"
    );
}

#[test]
fn fastchess_refuses_an_xboard_engine_as_sp960_tournament_does() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::SjaakII, Peer::Fastchess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960(
        dir.path(),
        &[
            "match",
            "--engine",
            "proto=xboard /usr/games/sjaakii",
            "--sp",
            "100",
            "--depth",
            "2",
            "--runner",
            "fastchess",
        ],
        &search_path(),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("fastchess speaks only UCI"), "{stderr}");
}

#[cfg(unix)] // SIGINT to a process group
#[test]
fn ctrl_c_stops_the_runner_and_reports_the_games_it_finished() {
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::CutechessCli]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sp960"))
        .args(["match", "--engine", ENGINES[0], "--engine", ENGINES[1]])
        .args([
            "--sp",
            "100-139",
            "--concurrency",
            "1",
            "--pgn",
            "games.pgn",
        ])
        .args(["--runner", "cutechess"])
        .current_dir(dir.path())
        .env("PATH", search_path())
        // A process group of its own, as a shell gives a job: Ctrl-C reaches all of it.
        .process_group(0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pgn = dir.path().join("games.pgn");
    let begin = Instant::now();
    while std::fs::read_to_string(&pgn).map_or(0, |text| text.matches("[Event ").count()) < 3 {
        assert!(begin.elapsed() < Duration::from_secs(120), "no games");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to the child's own process group.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    // A game cut short is left out of the count: cutechess-cli writes it with `*`, or, when
    // the signal comes before its first move, as a stub whose tags are all `?`.
    let finished = games(&text)
        .iter()
        .filter(|(result, _)| ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()))
        .count();
    assert!(finished < 80, "the match was stopped early");
    assert!(
        stdout.contains(&format!("PGN: games.pgn ({finished} games appended)")),
        "{stdout}\n{stderr}\nthe PGN:\n{text}"
    );
    assert!(
        stderr.ends_with(&format!(
            "sp960: match: interrupted: {finished} games saved to games.pgn\n"
        )),
        "{stderr}"
    );
}

/// A PGN book: a game from SP 100's root whose opening castles (cut to 5 plies), and one
/// from the standard start without a FEN tag.
const PGN_BOOK: &str = "[Event \"a\"]
[Variant \"Chess960\"]
[SetUp \"1\"]
[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1\"]

1. e4 e5 2. Ng3 Ng6 3. O-O O-O *

[Event \"b\"]

1. d4 d5 2. c4 *
";

/// An EPD book: a comment, SP 0 with an id, the standard start after 1. e4 e5 (counters
/// as operations) and SP 959.
const EPD_BOOK: &str = "# three openings
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"SP 0\";
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2;
rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1
";

/// Plays `args` (after `match`, with `--concurrency 1 --pgn games.pgn --json`) with the
/// built-in runner and with `runner`, each in a directory of its own holding `files`;
/// asserts the same games move for move (as sets: the runners order pairings their way),
/// the same games listed (start, colours, result, plies, the built-in runner's game
/// number), standings and per-pair lines; returns the runner's summary.
fn same_games(runner: &str, args: &[&str], files: &[(&str, &str)]) -> Value {
    let run = |runner: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let mut all = vec!["match"];
        all.extend(args);
        all.extend(["--concurrency", "1", "--pgn", "games.pgn", "--json"]);
        if let Some(runner) = runner {
            all.extend(["--runner", runner]);
        }
        let output = sp960(dir.path(), &all, &search_path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{all:?}: {stderr}");
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
        let mut played = games(&std::fs::read_to_string(dir.path().join("games.pgn")).unwrap());
        played.sort();
        let mut listed = listed(&summary);
        listed.sort_by_key(|game| game["round"].as_u64());
        (summary, played, listed)
    };
    let (ours, our_games, our_list) = run(None);
    let (theirs, their_games, their_list) = run(Some(runner));
    assert!(!our_games.is_empty());
    assert_eq!(
        our_games, their_games,
        "{runner} played other games: {args:?}"
    );
    assert_eq!(our_list, their_list, "{args:?}");
    for key in [
        "score",
        "stats",
        "unpaired_games",
        "engines",
        "standings",
        "pairs",
    ] {
        assert_eq!(ours[key], theirs[key], "{key}: {args:?}");
    }
    theirs
}

/// `--openings` from an EPD book (start=2 count=2: its last two positions) and a PGN book
/// (plies=5, so the opening ends with white's castling), with a numbered start before them.
fn openings_as_built_in(runner: &str) {
    let engines = ["--engine", ENGINES[0], "--engine", ENGINES[1]];
    let mut epd = engines.to_vec();
    epd.extend(["--openings", "file=book.epd start=2 count=2"]);
    let summary = same_games(runner, &epd, &[("book.epd", EPD_BOOK)]);
    let starts: Vec<&str> = summary["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["start"].as_str().unwrap())
        .collect();
    assert_eq!(
        starts,
        ["book.epd:3", "book.epd:3", "book.epd:4", "book.epd:4"]
    );
    let mut pgn = engines.to_vec();
    pgn.extend([
        "--sp",
        "959",
        "--openings",
        "file=book.pgn format=pgn plies=5",
    ]);
    let summary = same_games(runner, &pgn, &[("book.pgn", PGN_BOOK)]);
    assert_eq!(summary["games"].as_array().unwrap().len(), 6);
}

#[test]
fn fastchess_plays_an_epd_and_a_pgn_book_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::Fastchess]) {
        return;
    }
    openings_as_built_in("fastchess");
}

#[test]
fn cutechess_plays_an_epd_and_a_pgn_book_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::CutechessCli]) {
        return;
    }
    openings_as_built_in("cutechess");
}

/// Three engines: a round-robin over two starts (3 pairings × 2 starts × 2 colours) and a
/// gauntlet over three (2 × 3 × 2).
fn more_engines_as_built_in(runner: &str) {
    let engines = [
        "--engine",
        "/usr/games/stockfish name=a nodes=600",
        "--engine",
        "/usr/games/stockfish name=b nodes=300",
        "--engine",
        "/usr/games/stockfish name=c nodes=150",
    ];
    let mut round_robin = engines.to_vec();
    round_robin.extend(["--sp", "100-101"]);
    let summary = same_games(runner, &round_robin, &[]);
    assert_eq!(summary["games"].as_array().unwrap().len(), 12);
    assert_eq!(summary["pairs"].as_array().unwrap().len(), 3);
    let mut gauntlet = engines.to_vec();
    gauntlet.extend(["--sp", "100-102", "--gauntlet"]);
    let summary = same_games(runner, &gauntlet, &[]);
    assert_eq!(summary["games"].as_array().unwrap().len(), 12);
    assert_eq!(summary["pairs"].as_array().unwrap().len(), 2);
}

#[test]
fn fastchess_plays_a_round_robin_and_a_gauntlet_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::Fastchess]) {
        return;
    }
    more_engines_as_built_in("fastchess");
}

#[test]
fn cutechess_plays_a_round_robin_and_a_gauntlet_as_the_built_in_runner() {
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Stockfish, Peer::CutechessCli]) {
        return;
    }
    more_engines_as_built_in("cutechess");
}

/// Handed to fastchess with `--openings` (a book sp960 does not number), Glaurung 2.2 is
/// still wrapped in the proxy and given one thread: the openings' roots decide, and two of
/// them are DFRC pairs whose castling files differ between the colours (where it corrupts
/// its memory unwrapped: docs/tournament.md). Every game ends by the rules.
#[test]
fn fastchess_wraps_glaurung_for_openings_whose_castling_files_differ() {
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if !peers::need(&[Peer::Fastchess, Peer::Glaurung, Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("book.epd"),
        "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAhf - id \"860:1\";\n\
         rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - id \"0:959\";\n",
    )
    .unwrap();
    let args = [
        "match",
        "--engine",
        "/usr/games/glaurung",
        "--engine",
        "/usr/games/stockfish",
        "--openings",
        "file=book.epd",
        "--depth",
        "8",
        "--concurrency",
        "2",
        "--pgn",
        "games.pgn",
        "--runner",
        "fastchess",
    ];
    let output = sp960(dir.path(), &args, &search_path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    for told in [
        "sp960: match: engine 'Glaurung 2.2': given option Threads=1",
        "sp960: match: engine 'Glaurung 2.2': wrapped in sp960 proxy because it keeps one king \
         file and one rook file per wing for both colours, and in book.epd:1 the colours' \
         castling files differ",
        "'args=proxy -- /usr/games/glaurung' proto=uci depth=8 option.Threads=1",
    ] {
        assert!(stderr.contains(told), "{stderr}");
    }
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert_eq!(games(&pgn).len(), 4, "{pgn}");
    assert_eq!(pgn.matches("[Termination \"normal\"]").count(), 4, "{pgn}");
}

/// `--affinity CPUS` reads a CPU list as fastchess's `-use-affinity CPUS` does (its source's
/// `parseIntList`): fastchess, given each list with engines that do not exist, says "Bad
/// cpu list" exactly when clap refuses the list for sp960. One deliberate difference: a CPU
/// named twice, which fastchess takes, is refused by sp960 (two games would share it).
#[test]
fn affinity_cpu_lists_are_read_as_fastchess_reads_them() {
    if !peers::need(&[Peer::Fastchess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = search_path();
    let fastchess_refuses = |list: &str| {
        let output = Command::new("fastchess")
            .args(["-use-affinity", list])
            .args(["-engine", "cmd=/nonexistent/a", "name=a"])
            .args(["-engine", "cmd=/nonexistent/b", "name=b"])
            .args(["-each", "tc=1", "-rounds", "1"])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        let said =
            String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{list}: {said}");
        said.contains("Bad cpu list")
    };
    let sp960_refuses = |list: &str| {
        let output = sp960(
            dir.path(),
            &["match", "--engine", "a", "--sp", "0", "--affinity", list],
            &path,
        );
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "{list}: {stderr}");
        let refused = stderr.contains(&format!("invalid value '{list}' for '--affinity"));
        (refused, stderr)
    };
    for list in [
        "1", "0,2,4-7", "0-1,3", "3-1", "2-2", "a", "1,,2", "", "-1", "1-",
    ] {
        let (refused, stderr) = sp960_refuses(list);
        assert_eq!(refused, fastchess_refuses(list), "{list:?}: {stderr}");
    }
    let (refused, stderr) = sp960_refuses("1,0-2");
    assert!(!fastchess_refuses("1,0-2"));
    assert!(
        refused && stderr.contains("CPU 1 is named twice"),
        "{stderr}"
    );
}
