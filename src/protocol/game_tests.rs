use super::*;

#[test]
fn take_back_replays_from_the_root() {
    let mut line = GameLine::new(Chess::default());
    for text in ["e2e4", "e7e5", "g1f3"] {
        line.push_text(text.as_bytes()).unwrap();
    }
    assert!(line.take_back(2));
    assert_eq!(line.moves.len(), 1);
    let mut expected = GameLine::new(Chess::default());
    expected.push_text(b"e2e4").unwrap();
    assert_eq!(line.current, expected.current);
    assert!(!line.take_back(2), "only one move left");
    assert_eq!(line.moves.len(), 1, "unchanged");
}

#[test]
fn rebased_keeps_the_position_and_the_reversible_tail() {
    let mut line = GameLine::new(Chess::default());
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3"] {
        line.push_text(text.as_bytes()).unwrap();
    }
    // After e7e5 (the last pawn move) five reversible moves follow.
    let rebased = line.rebased(100);
    assert_eq!(rebased.moves.len(), 5);
    assert_eq!(rebased.current, line.current);
    assert_eq!(
        EngineChess::Standard.fen(&rebased.root),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // At most `keep` plies stay; the halfmove clock carries the rest.
    let short = line.rebased(2);
    assert_eq!(short.moves.len(), 2);
    assert_eq!(short.current, line.current);
    assert_eq!(short.root.halfmoves(), 3);
    // A castling move is irreversible too (the rights change).
    let (root, _) = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20").unwrap();
    let mut line = GameLine::new(root);
    for text in ["e1h1", "e8d8", "f1e1"] {
        line.push_text(text.as_bytes()).unwrap();
    }
    assert_eq!(line.rebased(100).moves.len(), 1);
}

#[test]
fn broken_fens_are_refused_with_the_reason() {
    for (fen, reason) in [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "empty board"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "missing king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "too many kings"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "opposite check"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawns on backrank"),
        ("garbage", "FEN"),
        ("", "FEN"),
        ("8/8/8/8/8/8/8/8/8 w - - 0 1", "FEN"),
    ] {
        let err = parse_fen(fen).unwrap_err();
        assert!(err.to_string().contains(reason), "{fen}: {err}");
        assert!(err.to_string().contains(fen), "{fen}: {err}");
    }
}

#[test]
fn stale_castling_rights_are_dropped_with_a_note() {
    let (pos, notes) = parse_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
    assert!(pos.castles().is_empty());
    assert_eq!(notes, ["invalid castling rights dropped"]);
    let (_, notes) = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert!(notes.is_empty());
}

#[test]
fn moves_are_checked_one_by_one() {
    let mut line = GameLine::new(Chess::default());
    line.push_text(b"e2e4").unwrap();
    let err = line.push_text(b"e2e4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 2 of the list: 'e2e4' is not a legal move here"
    );
}

#[test]
fn standard_engines_get_a_line_without_chess960_castling() {
    // SP 860 (RBKNRNBQ): no castling right a standard engine can express.
    let (root, _) = parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
    let mut line = GameLine::new(root);
    for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6 c1e1 a7a6".split(' ') {
        line.push_text(m.as_bytes()).unwrap();
    }
    let standard = line.for_standard_engine();
    assert_eq!(standard.moves.len(), 1, "rebased after the castling move");
    assert_eq!(
        EngineChess::Standard.fen(&standard.root),
        "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R4RKQ b - - 3 7"
    );
    assert_eq!(standard.current.board(), line.current.board());
    // The standard array keeps its rights and its history.
    let mut line = GameLine::new(Chess::default());
    line.push_text(b"g1f3").unwrap();
    let standard = line.for_standard_engine();
    assert_eq!(standard.moves.len(), 1);
    assert_eq!(
        EngineChess::Standard.fen(&standard.root),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}
#[test]
fn shared_castling_files_need_one_king_file_and_one_rook_file_per_wing() {
    let fits = |fen: &str| shared_castling_files(&parse_fen(fen).unwrap().0);
    // A Chess960 start (both colours alike) and the standard array fit.
    assert!(fits(
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1"
    ));
    assert!(fits(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ));
    // Different starts: the king files differ (g1, d8).
    assert!(!fits(
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1"
    ));
    // Same king file, other king-side rook files (h1, g8).
    assert!(!fits(
        "rnbqkbr1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAga - 0 1"
    ));
    // One colour without rights, or rights on different wings only: nothing to share.
    assert!(fits(
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HD - 0 1"
    ));
    assert!(fits(
        "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Ah - 0 1"
    ));
}

#[test]
fn engines_with_shared_castling_files_get_rights_they_can_hold() {
    let line_from = |fen: &str, moves: &str| {
        let mut line = GameLine::new(parse_fen(fen).unwrap().0);
        for m in moves.split_whitespace() {
            line.push_text(m.as_bytes()).unwrap();
        }
        line
    };
    let fen = |line: &GameLine| position_fen(&line.root, CastlingNotation::Shredder);
    // Rights that fit: the line as it is.
    let line = line_from(
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
        "d1e3 d8e6",
    );
    let shared = line.for_shared_castling_files();
    assert_eq!(fen(&shared), fen(&line));
    assert_eq!(shared.moves, line.moves);
    // They fit once a king has moved: the line starts there and keeps every right
    // (no earlier position can repeat after the rights changed).
    let start = "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1";
    let line = line_from(start, "e2e4 e7e5 f1e2 d8e7 e2d3");
    let shared = line.for_shared_castling_files();
    assert_eq!(
        fen(&shared),
        "rnq1nrbb/ppppkppp/8/4p3/4P3/8/PPPPBPPP/BNQRN1KR w HD - 2 3"
    );
    assert_eq!(shared.moves.len(), 1);
    assert_eq!(shared.current, line.current);
    // They never fit: the side to move at the end keeps its rights, the other colour
    // loses those that do not share its files; the moves stay.
    let line = line_from(start, "b2b4 e7e6 b4b5 f7f6 e1f3 c7c5");
    let shared = line.for_shared_castling_files();
    assert_eq!(
        fen(&shared),
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HD - 0 1"
    );
    assert_eq!(shared.moves, line.moves);
    assert_eq!(shared.current.board(), line.current.board());
    assert_eq!(shared.current.turn(), line.current.turn());
    let line = line_from(start, "b2b4 e7e6 b4b5 f7f6 e1f3");
    assert_eq!(
        fen(&line.for_shared_castling_files()),
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w fa - 0 1"
    );
    // A castling move in the list: the line starts after it, where only black has
    // rights left.
    let line = line_from(
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQR2KR w HDfa - 0 1",
        "g1h1 e7e6",
    );
    let shared = line.for_shared_castling_files();
    assert_eq!(
        fen(&shared),
        "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQR1RK1 b fa - 1 1"
    );
    assert_eq!(shared.moves.len(), 1);
    assert_eq!(shared.current, line.current);
}
