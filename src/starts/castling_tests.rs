use super::*;

fn position(fen: &str) -> Chess {
    crate::starts::notation::chess960_position(fen)
}

fn text(pos: &Chess, input: &str, dialect: CastlingDialect) -> String {
    move_text(&parse_move(pos, input.as_bytes()).unwrap(), dialect)
}

/// SP 860 after 12 plies: king c1, rooks a1 and e1, both castlings legal.
const SP860_CASTLING: &str =
    "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7";

#[test]
fn sp860_reads_both_notations_and_writes_each_dialect() {
    let pos = position(SP860_CASTLING);
    // O-O: king c1 -> g1, rook e1 -> f1.
    for input in ["c1e1", "c1g1"] {
        let m = parse_move(&pos, input.as_bytes()).unwrap();
        assert_eq!(
            m,
            Move::Castle {
                king: Square::C1,
                rook: Square::E1
            },
            "{input}"
        );
        assert_eq!(move_text(&m, CastlingDialect::Chess960), "c1e1");
        assert_eq!(move_text(&m, CastlingDialect::Standard), "c1g1");
    }
    // O-O-O: the king stays on c1, so both dialects write king takes rook.
    let m = parse_move(&pos, b"c1a1").unwrap();
    assert_eq!(
        m,
        Move::Castle {
            king: Square::C1,
            rook: Square::A1
        }
    );
    assert_eq!(move_text(&m, CastlingDialect::Standard), "c1a1");
    // `c1c1`, what Stockfish writes for it with UCI_Chess960 off, reads as O-O-O too;
    // nothing here ever writes it.
    assert_eq!(parse_move(&pos, b"c1c1").unwrap(), m);
    // A plain king step is still a king step.
    assert_eq!(text(&pos, "c1d1", CastlingDialect::Standard), "c1d1");
}

#[test]
fn standard_start_castles_both_ways() {
    let pos = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    assert_eq!(text(&pos, "e1g1", CastlingDialect::Chess960), "e1h1");
    assert_eq!(text(&pos, "e1h1", CastlingDialect::Standard), "e1g1");
    assert_eq!(text(&pos, "e1c1", CastlingDialect::Chess960), "e1a1");
    assert_eq!(text(&pos, "e1a1", CastlingDialect::Standard), "e1c1");
    // e1f1 and e1d1 are king steps.
    assert_eq!(text(&pos, "e1f1", CastlingDialect::Chess960), "e1f1");
}

#[test]
fn a_king_step_wins_over_castling_to_the_same_square() {
    // King f1, rook h1: O-O puts the king on g1, and so does the step f1g1.
    let pos = position("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    let step = parse_move(&pos, b"f1g1").unwrap();
    assert!(!step.is_castle());
    let castle = parse_move(&pos, b"f1h1").unwrap();
    assert!(castle.is_castle());
    // Written in the standard dialect, castling stays king-takes-rook: f1g1 would read
    // back as the step.
    assert_eq!(move_text(&castle, CastlingDialect::Standard), "f1h1");
}

#[test]
fn king_takes_rook_reads_first() {
    // King b1, rooks a1 and c1: b1c1 is O-O (king takes the c1 rook), not O-O-O (whose
    // king would go to c1, but the c1 rook blocks it).
    let pos = position("1k6/8/8/8/8/8/8/RKR5 w CA - 0 1");
    assert_eq!(
        parse_move(&pos, b"b1c1").unwrap(),
        Move::Castle {
            king: Square::B1,
            rook: Square::C1
        }
    );
    assert!(parse_move(&pos, b"b1a1").is_err());
    assert_eq!(text(&pos, "b1c1", CastlingDialect::Standard), "b1g1");
    assert_eq!(text(&pos, "b1g1", CastlingDialect::Chess960), "b1c1");
}

#[test]
fn black_and_mate_positions() {
    // Mate in one by O-O-O with the king not moving (notes: position A).
    let pos = position("3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1");
    let m = parse_move(&pos, b"c1a1").unwrap();
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert!(after.is_checkmate());
    let black = position("rk2r3/8/8/8/8/8/8/7K b ea - 0 1");
    assert_eq!(text(&black, "b8g8", CastlingDialect::Chess960), "b8e8");
    assert_eq!(text(&black, "b8e8", CastlingDialect::Standard), "b8g8");
    assert_eq!(text(&black, "b8a8", CastlingDialect::Standard), "b8a8");
}

#[test]
fn errors_name_the_move() {
    let pos = Chess::default();
    assert_eq!(
        parse_move(&pos, b"e2e5"),
        Err(MoveError::Illegal("e2e5".into()))
    );
    assert_eq!(
        parse_move(&pos, b"xyz"),
        Err(MoveError::Syntax("xyz".into()))
    );
    assert_eq!(parse_move(&pos, b"0000"), Err(MoveError::Null));
    assert!(
        MoveError::Illegal("e2e5".into())
            .to_string()
            .contains("e2e5")
    );
    assert_eq!(text(&pos, "g1f3", CastlingDialect::Standard), "g1f3");
}

#[test]
fn promotions_and_en_passant_survive() {
    let pos = position("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(text(&pos, "b7b8n", CastlingDialect::Standard), "b7b8n");
    assert_eq!(text(&pos, "e5d6", CastlingDialect::Chess960), "e5d6");
    assert!(parse_move(&pos, b"b7b8").is_err());
}

#[test]
fn lines_translate_until_the_first_bad_token() {
    let pos = position(SP860_CASTLING);
    let mut out = Vec::new();
    let tokens: Vec<&[u8]> = vec![b"c1e1", b"g6f4", b"g3f5", b"junk", b"e1g1"];
    translate_moves(&pos, tokens, CastlingDialect::Standard, &mut out);
    assert_eq!(out, b"c1g1 g6f4 g3f5 junk e1g1");
}

#[test]
fn castling_texts_cover_both_notations() {
    let pos = position(SP860_CASTLING);
    let texts: Vec<String> = castling_texts(&pos)
        .iter()
        .map(|t| String::from_utf8(t.to_vec()).unwrap())
        .collect();
    for expected in ["c1e1", "c1g1", "c1a1", "c8e8", "c8g8", "c8a8"] {
        assert!(
            texts.contains(&expected.to_string()),
            "{expected} in {texts:?}"
        );
    }
    assert!(castling_texts(&position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).is_empty());
    let filter = CastlingFilter::new(&pos);
    assert!(filter.might_match(b"info depth 3 pv c1e1 g6f4"));
    assert!(filter.might_match(b"c8g8"));
    assert!(!filter.might_match(b"info depth 3 pv d2c1 c1d1 xc1e1 g6f4"));
    assert!(!filter.might_match(b"info depth 3 pv c1e"));
}
