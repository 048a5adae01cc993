//! The clock guard (`--max-overrun`, `--max-search`): `stop` to a search past its
//! clock, and the engine's best so far to the GUI when no `bestmove` follows.

use super::*;

/// How long the clock guard waits for a `bestmove` after its `stop` before it answers the
/// GUI itself.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// The first move of the principal variation of an `info` line (of `multipv 1`): the
/// engine's best so far.
pub(super) fn first_pv_move(line: &[u8]) -> Option<Vec<u8>> {
    memmem::find(line, b" pv ")?;
    if tokens(line).any(|word| word == b"multipv")
        && tokens(line).skip_while(|w| *w != b"multipv").nth(1) != Some(b"1")
    {
        return None;
    }
    let list = info_move_lists(line)
        .into_iter()
        .find(|list| list.field == "pv")?;
    let first = list.moves.first()?;
    Some(line[first.clone()].to_vec())
}

impl UciSession {
    pub(super) fn guard_on(&self) -> bool {
        self.config.max_overrun.is_some() || self.config.max_search.is_some()
    }

    /// The engine's best move so far in `run`, legal in the searched position, as the GUI
    /// writes it.
    pub(super) fn best_so_far(&self, run: &Running) -> Option<Vec<u8>> {
        let root = &self.root.as_ref()?.position;
        let best = parse_move(root, run.last_pv_move.as_deref()?).ok()?;
        let mut out = Vec::new();
        write_move(&best, self.gui_dialect(), &mut out);
        Some(out)
    }

    pub(super) fn guard_timeout(&mut self, now: Instant, actions: &mut Vec<Action>) {
        let Search::Running(run) = &mut self.search else {
            return;
        };
        match run.guard {
            ClockGuard::StopAt(at) if now >= at => {
                let limit = match (
                    run.go.clock.clock,
                    self.config.max_overrun,
                    self.config.max_search,
                ) {
                    (Some(clock), Some(margin), _) => format!(
                        "the go's {} ms + {} ms (--max-overrun)",
                        clock.as_millis(),
                        margin.as_millis()
                    ),
                    (_, _, Some(search)) => format!("{} ms (--max-search)", search.as_millis()),
                    _ => "its limit".to_owned(),
                };
                Self::tell(
                    actions,
                    &format!("clock guard: no bestmove within {limit}; stop sent to the engine"),
                );
                if run.guard_stop() {
                    actions.push(Action::send(Peer::Engine, "stop", Mark::Injected));
                }
                run.guard = ClockGuard::AnswerAt(now + STOP_GRACE);
            }
            ClockGuard::AnswerAt(at) if now >= at => self.guard_answers(actions),
            ClockGuard::Off | ClockGuard::StopAt(_) | ClockGuard::AnswerAt(_) => {}
        }
    }

    /// No `bestmove` [`STOP_GRACE`] after the guard's `stop`: the GUI gets the engine's
    /// best so far, and the search ends.
    pub(super) fn guard_answers(&mut self, actions: &mut Vec<Action>) {
        let Some(run) = self.end_search() else {
            return;
        };
        let (best, what) = match self.best_so_far(&run) {
            Some(best) => {
                let text = String::from_utf8_lossy(&best).into_owned();
                (best, format!("the first move of its last pv, {text}"))
            }
            None => (
                b"0000".to_vec(),
                "bestmove 0000 (no legal pv move)".to_owned(),
            ),
        };
        Self::tell(
            actions,
            &format!(
                "clock guard: no bestmove {} ms after stop; the GUI gets {what}",
                STOP_GRACE.as_millis()
            ),
        );
        let mut line = b"bestmove ".to_vec();
        line.extend_from_slice(&best);
        actions.push(Action::send(Peer::Gui, line, Mark::Answered));
        self.stale_bestmoves += 1;
        self.release(run.after, actions);
    }
}
