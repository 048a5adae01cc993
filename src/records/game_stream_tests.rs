//! The stream's cut: games checked in batches on any number of threads, with the next batch
//! cut beside the checking, give the verdicts of the whole text checked at once, at the
//! same lines; a line too long to keep is the error of the game it interrupts.

use super::*;
use crate::records::game::check_games;

const FEN: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";

/// Game `n`: a few legal moves, or with `defect` an illegal one; `comment`, a line of its
/// movetext (its 7th line).
fn game(n: usize, defect: bool, comment: &str) -> String {
    let third = if defect { "Ke4" } else { "a4" };
    format!(
        "[Event \"game {n}\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{FEN}\"]\n\n\
         1. a3 a5\n{comment}\n2. {third} b5 *\n\n"
    )
}

/// Each game's first line, start and findings (line, column, kind).
type Seen = Vec<(usize, u32, Vec<(usize, usize, FindingKind)>)>;

fn seen<'a>(games: impl IntoIterator<Item = &'a GameVerdict>) -> Seen {
    games
        .into_iter()
        .map(|game| {
            let findings = game.findings.iter();
            (
                game.line,
                game.plies,
                findings.map(|f| (f.line, f.column, f.kind)).collect(),
            )
        })
        .collect()
}

fn streamed(text: &[u8], threads: usize) -> (Seen, u64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut games = Vec::new();
    let mut bytes = 0;
    pool.install(|| {
        stream_games(text, CheckOptions::default(), |piece| {
            assert!(piece.overlong.is_none(), "{:?}", piece.overlong);
            games.extend(seen(&piece.games));
            bytes += piece.bytes;
            Ok(())
        })
    })
    .unwrap();
    (games, bytes)
}

#[test]
fn batches_on_any_number_of_threads_give_the_whole_texts_verdicts() {
    // About 1.3 MB: five blocks and more, so several batches on every thread count.
    let text: String = (0..7_000).map(|n| game(n, n % 97 == 5, "{a}")).collect();
    let whole = seen(&check_games(text.as_bytes(), CheckOptions::default(), 0));
    assert_eq!(whole.len(), 7_000);
    assert_eq!(whole.iter().filter(|g| !g.2.is_empty()).count(), 73);
    for threads in [1, 2, 3] {
        let (games, bytes) = streamed(text.as_bytes(), threads);
        assert_eq!(games, whole, "{threads} threads");
        assert_eq!(bytes, text.len() as u64, "{threads} threads");
    }
}

#[test]
fn a_line_too_long_to_keep_is_the_error_of_its_game_and_the_lines_after_stay_right() {
    // Twice the limit: a line is let through up to one read past it.
    let long = format!("{{{}}}", "x".repeat(2 * MAX_LINE_BYTES));
    let mut with_long = String::new();
    let mut with_short = String::new();
    for n in 0..3_000 {
        let defect = n % 101 == 7;
        with_long.push_str(&game(n, defect, if n == 1_500 { &long } else { "{a}" }));
        with_short.push_str(&game(n, defect, "{a}"));
    }
    let whole = seen(&check_games(
        with_short.as_bytes(),
        CheckOptions::default(),
        0,
    ));
    let long_line = whole[1_500].0 + 6;
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut games = Vec::new();
        pool.install(|| {
            stream_games(with_long.as_bytes(), CheckOptions::default(), |piece| {
                games.extend(piece.games.iter().cloned());
                Ok(())
            })
        })
        .unwrap();
        // The interrupted game ends at the line, with it as its error; the rest of its
        // movetext, after the line, is read as a game of its own; every other game is the
        // whole text's, at the same lines.
        assert_eq!(games.len(), whole.len() + 1, "{threads} threads");
        let kinds: Vec<_> = (games[1_500].findings.iter())
            .map(|f| (f.line, f.kind))
            .collect();
        assert!(
            kinds.contains(&(long_line, FindingKind::LineTooLong)),
            "{threads} threads: {kinds:?}"
        );
        assert_eq!(games[1_501].line, long_line + 1, "{threads} threads");
        let others = (games[..1_500].iter()).chain(&games[1_502..]);
        let expected = (whole[..1_500].iter()).chain(&whole[1_501..]);
        for (n, (game, expected)) in others.zip(expected).enumerate() {
            assert_eq!(&seen([game])[0], expected, "game {n}, {threads} threads");
        }
    }
}
