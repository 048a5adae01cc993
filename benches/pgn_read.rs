//! Reading a large PGN: sp960's one reader (`records/pgn.rs`) beside the pgn-reader crate
//! (0.29.0, the reader it was measured against), in one run, and `sp960 book stats` on the
//! file as a user runs it (with `SP960_BEFORE=PATH`, another build of sp960 beside it, in
//! alternating runs).
//!
//! The corpus: GAMES games (default 20,000) from seeded random Chess960 starts, random
//! legal moves up to PLIES plies (default 80, stopping before a game would end), with the
//! tags `sp960 book` writes, move numbers, a comment every tenth ply and lines of at most 80
//! characters: the same file on every machine.
//!
//! Each reader is timed twice: reading only (the visitor counts moves), and reading as
//! `--openings` does (each game's FEN tag parsed, each SAN move found and played with
//! shakmaty). Both must agree on every count; the two builds on `book stats`'s output.
//!
//! Run: `cargo bench --bench pgn_read`. Environment: GAMES, PLIES, RUNS (timed runs of each
//! contender, default 5; medians are reported), SP960_BEFORE, KEEP_CORPUS (a path to keep
//! the corpus at).

use std::fmt::Write as _;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::process::Command;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};
use sp960::{CastlingNotation, RandomStarts, position_fen};

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn median(mut seconds: Vec<f64>) -> f64 {
    seconds.sort_by(f64::total_cmp);
    seconds[seconds.len() / 2]
}

/// The corpus: `games` games of at most `plies` random plies, and the plies written.
fn corpus(games: usize, plies: usize) -> (String, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    let mut starts = RandomStarts::new(960, false);
    let mut text = String::new();
    let mut written = 0;
    for round in 1..=games {
        let start = starts.next().expect("endless");
        let mut position: Chess = start.position().expect("a start");
        let fen = position_fen(&position, CastlingNotation::Shredder);
        let _ = write!(
            text,
            "[Event \"{}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{round}\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Variant \"fischerandom\"]\n\
             [SetUp \"1\"]\n[FEN \"{fen}\"]\n\n",
            start.label()
        );
        let mut line = String::new();
        for ply in 0..plies {
            let moves = position.legal_moves();
            let m = moves[rng.random_range(0..moves.len())];
            let mut after = position.clone();
            after.play_unchecked(m);
            if after.legal_moves().is_empty() || after.is_insufficient_material() {
                break;
            }
            let mut token = String::new();
            if ply % 2 == 0 {
                let _ = write!(token, "{}. ", ply / 2 + 1);
            }
            let san = SanPlus::from_move_and_play_unchecked(&mut position, m);
            let _ = write!(token, "{san}");
            if ply % 10 == 9 {
                let _ = write!(token, " {{+0.{ply}/12 0.5s}}");
            }
            if line.len() + token.len() >= 80 {
                text.push_str(line.trim_end());
                text.push('\n');
                line.clear();
            }
            line.push_str(&token);
            line.push(' ');
            written += 1;
        }
        line.push('*');
        text.push_str(&line);
        text.push_str("\n\n");
    }
    (text, written)
}

/// What a reading gives: games, moves, and the positions' squares occupied (summed, so
/// that playing the moves cannot be left out).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Count {
    games: usize,
    moves: usize,
    occupied: u64,
}

/// sp960's reader: counting only, or playing the moves.
struct Ours {
    play: bool,
    count: Count,
}

impl sp960::pgn::Visitor for Ours {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self, _: sp960::pgn::At) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        root: &mut Option<Chess>,
        name: &[u8],
        value: sp960::pgn::TagValue<'_>,
        _: sp960::pgn::At,
    ) -> ControlFlow<()> {
        if self.play && name == b"FEN" {
            *root = Some(position(value.0));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(
        &mut self,
        root: Option<Chess>,
        _: sp960::pgn::At,
    ) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(root)
    }

    fn san(
        &mut self,
        position: &mut Option<Chess>,
        san: SanPlus,
        _: &[u8],
        _: sp960::pgn::At,
    ) -> ControlFlow<()> {
        self.count.moves += 1;
        if let Some(position) = position {
            play(position, &san);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, position: Option<Chess>) {
        self.count.games += 1;
        self.count.occupied += position.map_or(0, |p| p.board().occupied().0.count_ones().into());
    }
}

/// The pgn-reader crate: the same work.
struct Theirs {
    play: bool,
    count: Count,
}

impl pgn_reader::Visitor for Theirs {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        root: &mut Option<Chess>,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<()> {
        if self.play && name == b"FEN" {
            *root = Some(position(value.as_bytes()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, root: Option<Chess>) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(root)
    }

    fn san(&mut self, position: &mut Option<Chess>, san: SanPlus) -> ControlFlow<()> {
        self.count.moves += 1;
        if let Some(position) = position {
            play(position, &san);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, position: Option<Chess>) {
        self.count.games += 1;
        self.count.occupied += position.map_or(0, |p| p.board().occupied().0.count_ones().into());
    }
}

fn position(fen: &[u8]) -> Chess {
    Fen::from_ascii(fen)
        .expect("a FEN")
        .into_position(CastlingMode::Chess960)
        .expect("a legal position")
}

fn play(position: &mut Chess, san: &SanPlus) {
    let m = san.san.to_move(position).expect("a legal move");
    position.play_unchecked(m);
}

fn ours(text: &[u8], play: bool) -> Count {
    let mut visitor = Ours {
        play,
        count: Count::default(),
    };
    let mut reader = sp960::pgn::Reader::new(text);
    while reader.read_game(&mut visitor).is_some() {}
    visitor.count
}

fn theirs(text: &[u8], play: bool) -> Count {
    let mut visitor = Theirs {
        play,
        count: Count::default(),
    };
    let mut reader = pgn_reader::Reader::new(text);
    reader.visit_all_games(&mut visitor).expect("in memory");
    visitor.count
}

/// `sp960 book stats FILE` with `program`: seconds and its output.
fn book_stats(program: &str, file: &std::path::Path) -> (f64, Vec<u8>) {
    let started = Instant::now();
    let output = Command::new(program)
        .args(["book", "stats"])
        .arg(file)
        .output()
        .expect("sp960 runs");
    let seconds = started.elapsed().as_secs_f64();
    assert!(output.status.success(), "{program}: {output:?}");
    (seconds, output.stdout)
}

fn main() {
    let games = env_number("GAMES", 20_000);
    let plies = env_number("PLIES", 80);
    let runs = env_number("RUNS", 5).max(1);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let (text, written) = corpus(games, plies);
    println!(
        "corpus: {games} games, {written} plies, {:.1} MB; load average {}",
        text.len() as f64 / 1e6,
        load.split_whitespace().next().unwrap_or("?")
    );
    let bytes = text.as_bytes();

    type Reading = fn(&[u8], bool) -> Count;
    let contenders: [(&str, Reading, bool); 4] = [
        ("sp960 records::pgn, reading", ours, false),
        ("pgn-reader 0.29.0, reading", theirs, false),
        ("sp960 records::pgn, playing the moves", ours, true),
        ("pgn-reader 0.29.0, playing the moves", theirs, true),
    ];
    let mut seconds = vec![Vec::new(); contenders.len()];
    let mut counts = vec![Count::default(); contenders.len()];
    for _ in 0..runs {
        for (index, (_, read, play)) in contenders.iter().enumerate() {
            let started = Instant::now();
            counts[index] = black_box(read(black_box(bytes), *play));
            seconds[index].push(started.elapsed().as_secs_f64());
        }
    }
    for count in &counts {
        assert_eq!((count.games, count.moves), (games, written), "{counts:?}");
    }
    assert_eq!(counts[2], counts[3], "both readers play the same positions");
    for ((name, ..), seconds) in contenders.iter().zip(&seconds) {
        let median = median(seconds.clone());
        println!(
            "{name:<42} {median:>7.3} s  {:>6.1} MB/s  {:>5.2} M plies/s",
            text.len() as f64 / 1e6 / median,
            written as f64 / 1e6 / median
        );
    }
    let ratio = |a: usize, b: usize| median(seconds[a].clone()) / median(seconds[b].clone());
    println!(
        "ratios sp960 / pgn-reader: reading {:.2}x, playing the moves {:.2}x (time; < 1 is faster)",
        ratio(0, 1),
        ratio(2, 3)
    );

    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = match std::env::var_os("KEEP_CORPUS") {
        Some(path) => std::path::PathBuf::from(path),
        None => dir.path().join("corpus.pgn"),
    };
    std::fs::write(&file, bytes).expect("the corpus is written");
    let mut builds = vec![("sp960 book stats", env!("CARGO_BIN_EXE_sp960").to_owned())];
    if let Ok(before) = std::env::var("SP960_BEFORE") {
        builds.push(("SP960_BEFORE book stats", before));
    }
    let mut times = vec![Vec::new(); builds.len()];
    let mut outputs = vec![Vec::new(); builds.len()];
    for _ in 0..runs {
        for (index, (_, program)) in builds.iter().enumerate() {
            let (seconds, output) = book_stats(program, &file);
            times[index].push(seconds);
            outputs[index] = output;
        }
    }
    for ((name, _), times) in builds.iter().zip(&times) {
        println!("{name:<42} {:>7.3} s (median)", median(times.clone()));
    }
    if builds.len() == 2 {
        assert_eq!(
            outputs[0], outputs[1],
            "both builds give the same statistics"
        );
        println!(
            "ratio after / before: {:.2}x (time), the same output",
            median(times[0].clone()) / median(times[1].clone())
        );
    }
}
