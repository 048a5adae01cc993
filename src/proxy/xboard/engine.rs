//! The engine's lines that get work: `feature` (learned; our options to the GUI at
//! `done=1`), `move` (checked on the proxy's board, castling in the GUI's form), and
//! `Error` / `Illegal move` (dropped for an ignorable command; a rejected GUI move taken
//! back).

use super::*;

impl XboardSession {
    pub(super) fn engine_feature(&mut self, out: &mut Reply) {
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

    pub(super) fn engine_move(&mut self, out: &mut Reply) {
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
    pub(super) fn engine_error(&mut self, out: &mut Reply) {
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
}
