use super::*;
use crate::tournaments::runners::xboard::xboard_minutes;

fn engine(items: &str) -> EngineSpec {
    EngineSpec::parse(1, items).unwrap()
}

fn tournament(tool: Tool, engines: &[&str], starts: &str) -> Tournament {
    Tournament {
        tool,
        engines: engines.iter().map(|items| engine(items)).collect(),
        starts: crate::starts::start::parse_spec(starts).unwrap(),
        time_control: Some("10+0.1".parse().unwrap()),
        book: "book-FRC.epd".into(),
        book_format: BookFormat::Epd,
        castling: CastlingNotation::Shredder,
        pgn_out: "games.pgn".into(),
        concurrency: None,
        sp960: "sp960".into(),
        other_roots: Vec::new(),
        match_options: MatchOptions::default(),
    }
}

#[test]
fn xboard_time_controls_are_whole_seconds() {
    let tc: TimeControl = "40/1:00+0.6".parse().unwrap();
    assert_eq!(xboard_minutes(&tc).unwrap(), "1:00");
    assert_eq!(xboard_minutes(&"125".parse().unwrap()).unwrap(), "2:05");
    assert_eq!(
        xboard_minutes(&"0.5+0.1".parse().unwrap())
            .unwrap_err()
            .to_string(),
        "time control '0.5+0.1': xboard takes whole seconds of base time"
    );
}

#[test]
fn fairy_stockfish_is_wrapped_where_it_needs_it() {
    let uci = ["cmd=/usr/games/stockfish", "cmd=/usr/games/fairy-stockfish"];
    let cutechess = plan(&tournament(Tool::Cutechess, &uci, "0")).unwrap();
    assert!(cutechess.line.argv.contains(&"cmd=sp960".to_owned()));
    assert!(
        cutechess
            .line
            .argv
            .contains(&"arg=/usr/games/fairy-stockfish".to_owned())
    );
    assert_eq!(cutechess.notes.len(), 1);
    // fastchess sets UCI_Chess960 itself: no wrapper.
    let fastchess = plan(&tournament(Tool::Fastchess, &uci, "0")).unwrap();
    assert!(
        !fastchess
            .line
            .argv
            .iter()
            .any(|word| word.contains("sp960"))
    );
    // xboard and cutechess-cli both send XBoard engines O-O: Fairy-Stockfish, which
    // wants king-takes-rook, is wrapped in both; an O-O engine is not.
    let xboard_engines = [
        "cmd=/usr/games/sjaakii proto=xboard",
        "cmd=/usr/games/fairy-stockfish proto=xboard",
    ];
    let wrapped =
        "sp960 proxy --protocol xboard --engine-castling kxr -- /usr/games/fairy-stockfish";
    let xboard = plan(&tournament(Tool::Xboard, &xboard_engines, "860")).unwrap();
    assert!(xboard.line.argv.contains(&wrapped.to_owned()));
    let cutechess = plan(&tournament(Tool::Cutechess, &xboard_engines, "0")).unwrap();
    assert!(
        cutechess
            .line
            .argv
            .contains(&"cmd=/usr/games/sjaakii".to_owned())
    );
    assert!(cutechess.line.argv.contains(&"arg=kxr".to_owned()));
    assert_eq!(cutechess.notes.len(), 1);
    assert!(cutechess.notes[0].contains("cutechess-cli sends castling as O-O/O-O-O"));
    let oo = ["cmd=a proto=xboard castling=oo", "cmd=b proto=xboard"];
    let cutechess = plan(&tournament(Tool::Cutechess, &oo, "0")).unwrap();
    assert!(
        !cutechess
            .line
            .argv
            .iter()
            .any(|word| word.contains("sp960"))
    );
    // Told not to wrap: done, with a note saying what to expect.
    let never = ["cmd=stockfish", "cmd=fairy-stockfish proxy=no"];
    let never = plan(&tournament(Tool::Cutechess, &never, "0")).unwrap();
    assert!(never.line.argv.contains(&"cmd=fairy-stockfish".to_owned()));
    assert!(never.notes[0].contains("NOT wrapped"));
}

#[test]
fn engines_without_uci_chess960_are_wrapped_with_the_option_offered() {
    let toga = ["cmd=stockfish", "cmd=/usr/games/toga2"];
    for tool in [Tool::Cutechess, Tool::Fastchess, Tool::Xboard] {
        let plan = plan(&tournament(tool, &toga, "0")).unwrap();
        let line = shell_line(&plan, Shell::Sh);
        assert!(line.contains("--offer-chess960"), "{line}");
        assert!(plan.notes[0].contains("never castles"), "{:?}", plan.notes);
    }
    let declared = ["cmd=stockfish", "cmd=/opt/old chess960=no"];
    let plan = plan(&tournament(Tool::Fastchess, &declared, "0")).unwrap();
    assert!(
        plan.line
            .argv
            .contains(&"args=proxy --offer-chess960 -- /opt/old".to_owned())
    );
}

#[test]
fn glaurung_gets_one_thread_and_the_shield_where_castling_files_differ() {
    let engines = ["cmd=/usr/games/stockfish", "cmd=/usr/games/glaurung"];
    for tool in [Tool::Cutechess, Tool::Fastchess, Tool::Xboard] {
        // SPs only: every start's castling files agree, so no wrapper; one thread.
        let symmetric = plan(&tournament(tool, &engines, "1,2,860")).unwrap();
        let line = shell_line(&symmetric, Shell::Sh);
        assert!(!line.contains("proxy"), "{line}");
        let threads = match tool {
            Tool::Xboard => "-sn glaurung -sUCI \\\n  -smpCores 1 -variant fischerandom",
            _ => "proto=uci option.Threads=1",
        };
        assert!(line.contains(threads), "{line}");
        // xboard would not send it: polyglot declares no Threads option.
        assert!(!line.contains("Options Threads"), "{line}");
        assert_eq!(symmetric.notes.len(), 1, "{:?}", symmetric.notes);
        let given = match tool {
            Tool::Xboard => "-smpCores 1 (polyglot passes it on as Threads 1)",
            _ => "option Threads=1",
        };
        assert!(
            symmetric.notes[0].starts_with(&format!("engine 'glaurung': given {given}")),
            "{:?}",
            symmetric.notes
        );
        // DFRC 860:1 (kings c1 and g8): wrapped, and the note names the start.
        let mixed = plan(&tournament(tool, &engines, "1,860,860:1")).unwrap();
        let line = shell_line(&mixed, Shell::Sh);
        let wrapped = match tool {
            Tool::Cutechess | Tool::CutechessGui => {
                "cmd=sp960 arg=proxy arg=-- arg=/usr/games/glaurung"
            }
            Tool::Fastchess => "cmd=sp960 'args=proxy -- /usr/games/glaurung'",
            Tool::Xboard => "-scp 'sp960 proxy -- /usr/games/glaurung' -sn glaurung -sUCI",
        };
        assert!(line.contains(wrapped), "{line}");
        assert!(line.contains(threads), "{line}");
        assert!(!line.contains("-- /usr/games/stockfish"), "{line}");
        assert!(!line.contains("arg=/usr/games/stockfish"), "{line}");
        assert_eq!(mixed.notes.len(), 2, "{:?}", mixed.notes);
        assert!(
            mixed.notes[1].starts_with("engine 'glaurung': wrapped in sp960 proxy because")
                && mixed.notes[1].contains("in DFRC 860:1 the colours' castling files differ"),
            "{:?}",
            mixed.notes
        );
    }
    // A DFRC pair whose files agree (kings and rooks on the same files) needs nothing.
    let same_files = plan(&tournament(Tool::Fastchess, &engines, "0:1")).unwrap();
    assert!(!shell_line(&same_files, Shell::Sh).contains("proxy"));
    // The user's own Threads (any case) is kept; proxy=no is obeyed and told.
    let own = [
        "cmd=/usr/games/stockfish",
        "cmd=/usr/games/glaurung option.threads=3 proxy=no",
    ];
    let own = plan(&tournament(Tool::Cutechess, &own, "0:959")).unwrap();
    let line = shell_line(&own, Shell::Sh);
    assert!(
        line.contains("cmd=/usr/games/glaurung proto=uci option.threads=3 "),
        "{line}"
    );
    assert!(!line.contains("Threads=1"), "{line}");
    assert_eq!(own.notes.len(), 1, "{:?}", own.notes);
    assert!(
        own.notes[0].contains("NOT wrapped (proxy=no)"),
        "{:?}",
        own.notes
    );
    // The roots of a match's own openings count as starts do.
    let mut openings = tournament(Tool::Fastchess, &engines, "518");
    assert!(!shell_line(&plan(&openings).unwrap(), Shell::Sh).contains("proxy"));
    openings.other_roots = vec![(
        "book.epd:2".to_owned(),
        "0:959".parse::<Start>().unwrap().position().unwrap(),
    )];
    let planned = plan(&openings).unwrap();
    assert!(shell_line(&planned, Shell::Sh).contains("args=proxy -- /usr/games/glaurung"));
    assert!(planned.notes[1].contains("in book.epd:2 the colours'"));
}

#[test]
fn engines_that_cannot_play_are_refused_with_the_reason() {
    let xboard_engine = ["cmd=stockfish", "cmd=sjaakii proto=xboard"];
    let err = plan(&tournament(Tool::Fastchess, &xboard_engine, "0")).unwrap_err();
    assert!(err.to_string().contains("fastchess speaks only UCI"));
    let three = ["cmd=a", "cmd=b", "cmd=c"];
    assert!(plan(&tournament(Tool::Xboard, &three, "0")).is_err());
    assert!(plan(&tournament(Tool::Cutechess, &three, "0")).is_ok());
    assert!(plan(&tournament(Tool::Cutechess, &["cmd=a"], "0")).is_err());
}

#[test]
fn runner_lines_recover_and_carry_each_engines_own_keys() {
    for tool in [Tool::Cutechess, Tool::Fastchess] {
        let plain = plan(&tournament(tool, &["a", "b"], "0")).unwrap();
        assert!(plain.line.argv.contains(&"-recover".to_owned()));
        assert!(plain.line.argv.contains(&"tc=10+0.1".to_owned()));
        assert!(plain.line.argv.contains(&"-each".to_owned()));
        // An engine's own time limit: every engine gets its limits on its own line.
        let own = plan(&tournament(
            tool,
            &["a nodes=500 st=0.2 restart=on dir=/tmp", "b depth=3"],
            "0",
        ))
        .unwrap();
        let line = shell_line(&own, Shell::Sh);
        assert!(!own.line.argv.contains(&"-each".to_owned()), "{line}");
        assert!(
            line.contains("cmd=a dir=/tmp proto=uci restart=on st=0.2 nodes=500"),
            "{line}"
        );
        assert!(line.contains("cmd=b proto=uci tc=10+0.1 depth=3"), "{line}");
    }
    // Double quotes group words in both splittings, POSIX and Windows.
    let init = [r#"a "initstr=setoption name Hash value 8""#, "b"];
    let cutechess = plan(&tournament(Tool::Cutechess, &init, "0")).unwrap();
    assert!(
        cutechess
            .line
            .argv
            .contains(&"initstr=setoption name Hash value 8".to_owned())
    );
    let spaced = [r#"a "arg=two words""#, "b"];
    let err = plan(&tournament(Tool::Fastchess, &spaced, "0")).unwrap_err();
    assert!(
        err.to_string().contains("fastchess splits args= at spaces"),
        "{err}"
    );
}

#[test]
fn xboard_uses_the_sp_number_or_a_position_file() {
    let engines = ["cmd=sjaakii proto=xboard", "cmd=sjaakii proto=xboard"];
    let one = plan(&tournament(Tool::Xboard, &engines, "860")).unwrap();
    let line = shell_line(&one, Shell::Sh);
    assert!(
        line.contains("-defaultFrcPosition 860 -matchGames 2"),
        "{line}"
    );
    assert!(line.contains("-fn sjaakii"), "{line}");
    assert!(line.contains("-sn sjaakii-2"), "{line}");
    assert_eq!(one.book, None);
    let many = plan(&tournament(Tool::Xboard, &engines, "0,0:959")).unwrap();
    let line = shell_line(&many, Shell::Sh);
    assert!(
        line.contains("-lpf book-FRC.epd -lpi -2 -matchGames 4"),
        "{line}"
    );
    assert_eq!(many.book.unwrap().lines().count(), 2);
}

#[test]
fn runners_get_epd_when_fen_is_asked_and_are_told() {
    let mut asked = tournament(Tool::Fastchess, &["cmd=a", "cmd=b"], "0,1");
    asked.book_format = BookFormat::Fen;
    let plan = plan(&asked).unwrap();
    assert!(plan.line.argv.contains(&"format=epd".to_owned()));
    assert!(plan.book.unwrap().contains("id \"SP 1\";"));
    assert!(plan.notes[0].contains("--book-format fen is for xboard"));
    assert_eq!(
        default_book_path(Tool::Cutechess, BookFormat::Fen),
        "sp960-FRC.epd"
    );
    assert_eq!(
        default_book_path(Tool::Xboard, BookFormat::Pgn),
        "sp960-FRC.fen"
    );
    assert_eq!(
        default_book_path(Tool::Fastchess, BookFormat::Pgn),
        "sp960-FRC.pgn"
    );
}

/// `sp960 match --runner`'s additions are part of the one command, rendered once: the
/// runner's path, no clock (`tc=inf`, on each engine's line when one has a time of its
/// own), `timemargin=` on a trailing `-each`, `-tournament`, the layout's rounds, the
/// adjudications and the SPRT, each where the runners' lines had them.
#[test]
fn a_handed_off_match_is_one_command_rendered_once() {
    use crate::matches::config::adjudication::{DrawRule, ResignRule};
    use crate::matches::tally::sprt::parse_sprt;
    use crate::tournaments::runners::{Adjudication, TournamentKind};

    let mut per_move = tournament(Tool::Fastchess, &["a st=0.1 depth=3", "b depth=3"], "0");
    per_move.time_control = None;
    per_move.match_options = MatchOptions {
        program: Some("/bin/fastchess".to_owned()),
        rounds: Some(1),
        move_margin: Some(Duration::from_secs(30)),
        ..MatchOptions::default()
    };
    assert_eq!(
        shell_line(&plan(&per_move).unwrap(), Shell::Sh),
        "/bin/fastchess \\
  -engine name=a cmd=a proto=uci st=0.1 depth=3 \\
  -engine name=b cmd=b proto=uci tc=inf depth=3 \\
  -variant fischerandom \\
  -openings file=book-FRC.epd format=epd order=sequential \\
  -games 2 -rounds 1 -repeat -recover \\
  -pgnout file=games.pgn \\
  -each timemargin=30000
"
    );
    let engines = ["a nodes=500", "b nodes=500", "c nodes=500"];
    let mut three = tournament(Tool::Cutechess, &engines, "0,1,2");
    three.time_control = None;
    three.match_options = MatchOptions {
        rounds: Some(9),
        kind: Some(TournamentKind::RoundRobin),
        adjudication: Adjudication {
            max_moves: Some(20),
            resign: Some(ResignRule {
                move_count: 3,
                score: 500,
                two_sided: true,
            }),
            draw: Some(DrawRule {
                move_number: 30,
                move_count: 4,
                score: 8,
            }),
        },
        ..MatchOptions::default()
    };
    let planned = plan(&three).unwrap();
    assert_eq!(
        shell_line(&planned, Shell::Sh),
        "cutechess-cli \\
  -engine name=a cmd=a proto=uci nodes=500 \\
  -engine name=b cmd=b proto=uci nodes=500 \\
  -engine name=c cmd=c proto=uci nodes=500 \\
  -each tc=inf \\
  -variant fischerandom \\
  -openings file=book-FRC.epd format=epd order=sequential \\
  -tournament round-robin -games 2 -rounds 9 -repeat -recover \\
  -pgnout games.pgn \\
  -maxmoves 20 -resign movecount=3 score=500 twosided=true -draw movenumber=30 movecount=4 score=8
"
    );
    // The book holds the starts; the rounds are the layout's.
    assert_eq!(planned.book.unwrap().lines().count(), 3);
    let mut gauntlet = tournament(Tool::Fastchess, &engines, "0");
    gauntlet.time_control = Some("1+0.1".parse().unwrap());
    gauntlet.match_options = MatchOptions {
        kind: Some(TournamentKind::Gauntlet),
        sprt: Some(parse_sprt(["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]).unwrap()),
        ..MatchOptions::default()
    };
    let line = shell_line(&plan(&gauntlet).unwrap(), Shell::Sh);
    assert!(line.contains("  -each tc=1+0.1 \\\n"), "{line}");
    assert!(
        line.contains("  -tournament gauntlet -games 2 -rounds 1 -repeat -recover \\\n"),
        "{line}"
    );
    assert!(
        line.ends_with(
            "  -pgnout file=games.pgn \\\n  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized\n"
        ),
        "{line}"
    );
    // Without a clock xboard has no -tc to give: refused, not guessed.
    let mut no_clock = tournament(Tool::Xboard, &["a", "b"], "0");
    no_clock.time_control = None;
    assert_eq!(
        plan(&no_clock).unwrap_err().to_string(),
        "xboard needs a time control"
    );
}
