//! `sp960 validate` on real Chess960 game files from several producers (TCEC's archive,
//! cutechess-cli, fastchess, `sp960 match`, lichess and a DGT board; fixtures/games/corpus/,
//! whose README says where each came from), held against python-chess 1.11.2 reading the
//! same files (tests/python/games_oracle.py: `chess.pgn.read_game`, the board from the game's
//! FEN with `chess960=True`, the mainline replayed):
//! - every game replays in both, with the same number of mainline plies and the same final
//!   position (sp960's JSON `final`, python-chess's Shredder FEN);
//! - with `--start-positions`, sp960's start (`SP n` or `W:B`) is the one python-chess's board
//!   gives (`chess960_pos()`, or each side's rank for a double-FRC pair), and a game whose
//!   FEN is no untouched start (TCEC's no-castling bonus) is refused by sp960 and has no
//!   number in python-chess;
//! - defects planted in copies of the files at run time (an illegal move, a castling through
//!   an attacked square, a deleted FEN tag, an unknown Variant, a wrong result) are each
//!   reported by sp960 at the line and column where they were planted, and the games around
//!   them still agree.
//!
//! The copies are planted with the test's own small reader (not sp960's): games cut at tag
//! lines, the mainline's tokens found by skipping comments, NAGs and variations, and played
//! with shakmaty to pick each defect.

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{CastlingSide, Chess, Position, Role, Square};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/games/corpus")
}

/// The sample files, sorted.
fn samples() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

/// python-chess's reading of each game (tests/python/games_oracle.py).
fn oracle(path: &Path) -> Vec<Value> {
    peers::python_json_lines("games_oracle.py", path)
}

/// sp960's object per game, and its summary.
fn sp960(path: &Path, start_positions: bool) -> (Vec<Value>, Value) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sp960"));
    command.args(["validate", "--format", "json"]);
    if start_positions {
        command.arg("--start-positions");
    }
    let output = command.arg(path).output().expect("sp960 runs");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "sp960 validate {}: {output:?}",
        path.display()
    );
    let mut games: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let summary = games.pop().expect("a summary");
    assert!(summary.get("summary").is_some(), "{summary}");
    (games, summary["summary"].clone())
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn every_sample_game_replays_as_python_chess_replays_it() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let files = samples();
    assert!(files.len() >= 4, "samples: {files:?}");
    let mut disagreements = Vec::new();
    let (mut total_games, mut total_plies, mut not_starts) = (0, 0, 0);
    for path in &files {
        let file = name(path);
        let python = oracle(path);
        let (plain, summary) = sp960(path, false);
        let (starts, _) = sp960(path, true);
        assert_eq!(python.len(), plain.len(), "{file}: games read");
        assert_eq!(plain.len(), starts.len(), "{file}");
        assert!(!python.is_empty(), "{file}: no game");
        assert_eq!(summary["games"], plain.len(), "{file}: {summary}");
        let mut plies = 0;
        for ((py, ours), started) in python.iter().zip(&plain).zip(&starts) {
            let mut differ = |what: &str| {
                disagreements.push(format!(
                    "{file}: game at line {}: {what}\n  python-chess {py}\n  sp960 {ours}\n  sp960 --start-positions {started}",
                    ours["line"]
                ))
            };
            if py["line"] != ours["line"] {
                differ("not the same game (first line)");
                continue;
            }
            if py["ok"] != true || ours["valid"] != true {
                differ("does not replay in both");
                continue;
            }
            if py["plies"] != ours["plies"] {
                differ("mainline plies differ");
            }
            if py["final"] != ours["final"] {
                differ("final positions differ");
            }
            plies += ours["plies"].as_u64().unwrap();
            match py["start"].as_str() {
                Some(start) => {
                    if started["valid"] != true || started["start"] != start {
                        differ("start numbers differ");
                    }
                }
                None => {
                    not_starts += 1;
                    let refused = started["valid"] == false
                        && started["findings"][0]["message"]
                            .as_str()
                            .is_some_and(|m| m.contains("not an untouched Chess960 start"));
                    if !refused {
                        differ("python-chess sees no start; sp960 --start-positions does");
                    }
                }
            }
        }
        eprintln!("{file}: {} games, {plies} mainline plies", plain.len());
        total_games += plain.len();
        total_plies += plies;
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    eprintln!(
        "{} files, {total_games} games, {total_plies} plies: all agree \
         ({not_starts} games from a position that is no start)",
        files.len()
    );
    assert!(total_games >= 200, "{total_games} games");
}

// ---- the test's own reader, to plant defects ----

/// One game of a file: its tags and its mainline's tokens.
struct Game {
    /// Name, value, the line's byte range, and the value's first byte.
    tags: Vec<(String, String, std::ops::Range<usize>, usize)>,
    /// Each mainline move's SAN as written (suffixes included) and its first byte.
    moves: Vec<(String, usize)>,
    /// The termination marker and its first byte.
    marker: Option<(String, usize)>,
}

impl Game {
    fn tag(&self, name: &str) -> Option<&(String, String, std::ops::Range<usize>, usize)> {
        self.tags.iter().find(|t| t.0 == name)
    }

    /// Its start, as the FEN tag gives it, or the standard start.
    fn start(&self) -> Chess {
        match self.tag("FEN") {
            Some((_, fen, _, _)) => fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Chess960)
                .unwrap(),
            None => Chess::default(),
        }
    }

    /// Each mainline position before a move, with the move's token and first byte; up to
    /// the first token that does not replay.
    fn positions(&self, mut position: Chess) -> Vec<(Chess, &str, usize)> {
        let mut out = Vec::new();
        for (token, at) in &self.moves {
            let Ok(san) = SanPlus::from_ascii(token.as_bytes()) else {
                break;
            };
            let Ok(m) = san.san.to_move(&position) else {
                out.push((position, token.as_str(), *at));
                break;
            };
            out.push((position.clone(), token.as_str(), *at));
            position.play_unchecked(m);
        }
        out
    }
}

/// The games of `text`: a game begins at a line whose first non-blank byte is `[` after a
/// line of movetext.
fn games(text: &str) -> Vec<Game> {
    let mut starts = vec![0];
    let mut after_movetext = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        match line.trim_start().as_bytes().first() {
            None => {}
            Some(b'[') if after_movetext => {
                starts.push(offset);
                after_movetext = false;
            }
            Some(b'[') => {}
            Some(_) => after_movetext = true,
        }
        offset += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .filter(|w| w[0] < w[1])
        .map(|w| read_game(text, w[0]..w[1]))
        .collect()
}

fn read_game(text: &str, range: std::ops::Range<usize>) -> Game {
    let mut tags = Vec::new();
    let mut at = range.start;
    // Tag lines (and blank lines between them).
    for line in text[range.clone()].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            let body = trimmed.trim_end();
            let space = body.find(' ').unwrap();
            let open = body.find('"').unwrap();
            let close = body.rfind('"').unwrap();
            let lead = line.len() - trimmed.len();
            tags.push((
                body[1..space].to_owned(),
                body[open + 1..close].to_owned(),
                at..at + line.len(),
                at + lead + open + 1,
            ));
        } else if !trimmed.is_empty() {
            break;
        }
        at += line.len();
    }
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut marker = None;
    let mut depth = 0;
    let mut i = at;
    while i < range.end {
        let b = bytes[i];
        let line_start = i == 0 || bytes[i - 1] == b'\n';
        match b {
            _ if b.is_ascii_whitespace() => i += 1,
            b'{' => i += text[i..].find('}').map_or(range.end - i, |n| n + 1),
            b';' => i += text[i..].find('\n').unwrap_or(range.end - i),
            b'%' if line_start => i += text[i..].find('\n').unwrap_or(range.end - i),
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth -= 1;
                i += 1;
            }
            _ => {
                let end = text[i..range.end]
                    .find(|c: char| c.is_ascii_whitespace() || "{}();".contains(c))
                    .map_or(range.end, |n| i + n);
                let token = &text[i..end];
                // A move number, alone or glued to its move.
                let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                let dots = token[digits..].bytes().take_while(|b| *b == b'.').count();
                let (token, start) = if digits > 0 && dots > 0 {
                    (&token[digits + dots..], i + digits + dots)
                } else {
                    (token, i)
                };
                if depth == 0 && !token.is_empty() && !token.starts_with('$') {
                    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                        marker = Some((token.to_owned(), start));
                    } else {
                        moves.push((token.to_owned(), start));
                    }
                }
                i = end;
            }
        }
    }
    Game {
        tags,
        moves,
        marker,
    }
}

/// Line and byte column (1-based) of `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (line as u64, column as u64)
}

/// What a planted defect must give: the finding's kind, severity and a word of its
/// message, at a byte of the planted copy; `python_refuses`: python-chess must report an
/// error in that game too.
struct Expected {
    defect: &'static str,
    game: usize,
    offset: usize,
    kind: &'static str,
    severity: &'static str,
    says: String,
    /// The game stays valid (a warning).
    valid: bool,
    python_refuses: bool,
    /// A second finding (the error after a deleted FEN): kind and byte.
    then: Option<(&'static str, usize)>,
}

/// An edit: replace `range` by `with`.
struct Edit {
    range: std::ops::Range<usize>,
    with: String,
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// A piece move of the side to move that is illegal here (to an empty square; the side
/// has such a piece): its SAN and the piece's name.
fn illegal_move(position: &Chess) -> Option<(String, Role)> {
    let board = position.board();
    let ours = board.by_color(position.turn());
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        if (board.by_role(role) & ours).is_empty() {
            continue;
        }
        for to in Square::ALL {
            if board.occupied().contains(to) {
                continue;
            }
            let san = San::Normal {
                role,
                file: None,
                rank: None,
                capture: false,
                to,
                promotion: None,
            };
            if let Err(SanError::IllegalSan) = san.to_move(position) {
                return Some((san.to_string(), role));
            }
        }
    }
    None
}

/// The castling that is illegal here only because the king would cross or land on an
/// attacked square: the side has the right, nothing stands between, the side is not in
/// check.
fn castling_through_attack(position: &Chess) -> Option<CastlingSide> {
    let turn = position.turn();
    if position.is_check() {
        return None;
    }
    let king = position.board().king_of(turn)?;
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .find(|&side| {
            let Some(rook) = position.castles().rook(turn, side) else {
                return false;
            };
            let path = position.castles().path(turn, side);
            let clear = (path & position.board().occupied())
                .without(king)
                .without(rook)
                .is_empty();
            let to = side.king_to(turn);
            let occupied = position.board().occupied().without(king).without(rook);
            let attacked = (shakmaty::attacks::between(king, to).with(to))
                .into_iter()
                .any(|sq| {
                    position
                        .board()
                        .attacks_to(sq, turn.other(), occupied)
                        .any()
                });
            clear && attacked && San::Castle(side).to_move(position).is_err()
        })
}

/// Plants the defects in distinct games of `text`: the edits and what each must give
/// (offsets in the original text; [`apply`] moves them).
fn plant(text: &str) -> (Vec<Edit>, Vec<Expected>) {
    let games = games(text);
    let mut used = vec![false; games.len()];
    let mut edits = Vec::new();
    let mut expected = Vec::new();
    let chess960 = |game: &Game| {
        game.tag("Variant").is_some_and(|v| {
            let key: String = v.1.chars().filter(char::is_ascii_alphanumeric).collect();
            ["chess960", "fischerandom"].contains(&key.to_ascii_lowercase().as_str())
        })
    };

    // An illegal move, halfway through a game's mainline.
    if let Some((index, game)) = games
        .iter()
        .enumerate()
        .find(|(i, g)| !used[*i] && g.moves.len() >= 8)
    {
        let positions = game.positions(game.start());
        let (position, token, at) = &positions[(positions.len() / 2).min(30)];
        if let Some((san, role)) = illegal_move(position) {
            used[index] = true;
            edits.push(Edit {
                range: *at..*at + token.len(),
                with: san.clone(),
            });
            let to = &san[san.len() - 2..];
            expected.push(Expected {
                defect: "an illegal move",
                game: index,
                offset: *at,
                kind: "IllegalMove",
                severity: "error",
                says: format!("no {} can go to {to}", role_name(role)),
                valid: false,
                python_refuses: true,
                then: None,
            });
        }
    }

    // A castling through an attacked square, instead of a mainline move.
    'castling: for (index, game) in games.iter().enumerate() {
        if used[index] {
            continue;
        }
        for (position, token, at) in game.positions(game.start()) {
            if let Some(side) = castling_through_attack(&position) {
                used[index] = true;
                let san = match side {
                    CastlingSide::KingSide => "O-O",
                    CastlingSide::QueenSide => "O-O-O",
                };
                edits.push(Edit {
                    range: at..at + token.len(),
                    with: san.to_owned(),
                });
                expected.push(Expected {
                    defect: "a castling through an attacked square",
                    game: index,
                    offset: at,
                    kind: "IllegalMove",
                    severity: "error",
                    says: "the king would pass through or land on an attacked square".to_owned(),
                    valid: false,
                    python_refuses: true,
                    then: None,
                });
                break 'castling;
            }
        }
    }

    // A deleted FEN tag, in a Chess960 game whose start is not SP 518: sp960 warns at the
    // Variant tag and replays from SP 518, and the first move that does not replay there is
    // the error.
    if let Some((index, game)) = games.iter().enumerate().find(|(i, g)| {
        !used[*i]
            && chess960(g)
            && g.tag("FEN").is_some_and(|f| !f.1.starts_with("rnbqkbnr/"))
            && g.moves.len() >= 2
    }) {
        used[index] = true;
        let fen = game.tag("FEN").unwrap();
        let variant = game.tag("Variant").unwrap();
        edits.push(Edit {
            range: fen.2.clone(),
            with: String::new(),
        });
        let replayed = game.positions(Chess::default());
        let failing = replayed
            .last()
            .filter(|(position, token, _)| {
                SanPlus::from_ascii(token.as_bytes())
                    .is_ok_and(|san| san.san.to_move(position).is_err())
            })
            .map(|(_, _, at)| *at);
        expected.push(Expected {
            defect: "a deleted FEN tag",
            game: index,
            offset: variant.3,
            kind: "NoFen",
            severity: "warning",
            says: "without a FEN tag".to_owned(),
            valid: failing.is_none(),
            python_refuses: failing.is_some(),
            then: failing.map(|at| ("IllegalMove", at)),
        });
    }

    // An unknown Variant.
    if let Some((index, game)) = games
        .iter()
        .enumerate()
        .find(|(i, g)| !used[*i] && g.tag("Variant").is_some())
    {
        used[index] = true;
        let variant = game.tag("Variant").unwrap();
        edits.push(Edit {
            range: variant.3..variant.3 + variant.1.len(),
            with: "Crazyhouse".to_owned(),
        });
        expected.push(Expected {
            defect: "an unknown Variant",
            game: index,
            offset: variant.3,
            kind: "UnknownVariant",
            severity: "error",
            says: "unknown Variant `Crazyhouse`".to_owned(),
            valid: false,
            python_refuses: false,
            then: None,
        });
    }

    // A wrong result: the termination marker changed, against the Result tag.
    if let Some((index, game)) = games.iter().enumerate().find(|(i, g)| {
        !used[*i]
            && g.marker.as_ref().is_some_and(|m| m.0 != "*")
            && g.tag("Result")
                .is_some_and(|r| Some(&r.1) == g.marker.as_ref().map(|m| &m.0))
    }) {
        used[index] = true;
        let (marker, at) = game.marker.clone().unwrap();
        let wrong = if marker == "1-0" { "0-1" } else { "1-0" };
        edits.push(Edit {
            range: at..at + marker.len(),
            with: wrong.to_owned(),
        });
        expected.push(Expected {
            defect: "a wrong result",
            game: index,
            offset: at,
            kind: "ResultMismatch",
            severity: "warning",
            says: format!("the Result tag says {marker}, the movetext ends with {wrong}"),
            valid: true,
            python_refuses: false,
            then: None,
        });
    }
    (edits, expected)
}

/// `text` with `edits` made (none overlap), and where each old offset went.
fn apply(text: &str, edits: &mut [Edit]) -> (String, impl Fn(usize) -> usize) {
    edits.sort_by_key(|e| e.range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut shifts = Vec::new();
    for edit in edits.iter() {
        out.push_str(&text[at..edit.range.start]);
        out.push_str(&edit.with);
        shifts.push((
            edit.range.start,
            edit.with.len() as isize - edit.range.len() as isize,
        ));
        at = edit.range.end;
    }
    out.push_str(&text[at..]);
    let moved = move |offset: usize| {
        let delta: isize = shifts
            .iter()
            .filter(|(start, _)| *start < offset)
            .map(|(_, d)| d)
            .sum();
        (offset as isize + delta) as usize
    };
    (out, moved)
}

#[test]
fn defects_planted_in_the_samples_are_reported_where_they_are() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut planted: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for path in samples() {
        let file = name(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut edits, expected) = plant(&text);
        let (copy, moved) = apply(&text, &mut edits);
        let copy_path = dir.path().join(&file);
        std::fs::write(&copy_path, &copy).unwrap();
        let (ours, _) = sp960(&copy_path, false);
        let python = oracle(&copy_path);
        let original = games(&text);
        assert_eq!(ours.len(), original.len(), "{file}: games in the copy");
        assert_eq!(python.len(), original.len(), "{file}: python-chess's games");
        for (index, (game, py)) in ours.iter().zip(&python).enumerate() {
            let Some(want) = expected.iter().find(|e| e.game == index) else {
                // Untouched games still replay alike.
                if game["valid"] != true || py["ok"] != true || game["final"] != py["final"] {
                    failures.push(format!(
                        "{file}: untouched game {index} changed:\n  sp960 {game}\n  python-chess {py}"
                    ));
                }
                continue;
            };
            planted.entry(want.defect).or_default().push(file.clone());
            let (line, column) = line_column(&copy, moved(want.offset));
            let findings = game["findings"].as_array().unwrap();
            let found = findings.iter().any(|f| {
                f["line"] == line
                    && f["column"] == column
                    && f["kind"] == want.kind
                    && f["severity"] == want.severity
                    && f["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(want.says.as_str()))
            });
            let then = want.then.is_none_or(|(kind, offset)| {
                let (line, column) = line_column(&copy, moved(offset));
                findings.iter().any(|f| {
                    f["line"] == line
                        && f["column"] == column
                        && f["kind"] == kind
                        && f["severity"] == "error"
                })
            });
            let python_ok = !want.python_refuses || py["ok"] == false;
            if !found || !then || game["valid"] != want.valid || !python_ok {
                failures.push(format!(
                    "{file}: {} planted in game {index}, expected {} {} at {line}:{column} \
                     saying `{}` (then {:?}), valid {}:\n  sp960 {game}\n  python-chess {py}",
                    want.defect,
                    want.severity,
                    want.kind,
                    want.says,
                    want.then.map(|(k, o)| (k, line_column(&copy, moved(o)))),
                    want.valid,
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (defect, files) in &planted {
        eprintln!("{defect}: planted in {}", files.join(", "));
    }
    // Each defect in at least three producers' files.
    for defect in [
        "an illegal move",
        "a castling through an attacked square",
        "a deleted FEN tag",
        "an unknown Variant",
        "a wrong result",
    ] {
        let files = planted.get(defect).map_or(0, Vec::len);
        assert!(files >= 3, "{defect}: planted in {files} files");
    }
}
