//! The GUI's time controls (the shield for `level`, `st`, `sd`, `time`, `otim`), our start
//! options, and its replies to the engine's features.

use super::*;

/// The longest time `level`, `st`, `time` and `otim` may give: 2^31 ms, about 24.8 days
/// (engines keep milliseconds in 32-bit integers; Fairy-Stockfish 11.1 aborts on
/// `level 40 99999999999 0`, thinks for ever on `st 99999999`).
pub const MAX_TIME: Duration = Duration::from_millis(i32::MAX as u64);

impl XboardSession {
    /// The shield for `level`, `st`, `sd`, `time` and `otim`: a malformed one is answered
    /// `Error (...)` and never forwarded.
    pub(super) fn gui_limit(out: &mut Reply) {
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

    pub(super) fn gui_option(&mut self, out: &mut Reply) {
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

    pub(super) fn gui_reply(&mut self, out: &mut Reply) {
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
