//! The match as the user asks for it and as it is played: the request (`sp960 match`'s clap
//! arguments) and its resolution into engines, starts and limits ([`request`]), the
//! `KEY=VALUE` rules clap reads into their types ([`words`]: `--openings`, `--sprt`, `--resign`,
//! `--draw`), `--affinity`'s CPUs ([`affinity`]), `--openings` books ([`openings`], checked up front), `--resign`/`--draw`
//! ([`adjudication`]) and `--resume` ([`resume`]: the state file and the PGN read back). Every
//! `KEY=VALUE` option is read by `launch::key_value`, every PGN tag by `records::pgn_tag`,
//! every SPEC by `starts::start::spec_items`.
//!
//! Must not import the engines or game wings' machinery, `proxy`, `tournaments` or `cli`.
//! It imports only the types its settings are made of: the engines' `Limits` and the
//! tally's `SprtConfig` and `GameSummary` (a game read back).
//! `resume` does not import `request` (the request reads the state file).

pub mod adjudication;
pub mod affinity;
pub mod request;
pub mod resume;
pub mod words;
