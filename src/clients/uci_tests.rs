use std::time::Duration;

use super::*;
use crate::clients::talk::{Clocks, Limits, Lines};
use crate::protocol::game::parse_fen;

/// The lines as text, as the transcripts show them.
fn text(lines: &[Vec<u8>]) -> Vec<String> {
    let text = |line: &Vec<u8>| String::from_utf8(line.clone()).expect("ASCII");
    lines.iter().map(text).collect()
}

fn handshake(client: &mut UciClient, engine: &[&str]) -> (Vec<String>, Vec<ClientEvent>) {
    let mut out = Vec::new();
    let events = engine
        .iter()
        .filter_map(|line| client.on_line(line.as_bytes(), &mut out))
        .collect();
    (text(&out), events)
}

#[test]
fn stockfish_handshake_turns_chess960_on_after_the_users_options() {
    let mut out = Vec::new();
    let mut client = UciClient::start(vec![("Hash".into(), "16".into())], &mut out);
    assert_eq!(text(&out), ["uci"]);
    let (out, events) = handshake(
        &mut client,
        &[
            "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)",
            "id name Stockfish 15.1",
            "id author the Stockfish developers (see AUTHORS file)",
            "",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok",
        ],
    );
    assert_eq!(
        out,
        [
            "setoption name Hash value 16",
            "setoption name UCI_Chess960 value true",
            "isready"
        ]
    );
    assert_eq!(events, [ClientEvent::Ready]);
    assert_eq!(client.name(), Some("Stockfish 15.1"));
}

#[test]
fn glaurung_gets_one_thread_and_castling_rights_one_set_of_files_can_hold() {
    let glaurung = [
        "id name Glaurung 2.2",
        "option name Threads type spin default 2 min 1 max 8",
        "option name UCI_Chess960 type check default false",
        "uciok",
        "readyok",
    ];
    // The user's own Threads (any case) is kept, and nothing is added.
    let mut client = UciClient::after_uci(vec![("threads".into(), "3".into())]);
    let (out, _) = handshake(&mut client, &glaurung);
    assert_eq!(out[0], "setoption name threads value 3");
    assert!(!out.iter().any(|line| line.contains("value 1")), "{out:?}");
    assert_eq!(client.threads_added(), None);
    let mut client = UciClient::after_uci(vec![("Hash".into(), "8".into())]);
    let (out, _) = handshake(&mut client, &glaurung);
    assert_eq!(
        out,
        [
            "setoption name Hash value 8",
            "setoption name Threads value 1",
            "setoption name UCI_Chess960 value true",
            "isready"
        ]
    );
    assert_eq!(client.threads_added(), Some(1));
    assert!(client.shares_castling_files());
    // DFRC 860:1: white king c1, rooks a1 e1; black king g8, rooks f8 h8. Glaurung
    // is given white's rights only (white to move); the game is the runner's.
    let (root, _) = parse_fen("bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAhf - 0 1").unwrap();
    let game = GameLine::new(root);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut out = Vec::new();
    let request = GoRequest {
        game: &game,
        limits: &limits,
        clocks: None,
    };
    client.go(request, &mut out);
    assert_eq!(
        text(&out)[0],
        "position fen bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EA - 0 1"
    );
    // Stockfish, not in the table, gets the rights as they are, and no Threads.
    let mut stockfish = UciClient::after_uci(Vec::new());
    let (out, _) = handshake(
        &mut stockfish,
        &[
            "id name Stockfish 15.1",
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok",
        ],
    );
    assert!(!out.iter().any(|line| line.contains("Threads")), "{out:?}");
    let mut out = Vec::new();
    stockfish.go(request, &mut out);
    assert_eq!(
        text(&out)[0],
        "position fen bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAhf - 0 1"
    );
}

#[test]
fn sp_860_castling_is_sent_and_read_king_takes_rook() {
    let mut client = UciClient::after_uci(Vec::new());
    handshake(
        &mut client,
        &[
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok",
        ],
    );
    let (root, _) = parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
    let mut game = GameLine::new(root);
    for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1".split(' ') {
        game.push_text(m.as_bytes()).unwrap();
    }
    let limits = Limits {
        depth: Some(3),
        clock: None,
        ..Limits::default()
    };
    let clocks = Clocks {
        remaining: shakmaty::ByColor {
            white: Duration::from_millis(900),
            black: Duration::from_millis(1500),
        },
        increment: Duration::from_millis(100),
        moves_to_go: Some(7),
    };
    let mut out = Vec::new();
    client.go(
        GoRequest {
            game: &game,
            limits: &limits,
            clocks: Some(clocks),
        },
        &mut out,
    );
    assert_eq!(
        text(&out),
        [
            "position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1 moves d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1",
            "go wtime 900 btime 1500 winc 100 binc 100 movestogo 7 depth 3"
        ]
    );
    // Black castles O-O: c8e8 (Ethereal's trailing space included).
    let event = client.on_line(b"bestmove c8e8 ", &mut out);
    let Some(ClientEvent::Move(m)) = event else {
        panic!("{event:?}")
    };
    assert!(m.is_castle());
}

#[test]
fn the_position_line_grows_with_the_game_and_starts_afresh_for_another() {
    let mut client = UciClient::after_uci(Vec::new());
    handshake(
        &mut client,
        &[
            "option name UCI_Chess960 type check default false",
            "uciok",
            "readyok",
        ],
    );
    let limits = Limits::default();
    let position_line = |client: &mut UciClient, game: &GameLine| {
        let mut out = Vec::new();
        let request = GoRequest {
            game,
            limits: &limits,
            clocks: None,
        };
        client.go(request, &mut out);
        text(&out).swap_remove(0)
    };
    let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
    let (root, _) = parse_fen(fen).unwrap();
    let mut game = GameLine::new(root.clone());
    assert_eq!(
        position_line(&mut client, &game),
        format!("position fen {fen}")
    );
    let mut expected = format!("position fen {fen} moves");
    for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c1e1".split(' ') {
        game.push_text(m.as_bytes()).unwrap();
        expected.push(' ');
        expected.push_str(m);
        assert_eq!(position_line(&mut client, &game), expected);
    }
    // The next game from the same start, another first move.
    client.new_game(&mut Vec::new());
    let mut next = GameLine::new(root);
    next.push_text(b"g2g3").unwrap();
    assert_eq!(
        position_line(&mut client, &next),
        format!("position fen {fen} moves g2g3")
    );
    // Another start: the same moves, another FEN; and the same position with other
    // move counters is another FEN.
    for start in [
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 4 9",
    ] {
        let mut game = GameLine::new(parse_fen(start).unwrap().0);
        game.push_text(b"g2g3").unwrap();
        assert_eq!(
            position_line(&mut client, &game),
            format!("position fen {start} moves g2g3")
        );
    }
}

/// The reading of each line in turn, as the client did before it kept the lines.
fn read_forward(lines: &[String]) -> (SearchInfo, SearchInfo) {
    let (mut search, mut latest) = (SearchInfo::default(), SearchInfo::default());
    for info in lines.iter().filter_map(|l| SearchInfo::parse(l.as_bytes())) {
        if info.score.is_some() && !info.bound {
            search.depth = info.depth;
            search.score = info.score;
        }
        search.time_ms = info.time_ms.or(search.time_ms);
        latest.depth = info.depth.or(latest.depth);
        if info.score.is_some() {
            latest.score = info.score;
            latest.bound = info.bound;
        }
    }
    (search, latest)
}

#[test]
fn kept_info_lines_read_back_to_front_say_what_reading_each_in_turn_says() {
    let parts = [
        "depth 4",
        "seldepth 6",
        "score cp 17",
        "score cp -40 upperbound",
        "score mate 3 lowerbound",
        "score mate -2",
        "time 12",
        "nodes 500",
        "pv e2e4 e7e5",
        "currmove e2e4 currmovenumber 1",
        "string depth 9 score cp 1 time 5",
    ];
    // A small deterministic generator: searches of 0 to 40 lines (and one of 6000
    // lines, past the 64 KiB at which kept lines are read and dropped).
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below) as usize
    };
    let mut client = UciClient::after_uci(Vec::new());
    handshake(&mut client, &["uciok", "readyok"]);
    let game = GameLine::new(Chess::default());
    let limits = Limits::default();
    for search in 0..300 {
        let count = if search == 0 { 6000 } else { next(41) };
        let lines: Vec<String> = (0..count)
            .map(|_| {
                let mut line = "info".to_owned();
                for _ in 0..next(4) {
                    line.push(' ');
                    line.push_str(parts[next(parts.len() as u64)]);
                }
                line
            })
            .collect();
        let mut out = Vec::new();
        let request = GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        };
        client.go(request, &mut out);
        for line in &lines {
            client.on_line(line.as_bytes(), &mut out);
        }
        let expected = read_forward(&lines);
        assert_eq!(client.last_search(), expected.0, "{lines:?}");
        assert_eq!(client.latest_eval(), expected.1, "{lines:?}");
        client.on_line(b"bestmove e2e4", &mut out);
        assert_eq!(client.last_search(), expected.0, "{lines:?}");
    }
}

/// A client past its handshake (no `UCI_Chess960`) and asked for a move from the
/// standard start: the client and what it sent.
fn asked_at_the_start() -> (UciClient, Lines) {
    let mut client = UciClient::after_uci(Vec::new());
    handshake(&mut client, &["uciok", "readyok"]);
    let mut out = Vec::new();
    go_at_the_start(&mut client, &mut out);
    (client, out)
}

fn go_at_the_start(client: &mut UciClient, out: &mut Lines) {
    let game = GameLine::new(Chess::default());
    let limits = Limits::default();
    let request = GoRequest {
        game: &game,
        limits: &limits,
        clocks: None,
    };
    client.go(request, out);
}

#[test]
fn illegal_and_missing_moves_fail_with_the_text() {
    let (mut client, mut out) = asked_at_the_start();
    // No UCI_Chess960: X-FEN castling field.
    assert_eq!(
        text(&out)[0],
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let Some(ClientEvent::Failed(reason)) = client.on_line(b"bestmove e2e5", &mut out) else {
        panic!()
    };
    assert!(reason.contains("illegal move 'e2e5'"), "{reason}");
    go_at_the_start(&mut client, &mut out);
    let Some(ClientEvent::Failed(reason)) = client.on_line(b"bestmove a1a1 ", &mut out) else {
        panic!()
    };
    assert!(
        reason.contains("no move ('a1a1') in a position with 20 legal moves"),
        "{reason}"
    );
    // A stray bestmove when nothing was asked is no event.
    assert_eq!(client.on_line(b"bestmove e2e4", &mut out), None);
}

#[test]
fn the_last_info_of_a_search_is_kept_until_the_next_go() {
    let (mut client, mut out) = asked_at_the_start();
    client.on_line(b"info depth 5 score cp 20 time 7 pv e2e4", &mut out);
    client.on_line(b"info depth 6 score cp 35 upperbound", &mut out);
    client.on_line(b"info depth 6 time 9 nodes 500", &mut out);
    client.on_line(b"bestmove e2e4", &mut out);
    let search = client.last_search();
    assert_eq!(search.depth, Some(5));
    assert_eq!(
        search.score,
        Some(crate::protocol::uci::EngineScore::Centipawns(20))
    );
    assert_eq!(search.time_ms, Some(9));
    let latest = client.latest_eval();
    assert_eq!(latest.depth, Some(6));
    assert_eq!(
        latest.score,
        Some(crate::protocol::uci::EngineScore::Centipawns(35))
    );
    go_at_the_start(&mut client, &mut out);
    assert_eq!(client.last_search(), SearchInfo::default());
    assert_eq!(client.latest_eval(), SearchInfo::default());
}
