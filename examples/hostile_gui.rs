//! A hostile GUI: seeded random UCI or XBoard command sequences (valid, mutated and garbage
//! positions, legal and illegal moves in every castling form, every `go` / time-control
//! parameter with good and bad values, options, empty, binary and very long lines) sent
//! through `sp960 proxy -- ENGINE`, with the proxy's promises checked as invariants:
//!
//! - the engine never dies (the proxy keeps running and never reports an engine exit);
//! - every `go` gets exactly one `bestmove` (UCI) or one `move` (XBoard, or the proxy's
//!   `Error` after a refused position) within `--bound-ms`;
//! - every `isready` gets a `readyok`, every `ping N` a `pong N`, within the bound;
//! - a `bestmove` (and its `ponder`) is legal in the last position the proxy accepted, in
//!   the GUI's castling dialect, or the null move `0000` after a refused position (or where
//!   there is no legal move, or when the proxy's clock guard says it answers `0000`); an XBoard engine's `move` is legal in the game so far;
//! - the proxy exits with status 0 after `quit`.
//!
//! ```text
//! cargo run --release --example hostile_gui -- --engine /usr/games/stockfish --seconds 30 [--seed S]
//! ```
//!
//! The seed is printed at the start (a fresh one when `--seed` is not given); the command
//! sequence depends only on the seed, so a failing seed reproduces (`--commands N` stops after
//! N commands). On a broken invariant it prints the seed, the command index and the last
//! lines each way, and exits 1 (with `--keep-going` it starts a new proxy and goes on, and
//! exits 1 at the end). At the end it prints the commands sent per kind and the answers.
//!
//! The positions come from shakmaty (random Chess960 starts and random legal games); the
//! fuzzer's own model of what the proxy accepts reads FENs and moves as the README says the
//! proxy does, and counts the cases where the proxy refused what the model accepted or the
//! other way round (`model disagreements`: not an invariant, but worth a look).

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng, TryRngCore};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Position, Square,
};

const USAGE: &str = "usage: hostile_gui --engine CMD [--seconds N] [--commands N] [--seed S] \
[--proxy PATH] [--proxy-arg ARG]... [--init LINE]... [--bound-ms MS] [--keep-going] [--verbose]

  --engine CMD      the engine command line (split like a shell), run as `sp960 proxy -- CMD`
  --seconds N       stop sending after N seconds (default 10; none with --commands)
  --commands N      stop after N commands (default: no limit)
  --seed S          the seed (default: a fresh one, printed)
  --proxy PATH      the sp960 binary (default: target/release/sp960 beside this example)
  --proxy-arg ARG   an argument for `sp960 proxy` before `--` (repeatable)
  --protocol P      uci or xboard (default uci)
  --init LINE       a UCI line sent after `uciok` (repeatable), e.g. 'setoption name Threads value 1'
  --bound-ms MS     how long an answer may take (default 10000)
  --keep-going      after a broken invariant, start a new proxy and go on (exit 1 at the end)
  --good-only       well-formed input only (no bad values, mutated positions or garbage): the
                    baseline, for telling shield gaps from other faults
  --verbose         print every line each way on stderr";

/// The keywords of `go`.
const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

const BIG: [&str; 6] = [
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "4294967296",
];

// ---------------------------------------------------------------------------------------
// Command line

#[derive(Clone)]
struct Args {
    engine: Vec<String>,
    seconds: f64,
    commands: Option<u64>,
    seed: u64,
    proxy: PathBuf,
    proxy_args: Vec<String>,
    xboard: bool,
    init: Vec<String>,
    bound: Duration,
    keep_going: bool,
    good_only: bool,
    verbose: bool,
    /// The proxy's working directory (removed at the end).
    scratch: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut engine = None;
    let mut seconds = None;
    let mut commands = None;
    let mut seed = None;
    let mut proxy = None;
    let mut proxy_args = Vec::new();
    let mut xboard = false;
    let mut init = Vec::new();
    let mut bound = Duration::from_millis(10_000);
    let mut keep_going = false;
    let mut good_only = false;
    let mut verbose = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--engine" => {
                let text = value("--engine")?;
                engine = Some(shlex::split(&text).ok_or("--engine: unbalanced quotes")?);
            }
            "--seconds" => {
                seconds = Some(
                    value("--seconds")?
                        .parse()
                        .map_err(|e| format!("--seconds: {e}"))?,
                )
            }
            "--commands" => {
                commands = Some(
                    value("--commands")?
                        .parse()
                        .map_err(|e| format!("--commands: {e}"))?,
                )
            }
            "--seed" => {
                seed = Some(
                    value("--seed")?
                        .parse()
                        .map_err(|e| format!("--seed: {e}"))?,
                )
            }
            "--proxy" => proxy = Some(PathBuf::from(value("--proxy")?)),
            "--proxy-arg" => proxy_args.push(value("--proxy-arg")?),
            "--protocol" => match value("--protocol")?.as_str() {
                "uci" => xboard = false,
                "xboard" => xboard = true,
                other => return Err(format!("--protocol: unknown protocol {other}")),
            },
            "--init" => init.push(value("--init")?),
            "--bound-ms" => {
                bound = Duration::from_millis(
                    value("--bound-ms")?
                        .parse()
                        .map_err(|e| format!("--bound-ms: {e}"))?,
                )
            }
            "--keep-going" => keep_going = true,
            "--good-only" => good_only = true,
            "--verbose" => verbose = true,
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    let engine = engine
        .filter(|e| !e.is_empty())
        .ok_or(format!("--engine is required\n{USAGE}"))?;
    let proxy = match proxy {
        Some(path) => path,
        None => default_proxy()?,
    };
    // Absolute paths: the proxy runs in a scratch directory.
    let proxy = proxy.canonicalize().unwrap_or(proxy);
    let mut engine = engine;
    if engine[0].contains('/')
        && let Ok(path) = PathBuf::from(&engine[0]).canonicalize()
    {
        engine[0] = path.display().to_string();
    }
    let scratch = std::env::temp_dir().join(format!("hostile_gui-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let seed = seed.unwrap_or_else(|| rand::rngs::OsRng.try_next_u64().unwrap_or(0x5eed));
    Ok(Args {
        engine,
        // With --commands alone (a reproduction), no time limit.
        seconds: seconds.unwrap_or(if commands.is_some() { 1e9 } else { 10.0 }),
        commands,
        seed,
        proxy,
        proxy_args,
        xboard,
        init,
        bound,
        keep_going,
        good_only,
        verbose,
        scratch,
    })
}

/// `sp960` beside the directory of this example (`target/release/examples/..`), else
/// `target/release/sp960`.
fn default_proxy() -> Result<PathBuf, String> {
    let mut candidates = Vec::new();
    if let Ok(exe) = std::env::current_exe()
        && let Some(profile_dir) = exe.parent().and_then(|examples| examples.parent())
    {
        candidates.push(profile_dir.join("sp960"));
    }
    if let Ok(dir) = std::env::var("CARGO_TARGET_DIR") {
        candidates.push(PathBuf::from(dir).join("release/sp960"));
    }
    candidates.push(PathBuf::from("target/release/sp960"));
    candidates
        .iter()
        .find(|path| path.is_file())
        .cloned()
        .ok_or(format!(
            "no sp960 binary in {candidates:?}: build it or pass --proxy"
        ))
}

// ---------------------------------------------------------------------------------------
// The proxy process

enum Event {
    Line(Vec<u8>),
    Eof,
}

struct Proxy {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Event>,
    eof: bool,
    /// The first `panicked at` line on the proxy's stderr, if any.
    panic: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

impl Proxy {
    fn start(args: &Args) -> Result<Proxy, String> {
        let mut command = Command::new(&args.proxy);
        command.arg("proxy");
        if args.xboard {
            command.args(["--protocol", "xboard"]);
        }
        command.args(&args.proxy_args).arg("--").args(&args.engine);
        // In a scratch directory: whatever an engine writes (logs) lands there.
        let mut child = command
            .current_dir(&args.scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", args.proxy.display()))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = send.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                            line.pop();
                        }
                        if send.send(Event::Line(line.clone())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        // The proxy's stderr (and the engine's, which it inherits): watched for a panic.
        let panic = std::sync::Arc::new(std::sync::Mutex::new(None));
        let stderr = child.stderr.take().expect("piped");
        let seen = std::sync::Arc::clone(&panic);
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                let text = String::from_utf8_lossy(&line);
                if text.contains("panicked at") {
                    let mut first = seen.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert_with(|| text.trim_end().to_owned());
                }
                line.clear();
            }
        });
        Ok(Proxy {
            child,
            stdin,
            lines,
            eof: false,
            panic,
        })
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------
// Chess helpers: starts, move texts, the model's reading of FENs and moves

/// The back rank of Chess960 start `n` (0..960), Scharnagl numbering.
fn back_rank(n: u32) -> [char; 8] {
    let mut rank = [' '; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(light * 2 + 1) as usize] = 'b';
    let (n, dark) = (n / 4, n % 4);
    rank[(dark * 2) as usize] = 'b';
    let (n, queen) = (n / 6, n % 6);
    place_nth_empty(&mut rank, queen as usize, 'q');
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n as usize];
    place_nth_empty(&mut rank, b, 'n');
    place_nth_empty(&mut rank, a, 'n');
    for piece in ['r', 'k', 'r'] {
        place_nth_empty(&mut rank, 0, piece);
    }
    rank
}

fn place_nth_empty(rank: &mut [char; 8], n: usize, piece: char) {
    let index = rank
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == ' ')
        .nth(n)
        .expect("room")
        .0;
    rank[index] = piece;
}

/// The FEN of the double-Chess960 start (white `w`, black `b`), Shredder castling.
fn start_fen(w: u32, b: u32) -> String {
    let white: String = back_rank(w)
        .iter()
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let black: String = back_rank(b).iter().collect();
    let rooks = |rank: [char; 8]| -> Vec<char> {
        let files: Vec<usize> = rank
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == 'r')
            .map(|(i, _)| i)
            .collect();
        vec![
            (b'a' + files[1] as u8) as char,
            (b'a' + files[0] as u8) as char,
        ]
    };
    let mut castling: String = rooks(back_rank(w))
        .iter()
        .map(|c| c.to_ascii_uppercase())
        .collect();
    castling.extend(rooks(back_rank(b)));
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

fn chess960(fen: &str) -> Option<Chess> {
    let fen: Fen = fen.parse().ok()?;
    Chess::from_setup(fen.into_setup(), CastlingMode::Chess960).ok()
}

/// The model of the proxy's FEN reading: shakmaty in Chess960 mode, invalid castling
/// rights and en-passant squares dropped, everything else refused.
fn model_fen(text: &str) -> Option<Chess> {
    let fen: Fen = text.trim().parse().ok()?;
    match Chess::from_setup(fen.into_setup(), CastlingMode::Chess960) {
        Ok(position) => Some(position),
        Err(err) => match err.ignore_invalid_castling_rights() {
            Ok(position) => Some(position),
            Err(err) => err.ignore_invalid_ep_square().ok(),
        },
    }
}

fn castle_destination(king: Square, rook: Square, color: Color) -> Square {
    CastlingSide::from_king_side(king < rook).king_to(color)
}

/// Reads coordinate text as the proxy does: king takes rook, then a plain legal move,
/// then king to its castling square.
fn model_move(position: &Chess, text: &[u8]) -> Option<Move> {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = UciMove::from_ascii(text).ok()?
    else {
        return None;
    };
    let legal = position.legal_moves();
    let turn = position.turn();
    legal
        .iter()
        .find(|m| matches!(m, Move::Castle { king, rook } if *king == from && *rook == to))
        .or_else(|| {
            legal.iter().find(|m| {
                !m.is_castle()
                    && m.from() == Some(from)
                    && m.to() == to
                    && m.promotion() == promotion
            })
        })
        .or_else(|| {
            legal.iter().find(|m| match m {
                Move::Castle { king, rook } => {
                    *king == from
                        && promotion.is_none()
                        && castle_destination(*king, *rook, turn) == to
                }
                _ => false,
            })
        })
        .copied()
}

/// Reads an engine's or GUI's XBoard move: coordinates (either castling form), `O-O`
/// forms, or SAN.
fn model_xboard_move(position: &Chess, text: &str) -> Option<Move> {
    let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
    let side = match trimmed {
        "O-O" | "0-0" | "o-o" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if let Some(side) = side {
        return position
            .legal_moves()
            .iter()
            .find(|m| m.castling_side() == Some(side))
            .copied();
    }
    model_move(position, text.as_bytes()).or_else(|| {
        San::from_ascii(trimmed.as_bytes())
            .ok()?
            .to_move(position)
            .ok()
    })
}

/// The texts a castling move may have: (king takes rook, king to destination).
fn castle_texts(m: Move, color: Color) -> (String, String) {
    let Move::Castle { king, rook } = m else {
        unreachable!("castling only")
    };
    let dest = castle_destination(king, rook, color);
    (format!("{king}{rook}"), format!("{king}{dest}"))
}

/// The text the proxy writes for `m` to a GUI in `chess960` dialect or standard.
fn expected_text(m: Move, color: Color, chess960: bool) -> String {
    match m {
        Move::Castle { king, rook } => {
            let dest = castle_destination(king, rook, color);
            if chess960 || king.distance(dest) <= 1 {
                format!("{king}{rook}")
            } else {
                format!("{king}{dest}")
            }
        }
        _ => UciMove::from_move(m, CastlingMode::Chess960).to_string(),
    }
}

/// A move as a GUI might write it in coordinates: castling king-takes-rook or
/// king-two-squares, at random.
fn gui_text(rng: &mut ChaCha8Rng, m: Move, color: Color) -> String {
    match m {
        Move::Castle { .. } => {
            let (kxr, dest) = castle_texts(m, color);
            if rng.random_bool(0.5) { kxr } else { dest }
        }
        _ => UciMove::from_move(m, CastlingMode::Chess960).to_string(),
    }
}

fn random_move(rng: &mut ChaCha8Rng, position: &Chess) -> Option<Move> {
    let legal = position.legal_moves();
    if legal.is_empty() {
        return None;
    }
    // Castling is rare among legal moves: favour it.
    let castles: Vec<&Move> = legal.iter().filter(|m| m.is_castle()).collect();
    if !castles.is_empty() && rng.random_bool(0.4) {
        return Some(*castles[rng.random_range(0..castles.len())]);
    }
    Some(legal[rng.random_range(0..legal.len())])
}

fn random_square(rng: &mut ChaCha8Rng) -> String {
    let file = (b'a' + rng.random_range(0..8u8)) as char;
    let rank = (b'1' + rng.random_range(0..8u8)) as char;
    format!("{file}{rank}")
}

/// An illegal or garbage move text.
fn bad_move(rng: &mut ChaCha8Rng, position: Option<&Chess>) -> String {
    match rng.random_range(0..10) {
        0 => format!("{}{}", random_square(rng), random_square(rng)),
        1 => "0000".into(),
        2 => "xyz".into(),
        3 => format!("{}{}q", random_square(rng), random_square(rng)),
        4 => [
            "e1g1", "e1c1", "e8g8", "e8c8", "e1h1", "e1a1", "e8h8", "e8a8",
        ][rng.random_range(0..8)]
        .into(),
        5 => ["O-O", "O-O-O", "0-0", "o-o"][rng.random_range(0..4)].into(),
        6 => "a7a8k".into(),
        7 => "P@e4".into(),
        8 => match position.and_then(|p| random_move(rng, p)) {
            // A legal move of the side not to move (or its own move played twice).
            Some(m) => format!(
                "{}{}",
                m.to(),
                m.from().map(|s| s.to_string()).unwrap_or_default()
            ),
            None => "e2e4".into(),
        },
        _ => random_token(rng),
    }
}

fn random_token(rng: &mut ChaCha8Rng) -> String {
    let len = rng.random_range(1..12);
    (0..len)
        .map(|_| {
            let pool = b"abcdefghpnbrqkPNBRQK0123456789-/@#=+:";
            pool[rng.random_range(0..pool.len())] as char
        })
        .collect()
}

/// A random game of up to `max_plies` from `root`: (position reached, moves as GUI texts).
fn random_game(rng: &mut ChaCha8Rng, root: &Chess, max_plies: usize) -> (Chess, Vec<String>) {
    let mut position = root.clone();
    let mut texts = Vec::new();
    let plies = rng.random_range(0..=max_plies);
    for _ in 0..plies {
        let Some(m) = random_move(rng, &position) else {
            break;
        };
        texts.push(gui_text(rng, m, position.turn()));
        position.play_unchecked(m);
    }
    (position, texts)
}

fn random_start(rng: &mut ChaCha8Rng) -> (String, Chess) {
    let (w, b) = match rng.random_range(0..10) {
        0..=3 => (518, 518),
        4..=7 => {
            let n = rng.random_range(0..960);
            (n, n)
        }
        _ => (rng.random_range(0..960), rng.random_range(0..960)),
    };
    let fen = start_fen(w, b);
    let position = chess960(&fen).expect("every start is legal");
    (fen, position)
}

/// The FEN of `position`, castling field in Shredder letters, X-FEN or as shakmaty
/// writes it.
fn fen_of(rng: &mut ChaCha8Rng, position: &Chess) -> String {
    let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    if fields.len() >= 3 && fields[2] != "-" && rng.random_bool(0.5) {
        let castles = position.castles();
        let mut shredder = String::new();
        for color in [Color::White, Color::Black] {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                if let Some(rook) = castles.rook(color, side) {
                    let c = rook.file().char();
                    shredder.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if !shredder.is_empty() {
            fields[2] = shredder;
        }
    }
    if rng.random_bool(0.1) {
        fields.truncate(4);
    }
    fields.join(" ")
}

/// A mutated FEN: mostly broken in the ways that crash engines.
fn mutate_fen(rng: &mut ChaCha8Rng, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    let mut ranks: Vec<String> = fields[0].split('/').map(str::to_owned).collect();
    match rng.random_range(0..20) {
        0 => return "8/8/8/8/8/8/8/8 w - - 0 1".into(),
        1 => {
            // Maybe a king gone.
            let r = rng.random_range(0..ranks.len());
            ranks[r] = "8".into();
        }
        2 => {
            let r = rng.random_range(0..ranks.len());
            ranks[r] = ["K7", "k7", "Kk6", "3KK3"][rng.random_range(0..4)].into();
        }
        3 => ranks[0] = "P7".into(),
        4 => ranks[7] = "p7".into(),
        5 => {
            fields[1] = if fields[1] == "w" {
                "b".into()
            } else {
                "w".into()
            }
        } // maybe not-to-move in check
        6 => fields[2] = ["KQkq", "HAha", "XYZ", "K", "AHah", "-"][rng.random_range(0..6)].into(),
        7 => {
            fields[3] = [random_square(rng), "z9".into(), "e3".into(), "e6".into()]
                [rng.random_range(0..4)]
            .clone()
        }
        8 => {
            let value = [
                BIG[rng.random_range(0..BIG.len())],
                "-5",
                "abc",
                "1000000",
                "0",
            ][rng.random_range(0..5)];
            if fields.len() > 4 {
                let i = rng.random_range(4..fields.len());
                fields[i] = value.into();
            } else {
                fields.push(value.into());
            }
        }
        9 => {
            ranks.push("8".into());
        }
        10 => {
            ranks.pop();
        }
        11 => {
            let r = rng.random_range(0..ranks.len());
            ranks[r].push('p');
        }
        12 => {
            let r = rng.random_range(0..ranks.len());
            ranks[r] = "QQQQQQQQ".into();
        }
        13 => fields.truncate(rng.random_range(1..=fields.len())),
        14 => fields[1] = ["x", "W", "", "white"][rng.random_range(0..4)].into(),
        15 => {
            // A random byte edit anywhere.
            let mut bytes = fen.as_bytes().to_vec();
            let i = rng.random_range(0..bytes.len());
            bytes[i] = b"kKqQpP/12389 -x"[rng.random_range(0..15)];
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        16 => {
            let r = rng.random_range(0..ranks.len());
            ranks[r] = "9".into();
        }
        17 => fields.push("extra".into()),
        18 => {
            let r = rng.random_range(0..ranks.len());
            ranks[r] = "pppppppp".into();
        }
        _ => {
            let r = rng.random_range(0..ranks.len());
            let other = (r + 1) % ranks.len();
            ranks.swap(r, other);
        }
    }
    fields[0] = ranks.join("/");
    fields.join(" ")
}

fn garbage_line(rng: &mut ChaCha8Rng) -> Vec<u8> {
    match rng.random_range(0..8) {
        0 => Vec::new(),
        1 => b"   \t  ".to_vec(),
        2 => (0..rng.random_range(1..64))
            .map(|_| rng.random::<u8>())
            .filter(|b| *b != b'\n')
            .collect(),
        3 => {
            let len = rng.random_range(1000..200_000);
            let mut line = random_token(rng).into_bytes();
            line.resize(len, b'x');
            line
        }
        4 => random_token(rng).into_bytes(),
        5 => b"\x00".to_vec(),
        6 => b"\r".to_vec(),
        _ => format!("{} {}", random_token(rng), random_token(rng)).into_bytes(),
    }
}

fn bad_number(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..9) {
        0 => "0".into(),
        1 => format!("-{}", rng.random_range(1..100_000)),
        2 | 3 => BIG[rng.random_range(0..BIG.len())].into(),
        4 => "abc".into(),
        5 => "".into(),
        6 => "1.5".into(),
        7 => format!("-{}", BIG[rng.random_range(0..BIG.len())]),
        _ => "0x10".into(),
    }
}

// ---------------------------------------------------------------------------------------
// The run: shared state, the history, the invariant reports

#[derive(Default)]
struct Counts {
    sent: BTreeMap<String, u64>,
    answers: BTreeMap<String, u64>,
    notes: BTreeMap<String, u64>,
}

struct Violation {
    what: String,
}

type Res<T> = Result<T, Violation>;

fn broke<T>(what: impl Into<String>) -> Res<T> {
    Err(Violation { what: what.into() })
}

struct Run<'a> {
    args: &'a Args,
    rng: ChaCha8Rng,
    proxy: Proxy,
    index: u64,
    sent: VecDeque<(u64, String)>,
    received: VecDeque<String>,
    counts: Counts,
    quit_sent: bool,
}

fn shown(line: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(line).into_owned();
    if text.len() > 160 {
        let mut cut = 160;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text = format!("{}... ({} bytes)", &text[..cut], line.len());
    }
    text.escape_debug().to_string()
}

impl Run<'_> {
    fn send(&mut self, kind: &str, line: &[u8]) -> Res<()> {
        self.index += 1;
        *self.counts.sent.entry(kind.to_owned()).or_default() += 1;
        if self.args.verbose {
            eprintln!("> [{}] {}", self.index, shown(line));
        }
        self.sent.push_back((self.index, shown(line)));
        if self.sent.len() > 30 {
            self.sent.pop_front();
        }
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        if self
            .proxy
            .stdin
            .write_all(&bytes)
            .and_then(|_| self.proxy.stdin.flush())
            .is_err()
        {
            return broke("the proxy closed its input (it exited)");
        }
        Ok(())
    }

    /// The next line from the proxy within `timeout` (None on timeout); an end of output
    /// before `quit` is a broken invariant.
    fn recv(&mut self, timeout: Duration) -> Res<Option<Vec<u8>>> {
        let panicked = self
            .proxy
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(message) = panicked {
            return broke(format!("the proxy panicked: {message}"));
        }
        if self.proxy.eof {
            return broke("the proxy's output ended");
        }
        match self.proxy.lines.recv_timeout(timeout) {
            Ok(Event::Line(line)) => {
                if self.args.verbose {
                    eprintln!("< {}", shown(&line));
                }
                self.received.push_back(shown(&line));
                if self.received.len() > 30 {
                    self.received.pop_front();
                }
                let text = String::from_utf8_lossy(&line);
                if text.contains("sp960: the engine ")
                    && (text.contains("unexpectedly") || text.contains("exited"))
                {
                    return broke(format!("the engine died: {text}"));
                }
                Ok(Some(line))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.proxy.eof = true;
                if self.quit_sent {
                    return Ok(None);
                }
                let status = wait_exit(&mut self.proxy.child, Duration::from_secs(2));
                broke(format!("the proxy's output ended before quit ({status})"))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    fn answer(&mut self, kind: &str) {
        *self.counts.answers.entry(kind.to_owned()).or_default() += 1;
    }

    fn note(&mut self, kind: &str) {
        *self.counts.notes.entry(kind.to_owned()).or_default() += 1;
    }

    fn report(&self, violation: &Violation) {
        eprintln!("\nhostile_gui: BROKEN INVARIANT: {}", violation.what);
        eprintln!(
            "  seed {}  command #{}  engine {:?}",
            self.args.seed,
            self.index,
            self.args.engine.join(" ")
        );
        eprintln!("  last lines sent (GUI -> proxy):");
        for (i, line) in &self.sent {
            eprintln!("    [{i}] {line}");
        }
        eprintln!("  last lines received (proxy -> GUI):");
        for line in &self.received {
            eprintln!("    {line}");
        }
        eprintln!(
            "  reproduce: cargo run --release --example hostile_gui -- --engine {:?}{} --seed {} --commands {}{}\n",
            self.args.engine.join(" "),
            if self.args.xboard {
                " --protocol xboard"
            } else {
                ""
            },
            self.args.seed,
            self.index,
            self.args
                .init
                .iter()
                .map(|l| format!(" --init {l:?}"))
                .chain(
                    self.args
                        .proxy_args
                        .iter()
                        .map(|a| format!(" --proxy-arg {a:?}"))
                )
                .chain(self.args.keep_going.then(|| " --keep-going".to_owned()))
                .chain(self.args.good_only.then(|| " --good-only".to_owned()))
                .chain([format!(" --bound-ms {}", self.args.bound.as_millis())])
                .collect::<String>()
        );
    }
}

fn wait_exit(child: &mut Child, timeout: Duration) -> String {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.to_string(),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return format!("still running after {timeout:?}: killed");
            }
            Err(e) => return format!("unknown: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// UCI

/// What the model thinks of the last `position`.
#[derive(Clone)]
enum Model {
    /// No `position` yet: the engine's own start (standard chess).
    Initial,
    Accepted(Chess),
    Refused,
    /// The proxy's choice, unknown to us (a random start).
    Unknown,
}

struct Uci {
    /// The engine's options: name, type, and a well-formed spin value range.
    options: Vec<(String, String, std::ops::RangeInclusive<i64>)>,
    model: Model,
    gui_chess960: bool,
    /// SP960_Start / SP960_BlackStart as the proxy holds them (None: random, unknown).
    start: Option<(i32, i32)>,
    /// Position commands since the last bestmove: (model refuses it, the line).
    interval: Vec<(bool, String)>,
    refusals_seen: usize,
    /// The text of the last `position` (for reports).
    last_fen: String,
    /// A `go` waits for its `bestmove`.
    pending_go: bool,
    /// The `bestmove` that answered it, once read.
    bestmove: Option<String>,
    /// The proxy refused the outstanding `go` (`info string sp960: refused go`).
    go_refused: bool,
    /// A second `go` was sent during the search: its `bestmove`, once read.
    second_go: bool,
    second_bestmove: Option<String>,
    /// The proxy replaced the engine's bestmove, not legal in the searched position.
    engine_null: bool,
    /// The proxy's clock guard (`--max-overrun`, `--max-search`) answered the pending `go`
    /// with `bestmove 0000`: the engine had no legal pv move.
    guard_null: bool,
}

/// The position `startpos` means now, in the model.
fn uci_startpos(uci: &Uci) -> Option<Chess> {
    match uci.start {
        None => None,
        Some((-1, _)) => Some(Chess::default()),
        Some((w, b)) if w >= 0 => chess960(&start_fen(
            w as u32,
            if b >= 0 { b as u32 } else { w as u32 },
        )),
        Some(_) => None,
    }
}

impl Run<'_> {
    fn uci_session(&mut self, deadline: Instant) -> Res<()> {
        let bound = self.args.bound;
        self.send("uci", b"uci")?;
        let mut uci = Uci {
            options: Vec::new(),
            model: Model::Initial,
            gui_chess960: false,
            start: Some((-1, -1)),
            interval: Vec::new(),
            refusals_seen: 0,
            last_fen: String::new(),
            pending_go: false,
            bestmove: None,
            go_refused: false,
            second_go: false,
            second_bestmove: None,
            engine_null: false,
            guard_null: false,
        };
        let until = Instant::now() + bound;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let Some(line) = self.recv(left)? else {
                if Instant::now() >= until {
                    return broke("no uciok");
                }
                continue;
            };
            let text = String::from_utf8_lossy(&line).into_owned();
            if text == "uciok" {
                break;
            }
            if let Some(rest) = text.strip_prefix("option name ")
                && let Some(at) = rest.find(" type ")
            {
                let name = rest[..at].to_owned();
                let kind = rest[at + 6..].split(' ').next().unwrap_or("").to_owned();
                let number = |key: &str| {
                    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
                    words
                        .iter()
                        .position(|w| *w == key)
                        .and_then(|i| words.get(i + 1))
                        .and_then(|v| v.parse::<i64>().ok())
                };
                let min = number("min").unwrap_or(0);
                let max = number("max").unwrap_or(min + 2);
                // Small values within the range: a good value must not make a slow engine.
                uci.options
                    .push((name, kind, min..=max.min(min.saturating_add(2))));
            }
        }
        self.answer("uciok");
        for line in self.args.init.clone() {
            self.send("init", line.as_bytes())?;
        }
        self.isready_wait(&mut uci)?;
        while Instant::now() < deadline && self.args.commands.is_none_or(|n| self.index < n) {
            self.uci_step(&mut uci)?;
        }
        self.isready_wait(&mut uci)?;
        self.finish(b"quit")
    }

    fn finish(&mut self, quit: &[u8]) -> Res<()> {
        self.send("quit", quit)?;
        self.quit_sent = true;
        let until = Instant::now() + self.args.bound;
        while !self.proxy.eof && Instant::now() < until {
            self.recv(Duration::from_millis(100))?;
        }
        let status = wait_exit(
            &mut self.proxy.child,
            until.saturating_duration_since(Instant::now()),
        );
        thread::sleep(Duration::from_millis(50)); // the stderr reader's last lines
        let panicked = self
            .proxy
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(message) = panicked {
            return broke(format!("the proxy panicked: {message}"));
        }
        if status != "exit status: 0" {
            return broke(format!("after quit the proxy ended with {status}, not 0"));
        }
        Ok(())
    }

    /// Handles one proxy line while no particular answer is awaited; returns it.
    fn uci_line(&mut self, uci: &mut Uci, line: &[u8]) -> Res<()> {
        let text = String::from_utf8_lossy(line);
        if text.starts_with("bestmove") {
            if uci.pending_go && uci.bestmove.is_none() {
                uci.bestmove = Some(text.into_owned());
                return Ok(());
            }
            if uci.second_go && uci.second_bestmove.is_none() {
                uci.second_bestmove = Some(text.into_owned());
                return Ok(());
            }
            return broke(format!(
                "'{text}' with no go outstanding (a second bestmove?)"
            ));
        }
        if text == "readyok" {
            return broke("readyok with no isready outstanding");
        }
        if text.starts_with("info string sp960: clock guard:") {
            // The proxy's documented answer to an overrun (docs/proxy.md): its own
            // bestmove, the engine's pv move (checked as any) or 0000.
            uci.guard_null |= text.ends_with("the GUI gets bestmove 0000 (no legal pv move)");
            self.answer("clock guard");
        } else if text.starts_with("info string sp960: the engine's bestmove")
            && !text.contains("after the clock guard's stop")
        {
            // An engine fault the proxy answers with bestmove 0000 (Ethereal's `a1a1`,
            // Glaurung's `(none)` after a search stopped before its first iteration).
            uci.engine_null = true;
            self.answer("engine bestmove replaced by 0000");
        } else if text.starts_with("info string sp960: refused go") {
            uci.go_refused = true;
            self.answer("refused go");
        } else if text.starts_with("info string sp960: refused position") {
            uci.refusals_seen += 1;
            self.answer("refused position");
        } else if text.starts_with("info string") {
            self.answer("info string");
        } else if text.starts_with("info") {
            self.answer("info");
        }
        Ok(())
    }

    /// Waits for a line matching `want` within the bound, handling the others.
    fn uci_wait(&mut self, uci: &mut Uci, what: &str, want: impl Fn(&str) -> bool) -> Res<String> {
        let until = Instant::now() + self.args.bound;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return broke(format!("no {what} within {:?}", self.args.bound));
            }
            if let Some(line) = self.recv(left)? {
                let text = String::from_utf8_lossy(&line).into_owned();
                if want(&text) {
                    return Ok(text);
                }
                self.uci_line(uci, &line)?;
            }
        }
    }

    fn isready_wait(&mut self, uci: &mut Uci) -> Res<()> {
        self.send("isready", b"isready")?;
        self.uci_wait(uci, "readyok after isready", |t| t == "readyok")?;
        self.answer("readyok");
        Ok(())
    }

    fn drain(&mut self, uci: &mut Uci) -> Res<()> {
        while let Some(line) = self.recv(Duration::ZERO)? {
            self.uci_line(uci, &line)?;
        }
        Ok(())
    }

    fn uci_step(&mut self, uci: &mut Uci) -> Res<()> {
        self.drain(uci)?;
        let mut roll = self.rng.random_range(0..100);
        if self.args.good_only && (86..=95).contains(&roll) {
            roll = 68; // no garbage: isready instead
        }
        match roll {
            0..=34 => self.uci_position(uci),
            35..=59 => self.uci_go(uci),
            60..=67 => self.uci_setoption(uci),
            68..=75 => self.isready_wait(uci),
            76..=78 => self.send("stop", b"stop"),
            79..=80 => self.send("ponderhit", b"ponderhit"),
            81..=85 => {
                self.send("ucinewgame", b"ucinewgame")?;
                if uci.start.is_some_and(|(w, _)| w == -2) {
                    uci.start = None;
                }
                Ok(())
            }
            86..=95 => {
                let line = garbage_line(&mut self.rng);
                // A garbage line that reads as a UCI command would change the model.
                let first = line
                    .split(|b| b.is_ascii_whitespace())
                    .find(|t| !t.is_empty());
                if matches!(
                    first,
                    Some(b"position" | b"go" | b"setoption" | b"quit" | b"uci" | b"isready")
                ) {
                    return Ok(());
                }
                self.send("garbage", &line)
            }
            96..=97 => {
                let line: &[u8] = if self.rng.random_bool(0.5) {
                    b"debug on"
                } else {
                    b"debug off"
                };
                self.send("debug", line)
            }
            _ => {
                // Every 64 commands or so, a sync point keeps the pipes short.
                self.isready_wait(uci)
            }
        }
    }

    fn uci_position(&mut self, uci: &mut Uci) -> Res<()> {
        let rng = &mut self.rng;
        let mut kind = rng.random_range(0..100);
        if self.args.good_only && kind >= 45 && !(85..=89).contains(&kind) {
            kind %= 45;
        }
        let (label, line) = match kind {
            0..=44 => {
                // Valid: startpos or a FEN (start or mid-game), then legal moves.
                // `startpos` only while the model knows the proxy's start (not after a
                // random one was asked for): the model then checks every bestmove.
                let startpos = uci_startpos(uci);
                let (root_text, root) = if rng.random_bool(0.4) && startpos.is_some() {
                    ("startpos".to_owned(), startpos.unwrap_or_default())
                } else {
                    let (fen, start) = random_start(rng);
                    if rng.random_bool(0.5) {
                        let (mid, _) = random_game(rng, &start, 60);
                        (format!("fen {}", fen_of(rng, &mid)), mid)
                    } else {
                        (format!("fen {fen}"), start)
                    }
                };
                let (_, moves) = random_game(rng, &root, 30);
                let moves = if moves.is_empty() && rng.random_bool(0.5) {
                    String::new()
                } else {
                    format!(" moves {}", moves.join(" "))
                };
                ("position valid", format!("position {root_text}{moves}"))
            }
            45..=69 => {
                // Mutated FEN.
                let (fen, start) = random_start(rng);
                let (mid, _) = random_game(rng, &start, 40);
                let fen = if rng.random_bool(0.5) {
                    fen
                } else {
                    fen_of(rng, &mid)
                };
                (
                    "position mutated",
                    format!("position fen {}", mutate_fen(rng, &fen)),
                )
            }
            70..=84 => {
                // Legal moves, then an illegal or garbage one (maybe more after it).
                let (root_text, root) = match uci_startpos(uci) {
                    Some(root) => ("startpos".to_owned(), root),
                    None => {
                        let (fen, start) = random_start(rng);
                        (format!("fen {fen}"), start)
                    }
                };
                let (reached, mut moves) = random_game(rng, &root, 20);
                moves.push(bad_move(rng, Some(&reached)));
                if rng.random_bool(0.3) {
                    moves.push("e2e4".into());
                }
                (
                    "position bad move",
                    format!("position {root_text} moves {}", moves.join(" ")),
                )
            }
            85..=89 => {
                // Games to the end, and past it.
                let (fen, start) = random_start(rng);
                let (reached, mut moves) = random_game(rng, &start, 400);
                if reached.is_game_over() && rng.random_bool(0.5) {
                    moves.push("e2e4".into());
                }
                (
                    "position long game",
                    format!("position fen {fen} moves {}", moves.join(" ")),
                )
            }
            90..=91 => {
                let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
                let n = rng.random_range(500..6000);
                let moves: Vec<&str> = (0..n).map(|i| cycle[i % 4]).collect();
                (
                    "position huge move list",
                    format!("position startpos moves {}", moves.join(" ")),
                )
            }
            _ => {
                let garbage = [
                    "position".to_owned(),
                    "position fen".to_owned(),
                    "position fen garbage".to_owned(),
                    "position moves e2e4".to_owned(),
                    "position startpos moves".to_owned(),
                    format!("position startpos {} moves e2e4", random_token(rng)),
                    format!("position fen {}", random_token(rng)),
                    "position  startpos  moves  e2e4  ".to_owned(),
                    "position startpos moves e2e4\r".to_owned(),
                    "position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
                ];
                let pick = rng.random_range(0..garbage.len());
                ("position garbage", garbage[pick].clone())
            }
        };
        // The model: the proxy's reading.
        let model = self.model_position(uci, line.as_bytes());
        let refused = matches!(model, Model::Refused);
        uci.interval.push((refused, line.clone()));
        uci.model = model;
        uci.last_fen = line.chars().take(200).collect();
        self.send(label, line.as_bytes())
    }

    fn model_position(&self, uci: &Uci, line: &[u8]) -> Model {
        let words: Vec<&[u8]> = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let moves_at = words
            .iter()
            .position(|w| *w == b"moves")
            .unwrap_or(words.len());
        let root = match words.get(1).copied() {
            // The proxy reads nothing but `moves` after `startpos`.
            Some(b"startpos") if moves_at != 2 && words.len() > 2 => return Model::Refused,
            Some(b"startpos") => match uci_startpos(uci) {
                Some(root) => root,
                None => return Model::Unknown,
            },
            Some(b"fen") => {
                let fen =
                    String::from_utf8_lossy(&words[2..moves_at.max(2)].join(&b' ')).into_owned();
                match model_fen(&fen) {
                    Some(root) => root,
                    None => return Model::Refused,
                }
            }
            _ => return Model::Refused,
        };
        let mut position = root;
        for text in words.iter().skip(moves_at + 1) {
            match model_move(&position, text) {
                Some(m) => position.play_unchecked(m),
                None => return Model::Refused,
            }
        }
        Model::Accepted(position)
    }

    fn uci_go(&mut self, uci: &mut Uci) -> Res<()> {
        let rng = &mut self.rng;
        let good = rng.random_bool(0.6) || self.args.good_only;
        let mut words: Vec<String> = vec!["go".into()];
        let mut infinite = false;
        let mut ponder = false;
        let mut junk = false;
        let mut tail: Vec<String> = Vec::new();
        let mut params = [
            "depth",
            "nodes",
            "movetime",
            "clock",
            "mate",
            "searchmoves",
            "infinite",
            "ponder",
            "junk",
        ];
        let n = rng.random_range(1..=3);
        for _ in 0..n {
            let i = rng.random_range(0..params.len());
            let param = params[i];
            params.swap(i, 0);
            let value = |rng: &mut ChaCha8Rng, good_range: std::ops::Range<u64>| {
                if good {
                    rng.random_range(good_range).to_string()
                } else {
                    bad_number(rng)
                }
            };
            match param {
                "depth" => words.extend(["depth".into(), value(rng, 1..5)]),
                "nodes" => words.extend(["nodes".into(), value(rng, 1..5_000)]),
                "movetime" => words.extend(["movetime".into(), value(rng, 1..30)]),
                "clock" => {
                    for key in ["wtime", "btime", "winc", "binc", "movestogo"] {
                        // Well-formed clocks have both times (increments alone hang SF).
                        let needed = good && (key == "wtime" || key == "btime");
                        if rng.random_bool(0.7) || needed {
                            let range = match key {
                                "wtime" | "btime" => 50..1000,
                                "winc" | "binc" => 0..100,
                                _ => 1..40,
                            };
                            words.extend([key.into(), value(rng, range)]);
                        }
                    }
                }
                // Glaurung 2.2 ignores a depth next to `mate` and searches on: well-formed
                // input it never answers, so only malformed mates are sent (the shield
                // refuses those, docs/hostile-gui.md).
                "mate" if good => {
                    words.extend(["depth".into(), rng.random_range(1..5).to_string()])
                }
                "mate" => {
                    words.extend(["mate".into(), value(rng, 1..4)]);
                    if good {
                        words.extend(["depth".into(), rng.random_range(1..5).to_string()]);
                    }
                }
                "searchmoves" => {
                    // SF and others read every token after `searchmoves` as a move: a
                    // well-formed `go` has it last.
                    let mut part = vec!["searchmoves".to_owned()];
                    let position = match &uci.model {
                        Model::Accepted(p) => Some(p.clone()),
                        Model::Initial => Some(Chess::default()),
                        _ => None,
                    };
                    for _ in 0..rng.random_range(if good { 1..4 } else { 0..4 }) {
                        let text = match position
                            .as_ref()
                            .and_then(|p| random_move(rng, p).map(|m| (p, m)))
                        {
                            Some((p, m)) if good || rng.random_bool(0.5) => {
                                gui_text(rng, m, p.turn())
                            }
                            _ => {
                                // No legal move (a finished game, or none known): not a
                                // well-formed searchmoves.
                                junk = true;
                                bad_move(rng, position.as_ref())
                            }
                        };
                        part.push(text);
                    }
                    if good {
                        words.extend(["depth".into(), rng.random_range(1..5).to_string()]);
                        tail = part;
                    } else {
                        words.extend(part);
                    }
                }
                "infinite" => {
                    infinite = true;
                    words.push("infinite".into());
                }
                "ponder" => {
                    ponder = true;
                    words.push("ponder".into());
                }
                _ if self.args.good_only => {
                    words.extend(["depth".into(), rng.random_range(1..5).to_string()])
                }
                _ => {
                    junk = true;
                    words.push(random_token(rng));
                }
            }
        }
        words.extend(tail);
        if rng.random_bool(0.03) && !self.args.good_only {
            // `go` alone (an infinite search for some engines).
            junk = true;
            words.truncate(1);
            infinite = false;
            ponder = false;
        }
        let line = words.join(" ");
        let kind = if good && !junk { "go good" } else { "go bad" };
        uci.pending_go = true;
        uci.bestmove = None;
        uci.go_refused = false;
        self.send(kind, line.as_bytes())?;
        // Now and then a command during the search: the proxy holds it until the search's
        // bestmove (which answers this go, in the position it searched), then sends it.
        let mut after: Option<Model> = None;
        let mut second_go = false;
        if self.rng.random_bool(0.1) {
            match self.rng.random_range(0..5) {
                0 => self.isready_wait(uci)?,
                1 => {
                    let (fen, start) = random_start(&mut self.rng);
                    let (_, moves) = random_game(&mut self.rng, &start, 20);
                    let line = if moves.is_empty() {
                        format!("position fen {fen}")
                    } else {
                        format!("position fen {fen} moves {}", moves.join(" "))
                    };
                    // As the proxy reads the text (a king step wins over castling).
                    after = Some(self.model_position(uci, line.as_bytes()));
                    self.send("position during search", line.as_bytes())?;
                }
                2 => {
                    let value = if uci.gui_chess960 { "true" } else { "false" };
                    let line = format!("setoption name UCI_Chess960 value {value}");
                    self.send("setoption during search", line.as_bytes())?;
                }
                3 => {
                    self.send("ucinewgame during search", b"ucinewgame")?;
                    if uci.start.is_some_and(|(w, _)| w == -2) {
                        uci.start = None;
                    }
                }
                _ => {
                    second_go = true;
                    uci.second_go = true;
                    uci.second_bestmove = None;
                    self.send("go during search", b"go depth 1")?;
                }
            }
        }
        if infinite || ponder {
            // A few harmless lines during the search, then stop (or ponderhit).
            for _ in 0..self.rng.random_range(0..3) {
                match self.rng.random_range(0..3) {
                    0 => self.isready_wait(uci)?,
                    1 => self.send("garbage", b"")?,
                    _ => thread::sleep(Duration::from_millis(self.rng.random_range(0..30))),
                }
            }
            if ponder && !infinite && self.rng.random_bool(0.5) {
                self.send("ponderhit", b"ponderhit")?;
                // After ponderhit the search ends on its own limits, which may be none.
                if !words
                    .iter()
                    .any(|w| ["depth", "nodes", "movetime", "wtime", "btime"].contains(&w.as_str()))
                {
                    self.send("stop", b"stop")?;
                }
            } else {
                self.send("stop", b"stop")?;
            }
        }
        let bestmove = match uci.bestmove.take() {
            Some(bestmove) => bestmove,
            None => self.uci_wait(
                uci,
                &format!("bestmove for `{}`", shown(line.as_bytes())),
                |t| t.starts_with("bestmove"),
            )?,
        };
        self.answer("bestmove");
        let refused = std::mem::take(&mut uci.go_refused);
        if refused {
            // The proxy's answer to a go it refused: bestmove 0000, and never for a go the
            // model holds well-formed in a position it knows.
            let known = matches!(uci.model, Model::Accepted(_) | Model::Initial)
                && uci.interval.iter().all(|(r, _)| !r);
            if good && !junk && known {
                let fen = match &uci.model {
                    Model::Accepted(p) => Fen::from_position(p, EnPassantMode::Legal).to_string(),
                    _ => "the engine's start".to_owned(),
                };
                return broke(format!(
                    "the proxy refused the well-formed `{line}` (model position {fen})"
                ));
            }
            if bestmove.trim_end() != "bestmove 0000" {
                return broke(format!(
                    "`{bestmove}` after a refused go (want bestmove 0000)"
                ));
            }
        } else {
            self.check_bestmove(uci, &bestmove)?;
        }
        uci.interval.clear();
        uci.refusals_seen = 0;
        if second_go {
            let bestmove = match uci.second_bestmove.take() {
                Some(bestmove) => bestmove,
                None => self.uci_wait(uci, "bestmove for a go sent during a search", |t| {
                    t.starts_with("bestmove")
                })?,
            };
            uci.second_go = false;
            self.answer("bestmove");
            if !std::mem::take(&mut uci.go_refused) {
                self.check_bestmove(uci, &bestmove)?;
            }
        }
        uci.pending_go = false;
        if let Some(model) = after {
            uci.model = model;
            uci.last_fen = "position during search".into();
        }
        Ok(())
    }

    fn check_bestmove(&mut self, uci: &mut Uci, line: &str) -> Res<()> {
        if std::mem::take(&mut uci.guard_null) {
            if line.trim_end() != "bestmove 0000" {
                return broke(format!(
                    "`{line}` after the clock guard said it answers bestmove 0000"
                ));
            }
            self.note("clock guard: a search answered 0000 by the proxy (no legal pv move)");
            return Ok(());
        }
        if std::mem::take(&mut uci.engine_null) {
            if line.trim_end() != "bestmove 0000" {
                return broke(format!(
                    "`{line}` after the proxy replaced an engine's bestmove"
                ));
            }
            self.note("engine fault: bestmove not legal, answered 0000 by the proxy");
            return Ok(());
        }
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let best = words.get(1).copied().unwrap_or("");
        let ponder = match words.get(2) {
            Some(&"ponder") => words.get(3).copied(),
            _ => None,
        };
        let expected_refusals = uci.interval.iter().filter(|(r, _)| *r).count();
        let consistent = expected_refusals == uci.refusals_seen;
        if !consistent {
            self.note("model disagreement (refused positions)");
            if self.args.verbose
                || self
                    .counts
                    .notes
                    .get("model disagreement (refused positions)")
                    == Some(&1)
            {
                eprintln!(
                    "hostile_gui: note: the proxy refused {} of these positions, the model {}: {:?}",
                    uci.refusals_seen,
                    expected_refusals,
                    uci.interval
                        .iter()
                        .map(|(r, l)| format!("{r} {}", shown(l.as_bytes())))
                        .collect::<Vec<_>>()
                );
            }
        }
        let proxy_refused_last = if consistent {
            matches!(uci.model, Model::Refused)
        } else {
            // Unknown which: a 0000 is fine if anything was refused.
            best == "0000" && uci.refusals_seen > 0
        };
        if proxy_refused_last {
            if best != "0000" || ponder.is_some() {
                return broke(format!(
                    "`{line}` after a refused position (want bestmove 0000)"
                ));
            }
            return Ok(());
        }
        let position = match &uci.model {
            Model::Initial => Chess::default(),
            Model::Accepted(p) => p.clone(),
            Model::Refused | Model::Unknown => {
                self.note("bestmove not checked (model unsure)");
                return Ok(());
            }
        };
        if !consistent {
            self.note("bestmove not checked (model unsure)");
            return Ok(());
        }
        if position.legal_moves().is_empty() {
            if !["0000", "(none)", "a1a1", "NULL"].contains(&best) {
                return broke(format!("`{line}` in a position without legal moves"));
            }
            self.note("bestmove in a finished game");
            return Ok(());
        }
        let Some(m) = model_move(&position, best.as_bytes()) else {
            return broke(format!(
                "`{line}` is not a legal move in the last accepted position ({})",
                uci.last_fen
            ));
        };
        if m.is_castle() {
            let want = expected_text(m, position.turn(), uci.gui_chess960);
            if best != want {
                return broke(format!(
                    "`{line}`: castling written `{best}`, but the GUI's dialect ({}) wants `{want}`",
                    if uci.gui_chess960 {
                        "chess960"
                    } else {
                        "standard"
                    }
                ));
            }
            self.note("bestmove castles");
        }
        if let Some(ponder) = ponder.filter(|p| *p != "(none)") {
            let mut after = position.clone();
            after.play_unchecked(m);
            if model_move(&after, ponder.as_bytes()).is_none() {
                return broke(format!(
                    "`{line}`: the ponder move is not legal after the best move"
                ));
            }
        }
        Ok(())
    }

    fn uci_setoption(&mut self, uci: &mut Uci) -> Res<()> {
        let rng = &mut self.rng;
        let good = rng.random_bool(0.5) || self.args.good_only;
        let mut pick = rng.random_range(0..10);
        if self.args.good_only && pick > 7 {
            pick = 0;
        }
        let line = match pick {
            0..=2 => {
                let value = if good {
                    ["true", "false"][rng.random_range(0..2)].to_owned()
                } else {
                    bad_number(rng)
                };
                format!("setoption name UCI_Chess960 value {value}")
            }
            3 => {
                let value = if good {
                    rng.random_range(-1..960).to_string()
                } else {
                    bad_number(rng)
                };
                let name = if rng.random_bool(0.7) {
                    "SP960_Start"
                } else {
                    "SP960_BlackStart"
                };
                format!("setoption name {name} value {value}")
            }
            4 => {
                let value =
                    ["chess960", "fischerandom", "chess", "nonsense", ""][rng.random_range(0..5)];
                format!("setoption name UCI_Variant value {value}")
            }
            5..=7 if !uci.options.is_empty() => {
                let (name, kind, range) =
                    uci.options[rng.random_range(0..uci.options.len())].clone();
                // Values that change nothing dangerous when good: Threads 1, Hash 1..16.
                let value = match (name.as_str(), good) {
                    ("Threads", true) => "1".to_owned(),
                    ("Hash", true) => rng.random_range(1..17).to_string(),
                    ("UCI_Variant" | "UCI_Chess960" | "SP960_Start" | "SP960_BlackStart", _) => {
                        return Ok(());
                    }
                    // Stockfish's nodestime turns clock times into node budgets (its nps
                    // shows 999): well-formed clocks then take longer than the bound. A
                    // setting, not a fault; left alone (docs/hostile-gui.md).
                    ("nodestime", _) => return Ok(()),
                    (_, true) if kind == "check" => {
                        ["true", "false"][rng.random_range(0..2)].to_owned()
                    }
                    (_, true) if kind == "spin" => rng.random_range(range).to_string(),
                    (_, true) if kind == "button" => String::new(),
                    (_, true) => return Ok(()), // strings (paths): leave them
                    (_, false) if kind == "spin" => bad_number(rng),
                    // String options are file names (Debug Log File, EvalFile, SyzygyPath):
                    // an engine writes or reads the file, so they are left alone.
                    (_, false) if kind == "string" => return Ok(()),
                    (_, false) => random_token(rng),
                };
                if kind == "button" && good {
                    format!("setoption name {name}")
                } else {
                    format!("setoption name {name} value {value}")
                }
            }
            _ => [
                "setoption".to_owned(),
                "setoption name".to_owned(),
                "setoption value 3".to_owned(),
                format!(
                    "setoption name {} value {}",
                    random_token(rng),
                    random_token(rng)
                ),
                "setoption name Threads value 0".to_owned(),
                "setoption name Hash value -1".to_owned(),
                format!("setoption name Hash value {}", bad_number(rng)),
                "setoption name MultiPV value 0".to_owned(),
            ][rng.random_range(0..8)]
            .clone(),
        };
        // Model the options the proxy keeps: the GUI's dialect and the start.
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let value_at = words
            .iter()
            .position(|w| *w == "value")
            .unwrap_or(words.len());
        let name = words
            .get(2..value_at)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        let value = words
            .get(value_at + 1..)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            // A value other than true or false is refused by the proxy: nothing changes.
            if value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false") {
                uci.gui_chess960 = value.eq_ignore_ascii_case("true");
            }
        } else if name.eq_ignore_ascii_case("UCI_Variant")
            && ["fischerandom", "fischerrandom", "chess960", "960", "frc"]
                .iter()
                .any(|v| value.eq_ignore_ascii_case(v))
        {
            uci.gui_chess960 = true;
        } else if name == "SP960_Start" || name == "SP960_BlackStart" {
            // Out-of-range values are ignored by the proxy; in-range ones set the start.
            match (value.parse::<i32>(), uci.start) {
                (Ok(v), Some((w, b))) => {
                    if name == "SP960_Start" && (-2..960).contains(&v) {
                        uci.start = if v == -2 { None } else { Some((v, b)) };
                    } else if name == "SP960_BlackStart" && (-1..960).contains(&v) {
                        uci.start = Some((w, v));
                    }
                }
                (Ok(_), None) => {}
                // A value the proxy cannot read: the model no longer knows the start.
                (Err(_), _) => uci.start = None,
            }
        }
        self.send(
            if good {
                "setoption good"
            } else {
                "setoption bad"
            },
            line.as_bytes(),
        )
    }
}

// ---------------------------------------------------------------------------------------
// XBoard

struct Xb {
    /// The game as the model follows it: None after a refused setboard.
    board: Option<Chess>,
    /// False once the model cannot be sure of the engine's board (until `new` or an
    /// accepted `setboard`).
    certain: bool,
    /// The positions before each move of the game so far (for undo and rejections).
    history: Vec<Chess>,
    force: bool,
    /// The side the engine plays (when not in force mode).
    engine_side: Color,
    /// A `go` came in a finished game and no `new`, `force` or `go` since: engines differ
    /// on the side they play then (Sjaak II 1.4.1 stays idle through later `setboard`s and
    /// moves; Fairy-Stockfish plays on), so no move is expected and a legal one is taken.
    side_unknown: bool,
    usermove: bool,
    ping: u64,
    /// The engine is expected to move (after go, or a GUI move on its turn).
    expect_move: bool,
    /// The GUI's last move or setboard: its text, and whether the model played it.
    /// The GUI's last move or setboard: its text, whether the model played it, and whether
    /// it went with the wrong `usermove` prefix (one the engine did not ask for).
    last_gui: Option<(String, bool, bool)>,
    /// A rejection (`Illegal move` / `Error`) of `last_gui` was seen.
    rejected: bool,
}

impl Run<'_> {
    fn xboard_session(&mut self, deadline: Instant) -> Res<()> {
        self.send("xboard", b"xboard")?;
        self.send("protover", b"protover 2")?;
        let mut xb = Xb {
            board: Some(Chess::default()),
            certain: true,
            history: Vec::new(),
            force: false,
            engine_side: Color::Black,
            side_unknown: false,
            usermove: false,
            ping: 1000,
            expect_move: false,
            last_gui: None,
            rejected: false,
        };
        let until = Instant::now() + self.args.bound;
        let mut done = false;
        while !done {
            let left = until.saturating_duration_since(Instant::now());
            let Some(line) = self.recv(left)? else {
                if Instant::now() >= until {
                    return broke("no `feature ... done=1`");
                }
                continue;
            };
            let text = String::from_utf8_lossy(&line).into_owned();
            if let Some(features) = text.strip_prefix("feature ") {
                for (name, value) in parse_features(features) {
                    if name == "usermove" {
                        xb.usermove = value == "1";
                    }
                    if name == "done" {
                        done = value == "1";
                    }
                    if name != "option" {
                        let reply = if name == "san" {
                            "rejected"
                        } else {
                            "accepted"
                        };
                        self.send("accepted", format!("{reply} {name}").as_bytes())?;
                    }
                }
            }
        }
        self.answer("feature done=1");
        self.xb_new(&mut xb)?;
        self.xb_sync(&mut xb)?;
        while Instant::now() < deadline && self.args.commands.is_none_or(|n| self.index < n) {
            self.xb_step(&mut xb)?;
        }
        self.xb_wait_move(&mut xb)?;
        self.xb_sync(&mut xb)?;
        self.finish(b"quit")
    }

    fn xb_new(&mut self, xb: &mut Xb) -> Res<()> {
        xb.board = Some(Chess::default());
        xb.certain = true;
        xb.history.clear();
        xb.force = false;
        xb.engine_side = Color::Black;
        xb.side_unknown = false;
        xb.expect_move = false;
        xb.last_gui = None;
        self.send("new", b"new")?;
        // A short search, so that games move on (`new` clears `sd`; the time controls
        // with bad values come from `xb_time`).
        {
            let depth = self.rng.random_range(1..5).to_string();
            self.send("sd good", format!("sd {depth}").as_bytes())?;
        }
        if self.rng.random_bool(0.4) {
            // A Chess960 game as GUIs set it up.
            self.send("variant", b"variant fischerandom")?;
            self.send("force", b"force")?;
            xb.force = true;
            xb.side_unknown = false;
            let (_, start) = random_start(&mut self.rng);
            let line = format!("setboard {}", fen_of(&mut self.rng, &start));
            xb.board = Some(start);
            xb.last_gui = Some((line.clone(), true, false));
            xb.rejected = false;
            self.send("setboard valid", line.as_bytes())?;
            self.xb_sync(xb)?;
            self.xb_check_setboard(xb, true);
        }
        Ok(())
    }

    /// After a setboard and a sync: compares the proxy's verdict with the model's.
    fn xb_check_setboard(&mut self, xb: &mut Xb, model_accepts: bool) {
        match (model_accepts, xb.rejected) {
            (true, true) => {
                self.note("model disagreement (setboard refused by the proxy)");
                xb.board = None;
            }
            (false, false) => {
                self.note("model disagreement (setboard accepted by the proxy)");
                xb.certain = false;
            }
            _ => {}
        }
        xb.last_gui = None;
        xb.rejected = false;
    }

    /// `ping N`, then every line until `pong N` (within the bound).
    fn xb_sync(&mut self, xb: &mut Xb) -> Res<()> {
        xb.ping += 1;
        let n = xb.ping;
        self.send("ping", format!("ping {n}").as_bytes())?;
        let want = format!("pong {n}");
        let until = Instant::now() + self.args.bound;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return broke(format!("no `{want}` within {:?}", self.args.bound));
            }
            if let Some(line) = self.recv(left)? {
                if line == want.as_bytes() {
                    self.answer("pong");
                    return Ok(());
                }
                self.xb_line(xb, &line)?;
            }
        }
    }

    /// Waits (within the bound) for the engine's move if one is expected.
    fn xb_wait_move(&mut self, xb: &mut Xb) -> Res<()> {
        let until = Instant::now() + self.args.bound;
        let mut nudged = false;
        while xb.expect_move {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return broke(format!(
                    "no move from the engine within {:?}",
                    self.args.bound
                ));
            }
            if !nudged && self.rng.random_bool(0.05) {
                nudged = true;
                self.send("?", b"?")?;
            }
            if let Some(line) = self.recv(left)? {
                self.xb_line(xb, &line)?;
            }
        }
        Ok(())
    }

    fn drain_xb(&mut self, xb: &mut Xb) -> Res<()> {
        while let Some(line) = self.recv(Duration::ZERO)? {
            self.xb_line(xb, &line)?;
        }
        Ok(())
    }

    fn xb_step(&mut self, xb: &mut Xb) -> Res<()> {
        self.drain_xb(xb)?;
        let mut roll = self.rng.random_range(0..100);
        if self.args.good_only && ((77..=81).contains(&roll) || roll >= 91) {
            roll = 19; // no bad ping, no garbage: a move instead
        }
        if !xb.certain && self.rng.random_bool(0.5) {
            roll = 0; // the model lost track of the engine's board: a new game
        }
        match roll {
            0..=6 => {
                self.xb_new(xb)?;
                self.xb_sync(xb)
            }
            7..=18 => self.xb_setboard(xb),
            19..=50 => self.xb_move(xb),
            51..=60 => self.xb_go(xb),
            61..=64 => {
                xb.force = true;
                xb.side_unknown = false;
                self.send("force", b"force")
            }
            65..=76 => self.xb_time(xb),
            77..=81 => {
                let rng = &mut self.rng;
                let line = [
                    "ping".to_owned(),
                    "ping abc".to_owned(),
                    "ping -1".to_owned(),
                    format!("ping {}", BIG[rng.random_range(0..BIG.len())]),
                    "ping 1 2".to_owned(),
                ][rng.random_range(0..5)]
                .clone();
                self.send("ping bad", line.as_bytes())?;
                self.xb_sync(xb)
            }
            82..=85 => self.xb_undo(xb),
            86..=87 => self.send("?", b"?"),
            88..=90 => {
                let line = [
                    "post",
                    "nopost",
                    "hard",
                    "easy",
                    "random",
                    "computer",
                    "name Hostile",
                    "rating 2000 2000",
                    "cores 1",
                    "memory 16",
                ][self.rng.random_range(0..10)];
                self.send("other", line.as_bytes())
            }
            _ => {
                let line = garbage_line(&mut self.rng);
                let text = String::from_utf8_lossy(&line).into_owned();
                let first = text.split_ascii_whitespace().next().unwrap_or("");
                let known = [
                    "new",
                    "variant",
                    "setboard",
                    "go",
                    "force",
                    "quit",
                    "usermove",
                    "undo",
                    "remove",
                    "ping",
                    "edit",
                    "playother",
                    "white",
                    "black",
                    "result",
                    "level",
                    "st",
                    "sd",
                    "time",
                    "otim",
                    "xboard",
                    "protover",
                    "analyze",
                    "exit",
                    "?",
                    "draw",
                    "pause",
                    "resume",
                    "accepted",
                    "rejected",
                    "bk",
                    "hint",
                    "option",
                    "include",
                    "exclude",
                    "setscore",
                    "lift",
                    "put",
                    "hover",
                    "nps",
                    "memory",
                    "cores",
                    "egtpath",
                    "ics",
                    "name",
                    "rating",
                    "computer",
                    "random",
                    "hard",
                    "easy",
                    "post",
                    "nopost",
                    "book",
                ];
                let movelike = UciMove::from_ascii(first.as_bytes()).is_ok()
                    || San::from_ascii(first.trim_end_matches(['+', '#']).as_bytes()).is_ok()
                    || first.starts_with("O-")
                    || first.starts_with("0-")
                    || first.starts_with("o-");
                if known.contains(&first) || movelike {
                    return Ok(());
                }
                self.send("garbage", &line)
            }
        }
    }

    fn xb_setboard(&mut self, xb: &mut Xb) -> Res<()> {
        if self.rng.random_bool(0.9) && !xb.force {
            xb.force = true;
            xb.side_unknown = false;
            self.send("force", b"force")?;
        }
        let rng = &mut self.rng;
        let mut pick = rng.random_range(0..10);
        if self.args.good_only {
            pick %= 4;
        }
        let (label, line) = match pick {
            0..=3 => {
                let (_, start) = random_start(rng);
                let (mid, _) = random_game(rng, &start, 60);
                ("setboard valid", format!("setboard {}", fen_of(rng, &mid)))
            }
            4..=8 => {
                let (_, start) = random_start(rng);
                let (mid, _) = random_game(rng, &start, 40);
                let fen = fen_of(rng, &mid);
                (
                    "setboard mutated",
                    format!("setboard {}", mutate_fen(rng, &fen)),
                )
            }
            _ => {
                let garbage = [
                    "setboard".to_owned(),
                    "setboard garbage".to_owned(),
                    format!("setboard {}", random_token(rng)),
                    "setboard 8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
                ];
                (
                    "setboard garbage",
                    garbage[rng.random_range(0..garbage.len())].clone(),
                )
            }
        };
        let fen = line.strip_prefix("setboard").unwrap_or("").trim();
        let model = model_fen(fen);
        let accepts = model.is_some();
        xb.board = model;
        xb.history.clear();
        xb.certain = true;
        xb.expect_move = false;
        xb.last_gui = Some((line.clone(), accepts, false));
        xb.rejected = false;
        self.send(label, line.as_bytes())?;
        self.xb_sync(xb)?;
        self.xb_check_setboard(xb, accepts);
        Ok(())
    }

    fn xb_move(&mut self, xb: &mut Xb) -> Res<()> {
        let rng = &mut self.rng;
        let board = xb.board.clone();
        let legal = board
            .as_ref()
            .and_then(|b| random_move(rng, b).map(|m| (b.clone(), m)));
        if legal.is_none() && self.args.good_only {
            // No legal move to make (game over, or no position): nothing well-formed to send.
            return Ok(());
        }
        let text = match legal {
            Some((b, m)) if rng.random_bool(0.75) || self.args.good_only => match m {
                Move::Castle { .. } => {
                    let (kxr, dest) = castle_texts(m, b.turn());
                    let oo = if m.castling_side() == Some(CastlingSide::KingSide) {
                        "O-O"
                    } else {
                        "O-O-O"
                    };
                    // SAN (`O-O` aside) only for engines that asked for it (san=1, which
                    // this GUI rejects): a bad input.
                    let forms = if self.args.good_only { 3 } else { 4 };
                    [kxr, dest, oo.to_owned(), San::from_move(&b, m).to_string()]
                        [rng.random_range(0..forms)]
                    .clone()
                }
                _ if rng.random_bool(0.2) && !self.args.good_only => {
                    San::from_move(&b, m).to_string()
                }
                _ => UciMove::from_move(m, CastlingMode::Chess960).to_string(),
            },
            _ => bad_move(rng, board.as_ref()),
        };
        let flipped = rng.random_bool(0.05) && !self.args.good_only;
        let prefixed = if xb.usermove != flipped {
            format!("usermove {text}")
        } else {
            text.clone()
        };
        // The model: as the proxy reads it.
        let played = match (&xb.board, xb.certain) {
            (Some(b), true) => model_xboard_move(b, &text).map(|m| (b.clone(), m)),
            _ => None,
        };
        if let Some((b, m)) = &played {
            xb.history.push(b.clone());
            let mut next = b.clone();
            next.play_unchecked(*m);
            if !xb.force
                && !xb.side_unknown
                && next.turn() == xb.engine_side
                && !next.legal_moves().is_empty()
            {
                xb.expect_move = true;
            }
            xb.board = Some(next);
        }
        xb.last_gui = Some((text.clone(), played.is_some(), flipped));
        xb.rejected = false;
        let kind = if played.is_some() {
            "move legal"
        } else {
            "move illegal"
        };
        if xb.expect_move {
            self.xb_clock()?;
        }
        self.send(kind, prefixed.as_bytes())?;
        self.xb_sync(xb)?;
        if played.is_none() && !xb.rejected && xb.certain && xb.board.is_some() {
            self.note("model disagreement (move the model refuses passed)");
            xb.certain = false;
        }
        xb.last_gui = None;
        self.xb_wait_move(xb)
    }

    fn xb_go(&mut self, xb: &mut Xb) -> Res<()> {
        // After a refused setboard the proxy refuses `go` too: the engine stays as it was.
        if xb.board.is_some() || !xb.certain {
            xb.force = false;
        }
        if let Some(b) = &xb.board {
            xb.engine_side = b.turn();
            xb.expect_move = xb.certain && !b.legal_moves().is_empty();
            // Seed 2026 (Sjaak II), command 6,257: a `go` in a finished game.
            xb.side_unknown = xb.certain && b.legal_moves().is_empty();
        }
        if xb.expect_move {
            self.xb_clock()?;
        }
        self.send("go", b"go")?;
        self.xb_wait_move(xb)?;
        self.xb_sync(xb)
    }

    /// `time` and `otim` (1-10 s), as XBoard sends them before each move the engine is to
    /// think on. Without them Sjaak II 1.4.1 is bounded by nothing in some legal positions:
    /// `sd 1` does not end its search (786,476 nodes at depth 1 in
    /// `RNBQKB1R/pp1ppppp/2n5/2p3N1/8/7P/PPPPPPP1/r1bqkbnr b - - 3 3`, the back ranks
    /// swapped), and on the level's clock alone it took 4-8 s there, past the bound on a
    /// loaded machine (seed 4242, command 4,588); with `time 100` it moves in 0.8 s.
    fn xb_clock(&mut self) -> Res<()> {
        for key in ["time", "otim"] {
            let centiseconds = self.rng.random_range(100..1000);
            self.send("clock", format!("{key} {centiseconds}").as_bytes())?;
        }
        Ok(())
    }

    fn xb_undo(&mut self, xb: &mut Xb) -> Res<()> {
        let remove = self.rng.random_bool(0.4);
        let plies = if remove { 2 } else { 1 };
        // Past the position set up, or `undo` outside force mode, the proxy refuses it and
        // nothing changes. `remove` outside force mode: the engine plays on after the GUI's
        // next move.
        if xb.history.len() >= plies && (xb.force || remove) {
            let keep = xb.history.len() - plies;
            xb.board = Some(xb.history[keep].clone());
            xb.history.truncate(keep);
        }
        self.send(
            if remove { "remove" } else { "undo" },
            if remove { b"remove" } else { b"undo" },
        )?;
        self.xb_sync(xb)
    }

    fn xb_time(&mut self, _xb: &mut Xb) -> Res<()> {
        let rng = &mut self.rng;
        let good = rng.random_bool(0.6) || self.args.good_only;
        let mut lines = Vec::new();
        match rng.random_range(0..5) {
            0 => lines.push(if good {
                format!("sd {}", rng.random_range(1..5))
            } else {
                format!("sd {}", bad_number(rng))
            }),
            1 => lines.push(if good {
                "st 1".to_owned()
            } else {
                format!("st {}", bad_number(rng))
            }),
            2 => lines.push(if good {
                format!("level 40 0:{:02} 0", rng.random_range(5..30))
            } else {
                format!(
                    "level {} {} {}",
                    bad_number(rng),
                    [bad_number(rng), "0:-30".into(), "1:xx".into()][rng.random_range(0..3)],
                    bad_number(rng)
                )
            }),
            _ => {
                for key in ["time", "otim"] {
                    lines.push(if good {
                        format!("{key} {}", rng.random_range(100..1000))
                    } else {
                        format!("{key} {}", bad_number(rng))
                    });
                }
            }
        }
        let kind = if good {
            "time control good"
        } else {
            "time control bad"
        };
        for line in lines {
            self.send(kind, line.as_bytes())?;
        }
        Ok(())
    }

    /// Handles one line from the proxy in the XBoard session.
    fn xb_line(&mut self, xb: &mut Xb, line: &[u8]) -> Res<()> {
        let text = String::from_utf8_lossy(line).into_owned();
        if let Some(mv) = text.strip_prefix("move ") {
            self.answer("move");
            let mv = mv.trim();
            let Some(board) = xb.board.clone() else {
                if xb.certain {
                    return broke(format!("`{text}` from the engine after a refused setboard"));
                }
                xb.expect_move = false;
                return Ok(());
            };
            if !xb.certain {
                xb.expect_move = false;
                self.note("engine move not checked (model unsure)");
                return Ok(());
            }
            if xb.side_unknown {
                // The engine plays on: its side is the side it moved.
                xb.side_unknown = false;
                xb.engine_side = board.turn();
            } else if !xb.expect_move && (xb.force || board.turn() != xb.engine_side) {
                return broke(format!(
                    "`{text}`: the engine moved when it was not its turn"
                ));
            }
            let Some(m) = model_xboard_move(&board, mv) else {
                return broke(format!(
                    "`{text}` is not legal in {}",
                    Fen::from_position(&board, EnPassantMode::Legal)
                ));
            };
            if m.is_castle() {
                self.note("engine castles");
            }
            xb.history.push(board.clone());
            let mut next = board;
            next.play_unchecked(m);
            xb.board = Some(next);
            xb.expect_move = false;
        } else if text.starts_with("Illegal move") || text.starts_with("Error") {
            self.answer(if text.starts_with("Illegal") {
                "Illegal move"
            } else {
                "Error"
            });
            // The GUI's last move or setboard was refused (by the proxy or the engine): take
            // it back in the model if the model had played it.
            // The proxy may have rewritten the move (castling, SAN): a rejected text that
            // reads as a coordinate move answers the GUI's last move too.
            let rejected_move = text.rsplit_once(": ").is_some_and(|(_, cmd)| {
                UciMove::from_ascii(cmd.trim().trim_start_matches("usermove ").as_bytes()).is_ok()
            });
            if let Some((sent, played, flipped)) = xb.last_gui.clone()
                // The whole rejected command, not a part of it: a late `Error (unkown
                // command): b@Phb3R11kb` is not the rejection of the move `b3` sent after it
                // (seed 4510493039633239355, command 10,468).
                && (text.ends_with(&format!(": {sent}"))
                    || text.ends_with(&format!(" {sent}"))
                    || (rejected_move && !sent.starts_with("setboard")))
            {
                xb.rejected = true;
                if played && !sent.starts_with("setboard") {
                    // With a `usermove` prefix the engine did not ask for, the engine refuses
                    // the line (and the proxy takes the move back): expected.
                    self.note(if flipped {
                        "move refused: usermove prefix the engine did not ask for"
                    } else {
                        "model disagreement (move the model plays was refused)"
                    });
                    if self.args.verbose && !flipped {
                        let before = xb
                            .history
                            .last()
                            .map(|b| Fen::from_position(b, EnPassantMode::Legal).to_string());
                        eprintln!(
                            "hostile_gui: model disagreement: `{text}` refuses `{sent}`, legal in the model's {before:?}"
                        );
                    }
                    if let Some(previous) = xb.history.pop() {
                        xb.board = Some(previous);
                    }
                    xb.expect_move = false;
                }
                xb.last_gui = None;
            } else if text.contains(": go") || text.ends_with(" go") {
                xb.expect_move = false;
            }
        } else if text.starts_with("1-0")
            || text.starts_with("0-1")
            || text.starts_with("1/2-1/2")
            || text.starts_with("resign")
        {
            self.answer("result");
            xb.expect_move = false;
        } else if text.starts_with("tellusererror") || text.starts_with("telluser") {
            self.answer("telluser");
        } else if text.starts_with("pong") {
            self.note("pong for a ping variant");
        }
        Ok(())
    }
}

fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_owned();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            (
                quoted[..end].to_owned(),
                quoted.get(end + 1..).unwrap_or(""),
            )
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_owned(), &after[end..])
        };
        out.push((name, value));
        rest = next.trim_start();
    }
    out
}

/// A violation without its particulars (numbers, moves), to count kinds. A `go` is
/// reduced to its keywords and the class of each value (0, -N, N, HUGE, MOVE, JUNK).
fn violation_kind(what: &str) -> String {
    if let Some(at) = what.find("`go")
        && let Some(len) = what[at + 1..].find('`')
    {
        let go = &what[at + 1..at + 1 + len];
        let mut classes: Vec<String> = Vec::new();
        for token in go.split_ascii_whitespace() {
            let class = if token == "go" || GO_WORDS.contains(&token) {
                token.to_owned()
            } else if let Ok(n) = token.parse::<i128>() {
                match n {
                    0 => "0".into(),
                    n if n < 0 => "-N".into(),
                    n if n > i64::from(i32::MAX) as i128 => "HUGE".into(),
                    _ => "N".into(),
                }
            } else if token.len() >= 4
                && token.as_bytes()[0].is_ascii_lowercase()
                && token.as_bytes()[1].is_ascii_digit()
            {
                "MOVE".into()
            } else {
                "JUNK".into()
            };
            if classes.last() != Some(&class) || !matches!(class.as_str(), "MOVE" | "JUNK") {
                classes.push(class);
            }
        }
        let rest = &what[at + 2 + len..];
        return format!(
            "{}`{}`{}",
            &what[..at],
            classes.join(" "),
            rest.replace(|c: char| c.is_ascii_digit(), "")
        );
    }
    let mut out = String::new();
    let mut last_digit = false;
    for c in what.chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(c);
            last_digit = false;
        }
    }
    if let Some(at) = out
        .find(" is not legal in ")
        .or_else(|| out.find(" is not a legal move in"))
    {
        out.truncate(at + 16);
    }
    out.chars().take(90).collect()
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    println!(
        "hostile_gui: seed {} engine {:?} protocol {} proxy {} for {}s",
        args.seed,
        args.engine.join(" "),
        if args.xboard { "xboard" } else { "uci" },
        args.proxy.display(),
        args.seconds
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(args.seconds);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut counts = Counts::default();
    let mut index = 0;
    let mut violations = 0u64;
    let mut kinds: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut sessions = 0u64;
    loop {
        let proxy = match Proxy::start(&args) {
            Ok(proxy) => proxy,
            Err(message) => {
                eprintln!("hostile_gui: {message}");
                let _ = std::fs::remove_dir_all(&args.scratch);
                return ExitCode::from(2);
            }
        };
        sessions += 1;
        let mut run = Run {
            args: &args,
            rng,
            proxy,
            index,
            sent: VecDeque::new(),
            received: VecDeque::new(),
            counts,
            quit_sent: false,
        };
        let result = if args.xboard {
            run.xboard_session(deadline)
        } else {
            run.uci_session(deadline)
        };
        let failed = match result {
            Ok(()) => false,
            Err(violation) => {
                run.report(&violation);
                violations += 1;
                let entry = kinds
                    .entry(violation_kind(&violation.what))
                    .or_insert((0, run.index));
                entry.0 += 1;
                true
            }
        };
        run.proxy.kill();
        rng = run.rng;
        counts = run.counts;
        index = run.index;
        let more = Instant::now() < deadline && args.commands.is_none_or(|n| index < n);
        if !(failed && args.keep_going && more) {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&args.scratch);
    let elapsed = started.elapsed().as_secs_f64();
    let total: u64 = counts.sent.values().sum();
    println!(
        "hostile_gui: {total} commands in {elapsed:.1}s ({:.0}/s), {sessions} proxy session(s), seed {}",
        total as f64 / elapsed.max(1e-9),
        args.seed
    );
    let join = |map: &BTreeMap<String, u64>| {
        map.iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("  sent: {}", join(&counts.sent));
    println!("  answers: {}", join(&counts.answers));
    if !counts.notes.is_empty() {
        println!("  notes: {}", join(&counts.notes));
    }
    if violations > 0 {
        println!(
            "hostile_gui: {violations} broken invariant(s), seed {}:",
            args.seed
        );
        for (kind, (count, first)) in &kinds {
            println!("  {count} x {kind} (first at command #{first})");
        }
        ExitCode::from(1)
    } else {
        println!("hostile_gui: no broken invariant");
        ExitCode::SUCCESS
    }
}
