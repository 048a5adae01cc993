//! One PGN game checked as a game, a [`Visitor`] of the one PGN reader ([`super::pgn`]):
//! its start read from its tags whatever the producer wrote (the `Variant` tag in any
//! spelling, `FEN` with or without `SetUp`, X-FEN or Shredder castling, two `FEN` tags),
//! then every move of the mainline and of every variation replayed from its own position,
//! the first that does not replay reported where it is, with the move number, the side,
//! the position and why; its `Result` held against its termination marker and the board.
//!
//! Sans-IO: the checker is given the text the reader reads (columns inside a tag's value
//! are found from where the value lies in it) and answers a [`GameVerdict`] per game.
//! Variations are replayed on an explicit stack, never by recursion, so no nesting depth
//! can overflow the thread's stack.

use std::ops::ControlFlow;

use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{Chess, Color, KnownOutcome, Outcome, Position};

use super::check::CheckOptions;
use super::game_start::{Variant, pgn_variant, reads_as_chess960};
use super::illegal_move::{role_name, san_why};
use super::pgn::{At, Skip, TagValue, Visitor};
use super::record::{Line, ProblemKind, check_line};
use crate::starts::notation::{CastlingNotation, position_fen};
use crate::starts::start::Start;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The game is invalid.
    Error,
    /// The game is valid, but read with an assumption or an inconsistency worth knowing.
    Warning,
}

/// The kinds of finding: each decision on a finding is made on its kind. Serialized as its
/// stable name, the variant's (`IllegalMove`), but [`FindingKind::FenNotAStart`], which is
/// reported as `BadFen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum FindingKind {
    /// A line that begins with `[` but is no tag pair.
    MalformedTag,
    /// A `Variant` tag that names neither chess nor Chess960.
    UnknownVariant,
    /// A `FEN` tag that is `?` or empty.
    NoStart,
    /// A `FEN` tag that is no valid position.
    BadFen,
    /// A `FEN` tag that is a position but no untouched start (`--start-positions`),
    /// reported as `BadFen`.
    #[serde(rename = "BadFen")]
    FenNotAStart,
    /// Two `FEN` tags that give two positions.
    FenTagsDisagree,
    /// Two `FEN` tags, one position (a warning).
    TwoFenTags,
    /// A start whose castling is no standard chess castling, without a Chess960 `Variant`
    /// tag (a warning).
    NoChess960Variant,
    /// A Chess960 game without a `FEN` tag (a warning).
    NoFen,
    /// A move that is not legal where it is played.
    IllegalMove,
    /// A move that more than one piece can make.
    AmbiguousMove,
    /// A null move, played as a pass (a warning).
    NullMove,
    /// A token that is not SAN.
    NotSan,
    /// A `{` comment never closed.
    UnclosedComment,
    /// A `(` with no move before it.
    VariationWithoutMove,
    /// A `)` with no `(` open.
    UnopenedVariation,
    /// A `(` never closed.
    UnclosedVariation,
    /// The `Result` tag against the termination marker (a warning).
    ResultMismatch,
    /// No termination marker (a warning).
    NoResult,
    /// The result against checkmate or stalemate on the board (a warning).
    ResultAgainstBoard,
    /// A line longer than the reader keeps.
    LineTooLong,
}

impl FindingKind {
    /// A finding of a game that starts from no untouched start: not a game of a start
    /// rather than one that does not replay.
    pub fn is_not_a_start(self) -> bool {
        self == FindingKind::FenNotAStart
    }
}

/// One thing found in a game, where it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// 1-based line in the text the checker read.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// Error or warning.
    pub severity: Severity,
    /// What kind of finding it is; reported by its stable name (`IllegalMove`,
    /// `UnknownVariant`, ...).
    pub kind: FindingKind,
    /// What is wrong, for people.
    pub message: String,
}

/// What one game gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameVerdict {
    /// The game's first line (its first tag, or its first token without tags).
    pub line: usize,
    /// Its start, with [`CheckOptions::start_positions`], when it is one.
    pub start: Option<Start>,
    /// Mainline moves replayed.
    pub plies: u32,
    /// The `Result` tag, as written.
    pub result: Option<String>,
    /// Read as a Chess960 game: a Chess960 `Variant` tag, or a start whose castling is no
    /// standard chess castling.
    pub chess960: bool,
    /// Errors and warnings, in the order found.
    pub findings: Vec<Finding>,
    /// The mainline's last position, when the game replayed without an error.
    pub final_position: Option<Chess>,
    /// The `White` and `Black` tags, as written (who played: `sp960 results --by-engine`),
    /// with the tags `sp960 results` filters on (`WhiteElo`, `BlackElo`, `TimeControl`, `Event`).
    pub players: Players,
}

/// The `White` and `Black` tags of a game, and how they played (the tags lichess writes,
/// which `sp960 results` filters on), as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Players {
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `WhiteElo` tag.
    pub white_elo: Option<String>,
    /// The `BlackElo` tag.
    pub black_elo: Option<String>,
    /// The `TimeControl` tag: `180+2`, `-`.
    pub time_control: Option<String>,
    /// The `Event` tag: `Rated Chess960 game`.
    pub event: Option<String>,
}

impl GameVerdict {
    /// No error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.findings.iter().all(|f| f.severity != Severity::Error)
    }
}

/// Whether a `Variant` tag's value means Chess960
/// ([`CHESS960_VARIANTS`](crate::starts::variant::CHESS960_VARIANTS)).
pub fn is_chess960_variant(value: &str) -> bool {
    pgn_variant(value) == Some(Variant::Chess960)
}

const STANDARD_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Checks the games of one text; make one per text read.
pub struct GameChecker<'t> {
    text: &'t [u8],
    options: CheckOptions,
    /// Lines before the text in its file: every line reported is the file's.
    lines_before: usize,
}

impl<'t> GameChecker<'t> {
    /// A checker of the games in `text` (the text given to the reader), each start
    /// checked as `options` say.
    pub fn new(text: &'t [u8], options: CheckOptions, lines_before: usize) -> GameChecker<'t> {
        GameChecker {
            text,
            options,
            lines_before,
        }
    }

    /// `at`, its line counted in the file.
    fn in_file(&self, at: At) -> At {
        At {
            line: at.line + self.lines_before,
            ..at
        }
    }

    /// Where `inner` (a slice of the text) begins, as a column on the line of `at`
    /// (which lies before it on the same line).
    fn column_of(&self, inner: &[u8], at: At) -> usize {
        let offset = (inner.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        if offset <= self.text.len() && offset >= at.offset {
            at.column + (offset - at.offset)
        } else {
            at.column
        }
    }
}

/// A tag kept, with where its value begins.
#[derive(Debug, Clone)]
struct Kept {
    value: String,
    line: usize,
    column: usize,
}

/// A game's tags, as far as the check needs them.
#[derive(Debug, Default)]
pub struct GameTags {
    line: usize,
    fens: Vec<(Kept, Vec<u8>)>,
    variant: Option<Kept>,
    result: Option<String>,
    white: Option<String>,
    black: Option<String>,
    round: Option<String>,
    played: Players,
    findings: Vec<Finding>,
}

impl GameTags {
    /// "game at line 12 (Stockfish - Ethereal, round 3)".
    fn label(&self) -> String {
        let mut label = format!("game at line {}", self.line);
        // PGN's placeholders ("?", "-", "") say nothing.
        let known = |value: &Option<String>| {
            value
                .as_deref()
                .filter(|v| !matches!(v.trim(), "" | "?" | "-"))
                .map(str::to_owned)
        };
        let names: Vec<String> = [known(&self.white), known(&self.black)]
            .into_iter()
            .flatten()
            .collect();
        let mut about = Vec::new();
        if !names.is_empty() {
            about.push(names.join(" - "));
        }
        if let Some(round) = known(&self.round) {
            about.push(format!("round {round}"));
        }
        if !about.is_empty() {
            label.push_str(&format!(" ({})", about.join(", ")));
        }
        label
    }
}

/// A game being replayed.
#[derive(Debug)]
pub struct GameReplay {
    label: String,
    line: usize,
    start: Option<Start>,
    result: Option<String>,
    chess960: bool,
    players: Players,
    /// The position the next move is played in, and the one before the last move.
    current: Chess,
    previous: Option<Chess>,
    /// Each open variation: where it began, the position before the move it replaces
    /// (where the next variation on that move begins too), and the line it left.
    stack: Vec<(At, Chess, Chess)>,
    plies: u32,
    /// The termination marker and where it is.
    marker: Option<(Outcome, At)>,
    findings: Vec<Finding>,
}

impl GameReplay {
    fn finish(self) -> GameVerdict {
        let replayed = self.findings.iter().all(|f| f.severity != Severity::Error);
        GameVerdict {
            line: self.line,
            start: self.start,
            plies: self.plies,
            result: self.result,
            chess960: self.chess960,
            findings: self.findings,
            final_position: replayed.then_some(self.current),
            players: self.players,
        }
    }

    fn find(&mut self, at: At, severity: Severity, kind: FindingKind, message: String) {
        self.findings.push(Finding {
            line: at.line,
            column: at.column,
            severity,
            kind,
            message,
        });
    }

    /// An error that ends the game's replay: the verdict so far.
    fn fail(&mut self, at: At, kind: FindingKind, message: String) -> GameVerdict {
        let message = format!("{}: {message}", self.label);
        self.find(at, Severity::Error, kind, message);
        GameVerdict {
            line: self.line,
            start: self.start,
            plies: self.plies,
            result: self.result.take(),
            chess960: self.chess960,
            findings: std::mem::take(&mut self.findings),
            final_position: None,
            players: std::mem::take(&mut self.players),
        }
    }

    /// "12. Nf3 (White)" or "12... Nf6 (Black)".
    fn move_label(&self, san: &str) -> String {
        let number = self.current.fullmoves();
        match self.current.turn() {
            Color::White => format!("{number}. {san} (White)"),
            Color::Black => format!("{number}... {san} (Black)"),
        }
    }

    /// Plays `san` where the game stands, or says why it cannot be played.
    fn play(&mut self, san: SanPlus, at: At) -> ControlFlow<GameVerdict> {
        if san.san == San::Null {
            return self.pass(at);
        }
        match san.san.to_move(&self.current) {
            Ok(m) => {
                let before = self.current.clone();
                self.current.play_unchecked(m);
                self.previous = Some(before);
                if self.stack.is_empty() {
                    self.plies += 1;
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                let why = why_not(&self.current, &san.san, &error);
                let fen = position_fen(&self.current, CastlingNotation::Shredder);
                let message = format!("{}: {why}, in {fen}", self.move_label(&san.to_string()));
                let kind = match error {
                    SanError::AmbiguousSan => FindingKind::AmbiguousMove,
                    SanError::IllegalSan => FindingKind::IllegalMove,
                };
                ControlFlow::Break(self.fail(at, kind, message))
            }
        }
    }
}

impl GameReplay {
    /// A null move (`--`, ChessBase's, in analysis lines): the turn passes, as python-chess
    /// and ChessBase play it, with a warning (once a game); out of check only.
    fn pass(&mut self, at: At) -> ControlFlow<GameVerdict> {
        match self.current.clone().swap_turn() {
            Ok(passed) => {
                if !self
                    .findings
                    .iter()
                    .any(|f| f.kind == FindingKind::NullMove)
                {
                    let message = format!(
                        "{}: {}: a null move, played as a pass (no chess move; python-chess and \
                         ChessBase read it so)",
                        self.label,
                        self.move_label("--")
                    );
                    self.find(at, Severity::Warning, FindingKind::NullMove, message);
                }
                self.previous = Some(std::mem::replace(&mut self.current, passed));
                if self.stack.is_empty() {
                    self.plies += 1;
                }
                ControlFlow::Continue(())
            }
            Err(_) => {
                let message = format!(
                    "{}: a null move while in check, in {}",
                    self.move_label("--"),
                    position_fen(&self.current, CastlingNotation::Shredder)
                );
                ControlFlow::Break(self.fail(at, FindingKind::IllegalMove, message))
            }
        }
    }
}

/// Why `san` is no legal move in `position`, for people ([`super::illegal_move`]'s words,
/// shared with the EPD operations).
fn why_not(position: &Chess, san: &San, error: &SanError) -> String {
    match (san, error) {
        (San::Normal { role, to, .. }, SanError::AmbiguousSan) => {
            format!(
                "ambiguous: more than one {} can go to {to}",
                role_name(*role)
            )
        }
        _ => format!("illegal: {}", san_why(position, san)),
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, `*`.
fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Known(KnownOutcome::Decisive {
            winner: Color::White,
        }) => "1-0",
        Outcome::Known(KnownOutcome::Decisive {
            winner: Color::Black,
        }) => "0-1",
        Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
        Outcome::Unknown => "*",
    }
}

impl Visitor for GameChecker<'_> {
    type Tags = GameTags;
    type Movetext = GameReplay;
    type Output = GameVerdict;

    fn begin_tags(&mut self, at: At) -> ControlFlow<GameVerdict, GameTags> {
        let at = self.in_file(at);
        ControlFlow::Continue(GameTags {
            line: at.line,
            ..GameTags::default()
        })
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: TagValue<'_>,
        at: At,
    ) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        let kept = || Kept {
            value: value.text().into_owned(),
            line: at.line,
            column: self.column_of(value.0, at),
        };
        match name {
            b"FEN" => tags.fens.push((kept(), value.0.to_vec())),
            b"Variant" => tags.variant = Some(kept()),
            b"Result" => tags.result = Some(value.text().into_owned()),
            b"White" => tags.white = Some(value.text().into_owned()),
            b"Black" => tags.black = Some(value.text().into_owned()),
            b"Round" => tags.round = Some(value.text().into_owned()),
            b"WhiteElo" => tags.played.white_elo = Some(value.text().into_owned()),
            b"BlackElo" => tags.played.black_elo = Some(value.text().into_owned()),
            b"TimeControl" => tags.played.time_control = Some(value.text().into_owned()),
            b"Event" => tags.played.event = Some(value.text().into_owned()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn malformed_tag(
        &mut self,
        tags: &mut GameTags,
        line: &[u8],
        at: At,
    ) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        let shown: String = String::from_utf8_lossy(line).chars().take(60).collect();
        tags.findings.push(Finding {
            line: at.line,
            column: at.column,
            severity: Severity::Error,
            kind: FindingKind::MalformedTag,
            message: format!(
                "a line that begins with `[` but is no tag pair `[Name \"value\"]`: {shown}"
            ),
        });
        ControlFlow::Continue(())
    }

    fn begin_movetext(
        &mut self,
        mut tags: GameTags,
        _at: At,
    ) -> ControlFlow<GameVerdict, GameReplay> {
        let mut replay = GameReplay::of_tags(&mut tags);
        self.replay_start(&mut replay, &tags)?;
        ControlFlow::Continue(replay)
    }

    fn san(
        &mut self,
        replay: &mut GameReplay,
        san: SanPlus,
        _token: &[u8],
        at: At,
    ) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        replay.play(san, at)
    }

    fn not_san(
        &mut self,
        replay: &mut GameReplay,
        token: &[u8],
        at: At,
    ) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        // `e.p.` after an en-passant capture, alone or glued to it.
        if token == b"e.p." || token == b"ep" {
            return ControlFlow::Continue(());
        }
        if let Some(san) = token
            .strip_suffix(b"e.p.")
            .and_then(|san| SanPlus::from_ascii(san).ok())
        {
            return replay.play(san, at);
        }
        let shown: String = String::from_utf8_lossy(token).chars().take(40).collect();
        let message = format!(
            "{}: not SAN (nor a move number, result or NAG), in {}",
            replay.move_label(&format!("`{shown}`")),
            position_fen(&replay.current, CastlingNotation::Shredder)
        );
        ControlFlow::Break(replay.fail(at, FindingKind::NotSan, message))
    }

    fn comment(
        &mut self,
        replay: &mut GameReplay,
        comment: &[u8],
        at: At,
    ) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        // A comment the reader ended at the end of the text: its `}` is missing.
        let end =
            (comment.as_ptr() as usize + comment.len()).wrapping_sub(self.text.as_ptr() as usize);
        if end >= self.text.len() && self.text.last() != Some(&b'}') {
            return ControlFlow::Break(replay.fail(
                at,
                FindingKind::UnclosedComment,
                "a `{` comment that is never closed (no `}` before the end of the file)".to_owned(),
            ));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        replay: &mut GameReplay,
        at: At,
    ) -> ControlFlow<GameVerdict, Skip> {
        let at = self.in_file(at);
        let Some(before) = replay.previous.take() else {
            return ControlFlow::Break(replay.fail(
                at,
                FindingKind::VariationWithoutMove,
                "a variation `(` with no move before it to replace".to_owned(),
            ));
        };
        let left = std::mem::replace(&mut replay.current, before.clone());
        replay.stack.push((at, before, left));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, replay: &mut GameReplay, at: At) -> ControlFlow<GameVerdict> {
        let at = self.in_file(at);
        match replay.stack.pop() {
            Some((_, before, left)) => {
                // Back on the line the variation left, after the move it replaced.
                replay.current = left;
                replay.previous = Some(before);
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(replay.fail(
                at,
                FindingKind::UnopenedVariation,
                "a `)` with no `(` open".to_owned(),
            )),
        }
    }

    fn outcome(
        &mut self,
        replay: &mut GameReplay,
        outcome: Outcome,
        at: At,
    ) -> ControlFlow<GameVerdict> {
        replay.marker = Some((outcome, self.in_file(at)));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut replay: GameReplay) -> GameVerdict {
        if let Some((at, _, _)) = replay.stack.first().cloned() {
            let message = format!(
                "{}: the variation opened at line {}, column {} is never closed",
                replay.label, at.line, at.column
            );
            replay.find(at, Severity::Error, FindingKind::UnclosedVariation, message);
            return replay.finish();
        }
        // Result findings at the termination marker, or the game's first line without one.
        let at = replay.marker.map_or(
            At {
                line: replay.line,
                column: 1,
                offset: 0,
            },
            |(_, at)| at,
        );
        let label = replay.label.clone();
        let marker = replay.marker.map(|(outcome, _)| outcome_text(outcome));
        let result = replay.result.clone();
        match (&result, marker) {
            (Some(tag), Some(marker)) if tag != marker => replay.find(
                at,
                Severity::Warning,
                FindingKind::ResultMismatch,
                format!("{label}: the Result tag says {tag}, the movetext ends with {marker}"),
            ),
            (_, None) => replay.find(
                at,
                Severity::Warning,
                FindingKind::NoResult,
                format!("{label}: the movetext has no termination marker (1-0, 0-1, 1/2-1/2, *)"),
            ),
            _ => {}
        }
        let said = result.as_deref().or(marker);
        let board = if replay.current.is_checkmate() {
            Some(match replay.current.turn() {
                Color::White => "0-1",
                Color::Black => "1-0",
            })
        } else if replay.current.is_stalemate() {
            Some("1/2-1/2")
        } else {
            None
        };
        if let (Some(board), Some(said)) = (board, said)
            && board != said
        {
            let how = if board == "1/2-1/2" {
                "stalemate"
            } else {
                "checkmate"
            };
            replay.find(
                at,
                Severity::Warning,
                FindingKind::ResultAgainstBoard,
                format!("{label}: the game ends in {how} ({board}), but its result is {said}"),
            );
        }
        replay.finish()
    }
}

/// A start read from a `FEN` tag: the tag, its position and the start it identifies.
type FenStart<'t> = (&'t Kept, Chess, Option<Start>);

impl Kept {
    /// Where the tag's value begins.
    fn at(&self) -> At {
        At {
            line: self.line,
            column: self.column,
            offset: 0,
        }
    }
}

impl GameReplay {
    /// A replay not yet started, labelled and holding what the tags found.
    fn of_tags(tags: &mut GameTags) -> GameReplay {
        GameReplay {
            label: tags.label(),
            line: tags.line,
            start: None,
            result: tags.result.clone(),
            chess960: false,
            players: Players {
                white: tags.white.take(),
                black: tags.black.take(),
                ..std::mem::take(&mut tags.played)
            },
            current: Chess::default(),
            previous: None,
            stack: Vec::new(),
            plies: 0,
            marker: None,
            findings: std::mem::take(&mut tags.findings),
        }
    }

    /// The first malformed tag line (the only findings before the movetext) ends the replay.
    fn fail_on_malformed_tag(&mut self) -> ControlFlow<GameVerdict> {
        if let Some(first) = self.findings.first() {
            let at = At {
                line: first.line,
                column: first.column,
                offset: 0,
            };
            let message = self.findings.remove(0).message;
            return ControlFlow::Break(self.fail(at, FindingKind::MalformedTag, message));
        }
        ControlFlow::Continue(())
    }

    /// The variant the `Variant` tag names (none: standard chess); an unknown one ends the replay.
    fn variant_of(&mut self, tag: Option<&Kept>) -> ControlFlow<GameVerdict, Variant> {
        let Some(kept) = tag else {
            return ControlFlow::Continue(Variant::Standard);
        };
        match pgn_variant(&kept.value) {
            None => {
                let message = format!(
                    "unknown Variant `{}`: sp960 reads chess and Chess960 games (Chess960 \
                     spelled any of Chess960, chess 960, chess-960, fischerandom, Fischer \
                     Random, FRC, 960)",
                    kept.value
                );
                ControlFlow::Break(self.fail(kept.at(), FindingKind::UnknownVariant, message))
            }
            Some(known) => ControlFlow::Continue(known),
        }
    }

    /// Two `FEN` tags must give one position (the first is read, with a warning); two that
    /// disagree end the replay.
    fn fail_on_disagreeing_fens(&mut self, starts: &[FenStart<'_>]) -> ControlFlow<GameVerdict> {
        let [(first, a, _), (second, b, _), ..] = starts else {
            return ControlFlow::Continue(());
        };
        let (a, b) = (
            position_fen(a, CastlingNotation::Shredder),
            position_fen(b, CastlingNotation::Shredder),
        );
        if a != b {
            let message = format!(
                "two FEN tags that disagree: line {} gives {a}, line {} gives {b}",
                first.line, second.line
            );
            return ControlFlow::Break(self.fail(
                second.at(),
                FindingKind::FenTagsDisagree,
                message,
            ));
        }
        let message = format!(
            "{}: two FEN tags (lines {} and {}), the same position: the first is read",
            self.label, first.line, second.line
        );
        self.find(
            second.at(),
            Severity::Warning,
            FindingKind::TwoFenTags,
            message,
        );
        ControlFlow::Continue(())
    }

    /// Starts at the first `FEN` tag's position: one whose castling is no standard chess
    /// castling is read as Chess960 even without the `Variant` tag, with a warning.
    fn start_at_fen(&mut self, (kept, position, start): FenStart<'_>, variant: Variant) {
        if variant != Variant::Chess960 && reads_as_chess960(variant, &position) {
            self.chess960 = true;
            let message = format!(
                "{}: no Chess960 Variant tag, but its castling is no standard \
                 chess castling: read as Chess960 (a reader that takes it for \
                 standard chess goes wrong)",
                self.label
            );
            self.find(
                kept.at(),
                Severity::Warning,
                FindingKind::NoChess960Variant,
                message,
            );
        }
        self.current = position;
        self.start = start;
    }
}

impl GameChecker<'_> {
    /// Reads the game's start from its tags into `replay` (its variant, then its `FEN` tags,
    /// none meaning the standard start), with the findings on the way; or the error that
    /// ends its replay.
    fn replay_start(&self, replay: &mut GameReplay, tags: &GameTags) -> ControlFlow<GameVerdict> {
        replay.fail_on_malformed_tag()?;
        let variant = replay.variant_of(tags.variant.as_ref())?;
        let starts = self.fen_starts(replay, &tags.fens)?;
        replay.fail_on_disagreeing_fens(&starts)?;
        replay.chess960 = variant == Variant::Chess960;
        match starts.into_iter().next() {
            Some(first) => replay.start_at_fen(first, variant),
            None => self.start_at_standard(replay, tags.variant.as_ref(), variant),
        }
        ControlFlow::Continue(())
    }

    /// Each `FEN` tag read as a record; one that is `?`, empty or no valid start ends the replay.
    fn fen_starts<'t>(
        &self,
        replay: &mut GameReplay,
        fens: &'t [(Kept, Vec<u8>)],
    ) -> ControlFlow<GameVerdict, Vec<FenStart<'t>>> {
        let mut starts = Vec::new();
        for (kept, _) in fens {
            if kept.value.trim() == "?" {
                return ControlFlow::Break(replay.fail(
                    kept.at(),
                    FindingKind::NoStart,
                    "this game has no start: its FEN tag is `?`".to_owned(),
                ));
            }
            match check_line(kept.value.as_bytes(), &self.options) {
                Line::Record(Ok(record)) => starts.push((kept, record.position, record.start)),
                Line::Record(Err(problem)) => {
                    let at = At {
                        line: kept.line,
                        column: kept.column + problem.column.saturating_sub(1),
                        offset: 0,
                    };
                    let message = format!("FEN tag: {}", problem.message);
                    let kind = if problem.kind == ProblemKind::NotAStart {
                        FindingKind::FenNotAStart
                    } else {
                        FindingKind::BadFen
                    };
                    return ControlFlow::Break(replay.fail(at, kind, message));
                }
                Line::Blank | Line::Comment => {
                    return ControlFlow::Break(replay.fail(
                        kept.at(),
                        FindingKind::NoStart,
                        "this game has no start: its FEN tag is empty".to_owned(),
                    ));
                }
            }
        }
        ControlFlow::Continue(starts)
    }

    /// A game without a `FEN` tag starts at the standard start; a Chess960 one says so in a
    /// warning (PGN's rule).
    fn start_at_standard(
        &self,
        replay: &mut GameReplay,
        variant_tag: Option<&Kept>,
        variant: Variant,
    ) {
        if variant == Variant::Chess960 {
            let at_game = At {
                line: replay.line,
                column: 1,
                offset: 0,
            };
            let at = variant_tag.map_or(at_game, Kept::at);
            let message = format!(
                "{}: a Chess960 game without a FEN tag: replayed from SP 518, \
                 the standard start, as PGN's rule says",
                replay.label
            );
            replay.find(at, Severity::Warning, FindingKind::NoFen, message);
        }
        if let Line::Record(Ok(record)) = check_line(STANDARD_START.as_bytes(), &self.options) {
            replay.current = record.position;
            replay.start = record.start;
        }
    }
}

/// Every game of `text`, checked.
/// `lines_before`: the lines before `text` in its file, so that lines reported are the
/// file's.
pub fn check_games(text: &[u8], options: CheckOptions, lines_before: usize) -> Vec<GameVerdict> {
    let mut checker = GameChecker::new(text, options, lines_before);
    let mut reader = super::pgn::Reader::new(text);
    std::iter::from_fn(|| reader.read_game(&mut checker)).collect()
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
