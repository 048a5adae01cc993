use super::*;
use crate::matches::config::resume::differences;

#[test]
fn engine_words_and_settings() {
    let engine = MatchEngine::parse(
        1,
        // Double quotes group words in both splittings, POSIX and Windows.
        r#"proto=xboard "/usr/games/sjaakii" -x "name=Sjaak II" option.Hash=16"#,
    )
    .unwrap();
    assert_eq!(engine.start.command.program, "/usr/games/sjaakii");
    assert_eq!(engine.start.command.args, ["-x"]);
    assert_eq!(engine.name.as_deref(), Some("Sjaak II"));
    assert_eq!(engine.start.protocol, Some(Protocol::Xboard));
    assert_eq!(engine.start.options, [("Hash".to_owned(), "16".to_owned())]);
    // Without proto= the protocol is detected; an argument with '=' is an argument.
    let engine = MatchEngine::parse(2, "stockfish --threads=2").unwrap();
    assert_eq!(engine.start.protocol, None);
    assert_eq!(engine.start.command.args, ["--threads=2"]);
    let err = MatchEngine::parse(2, "proto=cecp stockfish").unwrap_err();
    assert_eq!(
        err.to_string(),
        "engine 2: proto=cecp: expected uci or xboard"
    );
    let err = MatchEngine::parse(1, "name=x").unwrap_err();
    assert_eq!(err.to_string(), "engine 1: cmd=PROGRAM is missing");
    assert!(MatchEngine::parse(1, "\"unbalanced").is_err());
}

#[test]
fn cutechess_keys_are_settings_not_arguments() {
    let engine = MatchEngine::parse(
        1,
        "cmd=/usr/games/stockfish dir=/tmp st=0.25 depth=3 nodes=500 restart=on \
             initstr=debug",
    )
    .unwrap();
    assert_eq!(engine.start.command.program, "/usr/games/stockfish");
    assert_eq!(engine.start.command.args, Vec::<std::ffi::OsString>::new());
    assert_eq!(engine.start.command.dir, Some(PathBuf::from("/tmp")));
    assert_eq!(engine.limits.depth, Some(3));
    assert_eq!(engine.limits.nodes, Some(500));
    assert!(engine.restart_every_game);
    assert_eq!(engine.start.init_strings, ["debug"]);
    for (text, message) in [
        ("stockfish tc=1+0.1", "tc= is not supported by sp960 match"),
        ("stockfish ponder", "'ponder' is cutechess-cli's switch"),
        (
            "stockfish castling=xfen",
            "castling= is not supported by sp960 match",
        ),
        ("stockfish hash=1", "unknown key 'hash'"),
    ] {
        let err = MatchEngine::parse(1, text).unwrap_err().to_string();
        assert!(err.contains(message), "{text}: {err}");
    }
}

#[test]
fn sprt_words_are_read_by_clap_and_a_bad_one_is_a_usage_error() {
    let good = MatchRequest::for_tests_with(
        &["a", "b"],
        &["--sprt", "elo0=0", "elo1=10 alpha=0.05", "beta=0.1"],
    )
    .unwrap();
    // The words as given, for --resume.
    assert_eq!(good.sprt.text(), "elo0=0 elo1=10 alpha=0.05 beta=0.1");
    let sprt = good.resolve().unwrap().sprt.unwrap();
    assert_eq!((sprt.elo1(), sprt.beta()), (10.0, 0.1));
    assert!(
        MatchRequest::for_tests(&["a", "b"])
            .resolve()
            .unwrap()
            .sprt
            .is_none()
    );
    let err = MatchRequest::for_tests_with(
        &["a", "b"],
        &["--sprt", "elo0=0 elo1=x alpha=0.05 beta=0.05"],
    )
    .unwrap_err();
    assert_eq!(err.exit_code(), i32::from(crate::exit_code::USAGE));
    let message = err.to_string();
    assert!(
        message.starts_with("error: --sprt: elo1=x: not a finite number\n"),
        "{message}"
    );
    assert!(
        message.contains("Usage: sp960 match [OPTIONS]"),
        "{message}"
    );
}

#[test]
fn openings_resign_draw_and_the_clock_are_typed_by_clap() {
    let request = MatchRequest::for_tests_with(
        &["a", "b"],
        &[
            "--resign",
            "movecount=3 score=500",
            "--draw",
            "movenumber=40",
            "movecount=8",
            "score=10",
            "--tc",
            "40/1:00+0.6",
        ],
    )
    .unwrap();
    assert_eq!(request.resign.text(), "movecount=3 score=500");
    assert_eq!(request.draw.text(), "movenumber=40 movecount=8 score=10");
    let identity = request.identity();
    assert!(identity.contains(&("--tc".to_owned(), "40/1:00+0.6".to_owned())));
    let config = request.resolve().unwrap();
    assert_eq!(config.resign.unwrap().move_count, 3);
    assert_eq!(config.draw.unwrap().move_number, 40);
    assert_eq!(config.limits.clock.unwrap().moves(), Some(40));
    let book =
        MatchRequest::for_tests_with(&["a"], &["--openings", "file=b.pgn order=random"]).unwrap();
    assert_eq!(book.openings.text(), "file=b.pgn order=random");
    let spec = book.openings.value().unwrap();
    assert_eq!(spec.order, crate::books::openings::OpeningOrder::Random);
    for (args, message) in [
        (
            &["--tc", "fast"][..],
            "error: invalid value 'fast' for '--tc <TC>': time control 'fast'",
        ),
        (
            &["--resign", "movecount=0 score=5"][..],
            "error: --resign: movecount=0: not a positive",
        ),
        (
            &["--draw", "movenumber=4 score=5"][..],
            "error: --draw: movecount= is missing",
        ),
        (
            &["--openings", "file=book.pgn", "order=any"][..],
            "error: --openings order=any: expected sequential or random",
        ),
    ] {
        let err = MatchRequest::for_tests_with(&["a", "b"], args).unwrap_err();
        assert!(err.to_string().starts_with(message), "{args:?}: {err}");
    }
}

#[test]
fn more_engines_meet_round_robin_or_in_a_gauntlet() {
    let config = MatchRequest::for_tests(&["a", "b", "c", "d"])
        .resolve()
        .unwrap();
    assert_eq!(
        config.matchups,
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    );
    assert_eq!(config.engine_limits.len(), 4);
    let schedule = crate::matches::schedule(&config);
    assert_eq!(schedule.len(), 12);
    for (index, game) in schedule.iter().enumerate() {
        assert_eq!(game.number, index + 1);
        assert_eq!(game.pair, index / 2);
    }
    // A pair is one matchup with colours swapped.
    assert_eq!((schedule[2].white, schedule[2].black), (0, 2));
    assert_eq!((schedule[3].white, schedule[3].black), (2, 0));
    let mut gauntlet = MatchRequest::for_tests(&["a", "b", "c", "d"]);
    gauntlet.gauntlet = true;
    let config = gauntlet.resolve().unwrap();
    assert_eq!(config.matchups, [(0, 1), (0, 2), (0, 3)]);
    let two = MatchRequest::for_tests(&["a"]).resolve().unwrap();
    assert_eq!(two.matchups, [(0, 1)]);
    let many: Vec<String> = (0..65).map(|i| format!("e{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let err = MatchRequest::for_tests(&many).resolve().unwrap_err();
    assert_eq!(err.to_string(), "65 engines given: at most 64");
}

#[test]
fn an_engines_own_limits_replace_the_matchs() {
    let config = MatchRequest::for_tests(&["a depth=4 st=0.5", "b"])
        .resolve()
        .unwrap();
    assert_eq!(config.engine_limits[0].depth, Some(4));
    assert_eq!(config.engine_limits[0].nodes, Some(100));
    assert_eq!(
        config.engine_limits[0].movetime,
        Some(Duration::from_millis(500))
    );
    assert_eq!(config.engine_limits[1], config.limits);
    let mut bare = MatchRequest::for_tests(&["a nodes=7", "b"]);
    bare.nodes = None;
    let config = bare.resolve().unwrap();
    assert_eq!(config.engine_limits[0].nodes, Some(7));
    assert_eq!(config.engine_limits[0].movetime, None);
    assert_eq!(
        config.engine_limits[1].movetime,
        Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
    );
}

#[test]
fn differences_name_the_option_and_both_values() {
    let mut old = MatchRequest::for_tests(&["a", "b"]);
    old.depth = Some(4);
    let mut new = old.clone();
    new.depth = Some(5);
    new.engines[1] = "c".into();
    new.site = Some("Lab".into());
    new.concurrency = Some(8);
    let map = |request: &MatchRequest| request.identity().into_iter().collect();
    let found = differences(&map(&old), 7, &new.identity(), 7);
    assert_eq!(
        found,
        [
            "--engine #2 was 'b', now 'c'",
            "--depth was '4', now '5'",
            "--site was not given, now 'Lab'"
        ]
    );
    assert!(differences(&map(&old), 7, &old.identity(), 7).is_empty());
    let three = MatchRequest::for_tests(&["a", "b", "c"]);
    let found = differences(&map(&old), 1, &three.identity(), 2);
    assert!(found.contains(&"--engine #3 was not given, now 'c'".to_owned()));
    assert!(found.contains(&"--seed was 1, now 2".to_owned()));
}
