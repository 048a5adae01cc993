//! The engine's search output to the GUI: `bestmove` checked against the searched
//! position, castling moves of `bestmove` and `info` in the GUI's dialect.

use super::*;

/// `line` (its trailing whitespace dropped) with the bytes of `spans` (in order, not
/// overlapping) replaced: the first span through the last by what `write` makes of them
/// all; every other byte is copied.
pub(super) fn rewrite_spans(
    line: &[u8],
    spans: &[std::ops::Range<usize>],
    write: impl FnOnce(&[std::ops::Range<usize>], &mut Vec<u8>),
) -> Vec<u8> {
    let line = line.trim_ascii_end();
    let (Some(first), Some(last)) = (spans.first(), spans.last()) else {
        return line.to_vec();
    };
    let mut out = Vec::with_capacity(line.len() + 8);
    out.extend_from_slice(&line[..first.start]);
    write(spans, &mut out);
    out.extend_from_slice(&line[last.end..]);
    out
}

/// An `info` line with the moves after `pv`, `currmove`, `refutation` and `currline`
/// written in `dialect`; every other byte (the text after `string` among them) is copied.
pub fn translate_info(root: &Chess, line: &[u8], dialect: CastlingDialect) -> Vec<u8> {
    let line = line.trim_ascii_end();
    let mut out = Vec::with_capacity(line.len() + 8);
    let mut copied = 0;
    for list in info_move_lists(line) {
        let (Some(first), Some(last)) = (list.moves.first(), list.moves.last()) else {
            continue;
        };
        out.extend_from_slice(&line[copied..first.start]);
        translate_moves(
            root,
            list.moves.iter().map(|m| &line[m.clone()]),
            dialect,
            &mut out,
        );
        copied = last.end;
    }
    out.extend_from_slice(&line[copied..]);
    out
}

impl UciSession {
    pub(super) fn engine_bestmove(&mut self, out: &mut Reply) {
        let line = out.line();
        if self.stale_bestmoves > 0 {
            // The answer to a search the clock guard answered itself.
            self.stale_bestmoves -= 1;
            return out.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's late '{}' (its search was answered by the clock guard); not passed on",
                String::from_utf8_lossy(line.trim_ascii())
            ))));
        }
        let Some(run) = self.end_search() else {
            // Every `go` gets one `bestmove`: one without a search is not passed on.
            return out.push(Step::Event(ProxyEvent::Warn(format!(
                "proxy: the engine's '{}' answers no go; not passed on",
                String::from_utf8_lossy(line.trim_ascii())
            ))));
        };
        let guarded = matches!(run.guard, ClockGuard::AnswerAt(_));
        if let Some(reason) = self.illegal_bestmove(line) {
            // The GUI is not misled: the protocol's null move (or, after the clock guard's
            // stop, the engine's best so far), and why.
            let mut answer = b"bestmove ".to_vec();
            match self.best_so_far(&run).filter(|_| guarded) {
                Some(best) => {
                    Self::info_to_gui(
                        out,
                        &format!(
                            "{reason}; after the clock guard's stop: the first move of its last pv instead"
                        ),
                    );
                    answer.extend_from_slice(&best);
                }
                None => {
                    Self::info_to_gui(out, &reason);
                    answer.extend_from_slice(b"0000");
                }
            }
            out.replace(answer);
        } else if let Some(without) = self.without_illegal_ponder(line) {
            // Glaurung 2.2 names a ponder move that is not legal after its best move: a GUI
            // that ponders would search an impossible position. The hint is dropped.
            let translated = self.translated_bestmove(&without);
            out.replace(translated.unwrap_or(without));
        } else if let Some(translated) = self.translated_bestmove(line) {
            out.rewrite(translated);
        } else {
            out.forward();
        }
        self.release(run.after, out);
    }

    /// Why the engine's `bestmove` is not a move the GUI can play: not legal in the
    /// searched position while that has legal moves (Ethereal answers `a1a1` and Glaurung
    /// `(none)` to a search stopped before its first iteration ends).
    pub(super) fn illegal_bestmove(&self, line: &[u8]) -> Option<String> {
        let root = &self.root.as_ref()?.position;
        let bestmove = BestMove::parse(line);
        let best = bestmove.best;
        // Without a legal move only a null move is right (Ethereal 12.75 names a move in
        // a mated position).
        if root.legal_moves().is_empty() && bestmove.is_null() {
            return None;
        }
        parse_move(root, best).err().map(|_| {
            format!(
                "the engine's bestmove '{}' is not a legal move in the searched position; \
                 sent as bestmove 0000",
                String::from_utf8_lossy(best)
            )
        })
    }

    /// The `bestmove` line without its `ponder` move when that is not legal after the
    /// (legal) best move.
    pub(super) fn without_illegal_ponder(&self, line: &[u8]) -> Option<Vec<u8>> {
        let root = &self.root.as_ref()?.position;
        let bestmove = BestMove::parse(line);
        let ponder = bestmove
            .ponder
            .filter(|p| !p.is_empty() && *p != b"(none)")?;
        let best = parse_move(root, bestmove.best).ok()?;
        let mut after = root.clone();
        after.play_unchecked(best);
        if parse_move(&after, ponder).is_ok() {
            return None;
        }
        let mut out = b"bestmove ".to_vec();
        out.extend_from_slice(bestmove.best);
        Some(out)
    }

    /// The `bestmove` line with its moves in the GUI's dialect, when the dialects differ
    /// and the best move is legal.
    pub(super) fn translated_bestmove(&self, line: &[u8]) -> Option<Vec<u8>> {
        let root = &self
            .root
            .as_ref()
            .filter(|_| self.translation_needed())?
            .position;
        let best = parse_move(root, BestMove::parse(line).best).ok()?;
        let words: Vec<&[u8]> = tokens(line).collect();
        let dialect = self.gui_dialect();
        let mut out = b"bestmove ".to_vec();
        write_move(&best, dialect, &mut out);
        let mut rest = words[2..].iter();
        while let Some(word) = rest.next() {
            out.push(b' ');
            out.extend_from_slice(word);
            if *word == b"ponder"
                && let Some(ponder) = rest.next()
            {
                out.push(b' ');
                let mut after = root.clone();
                shakmaty::Position::play_unchecked(&mut after, best);
                translate_moves(&after, [*ponder], dialect, &mut out);
            }
        }
        Some(out)
    }

    pub(super) fn engine_info(&mut self, out: &mut Reply) {
        let line = out.line();
        if self.guard_on()
            && let Search::Running(run) = &mut self.search
            && let Some(first) = first_pv_move(line)
        {
            run.last_pv_move = Some(first);
        }
        // Cheapest test first: with both sides in one dialect, no line needs a look.
        match &self.root {
            Some(root) if self.translation_needed() && root.filter.might_match(line) => {
                out.rewrite(translate_info(&root.position, line, self.gui_dialect()));
            }
            _ => out.forward(),
        }
    }
}
