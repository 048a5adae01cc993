use super::*;

fn sp(n: u64) -> Start {
    Start::symmetric(StartPosition::new(n).unwrap())
}

// 000_b4ae807eff28481c.txt, "Example": "In the King's Table we will find No. 512
// "RNQKNR". For the remainder 6 we will find "--B--B--" in the Bishop's Table ... for the
// SP-518 = 512+6 this will result in the well known white starting array "RNBQKBNR"".
#[test]
fn sp_518_is_512_rnqknr_plus_6() {
    let explanation = explain(sp(518));
    let side = &explanation.sides[0];
    assert_eq!(side.scharnagl_tables.kings_row, 512);
    assert_eq!(side.scharnagl_tables.kings_order, "RNQKNR");
    assert_eq!(side.scharnagl_tables.bishops_entry, 6);
    assert_eq!(side.scharnagl_tables.bishops_pattern, "--B--B--");
    assert_eq!(
        explanation.text(),
        "SP 518: RNBQKBNR\n\
             Scharnagl's tables: 512 + 6 = 518\n  \
             King's table, row 512: RNQKNR (queen, knights, rooks and king on the six squares the bishops leave)\n  \
             Bishop's table, entry 6: --B--B--\n\
             Direct derivation:\n  \
             518 mod 4 = 2: light-square bishop on f1 (counting from 0: b1 d1 f1 h1)\n  \
             518 / 4 = 129, 129 mod 4 = 1: dark-square bishop on c1 (counting from 0: a1 c1 e1 g1)\n  \
             518 / 16 = 32, 32 mod 6 = 2: queen on d1 (counting from 0: a1 b1 d1 e1 g1 h1)\n  \
             518 / 96 = 5: knights -N-N- on b1 and g1 (of a1 b1 e1 g1 h1)\n  \
             rook, king, rook on the three squares left: a1, e1, h1\n\
             K-R-N sequence: 480 + 32 + 6 = 518\n  \
             rooks, king and knights in the order RNKNR: 5 × 96 = 480\n  \
             queen on the 3rd of the six squares the bishops leave (RNQKNR): 2 × 16 = 32\n  \
             bishops --B--B--: 6\n"
    );
}

// 003_d2eec170c7ca377a.txt, the K-R-N method: "Answer: RKNRN", "Answer: 8x96 = 768",
// "Answer: 5x16 = 80", "Answer: 12x1 = 12", "SP = 768 + 80 + 12 = 860!".
#[test]
fn sp_860_is_768_plus_80_plus_12() {
    let explanation = explain(sp(860));
    let krn = &explanation.sides[0].krn;
    assert_eq!(krn.sequence, "RKNRN");
    assert_eq!(
        (krn.sequence_value, krn.queen_value, krn.bishops_value),
        (768, 80, 12)
    );
    assert_eq!(krn.queen_place, 6);
    assert!(
        explanation
            .text()
            .contains("K-R-N sequence: 768 + 80 + 12 = 860\n")
    );
}

/// One side of `n` explained.
fn side(n: u64) -> SideExplanation {
    explain(sp(n)).sides.remove(0)
}

// 000_b4ae807eff28481c.txt, "King's table": each row's number and its "Positioning
// Sequence of the other Pieces", as printed (three columns read down), and "960 Q N N R
// K R" (the text's a): "Position number 960 is identical to position number 0").
#[test]
fn scharnagls_kings_table_as_printed() {
    let table = "QNNRKR NQNRKR NNQRKR NNRQKR NNRKQR NNRKRQ QNRNKR NQRNKR NRQNKR NRNQKR \
                     NRNKQR NRNKRQ QNRKNR NQRKNR NRQKNR NRKQNR NRKNQR NRKNRQ QNRKRN NQRKRN \
                     NRQKRN NRKQRN NRKRQN NRKRNQ QRNNKR RQNNKR RNQNKR RNNQKR RNNKQR RNNKRQ \
                     QRNKNR RQNKNR RNQKNR RNKQNR RNKNQR RNKNRQ QRNKRN RQNKRN RNQKRN RNKQRN \
                     RNKRQN RNKRNQ QRKNNR RQKNNR RKQNNR RKNQNR RKNNQR RKNNRQ QRKNRN RQKNRN \
                     RKQNRN RKNQRN RKNRQN RKNRNQ QRKRNN RQKRNN RKQRNN RKRQNN RKRNQN RKRNNQ";
    let rows: Vec<&str> = table.split_whitespace().collect();
    assert_eq!(rows.len(), 60);
    for (index, order) in rows.iter().enumerate() {
        let row = 16 * index as u64;
        for n in row..row + 16 {
            let tables = side(n).scharnagl_tables;
            assert_eq!(tables.kings_row, row as u16, "SP {n}");
            assert_eq!(tables.kings_order, *order, "SP {n}");
        }
    }
    assert_eq!(side(0).scharnagl_tables.kings_order, "QNNRKR", "960 is 0");
}

// 000_b4ae807eff28481c.txt, "Bishop's table": remainder 0 "B B - - - - - -" to 15 "- - -
// - - - B B"; "Then determine the difference (0 to 15) to the drawn number and select that
// matching bishops' positioning".
#[test]
fn scharnagls_bishops_table_as_printed() {
    let table = [
        "BB------", "B--B----", "B----B--", "B------B", "-BB-----", "--BB----", "--B--B--",
        "--B----B", "-B--B---", "---BB---", "----BB--", "----B--B", "-B----B-", "---B--B-",
        "-----BB-", "------BB",
    ];
    for (entry, pattern) in table.iter().enumerate() {
        for row in [0, 512, 944] {
            let tables = side(row + entry as u64).scharnagl_tables;
            assert_eq!(tables.bishops_entry, entry as u16);
            assert_eq!(
                tables.bishops_pattern,
                *pattern,
                "SP {}",
                row + entry as u64
            );
        }
    }
}

// 003_d2eec170c7ca377a.txt, Mark Weeks's tables: "NNRKR 000, NRNKR 096, NRKNR 192, NRKRN
// 288, RNNKR 384, RNKNR 480, RNKRN 576, RKNNR 672, RKNRN 768, RKRNN 864"; "Qxxxxx 00,
// xQxxxx 16, ... xxxxxQ 80"; the bishops "00 BBxxxxxx ... 15 xxxxxxBB" as Scharnagl's.
#[test]
fn the_krn_tables_as_printed() {
    let sequences = [
        ("NNRKR", 0),
        ("NRNKR", 96),
        ("NRKNR", 192),
        ("NRKRN", 288),
        ("RNNKR", 384),
        ("RNKNR", 480),
        ("RNKRN", 576),
        ("RKNNR", 672),
        ("RKNRN", 768),
        ("RKRNN", 864),
    ];
    for (sequence, value) in sequences {
        for n in [value, value + 17, value + 95] {
            let krn = side(u64::from(n)).krn;
            assert_eq!(
                (krn.sequence.as_str(), krn.sequence_value),
                (sequence, value)
            );
        }
    }
    for place in 1..=6u16 {
        let krn = side(u64::from(16 * (place - 1) + 3)).krn;
        assert_eq!(krn.queen_place, place);
        assert_eq!(krn.queen_value, 16 * (place - 1));
        assert_eq!(krn.six.find('Q'), Some(usize::from(place) - 1));
    }
}

// 001_3f9c619085c8d773.txt, "Starting with 118 as our Chess960 number": "Bw = n mod 4 =
// 2", "n = floor(n/4) = 29", "Bb = n mod 4 = 1", "n = floor(n/4) = 7", "Q = n mod 6 = 1",
// "n = floor(n/6) = 1", "N1=0, N2=2", "NQBRNBKR". The direct derivation shows the same.
#[test]
fn decoding_118_step_by_step() {
    let text = explain(sp(118)).text();
    for line in [
        "SP 118: NQBRNBKR\n",
        "  118 mod 4 = 2: light-square bishop on f1",
        "  118 / 4 = 29, 29 mod 4 = 1: dark-square bishop on c1",
        "  118 / 16 = 7, 7 mod 6 = 1: queen on b1",
        "  118 / 96 = 1: knights N-N-- on a1 and e1",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn every_start_adds_up_three_ways() {
    for start in StartPosition::all() {
        let side = explain(Start::symmetric(start)).sides.remove(0);
        let n = start.number();
        let t = &side.scharnagl_tables;
        assert_eq!(t.kings_row + t.bishops_entry, n);
        assert_eq!(t.kings_row % 16, 0);
        let k = &side.krn;
        assert_eq!(k.sequence_value + k.queen_value + k.bishops_value, n);
        let d = &side.direct;
        assert_eq!(
            d.light_bishop.digit
                + 4 * d.dark_bishop.digit
                + 16 * d.queen.digit
                + 96 * d.knights.digit,
            n
        );
        // The digits name the squares the pieces stand on.
        let rank = start.back_rank().roles();
        let file = |name: &str| usize::from(name.as_bytes()[0] - b'a');
        assert_eq!(rank[file(&d.light_bishop.squares[0])], Role::Bishop);
        assert_eq!(
            d.queen.among[usize::from(d.queen.digit)],
            d.queen.squares[0],
            "SP {n}"
        );
        let pattern_squares: Vec<&String> = d
            .knights
            .among
            .iter()
            .zip(d.knights_pattern.chars())
            .filter(|(_, c)| *c == 'N')
            .map(|(s, _)| s)
            .collect();
        assert_eq!(
            pattern_squares,
            d.knights.squares.iter().collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_dfrc_pair_explains_both_sides() {
    let explanation = explain("0:959".parse().unwrap());
    assert_eq!(explanation.kind, "DFRC");
    assert_eq!(explanation.sides.len(), 2);
    let text = explanation.text();
    assert!(text.starts_with(
            "DFRC 0:959: white BBQNNRKR (SP 0), black RKRNNQBB (SP 959)\nWhite, SP 0: BBQNNRKR\n  Scharnagl's tables: 0 + 0 = 0\n"
        ));
    assert!(text.contains("\nBlack, SP 959: RKRNNQBB\n"), "{text}");
    assert!(text.contains("rook, king, rook on the three squares left: a8, b8, c8"));
}

#[test]
fn inputs_are_specs_arrangements_or_fens() {
    assert_eq!(starts_of("860").unwrap(), [sp(860)]);
    assert_eq!(starts_of("RBKNRNBQ").unwrap(), [sp(860)]);
    assert_eq!(
        starts_of("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap(),
        [sp(860)]
    );
    assert_eq!(starts_of("0-2").unwrap().len(), 3);
    assert!(matches!(starts_of("960"), Err(ExplainError::Spec(_))));
    let err = starts_of("RNBQKBNX").unwrap_err();
    assert_eq!(
        err.to_string(),
        "explain: 'RNBQKBNX': not a Chess960 arrangement: 'X' at position 8 is not a piece letter (K, Q, R, B or N)"
    );
}

#[test]
fn json_is_structured_per_method() {
    let json: serde_json::Value = serde_json::from_str(&explain(sp(518)).json()).unwrap();
    assert_eq!(json["start"], "518");
    assert_eq!(json["sides"][0]["scharnagl_tables"]["kings_row"], 512);
    assert_eq!(json["sides"][0]["direct"]["queen"]["squares"][0], "d1");
    assert_eq!(json["sides"][0]["krn"]["sequence"], "RNKNR");
}
