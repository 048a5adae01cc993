//! Which starts a book, a tournament or a match plays, as the user asks for them: SPECs,
//! the word `random` for `count` uniformly random classic starts, and a sample of random
//! double-FRC pairs, all drawn from one seed. Shared by `sp960 book`, `sp960 tournament`
//! and `sp960 match`.

use thiserror::Error;

use super::start::{InvalidStart, RandomStarts, Spec, SpecError, SpecItem, Start};

/// Which starts go into a book, in the order written: each SPEC as `sp960 fen` takes it,
/// the word `random` standing for `count` uniformly random classic starts; then a sample
/// of `dfrc_sample` random double-FRC pairs. Random draws come from `seed` (ChaCha8: the
/// same on every machine).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BookRequest {
    /// SPECs (`860`, `0-9`, `all`, `0:959`, lists) and the word `random`, read.
    pub specs: Vec<Spec>,
    /// How many random classic starts each `random` stands for.
    pub count: u64,
    /// How many random double-FRC pairs to add at the end.
    pub dfrc_sample: u64,
    /// Seed for the random draws.
    pub seed: u64,
}

/// Why a book could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// A SPEC that does not parse (its command's reader names it so: [`BookError::spec`]).
    #[error("SPEC '{spec}': {source}")]
    Spec {
        /// The SPEC as the user wrote it.
        spec: String,
        /// Why it is wrong.
        source: SpecError,
    },
    /// Nothing asked for.
    #[error("no starts: give a SPEC, `random --count K` or --dfrc-sample K")]
    Empty,
    /// More random starts than a book may hold.
    #[error(
        "{requested} random starts asked for (--count times each `random`, plus --dfrc-sample); \
         a book holds at most {MAX_RANDOM_STARTS}"
    )]
    TooManyRandom {
        /// The random starts asked for (saturating).
        requested: u64,
    },
    /// A start shakmaty refused (a bug).
    #[error(transparent)]
    Invalid(#[from] InvalidStart),
}

impl BookError {
    /// Reads one SPEC of a book, a tournament or a match, naming it when it is refused.
    pub fn spec(text: &str) -> Result<Spec, BookError> {
        text.parse().map_err(|source| BookError::Spec {
            spec: text.to_owned(),
            source,
        })
    }
}

impl BookRequest {
    /// Expands the request into starts.
    pub fn starts(&self) -> Result<Vec<Start>, BookError> {
        let requested = self
            .count
            .saturating_mul(self.random_specs())
            .saturating_add(self.dfrc_sample);
        if requested > MAX_RANDOM_STARTS {
            return Err(BookError::TooManyRandom { requested });
        }
        let mut starts = Vec::new();
        let mut random = RandomStarts::new(self.seed, false);
        for item in self.specs.iter().flat_map(Spec::items) {
            match item {
                SpecItem::Random => starts.extend(random.by_ref().take(self.count as usize)),
                listed => listed.extend(&mut starts),
            }
        }
        // A stream of its own, so the sample does not change with the `random` count.
        starts.extend(
            RandomStarts::new(self.seed ^ DFRC_STREAM, true).take(self.dfrc_sample as usize),
        );
        if starts.is_empty() {
            return Err(BookError::Empty);
        }
        Ok(starts)
    }

    /// How many SPECs are the word `random` (each stands for `count` random starts).
    pub fn random_specs(&self) -> u64 {
        self.specs.iter().filter(|spec| spec.is_random()).count() as u64
    }

    /// The request for `specs`, `count` random starts per `random`, `dfrc_sample` pairs,
    /// drawn from `seed`; a request that draws without a seed gets a fresh one, returned
    /// beside it to be told so the run can be repeated.
    pub fn seeded(
        specs: Vec<Spec>,
        count: u64,
        dfrc_sample: u64,
        seed: Option<u64>,
    ) -> (BookRequest, Option<u64>) {
        let mut request = BookRequest {
            specs,
            count,
            dfrc_sample,
            seed: seed.unwrap_or(0),
        };
        let drawn = (seed.is_none() && request.is_random()).then(RandomStarts::fresh_seed);
        if let Some(fresh) = drawn {
            request.seed = fresh;
        }
        (request, drawn)
    }

    /// True when the request draws random starts (and so depends on the seed).
    pub fn is_random(&self) -> bool {
        self.dfrc_sample > 0 || self.random_specs() > 0
    }
}

/// The most random starts a book is made of: far more than any match plays (there are
/// 921,600 DFRC pairs), and the book is built in memory.
pub const MAX_RANDOM_STARTS: u64 = 1_000_000;

/// Distinguishes the DFRC sample's random stream from the classic one for the same seed.
const DFRC_STREAM: u64 = 0x0dfc_0dfc_0dfc_0dfc;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::numbering::StartPosition;
    use crate::starts::start::spec_items;

    fn specs(texts: &[&str]) -> Vec<Spec> {
        texts.iter().map(|text| text.parse().unwrap()).collect()
    }

    fn sp(n: u64) -> StartPosition {
        StartPosition::new(n).unwrap()
    }

    #[test]
    fn a_spec_is_read_once_into_items() {
        assert_eq!(
            spec_items(" 860, 0-2 ,all,3:4").unwrap(),
            [
                SpecItem::Number(sp(860)),
                SpecItem::Range(sp(0), sp(2)),
                SpecItem::All,
                SpecItem::Pair(Start {
                    white: sp(3),
                    black: sp(4)
                })
            ]
        );
        assert_eq!(spec_items(" Random ").unwrap(), [SpecItem::Random]);
        // `random` is a whole SPEC, not an item of a list.
        assert_eq!(
            spec_items("1,random"),
            Err(SpecError::Malformed("random".into()))
        );
        assert_eq!(spec_items("5-3"), Err(SpecError::Backwards(5, 3)));
    }

    #[test]
    fn each_random_spec_stands_for_count_starts() {
        let request = BookRequest {
            specs: specs(&["RANDOM", "1-2", "random"]),
            count: 3,
            seed: 5,
            ..BookRequest::default()
        };
        assert_eq!(request.random_specs(), 2);
        assert!(request.is_random());
        let starts = request.starts().unwrap();
        assert_eq!(starts.len(), 3 + 2 + 3);
        assert_eq!(
            starts[3..5],
            [Start::symmetric(sp(1)), Start::symmetric(sp(2))]
        );
        // `random` in a list is no SPEC, named by the book's reader.
        assert_eq!(
            BookError::spec("1,random").unwrap_err().to_string(),
            "SPEC '1,random': 'random' is not a start-position spec (expected N, A-B, all, W:B \
             or a comma-separated list)"
        );
    }
}
