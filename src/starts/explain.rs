//! `sp960 explain`: how the literature derives a start's number, shown for one start.
//!
//! Three derivations of the same SP: Scharnagl's two tables (the King's table row, the
//! multiple of 16 at or below the number with the order of Q, N, N, R, K, R on the six
//! squares the bishops leave, plus the Bishop's table entry 0–15); the direct derivation
//! by the digits n mod 4, (n/4) mod 4, (n/16) mod 6 and n/96; and the mental method by the
//! K-R-N sequence (the order of rooks, king and knights × 96, the queen's place among the
//! six squares × 16, the bishops' pattern 0–15). The arithmetic itself is
//! [`crate::starts::numbering`]'s; this module reads the digits off and names the squares. A
//! double-FRC pair is explained side by side.

use std::io::{self, Write};

use serde::Serialize;
use shakmaty::Role;
use thiserror::Error;

use crate::starts::identify::{IdentifyError, identify};
use crate::starts::numbering::{BackRank, StartPosition};
use crate::starts::roll::board::ordinal;
use crate::starts::start::{SpecError, Start, parse_spec};

/// Why an input names no start (invalid chess data: exit 1).
#[derive(Debug, Error)]
pub enum ExplainError {
    /// A number, range or pair that is no start.
    #[error("explain: {0}")]
    Spec(#[from] SpecError),
    /// Text that is no arrangement or FEN of a start.
    #[error("explain: '{input}': {source}")]
    Identify {
        /// The input.
        input: String,
        /// Why.
        source: IdentifyError,
    },
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// One digit of the direct derivation and the square it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Digit {
    /// How it is computed: `518 mod 4`, `518 / 4 = 129, 129 mod 4`.
    pub expression: String,
    /// Its value, from 0.
    pub digit: u16,
    /// The squares it counts on, from the left.
    pub among: Vec<String>,
    /// The square (or squares, for the knights) it gives.
    pub squares: Vec<String>,
}

/// Scharnagl's King's and Bishop's tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tables {
    /// The King's table row: the multiple of 16 at or below the number.
    pub kings_row: u16,
    /// The row's order of Q, N, N, R, K, R on the six squares the bishops leave.
    pub kings_order: String,
    /// The Bishop's table entry, 0 to 15.
    pub bishops_entry: u16,
    /// The entry's pattern: `--B--B--`.
    pub bishops_pattern: String,
}

/// The direct derivation, digit by digit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Direct {
    /// n mod 4: the light-square bishop.
    pub light_bishop: Digit,
    /// (n / 4) mod 4: the dark-square bishop.
    pub dark_bishop: Digit,
    /// (n / 16) mod 6: the queen on the free squares.
    pub queen: Digit,
    /// n / 96: the knights' pattern on the five squares left.
    pub knights: Digit,
    /// Scharnagl's pattern for the knights' digit: `-N-N-`.
    pub knights_pattern: String,
    /// The two rooks' squares.
    pub rooks: [String; 2],
    /// The king's square.
    pub king: String,
}

/// The mental method by K-R-N sequence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KrnMethod {
    /// The order of rooks, king and knights: `RKNRN`.
    pub sequence: String,
    /// Its value: the knights' digit × 96.
    pub sequence_value: u16,
    /// The six pieces other than the bishops, in order: `RNQKNR`.
    pub six: String,
    /// The queen's place among those six, from 1.
    pub queen_place: u16,
    /// Its value: (place − 1) × 16.
    pub queen_value: u16,
    /// The bishops' pattern: `--B--B--`.
    pub bishops_pattern: String,
    /// Its value, 0 to 15.
    pub bishops_value: u16,
}

/// One side's arrangement explained three ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideExplanation {
    /// `both` for a classic start, `white` or `black` for a double-FRC pair.
    pub side: &'static str,
    /// The SP.
    pub sp: u16,
    /// The arrangement, files a to h.
    pub arrangement: String,
    /// Scharnagl's tables.
    pub scharnagl_tables: Tables,
    /// The direct derivation.
    pub direct: Direct,
    /// The K-R-N method.
    pub krn: KrnMethod,
}

/// A start explained: one side, or both of a double-FRC pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// `518`, or `0:959`.
    pub start: String,
    /// `SP` or `DFRC`.
    pub kind: &'static str,
    /// The sides explained.
    pub sides: Vec<SideExplanation>,
}

fn square(file: usize, rank: char) -> String {
    format!("{}{rank}", char::from(b'a' + file as u8))
}

/// The letters of `rank` with the roles in `skip` left out.
fn without(letters: &[char], skip: &[char]) -> String {
    letters.iter().filter(|c| !skip.contains(c)).collect()
}

/// Explains one side: `side` names it, `rank_char` is `'1'` or `'8'`.
fn explain_side(side: &'static str, sp: StartPosition, rank_char: char) -> SideExplanation {
    let n = sp.number();
    let rank: BackRank = sp.back_rank();
    let roles = rank.roles();
    let letters: Vec<char> = rank.to_string().chars().collect();
    let sq = |file: usize| square(file, rank_char);
    let names = |files: &[usize]| files.iter().map(|&f| sq(f)).collect::<Vec<_>>();
    let files_of = |role: Role| (0..8).filter(|&f| roles[f] == role).collect::<Vec<_>>();
    let bishops_pattern: String = letters
        .iter()
        .map(|&c| if c == 'B' { 'B' } else { '-' })
        .collect();
    let free: Vec<usize> = (0..8).filter(|&f| roles[f] != Role::Bishop).collect();
    let five: Vec<usize> = free
        .iter()
        .copied()
        .filter(|&f| roles[f] != Role::Queen)
        .collect();
    let knights_pattern: String = five
        .iter()
        .map(|&f| if roles[f] == Role::Knight { 'N' } else { '-' })
        .collect();
    let (light, dark, queen, knights) = (n % 4, (n / 4) % 4, (n / 16) % 6, n / 96);
    let light_files = [1, 3, 5, 7];
    let dark_files = [0, 2, 4, 6];
    let rooks = files_of(Role::Rook);
    let six = without(&letters, &['B']);
    let queen_index = six.find('Q').unwrap_or(0) as u16;
    SideExplanation {
        side,
        sp: n,
        arrangement: rank.to_string(),
        scharnagl_tables: Tables {
            kings_row: n - n % 16,
            kings_order: six.clone(),
            bishops_entry: n % 16,
            bishops_pattern: bishops_pattern.clone(),
        },
        direct: Direct {
            light_bishop: Digit {
                expression: format!("{n} mod 4"),
                digit: light,
                among: names(&light_files),
                squares: vec![sq(light_files[usize::from(light)])],
            },
            dark_bishop: Digit {
                expression: format!("{n} / 4 = {}, {} mod 4", n / 4, n / 4),
                digit: dark,
                among: names(&dark_files),
                squares: vec![sq(dark_files[usize::from(dark)])],
            },
            queen: Digit {
                expression: format!("{n} / 16 = {}, {} mod 6", n / 16, n / 16),
                digit: queen,
                among: names(&free),
                squares: names(&files_of(Role::Queen)),
            },
            knights: Digit {
                expression: format!("{n} / 96"),
                digit: knights,
                among: names(&five),
                squares: names(&files_of(Role::Knight)),
            },
            knights_pattern,
            rooks: [
                sq(rooks.first().copied().unwrap_or(0)),
                sq(rooks.last().copied().unwrap_or(7)),
            ],
            king: sq(files_of(Role::King).first().copied().unwrap_or(4)),
        },
        krn: KrnMethod {
            sequence: without(&letters, &['B', 'Q']),
            sequence_value: knights * 96,
            six,
            queen_place: queen_index + 1,
            queen_value: queen_index * 16,
            bishops_pattern,
            bishops_value: n % 16,
        },
    }
}

/// Explains `start`: one side for a classic start, both for a double-FRC pair.
pub fn explain(start: Start) -> Explanation {
    let sides = if start.is_symmetric() {
        vec![explain_side("both", start.white, '1')]
    } else {
        vec![
            explain_side("white", start.white, '1'),
            explain_side("black", start.black, '8'),
        ]
    };
    Explanation {
        start: start.to_string(),
        kind: start.kind_name(),
        sides,
    }
}

/// The three derivations of one side, each line prefixed by `indent`.
fn side_text(side: &SideExplanation, indent: &str) -> String {
    let n = side.sp;
    let t = &side.scharnagl_tables;
    let d = &side.direct;
    let k = &side.krn;
    let digit_line = |what: &str, digit: &Digit| {
        format!(
            "{indent}  {} = {}: {what} on {} (counting from 0: {})\n",
            digit.expression,
            digit.digit,
            digit.squares.join(" and "),
            digit.among.join(" ")
        )
    };
    let mut text = String::new();
    text.push_str(&format!(
        "{indent}Scharnagl's tables: {} + {} = {n}\n",
        t.kings_row, t.bishops_entry
    ));
    text.push_str(&format!(
        "{indent}  King's table, row {}: {} (queen, knights, rooks and king on the six squares the bishops leave)\n",
        t.kings_row, t.kings_order
    ));
    text.push_str(&format!(
        "{indent}  Bishop's table, entry {}: {}\n",
        t.bishops_entry, t.bishops_pattern
    ));
    text.push_str(&format!("{indent}Direct derivation:\n"));
    text.push_str(&digit_line("light-square bishop", &d.light_bishop));
    text.push_str(&digit_line("dark-square bishop", &d.dark_bishop));
    text.push_str(&digit_line("queen", &d.queen));
    text.push_str(&format!(
        "{indent}  {} = {}: knights {} on {} (of {})\n",
        d.knights.expression,
        d.knights.digit,
        d.knights_pattern,
        d.knights.squares.join(" and "),
        d.knights.among.join(" ")
    ));
    text.push_str(&format!(
        "{indent}  rook, king, rook on the three squares left: {}, {}, {}\n",
        d.rooks[0], d.king, d.rooks[1]
    ));
    text.push_str(&format!(
        "{indent}K-R-N sequence: {} + {} + {} = {n}\n",
        k.sequence_value, k.queen_value, k.bishops_value
    ));
    text.push_str(&format!(
        "{indent}  rooks, king and knights in the order {}: {} × 96 = {}\n",
        k.sequence,
        k.sequence_value / 96,
        k.sequence_value
    ));
    text.push_str(&format!(
        "{indent}  queen on the {} of the six squares the bishops leave ({}): {} × 16 = {}\n",
        ordinal(usize::from(k.queen_place)),
        k.six,
        k.queen_place - 1,
        k.queen_value
    ));
    text.push_str(&format!(
        "{indent}  bishops {}: {}\n",
        k.bishops_pattern, k.bishops_value
    ));
    text
}

impl Explanation {
    /// The text `sp960 explain` prints.
    pub fn text(&self) -> String {
        match &self.sides[..] {
            [white, black] => {
                let mut text = format!(
                    "DFRC {}: white {} (SP {}), black {} (SP {})\n",
                    self.start, white.arrangement, white.sp, black.arrangement, black.sp
                );
                for (name, side) in [("White", white), ("Black", black)] {
                    text.push_str(&format!("{name}, SP {}: {}\n", side.sp, side.arrangement));
                    text.push_str(&side_text(side, "  "));
                }
                text
            }
            sides => sides
                .iter()
                .map(|side| {
                    format!(
                        "SP {}: {}\n{}",
                        side.sp,
                        side.arrangement,
                        side_text(side, "")
                    )
                })
                .collect(),
        }
    }

    /// One JSON object.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The starts an input names: a SPEC (`518`, `0-3`, `0:959`, `all`), an 8-letter
/// arrangement, or a FEN/EPD.
pub fn starts_of(input: &str) -> Result<Vec<Start>, ExplainError> {
    let text = input.trim();
    let spec_like = text.eq_ignore_ascii_case("all")
        || (!text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ',' | '-' | ':' | ' ')));
    if spec_like {
        Ok(parse_spec(text)?)
    } else {
        let start = identify(text).map_err(|source| ExplainError::Identify {
            input: input.to_owned(),
            source,
        })?;
        Ok(vec![start])
    }
}

/// `sp960 explain`: every input is read first (so a bad one prints nothing), then each
/// start is explained, as text separated by blank lines or as one JSON object per line.
pub fn print_explanations(
    inputs: &[String],
    json: bool,
    out: &mut impl Write,
) -> Result<(), ExplainError> {
    let mut starts = Vec::new();
    for input in inputs {
        starts.extend(starts_of(input)?);
    }
    for (index, &start) in starts.iter().enumerate() {
        let explanation = explain(start);
        if json {
            writeln!(out, "{}", explanation.json())?;
        } else {
            if index > 0 {
                writeln!(out)?;
            }
            write!(out, "{}", explanation.text())?;
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
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
}
