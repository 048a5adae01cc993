use super::*;
use crate::roll::{feed, feed_shown};

fn throw(d12: bool, values: &[u32]) -> (Vec<RollStep>, Option<Done>) {
    feed_shown(Polyhedral::new(d12), values)
}

#[test]
fn the_standard_start_four_ways() {
    // Bishops c1 and f1 either way round; knights b1 and g1 either way round.
    // With bishops on c1, f1 and the queen on d1 the empty squares are a1 b1 e1 g1 h1:
    // the d20 puts the first knight by its group (b1: 5-8, g1: 13-16) and the second
    // within it (g1 is the 3rd of a1 e1 g1 h1; b1 the 2nd of a1 b1 e1 h1).
    for values in [[3, 3, 3, 7], [3, 3, 3, 14], [6, 2, 3, 7], [6, 2, 3, 14]] {
        let (steps, done) = throw(false, &values);
        assert_eq!(done.unwrap().rank.to_string(), "RNBQKBNR", "{values:?}");
        assert!(steps.iter().all(|s| s.effect == Effect::Placed));
    }
}

#[test]
fn the_d20_places_both_knights() {
    let (steps, _) = throw(false, &[3, 3, 3, 7]);
    assert_eq!(
        steps[3].text,
        "knights on b1 (group 2: the 2nd of the five empty squares) and g1 (the 3rd of the four left)"
    );
    assert_eq!(steps[0].text, "bishop on c1 (a dark square)");
    assert_eq!(steps[1].text, "bishop on f1, the 3rd light square");
}

#[test]
fn with_a_d12_counting_round() {
    // d20 = 7 counts round a1 b1 e1 g1 h1 to b1; d12 = 11 counts round a1 e1 g1 h1 to g1.
    let (steps, done) = throw(true, &[3, 3, 3, 7, 11]);
    assert_eq!(done.unwrap().rank.to_string(), "RNBQKBNR");
    assert_eq!(steps[3].label, "d20");
    assert_eq!(
        steps[3].text,
        "knight on b1: counting 7 round the five empty squares ends on the 2nd"
    );
    assert_eq!(steps[4].label, "d12");
    assert_eq!(
        steps[4].text,
        "knight on g1: counting 11 round the four empty squares ends on the 3rd"
    );
    let mut poly = Polyhedral::new(true);
    feed(&mut poly, &[2, 2, 2]);
    assert_eq!(
        poly.ask().unwrap().decides,
        "the first knight, counting round the five empty squares: \
             1, 6, 11, 16 = a1; 2, 7, 12, 17 = b1; 3, 8, 13, 18 = e1; 4, 9, 14, 19 = g1; 5, 10, 15, 20 = h1"
    );
    feed(&mut poly, &[6]);
    assert_eq!(
        poly.ask().unwrap().decides,
        "the second knight, counting round the four empty squares: \
             1, 5, 9 = a1; 2, 6, 10 = e1; 3, 7, 11 = g1; 4, 8, 12 = h1"
    );
}

// 002_1e5e9696fc39c650.txt, the diagram "Starting position using four polyhedral dice":
// "d8=6 (bishop on f1)", "d4=4 (bishop on g1)", "d6=3 (queen on c1)", "d20=20 (knights
// on h1 and e1)", "king on b1; rooks on a1 and d1".
#[test]
fn the_texts_four_dice_example() {
    let (steps, done) = throw(false, &[6, 4, 3, 20]);
    let placed: Vec<Vec<(Role, usize)>> = steps.iter().map(|s| s.placed.clone()).collect();
    assert_eq!(
        placed,
        [
            vec![(Role::Bishop, 5)],
            vec![(Role::Bishop, 6)],
            vec![(Role::Queen, 2)],
            vec![(Role::Knight, 7), (Role::Knight, 4)],
        ]
    );
    let done = done.unwrap();
    assert_eq!(
        done.closing.as_deref(),
        Some("rooks on a1 and d1, king on b1 between them")
    );
    assert_eq!(done.rank.to_string(), "RKQRNBBN");
}

// 002_1e5e9696fc39c650.txt, step 4: "a 20 is in the fifth group and the fourth spot in
// that group, so place the knights on the fifth square and the fourth square. An 11 is
// in the third group and the third spot." (The step's formula "divide by four (round
// up), and let x = the quotient, and y = the remainder + 1" would give y = 1 for 20;
// the code follows the groups and these examples, as docs/starts.md says.)
#[test]
fn the_texts_d20_groups() {
    // Bishops a1 b1 (d8 = 1, d4 = 1), queen c1 (d6 = 1): the empty squares are d1 to h1.
    let (steps, _) = throw(false, &[1, 1, 1, 20]);
    assert_eq!(
        steps[3].text,
        "knights on h1 (group 5: the 5th of the five empty squares) and g1 (the 4th of the four left)"
    );
    let (steps, _) = throw(false, &[1, 1, 1, 11]);
    assert_eq!(
        steps[3].text,
        "knights on f1 (group 3: the 3rd of the five empty squares) and g1 (the 3rd of the four left)"
    );
    // The formula taken literally: 20 divided by four is 5, remainder 0, so y = 1 (the
    // example: 4); 11 rounds up to 3, remainder 3, so y = 4 (the example: 3).
    let formula = |d20: u32| (d20.div_ceil(4), d20 % 4 + 1);
    assert_eq!(formula(20), (5, 1));
    assert_eq!(formula(11), (3, 4));
}

// 002_1e5e9696fc39c650.txt, the diagram "Starting position using all five polyhedrals":
// "d8, d4, and d6 (same as with four polyhedrals)", "d20=20 (knight on h1)", "d12=11
// (knight on d1)", "king on b1; rooks on a1 and e1"; and step 4: "Place the first knight
// according to the value of the d20 die, by counting the five empty squares and looping
// back to the left ... Then with four empty squares remaining, do the same for the other
// knight using the dodecahedron (d12) die."
#[test]
fn the_texts_five_dice_example() {
    let (steps, done) = throw(true, &[6, 4, 3, 20, 11]);
    assert_eq!(steps[3].label, "d20");
    assert_eq!(steps[3].placed, [(Role::Knight, 7)]);
    assert_eq!(steps[4].label, "d12");
    assert_eq!(steps[4].placed, [(Role::Knight, 3)]);
    let done = done.unwrap();
    assert_eq!(
        done.closing.as_deref(),
        Some("rooks on a1 and e1, king on b1 between them")
    );
    assert_eq!(done.rank.to_string(), "RKQNRBBN");
    assert_eq!(done.rank.number().number(), 814);
}

#[test]
fn asks_name_the_dice_in_order() {
    let mut poly = Polyhedral::new(false);
    let mut labels = Vec::new();
    while let Some(ask) = poly.ask() {
        labels.push(ask.label);
        poly.take(0);
    }
    assert_eq!(labels, WITHOUT_D12);
    assert_eq!(poly.done().unwrap().rank.to_string(), "BBQNNRKR");
}
