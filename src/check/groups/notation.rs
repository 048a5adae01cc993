//! The notation group (reported under protocol): which castling notation the engine
//! writes in its divide and accepts in `position ... moves`, and whether it reads the
//! Shredder-FEN and X-FEN castling fields alike (two positions and the cases marked
//! `fields "both"`, where an X-FEN `K` or `Q` was misread). Every played case (a castling in Chess960
//! mode, [`Case::is_played`]) is sent as a move.

use shakmaty::Position;

use crate::check::cases::{Case, EngineMode, cases};
use crate::check::descent::chess960;
use crate::check::engine::CheckEngine;
use crate::check::groups::{RowOutcome, failed_engine, failed_row};
use crate::check::ids::CheckId;
use crate::check::reference;
use crate::check::report::{CheckRow, Status};
use crate::check::run::CheckError;
use crate::protocol::Protocol;
use crate::protocol::perft::PerftDialect;
use crate::starts::castling::parse_move;
use crate::starts::notation::{CastlingNotation, position_fen};

/// The positions whose castling field is read in both notations.
const FEN_FIELDS: [(&str, &str); 2] = [
    (
        "SP 0",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ),
    ("outer rook", "1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Hh - 0 1"),
];

/// The whole group.
pub fn notation_rows(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    if dialect.divides() {
        engine = written_row(engine, dialect, rows)?;
    }
    // XBoard: through play only. Fairy-Stockfish 11.1 miscounts after moves sent in
    // force mode once it has run a perft (docs/check.md has the transcript), so a count
    // there says nothing about the castling move.
    if engine.protocol() == Protocol::Uci {
        for case in cases().iter().filter(|case| case.is_played()) {
            engine = accepted_row(engine, dialect, case, rows)?;
        }
    } else {
        rows.push(CheckRow::skipped(
            CheckId::CastlingAcceptedInPlay,
            "XBoard: the castling moves sent are checked by the play group",
        ));
    }
    let cases_read_both_ways = cases()
        .iter()
        .filter(|case| case.fen_fields)
        .map(|case| (case.name, case.fen));
    for (name, fen) in FEN_FIELDS.into_iter().chain(cases_read_both_ways) {
        engine = fen_fields_row(engine, dialect, name, fen, rows)?;
    }
    Ok(engine)
}

/// Written: the divide of a position with both castlings, in Chess960 mode.
fn written_row(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1";
    let sent = format!("{} in {fen}", dialect.command(1));
    let outcome = match engine.perft(dialect, fen, &[], 1, EngineMode::Chess960) {
        Ok(reply) => {
            let texts: Vec<&str> = reply
                .divide
                .iter()
                .flatten()
                .map(|(text, _)| text.as_str())
                .filter(|t| matches!(*t, "e1h1" | "e1a1" | "e1g1" | "e1c1"))
                .collect();
            let got = texts.join(" ");
            if texts.contains(&"e1h1") && texts.contains(&"e1a1") {
                (
                    Status::Pass,
                    format!("{got} (king takes rook)"),
                    String::new(),
                )
            } else {
                let why = format!(
                    "in Chess960 mode castling is written king takes rook (e1h1, e1a1); \
                     the engine wrote '{got}' in {fen}"
                );
                (Status::Fail, got, why)
            }
        }
        Err(failure) => {
            let why = format!("{}: {failure}", dialect.command(1));
            let outcome = (Status::Fail, failure.to_string(), why);
            engine = failed_engine(engine, &failure)?;
            outcome
        }
    };
    rows.push(CheckRow::new(CheckId::CastlingWritten, sent, outcome));
    Ok(engine)
}

/// Accepted: the count after the case's castling in `position ... moves` is the engine's
/// own count from the FEN after it (its move generation is the perft group's business:
/// here only the move's reading is checked).
fn accepted_row(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    case: &'static Case,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let castle = case.castling.expect("a played case has a castling");
    let root = chess960(case.fen);
    let m = parse_move(&root, castle.as_bytes()).expect("a tested case");
    let mut after = root.clone();
    after.play_unchecked(m);
    let after_fen = position_fen(&after, CastlingNotation::Shredder);
    let sent = format!(
        "{} after {castle} in {}, and from {after_fen}",
        dialect.command(2),
        case.fen
    );
    let answers = engine
        .perft(dialect, case.fen, &[castle], 2, EngineMode::Chess960)
        .and_then(|moved| {
            let set = engine.perft(dialect, &after_fen, &[], 2, EngineMode::Chess960)?;
            Ok((moved, set))
        });
    let outcome: RowOutcome = match answers {
        Ok((moved, set)) if moved.total == set.total => (
            Status::Pass,
            format!("{} and {}", moved.total, set.total),
            String::new(),
        ),
        Ok((moved, set)) => (
            Status::Fail,
            format!("{} and {}", moved.total, set.total),
            format!(
                "after castling {castle} in {} the engine counts {} at depth 2, and {} from \
                 the position castling gives ({after_fen}): the move was not played as \
                 castling",
                case.fen, moved.total, set.total
            ),
        ),
        Err(failure) => {
            let why = format!("{sent}: {failure}");
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(CheckRow::new(
        CheckId::CastlingAccepted(case),
        sent,
        outcome,
    ));
    Ok(engine)
}

/// Both castling fields: the same counts from Shredder-FEN and X-FEN (whether they are
/// shakmaty's is the perft group's business; the row says so when they are not).
fn fen_fields_row(
    mut engine: CheckEngine,
    dialect: PerftDialect,
    name: &'static str,
    fen: &str,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let position = chess960(fen);
    let expected = reference::perft(&position, 3);
    let xfen = position_fen(&position, CastlingNotation::Xfen);
    let mut got = Vec::new();
    let mut why = String::new();
    for text in [fen.to_owned(), xfen.clone()] {
        match engine.perft(dialect, &text, &[], 3, EngineMode::Chess960) {
            Ok(reply) => got.push(reply.total),
            Err(failure) => {
                why = format!("{} in {text}: {failure}", dialect.command(3));
                engine = failed_engine(engine, &failure)?;
                break;
            }
        }
    }
    if let [shredder, x] = got[..]
        && shredder != x
    {
        why = format!(
            "the engine counts {shredder} from {fen} and {x} from {xfen} at depth 3 \
             (shakmaty {expected})"
        );
    }
    let mut got: String = got
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" and ");
    if why.is_empty() && !got.starts_with(&expected.to_string()) {
        got.push_str(&format!(" (shakmaty {expected}: see the perft group)"));
    }
    let status = if why.is_empty() {
        Status::Pass
    } else {
        Status::Fail
    };
    let sent = format!(
        "{} from {} and {}",
        dialect.command(3),
        fen_castling(fen),
        fen_castling(&xfen)
    );
    rows.push(CheckRow::new(
        CheckId::FenFields(name),
        sent,
        (status, got, why),
    ));
    Ok(engine)
}

fn fen_castling(fen: &str) -> &str {
    fen.split_whitespace().nth(2).unwrap_or("-")
}
