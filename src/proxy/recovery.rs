//! What the clock guard (`--max-overrun`, `--max-search`) and the engine restart
//! (`--restart-engine`) read from a `go`, protocol-neutral and pure: the time a search may
//! take by its clock, and the same `go` with the time already spent taken off its clocks.

use std::time::Duration;

use crate::protocol::tokens;
use crate::protocol::uci::Go;

/// The time a UCI `go` may take by its clock, and whether it is open-ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchClock {
    /// The side to move's `wtime`/`btime`, or `movetime` when it is smaller; `None` for a
    /// `go` without either (`depth`, `nodes`, `mate`).
    pub clock: Option<Duration>,
    /// `go infinite` or `go ponder`: ends only on the GUI's word, never cut.
    pub unbounded: bool,
}

impl SearchClock {
    /// Reads `go` for the side to move (`white`).
    pub fn of(go: &Go, white: bool) -> SearchClock {
        let millis = |value: Option<i64>| value.map(|v| Duration::from_millis(v.max(0) as u64));
        let own = millis(go.time[usize::from(!white)]);
        let movetime = millis(go.movetime);
        let clock = match (own, movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        SearchClock {
            clock,
            unbounded: go.infinite || go.ponder,
        }
    }

    /// How long after the `go` the guard stops the search: the clock plus `overrun`, or
    /// `search` for a finite search without a clock; `None`: not bounded.
    pub fn limit(self, overrun: Option<Duration>, search: Option<Duration>) -> Option<Duration> {
        if self.unbounded {
            return None;
        }
        match self.clock {
            Some(clock) => overrun.map(|margin| clock + margin),
            None => search,
        }
    }
}

/// The words (after the first) whose number is a clock of the side to move.
fn is_own_clock(word: &[u8], white: bool) -> bool {
    word == b"movetime" || word == if white { &b"wtime"[..] } else { b"btime" }
}

/// `line` (a `go`, or XBoard's `time`) with `spent` taken off the side to move's clock
/// (`wtime` or `btime` by `white`) and off `movetime`, each at least 1 ms; other words
/// copied, joined by single spaces.
pub fn reduce_clocks(line: &[u8], white: bool, spent: Duration) -> Vec<u8> {
    let spent = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
    let mut out = Vec::with_capacity(line.len());
    let mut reduce_next = false;
    for word in tokens(line) {
        if !out.is_empty() {
            out.push(b' ');
        }
        match std::str::from_utf8(word)
            .ok()
            .and_then(|w| w.parse::<i64>().ok())
        {
            Some(value) if reduce_next => {
                out.extend_from_slice(value.saturating_sub(spent).max(1).to_string().as_bytes());
            }
            _ => out.extend_from_slice(word),
        }
        reduce_next = is_own_clock(word, white);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(line: &str, white: bool) -> SearchClock {
        SearchClock::of(&Go::parse(line.as_bytes()).unwrap(), white)
    }

    #[test]
    fn the_clock_is_the_movers_time_or_movetime() {
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(clock("go wtime 1000 btime 2000", true).clock, ms(1000));
        assert_eq!(clock("go wtime 1000 btime 2000", false).clock, ms(2000));
        assert_eq!(clock("go wtime 1000 movetime 300", true).clock, ms(300));
        assert_eq!(clock("go movetime 300", false).clock, ms(300));
        assert_eq!(clock("go depth 1", true).clock, None);
        assert!(clock("go infinite", true).unbounded);
        assert!(clock("go ponder wtime 10 btime 10", true).unbounded);
        let margin = ms(500);
        let search = ms(20_000);
        assert_eq!(
            clock("go wtime 1000 btime 2000", true).limit(margin, search),
            ms(1500)
        );
        assert_eq!(clock("go depth 1", true).limit(margin, search), search);
        assert_eq!(clock("go depth 1", true).limit(margin, None), None);
        assert_eq!(clock("go movetime 10", true).limit(None, search), None);
        assert_eq!(clock("go infinite", true).limit(margin, search), None);
    }

    #[test]
    fn reduced_clocks_lose_the_time_spent_for_the_mover_only() {
        let spent = Duration::from_millis(700);
        let go = b"go wtime 1000 btime 2000 winc 10 binc 10";
        assert_eq!(
            reduce_clocks(go, true, spent),
            b"go wtime 300 btime 2000 winc 10 binc 10"
        );
        assert_eq!(
            reduce_clocks(go, false, spent),
            b"go wtime 1000 btime 1300 winc 10 binc 10"
        );
        assert_eq!(
            reduce_clocks(b"go movetime 500", true, spent),
            b"go movetime 1"
        );
        assert_eq!(reduce_clocks(b"go  depth 5\r", true, spent), b"go depth 5");
        assert_eq!(reduce_clocks(b"time 500", true, spent), b"time 500");
    }
}
