//! `sp960 roll`: physical dice rolls and coin tosses into a start, by the manual methods of
//! the numbering's literature and sp960's own `fast` one.
//!
//! Every method is a sans-IO [`Procedure`]: it says what the next value is thrown with and
//! what it decides ([`Ask`]), takes the value and tells what it did ([`RollStep`]: a piece
//! placed, a re-roll and why, a digit kept), and in the end gives the arrangement
//! ([`Done`]). The same steppers serve values given on the command line ([`input`]), the
//! interactive loop ([`interactive`]), seeded draws for `sp960 random --method`
//! ([`simulate`]) and the exhaustive fairness proofs ([`fairness`]). [`report`] writes the
//! text and JSON, [`command`] is the subcommand over any reader and writers.
//!
//! Adding a method is one file plus one registration line. The file holds the procedure and
//! its [`MethodInfo`] (its name, help line, unit, how its values are typed, the procedures
//! its fairness proof covers); its `pub mod` line and one line of the `methods!` table below
//! register it. [`Method`], [`Method::ALL`], [`Stepper`] and every `match` over them are
//! written from the table by [`registry`]'s macro, listing every method with no `_` arm;
//! the names `sp960 roll` and `random --method` accept, their help, the input words and the
//! names in reports are all read from the [`MethodInfo`].

pub mod board;
pub mod coin;
pub mod command;
pub mod d10;
pub mod die;
pub mod die_optimized;
pub mod fairness;
pub mod fast;
pub mod input;
pub mod interactive;
pub mod polyhedral;
pub mod ratio;
pub mod registry;
pub mod report;
pub mod simulate;

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use shakmaty::Role;
use thiserror::Error;

use crate::starts::numbering::BackRank;
use registry::{MethodInfo, Values, listing, methods};

// The method table: one line per method, `Variant(ProcedureType) = file::INFO`. Adding a
// method is its file (the procedure and its `MethodInfo`) and one line here, besides the
// file's `pub mod` line above; `Method`, `Method::ALL`, `Stepper` and every name, unit,
// help line and input word come from it.
methods! {
    /// Althöfer's single die: bishops, queen, knights, re-rolling values with no square.
    Die(die::PieceByPiece) = die::DIE,
    /// The literature's "Optimization" of the single die: one more roll on a bishop's 5
    /// or 6, a 5 or 6 for the second knight counted from the first.
    DieOptimized(die_optimized::DieOptimized) = die_optimized::INFO,
    /// One throw of the Platonic dice d8, d4, d6, d20 (and a d12), no re-roll.
    Polyhedral(polyhedral::Polyhedral) = polyhedral::INFO,
    /// Two d4, a d6 and a d10: the four digits of the number.
    D10(d10::D10) = d10::INFO,
    /// The die method with two or three coins per throw.
    Coins(die::PieceByPiece) = die::COINS,
    /// Ten tosses of one coin read as a 10-bit number.
    Coin(coin::CoinTosses) = coin::INFO,
    /// sp960's own single-die method with the fewest expected rolls.
    Fast(fast::Fast) = fast::INFO,
}

/// A method name that is none of the table's.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown method '{0}' (the methods are {methods})", methods = Method::listing("and"))]
pub struct UnknownMethod(pub String);

impl Method {
    /// The name typed on the command line.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Every method's name, the last joined with `conjunction`: `die, ..., coin or fast`.
    pub fn listing(conjunction: &str) -> String {
        listing(Method::ALL.map(Method::name), conjunction)
    }

    /// Whether values are given as `NAME=VALUE` (one per die of a single throw).
    pub fn is_named(self) -> bool {
        match self.info().values {
            Values::Named { .. } => true,
            Values::OnePerArgument | Values::Letters => false,
        }
    }

    /// What one value is called, singular and plural: `roll`/`rolls`, `throw`/`throws`.
    pub fn unit(self) -> (&'static str, &'static str) {
        self.info().unit
    }

    /// The procedure, ready for its first value; `d12` chooses the polyhedral variant with
    /// a d12 (ignored by the other methods).
    pub fn procedure(self, d12: bool) -> Stepper {
        (self.info().procedure)(d12)
    }

    /// The procedures `--fairness` proves: both polyhedral variants, one for the others.
    pub fn variants(self) -> Vec<(String, Stepper)> {
        match self.info().proofs {
            [] => vec![(self.name().to_owned(), self.procedure(false))],
            proofs => proofs
                .iter()
                .map(|&(name, d12)| (name.to_owned(), self.procedure(d12)))
                .collect(),
        }
    }
}

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Method, UnknownMethod> {
        Method::ALL
            .into_iter()
            .find(|method| method.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownMethod(s.to_owned()))
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a value is thrown with; its outcomes are equally likely and numbered from 0
/// (the "face").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Device {
    /// A die with this many faces, showing 1 to that number.
    Die(u8),
    /// Two or three coins thrown together: the small coin counts tails 0, heads 2; the
    /// large one tails 1, heads 2; the third tails 0, heads 4 (1 to 4, or 1 to 8).
    Coins(u8),
    /// One coin: heads 0, tails 1.
    Coin,
}

impl Device {
    /// How many equally likely outcomes.
    pub fn outcomes(self) -> u32 {
        match self {
            Device::Die(faces) => u32::from(faces),
            Device::Coins(count) => 1 << count,
            Device::Coin => 2,
        }
    }

    /// How many coins are tossed (0 for a die).
    pub fn coins(self) -> u32 {
        match self {
            Device::Die(_) => 0,
            Device::Coins(count) => u32::from(count),
            Device::Coin => 1,
        }
    }

    /// Reads a value as typed: `4`, `TH`, `H`. The face (0-based), or why not.
    pub fn read(self, text: &str) -> Result<u32, FaceError> {
        let text = text.trim();
        match self {
            Device::Die(faces) => {
                if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(FaceError::NotANumber(faces));
                }
                match text.parse::<u32>() {
                    Ok(0) if faces == 10 => Ok(9),
                    Ok(value @ 1..) if value <= u32::from(faces) => Ok(value - 1),
                    _ => Err(FaceError::OutOfRange(faces)),
                }
            }
            Device::Coins(count) => {
                let letters: Vec<char> = text.chars().collect();
                if letters.len() != usize::from(count) {
                    return Err(FaceError::CoinCount(count));
                }
                let mut value = 0;
                for (index, &letter) in letters.iter().enumerate() {
                    let heads = toss(letter).ok_or(FaceError::NotATossLetter(letter))? == 0;
                    value += match (index, heads) {
                        (0, heads) => 2 * u32::from(heads),
                        (1, heads) => 1 + u32::from(heads),
                        (_, heads) => 4 * u32::from(heads),
                    };
                }
                Ok(value - 1)
            }
            Device::Coin => {
                let mut letters = text.chars();
                match (letters.next(), letters.next()) {
                    (Some(letter), None) => toss(letter).ok_or(FaceError::NotATossLetter(letter)),
                    _ => Err(FaceError::NotOneLetter),
                }
            }
        }
    }

    /// The value of a face as typed: `4`, `TH`, `H`.
    pub fn show(self, face: u32) -> String {
        match self {
            Device::Die(_) => (u64::from(face) + 1).to_string(),
            Device::Coins(count) => {
                let value = face.saturating_add(1);
                let third = value > 4;
                let rest = value - if third { 4 } else { 0 };
                let small = rest >= 3;
                let large = rest - if small { 2 } else { 0 } == 2;
                let letter = |heads: bool| if heads { 'H' } else { 'T' };
                let mut text: String = [letter(small), letter(large)].into_iter().collect();
                if count == 3 {
                    text.push(letter(third));
                }
                text
            }
            Device::Coin => if face == 0 { "H" } else { "T" }.to_owned(),
        }
    }

    /// What it is: `a d6`, `two coins`, `one coin`.
    pub fn describe(self) -> String {
        match self {
            Device::Die(faces) => format!("a d{faces}"),
            Device::Coins(2) => "two coins (small, large)".to_owned(),
            Device::Coins(_) => "three coins (small, large, third)".to_owned(),
            Device::Coin => "one coin".to_owned(),
        }
    }
}

/// Heads 0, tails 1, either case.
/// Why a value typed for a [`Device`] is none of its faces.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FaceError {
    /// A die's value that is not a number.
    #[error("not a number: {}", die_shows(*.0))]
    NotANumber(u8),
    /// A number no face of the die shows.
    #[error("{}", die_shows(*.0))]
    OutOfRange(u8),
    /// Not one letter per coin of the throw.
    #[error(
        "this throw is of {count} coins: {count} letters H or T ({names})",
        count = .0,
        names = if *.0 == 2 { "small, large" } else { "small, large, third" }
    )]
    CoinCount(u8),
    /// A letter other than H or T.
    #[error("'{0}' is not H (heads) or T (tails)")]
    NotATossLetter(char),
    /// A single toss typed as no letter or several.
    #[error("a toss is one letter, H (heads) or T (tails)")]
    NotOneLetter,
}

/// What a die with `faces` faces shows: `a die shows 1 to 6`.
fn die_shows(faces: u8) -> String {
    match faces {
        6 => "a die shows 1 to 6".to_owned(),
        10 => "a d10 shows 1 to 10 (or 0 for 10)".to_owned(),
        _ => format!("a d{faces} shows 1 to {faces}"),
    }
}

fn toss(letter: char) -> Option<u32> {
    match letter.to_ascii_uppercase() {
        'H' => Some(0),
        'T' => Some(1),
        _ => None,
    }
}

/// The next value a procedure wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    /// What the value is called: `roll`, `throw`, `toss`, or the die's name (`d8`, `light`).
    pub label: &'static str,
    /// What it is thrown with.
    pub device: Device,
    /// What it decides, naming the squares: `the dark-square bishop: 1 to 4 = a1 c1 e1 g1,
    /// roll again on 5 and 6`.
    pub decides: String,
}

/// What one value did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// It put one or more pieces on their squares.
    Placed,
    /// It named no square: thrown again.
    Rerolled,
    /// It showed the draw cannot end in a start: everything starts again.
    Restarted,
    /// It became part of a number still being built.
    Kept,
    /// It completed the number: the start is drawn.
    Decided,
}

/// One value and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollStep {
    /// What the value is called (`roll`, `d8`).
    pub label: &'static str,
    /// The value as typed (`5`, `TH`).
    pub value: String,
    /// How the value counts, when that is not plain from it (`3` for the coins `HT`).
    pub reading: Option<String>,
    /// What it did.
    pub effect: Effect,
    /// The pieces it placed, with their files (0 = a).
    pub placed: Vec<(Role, usize)>,
    /// The sentence the trace prints: `dark-square bishop on e1, the 3rd dark square`.
    pub text: String,
}

impl RollStep {
    /// A value given after the start was complete: it decides nothing.
    pub fn not_needed(label: &'static str, value: String) -> RollStep {
        RollStep {
            label,
            value,
            reading: None,
            effect: Effect::Rerolled,
            placed: Vec::new(),
            text: "not needed: the start is complete".to_owned(),
        }
    }
}

/// A finished procedure: the arrangement, and the last words of the trace (the rooks and
/// the king on the last three squares).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    /// The arrangement drawn.
    pub rank: BackRank,
    /// What the trace prints after the last value, if anything.
    pub closing: Option<String>,
}

impl From<board::FinishedRank> for Done {
    /// A rank the pieces completed: the closing line says where the rooks and king went.
    fn from(finished: board::FinishedRank) -> Done {
        Done {
            rank: finished.rank,
            closing: Some(finished.sentence()),
        }
    }
}

/// A method's state between values. `Eq + Hash` so that the fairness proof can tell when
/// two roll sequences leave the procedure in the same state.
pub trait Procedure: Clone + Eq + Hash {
    /// The next value wanted, or `None` once the start is drawn.
    fn ask(&self) -> Option<Ask>;
    /// Takes the next value, a face `0..ask().device.outcomes()`, and says what it did.
    /// Meant for while [`Procedure::ask`] is `Some`: a value after the end changes nothing
    /// ([`RollStep::not_needed`]), and a face out of range is clamped, never a panic.
    fn take(&mut self, face: u32) -> RollStep;
    /// The start, once drawn.
    fn done(&self) -> Option<Done>;
}

/// A whole draw: every value with what it did, and the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollOutcome {
    /// The method.
    pub method: Method,
    /// Each value in order.
    pub steps: Vec<RollStep>,
    /// The start.
    pub done: Done,
}

/// Feeds `faces` to `procedure` until it is done: the steps, and the start if the faces
/// were enough. (Faces beyond the end are not used.)
#[cfg(test)]
pub fn feed<P: Procedure>(procedure: &mut P, faces: &[u32]) -> (Vec<RollStep>, Option<Done>) {
    let mut steps = Vec::new();
    for &face in faces {
        if procedure.ask().is_none() {
            break;
        }
        steps.push(procedure.take(face));
    }
    (steps, procedure.done())
}

/// [`feed`] with the values as a die shows them, from 1 (for the tests).
#[cfg(test)]
pub(crate) fn feed_shown<P: Procedure>(
    mut procedure: P,
    shown: &[u32],
) -> (Vec<RollStep>, Option<Done>) {
    let faces: Vec<u32> = shown.iter().map(|v| v - 1).collect();
    feed(&mut procedure, &faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_by_name() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
        }
        assert_eq!("DIE".parse::<Method>(), Ok(Method::Die));
        assert_eq!("Die-Optimized".parse::<Method>(), Ok(Method::DieOptimized));
        let err = "dice".parse::<Method>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown method 'dice' (the methods are die, die-optimized, polyhedral, d10, coins, coin and fast)"
        );
    }

    #[test]
    fn the_table_is_the_single_source() {
        // Every method once in the table, with its own name and its own procedure.
        let names: Vec<&str> = Method::ALL.iter().map(|method| method.name()).collect();
        for (index, method) in Method::ALL.into_iter().enumerate() {
            assert_eq!(Method::ALL.iter().filter(|m| **m == method).count(), 1);
            assert_eq!(names.iter().filter(|n| **n == method.name()).count(), 1);
            assert_eq!(Method::ALL[index], method);
            assert_eq!(method.to_string(), method.info().name);
            assert!(method.info().help.starts_with(method.name()), "{method}");
            for (_, procedure) in method.variants() {
                assert_eq!(procedure.method(), method, "{method}'s procedure");
            }
            for d12 in [false, true] {
                assert_eq!(method.procedure(d12).method(), method);
            }
        }
        // Every method's line is distinct (no two variants share one `MethodInfo`).
        for a in Method::ALL {
            for b in Method::ALL {
                assert_eq!(std::ptr::eq(a.info(), b.info()), a == b, "{a} {b}");
            }
        }
        assert_eq!(
            Method::listing("or"),
            "die, die-optimized, polyhedral, d10, coins, coin or fast"
        );
        // A named method's first ask is one of its names; the others ask by their unit or
        // a die of their own.
        for method in Method::ALL {
            let ask = method.procedure(false).ask().unwrap();
            match method.info().values {
                Values::Named { dice, .. } => assert_eq!(ask.label, dice(false)[0]),
                Values::Letters => assert_eq!(ask.label, method.unit().0),
                Values::OnePerArgument => {}
            }
        }
    }

    #[test]
    fn devices_read_and_show_every_face() {
        for device in [
            Device::Die(4),
            Device::Die(6),
            Device::Die(20),
            Device::Coins(2),
            Device::Coins(3),
            Device::Coin,
        ] {
            for face in 0..device.outcomes() {
                assert_eq!(device.read(&device.show(face)), Ok(face), "{device:?}");
            }
        }
        // The coins: small tails 0 / heads 2, large tails 1 / heads 2, third tails 0 / heads 4.
        assert_eq!(Device::Coins(2).read("TT"), Ok(0));
        assert_eq!(Device::Coins(2).read("TH"), Ok(1));
        assert_eq!(Device::Coins(2).read("HT"), Ok(2));
        assert_eq!(Device::Coins(3).read("hhh"), Ok(7));
        assert_eq!(Device::Die(10).read("0"), Ok(9));
    }

    #[test]
    fn values_after_the_end_change_nothing() {
        for method in Method::ALL {
            for (name, mut procedure) in method.variants() {
                let mut steps = 0;
                while procedure.ask().is_some() {
                    procedure.take(0);
                    steps += 1;
                    assert!(steps < 100, "{name} ends");
                }
                let done = procedure.done().unwrap();
                for face in [0, 5, 1000] {
                    let step = procedure.take(face);
                    assert_eq!(step.text, "not needed: the start is complete", "{name}");
                }
                assert_eq!(procedure.done(), Some(done), "{name}");
            }
        }
    }

    #[test]
    fn devices_say_why_a_value_is_refused() {
        assert_eq!(
            Device::Die(6).read("7").map_err(|e| e.to_string()),
            Err("a die shows 1 to 6".into())
        );
        assert_eq!(
            Device::Die(6).read("0").map_err(|e| e.to_string()),
            Err("a die shows 1 to 6".into())
        );
        assert_eq!(
            Device::Die(6).read("+3").map_err(|e| e.to_string()),
            Err("not a number: a die shows 1 to 6".into())
        );
        assert_eq!(
            Device::Die(20).read("21").map_err(|e| e.to_string()),
            Err("a d20 shows 1 to 20".into())
        );
        assert_eq!(
            Device::Coins(2).read("TX").map_err(|e| e.to_string()),
            Err("'X' is not H (heads) or T (tails)".into())
        );
        assert_eq!(
            Device::Coins(3).read("TH").map_err(|e| e.to_string()),
            Err("this throw is of 3 coins: 3 letters H or T (small, large, third)".into())
        );
        assert_eq!(
            Device::Coin.read("X").map_err(|e| e.to_string()),
            Err("'X' is not H (heads) or T (tails)".into())
        );
    }
}
