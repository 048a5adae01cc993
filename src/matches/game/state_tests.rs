//! Transcripts of [`Game`]: both engines' lines in (`w: ...`, `b: ...`), the time advanced
//! (`+MS`), deadlines passed (`timeout`), what the shell saw (`w closed: HOW`,
//! `interrupt`); the lines out (`w< ...`, `b< ...`), the engines seated (`seat w`), the
//! deadlines and the verdict.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color};

use super::*;
use crate::clients::client::Client;
use crate::clients::talk::{ClientEvent, Limits};
use crate::protocol::Protocol;

/// The standard start (SP 518) as a UCI_Chess960 engine is given it.
const START: &str = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";

/// A UCI client after its handshake (with `UCI_Chess960`).
fn uci() -> Client {
    let (mut client, _) = Client::start(Some(Protocol::Uci), &[]);
    let mut out = Vec::new();
    client.on_line(b"id name Stockfish 15.1", &mut out);
    client.on_line(
        b"option name UCI_Chess960 type check default false",
        &mut out,
    );
    client.on_line(b"uciok", &mut out);
    assert_eq!(
        client.on_line(b"readyok", &mut out),
        Some(ClientEvent::Ready)
    );
    client
}

/// An XBoard client after its handshake (Sjaak II's features that matter).
fn xboard() -> Client {
    let (mut client, _) = Client::start(Some(Protocol::Xboard), &[]);
    let features = b"feature setboard=1 ping=1 myname=\"Sjaak II 1.4.1\" \
                     variants=\"fide_chess,chess960,fischerandom,normal\" done=1";
    assert_eq!(
        client.on_line(features, &mut Vec::new()),
        Some(ClientEvent::Ready)
    );
    client
}

fn movetime(millis: u64) -> Limits {
    Limits {
        movetime: Some(Duration::from_millis(millis)),
        ..Limits::default()
    }
}

fn setup(limits: Limits) -> GameSetup {
    GameSetup {
        root: Chess::default(),
        opening: Vec::new(),
        max_plies: None,
        resign: None,
        draw: None,
        clock: limits.clock.clone(),
        limits: ByColor {
            white: limits.clone(),
            black: limits,
        },
        move_timeout: Duration::from_secs(5),
    }
}

fn name(side: Color) -> &'static str {
    if side.is_white() { "w" } else { "b" }
}

/// A game and the shell's side of it: the clients it seats (`None`: the engine fails to
/// start) and the clock.
struct Table {
    game: Game,
    clients: ByColor<Option<Client>>,
    start: Instant,
    now: Instant,
}

impl Table {
    fn new(setup: GameSetup, white: Option<Client>, black: Option<Client>) -> Table {
        let start = Instant::now();
        Table {
            game: Game::new(setup, start),
            clients: ByColor { white, black },
            start,
            now: start,
        }
    }

    /// Feeds `script` and returns what the game asked the shell to do.
    fn run(&mut self, script: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        self.drain(&mut out);
        for item in script {
            if let Some(millis) = item.strip_prefix('+') {
                self.now += Duration::from_millis(millis.parse().unwrap());
                self.game.set_now(self.now);
            } else if *item == "timeout" {
                self.game.handle_timeout(self.now);
            } else if *item == "interrupt" {
                self.game.handle_interrupt();
            } else {
                let (who, text) = item.split_once(": ").expect("w: or b:");
                let side = match &who[..1] {
                    "w" => Color::White,
                    _ => Color::Black,
                };
                if who.ends_with(" closed") {
                    self.game.handle_closed(side, text);
                } else {
                    self.game.handle_line(side, text.as_bytes());
                }
            }
            self.drain(&mut out);
        }
        out
    }

    /// Carries out the game's steps as the shell does (seating from `clients`).
    fn drain(&mut self, out: &mut Vec<String>) {
        while let Some(step) = self.game.poll() {
            match step {
                GameStep::Send { to, lines } => {
                    for line in lines {
                        out.push(format!(
                            "{}< {}",
                            name(to),
                            String::from_utf8(line).unwrap()
                        ));
                    }
                }
                GameStep::Seat(side) => {
                    out.push(format!("seat {}", name(side)));
                    match self.clients[side].take() {
                        Some(client) => self.game.seat(side, client),
                        None => self.game.seat_failed(side, "'nope' not found".to_owned()),
                    }
                }
            }
        }
    }

    /// The next deadline, in milliseconds from the start.
    fn deadline(&self) -> Option<u128> {
        let deadline = self.game.poll_timeout()?;
        Some((deadline - self.start).as_millis())
    }

    /// The forfeit that ended the game: the loser, what it did, the detail.
    fn forfeit(&self) -> Option<(Color, Forfeit, &str)> {
        match self.game.ending()? {
            Ending::Forfeit {
                loser,
                kind,
                detail,
            } => Some((*loser, *kind, detail.as_str())),
            _ => None,
        }
    }

    fn finish(self) -> Played {
        let (played, clients) = self.game.finish();
        assert!(clients.iter().all(Option::is_some), "the clients come back");
        played.expect("over")
    }
}

/// Two UCI engines, seated and ready: the transcript up to white's first `go`.
fn ready_uci(setup: GameSetup) -> Table {
    let mut table = Table::new(setup, Some(uci()), Some(uci()));
    assert_eq!(
        table.run(&["w: readyok", "b: readyok"]),
        [
            "seat w",
            "w< ucinewgame",
            "w< isready",
            "seat b",
            "b< ucinewgame",
            "b< isready",
            &format!("w< {START}"),
            "w< go movetime 100",
        ]
    );
    table
}

#[test]
fn a_uci_game_to_mate_with_bestmove_lines_clocks_and_comments() {
    let mut table = Table::new(setup(movetime(100)), Some(uci()), Some(uci()));
    // White's setup: the game waits for its readyok, 15 s at most.
    assert_eq!(table.run(&[]), ["seat w", "w< ucinewgame", "w< isready"]);
    assert_eq!(table.game.awaiting(), Some(Color::White));
    assert_eq!(table.deadline(), Some(15_000));
    // White ready: black is seated, with its own 15 s.
    table.run(&["+5", "w: readyok"]);
    assert_eq!(table.game.awaiting(), Some(Color::Black));
    assert_eq!(table.deadline(), Some(15_005));
    assert_eq!(
        table.run(&["+5", "b: readyok"]),
        [&format!("w< {START}"), "w< go movetime 100"]
    );
    // movetime 100 and --move-timeout 5 s.
    assert_eq!(table.deadline(), Some(10 + 100 + 5000));
    assert_eq!(
        table.run(&[
            "w: info depth 5 score cp 20 time 3 pv f2f3",
            "+30",
            "w: bestmove f2f3 ponder e7e5",
        ]),
        [&format!("b< {START} moves f2f3"), "b< go movetime 100",]
    );
    assert_eq!(table.game.awaiting(), Some(Color::Black));
    assert_eq!(table.deadline(), Some(40 + 5100));
    table.run(&["+40", "b: info depth 7 score cp 150", "b: bestmove e7e5"]);
    table.run(&["+20", "w: bestmove g2g4"]);
    assert_eq!(table.game.ending(), None);
    assert_eq!(
        table.run(&["+10", "b: info depth 3 score mate 1", "b: bestmove d8h4"]),
        Vec::<String>::new(),
        "mate: nothing more is asked"
    );
    assert_eq!(table.game.ending(), Some(&Ending::Checkmate));
    assert_eq!(table.game.awaiting(), None);
    assert_eq!(table.game.poll_timeout(), None);
    let played = table.finish();
    assert_eq!(played.moves.len(), 4);
    assert_eq!(played.turn, Color::White);
    assert_eq!(played.ending.result(played.turn), "0-1");
    assert_eq!(
        played.comments,
        [
            "+0.20/5 0.030s",
            "+1.50/7 0.040s",
            "/0 0.020s",
            "+M1/3 0.010s"
        ]
    );
}

#[test]
fn an_illegal_bestmove_forfeits() {
    let mut table = ready_uci(setup(movetime(100)));
    assert_eq!(table.run(&["w: bestmove e2e5"]), Vec::<String>::new());
    let Some((Color::White, Forfeit::IllegalMove, detail)) = table.forfeit() else {
        panic!("{:?}", table.game.ending())
    };
    assert!(detail.starts_with("illegal move 'e2e5' in "), "{detail}");
    assert_eq!(table.game.ending().unwrap().culprit(), Some(Color::White));
}

#[test]
fn the_clock_falls_at_its_deadline_or_on_a_late_move() {
    let clock = Limits {
        clock: Some("1+0.5".parse().unwrap()),
        ..Limits::default()
    };
    let mut table = Table::new(setup(clock.clone()), Some(uci()), Some(uci()));
    let out = table.run(&["w: readyok", "b: readyok"]);
    assert_eq!(
        out.last().unwrap(),
        "w< go wtime 1000 btime 1000 winc 500 binc 500"
    );
    // 1 s on the clock and 100 ms of grace.
    assert_eq!(table.deadline(), Some(1100));
    // White moves in 400 ms: 1.1 s left (the increment), asked of black with both clocks.
    let out = table.run(&["+400", "w: bestmove e2e4"]);
    assert_eq!(out[1], "b< go wtime 1100 btime 1000 winc 500 binc 500");
    assert_eq!(table.deadline(), Some(400 + 1100));
    // Not yet due: nothing happens.
    table.run(&["+1099", "timeout"]);
    assert_eq!(table.game.ending(), None);
    table.run(&["+1", "timeout"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::Black, Forfeit::Time, "no move within 1.100 s"))
    );
    assert_eq!(table.game.ending().unwrap().termination(), "time forfeit");

    // A move inside the grace but past the clock loses on time too.
    let mut table = Table::new(setup(clock), Some(uci()), Some(uci()));
    table.run(&["w: readyok", "b: readyok", "+1050", "w: bestmove e2e4"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::White, Forfeit::Time, "1.050 s used, 1.000 s left"))
    );
}

#[test]
fn without_a_clock_a_silent_engine_times_out() {
    let mut table = ready_uci(setup(movetime(100)));
    table.run(&["+5100", "timeout"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::White, Forfeit::Timeout, "no move within 5.1 s"))
    );
    assert_eq!(
        table.game.ending().unwrap().termination(),
        "stalled connection"
    );
    // And a setup that never ends.
    let mut table = Table::new(setup(movetime(100)), Some(uci()), Some(uci()));
    table.run(&["w: readyok", "+15000", "timeout"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::Black, Forfeit::Timeout, "not ready for a new game"))
    );
}

#[test]
fn an_xboard_engine_plays_move_lines_claims_and_resigns() {
    let mut table = Table::new(setup(movetime(100)), Some(uci()), Some(xboard()));
    assert_eq!(
        table.run(&["w: readyok", "b: pong 1"]),
        [
            "seat w",
            "w< ucinewgame",
            "w< isready",
            "seat b",
            "b< new",
            "b< variant fischerandom",
            "b< force",
            "b< easy",
            "b< setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            "b< post",
            "b< st 0.1",
            "b< ping 1",
            &format!("w< {START}"),
            "w< go movetime 100",
        ]
    );
    assert_eq!(
        table.run(&["+10", "w: bestmove e2e4"]),
        ["b< e2e4", "b< go"]
    );
    // Thinking output, then a move in SAN.
    assert_eq!(
        table.run(&["+20", "b:  4     -25      2       900  1. e5", "b: move e5"]),
        [&format!("w< {START} moves e2e4 e7e5"), "w< go movetime 100"]
    );
    assert_eq!(table.run(&["w: bestmove g1f3"]), ["b< g1f3"]);
    // A claim is not a move: the game waits for one, with the same deadline.
    let deadline = table.deadline();
    table.run(&["+5", "b: 1-0 {White mates}"]);
    assert_eq!(table.game.ending(), None);
    assert_eq!(table.game.awaiting(), Some(Color::Black));
    assert_eq!(table.deadline(), deadline);
    table.run(&["b: resign"]);
    assert_eq!(table.forfeit(), Some((Color::Black, Forfeit::Resign, "")));
    // A resignation is no breakdown: the engine plays on in the next game.
    assert_eq!(table.game.ending().unwrap().culprit(), None);
    let played = table.finish();
    assert_eq!(played.comments[1], "-0.25/4 0.020s");
}

#[test]
fn scores_adjudicate_resignations_and_draws() {
    let mut rules = setup(movetime(100));
    rules.resign = Some(ResignRule {
        move_count: 2,
        score: 500,
        two_sided: false,
    });
    let mut table = ready_uci(rules);
    table.run(&[
        "w: info depth 9 score cp -600",
        "w: bestmove g1f3",
        "b: info depth 9 score cp 600",
        "b: bestmove g8f6",
        "w: info depth 9 score cp -700",
    ]);
    assert_eq!(table.game.ending(), None);
    assert_eq!(table.run(&["w: bestmove f3g1"]), Vec::<String>::new());
    let ending = table.game.ending().unwrap();
    assert_eq!(ending.winner(Color::Black), Some(Color::Black));
    assert_eq!(
        ending.comment(Color::Black),
        "Black wins by adjudication: White's score at or below -500 cp for 2 moves"
    );

    let mut rules = setup(movetime(100));
    rules.draw = Some(DrawRule {
        move_number: 1,
        move_count: 1,
        score: 10,
    });
    let mut table = ready_uci(rules);
    table.run(&["w: info depth 9 score cp 5", "w: bestmove g1f3"]);
    assert_eq!(table.game.ending(), None);
    table.run(&["b: info depth 9 score cp -10", "b: bestmove g8f6"]);
    let ending = table.game.ending().unwrap();
    assert_eq!(ending.result(Color::White), "1/2-1/2");
    assert_eq!(ending.termination(), "adjudication");
}

#[test]
fn a_crash_mid_game_forfeits_and_names_the_culprit() {
    let mut table = ready_uci(setup(movetime(100)));
    table.run(&["w: bestmove e2e4"]);
    assert_eq!(
        table.run(&["b closed: died unexpectedly from signal 11"]),
        Vec::<String>::new()
    );
    let ending = table.game.ending().unwrap();
    assert_eq!(
        ending.comment(Color::Black),
        "Black disconnects: the engine died unexpectedly from signal 11"
    );
    assert_eq!(ending.termination(), "abandoned");
    assert_eq!(ending.culprit(), Some(Color::Black));
    // What comes after the end changes nothing.
    table.run(&["w closed: exited", "interrupt", "+9999", "timeout"]);
    assert_eq!(table.game.ending().unwrap().culprit(), Some(Color::Black));
    assert_eq!(table.finish().moves.len(), 1);
}

#[test]
fn an_engine_that_does_not_start_forfeits_before_the_other_is_seated() {
    let mut table = Table::new(setup(movetime(100)), None, Some(uci()));
    assert_eq!(table.run(&[]), ["seat w"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::White, Forfeit::Start, "'nope' not found"))
    );
    let (played, clients) = table.game.finish();
    assert!(played.is_some());
    assert!(
        clients.iter().all(Option::is_none),
        "black was never seated"
    );
    // An XBoard engine without fischerandom fails its setup.
    let (mut client, _) = Client::start(Some(Protocol::Xboard), &[]);
    client.on_line(
        b"feature setboard=1 variants=\"normal\" done=1",
        &mut Vec::new(),
    );
    let mut table = Table::new(setup(movetime(100)), Some(uci()), Some(client));
    table.run(&["w: readyok"]);
    let Some((Color::Black, Forfeit::Start, detail)) = table.forfeit() else {
        panic!("{:?}", table.game.ending())
    };
    assert!(detail.contains("fischerandom"), "{detail}");
}

#[test]
fn ctrl_c_ends_the_game_as_the_awaited_sides_crash() {
    let mut table = ready_uci(setup(movetime(100)));
    table.run(&["w: bestmove e2e4", "interrupt"]);
    assert_eq!(
        table.forfeit(),
        Some((Color::Black, Forfeit::Crash, "interrupted"))
    );
}

#[test]
fn the_opening_is_played_for_the_engines_and_max_plies_ends_the_game() {
    let mut rules = setup(movetime(100));
    let e4 = crate::starts::castling::parse_move(&Chess::default(), b"e2e4").unwrap();
    rules.opening = vec![e4];
    rules.max_plies = Some(2);
    let mut table = Table::new(rules, Some(uci()), Some(uci()));
    let out = table.run(&["w: readyok", "b: readyok"]);
    assert_eq!(
        out[out.len() - 2..],
        [
            format!("b< {START} moves e2e4"),
            "b< go movetime 100".to_owned()
        ]
    );
    table.run(&["b: bestmove e7e5"]);
    assert_eq!(table.game.ending(), Some(&Ending::MaxPlies));
    assert_eq!(table.finish().comments[0], "book");
}
