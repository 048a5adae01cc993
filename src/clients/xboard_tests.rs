use super::*;
use crate::clients::talk::{Clocks, Limits};
use crate::protocol::game::{GameLine, parse_fen};
use std::time::Duration;

/// The lines as text, as the transcripts show them.
fn text(lines: &[Vec<u8>]) -> Vec<String> {
    let text = |line: &Vec<u8>| String::from_utf8(line.clone()).expect("ASCII");
    lines.iter().map(text).collect()
}

/// The client's new game from `root` with `limits`.
fn new_game(
    client: &mut XboardClient,
    root: &Chess,
    limits: &Limits,
    out: &mut Lines,
) -> Option<ClientEvent> {
    client.new_game(NewGame { root, limits }, out)
}

const SJAAK_FEATURES: &str = "feature setboard=1 time=1 sigint=0 colors=0 highlight=1 ping=1 memory=1 analyze=1 pause=1 nps=1 sjef=1 myname=\"Sjaak II 1.4.1\" myversion=\"[1.4.1 (x86_64)]\" variants=\"fide_chess,chess960,fischerandom,normal\"";

fn sjaak() -> XboardClient {
    let mut out = Vec::new();
    let mut client = XboardClient::start(Vec::new(), &mut out);
    assert_eq!(text(&out), ["xboard", "protover 2"]);
    out.clear();
    assert_eq!(client.on_line(b"#[Chess] 0w>", &mut out), None);
    assert_eq!(client.on_line(SJAAK_FEATURES.as_bytes(), &mut out), None);
    assert!(text(&out).contains(&"accepted myname".to_owned()));
    assert_eq!(
        client.on_line(
            b"feature option=\"Send O-O/O-O-O for castling -check 1\"",
            &mut out
        ),
        None
    );
    assert_eq!(
        client.on_line(b"feature done=1", &mut out),
        Some(ClientEvent::Ready)
    );
    assert_eq!(client.name(), Some("Sjaak II 1.4.1"));
    client
}

#[test]
fn sjaak_game_from_sp_860_bare_moves_and_o_o() {
    let mut client = sjaak();
    let (root, _) = parse_fen("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
    let tc: crate::launch::time_control::TimeControl = "40/90+0.5".parse().unwrap();
    let limits = Limits {
        clock: Some(tc),
        ..Limits::default()
    };
    let mut out = Vec::new();
    assert_eq!(new_game(&mut client, &root, &limits, &mut out), None);
    assert_eq!(
        text(&out),
        [
            "new",
            "variant fischerandom",
            "force",
            "easy",
            "setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
            "post",
            "level 40 1:30 0.5",
            "ping 1"
        ]
    );
    assert_eq!(
        client.on_line(b"pong 1", &mut out),
        Some(ClientEvent::Ready)
    );
    // Sjaak plays black: white's first move, then go.
    let mut game = GameLine::new(root);
    for m in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7".split(' ') {
        game.push_text(m.as_bytes()).unwrap();
    }
    let clocks = Clocks {
        remaining: shakmaty::ByColor {
            white: Duration::from_millis(80_000),
            black: Duration::from_millis(85_500),
        },
        increment: Duration::from_millis(500),
        moves_to_go: Some(36),
    };
    let mut out = Vec::new();
    // White castles c1e1, sent king takes rook; the engine is black.
    game.push_text(b"c1e1").unwrap();
    let go = |client: &mut XboardClient, game: &GameLine, out: &mut Lines| {
        client.go(
            GoRequest {
                game,
                limits: &limits,
                clocks: Some(clocks),
            },
            out,
        )
    };
    go(&mut client, &game, &mut out);
    assert_eq!(text(&out)[..2], ["time 8550", "otim 8000"]);
    assert_eq!(text(&out).last().map(String::as_str), Some("go"));
    assert_eq!(text(&out)[out.len() - 2], "c1e1");
    // Thinking output (`post`): the last line is the search's depth and score.
    assert_eq!(
        client.on_line(b"  1     12      0        21  1. Nc6", &mut out),
        None
    );
    assert_eq!(
        client.on_line(b"  2    -40      3       160  1. O-O", &mut out),
        None
    );
    let search = client.last_search();
    assert_eq!(search.depth, Some(2));
    assert_eq!(
        search.score,
        Some(crate::protocol::uci::EngineScore::Centipawns(-40))
    );
    assert_eq!(search.time_ms, Some(30));
    let Some(ClientEvent::Move(m)) = client.on_line(b"move O-O", &mut out) else {
        panic!()
    };
    assert_eq!(client.last_search().depth, Some(2), "kept after the move");
    assert!(m.is_castle());
    game.push(m);
    // Next request: only white's new move, no second go.
    game.push_text(b"c2c3").unwrap();
    out.clear();
    go(&mut client, &game, &mut out);
    assert_eq!(text(&out), ["time 8550", "otim 8000", "c2c3"]);
    assert_eq!(client.last_search(), SearchInfo::default(), "a new search");
    // Sjaak's own result line is not a move.
    assert_eq!(client.on_line(b"1-0 {White mates}", &mut out), None);
    let Some(ClientEvent::Failed(reason)) =
        client.on_line(b"Error (Illegal move or unknown command): c2c3", &mut out)
    else {
        panic!()
    };
    assert!(reason.contains("refused the legal move 'c2c3'"), "{reason}");
}

#[test]
fn the_built_in_engines_features_with_done_0() {
    let mut out = Vec::new();
    let mut client = XboardClient::start(Vec::new(), &mut out);
    let mut events = Vec::new();
    for line in crate::engine::xboard::feature_lines() {
        events.extend(client.on_line(line.as_bytes(), &mut out));
    }
    assert_eq!(events, [ClientEvent::Ready]);
    assert_eq!(client.name(), Some(crate::engine::ENGINE_NAME));
    assert_eq!(client.chess960_support(), Ok(()));
    // Before done=1 a time-out would not have ended the handshake.
    let mut waiting = XboardClient::start(Vec::new(), &mut out);
    waiting.on_line(b"feature done=0", &mut out);
    assert!(matches!(
        waiting.on_timeout(&mut out),
        Some(ClientEvent::Failed(_))
    ));
}

#[test]
fn usermove_prefix_ping_less_engines_and_missing_features() {
    let mut out = Vec::new();
    let mut client = XboardClient::start(Vec::new(), &mut out);
    client.on_line(
        b"feature setboard=1 usermove=1 myname=Fairy-Stockfish variants=\"chess,fischerandom\"",
        &mut out,
    );
    assert_eq!(client.on_timeout(&mut out), Some(ClientEvent::Ready));
    let root = Chess::default();
    let limits = Limits {
        depth: Some(4),
        movetime: Some(Duration::from_millis(1500)),
        ..Limits::default()
    };
    out.clear();
    assert_eq!(
        new_game(&mut client, &root, &limits, &mut out),
        Some(ClientEvent::Ready)
    );
    assert_eq!(text(&out)[out.len() - 2..], ["sd 4", "st 1.5"]);
    let mut game = GameLine::new(root.clone());
    game.push_text(b"e2e4").unwrap();
    out.clear();
    client.go(
        GoRequest {
            game: &game,
            limits: &limits,
            clocks: None,
        },
        &mut out,
    );
    assert_eq!(text(&out), ["usermove e2e4", "go"]);
    let Some(ClientEvent::Failed(reason)) = client.on_line(b"move e7e3", &mut out) else {
        panic!()
    };
    assert!(reason.starts_with("illegal move 'e7e3'"), "{reason}");

    let mut client = XboardClient::start(Vec::new(), &mut out);
    client.on_line(b"feature setboard=1 variants=\"normal\" done=1", &mut out);
    let Some(ClientEvent::Failed(reason)) = new_game(&mut client, &root, &limits, &mut out) else {
        panic!()
    };
    assert!(reason.contains("fischerandom"), "{reason}");
}
