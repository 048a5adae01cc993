use super::*;
use shakmaty::{Board, Color, File, Rank, Square};

fn sp(n: u64) -> StartPosition {
    StartPosition::new(n).unwrap()
}

// The texts' examples: 000_b4ae807eff28481c.txt "SP-518 = 512+6 ... "RNBQKBNR"";
// 003_d2eec170c7ca377a.txt "RBKNRNBQ ... Google says it is SP860"; 002_1e5e9696fc39c650.txt
// "1011000011, or 707, which in the Chess960 numbering scheme is the starting position
// BRKQNNRB"; 001_3f9c619085c8d773.txt "NQBRNBKR ... n = 118".
#[test]
fn reference_numbers() {
    for (n, rank) in [
        (518, "RNBQKBNR"),
        (0, "BBQNNRKR"),
        (959, "RKRNNQBB"),
        (860, "RBKNRNBQ"),
        (707, "BRKQNNRB"),
        (118, "NQBRNBKR"),
    ] {
        assert_eq!(sp(n).back_rank().to_string(), rank, "SP {n}");
        assert_eq!(rank.parse::<BackRank>().unwrap().number(), sp(n), "{rank}");
    }
    assert_eq!(STANDARD.back_rank().to_string(), "RNBQKBNR");
}

/// Cottrell's indices of an arrangement (001_3f9c619085c8d773.txt, "Definitions"): the
/// knights N1 < N2 among the five squares the bishops and queen leave, the queen Q among
/// the six the bishops leave, the dark and light bishops Bb and Bw among their four.
fn cottrell_indices(rank: &BackRank) -> [u16; 5] {
    let roles = rank.roles();
    let file = |role: Role, odd: bool| {
        (0..8u16).find(|&f| roles[usize::from(f)] == role && (f % 2 == 1) == odd)
    };
    let bb = file(Role::Bishop, false).unwrap() / 2;
    let bw = (file(Role::Bishop, true).unwrap() - 1) / 2;
    let six: Vec<Role> = roles.into_iter().filter(|&r| r != Role::Bishop).collect();
    let q = six.iter().position(|&r| r == Role::Queen).unwrap() as u16;
    let five: Vec<Role> = six.into_iter().filter(|&r| r != Role::Queen).collect();
    let knights: Vec<u16> = (0..5u16)
        .filter(|&i| five[usize::from(i)] == Role::Knight)
        .collect();
    [knights[0], knights[1], q, bb, bw]
}

/// Cottrell's encoding: N = 9 − (T(3 − N1) + (4 − N2)), T the triangular numbers, and
/// n = Bw + 4 Bb + 16 Q + 96 N.
fn cottrell_number([n1, n2, q, bb, bw]: [u16; 5]) -> u16 {
    let triangular = |k: u16| k * (k + 1) / 2;
    let n = 9 - (triangular(3 - n1) + (4 - n2));
    bw + 4 * bb + 16 * q + 96 * n
}

// 001_3f9c619085c8d773.txt: "NxNxx N1=0, N2=2", "N=9-(6+2)=1", "xQxxxx Q=1", "Bb=1",
// "Bw=2", "In our case, n = 118."; and back from 118, the p.s.: "if n<4 then N1=0 else if
// n<7 then N1=1 else if n<9 then N1=2 else N1=3", then N2 from the equation.
#[test]
fn cottrells_table_free_numbers() {
    let rank: BackRank = "NQBRNBKR".parse().unwrap();
    assert_eq!(cottrell_indices(&rank), [0, 2, 1, 1, 2]);
    assert_eq!(cottrell_number([0, 2, 1, 1, 2]), 118);
    assert_eq!(rank.number(), sp(118));
    for start in StartPosition::all() {
        let indices = cottrell_indices(&start.back_rank());
        assert_eq!(cottrell_number(indices), start.number(), "SP {start}");
        let n = start.number() / 96;
        let n1 = match n {
            0..4 => 0,
            4..7 => 1,
            7..9 => 2,
            _ => 3,
        };
        let t = (3 - n1) * (4 - n1) / 2;
        assert_eq!([n1, n + t - 5], indices[..2], "SP {start}");
    }
}

// 001_3f9c619085c8d773.txt, the list of positions: "0 NNxxx Qxxxxx Bxxx Bxxx", "1 NNxxx
// Qxxxxx Bxxx xBxx", ..., "19 NNxxx xQxxxx Bxxx xxxB", and the blocks "96 NxNxx", "192
// NxxNx", ..., "864 xxxNN" (the last two groups: the dark, then the light bishop).
#[test]
fn cottrells_list_as_printed() {
    let pattern = |index: u16, len: u16, letter: char| -> String {
        (0..len)
            .map(|i| if i == index { letter } else { 'x' })
            .collect()
    };
    let printed = |n: u16| -> String {
        let [n1, n2, q, bb, bw] = cottrell_indices(&sp(u64::from(n)).back_rank());
        let knights: String = (0..5)
            .map(|i| if i == n1 || i == n2 { 'N' } else { 'x' })
            .collect();
        format!(
            "{knights} {} {} {}",
            pattern(q, 6, 'Q'),
            pattern(bb, 4, 'B'),
            pattern(bw, 4, 'B')
        )
    };
    assert_eq!(printed(0), "NNxxx Qxxxxx Bxxx Bxxx");
    assert_eq!(printed(1), "NNxxx Qxxxxx Bxxx xBxx");
    assert_eq!(printed(4), "NNxxx Qxxxxx xBxx Bxxx");
    assert_eq!(printed(15), "NNxxx Qxxxxx xxxB xxxB");
    assert_eq!(printed(16), "NNxxx xQxxxx Bxxx Bxxx");
    assert_eq!(printed(19), "NNxxx xQxxxx Bxxx xxxB");
    let blocks = [
        "NxNxx", "NxxNx", "NxxxN", "xNNxx", "xNxNx", "xNxxN", "xxNNx", "xxNxN", "xxxNN",
    ];
    for (block, knights) in blocks.iter().enumerate() {
        let n = 96 * (block as u16 + 1);
        assert_eq!(printed(n), format!("{knights} Qxxxxx Bxxx Bxxx"), "{n}");
    }
}

#[test]
fn all_960_round_trip_and_are_distinct() {
    let mut seen = std::collections::HashSet::new();
    for start in StartPosition::all() {
        let rank = start.back_rank();
        assert_eq!(BackRank::new(rank.roles()), Ok(rank), "SP {start} is valid");
        assert_eq!(rank.number(), start);
        assert_eq!(rank.to_string().parse::<BackRank>(), Ok(rank));
        assert!(seen.insert(rank), "SP {start} repeats an arrangement");
    }
    assert_eq!(seen.len(), 960);
}

#[test]
fn agrees_with_shakmaty_on_all_960() {
    for start in StartPosition::all() {
        let board = Board::chess960(u32::from(start.number()));
        let ours = start.back_rank().roles();
        for (file, role) in File::ALL.into_iter().zip(ours) {
            let square = Square::from_coords(file, Rank::First);
            assert_eq!(board.role_at(square), Some(role), "SP {start} {square}");
            assert_eq!(board.color_at(square), Some(Color::White));
        }
    }
}

#[test]
fn out_of_range() {
    assert_eq!(StartPosition::new(960), Err(OutOfRange(960)));
    assert!(StartPosition::new(959).is_ok());
}

#[test]
fn lower_case_parses() {
    assert_eq!("rbknrnbq".parse::<BackRank>().unwrap().number(), sp(860));
}

#[test]
fn every_error_kind() {
    let err = |s: &str| s.parse::<BackRank>().unwrap_err();
    assert_eq!(err("RNBQKBN"), ArrangementError::WrongLength(7));
    assert_eq!(err("RNBQKBNRR"), ArrangementError::WrongLength(9));
    assert_eq!(
        err("RNBQKBNX"),
        ArrangementError::BadLetter {
            letter: 'X',
            position: 8
        }
    );
    assert_eq!(
        err("RNBPKBNR"),
        ArrangementError::BadLetter {
            letter: 'P',
            position: 4
        }
    );
    assert_eq!(
        err("RNBQKBNÄ"),
        ArrangementError::BadLetter {
            letter: 'Ä',
            position: 8
        }
    );
    assert_eq!(
        err("RNBQKBNN"),
        ArrangementError::WrongCount {
            piece: "rooks",
            expected: 2,
            found: 1
        }
    );
    assert_eq!(
        err("RNBKKBNR"),
        ArrangementError::WrongCount {
            piece: "kings",
            expected: 1,
            found: 2
        }
    );
    assert_eq!(
        err("RBNBKQNR"),
        ArrangementError::BishopsSameColour("light")
    );
    assert_eq!(err("BNBQRKNR"), ArrangementError::BishopsSameColour("dark"));
    assert_eq!(err("KRBNQBNR"), ArrangementError::KingNotBetweenRooks);
    assert_eq!(err("RRBNQBNK"), ArrangementError::KingNotBetweenRooks);
}
