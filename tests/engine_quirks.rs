//! The facts behind the rows of the engine quirks table (`src/protocol/quirks.rs`), asked of
//! the real engines: each row says what one engine does, and these tests hold the engine to it.
//! The unit tests beside the table pin which names find which row (the `id name` and XBoard
//! `myname` these engines give, read here); what the rows make the proxy, the runner and the
//! tournament lines do is pinned by their own suites (e.g. tests/proxy_uci.rs
//! `glaurung_alone_breaks_on_castling_files_that_differ_between_colours`).

use std::process::Stdio;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

#[path = "support/process.rs"]
mod process;
use process::LineProcess;

/// What `/usr/games/PROGRAM` writes for `lines`, up to the line that is `last` (trimmed);
/// then it is told to quit (and killed when dropped).
fn converse(program: &str, lines: &[&str], last: &str) -> Vec<String> {
    let mut engine = LineProcess::spawn(&format!("/usr/games/{program}"), &[], Stdio::null());
    for line in lines {
        engine.send(line);
    }
    let seen = engine.until(&format!("{program}: {last:?}"), |line| line.trim() == last);
    engine.send("quit");
    seen
}

/// The name after `id name ` in a UCI handshake.
fn id_name(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|line| line.strip_prefix("id name "))
        .expect("an id name line")
}

/// The words of the engine's `option name NAME ...` line, if it declares NAME.
fn option<'a>(lines: &'a [String], name: &str) -> Option<Vec<&'a str>> {
    lines.iter().find_map(|line| {
        let rest = line.strip_prefix("option name ")?;
        let (declared, _) = rest.split_once(" type ")?;
        declared
            .eq_ignore_ascii_case(name)
            .then(|| rest.split_whitespace().collect())
    })
}

/// The word after `key` in an option's words.
fn after<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|word| *word == key)
        .and_then(|at| words.get(at + 1).copied())
}

/// Row `toga`: Toga II 3.0 declares no `UCI_Chess960`.
#[test]
fn toga_ii_really_has_no_uci_chess960_option() {
    if !peers::need(&[Peer::Toga2]) {
        return;
    }
    let lines = converse("toga2", &["uci"], "uciok");
    assert_eq!(id_name(&lines), "Toga II 3.0");
    assert!(option(&lines, "Hash").is_some(), "{lines:?}");
    assert!(option(&lines, "UCI_Chess960").is_none(), "{lines:?}");
}

/// Row `fairy`: Fairy-Stockfish lists `fischerandom` in its `UCI_Variant` combo, and over
/// XBoard refuses `O-O` and plays king-takes-rook.
#[test]
fn fairy_stockfish_really_lists_fischerandom_and_rejects_o_o_in_xboard() {
    if !peers::need(&[Peer::FairyStockfish]) {
        return;
    }
    let lines = converse("fairy-stockfish", &["uci"], "uciok");
    assert!(id_name(&lines).starts_with("Fairy-Stockfish"), "{lines:?}");
    let variant = option(&lines, "UCI_Variant").expect("a UCI_Variant option");
    assert_eq!(after(&variant, "type"), Some("combo"), "{variant:?}");
    assert!(
        variant.windows(2).any(|w| w == ["var", "fischerandom"]),
        "{variant:?}"
    );
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
        assert!(
            myname.trim_matches('"').starts_with("Fairy-Stockfish"),
            "{myname}"
        );
        let error = format!("Error (unkown command): {castle}");
        assert_eq!(
            lines.iter().any(|line| line.trim() == error),
            refused,
            "{castle}: {lines:?}"
        );
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("Error")).count(),
            usize::from(refused),
            "{castle}: {lines:?}"
        );
    }
}

/// Row `glaurung`: Glaurung 2.2 starts with 2 threads (the row sets 1) and declares
/// `UCI_Chess960`.
#[test]
fn glaurung_really_starts_with_two_threads() {
    if !peers::need(&[Peer::Glaurung]) {
        return;
    }
    let lines = converse("glaurung", &["uci"], "uciok");
    assert_eq!(id_name(&lines), "Glaurung 2.2");
    let threads = option(&lines, "Threads").expect("a Threads option");
    assert_eq!(after(&threads, "default"), Some("2"), "{lines:?}");
    assert!(option(&lines, "UCI_Chess960").is_some());
}
