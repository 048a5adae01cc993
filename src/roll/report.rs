//! What `sp960 roll` prints: a drawn start with the trace of its values (text or JSON),
//! and the fairness proofs (text or JSON).

use std::collections::HashMap;

use serde::Serialize;

use super::board::{piece_name, square};
use super::fairness::Analysis;
use super::ratio::Ratio;
use super::{Effect, Method, RollOutcome};
use crate::starts::notation::{CastlingNotation, start_fen};
use crate::starts::start::{InvalidStart, Start};

/// The trace lines of a draw: `roll 2: 5 -> roll again: there is no 5th light square`,
/// `throw 1: HT = 3 -> ...`, `d8=3 -> ...`; then the closing line if any.
pub fn trace_lines(outcome: &RollOutcome) -> Vec<String> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut lines = Vec::new();
    for step in &outcome.steps {
        let count = counts.entry(step.label).or_default();
        *count += 1;
        let value = match &step.reading {
            Some(reading) => format!("{} = {reading}", step.value),
            None => step.value.clone(),
        };
        lines.push(if outcome.method.is_named() {
            format!("{}={value} -> {}", step.label, step.text)
        } else {
            format!("{} {count}: {value} -> {}", step.label, step.text)
        });
    }
    lines.extend(outcome.done.closing.clone());
    lines
}

/// The text of a draw: the trace, `SP n: ARRANGEMENT`, and the FEN.
pub fn outcome_text(
    outcome: &RollOutcome,
    castling: CastlingNotation,
) -> Result<String, InvalidStart> {
    let sp = outcome.done.rank.number();
    let mut text = trace_lines(outcome).join("\n");
    text.push_str(&format!(
        "\nSP {sp}: {}\n{}\n",
        outcome.done.rank,
        start_fen(Start::symmetric(sp), castling)?
    ));
    Ok(text)
}

#[derive(Serialize)]
struct PlacedJson {
    piece: &'static str,
    square: String,
}

#[derive(Serialize)]
struct StepJson<'a> {
    label: &'a str,
    value: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reading: Option<&'a str>,
    effect: Effect,
    placed: Vec<PlacedJson>,
    text: &'a str,
}

#[derive(Serialize)]
struct OutcomeJson<'a> {
    method: &'a str,
    values: Vec<StepJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    closing: Option<&'a str>,
    arrangement: String,
    sp: u16,
    fen: String,
}

/// A draw as one JSON object: `method`, `values` (each with what it did), `arrangement`,
/// `sp` and `fen`.
pub fn outcome_json(
    outcome: &RollOutcome,
    castling: CastlingNotation,
) -> Result<String, InvalidStart> {
    let sp = outcome.done.rank.number();
    let json = OutcomeJson {
        method: outcome.method.name(),
        values: outcome
            .steps
            .iter()
            .map(|step| StepJson {
                label: step.label,
                value: &step.value,
                reading: step.reading.as_deref(),
                effect: step.effect,
                placed: step
                    .placed
                    .iter()
                    .map(|&(role, file)| PlacedJson {
                        piece: piece_name(role),
                        square: square(file, '1'),
                    })
                    .collect(),
                text: &step.text,
            })
            .collect(),
        closing: outcome.done.closing.as_deref(),
        arrangement: outcome.done.rank.to_string(),
        sp: sp.number(),
        fen: start_fen(Start::symmetric(sp), castling)?,
    };
    Ok(serde_json::to_string(&json).unwrap_or_default())
}

/// `0-95`, `96-671, 700`: SPs (ascending) as ranges.
pub fn ranges(starts: &[u16]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < starts.len() {
        let first = starts[index];
        let mut last = first;
        while index + 1 < starts.len() && starts[index + 1] == last + 1 {
            index += 1;
            last = starts[index];
        }
        parts.push(if first == last {
            first.to_string()
        } else {
            format!("{first}-{last}")
        });
        index += 1;
    }
    parts.join(", ")
}

/// `67/10 = 6 7/10 = 6.7`, `89/15 = 5 14/15 ≈ 5.933333`, `4`.
pub fn exact(value: Ratio) -> String {
    let (decimal, is_exact) = value.decimal(6);
    if value.denominator() == 1 {
        return value.to_string();
    }
    let mut text = value.to_string();
    if value.mixed() != text {
        text.push_str(&format!(" = {}", value.mixed()));
    }
    text.push_str(&format!(" {} {decimal}", if is_exact { "=" } else { "≈" }));
    text
}

/// Ways per start at each counted length: `2 in 5 rolls, 14 in 6 rolls`, or a span
/// (`40 to 60 in 5 dice`) where starts differ.
fn ways_text(analysis: &Analysis, plural: &str) -> String {
    analysis
        .ways
        .iter()
        .map(|(length, ways)| {
            let min = ways.iter().min().copied().unwrap_or(0);
            let max = ways.iter().max().copied().unwrap_or(0);
            if min == max {
                format!("{min} in {length} {plural}")
            } else {
                let sum: u128 = ways.iter().sum();
                let average = Ratio::new(sum as i128, ways.len() as i128)
                    .map_or_else(String::new, |average| format!(" ({average} on average)"));
                format!("{min} to {max} in {length} {plural}{average}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text proof of one procedure.
pub fn fairness_text(name: &str, method: Method, analysis: &Analysis) -> String {
    let (_, plural) = method.unit();
    let mut text = String::new();
    let reachable = analysis.reachable();
    let classes = analysis.classes();
    if analysis.is_fair() {
        text.push_str(&format!(
            "{name}: fair: each of the 960 starts has probability 1/960\n"
        ));
    } else {
        text.push_str(&format!(
            "{name}: NOT fair: {reachable} of 960 starts can be drawn, in {} classes\n",
            classes.len()
        ));
        for class in &classes {
            if class.probability.is_zero() {
                text.push_str(&format!(
                    "  {} starts never drawn: SP {}\n",
                    class.starts.len(),
                    ranges(&class.starts)
                ));
                continue;
            }
            text.push_str(&format!(
                "  {} starts, SP {}: probability {} each, {} ways\n",
                class.starts.len(),
                ranges(&class.starts),
                class.probability,
                class.ways
            ));
        }
    }
    text.push_str(&format!(
        "ways per start: {}\n",
        ways_text(analysis, plural)
    ));
    text.push_str(&format!(
        "expected {plural}: {}",
        exact(analysis.expected_values)
    ));
    if method.info().counts_coins {
        text.push_str(&format!(
            " ({} coins tossed)",
            exact(analysis.expected_coins)
        ));
    }
    text.push('\n');
    text
}

#[derive(Serialize)]
struct ExactJson {
    fraction: String,
    mixed: String,
    decimal: String,
    decimal_is_exact: bool,
}

impl From<Ratio> for ExactJson {
    fn from(value: Ratio) -> ExactJson {
        let (decimal, decimal_is_exact) = value.decimal(6);
        ExactJson {
            fraction: value.to_string(),
            mixed: value.mixed(),
            decimal,
            decimal_is_exact,
        }
    }
}

#[derive(Serialize)]
struct WaysJson {
    length: usize,
    min: u128,
    max: u128,
}

#[derive(Serialize)]
struct ClassJson {
    probability: String,
    ways: u128,
    count: usize,
    starts: String,
}

#[derive(Serialize)]
struct StartJson {
    sp: usize,
    probability: String,
    ways: u128,
}

#[derive(Serialize)]
struct ProcedureJson {
    procedure: String,
    fair: bool,
    reachable: usize,
    total_probability: String,
    unit: &'static str,
    expected: ExactJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_coins: Option<ExactJson>,
    ways: Vec<WaysJson>,
    classes: Vec<ClassJson>,
    starts: Vec<StartJson>,
}

#[derive(Serialize)]
struct FairnessJson {
    method: &'static str,
    procedures: Vec<ProcedureJson>,
}

/// The proofs of a method's procedures as one JSON object: per procedure `fair`,
/// `expected` (fraction, mixed, decimal), `ways` per length, `classes`, and every start's
/// probability and ways.
pub fn fairness_json(method: Method, analyses: &[(String, Analysis)]) -> String {
    let procedures = analyses
        .iter()
        .map(|(name, analysis)| {
            let (_, shortest) = analysis.shortest();
            ProcedureJson {
                procedure: name.clone(),
                fair: analysis.is_fair(),
                reachable: analysis.reachable(),
                total_probability: analysis.total.to_string(),
                unit: method.unit().1,
                expected: analysis.expected_values.into(),
                expected_coins: (method.info().counts_coins)
                    .then(|| analysis.expected_coins.into()),
                ways: analysis
                    .ways
                    .iter()
                    .map(|(length, ways)| WaysJson {
                        length: *length,
                        min: ways.iter().min().copied().unwrap_or(0),
                        max: ways.iter().max().copied().unwrap_or(0),
                    })
                    .collect(),
                classes: analysis
                    .classes()
                    .into_iter()
                    .map(|class| ClassJson {
                        probability: class.probability.to_string(),
                        ways: class.ways,
                        count: class.starts.len(),
                        starts: ranges(&class.starts),
                    })
                    .collect(),
                starts: analysis
                    .probabilities
                    .iter()
                    .enumerate()
                    .map(|(sp, probability)| StartJson {
                        sp,
                        probability: probability.to_string(),
                        ways: shortest.get(sp).copied().unwrap_or(0),
                    })
                    .collect(),
            }
        })
        .collect();
    serde_json::to_string(&FairnessJson {
        method: method.name(),
        procedures,
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::input::run;

    fn values(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn trace_of_the_literature_example() {
        let outcome = run(Method::Die, &values("3 5 1 4 6 2 1")).unwrap();
        let text = outcome_text(&outcome, CastlingNotation::Shredder).unwrap();
        assert_eq!(
            text,
            "roll 1: 3 -> dark-square bishop on e1, the 3rd dark square\n\
             roll 2: 5 -> roll again: there is no 5th light square\n\
             roll 3: 1 -> light-square bishop on b1, the 1st light square\n\
             roll 4: 4 -> queen on f1, the 4th empty square\n\
             roll 5: 6 -> roll again: there is no 6th empty square\n\
             roll 6: 2 -> knight on c1, the 2nd empty square\n\
             roll 7: 1 -> knight on a1, the 1st empty square\n\
             rooks on d1 and h1, king on g1 between them\n\
             SP 56: NBNRBQKR\n\
             nbnrbqkr/pppppppp/8/8/8/8/PPPPPPPP/NBNRBQKR w HDhd - 0 1\n"
        );
    }

    #[test]
    fn json_has_arrangement_and_sp() {
        let outcome = run(Method::Coins, &values("TH HT HTT THT HT")).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&outcome_json(&outcome, CastlingNotation::Shredder).unwrap())
                .unwrap();
        assert_eq!(json["arrangement"], "RNBQKBNR");
        assert_eq!(json["sp"], 518);
        assert_eq!(json["values"][0]["reading"], "2");
        assert_eq!(json["values"][0]["effect"], "placed");
        assert_eq!(json["values"][0]["placed"][0]["square"], "c1");
    }

    #[test]
    fn an_unfair_procedure_is_told_by_class() {
        // No method here is unfair now; a made-up analysis: SP 0-479 twice as likely as the
        // rest, SP 959 never drawn.
        let r = |n, d| Ratio::new(n, d).unwrap();
        let mut probabilities = vec![r(1, 720); 960];
        let mut ways = vec![2u128; 960];
        for sp in 480..960 {
            probabilities[sp] = r(1, 1440);
            ways[sp] = 1;
        }
        probabilities[959] = Ratio::ZERO;
        ways[959] = 0;
        let analysis = Analysis {
            probabilities,
            ways: vec![(5, ways)],
            expected_values: Ratio::integer(5),
            expected_coins: Ratio::ZERO,
            total: r(1439, 1440),
            states: 1,
        };
        assert!(!analysis.is_fair());
        assert_eq!(
            fairness_text("made-up", Method::Die, &analysis),
            "made-up: NOT fair: 959 of 960 starts can be drawn, in 3 classes\n  \
             480 starts, SP 0-479: probability 1/720 each, 2 ways\n  \
             479 starts, SP 480-958: probability 1/1440 each, 1 ways\n  \
             1 starts never drawn: SP 959\n\
             ways per start: 0 to 2 in 5 rolls (1439/960 on average)\n\
             expected rolls: 5\n"
        );
    }

    #[test]
    fn figures() {
        assert_eq!(exact(Ratio::new(67, 10).unwrap()), "67/10 = 6 7/10 = 6.7");
        assert_eq!(
            exact(Ratio::new(89, 15).unwrap()),
            "89/15 = 5 14/15 ≈ 5.933333"
        );
        assert_eq!(exact(Ratio::integer(4)), "4");
        assert_eq!(exact(Ratio::new(2, 3).unwrap()), "2/3 ≈ 0.666667");
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8");
        assert_eq!(ranges(&[]), "");
    }
}
