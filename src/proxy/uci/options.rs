//! The engine's options and handshake (`option`, `uciok`), Chess960 mode, and the
//! GUI's `setoption` (our start options, `UCI_Chess960`, `UCI_Variant`, the shield).

use super::*;

impl UciSession {
    /// Notes a `setoption` line the engine gets (replacing an earlier one of the option).
    pub(super) fn remember_option(&mut self, line: &[u8]) {
        let Some(set) = SetOption::parse(line) else {
            return;
        };
        // Only the engine's own options matter to it (and hostile input names endless
        // others: kept, they would grow without bound).
        if self
            .engine
            .options
            .iter()
            .any(|option| option.name.eq_ignore_ascii_case(&set.name))
        {
            self.restarts.remember(set.name.to_ascii_lowercase(), line);
        }
    }

    /// Puts the engine into Chess960 mode if it can be and is not.
    pub(super) fn enable_engine_chess960(&mut self, actions: &mut Vec<Action>) {
        if self.engine.chess960 == Chess960Option::Off {
            let line = setoption_line("UCI_Chess960", true);
            self.remember_option(line.as_bytes());
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            self.engine.chess960 = Chess960Option::On;
        }
    }

    /// After `uciok` or when the GUI picks a start: the engine into Chess960 mode, or
    /// the warning (or failure) when it has no such mode. False when the proxy fails.
    pub(super) fn prepare_engine_for_start(&mut self, actions: &mut Vec<Action>) -> bool {
        if !self.start_active() {
            return true;
        }
        if self.engine.chess960 != Chess960Option::Missing {
            self.enable_engine_chess960(actions);
            return true;
        }
        match self.no_chess960.verdict() {
            NoChess960Verdict::Fail => {
                Self::info_to_gui(actions, "the engine has no UCI_Chess960 option");
                actions.push(Step::Event(ProxyEvent::Fail {
                    code: NO_CHESS960_EXIT,
                    message: "proxy: the engine has no UCI_Chess960 option and \
                              --require-chess960 was given"
                        .to_owned(),
                }));
                return false;
            }
            NoChess960Verdict::Warn => Self::tell(
                actions,
                "the engine has no UCI_Chess960 option: it plays the start as standard chess \
                 without castling (after a Chess960 castling move it gets the position from \
                 there on)",
            ),
            NoChess960Verdict::Quiet => {}
        }
        true
    }

    pub(super) fn our_options(&self) -> [String; 2] {
        let (white, black) = self.starts.option_defaults();
        [
            spin_option_line(START_OPTION, white.into(), -2, 959),
            spin_option_line(BLACK_START_OPTION, black.into(), -1, 959),
        ]
    }

    pub(super) fn engine_option(&mut self, out: &mut Reply) {
        let line = out.line();
        let option = OptionDecl::parse(line);
        self.engine.options.push(option.clone());
        if option.is("UCI_Chess960") {
            if self.engine.chess960 == Chess960Option::Missing {
                self.engine.chess960 = Chess960Option::Off;
            }
            // python-chess reads `default False` as true and then never enables the
            // option: give GUIs the lowercase spelling.
            if let Some(value) = &option.default
                && value.eq_ignore_ascii_case(b"false")
                && value != b"false"
            {
                let words: Vec<&[u8]> = tokens(line)
                    .map(|word| {
                        if word == value.as_slice() {
                            &b"false"[..]
                        } else {
                            word
                        }
                    })
                    .collect();
                return out.replace(words.join(&b' '));
            }
        }
        out.forward();
    }

    pub(super) fn engine_uciok(&mut self, out: &mut Reply) {
        // The engine hears `UCI_Chess960 true` before the GUI can hear `uciok`, so before
        // anything the GUI sends after it.
        if !self.prepare_engine_for_start(out) {
            // The proxy fails: the GUI's lines stay held.
            self.link = match std::mem::replace(&mut self.link, Link::Ready) {
                Link::AwaitingUciok(held) | Link::Held(held) => Link::Held(held),
                _ => Link::Ready,
            };
            return;
        }
        if self.config.offer_chess960 && self.engine.chess960 == Chess960Option::Missing {
            out.push(Action::send(
                Peer::Gui,
                check_option_line("UCI_Chess960", false),
                Mark::Injected,
            ));
        }
        for option in self.our_options() {
            out.push(Action::send(Peer::Gui, option, Mark::Injected));
        }
        out.forward();
        // Lines the GUI sent too early now go, read with the engine's options known.
        let held = self.link.open();
        self.release(held, out);
    }

    pub(super) fn gui_setoption(&mut self, out: &mut Reply) {
        let line = out.line();
        let Some(set) = SetOption::parse(line) else {
            return out.forward();
        };
        let value = set.value();
        if let Some(option) = StartOption::from_name(&set.name) {
            match self.starts.set_option(option, value) {
                Ok(note) => {
                    if let Some(note) = note {
                        out.push(Step::Event(ProxyEvent::Warn(format!("proxy: {note}"))));
                    }
                    self.prepare_engine_for_start(out);
                }
                Err(err) => Self::info_to_gui(out, &format!("{err}: ignored")),
            }
        } else if set.is("UCI_Chess960")
            && !value.eq_ignore_ascii_case(b"true")
            && !value.eq_ignore_ascii_case(b"false")
        {
            // Ethereal reads `value 1.5` its own way, and the proxy would write positions
            // for the other mode.
            Self::info_to_gui(
                out,
                &format!(
                    "refused setoption (UCI_Chess960 takes true or false, not '{}'); not sent \
                     to the engine",
                    String::from_utf8_lossy(value)
                ),
            );
        } else if set.is("UCI_Chess960") {
            self.gui.chess960 = value.eq_ignore_ascii_case(b"true");
            let missing = self.engine.chess960 == Chess960Option::Missing;
            if self.start_active() || (missing && self.config.offer_chess960) {
                // The engine stays in Chess960 mode (in standard mode it would write O-O-O
                // from SP 860 as `c1c1`); the value only selects the GUI's dialect.
                return;
            }
            if !missing {
                self.engine.chess960 = if self.gui.chess960 {
                    Chess960Option::On
                } else {
                    Chess960Option::Off
                };
            }
            self.remember_option(line);
            out.forward();
        } else if set.is("UCI_Variant") && is_chess960_variant(value) {
            // cutechess's way to ask for Chess960 (Fairy-Stockfish would stay in standard
            // chess with it): UCI_Chess960 is what engines understand.
            self.gui.chess960 = true;
            if self.engine.chess960 == Chess960Option::Missing {
                // Its own UCI_Variant may know the name.
                self.remember_option(line);
                out.forward();
            } else if self.engine.chess960 == Chess960Option::Off {
                self.engine.chess960 = Chess960Option::On;
                let line = setoption_line("UCI_Chess960", true);
                self.remember_option(line.as_bytes());
                out.replace(line);
            }
        } else if let Some(reason) = self
            .engine
            .options
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(&set.name))
            .and_then(|option| option.check_value(value).err())
        {
            // The shield: a value the engine did not declare (Stockfish 15.1 aborts on
            // `setoption name Hash value abc`).
            Self::info_to_gui(
                out,
                &format!("refused setoption ({reason}); not sent to the engine"),
            );
        } else {
            self.remember_option(line);
            out.forward();
        }
    }
}
