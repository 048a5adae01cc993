//! The engine restart (`--restart-engine`): a new engine after an unasked exit, and
//! the replay of the options, the position and the running `go` to it.

use super::*;

impl UciSession {
    /// The engine exited unasked: restarted within the budget, else told.
    pub(super) fn engine_exit(&mut self, exit: EngineExit, actions: &mut Vec<Action>) {
        let how = exit.describe();
        let budget = self.restarts.budget();
        match self.restarts.verdict(exit.restartable, self.link.ready()) {
            ExitVerdict::Final => return Self::info_to_gui(actions, &format!("the engine {how}")),
            ExitVerdict::Spent => {
                return Self::tell(
                    actions,
                    &format!(
                        "the engine {how}; restarted {budget} time(s) in this game already \
                         (--restart-engine {budget}): giving up"
                    ),
                );
            }
            ExitVerdict::Restart => {}
        }
        let number = self.restarts.begin();
        Self::tell(
            actions,
            &format!(
                "the engine {how}; restarting it ({number} of {budget} in this game), then its \
                 options, the position{}",
                if self.searching() { " and the go" } else { "" }
            ),
        );
        actions.push(Step::Event(ProxyEvent::Restart));
        actions.push(Action::send(Peer::Engine, "uci", Mark::Injected));
        self.link = Link::Restarting(self.link.open());
        // A search the proxy answered itself gets no bestmove from the new engine.
        self.stale_bestmoves = 0;
    }

    /// The restarted engine's `uciok`: the options the engine had, the position and the
    /// running search's `go` with the time spent taken off its clocks (a `stop` it had
    /// is held again until the new engine is heard), then the GUI's held lines.
    pub(super) fn replay(&mut self, actions: &mut Vec<Action>) {
        for (_, line) in self.restarts.settings() {
            actions.push(Action::send(Peer::Engine, line.to_vec(), Mark::Injected));
        }
        if let Some(sent) = &self.sent_position {
            actions.push(Action::send(
                Peer::Engine,
                sent.line.clone(),
                Mark::Injected,
            ));
        }
        let now = self.now();
        if let Search::Running(run) = &mut self.search {
            let go = &run.go;
            let spent = now.saturating_duration_since(go.at);
            let line = recovery::reduce_clocks(&go.line, go.turn, spent);
            let spent = if line == go.line.trim_ascii() {
                String::new()
            } else {
                format!(" with the {} ms spent off its clock", spent.as_millis())
            };
            Self::tell(
                actions,
                &format!(
                    "the engine restarted; the go sent again{spent}: {}",
                    String::from_utf8_lossy(&line)
                ),
            );
            actions.push(Action::send(Peer::Engine, line, Mark::Injected));
            run.restarted(now);
        }
        let held = self.link.open();
        self.release(held, actions);
    }
}
