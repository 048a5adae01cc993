use super::*;

#[test]
fn go_reads_every_parameter_and_names_bad_ones() {
    let line = b"go wtime 1000 btime 900 winc 10 binc 20 movestogo 5 depth 7 nodes 99 mate 2 movetime 50 ponder searchmoves e1h1 c1a1 infinite";
    let go = Go::parse(line).unwrap();
    assert_eq!(
        go.time,
        ByColor {
            white: Some(1000),
            black: Some(900)
        }
    );
    assert_eq!(
        go.increment,
        ByColor {
            white: Some(10),
            black: Some(20)
        }
    );
    assert_eq!(
        (go.moves_to_go, go.depth, go.nodes, go.mate, go.movetime),
        (Some(5), Some(7), Some(99), Some(2), Some(50))
    );
    assert!(go.ponder && go.infinite);
    let moves: Vec<&[u8]> = go.searchmoves.iter().map(|r| &line[r.clone()]).collect();
    assert_eq!(moves, [&b"e1h1"[..], b"c1a1"]);
    assert_eq!(
        Go::parse(b"go depth").unwrap_err(),
        GoError::Number("go: 'depth' needs a number".into())
    );
    assert_eq!(
        Go::parse(b"go nodes x").unwrap_err().to_string(),
        "go: 'nodes' needs a number, not 'x'"
    );
    assert_eq!(
        Go::parse(b"go fast").unwrap_err(),
        GoError::Unknown("go: unknown parameter 'fast'".into())
    );
    assert_eq!(
        Go::parse(b"go searchmoves depth 2")
            .unwrap_err()
            .to_string(),
        "go: 'searchmoves' needs moves"
    );
    assert_eq!(
        Go::parse(b"go depth 3 wtime 0").unwrap().impossible_limit(),
        None
    );
    for (line, reason) in [
        (
            &b"go depth 0"[..],
            "go: 'depth 0' asks for no search at all",
        ),
        (b"go nodes -1", "go: 'nodes -1' asks for no search at all"),
        (
            b"go movetime 0",
            "go: 'movetime 0' asks for no search at all",
        ),
        (b"go mate 0", "go: 'mate 0' asks for no search at all"),
        (
            b"go wtime -1000 btime 10",
            "go: 'wtime -1000' is a negative time",
        ),
    ] {
        assert_eq!(
            Go::parse(line).unwrap().impossible_limit().as_deref(),
            Some(reason)
        );
    }
    let written = Go {
        time: ByColor {
            white: Some(1000),
            black: Some(900),
        },
        increment: ByColor {
            white: Some(10),
            black: Some(10),
        },
        depth: Some(3),
        ..Go::default()
    };
    assert_eq!(
        written.to_string(),
        "go wtime 1000 btime 900 winc 10 binc 10 depth 3"
    );
    assert_eq!(Go::parse(written.to_string().as_bytes()).unwrap(), written);
}

#[test]
fn options_and_setoptions() {
    let decl = OptionDecl::parse(b"option name UCI_Chess960 type check default False");
    assert!(decl.is("uci_chess960"));
    assert_eq!(decl.kind, b"check");
    assert_eq!(decl.default.as_deref(), Some(&b"False"[..]));
    let combo = OptionDecl::parse(
        b"option name UCI_Variant type combo default chess var chess var fischerandom",
    );
    assert_eq!(combo.vars, [b"chess".to_vec(), b"fischerandom".to_vec()]);
    let multi = OptionDecl::parse(b"option name Skill Level type spin default 20 min 0 max 20");
    assert_eq!(multi.name, b"Skill Level");
    assert_eq!(multi.range, (Some(0), Some(20)));
    assert_eq!(multi.check_value(b"7"), Ok(()));
    assert_eq!(
        multi.check_value(b"abc").unwrap_err().to_string(),
        "Skill Level takes a whole number, not 'abc'"
    );
    assert_eq!(
        multi.check_value(b"21").unwrap_err().to_string(),
        "Skill Level takes 0 to 20, not 21"
    );
    assert!(decl.check_value(b"TRUE").is_ok() && decl.check_value(b"yes").is_err());
    assert!(combo.check_value(b"Chess").is_ok());
    assert_eq!(
        combo.check_value(b"go").unwrap_err().to_string(),
        "UCI_Variant takes one of chess, fischerandom, not 'go'"
    );
    let set = SetOption::parse(b"setoption name Skill Level value 3 4").unwrap();
    assert!(set.is("skill level"));
    assert_eq!(set.value(), b"3 4");
    assert_eq!(SetOption::parse(b"setoption Hash 1"), None);
    assert_eq!(
        SetOption::parse(b"setoption name Clear Hash")
            .unwrap()
            .value,
        None
    );
    assert_eq!(
        setoption_line("UCI_Chess960", true),
        "setoption name UCI_Chess960 value true"
    );
    assert_eq!(
        check_option_line("UCI_Chess960", false),
        "option name UCI_Chess960 type check default false"
    );
    assert_eq!(
        spin_option_line("SP960_Start", -1, -2, 959),
        "option name SP960_Start type spin default -1 min -2 max 959"
    );
}

#[test]
fn position_commands() {
    let start = PositionCommand::parse(b"position startpos moves e2e4 e7e5").unwrap();
    assert_eq!(start.fen, None);
    assert_eq!(start.moves, [&b"e2e4"[..], b"e7e5"]);
    let fen = PositionCommand::parse(b"position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
    assert_eq!(fen.fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
    assert!(fen.moves.is_empty());
    assert_eq!(
        PositionCommand::parse(b"position banana")
            .unwrap_err()
            .to_string(),
        "expected 'startpos' or 'fen <FEN>', got 'banana'"
    );
    assert!(PositionCommand::parse(b"position fen").is_err());
    assert!(PositionCommand::parse(b"position").is_err());
}

#[test]
fn bestmove_and_null_moves() {
    let best = BestMove::parse(b"bestmove e1h1 ponder e8h8\r");
    assert_eq!((best.best, best.ponder), (&b"e1h1"[..], Some(&b"e8h8"[..])));
    assert!(!best.is_null());
    for null in [
        &b"bestmove (none)"[..],
        b"bestmove 0000",
        b"bestmove",
        b"bestmove a1a1",
    ] {
        assert!(BestMove::parse(null).is_null());
    }
    assert_eq!(
        bestmove_line("e2e4", Some("e7e5")),
        "bestmove e2e4 ponder e7e5"
    );
    assert_eq!(bestmove_line("(none)", None), "bestmove (none)");
}

#[test]
fn info_move_lists_stop_at_keywords_and_string() {
    let line = b"info depth 5 currmove e1h1 currmovenumber 1 pv c1g1 g6f4 score cp 3 currline 1 a2a3 b7b6 string pv e2e4";
    let lists = info_move_lists(line);
    let text = |list: &MoveList| -> Vec<String> {
        list.moves
            .iter()
            .map(|r| String::from_utf8_lossy(&line[r.clone()]).into_owned())
            .collect()
    };
    assert_eq!(lists.len(), 3);
    assert_eq!(
        (lists[0].field, text(&lists[0])),
        ("currmove", vec!["e1h1".to_owned()])
    );
    assert_eq!(text(&lists[1]), ["c1g1", "g6f4"]);
    assert_eq!(
        (lists[2].field, text(&lists[2])),
        ("currline", vec!["a2a3".to_owned(), "b7b6".to_owned()])
    );
    let info = Info {
        depth: 2,
        seldepth: 3,
        score: "cp 15".into(),
        nodes: 40,
        nps: 4000,
        time: 10,
        pv: vec!["e2e4".into(), "e7e5".into()],
    };
    assert_eq!(
        info.to_string(),
        "info depth 2 seldepth 3 score cp 15 nodes 40 nps 4000 time 10 pv e2e4 e7e5"
    );
}

#[test]
fn search_info_reads_depth_score_and_time() {
    let info = SearchInfo::parse(
        b"info depth 12 seldepth 15 multipv 1 score cp -35 nodes 800 nps 1 time 105 pv e2e4",
    )
    .unwrap();
    assert_eq!(info.depth, Some(12));
    assert_eq!(info.score, Some(EngineScore::Centipawns(-35)));
    assert_eq!(info.time_ms, Some(105));
    let mate = SearchInfo::parse(b"info depth 3 score mate -2 pv a1a2").unwrap();
    assert_eq!(mate.score, Some(EngineScore::Mate(-2)));
    assert_eq!(EngineScore::Mate(-2).cutechess_value(), -999_996);
    assert_eq!(EngineScore::Mate(3).cutechess_value(), 999_995);
    let bound = SearchInfo::parse(b"info depth 9 score cp 50 lowerbound time 3").unwrap();
    assert_eq!(
        (bound.score, bound.bound, bound.time_ms),
        (Some(EngineScore::Centipawns(50)), true, Some(3))
    );
    assert!(!info.bound);
    let text = SearchInfo::parse(b"info string score cp 99 depth 4").unwrap();
    assert_eq!(text, SearchInfo::default());
    assert_eq!(SearchInfo::parse(b"bestmove e2e4"), None);
    let bad = SearchInfo::parse(b"info depth x score cp").unwrap();
    assert_eq!((bad.depth, bad.score), (None, None));
}

#[test]
fn a_ponder_search_has_its_clocks_checked_as_any_go() {
    let refused = |line: &str| {
        Go::parse(line.as_bytes())
            .unwrap()
            .never_ending(Color::White)
    };
    assert!(
        refused("go wtime 0 binc 0 ponder")
            .unwrap()
            .contains("'wtime 0' leaves no time")
    );
    assert!(
        refused("go btime 1000 ponder")
            .unwrap()
            .contains("a clock without 'wtime'")
    );
    assert_eq!(refused("go ponder"), None);
    assert_eq!(refused("go ponder wtime 1000 btime 1000"), None);
    assert_eq!(refused("go infinite wtime 0"), None);
}
