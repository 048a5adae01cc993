//! The play group: each played case's castling made, then a search whose reply must be
//! legal; the traps (a castling that would mate, illegal or the only mate); XBoard's own
//! castling notation; the castling offered alone with `searchmoves`.

use shakmaty::Chess;

use crate::check::cases::Case;
use crate::check::descent::chess960;
use crate::check::engine::CheckEngine;
use crate::check::groups::{RowOutcome, failed_row};
use crate::check::ids::CheckId;
use crate::check::report::{CheckRow, Status};
use crate::check::run::CheckError;
use crate::check::traps::{TRAPS, Trap, TrapAnswer, parse_uci};
use crate::protocol::Protocol;
use crate::protocol::xboard::parse_xboard_move;
use crate::starts::castling::{CastlingDialect, move_text, parse_move};

/// The whole group. `chess960_castling`: whether the engine can be asked for a castling
/// that only Chess960 has (not when it gets standard chess for want of `UCI_Chess960`,
/// directly or behind the proxy's `--offer-chess960`).
pub fn play_rows(
    mut engine: CheckEngine,
    cases: &[&'static Case],
    depth: u32,
    chess960_castling: bool,
    bar: &indicatif::ProgressBar,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    for case in cases {
        bar.set_message(format!("play {}", case.name));
        bar.inc(1);
        engine = played_row(engine, case, depth, rows)?;
    }
    match engine.protocol() {
        Protocol::Uci => {
            for trap in TRAPS {
                engine = trap_row(engine, trap, depth, chess960_castling, rows)?;
            }
            engine = searchmoves_rows(engine, cases, depth, rows)?;
        }
        Protocol::Xboard if engine.xboard_support().is_ok() => {
            for trap in TRAPS {
                engine = trap_row(engine, trap, depth, true, rows)?;
            }
            engine = written_castling_row(engine, depth, rows)?;
        }
        Protocol::Xboard => {}
    }
    Ok(engine)
}

/// The case's castling made, then a search.
fn played_row(
    mut engine: CheckEngine,
    case: &'static Case,
    depth: u32,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let castle = case.castling.expect("a played case has a castling");
    let root = chess960(case.fen);
    let m = parse_move(&root, castle.as_bytes()).expect("a tested case");
    let sent = format!("{castle} in {}, then a search to depth {depth}", case.fen);
    let outcome = match engine.play(&root, &[m], depth) {
        Ok(reply) => (
            Status::Pass,
            move_text(&reply, CastlingDialect::Chess960),
            String::new(),
        ),
        Err(failure) => {
            let why = format!("after {castle} in {}: {failure}", case.fen);
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(CheckRow::new(CheckId::Played(case), sent, outcome));
    Ok(engine)
}

/// A search in a position where castling would mate. An illegal castling played, or the
/// legal one missed, is a move-generation defect found by play alone.
fn trap_row(
    mut engine: CheckEngine,
    trap: &'static Trap,
    depth: u32,
    chess960_castling: bool,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let protocol = engine.protocol();
    let go = match protocol {
        Protocol::Uci => format!("go depth {depth}"),
        Protocol::Xboard => format!("sd {depth}, go"),
    };
    let sent = format!(
        "{go} in {} (castling {} would mate)",
        trap.fen, trap.castling
    );
    if trap.legal && !chess960_castling {
        let why = "the engine gets standard chess (no UCI_Chess960 of its own): it cannot \
                   castle where Chess960 castling differs, so this castling is not asked";
        let outcome = (Status::Skip, String::new(), why.to_owned());
        rows.push(CheckRow::new(CheckId::Trap(trap), sent, outcome));
        return Ok(engine);
    }
    let outcome = match engine.search_text(&trap.position(), depth) {
        Ok(text) => trap_outcome(trap, protocol, text),
        Err(failure) => {
            let why = format!("{sent}: {failure}");
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(CheckRow::new(CheckId::Trap(trap), sent, outcome));
    Ok(engine)
}

/// What the engine's move `text` in a trap says.
fn trap_outcome(trap: &Trap, protocol: Protocol, text: String) -> RowOutcome {
    let answer = match protocol {
        Protocol::Uci => trap.answer(&text, parse_uci),
        Protocol::Xboard => trap.answer(&text, |position, text| {
            parse_xboard_move(position, text.as_bytes()).ok()
        }),
    };
    let fen = trap.fen;
    match answer {
        TrapAnswer::Right => (Status::Pass, text, String::new()),
        TrapAnswer::IllegalCastling => {
            let why = format!(
                "the engine played {text}, castling that is illegal in {fen}: {} (it would \
                 mate)",
                trap.reason
            );
            (Status::Fail, text, why)
        }
        TrapAnswer::Illegal => {
            let why = format!("the engine played {text}, which is illegal in {fen}");
            (Status::Fail, text, why)
        }
        TrapAnswer::MissedCastling(played) => {
            let why = format!(
                "the only mate in one in {fen} is castling {} ({}); the engine played {played}",
                trap.castling, trap.reason
            );
            (Status::Fail, played, why)
        }
    }
}

/// XBoard: which notation the engine writes its own castling in. The position's only mate
/// in one is queen-side castling with the king on b1 and the rook on a1 (the king moves one
/// square, so `b1c1` would be a king step): `O-O-O` or king takes rook (`b1a1`).
fn written_castling_row(
    mut engine: CheckEngine,
    depth: u32,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    const FEN: &str = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
    let root = chess960(FEN);
    let sent = format!("setboard {FEN}, sd {depth}, go (the only mate in one: O-O-O)");
    let outcome = match engine.xboard_move(FEN, depth) {
        Ok(text) => match parse_xboard_move(&root, text.as_bytes()) {
            Ok(m) if m.is_castle() => {
                let form = if text.starts_with('O') || text.starts_with('0') {
                    "O-O notation"
                } else {
                    "king takes rook"
                };
                (Status::Pass, format!("{text} ({form})"), String::new())
            }
            Ok(_) => {
                let why = format!("in {FEN} the engine played {text}, not the castling mate O-O-O");
                (Status::Fail, text, why)
            }
            Err(err) => {
                let why = format!("in {FEN} the engine wrote {text}: {err}");
                (Status::Fail, text, why)
            }
        },
        Err(failure) => {
            let why = format!("{sent}: {failure}");
            let (restarted, outcome) = failed_row(engine, &failure, why)?;
            engine = restarted;
            outcome
        }
    };
    rows.push(CheckRow::new(CheckId::WritesCastling, sent, outcome));
    Ok(engine)
}

/// `go searchmoves CASTLE`: the engine must answer the castling move, where it honours
/// `searchmoves` at all (checked first with a quiet move in a start).
fn searchmoves_rows(
    mut engine: CheckEngine,
    cases: &[&'static Case],
    depth: u32,
    rows: &mut Vec<CheckRow>,
) -> Result<CheckEngine, CheckError> {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let root: Chess = chess960(start);
    let honours = matches!(
        engine.search_moves(&root, start, Some("a2a3"), depth),
        Ok(best) if best == "a2a3"
    );
    if !honours {
        let sent = format!("go depth {depth} searchmoves a2a3 in {start}");
        let why = "the engine does not honour searchmoves: the castling moves were not offered \
                   alone";
        let outcome = (Status::Skip, String::new(), why.to_owned());
        rows.push(CheckRow::new(CheckId::SearchmovesIgnored, sent, outcome));
        return Ok(engine);
    }
    for case in cases {
        let castle = case.castling.expect("a played case has a castling");
        let root = chess960(case.fen);
        let sent = format!("go depth {depth} searchmoves {castle} in {}", case.fen);
        let outcome = match engine.search_moves(&root, case.fen, Some(castle), depth) {
            Ok(best) if best == castle => (Status::Pass, best, String::new()),
            Ok(best) => {
                let why = format!(
                    "offered only {castle} in {} (searchmoves), the engine answered {best}",
                    case.fen
                );
                (Status::Fail, best, why)
            }
            Err(failure) => {
                let why = format!("{sent}: {failure}");
                let (restarted, outcome) = failed_row(engine, &failure, why)?;
                engine = restarted;
                outcome
            }
        };
        rows.push(CheckRow::new(CheckId::Searchmoves(case), sent, outcome));
    }
    Ok(engine)
}
