//! `--log FILE`: a timestamped transcript of both directions, marking every line the
//! proxy consumed, injected, rewrote or answered itself.
//!
//! One line per event: `2026-11-21T08:30:01.123456Z <direction> [<mark>] <text>`, where
//! direction is `gui>engine` / `engine>gui` (forwarded untouched), `gui>proxy` /
//! `engine>proxy` (read and not forwarded as is), `proxy>engine` / `proxy>gui` (written by
//! the proxy, with mark `injected`, `rewritten`, `answered` or `held`), or `proxy` (an event:
//! warnings, the engine's exit).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::SystemTime;

use super::{Mark, Peer};
use crate::launch::log::utc_timestamp;

/// What a transcript line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Read from a peer and forwarded byte for byte to the other.
    Forwarded(Peer),
    /// Read from a peer and not forwarded as it was.
    Consumed(Peer),
    /// Written by the proxy to a peer.
    Sent(Peer, Mark),
    /// Something that happened (no line on either pipe).
    Event,
}

/// An open transcript file.
pub struct Transcript {
    out: BufWriter<File>,
}

impl Transcript {
    /// Creates (truncates) `path`.
    pub fn create(path: &Path) -> io::Result<Transcript> {
        Ok(Transcript {
            out: BufWriter::new(File::create(path)?),
        })
    }

    /// Appends one line; `text` is written as it is (without its line ending).
    pub fn record(&mut self, entry: Entry, text: &[u8]) -> io::Result<()> {
        let name = |peer: Peer| match peer {
            Peer::Gui => "gui",
            Peer::Engine => "engine",
        };
        let label = match entry {
            Entry::Forwarded(from) => format!("{}>{}", name(from), name(from.other())),
            Entry::Consumed(from) => format!("{}>proxy", name(from)),
            Entry::Sent(to, mark) => format!(
                "proxy>{} {}",
                name(to),
                match mark {
                    Mark::Injected => "injected",
                    Mark::Rewritten => "rewritten",
                    Mark::Answered => "answered",
                    Mark::Held => "held",
                }
            ),
            Entry::Event => "proxy".to_owned(),
        };
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        write!(
            self.out,
            "{} {label:<24} ",
            utc_timestamp(SystemTime::now())
        )?;
        self.out.write_all(text)?;
        self.out.write_all(b"\n")
    }

    /// Writes buffered lines to the file.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_labelled() {
        let dir = std::env::temp_dir().join(format!("sp960-transcript-{}", std::process::id()));
        let mut log = Transcript::create(&dir).unwrap();
        log.record(Entry::Forwarded(Peer::Gui), b"uci").unwrap();
        log.record(
            Entry::Consumed(Peer::Gui),
            b"position fen 8/8/8/8/8/8/8/8 w - - 0 1\r",
        )
        .unwrap();
        log.record(Entry::Sent(Peer::Gui, Mark::Answered), b"bestmove 0000")
            .unwrap();
        log.flush().unwrap();
        let text = std::fs::read_to_string(&dir).unwrap();
        std::fs::remove_file(&dir).unwrap();
        let labels: Vec<&str> = text
            .lines()
            .map(|line| line.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(labels, ["gui>engine", "gui>proxy", "proxy>gui"]);
        assert!(text.contains("proxy>gui answered"));
        assert!(text.lines().nth(1).unwrap().ends_with("0 1"));
    }
}
