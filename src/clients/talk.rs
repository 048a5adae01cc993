//! What the runner and an engine say to each other, whatever the protocol: the limits and
//! clocks of a search, what a game starts with and a move is asked with, the lines for the
//! engine and the events its lines amount to. Both clients ([`super::uci`],
//! [`super::xboard`]) and the protocol-detecting [`super::client::Client`] speak it; it
//! imports neither.

use std::time::Duration;

use shakmaty::{ByColor, Chess, Color, Move, Position};

use crate::launch::time_control::TimeControl;
use crate::protocol::game::GameLine;

/// Lines for the engine, as the clients write them and the shell sends them: bytes
/// without a line ending (the shape of [`Step::Send`]), never converted on the way.
pub type Lines = Vec<Vec<u8>>;

/// What each search is limited by (several may be combined).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    /// `go depth N` / `sd N`.
    pub depth: Option<u32>,
    /// `go nodes N` (UCI only).
    pub nodes: Option<u64>,
    /// `go movetime MS` / `st S`.
    pub movetime: Option<Duration>,
    /// A clock the runner keeps for each side.
    pub clock: Option<TimeControl>,
}

/// Both clocks when a move is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    /// Time left for each side.
    pub remaining: ByColor<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, when periods have a move count.
    pub moves_to_go: Option<u32>,
}

impl Clocks {
    /// Time left for `color`.
    pub fn of(&self, color: Color) -> Duration {
        self.remaining[color]
    }
}

/// Everything an engine is told when asked for a move.
#[derive(Debug, Clone, Copy)]
pub struct GoRequest<'a> {
    /// The game so far; the engine plays the side to move.
    pub game: &'a GameLine,
    /// The search limits.
    pub limits: &'a Limits,
    /// The clocks, with `--tc`.
    pub clocks: Option<Clocks>,
}

/// Why an XBoard engine cannot play Chess960 at all (its features, read in the handshake).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// No `feature setboard=1`.
    #[error("no feature setboard=1: cannot set up a Chess960 start")]
    NoSetboard,
    /// `fischerandom` is not in `feature variants`.
    #[error("variant fischerandom is not among the engine's variants")]
    NoFischerandom,
}

/// Everything an engine is told when a game starts (XBoard engines: the start and the
/// limits; UCI engines get them with each `go`).
#[derive(Debug, Clone, Copy)]
pub struct NewGame<'a> {
    /// The start position.
    pub root: &'a Chess,
    /// The search limits.
    pub limits: &'a Limits,
}

/// What the engine's lines amount to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientEvent {
    /// The handshake or the new-game setup is done: the engine can be asked for a move.
    Ready,
    /// The engine's move, legal in the position it was asked about.
    Move(Move),
    /// The engine resigned.
    Resign,
    /// The engine broke the protocol or the rules: an illegal move, a refused move of
    /// ours, a missing feature. The engine loses the game with this reason.
    Failed(String),
}

/// `Failed` for a move text that is not legal in `position`.
pub(crate) fn illegal_move(text: &str, position: &Chess) -> ClientEvent {
    let fen = crate::starts::notation::position_fen(
        position,
        crate::starts::notation::CastlingNotation::Shredder,
    );
    ClientEvent::Failed(format!("illegal move '{text}' in {fen}"))
}

/// `Failed` for an engine that says it has no move where there are legal moves.
pub(crate) fn no_move(text: &str, position: &Chess) -> ClientEvent {
    let legal = position.legal_moves().len();
    ClientEvent::Failed(format!(
        "no move ('{text}') in a position with {legal} legal moves"
    ))
}
