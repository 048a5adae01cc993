use super::*;
use crate::protocol::game::parse_fen;

fn referee(fen: &str) -> Referee {
    Referee::new(parse_fen(fen).unwrap().0, None)
}

fn play(referee: &mut Referee, moves: &str) {
    for text in moves.split(' ') {
        let m =
            crate::starts::castling::parse_move(&referee.line().current, text.as_bytes()).unwrap();
        referee.play(m);
    }
}

#[test]
fn rules_end_games_with_the_right_result() {
    let mut r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    play(&mut r, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(r.ending(), Some(Ending::Checkmate));
    assert_eq!(r.ending().unwrap().result(r.line().current.turn()), "0-1");
    assert_eq!(r.ending().unwrap().comment(Color::White), "Black mates");

    let r = referee("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(r.ending(), Some(Ending::Stalemate));
    let r = referee("7k/8/6K1/8/8/8/8/6N1 b - - 0 1");
    assert_eq!(r.ending(), Some(Ending::InsufficientMaterial));
    let r = referee("7k/8/6K1/8/8/8/8/6R1 b - - 100 80");
    assert_eq!(r.ending(), Some(Ending::FiftyMoves));

    // Knights out and back twice: the start position a third time.
    let mut r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    play(&mut r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(r.ending(), None);
    play(&mut r, "f6g8");
    assert_eq!(r.ending(), Some(Ending::Threefold));
    assert_eq!(r.ending().unwrap().result(Color::White), "1/2-1/2");

    let mut r = Referee::new(Chess::default(), Some(2));
    play(&mut r, "e2e4");
    assert_eq!(r.ending(), None);
    play(&mut r, "e7e5");
    assert_eq!(r.ending(), Some(Ending::MaxPlies));
    assert_eq!(r.ending().unwrap().termination(), "adjudication");
}

#[test]
fn forfeits_name_the_loser_and_the_reason() {
    let ending = Ending::Forfeit {
        loser: Color::Black,
        kind: Forfeit::Crash,
        detail: "died unexpectedly from signal 11".to_owned(),
    };
    assert_eq!(ending.result(Color::White), "1-0");
    assert_eq!(ending.termination(), "abandoned");
    assert_eq!(
        ending.comment(Color::White),
        "Black disconnects: died unexpectedly from signal 11"
    );
    // A flag fall against a lone king is a draw.
    let r = referee("7k/8/6K1/8/8/8/8/6Q1 b - - 0 1");
    let white_flag = r.flag_fall(Color::White, String::new());
    assert_eq!(white_flag.result(Color::Black), "1/2-1/2");
    let black_flag = r.flag_fall(Color::Black, String::new());
    assert_eq!(black_flag.result(Color::Black), "1-0");
}

#[test]
fn clocks_add_increments_and_periods_and_flags_fall() {
    let mut clock = GameClock::new("2/60+0.5".parse().unwrap());
    assert_eq!(clock.clocks(Color::White).moves_to_go, Some(2));
    assert!(clock.record(Color::White, Duration::from_secs(10)));
    assert_eq!(clock.remaining(Color::White), Duration::from_millis(50_500));
    assert_eq!(clock.clocks(Color::White).moves_to_go, Some(1));
    assert!(clock.record(Color::White, Duration::from_secs(20)));
    // Second move ends the period: +60 s.
    assert_eq!(clock.remaining(Color::White), Duration::from_secs(91));
    assert_eq!(clock.clocks(Color::White).moves_to_go, Some(2));
    assert_eq!(
        clock.clocks(Color::Black).remaining,
        ByColor {
            white: Duration::from_secs(91),
            black: Duration::from_secs(60),
        },
        "white first"
    );
    assert!(!clock.record(Color::Black, Duration::from_millis(60_001)));
    assert_eq!(clock.remaining(Color::Black), Duration::ZERO);
}

/// Plays `moves` from the standard start, each with the mover's score from `scores`.
fn adjudicate(adjudicator: &mut Adjudicator, moves: &str, scores: &[i64]) -> Option<Ending> {
    let mut referee = Referee::new(Chess::default(), None);
    for (ply, (text, score)) in moves.split(' ').zip(scores).enumerate() {
        let m =
            crate::starts::castling::parse_move(&referee.line().current, text.as_bytes()).unwrap();
        let mover = referee.line().current.turn();
        referee.play(m);
        if let Some(ending) = adjudicator.add_eval(
            &referee.line().current,
            ply + 1,
            mover,
            Some(10),
            Some(*score),
        ) {
            return Some(ending);
        }
    }
    None
}

const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6";

#[test]
fn resign_after_movecount_moves_at_or_below_the_score() {
    let rule = ResignRule {
        move_count: 3,
        score: 500,
        two_sided: false,
    };
    // Black's score -600, -500, -700: the third move resigns for it.
    let mut adjudicator = Adjudicator::new(Some(rule), None);
    let ending = adjudicate(&mut adjudicator, SHUFFLE, &[0, -600, 0, -500, 0, -700]).unwrap();
    assert_eq!(ending.winner(Color::White), Some(Color::White));
    assert_eq!(ending.termination(), "adjudication");
    assert!(
        ending
            .comment(Color::White)
            .starts_with("White wins by adjudication")
    );
    // A better score in between starts the count over.
    let mut adjudicator = Adjudicator::new(Some(rule), None);
    assert_eq!(
        adjudicate(
            &mut adjudicator,
            SHUFFLE,
            &[0, -600, 0, -499, 0, -700, 0, -700]
        ),
        None
    );
    // Two-sided: White's score must have been at +500 or more as often.
    let two = ResignRule {
        two_sided: true,
        ..rule
    };
    let mut adjudicator = Adjudicator::new(Some(two), None);
    assert_eq!(
        adjudicate(
            &mut adjudicator,
            SHUFFLE,
            &[400, -600, 600, -600, 600, -600]
        ),
        None
    );
    let mut adjudicator = Adjudicator::new(Some(two), None);
    let ending = adjudicate(
        &mut adjudicator,
        SHUFFLE,
        &[500, -600, 600, -600, 600, -600],
    )
    .unwrap();
    assert_eq!(ending.winner(Color::White), Some(Color::White));
}

#[test]
fn draw_after_movenumber_when_both_scores_stay_near_zero() {
    let rule = DrawRule {
        move_number: 4,
        move_count: 2,
        score: 10,
    };
    let mut adjudicator = Adjudicator::new(None, Some(rule));
    // Four scores within 10 cp by ply 4, but move 4 is not reached until ply 8.
    let ending = adjudicate(&mut adjudicator, SHUFFLE, &[5, -10, 0, 3, 1, 2, 0, 0]).unwrap();
    assert_eq!(ending.winner(Color::White), None);
    assert_eq!(ending.result(Color::White), "1/2-1/2");
    assert_eq!(ending.termination(), "adjudication");
    assert!(
        ending
            .comment(Color::White)
            .starts_with("Draw by adjudication")
    );
    let mut adjudicator = Adjudicator::new(None, Some(rule));
    // 11 cp at ply 7 starts the count over: two more plies are not four.
    assert_eq!(
        adjudicate(&mut adjudicator, SHUFFLE, &[5, -10, 0, 3, 1, 2, 11, 0, 0]),
        None
    );
    // A pawn move (irreversible) also starts it over.
    let mut adjudicator = Adjudicator::new(None, Some(rule));
    assert_eq!(
        adjudicate(
            &mut adjudicator,
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 e2e4 f6g8 f3g1",
            &[0, 0, 0, 0, 0, 0, 0, 0, 0]
        ),
        None
    );
}

#[test]
fn a_move_without_a_score_starts_the_counts_over() {
    let rule = ResignRule {
        move_count: 2,
        score: 100,
        two_sided: false,
    };
    let mut adjudicator = Adjudicator::new(Some(rule), None);
    let position = Chess::default();
    assert_eq!(
        adjudicator.add_eval(&position, 1, Color::White, Some(5), Some(-200)),
        None
    );
    assert_eq!(
        adjudicator.add_eval(&position, 3, Color::White, None, None),
        None
    );
    assert_eq!(
        adjudicator.add_eval(&position, 5, Color::White, Some(5), Some(-200)),
        None
    );
    assert!(
        adjudicator
            .add_eval(&position, 7, Color::White, Some(5), Some(-200))
            .is_some()
    );
}
