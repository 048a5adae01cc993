//! Process exit codes shared by every subcommand (documented in README.md). The lowest
//! module of the crate: every room may use it, it uses nothing.

/// Everything went well.
pub const SUCCESS: u8 = 0;
/// Invalid chess data: a bad SP, arrangement or FEN.
pub const INVALID_DATA: u8 = 1;
/// A usage error: bad arguments or options (clap uses this code too).
pub const USAGE: u8 = 2;
/// proxy: the engine cannot do what was asked (`--require-chess960` and no
/// `UCI_Chess960`).
pub const ENGINE_UNSUITABLE: u8 = 3;
/// proxy: the engine exited with status 0 without being asked to quit. (Other
/// unasked exits give the engine's own status, or 128 + signal number.)
pub const ENGINE_EXITED: u8 = 4;
/// proxy: the engine program exists but cannot be executed (as shells report it).
pub const ENGINE_NOT_EXECUTABLE: u8 = 126;
/// proxy: the engine program was not found (as shells report it).
pub const ENGINE_NOT_FOUND: u8 = 127;
/// match: stopped by Ctrl-C (SIGINT), as a shell reports it; the finished games are
/// saved and reported.
pub const INTERRUPTED: u8 = 130;
