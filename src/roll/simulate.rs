//! `sp960 random --method METHOD`: the physical procedure with a seeded die or coin, so
//! that a club can print reproducible roll sequences. The faces come from ChaCha8 seeded
//! as [`crate::starts::start::RandomStarts`] is, so the same seed gives the same rolls on every
//! platform; each line says which `sp960 roll` arguments repeat the draw.

use std::io::Write;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::registry::Values;
use super::{Method, Procedure, RollOutcome, RollStep};
use crate::starts::commands::CommandError;
use crate::starts::notation::{CastlingNotation, start_fen};
use crate::starts::start::Start;

/// One draw of `method` with faces from `rng` (the polyhedral method with its four dice).
pub fn draw(method: Method, rng: &mut ChaCha8Rng) -> Option<RollOutcome> {
    let mut procedure = method.procedure(false);
    let mut steps: Vec<RollStep> = Vec::new();
    while let Some(ask) = procedure.ask() {
        let face = rng.random_range(0..ask.device.outcomes());
        steps.push(procedure.take(face));
    }
    Some(RollOutcome {
        method,
        steps,
        done: procedure.done()?,
    })
}

/// The values of a draw as `sp960 roll` takes them: `3 5 1 4 6 2 1`, `d8=3 d4=2 ...`,
/// `THTTHHHHTT`.
pub fn command_line(outcome: &RollOutcome) -> String {
    let steps = outcome.steps.iter();
    match outcome.method.info().values {
        Values::Named { .. } => steps
            .map(|step| format!("{}={}", step.label, step.value))
            .collect::<Vec<_>>()
            .join(" "),
        Values::Letters => steps.map(|step| step.value.as_str()).collect(),
        Values::OnePerArgument => steps
            .map(|step| step.value.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// `count` draws of `method` from `seed` (both sides drawn, white first, with `dfrc`), one
/// line each: the start, its FEN, and `roll METHOD VALUES` for each side drawn.
pub fn print_random_rolls(
    count: u64,
    seed: u64,
    dfrc: bool,
    method: Method,
    castling: CastlingNotation,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..count {
        let sides = if dfrc { 2 } else { 1 };
        let mut draws = Vec::new();
        for _ in 0..sides {
            // A procedure here always finishes with a start; `None` cannot occur.
            if let Some(outcome) = draw(method, &mut rng) {
                draws.push(outcome);
            }
        }
        let [white, black] = match &draws[..] {
            [one] => [one, one],
            [white, black] => [white, black],
            _ => continue,
        };
        let start = Start {
            white: white.done.rank.number(),
            black: black.done.rank.number(),
        };
        let rolls: Vec<String> = draws
            .iter()
            .map(|outcome| format!("roll {method} {}", command_line(outcome)))
            .collect();
        writeln!(
            out,
            "{start} {} {}",
            start_fen(start, castling)?,
            rolls.join(" ")
        )?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::input::run;

    #[test]
    fn every_draw_is_repeated_by_its_roll_arguments() {
        for method in Method::ALL {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            for _ in 0..200 {
                let outcome = draw(method, &mut rng).unwrap();
                let line = command_line(&outcome);
                let values: Vec<String> = line.split(' ').map(String::from).collect();
                let again = run(method, &values).unwrap();
                assert_eq!(again.done.rank, outcome.done.rank, "{method} {line}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_lines() {
        let print = |seed: u64, dfrc: bool| {
            let mut out = Vec::new();
            print_random_rolls(
                5,
                seed,
                dfrc,
                Method::Die,
                CastlingNotation::Shredder,
                &mut out,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(print(3, false), print(3, false));
        assert_ne!(print(3, false), print(4, false));
        for line in print(9, true).lines() {
            assert_eq!(line.matches(" roll die ").count(), 2, "{line}");
            let start: Start = line.split(' ').next().unwrap().parse().unwrap();
            let fen: Vec<&str> = line.split(' ').skip(1).take(6).collect();
            assert_eq!(
                crate::starts::identify::identify(&fen.join(" ")).unwrap(),
                start
            );
        }
    }
}
