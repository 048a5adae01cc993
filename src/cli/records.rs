//! `sp960 validate` and `normalize`: their arguments and help text (the judging rules,
//! [`RecordCheckArgs`], shared), and the calls into [`crate::records`]. Both report every
//! record, so output closed early is a failure (exit 1), not the quiet success it is for
//! commands that only print.

use std::io;

use super::{CommandFailure, output_cut_short};
use crate::exit_code;
use crate::records::check::{CastlingRules, CheckOptions, OperationChecks, Rules};
use crate::records::epd_ops::{DEFAULT_PERFT_DEPTH, MAX_PERFT_DEPTH};
use crate::records::game_rewrite::VariantSpelling;
use crate::records::inputs::{DEFAULT_GLOBS, Input};
use crate::records::normalize::NormalizeOptions;
use crate::records::validate::{OutputFormat, ValidateOptions};
use crate::starts::notation::CastlingNotation;

/// Check every FEN/EPD record of files, directories or stdin; report each invalid one.
///
/// One record per line: a FEN (6 fields) or an EPD (4 fields and operations). Blank
/// lines and lines starting with `#` are skipped; CRLF and a UTF-8 BOM are accepted.
/// EPD operations are checked against the position: the moves of `bm`, `am`, `sm` and
/// `pv` must be legal, perft counts (`;D1 20 ;D2 400`) right up to --perft-depth.
/// Invalid records go to stdout as `path:line:col: error: reason`, the summary to
/// stderr. Exit 0 when all are valid, 1 when any is invalid, 2 for usage or I/O errors.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 validate perft.epd books/\n  sp960 validate --perft-depth 5 fischer.epd\n  sp960 fen all | sp960 validate --start-positions --quiet\n  sp960 validate --format json suite.epd | jq .error"
)]
pub struct ValidateArgs {
    /// Files, directories (searched recursively), or `-` for stdin (the default).
    #[arg(value_name = "PATH")]
    pub paths: Vec<Input>,
    #[command(flatten)]
    pub check: RecordCheckArgs,
    /// Every record must also be an untouched Chess960 start (its SP is reported); an
    /// EPD `id "SP n"` must name it.
    #[arg(long)]
    pub start_positions: bool,
    /// Count perft operations (`D3 8902`) up to this depth (0 to 8) with shakmaty and
    /// report a wrong count; deeper ones are read, not counted. 0 counts none (moves are
    /// still checked).
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_PERFT_DEPTH,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)),
    )]
    pub perft_depth: u32,
    /// File-name patterns searched for in directories (repeatable).
    #[arg(long = "glob", value_name = "PATTERN", default_values_t = DEFAULT_GLOBS.map(String::from))]
    pub globs: Vec<String>,
    /// Text lines or JSON objects (one per invalid record, then a summary).
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Print only the summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Rewrite records in canonical form, keeping EPD operations, comments and blank lines.
///
/// Invalid records are copied unchanged and reported on stderr (exit 1); with
/// --in-place such a file is left untouched.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sp960 normalize old.epd > new.epd\n  sp960 normalize --castling xfen --in-place *.fen"
)]
pub struct NormalizeArgs {
    /// Files, or `-` for stdin (the default).
    #[arg(value_name = "PATH")]
    pub paths: Vec<Input>,
    #[command(flatten)]
    pub check: RecordCheckArgs,
    /// Castling field notation written.
    #[arg(long, value_enum, default_value_t)]
    pub castling: CastlingNotation,
    /// Rewrite each file (temporary file, then atomic rename) instead of printing.
    #[arg(long)]
    pub in_place: bool,
    /// PGN: the Variant tag written in Chess960 games, for the tool that will read them:
    /// cutechess (fischerandom), python-chess or lichess (Chess960), pgn-extract (chess
    /// 960), or a Chess960 spelling.
    #[arg(long, value_name = "TOOL|SPELLING", default_value = "Chess960")]
    pub variant_tag: VariantSpelling,
}

/// How records are judged, shared by validate and normalize.
#[derive(clap::Args)]
pub struct RecordCheckArgs {
    /// Castling rules.
    #[arg(long, value_enum, default_value_t)]
    pub mode: CastlingRules,
    /// Legality rules: python-chess's `is_valid()`, or shakmaty's stricter verdict on
    /// material and double checks by knights and pawns.
    #[arg(long, value_enum, default_value_t)]
    pub rules: Rules,
}

impl RecordCheckArgs {
    /// The options for the record checker; `start_positions` as `validate --start-positions`.
    /// EPD operations are checked for syntax only (`validate` asks for more).
    pub fn options(&self, start_positions: bool) -> CheckOptions {
        CheckOptions {
            mode: self.mode.castling_mode(),
            rules: self.rules,
            start_positions,
            operations: OperationChecks::Syntax,
        }
    }
}

/// `sp960 validate`.
pub(super) fn validate(args: ValidateArgs) -> Result<(), CommandFailure> {
    let check = CheckOptions {
        operations: OperationChecks::Position {
            perft_depth: args.perft_depth,
        },
        ..args.check.options(args.start_positions)
    };
    let options = ValidateOptions {
        check,
        format: args.format,
        quiet: args.quiet,
        globs: args.globs,
    };
    exit_with(crate::records::validate::run(
        &args.paths,
        &options,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    ))
}

/// `sp960 normalize`.
pub(super) fn normalize(args: NormalizeArgs) -> Result<(), CommandFailure> {
    let options = NormalizeOptions {
        check: args.check.options(false),
        castling: args.castling,
        in_place: args.in_place,
        variant: args.variant_tag,
    };
    exit_with(crate::records::normalize::run(
        &args.paths,
        &options,
        &mut io::BufWriter::new(io::stdout().lock()),
        &mut io::stderr().lock(),
    ))
}

/// A checking command's exit code as a result. Output closed early exits 1: not every
/// record was reported, so success cannot be claimed.
fn exit_with(result: io::Result<u8>) -> Result<(), CommandFailure> {
    match result.map_err(output_cut_short)? {
        exit_code::SUCCESS => Ok(()),
        code => Err(CommandFailure::quiet(code)),
    }
}
