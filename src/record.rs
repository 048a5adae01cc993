//! One line of a FEN/EPD fixture file, parsed and checked: a blank line, a comment, or a
//! record that is a legal position, or the reason (field, column, what was expected) it is
//! not.
//!
//! A record is a FEN (six fields) or an EPD (the four position fields, then operations
//! such as `bm e4; id "x";`). Fields are separated by spaces or tabs. The parser is stricter
//! than shakmaty's [`Fen::from_ascii`](shakmaty::fen::Fen::from_ascii) (no crazyhouse
//! pockets or `~`, no `_` separators, no missing fields, castling letters white's first, at
//! most two a side) and builds the [`Setup`] itself, so each record is read once; legality
//! is shakmaty's [`Chess::from_setup`] with its [`PositionErrorKinds`].
//!
//! Verdicts agree with python-chess (`chess.Board(fen, chess960=True).is_valid()`); see
//! [`crate::legality`] for the two places where [`Rules::PythonChess`] (the default) is
//! laxer than shakmaty, as python-chess is, and [`Rules::Strict`] is not.

use std::ops::Range;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, File, FromSetup, Piece,
    PositionError, Rank, Setup, Square,
};

use crate::identify::{IdentifyError, color_name, identify_setup};
use crate::legality::judge;
use crate::start::Start;

/// Which rules decide that a readable position is legal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Rules {
    /// python-chess's `is_valid()`: at most 16 pieces and 8 pawns a side; checks as
    /// python-chess counts them.
    #[default]
    PythonChess,
    /// shakmaty's full verdict: also the promotions the material needs, and no two
    /// checking knights or pawns.
    Strict,
}

/// Castling rules, as `--mode` names them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Chess960: any rook with a right may castle, named by file letter or K/Q.
    #[default]
    Chess960,
    /// Standard chess: king on e1/e8, rooks in the corners.
    Standard,
}

impl Mode {
    /// shakmaty's name for it.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Mode::Chess960 => CastlingMode::Chess960,
            Mode::Standard => CastlingMode::Standard,
        }
    }
}

/// How records are checked.
#[derive(Debug, Clone, Copy)]
pub struct CheckOptions {
    /// Chess960 (any rook may castle) or standard castling.
    pub mode: CastlingMode,
    /// Which legality rules apply.
    pub rules: Rules,
    /// Every record must also be an untouched Chess960 start (and an EPD `id "SP n"` must
    /// name it).
    pub start_positions: bool,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            mode: CastlingMode::Chess960,
            rules: Rules::PythonChess,
            start_positions: false,
        }
    }
}

/// The part of a record a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// The line as a whole (encoding, length, number of fields).
    Line,
    /// Field 1, the piece placement.
    Board,
    /// Field 2, `w` or `b`.
    Turn,
    /// Field 3, the castling rights.
    Castling,
    /// Field 4, the en-passant square.
    EnPassant,
    /// FEN field 5.
    Halfmoves,
    /// FEN field 6.
    Fullmoves,
    /// The EPD operations after field 4.
    Operations,
}

impl Field {
    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Field::Line => "line",
            Field::Board => "board",
            Field::Turn => "side to move",
            Field::Castling => "castling",
            Field::EnPassant => "en passant",
            Field::Halfmoves => "halfmove clock",
            Field::Fullmoves => "fullmove number",
            Field::Operations => "EPD operations",
        }
    }
}

/// Why a record is invalid: where (1-based byte column, field) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based byte column in the line (after a UTF-8 byte-order mark).
    pub column: usize,
    /// The field the column is in.
    pub field: Field,
    /// A stable name for the kind of problem: shakmaty's `ParseFenError` variant for syntax
    /// (`InvalidBoard`, ...), its `PositionErrorKinds` flags for legality (`MISSING_KING |
    /// OPPOSITE_CHECK`), or `Encoding`, `LineTooLong`, `NotAStart`, `IdMismatch`.
    pub kind: String,
    /// What is wrong, for people.
    pub message: String,
}

impl Problem {
    fn new(column: usize, field: Field, kind: &str, message: impl Into<String>) -> Problem {
        Problem {
            column,
            field,
            kind: kind.to_owned(),
            message: message.into(),
        }
    }

    /// A line longer than the reader keeps in memory.
    pub fn line_too_long(bytes: u64, limit: usize) -> Problem {
        Problem::new(
            1,
            Field::Line,
            "LineTooLong",
            format!("line is {bytes} bytes long; a record may have at most {limit}"),
        )
    }
}

/// FEN (six fields) or EPD (four fields and operations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// Six fields: the four position fields and the two move counters.
    Fen,
    /// Four position fields, then EPD operations (perhaps none).
    Epd,
}

/// A record that passed every check.
#[derive(Debug, Clone)]
pub struct ValidRecord<'a> {
    /// The position, castling rights and en-passant square as written.
    pub position: Chess,
    /// FEN or EPD.
    pub kind: RecordKind,
    /// EPD operations exactly as written (without surrounding blanks); empty for a FEN.
    pub operations: &'a str,
    /// The start the record is, with [`CheckOptions::start_positions`].
    pub start: Option<Start>,
}

/// What one line of a fixture file is.
#[derive(Debug, Clone)]
pub enum Line<'a> {
    /// Empty or only blanks.
    Blank,
    /// First non-blank character `#`.
    Comment,
    /// A record and its verdict.
    Record(Result<ValidRecord<'a>, Problem>),
}

/// Reads and checks one line (without its `\n`; a trailing `\r` is ignored).
pub fn check_line<'a>(line: &'a [u8], options: &CheckOptions) -> Line<'a> {
    match record_text(line) {
        Err(NoRecord::Blank) => Line::Blank,
        Err(NoRecord::Comment) => Line::Comment,
        Ok(line) => Line::Record(check_record(line, options, |position| position).map(
            |(position, kind, operations, start)| ValidRecord {
                position,
                kind,
                operations,
                start,
            },
        )),
    }
}

/// What [`validate_line`] says of a line.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// A blank line or a comment.
    Skipped,
    /// A valid record (and, with `--start-positions`, its start).
    Valid(Option<Start>),
    /// An invalid record.
    Invalid(Problem),
}

/// [`check_line`] without keeping the position: the verdict alone, as cheap as it gets.
pub fn validate_line(line: &[u8], options: &CheckOptions) -> Verdict {
    match record_text(line) {
        Err(_) => Verdict::Skipped,
        Ok(line) => match check_record(line, options, drop) {
            Ok(((), _, _, start)) => Verdict::Valid(start),
            Err(problem) => Verdict::Invalid(problem),
        },
    }
}

/// How the lines of an input are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Syntax {
    /// One FEN or EPD record per line. A line that is a PGN tag is read as one: a
    /// `[FEN "…"]` tag is a record, any other tag is skipped.
    #[default]
    Records,
    /// PGN: each `[FEN "…"]` tag is a record; other tags, movetext, comments and blank
    /// lines are skipped.
    Pgn,
}

impl Syntax {
    /// PGN for an input named `*.pgn` (any case) or whose first non-blank line is a PGN tag
    /// (`head` is the start of the input); one record per line otherwise.
    pub fn detect(name: &str, head: &[u8]) -> Syntax {
        let pgn_name = name
            .rsplit_once('.')
            .is_some_and(|(_, extension)| extension.eq_ignore_ascii_case("pgn"));
        let first_line = head
            .split(|&byte| byte == b'\n')
            .find(|line| line.iter().any(|&byte| !is_blank(byte) && byte != b'\r'));
        if pgn_name || first_line.is_some_and(|line| pgn_tag(line).is_some()) {
            Syntax::Pgn
        } else {
            Syntax::Records
        }
    }

    /// The bytes of `line` that hold its record: the whole line, the value of a
    /// `[FEN "…"]` tag, or `None` for a line that holds none (another PGN tag; in PGN,
    /// anything but a FEN tag). Problems found in the span have columns from its start.
    pub fn record_span(self, line: &[u8]) -> Option<Range<usize>> {
        let first = line.iter().position(|&byte| !is_blank(byte));
        if first.is_none_or(|first| line[first] != b'[') {
            return (self == Syntax::Records).then_some(0..line.len());
        }
        match pgn_tag(line) {
            Some((name, value)) if &line[name.clone()] == b"FEN" => Some(value),
            Some(_) => None,
            // Not a well-formed tag: a FEN tag is still checked (and reported), anything
            // else is a record line that is wrong, or in PGN text to skip.
            None if self == Syntax::Records || is_fen_tag_start(line) => Some(0..line.len()),
            None => None,
        }
    }
}

/// Whether `line` starts like a FEN tag (`[FEN`, after blanks).
fn is_fen_tag_start(line: &[u8]) -> bool {
    let start = line.iter().position(|&byte| !is_blank(byte)).unwrap_or(0);
    line[start..].starts_with(b"[FEN")
}

/// A PGN tag pair alone on its line, `[Name "value"]`: where the name and the value (without
/// quotes) are.
fn pgn_tag(line: &[u8]) -> Option<(Range<usize>, Range<usize>)> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let open = line.iter().position(|&byte| !is_blank(byte))?;
    let close = line.iter().rposition(|&byte| !is_blank(byte))?;
    if line[open] != b'[' || line[close] != b']' {
        return None;
    }
    let name_end = open
        + 1
        + line[open + 1..close]
            .iter()
            .position(|&byte| !(byte.is_ascii_alphanumeric() || byte == b'_'))?;
    let quote = name_end
        + line[name_end..close]
            .iter()
            .position(|&byte| !is_blank(byte))?;
    let end_quote = line[..close].iter().rposition(|&byte| !is_blank(byte))?;
    if name_end == open + 1 || line[quote] != b'"' || line[end_quote] != b'"' || end_quote == quote
    {
        return None;
    }
    Some((open + 1..name_end, quote + 1..end_quote))
}

/// A line that holds no record.
enum NoRecord {
    Blank,
    Comment,
}

/// The line without `\r`, or what it is when it holds no record.
fn record_text(line: &[u8]) -> Result<&[u8], NoRecord> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match line.iter().find(|&&b| !is_blank(b)) {
        None => Err(NoRecord::Blank),
        Some(b'#') => Err(NoRecord::Comment),
        Some(_) => Ok(line),
    }
}

/// Checks a line known to hold a record; `keep` takes the legal position.
fn check_record<'a, T>(
    line: &'a [u8],
    options: &CheckOptions,
    keep: impl FnOnce(Chess) -> T,
) -> Result<(T, RecordKind, &'a str, Option<Start>), Problem> {
    let parsed = parse(line)?;
    let kind = parsed.kind;
    let operations = parsed.operations;
    // Only `--start-positions` needs the setup after shakmaty has taken it.
    let setup = options.start_positions.then(|| parsed.setup.clone());
    let kept = match Chess::from_setup(parsed.setup, options.mode) {
        Ok(position) => keep(position),
        Err(error) => keep(legality(line, error, options)?),
    };
    let start = match setup {
        Some(setup) => Some(check_start(line, &Parsed { setup, ..parsed })?),
        None => None,
    };
    Ok((kept, kind, operations, start))
}

/// A record read from text, not yet judged legal.
struct Parsed<'a> {
    setup: Setup,
    kind: RecordKind,
    operations: &'a str,
    /// 0-based byte offsets of the four position fields.
    field_starts: [usize; 4],
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// The field starting at `from` (after blanks): its start and end offsets.
fn next_field(line: &[u8], from: usize) -> Option<(usize, usize)> {
    let start = from + line[from..].iter().position(|&b| !is_blank(b))?;
    // Fields after the board are a few bytes long: a plain loop beats a SIMD search.
    let end = line[start..]
        .iter()
        .position(|&b| is_blank(b))
        .map_or(line.len(), |len| start + len);
    Some((start, end))
}

/// [`next_field`] for the long first field, the board.
fn first_field(line: &[u8]) -> Option<(usize, usize)> {
    let start = line.iter().position(|&b| !is_blank(b))?;
    let end = memchr::memchr2(b' ', b'\t', &line[start..]).map_or(line.len(), |len| start + len);
    Some((start, end))
}

const POSITION_FIELDS: [Field; 4] = [Field::Board, Field::Turn, Field::Castling, Field::EnPassant];

fn parse(line: &[u8]) -> Result<Parsed<'_>, Problem> {
    let mut field_starts = [0; 4];
    let mut spans = [(0, 0); 4];
    let mut end = 0;
    for (index, field) in POSITION_FIELDS.into_iter().enumerate() {
        let span = if index == 0 {
            first_field(line)
        } else {
            next_field(line, end)
        };
        let Some(span) = span else {
            return Err(Problem::new(
                line.len() + 1,
                field,
                "InvalidFen",
                format!(
                    "the line ends after {index} field{}: a record needs the board, side to move, castling and en-passant fields",
                    if index == 1 { "" } else { "s" }
                ),
            ));
        };
        spans[index] = span;
        field_starts[index] = span.0;
        end = span.1;
    }
    let field = |index: usize| &line[spans[index].0..spans[index].1];

    let board = parse_board(field(0), spans[0].0)?;
    let turn = match field(1) {
        b"w" => Color::White,
        b"b" => Color::Black,
        other => {
            return Err(unexpected(
                spans[1].0,
                Field::Turn,
                "InvalidTurn",
                other,
                "`w` or `b`",
            ));
        }
    };
    let castling_rights = parse_castling(field(2), spans[2].0, &board)?;
    let ep_square = match field(3) {
        b"-" => None,
        &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some(Square::from_coords(
            File::new(u32::from(file - b'a')),
            Rank::new(u32::from(rank - b'1')),
        )),
        other => {
            return Err(unexpected(
                spans[3].0,
                Field::EnPassant,
                "InvalidEpSquare",
                other,
                "`-` or a square such as `e3`",
            ));
        }
    };
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.castling_rights = castling_rights;
    setup.ep_square = ep_square;

    let (kind, operations) = parse_rest(line, end, &mut setup)?;
    Ok(Parsed {
        setup,
        kind,
        operations,
        field_starts,
    })
}

/// A problem at `at` naming what was found and what was expected.
fn unexpected(at: usize, field: Field, kind: &str, found: &[u8], expected: &str) -> Problem {
    if let Some((offset, message)) = first_bad_byte(found) {
        return Problem::new(
            at + offset + 1,
            field,
            "Encoding",
            format!("{}: {message}", field.name()),
        );
    }
    Problem::new(
        at + 1,
        field,
        kind,
        format!(
            "{}: expected {expected}, found `{}`",
            field.name(),
            String::from_utf8_lossy(found)
        ),
    )
}

/// The offset and description of the first byte that has no place in a record: NUL, a
/// control character, or a byte that is not UTF-8.
fn first_bad_byte(text: &[u8]) -> Option<(usize, String)> {
    let utf8_error = std::str::from_utf8(text).err();
    let valid = utf8_error.map_or(text.len(), |err| err.valid_up_to());
    if let Some(offset) = text[..valid]
        .iter()
        .position(|&b| (b < 0x20 && b != b'\t') || b == 0x7f)
    {
        let message = match text[offset] {
            0 => "NUL byte".to_owned(),
            byte => format!("control character 0x{byte:02x}"),
        };
        return Some((offset, message));
    }
    utf8_error.map(|_| (valid, format!("invalid UTF-8 (byte 0x{:02x})", text[valid])))
}

/// What each byte means in a piece placement field, for [`parse_board`]: bits 0-2 the
/// role of a piece (1 pawn .. 6 king), bit 3 black, bits 8-11 the squares it covers (1 for
/// a piece, 1-8 for a digit), bit 12 a digit, bit 13 `/`, bit 14 a byte with no place in
/// a board.
const BOARD_BYTES: [u16; 256] = {
    let mut table = [INVALID_BYTE; 256];
    let mut digit = 1;
    while digit <= 8 {
        table[(b'0' + digit) as usize] = DIGIT | (digit as u16) << 8;
        digit += 1;
    }
    table[b'/' as usize] = SLASH;
    let letters = *b"pnbrqk";
    let mut index = 0;
    while index < letters.len() {
        let role = index as u16 + 1;
        table[letters[index].to_ascii_uppercase() as usize] = role | 1 << 8;
        table[letters[index] as usize] = role | BLACK | 1 << 8;
        index += 1;
    }
    table
};
const BLACK: u16 = 1 << 3;
const DIGIT: u16 = 1 << 12;
const SLASH: u16 = 1 << 13;
const INVALID_BYTE: u16 = 1 << 14;

/// Bit 0 of each byte of `bytes`, gathered into one byte (byte `i` to bit `i`).
fn gather_bit0(bytes: u64) -> u64 {
    ((bytes & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The piece placement field. A well-formed board goes through a loop with no
/// data-dependent branches (pieces and digits come in no predictable order): each byte's
/// piece code is stored at its square in FEN order, then bit planes of the codes become
/// shakmaty's bitboards. Any irregularity sends the field to [`board_problem`] for the
/// exact diagnostic.
fn parse_board(text: &[u8], at: usize) -> Result<Board, Problem> {
    // Piece codes in FEN order (a8, b8, .. h1), one byte a square, 0 for empty.
    let mut squares = [0u8; 64];
    // Squares passed so far, and where each `/` came (every byte writes the slot of the
    // next `/`; the `/` itself writes it last). The ranks are checked after the loop.
    let mut passed = 0u32;
    let mut slashes = 0u32;
    let mut slash_at = [0u32; 8];
    let mut previous_digit = 0u16;
    let mut flags = 0u16;
    for &byte in text {
        let entry = BOARD_BYTES[usize::from(byte)];
        squares[(passed & 63) as usize] = entry as u8;
        slash_at[(slashes & 7) as usize] = passed;
        let is_digit = entry & DIGIT;
        flags |= entry | (is_digit & previous_digit) << 3;
        slashes += u32::from(entry >> 13) & 1;
        passed += u32::from(entry >> 8) & 15;
        previous_digit = is_digit;
    }
    // Bit 14: a stray byte; bit 15: two digits in a row.
    let ranks_of_eight = slash_at[..7]
        .iter()
        .zip((8..).step_by(8))
        .all(|(at, end)| *at == end);
    if flags & (INVALID_BYTE | DIGIT << 3) != 0 || slashes != 7 || passed != 64 || !ranks_of_eight {
        return Err(board_problem(text, at));
    }
    // Bit plane `bit` of the codes, as a bitboard (FEN order is a vertical flip of a1 = 0).
    let plane = |bit: u32| -> u64 {
        let mut plane = 0;
        for (index, chunk) in squares.chunks_exact(8).enumerate() {
            let bytes = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            plane |= gather_bit0(bytes >> bit) << (8 * index);
        }
        plane.swap_bytes()
    };
    let (role0, role1, role2, black) = (plane(0), plane(1), plane(2), plane(3));
    let occupied = role0 | role1 | role2;
    let by_role = ByRole {
        pawn: Bitboard(role0 & !role1 & !role2),
        knight: Bitboard(!role0 & role1 & !role2),
        bishop: Bitboard(role0 & role1 & !role2),
        rook: Bitboard(!role0 & !role1 & role2),
        queen: Bitboard(role0 & !role1 & role2),
        king: Bitboard(!role0 & role1 & role2),
    };
    let by_color = ByColor {
        white: Bitboard(occupied & !black),
        black: Bitboard(black),
    };
    // Every square holds at most one code, so the bitboards are consistent.
    Ok(Board::try_from_bitboards(by_role, by_color).expect("one piece per square"))
}

/// Why a piece placement field is malformed, with the column of the first problem.
fn board_problem(text: &[u8], at: usize) -> Problem {
    let bad = |offset: usize, message: String| {
        Problem::new(at + offset + 1, Field::Board, "InvalidBoard", message)
    };
    // Rank 8 first; `rank_index` counts ranks seen, `file` squares of this rank so far.
    let mut rank_index = 0usize;
    let mut file = 0usize;
    let mut previous_digit = false;
    for (offset, &byte) in text.iter().enumerate() {
        let rank_name = 8 - rank_index;
        match byte {
            b'/' => {
                if file != 8 {
                    return bad(
                        offset,
                        format!("board: rank {rank_name} has {file} squares, expected 8"),
                    );
                }
                if rank_index == 7 {
                    return bad(offset, "board: more than 8 ranks".to_owned());
                }
                rank_index += 1;
                file = 0;
                previous_digit = false;
            }
            b'1'..=b'8' => {
                if previous_digit {
                    return bad(
                        offset,
                        "board: two digits in a row (write one count of empty squares)".to_owned(),
                    );
                }
                file += usize::from(byte - b'0');
                if file > 8 {
                    return bad(
                        offset,
                        format!("board: rank {rank_name} has more than 8 squares"),
                    );
                }
                previous_digit = true;
            }
            _ => {
                if Piece::from_char(char::from(byte)).is_none() {
                    if let Some((0, message)) = first_bad_byte(&text[offset..]) {
                        return Problem::new(
                            at + offset + 1,
                            Field::Board,
                            "Encoding",
                            format!("board: {message}"),
                        );
                    }
                    let found = String::from_utf8_lossy(&text[offset..]);
                    let found = found.chars().next().unwrap_or('?');
                    let hint = match byte {
                        b'~' => " (crazyhouse promotion marks have no place in chess FEN)",
                        b'[' => " (crazyhouse pockets have no place in chess FEN)",
                        b'0' | b'9' => " (empty squares are counted 1 to 8)",
                        _ => "",
                    };
                    return bad(
                        offset,
                        format!(
                            "board: unexpected `{found}`: expected a piece letter (PNBRQK, pnbrqk), a digit 1-8 or `/`{hint}"
                        ),
                    );
                }
                if file >= 8 {
                    return bad(
                        offset,
                        format!("board: rank {rank_name} has more than 8 squares"),
                    );
                }
                file += 1;
                previous_digit = false;
            }
        }
    }
    let message = if file != 8 {
        format!(
            "board: rank {} has {file} squares, expected 8",
            8 - rank_index
        )
    } else {
        format!("board: {} ranks, expected 8", rank_index + 1)
    };
    bad(text.len(), message)
}

/// The castling field: `-`, or up to two letters for white (`KQ` or files `A`-`H`) and
/// then up to two for black, resolved to rook squares as shakmaty and python-chess do
/// (`K`: the outermost rook on the king's side, else h1/h8; files name the rook square).
fn parse_castling(text: &[u8], at: usize, board: &Board) -> Result<Bitboard, Problem> {
    if text == b"-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    let mut count = ByColor { white: 0, black: 0 };
    for (offset, &byte) in text.iter().enumerate() {
        let bad = |message: String| {
            Problem::new(at + offset + 1, Field::Castling, "InvalidCastling", message)
        };
        let letter = byte.to_ascii_lowercase();
        if !matches!(letter, b'k' | b'q' | b'a'..=b'h') {
            if let Some((0, message)) = first_bad_byte(&text[offset..]) {
                return Err(Problem::new(
                    at + offset + 1,
                    Field::Castling,
                    "Encoding",
                    format!("castling: {message}"),
                ));
            }
            let found = String::from_utf8_lossy(&text[offset..]);
            return Err(bad(format!(
                "castling: unexpected `{}`: expected `-` or letters K, Q, A-H (white) and k, q, a-h (black)",
                found.chars().next().unwrap_or('?')
            )));
        }
        let color = Color::from_white(byte.is_ascii_uppercase());
        if color == Color::White && count.black > 0 {
            return Err(bad(
                "castling: white's rights (upper case) must come before black's".to_owned(),
            ));
        }
        *count.get_mut(color) += 1;
        if *count.get(color) > 2 {
            return Err(bad(format!(
                "castling: more than two rights for {}",
                color_name(color)
            )));
        }
        rights.add(castling_square(board, color, letter));
    }
    Ok(rights)
}

/// The rook square a castling letter (lower case) names.
pub(crate) fn castling_square(board: &Board, color: Color, letter: u8) -> Square {
    let backrank = color.backrank();
    let rooks_and_kings = board.by_color(color) & (board.rooks() | board.kings()) & backrank;
    let outermost = match letter {
        b'k' => rooks_and_kings.last(),
        b'q' => rooks_and_kings.first(),
        file => return Square::from_coords(File::new(u32::from(file - b'a')), backrank),
    };
    outermost
        .filter(|square| board.rooks().contains(*square))
        .unwrap_or_else(|| {
            Square::from_coords(if letter == b'k' { File::H } else { File::A }, backrank)
        })
}

/// After the four position fields: two move counters (FEN) or EPD operations.
fn parse_rest<'a>(
    line: &'a [u8],
    from: usize,
    setup: &mut Setup,
) -> Result<(RecordKind, &'a str), Problem> {
    let Some(fifth) = next_field(line, from) else {
        return Ok((RecordKind::Epd, ""));
    };
    let sixth = next_field(line, fifth.1);
    let seventh = sixth.and_then(|sixth| next_field(line, sixth.1));
    let is_number = |span: (usize, usize)| line[span.0..span.1].iter().all(u8::is_ascii_digit);
    let rest = &line[fifth.0..];
    let looks_like_counters = seventh.is_none()
        && !rest.contains(&b';')
        && (is_number(fifth) || sixth.is_some_and(is_number));
    if looks_like_counters {
        let Some(sixth) = sixth else {
            return Err(Problem::new(
                line.len() + 1,
                Field::Fullmoves,
                "InvalidFullmoves",
                "the line ends after 5 fields: a FEN needs the fullmove number too",
            ));
        };
        setup.halfmoves = counter(line, fifth, Field::Halfmoves, "InvalidHalfmoveClock")?;
        let fullmoves = counter(line, sixth, Field::Fullmoves, "InvalidFullmoves")?;
        // 0 is read as 1, like shakmaty and python-chess.
        setup.fullmoves = std::num::NonZeroU32::new(fullmoves).unwrap_or(std::num::NonZeroU32::MIN);
        return Ok((RecordKind::Fen, ""));
    }
    let operations = check_operations(line, fifth.0)?;
    Ok((RecordKind::Epd, operations))
}

/// A move counter: ASCII digits (a huge number saturates).
fn counter(line: &[u8], span: (usize, usize), field: Field, kind: &str) -> Result<u32, Problem> {
    let text = &line[span.0..span.1];
    if text.iter().all(u8::is_ascii_digit) {
        return Ok(text.iter().fold(0u32, |n, digit| {
            n.saturating_mul(10).saturating_add(u32::from(digit - b'0'))
        }));
    }
    Err(unexpected(
        span.0,
        field,
        kind,
        text,
        "a number (digits 0-9)",
    ))
}

/// EPD operations from `from` to the end of the line: `opcode operand ...;` each, the
/// opcode a letter then letters, digits or `_`, operands plain tokens or `"strings"`. The
/// last `;` may be missing, and empty operations (`;;`, as in perft suites' `;D1 20`) are
/// accepted. Returns the operations without trailing blanks.
fn check_operations(line: &[u8], from: usize) -> Result<&str, Problem> {
    let text = &line[from..];
    if let Some((offset, message)) = first_bad_byte(text) {
        return Err(Problem::new(
            from + offset + 1,
            Field::Operations,
            "Encoding",
            format!("EPD operations: {message}"),
        ));
    }
    let bad = |offset: usize, message: String| {
        Problem::new(
            from + offset + 1,
            Field::Operations,
            "InvalidOperation",
            message,
        )
    };
    let mut i = 0;
    let mut expect_opcode = true;
    while i < text.len() {
        let byte = text[i];
        if is_blank(byte) {
            i += 1;
        } else if byte == b';' {
            expect_opcode = true;
            i += 1;
        } else if expect_opcode {
            if !byte.is_ascii_alphabetic() {
                let found = String::from_utf8_lossy(&text[i..]);
                return Err(bad(
                    i,
                    format!(
                        "EPD operations: an opcode starts with a letter, found `{}`",
                        found.chars().next().unwrap_or('?')
                    ),
                ));
            }
            let start = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
                i += 1;
            }
            if i < text.len() && !is_blank(text[i]) && text[i] != b';' {
                let opcode = String::from_utf8_lossy(&text[start..i]);
                let found = String::from_utf8_lossy(&text[i..]);
                return Err(bad(
                    i,
                    format!(
                        "EPD operations: unexpected `{}` in opcode `{opcode}`",
                        found.chars().next().unwrap_or('?')
                    ),
                ));
            }
            expect_opcode = false;
        } else if byte == b'"' {
            match memchr::memchr(b'"', &text[i + 1..]) {
                Some(len) => i += len + 2,
                None => {
                    return Err(bad(
                        i,
                        "EPD operations: string not closed (missing `\"`)".to_owned(),
                    ));
                }
            }
        } else {
            while i < text.len() && !is_blank(text[i]) && text[i] != b';' {
                i += 1;
            }
        }
    }
    let operations = std::str::from_utf8(text).expect("checked above");
    Ok(operations.trim_end_matches([' ', '\t']))
}

/// The first operand of EPD operation `opcode`, without quotes.
pub fn epd_operand<'a>(operations: &'a str, opcode: &str) -> Option<&'a str> {
    let mut rest = operations;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        if rest.is_empty() {
            return None;
        }
        let name_end = rest.find([' ', '\t', ';']).unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_end);
        let after = after.trim_start_matches([' ', '\t']);
        let (operand, tail) = match after.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted.find('"').unwrap_or(quoted.len());
                (&quoted[..end], &quoted[(end + 1).min(quoted.len())..])
            }
            None => {
                let end = after.find([' ', '\t', ';']).unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        if name == opcode {
            return Some(operand);
        }
        // Skip the remaining operands of this operation.
        rest = skip_to_semicolon(tail);
    }
}

fn skip_to_semicolon(mut text: &str) -> &str {
    loop {
        match text.find(['"', ';']) {
            None => return "",
            Some(index) if text.as_bytes()[index] == b';' => return &text[index..],
            Some(index) => {
                let after = &text[index + 1..];
                text = after.find('"').map_or("", |end| &after[end + 1..]);
            }
        }
    }
}

/// With `--start-positions`: the record must be an untouched start, and an EPD `id`
/// naming an SP (`"SP 518"`, `"DFRC 0:959"`) must name this one.
fn check_start(line: &[u8], parsed: &Parsed<'_>) -> Result<Start, Problem> {
    let start = identify_setup(&parsed.setup, parsed.kind == RecordKind::Fen).map_err(|err| {
        let message = match err {
            IdentifyError::NotAStart(differences) => format!(
                "not an untouched Chess960 start: {}",
                differences.join("; ")
            ),
            other => other.to_string(),
        };
        Problem::new(
            parsed.field_starts[0] + 1,
            Field::Board,
            "NotAStart",
            message,
        )
    })?;
    if let Some(id) = epd_operand(parsed.operations, "id") {
        let named = id
            .strip_prefix("SP ")
            .or_else(|| id.strip_prefix("DFRC "))
            .and_then(|number| number.trim().parse::<Start>().ok());
        if let Some(named) = named.filter(|named| *named != start) {
            // The operand is a slice of the line: its offset is the distance between them.
            let column = id.as_ptr() as usize - line.as_ptr() as usize + 1;
            return Err(Problem::new(
                column,
                Field::Operations,
                "IdMismatch",
                format!(
                    "id \"{id}\" names {} {named}, but the position is {} {start}",
                    named.kind_name(),
                    start.kind_name()
                ),
            ));
        }
    }
    Ok(start)
}

/// A position shakmaty refused: the reasons python-chess (or, strictly, shakmaty) gives,
/// or the position when python-chess accepts it.
fn legality(
    line: &[u8],
    error: PositionError<Chess>,
    options: &CheckOptions,
) -> Result<Chess, Problem> {
    // The setup went into shakmaty; read it again (only for refused records).
    let parsed = parse(line).expect("parsed before");
    let castling =
        next_field(line, parsed.field_starts[2]).map_or(&b""[..], |(start, end)| &line[start..end]);
    judge(error, &parsed.setup, castling, options).map_err(|rejection| {
        let index = POSITION_FIELDS
            .iter()
            .position(|field| *field == rejection.field)
            .unwrap_or(0);
        Problem {
            column: parsed.field_starts[index] + 1 + rejection.offset,
            field: rejection.field,
            kind: rejection.kinds,
            message: rejection.message,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(line: &str) -> Result<(), Problem> {
        verdict_with(line, &CheckOptions::default())
    }

    fn verdict_with(line: &str, options: &CheckOptions) -> Result<(), Problem> {
        match check_line(line.as_bytes(), options) {
            Line::Record(result) => result.map(|_| ()),
            other => panic!("{line}: not a record: {other:?}"),
        }
    }

    fn problem(line: &str) -> Problem {
        verdict(line).expect_err(line)
    }

    #[test]
    fn pgn_fen_tags_are_records_and_other_pgn_lines_are_not() {
        let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
        let tag = format!("[FEN \"{fen}\"]\r");
        let span = Syntax::Pgn.record_span(tag.as_bytes()).unwrap();
        assert_eq!(&tag[span.clone()], fen);
        assert_eq!(Syntax::Records.record_span(tag.as_bytes()), Some(span));
        for skipped in ["[Event \"SP 860\"]", "  [SetUp \"1\"] ", "[Fen \"x\"]"] {
            assert_eq!(
                Syntax::Pgn.record_span(skipped.as_bytes()),
                None,
                "{skipped}"
            );
            assert_eq!(
                Syntax::Records.record_span(skipped.as_bytes()),
                None,
                "{skipped}"
            );
        }
        for movetext in ["*", "1. e4 e5 *", "{ [FEN \"x\"] }", "", "[not a tag"] {
            assert_eq!(
                Syntax::Pgn.record_span(movetext.as_bytes()),
                None,
                "{movetext}"
            );
            let whole = Syntax::Records.record_span(movetext.as_bytes());
            assert_eq!(whole, Some(0..movetext.len()), "{movetext}");
        }
        // A broken FEN tag is still a record, so that it is reported, not skipped.
        assert_eq!(Syntax::Pgn.record_span(b"[FEN \"x"), Some(0..7));
        assert_eq!(Syntax::detect("b-960.PGN", b""), Syntax::Pgn);
        assert_eq!(Syntax::detect("-", b"\r\n  [Event \"x\"]\n"), Syntax::Pgn);
        assert_eq!(Syntax::detect("x.pgn.epd", fen.as_bytes()), Syntax::Records);
        assert_eq!(Syntax::detect("-", b"[oops\n"), Syntax::Records);
    }

    #[test]
    fn blank_lines_and_comments_are_not_records() {
        let options = CheckOptions::default();
        assert!(matches!(check_line(b"", &options), Line::Blank));
        assert!(matches!(check_line(b" \t\r", &options), Line::Blank));
        assert!(matches!(check_line(b"  # note", &options), Line::Comment));
    }

    #[test]
    fn fen_and_epd_records() {
        verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
        verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\r").unwrap();
        verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ\tw  EAea -").unwrap();
        let line = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - bm Nc3; id \"SP 860\";  ";
        match check_line(line.as_bytes(), &CheckOptions::default()) {
            Line::Record(Ok(record)) => {
                assert_eq!(record.kind, RecordKind::Epd);
                assert_eq!(record.operations, "bm Nc3; id \"SP 860\";");
            }
            other => panic!("{other:?}"),
        }
        // Perft-suite style: empty operations before each depth.
        verdict("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - ;D1 26 ;D2 568").unwrap();
    }

    #[test]
    fn syntax_errors_name_field_and_column() {
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNB w EAea - 0 1");
        assert_eq!(
            (p.field, p.column, p.kind.as_str()),
            (Field::Board, 43, "InvalidBoard")
        );
        assert_eq!(p.message, "board: rank 1 has 7 squares, expected 8");
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ x EAea - 0 1");
        assert_eq!((p.field, p.column), (Field::Turn, 45));
        assert_eq!(p.message, "side to move: expected `w` or `b`, found `x`");
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w eaEA - 0 1");
        assert_eq!((p.field, p.column), (Field::Castling, 49));
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea e9 0 1");
        assert_eq!((p.field, p.column), (Field::EnPassant, 52));
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 x");
        assert_eq!((p.field, p.column), (Field::Fullmoves, 56));
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0");
        assert_eq!(p.field, Field::Fullmoves);
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w");
        assert_eq!((p.field, p.column), (Field::Castling, 46));
        let p = problem("rbknrnbq/pppppppp/44/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1");
        assert_eq!((p.field, p.column), (Field::Board, 20));
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ~ w EAea - 0 1");
        assert!(p.message.contains("crazyhouse"), "{p:?}");
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - bm \"e4;");
        assert_eq!(p.field, Field::Operations);
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 1bm e4;");
        assert_eq!((p.field, p.column), (Field::Operations, 54));
    }

    #[test]
    fn encoding_problems_are_named() {
        let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPP\0PPP/RBKNRNBQ w EAea - 0 1");
        assert_eq!((p.kind.as_str(), p.column), ("Encoding", 31));
        assert!(p.message.contains("NUL"), "{p:?}");
        let mut line = b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - c0 \"".to_vec();
        line.extend_from_slice(b"\xff\";");
        let Line::Record(Err(p)) = check_line(&line, &CheckOptions::default()) else {
            panic!()
        };
        assert_eq!((p.kind.as_str(), p.column), ("Encoding", 58));
        assert!(p.message.contains("UTF-8"), "{p:?}");
        // UTF-8 in a comment operand is fine.
        verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - c0 \"Café\";").unwrap();
    }

    #[test]
    fn start_positions() {
        let options = CheckOptions {
            start_positions: true,
            ..CheckOptions::default()
        };
        let check = |line: &str| match check_line(line.as_bytes(), &options) {
            Line::Record(result) => result.map(|record| record.start.unwrap().to_string()),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";").unwrap(),
            "860"
        );
        let p = check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 518\";")
            .unwrap_err();
        assert_eq!((p.kind.as_str(), p.column), ("IdMismatch", 58));
        let p = check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 3 1").unwrap_err();
        assert_eq!(p.kind, "NotAStart");
        assert!(p.message.contains("move counters 3 1"), "{p:?}");
    }

    #[test]
    fn epd_operands() {
        let ops = "bm Nc3 e4; c0 \"a; b\"; id \"SP 860\"; acd 3";
        assert_eq!(epd_operand(ops, "id"), Some("SP 860"));
        assert_eq!(epd_operand(ops, "bm"), Some("Nc3"));
        assert_eq!(epd_operand(ops, "acd"), Some("3"));
        assert_eq!(epd_operand(ops, "c1"), None);
    }

    /// Property tests of the parser; `scripts/fuzz-records.sh` runs the `fuzz_` ones for
    /// as long as it is told to, with many more cases.
    mod properties {
        use super::*;
        use proptest::prelude::*;
        use shakmaty::Position;

        /// Bytes close to records: FEN characters, blanks, quotes, a few strangers.
        fn record_like() -> impl Strategy<Value = Vec<u8>> {
            let alphabet: Vec<u8> =
                b"pnbrqkPNBRQK012345678/ -wbKQkqABCDEFGHabcdefgh;\"\t~_+x\r\0\xff\xc3\xa9".to_vec();
            prop::collection::vec(prop::sample::select(alphabet), 0..90)
        }

        fn board_like() -> impl Strategy<Value = Vec<u8>> {
            prop::collection::vec(
                prop::sample::select(b"pnbrqkPNBRQK12345678/".to_vec()),
                0..50,
            )
        }

        /// A position after `plies` random moves from a random start.
        fn played(seed: u64, plies: usize) -> Chess {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let start = crate::start::RandomStarts::new(seed, seed.is_multiple_of(3))
                .next()
                .expect("endless");
            let mut position = start.position().expect("a start");
            for _ in 0..plies {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            position
        }

        fn never_panics_and_points_into_the_line(line: &[u8]) {
            for rules in [Rules::PythonChess, Rules::Strict] {
                let options = CheckOptions {
                    rules,
                    start_positions: true,
                    ..CheckOptions::default()
                };
                if let Line::Record(Err(problem)) = check_line(line, &options) {
                    assert!(
                        problem.column >= 1 && problem.column <= line.len() + 1,
                        "{problem:?}"
                    );
                    assert!(!problem.message.is_empty());
                }
                let _ = validate_line(line, &options);
            }
        }

        /// Cases per property: 2,000, or `SP960_FUZZ_CASES` (the fuzz script raises it).
        fn cases() -> u32 {
            std::env::var("SP960_FUZZ_CASES")
                .ok()
                .and_then(|cases| cases.parse().ok())
                .unwrap_or(2_000)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(cases()))]

            #[test]
            fn fuzz_any_bytes_get_a_verdict(line in prop::collection::vec(any::<u8>(), 0..120)) {
                never_panics_and_points_into_the_line(&line);
            }

            #[test]
            fn fuzz_record_like_bytes_get_a_verdict(line in record_like()) {
                never_panics_and_points_into_the_line(&line);
            }

            /// Edits of real FENs: a verdict, and a valid one only if python-chess's rules
            /// (shakmaty minus the two documented relaxations) accept the position.
            #[test]
            fn fuzz_edited_fens_get_a_verdict(
                seed in any::<u64>(),
                plies in 0usize..80,
                edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09".to_vec())), 1..4),
            ) {
                let mut line = crate::notation::position_fen(&played(seed, plies), crate::notation::CastlingNotation::Shredder).into_bytes();
                for (index, byte) in edits {
                    let at = index.index(line.len());
                    line[at] = byte;
                }
                never_panics_and_points_into_the_line(&line);
            }

            /// The branch-free board parser accepts exactly what shakmaty's board parser
            /// accepts (without its `~` and runs of digits, which sp960 refuses), and
            /// reads the same pieces.
            #[test]
            fn fuzz_board_parser_agrees_with_shakmaty(text in board_like()) {
                let ours = parse_board(&text, 0).ok();
                let theirs = if text.windows(2).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit()) {
                    None
                } else {
                    Board::from_ascii_board_fen(&text).ok()
                };
                prop_assert_eq!(ours, theirs);
            }

            /// Real boards (every board shakmaty writes) read back the same.
            #[test]
            fn fuzz_real_boards_read_back(seed in any::<u64>(), plies in 0usize..120) {
                let position = played(seed, plies);
                let text = position.board().board_fen().to_string();
                let ours = parse_board(text.as_bytes(), 0).ok();
                prop_assert_eq!(ours.as_ref(), Some(position.board()));
            }

            /// Every FEN sp960 writes for a legal position is valid, and normalizing it
            /// (in either notation) gives a record that reads back as the same position.
            #[test]
            fn fuzz_written_fens_are_valid_and_normalize_round_trips(seed in any::<u64>(), plies in 0usize..120) {
                let position = played(seed, plies);
                for notation in [crate::notation::CastlingNotation::Shredder, crate::notation::CastlingNotation::Xfen] {
                    let fen = crate::notation::position_fen(&position, notation);
                    let Line::Record(Ok(record)) = check_line(fen.as_bytes(), &CheckOptions::default()) else {
                        panic!("{fen} refused");
                    };
                    let canonical = crate::normalize::canonical(&record, notation);
                    prop_assert_eq!(&canonical, &fen);
                    prop_assert_eq!(&record.position, &position);
                }
            }
        }
    }
}
