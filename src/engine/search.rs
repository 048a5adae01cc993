//! The search: iterative deepening over a negamax alpha-beta (principal-variation search)
//! with a quiescence search on captures, move ordering by transposition-table move,
//! MVV-LVA and killer moves, and check extensions. Draws by repetition (against the game
//! history too), the fifty-move rule and insufficient material are scored 0.
//!
//! [`search`] is synchronous: it runs on the caller's thread until a limit is reached or
//! `stop` is set, reporting each completed iteration through a callback. The protocol
//! front-ends run it on a thread of its own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, MoveList, Position};

use super::eval::{evaluate, piece_value};

/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 128;
const MATE: i32 = 32_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 32_500;
const TT_SIZE: usize = 1 << 16;

/// How long one move may take: the search starts no new iteration after `soft` and aborts
/// at `hard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration starts after this much time.
    pub soft: Duration,
    /// The search stops, wherever it is, after this much time.
    pub hard: Duration,
}

impl TimeBudget {
    /// A fixed time per move (`go movetime`, xboard `st`), less a small margin for the
    /// reply to reach the GUI.
    pub fn fixed(movetime: Duration) -> TimeBudget {
        let margin = (movetime / 10).min(Duration::from_millis(20));
        let hard = movetime
            .saturating_sub(margin)
            .max(Duration::from_millis(1));
        TimeBudget { soft: hard, hard }
    }

    /// A share of a game clock: `remaining` on the clock, `increment` per move, and
    /// `moves_to_go` until the next time control (`None`: sudden death, plan for 30).
    pub fn for_clock(
        remaining: Duration,
        increment: Duration,
        moves_to_go: Option<u32>,
    ) -> TimeBudget {
        let overhead = Duration::from_millis(30).min(remaining / 4);
        let usable = remaining.saturating_sub(overhead);
        let moves_to_go = moves_to_go.unwrap_or(30).clamp(1, 60);
        let (share_cap, hard_cap) = if moves_to_go == 1 {
            (usable * 4 / 5, usable * 9 / 10)
        } else {
            (usable / 3, usable / 2)
        };
        let share = (usable / moves_to_go + increment * 3 / 4).min(share_cap);
        let minimum = Duration::from_millis(1);
        TimeBudget {
            soft: (share * 3 / 5).max(minimum),
            hard: (share * 5 / 2).min(hard_cap).max(minimum),
        }
    }
}

/// What ends a search; every limit given applies, the first reached wins. No limit at all
/// means "until stopped" (`go infinite`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// The deepest iteration (plies).
    pub depth: Option<u32>,
    /// The most nodes to visit.
    pub nodes: Option<u64>,
    /// Wall-clock time.
    pub time: Option<TimeBudget>,
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// A report on one completed iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchReport {
    /// Iteration depth in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the principal variation.
    pub score: Eval,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation: legal moves from the root on.
    pub pv: Vec<Move>,
}

impl SearchReport {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: legal in the root position; `None` only when there is none.
    pub best_move: Option<Move>,
    /// The expected reply, when the principal variation has one.
    pub ponder: Option<Move>,
    /// The last completed iteration, if any.
    pub info: Option<SearchReport>,
    /// Nodes visited in all.
    pub nodes: u64,
    /// Time taken in all.
    pub elapsed: Duration,
}

/// A position to search and how.
#[derive(Debug, Clone)]
pub struct SearchJob {
    /// The root position.
    pub position: Chess,
    /// Zobrist hashes of the game's earlier positions, oldest first (for repetitions).
    pub history: Vec<u64>,
    /// When to stop.
    pub limits: SearchLimits,
    /// Only these root moves (UCI `searchmoves`); empty: all legal moves.
    pub root_moves: Vec<Move>,
}

impl SearchJob {
    /// A search of `position` with no game history and no root-move restriction.
    pub fn new(position: Chess, limits: SearchLimits) -> SearchJob {
        SearchJob {
            position,
            history: Vec::new(),
            limits,
            root_moves: Vec::new(),
        }
    }
}

/// The Zobrist hash the search uses for repetition detection.
pub fn position_hash(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Searches `job` until one of its limits is reached or `stop` is set, calling `on_info`
/// after every completed iteration. Always returns a legal move when there is one, even if
/// stopped at once.
pub fn search(
    job: &SearchJob,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchReport),
) -> SearchResult {
    let mut searcher = Searcher::new(job, stop);
    let root = &job.position;
    let root_hash = position_hash(root);
    searcher.path.push(root_hash);

    let mut root_moves = root.legal_moves();
    if !job.root_moves.is_empty() {
        root_moves.retain(|m| job.root_moves.contains(m));
    }
    let Some(&fallback) = root_moves.first() else {
        return searcher.result(None, None, None);
    };

    let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut best: Option<(Move, Option<Move>)> = None;
    let mut last_info = None;
    for depth in 1..=max_depth {
        searcher.root_best = None;
        let score = searcher.negamax(root, root_hash, depth as i32, 0, -INFINITY, INFINITY);
        if searcher.aborted {
            // A root move that beat the previous best in the unfinished iteration was
            // searched fully: prefer it.
            if let Some(partial) = searcher.root_best
                && best.is_none_or(|(previous, _)| previous != partial)
            {
                best = Some((partial, None));
            }
            break;
        }
        let pv = searcher.pv[0].clone();
        let Some(&first) = pv.first() else { break };
        best = Some((first, pv.get(1).copied()));
        let info = SearchReport {
            depth,
            seldepth: searcher.seldepth as u32,
            score: score_of(score),
            nodes: searcher.nodes,
            elapsed: searcher.start.elapsed(),
            pv,
        };
        on_info(&info);
        last_info = Some(info);
        let mate_found = score.abs() > MATE_BOUND && (MATE - score.abs()) <= depth as i32;
        let out_of_time = job
            .limits
            .time
            .is_some_and(|budget| searcher.start.elapsed() >= budget.soft);
        if mate_found || out_of_time {
            break;
        }
    }
    let (best_move, ponder) = best.unwrap_or((fallback, None));
    searcher.result(Some(best_move), ponder, last_info)
}

fn score_of(value: i32) -> Eval {
    if value > MATE_BOUND {
        Eval::Mate((MATE - value + 1) / 2)
    } else if value < -MATE_BOUND {
        Eval::Mate(-(MATE + value) / 2)
    } else {
        Eval::Cp(value)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct TtEntry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: i32,
    bound: Bound,
}

struct Searcher<'a> {
    limits: &'a SearchLimits,
    root_moves: &'a [Move],
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    /// Hashes from the game's first position to the current node.
    path: Vec<u64>,
    pv: Vec<Vec<Move>>,
    killers: Vec<[Option<Move>; 2]>,
    table: Vec<Option<TtEntry>>,
    root_best: Option<Move>,
}

/// The score a transposition-table entry gives a node without searching it, when it was
/// searched as deep and its bound settles the window (never at the root, which must pick
/// a move).
fn table_cutoff(entry: TtEntry, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if ply == 0 || entry.depth < depth {
        return None;
    }
    let score = score_from_table(entry.score, ply);
    match entry.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= beta => Some(score),
        Bound::Upper if score <= alpha => Some(score),
        _ => None,
    }
}

impl<'a> Searcher<'a> {
    fn new(job: &'a SearchJob, stop: &'a AtomicBool) -> Searcher<'a> {
        let start = Instant::now();
        let mut path = Vec::with_capacity(job.history.len() + MAX_PLY + 1);
        path.extend_from_slice(&job.history);
        Searcher {
            limits: &job.limits,
            root_moves: &job.root_moves,
            stop,
            start,
            deadline: job.limits.time.map(|budget| start + budget.hard),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            path,
            pv: vec![Vec::new(); MAX_PLY + 1],
            killers: vec![[None; 2]; MAX_PLY + 1],
            table: vec![None; TT_SIZE],
            root_best: None,
        }
    }

    fn result(
        &self,
        best_move: Option<Move>,
        ponder: Option<Move>,
        info: Option<SearchReport>,
    ) -> SearchResult {
        SearchResult {
            best_move,
            ponder,
            info,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    /// Counts a node; true when the search must unwind now.
    fn visit(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.limits.nodes.is_some_and(|limit| self.nodes >= limit) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(1024)
            && (self.stop.load(Ordering::Relaxed)
                || self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// A draw by rule at a non-root node: fifty moves, insufficient material, or a
    /// repetition of an earlier position (the node's own hash is last on the path).
    fn is_draw(&self, position: &Chess) -> bool {
        let halfmoves = position.halfmoves() as usize;
        if halfmoves >= 100 || position.is_insufficient_material() {
            return true;
        }
        let current = self.path.len() - 1;
        let hash = self.path[current];
        (4..=halfmoves.min(current))
            .step_by(2)
            .any(|back| self.path[current - back] == hash)
    }

    fn probe(&self, hash: u64) -> Option<TtEntry> {
        self.table[hash as usize % TT_SIZE].filter(|entry| entry.key == hash)
    }

    fn store(&mut self, hash: u64, entry: TtEntry) {
        self.table[hash as usize % TT_SIZE] = Some(entry);
    }

    fn negamax(
        &mut self,
        position: &Chess,
        hash: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if ply > 0 && self.is_draw(position) {
            return 0;
        }
        let in_check = position.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(position, ply, alpha, beta);
        }
        if self.visit(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(position);
        }

        let entry = self.probe(hash);
        if let Some(score) = entry.and_then(|entry| table_cutoff(entry, depth, ply, alpha, beta)) {
            return score;
        }

        let mut moves = position.legal_moves();
        if ply == 0 && !self.root_moves.is_empty() {
            moves.retain(|m| self.root_moves.contains(m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let table_move = entry.and_then(|entry| entry.best);
        let ordered = self.order(moves, table_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (index, m) in ordered.into_iter().enumerate() {
            let mut child = position.clone();
            let child_hash = position
                .update_zobrist_hash(Zobrist64(hash), m, EnPassantMode::Legal)
                .map(|hash| hash.0);
            child.play_unchecked(m);
            let child_hash = child_hash.unwrap_or_else(|| position_hash(&child));
            self.path.push(child_hash);
            let mut score;
            if index == 0 {
                score = -self.negamax(&child, child_hash, depth - 1, ply + 1, -beta, -alpha);
            } else {
                score = -self.negamax(&child, child_hash, depth - 1, ply + 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, child_hash, depth - 1, ply + 1, -beta, -alpha);
                }
            }
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.new_best(ply, m);
                    if alpha >= beta {
                        self.remember_killer(ply, m);
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(
            hash,
            TtEntry {
                key: hash,
                best: best_move,
                score: score_to_table(best_score, ply),
                depth,
                bound,
            },
        );
        best_score
    }

    /// `m` raised alpha at `ply`: its line becomes the principal variation there (and at
    /// the root, the best move so far).
    fn new_best(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
        if ply == 0 {
            self.root_best = Some(m);
        }
    }

    /// A quiet move that cut off at `ply` becomes its first killer (the old first the
    /// second).
    fn remember_killer(&mut self, ply: usize, m: Move) {
        if !m.is_capture() && !m.is_promotion() && self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
    }

    fn quiescence(&mut self, position: &Chess, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.visit(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(position);
        }
        let in_check = position.is_check();
        let mut moves = position.legal_moves();
        let mut best_score;
        let stand_pat;
        if in_check {
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best_score = -INFINITY;
            stand_pat = None;
        } else {
            let static_score = evaluate(position);
            if static_score >= beta {
                return static_score;
            }
            alpha = alpha.max(static_score);
            best_score = static_score;
            stand_pat = Some(static_score);
            moves.retain(|m| m.is_capture() || m.is_promotion());
        }
        for m in self.order(moves, None, ply) {
            if let (Some(stand_pat), Some(victim)) = (stand_pat, m.capture()) {
                // Delta pruning: even winning the piece cannot lift the score to alpha.
                if !m.is_promotion() && stand_pat + piece_value(victim) + 200 < alpha {
                    continue;
                }
            }
            let mut child = position.clone();
            child.play_unchecked(m);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }

    /// Orders moves best-first: the table move, captures by MVV-LVA, promotions, killers,
    /// then quiet moves.
    fn order(&self, moves: MoveList, table_move: Option<Move>, ply: usize) -> Vec<Move> {
        let killers = self.killers[ply];
        let mut scored: Vec<(i32, Move)> = moves
            .into_iter()
            .map(|m| {
                let key = if Some(m) == table_move {
                    1_000_000
                } else if let Some(victim) = m.capture() {
                    100_000 + piece_value(victim) * 16 - m.role() as i32
                } else if let Some(promotion) = m.promotion() {
                    90_000 + piece_value(promotion)
                } else if killers[0] == Some(m) {
                    80_000
                } else if killers[1] == Some(m) {
                    79_000
                } else {
                    0
                };
                (key, m)
            })
            .collect();
        scored.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        scored.into_iter().map(|(_, m)| m).collect()
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
