use super::super::schedule::position_fields;
use super::*;

const CUTECHESS: &str = r#"[Event "?"]
[Round "3"]
[White "a"]
[Black "b"]
[Result "0-1"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[PlyCount "4"]
[SetUp "1"]
[Termination "adjudication"]

1. c4 {+0.34/7 0.002s} b5 {-0.53/5 0.001s} 2. b3 {+0.54/7 0.002s}
bxc4 {-0.45/6 0.001s, Black wins by adjudication} 0-1

[Event "?"]
[Round "3"]
[White "b"]
[Black "a"]
[Result "1/2-1/2"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[SetUp "1"]

1. c4 b5 (1... e5 2. d4) 2. b3 $1 {Draw by 3-fold repetition} 1/2-1/2
"#;

#[test]
fn a_runners_games_are_read_with_their_start_plies_and_reason() {
    let games = read_games(CUTECHESS).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        RunnerGame {
            round: 3,
            white: "a".into(),
            black: "b".into(),
            result: "0-1".into(),
            line: 1,
            fen: Some("qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1".into()),
            termination: "adjudication".into(),
            reason: "Black wins by adjudication".into(),
            plies: 4,
        }
    );
    assert_eq!(games[1].plies, 3, "variations and NAGs are not moves");
    assert_eq!(games[1].reason, "Draw by 3-fold repetition");
    assert_eq!(games[1].termination, "normal");
    assert_eq!(games[1].line, 14);
    // fastchess's Shredder castling is the same position.
    let shredder = CUTECHESS.replace("w KQkq", "w HEhe");
    let fen = read_games(&shredder).unwrap()[0].fen.clone().unwrap();
    assert_eq!(
        position_fields(&fen),
        position_fields(games[0].fen.as_ref().unwrap())
    );
}

#[test]
fn a_bad_game_names_its_line() {
    let err = read_games("[Event \"?\"]\n\n1. e4 *\n").unwrap_err();
    assert_eq!(err.to_string(), "line 1: the game has no Round tag");
    let err = read_games("[Event \"?\"]\n[Round x]\n").unwrap_err();
    assert_eq!(err.to_string(), "line 2: a malformed tag pair: [Round x]");
    let bad_fen = CUTECHESS.replace("qbbnrnkr/", "qbbnrnk/");
    assert!(
        read_games(&bad_fen)
            .unwrap_err()
            .to_string()
            .starts_with("line 1: FEN '")
    );
    assert_eq!(read_games("").unwrap(), Vec::new());
}

#[test]
fn the_one_readers_grammar_holds_for_a_runners_pgn() {
    let text = "% a line the reader skips\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n\
                [Result \"1-0\"]\n\n1. e4! ; 1... e5 {not a move}\n1... e5 2. Qh5 \
                (2. Nf3 {Black resigns}) {White wins by adjudication} 1-0\n\n\
                [Round \"2\"]\n[White \"b\"]\n[Black \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\
                [Round 2]\n";
    let err = read_games(text).unwrap_err();
    assert_eq!(err.to_string(), "line 16: a malformed tag pair: [Round 2]");
    let games = read_games(&text[..text.len() - "[Round 2]\n".len()]).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0].line, games[0].plies, games[0].reason.as_str()),
        (2, 3, "White wins by adjudication"),
        "the `;` comment, the glyph and the variation are no plies, its comment not the end"
    );
    assert_eq!((games[1].line, games[1].plies, games[1].round), (10, 1, 2));
}
