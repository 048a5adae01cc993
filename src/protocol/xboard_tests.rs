use super::*;
use crate::protocol::game::parse_fen;
use shakmaty::{Position, Square};

fn position(fen: &str) -> Chess {
    parse_fen(fen).unwrap().0
}

#[test]
fn every_castling_notation_reads_as_the_same_move() {
    let pos = position("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1");
    let mut pos = pos;
    for m in [
        "d1e3", "d8e6", "f1g3", "f8g6", "f2f4", "f7f5", "g1f2", "g8f7",
    ] {
        let m = parse_xboard_move(&pos, m.as_bytes()).unwrap();
        pos.play_unchecked(m);
    }
    let king_side = Move::Castle {
        king: Square::C1,
        rook: Square::E1,
    };
    for text in ["O-O", "0-0", "O-O+", "c1e1", "c1g1"] {
        assert_eq!(
            parse_xboard_move(&pos, text.as_bytes()),
            Ok(king_side),
            "{text}"
        );
    }
    assert_eq!(xboard_move_text(&king_side, CastlingForm::OO), "O-O");
    assert_eq!(
        xboard_move_text(
            &king_side,
            CastlingForm::Coordinate(CastlingDialect::Chess960)
        ),
        "c1e1"
    );
    assert_eq!(
        castling_form_of(&king_side, b"c1e1"),
        Some(CastlingForm::Coordinate(CastlingDialect::Chess960))
    );
    assert_eq!(
        castling_form_of(&king_side, b"c1g1"),
        Some(CastlingForm::Coordinate(CastlingDialect::Standard))
    );
    assert_eq!(castling_form_of(&king_side, b"O-O"), Some(CastlingForm::OO));
    // O-O-O is blocked here (b1 bishop): legal-looking text, illegal move.
    assert_eq!(
        parse_xboard_move(&pos, b"O-O-O"),
        Err(MoveError::Illegal("O-O-O".into()))
    );
}

#[test]
fn sp860_queen_side_where_the_king_stays() {
    let pos = position("r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7");
    let queen_side = parse_xboard_move(&pos, b"O-O-O").unwrap();
    assert_eq!(
        queen_side,
        Move::Castle {
            king: Square::C1,
            rook: Square::A1
        }
    );
    assert_eq!(parse_xboard_move(&pos, b"c1a1"), Ok(queen_side));
    assert_eq!(parse_xboard_move(&pos, b"c1c1"), Ok(queen_side));
    // Written for a king-to-destination peer it stays king takes rook (c1c1 is no move).
    assert_eq!(
        xboard_move_text(
            &queen_side,
            CastlingForm::Coordinate(CastlingDialect::Standard)
        ),
        "c1a1"
    );
    assert_eq!(xboard_move_text(&queen_side, CastlingForm::OO), "O-O-O");
}

#[test]
fn san_and_shapes() {
    let pos = Chess::default();
    assert_eq!(
        parse_xboard_move(&pos, b"Nf3"),
        parse_xboard_move(&pos, b"g1f3")
    );
    assert!(parse_xboard_move(&pos, b"e4").is_ok());
    assert_eq!(
        parse_xboard_move(&pos, b"Nf5"),
        Err(MoveError::Illegal("Nf5".into()))
    );
    assert_eq!(
        parse_xboard_move(&pos, b"O-O"),
        Err(MoveError::Illegal("O-O".into()))
    );
    for text in [
        "e2e4", "e7e8q", "O-O-O", "0-0", "Nf3", "exd5", "e8=Q+", "Kxh1",
    ] {
        assert!(looks_like_move(text.as_bytes()), "{text}");
    }
    for text in [
        "new", "go", "force", "easy", "hard", "draw", "post", "c", "#", ".", "?", "e9", "xyzzy",
        "level",
    ] {
        assert!(!looks_like_move(text.as_bytes()), "{text}");
    }
}

#[test]
fn features_refusals_and_time_controls() {
    let pairs = feature_pairs(b"feature setboard=1 myname=\"Sjaak II 1.4.1\" done=1");
    assert_eq!(
        pairs,
        [
            (&b"setboard"[..], &b"1"[..]),
            (b"myname", b"Sjaak II 1.4.1"),
            (b"done", b"1")
        ]
    );
    assert_eq!(
        rejected_command(b"Error (unkown command): O-O-o"),
        Some(&b"O-O-o"[..])
    );
    assert_eq!(rejected_command(b"Illegal move: e2e5"), Some(&b"e2e5"[..]));
    assert_eq!(rejected_command(b"move e2e4"), None);
    let level = Level::parse("40 1:30 0.5").unwrap();
    assert_eq!(level.base, Duration::from_secs(90));
    assert_eq!(level.to_string(), "level 40 1:30 0.5");
    assert_eq!(Level::parse("0 2 0").unwrap().to_string(), "level 0 2 0");
    assert_eq!(Level::parse("x 1 0"), None);
    assert_eq!(Level::parse("0 99999999999999999999:00 0"), None);
    assert_eq!(parse_seconds("-1"), None);
    assert_eq!(parse_centiseconds("-5"), Some(Duration::ZERO));
    assert_eq!(
        parse_centiseconds("9223372036854775807"),
        Some(Duration::from_millis(u64::MAX)),
        "saturated, not wrapped"
    );
    assert_eq!(clock_line("otim", Duration::from_millis(1234)), "otim 123");
}

#[test]
fn level_base_times() {
    let base = |base: Duration| {
        Level {
            moves_per_session: 0,
            base,
            increment: Duration::ZERO,
        }
        .to_string()
    };
    assert_eq!(base(Duration::from_secs(120)), "level 0 2 0");
    assert_eq!(base(Duration::from_secs(90)), "level 0 1:30 0");
    assert_eq!(base(Duration::from_millis(500)), "level 0 0:01 0");
    assert_eq!(seconds_text(Duration::from_millis(600)), "0.6");
    assert_eq!(seconds_text(Duration::from_secs(2)), "2");
}
