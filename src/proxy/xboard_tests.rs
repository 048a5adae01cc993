//! Transcript tests of [`super`]'s session.

use super::*;

use crate::proxy::script::{
    is_start_notice, killed, play as play_all, play_without_start_notices as play,
};

#[test]
fn the_start_notices_come_once_per_game() {
    let mut session = XboardSession::new(config(Some("860")));
    play(&mut session, &FAIRY);
    let standard_gui = [
        "gui: new",
        "gui: force",
        "gui: d1e3",
        "gui: d8e6",
        "gui: go",
    ];
    for _ in 0..2 {
        let out = play_all(&mut session, &standard_gui);
        let notices: Vec<&String> = out.iter().filter(|l| is_start_notice(l)).collect();
        assert_eq!(
            notices,
            [
                "gui< # sp960: new is played from SP 860 but the GUI has not enabled \
                     variant fischerandom: a GUI that keeps its own board will reject the \
                     engine's moves (give such a GUI a book of starts: sp960 book) [Injected]",
                "Warn(\"proxy: new is played from SP 860 but the GUI has not enabled \
                     variant fischerandom: a GUI that keeps its own board will reject the \
                     engine's moves (give such a GUI a book of starts: sp960 book)\")",
            ],
            "{out:?}"
        );
    }
    // A GUI that sets up its own position (cutechess-cli, xboard with a book).
    let own = [
        "gui: new",
        "gui: variant fischerandom",
        "gui: force",
        "gui: setboard bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "gui: setboard bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "gui: b1c3",
    ];
    let out = play_all(&mut session, &own);
    let notices: Vec<&String> = out.iter().filter(|l| is_start_notice(l)).collect();
    assert_eq!(notices.len(), 2, "{out:?}");
    assert!(
        notices[0].starts_with(
            "gui< # sp960: the GUI's setboard replaces the start SP 860 in this game:"
        )
    );
    // Without a start of ours, nothing to tell.
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play_all(&mut session, &standard_gui);
    assert!(!out.iter().any(|l| is_start_notice(l)), "{out:?}");
}

fn config(start: Option<&str>) -> XboardConfig {
    XboardConfig {
        start: start.map_or(StartChoice::Off, |s| StartChoice::Fixed(s.parse().unwrap())),
        ..XboardConfig::default()
    }
}

/// Fairy-Stockfish 11.1's handshake (features shortened).
const FAIRY: [&str; 5] = [
    "gui: xboard",
    "gui: protover 2",
    "engine: feature setboard=1 usermove=1 time=1 ping=1 myname=Fairy-Stockfish variants=\"chess,fischerandom,normal\"",
    "engine: feature option=\"UCI_Chess960 -check 0\"",
    "engine: feature done=1",
];

/// Sjaak II 1.4.1's handshake (features shortened).
const SJAAK: [&str; 4] = [
    "gui: xboard",
    "gui: protover 2",
    "engine: feature setboard=1 ping=1 myname=\"Sjaak II 1.4.1\" variants=\"fide_chess,chess960,fischerandom,normal\"",
    "engine: feature done=1",
];

/// SP 860 up to both sides being able to castle king-side (Nde3 Nde6 Ng3 Ng6 f4 f5 Bf2 Bf7).
const L1: [&str; 8] = [
    "d1e3", "d8e6", "f1g3", "f8g6", "f2f4", "f7f5", "g1f2", "g8f7",
];

#[test]
fn a_crashed_engine_is_restarted_with_its_settings_the_game_and_the_clock_less_the_time_spent() {
    let mut session = XboardSession::new(XboardConfig {
        restart_engine: 1,
        ..config(Some("860"))
    });
    let base = Instant::now();
    session.set_now(base);
    play(&mut session, &SJAAK);
    play(
        &mut session,
        &[
            "gui: accepted setboard",
            "gui: level 40 5 0",
            "gui: post",
            "gui: new",
            "gui: variant fischerandom",
            "gui: force",
            "gui: d1e3",
            "gui: d8e6",
            "gui: time 30000",
            "gui: otim 29000",
            "gui: go",
            "engine: move f1g3",
            "gui: f8g6",
        ],
    );
    // Sjaak thinks; 2.5 s later it dies.
    session.set_now(base + Duration::from_millis(2500));
    let mut actions = Vec::new();
    session.on_engine_eof();
    // A GUI line now is held, not lost to the dead pipe.
    session.on_gui_line(b"ping 7", &mut actions);
    assert!(actions.is_empty());
    session.on_engine_exit(killed(9, true), &mut actions);
    let mut out: Vec<String> = actions
        .into_iter()
        .map(|action| match action {
            Action::Send { to, line, .. } => format!(
                "{}< {}",
                if to == Peer::Gui { "gui" } else { "engine" },
                String::from_utf8_lossy(&line)
            ),
            other => format!("{other:?}"),
        })
        .collect();
    out.extend(play(
        &mut session,
        &[
            "engine: feature setboard=1 ping=1 myname=\"Sjaak II 1.4.1\"",
            "engine: feature done=1",
        ],
    ));
    assert_eq!(
        out,
        [
            "gui< # sp960: the engine died unexpectedly from signal 9; restarting it (1 of 1 in this game), then its settings and the game",
            "Event(Warn(\"proxy: the engine died unexpectedly from signal 9; restarting it (1 of 1 in this game), then its settings and the game\"))",
            "Event(Restart)",
            "engine< xboard",
            "engine< protover 2",
            "engine< accepted setboard [Injected]",
            "engine< accepted ping [Injected]",
            "engine< accepted myname [Injected]",
            "engine< level 40 5 0 [Injected]",
            "engine< post [Injected]",
            "engine< new [Injected]",
            "engine< variant fischerandom [Injected]",
            "engine< force [Injected]",
            "engine< setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 [Injected]",
            "engine< d1e3 [Injected]",
            "engine< d8e6 [Injected]",
            "engine< f1g3 [Injected]",
            "engine< f8g6 [Injected]",
            "engine< time 29750 [Injected]",
            "engine< otim 29000 [Injected]",
            "engine< go [Injected]",
            "gui< # sp960: the engine restarted; the game sent again (4 plies), and go with the 2500 ms spent off its time [Injected]",
            "Warn(\"proxy: the engine restarted; the game sent again (4 plies), and go with the 2500 ms spent off its time\")",
            "engine< ping 7 [Held]",
        ]
    );
    // One restart a game: the next death is told as without the option.
    let mut actions = Vec::new();
    session.on_engine_exit(killed(9, true), &mut actions);
    assert!(!actions.contains(&Step::Event(ProxyEvent::Restart)));
    assert!(actions.contains(&Action::send(
        Peer::Gui,
        "tellusererror sp960: the engine died unexpectedly from signal 9",
        Mark::Injected
    )));
}

#[test]
fn handshake_offers_our_options_before_done_and_drops_their_replies() {
    let mut session = XboardSession::new(config(Some("860")));
    let out = play(&mut session, &FAIRY);
    assert_eq!(
        out[4..],
        [
            "gui< feature option=\"SP960_Start -spin 860 -2 959\" [Injected]",
            "gui< feature option=\"SP960_BlackStart -spin -1 -1 959\" [Injected]",
            "gui< feature done=1",
        ]
    );
    assert_eq!(session.features().setboard, Some(true));
    assert!(session.features().usermove);
    assert_eq!(
        session.engine_castling_form(),
        CastlingForm::Coordinate(CastlingDialect::Standard),
        "Fairy-Stockfish is known to take king takes rook (in normal chess: e1g1)"
    );
    let out = play(
        &mut session,
        &[
            "gui: accepted setboard",
            "gui: accepted option",
            "gui: accepted option",
            "gui: accepted option",
            "gui: accepted done",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< accepted setboard",
            "engine< accepted option",
            "engine< accepted done"
        ]
    );
}

#[test]
fn a_bad_setboard_after_edit_is_still_refused() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &SJAAK);
    let out = play(
        &mut session,
        &[
            "gui: edit",
            "gui: Pa4",
            "gui: setboard 8/8/8/8/8/8/8/8 w - - 0 1",
        ],
    );
    assert_eq!(out[..2], ["engine< edit", "engine< Pa4"]);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[2].starts_with("gui< Error ("), "{out:?}");
    assert!(!out.iter().any(|line| line.starts_with("engine< setboard")));
}

#[test]
fn new_sets_up_the_start_and_the_guis_own_setup_passes() {
    let mut session = XboardSession::new(config(Some("860")));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: variant fischerandom",
            "gui: force",
            "gui: setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< new",
            "engine< variant fischerandom [Injected]",
            "engine< setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 [Injected]",
            "engine< force",
            "engine< setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
        ]
    );
}

/// In normal chess a castling right only Chess960 has is dropped for the engine and the
/// proxy alike, so a castling move the engine would refuse is refused by the proxy.
#[test]
fn in_normal_chess_chess960_castling_rights_are_dropped() {
    // Hostile-GUI fuzzing, Fairy-Stockfish XBoard seed 12526710409882059559, command
    // 241,055: `O-O-O` from such rights was refused after a `remove`, and the pending `go`
    // made the engine play the GUI's side.
    let fen = "rqbkrb2/1pp1pnpp/8/p2p1p2/3PnP1P/P1N3P1/1PP1P1Q1/R1KRN1BB w KQkq - 0 10";
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: force",
            &format!("gui: setboard {fen}"),
            "gui: usermove Rd2",
            "gui: usermove b6",
            "gui: usermove O-O-O",
        ],
    );
    assert_eq!(out[0], "engine< new");
    assert_eq!(out[1], "engine< force");
    assert!(out[2].starts_with("gui< # sp960: castling rights only Chess960 has dropped"));
    assert_eq!(
        out[3],
        "engine< setboard rqbkrb2/1pp1pnpp/8/p2p1p2/3PnP1P/P1N3P1/1PP1P1Q1/R1KRN1BB w - - 0 10 [Rewritten]"
    );
    assert_eq!(
        out[4..6],
        [
            "engine< usermove d1d2 [Rewritten]",
            "engine< usermove b7b6 [Rewritten]"
        ]
    );
    assert!(
        out[6].starts_with("gui< Illegal move (not legal in"),
        "{out:?}"
    );
    // With variant fischerandom the same rights stay, and O-O-O is the engine's c1a1.
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: variant fischerandom",
            "gui: force",
            &format!("gui: setboard {fen}"),
            "gui: usermove Rd2",
            "gui: usermove b6",
            "gui: usermove O-O-O",
        ],
    );
    assert_eq!(out[3], format!("engine< setboard {fen}"), "{out:?}");
    assert_eq!(out[6], "engine< usermove c1a1 [Rewritten]", "{out:?}");
}

#[test]
fn castling_is_translated_both_ways_for_a_king_takes_rook_engine() {
    let mut session = XboardSession::new(config(Some("860")));
    play(&mut session, &FAIRY);
    play(&mut session, &["gui: new", "gui: force"]);
    let moves: Vec<String> = L1.iter().map(|m| format!("gui: usermove {m}")).collect();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let out = play(&mut session, &moves);
    assert!(out.iter().all(|line| !line.contains('[')), "{out:?}");
    let out = play(
        &mut session,
        &["gui: usermove O-O", "gui: go", "engine: move c8e8"],
    );
    assert_eq!(
        out,
        [
            "engine< usermove c1e1 [Rewritten]",
            "engine< go",
            "gui< move O-O [Rewritten]",
        ]
    );
    let position = session.position().unwrap();
    assert_eq!(
        position_fen(position, CastlingNotation::Shredder),
        "rb3rkq/pppppbpp/4n1n1/5p2/5P2/4N1N1/PPPPPBPP/RB3RKQ w - - 4 6"
    );
}

#[test]
fn an_oo_engine_gets_oo_from_a_king_takes_rook_gui() {
    let mut session = XboardSession::new(config(Some("860")));
    play(&mut session, &SJAAK);
    play(&mut session, &["gui: new", "gui: force"]);
    let moves: Vec<String> = L1.iter().map(|m| format!("gui: {m}")).collect();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    play(&mut session, &moves);
    let out = play(&mut session, &["gui: c1e1", "gui: go", "engine: move O-O"]);
    // The GUI wrote king takes rook: it gets the engine's castling that way too.
    assert_eq!(
        out,
        [
            "engine< O-O [Rewritten]",
            "engine< go",
            "gui< move c8e8 [Rewritten]"
        ]
    );
}

#[test]
fn the_engine_castling_option_wins_and_king_to_destination_is_read() {
    let mut session = XboardSession::new(XboardConfig {
        engine_castling: Some(EngineCastling::KingTakesRook),
        ..config(Some("860"))
    });
    play(&mut session, &SJAAK);
    play(&mut session, &["gui: new", "gui: force"]);
    for m in L1 {
        play(&mut session, &[&format!("gui: {m}")]);
    }
    let out = play(&mut session, &["gui: c1g1", "engine: move O-O"]);
    assert_eq!(
        out,
        ["engine< c1e1 [Rewritten]", "gui< move c8g8 [Rewritten]"],
        "the GUI wrote king to destination, so it gets that back"
    );
}

#[test]
fn malformed_time_commands_are_answered_not_forwarded() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: level 40 5 0",
            "gui: level x",
            "gui: st 0.5",
            "gui: st -1",
            "gui: sd 0",
            "gui: time 3000",
            "gui: otim",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< level 40 5 0",
            "gui< Error (malformed level, not sent to the engine: expected level MPS BASE \
                 INC, as 40 5 0 or 0 2:30 1): level x [Answered]",
            "engine< st 0.5",
            "gui< Error (malformed st, not sent to the engine: expected seconds): st -1 \
                 [Answered]",
            "gui< Error (malformed sd, not sent to the engine: expected a positive depth): \
                 sd 0 [Answered]",
            "engine< time 3000",
            "gui< Error (malformed otim, not sent to the engine: expected centiseconds): \
                 otim [Answered]",
        ]
    );
}

#[test]
fn the_shield_refuses_broken_positions_and_illegal_moves() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: setboard 8/8/8/8/8/8/8/8 w - - 0 1",
            "gui: e2e4",
            "gui: go",
        ],
    );
    assert_eq!(out[0], "engine< new");
    assert!(
        out[1].starts_with("gui< Error (illegal position, not sent to the engine: bad FEN")
            && out[1].ends_with("): setboard 8/8/8/8/8/8/8/8 w - - 0 1 [Answered]"),
        "{out:?}"
    );
    assert_eq!(
        out[2],
        "gui< Illegal move (no position: the last setboard was refused): e2e4 [Answered]"
    );
    assert!(out[3].starts_with("gui< Error (no position"), "{out:?}");
    assert_eq!(out.len(), 4);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: usermove e2e5",
            "gui: usermove e2e4",
            "gui: xyzzy",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< new",
            "gui< Illegal move (not legal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1): e2e5 [Answered]",
            "engine< usermove e2e4",
            "engine< xyzzy",
        ]
    );
}

#[test]
fn errors_for_ignorable_commands_are_dropped_others_pass() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: nopost",
            "engine: Error (unkown command): nopost",
            "gui: computer",
            "engine: Error (unkown command): computer",
            "engine: Error (unkown command): foo",
            "engine: Error (unkown command): post",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< nopost",
            "engine< computer",
            "gui< Error (unkown command): foo",
            "gui< Error (unkown command): post",
        ],
        "post was never sent: its error is not ours to hide"
    );
}

#[test]
fn undo_remove_and_a_rejected_move_keep_the_board_in_step() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    play(
        &mut session,
        &[
            "gui: new",
            "gui: force",
            "gui: usermove e2e4",
            "gui: usermove e7e5",
        ],
    );
    let out = play(&mut session, &["gui: remove"]);
    assert_eq!(
        out,
        ["engine< undo [Rewritten]", "engine< undo [Rewritten]"]
    );
    assert_eq!(session.position(), Some(&Chess::default()));
    play(&mut session, &["gui: usermove d2d4", "gui: undo"]);
    assert_eq!(session.position(), Some(&Chess::default()));
    // The engine refuses a move: it is taken back on the proxy's board too.
    play(
        &mut session,
        &["gui: usermove g1f3", "engine: Illegal move: g1f3"],
    );
    assert_eq!(session.position(), Some(&Chess::default()));
    // Past the position set up, undo and remove are refused (Fairy-Stockfish 11.1
    // dies on such an undo).
    let out = play(
        &mut session,
        &["gui: undo", "gui: usermove e2e4", "gui: remove"],
    );
    assert_eq!(
        out,
        [
            "gui< Error (cannot take back 1 moves, 0 since the last new or setboard; not \
                 sent to the engine): undo [Answered]",
            "engine< usermove e2e4",
            "gui< Error (cannot take back 2 moves, 1 since the last new or setboard; not \
                 sent to the engine): remove [Answered]",
        ]
    );
    // Outside force mode, remove is force and two undos, and the engine plays on after
    // the GUI's next move.
    let out = play(
        &mut session,
        &[
            "gui: go",
            "engine: move e7e5",
            "gui: undo",
            "gui: remove",
            "gui: usermove d2d4",
            "engine: move d7d5",
            "gui: usermove c2c4",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< go",
            "gui< move e7e5",
            "gui< Error (undo outside force mode, not sent to the engine: send force \
                 first): undo [Answered]",
            "engine< force [Injected]",
            "engine< undo [Rewritten]",
            "engine< undo [Rewritten]",
            "engine< usermove d2d4",
            "engine< go [Injected]",
            "gui< move d7d5",
            "engine< usermove c2c4",
        ]
    );
    assert_eq!(
        session.position().map(|p| p.board().to_string()),
        Some("rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR".to_owned())
    );
}

#[test]
fn a_move_with_text_after_its_mate_sign_is_refused() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &SJAAK);
    play(&mut session, &["gui: new", "gui: force"]);
    let out = play(
        &mut session,
        &["gui: b4#N7K-7", "gui: e4#", "gui: #comment"],
    );
    assert_eq!(
        out,
        [
            "gui< Illegal move (not a move: text after '#'): b4#N7K-7 [Answered]",
            "engine< e2e4 [Rewritten]",
            "engine< #comment",
        ]
    );
}

#[test]
fn a_move_wrapped_in_equals_signs_is_refused() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &SJAAK);
    play(&mut session, &["gui: new", "gui: force"]);
    let out = play(
        &mut session,
        &["gui: =e4", "gui: e2e4=", "gui: =", "gui: ==x", "gui: e4"],
    );
    assert_eq!(
        out,
        [
            "gui< Illegal move (not a move: '=' around it): =e4 [Answered]",
            "gui< Illegal move (not a move: '=' around it): e2e4= [Answered]",
            "engine< =",
            "engine< ==x",
            "engine< e2e4 [Rewritten]",
        ]
    );
}

#[test]
fn castling_with_digits_reaches_the_engine_as_letters() {
    // Hostile-GUI fuzzing, Sjaak II seed 4242 command 48,825: Sjaak II 1.4.1 refuses
    // `0-0`; after a `remove` outside force mode the proxy's `go` that follows the
    // GUI's move then made it play the GUI's side (`move e2c1` out of turn).
    let mut session = XboardSession::new(config(None));
    play(&mut session, &SJAAK);
    play(
        &mut session,
        &[
            "gui: new",
            "gui: force",
            "gui: setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "gui: a2a3",
            "gui: go",
            "engine: move a7a6",
        ],
    );
    let out = play(&mut session, &["gui: remove", "gui: 0-0"]);
    assert_eq!(
        out,
        [
            "engine< force [Injected]",
            "engine< undo [Rewritten]",
            "engine< undo [Rewritten]",
            "engine< O-O [Rewritten]",
            "engine< go [Injected]",
        ]
    );
    let out = play(&mut session, &["engine: move e8g8"]);
    assert_eq!(out, ["gui< move O-O [Rewritten]"]);
    assert_eq!(
        session
            .position()
            .map(|p| position_fen(p, CastlingNotation::Shredder)),
        Some("r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2".to_owned())
    );
}

#[test]
fn after_remove_the_engine_plays_on_only_on_its_own_turn() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    // Fairy-Stockfish XBoard seed 4242, command 84,321: after `remove` the GUI moved
    // the engine's side; a `go` then would make the engine play the GUI's side.
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: usermove e2e4",
            "engine: move e7e5",
            "gui: usermove g1f3",
            "engine: move b8c6",
            "gui: remove",
            "gui: undo",
            "gui: usermove g1f3",
        ],
    );
    assert_eq!(
        out[out.len() - 6..],
        [
            "engine< force [Injected]",
            "engine< undo [Rewritten]",
            "engine< undo [Rewritten]",
            "gui< Error (undo outside force mode, not sent to the engine: send force \
                 first): undo [Answered]",
            "engine< usermove g1f3",
            "engine< go [Injected]",
        ]
    );
    // After a `go` in a finished game (White mated: the engine plays White) `remove`
    // leaves the engine's side to move: the GUI plays White's move itself, and the
    // engine gets `go` only after the GUI's next (Black) move.
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: force",
            "gui: usermove f2f3",
            "gui: usermove e7e5",
            "gui: usermove g2g4",
            "gui: usermove d8h4",
            "gui: go",
            "engine: 0-1 {Black mates}",
            "gui: remove",
            "gui: usermove g2g4",
            "gui: usermove d8h4",
        ],
    );
    assert_eq!(
        out[out.len() - 3..],
        [
            "engine< usermove g2g4",
            "engine< usermove d8h4",
            "engine< go [Injected]",
        ]
    );
    let out = play(
        &mut session,
        &["gui: new", "gui: usermove e2e4", "engine: move e7e5"],
    );
    assert_eq!(out.last().unwrap(), "gui< move e7e5");
    // Seed 4242, command 95,151: a `setboard` after `remove` keeps the `go` pending
    // (the engine is still in the proxy's force mode).
    let out = play(
        &mut session,
        &[
            "gui: usermove g1f3",
            "engine: move g8f6",
            "gui: remove",
            "gui: setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "gui: usermove h2h3",
        ],
    );
    assert_eq!(
        out[out.len() - 2..],
        ["engine< usermove h2h3", "engine< go [Injected]"]
    );
}

#[test]
fn moves_reach_the_engine_in_coordinates_with_the_prefix_it_asked_for() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: force",
            "gui: usermove e4",
            "gui: Nf6",
            "gui: usermove g1f3",
        ],
    );
    assert_eq!(
        out,
        [
            "engine< new",
            "engine< force",
            "engine< usermove e2e4 [Rewritten]",
            // With the usermove prefix the engine asked for.
            "engine< usermove g8f6 [Rewritten]",
            "engine< usermove g1f3",
        ]
    );
}

#[test]
fn lines_too_long_for_any_command_are_refused() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let long = format!("gui: {}", "x".repeat(MAX_XBOARD_LINE + 1));
    let out = play(&mut session, &[&long, "gui: ping 7"]);
    assert_eq!(
        out,
        [
            format!(
                "gui< Error (line too long, not sent to the engine: {} bytes, at most \
                     {MAX_XBOARD_LINE}): {}... [Answered]",
                MAX_XBOARD_LINE + 1,
                "x".repeat(40)
            ),
            "engine< ping 7".to_owned(),
        ]
    );
}

#[test]
fn cores_is_not_passed_on() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(&mut session, &["gui: cores 1", "gui: cores 2", "gui: go"]);
    assert_eq!(
        out,
        [
            "gui< # sp960: cores is not passed on (Fairy-Stockfish 11.1 dies on the next go); \
                 the engine keeps its own thread count [Injected]",
            "Warn(\"proxy: cores is not passed on (Fairy-Stockfish 11.1 dies on the next go); \
                 the engine keeps its own thread count\")",
            "engine< go",
        ]
    );
}

#[test]
fn a_refused_setboard_drops_the_move_of_a_search_begun_before_it() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: new",
            "gui: go",
            "gui: setboard 8/8/8/8/8/8/8/8 w - - 0 1",
            "engine: move e2e4",
        ],
    );
    assert_eq!(out[0..2], ["engine< new", "engine< go"]);
    assert!(
        out[2].starts_with("gui< Error (illegal position"),
        "{out:?}"
    );
    assert_eq!(
        out[3],
        "Warn(\"proxy: the engine's 'move e2e4' came after a refused setboard; not passed on\")"
    );
    assert_eq!(out.len(), 4);
}

#[test]
fn setboard_reaches_the_engine_as_the_proxy_writes_the_fen() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: setboard 4k3/8/8/8/8/8/8/1b1p111B/4K3 w - - 0 1",
            "gui: setboard 4k3/8/8/8/8/8/1b1p111B/4K3 w - - 0 1",
            "gui: setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "gui: setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ],
    );
    assert!(
        out[0].starts_with("gui< Error (illegal position"),
        "{out:?}"
    );
    assert_eq!(
        out[1..],
        [
            // Sjaak II 1.4.1 reads `1b1p111B` as another board.
            "engine< setboard 4k3/8/8/8/8/8/1b1p3B/4K3 w - - 0 1 [Rewritten]",
            "engine< setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "engine< setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ]
    );
}

#[test]
fn time_controls_out_of_range_are_refused() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let out = play(
        &mut session,
        &[
            "gui: level 40 99999999999 0",
            "gui: st 99999999",
            "gui: time 9223372036854775807",
            "gui: sd 3000000000",
            "gui: level 40 35000 0",
            "gui: st 2000000",
            "gui: otim 214748364",
            "gui: sd 2147483647",
        ],
    );
    for (line, out) in out.iter().enumerate().take(4) {
        assert!(
            out.starts_with("gui< Error (") && out.contains("out of range, not sent"),
            "{line}: {out}"
        );
    }
    assert_eq!(
        out[4..],
        [
            "engine< level 40 35000 0",
            "engine< st 2000000",
            "engine< otim 214748364",
            "engine< sd 2147483647",
        ]
    );
}

#[test]
fn new_after_chess960_returns_the_engine_to_normal_chess() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    play(&mut session, &["gui: new", "gui: variant fischerandom"]);
    let out = play(
        &mut session,
        &["gui: new", "gui: force", "gui: usermove e2e4"],
    );
    assert_eq!(
        out,
        [
            "engine< new",
            "engine< variant normal [Injected]",
            "engine< force",
            "engine< usermove e2e4"
        ]
    );
}

#[test]
fn gui_options_choose_the_start_and_edit_serves_engines_without_setboard() {
    let mut session = XboardSession::new(config(None));
    let out = play(
        &mut session,
        &[
            "gui: xboard",
            "gui: protover 2",
            "engine: feature ping=1 variants=\"normal,fischerandom\" done=1",
            "gui: option SP960_Start=959",
            "gui: option SP960_BlackStart=0",
            "gui: new",
        ],
    );
    assert_eq!(
        out[2],
        "gui< feature option=\"SP960_Start -spin -1 -2 959\" [Injected]"
    );
    assert_eq!(
        out[5..],
        [
            "engine< new",
            "engine< variant fischerandom [Injected]",
            "engine< edit [Injected]",
            "engine< # [Injected]",
            "engine< Ra1 [Injected]",
            "engine< Kb1 [Injected]",
            "engine< Rc1 [Injected]",
            "engine< Nd1 [Injected]",
            "engine< Ne1 [Injected]",
            "engine< Qf1 [Injected]",
            "engine< Bg1 [Injected]",
            "engine< Bh1 [Injected]",
            "engine< Pa2 [Injected]",
            "engine< Pb2 [Injected]",
            "engine< Pc2 [Injected]",
            "engine< Pd2 [Injected]",
            "engine< Pe2 [Injected]",
            "engine< Pf2 [Injected]",
            "engine< Pg2 [Injected]",
            "engine< Ph2 [Injected]",
            "engine< c [Injected]",
            "engine< Pa7 [Injected]",
            "engine< Pb7 [Injected]",
            "engine< Pc7 [Injected]",
            "engine< Pd7 [Injected]",
            "engine< Pe7 [Injected]",
            "engine< Pf7 [Injected]",
            "engine< Pg7 [Injected]",
            "engine< Ph7 [Injected]",
            "engine< Ba8 [Injected]",
            "engine< Bb8 [Injected]",
            "engine< Qc8 [Injected]",
            "engine< Nd8 [Injected]",
            "engine< Ne8 [Injected]",
            "engine< Rf8 [Injected]",
            "engine< Kg8 [Injected]",
            "engine< Rh8 [Injected]",
            "engine< . [Injected]",
        ]
    );
    let out = play(&mut session, &["gui: option SP960_Start=960"]);
    assert_eq!(
        out,
        [
            "gui< Error (SP960_Start must be -2 'random', -1 'off' or 0..959, not '960'): option SP960_Start=960 [Answered]"
        ]
    );
}

#[test]
fn the_start_option_turns_off_and_random() {
    let mut session = XboardSession::new(XboardConfig {
        random_seed: 11,
        ..config(Some("860"))
    });
    play(&mut session, &SJAAK);
    let out = play(
        &mut session,
        &["gui: option SP960_Start=-1", "gui: new", "gui: e2e4"],
    );
    assert_eq!(out, ["engine< new", "engine< e2e4"], "off: normal chess");
    let out = play(&mut session, &["gui: option SP960_Start=-2"]);
    assert_eq!(
        out,
        ["Warn(\"proxy: random starts chosen by the GUI, seed 11 (repeat with --seed 11)\")"]
    );
    let out = play(&mut session, &["gui: new"]);
    assert_eq!(
        out[..2],
        ["engine< new", "engine< variant fischerandom [Injected]"]
    );
    assert!(out[2].starts_with("engine< setboard "), "{out:?}");
    assert!(
        !out[2].contains("RBKNRNBQ"),
        "a random start, not 860: {out:?}"
    );
    let out = play(&mut session, &["gui: option SP960_BlackStart=-2"]);
    assert_eq!(
        out,
        [
            "gui< Error (SP960_BlackStart must be -1 'as white' or 0..959, not '-2'): option SP960_BlackStart=-2 [Answered]"
        ]
    );
}

#[test]
fn engines_without_fischerandom_are_reported_or_refused() {
    let plain = [
        "gui: xboard",
        "engine: feature setboard=1 ping=1 variants=\"normal\" done=1",
    ];
    let mut session = XboardSession::new(config(Some("860")));
    let out = play(&mut session, &plain);
    assert!(out[1].starts_with("gui< telluser sp960: the engine does not list fischerandom"));
    assert!(out[2].starts_with("Warn("));
    let out = play(&mut session, &["gui: new"]);
    assert_eq!(
        out,
        [
            "engine< new",
            "engine< setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w - - 0 1 [Injected]"
        ]
    );
    // Without a start too: the GUI may ask for fischerandom itself.
    let mut session = XboardSession::new(config(None));
    let out = play(&mut session, &plain);
    assert!(out[1].starts_with("gui< telluser sp960: the engine does not list fischerandom"));
    let mut session = XboardSession::new(XboardConfig {
        require_chess960: true,
        ..config(Some("860"))
    });
    let out = play(&mut session, &plain);
    assert!(out.last().unwrap().starts_with("Fail { code: 3"), "{out:?}");
    assert!(!out.iter().any(|line| line.contains("done=1")));
}

#[test]
fn san_engines_get_san_castling_and_suffixes_survive() {
    let mut session = XboardSession::new(XboardConfig {
        engine_castling: Some(EngineCastling::KingTakesRook),
        ..config(Some("860"))
    });
    play(
        &mut session,
        &[
            "gui: xboard",
            "engine: feature san=1 setboard=1 ping=1 variants=\"normal,fischerandom\" done=1",
            "gui: accepted san",
            "gui: new",
            "gui: force",
        ],
    );
    // SAN both ways, tracked: `O-O` stays `O-O` for a san=1 engine although the
    // command line said king takes rook (that is for coordinate moves).
    let out = play(
        &mut session,
        &[
            "gui: Nde3",
            "gui: Nde6",
            "gui: Ng3",
            "gui: Ng6",
            "gui: f4",
            "gui: f5",
            "gui: Bf2",
            "gui: Bf7",
            "gui: O-O",
            "gui: go",
            "engine: move O-O+",
        ],
    );
    assert!(out.iter().all(|line| !line.contains('[')), "{out:?}");
    assert_eq!(out.last().unwrap(), "gui< move O-O+");
    assert_eq!(
        session
            .position()
            .map(|p| position_fen(p, CastlingNotation::Shredder)),
        Some("rb3rkq/pppppbpp/4n1n1/5p2/5P2/4N1N1/PPPPPBPP/RB3RKQ w - - 4 6".to_owned())
    );
}

#[test]
fn helpers_read_feature_lines_and_errors() {
    assert_eq!(
        feature_pairs(b"feature myname=\"Sjaak II 1.4.1\" ping=1 option=\"a -spin 1 0 9\" x=y"),
        [
            (&b"myname"[..], &b"Sjaak II 1.4.1"[..]),
            (b"ping", b"1"),
            (b"option", b"a -spin 1 0 9"),
            (b"x", b"y"),
        ]
    );
    assert_eq!(
        rejected_command(b"Error (unkown command): O-O-o"),
        Some(&b"O-O-o"[..])
    );
    assert_eq!(
        rejected_command(b"Error (Illegal move or unknown command): usermove O-O"),
        Some(&b"usermove O-O"[..])
    );
    assert_eq!(rejected_command(b"Illegal move: b1h1"), Some(&b"b1h1"[..]));
    assert_eq!(rejected_command(b"Errors are fine"), None);
}

#[test]
fn force_cancels_the_return_to_play_after_a_remove_and_go_resumes_it() {
    let mut session = XboardSession::new(config(None));
    play(&mut session, &FAIRY);
    let game = [
        "gui: new",
        "gui: usermove e2e4",
        "engine: move e7e5",
        "gui: usermove g1f3",
        "engine: move b8c6",
        "gui: remove",
    ];
    play(&mut session, &game);
    assert_eq!(session.game.mode, PlayMode::Resuming(Some(Color::Black)));
    // The GUI's force: the engine plays no side, no go after the GUI's move.
    let out = play(&mut session, &["gui: force", "gui: usermove g1f3"]);
    assert_eq!(out, ["engine< force", "engine< usermove g1f3"]);
    assert_eq!(session.game.mode, PlayMode::Force);
    // undo is allowed in force mode; go makes the engine play the side to move.
    let out = play(&mut session, &["gui: undo", "gui: go"]);
    assert_eq!(out, ["engine< undo", "engine< go"]);
    assert_eq!(session.game.mode, PlayMode::Playing(Some(Color::White)));
    // playother: the other side.
    play(&mut session, &["gui: force", "gui: playother"]);
    assert_eq!(session.game.mode, PlayMode::Playing(Some(Color::Black)));
}

#[test]
fn a_restart_after_a_remove_replays_the_game_and_goes_after_the_guis_move() {
    let mut session = XboardSession::new(XboardConfig {
        restart_engine: 1,
        ..config(None)
    });
    play(&mut session, &SJAAK);
    play(
        &mut session,
        &[
            "gui: accepted setboard",
            "gui: new",
            "gui: e2e4",
            "engine: move e7e5",
            "gui: g1f3",
            "engine: move b8c6",
            "gui: remove",
        ],
    );
    let mut actions = Vec::new();
    session.on_engine_eof();
    session.on_gui_line(b"g1f3", &mut actions);
    assert!(actions.is_empty(), "held while the engine restarts");
    session.on_engine_exit(killed(9, true), &mut actions);
    assert!(actions.contains(&Step::Event(ProxyEvent::Restart)));
    let out = play(
        &mut session,
        &[
            "engine: feature setboard=1 ping=1",
            "engine: feature done=1",
        ],
    );
    let sent: Vec<&String> = out.iter().filter(|l| l.starts_with("engine<")).collect();
    // The game as the proxy knows it (e4 e5: White, the GUI's side, to move), then the
    // held move, then go: the engine plays Black on.
    assert_eq!(
        sent[sent.len() - 6..],
        [
            "engine< force [Injected]",
            "engine< setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [Injected]",
            "engine< e2e4 [Injected]",
            "engine< e7e5 [Injected]",
            "engine< g1f3 [Held]",
            "engine< go [Injected]",
        ]
    );
    assert_eq!(session.game.mode, PlayMode::Playing(Some(Color::Black)));
}
