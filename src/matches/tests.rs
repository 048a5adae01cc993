//! The match's steps that need no engine: the schedule, what is left to play after
//! `--resume`, the refusals of a node limit for XBoard, and the report.

use super::*;
use crate::launch::spec::{NodeLimitError, check_node_limit};
use crate::matches::tally::results::Tally;
use crate::matches::tally::sprt::SprtDecision;
use crate::matches::tally::summary::{GameSummary, MatchRecord};
use crate::protocol::Protocol;

fn config(engines: &[&str], specs: &str, rounds: u32) -> MatchConfig {
    let mut request = MatchRequest::for_tests(engines);
    request.specs = vec![specs.parse().unwrap()];
    request.rounds = rounds;
    request.resolve().unwrap()
}

#[test]
fn xboard_gets_no_node_limit_and_each_refusal_says_when_it_was_found() {
    assert_eq!(
        check_node_limit(Protocol::Uci, Some(100), NodeLimitError::Game),
        Ok(())
    );
    assert_eq!(
        check_node_limit(Protocol::Xboard, None, NodeLimitError::Game),
        Ok(())
    );
    for (refusal, message) in [
        (
            NodeLimitError::Declared(2),
            "engine 2: XBoard has no node limit; use --depth, --movetime or --tc",
        ),
        (
            NodeLimitError::Spoken(1),
            "engine 1 speaks XBoard, which has no node limit; use --depth, --movetime or --tc",
        ),
        (
            NodeLimitError::Game,
            "XBoard has no node limit: use --depth, --movetime or --tc",
        ),
    ] {
        let err = check_node_limit(Protocol::Xboard, Some(100), refusal).unwrap_err();
        assert_eq!(err, refusal);
        let err = MatchError::from(err);
        assert_eq!(err.to_string(), message);
        assert_eq!(err.exit_code(), crate::exit_code::USAGE);
    }
}

#[test]
fn a_declared_xboard_engine_with_a_node_limit_is_refused_before_anything_starts() {
    let xboard = config(&["proto=xboard sjaakii", "stockfish"], "860", 1);
    let err = validate(&xboard).unwrap_err();
    assert!(
        matches!(err, MatchError::Limits(NodeLimitError::Declared(1))),
        "{err:?}"
    );
    // The same node limit for a UCI engine.
    validate(&config(&["proto=uci stockfish", "stockfish"], "860", 1)).unwrap();
}

#[test]
fn each_start_is_played_twice_colours_swapped_and_resume_leaves_the_rest() {
    let config = config(&["a", "b"], "100-101", 2);
    let games = schedule(&config);
    let seen: Vec<(usize, usize, usize, usize, usize)> = games
        .iter()
        .map(|game| (game.number, game.opening, game.white, game.black, game.pair))
        .collect();
    assert_eq!(
        seen,
        [
            (1, 0, 0, 1, 0),
            (2, 0, 1, 0, 0),
            (3, 1, 0, 1, 1),
            (4, 1, 1, 0, 1),
            (5, 0, 0, 1, 2),
            (6, 0, 1, 0, 2),
            (7, 1, 0, 1, 3),
            (8, 1, 1, 0, 3),
        ]
    );
    let read_back = |round| GameSummary {
        round,
        start: String::new(),
        white: "a".into(),
        black: "b".into(),
        result: "1/2-1/2".into(),
        termination: "normal".into(),
        reason: String::new(),
        plies: 10,
    };
    let resumed = || Resumed {
        pgn_start: 0,
        games: vec![read_back(1), read_back(4)],
    };
    let mut ledger = Ledger::new(2, false);
    let left: Vec<usize> = still_to_play(games.clone(), Some(resumed()), &ledger)
        .iter()
        .map(|game| game.number)
        .collect();
    assert_eq!(left, [2, 3, 5, 6, 7, 8]);
    // Once the SPRT has decided, nothing is left.
    ledger.decision = Some(SprtDecision::AcceptH0);
    assert!(still_to_play(games, Some(resumed()), &ledger).is_empty());
}

#[test]
fn the_report_writes_the_summary_then_says_the_match_was_interrupted() {
    let names = vec!["a".to_owned(), "b".to_owned()];
    let record = |interrupted| MatchRecord {
        games: Vec::new(),
        played: 3,
        pgn: "x.pgn".into(),
        wall_seconds: 1.0,
        runner_cpu_seconds: 0.0,
        interrupted,
    };
    let tally = Tally::new(2);
    let mut out = Vec::new();
    let summary = Summary::new(&tally, names.clone(), None, None, record(false));
    report(summary, false, &mut out).unwrap();
    let table = String::from_utf8(out).unwrap();
    assert!(
        table.ends_with("PGN: x.pgn (0 games appended)\n"),
        "{table}"
    );
    let mut out = Vec::new();
    let summary = Summary::new(&tally, names, None, None, record(true));
    let err = report(summary, true, &mut out).unwrap_err();
    assert_eq!(err.to_string(), "interrupted: 3 games saved to x.pgn");
    assert_eq!(err.exit_code(), crate::exit_code::INTERRUPTED);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["interrupted"], true);
}
