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
use crate::proxy::{Action, Fate, Mark, Peer, ProxyEvent, Relay, Reply, Step};
use crate::starts::castling::{CastlingDialect, MoveError};
use crate::starts::notation::{CastlingNotation, position_fen};

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

/// GUI commands that set the engine up for every game (the last of each, by its first
/// word, or by name for `option`), replayed to a restarted engine. Not `random`: a toggle
/// in older engines.
const SETTINGS: [&[u8]; 14] = [
    b"xboard",
    b"protover",
    b"level",
    b"st",
    b"sd",
    b"post",
    b"nopost",
    b"hard",
    b"easy",
    b"computer",
    b"memory",
    b"name",
    b"rating",
    b"option",
];

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
    /// `--restart-engine`: the budget, and the [`SETTINGS`] lines the engine got (the
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
        Self::to_gui(
            actions,
            format!("telluser sp960: {message}"),
            Mark::Injected,
        );
        actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
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

    /// Puts the engine into the current start: `variant fischerandom` (when it has it) and
    /// the position by `setboard` or `edit`.
    fn set_up_start(&mut self, actions: &mut Vec<Action>) {
        let Some(start) = self.starts.current() else {
            return;
        };
        if !self.check_chess960(actions) {
            return;
        }
        let position = match start.position() {
            Ok(position) => position,
            Err(err) => {
                Self::tell_user(actions, &format!("start {start}: {err}"));
                return;
            }
        };
        let chess960 = self.engine.features.chess960_possible();
        if chess960 {
            Self::to_engine(actions, "variant fischerandom", Mark::Injected);
            self.engine.chess960 = true;
            self.game.injected_variant = true;
        }
        let for_engine = if chess960 {
            position.clone()
        } else {
            standard_rights_only(&position)
        };
        let notation = match (chess960, self.config.fen_castling) {
            (false, _) => CastlingNotation::Xfen,
            (true, notation) => notation.unwrap_or(CastlingNotation::Shredder),
        };
        self.send_position(&for_engine, notation, actions);
        self.game.board = Board::Tracked(Box::new(GameLine::new(position)));
        self.game.on_our_start = true;
    }

    /// A notice for the GUI (a `#` comment, which GUIs ignore and log) and stderr.
    fn notice(actions: &mut Vec<Action>, message: Option<String>) {
        if let Some(message) = message {
            Self::to_gui(actions, format!("# sp960: {message}"), Mark::Injected);
            actions.push(Step::Event(ProxyEvent::Warn(format!("proxy: {message}"))));
        }
    }

    /// Before the game's first move or `go` from the proxy's start: a GUI that did not
    /// say `variant fischerandom` keeps a standard board (once per game).
    fn tell_if_the_gui_plays_standard(&mut self, actions: &mut Vec<Action>) {
        if self.game.on_our_start
            && !self.game.gui_variant_chess960
            && let Some(start) = self.starts.current()
        {
            let message = self.told.standard_gui(start, "new", "variant fischerandom");
            Self::notice(actions, message);
        }
    }

    /// The position to the engine: `setboard FEN`, or `edit` for engines without setboard.
    fn send_position(
        &self,
        position: &Chess,
        notation: CastlingNotation,
        actions: &mut Vec<Action>,
    ) {
        if self.engine.features.takes_setboard() {
            Self::to_engine(
                actions,
                format!("setboard {}", position_fen(position, notation)),
                Mark::Injected,
            );
        } else {
            for line in edit_commands(position) {
                Self::to_engine(actions, line, Mark::Injected);
            }
        }
    }

    // ---- engine side ----

    fn engine_feature(&mut self, out: &mut Reply) {
        let line = out.line();
        let mut done = false;
        for (key, value) in feature_pairs(line) {
            let on = value == b"1";
            match key {
                b"setboard" => self.engine.features.setboard = Some(on),
                b"usermove" => self.engine.features.usermove = on,
                b"san" => self.engine.features.san = on,
                b"ping" => self.engine.features.ping = on,
                b"variants" => {
                    self.engine.features.variants = Some(
                        String::from_utf8_lossy(value)
                            .split(',')
                            .map(|name| name.trim().to_owned())
                            .collect(),
                    );
                }
                b"myname" => {
                    let name = String::from_utf8_lossy(value).into_owned();
                    if !self.engine_castling_fixed() && quirks(&name).xboard_kxr {
                        self.engine.castling = EngineCastling::KingTakesRook;
                    }
                    self.engine.features.myname = Some(name);
                }
                b"done" => done = on,
                b"option" => {
                    if let Some(end) = memchr::memmem::find(value, b" -") {
                        self.engine
                            .option_names
                            .push(value[..end].trim_ascii().to_vec());
                    }
                }
                _ => {}
            }
        }
        if done && self.link == Link::Handshake {
            self.link = Link::Live;
            self.engine.features.setboard.get_or_insert(false);
            if !self.check_chess960(out) {
                return;
            }
            for option in self.our_options() {
                Self::to_gui(out, option, Mark::Injected);
                self.gui.option_replies_to_drop += 1;
            }
        }
        out.forward();
    }

    fn engine_move(&mut self, out: &mut Reply) {
        let line = out.line();
        let Some(text) = tokens(line).nth(1) else {
            return out.forward();
        };
        let game = match &mut self.game.board {
            Board::Tracked(game) => game,
            Board::Untracked | Board::Editing => return out.forward(),
            Board::Refused(_) => {
                // A search that began before the GUI's refused `setboard`: its move is for
                // a position the GUI no longer has.
                return out.push(Step::Event(ProxyEvent::Warn(format!(
                    "proxy: the engine's '{}' came after a refused setboard; not passed on",
                    String::from_utf8_lossy(line.trim_ascii())
                ))));
            }
        };
        let Ok(m) = parse_xboard_move(&game.current, text) else {
            out.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's move '{}' is not legal on the proxy's board; no longer \
                 checking this game",
                String::from_utf8_lossy(text)
            ))));
            self.game.board = Board::Untracked;
            return out.forward();
        };
        game.push(m);
        let Some(engine_form) = castling_form_of(&m, text) else {
            return out.forward();
        };
        if !self.engine_castling_fixed() {
            match engine_form {
                CastlingForm::OO => self.engine.castling = EngineCastling::OO,
                CastlingForm::Coordinate(CastlingDialect::Chess960) => {
                    self.engine.castling = EngineCastling::KingTakesRook;
                }
                CastlingForm::Coordinate(CastlingDialect::Standard) => {}
            }
        }
        let gui_form = match (self.gui.castling, engine_form) {
            (Some(form), _) => form,
            // O-O and king takes rook are read by every XBoard GUI; king to destination
            // only in normal chess.
            (None, CastlingForm::Coordinate(CastlingDialect::Standard)) if self.engine.chess960 => {
                CastlingForm::OO
            }
            (None, form) => form,
        };
        if gui_form == engine_form {
            // Already in the GUI's form (`O-O#` keeps its `#`).
            return out.forward();
        }
        let mut rewritten = b"move ".to_vec();
        write_xboard_move(&m, gui_form, &mut rewritten);
        out.rewrite(rewritten);
    }

    /// `Error (...): CMD` / `Illegal move (...): MOVE` from the engine.
    fn engine_error(&mut self, out: &mut Reply) {
        let line = out.line();
        let Some(command) = rejected_command(line) else {
            return out.forward();
        };
        let first = first_token(command);
        if let Some(index) = IGNORABLE.iter().position(|c| *c == first)
            && self.gui.ignorable.contains(index)
        {
            // Dropped (the transcript still shows it).
            return;
        }
        let rejected = command.strip_prefix(b"usermove ").unwrap_or(command);
        if let (Some(last), Board::Tracked(game)) = (&self.game.last_gui_move, &mut self.game.board)
            && rejected.trim_ascii().eq_ignore_ascii_case(last)
            && game.take_back(1)
        {
            self.game.last_gui_move = None;
        }
        out.forward();
    }

    // ---- GUI side ----

    fn gui_new(&mut self, out: &mut Reply) {
        out.forward();
        self.restarts.new_game();
        self.game = Game::new();
        self.starts.new_game();
        self.told.new_game();
        if self.start_active() {
            return self.set_up_start(out);
        }
        // `new` means normal chess, but Fairy-Stockfish stays in Chess960 mode after a
        // `variant fischerandom` until it hears `variant normal`.
        if self.engine.chess960 {
            self.engine.chess960 = false;
            let knows_normal = self
                .engine
                .features
                .variants
                .as_ref()
                .is_some_and(|variants| variants.iter().any(|name| name == "normal"));
            if knows_normal {
                Self::to_engine(out, "variant normal", Mark::Injected);
            }
        }
    }

    fn gui_variant(&mut self, out: &mut Reply) {
        let line = out.line();
        let name = tokens(line).nth(1).unwrap_or_default();
        let chess960 = is_chess960_variant(name);
        self.game.gui_variant_chess960 = chess960;
        if self.game.injected_variant && (chess960 || name == b"normal") {
            // Our start is set up already: a GUI's `variant fischerandom` (or `normal`)
            // would reset the engine's board.
            return;
        }
        out.forward();
        self.engine.chess960 = chess960;
        self.game.board = if chess960 || name == b"normal" {
            Board::Tracked(Box::new(GameLine::new(Chess::default())))
        } else {
            Board::Untracked
        };
    }

    fn gui_setboard(&mut self, out: &mut Reply) {
        let line = out.line();
        let start = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(0, |i| i + b"setboard".len());
        let fen = String::from_utf8_lossy(line.get(start..).unwrap_or_default())
            .trim()
            .to_owned();
        self.game.last_gui_move = None;
        if std::mem::take(&mut self.game.on_our_start)
            && let Some(start) = self.starts.current()
        {
            let message = self.told.replaced(start, "setboard");
            Self::notice(out, message);
        }
        match parse_fen(&fen) {
            Ok((position, notes)) => {
                for note in &notes {
                    Self::to_gui(out, format!("# sp960: {note}"), Mark::Injected);
                }
                // In normal chess a castling right only Chess960 can hold (`KQkq` with the
                // king on c1) means nothing to the engine: the proxy drops it too, or it
                // would pass a castling move the engine refuses (Fairy-Stockfish XBoard seed
                // 12526710409882059559, command 241,055: `O-O-O` refused after a `remove`,
                // and the pending `go` made it play the GUI's side).
                let position = if self.engine.chess960 {
                    position
                } else {
                    let standard = standard_rights_only(&position);
                    if standard.castles().castling_rights() != position.castles().castling_rights()
                    {
                        Self::to_gui(
                            out,
                            "# sp960: castling rights only Chess960 has dropped: the game is \
                             normal chess (no variant fischerandom)",
                            Mark::Injected,
                        );
                    }
                    standard
                };
                // The FEN as shakmaty writes it (Sjaak II 1.4.1 misreads adjacent digits,
                // `1b1p111B`), the castling field in the GUI's notation unless asked.
                let notation = self
                    .config
                    .fen_castling
                    .unwrap_or_else(|| fen_castling_notation(&fen));
                // A pending `go` after a `remove` stays pending: the engine is still in
                // the force mode the proxy put it in, the GUI thinks it plays on
                // (Fairy-Stockfish XBoard seed 4242, command 95,151: no move).
                match self.engine.features.takes_setboard() {
                    true => out.rewrite(
                        format!("setboard {}", position_fen(&position, notation)).into_bytes(),
                    ),
                    false => {
                        for edit in edit_commands(&position) {
                            Self::to_engine(out, edit, Mark::Rewritten);
                        }
                    }
                }
                self.game.board = Board::Tracked(Box::new(GameLine::new(position)));
            }
            Err(err) => {
                let reason = err.to_string().replace(['(', ')'], "'");
                Self::to_gui(
                    out,
                    format!(
                        "Error (illegal position, not sent to the engine: {reason}): {}",
                        String::from_utf8_lossy(line.trim_ascii())
                    ),
                    Mark::Answered,
                );
                self.game.board = Board::Refused(reason);
            }
        }
    }

    fn gui_move(&mut self, text: &[u8], out: &mut Reply) {
        let line = out.line();
        self.tell_if_the_gui_plays_standard(out);
        let shown = String::from_utf8_lossy(text);
        let game = match &mut self.game.board {
            Board::Tracked(game) => game,
            Board::Untracked | Board::Editing => return out.forward(),
            Board::Refused(_) => {
                return Self::to_gui(
                    out,
                    format!("Illegal move (no position: the last setboard was refused): {shown}"),
                    Mark::Answered,
                );
            }
        };
        let m = match parse_xboard_move(&game.current, text) {
            Ok(m) => m,
            Err(err) => {
                let reason = match err {
                    MoveError::Syntax(_) => "not a move".to_owned(),
                    MoveError::Null => "null move".to_owned(),
                    MoveError::Illegal(_) => {
                        format!(
                            "not legal in {}",
                            position_fen(&game.current, CastlingNotation::Shredder)
                        )
                    }
                };
                return Self::to_gui(
                    out,
                    format!("Illegal move ({reason}): {shown}"),
                    Mark::Answered,
                );
            }
        };
        game.push(m);
        // After a `remove` outside force mode the engine plays on once it is its turn
        // (the GUI may move the engine's side first: Fairy-Stockfish XBoard seed 4242,
        // command 84,321, then played the GUI's side).
        let resume = match self.game.mode {
            PlayMode::Resuming(side) => side.is_none_or(|side| game.current.turn() == side),
            PlayMode::Force | PlayMode::Playing(_) => false,
        };
        // The form the engine asked for: `usermove MOVE` with usermove=1, the bare move
        // otherwise (Sjaak II refuses `usermove f2e2`, and the `go` after a `remove` would
        // then play the GUI's side).
        let prefixed = self.engine.features.usermove;
        let mut sent = Vec::with_capacity(line.len());
        if prefixed {
            sent.extend_from_slice(b"usermove ");
        }
        match castling_form_of(&m, text) {
            // `0-0` (digits) goes as `O-O`: Sjaak II 1.4.1 refuses `0-0`, and after a
            // `remove` the proxy's `go` would then make it play the GUI's side.
            Some(form) if form != self.engine_castling_form() || text.starts_with(b"0") => {
                self.gui.castling = Some(form);
                write_xboard_move(&m, self.engine_castling_form(), &mut sent);
            }
            Some(form) => {
                self.gui.castling = Some(form);
                sent.extend_from_slice(text);
            }
            // SAN (`c3`, `Nf3`) goes to an engine that did not ask for it in coordinates:
            // Fairy-Stockfish 11.1 refuses `c3` with `Error (unkown command)`.
            None if !(self.engine.features.san && self.gui.accepts_san) => {
                write_xboard_move(&m, self.engine_castling_form(), &mut sent);
            }
            None => sent.extend_from_slice(text),
        }
        self.game.last_gui_move = Some(sent[usize::from(prefixed) * b"usermove ".len()..].to_vec());
        out.rewrite(sent);
        if resume {
            self.game.mode = PlayMode::Playing(self.game.mode.side());
            Self::to_engine(out, "go", Mark::Injected);
        }
    }

    /// `undo` (1 ply, force mode only) and `remove` (2). Past the position the game was set up from
    /// (`new`, `setboard`) they are refused: Fairy-Stockfish 11.1 dies on such an `undo`.
    /// `remove` goes as two `undo`s (Fairy-Stockfish knows only `undo`); outside force
    /// mode `force` comes first, and `go` after the GUI's first move that leaves the
    /// engine's side to move (a `setboard` in between included), so the engine plays on as
    /// `remove` means.
    fn gui_take_back(&mut self, plies: usize, out: &mut Reply) {
        let line = out.line();
        self.game.last_gui_move = None;
        if plies == 1 && self.game.mode != PlayMode::Force {
            // XBoard sends `undo` in force mode only; outside it Fairy-Stockfish 11.1
            // takes its move back and plays again, into the GUI's next game.
            return Self::to_gui(
                out,
                format!(
                    "Error (undo outside force mode, not sent to the engine: send force \
                     first): {}",
                    String::from_utf8_lossy(line.trim_ascii())
                ),
                Mark::Answered,
            );
        }
        match &mut self.game.board {
            Board::Tracked(game) => {
                let played = game.moves.len();
                if !game.take_back(plies) {
                    return Self::to_gui(
                        out,
                        format!(
                            "Error (cannot take back {plies} moves, {played} since the last \
                             new or setboard; not sent to the engine): {}",
                            String::from_utf8_lossy(line.trim_ascii())
                        ),
                        Mark::Answered,
                    );
                }
            }
            Board::Refused(reason) => return Self::no_position(reason, line, out),
            Board::Untracked | Board::Editing => return out.forward(),
        }
        if plies == 1 {
            return out.forward();
        }
        if self.game.mode != PlayMode::Force {
            Self::to_engine(out, "force", Mark::Injected);
            self.game.mode = PlayMode::Resuming(self.game.mode.side());
        }
        Self::to_engine(out, "undo", Mark::Rewritten);
        Self::to_engine(out, "undo", Mark::Rewritten);
    }

    /// The answer to a command that needs the position after a refused `setboard`.
    fn no_position(reason: &str, line: &[u8], actions: &mut Vec<Action>) {
        Self::to_gui(
            actions,
            format!(
                "Error (no position, the last setboard was refused: {reason}): {}",
                String::from_utf8_lossy(line.trim_ascii())
            ),
            Mark::Answered,
        );
    }

    fn gui_go(&mut self, out: &mut Reply) {
        let line = out.line();
        if let Board::Refused(reason) = &self.game.board {
            return Self::no_position(reason, line, out);
        }
        self.tell_if_the_gui_plays_standard(out);
        self.game.mode = PlayMode::Playing(match &self.game.board {
            Board::Tracked(game) if first_token(line) == b"playother" => Some(!game.current.turn()),
            Board::Tracked(game) => Some(game.current.turn()),
            _ => None,
        });
        out.forward();
    }

    /// The shield for `level`, `st`, `sd`, `time` and `otim`: a malformed one is answered
    /// `Error (...)` and never forwarded.
    fn gui_limit(out: &mut Reply) {
        let line = out.line();
        let text = String::from_utf8_lossy(line);
        let (command, args) = split_command(&text);
        let fits = |time: Duration| time <= MAX_TIME;
        let (well_formed, in_range) = match command {
            "level" => Level::parse(args).map_or((false, false), |level| {
                (
                    true,
                    fits(level.base) && fits(level.increment) && level.moves_per_session <= 10_000,
                )
            }),
            "st" => parse_seconds(args).map_or((false, false), |time| (true, fits(time))),
            "sd" => args.parse::<u32>().map_or((false, false), |depth| {
                (depth > 0, i32::try_from(depth).is_ok())
            }),
            _ => parse_centiseconds(args).map_or((false, false), |time| (true, fits(time))),
        };
        if well_formed && in_range {
            return out.forward();
        }
        let expected = match command {
            "level" => "expected level MPS BASE INC, as 40 5 0 or 0 2:30 1",
            "st" => "expected seconds",
            "sd" => "expected a positive depth",
            _ => "expected centiseconds",
        };
        let reason = if well_formed {
            format!(
                "{command} out of range, not sent to the engine: at most 24 days (2^31 ms) of \
                 time, 10000 moves and a depth of 2^31-1"
            )
        } else {
            format!("malformed {command}, not sent to the engine: {expected}")
        };
        Self::to_gui(
            out,
            format!("Error ({reason}): {}", text.trim()),
            Mark::Answered,
        );
    }

    fn gui_option(&mut self, out: &mut Reply) {
        let line = out.line();
        let rest = line
            .trim_ascii()
            .get(b"option".len()..)
            .unwrap_or_default()
            .trim_ascii();
        let (name, value) = match rest.iter().position(|b| *b == b'=') {
            Some(at) => (rest[..at].trim_ascii(), rest[at + 1..].trim_ascii()),
            None => (rest, &b""[..]),
        };
        let Some(option) = StartOption::from_name(name) else {
            return out.forward();
        };
        match self.starts.set_option(option, value) {
            Ok(note) => {
                out.extend(note.map(|note| Step::Event(ProxyEvent::Warn(format!("proxy: {note}")))))
            }
            // XBoard's `Error (TYPE): COMMAND` has no room for parentheses in TYPE.
            Err(err) => Self::to_gui(
                out,
                format!(
                    "Error ({}): {}",
                    err.to_string().replace(['(', ')'], "'"),
                    String::from_utf8_lossy(line.trim_ascii())
                ),
                Mark::Answered,
            ),
        }
    }

    fn gui_reply(&mut self, out: &mut Reply) {
        let line = out.line();
        let mut words = tokens(line);
        let accepted = words.next() == Some(b"accepted");
        match words.next() {
            Some(b"option") if self.gui.option_replies_to_drop > 0 => {
                self.gui.option_replies_to_drop -= 1;
                return;
            }
            Some(b"san") => self.gui.accepts_san = accepted,
            _ => {}
        }
        out.forward();
    }
}

/// The longest time `level`, `st`, `time` and `otim` may give: 2^31 ms, about 24.8 days
/// (engines keep milliseconds in 32-bit integers; Fairy-Stockfish 11.1 aborts on
/// `level 40 99999999999 0`, thinks for ever on `st 99999999`).
pub const MAX_TIME: Duration = Duration::from_millis(i32::MAX as u64);

/// The castling notation of a GUI's FEN: X-FEN when its castling field has only `KQkq`
/// (or `-`), Shredder when it names files.
fn fen_castling_notation(fen: &str) -> CastlingNotation {
    let field = fen.split_ascii_whitespace().nth(2).unwrap_or("-");
    if field
        .chars()
        .all(|c| matches!(c, 'K' | 'Q' | 'k' | 'q' | '-'))
    {
        CastlingNotation::Xfen
    } else {
        CastlingNotation::Shredder
    }
}

/// The position as `edit` mode commands (for engines without `setboard`): `edit`, `#`,
/// white's pieces, `c`, black's pieces, `.`. Edit mode has no side to move and no castling
/// rights (engines assume castling where king and rooks stand on their start squares), so
/// this is for positions with white to move, such as starts.
pub fn edit_commands(position: &Chess) -> Vec<String> {
    let board = position.board();
    let mut lines = vec!["edit".to_owned(), "#".to_owned()];
    for color in Color::ALL {
        if color == Color::Black {
            lines.push("c".to_owned());
        }
        for square in board.by_color(color) {
            let role = board.role_at(square).expect("occupied");
            lines.push(format!("{}{}", role.upper_char(), square));
        }
    }
    lines.push(".".to_owned());
    lines
}

/// The longest GUI line the XBoard proxy passes on. No XBoard command needs more (a
/// `setboard` FEN is under 100 bytes); Sjaak II 1.4.1 reads the rest of a longer line as
/// further commands and may move out of turn.
pub const MAX_XBOARD_LINE: usize = 4096;

/// `--restart-engine` for XBoard engines.
impl XboardSession {
    /// Notes a GUI line the engine got (a setting, or the clocks) for a restart.
    fn remember(&mut self, line: &[u8]) {
        let first = first_token(line);
        match first {
            b"time" => {
                self.game.clocks.time = Some(line.trim_ascii().to_vec());
                self.game.clocks.time_at = self.now;
            }
            b"otim" => self.game.clocks.otim = Some(line.trim_ascii().to_vec()),
            _ if SETTINGS.contains(&first) => {
                let key = match first {
                    b"option" => {
                        let key = line
                            .trim_ascii()
                            .split(|b| *b == b'=')
                            .next()
                            .unwrap_or(line)
                            .to_vec();
                        // Only the engine's own options (hostile input names endless others).
                        let name = key.get(b"option ".len()..).unwrap_or_default().trim_ascii();
                        if !self.engine.option_names.iter().any(|known| known == name) {
                            return;
                        }
                        key
                    }
                    b"nopost" => b"post".to_vec(),
                    b"easy" => b"hard".to_vec(),
                    _ => first.to_vec(),
                };
                self.restarts.remember(key, line);
            }
            _ => {}
        }
    }

    /// The engine exited unasked: restarted within the budget (the game known to the
    /// proxy), else told.
    fn engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>) {
        let budget = self.restarts.budget();
        let tracked = matches!(self.game.board, Board::Tracked(_));
        let ready = self.link != Link::Handshake;
        let why = match self.restarts.verdict(restartable, ready) {
            ExitVerdict::Restart if tracked => {
                let number = self.restarts.begin();
                Self::notice(
                    actions,
                    Some(format!(
                        "the engine {how}; restarting it ({number} of {budget} in this game), \
                         then its settings and the game",
                    )),
                );
                actions.push(Step::Event(ProxyEvent::Restart));
                Self::to_engine(actions, "xboard", Mark::Injected);
                let protover = self.restarts.setting(b"protover").unwrap_or(b"protover 2");
                Self::to_engine(actions, protover, Mark::Injected);
                self.link = Link::Restarting(Vec::new());
                return;
            }
            ExitVerdict::Final => None,
            ExitVerdict::Spent if tracked => Some(format!(
                "restarted {budget} time(s) in this game already (--restart-engine {budget})"
            )),
            ExitVerdict::Spent | ExitVerdict::Restart => Some(
                "the proxy does not know the position (edit or a variant it does not follow)"
                    .to_owned(),
            ),
        };
        if let Some(why) = why {
            Self::notice(
                actions,
                Some(format!("the engine {how}; not restarted: {why}")),
            );
        }
        Self::to_gui(
            actions,
            format!("tellusererror sp960: the engine {how}"),
            Mark::Injected,
        );
    }

    /// The restarted engine's `feature` line: accepted (as the GUI did), and at `done=1`
    /// the replay.
    fn restarted_feature(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let mut done = false;
        for (key, value) in feature_pairs(line) {
            if key == b"done" {
                done = value == b"1";
                continue;
            }
            let mut reply = b"accepted ".to_vec();
            reply.extend_from_slice(key);
            Self::to_engine(actions, reply, Mark::Injected);
        }
        if done {
            self.replay(actions);
        }
    }

    /// The settings, `new`, the variant, `force`, the game's start and moves, the clocks
    /// (the time spent since the GUI's `time` taken off when the engine was to move), and
    /// `go` if the engine was to move; then the GUI's held lines.
    fn replay(&mut self, actions: &mut Vec<Action>) {
        let held = match std::mem::replace(&mut self.link, Link::Live) {
            Link::Restarting(held) => held,
            Link::Handshake | Link::Live => Vec::new(),
        };
        for (key, line) in self.restarts.settings() {
            if key != b"xboard" && key != b"protover" {
                Self::to_engine(actions, line, Mark::Injected);
            }
        }
        Self::to_engine(actions, "new", Mark::Injected);
        if self.engine.chess960 {
            Self::to_engine(actions, "variant fischerandom", Mark::Injected);
        }
        Self::to_engine(actions, "force", Mark::Injected);
        let Board::Tracked(game) = &self.game.board else {
            // (Not reached: a restart needs the game, and GUI lines wait for the replay.)
            return self.release_held(held, actions);
        };
        let game = game.clone();
        let notation = if self.engine.chess960 {
            self.config
                .fen_castling
                .unwrap_or(CastlingNotation::Shredder)
        } else {
            CastlingNotation::Xfen
        };
        let root = if self.engine.chess960 {
            game.root.clone()
        } else {
            standard_rights_only(&game.root)
        };
        self.send_position(&root, notation, actions);
        for m in &game.moves {
            let mut out = Vec::new();
            if self.engine.features.usermove {
                out.extend_from_slice(b"usermove ");
            }
            write_xboard_move(m, self.engine_castling_form(), &mut out);
            Self::to_engine(actions, out, Mark::Injected);
        }
        let engine_to_move = self.game.mode.side() == Some(game.current.turn());
        let spent = match (self.game.clocks.time_at, self.now) {
            (Some(at), Some(now)) if engine_to_move => now.saturating_duration_since(at),
            _ => Duration::ZERO,
        };
        if let Some(time) = &self.game.clocks.time {
            Self::to_engine(
                actions,
                recovery::reduce_centiseconds(time, spent),
                Mark::Injected,
            );
        }
        if let Some(otim) = &self.game.clocks.otim {
            Self::to_engine(actions, otim.clone(), Mark::Injected);
        }
        if engine_to_move {
            Self::to_engine(actions, "go", Mark::Injected);
        } else if self.game.mode != PlayMode::Force {
            // The engine plays on after the GUI's next move.
            self.game.mode = PlayMode::Resuming(self.game.mode.side());
        }
        Self::notice(
            actions,
            Some(format!(
                "the engine restarted; the game sent again ({} plies){}",
                game.moves.len(),
                if engine_to_move {
                    format!(
                        ", and go with the {} ms spent off its time",
                        spent.as_millis()
                    )
                } else {
                    String::new()
                }
            )),
        );
        self.release_held(held, actions);
    }

    /// The GUI lines held during the restart, handled now (forwarded ones go marked
    /// [`Mark::Held`]).
    fn release_held(&mut self, held: Vec<Vec<u8>>, actions: &mut Vec<Action>) {
        for line in held {
            self.handle_gui_line(&mut Reply::held(actions, &line));
        }
    }

    /// A GUI line handled (not held): a setting or clock the engine got is remembered for
    /// a restart.
    fn handle_gui_line(&mut self, out: &mut Reply) {
        self.gui_line(out);
        if *out.fate() == Fate::Forwarded {
            self.remember(out.line());
        }
    }
}

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

    fn on_engine_exit(&mut self, how: &str, restartable: bool, actions: &mut Vec<Action>) {
        // Lines held since the engine's output ended wait for the new engine, if any.
        let held = match std::mem::replace(&mut self.link, Link::Live) {
            Link::Restarting(held) => held,
            Link::Handshake => {
                self.link = Link::Handshake;
                Vec::new()
            }
            Link::Live => Vec::new(),
        };
        self.engine_exit(how, restartable, actions);
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
