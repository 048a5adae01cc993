//! The GUI's `position`: checked with shakmaty in Chess960 mode, then written for the
//! engine (its castling dialect, its castling files, a rebased move list).

use super::*;

/// Why a GUI's `position` was refused (told to the GUI; its next `go` is answered).
#[derive(Debug, thiserror::Error)]
pub(super) enum PositionRefusal {
    /// Neither `startpos` nor `fen FEN`.
    #[error(transparent)]
    Syntax(#[from] crate::protocol::uci::PositionSyntaxError),
    /// The start of the games cannot be set up (a bug).
    #[error(transparent)]
    Start(#[from] crate::starts::start::InvalidStart),
    /// A bad FEN or an illegal move.
    #[error(transparent)]
    Position(#[from] crate::protocol::game::PositionError),
}

/// Move lists longer than this reach the engine as the FEN after the last irreversible
/// move and the moves since ([`GameLine::rebased`]): Ethereal cuts lists beyond about
/// 1,526 plies (docs/proxy.md).
pub const MAX_ENGINE_PLIES: usize = 400;

/// At most this many plies stay in a rebased list (the 50-move rule's 100 plies), and a
/// list whose last this many plies and more are reversible is rebased whatever its length:
/// Glaurung 2.2 keeps the positions since the last capture or pawn move of the list and of
/// its search in one table of 220 (`history[MaxGameLength]`, position.h), and dies (SIGSEGV)
/// from about 210 reversible plies searched to depth 8.
pub const REBASED_PLIES: usize = 100;

/// The castling field of `position` in Shredder-FEN (`HAha`, `-`).
pub(super) fn shredder_rights(position: &Chess) -> String {
    castling_field(
        &position.to_setup(shakmaty::EnPassantMode::Legal),
        CastlingNotation::Shredder,
    )
}

impl UciSession {
    pub(super) fn gui_position(&mut self, out: &mut Reply) {
        let line = out.line();
        // A `stop` after a new position goes to the engine.
        if let Search::AnsweredByProxy = self.search {
            self.search = Search::Idle;
        }
        match self.read_position(line) {
            Ok((game, from_startpos, notes)) => {
                for note in notes {
                    Self::info_to_gui(out, &note);
                }
                self.tell_about_the_start(line, out);
                self.send_position(&game, from_startpos, out);
                self.gui.position = GuiPosition::Accepted(game.current);
            }
            Err(reason) => {
                Self::info_to_gui(
                    out,
                    &format!(
                        "refused position ({reason}); not sent to the engine, the next go gets \
                         bestmove 0000"
                    ),
                );
                self.gui.position = GuiPosition::Refused;
            }
        }
    }

    /// Once per game: when the GUI's own `position fen` replaces the proxy's start, and
    /// when `startpos` becomes the start for a GUI that has not enabled Chess960 (one
    /// that keeps its own board will reject the engine's moves).
    pub(super) fn tell_about_the_start(&mut self, line: &[u8], actions: &mut Vec<Action>) {
        let Some(start) = self.starts.current() else {
            return;
        };
        let message = if tokens(line).nth(1) == Some(b"fen") {
            self.told.replaced(start, "position fen")
        } else if !self.gui.chess960 {
            self.told
                .standard_gui(start, "position startpos", "UCI_Chess960")
        } else {
            None
        };
        if let Some(message) = message {
            Self::tell(actions, &message);
        }
    }

    /// The GUI's `position` as a checked line: (line, came from `startpos` with no start
    /// of ours, notes about repaired FEN parts).
    pub(super) fn read_position(
        &mut self,
        line: &[u8],
    ) -> Result<(GameLine, bool, Vec<String>), PositionRefusal> {
        let command = PositionCommand::parse(line)?;
        let (root, plain_startpos, notes) = match &command.fen {
            None => match self.starts.current() {
                Some(start) => (start.position()?, false, Vec::new()),
                None => (Chess::default(), true, Vec::new()),
            },
            Some(fen) => {
                let (root, notes) = parse_fen(fen)?;
                (root, false, notes)
            }
        };
        let mut game = GameLine::new(root);
        for text in &command.moves {
            game.push_text(text)?;
        }
        Ok((game, plain_startpos, notes))
    }

    pub(super) fn send_position(&mut self, game: &GameLine, plain_startpos: bool, out: &mut Reply) {
        if has_chess960_castling(&game.root) {
            self.enable_engine_chess960(out);
        }
        let engine = self.engine_chess();
        let mut for_engine = match engine {
            EngineChess::Standard => game.for_standard_engine(),
            EngineChess::Chess960(_) if self.engine.shared_castling_files => {
                let shared = game.for_shared_castling_files();
                if shared.current.castles().castling_rights()
                    != game.current.castles().castling_rights()
                {
                    Self::info_to_gui(
                        out,
                        &format!(
                            "the engine keeps one king file and one rook file per wing for \
                             both colours: it gets castling rights {} instead of {}",
                            shredder_rights(&shared.current),
                            shredder_rights(&game.current)
                        ),
                    );
                }
                shared
            }
            EngineChess::Chess960(_) => game.clone(),
        };
        let long_reversible_tail = for_engine.moves.len() > REBASED_PLIES
            && for_engine.current.halfmoves() > REBASED_PLIES as u32;
        if for_engine.moves.len() > MAX_ENGINE_PLIES || long_reversible_tail {
            for_engine = for_engine.rebased(REBASED_PLIES);
        }
        let mut line = b"position ".to_vec();
        if plain_startpos && for_engine.root == Chess::default() {
            line.extend_from_slice(b"startpos");
        } else {
            line.extend_from_slice(b"fen ");
            line.extend_from_slice(engine.fen(&for_engine.root).as_bytes());
        }
        GameLine::write_moves(&for_engine.moves, engine.dialect(), &mut line);
        self.sent_position = Some(SentPosition {
            line: line.clone(),
            renew: false,
        });
        out.rewrite(line);
    }
}
