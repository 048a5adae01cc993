//! `--log DIR`: one file per game with every line to and from each engine, the engines'
//! stderr included, one line each: `TIMESTAMP ENGINE DIRECTION TEXT`, the UTC time with
//! microseconds, the engine's name (spaces kept), and `>` (to the engine), `<` (from its
//! stdout) or `!` (from its stderr).
//!
//! A worker owns one [`GameLog`] and its players write to it. Writes are buffered; the
//! buffer is written to the file when its game ends ([`GameLog::finish`]), so a crash
//! loses no finished game's log. Lines written while no file is open (the first handshake, before the first
//! game) wait in memory and open the next game's file.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// Which way a line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// To the engine.
    ToEngine,
    /// From the engine's stdout.
    FromEngine,
    /// From the engine's stderr.
    Stderr,
}

impl Direction {
    fn mark(self) -> &'static [u8] {
        match self {
            Direction::ToEngine => b" > ",
            Direction::FromEngine => b" < ",
            Direction::Stderr => b" ! ",
        }
    }
}

/// Bytes buffered before they are written to the file.
const BUFFER_SIZE: usize = 64 * 1024;

#[derive(Debug, Default)]
struct Sink {
    file: Option<File>,
    /// Lines not yet written: to the open file, or, while no file is open, to the next
    /// one. (A plain vector rather than a `BufWriter`: a line goes in as a few
    /// `extend_from_slice`, not six `write_all` calls each checking for a full buffer.)
    buffer: Vec<u8>,
    /// The first failed write since the last [`GameLog::finish`].
    error: Option<io::Error>,
    /// The timestamp up to the second (`2026-11-22T20:21:29`) and that second: the
    /// calendar is worked out once a second, not once a line.
    second: Option<(u64, String)>,
}

impl Sink {
    /// Writes the buffer to the open file (nothing while none is open).
    fn write_out(&mut self) {
        let Some(file) = &mut self.file else {
            return;
        };
        if let Err(err) = file.write_all(&self.buffer) {
            self.error.get_or_insert(err);
        }
        self.buffer.clear();
    }

    /// The first failed write since the last call, if any.
    fn take_error(&mut self) -> io::Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        // The lines after the last game's end (the engines' `quit`).
        self.write_out();
    }
}

/// A log shared by a worker's players (cheap to clone).
#[derive(Debug, Clone, Default)]
pub struct GameLog {
    sink: Arc<Mutex<Sink>>,
}

impl GameLog {
    fn lock(&self) -> MutexGuard<'_, Sink> {
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts the file of game `number` in `dir` (`game-00012.log`), with the lines that
    /// waited for it; the previous file is written out and closed.
    pub fn start(&self, dir: &Path, number: usize) -> io::Result<()> {
        let mut sink = self.lock();
        sink.write_out();
        sink.file = None;
        sink.take_error()?;
        sink.file = Some(File::create(game_file(dir, number))?);
        Ok(())
    }

    /// Writes one line.
    pub fn line(&self, engine: &str, direction: Direction, text: &[u8]) {
        let now = SystemTime::now();
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        let mut sink = self.lock();
        let sink = &mut *sink;
        let second = since.as_secs();
        if sink.second.as_ref().is_none_or(|(at, _)| *at != second) {
            let mut stamp = utc_timestamp(now);
            stamp.truncate("YYYY-MM-DDTHH:MM:SS".len());
            sink.second = Some((second, stamp));
        }
        let prefix = &sink.second.as_ref().expect("just set").1;
        let mut micros = *b".000000Z ";
        let mut value = since.subsec_micros();
        for digit in micros[1..7].iter_mut().rev() {
            *digit = b'0' + (value % 10) as u8;
            value /= 10;
        }
        let out = &mut sink.buffer;
        out.reserve(prefix.len() + micros.len() + engine.len() + 3 + text.len() + 1);
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(&micros);
        out.extend_from_slice(engine.as_bytes());
        out.extend_from_slice(direction.mark());
        out.extend_from_slice(text);
        out.push(b'\n');
        if out.len() >= BUFFER_SIZE {
            // A failed write shows at `finish`.
            sink.write_out();
        }
    }

    /// The game is over: its lines are written to its file (which stays open for the
    /// lines that follow, such as the engines' `quit`); the first failed write since the
    /// last call, if any.
    pub fn finish(&self) -> io::Result<()> {
        let mut sink = self.lock();
        sink.write_out();
        sink.take_error()
    }

    /// Moves the lines waiting in `other` (a player's first handshake) into this log.
    pub fn adopt(&self, other: &GameLog) {
        if Arc::ptr_eq(&self.sink, &other.sink) {
            return;
        }
        let pending = {
            let mut other = other.lock();
            if other.file.is_some() {
                // Its lines have a file of their own.
                return;
            }
            std::mem::take(&mut other.buffer)
        };
        self.lock().buffer.extend_from_slice(&pending);
    }
}

/// The log file of game `number`.
pub fn game_file(dir: &Path, number: usize) -> PathBuf {
    dir.join(format!("game-{number:05}.log"))
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ` for `time` (UTC, microseconds).
pub fn utc_timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_micros()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        let at = |secs: u64, micros: u64| {
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_micros(micros))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.000005Z");
        assert_eq!(at(1_795_251_001, 123_456), "2026-11-21T08:50:01.123456Z");
    }

    #[test]
    fn lines_wait_for_the_first_file_and_each_game_gets_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let log = GameLog::default();
        let handshake = GameLog::default();
        handshake.line("Stockfish 15.1", Direction::ToEngine, b"uci");
        handshake.line("Stockfish 15.1", Direction::FromEngine, b"uciok");
        log.start(dir.path(), 1).unwrap();
        log.adopt(&handshake);
        log.line("Stockfish 15.1", Direction::Stderr, b"warning: no NNUE");
        log.finish().unwrap();
        let first = std::fs::read_to_string(game_file(dir.path(), 1)).unwrap();
        let lines: Vec<&str> = first.lines().collect();
        assert_eq!(lines.len(), 3, "{first}");
        for (line, tail) in lines.iter().zip([
            " Stockfish 15.1 > uci",
            " Stockfish 15.1 < uciok",
            " Stockfish 15.1 ! warning: no NNUE",
        ]) {
            assert!(line.ends_with(tail), "{line}");
            // 2026-11-22T20:19:51.123456Z
            let stamp = line.split(' ').next().unwrap();
            assert_eq!(stamp.len(), 27, "{line}");
            assert!(
                stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
                "{line}"
            );
        }
        log.start(dir.path(), 2).unwrap();
        log.line("Ethereal", Direction::ToEngine, b"quit");
        log.finish().unwrap();
        let second = std::fs::read_to_string(game_file(dir.path(), 2)).unwrap();
        assert!(second.ends_with(" Ethereal > quit\n"), "{second}");
        assert_eq!(
            std::fs::read_to_string(game_file(dir.path(), 1)).unwrap(),
            first
        );
    }
}
