//! The game: `new` (our start set up), `variant`, `setboard`, the GUI's moves, `undo` and
//! `remove`, `go` and `playother`, and positions written for the engine.

use super::*;

/// The castling notation of a GUI's FEN: X-FEN when its castling field has only `KQkq`
/// (or `-`), Shredder when it names files.
pub(super) fn fen_castling_notation(fen: &str) -> CastlingNotation {
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

impl XboardSession {
    /// Puts the engine into the current start: `variant fischerandom` (when it has it) and
    /// the position by `setboard` or `edit`.
    pub(super) fn set_up_start(&mut self, actions: &mut Vec<Action>) {
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

    /// Before the game's first move or `go` from the proxy's start: a GUI that did not
    /// say `variant fischerandom` keeps a standard board (once per game).
    pub(super) fn tell_if_the_gui_plays_standard(&mut self, actions: &mut Vec<Action>) {
        if self.game.on_our_start
            && !self.game.gui_variant_chess960
            && let Some(start) = self.starts.current()
        {
            let message = self.told.standard_gui(start, "new", "variant fischerandom");
            Self::notice(actions, message);
        }
    }

    /// The position to the engine: `setboard FEN`, or `edit` for engines without setboard.
    pub(super) fn send_position(
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

    pub(super) fn gui_new(&mut self, out: &mut Reply) {
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

    pub(super) fn gui_variant(&mut self, out: &mut Reply) {
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

    pub(super) fn gui_setboard(&mut self, out: &mut Reply) {
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
                // would pass a castling move the engine refuses (Fairy-Stockfish refused
                // `O-O-O` after a `remove`, and the pending `go` made it play the GUI's
                // side; the test says where the fuzzer found it).
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
                // the force mode the proxy put it in, the GUI thinks it plays on (else
                // Fairy-Stockfish never moves).
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

    pub(super) fn gui_move(&mut self, text: &[u8], out: &mut Reply) {
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
        // (the GUI may move the engine's side first; a `go` then made Fairy-Stockfish
        // play the GUI's side).
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
    pub(super) fn gui_take_back(&mut self, plies: usize, out: &mut Reply) {
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
    pub(super) fn no_position(reason: &str, line: &[u8], actions: &mut Vec<Action>) {
        Self::to_gui(
            actions,
            format!(
                "Error (no position, the last setboard was refused: {reason}): {}",
                String::from_utf8_lossy(line.trim_ascii())
            ),
            Mark::Answered,
        );
    }

    pub(super) fn gui_go(&mut self, out: &mut Reply) {
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
}
