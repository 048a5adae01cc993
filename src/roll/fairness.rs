//! Proofs of fairness by exhaustive enumeration, in exact fractions.
//!
//! The procedure's own stepper is run on every face from every state it can reach, so
//! the proof is about the code that reads the values, not a model of it. The states form
//! a finite Markov chain whose cycles are the re-rolls and restarts. The expected number
//! of visits to each state (the start state once, then whatever flows in) is solved
//! exactly, one strongly connected component at a time in topological order, by Gaussian
//! elimination over [`Ratio`]s. From the visits follow the probability of every start and
//! the expected number of values (each visit consumes one). Separately, the ways each
//! start is reached are counted for each number of values from the shortest on.

use std::collections::HashMap;

use thiserror::Error;

use super::Procedure;
use super::ratio::Ratio;
use crate::starts::numbering::COUNT;

/// How many lengths of value sequences the way counts cover, from the shortest.
pub const LENGTHS: usize = 4;

/// Why a proof could not be completed (a bug or a procedure that may never end).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FairnessError {
    /// An exact figure outgrew 128 bits.
    #[error("fairness: an exact figure outgrew 128-bit fractions")]
    Overflow,
    /// A set of states the procedure can never leave.
    #[error("fairness: the procedure can loop forever without drawing a start")]
    Endless,
    /// More states than the proof explores.
    #[error("fairness: more than {0} states")]
    TooLarge(usize),
}

/// The exact figures of one procedure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The probability of each SP, 0 to 959.
    pub probabilities: Vec<Ratio>,
    /// Ways (value sequences) to each SP, for the first [`LENGTHS`] lengths at which any
    /// start is drawn: `(length, ways per SP)`.
    pub ways: Vec<(usize, Vec<u128>)>,
    /// The expected number of values (rolls, throws, tosses or dice).
    pub expected_values: Ratio,
    /// The expected number of coins tossed (zero for dice).
    pub expected_coins: Ratio,
    /// The probability that a start is drawn at all (1 for a procedure that ends).
    pub total: Ratio,
    /// How many distinct states the procedure passes through.
    pub states: usize,
}

/// Starts with one probability and one number of shortest ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// Their probability each.
    pub probability: Ratio,
    /// Their ways each, at the shortest length.
    pub ways: u128,
    /// The SPs, ascending.
    pub starts: Vec<u16>,
}

impl Analysis {
    /// True when every start has probability exactly 1/960.
    pub fn is_fair(&self) -> bool {
        let each = Ratio::new(1, i128::from(COUNT)).unwrap_or(Ratio::ZERO);
        self.total == Ratio::ONE && self.probabilities.iter().all(|&p| p == each)
    }

    /// How many starts can be drawn at all.
    pub fn reachable(&self) -> usize {
        self.probabilities.iter().filter(|p| !p.is_zero()).count()
    }

    /// The shortest length of a sequence that draws a start, and the ways per SP at it.
    pub fn shortest(&self) -> (usize, &[u128]) {
        self.ways
            .first()
            .map_or((0, &[][..]), |(length, ways)| (*length, ways))
    }

    /// The starts grouped by probability and shortest ways, most likely first.
    pub fn classes(&self) -> Vec<Class> {
        let (_, ways) = self.shortest();
        let mut classes: Vec<Class> = Vec::new();
        for (sp, &probability) in self.probabilities.iter().enumerate() {
            let ways = ways.get(sp).copied().unwrap_or(0);
            match classes
                .iter_mut()
                .find(|c| c.probability == probability && c.ways == ways)
            {
                Some(class) => class.starts.push(sp as u16),
                None => classes.push(Class {
                    probability,
                    ways,
                    starts: vec![sp as u16],
                }),
            }
        }
        classes.sort_by(|a, b| b.probability.cmp(&a.probability).then(b.ways.cmp(&a.ways)));
        classes
    }
}

/// Where a face leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    State(usize),
    Start(u16),
}

/// The explored chain: for each state, the number of faces and where each leads.
struct Chain {
    edges: Vec<Vec<Target>>,
    coins: Vec<u32>,
}

/// The most states explored before giving up.
const MAX_STATES: usize = 100_000;

fn explore<P: Procedure>(start: P) -> Result<Chain, FairnessError> {
    let mut index: HashMap<P, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    index.insert(start, 0);
    let mut chain = Chain {
        edges: Vec::new(),
        coins: Vec::new(),
    };
    let mut next = 0;
    while next < states.len() {
        let state = states[next].clone();
        next += 1;
        let Some(ask) = state.ask() else {
            // A state that is done without a value never arises from the start states
            // used here; treat it as a dead end so that the totals show it.
            chain.edges.push(Vec::new());
            chain.coins.push(0);
            continue;
        };
        let mut edges = Vec::new();
        for face in 0..ask.device.outcomes() {
            let mut after = state.clone();
            after.take(face);
            let target = match (after.ask(), after.done()) {
                (None, Some(done)) => Target::Start(done.rank.number().number()),
                _ => match index.get(&after) {
                    Some(&known) => Target::State(known),
                    None => {
                        if states.len() >= MAX_STATES {
                            return Err(FairnessError::TooLarge(MAX_STATES));
                        }
                        index.insert(after.clone(), states.len());
                        states.push(after);
                        Target::State(states.len() - 1)
                    }
                },
            };
            edges.push(target);
        }
        chain.edges.push(edges);
        chain.coins.push(ask.device.coins());
    }
    Ok(chain)
}

/// Tarjan's strongly connected components, in reverse topological order (a component
/// comes after every component it leads to).
fn components(edges: &[Vec<Target>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        edges: &'a [Vec<Target>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.counter);
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for target in &self.edges[v] {
                let Target::State(w) = *target else { continue };
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(index) if self.on_stack[w] => self.low[v] = self.low[v].min(index),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.out.push(component);
            }
        }
    }
    let n = edges.len();
    let mut tarjan = Tarjan {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan.out
}

fn add(a: Ratio, b: Ratio) -> Result<Ratio, FairnessError> {
    a.checked_add(b).ok_or(FairnessError::Overflow)
}

fn mul(a: Ratio, b: Ratio) -> Result<Ratio, FairnessError> {
    a.checked_mul(b).ok_or(FairnessError::Overflow)
}

/// Solves `x A = b` for the row vector `x`, where `A = I − Q` over one component.
fn solve(mut matrix: Vec<Vec<Ratio>>, mut rhs: Vec<Ratio>) -> Result<Vec<Ratio>, FairnessError> {
    // Transpose to the column form A^T x^T = b^T, then plain elimination.
    let n = rhs.len();
    let mut a: Vec<Vec<Ratio>> = (0..n)
        .map(|i| (0..n).map(|j| matrix[j][i]).collect())
        .collect();
    matrix.clear();
    for col in 0..n {
        let pivot = (col..n)
            .find(|&row| !a[row][col].is_zero())
            .ok_or(FairnessError::Endless)?;
        a.swap(col, pivot);
        rhs.swap(col, pivot);
        let p = a[col][col];
        for row in 0..n {
            if row == col || a[row][col].is_zero() {
                continue;
            }
            let factor = a[row][col].checked_div(p).ok_or(FairnessError::Overflow)?;
            let pivot_row = a[col].clone();
            for (k, cell) in a[row].iter_mut().enumerate().skip(col) {
                let delta = mul(factor, pivot_row[k])?;
                *cell = cell.checked_sub(delta).ok_or(FairnessError::Overflow)?;
            }
            let delta = mul(factor, rhs[col])?;
            rhs[row] = rhs[row].checked_sub(delta).ok_or(FairnessError::Overflow)?;
        }
    }
    (0..n)
        .map(|i| rhs[i].checked_div(a[i][i]).ok_or(FairnessError::Endless))
        .collect()
}

/// The exact figures of the procedure that starts in `start`.
pub fn analyse<P: Procedure>(start: P) -> Result<Analysis, FairnessError> {
    let chain = explore(start)?;
    let n = chain.edges.len();
    let mut order = components(&chain.edges);
    order.reverse();
    let mut inflow = vec![Ratio::ZERO; n];
    inflow[0] = Ratio::ONE;
    let mut visits = vec![Ratio::ZERO; n];
    let mut probabilities = vec![Ratio::ZERO; usize::from(COUNT)];
    let mut component_of = vec![0; n];
    for (c, component) in order.iter().enumerate() {
        for &s in component {
            component_of[s] = c;
        }
    }
    for (c, component) in order.iter().enumerate() {
        // Visits within the component: x = in + x Q, that is x (I − Q) = in.
        let position: HashMap<usize, usize> =
            component.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let m = component.len();
        let mut matrix = vec![vec![Ratio::ZERO; m]; m];
        for (i, &s) in component.iter().enumerate() {
            matrix[i][i] = Ratio::ONE;
            let p = Ratio::new(1, chain.edges[s].len() as i128).ok_or(FairnessError::Endless)?;
            for target in &chain.edges[s] {
                if let Target::State(t) = *target
                    && let Some(&j) = position.get(&t)
                {
                    matrix[i][j] = matrix[i][j].checked_sub(p).ok_or(FairnessError::Overflow)?;
                }
            }
        }
        let rhs: Vec<Ratio> = component.iter().map(|&s| inflow[s]).collect();
        let solved = solve(matrix, rhs)?;
        for (i, &s) in component.iter().enumerate() {
            visits[s] = solved[i];
            if chain.edges[s].is_empty() {
                continue;
            }
            let share = mul(
                visits[s],
                Ratio::new(1, chain.edges[s].len() as i128).ok_or(FairnessError::Endless)?,
            )?;
            for target in &chain.edges[s] {
                match *target {
                    Target::Start(sp) => {
                        let slot = &mut probabilities[usize::from(sp)];
                        *slot = add(*slot, share)?;
                    }
                    Target::State(t) if component_of[t] != c => {
                        inflow[t] = add(inflow[t], share)?;
                    }
                    Target::State(_) => {}
                }
            }
        }
    }
    let mut expected_values = Ratio::ZERO;
    let mut expected_coins = Ratio::ZERO;
    for (s, &visit) in visits.iter().enumerate() {
        if chain.edges[s].is_empty() {
            continue;
        }
        expected_values = add(expected_values, visit)?;
        expected_coins = add(
            expected_coins,
            mul(visit, Ratio::integer(i128::from(chain.coins[s])))?,
        )?;
    }
    let mut total = Ratio::ZERO;
    for &p in &probabilities {
        total = add(total, p)?;
    }
    Ok(Analysis {
        probabilities,
        ways: count_ways(&chain),
        expected_values,
        expected_coins,
        total,
        states: n,
    })
}

/// Sequences of each length reaching each start, for the first [`LENGTHS`] lengths at
/// which any start is reached (fewer when no sequence goes on).
fn count_ways(chain: &Chain) -> Vec<(usize, Vec<u128>)> {
    let mut live: HashMap<usize, u128> = HashMap::from([(0, 1)]);
    let mut found: Vec<(usize, Vec<u128>)> = Vec::new();
    let mut length = 0;
    // Bounded: no procedure here needs more than a few dozen values to draw its first start.
    while !live.is_empty() && found.len() < LENGTHS && length < 64 {
        length += 1;
        let mut ways = vec![0u128; usize::from(COUNT)];
        let mut next: HashMap<usize, u128> = HashMap::new();
        for (&s, &count) in &live {
            for target in &chain.edges[s] {
                match *target {
                    Target::Start(sp) => {
                        ways[usize::from(sp)] = ways[usize::from(sp)].saturating_add(count)
                    }
                    Target::State(t) => {
                        let slot = next.entry(t).or_default();
                        *slot = slot.saturating_add(count);
                    }
                }
            }
        }
        if ways.iter().any(|&w| w > 0) {
            found.push((length, ways));
        }
        live = next;
    }
    found
}

#[cfg(test)]
#[path = "fairness_tests.rs"]
mod tests;
