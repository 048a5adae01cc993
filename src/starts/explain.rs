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
use std::str::FromStr;

use serde::Serialize;
use shakmaty::Role;
use thiserror::Error;

use crate::starts::identify::{IdentifyError, identify};
use crate::starts::numbering::{BackRank, StartPosition};
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

/// One input of `sp960 explain`, read: the starts it names ([`starts_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainInput(pub Vec<Start>);

impl FromStr for ExplainInput {
    type Err = ExplainError;

    fn from_str(input: &str) -> Result<ExplainInput, ExplainError> {
        starts_of(input).map(ExplainInput)
    }
}

/// `sp960 explain`: every input is read first (so a bad one prints nothing), then each
/// start is explained, as text separated by blank lines or as one JSON object per line.
pub fn print_explanations(
    inputs: &[ExplainInput],
    json: bool,
    out: &mut impl Write,
) -> Result<(), ExplainError> {
    let starts = inputs.iter().flat_map(|input| input.0.iter().copied());
    for (index, start) in starts.enumerate() {
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

/// `1st`, `2nd`, `3rd`, `4th`, ... for `n` from 1.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
