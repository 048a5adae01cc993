use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::*;
use crate::peers::{self, Peer};
use crate::protocol::uci::OptionDecl;

/// Runs `/usr/games/PROGRAM`, sends it `lines`, and returns what it wrote until a line
/// that is `last` (trimmed), within 30 s; then it is told to quit and killed.
fn converse(program: &str, lines: &[&str], last: &str) -> Vec<String> {
    let mut child = Command::new(format!("/usr/games/{program}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|err| panic!("{program}: {err}"));
    let stdout = child.stdout.take().unwrap();
    let (sender, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    while seen.last().is_none_or(|line: &String| line.trim() != last) {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{program}: no '{last}' within 30 s: {seen:?}");
            }
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    seen
}

/// The name after `id name ` in a UCI handshake.
fn id_name(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|line| line.strip_prefix("id name "))
        .expect("an id name line")
}

/// The engine's `option` declaration called `name`, if any.
fn option(lines: &[String], name: &str) -> Option<OptionDecl> {
    lines
        .iter()
        .filter(|line| line.starts_with("option "))
        .map(|line| OptionDecl::parse(line.as_bytes()))
        .find(|decl| decl.is(name))
}

#[test]
fn every_row_has_its_tests() {
    // A new row gets a lookup test and a test that runs the engine, below.
    assert_eq!(TABLE.len(), 3);
}

#[test]
fn toga_row_by_program_and_id_name() {
    for name in ["toga2", "Toga II 3.0", "TOGA2"] {
        assert_eq!(
            quirks(name),
            Quirks {
                no_uci_chess960: true,
                ..NONE
            },
            "{name}"
        );
    }
}

#[test]
fn toga_ii_really_has_no_uci_chess960_option() {
    if !peers::need(&[Peer::Toga2]) {
        return;
    }
    let lines = converse("toga2", &["uci"], "uciok");
    assert_eq!(id_name(&lines), "Toga II 3.0");
    assert!(quirks(id_name(&lines)).no_uci_chess960);
    assert!(option(&lines, "Hash").is_some(), "{lines:?}");
    assert!(option(&lines, "UCI_Chess960").is_none(), "{lines:?}");
}

#[test]
fn fairy_stockfish_row_by_program_and_id_name() {
    for name in [
        "fairy-stockfish",
        "Fairy-Stockfish 11.1 LB 64",
        "Fairy-Stockfish",
        "my_fairy_stockfish",
    ] {
        assert_eq!(
            quirks(name),
            Quirks {
                uci_variant_fischerandom: true,
                xboard_kxr: true,
                ..NONE
            },
            "{name}"
        );
    }
}

#[test]
fn fairy_stockfish_really_lists_fischerandom_and_rejects_o_o_in_xboard() {
    if !peers::need(&[Peer::FairyStockfish]) {
        return;
    }
    let lines = converse("fairy-stockfish", &["uci"], "uciok");
    assert!(quirks(id_name(&lines)).uci_variant_fischerandom);
    let variant = option(&lines, "UCI_Variant").expect("a UCI_Variant option");
    assert_eq!(variant.kind, b"combo");
    assert!(variant.vars.iter().any(|var| var == b"fischerandom"));
    assert!(option(&lines, "UCI_Chess960").is_some());
    // XBoard: SP 860 where White may castle king-side (king c1 -> g1, rook e1 -> f1);
    // `O-O` is an unknown command, king takes rook (`c1e1`) is played.
    let line = "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7";
    for (castle, refused) in [("O-O", true), ("c1e1", false)] {
        let mut commands = vec![
            "xboard".to_owned(),
            "protover 2".to_owned(),
            "new".to_owned(),
            "variant fischerandom".to_owned(),
            "force".to_owned(),
            "setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1".to_owned(),
        ];
        commands.extend(line.split(' ').map(|m| format!("usermove {m}")));
        commands.push(format!("usermove {castle}"));
        commands.push("ping 1".to_owned());
        let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
        let lines = converse("fairy-stockfish", &commands, "pong 1");
        let myname = lines
            .iter()
            .find_map(|line| line.split("myname=").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .expect("feature myname=");
        assert!(quirks(myname.trim_matches('"')).xboard_kxr, "{myname}");
        let error = format!("Error (unkown command): {castle}");
        assert_eq!(
            lines.iter().any(|line| line.trim() == error),
            refused,
            "{castle}: {lines:?}"
        );
        assert!(
            lines.iter().filter(|l| l.starts_with("Error")).count() == usize::from(refused),
            "{castle}: {lines:?}"
        );
    }
}

#[test]
fn glaurung_row_by_program_and_id_name() {
    for name in [
        "glaurung",
        "Glaurung 2.2",
        "Glaurung",
        "/usr/games/glaurung".rsplit('/').next().unwrap(),
    ] {
        assert_eq!(
            quirks(name),
            Quirks {
                shared_castling_files: true,
                threads: Some(1),
                ..NONE
            },
            "{name}"
        );
    }
    // A name that only mentions Glaurung later is not Glaurung.
    assert_eq!(quirks("not-glaurung"), Quirks::default());
}

/// The row's `threads`: Glaurung 2.2 starts with 2. (What its castling files and its
/// threads do to Chess960 games is pinned by `tests/proxy_uci.rs`
/// `glaurung_alone_breaks_on_castling_files_that_differ_between_colours` and
/// `tests/match_runner.rs` `glaurung_plays_dfrc_pairs_with_mixed_castling_files_to_the_end`.)
#[test]
fn glaurung_really_starts_with_two_threads() {
    if !peers::need(&[Peer::Glaurung]) {
        return;
    }
    let lines = converse("glaurung", &["uci"], "uciok");
    assert_eq!(id_name(&lines), "Glaurung 2.2");
    // The proxy reads the first word of `id name`.
    let first_word = id_name(&lines).split(' ').next().unwrap();
    assert!(quirks(first_word).shared_castling_files);
    assert_eq!(quirks(id_name(&lines)).threads, Some(1));
    let threads = option(&lines, "Threads").expect("a Threads option");
    assert_eq!(
        threads.default.as_deref(),
        Some(b"2".as_slice()),
        "{lines:?}"
    );
    assert!(option(&lines, "UCI_Chess960").is_some());
}

#[test]
fn other_engines_need_nothing_and_threads_are_found_in_any_case() {
    assert_eq!(quirks("stockfish"), Quirks::default());
    assert_eq!(quirks("Stockfish 15.1"), Quirks::default());
    assert_eq!(quirks("Sjaak II 1.4.1"), Quirks::default());
    assert!(sets_threads(["Hash", "threads"].into_iter()));
    assert!(!sets_threads(["Hash"].into_iter()));
}
