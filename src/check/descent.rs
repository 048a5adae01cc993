//! The descent from a perft count that differs from shakmaty's to one position and one
//! move, sans-IO: it asks for counts ([`Query`]), is fed the engine's replies, and ends
//! with the engine agreeing or a [`Divergence`], the way perftree is used by hand.
//!
//! With an engine that divides (`go perft N` lists each move and its count) the moves are
//! compared first: a move only the engine lists is illegal, a move only shakmaty lists is
//! missed; with the same moves, the first move whose count differs is played and the
//! descent goes on one ply shallower. With an engine that gives totals only, each child is
//! counted one ply shallower in shakmaty's order and the first that differs is descended
//! into; at depth 1 only the number of moves can be told, not which move.

use std::fmt;

use shakmaty::{Chess, Position};

use crate::check::reference::{self, Branch};
use crate::protocol::perft::PerftReply;
use crate::starts::castling::{CastlingDialect, parse_move};
use crate::starts::notation::{CastlingNotation, position_fen};

/// A count the engine is asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The position.
    pub position: Chess,
    /// The depth, at least 1.
    pub depth: u32,
}

/// What the descent does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Ask the engine for this count.
    Ask(Query),
    /// Done.
    Done(Comparison),
}

/// How a perft comparison ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// The engine's count is shakmaty's.
    Agrees {
        /// The count.
        total: u64,
    },
    /// It is not: where and why.
    Differs(Divergence),
}

/// The position the descent ended in and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The root counts: the engine's and shakmaty's.
    pub root: (u64, u64),
    /// The moves from the root to the position (the engine's dialect).
    pub line: Vec<String>,
    /// The position (Shredder-FEN).
    pub fen: String,
    /// What is wrong there.
    pub defect: Defect,
}

/// One wrong thing in one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Defect {
    /// The engine lists a move that is not legal.
    Illegal(String),
    /// The engine does not list a legal move.
    Missing(String),
    /// The engine writes a legal move in another notation than expected.
    Notation {
        /// As the engine wrote it.
        written: String,
        /// As expected.
        expected: String,
    },
    /// Counts differ and no move can be named (an engine that gives totals only).
    Count {
        /// The depth.
        depth: u32,
        /// The engine's count.
        engine: u64,
        /// shakmaty's.
        reference: u64,
    },
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Defect::Illegal(m) => write!(f, "engine lists {m}, which is illegal"),
            Defect::Missing(m) => write!(f, "engine misses legal {m}"),
            Defect::Notation { written, expected } => {
                write!(f, "engine writes {expected} as {written}")
            }
            Defect::Count {
                depth: 1,
                engine,
                reference,
            } => write!(
                f,
                "engine counts {engine} legal moves, shakmaty {reference} (the engine gives totals \
                 only: the move cannot be named)"
            ),
            Defect::Count {
                depth,
                engine,
                reference,
            } => write!(
                f,
                "engine counts {engine} at depth {depth}, shakmaty {reference}, and agrees on \
                 every move's count below (its count and its moves disagree)"
            ),
        }
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.defect, self.fen)?;
        if !self.line.is_empty() {
            write!(f, " (after {})", self.line.join(" "))?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone)]
enum Asked {
    /// The count of the current position at the current depth.
    Whole,
    /// The count of child `next` of the current position, one ply shallower (totals).
    Child { branches: Vec<Branch>, next: usize },
    /// The current position's moves (perft 1), after every child agreed (totals).
    Moves,
}

/// One descent, from a root position and depth.
#[derive(Debug, Clone)]
pub struct Descent {
    dialect: CastlingDialect,
    divides: bool,
    position: Chess,
    depth: u32,
    line: Vec<String>,
    root: Option<(u64, u64)>,
    asked: Asked,
    /// shakmaty's count of the position asked for whole, counted ahead
    /// ([`Descent::count_ahead`]) while the engine counts.
    ahead: Option<u64>,
}

impl Descent {
    /// A descent of `position` at `depth` (at least 1) for an engine that writes castling
    /// in `dialect` and divides or not; the first query.
    pub fn start(
        position: Chess,
        depth: u32,
        dialect: CastlingDialect,
        divides: bool,
    ) -> (Descent, Query) {
        let depth = depth.max(1);
        let query = Query {
            position: position.clone(),
            depth,
        };
        let descent = Descent {
            dialect,
            divides,
            position,
            depth,
            line: Vec::new(),
            root: None,
            asked: Asked::Whole,
            ahead: None,
        };
        (descent, query)
    }

    /// The reference count of the root, known already (a start's kept count): not
    /// counted again.
    pub fn root_reference(&mut self, count: u64) {
        if self.root.is_none() {
            self.ahead = Some(count);
        }
    }

    /// Counts the reference of the last query now, while the engine counts it (its reply
    /// then wakes the caller once, not once per divide line, and the wall time is the
    /// longer of the two counts, not their sum); [`Descent::on_reply`] uses it. Queries
    /// of a child or of the moves have their reference already.
    pub fn count_ahead(&mut self) {
        if matches!(self.asked, Asked::Whole) && self.ahead.is_none() {
            self.ahead = Some(reference::perft(&self.position, self.depth));
        }
    }

    fn ask(&self, position: &Chess, depth: u32) -> Next {
        Next::Ask(Query {
            position: position.clone(),
            depth,
        })
    }

    fn found(&self, defect: Defect) -> Next {
        Next::Done(Comparison::Differs(Divergence {
            root: self.root.unwrap_or_default(),
            line: self.line.clone(),
            fen: position_fen(&self.position, CastlingNotation::Shredder),
            defect,
        }))
    }

    /// Goes one ply down into `branch`.
    fn enter(&mut self, branch: &Branch) {
        self.position.play_unchecked(branch.m);
        self.line.push(branch.text.clone());
        self.depth -= 1;
    }

    /// The engine's reply to the last query.
    pub fn on_reply(&mut self, reply: &PerftReply) -> Next {
        match std::mem::replace(&mut self.asked, Asked::Whole) {
            Asked::Whole => {
                let reference = self
                    .ahead
                    .take()
                    .unwrap_or_else(|| reference::perft(&self.position, self.depth));
                if self.root.is_none() {
                    self.root = Some((reply.total, reference));
                    // The same total and (when divided) the same moves: agreed, without
                    // shakmaty counting each move's subtree again (that doubled sp960's
                    // own CPU for engines that divide).
                    if reply.total == reference
                        && reply
                            .divide
                            .as_deref()
                            .is_none_or(|divide| self.same_moves(divide))
                    {
                        return Next::Done(Comparison::Agrees { total: reference });
                    }
                }
                match (&reply.divide, self.divides) {
                    (Some(divide), true) => self.compare_divide(divide, reply.total, reference),
                    _ => self.totals_differ(reply.total, reference),
                }
            }
            Asked::Child { branches, next } => {
                let branch = &branches[next];
                if reply.total != branch.count {
                    let branch = branch.clone();
                    self.enter(&branch);
                    if self.depth == 1 {
                        return self.found(Defect::Count {
                            depth: 1,
                            engine: reply.total,
                            reference: branch.count,
                        });
                    }
                    return self.totals_differ_at_children();
                }
                self.next_child(branches, next + 1)
            }
            Asked::Moves => {
                let reference = reference::perft(&self.position, 1);
                if reply.total != reference {
                    self.found(Defect::Count {
                        depth: 1,
                        engine: reply.total,
                        reference,
                    })
                } else {
                    let (engine, reference) = self.root.unwrap_or_default();
                    self.found(Defect::Count {
                        depth: self.depth,
                        engine,
                        reference,
                    })
                }
            }
        }
    }

    /// Whether `divide` lists exactly the legal moves (in the engine's dialect).
    fn same_moves(&self, divide: &[(String, u64)]) -> bool {
        let legal = self.position.legal_moves();
        divide.len() == legal.len()
            && legal.iter().all(|m| {
                let text = crate::starts::castling::move_text(m, self.dialect);
                divide.iter().any(|(written, _)| *written == text)
            })
    }

    fn totals_differ(&mut self, engine: u64, reference: u64) -> Next {
        if engine == reference {
            return Next::Done(Comparison::Agrees { total: reference });
        }
        if self.depth == 1 {
            return self.found(Defect::Count {
                depth: 1,
                engine,
                reference,
            });
        }
        self.totals_differ_at_children()
    }

    fn totals_differ_at_children(&mut self) -> Next {
        let branches = reference::divide(&self.position, self.depth, self.dialect);
        self.next_child(branches, 0)
    }

    fn next_child(&mut self, branches: Vec<Branch>, next: usize) -> Next {
        let Some(branch) = branches.get(next) else {
            // Every child agrees: the moves of this position disagree.
            self.asked = Asked::Moves;
            return self.ask(&self.position.clone(), 1);
        };
        let mut child = self.position.clone();
        child.play_unchecked(branch.m);
        let query = self.ask(&child, self.depth - 1);
        self.asked = Asked::Child { branches, next };
        query
    }

    fn compare_divide(&mut self, divide: &[(String, u64)], total: u64, reference: u64) -> Next {
        let branches = reference::divide(&self.position, self.depth, self.dialect);
        let known = |text: &str| branches.iter().any(|b| b.text == text);
        let extra: Vec<&str> = divide
            .iter()
            .map(|(text, _)| text.as_str())
            .filter(|text| !known(text))
            .collect();
        let missing: Vec<&Branch> = branches
            .iter()
            .filter(|b| !divide.iter().any(|(text, _)| *text == b.text))
            .collect();
        // A legal move in another notation (king to its destination for king takes rook).
        for written in &extra {
            if let Ok(m) = parse_move(&self.position, written.as_bytes())
                && let Some(expected) = missing.iter().find(|b| b.m == m)
            {
                return self.found(Defect::Notation {
                    written: (*written).to_owned(),
                    expected: expected.text.clone(),
                });
            }
        }
        if let Some(written) = extra.first() {
            return self.found(Defect::Illegal((*written).to_owned()));
        }
        if let Some(branch) = missing.first() {
            return self.found(Defect::Missing(branch.text.clone()));
        }
        let differing = branches.iter().find(|b| {
            divide
                .iter()
                .any(|(text, count)| *text == b.text && *count != b.count)
        });
        match differing {
            Some(branch) if self.depth > 1 => {
                let branch = branch.clone();
                self.enter(&branch);
                self.asked = Asked::Whole;
                self.ask(&self.position.clone(), self.depth)
            }
            _ if total == reference => Next::Done(Comparison::Agrees { total: reference }),
            _ => self.found(Defect::Count {
                depth: self.depth,
                engine: total,
                reference,
            }),
        }
    }
}

/// A position of this room's own (the built-in cases, the kept counts, the tests) read in
/// Chess960 mode; each is tested, so a bad one is a bug.
pub(crate) fn chess960(fen: &str) -> Chess {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    Fen::from_ascii(fen.as_bytes())
        .ok()
        .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok())
        .unwrap_or_else(|| panic!("{fen} is not a legal Chess960 position"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine for the tests: shakmaty with a planted defect, answering queries.
    fn engine_reply(
        query: &Query,
        divides: bool,
        broken: &dyn Fn(&Chess) -> Vec<Branch>,
    ) -> PerftReply {
        fn count(position: &Chess, depth: u32, broken: &dyn Fn(&Chess) -> Vec<Branch>) -> u64 {
            if depth == 0 {
                return 1;
            }
            broken(position)
                .iter()
                .map(|b| {
                    let mut child = position.clone();
                    child.play_unchecked(b.m);
                    count(&child, depth - 1, broken)
                })
                .sum()
        }
        let moves = broken(&query.position);
        let divide: Vec<(String, u64)> = moves
            .iter()
            .map(|b| {
                let mut child = query.position.clone();
                child.play_unchecked(b.m);
                (b.text.clone(), count(&child, query.depth - 1, broken))
            })
            .collect();
        PerftReply {
            total: divide.iter().map(|(_, n)| n).sum(),
            divide: divides.then_some(divide),
        }
    }

    #[test]
    fn a_known_root_count_is_used_and_not_counted_again() {
        let position = chess960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        let total = reference::perft(&position, 2);
        let reply = PerftReply {
            total,
            divide: None,
        };
        let (mut descent, _) =
            Descent::start(position.clone(), 2, CastlingDialect::Chess960, false);
        descent.root_reference(total);
        descent.count_ahead();
        assert_eq!(
            descent.on_reply(&reply),
            Next::Done(Comparison::Agrees { total })
        );
        // Given a wrong count, the engine that agrees with shakmaty is held against it:
        // the count given is the one used.
        let (mut descent, _) = Descent::start(position, 2, CastlingDialect::Chess960, false);
        descent.root_reference(total + 1);
        assert!(matches!(descent.on_reply(&reply), Next::Ask(_)));
    }

    fn run(
        fen: &str,
        depth: u32,
        divides: bool,
        broken: &dyn Fn(&Chess) -> Vec<Branch>,
    ) -> (Comparison, usize) {
        let (mut descent, mut query) =
            Descent::start(chess960(fen), depth, CastlingDialect::Chess960, divides);
        // Every other descent counts ahead, as the check does: the outcome is the same.
        let ahead = depth % 2 == 1;
        for asked in 1.. {
            if ahead {
                descent.count_ahead();
            }
            match descent.on_reply(&engine_reply(&query, divides, broken)) {
                Next::Ask(next) => query = next,
                Next::Done(outcome) => return (outcome, asked),
            }
        }
        unreachable!()
    }

    fn honest(position: &Chess) -> Vec<Branch> {
        reference::divide(position, 1, CastlingDialect::Chess960)
    }

    /// Drops every castling move of white's king on b1 with the rook on f1.
    fn no_castling(position: &Chess) -> Vec<Branch> {
        let mut moves = honest(position);
        moves.retain(|b| !b.m.is_castle());
        moves
    }

    const CASTLING: &str = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";

    #[test]
    fn an_honest_engine_agrees_in_one_query() {
        for divides in [true, false] {
            let (outcome, asked) = run(CASTLING, 3, divides, &honest);
            assert_eq!(
                outcome,
                Comparison::Agrees {
                    total: reference::perft(&chess960(CASTLING), 3)
                }
            );
            assert_eq!(asked, 1);
        }
    }

    #[test]
    fn a_missing_castling_is_named_with_the_position_where_it_is_missed() {
        let (outcome, _) = run(CASTLING, 3, true, &no_castling);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        let Defect::Missing(missed) = &finding.defect else {
            panic!("{finding}")
        };
        assert!(["f1g1", "f1b1"].contains(&missed.as_str()), "{finding}");
        assert_eq!(finding.fen, CASTLING);
        assert!(finding.line.is_empty());
        assert_eq!(
            finding.to_string(),
            format!("engine misses legal {missed} in {CASTLING}")
        );
    }

    #[test]
    fn a_defect_deeper_down_is_found_by_descending() {
        // Castling is missed only for black: the divide differs in counts at the root
        // and the descent plays a white move to reach black's castling.
        let black_only = |position: &Chess| {
            let mut moves = honest(position);
            if position.turn().is_black() {
                moves.retain(|b| !b.m.is_castle());
            }
            moves
        };
        let (outcome, asked) = run(CASTLING, 3, true, &black_only);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        let Defect::Missing(missed) = &finding.defect else {
            panic!("{finding}")
        };
        assert!(["f8g8", "f8b8"].contains(&missed.as_str()), "{finding}");
        assert_eq!(finding.line.len(), 1);
        assert_eq!(asked, 2);
        assert!(finding.fen.contains(" b "), "{}", finding.fen);
    }

    #[test]
    fn totals_only_name_the_position_and_the_count() {
        let black_only = |position: &Chess| {
            let mut moves = honest(position);
            if position.turn().is_black() {
                moves.retain(|b| !b.m.is_castle());
            }
            moves
        };
        let (outcome, _) = run(CASTLING, 3, false, &black_only);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        let Defect::Count {
            depth: 1,
            engine,
            reference,
        } = finding.defect
        else {
            panic!("{finding}")
        };
        // Both black castlings are missed.
        assert_eq!(reference, engine + 2);
        assert_eq!(finding.line.len(), 1);
    }

    #[test]
    fn the_same_total_with_other_moves_is_no_agreement() {
        // One legal move written as an illegal one: every count is the same.
        let renamed = |position: &Chess| {
            let mut moves = honest(position);
            moves[0].text = "a1a8".into();
            moves
        };
        let (outcome, asked) = run(CASTLING, 2, true, &renamed);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        assert_eq!(finding.root.0, finding.root.1);
        assert_eq!(finding.defect, Defect::Illegal("a1a8".into()));
        assert_eq!(asked, 1);
    }

    #[test]
    fn an_illegal_move_and_a_notation_are_told_apart() {
        // A rook move through its own pawn, listed beside the legal moves.
        let extra = |position: &Chess| {
            let mut moves = honest(position);
            let mut fake = moves[0].clone();
            fake.text = "a1a8".into();
            moves.push(fake);
            moves
        };
        let (outcome, _) = run(CASTLING, 2, true, &extra);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        assert_eq!(finding.defect, Defect::Illegal("a1a8".into()));
        // King to destination where king takes rook is expected: SP 518's e1g1.
        let standard = |position: &Chess| {
            let mut moves = honest(position);
            for b in &mut moves {
                if b.m.is_castle() {
                    b.text = crate::starts::castling::move_text(&b.m, CastlingDialect::Standard);
                }
            }
            moves
        };
        let (outcome, _) = run("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", 1, true, &standard);
        let Comparison::Differs(finding) = outcome else {
            panic!("agrees")
        };
        assert_eq!(
            finding.defect,
            Defect::Notation {
                written: "e1g1".into(),
                expected: "e1h1".into()
            }
        );
    }
}
