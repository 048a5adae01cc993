//! `sp960 match --resume`: a match interrupted at any point (Ctrl-C, `kill -9`, a crash
//! halfway through writing a game to the PGN) and resumed plays exactly the games one
//! uninterrupted run plays, compared game by game (start, colours, names, moves, result),
//! with deterministic engines: the built-in engine at a fixed depth, and Stockfish with a
//! fixed node count and one thread. A state file from other arguments is refused, naming
//! each option that differs.
//!
//! `SP960_TEST_CRASH_IN_PGN_WRITE=N` is the runner's test hook: it aborts halfway through
//! writing the Nth game it saves.
#![cfg(unix)] // SIGINT, `kill -9` and SIGABRT

#[path = "support/peers.rs"]
mod peers;

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use peers::Peer;

/// One game as compared: its tags but `Date` (each run writes its own day), and its SAN
/// moves without comments (they hold each move's time).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Game {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

/// The complete games of a PGN by Round (an entry cut short at the end is left out).
/// Fails when a Round is there twice.
fn games(pgn: &Path) -> BTreeMap<usize, Game> {
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let mut games = BTreeMap::new();
    for entry in text.split("[Event ").skip(1) {
        let Some((head, body)) = entry.split_once("\n\n") else {
            continue;
        };
        if !body.ends_with("\n\n") {
            continue; // cut short
        }
        let mut tags = vec![("Event".to_owned(), head.lines().next().unwrap().to_owned())];
        for line in head.lines().skip(1) {
            let inner = line.strip_prefix('[').unwrap().strip_suffix("\"]").unwrap();
            let (name, value) = inner.split_once(" \"").unwrap();
            if name != "Date" {
                tags.push((name.to_owned(), value.to_owned()));
            }
        }
        let moves = peers::movetext_words(body);
        let round: usize = tags
            .iter()
            .find(|(n, _)| n == "Round")
            .unwrap()
            .1
            .parse()
            .unwrap();
        let game = Game { tags, moves };
        assert!(
            games.insert(round, game).is_none(),
            "game {round} is twice in {pgn:?}"
        );
    }
    games
}

/// `sp960 match ARGS --pgn games.pgn` in `dir`, not waited for.
fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(peers::sp960())
        .current_dir(dir)
        .env("PATH", peers::search_path())
        .envs(env.iter().copied())
        .arg("match")
        .args(args)
        .args(["--pgn", "games.pgn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    start(dir, args, env).wait_with_output().unwrap()
}

/// The games one uninterrupted run plays.
fn reference(args: &[&str]) -> BTreeMap<usize, Game> {
    let dir = tempfile::tempdir().unwrap();
    let output = run(dir.path(), args, &[]);
    assert!(output.status.success(), "{output:?}");
    games(&dir.path().join("games.pgn"))
}

fn with_resume<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut args = args.to_vec();
    args.push("--resume");
    args
}

/// The built-in engine at depth 2, two games at once: 20 games.
const BUILTIN: &[&str] = &["--sp", "0-9", "--depth", "2", "--concurrency", "2"];

/// Every complete game in `dir`'s PGN is the reference's game of that Round.
fn assert_subset(dir: &Path, reference: &BTreeMap<usize, Game>) -> usize {
    let found = games(&dir.join("games.pgn"));
    for (round, game) in &found {
        assert_eq!(Some(game), reference.get(round), "game {round}");
    }
    found.len()
}

#[test]
fn a_crash_halfway_through_writing_a_game_resumes_into_the_same_games() {
    let expected = reference(BUILTIN);
    assert_eq!(expected.len(), 20);
    for crash_at in ["1", "6", "20"] {
        let dir = tempfile::tempdir().unwrap();
        let crashed = run(
            dir.path(),
            BUILTIN,
            &[("SP960_TEST_CRASH_IN_PGN_WRITE", crash_at)],
        );
        assert_eq!(crashed.status.signal(), Some(libc::SIGABRT), "{crashed:?}");
        let pgn = dir.path().join("games.pgn");
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert!(!text.ends_with("\n\n"), "the last entry is cut short");
        let before: usize = crash_at.parse::<usize>().unwrap() - 1;
        assert_eq!(assert_subset(dir.path(), &expected), before);
        let resumed = run(dir.path(), &with_resume(BUILTIN), &[]);
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert!(resumed.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "sp960: match: resuming: {before} of 20 games already in games.pgn"
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains("bytes of an unfinished game off the end of games.pgn"),
            "{stderr}"
        );
        assert_eq!(games(&pgn), expected, "crash at write {crash_at}");
        let stdout = String::from_utf8_lossy(&resumed.stdout);
        assert!(stdout.contains("sp960 0.1.0         20 "), "{stdout}");
        let state: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("games.pgn.state")).unwrap())
                .unwrap();
        assert_eq!(state["games"], 20);
        assert_eq!(
            state["pgn_end"],
            std::fs::metadata(&pgn).unwrap().len(),
            "{state}"
        );
    }
}

/// Runs `sp960 match --resume` and kills it with SIGKILL `delay` after it saved a game more
/// than `saved` (or, when `early`, `delay` after it started); true when it finished by itself.
fn kill_after(dir: &Path, args: &[&str], saved: usize, early: bool, delay: Duration) -> bool {
    let mut child = start(dir, args, &[]);
    let mut begin = Instant::now();
    let mut waiting = !early;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            return true;
        }
        if waiting {
            if games(&dir.join("games.pgn")).len() > saved {
                waiting = false;
                begin = Instant::now();
            }
        } else if begin.elapsed() >= delay {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap().success()
}

#[test]
fn kill_9_at_random_points_never_loses_or_repeats_a_game() {
    let expected = reference(BUILTIN);
    let dir = tempfile::tempdir().unwrap();
    let args = with_resume(BUILTIN);
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("delays from seed {seed}");
    let mut saved = vec![0];
    loop {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Every fourth kill lands while the runner starts (engines launching, the PGN
        // read back); the others up to 150 ms after a game was saved: while another is
        // played, written, or the state replaced.
        let early = seed.is_multiple_of(4);
        let delay = Duration::from_micros((seed >> 8) % 150_000);
        if kill_after(dir.path(), &args, *saved.last().unwrap(), early, delay) {
            break;
        }
        saved.push(assert_subset(dir.path(), &expected));
        assert!(saved.len() < 200, "the match never finishes: {saved:?}");
    }
    assert_eq!(games(&dir.path().join("games.pgn")), expected);
    eprintln!("games saved after each kill: {saved:?}");
    assert!(
        saved.len() >= 8,
        "only {} kills: {saved:?}",
        saved.len() - 1
    );
    // The games saved never went down from one kill to the next.
    assert!(saved.windows(2).all(|w| w[0] <= w[1]), "{saved:?}");
}

#[test]
fn ctrl_c_then_resume_plays_the_rest_and_a_finished_match_resumes_into_nothing() {
    let expected = reference(BUILTIN);
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let child = start(dir.path(), BUILTIN, &[]);
    let begin = Instant::now();
    while games(&pgn).len() < 3 {
        assert!(begin.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    let saved = assert_subset(dir.path(), &expected);
    assert!(saved < 20, "{saved}");
    let resumed = run(dir.path(), &with_resume(BUILTIN), &[]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(games(&pgn), expected);
    // Once more: nothing left to play, the same table.
    let length = std::fs::metadata(&pgn).unwrap().len();
    let again = run(dir.path(), &with_resume(BUILTIN), &[]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(std::fs::metadata(&pgn).unwrap().len(), length);
    assert_eq!(again.stdout, resumed.stdout);
    assert!(
        String::from_utf8_lossy(&again.stderr)
            .contains("resuming: 20 of 20 games already in games.pgn")
    );
}

#[test]
fn the_sprt_continues_where_it_stopped_and_stops_where_an_uninterrupted_run_does() {
    // Depth 1 against depth 3: the SPRT decides before the 40 games are played.
    let args: &[&str] = &[
        "--engine",
        "sp960 engine depth=1",
        "--engine",
        "sp960 engine depth=3",
        "--sp",
        "0-19",
        "--concurrency",
        "1",
        "--sprt",
        "elo0=0 elo1=100 alpha=0.1 beta=0.1",
        "--json",
    ];
    let dir = tempfile::tempdir().unwrap();
    let whole = run(dir.path(), args, &[]);
    assert!(whole.status.success(), "{whole:?}");
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let played = whole["games"].as_array().unwrap().len();
    assert!(played < 40, "the SPRT decides early: {played} games");
    assert_ne!(whole["sprt"], "continue", "{}", whole["sprt"]);
    let expected = games(&dir.path().join("games.pgn"));
    // Crashes before and at the deciding game.
    for crash_at in [3, 4, played] {
        let dir = tempfile::tempdir().unwrap();
        let crash_at = crash_at.to_string();
        let crashed = run(
            dir.path(),
            args,
            &[("SP960_TEST_CRASH_IN_PGN_WRITE", &crash_at)],
        );
        assert_eq!(crashed.status.signal(), Some(libc::SIGABRT));
        let resumed = run(dir.path(), &with_resume(args), &[]);
        assert!(resumed.status.success(), "{resumed:?}");
        let resumed: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
        assert_eq!(games(&dir.path().join("games.pgn")), expected);
        for key in ["games", "sprt", "stats", "score", "unpaired_games"] {
            assert_eq!(resumed[key], whole[key], "{key}, crash at {crash_at}");
        }
    }
}

#[test]
fn a_state_from_other_arguments_is_refused_naming_each_difference() {
    let dir = tempfile::tempdir().unwrap();
    let first: &[&str] = &["--sp", "860", "--depth", "2", "--concurrency", "1"];
    assert!(run(dir.path(), first, &[]).status.success());
    let pgn = std::fs::read(dir.path().join("games.pgn")).unwrap();
    let other: &[&str] = &[
        "--sp",
        "860",
        "--depth",
        "3",
        "--engine",
        "sp960 engine",
        "--event",
        "Lab",
        "--resume",
    ];
    let output = run(dir.path(), other, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "sp960: match: --resume: 'games.pgn.state' is the state of a different match: \
         --engine #1 was not given, now 'sp960 engine'; --engines was '0', now '1'; \
         --depth was '2', now '3'; --event was not given, now 'Lab'; rerun with the same \
         options, or without --resume to start a new match\n"
    );
    assert_eq!(std::fs::read(dir.path().join("games.pgn")).unwrap(), pgn);
    // A damaged state file is named as such.
    std::fs::write(dir.path().join("games.pgn.state"), "{").unwrap();
    let output = run(dir.path(), &with_resume(first), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("--resume: state file 'games.pgn.state': not a state file sp960 match wrote"),
        "{output:?}"
    );
}

#[test]
fn event_and_site_tags_and_their_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let args: &[&str] = &["--sp", "860", "--depth", "1", "--concurrency", "1"];
    assert!(run(dir.path(), args, &[]).status.success());
    let mut tagged = args.to_vec();
    tagged.extend(["--event", "Lab \"A\"", "--site", "Here"]);
    assert!(run(dir.path(), &tagged, &[]).status.success());
    let text = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert_eq!(
        text.matches("[Event \"sp960 match\"]\n[Site \"?\"]\n")
            .count(),
        2
    );
    assert_eq!(
        text.matches("[Event \"Lab \\\"A\\\"\"]\n[Site \"Here\"]\n")
            .count(),
        2
    );
    // A second match appended to the same PGN resumes from its own start.
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("games.pgn.state")).unwrap())
            .unwrap();
    assert_eq!(state["pgn_start"], text.find("[Event \"Lab").unwrap());
}

#[test]
fn stockfish_at_fixed_nodes_killed_and_resumed_plays_the_same_games() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let args: &[&str] = &[
        "--engine",
        "/usr/games/stockfish option.Threads=1 option.Hash=16",
        "--engine",
        "sp960 engine depth=2",
        "--sp",
        "100-105",
        "--nodes",
        "3000",
        "--concurrency",
        "2",
    ];
    let expected = reference(args);
    assert_eq!(expected.len(), 12);
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let mut child = start(dir.path(), &with_resume(args), &[]);
    let begin = Instant::now();
    while games(&pgn).len() < 4 {
        assert!(begin.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = assert_subset(dir.path(), &expected);
    assert!((4..12).contains(&saved), "{saved}");
    let resumed = run(dir.path(), &with_resume(args), &[]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(games(&pgn), expected);
}

#[test]
fn a_match_appended_after_another_resumes_from_its_own_start() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let earlier: &[&str] = &["--sp", "860", "--depth", "1", "--concurrency", "1"];
    assert!(run(dir.path(), earlier, &[]).status.success());
    let before = std::fs::read(&pgn).unwrap();
    let later: &[&str] = &["--sp", "0-2", "--depth", "2", "--concurrency", "1"];
    let expected = reference(later);
    let crashed = run(dir.path(), later, &[("SP960_TEST_CRASH_IN_PGN_WRITE", "3")]);
    assert_eq!(crashed.status.signal(), Some(libc::SIGABRT));
    let resumed = run(dir.path(), &with_resume(later), &[]);
    assert!(resumed.status.success(), "{resumed:?}");
    let after = std::fs::read(&pgn).unwrap();
    assert_eq!(
        after[..before.len()],
        before[..],
        "the earlier match is untouched"
    );
    let rest = dir.path().join("rest.pgn");
    std::fs::write(&rest, &after[before.len()..]).unwrap();
    assert_eq!(games(&rest), expected);
}

#[test]
fn a_drawn_random_seed_is_taken_from_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let args: &[&str] = &[
        "--sp",
        "random",
        "--count",
        "3",
        "--depth",
        "2",
        "--concurrency",
        "1",
    ];
    let crashed = run(dir.path(), args, &[("SP960_TEST_CRASH_IN_PGN_WRITE", "2")]);
    assert_eq!(crashed.status.signal(), Some(libc::SIGABRT));
    let stderr = String::from_utf8_lossy(&crashed.stderr);
    let seed = stderr
        .lines()
        .find_map(|line| line.strip_prefix("sp960: match: random seed "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{stderr}"))
        .to_owned();
    let resumed = run(dir.path(), &with_resume(args), &[]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        !stderr.contains("random seed"),
        "no new seed is drawn: {stderr}"
    );
    let mut seeded = args.to_vec();
    seeded.extend(["--seed", &seed]);
    assert_eq!(games(&dir.path().join("games.pgn")), reference(&seeded));
}
