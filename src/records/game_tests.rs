use super::*;
use crate::records::pgn::{comment_open_after, complete_games, game_starts};

fn games(text: &str) -> Vec<GameVerdict> {
    check_games(text.as_bytes(), CheckOptions::default(), 0)
}

/// Each finding as `LINE:COL: severity: message`.
fn findings(text: &str) -> Vec<String> {
    games(text)
        .iter()
        .flat_map(|game| game.findings.iter())
        .map(|f| {
            let severity = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            format!("{}:{}: {severity}: {}", f.line, f.column, f.message)
        })
        .collect()
}

const SP860: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";

/// From SP 860, both sides clear the king's path and castle king-side.
const CASTLED: &str = "1. Nc3 Nc6 2. Ne3 Ne6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O";

#[test]
fn a_game_replays_from_its_fen_in_chess960() {
    // SP 860 castles O-O once d1, f1 and g1 are clear: king c1 to g1, rook e1 to f1.
    let text = format!(
        "[Event \"t\"]\n[Variant \"Chess960\"]\n[FEN \"{SP860}\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n{CASTLED} *\n"
    );
    let games = games(&text);
    assert_eq!(games.len(), 1);
    assert!(games[0].is_valid(), "{games:?}");
    assert_eq!(games[0].plies, 10);
    assert_eq!(games[0].line, 1);
}

#[test]
fn the_second_move_illegal_is_located_with_the_position_and_why() {
    // Issue 39's example: from SP 860 the queen on h1 cannot reach h7 (the h-pawn).
    let text = format!(
        "[White \"A\"]\n[Black \"B\"]\n[Round \"3\"]\n[Variant \"chess 960\"]\n[FEN \"{SP860}\"]\n\n1. e4 e5 2. Qxh7 *\n"
    );
    assert_eq!(
        findings(&text),
        [
            "7:13: error: game at line 1 (A - B, round 3): 2. Qxh7 (White): illegal: no queen can go to h7, in rbknrnbq/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RBKNRNBQ w EAea - 0 2"
        ]
    );
}

#[test]
fn variations_are_replayed_from_their_own_positions_at_any_depth() {
    let ok = "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *\n";
    assert!(games(ok)[0].is_valid(), "{:?}", findings(ok));
    assert_eq!(games(ok)[0].plies, 3);
    // An illegal move inside a variation: 2... Nf6?? after 1... c5 2. Nf3 (c5 is no knight).
    let bad = "1. e4 e5 (1... c5 2. Nf3 Nc5) 2. Nf3 *\n";
    let found = findings(bad);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(
            "1:26: error: game at line 1: 2... Nc5 (Black): illegal: no knight can go to c5"
        ),
        "{found:?}"
    );
    // Nested 10^5 deep: no stack overflow, the depth is no problem.
    let deep = format!(
        "1. e4 {}e5{} *\n",
        "(1. d4 ".repeat(100_000),
        ")".repeat(100_000)
    );
    let verdicts = games(&deep);
    assert!(verdicts[0].is_valid(), "{:?}", verdicts[0].findings.first());
    // Unclosed and unopened.
    assert!(findings("1. e4 (1. d4 d5 *\n")[0].contains("is never closed"));
    assert!(findings("1. e4 ) e5 *\n")[0].contains("a `)` with no `(` open"));
}

#[test]
fn the_start_comes_from_the_tags_whatever_the_producer_wrote() {
    // Every known spelling of the variant; X-FEN castling; FEN without SetUp.
    for variant in [
        "Chess960",
        "chess 960",
        "chess-960",
        "fischerandom",
        "Fischerandom",
        "Fischer Random",
    ] {
        let text = format!(
            "[Variant \"{variant}\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\"]\n\n{CASTLED} *\n"
        );
        assert_eq!(findings(&text), Vec::<String>::new(), "{variant}");
    }
    // An unknown variant is an error at its value.
    let found = findings("[Variant \"Atomic\"]\n\n1. e4 *\n");
    assert!(
        found[0].starts_with("1:11: error: game at line 1: unknown Variant `Atomic`"),
        "{found:?}"
    );
    // A Chess960 start without a Chess960 Variant tag: read as Chess960, with a warning.
    let found = findings(&format!("[FEN \"{SP860}\"]\n\n{CASTLED} *\n"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("1:7: warning: game at line 1: no Chess960 Variant tag"),
        "{found:?}"
    );
    // No FEN in a Chess960 game: SP 518 and a warning; the first move that does not
    // replay from there is the error.
    let found = findings("[Variant \"Chess960\"]\n\n1. e4 e5 2. O-O *\n");
    assert!(
        found[0].starts_with("1:11: warning: game at line 1: a Chess960 game without a FEN tag"),
        "{found:?}"
    );
    assert!(found[1].starts_with("3:13: error: game at line 1: 2. O-O (White): illegal: king-side (O-O) castling with the rook on h1: a piece stands between"), "{found:?}");
    // `[FEN "?"]`, an unreadable FEN (its column inside the value), two FEN tags.
    assert!(
        findings("[FEN \"?\"]\n\n*\n")[0]
            .starts_with("1:7: error: game at line 1: this game has no start")
    );
    let found = findings(&format!(
        "[Event \"x\"]\n[FEN \"{}\"]\n\n*\n",
        SP860.replace(" 0 1", " 0 x")
    ));
    assert!(
        found[0].starts_with("2:62: error: game at line 1: FEN tag: fullmove number"),
        "{found:?}"
    );
    let two = format!(
        "[FEN \"{SP860}\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\"]\n[Variant \"Chess960\"]\n\n*\n"
    );
    let found = findings(&two);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .contains("warning: game at line 1: two FEN tags (lines 1 and 2), the same position"),
        "{found:?}"
    );
    let differ = format!(
        "[FEN \"{SP860}\"]\n[FEN \"{}\"]\n\n*\n",
        SP860.replace(" w ", " b ")
    );
    assert!(findings(&differ)[0].contains("error: game at line 1: two FEN tags that disagree"));
}

#[test]
fn castling_through_an_attacked_square_is_named() {
    // 4r1k1/8/8/8/8/8/8/1K5R w H: the king's path b1-g1 crosses e1, attacked from e8.
    let text = "[Variant \"Chess960\"]\n[FEN \"4r1k1/8/8/8/8/8/8/1K5R w H - 0 1\"]\n\n1. O-O *\n";
    let found = findings(text);
    assert!(found[0].contains("1. O-O (White): illegal: king-side (O-O) castling with the rook on h1: the king would pass through or land on an attacked square"), "{found:?}");
}

#[test]
fn results_are_held_against_the_marker_and_the_board() {
    // Fool's mate, written as a draw.
    let text = "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
    let found = findings(text);
    assert_eq!(
        found,
        [
            "3:21: warning: game at line 1: the game ends in checkmate (0-1), but its result is 1/2-1/2"
        ]
    );
    let found = findings("[Result \"1-0\"]\n\n1. e4 0-1\n");
    assert!(
        found[0].contains("the Result tag says 1-0, the movetext ends with 0-1"),
        "{found:?}"
    );
    let found = findings("1. e4 e5\n");
    assert!(found[0].contains("no termination marker"), "{found:?}");
}

#[test]
fn annotations_and_not_san() {
    let text = "1. e4! {a comment} e5?! $1 ; rest of line\n% escaped line\n2. Nf3 d5 3. exd5 c5 4. dxc6 e.p. *\n";
    assert!(games(text)[0].is_valid(), "{:?}", findings(text));
    let found = findings("1. e4 xyz *\n");
    assert!(
        found[0].starts_with("1:7: error: game at line 1: 1... `xyz` (Black): not SAN"),
        "{found:?}"
    );
    let found = findings("1. e4 {never closed\n");
    assert!(found[0].contains("never closed"), "{found:?}");
}

#[test]
fn games_are_cut_where_a_tag_follows_movetext() {
    let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n[Event \"d\"]\n1. c4 *\n";
    let starts: Vec<usize> = game_starts(text).collect();
    assert_eq!(starts, [33, 54]);
    assert!(text[33..].starts_with(b"[Event \"c\"]"));
    assert!(text[54..].starts_with(b"[Event \"d\"]"));
}

/// Bad input gets located findings, never a panic or a hang (scripts/fuzz-records.sh runs
/// these with more cases, beside the record parser's).
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn cases() -> u32 {
        std::env::var("SP960_FUZZ_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(500)
    }

    /// Every finding's line is a line of the text, its column at least 1.
    fn located(text: &[u8]) {
        let lines = text.split(|b| *b == b'\n').count();
        for game in check_games(text, CheckOptions::default(), 0) {
            assert!((1..=lines).contains(&game.line), "{game:?}");
            for finding in &game.findings {
                assert!((1..=lines).contains(&finding.line), "{finding:?}");
                assert!(finding.column >= 1, "{finding:?}");
            }
        }
    }

    /// Tokens games are made of, and strangers.
    fn game_like() -> impl Strategy<Value = Vec<u8>> {
        let tokens: Vec<&'static [u8]> = vec![
            b"[Event \"x\"]\n",
            b"[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n",
            b"[Variant \"Chess960\"]\n",
            b"[FEN \"?\"]\n",
            b"[Result \"1-0\"]\n",
            b"[Bad\n",
            b"1.",
            b" e4",
            b" e5",
            b" Nf3",
            b" Nc3",
            b" O-O",
            b" O-O-O",
            b" 0-0",
            b" Qxh7",
            b" exd6",
            b" e.p.",
            b" (",
            b" )",
            b" {",
            b" }",
            b" ;c\n",
            b"\n%x\n",
            b" $1",
            b"!?",
            b" 1-0",
            b" *",
            b" 1/2-1/2",
            b"\n\n",
            b" =Q",
            b" e8=Q+",
            b"\r\n",
            b"\0",
            b"\xff",
        ];
        prop::collection::vec(prop::sample::select(tokens), 0..60).prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        #[test]
        fn fuzz_games_any_bytes_are_located(text in prop::collection::vec(any::<u8>(), 0..400)) {
            located(&text);
        }

        #[test]
        fn fuzz_games_game_like_text_is_located(text in game_like()) {
            located(&text);
        }
    }

    #[test]
    fn hostile_shapes_are_located_quickly() {
        // Unterminated variations and comments nested deep, a file cut mid-game, a long line.
        for text in [
            "1. e4 (".repeat(100_000),
            format!("1. e4 {}", "{".repeat(100_000)),
            "[Event \"a\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n1. Nc3 Nc6 2. N".to_owned(),
            format!("1. e4 {{{}}} e5 *\n", "x".repeat(10_000_000)),
        ] {
            let begun = std::time::Instant::now();
            located(text.as_bytes());
            assert!(begun.elapsed().as_secs() < 20, "{:?}", begun.elapsed());
        }
    }
}

#[test]
fn a_comment_over_lines_is_never_cut_even_where_a_line_begins_with_a_bracket() {
    // pgn-extract wraps comments at 75 columns; a clock annotation can then begin a line.
    let game = "[Event \"a\"]\n\n1. e4 {a long comment\n[%clk 0:02:50]} e5 2. Nf3 {x; y\n[%eval 0.2]} *\n\n";
    let text = game.repeat(3);
    let starts: Vec<usize> = game_starts(text.as_bytes()).collect();
    assert_eq!(starts, [game.len(), 2 * game.len()]);
    let verdicts = check_games(text.as_bytes(), CheckOptions::default(), 0);
    assert_eq!(verdicts.len(), 3);
    assert!(verdicts.iter().all(GameVerdict::is_valid), "{verdicts:?}");
    // A `;` comment hides a brace to the end of its line.
    assert!(!comment_open_after(b"1. e4 ; {not a comment", false));
    assert!(comment_open_after(b"1. e4 {open", false));
    assert!(!comment_open_after(b"closed} e5", true));
}

#[test]
fn a_null_move_is_a_pass_with_a_warning_and_never_out_of_check() {
    let found = findings("1. e4 e5 2. -- Nc6 3. -- Nf6 *\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(
            "1:13: warning: game at line 1: 2. -- (White): a null move, played as a pass"
        ),
        "{found:?}"
    );
    assert_eq!(games("1. e4 e5 2. -- Nc6 *\n")[0].plies, 4);
    let found = findings("1. f3 e5 2. g4 Qh4+ 3. -- *\n");
    assert!(
        found[0].contains("error: game at line 1: 3. -- (White): a null move while in check"),
        "{found:?}"
    );
}

#[test]
fn a_tail_longer_than_any_game_is_checked_as_it_stands() {
    let text = b"[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n\n1. d4 {never closed and long";
    let starts: Vec<usize> = game_starts(text).collect();
    assert_eq!(starts, [21]);
    // The last game waits for the rest of the stream, unless it is already too long.
    assert_eq!(complete_games(text, &starts, false, 1000), 21);
    assert_eq!(complete_games(text, &starts, false, 10), text.len());
    assert_eq!(complete_games(text, &starts, true, 1000), text.len());
    assert_eq!(complete_games(&text[21..], &[], false, 1000), 0);
    assert_eq!(complete_games(&text[21..], &[], false, 5), text.len() - 21);
}

#[test]
fn castling_is_written_with_zeros_or_letters_not_both() {
    let text = "[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n1. Nc3 Nc6 2. Ne3 Ne6 3. f4 f5 4. Bf2 Bf7 5.0-0 0-0 *\n";
    assert!(games(text)[0].is_valid(), "{:?}", findings(text));
    let mixed = text.replace("5.0-0 0-0", "5.0-O");
    assert!(
        findings(&mixed)[1].contains("`5.0-O` (White): not SAN"),
        "{:?}",
        findings(&mixed)
    );
}
