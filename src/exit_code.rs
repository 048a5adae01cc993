//! Process exit codes shared by every subcommand (documented in README.md), and
//! [`Refused`], a command-line value refused with its command's exit code. The lowest
//! module of the crate: every room may use it, it uses nothing of the crate.

use std::error::Error;

/// Everything went well.
pub const SUCCESS: u8 = 0;
/// Invalid chess data: a bad SP, arrangement or FEN.
pub const INVALID_DATA: u8 = 1;
/// A usage error: bad arguments or options (clap uses this code too).
pub const USAGE: u8 = 2;
/// An engine that cannot do what was asked: proxy `--require-chess960` and no
/// `UCI_Chess960`; match: it fails its handshake; tournament: the tool cannot drive it;
/// check: not ready for Chess960.
pub const ENGINE_UNSUITABLE: u8 = 3;
/// proxy: the engine exited with status 0 without being asked to quit. (Other
/// unasked exits give the engine's own status, or 128 + signal number.)
pub const ENGINE_EXITED: u8 = 4;
/// The engine program exists but cannot be executed, as shells report it (proxy, match,
/// check).
pub const ENGINE_NOT_EXECUTABLE: u8 = 126;
/// The engine program was not found, as shells report it (proxy, match, check).
pub const ENGINE_NOT_FOUND: u8 = 127;
/// match: stopped by Ctrl-C (SIGINT), as a shell reports it; the finished games are
/// saved and reported.
pub const INTERRUPTED: u8 = 130;

/// A command-line value its reader refused as clap read it: reported as the command
/// reported it before clap read the value, `COMMAND: reason` (or the reader's own words,
/// which may name the command), with the command's exit code; `cli` finds it in clap's
/// error ([`Refused::of`]). It lives here so that every room's clap arguments can use it.
#[derive(Debug, thiserror::Error)]
#[error("{}{source}", command.map(|words| format!("{words}: ")).unwrap_or_default())]
pub struct Refused {
    /// The words its messages begin with: the subcommand (`tournament`, `book`), and the
    /// option where the reader's error does not name it (`proxy: --sp`); `None` when the
    /// reader's words begin with them (`explain: ...`).
    command: Option<&'static str>,
    /// The exit code.
    code: u8,
    /// The reader's own error.
    source: Box<dyn Error + Send + Sync>,
}

impl Refused {
    /// Invalid chess data ([`INVALID_DATA`]) of `command`.
    pub fn invalid<E: Error + Send + Sync + 'static>(
        command: &'static str,
    ) -> impl Fn(E) -> Refused {
        move |err| Refused {
            command: Some(command),
            code: INVALID_DATA,
            source: Box::new(err),
        }
    }

    /// A usage error ([`USAGE`]) of `command`.
    pub fn usage<E: Error + Send + Sync + 'static>(command: &'static str) -> impl Fn(E) -> Refused {
        move |err| Refused {
            command: Some(command),
            code: USAGE,
            source: Box::new(err),
        }
    }

    /// A refusal whose reader's words begin with the command already.
    pub fn in_own_words<E: Error + Send + Sync + 'static>(code: u8, err: E) -> Refused {
        Refused {
            command: None,
            code,
            source: Box::new(err),
        }
    }

    /// The refusal a clap error carries, if it is one.
    pub fn of(err: &clap::Error) -> Option<&Refused> {
        err.source()?.downcast_ref::<Refused>()
    }

    /// The exit code.
    pub fn code(&self) -> u8 {
        self.code
    }
}
