//! Engines as users name them and as processes: what an `--engine` text means (`spec`:
//! cutechess-cli's keys, `proto=`, `option.NAME=`, `tc=`), time controls in cutechess-cli's
//! syntax (`time_control`), the one reader of `KEY=VALUE` words (`key_value`: engine
//! settings, `--openings`, `--sprt`, `--resign`, `--draw`), the program started with piped
//! stdin and stdout (`command`), one engine's lines in and out with deadlines (`process`),
//! the `--log` files of what each engine was told and said (`log`), and launchers, the
//! proxy as one program path for GUIs that start an engine with no arguments
//! (`launcher`: the settings file beside a copy of sp960, written and read).
//!
//! Shared by the proxy (`command`), the engine driver of `clients` (`process`), the
//! match runner and the book generator (specs, time controls, logs)
//! and `sp960 tournament` (specs, time controls, launchers); `key_value` also by the match
//! runner's options; `launcher` by `cli` (`sp960 proxy --write-launcher`, and the start of
//! every run: is this executable a launcher?).
//!
//! Must not import: `proxy`, `clients`, `matches`, `engine`, `tournaments`, `cli` (they stand above
//! it). It imports `protocol` (the one [`crate::protocol::Protocol`]), `os` and std.

pub mod command;
pub mod engine_start;
pub(crate) mod key_value;
pub mod log;
pub mod process;
pub(crate) mod proxy_invocation;
pub(crate) mod proxy_launcher;
pub mod spec;
pub mod time_control;
