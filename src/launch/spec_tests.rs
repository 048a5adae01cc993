use super::*;

fn parse(text: &str) -> EngineSpec {
    EngineSpec::parse(1, text).unwrap()
}

fn error(text: &str) -> String {
    EngineSpec::parse(2, text).unwrap_err().to_string()
}

#[test]
fn a_bare_command_and_cmd_are_the_same_engine() {
    let bare = parse("/usr/games/stockfish --threads=2 arg=-x");
    let keyed = parse("cmd=/usr/games/stockfish arg=--threads=2 arg=-x");
    assert_eq!(bare.cmd, keyed.cmd);
    assert_eq!(bare.args, ["--threads=2", "-x"]);
    assert_eq!(bare.args, keyed.args);
    assert_eq!(bare.program(), "stockfish");
}

#[test]
fn cutechess_keys_mean_what_they_mean_there() {
    // Double quotes group words in both splittings, POSIX and Windows.
    let spec = parse(
        "cmd=sjaakii dir=/tmp proto=xboard \"name=Sjaak II\" option.Hash=16 \
             \"initstr=memory 16\\nnew\" restart=on tc=40/60+0.6 st=0.5 depth=7 nodes=5000",
    );
    assert_eq!(spec.dir.as_deref(), Some("/tmp"));
    assert_eq!(spec.args, Vec::<String>::new());
    assert_eq!(spec.protocol, Some(Protocol::Xboard));
    assert_eq!(spec.name.as_deref(), Some("Sjaak II"));
    assert_eq!(spec.options, [("Hash".to_owned(), "16".to_owned())]);
    assert_eq!(spec.init_strings, ["memory 16", "new"]);
    assert_eq!(spec.restart, Some(Restart::On));
    assert_eq!(spec.limits.tc.as_ref().unwrap().to_string(), "40/60+0.6");
    assert_eq!(
        spec.limits.st,
        Some(("0.5".to_owned(), Duration::from_millis(500)))
    );
    assert_eq!(
        (spec.limits.depth, spec.limits.nodes),
        (Some(7), Some(5000))
    );
    assert!(spec.limits.has_time());
}

#[test]
fn unknown_keys_and_cutechess_switches_are_errors_never_arguments() {
    assert!(
        error("stockfish hash=16").starts_with("engine 2: unknown key 'hash' (keys: cmd, arg,"),
        "{}",
        error("stockfish hash=16")
    );
    assert!(error("stockfish hash=16").contains("write arg=hash=16"));
    assert!(error("stockfish ponder").contains("'ponder' is cutechess-cli's switch"));
    assert!(error("cmd=stockfish extra").contains("'extra' is not KEY=VALUE"));
    assert_eq!(error("name=x"), "engine 2: cmd=PROGRAM is missing");
    assert!(error("cmd= name=x").contains("cmd= is empty"));
    assert!(error("cmd=\"x").contains("unbalanced quotes"));
    assert!(error("x proto=cecp").contains("proto=cecp: expected uci or xboard"));
    assert!(error("x restart=yes").contains("restart=yes: expected auto, on or off"));
    assert!(error("x tc=1+").contains("tc=: time control '1+'"));
    assert!(error("x tc=1e300").contains("out of range"));
    assert!(error("x st=0").contains("st=0: expected a positive number"));
    assert!(error("x st=1e300").contains("st=1e300"));
    assert!(error("x depth=-1").contains("depth=-1: expected a positive whole number"));
    assert!(error("x nodes=0").contains("nodes=0"));
    assert!(error("x castling=kxr proto=uci").contains("a uci engine takes shredder or xfen"));
    assert!(error("x chess960=maybe").contains("chess960=maybe"));
    assert!(error("x proxy=sometimes").contains("proxy=sometimes"));
}

#[test]
fn castling_is_read_into_its_type_once_the_protocol_is_known() {
    assert_eq!(
        parse("x castling=xfen").castling,
        Some(EngineCastlingArg::Xfen)
    );
    assert_eq!(
        parse("x castling=kxr").castling,
        Some(EngineCastlingArg::Kxr)
    );
    // proto= after castling= still decides which values it takes.
    assert_eq!(
        parse("x castling=oo proto=xboard").castling,
        Some(EngineCastlingArg::Oo)
    );
    assert_eq!(
        error("x castling=xfen proto=xboard"),
        "engine 2: castling=xfen: a xboard engine takes oo or kxr"
    );
    assert_eq!(
        error("x castling=KQkq"),
        "engine 2: castling=KQkq: a uci engine takes shredder or xfen or oo or kxr"
    );
    assert_eq!(parse("x").castling, None);
}

#[test]
fn commands_refuse_the_keys_they_do_not_support() {
    let spec = parse("x tc=1+0.1 castling=xfen");
    assert_eq!(spec.refuse(&[(SpecKey::Initstr, "here")]), Ok(()));
    let err = spec
        .refuse(&[(
            SpecKey::Castling,
            "by sp960 match (it drives the engine itself)",
        )])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "engine 1: castling= is not supported by sp960 match (it drives the engine itself)"
    );
}

#[test]
fn windows_command_lines_keep_paths_and_group_with_double_quotes() {
    let split = |text: &str| split_windows(text).unwrap();
    assert_eq!(
        split(r"cmd=C:\Engines\sf.exe name=SF"),
        [r"cmd=C:\Engines\sf.exe", "name=SF"]
    );
    assert_eq!(
        split(r#""cmd=C:\Program Files\sf.exe" arg=-x"#),
        [r"cmd=C:\Program Files\sf.exe", "arg=-x"]
    );
    assert_eq!(
        split(r#"cmd="C:\Program Files\Stockfish 17\sf.exe"  "name=Stock fish""#),
        [
            r"cmd=C:\Program Files\Stockfish 17\sf.exe",
            "name=Stock fish"
        ]
    );
    // Backslashes before a quote: pairs halve, an odd one makes the quote literal.
    assert_eq!(
        split(r#"a\\"b c"  d\"e  f\\\"g"#),
        [r"a\b c", "d\"e", r#"f\"g"#]
    );
    assert_eq!(split(r"dir=\\server\share\ "), [r"dir=\\server\share\"]);
    assert_eq!(split("\"\""), [""]);
    assert_eq!(split("  "), Vec::<String>::new());
    assert_eq!(split_windows(r#"cmd="C:\x"#), None);
}

#[test]
fn every_key_is_spelled_once_and_read_back_as_itself() {
    let names: std::collections::BTreeSet<&str> = SpecKey::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names.len(), SpecKey::ALL.len(), "two keys share a spelling");
    for key in SpecKey::ALL {
        let word = match key {
            SpecKey::Option => "option.Hash=16".to_owned(),
            SpecKey::Proto => "proto=uci".to_owned(),
            SpecKey::Restart | SpecKey::Proxy => format!("{key}=auto"),
            SpecKey::Chess960 => "chess960=yes".to_owned(),
            SpecKey::Castling => "castling=xfen".to_owned(),
            SpecKey::Tc => "tc=10+0.1".to_owned(),
            SpecKey::St | SpecKey::Depth | SpecKey::Nodes => format!("{key}=5"),
            _ => format!("{key}=x"),
        };
        let spec = parse(&format!("cmd=engine {word}"));
        assert!(
            spec.refuse(&[(key, "here")]).is_err(),
            "{word}: read as another key"
        );
    }
}
