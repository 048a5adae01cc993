use super::*;
use crate::engine::transcript;
use shakmaty::Square;

fn run(lines: &[&str]) -> Vec<String> {
    transcript(&mut XboardFrontEnd::default(), lines)
}

fn moves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|line| line.strip_prefix("move "))
        .collect()
}

#[test]
fn handshake_declares_the_features_python_chess_needs() {
    let out = run(&["xboard", "protover 2", "ping 1"]);
    assert_eq!(out[0], "feature done=0");
    for feature in [
        "setboard=1",
        "usermove=1",
        "san=0",
        "ping=1",
        "sigint=0",
        "myname=\"sp960\"",
        "variants=\"normal,fischerandom\"",
    ] {
        assert!(out[1].contains(feature), "{feature} in {}", out[1]);
    }
    assert_eq!(&out[2..], ["feature done=1", "pong 1"]);
}

/// SP 860 after six moves each: O-O-O (c1a1) and O-O (c1e1) both legal.
const SP860_CASTLES: &str =
    "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7";

#[test]
fn fischerandom_castling_in_every_notation() {
    for castle in ["O-O", "c1e1", "c1g1"] {
        let mut session = XboardFrontEnd::default();
        let setboard = format!("setboard {SP860_CASTLES}");
        let out = transcript(
            &mut session,
            &[
                "new",
                "variant fischerandom",
                "force",
                &setboard,
                &format!("usermove {castle}"),
            ],
        );
        assert!(out.is_empty(), "{castle}: {out:?}");
        let board = session.game().unwrap().position().board().clone();
        assert_eq!(board.king_of(Color::White), Some(Square::G1), "{castle}");
        assert_eq!(
            board.role_at(Square::F1),
            Some(shakmaty::Role::Rook),
            "{castle}"
        );
    }
}

#[test]
fn engine_castles_as_o_o_o_in_fischerandom() {
    let out = run(&[
        "new",
        "variant fischerandom",
        "force",
        "setboard 3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1",
        "sd 3",
        "go",
    ]);
    assert_eq!(moves(&out), ["O-O-O"]);
    assert_eq!(out.last().unwrap(), "1-0 {White mates}");
    let out = run(&[
        "new",
        "force",
        "setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
        "usermove e8g8",
        "undo",
        "usermove e8c8",
        "usermove e1g1",
        "remove",
        "ping 4",
        "remove",
    ]);
    assert_eq!(out, ["pong 4", "Error (no move to take back): remove"]);
}

#[test]
fn plays_its_side_after_user_moves_and_answers_ping_after_the_move() {
    let mut session = XboardFrontEnd::default();
    let out = transcript(&mut session, &["new", "sd 2", "post", "usermove e2e4"]);
    let [.., last] = out.as_slice() else { panic!() };
    assert!(last.starts_with("move "), "{out:?}");
    assert!(
        out[0].split_whitespace().count() >= 5,
        "post line: {}",
        out[0]
    );
    assert_eq!(session.game().unwrap().moves().len(), 2);
    // A ping during thinking is answered only after the move.
    let Step::Event(EngineEvent::Search { id, job }) =
        session.on_gui_line("usermove d2d4").remove(0)
    else {
        panic!()
    };
    assert!(session.on_gui_line("ping 9").is_empty());
    let result = crate::engine::search_now(&job, false);
    let out = session.on_done(id, result);
    assert!(
        matches!(&out[..], [Step::Send { line: m, .. }, Step::Send { line: pong, .. }] if m.starts_with(b"move ") && pong == b"pong 9"),
        "{out:?}"
    );
}

#[test]
fn force_mode_takes_moves_without_thinking() {
    let out = run(&[
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "e2e4",
        "usermove e1e8",
        "ping 2",
    ]);
    assert_eq!(
        out,
        [
            "Error (unknown command): e2e4",
            "Illegal move (illegal move 'e1e8' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w HAha - 0 2): e1e8",
            "pong 2",
        ]
    );
}

#[test]
fn limits_follow_level_time_st_sd_and_nps() {
    let mut session = XboardFrontEnd::default();
    let position = shakmaty::Chess::default();
    assert_eq!(
        session.limits(&position).time,
        Some(TimeBudget::fixed(DEFAULT_MOVE_TIME))
    );
    transcript(&mut session, &["sd 4"]);
    assert_eq!(
        session.limits(&position),
        SearchLimits {
            depth: Some(4),
            ..SearchLimits::default()
        }
    );
    transcript(&mut session, &["level 40 5 0", "time 6000"]);
    let limits = session.limits(&position);
    assert_eq!(
        limits.time,
        Some(TimeBudget::for_clock(
            Duration::from_secs(60),
            Duration::ZERO,
            Some(40)
        ))
    );
    transcript(&mut session, &["level 0 2:30 1.5"]);
    assert_eq!(
        session.limits(&position).time,
        Some(TimeBudget::for_clock(
            Duration::from_secs(150),
            Duration::from_millis(1500),
            None
        ))
    );
    transcript(&mut session, &["st 0.25"]);
    assert_eq!(
        session.limits(&position).time,
        Some(TimeBudget::fixed(Duration::from_millis(250)))
    );
    transcript(&mut session, &["nps 1", "st 500"]);
    let limits = session.limits(&position);
    assert_eq!((limits.nodes, limits.time), (Some(499), None));
    // `new` ends node counting and the depth limit, not the time control.
    transcript(&mut session, &["sd 3", "new"]);
    assert_eq!(
        session.limits(&position),
        SearchLimits {
            time: Some(TimeBudget::fixed(Duration::from_secs(500))),
            ..SearchLimits::default()
        }
    );
    let out = transcript(
        &mut session,
        &["level x", "st -1", "sd", "variant crazyhouse"],
    );
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(
        out.iter().all(|line| line.starts_with("Error (")),
        "{out:?}"
    );
}

#[test]
fn bad_setboard_is_told_and_no_move_is_guessed() {
    let out = run(&[
        "new",
        "force",
        "setboard 8/8/8/8 w - - 0 1",
        "go",
        "usermove e2e4",
    ]);
    assert!(
        out[0].starts_with("tellusererror Illegal position: invalid FEN '8/8/8/8 w - - 0 1'"),
        "{out:?}"
    );
    assert!(out[1].starts_with("Error (no position"), "{out:?}");
    assert_eq!(out[2], "Illegal move (no position): e2e4");
}

#[test]
fn mated_engine_claims_the_result() {
    let out = run(&[
        "new",
        "force",
        "setboard 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        "go",
    ]);
    assert_eq!(out, ["1-0 {White mates}"]);
}
