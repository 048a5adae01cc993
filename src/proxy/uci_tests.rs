//! Transcript tests of [`super`]'s session.

use super::guard::STOP_GRACE;
use super::output::translate_info;
use super::position::REBASED_PLIES;
use super::search::EARLY_WAIT;
use super::*;

use crate::proxy::script::{
    is_start_notice, killed, play as play_all, play_without_start_notices as play,
};

#[test]
fn the_start_notices_come_once_per_game() {
    let mut session = UciSession::new(fixed("860"));
    play(&mut session, &HANDSHAKE);
    let game = [
        "gui: ucinewgame",
        "gui: position startpos",
        "gui: position startpos moves d1e3",
        "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
        "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3",
    ];
    for _ in 0..2 {
        let out = play_all(&mut session, &game);
        let notices: Vec<&String> = out.iter().filter(|l| is_start_notice(l)).collect();
        assert_eq!(notices.len(), 4, "{out:?}");
        assert_eq!(
            notices[0],
            "gui< info string sp960: position startpos is played from SP 860 but the GUI \
                 has not enabled UCI_Chess960: a GUI that keeps its own board will reject the \
                 engine's moves (give such a GUI a book of starts: sp960 book) [Injected]"
        );
        assert!(notices[1].starts_with("Warn(\"proxy: position startpos is played from SP 860"));
        assert_eq!(
            notices[2],
            "gui< info string sp960: the GUI's position fen replaces the start SP 860 in \
                 this game: --sp and SP960_Start choose the start of `position startpos` and \
                 `new` only (a GUI or runner that keeps its own board needs a book of starts: sp960 book) \
                 [Injected]"
        );
        assert!(notices[3].starts_with("Warn(\"proxy: the GUI's position fen replaces"));
    }
    // A GUI in Chess960 mode that sends startpos hears nothing; without a start of
    // ours there is nothing to tell.
    let out = play_all(
        &mut session,
        &[
            "gui: setoption name UCI_Chess960 value true",
            "gui: ucinewgame",
            "gui: position startpos",
        ],
    );
    assert!(!out.iter().any(|l| is_start_notice(l)), "{out:?}");
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play_all(&mut session, &game);
    assert!(!out.iter().any(|l| is_start_notice(l)), "{out:?}");
}

#[test]
fn offer_chess960_lists_the_option_for_an_engine_without_it() {
    let toga = [
        "gui: uci",
        "engine: id name Toga II 3.0",
        "engine: uciok",
        "gui: setoption name UCI_Chess960 value true",
        "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3",
    ];
    let mut session = UciSession::new(UciConfig {
        offer_chess960: true,
        ..UciConfig::default()
    });
    let out = play(&mut session, &toga);
    assert_eq!(
        out[2..5],
        [
            "gui< option name UCI_Chess960 type check default false [Injected]",
            "gui< option name SP960_Start type spin default -1 min -2 max 959 [Injected]",
            "gui< option name SP960_BlackStart type spin default -1 min -1 max 959 [Injected]",
        ]
    );
    // The GUI's UCI_Chess960 stays with the proxy; the engine gets standard chess
    // and its castling comes back king-takes-rook.
    assert_eq!(
        out[6..],
        [
            "engine< position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w - - 0 1 moves d1e3 [Rewritten]"
        ]
    );
    assert_eq!(session.gui_dialect(), CastlingDialect::Chess960);
    let out = play(
        &mut session,
        &[
            "gui: position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
            "gui: go depth 3",
            "engine: bestmove e1g1",
        ],
    );
    assert_eq!(out[2], "gui< bestmove e1h1 [Rewritten]", "{out:?}");
    // Without the flag, the option is not offered.
    let mut session = UciSession::new(UciConfig::default());
    let out = play(&mut session, &toga[..3]);
    assert!(!out.iter().any(|l| l.contains("UCI_Chess960")), "{out:?}");
}

fn fixed(start: &str) -> UciConfig {
    UciConfig {
        start: StartChoice::Fixed(start.parse().unwrap()),
        ..UciConfig::default()
    }
}

const HANDSHAKE: [&str; 4] = [
    "gui: uci",
    "engine: id name Stockfish 15.1",
    "engine: option name UCI_Chess960 type check default false",
    "engine: uciok",
];

/// [`play`] with the shell's clock and the engine's exit: `at MS` sets the time (ms
/// after a fixed instant), `timeout` calls `handle_timeout` when the deadline has come,
/// `exit` is the engine dying (restartable).
fn play_timed(session: &mut UciSession, base: Instant, script: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in script {
        if let Some(ms) = line.strip_prefix("at ") {
            session.set_now(base + Duration::from_millis(ms.parse().unwrap()));
        } else if *line == "timeout" {
            let now = session.now.unwrap();
            let mut actions = Vec::new();
            if session.poll_timeout().is_some_and(|at| at <= now) {
                session.handle_timeout(now, &mut actions);
            }
            out.extend(actions_text(actions));
        } else if *line == "exit" {
            let mut actions = Vec::new();
            session.on_engine_exit(killed(9, true), &mut actions);
            out.extend(actions_text(actions));
        } else {
            out.extend(play(session, &[line]));
        }
    }
    out
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

fn actions_text(actions: Vec<Action>) -> Vec<String> {
    actions
        .into_iter()
        .map(|action| match action {
            Action::Send { to, line, mark } => format!(
                "{}< {} [{mark:?}]",
                if to == Peer::Gui { "gui" } else { "engine" },
                String::from_utf8_lossy(&line)
            ),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_crashed_engine_is_restarted_with_options_position_and_the_go_less_the_time_spent() {
    let mut session = UciSession::new(UciConfig {
        restart_engine: 1,
        ..UciConfig::default()
    });
    let base = Instant::now();
    play_timed(&mut session, base, &["at 0"]);
    play(
        &mut session,
        &[
            "gui: uci",
            "engine: option name UCI_Chess960 type check default false",
            "engine: option name Hash type spin default 16 min 1 max 1024",
            "engine: uciok",
        ],
    );
    let out = play_timed(
        &mut session,
        base,
        &[
            "gui: setoption name Hash value 64",
            "gui: setoption name Bogus value 1",
            "gui: setoption name UCI_Chess960 value true",
            "gui: setoption name Hash value 32",
            "gui: ucinewgame",
            "gui: position startpos moves e2e4",
            "at 1000",
            "gui: go wtime 9000 btime 8000 winc 100 binc 100",
            "engine: info depth 1 pv e7e5",
            "at 3500",
            "exit",
            "gui: isready",
            "engine: info string pid 77",
            "engine: id name Stockfish 15.1",
            "engine: option name UCI_Chess960 type check default false",
            "engine: uciok",
            "engine: bestmove e7e5",
        ],
    );
    let restarting = "the engine died unexpectedly from signal 9; restarting it (1 of 1 in \
                          this game), then its options, the position and the go";
    assert_eq!(
        out,
        [
            "engine< setoption name Hash value 64",
            "engine< setoption name Bogus value 1",
            "engine< setoption name UCI_Chess960 value true",
            "engine< setoption name Hash value 32",
            "engine< ucinewgame",
            "engine< position startpos moves e2e4",
            "engine< go wtime 9000 btime 8000 winc 100 binc 100",
            "gui< info depth 1 pv e7e5",
            &format!("gui< info string sp960: {restarting} [Injected]"),
            &format!("Event(Warn(\"proxy: {restarting}\"))"),
            "Event(Restart)",
            "engine< uci [Injected]",
            "engine< setoption name UCI_Chess960 value true [Injected]",
            "engine< setoption name Hash value 32 [Injected]",
            "engine< position startpos moves e2e4 [Injected]",
            "gui< info string sp960: the engine restarted; the go sent again with the 2500 \
                 ms spent off its clock: go wtime 9000 btime 5500 winc 100 binc 100 [Injected]",
            "Warn(\"proxy: the engine restarted; the go sent again with the 2500 ms spent off \
                 its clock: go wtime 9000 btime 5500 winc 100 binc 100\")",
            "engine< go wtime 9000 btime 5500 winc 100 binc 100 [Injected]",
            "gui< readyok [Answered]",
            "gui< bestmove e7e5",
        ]
    );
    // One restart a game: the next death is the end.
    let out = play_timed(&mut session, base, &["exit"]);
    assert_eq!(
        out,
        [
            "gui< info string sp960: the engine died unexpectedly from signal 9; restarted 1 \
                 time(s) in this game already (--restart-engine 1): giving up [Injected]",
            "Event(Warn(\"proxy: the engine died unexpectedly from signal 9; restarted 1 \
                 time(s) in this game already (--restart-engine 1): giving up\"))",
        ]
    );
    // Without the option, and after a signal we passed on, nothing is restarted.
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    assert_eq!(
        play_timed(&mut session, base, &["exit"]),
        ["gui< info string sp960: the engine died unexpectedly from signal 9 [Injected]"]
    );
    let mut session = UciSession::new(UciConfig {
        restart_engine: 1,
        ..UciConfig::default()
    });
    play(&mut session, &HANDSHAKE);
    let mut actions = Vec::new();
    session.on_engine_exit(killed(2, false), &mut actions);
    assert!(!actions.contains(&Step::Event(ProxyEvent::Restart)));
}

#[test]
fn the_clock_guard_stops_an_overrun_then_answers_with_the_last_pv_move() {
    let mut session = UciSession::new(UciConfig {
        max_overrun: Some(Duration::from_millis(500)),
        max_search: Some(Duration::from_millis(3000)),
        ..UciConfig::default()
    });
    let base = Instant::now();
    play(&mut session, &HANDSHAKE);
    let out = play_timed(
        &mut session,
        base,
        &[
            "at 0",
            "gui: position startpos moves e2e4",
            "gui: go wtime 1000 btime 2000",
            "engine: info depth 1 pv g8f6 d2d4",
            "engine: info depth 2 multipv 2 pv e7e5",
        ],
    );
    assert_eq!(
        session.poll_timeout(),
        Some(base + Duration::from_millis(2500))
    );
    assert_eq!(out.len(), 4);
    let out = play_timed(
        &mut session,
        base,
        &[
            "at 2499",
            "timeout",
            "at 2500",
            "timeout",
            "at 3499",
            "timeout",
            "at 3500",
            "timeout",
            "engine: bestmove d7d5",
            "gui: isready",
        ],
    );
    assert_eq!(
        out,
        [
            "gui< info string sp960: clock guard: no bestmove within the go's 2000 ms + 500 ms (--max-overrun); stop \
                 sent to the engine [Injected]",
            "Event(Warn(\"proxy: clock guard: no bestmove within the go's 2000 ms + 500 ms (--max-overrun); stop sent \
                 to the engine\"))",
            "engine< stop [Injected]",
            "gui< info string sp960: clock guard: no bestmove 1000 ms after stop; the \
                 GUI gets the first move of its last pv, g8f6 [Injected]",
            "Event(Warn(\"proxy: clock guard: no bestmove 1000 ms after stop; the \
                 GUI gets the first move of its last pv, g8f6\"))",
            "gui< bestmove g8f6 [Answered]",
            "Warn(\"proxy: the engine's late 'bestmove d7d5' (its search was answered \
                 by the clock guard); not passed on\")",
            "engine< isready",
        ]
    );
    // A search without a clock: --max-search; an answer in time clears the deadline.
    let out = play_timed(
        &mut session,
        base,
        &[
            "at 10000",
            "gui: go depth 1",
            "engine: info depth 1 pv a7a6",
            "at 12999",
            "timeout",
            "engine: bestmove a7a6",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go depth 1",
            "gui< info depth 1 pv a7a6",
            "gui< bestmove a7a6"
        ]
    );
    assert_eq!(session.poll_timeout(), None);
    // Never cut: go infinite and go ponder; from ponderhit, the clock counts.
    play_timed(&mut session, base, &["at 20000", "gui: go infinite"]);
    assert_eq!(session.poll_timeout(), None);
    play(
        &mut session,
        &["gui: stop", "engine: info depth 1", "engine: bestmove a7a6"],
    );
    play_timed(
        &mut session,
        base,
        &[
            "gui: go ponder wtime 1000 btime 100",
            "engine: info depth 1",
        ],
    );
    assert_eq!(session.poll_timeout(), None);
    play_timed(&mut session, base, &["at 30000", "gui: ponderhit"]);
    assert_eq!(
        session.poll_timeout(),
        Some(base + Duration::from_millis(30600))
    );
    // Without a legal pv move: bestmove 0000.
    play(&mut session, &["engine: bestmove a7a6"]);
    let out = play_timed(
        &mut session,
        base,
        &[
            "at 40000",
            "gui: go movetime 100",
            "engine: info depth 1 pv e1e8",
            "at 40600",
            "timeout",
            "at 41600",
            "timeout",
        ],
    );
    assert_eq!(out.last().unwrap(), "gui< bestmove 0000 [Answered]");
    assert!(out[out.len() - 3].contains("bestmove 0000 (no legal pv move)"));
}

#[test]
fn handshake_adds_options_and_enables_chess960_before_uciok() {
    let mut session = UciSession::new(fixed("860"));
    assert_eq!(
        play(&mut session, &HANDSHAKE),
        [
            "engine< uci",
            "gui< id name Stockfish 15.1",
            "gui< option name UCI_Chess960 type check default false",
            "engine< setoption name UCI_Chess960 value true [Injected]",
            "gui< option name SP960_Start type spin default 860 min -2 max 959 [Injected]",
            "gui< option name SP960_BlackStart type spin default -1 min -1 max 959 [Injected]",
            "gui< uciok",
        ]
    );
}

#[test]
fn held_lines_are_released_byte_for_byte() {
    let mut session = UciSession::new(fixed("860"));
    let mut actions = Vec::new();
    session.on_gui_line(b"uci", &mut actions);
    for line in [&b"foo  bar \r"[..], b"isready \t", b"\xff odd bytes"] {
        session.on_gui_line(line, &mut actions);
    }
    actions.clear();
    session.on_engine_line(b"uciok", &mut actions);
    let held: Vec<&[u8]> = actions
        .iter()
        .filter_map(|action| match action {
            Action::Send {
                to: Peer::Engine,
                line,
                mark: Mark::Held,
            } => Some(&line[..]),
            _ => None,
        })
        .collect();
    assert_eq!(
        held,
        [&b"foo  bar \r"[..], b"isready \t", b"\xff odd bytes"]
    );
}

#[test]
fn lines_sent_before_uciok_are_held_until_the_engine_options_are_known() {
    let mut session = UciSession::new(fixed("860"));
    let out = play(
        &mut session,
        &[
            "gui: uci",
            "gui: isready",
            "gui: position startpos",
            "gui: go depth 5",
            "engine: option name UCI_Chess960 type check default false",
            "engine: uciok",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< uci",
            "gui< option name UCI_Chess960 type check default false",
            "engine< setoption name UCI_Chess960 value true [Injected]",
            "gui< option name SP960_Start type spin default 860 min -2 max 959 [Injected]",
            "gui< option name SP960_BlackStart type spin default -1 min -1 max 959 [Injected]",
            "gui< uciok",
            "engine< isready [Held]",
            "engine< position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 [Rewritten]",
            "engine< go depth 5 [Held]",
        ]
    );
    // Held in order: quit too, and the quit for the end of input.
    let mut session = UciSession::new(fixed("860"));
    let out = play(&mut session, &["gui: uci", "gui: isready", "gui: quit"]);
    assert_eq!(out, ["engine< uci"]);
    let mut eof = Vec::new();
    session.on_gui_eof(&mut eof);
    assert!(eof.is_empty());
    let out = play(&mut session, &["engine: uciok"]);
    assert_eq!(
        out[out.len() - 4..],
        [
            "gui< uciok",
            "engine< isready [Held]",
            "engine< quit [Held]",
            "Shutdown"
        ]
    );
}

#[test]
fn startpos_becomes_the_start_and_castling_is_translated_both_ways() {
    let mut session = UciSession::new(fixed("860"));
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: position startpos moves d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6",
            "gui: go depth 5 searchmoves c1g1 c1a1",
            "engine: info depth 5 seldepth 4 multipv 1 score cp -97 nodes 93 pv c1e1 g6f4 g3f5",
            "engine: info depth 5 score cp -97 nodes 93 pv d3f5",
            "engine: bestmove c1e1 ponder g6f4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6 [Rewritten]",
            "engine< go depth 5 searchmoves c1e1 c1a1 [Rewritten]",
            "gui< info depth 5 seldepth 4 multipv 1 score cp -97 nodes 93 pv c1g1 g6f4 g3f5 [Rewritten]",
            "gui< info depth 5 score cp -97 nodes 93 pv d3f5",
            "gui< bestmove c1g1 ponder g6f4 [Rewritten]",
        ]
    );
}

#[test]
fn a_chess960_gui_gets_king_takes_rook_untouched() {
    let mut session = UciSession::new(fixed("860"));
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: setoption name UCI_Chess960 value true",
            "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6",
            "gui: go depth 5 searchmoves c1e1",
            "engine: info depth 5 pv c1e1 g6f4 g3f5",
            "engine: bestmove c1e1 ponder g6f4 ",
        ],
    );
    // UCI_Chess960 true is consumed (the engine already has it); everything else
    // goes through byte for byte, Ethereal's trailing space included.
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out.iter().all(|line| !line.contains('[')), "{out:?}");
    assert_eq!(out[3], "gui< bestmove c1e1 ponder g6f4 ");
}

#[test]
fn gui_turning_chess960_off_only_changes_its_dialect() {
    let mut session = UciSession::new(fixed("518"));
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: setoption name UCI_Chess960 value false",
            "gui: position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
            "gui: go depth 3 searchmoves e1g1",
            "engine: bestmove e1h1",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1 moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 [Rewritten]",
            "engine< go depth 3 searchmoves e1h1 [Rewritten]",
            "gui< bestmove e1g1 [Rewritten]",
        ]
    );
}

#[test]
fn broken_positions_are_refused_and_go_is_answered() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    for bad in [
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen garbage",
        "position fen",
        "position startpos moves e2e4 xyz",
        "position",
    ] {
        let out = play(
            &mut session,
            &[
                &format!("gui: {bad}"),
                "gui: go depth 1",
                "gui: stop",
                "gui: isready",
            ],
        );
        assert_eq!(out.len(), 3, "{bad}: {out:?}");
        assert!(
            out[0].starts_with("gui< info string sp960: refused position ("),
            "{out:?}"
        );
        assert_eq!(out[1], "gui< bestmove 0000 [Answered]");
        assert_eq!(
            out[2], "engine< isready",
            "stop swallowed, isready forwarded"
        );
    }
    let out = play(
        &mut session,
        &["gui: position startpos moves e2e4 e7e5", "gui: go depth 1"],
    );
    assert_eq!(
        out,
        [
            "engine< position startpos moves e2e4 e7e5",
            "engine< go depth 1"
        ]
    );
}

#[test]
fn a_go_with_a_malformed_number_is_answered_not_forwarded() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &["gui: position startpos", "gui: go depth x", "gui: stop"],
    );
    assert_eq!(
        out[1..],
        [
            "gui< info string sp960: refused go (go: 'depth' needs a number, not 'x'); not \
                 sent to the engine [Injected]",
            "gui< bestmove 0000 [Answered]",
        ]
    );
    let out = play(&mut session, &["gui: go depth 0"]);
    assert_eq!(
        out[0],
        "gui< info string sp960: refused go (go: 'depth 0' asks for no search at all); not \
             sent to the engine [Answered]"
            .replace("[Answered]", "[Injected]")
    );
    // A parameter UCI does not define (Stockfish's `perft`, which answers no `bestmove`).
    let out = play(&mut session, &["gui: go perft 3"]);
    assert_eq!(
        out,
        [
            "gui< info string sp960: refused go (go: unknown parameter 'perft'); not sent to \
                 the engine [Injected]",
            "gui< bestmove 0000 [Answered]",
        ]
    );
    let out = play(&mut session, &["gui: go depth 2 searchmoves e2e4"]);
    assert_eq!(out, ["engine< go depth 2 searchmoves e2e4"]);
}

#[test]
fn a_go_the_engine_may_never_answer_is_answered_not_forwarded() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    play(&mut session, &["gui: position startpos moves e2e4"]);
    // Each one makes Stockfish 15.1 search on for ever or answer `bestmove (none)`.
    for (go, reason) in [
        ("go", "no limit"),
        ("go mate 1", "'mate' alone"),
        ("go winc 100 binc 100", "without 'btime'"),
        ("go wtime 1000 winc 10", "without 'btime'"),
        ("go btime 0 wtime 100", "'btime 0' leaves no time"),
        ("go depth 4294967296", "beyond 2147483647"),
        ("go movetime 9223372036854775807", "beyond"),
        (
            "go depth 3 searchmoves e7e5 e2e4",
            "searchmoves 'e2e4' is not a legal move",
        ),
    ] {
        let out = play(&mut session, &[&format!("gui: {go}")]);
        assert_eq!(out.len(), 2, "{go}: {out:?}");
        assert!(
            out[0].starts_with("gui< info string sp960: refused go (go: ")
                && out[0].contains(reason),
            "{go}: {out:?}"
        );
        assert_eq!(out[1], "gui< bestmove 0000 [Answered]");
    }
    // Limits the engine honours pass; searchmoves goes last.
    let out = play(
        &mut session,
        &[
            "gui: go btime 1000 wtime 1000",
            "engine: bestmove e7e5",
            "gui: go mate 2 depth 4",
            "engine: bestmove e7e5",
            "gui: go ponder",
            "gui: stop",
            "engine: info depth 1",
            "engine: bestmove e7e5",
            "gui: go searchmoves e7e5 d7d5 depth 3",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go btime 1000 wtime 1000",
            "gui< bestmove e7e5",
            "engine< go mate 2 depth 4",
            "gui< bestmove e7e5",
            "engine< go ponder",
            "engine< stop [Held]",
            "gui< info depth 1",
            "gui< bestmove e7e5",
            "engine< go depth 3 searchmoves e7e5 d7d5 [Rewritten]",
        ]
    );
}

#[test]
fn setoption_values_outside_the_engines_declaration_are_refused() {
    let mut session = UciSession::new(UciConfig::default());
    let out = play(
        &mut session,
        &[
            "gui: uci",
            "engine: option name Hash type spin default 16 min 1 max 33554432",
            "engine: option name Ponder type check default false",
            "engine: uciok",
            "gui: setoption name Hash value abc",
            "gui: setoption name Hash value 64",
            "gui: setoption name Ponder value maybe",
            "gui: setoption name UCI_Chess960 value 1.5",
            "gui: setoption name Unknown value x",
        ],
    );
    assert_eq!(
        out[6..],
        [
            "gui< info string sp960: refused setoption (Hash takes a whole number, not \
                 'abc'); not sent to the engine [Injected]",
            "engine< setoption name Hash value 64",
            "gui< info string sp960: refused setoption (Ponder takes true or false, not \
                 'maybe'); not sent to the engine [Injected]",
            "gui< info string sp960: refused setoption (UCI_Chess960 takes true or false, \
                 not '1.5'); not sent to the engine [Injected]",
            "engine< setoption name Unknown value x",
        ],
        "{out:?}"
    );
}

#[test]
fn commands_during_a_search_wait_for_its_bestmove() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: position startpos",
            "gui: go infinite",
            "engine: info depth 1 pv e2e4",
            "gui: isready",
            "gui: position startpos moves e2e4",
            "gui: setoption name Hash value 32",
            "gui: isready",
            "gui: go depth 3",
            "gui: stop",
            "engine: info depth 2 pv e2e4",
            "engine: bestmove e2e4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position startpos",
            "engine< go infinite",
            "gui< info depth 1 pv e2e4",
            // Glaurung answers no isready while it searches: the proxy does.
            "gui< readyok [Answered]",
            // The search is stopped; nothing else reaches the searching engine.
            "engine< stop [Injected]",
            "gui< info depth 2 pv e2e4",
            "gui< bestmove e2e4",
            "engine< position startpos moves e2e4 [Held]",
            "engine< setoption name Hash value 32 [Held]",
            "engine< isready [Held]",
            "engine< go depth 3 [Held]",
        ],
        "{out:?}"
    );
    assert!(session.searching());
    // The held `stop` came after the new `go`: it waits for the engine to be heard.
    let out = play(
        &mut session,
        &[
            "engine: readyok",
            "engine: info depth 1",
            "engine: bestmove e7e5",
        ],
    );
    assert_eq!(
        out,
        [
            "gui< readyok",
            "engine< stop [Held]",
            "gui< info depth 1",
            "gui< bestmove e7e5",
        ],
        "the readyok of an isready before the go does not release the stop"
    );
    // A bestmove no go asked for is not passed on.
    let out = play(&mut session, &["engine: bestmove e7e5"]);
    assert_eq!(
        out,
        ["Warn(\"proxy: the engine's 'bestmove e7e5' answers no go; not passed on\")"]
    );
    // A second go during a search: one bestmove each.
    let out = play(
        &mut session,
        &[
            "gui: go depth 20",
            "engine: info depth 1",
            "gui: go depth 1",
            "gui: stop",
            "engine: bestmove e7e5",
            "engine: bestmove d7d5",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go depth 20",
            "gui< info depth 1",
            "engine< stop [Injected]",
            "gui< bestmove e7e5",
            "engine< go depth 1 [Held]",
            // The GUI's stop waited for the engine's first info; the search ended first.
            "gui< bestmove d7d5",
        ],
        "{out:?}"
    );
}

#[test]
fn a_command_right_after_go_in_one_batch_keeps_the_go() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let mut actions = Vec::new();
    for line in ["position startpos", "go depth 3", "ucinewgame"] {
        session.on_gui_line(line.as_bytes(), &mut actions);
    }
    assert_eq!(
        actions,
        [Action::Forward, Action::Forward],
        "the go is sent"
    );
    // The stop the ucinewgame needs waits for the engine, or for its deadline.
    let deadline = session.poll_timeout().expect("the held stop's deadline");
    session.handle_timeout(deadline, &mut actions);
    assert_eq!(actions[2], Action::send(Peer::Engine, "stop", Mark::Held));
}

#[test]
fn an_engines_illegal_bestmove_reaches_the_gui_as_0000_with_the_reason() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: position startpos",
            "gui: go nodes 69",
            "engine: bestmove a1a1 ",
            "gui: go nodes 69",
            "engine: bestmove (none)",
            // Mate: no legal move, the engine's null move passes, a move does not.
            "gui: position startpos moves f2f3 e7e5 g2g4 d8h4",
            "gui: go depth 1",
            "engine: bestmove (none)",
            "gui: go depth 1",
            "engine: bestmove e2e4",
            // A ponder move not legal after the best move is dropped.
            "gui: position startpos",
            "gui: go depth 1",
            "engine: bestmove e2e4 ponder e2e4",
            "gui: go depth 1",
            "engine: bestmove e2e4 ponder e7e5",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position startpos",
            "engine< go nodes 69",
            "gui< info string sp960: the engine's bestmove 'a1a1' is not a legal move in \
                 the searched position; sent as bestmove 0000 [Injected]",
            "gui< bestmove 0000 [Rewritten]",
            "engine< go nodes 69",
            "gui< info string sp960: the engine's bestmove '(none)' is not a legal move in \
                 the searched position; sent as bestmove 0000 [Injected]",
            "gui< bestmove 0000 [Rewritten]",
            "engine< position startpos moves f2f3 e7e5 g2g4 d8h4",
            "engine< go depth 1",
            "gui< bestmove (none)",
            "engine< go depth 1",
            "gui< info string sp960: the engine's bestmove 'e2e4' is not a legal move in \
                 the searched position; sent as bestmove 0000 [Injected]",
            "gui< bestmove 0000 [Rewritten]",
            "engine< position startpos",
            "engine< go depth 1",
            "gui< bestmove e2e4 [Rewritten]",
            "engine< go depth 1",
            "gui< bestmove e2e4 ponder e7e5",
        ]
    );
}

#[test]
fn a_stop_right_after_go_waits_for_the_engine_or_the_clock() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    // Ethereal loses a stop that follows `go infinite` at once: held until the engine is
    // heard, or EARLY_WAIT after it was read.
    let base = Instant::now();
    let held = [
        "at 0",
        "gui: position startpos",
        "gui: go infinite",
        "at 5",
        "gui: stop",
        "gui: stop",
        "at 204",
        "timeout",
    ];
    let mut out = play_timed(&mut session, base, &held);
    assert_eq!(session.poll_timeout(), Some(base + ms(5) + EARLY_WAIT));
    out.extend(play_timed(&mut session, base, &["at 205", "timeout"]));
    assert_eq!(
        out,
        [
            "engine< position startpos",
            "engine< go infinite",
            "engine< stop [Held]",
        ]
    );
    let out = play(
        &mut session,
        &["gui: stop", "tick", "engine: bestmove e2e4"],
    );
    assert_eq!(out, ["gui< bestmove e2e4"]);
    // Heard before the clock runs out: sent then; ponderhit and stop keep their order.
    let out = play_timed(
        &mut session,
        base,
        &[
            "at 1000",
            "gui: go ponder",
            "gui: ponderhit",
            "gui: stop",
            "at 1100",
            "timeout",
            "engine: info depth 1",
            "at 1300",
            "timeout",
            "engine: bestmove e2e4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go ponder",
            "engine< ponderhit [Held]",
            "engine< stop [Held]",
            "gui< info depth 1",
            "gui< bestmove e2e4",
        ]
    );
}

#[test]
fn ucinewgame_between_position_and_go_sends_the_position_again() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: position startpos moves e2e4",
            "gui: ucinewgame",
            "gui: go depth 1",
            "engine: bestmove e7e5",
            "gui: go depth 1",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position startpos moves e2e4",
            "engine< ucinewgame",
            "engine< position startpos moves e2e4 [Injected]",
            "engine< go depth 1",
            "gui< bestmove e7e5",
            "engine< go depth 1",
        ]
    );
}

#[test]
fn glaurung_gets_castling_rights_one_set_of_files_can_hold() {
    let position = "position fen rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1 \
                        moves b2b4 e7e6 b4b5 f7f6 e1f3 c7c5";
    let handshake = |name: &str| {
        [
            "gui: uci".to_owned(),
            format!("engine: id name {name}"),
            "engine: option name UCI_Chess960 type check default false".to_owned(),
            "engine: uciok".to_owned(),
            "gui: setoption name UCI_Chess960 value true".to_owned(),
        ]
    };
    let run = |name: &str, script: &[&str]| {
        let mut session = UciSession::new(UciConfig::default());
        let handshake = handshake(name);
        play(
            &mut session,
            &handshake.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        play(&mut session, script)
    };
    // Glaurung 2.2: white (to move) keeps its rights, black's (other files) go, and
    // the GUI is told; the same position goes again after ucinewgame.
    let gui_position = format!("gui: {position}");
    let script = [gui_position.as_str(), "gui: ucinewgame", "gui: go depth 3"];
    let shared = position.replace("HDfa", "HD");
    assert_eq!(
        run("Glaurung 2.2", &script),
        [
            "gui< info string sp960: the engine keeps one king file and one rook file per \
                 wing for both colours: it gets castling rights HD instead of HDfa [Injected]"
                .to_owned(),
            format!("engine< {shared} [Rewritten]"),
            "engine< ucinewgame".to_owned(),
            format!("engine< {shared} [Injected]"),
            "engine< go depth 3".to_owned(),
        ]
    );
    // Other engines keep one set of castling files per colour: byte for byte.
    assert_eq!(
        run("Stockfish 15.1", &script),
        [
            format!("engine< {position}"),
            "engine< ucinewgame".to_owned(),
            format!("engine< {position} [Injected]"),
            "engine< go depth 3".to_owned(),
        ]
    );
    // Rights Glaurung can hold reach it unchanged.
    let fitting = "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
    assert_eq!(
        run("Glaurung 2.2", &[fitting]),
        [fitting.replace("gui: ", "engine< ")]
    );
}

/// Knight moves there and back from the start: `plies` reversible plies.
fn knight_shuffle(plies: usize) -> String {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = (0..plies).map(|i| cycle[i % 4]).collect();
    moves.join(" ")
}

#[test]
fn very_long_move_lists_start_after_the_last_irreversible_move() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    // 392 plies, never more than 96 reversible in a row: byte for byte.
    let stretches = ["a2a3 a7a6", "b2b3 b7b6", "c2c3 c7c6"]
        .map(|pawns| format!("{} {pawns}", knight_shuffle(96)))
        .join(" ");
    let line = format!(
        "gui: position startpos moves e2e4 e7e5 {stretches} {}",
        knight_shuffle(96)
    );
    let out = play(&mut session, &[&line]);
    assert_eq!(out, [line.replace("gui: ", "engine< ")]);
    // 490 plies (beyond MAX_ENGINE_PLIES): from the last pawn move (FEN by
    // python-chess), its 96 plies since.
    let line = format!(
        "gui: position startpos moves e2e4 e7e5 {stretches} {} h2h3 h7h6 {}",
        knight_shuffle(96),
        knight_shuffle(96)
    );
    let out = play(
        &mut session,
        &[&line, "gui: go depth 1", "engine: bestmove g1f3"],
    );
    assert_eq!(
        out[0],
        format!(
            "engine< position fen rnbqkbnr/3p1pp1/ppp4p/4p3/4P3/PPP4P/3P1PP1/RNBQKBNR w KQkq - 0 198 moves {} [Rewritten]",
            knight_shuffle(96)
        )
    );
    assert_eq!(out[2], "gui< bestmove g1f3");
}

#[test]
fn over_100_reversible_plies_at_the_end_start_100_plies_before_it() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    // REBASED_PLIES reversible plies after the last pawn move: byte for byte.
    let line = format!(
        "gui: position startpos moves e2e4 e7e5 {}",
        knight_shuffle(REBASED_PLIES)
    );
    assert_eq!(
        play(&mut session, &[&line]),
        [line.replace("gui: ", "engine< ")]
    );
    // One more: the FEN after e2e4 e7e5 g1f3 (python-chess), the last 100 plies.
    let line = format!(
        "gui: position startpos moves e2e4 e7e5 {}",
        knight_shuffle(REBASED_PLIES + 1)
    );
    let all = knight_shuffle(REBASED_PLIES + 1);
    let last_100 = all.split_once(' ').unwrap().1;
    assert_eq!(
        play(&mut session, &[&line]),
        [format!(
            "engine< position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 moves {} [Rewritten]",
            last_100
        )]
    );
    // From a FEN whose halfmove clock is already high, only the list's tail counts
    // for the length, the clock for the 50-move rule: 100 plies stay as they are.
    let line = format!(
        "gui: position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 90 46 moves {}",
        knight_shuffle(100)
    );
    assert_eq!(
        play(&mut session, &[&line]),
        [line.replace("gui: ", "engine< ")]
    );
}

#[test]
fn multipv_outside_the_declaration_is_refused() {
    // Ethereal 12.75 answers `bestmove a1a1` with MultiPV 0 and beyond its 256.
    let mut session = UciSession::new(UciConfig::default());
    let out = play(
        &mut session,
        &[
            "gui: uci",
            "engine: option name MultiPV type spin default 1 min 1 max 256",
            "engine: uciok",
            "gui: setoption name MultiPV value 0",
            "gui: setoption name MultiPV value 257",
            "gui: setoption name MultiPV value 3",
        ],
    );
    assert!(out[5].contains("refused setoption (MultiPV"), "{out:?}");
    assert!(out[6].contains("refused setoption (MultiPV"), "{out:?}");
    assert_eq!(out[7], "engine< setoption name MultiPV value 3");
}

#[test]
fn refusals_name_the_problem() {
    let mut session = UciSession::new(UciConfig::default());
    let out = play(
        &mut session,
        &["gui: position startpos moves e2e4 e7e5 e1e2 xyz"],
    );
    assert!(out[0].contains("move 4 of the list: 'xyz'"), "{out:?}");
    let out = play(
        &mut session,
        &["gui: position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"],
    );
    assert!(out[0].contains("opposite check"), "{out:?}");
}

#[test]
fn our_options_are_consumed_and_select_the_start() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: setoption name SP960_Start value 0",
            "gui: setoption name sp960_blackstart value 959",
            "gui: position startpos",
            "gui: setoption name SP960_Start value 960",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< setoption name UCI_Chess960 value true [Injected]",
            "engine< position fen rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1 [Rewritten]",
            "gui< info string sp960: SP960_Start must be -2 (random), -1 (off) or 0..959, not '960': ignored [Injected]",
        ]
    );
}

#[test]
fn the_start_option_turns_off_and_random() {
    let mut session = UciSession::new(UciConfig {
        random_seed: 11,
        ..fixed("860")
    });
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: setoption name SP960_Start value -1",
            "gui: position startpos moves e2e4",
            "gui: setoption name SP960_Start value -2",
        ],
    );
    assert_eq!(out[0], "engine< position startpos moves e2e4");
    assert_eq!(
        out[1],
        "Warn(\"proxy: random starts chosen by the GUI, seed 11 (repeat with --seed 11)\")"
    );
    let out = play(&mut session, &["gui: position startpos"]);
    assert!(out[0].starts_with("engine< position fen "), "{out:?}");
    assert!(
        !out[0].contains("RBKNRNBQ"),
        "a random start, not 860: {out:?}"
    );
}

#[test]
fn engines_without_chess960_get_standard_positions_or_fail() {
    let toga = ["gui: uci", "engine: id name Toga II 3.0", "engine: uciok"];
    let mut session = UciSession::new(fixed("860"));
    let out = play(&mut session, &toga);
    assert!(out[2].starts_with("gui< info string sp960: the engine has no UCI_Chess960"));
    assert!(out.iter().any(|line| line.starts_with("Warn(")));
    let out = play(&mut session, &["gui: position startpos moves d1e3"]);
    assert_eq!(
        out,
        [
            "engine< position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w - - 0 1 moves d1e3 [Rewritten]"
        ]
    );
    let mut session = UciSession::new(UciConfig {
        require_chess960: true,
        ..fixed("860")
    });
    let out = play(&mut session, &toga);
    assert!(out.last().unwrap().starts_with("Fail { code: 3"), "{out:?}");
    assert!(!out.iter().any(|line| line == "gui< uciok"));
}

#[test]
fn engine_castling_xfen_gives_kqkq_or_file_letters() {
    let mut session = UciSession::new(UciConfig {
        engine_castling: CastlingNotation::Xfen,
        ..fixed("0:959")
    });
    play(&mut session, &HANDSHAKE);
    let out = play(&mut session, &["gui: position startpos"]);
    assert_eq!(
        out,
        [
            "engine< position fen rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1 [Rewritten]"
        ]
    );
}

#[test]
fn without_a_start_chess960_positions_turn_the_engine_mode_on() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &[
            "gui: position startpos moves e2e4",
            "gui: position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< position startpos moves e2e4",
            "engine< setoption name UCI_Chess960 value true [Injected]",
            "engine< position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 [Rewritten]",
        ]
    );
}

#[test]
fn lowercase_default_false_is_given_to_the_gui() {
    let mut session = UciSession::new(UciConfig::default());
    let out = play(
        &mut session,
        &["engine: option name UCI_Chess960 type check default False"],
    );
    assert_eq!(
        out,
        ["gui< option name UCI_Chess960 type check default false [Rewritten]"]
    );
}

#[test]
fn cutechess_variant_chess960_enables_uci_chess960() {
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &HANDSHAKE);
    let out = play(
        &mut session,
        &["gui: setoption name UCI_Variant value chess960"],
    );
    assert_eq!(
        out,
        ["engine< setoption name UCI_Chess960 value true [Rewritten]"]
    );
    assert_eq!(session.gui_dialect(), CastlingDialect::Chess960);
    // An engine without UCI_Chess960 gets the line as it is.
    let mut session = UciSession::new(UciConfig::default());
    play(&mut session, &["gui: uci", "engine: uciok"]);
    let out = play(
        &mut session,
        &["gui: setoption name UCI_Variant value fischerandom"],
    );
    assert_eq!(
        out,
        ["engine< setoption name UCI_Variant value fischerandom"]
    );
}

#[test]
fn unrelated_lines_pass_untouched() {
    let mut session = UciSession::new(fixed("860"));
    play(&mut session, &HANDSHAKE);
    for line in [
        "engine: info string hello c1e1 pv",
        "engine:   weird   vendor   line\r",
        "engine: readyok",
        "gui: debug on",
        "gui: xyzzy 1 2 3",
        "gui:  isready ",
    ] {
        let out = play(&mut session, &[line]);
        assert_eq!(out.len(), 1, "{line}");
        assert!(!out[0].contains('['), "{line}: {out:?}");
    }
}

#[test]
fn random_starts_change_at_ucinewgame_and_repeat_with_the_seed() {
    let config = UciConfig {
        start: StartChoice::Random {
            seed: 7,
            dfrc: false,
        },
        ..UciConfig::default()
    };
    let starts = |session: &mut UciSession| -> Vec<String> {
        let mut fens = Vec::new();
        for _ in 0..3 {
            play(session, &["gui: ucinewgame"]);
            fens.push(
                play(
                    session,
                    &["gui: position startpos", "gui: position startpos"],
                )
                .concat(),
            );
        }
        fens
    };
    let mut a = UciSession::new(config.clone());
    let mut b = UciSession::new(config);
    let (first, second) = (starts(&mut a), starts(&mut b));
    assert_eq!(first, second);
    assert_ne!(first[0], first[1]);
}

#[test]
fn info_lines_translate_every_move_field() {
    let (root, _) =
        parse_fen("r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7")
            .unwrap();
    let line = b"info depth 3 currmove c1e1 currmovenumber 1 refutation c1a1 g6f4 currline 1 c1e1 g6f4 pv c1e1 g6f4 string c1e1";
    assert_eq!(
        String::from_utf8(translate_info(&root, line, CastlingDialect::Standard)).unwrap(),
        "info depth 3 currmove c1g1 currmovenumber 1 refutation c1a1 g6f4 currline 1 c1g1 g6f4 pv c1g1 g6f4 string c1e1"
    );
}

/// Runs `script` (see `play_timed`) on a session past the handshake that has the
/// start position, from `base`.
fn searching(config: UciConfig, base: Instant, script: &[&str]) -> (UciSession, Vec<String>) {
    let mut session = UciSession::new(config);
    play_timed(&mut session, base, &["at 0"]);
    play(&mut session, &HANDSHAKE);
    play(&mut session, &["gui: position startpos"]);
    let out = play_timed(&mut session, base, script);
    (session, out)
}

#[test]
fn held_stop_and_ponderhit_share_one_deadline_counted_from_the_first() {
    let base = Instant::now();
    let (mut session, out) = searching(
        UciConfig::default(),
        base,
        &[
            "gui: go ponder",
            "at 50",
            "gui: ponderhit",
            "at 120",
            "gui: stop",
            "at 249",
            "timeout",
        ],
    );
    assert_eq!(out, ["engine< go ponder"]);
    assert!(session.searching());
    assert_eq!(session.poll_timeout(), Some(base + ms(50) + EARLY_WAIT));
    let out = play_timed(
        &mut session,
        base,
        &["at 250", "timeout", "gui: stop", "gui: ponderhit"],
    );
    assert_eq!(out, ["engine< ponderhit [Held]", "engine< stop [Held]"]);
    assert_eq!(session.poll_timeout(), None);
    // The engine heard after the deadline: nothing more goes.
    let out = play(
        &mut session,
        &["engine: info depth 1 pv e2e4", "engine: bestmove e2e4"],
    );
    assert_eq!(out, ["gui< info depth 1 pv e2e4", "gui< bestmove e2e4"]);
    assert!(!session.searching());
}

#[test]
fn a_ponderhit_released_alone_leaves_a_later_stop_to_be_held_again() {
    let base = Instant::now();
    let (mut session, out) = searching(
        UciConfig::default(),
        base,
        &["gui: go ponder", "gui: ponderhit", "at 200", "timeout"],
    );
    assert_eq!(out, ["engine< go ponder", "engine< ponderhit [Held]"]);
    // Still not heard: the stop waits again, with a deadline of its own.
    let out = play_timed(&mut session, base, &["at 300", "gui: stop"]);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(session.poll_timeout(), Some(base + ms(300) + EARLY_WAIT));
    let out = play(&mut session, &["engine: info depth 1", "gui: stop"]);
    assert_eq!(out, ["engine< stop [Held]", "gui< info depth 1"]);
}

#[test]
fn a_stop_while_stopping_is_dropped_and_commands_wait_for_the_bestmove() {
    let base = Instant::now();
    let (mut session, out) = searching(
        UciConfig::default(),
        base,
        &[
            "gui: go infinite",
            "engine: info depth 1 pv e2e4",
            "gui: stop",
            "gui: stop",
            // Stopping already: no second stop for the commands, they wait.
            "gui: position startpos moves e2e4",
            "gui: isready",
            "gui: stop",
            "gui: go depth 3",
            "engine: bestmove e2e4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go infinite",
            "gui< info depth 1 pv e2e4",
            "engine< stop",
            "gui< bestmove e2e4",
            // Everything after the first held command waits with it, in order: the
            // `stop` finds no search.
            "engine< position startpos moves e2e4 [Held]",
            "engine< isready [Held]",
            "engine< stop [Held]",
            "engine< go depth 3 [Held]",
        ]
    );
    // The held go is a new search, not heard yet: its stop is held.
    assert!(session.searching());
    let out = play(&mut session, &["gui: stop"]);
    assert!(out.is_empty(), "{out:?}");
    assert!(session.poll_timeout().is_some());
}

#[test]
fn a_go_while_searching_stops_the_search_and_goes_after_its_bestmove() {
    let base = Instant::now();
    let (session, out) = searching(
        UciConfig::default(),
        base,
        &[
            "gui: go infinite",
            "engine: info depth 1 pv e2e4",
            "gui: go depth 2",
            "gui: isready",
            "engine: info depth 2 pv d2d4",
            "engine: bestmove d2d4",
            "engine: info depth 1 pv e2e4",
            "engine: bestmove e2e4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go infinite",
            "gui< info depth 1 pv e2e4",
            "engine< stop [Injected]",
            "gui< info depth 2 pv d2d4",
            "gui< bestmove d2d4",
            "engine< go depth 2 [Held]",
            // Held behind the go, then answered during its search.
            "gui< readyok [Answered]",
            "gui< info depth 1 pv e2e4",
            "gui< bestmove e2e4",
        ]
    );
    assert!(!session.searching());
    // Before the engine is heard, the injected stop is held like the GUI's.
    let (mut session, out) = searching(
        UciConfig::default(),
        base,
        &["gui: go infinite", "gui: go depth 2", "at 200", "timeout"],
    );
    assert_eq!(out, ["engine< go infinite", "engine< stop [Held]"]);
    let out = play(&mut session, &["engine: bestmove e2e4"]);
    assert_eq!(out, ["gui< bestmove e2e4", "engine< go depth 2 [Held]"]);
}

#[test]
fn a_restart_mid_search_holds_the_stop_again_until_the_new_engine_is_heard() {
    let base = Instant::now();
    let restart = UciConfig {
        restart_engine: 1,
        ..UciConfig::default()
    };
    let (mut session, out) = searching(
        restart,
        base,
        &[
            "gui: go infinite",
            "engine: info depth 1 pv e2e4",
            "gui: stop",
            "at 1000",
            "exit",
            "engine: uciok",
        ],
    );
    let sent: Vec<&String> = out.iter().filter(|l| l.starts_with("engine<")).collect();
    assert_eq!(
        sent,
        [
            "engine< go infinite",
            "engine< stop",
            "engine< uci [Injected]",
            "engine< position startpos [Injected]",
            "engine< go infinite [Injected]",
        ]
    );
    // The new engine gets the stop once it is heard, or at the deadline.
    assert_eq!(session.poll_timeout(), Some(base + ms(1000) + EARLY_WAIT));
    let out = play(
        &mut session,
        &["engine: info depth 1 pv d2d4", "engine: bestmove d2d4"],
    );
    assert_eq!(
        out,
        [
            "engine< stop [Held]",
            "gui< info depth 1 pv d2d4",
            "gui< bestmove d2d4"
        ]
    );
}

#[test]
fn the_guards_stop_replaces_the_held_lines_and_its_answer_ends_the_search() {
    let base = Instant::now();
    let guarded = UciConfig {
        max_search: Some(ms(100)),
        ..UciConfig::default()
    };
    let (mut session, out) = searching(
        guarded,
        base,
        &["gui: go depth 30", "at 50", "gui: stop", "at 100"],
    );
    assert_eq!(out, ["engine< go depth 30"]);
    // The guard's deadline comes before the held stop's.
    assert_eq!(session.poll_timeout(), Some(base + ms(100)));
    let out = play_timed(&mut session, base, &["timeout", "at 250", "timeout"]);
    let sent: Vec<&String> = out.iter().filter(|l| l.starts_with("engine<")).collect();
    assert_eq!(sent, ["engine< stop [Injected]"]);
    assert_eq!(session.poll_timeout(), Some(base + ms(100) + STOP_GRACE));
    // No bestmove: the proxy answers, the search is over, the late bestmove is dropped.
    let out = play_timed(
        &mut session,
        base,
        &["at 1100", "timeout", "gui: stop", "engine: bestmove e2e4"],
    );
    assert!(
        out.contains(&"gui< bestmove 0000 [Answered]".to_owned()),
        "{out:?}"
    );
    assert!(out.contains(&"engine< stop".to_owned()), "{out:?}");
    assert!(!session.searching());
    assert_eq!(session.poll_timeout(), None);
    // Both deadlines at once: the earlier (the held stop) first, then the guard sends none.
    let both = UciConfig {
        max_search: Some(EARLY_WAIT + ms(50)),
        ..UciConfig::default()
    };
    let (_, out) = searching(
        both,
        base,
        &["gui: go depth 30", "gui: stop", "at 400", "timeout"],
    );
    let sent: Vec<&String> = out.iter().filter(|l| l.starts_with("engine<")).collect();
    assert_eq!(sent, ["engine< go depth 30", "engine< stop [Held]"]);
}

#[test]
fn a_go_the_proxy_answered_swallows_its_stop_until_the_next_position() {
    let base = Instant::now();
    let (mut session, out) = searching(
        UciConfig::default(),
        base,
        &["gui: go depth 0", "gui: stop", "gui: ponderhit"],
    );
    assert_eq!(out.last().unwrap(), "gui< bestmove 0000 [Answered]");
    assert!(!session.searching());
    let out = play(&mut session, &["gui: position startpos", "gui: stop"]);
    assert_eq!(out, ["engine< position startpos", "engine< stop"]);
}
