//! One finished game as a PGN entry: the tags the issue lists, SAN moves (`O-O`,
//! `O-O-O` for Chess960 castling, shakmaty's `SanPlus`), the reason as a comment.

use std::fmt::Write as _;
use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use crate::protocol::uci::EngineScore;
use crate::starts::notation::{CastlingNotation, position_fen};

/// What a PGN entry is made of.
#[derive(Debug, Clone)]
pub struct GameRecord<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site` (`?` when unknown).
    pub site: &'a str,
    /// `Date`, `YYYY.MM.DD`.
    pub date: &'a str,
    /// `Round`.
    pub round: String,
    /// `White` and `Black`.
    pub white: &'a str,
    /// See `white`.
    pub black: &'a str,
    /// `TimeControl` (`-` without a clock).
    pub time_control: &'a str,
    /// The start.
    pub root: &'a Chess,
    /// The moves, legal from `root`.
    pub moves: &'a [Move],
    /// A comment after each move ([`move_comment`]); empty for none.
    pub move_comments: &'a [String],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'a str,
    /// `Termination`.
    pub termination: &'a str,
    /// The reason, as the final comment.
    pub comment: &'a str,
}

/// Escapes a tag value (`\` and `"`).
fn tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The entry, ending with a blank line.
pub fn pgn_entry(game: &GameRecord<'_>) -> String {
    let mut text = String::with_capacity(1024 + game.moves.len() * 8);
    let fen = position_fen(game.root, CastlingNotation::Shredder);
    let plies = game.moves.len().to_string();
    for (name, value) in [
        ("Event", game.event),
        ("Site", game.site),
        ("Date", game.date),
        ("Round", &game.round),
        ("White", game.white),
        ("Black", game.black),
        ("Result", game.result),
        ("Variant", "Chess960"),
        ("SetUp", "1"),
        ("FEN", &fen),
        ("PlyCount", &plies),
        ("Termination", game.termination),
        ("TimeControl", game.time_control),
    ] {
        let _ = writeln!(text, "[{name} \"{}\"]", tag_value(value));
    }
    text.push('\n');
    let mut tokens = Vec::with_capacity(game.moves.len() * 3 / 2 + 2);
    let mut position = game.root.clone();
    let first_number = position.fullmoves().get();
    for (index, m) in game.moves.iter().enumerate() {
        let white = position.turn().is_white();
        let number = position.fullmoves().get();
        if white {
            tokens.push(format!("{number}."));
        } else if index == 0 {
            tokens.push(format!("{first_number}..."));
        }
        tokens.push(SanPlus::from_move_and_play_unchecked(&mut position, *m).to_string());
        if let Some(comment) = game.move_comments.get(index) {
            tokens.push(format!("{{{}}}", comment.replace('}', ")")));
        }
    }
    tokens.push(format!("{{{}}}", game.comment.replace('}', ")")));
    tokens.push(game.result.to_owned());
    let mut width = 0;
    for token in tokens {
        if width > 0 && width + 1 + token.len() > 79 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(&token);
        width += token.len();
    }
    text.push_str("\n\n");
    text
}

/// A move's comment as fastchess writes it: `+0.35/12 0.105s`, the score from the mover's
/// view in pawns (`+M5`/`-M4` for mates, in plies; empty without an exact score), the
/// depth (0 without one), and the time the move took.
pub fn move_comment(score: Option<EngineScore>, depth: Option<u32>, used: Duration) -> String {
    let score = match score {
        None => String::new(),
        Some(EngineScore::Centipawns(cp)) => {
            let sign = match cp.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            format!("{sign}{:.2}", f64::from(cp.unsigned_abs()) / 100.0)
        }
        Some(EngineScore::Mate(n)) => {
            let n = i64::from(n);
            if n > 0 {
                format!("+M{}", n * 2 - 1)
            } else {
                format!("-M{}", -n * 2)
            }
        }
    };
    let millis = used.as_millis() as f64;
    format!("{score}/{} {:.3}s", depth.unwrap_or(0), millis / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::game::parse_fen;
    use crate::starts::castling::parse_move;

    #[test]
    fn sp_860_game_with_castling_in_san() {
        let (root, _) =
            parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
        let mut position = root.clone();
        let mut moves = Vec::new();
        for text in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1 c8e8".split(' ') {
            let m = parse_move(&position, text.as_bytes()).unwrap();
            position.play_unchecked(m);
            moves.push(m);
        }
        let entry = pgn_entry(&GameRecord {
            event: "sp960 match",
            site: "?",
            date: "2026.11.21",
            round: "3".to_owned(),
            white: "Stockfish 15.1",
            black: "Quote \"me\"",
            time_control: "40/60+0.6",
            root: &root,
            moves: &moves,
            move_comments: &[],
            result: "0-1",
            termination: "time forfeit",
            comment: "White loses on time: 61.2 s used, 60.0 s left",
        });
        assert!(entry.starts_with(
            "[Event \"sp960 match\"]\n[Site \"?\"]\n[Date \"2026.11.21\"]\n[Round \"3\"]\n"
        ));
        assert!(entry.contains("[Black \"Quote \\\"me\\\"\"]\n"));
        assert!(entry.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n[PlyCount \"10\"]\n[Termination \"time forfeit\"]\n[TimeControl \"40/60+0.6\"]\n\n"));
        assert!(
            entry.ends_with(
                "1. Nde3 Nde6 2. Ng3 Ng6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O\n{White loses on time: 61.2 s used, 60.0 s left} 0-1\n\n"
            ),
            "{entry}"
        );
    }

    #[test]
    fn move_comments_as_fastchess_writes_them() {
        let ms = Duration::from_millis;
        assert_eq!(
            move_comment(Some(EngineScore::Centipawns(35)), Some(12), ms(105)),
            "+0.35/12 0.105s"
        );
        assert_eq!(
            move_comment(Some(EngineScore::Centipawns(-120)), Some(9), ms(2)),
            "-1.20/9 0.002s"
        );
        assert_eq!(
            move_comment(Some(EngineScore::Centipawns(0)), Some(1), ms(1500)),
            "0.00/1 1.500s"
        );
        assert_eq!(
            move_comment(Some(EngineScore::Mate(3)), Some(20), ms(0)),
            "+M5/20 0.000s"
        );
        assert_eq!(
            move_comment(Some(EngineScore::Mate(-2)), Some(20), ms(0)),
            "-M4/20 0.000s"
        );
        assert_eq!(move_comment(None, None, ms(7)), "/0 0.007s");
        let root = Chess::default();
        let m = parse_move(&root, b"e2e4").unwrap();
        let entry = pgn_entry(&GameRecord {
            event: "e",
            site: "?",
            date: "d",
            round: "1".to_owned(),
            white: "w",
            black: "b",
            time_control: "-",
            root: &root,
            moves: &[m],
            move_comments: &["+0.35/12 0.105s".to_owned()],
            result: "1/2-1/2",
            termination: "adjudication",
            comment: "Draw by adjudication: --max-plies reached",
        });
        assert!(
            entry.ends_with(
                "1. e4 {+0.35/12 0.105s} {Draw by adjudication: --max-plies reached} 1/2-1/2\n\n"
            ),
            "{entry}"
        );
    }
}
