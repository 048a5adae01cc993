//! What the clock guard (`--max-overrun`, `--max-search`) and the engine restart
//! (`--restart-engine`) share between the protocols: the time a search may take by its
//! clock, the same `go` (or XBoard `time`) with the time already spent taken off its
//! clocks, and [`Restarts`], the budget of restarts and the settings log replayed to a
//! restarted engine.

use std::time::Duration;

use shakmaty::Color;

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
    /// Reads `go` for the side to move (`turn`).
    pub fn of(go: &Go, turn: Color) -> SearchClock {
        let millis = |value: Option<i64>| value.map(|v| Duration::from_millis(v.max(0) as u64));
        let own = millis(*go.time.get(turn));
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
fn is_own_clock(word: &[u8], turn: Color) -> bool {
    word == b"movetime" || word == turn.fold_wb(&b"wtime"[..], b"btime")
}

/// `line` (a `go`, or XBoard's `time`) with `spent` taken off the side to move's clock
/// (`wtime` or `btime` by `turn`) and off `movetime`, each at least 1 ms; other words
/// copied, joined by single spaces.
pub fn reduce_clocks(line: &[u8], turn: Color, spent: Duration) -> Vec<u8> {
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
        reduce_next = is_own_clock(word, turn);
    }
    out
}

/// XBoard's `time N` (centiseconds) with `spent` taken off, at least 1; a `time` without
/// a number is kept as it is (trimmed).
pub fn reduce_centiseconds(line: &[u8], spent: Duration) -> Vec<u8> {
    let centiseconds = tokens(line)
        .nth(1)
        .and_then(|v| std::str::from_utf8(v).ok()?.parse::<i64>().ok());
    match centiseconds {
        Some(cs) => {
            let spent = i64::try_from(spent.as_millis() / 10).unwrap_or(i64::MAX);
            format!("time {}", cs.saturating_sub(spent).max(1)).into_bytes()
        }
        None => line.trim_ascii().to_vec(),
    }
}

/// The engine restart (`--restart-engine N`) in either protocol: the budget of restarts
/// per game and the settings log, the last line of each setting the engine got, in
/// order, replayed to a restarted engine.
#[derive(Debug, Clone, Default)]
pub(crate) struct Restarts {
    /// N: restarts allowed per game (0: never).
    budget: u32,
    /// Restarts in this game.
    used: u32,
    /// (key, line): the last line per key, in order.
    settings: Vec<(Vec<u8>, Vec<u8>)>,
}

/// What becomes of an engine that exited unasked, by the budget alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitVerdict {
    /// No restart is possible: no budget, an exit the user asked for (a signal passed
    /// on), or an engine that never finished its handshake.
    Final,
    /// The budget of this game is spent.
    Spent,
    /// A restart may follow.
    Restart,
}

impl Restarts {
    /// A budget of `budget` restarts per game.
    pub(crate) fn new(budget: u32) -> Restarts {
        Restarts {
            budget,
            ..Restarts::default()
        }
    }

    /// The budget per game.
    pub(crate) fn budget(&self) -> u32 {
        self.budget
    }

    /// True when an engine whose output ends now may be restarted: its handshake is
    /// done (`ready`) and this game's budget is not spent.
    pub(crate) fn possible(&self, ready: bool) -> bool {
        self.budget > 0 && ready && self.used < self.budget
    }

    /// What becomes of an engine that exited unasked: `restartable` is false after a
    /// signal passed on to it, `ready` once its handshake was done.
    pub(crate) fn verdict(&self, restartable: bool, ready: bool) -> ExitVerdict {
        if !(restartable && self.budget > 0 && ready) {
            ExitVerdict::Final
        } else if self.used >= self.budget {
            ExitVerdict::Spent
        } else {
            ExitVerdict::Restart
        }
    }

    /// A restart begins (after [`ExitVerdict::Restart`]): its number in this game.
    pub(crate) fn begin(&mut self) -> u32 {
        self.used += 1;
        self.used
    }

    /// A new game: the budget is whole again.
    pub(crate) fn new_game(&mut self) {
        self.used = 0;
    }

    /// Notes `line` (the engine got it) as the setting `key`, replacing the earlier
    /// line of that key; nothing is kept without a budget.
    pub(crate) fn remember(&mut self, key: Vec<u8>, line: &[u8]) {
        if self.budget == 0 {
            return;
        }
        self.settings.retain(|(known, _)| *known != key);
        self.settings.push((key, line.trim_ascii().to_vec()));
    }

    /// The settings log in order: (key, line).
    pub(crate) fn settings(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.settings
            .iter()
            .map(|(key, line)| (key.as_slice(), line.as_slice()))
    }

    /// The last line of the setting `key`, if the engine got one.
    pub(crate) fn setting(&self, key: &[u8]) -> Option<&[u8]> {
        self.settings()
            .find(|(known, _)| *known == key)
            .map(|(_, line)| line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(line: &str, turn: Color) -> SearchClock {
        SearchClock::of(&Go::parse(line.as_bytes()).unwrap(), turn)
    }

    #[test]
    fn the_clock_is_the_movers_time_or_movetime() {
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(
            clock("go wtime 1000 btime 2000", Color::White).clock,
            ms(1000)
        );
        assert_eq!(
            clock("go wtime 1000 btime 2000", Color::Black).clock,
            ms(2000)
        );
        assert_eq!(
            clock("go wtime 1000 movetime 300", Color::White).clock,
            ms(300)
        );
        assert_eq!(clock("go movetime 300", Color::Black).clock, ms(300));
        assert_eq!(clock("go depth 1", Color::White).clock, None);
        assert!(clock("go infinite", Color::White).unbounded);
        assert!(clock("go ponder wtime 10 btime 10", Color::White).unbounded);
        let margin = ms(500);
        let search = ms(20_000);
        assert_eq!(
            clock("go wtime 1000 btime 2000", Color::White).limit(margin, search),
            ms(1500)
        );
        assert_eq!(
            clock("go depth 1", Color::White).limit(margin, search),
            search
        );
        assert_eq!(clock("go depth 1", Color::White).limit(margin, None), None);
        assert_eq!(
            clock("go movetime 10", Color::White).limit(None, search),
            None
        );
        assert_eq!(
            clock("go infinite", Color::White).limit(margin, search),
            None
        );
    }

    #[test]
    fn reduced_clocks_lose_the_time_spent_for_the_mover_only() {
        let spent = Duration::from_millis(700);
        let go = b"go wtime 1000 btime 2000 winc 10 binc 10";
        assert_eq!(
            reduce_clocks(go, Color::White, spent),
            b"go wtime 300 btime 2000 winc 10 binc 10"
        );
        assert_eq!(
            reduce_clocks(go, Color::Black, spent),
            b"go wtime 1000 btime 1300 winc 10 binc 10"
        );
        assert_eq!(
            reduce_clocks(b"go movetime 500", Color::White, spent),
            b"go movetime 1"
        );
        assert_eq!(
            reduce_clocks(b"go  depth 5\r", Color::White, spent),
            b"go depth 5"
        );
        assert_eq!(reduce_clocks(b"time 500", Color::White, spent), b"time 500");
        assert_eq!(reduce_centiseconds(b"time 500 \r", spent), b"time 430");
        assert_eq!(reduce_centiseconds(b"time 50", spent), b"time 1");
        assert_eq!(reduce_centiseconds(b" time x", spent), b"time x");
    }

    #[test]
    fn restarts_keep_a_budget_per_game_and_the_last_line_of_each_setting() {
        let mut restarts = Restarts::new(1);
        assert_eq!(restarts.verdict(true, false), ExitVerdict::Final);
        assert_eq!(restarts.verdict(false, true), ExitVerdict::Final);
        assert!(restarts.possible(true) && !restarts.possible(false));
        assert_eq!(restarts.verdict(true, true), ExitVerdict::Restart);
        assert_eq!(restarts.begin(), 1);
        assert_eq!(restarts.verdict(true, true), ExitVerdict::Spent);
        assert!(!restarts.possible(true));
        restarts.new_game();
        assert_eq!(restarts.verdict(true, true), ExitVerdict::Restart);
        restarts.remember(b"hash".to_vec(), b"setoption name Hash value 1 ");
        restarts.remember(b"threads".to_vec(), b"setoption name Threads value 2");
        restarts.remember(b"hash".to_vec(), b"setoption name Hash value 8");
        let keys: Vec<&[u8]> = restarts.settings().map(|(key, _)| key).collect();
        assert_eq!(keys, [&b"threads"[..], b"hash"]);
        assert_eq!(
            restarts.setting(b"hash"),
            Some(&b"setoption name Hash value 8"[..])
        );
        let mut none = Restarts::new(0);
        none.remember(b"hash".to_vec(), b"setoption name Hash value 1");
        assert_eq!(none.settings().count(), 0);
        assert_eq!(none.verdict(true, true), ExitVerdict::Final);
    }
}
