//! `sp960 check` against engines: a fake with each planted move-generation defect
//! (examples/broken_engine.rs) must be caught with the position and the move named, its
//! crash reported in the case and the engine restarted; Stockfish 15.1 and the built-in
//! engine pass.

use std::path::PathBuf;
use std::process::Output;
use std::time::Instant;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/peers.rs"]
mod peers;

use cli::{check_case_count as cases, sp960};
use peers::Peer;

fn broken_engine() -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let examples = deps.parent().unwrap().parent().unwrap().join("examples");
    let engine = examples.join(if cfg!(windows) {
        "broken_engine.exe"
    } else {
        "broken_engine"
    });
    assert!(
        engine.exists(),
        "{} missing: cargo test builds examples",
        engine.display()
    );
    engine
}

/// `sp960 check ENGINE ARGS... --json`: the output and the JSON report.
fn check(engine: &str, args: &[&str]) -> (Output, serde_json::Value) {
    let output = sp960()
        .arg("check")
        .arg(engine)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, json)
}

/// A small run of the fake: the castling cases and 20 random positions, perft named.
fn check_broken(defect: &str) -> (Output, serde_json::Value) {
    let engine = format!("{} {defect}", broken_engine().display());
    check(
        &engine,
        &[
            "--perft",
            "go-perft",
            "--no-starts",
            "--pairs",
            "5",
            "--random",
            "20",
            "--depth",
            "2",
        ],
    )
}

fn first_defect(json: &serde_json::Value) -> &str {
    json["first_defect"]
        .as_str()
        .unwrap_or_else(|| panic!("no defect in {json}"))
}

#[test]
fn the_fake_without_a_defect_is_ready() {
    let (output, json) = check_broken("none");
    assert_eq!(json["verdict"], "ready", "{json}");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json["engine"], "Broken 1");
    // Every group ran: protocol, movegen over every case and position, play.
    let rows = json["rows"].as_array().unwrap();
    for group in ["protocol", "movegen", "play"] {
        assert!(rows.iter().any(|r| r["group"] == group), "{group}: {json}");
    }
    assert!(rows.len() > 7 + 5 + 20, "{}", rows.len());
}

#[test]
fn a_missing_castling_is_named_with_its_position() {
    let (output, json) = check_broken("no-king-stays");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(json["verdict"], "not-ready");
    assert_no_king_stays_named(&json);
}

/// What the check says of an engine that lacks castling whose king does not move: sent
/// `position ... moves g1h1`, it drops the move (as Stockfish drops a move it does not
/// have), so its count after it is not the castled position's; then the perft group names
/// the missing move in its position.
fn assert_no_king_stays_named(json: &serde_json::Value) {
    assert!(
        first_defect(json).starts_with(
            "castling g1h1 accepted: after castling g1h1 in 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1 the engine counts "
        ),
        "{json}"
    );
    assert!(first_defect(json).ends_with("the move was not played as castling"));
    let movegen = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == "movegen" && r["case"] == "case king-stays")
        .unwrap();
    assert_eq!(
        movegen["why"],
        "engine misses legal g1h1 in 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
    );
}

#[test]
fn an_illegal_castling_through_an_attacked_square_is_named() {
    let (output, json) = check_broken("attacked-path");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        first_defect(&json),
        "case attacked-path: engine lists b1h1, which is illegal in 4r1k1/8/8/8/8/8/8/1K5R w H - 0 1"
    );
}

#[test]
fn a_castling_field_read_as_the_outermost_rook_is_named() {
    let (output, json) = check_broken("xfen-outermost");
    assert_eq!(output.status.code(), Some(3));
    // The castling sent as a move is not played as castling (the notation group comes
    // first), and the count names the move it misses.
    assert!(
        first_defect(&json).starts_with(
            "castling b1f1 accepted: after castling b1f1 in 1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1 the engine counts "
        ),
        "{json}"
    );
    let counted = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["case"] == "case inner-rook" && r["group"] == "movegen")
        .unwrap();
    assert_eq!(
        counted["why"],
        "engine misses legal b1f1 in 1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1"
    );
}

#[test]
fn a_crash_is_reported_in_its_case_and_the_engine_restarted() {
    let (output, json) = check_broken("crash-on-perft");
    assert_eq!(output.status.code(), Some(3));
    let rows = json["rows"].as_array().unwrap();
    let failed: Vec<&serde_json::Value> = rows.iter().filter(|r| r["status"] == "fail").collect();
    // The third perft crashes it; the restarted engine crashes on its own third perft.
    assert!(!failed.is_empty(), "{json}");
    let why = failed[0]["why"].as_str().unwrap();
    assert!(
        why.contains("the engine died unexpectedly from signal 6"),
        "{why}"
    );
    // After each restart the checks went on: later rows passed.
    let last_failed = rows.iter().rposition(|r| r["status"] == "fail").unwrap();
    assert!(rows[..last_failed].iter().any(|r| r["status"] == "pass"));
    assert!(
        rows.iter()
            .filter(|r| r["group"] == "play")
            .all(|r| r["status"] == "pass"),
        "{json}"
    );
}

#[test]
fn a_hang_is_reported_with_its_case_and_the_perft_group_stops_after_three() {
    let engine = format!("{} hang-on-deep-perft", broken_engine().display());
    let begin = Instant::now();
    let (output, json) = check(
        &engine,
        &[
            "--perft",
            "go-perft",
            "--no-starts",
            "--pairs",
            "0",
            "--random",
            "5",
            "--depth",
            "2",
            "--timeout",
            "1",
        ],
    );
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        first_defect(&json),
        "Shredder-FEN and X-FEN (SP 0): go perft 3 in \
         bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1: no answer within 1 s"
    );
    let rows = json["rows"].as_array().unwrap();
    // The castling cases are counted at depth 3: three hang, then the group stops.
    let hung: Vec<&str> = rows
        .iter()
        .filter(|r| r["group"] == "movegen" && r["status"] == "fail")
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(
        hung,
        [
            "case king-stays",
            "case rook-on-target",
            "case rook-shields-king",
            "perft"
        ]
    );
    // The restarted engine still plays.
    assert!(
        rows.iter()
            .filter(|r| r["group"] == "play")
            .all(|r| r["status"] == "pass"),
        "{json}"
    );
    assert!(begin.elapsed().as_secs() < 30, "{:?}", begin.elapsed());
}

#[test]
fn stockfish_is_ready_and_the_default_run_is_under_a_minute() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let begin = Instant::now();
    let (output, json) = check("/usr/games/stockfish", &[]);
    let took = begin.elapsed();
    assert_eq!(json["verdict"], "ready", "{json}");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json["perft"], "go-perft");
    let rows = json["rows"].as_array().unwrap();
    // The cases, the 960 starts, 100 pairs and 200 random positions were counted, at depth 4.
    let counted = rows.iter().filter(|r| r["group"] == "movegen").count();
    assert_eq!(counted, cases() + 960 + 100 + 200);
    // SP 518 is the standard start, whose perft(4) is the well-known 197,281.
    let sp518 = rows.iter().find(|r| r["case"] == "SP 518").unwrap();
    assert!(
        sp518["sent"]
            .as_str()
            .unwrap()
            .starts_with("go perft 4 in "),
        "{sp518}"
    );
    assert_eq!(sp518["got"], "197281", "{sp518}");
    eprintln!("sp960 check stockfish: {took:?}");
    assert!(took.as_secs() < 60, "{took:?}");
}

#[test]
fn the_builtin_engine_is_ready() {
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_sp960"));
    let (output, json) = check(
        &engine,
        &[
            "--no-starts",
            "--pairs",
            "5",
            "--random",
            "20",
            "--depth",
            "3",
        ],
    );
    assert_eq!(json["verdict"], "ready", "{json}");
    assert_eq!(output.status.code(), Some(0));
    // Its name is in no table: its `go perft` was found by the probe, and every position
    // was counted.
    assert_eq!(json["perft"], "go-perft");
    let rows = json["rows"].as_array().unwrap();
    let probe = rows.iter().find(|r| r["case"] == "perft command").unwrap();
    assert_eq!(
        (&probe["status"], &probe["got"]),
        (&"pass".into(), &"go perft 2: go-perft".into())
    );
    assert_eq!(
        rows.iter().filter(|r| r["group"] == "movegen").count(),
        cases() + 5 + 20
    );
}

/// The fake with `ARGS` (a defect, `--perft go|total|none`), checked as a new engine's
/// author would: no `--perft`, a name sp960 does not know.
fn check_unknown(args: &str) -> (Output, serde_json::Value) {
    let engine = format!("{} {args}", broken_engine().display());
    check(
        &engine,
        &[
            "--no-starts",
            "--pairs",
            "5",
            "--random",
            "20",
            "--depth",
            "2",
        ],
    )
}

fn row<'a>(json: &'a serde_json::Value, case: &str) -> &'a serde_json::Value {
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["case"] == case)
        .unwrap_or_else(|| panic!("no row {case}: {json}"))
}

#[test]
fn an_unknown_engine_is_probed_for_its_perft_and_its_defect_named() {
    // `go perft N` (Stockfish's form), found by the probe.
    let (output, json) = check_unknown("attacked-path --name Mystery-0.1");
    assert_eq!(json["engine"], "Mystery-0.1");
    assert_eq!(json["perft"], "go-perft", "{json}");
    assert_eq!(row(&json, "perft command")["status"], "pass");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        first_defect(&json),
        "case attacked-path: engine lists b1h1, which is illegal in 4r1k1/8/8/8/8/8/8/1K5R w H - 0 1"
    );
    let (output, json) = check_unknown("no-king-stays");
    assert_eq!(
        (output.status.code(), &json["perft"]),
        (Some(3), &"go-perft".into())
    );
    assert_no_king_stays_named(&json);
    // `perft N` answered by the total alone (Ethereal's form), found after `go perft 2`
    // was not answered as a perft.
    let (output, json) = check_unknown("attacked-path --perft total");
    assert_eq!(json["perft"], "total", "{json}");
    assert_eq!(row(&json, "perft command")["got"], "perft 2: total");
    assert_eq!(output.status.code(), Some(3));
    assert!(
        first_defect(&json).starts_with(
            "case attacked-path: engine counts 18 legal moves, shakmaty 17 (the engine gives totals only"
        ),
        "{json}"
    );
    // The same engines without the defect are ready, counted.
    let (output, json) = check_unknown("none --perft total");
    assert_eq!(
        (output.status.code(), &json["verdict"]),
        (Some(0), &"ready".into()),
        "{json}"
    );
}

#[test]
fn without_a_perft_command_an_illegal_castling_is_caught_in_play() {
    for (defect, trap, castling, fen) in [
        (
            "attacked-path",
            "mate-through-attacked-square",
            "g1a1",
            "8/8/8/7B/2p1p3/2pkp2b/8/R5K1 w A - 0 1",
        ),
        (
            "out-of-check",
            "mate-out-of-check",
            "b1h1",
            "1r3kr1/6p1/2N5/7B/8/8/8/1K5R w H - 0 1",
        ),
        (
            "rook-shields",
            "mate-rook-shields-king",
            "d1b1",
            "2rkr3/2p1p3/8/8/8/8/8/rR1K4 w B - 0 1",
        ),
        (
            "piece-between",
            "mate-over-a-piece",
            "g1a1",
            "8/8/8/7B/2p1p3/2pkp3/8/RN4K1 w A - 0 1",
        ),
    ] {
        let (output, json) = check_unknown(&format!("{defect} --perft none"));
        // The probe found no perft: said in its row, and nothing was counted.
        assert_eq!(json["perft"], "none", "{defect}: {json}");
        assert_eq!(row(&json, "perft command")["status"], "skip");
        assert_eq!(output.status.code(), Some(3), "{defect}: {json}");
        assert_eq!(json["verdict"], "not-ready");
        let expected = format!(
            "trap {trap}: the engine played {castling}, castling that is illegal in {fen}: "
        );
        assert!(
            first_defect(&json).starts_with(&expected),
            "{defect}: {json}"
        );
    }
}

#[test]
fn without_a_perft_command_a_missing_castling_is_caught_in_play() {
    let (output, json) = check_unknown("no-king-stays --perft none");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(json["perft"], "none");
    // Sent after `position ... moves g1h1`, which its move generation lacks, it answers
    // from the position before: a move that is illegal after the castling.
    assert!(
        first_defect(&json).starts_with(
            "case king-stays: after g1h1 in 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1: illegal move"
        ),
        "{json}"
    );
    // And it misses the only mate in one, castling with the king staying on c1.
    let trap = row(&json, "trap mate-king-stays");
    assert_eq!(trap["status"], "fail");
    assert!(
        trap["why"].as_str().unwrap().starts_with(
            "the only mate in one in 3kr1r1/2p1N3/p7/8/1B3p2/8/8/R1K5 w A - 0 1 is castling c1a1"
        ),
        "{trap}"
    );
}

#[test]
fn without_a_perft_command_a_sound_engine_is_ready_in_play_only() {
    let (output, json) = check_unknown("none --perft none");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json["verdict"], "ready-in-play", "{json}");
    assert_eq!(
        json["not_checked"],
        "move generation not checked: no perft command"
    );
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(
        rows.iter()
            .filter(|r| r["case"].as_str().unwrap().starts_with("trap ") && r["status"] == "pass")
            .count(),
        5,
        "{json}"
    );
    let table = sp960()
        .args([
            "check",
            &format!("{} none --perft none", broken_engine().display()),
        ])
        .args(["--no-starts", "--pairs", "1", "--random", "1"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table
            .trim_end()
            .ends_with("ready for Chess960 in play; move generation not checked: no perft command"),
        "{table}"
    );
}

/// A short run (the cases at depth 4, 10 pairs and 20 random positions at depth 3) of a
/// Debian engine.
fn check_short(engine: &str) -> (Output, serde_json::Value) {
    check(
        engine,
        &[
            "--no-starts",
            "--pairs",
            "10",
            "--random",
            "20",
            "--depth",
            "3",
        ],
    )
}

fn verdict(json: &serde_json::Value) -> (&str, &str) {
    (
        json["verdict"].as_str().unwrap(),
        json["perft"].as_str().unwrap(),
    )
}

#[test]
fn debian_uci_engines_with_perft_are_ready() {
    if !peers::need(&[Peer::Ethereal, Peer::FairyStockfish]) {
        return;
    }
    let (output, json) = check_short("/usr/games/ethereal-chess");
    assert_eq!(verdict(&json), ("ready", "total"), "{json}");
    assert_eq!(output.status.code(), Some(0));
    // Ethereal ignores searchmoves: said so, not counted as a failure.
    assert!(
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["case"] == "searchmoves" && r["status"] == "skip")
    );
    // Fairy-Stockfish lists fischerandom in its UCI_Variant combo, so cutechess-cli selects
    // Chess960 for it with `UCI_Variant chess960`, which leaves it in standard chess
    // (Fairy-Stockfish issue 318): the proxy's translation mends it.
    let (_, json) = check_short("/usr/games/fairy-stockfish");
    assert_eq!(
        verdict(&json),
        ("ready-through-proxy", "go-perft"),
        "{json}"
    );
    let variant = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["case"] == "UCI_Variant")
        .unwrap();
    assert_eq!(
        (&variant["status"], &variant["got"]),
        (&"fail".into(), &"14".into())
    );
    assert_eq!(
        json["translations"],
        serde_json::json!([
            "UCI_Variant chess960: the proxy turns it into UCI_Chess960 true, as cutechess means it"
        ])
    );
    // Stockfish lists no UCI_Variant: no such row.
    let (_, json) = check_short("/usr/games/stockfish");
    assert_eq!(verdict(&json), ("ready", "go-perft"), "{json}");
    assert!(
        !json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["case"] == "UCI_Variant")
    );
}

#[test]
fn debian_xboard_engines_with_perft_are_ready() {
    if !peers::need(&[Peer::SjaakII, Peer::FairyStockfish]) {
        return;
    }
    // Which notation each writes its own castling in (the only mate in one is O-O-O).
    let written = |json: &serde_json::Value| {
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["case"] == "writes castling")
            .map(|r| (r["status"].clone(), r["got"].clone()))
    };
    // Sjaak II 1.4.1 reads X-FEN `Q` as the outermost rook of any colour: with a black rook
    // on a1, White's castling rook b1 is lost (Stockfish issue 356's bug).
    let (output, json) = check_short("proto=xboard /usr/games/sjaakii");
    assert_eq!(verdict(&json), ("not-ready", "depths"), "{json}");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        first_defect(&json),
        "Shredder-FEN and X-FEN (wrong-colour-rook): the engine counts 8265 from \
         4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w B - 0 1 and 8246 from \
         4k3/pppppppp/8/8/8/8/PPPPPPPP/rR2K3 w Q - 0 1 at depth 3 (shakmaty 8265)"
    );
    assert_eq!(
        written(&json),
        Some(("pass".into(), "O-O-O (O-O notation)".into()))
    );
    let (_, json) = check_short("proto=xboard /usr/games/fairy-stockfish");
    assert_eq!(verdict(&json), ("ready", "divide"), "{json}");
    assert_eq!(
        written(&json),
        Some(("pass".into(), "b1a1 (king takes rook)".into()))
    );
}

#[test]
fn toga_and_glaurung_are_ready_through_the_proxy() {
    if !peers::need(&[Peer::Toga2, Peer::Glaurung]) {
        return;
    }
    let (output, json) = check_short("/usr/games/toga2");
    assert_eq!(verdict(&json), ("ready-through-proxy", "none"), "{json}");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        json["translations"][0]
            .as_str()
            .unwrap()
            .starts_with("UCI_Chess960 (sp960 proxy --offer-chess960)")
    );
    let failed: Vec<&serde_json::Value> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "fail")
        .collect();
    assert_eq!(failed.len(), 1, "{json}");
    assert_eq!(failed[0]["got"], "no option UCI_Chess960");
    // Through the proxy the option is declared as it should be, and every play case passes.
    let proxied = json["proxy_rows"].as_array().unwrap();
    assert!(proxied.iter().all(|r| r["status"] != "fail"), "{json}");
    assert_eq!(
        proxied[0]["got"],
        "option name UCI_Chess960 type check default false"
    );

    // No perft found by the probe: the verdict rests on play, and says so.
    assert_eq!(row(&json, "perft command")["status"], "skip");
    assert_eq!(
        json["not_checked"],
        "move generation not checked: no perft command"
    );
    let (_, json) = check_short("/usr/games/glaurung");
    assert_eq!(verdict(&json), ("ready-through-proxy", "none"), "{json}");
    assert_eq!(row(&json, "perft command")["status"], "skip");
    // Every illegal-castling trap was played, and passed (a legal move each time).
    for trap in [
        "mate-through-attacked-square",
        "mate-out-of-check",
        "mate-rook-shields-king",
        "mate-over-a-piece",
        "mate-king-stays",
    ] {
        assert_eq!(
            row(&json, &format!("trap {trap}"))["status"],
            "pass",
            "{trap}: {json}"
        );
    }
    assert!(
        json["translations"][0]
            .as_str()
            .unwrap()
            .starts_with("castling files")
    );
    // The case made for it: offered only e1h1 where the colours castle with different rooks
    // (`HAfb`), Glaurung answers `bestmove (none)`; through the proxy it castles.
    let case = |rows: &serde_json::Value| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["case"] == "searchmoves colours-differ")
            .cloned()
            .unwrap_or_else(|| panic!("no colours-differ row: {rows}"))
    };
    let direct = case(&json["rows"]);
    assert_eq!(
        (&direct["status"], &direct["got"]),
        (&"fail".into(), &"(none)".into())
    );
    let proxied = case(&json["proxy_rows"]);
    assert_eq!(
        (&proxied["status"], &proxied["got"]),
        (&"pass".into(), &"e1h1".into())
    );
}

#[test]
fn fairy_max_is_not_ready_without_setboard() {
    if !peers::need(&[Peer::Fairymax]) {
        return;
    }
    let (output, json) = check_short("proto=xboard /usr/games/fairymax");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        first_defect(&json),
        "setboard, fischerandom: no feature setboard=1: cannot set up a Chess960 start"
    );
    // Probed: `perft 2` is answered `Error (unknown command): perft`.
    assert_eq!(row(&json, "perft command")["status"], "skip");
}

/// Fairy-Stockfish's XBoard `perft` after moves sent in force mode, fresh and after an
/// earlier `perft`: why the XBoard rows check castling moves through play (docs/check.md).
#[test]
fn fairy_stockfish_xboard_miscounts_moves_after_an_earlier_perft() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    if !peers::need(&[Peer::FairyStockfish]) {
        return;
    }
    let counts = |earlier: bool| -> Vec<String> {
        let mut engine = Command::new("/usr/games/fairy-stockfish")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = engine.stdin.take().unwrap();
        let mut lines = BufReader::new(engine.stdout.take().unwrap()).lines();
        let mut send = |text: &str| writeln!(input, "{text}").unwrap();
        send("xboard");
        send("protover 2");
        send("accepted usermove");
        let mut perfts = Vec::new();
        if earlier {
            perfts.push("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1\nperft 1");
        }
        perfts.push(
            "setboard 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1\nusermove g1h1\nperft 2",
        );
        let mut totals = Vec::new();
        for perft in perfts {
            send("new\nvariant fischerandom\nforce");
            send(perft);
            let total = lines
                .by_ref()
                .map(Result::unwrap)
                .find(|line| line.starts_with("Nodes searched"))
                .unwrap();
            totals.push(total);
        }
        send("quit");
        let _ = engine.wait();
        totals
    };
    assert_eq!(counts(false), ["Nodes searched: 576"]);
    assert_eq!(counts(true), ["Nodes searched: 25", "Nodes searched: 528"]);
}

/// `--positions FILE`: the author's positions are counted as rows of their own, named by
/// file, line and `id`; a defect there is named like any other.
#[test]
fn own_positions_are_counted_and_a_defect_there_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.epd");
    // The king's path e1-g1 crosses f1, attacked by the rook on f8: castling is illegal.
    std::fs::write(
        &file,
        "# my positions\n4kr2/8/8/8/8/8/8/4K2R w H - ;id \"through-f1\" ;D1 12 ;D2 145\n\
         4k3/8/8/8/8/8/8/R3K2R w HA - 0 1\n",
    )
    .unwrap();
    let name = file.display().to_string();
    let engine = format!("{} attacked-path", broken_engine().display());
    let (output, json) = check(
        &engine,
        &[
            "--perft",
            "go-perft",
            "--no-starts",
            "--pairs",
            "0",
            "--random",
            "0",
            "--depth",
            "2",
            "--positions",
            &name,
        ],
    );
    assert_eq!(output.status.code(), Some(3));
    let rows = json["rows"].as_array().unwrap();
    let own = |label: String| {
        rows.iter()
            .find(|r| r["case"] == label.as_str())
            .unwrap_or_else(|| panic!("no row {label}: {json}"))
    };
    let through = own(format!("{name}:2 through-f1"));
    assert_eq!(through["status"], "fail");
    assert_eq!(
        through["why"],
        "engine lists e1h1, which is illegal in 4kr2/8/8/8/8/8/8/4K2R w H - 0 1"
    );
    assert_eq!(own(format!("{name}:3"))["status"], "pass");
}

/// A count in `--positions FILE` that is not shakmaty's is refused before any engine
/// starts, with its place and the right count.
#[test]
fn a_wrong_count_in_own_positions_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.epd");
    std::fs::write(&file, "4k3/8/8/8/8/8/8/R3K2R w HA - ;D1 26 ;D2 500\n").unwrap();
    let output = sp960()
        .args(["check", "no-such-engine", "--depth", "2", "--positions"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "sp960: check: --positions {}:1:41: EPD operation D2 is 500 here, the right count is 112",
            file.display()
        )
    );
}
