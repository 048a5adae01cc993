use super::*;
use crate::engine::game::{EngineGame, position_from_fen};
use shakmaty::Square;

fn run(fen: &str, limits: SearchLimits) -> SearchResult {
    let job = SearchJob::new(position_from_fen(fen).unwrap(), limits);
    search(&job, &AtomicBool::new(false), &mut |_| {})
}

fn depth(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    }
}

fn score(result: &SearchResult) -> Eval {
    result.info.as_ref().expect("an iteration completed").score
}

#[test]
fn finds_mate_in_one_and_two() {
    // Back-rank mate in one.
    let result = run("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth(3));
    assert_eq!(result.best_move.unwrap().to(), Square::A8);
    assert_eq!(score(&result), Eval::Mate(1));
    // Mate in two with a quiet first move (Stockfish: 1. Kb6 Kb8 2. Rh8#).
    let result = run("k7/8/2K5/8/8/8/8/7R w - - 0 1", depth(5));
    assert_eq!(score(&result), Eval::Mate(2), "{result:?}");
    // The side getting mated sees it coming (after 1. Kb6: 1... Kb8 2. Rh8#).
    let result = run("k7/8/1K6/8/8/8/8/7R b - - 0 1", depth(5));
    assert!(
        matches!(score(&result), Eval::Mate(moves) if moves < 0),
        "{result:?}"
    );
}

#[test]
fn wins_hanging_material() {
    let result = run("4k3/8/8/3q4/8/8/3R4/3RK3 w - - 0 1", depth(3));
    assert_eq!(result.best_move.unwrap().to(), Square::D5);
}

#[test]
fn node_limit_is_honoured_and_a_move_is_always_returned() {
    let position =
        position_from_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
    for nodes in [1, 10, 1_000] {
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        let job = SearchJob::new(position.clone(), limits);
        let result = search(&job, &AtomicBool::new(false), &mut |_| {});
        assert!(result.nodes <= nodes, "{} > {nodes}", result.nodes);
        assert!(position.is_legal(result.best_move.expect("a move")));
    }
}

#[test]
fn a_set_stop_flag_still_gives_a_legal_move() {
    let position = position_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let job = SearchJob::new(position.clone(), SearchLimits::default());
    let result = search(&job, &AtomicBool::new(true), &mut |_| {});
    assert!(position.is_legal(result.best_move.unwrap()));
}

#[test]
fn time_budget_is_kept() {
    let started = Instant::now();
    let result = run(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        SearchLimits {
            time: Some(TimeBudget::fixed(Duration::from_millis(100))),
            ..SearchLimits::default()
        },
    );
    assert!(result.best_move.is_some());
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
    assert!(result.info.unwrap().depth >= 2);
}

#[test]
fn clock_budgets_are_sane() {
    let budget = TimeBudget::for_clock(Duration::from_secs(60), Duration::ZERO, None);
    assert!(budget.soft < budget.hard && budget.hard <= Duration::from_secs(30));
    assert!(budget.soft >= Duration::from_millis(500), "{budget:?}");
    let last_move = TimeBudget::for_clock(Duration::from_secs(10), Duration::ZERO, Some(1));
    assert!(last_move.hard < Duration::from_secs(10) && last_move.hard > Duration::from_secs(5));
    let flagging = TimeBudget::for_clock(Duration::from_millis(5), Duration::ZERO, Some(40));
    assert!(flagging.hard <= Duration::from_millis(5));
    let increment = TimeBudget::for_clock(Duration::from_secs(1), Duration::from_secs(2), None);
    assert!(
        increment.hard <= Duration::from_millis(500),
        "{increment:?}"
    );
}

#[test]
fn repetition_counts_as_a_draw() {
    // White is a rook down but can repeat: Kh1-g1 shuffles while Black can only do the
    // same; with history the search must prefer the repetition line's 0 to losing.
    let mut game = EngineGame::new(position_from_fen("7k/8/8/8/8/8/8/6K1 w - - 0 1").unwrap());
    for text in ["g1h1", "h8g8", "h1g1", "g8h8"] {
        game.play_text(text).unwrap();
    }
    let job = game.search_job(depth(4));
    let result = search(&job, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(score(&result), Eval::Cp(0));
    assert_eq!(job.history.len(), 4);
}

#[test]
fn searchmoves_restricts_the_root() {
    let position = Chess::default();
    let only = position
        .legal_moves()
        .into_iter()
        .find(|m| m.to() == Square::A3)
        .unwrap();
    let mut job = SearchJob::new(position, depth(3));
    job.root_moves = vec![only];
    let result = search(&job, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(result.best_move, Some(only));
}
