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
#[path = "quirks_tests.rs"]
mod tests;
