use super::*;
use crate::starts::castling::{CastlingDialect, move_text};

fn settings() -> WalkSettings {
    WalkSettings {
        plies: 2,
        per_start: 2,
        window: Some(Window { low: -35, high: 35 }),
        margin: 50,
        multipv: 4,
        tries: 40,
        seed: 1,
    }
}

fn start(spec: &str) -> Start {
    spec.parse().unwrap()
}

fn walk(spec: &str, settings: WalkSettings) -> Walk {
    Walk::new(
        start(spec),
        start_seed(settings.seed, start(spec), 0),
        settings,
    )
    .unwrap()
}

/// A scripted engine: every legal move is a line, scored by `score` of the position
/// after it (from the mover's side); the final search scores the position itself.
fn answer(
    walk: &Walk,
    request: &SearchRequest,
    score: &dyn Fn(&Chess, &str) -> i32,
) -> EngineAnswer {
    let mut position = walk.root().clone();
    for m in &request.moves {
        position.play_unchecked(*m);
    }
    let mut lines: Vec<PvLine> = position
        .legal_moves()
        .iter()
        .map(|m| {
            let text = move_text(m, CastlingDialect::Chess960);
            PvLine {
                score: EngineScore::Centipawns(score(&position, &text)),
                first_move: text,
            }
        })
        .collect();
    lines.sort_by_key(|line| std::cmp::Reverse(rank(line.score)));
    lines.truncate(request.lines as usize);
    if request.lines == 1 {
        // The final search: the position's own score.
        lines[0].score = EngineScore::Centipawns(score(&position, ""));
    }
    EngineAnswer {
        lines,
        depth: Some(7),
        nodes: Some(1000),
    }
}

/// Runs the walk to the end; returns its openings and how often the start position
/// itself was searched.
fn run(walk: &mut Walk, score: &dyn Fn(&Chess, &str) -> i32) -> (StartOpenings, usize) {
    let mut searches = 0;
    loop {
        match walk.step() {
            WalkStep::Search(request) => {
                searches += usize::from(request.moves.is_empty());
                let result = answer(walk, &request, score);
                walk.feed(result).unwrap();
            }
            WalkStep::Done(done) => return (done, searches),
        }
    }
}

/// A deterministic spread of scores over -60..59: by the move's text, or for the
/// final search (no move) by the position's key.
fn spread(position: &Chess, text: &str) -> i32 {
    if text.is_empty() {
        let key = position_key(position);
        let sum: usize = key
            .bytes()
            .enumerate()
            .map(|(i, b)| (i + 1) * usize::from(b))
            .sum();
        return (sum % 120) as i32 - 60;
    }
    let bytes = text.as_bytes();
    (i32::from(bytes[0]) * 7 + i32::from(bytes[2]) * 13 + i32::from(bytes[3])) % 120 - 60
}

#[test]
fn openings_are_distinct_in_the_window_and_reproducible() {
    let (done, searches) = run(&mut walk("860", settings()), &spread);
    assert_eq!(done.openings.len(), 2);
    let keys: HashSet<String> = done
        .openings
        .iter()
        .map(|o| position_key(&o.position))
        .collect();
    assert_eq!(keys.len(), 2);
    for opening in &done.openings {
        assert_eq!(opening.moves.len(), 2);
        // White to move after two plies: the score is White's.
        assert!((-35..=35).contains(&opening.score), "{}", opening.score);
        assert_eq!((opening.depth, opening.nodes), (Some(7), Some(1000)));
    }
    // The start position was searched once for all walks.
    assert!(done.tries >= 2);
    assert_eq!(searches, 1);
    let (again, _) = run(&mut walk("860", settings()), &spread);
    assert_eq!(again, done);
    let other = WalkSettings {
        seed: 2,
        ..settings()
    };
    let (reseeded, _) = run(&mut walk("860", other), &spread);
    assert_ne!(reseeded.openings, done.openings);
}

#[test]
fn moves_are_chosen_within_the_margin_only() {
    // One move scores 100, the rest -100: with a 50 cp margin only that one is played.
    let one = |position: &Chess, text: &str| {
        let best = move_text(&position.legal_moves()[0], CastlingDialect::Chess960);
        if text == best { 100 } else { -100 }
    };
    let wide = WalkSettings {
        window: None,
        per_start: 5,
        tries: 5,
        ..settings()
    };
    let (done, _) = run(&mut walk("518", wide.clone()), &one);
    // Every walk plays the same two moves: one position, and the start is done after
    // the first walk (all the others would be the same).
    assert_eq!(done.openings.len(), 1);
    assert_eq!(done.tries, 5);
    assert_eq!(done.evaluated, 1);
    // A margin of 200 lets every move in: more distinct positions.
    let (many, _) = run(
        &mut walk(
            "518",
            WalkSettings {
                margin: 200,
                ..wide
            },
        ),
        &one,
    );
    assert!(many.openings.len() > 1);
}

#[test]
fn scores_are_judged_from_whites_side_and_mates_are_never_kept() {
    // After one ply black is to move; the engine says +50 for black = -50 for White.
    let black_up = |_: &Chess, _: &str| 50;
    let odd = WalkSettings {
        plies: 1,
        window: Some(Window {
            low: -60,
            high: -40,
        }),
        per_start: 1,
        ..settings()
    };
    let (done, _) = run(&mut walk("0", odd.clone()), &black_up);
    assert_eq!(done.openings.len(), 1);
    assert_eq!(done.openings[0].score, 50);
    let flipped = WalkSettings {
        window: Some(Window { low: 40, high: 60 }),
        tries: 3,
        ..odd
    };
    let (none, _) = run(&mut walk("0", flipped), &black_up);
    assert!(none.openings.is_empty());
    assert_eq!(none.tries, 3);
    // A mate score is outside every window, and outside "no window".
    let mut w = walk(
        "0",
        WalkSettings {
            window: None,
            tries: 2,
            ..settings()
        },
    );
    loop {
        match w.step() {
            WalkStep::Search(request) => {
                let mut result = answer(&w, &request, &spread);
                if request.lines == 1 {
                    result.lines[0].score = EngineScore::Mate(3);
                }
                w.feed(result).unwrap();
            }
            WalkStep::Done(done) => {
                assert!(done.openings.is_empty());
                assert_eq!(done.evaluated, 2);
                break;
            }
        }
    }
}

#[test]
fn bad_answers_are_errors() {
    let mut w = walk("860", settings());
    assert_eq!(w.feed(EngineAnswer::default()), Err(WalkError::Unasked));
    let WalkStep::Search(_) = w.step() else {
        panic!()
    };
    let bad = EngineAnswer {
        lines: vec![PvLine {
            first_move: "e2e5".into(),
            score: EngineScore::Centipawns(0),
        }],
        ..EngineAnswer::default()
    };
    assert_eq!(w.feed(bad), Err(WalkError::IllegalMove("e2e5".into())));
    let WalkStep::Search(_) = w.step() else {
        panic!()
    };
    assert_eq!(w.feed(EngineAnswer::default()), Err(WalkError::NoLines(20)));
}

#[test]
fn seeds_differ_by_start_and_occurrence() {
    let a = start_seed(7, start("860"), 0);
    assert_eq!(a, start_seed(7, start("860"), 0));
    assert_ne!(a, start_seed(7, start("860"), 1));
    assert_ne!(a, start_seed(7, start("861"), 0));
    assert_ne!(a, start_seed(8, start("860"), 0));
    assert_ne!(
        start_seed(7, start("0:959"), 0),
        start_seed(7, start("959:0"), 0)
    );
}
