use super::*;
use crate::engine::transcript;
use shakmaty::Square;

fn run(lines: &[&str]) -> Vec<String> {
    transcript(&mut UciFrontEnd::default(), lines)
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find_map(|line| line.strip_prefix("bestmove "))
        .expect("a bestmove line")
}

#[test]
fn handshake_advertises_chess960() {
    let out = run(&["uci", "isready"]);
    assert!(out[0].starts_with("id name sp960 "), "{out:?}");
    assert_eq!(
        &out[2..],
        [
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok"
        ]
    );
}

/// `3k4/2R1R3/8/8/8/8/P7/R1K5 w A`: the only mate in one is O-O-O (king stays on c1).
const MATE_BY_LONG_CASTLING: &str = "3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1";

#[test]
fn castling_mate_is_written_per_uci_chess960() {
    let out = run(&[
        "setoption name UCI_Chess960 value true",
        &format!("position fen {MATE_BY_LONG_CASTLING}"),
        "go depth 3",
    ]);
    assert_eq!(bestmove(&out), "c1a1");
    assert!(
        out.iter().any(|line| line.contains("score mate 1")),
        "{out:?}"
    );
    // Off: standard notation would be the null-looking c1c1, so king-takes-rook stays.
    let out = run(&[
        &format!("position fen {MATE_BY_LONG_CASTLING}"),
        "go depth 3",
    ]);
    assert_eq!(bestmove(&out), "c1a1");
}

#[test]
fn classic_castling_follows_the_option() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // Read in either notation, whatever the option says.
    let mut session = UciFrontEnd::default();
    transcript(
        &mut session,
        &[&format!("position fen {fen} moves e1g1 e8h8")],
    );
    let game = session.game().expect("accepted");
    assert_eq!(
        game.position().board().king_of(Color::White),
        Some(Square::G1)
    );
    assert_eq!(
        game.position().board().king_of(Color::Black),
        Some(Square::G8)
    );
    let position = format!("position fen {fen}");
    let out = run(&[&position, "go depth 1 searchmoves e1h1"]);
    assert_eq!(bestmove(&out), "e1g1");
    let out = run(&[
        "setoption name UCI_Chess960 value true",
        &position,
        "go depth 1 searchmoves e1g1",
    ]);
    assert_eq!(bestmove(&out), "e1h1");
}

#[test]
fn position_with_moves_and_limits() {
    let out = run(&[
        "position startpos moves e2e4 e7e5 g1f3",
        "go nodes 500",
        "go movetime 30",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
    ]);
    assert_eq!(
        out.iter()
            .filter(|line| line.starts_with("bestmove "))
            .count(),
        3
    );
    let info = out
        .iter()
        .find(|line| line.starts_with("info depth"))
        .unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
}

#[test]
fn bad_commands_are_reported_and_no_move_is_guessed() {
    let out = run(&["position startpos moves e2e4 e2e4", "go depth 2"]);
    assert_eq!(
        out[0],
        "info string error: position rejected: move 2 of the list: illegal move 'e2e4' in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1"
    );
    assert_eq!(bestmove(&out), "(none)");
    let out = run(&["position fen 8/8/8/8/8/8/8/8 w - - 0 1", "go depth 1"]);
    assert!(
        out[0].starts_with(
            "info string error: position rejected: illegal position '8/8/8/8/8/8/8/8 w - - 0 1'"
        ),
        "{out:?}"
    );
    assert_eq!(bestmove(&out), "(none)");
    let out = run(&[
        "position banana",
        "frobnicate",
        "position startpos",
        "go depth x",
        "setoption name Hash value 16",
    ]);
    assert_eq!(
        out,
        [
            "info string error: position rejected: expected 'startpos' or 'fen <FEN>', got 'banana'",
            "info string error: unknown command 'frobnicate' in 'frobnicate'",
            "info string error: go: 'depth' needs a number, not 'x'",
            "info string unknown option 'Hash' ignored",
        ]
    );
}

#[test]
fn go_parameters_become_limits() {
    let go = |args: &str, turn| UciFrontEnd::parse_go(&format!("go {args}"), turn);
    let clock = TimeBudget::for_clock(
        Duration::from_millis(3000),
        Duration::from_millis(20),
        Some(5),
    );
    assert_eq!(
        go(
            "wtime 9000 btime 3000 winc 10 binc 20 movestogo 5 depth 7",
            Color::Black
        )
        .unwrap()
        .limits,
        SearchLimits {
            depth: Some(7),
            nodes: None,
            time: Some(clock)
        }
    );
    assert_eq!(
        go("btime 3000 binc 20 movestogo 5", Color::White)
            .unwrap()
            .limits
            .time,
        Some(TimeBudget::for_clock(
            Duration::from_millis(3000),
            Duration::ZERO,
            Some(5)
        ))
    );
    let fixed = go("movetime 250 wtime 100000 nodes 9", Color::White).unwrap();
    assert_eq!(
        fixed.limits.time,
        Some(TimeBudget::fixed(Duration::from_millis(250)))
    );
    assert_eq!(fixed.limits.nodes, Some(9));
    assert_eq!(go("mate 2", Color::White).unwrap().limits.depth, Some(3));
    let searchmoves = go("searchmoves e2e4 d2d4 depth 3", Color::White).unwrap();
    assert_eq!(
        (searchmoves.searchmoves.len(), searchmoves.limits.depth),
        (2, Some(3))
    );
    assert!(go("", Color::White).unwrap().infinite);
    assert_eq!(
        go("infinite depth 3", Color::White).unwrap().limits,
        SearchLimits::default()
    );
    assert_eq!(
        go("wtime -50", Color::White).unwrap().limits.time,
        Some(TimeBudget::for_clock(Duration::ZERO, Duration::ZERO, None))
    );
    assert_eq!(
        go("nodes", Color::White).unwrap_err().to_string(),
        "go: 'nodes' needs a number"
    );
    assert_eq!(
        go("depht 3", Color::White).unwrap_err().to_string(),
        "go: unknown parameter 'depht'"
    );
}

#[test]
fn checkmated_side_has_no_move() {
    let out = run(&["position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3"]);
    assert_eq!(out, ["bestmove (none)"]);
}

#[test]
fn infinite_search_holds_bestmove_until_stop() {
    let mut session = UciFrontEnd::default();
    let actions = session.on_gui_line("go infinite");
    let [Step::Event(EngineEvent::Search { id, job })] = actions.as_slice() else {
        panic!("{actions:?}")
    };
    assert_eq!(job.limits, SearchLimits::default());
    let result = crate::engine::search::search(
        &crate::engine::SearchJob::new(
            job.position.clone(),
            SearchLimits {
                depth: Some(1),
                ..SearchLimits::default()
            },
        ),
        &std::sync::atomic::AtomicBool::new(false),
        &mut |_| {},
    );
    // The search ended by itself (say at the depth cap): nothing is written yet.
    assert!(session.on_done(*id, result).is_empty());
    assert_eq!(session.on_gui_line("isready").len(), 1);
    let out = session.on_gui_line("stop");
    assert!(
        matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
        "{out:?}"
    );
    assert!(session.on_gui_line("stop").is_empty());
}

#[test]
fn stop_asks_the_search_to_end_and_stale_results_are_ignored() {
    let mut session = UciFrontEnd::default();
    let Step::Event(EngineEvent::Search { id, job }) =
        session.on_gui_line("go movetime 100000").remove(0)
    else {
        panic!()
    };
    assert!(matches!(
        session.on_gui_line("go depth 1")[..],
        [Step::Send { line: _, .. }]
    ));
    assert!(matches!(
        session.on_gui_line("stop")[..],
        [Step::Event(EngineEvent::Stop)]
    ));
    let result = crate::engine::search_now(&job, true);
    assert!(session.on_done(id + 7, result.clone()).is_empty());
    let out = session.on_done(id, result);
    assert!(
        matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
        "{out:?}"
    );
}

/// Runs `job` to its end (`stopped`: as if `stop` came at once).

#[test]
fn go_after_stop_waits_for_the_stopped_search_then_starts() {
    let mut session = UciFrontEnd::default();
    let Step::Event(EngineEvent::Search { id, job }) = session.on_gui_line("go depth 50").remove(0)
    else {
        panic!()
    };
    assert!(matches!(
        session.on_gui_line("stop")[..],
        [Step::Event(EngineEvent::Stop)]
    ));
    // The stopped search has not answered yet: the new `go` waits, no error.
    assert!(
        session
            .on_gui_line("position startpos moves e2e4")
            .is_empty()
    );
    assert!(session.on_gui_line("go depth 1").is_empty());
    assert_eq!(session.on_gui_line("isready").len(), 1);
    let out = session.on_done(id, crate::engine::search_now(&job, true));
    let [
        Step::Send { line: first, .. },
        Step::Event(EngineEvent::Search { id: next, job }),
    ] = &out[..]
    else {
        panic!("{out:?}")
    };
    assert!(first.starts_with(b"bestmove "), "{first:?}");
    assert_ne!(*next, id);
    // The waiting search is on the position given after `stop`, with its own limits.
    assert_eq!(job.limits.depth, Some(1));
    assert_eq!(job.position.turn(), Color::Black);
    let out = session.on_done(*next, crate::engine::search_now(job, false));
    assert!(
        matches!(&out[..], [Step::Send { line, .. }] if line.starts_with(b"bestmove ")),
        "{out:?}"
    );
    // A third `go` while one waits is refused, as is a `go` without `stop`.
    let Step::Event(EngineEvent::Search { id, job }) = session.on_gui_line("go depth 50").remove(0)
    else {
        panic!()
    };
    assert!(
        matches!(session.on_gui_line("go depth 2")[..], [Step::Send { line: ref e, .. }] if String::from_utf8_lossy(e).contains("already searching"))
    );
    session.on_gui_line("stop");
    assert!(session.on_gui_line("go depth 2").is_empty());
    assert!(
        matches!(session.on_gui_line("go depth 3")[..], [Step::Send { line: ref e, .. }] if String::from_utf8_lossy(e).contains("already searching"))
    );
    // `stop` for the waiting search: it starts and is stopped at once; end of
    // input after it: its bestmove, then quit.
    assert!(session.on_gui_line("stop").is_empty());
    assert!(session.on_end_of_input().is_empty());
    let out = session.on_done(id, crate::engine::search_now(&job, true));
    let [
        Step::Send { line: _, .. },
        Step::Event(EngineEvent::Search { id, job }),
        Step::Event(EngineEvent::Stop),
    ] = &out[..]
    else {
        panic!("{out:?}")
    };
    let out = session.on_done(*id, crate::engine::search_now(job, true));
    assert!(
        matches!(&out[..], [Step::Send { line, .. }, Step::Event(EngineEvent::Quit)] if line.starts_with(b"bestmove ")),
        "{out:?}"
    );
}

#[test]
fn end_of_input_lets_a_search_finish_then_quits() {
    let mut session = UciFrontEnd::default();
    let Step::Event(EngineEvent::Search { id, job }) = session.on_gui_line("go depth 2").remove(0)
    else {
        panic!()
    };
    assert!(session.on_end_of_input().is_empty());
    let result = crate::engine::search_now(&job, false);
    let out = session.on_done(id, result);
    assert!(
        matches!(
            &out[..],
            [Step::Send { line: _, .. }, Step::Event(EngineEvent::Quit)]
        ),
        "{out:?}"
    );
    assert!(matches!(
        UciFrontEnd::default().on_end_of_input()[..],
        [Step::Event(EngineEvent::Quit)]
    ));
}

#[test]
fn go_perft_divides_as_stockfish_writes_it() {
    // SP 518 is the standard start: 20 moves, 400 positions at depth 2.
    let out = run(&["position startpos", "go perft 2"]);
    assert_eq!(out.len(), 22, "{out:?}");
    assert!(out.contains(&"e2e4: 20".to_owned()), "{out:?}");
    assert_eq!(&out[20..], ["", "Nodes searched: 400"]);
    // Castling as UCI_Chess960 says: king takes rook when on, king to its square when off.
    let castles = |chess960: &str| {
        let setoption = format!("setoption name UCI_Chess960 value {chess960}");
        run(&[
            setoption.as_str(),
            "position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1",
            "go perft 1",
        ])
        .into_iter()
        .filter(|line| line.starts_with("e1"))
        .collect::<Vec<_>>()
    };
    let on = castles("true");
    assert!(
        on.contains(&"e1h1: 1".to_owned()) && on.contains(&"e1a1: 1".to_owned()),
        "{on:?}"
    );
    let off = castles("false");
    assert!(
        off.contains(&"e1g1: 1".to_owned()) && off.contains(&"e1c1: 1".to_owned()),
        "{off:?}"
    );
    // A bad depth is refused with the line, and nothing is counted.
    let out = run(&["go perft 9"]);
    assert_eq!(
        out,
        ["info string error: go perft takes a depth from 1 to 6: 'go perft 9'"]
    );
}
