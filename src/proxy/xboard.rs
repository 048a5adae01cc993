//! The XBoard (CECP) proxy's sans-IO state machine: lines in, [`Action`]s out.
//!
//! Only a line's first token decides whether it needs work; everything else (thinking
//! output, `pong`, `telluser`, unknown commands, vendor lines) is [`Action::Forward`]ed
//! byte for byte. The lines that get work:
//!
//! | from | first token | what happens |
//! |---|---|---|
//! | engine | `feature` | `setboard`, `usermove`, `san`, `variants`, `ping`, `myname`, `done` learned; before `done=1` our two `feature option=` lines go to the GUI |
//! | engine | `move` | checked and played on the proxy's board; castling rewritten into the GUI's form |
//! | engine | `Error`, `Illegal move` | dropped when it answers a command the protocol lets engines ignore (`nopost`, `random`, ...); when it rejects the GUI's last move, that move is taken back on the proxy's board |
//! | GUI | `new` | with a start: `new`, `variant fischerandom`, `setboard <start>` (or `edit` ... `.`) to the engine |
//! | GUI | `variant` | followed; a duplicate `variant fischerandom` after our own is dropped |
//! | GUI | `setboard` | checked with shakmaty (Chess960 mode); refused with `Error (...)` when broken; else sent as shakmaty writes the FEN |
//! | GUI | `usermove X`, bare moves | checked; sent in coordinates (SAN only to a `san=1` engine) with the `usermove` prefix iff the engine asked for it, castling in the engine's form; refused with `Illegal move (...)` |
//! | GUI | `undo`, `remove` | refused past the last `new`/`setboard` (and `undo` outside force mode); `remove` becomes two `undo`s (outside force mode: `force` first, `go` once a GUI move leaves the engine's side to move) |
//! | GUI | `force`, `go`, `playother`, `edit` | followed |
//! | GUI | `level`, `st`, `sd`, `time`, `otim` | malformed or beyond 2^31 ms answered `Error (...)` |
//! | GUI | `cores` | not passed on (told once) |
//! | engine | `move` after a refused `setboard` | dropped |
//! | GUI | `option`, `accepted option` | our start options consumed ([`crate::proxy::starts`]); a bad value answered `Error (...)` |
//! | GUI | `quit` | forwarded, then [`Step::Event(ProxyEvent::Shutdown)`] |
//!
//! The session is a [`Link`] (the engine's handshake: before `feature done=1`, live,
//! restarting with the GUI's lines held), the engine's and the GUI's facts, and the
//! [`Game`] since the GUI's last `new`: its [`Board`] (tracked, untracked, refused, or in
//! edit mode) and the engine's [`PlayMode`] (force, playing a side, resuming after
//! `remove`). Each handler says what becomes of the line through a [`Reply`]. The parts:
//! [`engine`] (the engine's lines), [`game`] (positions and moves), [`settings`] (time
//! controls, our options, feature replies) and [`restart`].

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Position};

use crate::exit_code;
use crate::protocol::game::{GameLine, parse_fen, standard_rights_only};
use crate::protocol::quirks::quirks;
use crate::protocol::xboard::{
    CastlingForm, Level, castling_form_of, feature_pairs, parse_centiseconds, parse_seconds,
    parse_xboard_move, rejected_command, write_xboard_move,
};
use crate::protocol::{first_token, is_chess960_variant, split_command, tokens};
use crate::proxy::recovery::{self, ExitVerdict, Restarts};
use crate::proxy::starts::{NoChess960, NoChess960Verdict};
use crate::proxy::starts::{StartChoice, StartNotices, StartOption, StartSelector};
use crate::proxy::{Action, EngineExit, Fate, Mark, Peer, ProxyEvent, Relay, Reply, Step, tell};
use crate::starts::castling::{CastlingDialect, MoveError};
use crate::starts::notation::{CastlingNotation, position_fen};

mod engine;
mod game;
mod restart;
mod settings;

/// The castling form an engine takes (`--engine-castling oo|kxr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineCastling {
    /// `O-O` / `O-O-O` (Sjaak II, and what xboard sends every engine).
    OO,
    /// King takes rook (`e1h1`) in Chess960, king to destination (`e1g1`) in normal chess
    /// (Fairy-Stockfish 11.1).
    KingTakesRook,
}

/// How the XBoard proxy behaves (the command-line options).
#[derive(Debug, Clone, Default)]
pub struct XboardConfig {
    /// The start of the games.
    pub start: StartChoice,
    /// The castling form the engine takes; `None`: learned (known engines by name, then
    /// the form of the engine's own castling moves, `O-O` until then).
    pub engine_castling: Option<EngineCastling>,
    /// The castling field of the FENs the engine gets; `None`: Shredder for the proxy's
    /// own starts, and the GUI's `setboard` passed as written.
    pub fen_castling: Option<CastlingNotation>,
    /// Fail when a start is active and the engine does not list `fischerandom`.
    pub require_chess960: bool,
    /// Seed of the random starts the GUI may ask for (`SP960_Start` -2) when `start` is
    /// not random itself.
    pub random_seed: u64,
    /// `--restart-engine N`: an engine that exits unasked is started again, up to N times
    /// a game (0: never).
    pub restart_engine: u32,
}

/// Commands the protocol lets an engine ignore: an engine's `Error` reply to one of them
/// (Fairy-Stockfish 11.1 answers `Error (unkown command): nopost`) is not passed on,
/// because python-chess and other clients treat any `Error` line as fatal.
const IGNORABLE: [&[u8]; 11] = [
    b"random",
    b"post",
    b"nopost",
    b"computer",
    b"name",
    b"rating",
    b"ics",
    b"hard",
    b"easy",
    b"cores",
    b"memory",
];

/// What the engine announced with `feature`.
#[derive(Debug, Clone, Default)]
pub struct EngineFeatures {
    /// `setboard=1` / `setboard=0`, if said.
    pub setboard: Option<bool>,
    /// `usermove=1`.
    pub usermove: bool,
    /// `san=1`.
    pub san: bool,
    /// `ping=1`.
    pub ping: bool,
    /// The `variants` list, if any.
    pub variants: Option<Vec<String>>,
    /// `myname`.
    pub myname: Option<String>,
}

impl EngineFeatures {
    /// False when the engine said `setboard=0`, or finished its features without
    /// `setboard=1` (the protocol's default, set at `done=1`): then positions go with
    /// `edit`. Before the engine's features are done, `setboard` is assumed (GUIs wait
    /// for `done=1` anyway).
    pub fn takes_setboard(&self) -> bool {
        self.setboard.unwrap_or(true)
    }

    /// True when the engine listed a Chess960 variant (or listed no variants at all).
    pub fn chess960_possible(&self) -> bool {
        self.variants.as_ref().is_none_or(|variants| {
            variants
                .iter()
                .any(|name| is_chess960_variant(name.as_bytes()))
        })
    }
}

/// Whether and how the proxy follows the game.
#[derive(Debug, Clone)]
enum Board {
    /// The position is known: moves are checked and castling translated.
    Tracked(Box<GameLine>),
    /// Unknown (the GUI used `edit`, or a variant the proxy does not follow): lines pass.
    Untracked,
    /// The GUI is in edit mode (until its `.`): its lines pass, and the board is unknown
    /// after it.
    Editing,
    /// The GUI's last `setboard` was refused (the reason): moves and `go` are refused.
    Refused(String),
}

/// What the engine does between moves, as the GUI's commands (and the proxy's own
/// `force` for a `remove`) left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlayMode {
    /// Force mode (the GUI's `force`): the engine plays neither side.
    Force,
    /// The engine plays a side: Black after `new`, the side to move at the GUI's last
    /// `go` (`playother`: the other); `None` when the board is not known.
    Playing(Option<Color>),
    /// The GUI's `remove` outside force mode went to the engine as `force`, `undo`,
    /// `undo`: it plays its side again (`go`) after the GUI's next move that leaves that
    /// side to move.
    Resuming(Option<Color>),
}

impl PlayMode {
    /// The side the engine plays outside force mode.
    fn side(self) -> Option<Color> {
        match self {
            PlayMode::Force => None,
            PlayMode::Playing(side) | PlayMode::Resuming(side) => side,
        }
    }
}

/// The GUI's last `time` and `otim` lines the engine got, and when the `time` came.
#[derive(Debug, Clone, Default)]
struct Clocks {
    time: Option<Vec<u8>>,
    otim: Option<Vec<u8>>,
    time_at: Option<Instant>,
}

/// The engine's handshake, as it decides what becomes of the lines.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Link {
    /// Before the engine's `feature done=1`.
    Handshake,
    /// The engine's features are done (our options went to the GUI at its first
    /// `done=1`): lines are handled as they come.
    Live,
    /// The engine restarts (its output ended, or the new engine's handshake runs, whose
    /// lines are consumed until `feature done=1`): the GUI lines read meanwhile, handled
    /// after the replay.
    Restarting(Vec<Vec<u8>>),
}

/// The [`IGNORABLE`] commands the GUI has sent, one bit each.
#[derive(Debug, Clone, Copy, Default)]
struct IgnorableSent(u16);

impl IgnorableSent {
    fn insert(&mut self, index: usize) {
        self.0 |= 1 << index;
    }

    fn contains(self, index: usize) -> bool {
        self.0 & (1 << index) != 0
    }
}

/// What the engine said and was told.
struct EngineState {
    /// What it announced with `feature`.
    features: EngineFeatures,
    /// Its castling form: given (`XboardConfig::engine_castling`), or learned.
    castling: EngineCastling,
    /// It was last told a Chess960 variant.
    chess960: bool,
    /// The names of its `feature option="NAME -type ..."` options.
    option_names: Vec<Vec<u8>>,
}

/// What the GUI said and was told, for the whole session.
#[derive(Default)]
struct GuiState {
    /// Our two option lines went to it: its `accepted option` replies still to drop.
    option_replies_to_drop: usize,
    /// It accepted the engine's `san=1`.
    accepts_san: bool,
    /// The form it wrote its last castling move in.
    castling: Option<CastlingForm>,
    /// The ignorable commands it has sent.
    ignorable: IgnorableSent,
    /// It was told that `cores` is not passed on.
    told_cores: bool,
}

/// The game since the GUI's last `new`, which starts a fresh one.
struct Game {
    board: Board,
    /// Force mode, the side the engine plays, or its return to play after a `remove`.
    mode: PlayMode,
    /// The text of the GUI's last move as the engine got it (to notice its rejection).
    last_gui_move: Option<Vec<u8>>,
    /// The engine's board is the proxy's start (set up at the `new`).
    on_our_start: bool,
    /// We told the engine `variant fischerandom` (setting up our start).
    injected_variant: bool,
    /// The GUI sent `variant fischerandom`.
    gui_variant_chess960: bool,
    /// The GUI's last `time` and `otim`, for a restart.
    clocks: Clocks,
}

impl Game {
    /// A game of normal chess from its start, the engine playing Black.
    fn new() -> Game {
        Game {
            board: Board::Tracked(Box::new(GameLine::new(Chess::default()))),
            mode: PlayMode::Playing(Some(Color::Black)),
            last_gui_move: None,
            on_our_start: false,
            injected_variant: false,
            gui_variant_chess960: false,
            clocks: Clocks::default(),
        }
    }
}

/// The XBoard proxy session: the engine's handshake ([`Link`]), what the engine and the
/// GUI said, and the game.
pub struct XboardSession {
    config: XboardConfig,
    link: Link,
    starts: StartSelector,
    /// What the GUI was told about the start in this game.
    told: StartNotices,
    /// The warning (or failure) for an engine without Chess960.
    no_chess960: NoChess960,
    engine: EngineState,
    gui: GuiState,
    game: Game,
    /// `--restart-engine`: the budget, and the [`restart::SETTINGS`] lines the engine got (the
    /// last of each), replayed to a restarted engine.
    restarts: Restarts,
    /// The shell's clock at the last line read.
    now: Option<Instant>,
}

impl XboardSession {
    /// A session before the handshake.
    pub fn new(config: XboardConfig) -> XboardSession {
        XboardSession {
            link: Link::Handshake,
            starts: StartSelector::new(config.start, config.random_seed),
            told: StartNotices::default(),
            no_chess960: NoChess960::new(config.require_chess960),
            engine: EngineState {
                features: EngineFeatures::default(),
                castling: config.engine_castling.unwrap_or(EngineCastling::OO),
                chess960: false,
                option_names: Vec::new(),
            },
            gui: GuiState::default(),
            game: Game::new(),
            restarts: Restarts::new(config.restart_engine),
            now: None,
            config,
        }
    }

    /// What the engine announced so far.
    pub fn features(&self) -> &EngineFeatures {
        &self.engine.features
    }

    /// The castling form the engine gets now.
    pub fn engine_castling_form(&self) -> CastlingForm {
        if self.engine.features.san && self.gui.accepts_san {
            return CastlingForm::OO;
        }
        match self.engine.castling {
            EngineCastling::OO => CastlingForm::OO,
            EngineCastling::KingTakesRook if self.engine.chess960 => {
                CastlingForm::Coordinate(CastlingDialect::Chess960)
            }
            EngineCastling::KingTakesRook => CastlingForm::Coordinate(CastlingDialect::Standard),
        }
    }

    /// The position the proxy follows, if any.
    pub fn position(&self) -> Option<&Chess> {
        match &self.game.board {
            Board::Tracked(line) => Some(&line.current),
            _ => None,
        }
    }

    /// True when games start from a start of ours (command line or GUI option).
    pub fn start_active(&self) -> bool {
        self.starts.active()
    }

    fn our_options(&self) -> [String; 2] {
        let (white, black) = self.starts.option_defaults();
        [(StartOption::White, white), (StartOption::Black, black)].map(|(option, default)| {
            format!(
                "feature option=\"{} -spin {default} {} 959\"",
                option.name(),
                option.min()
            )
        })
    }

    /// The engine's castling form was given on the command line, not learned.
    fn engine_castling_fixed(&self) -> bool {
        self.config.engine_castling.is_some()
    }

    fn to_engine(actions: &mut Vec<Action>, line: impl Into<Vec<u8>>, mark: Mark) {
        actions.push(Action::send(Peer::Engine, line, mark));
    }

    fn to_gui(actions: &mut Vec<Action>, line: impl Into<Vec<u8>>, mark: Mark) {
        actions.push(Action::send(Peer::Gui, line, mark));
    }

    /// Tells the user: `telluser` for the GUI, and stderr.
    fn tell_user(actions: &mut Vec<Action>, message: &str) {
        tell(actions, format!("telluser sp960: {message}"), message);
    }

    /// When the engine cannot play Chess960: a warning once, or the failure with
    /// `--require-chess960`. True when the proxy goes on.
    fn check_chess960(&mut self, actions: &mut Vec<Action>) -> bool {
        if self.engine.features.chess960_possible() {
            return true;
        }
        let message = "the engine does not list fischerandom in its variants: it cannot play \
                       Chess960 (a start of the proxy reaches it as normal chess, without \
                       castling)";
        match self.no_chess960.verdict() {
            NoChess960Verdict::Fail => {
                Self::to_gui(
                    actions,
                    "tellusererror sp960: the engine does not play fischerandom",
                    Mark::Injected,
                );
                actions.push(Step::Event(ProxyEvent::Fail {
                    code: exit_code::ENGINE_UNSUITABLE,
                    message: "proxy: the engine does not list fischerandom in its variants \
                              and --require-chess960 was given"
                        .to_owned(),
                }));
                return false;
            }
            NoChess960Verdict::Warn => Self::tell_user(actions, message),
            NoChess960Verdict::Quiet => {}
        }
        true
    }

    /// A notice for the GUI (a `#` comment, which GUIs ignore and log) and stderr.
    fn notice(actions: &mut Vec<Action>, message: Option<String>) {
        if let Some(message) = message {
            tell(actions, format!("# sp960: {message}"), &message);
        }
    }
}

/// The longest GUI line the XBoard proxy passes on. No XBoard command needs more (a
/// `setboard` FEN is under 100 bytes); Sjaak II 1.4.1 reads the rest of a longer line as
/// further commands and may move out of turn.
pub const MAX_XBOARD_LINE: usize = 4096;

impl Relay for XboardSession {
    fn on_gui_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if let Link::Restarting(held) = &mut self.link {
            return held.push(line.to_vec());
        }
        self.handle_gui_line(&mut Reply::new(actions, line, Peer::Engine));
    }

    fn on_engine_line(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        if let Link::Restarting(_) = self.link {
            // The restarted engine's handshake: the GUI had it once.
            if first_token(line) == b"feature" {
                self.restarted_feature(line, actions);
            }
            return;
        }
        let out = &mut Reply::new(actions, line, Peer::Gui);
        match first_token(line) {
            b"move" => self.engine_move(out),
            b"feature" => self.engine_feature(out),
            b"Error" | b"Illegal" => self.engine_error(out),
            _ => out.forward(),
        }
    }

    fn on_gui_eof(&mut self, actions: &mut Vec<Action>) {
        Self::to_engine(actions, "quit", Mark::Injected);
        actions.push(Step::Event(ProxyEvent::Shutdown));
    }

    fn on_engine_eof(&mut self) {
        if self.link == Link::Live && self.restarts.possible(true) {
            self.link = Link::Restarting(Vec::new());
        }
    }

    fn on_engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>) {
        // Lines held since the engine's output ended wait for the new engine, if any.
        let held = match std::mem::replace(&mut self.link, Link::Live) {
            Link::Restarting(held) => held,
            Link::Handshake => {
                self.link = Link::Handshake;
                Vec::new()
            }
            Link::Live => Vec::new(),
        };
        self.engine_exit(exit, actions);
        if let Link::Restarting(restarting) = &mut self.link {
            *restarting = held;
        }
    }

    fn set_now(&mut self, now: Instant) {
        self.now = Some(now);
    }
}

impl XboardSession {
    fn gui_line(&mut self, out: &mut Reply) {
        let line = out.line();
        if line.len() > MAX_XBOARD_LINE {
            let start = String::from_utf8_lossy(&line[..40]).replace(['(', ')'], "'");
            return Self::to_gui(
                out,
                format!(
                    "Error (line too long, not sent to the engine: {} bytes, at most \
                     {MAX_XBOARD_LINE}): {start}...",
                    line.len()
                ),
                Mark::Answered,
            );
        }
        let first = first_token(line);
        // Edit mode lasts until `.`; a command that cannot be an edit line (`setboard`,
        // `new`, `quit`) ends it, so it is checked like any other.
        if let Board::Editing = self.game.board {
            if !matches!(first, b"setboard" | b"new" | b"quit") {
                if first == b"." {
                    self.game.board = Board::Untracked;
                }
                return out.forward();
            }
            self.game.board = Board::Untracked;
        }
        match first {
            b"new" => self.gui_new(out),
            b"variant" => self.gui_variant(out),
            b"setboard" => self.gui_setboard(out),
            b"usermove" => match tokens(line).nth(1) {
                Some(text) => self.gui_move(text, out),
                None => out.forward(),
            },
            b"undo" => self.gui_take_back(1, out),
            b"remove" => self.gui_take_back(2, out),
            b"force" => {
                self.game.mode = PlayMode::Force;
                out.forward();
            }
            b"go" | b"playother" => self.gui_go(out),
            b"level" | b"st" | b"sd" | b"time" | b"otim" => Self::gui_limit(out),
            b"option" => self.gui_option(out),
            b"cores" => {
                // Not forwarded: Fairy-Stockfish 11.1 (which announces smp=1) dies from
                // SIGSEGV on the first `go` after any `cores N`; the engine keeps its own
                // thread count. Told once, in a comment GUIs ignore, and on stderr.
                if !std::mem::replace(&mut self.gui.told_cores, true) {
                    Self::notice(
                        out,
                        Some(
                            "cores is not passed on (Fairy-Stockfish 11.1 dies on the next go); \
                             the engine keeps its own thread count"
                                .to_owned(),
                        ),
                    );
                }
            }
            b"accepted" | b"rejected" => self.gui_reply(out),
            b"edit" => {
                self.game.board = Board::Editing;
                out.forward();
            }
            b"quit" => {
                out.forward();
                out.push(Step::Event(ProxyEvent::Shutdown));
            }
            _ => {
                if let Some(index) = IGNORABLE.iter().position(|c| *c == first) {
                    self.gui.ignorable.insert(index);
                    out.forward();
                } else if crate::protocol::xboard::looks_like_move(first) {
                    self.gui_move(first, out);
                } else if let Some(reason) = crate::protocol::xboard::disguised_move(first) {
                    // An engine would play it (Sjaak II 1.4.1): refused, not forwarded.
                    Self::to_gui(
                        out,
                        format!(
                            "Illegal move (not a move: {reason}): {}",
                            String::from_utf8_lossy(first)
                        ),
                        Mark::Answered,
                    );
                } else {
                    out.forward();
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "xboard_tests.rs"]
mod tests;
