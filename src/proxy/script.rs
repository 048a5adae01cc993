//! Test support: runs a transcript through any proxy session ([`Relay`]) and shows what
//! it does, so sessions are unit-tested on transcripts in one format.

use super::{Action, Peer, Relay};

/// Feeds `script` to `session`: lines starting `gui: ` come from the GUI, `engine: ` from
/// the engine, and `tick` is the shell's clock waking at the session's next deadline
/// ([`Relay::poll_timeout`], if any): the time is set to it and [`Relay::handle_timeout`]
/// called. Returns what the proxy does, one string per action: `engine< text` /
/// `gui< text` for lines sent (with ` [Injected]`, ` [Rewritten]`, ` [Answered]` or
/// ` [Held]` for lines it did not simply forward), `Debug` text for the other actions.
pub fn play(session: &mut dyn Relay, script: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in script {
        let mut actions = Vec::new();
        let (from, text) = if *line == "tick" {
            if let Some(at) = session.poll_timeout() {
                session.set_now(at);
                session.handle_timeout(at, &mut actions);
            }
            (Peer::Engine, "")
        } else if let Some(text) = line.strip_prefix("gui: ") {
            session.on_gui_line(text.as_bytes(), &mut actions);
            (Peer::Gui, text)
        } else {
            let text = line.strip_prefix("engine: ").expect("gui: or engine:");
            session.on_engine_line(text.as_bytes(), &mut actions);
            (Peer::Engine, text)
        };
        let name = |peer: Peer| if peer == Peer::Gui { "gui" } else { "engine" };
        for action in actions {
            out.push(match action {
                Action::Forward => format!("{}< {text}", name(from.other())),
                Action::Send { to, line, mark } => format!(
                    "{}< {} [{mark:?}]",
                    name(to),
                    String::from_utf8_lossy(&line)
                ),
                Action::Event(event) => format!("{event:?}"),
            });
        }
    }
    out
}

/// The engine's exit after `signal` (`restartable`: not one passed on to it).
pub fn killed(signal: i32, restartable: bool) -> super::EngineExit {
    super::EngineExit {
        ending: super::ProcessEnding::Signal(signal),
        restartable,
    }
}

/// True for the once-per-game notices about the proxy's start ([`super::starts::StartNotices`]),
/// in either protocol, to the GUI or stderr.
pub fn is_start_notice(line: &str) -> bool {
    line.contains("replaces the start") || line.contains("but the GUI has not enabled")
}

/// [`play`] without the start notices (the tests that pin them use [`play`]).
pub fn play_without_start_notices(session: &mut dyn Relay, script: &[&str]) -> Vec<String> {
    let mut out = play(session, script);
    out.retain(|line| !is_start_notice(line));
    out
}
