use std::collections::HashMap;

use super::book::pgn_book;
use super::*;
use crate::books::openings::Opening;
use crate::starts::notation::CastlingNotation;
use crate::starts::start::Start;
use crate::tournaments::runners::cutechess::rounds_per_cycle;

fn config(engines: usize, gauntlet: bool, starts: &str, rounds: u32) -> MatchConfig {
    let names: Vec<String> = (0..engines).map(|i| format!("e{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut request = MatchRequest::for_tests(&names);
    request.gauntlet = gauntlet;
    request.specs = vec![starts.parse().unwrap()];
    request.rounds = rounds;
    request.resolve().unwrap()
}

/// Every matchup meets every opening `--rounds` times in the runner's schedule, as in
/// the built-in runner's.
fn assert_complete(layout: &Layout, config: &MatchConfig) {
    let mut met = HashMap::<(usize, usize), u32>::new();
    for cycle in 0..layout.cycles {
        for matchup in 0..layout.matchups.len() {
            *met.entry((matchup, layout.opening(cycle, matchup)))
                .or_default() += 1;
        }
    }
    assert_eq!(met.len(), config.matchups.len() * config.openings.len());
    assert!(met.values().all(|&times| times == config.rounds), "{met:?}");
}

#[test]
fn the_book_reaches_every_matchup_with_every_opening() {
    for (engines, gauntlet, starts, rounds) in [
        (2, false, "100-102", 2),
        (3, false, "100-101", 1),
        (4, false, "100-104", 1),
        (4, false, "100-102", 6),
        (3, true, "100-102", 1),
        (4, true, "100-101", 3),
    ] {
        let config = config(engines, gauntlet, starts, rounds);
        for runner in [Runner::Cutechess, Runner::Fastchess] {
            let layout = Layout::new(&config, runner).unwrap();
            assert_complete(&layout, &config);
        }
    }
    // cutechess-cli counts Berger rounds: 4 engines, 3 a cycle; 5 engines (a bye), 5.
    let four = Layout::new(&config(4, false, "100", 1), Runner::Cutechess).unwrap();
    assert_eq!(rounds_per_cycle(&four.encounters), 3);
    let five = Layout::new(&config(5, false, "100", 1), Runner::Cutechess).unwrap();
    assert_eq!(rounds_per_cycle(&five.encounters), 5);
    // fastchess: 3 pairings of a round-robin and 3 openings cannot all meet in 3 rounds.
    let err = Layout::new(&config(3, false, "100-102", 1), Runner::Fastchess).unwrap_err();
    assert!(
        err.to_string()
            .contains("give --rounds a multiple of 3, or use --runner cutechess"),
        "{err}"
    );
    let three = config(3, false, "100-102", 3);
    assert_complete(&Layout::new(&three, Runner::Fastchess).unwrap(), &three);
}

#[test]
fn a_pgn_book_holds_each_openings_root_and_moves_for_cutechess() {
    let root: shakmaty::Chess = "100".parse::<Start>().unwrap().position().unwrap();
    let moves: Vec<_> = ["e2e4", "e7e5", "f1g3", "f8g6", "g1h1"]
        .iter()
        .scan(root.clone(), |position, uci| {
            use shakmaty::Position as _;
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(position)
                .unwrap();
            position.play_unchecked(m);
            Some(m)
        })
        .collect();
    let opening = Opening {
        label: "book.pgn:1".into(),
        root,
        moves,
    };
    let text = pgn_book(
        std::slice::from_ref(&opening),
        &[0, 0],
        CastlingNotation::Shredder,
    );
    assert_eq!(text.matches("[Variant \"fischerandom\"]").count(), 2);
    assert!(text.contains(
        "[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1\"]\n\n\
         1. e4 e5 2. Ng3 Ng6 3. O-O *\n"
    ));
}
