//! What sp960 knows about particular engines, in one table: each fact was seen by running
//! Debian's build (docs/tournament.md's engine table, docs/hostile-gui.md). The proxy, the
//! match runner and `sp960 tournament` all look engines up here, by the engine's program
//! file name (`glaurung`, `toga2`) or the name it gives itself (`id name Glaurung 2.2`,
//! XBoard's `myname`), and nowhere else is an engine recognised by its name.
//!
//! A new quirk goes here: a row (or a field of [`Quirks`] and the rows that have it), and a
//! test. Each row has two tests below: its lookup by program name and by `id name`, and
//! one that runs the engine from /usr/games and sees the fact the row states.
//!
//! | row | program, `id name` | the fact | what the tools do |
//! | --- | --- | --- | --- |
//! | Toga II | `toga2`, `Toga II 3.0` | no `UCI_Chess960` option | tournament: wrap in `proxy --offer-chess960` |
//! | Fairy-Stockfish | `fairy-stockfish`, `Fairy-Stockfish 11.1 LB 64` | `UCI_Variant` lists `fischerandom`; XBoard: rejects `O-O`, takes king-takes-rook | tournament: wrap for cutechess-cli (UCI) and for XBoard castling; proxy: `--engine-castling kxr` by `myname` |
//! | Glaurung | `glaurung`, `Glaurung 2.2` | one set of castling files for both colours; `Threads` 2 by default | proxy and runner: the castling-file shield; `Threads 1` unless set |

/// What an engine needs to play Chess960 as the tools drive it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quirks {
    /// UCI engine without a `UCI_Chess960` option (Toga II 3.0).
    pub no_uci_chess960: bool,
    /// Lists `fischerandom` in its `UCI_Variant` combo: cutechess-cli then sends
    /// `UCI_Variant chess960` instead of `UCI_Chess960`, the engine stays in standard
    /// chess and plays `c1c1` or moves of a desynchronised board (Fairy-Stockfish 11.1).
    pub uci_variant_fischerandom: bool,
    /// In XBoard mode it rejects `O-O`, which xboard and cutechess-cli send it, and wants
    /// king-takes-rook (Fairy-Stockfish: `Error (unkown command): O-O-o`, then a stall).
    pub xboard_kxr: bool,
    /// Keeps one king file and one rook file per wing for both colours (Glaurung 2.2).
    /// Given castling rights whose files differ between the colours (`HDfa`: kings g1 and
    /// d8, most DFRC pairs) it castles with pieces that are not its rooks and writes past
    /// its history table into its mutex and hash table: it hangs, aborts or dies with
    /// SIGSEGV, often many moves later. Its positions must come from
    /// [`crate::protocol::game::GameLine::for_shared_castling_files`] (the proxy's shield).
    pub shared_castling_files: bool,
    /// The `Threads` value it needs when the user sets none: Glaurung 2.2's default,
    /// 2, died in Chess960 positions (SIGABRT, SIGSEGV) where 1 did not, and a fuzz run
    /// with 2 lost it once more after the castling-file shield.
    pub threads: Option<u32>,
}

/// How a row of [`TABLE`] recognises a name (lower-cased first).
#[derive(Debug, Clone, Copy)]
enum Key {
    /// The name starts with this.
    Starts(&'static str),
    /// The name contains this.
    Contains(&'static str),
}

const NONE: Quirks = Quirks {
    no_uci_chess960: false,
    uci_variant_fischerandom: false,
    xboard_kxr: false,
    shared_castling_files: false,
    threads: None,
};

/// The engines sp960 knows, each with its keys (program file name or `id name`).
const TABLE: &[(&[Key], Quirks)] = &[
    (
        // `toga2`, `Toga II 3.0`.
        &[Key::Starts("toga")],
        Quirks {
            no_uci_chess960: true,
            ..NONE
        },
    ),
    (
        // `fairy-stockfish`, `Fairy-Stockfish 11.1 LB`.
        &[
            Key::Contains("fairy-stockfish"),
            Key::Contains("fairy_stockfish"),
        ],
        Quirks {
            uci_variant_fischerandom: true,
            xboard_kxr: true,
            ..NONE
        },
    ),
    (
        // `glaurung`, `Glaurung 2.2`.
        &[Key::Starts("glaurung")],
        Quirks {
            shared_castling_files: true,
            threads: Some(1),
            ..NONE
        },
    ),
];

/// What is known about the engine called `name`: its program's file name or its own
/// name (`id name`, `myname`), compared case-insensitively. Unknown engines need nothing.
pub fn quirks(name: &str) -> Quirks {
    let name = name.trim().to_ascii_lowercase();
    TABLE
        .iter()
        .find(|(keys, _)| {
            keys.iter().any(|key| match key {
                Key::Starts(prefix) => name.starts_with(prefix),
                Key::Contains(part) => name.contains(part),
            })
        })
        .map_or(NONE, |(_, quirks)| *quirks)
}

/// True when `options` (UCI option names and values) set `Threads` (UCI option names are
/// case-insensitive).
pub fn sets_threads<'a>(mut names: impl Iterator<Item = &'a str>) -> bool {
    names.any(|name| name.trim().eq_ignore_ascii_case("threads"))
}

#[cfg(test)]
mod tests {
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
}
