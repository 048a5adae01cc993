use super::*;

const CUTECHESS: &str = r#"[Event "?"]
[Round "3"]
[White "a"]
[Black "b"]
[Result "0-1"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[PlyCount "4"]
[SetUp "1"]
[Termination "adjudication"]

1. c4 {+0.34/7 0.002s} b5 {-0.53/5 0.001s} 2. b3 {+0.54/7 0.002s}
bxc4 {-0.45/6 0.001s, Black wins by adjudication} 0-1

[Event "?"]
[Round "3"]
[White "b"]
[Black "a"]
[Result "1/2-1/2"]
[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]
[SetUp "1"]

1. c4 b5 (1... e5 2. d4) 2. b3 $1 {Draw by 3-fold repetition} 1/2-1/2
"#;

#[test]
fn a_runners_games_are_read_with_their_start_plies_and_reason() {
    let games = read_games(CUTECHESS).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        RunnerGame {
            round: 3,
            white: "a".into(),
            black: "b".into(),
            result: "0-1".into(),
            line: 1,
            fen: Some("qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1".into()),
            termination: "adjudication".into(),
            reason: "Black wins by adjudication".into(),
            plies: 4,
        }
    );
    assert_eq!(games[1].plies, 3, "variations and NAGs are not moves");
    assert_eq!(games[1].reason, "Draw by 3-fold repetition");
    assert_eq!(games[1].termination, "normal");
    assert_eq!(games[1].line, 14);
    // fastchess's Shredder castling is the same position.
    let shredder = CUTECHESS.replace("w KQkq", "w HEhe");
    let fen = read_games(&shredder).unwrap()[0].fen.clone().unwrap();
    assert_eq!(
        position_fields(&fen),
        position_fields(games[0].fen.as_ref().unwrap())
    );
}

#[test]
fn a_bad_game_names_its_line() {
    let err = read_games("[Event \"?\"]\n\n1. e4 *\n").unwrap_err();
    assert_eq!(err.to_string(), "line 1: the game has no Round tag");
    let err = read_games("[Event \"?\"]\n[Round x]\n").unwrap_err();
    assert_eq!(err.to_string(), "line 2: a malformed tag pair: [Round x]");
    let bad_fen = CUTECHESS.replace("qbbnrnkr/", "qbbnrnk/");
    assert!(
        read_games(&bad_fen)
            .unwrap_err()
            .to_string()
            .starts_with("line 1: FEN '")
    );
    assert_eq!(read_games("").unwrap(), Vec::new());
}

fn config(engines: usize, gauntlet: bool, starts: &str, rounds: u32) -> MatchConfig {
    let names: Vec<String> = (0..engines).map(|i| format!("e{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut request = MatchRequest::for_tests(&names);
    request.gauntlet = gauntlet;
    request.specs = vec![starts.into()];
    request.rounds = rounds;
    request.resolve().unwrap()
}

/// Every matchup meets every opening `--rounds` times in the runner's schedule, as in
/// the built-in runner's.
fn assert_complete(layout: &Layout, config: &MatchConfig) {
    let mut met = HashMap::<(usize, usize), u32>::new();
    for cycle in 0..layout.cycles {
        for matchup in 0..layout.matchups.len() {
            *met.entry((matchup, layout.opening(cycle, matchup)))
                .or_default() += 1;
        }
    }
    assert_eq!(met.len(), config.matchups.len() * config.openings.len());
    assert!(met.values().all(|&times| times == config.rounds), "{met:?}");
}

#[test]
fn the_book_reaches_every_matchup_with_every_opening() {
    for (engines, gauntlet, starts, rounds) in [
        (2, false, "100-102", 2),
        (3, false, "100-101", 1),
        (4, false, "100-104", 1),
        (4, false, "100-102", 6),
        (3, true, "100-102", 1),
        (4, true, "100-101", 3),
    ] {
        let config = config(engines, gauntlet, starts, rounds);
        for runner in [Runner::Cutechess, Runner::Fastchess] {
            let layout = Layout::new(&config, runner).unwrap();
            assert_complete(&layout, &config);
        }
    }
    // cutechess-cli counts Berger rounds: 4 engines, 3 a cycle; 5 engines (a bye), 5.
    let four = Layout::new(&config(4, false, "100", 1), Runner::Cutechess).unwrap();
    assert_eq!(four.rounds_per_cycle, 3);
    let five = Layout::new(&config(5, false, "100", 1), Runner::Cutechess).unwrap();
    assert_eq!(five.rounds_per_cycle, 5);
    // fastchess: 3 pairings of a round-robin and 3 openings cannot all meet in 3 rounds.
    let err = Layout::new(&config(3, false, "100-102", 1), Runner::Fastchess).unwrap_err();
    assert!(
        err.to_string()
            .contains("give --rounds a multiple of 3, or use --runner cutechess"),
        "{err}"
    );
    let three = config(3, false, "100-102", 3);
    assert_complete(&Layout::new(&three, Runner::Fastchess).unwrap(), &three);
}

#[test]
fn a_pgn_book_holds_each_openings_root_and_moves_for_cutechess() {
    let root: shakmaty::Chess = "100".parse::<Start>().unwrap().position().unwrap();
    let moves: Vec<_> = ["e2e4", "e7e5", "f1g3", "f8g6", "g1h1"]
        .iter()
        .scan(root.clone(), |position, uci| {
            use shakmaty::Position as _;
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(position)
                .unwrap();
            position.play_unchecked(m);
            Some(m)
        })
        .collect();
    let opening = Opening {
        label: "book.pgn:1".into(),
        root,
        moves,
    };
    let text = pgn_book(std::slice::from_ref(&opening), &[0, 0]);
    assert_eq!(text.matches("[Variant \"fischerandom\"]").count(), 2);
    assert!(text.contains(
        "[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1\"]\n\n\
         1. e4 e5 2. Ng3 Ng6 3. O-O *\n"
    ));
}

#[test]
fn the_engine_names_are_the_lines_name_words() {
    let argv: Vec<String> = [
        "fastchess",
        "-engine",
        "name=a b",
        "cmd=x",
        "-engine",
        "cmd=y",
        "name=c",
        "-each",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(engine_name(&argv, 0), "a b");
    assert_eq!(engine_name(&argv, 1), "c");
}
