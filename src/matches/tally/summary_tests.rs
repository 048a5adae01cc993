use super::*;
use crate::matches::tally::counts::{Outcome, PairCounts};
use crate::matches::tally::sprt::parse_sprt;

fn summary(pairs: PairCounts, sprt: Option<&str>) -> Summary {
    let config = sprt.map(|words| parse_sprt([words]).unwrap());
    let stats = match_stats(&Counts::Pairs(pairs), config.as_ref());
    let score = pairs.score();
    Summary {
        engines: vec!["Stockfish 15.1".into(), "Ethereal 12.00".into()],
        standings: Vec::new(),
        pairs: Vec::new(),
        interrupted: false,
        score,
        score_fraction: score.fraction(),
        elo: None,
        elo_margin: None,
        games: Vec::new(),
        played: 0,
        pgn: "games.pgn".into(),
        wall_seconds: 1.0,
        runner_cpu_seconds: 0.01,
        sprt: config.map(|_| stats.decision.unwrap_or(SprtDecision::Continue)),
        stats,
        unpaired_games: 0,
    }
}

#[test]
fn table_shows_both_sides_and_the_pair_statistics() {
    use Outcome::{Draw, Loss, Win};
    let mut pairs = PairCounts::default();
    for (a, b) in [(Win, Draw), (Win, Loss), (Draw, Draw), (Win, Draw)] {
        pairs.add(a, b);
    }
    let table = summary_table(&summary(pairs, Some("elo0=0 elo1=10 alpha=0.05 beta=0.05")));
    assert!(
        table.contains("Stockfish 15.1      8     3      4       1   62.5%"),
        "{table}"
    );
    assert!(
        table.contains("Ethereal 12.00      8     1      4       3   37.5%"),
        "{table}"
    );
    let stats = match_stats(&Counts::Pairs(pairs), None);
    let elo = format!(
        "Elo difference (Stockfish 15.1 - Ethereal 12.00): {:+.2} +/- {:.2} (95%)",
        stats.elo.unwrap(),
        stats.elo_error.unwrap()
    );
    assert!(table.contains(&elo), "{table}");
    assert!(table.contains("nElo: +"), "{table}");
    assert!(table.contains("LOS: "), "{table}");
    assert!(table.contains("draw ratio: 50.00%"), "{table}");
    assert!(
        table.contains("Pentanomial (LL, LD, WL+DD, WD, WW): [0, 0, 2, 2, 0]"),
        "{table}"
    );
    assert!(table.contains("SPRT: LLR "), "{table}");
    assert!(table.contains("(-2.94, 2.94): inconclusive"), "{table}");
    assert!(!table.contains("inf"), "{table}");
}

#[test]
fn three_engines_get_standings_best_first_and_a_line_per_matchup() {
    use crate::matches::tally::results::{GameResult, Tally};
    use Outcome::{Draw, Loss, Win};
    let names: Vec<String> = ["A", "Bee", "C"].map(String::from).to_vec();
    let mut tally = Tally::new(3);
    for (pair, white, black, white_outcome) in [
        (0, 0, 1, Loss),
        (0, 1, 0, Win),
        (1, 0, 2, Draw),
        (1, 2, 0, Draw),
        (2, 1, 2, Draw),
        (2, 2, 1, Draw),
    ] {
        tally.add(GameResult {
            pair,
            white,
            black,
            white_outcome,
        });
    }
    let mut three = summary(tally.pairs(0), None);
    three.engines = names.clone();
    three.standings = tally.standings(&names);
    three.pairs = tally.matchups(&names);
    three.games = vec![
        GameSummary {
            round: 1,
            start: "0".into(),
            white: "A".into(),
            black: "Bee".into(),
            result: "0-1".into(),
            termination: "normal".into(),
            reason: String::new(),
            plies: 1,
        };
        6
    ];
    three.played = 6;
    let table = summary_table(&three);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("Rank  Engine"), "{table}");
    assert!(
        lines[1]
            .starts_with("   1  Bee         4     2      2       0   75.0%  +190.85 +/- undefined"),
        "{table}"
    );
    assert!(
        lines[3].starts_with("   3  A           4     0      2       2   25.0%  -190.85"),
        "{table}"
    );
    assert!(
        table.contains("A vs Bee: +0 =0 -2 (0.0%), Elo undefined (one-sided score (100% or 0%)), pentanomial [1, 0, 0, 0, 0]"),
        "{table}"
    );
    assert!(table.contains("Bee vs C: +0 =2 -0 (50.0%)"), "{table}");
    assert!(
        table.ends_with("PGN: games.pgn (6 games appended)\n"),
        "{table}"
    );
}

#[test]
fn undefined_statistics_say_why_instead_of_inf() {
    let mut pairs = PairCounts::default();
    pairs.add(Outcome::Win, Outcome::Win);
    let table = summary_table(&summary(pairs, None));
    assert!(
        table.contains("Elo difference (Stockfish 15.1 - Ethereal 12.00): undefined (one-sided score (100% or 0%))"),
        "{table}"
    );
    assert!(!table.contains("inf"), "{table}");
    assert!(!table.contains("SPRT"), "{table}");
    let empty = summary_table(&summary(PairCounts::default(), None));
    assert!(empty.contains("undefined (no games yet)"), "{empty}");
    assert!(llr_text(f64::NAN).starts_with("undefined ("));
    assert_eq!(llr_text(-0.0), "0.00");
}

#[test]
fn the_sprt_decision_is_written_in_words_and_the_bound_the_match_stopped_at_holds() {
    use crate::matches::tally::results::GameResult;
    let sprt = parse_sprt(["elo0=0 elo1=5 alpha=0.05 beta=0.05"]).unwrap();
    let names = vec!["a".to_owned(), "b".to_owned()];
    let record = || MatchRecord {
        games: Vec::new(),
        played: 2,
        pgn: "games.pgn".into(),
        wall_seconds: 1.0,
        runner_cpu_seconds: 0.0,
        interrupted: false,
    };
    let mut tally = Tally::new(2);
    for (white, black) in [(0, 1), (1, 0)] {
        let white_outcome = Outcome::Draw;
        let game = GameResult {
            pair: 0,
            white,
            black,
            white_outcome,
        };
        tally.add(game);
    }
    let open = Summary::new(&tally, names.clone(), Some(&sprt), None, record());
    assert_eq!(open.sprt, Some(SprtDecision::Continue));
    let json = serde_json::to_value(&open).unwrap();
    assert_eq!(json["sprt"], "inconclusive");
    // The match stopped at H1; the games that were being played moved the LLR back.
    let stopped = Summary::new(
        &tally,
        names.clone(),
        Some(&sprt),
        Some(SprtDecision::AcceptH1),
        record(),
    );
    assert_eq!(
        serde_json::to_value(&stopped).unwrap()["sprt"],
        "H1 accepted"
    );
    assert!(summary_table(&stopped).contains("): H1 accepted\n"));
    let without = Summary::new(&tally, names.clone(), None, None, record());
    assert!(serde_json::to_value(&without).unwrap()["sprt"].is_null());
    // Without a stop, the final counts decide (a runner that stopped by itself).
    let mut sweep = Tally::new(2);
    for pair in 0..200 {
        for (white, black, white_outcome) in [(0, 1, Outcome::Win), (1, 0, Outcome::Loss)] {
            sweep.add(GameResult {
                pair,
                white,
                black,
                white_outcome,
            });
        }
    }
    let decided = Summary::new(&sweep, names, Some(&sprt), None, record());
    assert_eq!(
        serde_json::to_value(&decided).unwrap()["sprt"],
        "H1 accepted"
    );
    assert_eq!(SprtDecision::AcceptH0.to_string(), "H0 accepted");
}
