//! The engine restart (`--restart-engine`): the settings log, a new engine after an
//! unasked exit, its handshake accepted as the GUI did, and the replay of the settings and
//! the game.

use super::*;

/// GUI commands that set the engine up for every game (the last of each, by its first
/// word, or by name for `option`), replayed to a restarted engine. Not `random`: a toggle
/// in older engines.
pub(super) const SETTINGS: [&[u8]; 14] = [
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

impl XboardSession {
    /// Notes a GUI line the engine got (a setting, or the clocks) for a restart.
    pub(super) fn remember(&mut self, line: &[u8]) {
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
    pub(super) fn engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>) {
        let how = exit.describe();
        let budget = self.restarts.budget();
        let tracked = matches!(self.game.board, Board::Tracked(_));
        let ready = self.link != Link::Handshake;
        let why = match self.restarts.verdict(exit.restartable, ready) {
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
    pub(super) fn restarted_feature(&mut self, line: &[u8], actions: &mut Vec<Action>) {
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
    pub(super) fn replay(&mut self, actions: &mut Vec<Action>) {
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
    pub(super) fn release_held(&mut self, held: Vec<Vec<u8>>, actions: &mut Vec<Action>) {
        for line in held {
            self.handle_gui_line(&mut Reply::held(actions, &line));
        }
    }

    /// A GUI line handled (not held): a setting or clock the engine got is remembered for
    /// a restart.
    pub(super) fn handle_gui_line(&mut self, out: &mut Reply) {
        self.gui_line(out);
        if *out.fate() == Fate::Forwarded {
            self.remember(out.line());
        }
    }
}
