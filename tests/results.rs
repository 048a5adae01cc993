//! `sp960 results`: per-start results from the fixed fixtures in `fixtures/results/`
//! (made by `make_starts.py`), every figure held against python-chess and scipy
//! (`tests/python/results_oracle.py`); the games it counts apart, named; CSV, `--by-engine`,
//! `--min-games`; the HTML page rendered by headless Chromium; and `sp960 book
//! --from-results`, whose book `validate` accepts and cutechess-cli plays.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/peers.rs"]
mod peers;
use peers::{Peer, sp960};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/results")
        .join(name)
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(sp960())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json_of(pgn: &Path, extra: &[&str], dir: &Path) -> serde_json::Value {
    let mut args = vec!["results", "--json"];
    args.extend_from_slice(extra);
    args.push(pgn.to_str().unwrap());
    let output = run(&args, dir);
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn figures_agree_with_scipy() {
    if !peers::need(&[Peer::PythonChess, Peer::Scipy]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["starts.pgn", "even.pgn"] {
        let report = json_of(&fixture(name), &[], dir.path());
        let json = dir.path().join("report.json");
        std::fs::write(&json, report.to_string()).unwrap();
        let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/results_oracle.py");
        let output = Command::new("python3")
            .arg(&oracle)
            .arg(fixture(name))
            .arg(&json)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{name}: {}{}",
            text(&output.stdout),
            text(&output.stderr)
        );
        assert!(text(&output.stdout).starts_with("agree: "), "{name}");
    }
}

#[test]
fn the_fixture_says_signal_and_names_the_starts() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(
        &["results", fixture("starts.pgn").to_str().unwrap()],
        dir.path(),
    );
    assert!(output.status.success());
    let out = text(&output.stdout);
    // The three starts the fixture draws far from the others' chances (make_starts.py).
    assert!(
        out.contains("Conclusion: with 16 games a start, 3 starts differ from the average beyond noise: SP 100, SP 17, SP 860."),
        "{out}"
    );
    assert!(out.contains("df = 48"), "{out}");
    let even = run(
        &["results", fixture("even.pgn").to_str().unwrap()],
        dir.path(),
    );
    assert!(
        text(&even.stdout).contains("no start differs from the average beyond noise (p = 0.41)"),
        "{}",
        text(&even.stdout)
    );
}

#[test]
fn games_not_counted_are_named_with_file_line_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixture("starts.pgn");
    let output = run(&["results", path.to_str().unwrap()], dir.path());
    let err = text(&output.stderr);
    let name = path.display().to_string();
    for (line, why) in [
        (4111, "skipped (standard chess)"),
        (4124, "skipped (not from a Chess960 start)"),
        (4128, "skipped (unfinished)"),
        (4146, "skipped (does not replay)"),
    ] {
        assert!(
            err.contains(&format!("{name}:{line}: {why}")),
            "{line}: {err}"
        );
    }
    assert!(text(&output.stdout).contains(
        "4 skipped: 1 standard chess, 1 not from a Chess960 start, 1 does not replay, 1 unfinished"
    ));
}

#[test]
fn csv_by_engine_and_min_games() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = fixture("starts.pgn");
    let output = run(
        &["results", "--csv", "--sort", "start", pgn.to_str().unwrap()],
        dir.path(),
    );
    let csv = text(&output.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 26, "a header and 25 starts");
    assert!(lines[0].starts_with("start,arrangement,games,wins,draws,losses,score,low,high"));
    assert!(lines[1].starts_with("0,BBQNNRKR,"), "{}", lines[1]);
    assert!(
        lines[25].starts_with("0:959,BBQNNRKR/RKRNNQBB,6,2,3,1,0.5833,"),
        "{}",
        lines[25]
    );
    // Fewer rows with --min-games, and the tests over them only.
    let report = json_of(&pgn, &["--min-games", "20"], dir.path());
    let rows = report["rows"].as_array().unwrap();
    assert!(rows.iter().all(|row| row["games"].as_u64().unwrap() >= 20));
    assert_eq!(report["tested"].as_u64().unwrap() as usize, rows.len());
    assert!(rows.len() < 25);
    // Each engine as White and as Black: Alpha's games from every start are all games
    // Alpha played, from Alpha's side.
    let report = json_of(&pgn, &["--by-engine"], dir.path());
    let engines = report["engines"].as_array().unwrap();
    let alpha = engines.iter().filter(|row| row["engine"] == "Alpha 1.0");
    let (mut games, mut as_black_wins) = (0, 0);
    for row in alpha {
        games += row["white"]["games"].as_u64().unwrap() + row["black"]["games"].as_u64().unwrap();
        as_black_wins += row["black"]["wins"].as_u64().unwrap();
    }
    assert_eq!(games, 411, "Alpha played every counted game");
    assert!(as_black_wins > 0);
    let table = text(
        &run(
            &["results", "--by-engine", pgn.to_str().unwrap()],
            dir.path(),
        )
        .stdout,
    );
    assert!(
        table.contains("As White: games W/D/L score [95%]"),
        "{table}"
    );
}

/// The games counted and skipped under `extra`, from the lichess-format fixture: (games,
/// skipped per reason as the JSON names it).
fn lichess_counts(extra: &[&str], dir: &Path) -> (u64, Vec<(String, u64)>) {
    let report = json_of(&fixture("lichess.pgn"), extra, dir);
    let skipped = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["reason"].as_str().unwrap().to_owned(),
                s["games"].as_u64().unwrap(),
            )
        })
        .collect();
    (report["games"].as_u64().unwrap(), skipped)
}

fn reasons(list: &[(&str, u64)]) -> Vec<(String, u64)> {
    list.iter().map(|&(r, n)| (r.to_owned(), n)).collect()
}

#[test]
fn lichess_tags_filter_the_games_and_name_each_left_out() {
    // fixtures/results/lichess.pgn: 11 games as lichess writes them (WhiteElo, BlackElo,
    // TimeControl, Event, [%clk] comments): 7 from SP 518, 100, 860, 4 double-FRC pairs.
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(lichess_counts(&[], dir.path()), (11, vec![]));
    assert_eq!(
        lichess_counts(&["--min-elo", "2000"], dir.path()),
        (8, reasons(&[("below-min-elo", 2), ("no-elo", 1)]))
    );
    assert_eq!(
        lichess_counts(&["--time-control", "blitz"], dir.path()),
        (5, reasons(&[("other-time-control", 6)]))
    );
    // Comma-separated or repeated: the same.
    for extra in [
        &["--time-control", "bullet,ultrabullet"][..],
        &["--time-control", "bullet", "--time-control", "ultrabullet"][..],
    ] {
        assert_eq!(
            lichess_counts(extra, dir.path()),
            (2, reasons(&[("other-time-control", 9)]))
        );
    }
    assert_eq!(
        lichess_counts(&["--time-control", "correspondence,classical"], dir.path()),
        (2, reasons(&[("other-time-control", 9)]))
    );
    assert_eq!(
        lichess_counts(&["--rated"], dir.path()),
        (9, reasons(&[("not-rated", 2)]))
    );
    // Together: each game skipped for the first filter it fails (Elo, time control, rated).
    assert_eq!(
        lichess_counts(
            &["--min-elo", "2000", "--time-control", "blitz", "--rated"],
            dir.path()
        ),
        (
            3,
            reasons(&[
                ("below-min-elo", 2),
                ("no-elo", 1),
                ("other-time-control", 5)
            ])
        )
    );
    // On stderr, FILE:LINE: why; the summary counts them by reason.
    let pgn = fixture("lichess.pgn");
    let output = run(
        &[
            "results",
            "--min-elo",
            "2000",
            "--time-control",
            "blitz",
            "--rated",
            pgn.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(output.status.success());
    let err = text(&output.stderr);
    let name = pgn.display().to_string();
    for (line, why) in [
        (
            23,
            "skipped (outside --time-control): game at line 23: TimeControl `60+0` is bullet, not blitz",
        ),
        (
            45,
            "skipped (below --min-elo): game at line 45: WhiteElo 1800, below --min-elo 2000",
        ),
        (
            87,
            "skipped (no Elo for --min-elo): game at line 87: BlackElo `?`: no Elo to hold against --min-elo 2000",
        ),
        (
            215,
            "skipped (outside --time-control): game at line 215: TimeControl `1800+0` is classical, not blitz",
        ),
    ] {
        assert!(
            err.contains(&format!("{name}:{line}: {why}")),
            "{line}: {err}"
        );
    }
    assert!(text(&output.stdout).starts_with(
        "3 games from 3 starts, 2 of them double-FRC pairs; 8 skipped: 2 below --min-elo, \
         1 no Elo for --min-elo, 5 outside --time-control\n"
    ));
    let output = run(&["results", "--rated", pgn.to_str().unwrap()], dir.path());
    assert!(text(&output.stderr).contains(&format!(
        "{name}:45: skipped (not rated): game at line 45: Event `Casual Chess960 game` does not say Rated"
    )));
    // Nothing left: exit 1, as with no Chess960 game.
    let output = run(
        &["results", "--min-elo", "3000", pgn.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn double_frc_games_by_one_sides_arrangement() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = fixture("lichess.pgn");
    // White's arrangements: SP 518 (2 games from 518, 1 from 518:860), SP 100 (2 from 100,
    // 2 from 100:860, 1 from 100:518), SP 860 (3 from 860).
    let report = json_of(
        &pgn,
        &["--by", "white-start", "--sort", "start"],
        dir.path(),
    );
    assert_eq!(report["by"], "white-start");
    assert_eq!(
        (report["games"].as_u64(), report["pairs"].as_u64()),
        (Some(11), Some(0))
    );
    let rows: Vec<(String, String, u64, u64, u64)> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["start"].as_str().unwrap().to_owned(),
                r["arrangement"].as_str().unwrap().to_owned(),
                r["wins"].as_u64().unwrap(),
                r["draws"].as_u64().unwrap(),
                r["losses"].as_u64().unwrap(),
            )
        })
        .collect();
    let row = |s: &str, a: &str, w, d, l| (s.to_owned(), a.to_owned(), w, d, l);
    assert_eq!(
        rows,
        vec![
            row("100", "QBBNRNKR", 2, 2, 1),
            row("518", "RNBQKBNR", 1, 1, 1),
            row("860", "RBKNRNBQ", 2, 0, 1),
        ]
    );
    // Black's arrangements, as CSV.
    let output = run(
        &[
            "results",
            "--by",
            "black-start",
            "--csv",
            "--sort",
            "start",
            pgn.to_str().unwrap(),
        ],
        dir.path(),
    );
    let csv = text(&output.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("black_start,arrangement,games,wins,draws,losses,"),
        "{csv}"
    );
    assert!(lines[1].starts_with("100,QBBNRNKR,2,1,1,0,"), "{csv}");
    assert!(lines[2].starts_with("518,RNBQKBNR,3,1,0,2,"), "{csv}");
    assert!(lines[3].starts_with("860,RBKNRNBQ,6,3,2,1,"), "{csv}");
    assert_eq!(lines.len(), 4);
    // The text table says what a row is; the picture and the page are of the 3 arrangements.
    let svg = dir.path().join("white.svg");
    let html = dir.path().join("white.html");
    let output = run(
        &[
            "results",
            "--by",
            "white-start",
            "--svg",
            svg.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let table = text(&output.stdout);
    assert!(
        table.starts_with(
            "11 games from 3 White starts (each game by White's arrangement, whatever Black's); none skipped\n"
        ),
        "{table}"
    );
    assert!(
        table.contains("\nWhite start  Arrangement  Games"),
        "{table}"
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.contains("<title>SP 100 QBBNRNKR: 5 games, +2 =2 -1,"),
        "{svg}"
    );
    assert_eq!(svg.matches(": no games</title>").count(), 957);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Results per White start"), "{page}");
    assert!(
        page.contains("<tr><th>White start</th><th>Arrangement</th>"),
        "{page}"
    );
    // A book cannot be made of one side's arrangements.
    let json = dir.path().join("white.json");
    std::fs::write(&json, report.to_string()).unwrap();
    let output = run(
        &[
            "book",
            "--from-results",
            json.to_str().unwrap(),
            "-o",
            "b.epd",
        ],
        dir.path(),
    );
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("made with `sp960 results --by white-start`"),
        "{}",
        text(&output.stderr)
    );
}

/// The pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), as RGB.
fn png_pixels(png: &[u8]) -> (usize, usize, Vec<[u8; 3]>) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut idat, mut header) = (8, Vec::new(), None);
    while at + 8 <= png.len() {
        let length = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png[at + 4..at + 8];
        let data = &png[at + 8..at + 8 + length];
        match kind {
            b"IHDR" => {
                header = Some((
                    u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize,
                    u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize,
                    data[8],
                    data[9],
                ))
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + length;
    }
    let (width, height, depth, colour) = header.unwrap();
    assert_eq!(depth, 8);
    let channels = match colour {
        2 => 3,
        6 => 4,
        other => panic!("PNG colour type {other}"),
    };
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).unwrap();
    let stride = width * channels;
    let mut previous = vec![0u8; stride];
    let mut pixels = Vec::with_capacity(width * height);
    for row in 0..height {
        let filter = raw[row * (stride + 1)];
        let mut line = raw[row * (stride + 1) + 1..(row + 1) * (stride + 1)].to_vec();
        for i in 0..stride {
            let left = if i >= channels { line[i - channels] } else { 0 };
            let up = previous[i];
            let up_left = if i >= channels {
                previous[i - channels]
            } else {
                0
            };
            line[i] = line[i].wrapping_add(match filter {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((left as u16 + up as u16) / 2) as u8,
                4 => {
                    let p = left as i16 + up as i16 - up_left as i16;
                    let (pa, pb, pc) = (
                        (p - left as i16).abs(),
                        (p - up as i16).abs(),
                        (p - up_left as i16).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        left
                    } else if pb <= pc {
                        up
                    } else {
                        up_left
                    }
                }
                other => panic!("PNG filter {other}"),
            });
        }
        pixels.extend(line.chunks(channels).map(|p| [p[0], p[1], p[2]]));
        previous = line;
    }
    (width, height, pixels)
}

/// Chromium's screenshot of `page` and its log (console messages included).
fn screenshot(page: &Path, png: &Path, profile: &Path) -> String {
    let output = Command::new("timeout")
        .args([
            "120",
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args([
            "--window-size=1000,1250",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "chromium: {}",
        text(&output.stderr)
    );
    text(&output.stderr)
}

#[test]
fn the_page_renders_in_headless_chromium() {
    if !peers::need(&[Peer::Chromium]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("starts.html");
    let svg = dir.path().join("starts.svg");
    let output = run(
        &[
            "results",
            "--html",
            page.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
            fixture("starts.pgn").to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(
        svg_text.matches("<title>").count(),
        960 + 21,
        "a title per start and per bar"
    );
    assert!(svg_text.contains("<title>SP 100 QBBNRNKR: 24 games, +21 =3 -0, White 0.938"));
    // The detector sees a console error when there is one.
    let bad = dir.path().join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><p>x</p><script>undefined_function();</script>",
    )
    .unwrap();
    let log = screenshot(
        &bad,
        &dir.path().join("bad.png"),
        &dir.path().join("profile-bad"),
    );
    assert!(
        log.contains("CONSOLE"),
        "no console line for a script error: {log}"
    );
    let png = dir.path().join("starts.png");
    let log = screenshot(&page, &png, &dir.path().join("profile"));
    assert!(!log.contains("CONSOLE"), "console output: {log}");
    let (width, height, pixels) = png_pixels(&std::fs::read(&png).unwrap());
    assert_eq!((width, height), (1000, 1250));
    let inked = pixels.iter().filter(|p| p.iter().any(|&c| c < 200)).count();
    let blue = pixels
        .iter()
        .filter(|p| p[2] as i32 > p[0] as i32 + 60)
        .count();
    let red = pixels
        .iter()
        .filter(|p| p[0] as i32 > p[2] as i32 + 60)
        .count();
    assert!(
        inked > pixels.len() / 50,
        "{inked} dark pixels of {}",
        pixels.len()
    );
    assert!(
        blue > 1000 && red > 100,
        "cells for White ({blue}) and for Black ({red})"
    );
}

#[test]
fn a_book_from_results_validates_and_cutechess_plays_it() {
    if !peers::need(&[Peer::CutechessCli, Peer::Stockfish]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = json_of(&fixture("starts.pgn"), &[], dir.path());
    std::fs::write(dir.path().join("results.json"), report.to_string()).unwrap();
    let output = run(
        &[
            "book",
            "--from-results",
            "results.json",
            "--score-window",
            "0.45,0.55",
            "--min-games",
            "8",
            "-o",
            "balanced-FRC.epd",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let book = std::fs::read_to_string(dir.path().join("balanced-FRC.epd")).unwrap();
    let expected: Vec<String> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| {
            let score = row["score"].as_f64().unwrap();
            row["games"].as_u64().unwrap() >= 8 && (0.45..=0.55).contains(&score)
        })
        .map(|row| format!("id \"SP {}\";", row["start"].as_str().unwrap()))
        .collect();
    assert!(!expected.is_empty());
    let ids: Vec<String> = book
        .lines()
        .map(|line| line[line.find("id ").unwrap()..].to_owned())
        .collect();
    assert_eq!(ids, expected);
    let validated = run(
        &["validate", "--start-positions", "balanced-FRC.epd"],
        dir.path(),
    );
    assert!(validated.status.success(), "{}", text(&validated.stderr));
    // cutechess-cli plays every start of the book once with each colour.
    let starts = expected.len();
    let output = Command::new("timeout")
        .current_dir(dir.path())
        .env("PATH", peers::search_path())
        .args([
            "300",
            "cutechess-cli",
            "-engine",
            "cmd=/usr/games/stockfish",
            "name=a",
            "-engine",
            "cmd=/usr/games/stockfish",
            "name=b",
        ])
        .args([
            "-each",
            "proto=uci",
            "tc=inf",
            "nodes=2000",
            "-variant",
            "fischerandom",
        ])
        .args([
            "-openings",
            "file=balanced-FRC.epd",
            "format=epd",
            "order=sequential",
        ])
        .args([
            "-games",
            "2",
            "-repeat",
            "-rounds",
            &starts.to_string(),
            "-pgnout",
            "played.pgn",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cutechess-cli: {}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    // Read back by `sp960 results`: the book's starts, two games each, none skipped.
    let played = json_of(
        &dir.path().join("played.pgn"),
        &["--sort", "start"],
        dir.path(),
    );
    assert_eq!(played["games"].as_u64().unwrap() as usize, 2 * starts);
    assert!(played["skipped"].as_array().unwrap().is_empty());
    let mut got: Vec<String> = played["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| format!("id \"SP {}\";", row["start"].as_str().unwrap()))
        .collect();
    let mut want = expected.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}
