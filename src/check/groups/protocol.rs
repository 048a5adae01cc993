//! The protocol group: what the engine declares (UCI's `UCI_Chess960`, XBoard's
//! `setboard` and `fischerandom`), whether it keeps one set of castling files for both
//! colours, and the probe for a perft command when its name says nothing.

use crate::check::descent::chess960;
use crate::check::engine::CheckEngine;
use crate::check::groups::{failed_engine, failed_row, restarted};
use crate::check::ids::CheckId;
use crate::check::reference;
use crate::check::report::{CheckRow, Status};
use crate::check::run::CheckError;
use crate::protocol::Protocol;
use crate::protocol::perft::{PerftDialect, probe_commands};
use crate::protocol::uci::OptionDecl;

/// What the engine declares: one row.
pub fn declaration_rows(engine: &CheckEngine, rows: &mut Vec<CheckRow>) {
    rows.push(match engine.protocol() {
        Protocol::Uci => uci_chess960_row(engine),
        Protocol::Xboard => xboard_features_row(engine),
    });
}

/// `option name UCI_Chess960 type check default false`, exactly.
fn uci_chess960_row(engine: &CheckEngine) -> CheckRow {
    let declared = engine
        .handshake
        .declarations
        .iter()
        .find(|line| OptionDecl::parse(line.as_bytes()).is("UCI_Chess960"));
    let outcome = match declared {
        None => (
            Status::Fail,
            "no option UCI_Chess960".to_owned(),
            "UCI_Chess960 is not declared: the engine plays standard chess only".to_owned(),
        ),
        Some(line) => {
            let decl = OptionDecl::parse(line.as_bytes());
            if decl.kind != b"check" {
                let kind = String::from_utf8_lossy(&decl.kind);
                let why = format!("UCI_Chess960 is declared with type {kind}, not check");
                (Status::Fail, line.clone(), why)
            } else if decl.default.as_deref() != Some(b"false") {
                let why = "UCI_Chess960's default is not 'false' in lower case (GUIs such \
                           as lichess-bot read it case-sensitively: its issue 1129)";
                (Status::Fail, line.clone(), why.to_owned())
            } else {
                (Status::Pass, line.clone(), String::new())
            }
        }
    };
    let id = CheckId::UciChess960 {
        declared: declared.is_some(),
    };
    CheckRow::new(id, "uci".into(), outcome)
}

/// XBoard: `setboard` and the variant `fischerandom`.
fn xboard_features_row(engine: &CheckEngine) -> CheckRow {
    let (status, why) = match engine.xboard_support() {
        Ok(()) => (Status::Pass, String::new()),
        Err(reason) => (Status::Fail, reason.to_string()),
    };
    // The feature line that declares setboard (or else variants), as read.
    let declared = |key: &str| {
        engine
            .handshake
            .declarations
            .iter()
            .find(|line| line.contains(key))
    };
    let got = declared("setboard=")
        .or_else(|| declared("variants="))
        .map_or("no such feature".to_owned(), |line| {
            line.chars().take(120).collect()
        });
    CheckRow::new(
        CheckId::XboardFeatures,
        "xboard, protover 2".into(),
        (status, got, why),
    )
}

/// The castling-files row, for an engine known to keep one set of files for both
/// colours.
pub fn castling_files_row(name: &str) -> CheckRow {
    CheckRow::new(
        CheckId::CastlingFiles,
        "uci".into(),
        (
            Status::Fail,
            name.to_owned(),
            format!(
                "{name} keeps one set of castling files for both colours (sp960's quirks \
                 table): a position whose colours castle with different rooks reaches it \
                 only without the rights it cannot hold, as the proxy renders it (and as \
                 this check did)"
            ),
        ),
    )
}

/// An engine whose perft is not known by its name is asked each form sp960 reads
/// (`go perft 2`, `perft 2`), its answer read by shape; started afresh after a form it
/// does not answer. One row says what was found.
pub fn probe_perft(
    mut engine: CheckEngine,
    name: &str,
    rows: &mut Vec<CheckRow>,
) -> Result<(CheckEngine, Option<PerftDialect>), CheckError> {
    // SP 518, the standard start: a FEN every engine reads, whatever castling letters it
    // knows (Toga II 3.0 exits on Shredder-FEN letters).
    const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let commands = probe_commands(engine.protocol());
    let sent: Vec<String> = commands.iter().map(|c| c.line()).collect();
    let sent = format!("{} in {FEN}", sent.join(", then "));
    for command in commands {
        match engine.probe_perft(*command, FEN) {
            Ok(Some(dialect)) => {
                let got = format!("{}: {dialect}", command.line());
                rows.push(CheckRow::new(
                    CheckId::PerftCommand,
                    sent,
                    (Status::Pass, got, String::new()),
                ));
                return Ok((engine, Some(dialect)));
            }
            Ok(None) => {
                engine = restarted(engine, "did not answer a perft probe as a perft")?;
            }
            Err(failure) => engine = failed_engine(engine, &failure)?,
        }
    }
    let why = format!(
        "{name} answered none of them with a perft (a divide, a total, or a line per \
         depth): move generation not checked by counting"
    );
    rows.push(CheckRow::new(
        CheckId::PerftCommand,
        sent,
        (Status::Skip, "no perft reply".into(), why),
    ));
    Ok((engine, None))
}

/// UCI: an engine whose `UCI_Variant` combo lists `fischerandom` (and not `chess960`) gets
/// `setoption name UCI_Variant value chess960` from cutechess-cli 1.5.1 instead of
/// `UCI_Chess960 true` (its `UciEngine::setVariant`; Fairy-Stockfish issue 318): it must
/// then play Chess960. Counted in a position where only Chess960 castles; no row for an
/// engine whose combo does not list it.
pub fn variant_row(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    const FEN: &str = "1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1";
    let combo = engine
        .handshake
        .declarations
        .iter()
        .map(|line| OptionDecl::parse(line.as_bytes()))
        .find(|decl| decl.is("UCI_Variant"));
    let lists = |name: &[u8]| {
        combo
            .as_ref()
            .is_some_and(|decl| decl.vars.iter().any(|v| v.eq_ignore_ascii_case(name)))
    };
    if engine.protocol() != Protocol::Uci || !lists(b"fischerandom") || lists(b"chess960") {
        return Ok(engine);
    }
    let expected = reference::perft(&chess960(FEN), 1);
    let sent = format!(
        "setoption name UCI_Variant value chess960, {} in {FEN}",
        dialect.command(1)
    );
    let outcome = match engine.perft_as_variant(dialect, "chess960", FEN, 1) {
        Ok(reply) if reply.total == expected => {
            (Status::Pass, reply.total.to_string(), String::new())
        }
        Ok(reply) => {
            let why = format!(
                "UCI_Variant lists fischerandom, so cutechess-cli 1.5.1 selects Chess960 with \
                 'setoption name UCI_Variant value chess960' instead of UCI_Chess960 \
                 (Fairy-Stockfish issue 318): after it the engine counts {} in {FEN} at \
                 depth 1, shakmaty {expected} (it stayed in standard chess)",
                reply.total
            );
            (Status::Fail, reply.total.to_string(), why)
        }
        Err(failure) => {
            let why = format!("{sent}: {failure}");
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(CheckRow::new(CheckId::UciVariant, sent, outcome));
    Ok(engine)
}
