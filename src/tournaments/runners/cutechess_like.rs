//! The syntax cutechess-cli and fastchess share (fastchess took cutechess-cli's options):
//! `-engine KEY=VALUE ...` per engine, `-each`, `-openings`, `-games 2 -rounds N -repeat`,
//! `-pgnout`, the adjudications. Each runner's file gives its [`Words`] for what differs.

use crate::books::book::{self, BookFormat};
use crate::launch::spec::{EngineSpecError, Restart};
use crate::tournaments::error::TournamentError;

use super::{CommandLine, Entrant, Rendered, RunnerCommand, TournamentKind};

/// Where the two runners' words differ.
pub(super) struct Words {
    /// The runner's name in messages.
    pub(super) name: &'static str,
    /// How an engine's arguments are given.
    pub(super) args: Args,
    /// Whether `-pgnout` takes `file=PATH` (fastchess) or the bare path (cutechess-cli).
    pub(super) pgn_out_key: bool,
    /// `-tournament`'s word for a round-robin (`round-robin`, fastchess `roundrobin`).
    pub(super) round_robin: &'static str,
}

/// How a runner takes an engine's arguments.
pub(super) enum Args {
    /// `arg=ARG` once per argument (cutechess-cli).
    EachArg,
    /// One `args=` the runner splits at spaces itself (fastchess): an argument holding
    /// a space is refused.
    SplitAtSpaces,
}

/// The book format these runners read when `asked` is asked for: PGN or EPD.
pub(super) fn book_format(asked: BookFormat) -> BookFormat {
    match asked {
        BookFormat::Pgn => BookFormat::Pgn,
        BookFormat::Epd | BookFormat::Fen => BookFormat::Epd,
    }
}

/// `command` in the runner's words, with its EPD or PGN book.
pub(super) fn render(words: &Words, command: &RunnerCommand) -> Result<Rendered, TournamentError> {
    let mut notes = Vec::new();
    // `-each` is applied after every `-engine` in both tools, so an engine with a time
    // limit of its own gets every time limit on its own line instead.
    let own_times = command
        .engines
        .iter()
        .any(|entrant| entrant.spec.limits.has_time());
    let clock = match &command.clock {
        Some(clock) => format!("tc={clock}"),
        None => "tc=inf".to_owned(),
    };
    let margin = command
        .move_margin
        .map(|margin| format!("timemargin={}", margin.as_millis()));
    let mut line = CommandLine::new(&command.program);
    for entrant in &command.engines {
        line.break_here();
        engine_words(words, entrant, own_times.then_some(&clock), &mut line)?;
    }
    if !own_times {
        line.break_here();
        line.push("-each");
        line.extend(margin.clone());
        line.push(clock);
    }
    line.break_here();
    line.extend(["-variant", "fischerandom"]);
    let openings = &command.book;
    let format = book_format(openings.format);
    if openings.format == BookFormat::Fen {
        notes.push(
            "--book-format fen is for xboard; cutechess-cli and fastchess get an EPD book"
                .to_owned(),
        );
    }
    line.break_here();
    line.extend([
        "-openings".to_owned(),
        format!("file={}", openings.path),
        format!("format={}", format.extension()),
        "order=sequential".to_owned(),
    ]);
    line.break_here();
    if let Some(kind) = command.schedule.kind {
        line.push("-tournament");
        line.push(match kind {
            TournamentKind::RoundRobin => words.round_robin,
            TournamentKind::Gauntlet => "gauntlet",
        });
    }
    line.extend([
        "-games".to_owned(),
        "2".to_owned(),
        "-rounds".to_owned(),
        command.schedule.rounds.to_string(),
        "-repeat".to_owned(),
    ]);
    if let Some(concurrency) = command.schedule.concurrency {
        line.extend(["-concurrency".to_owned(), concurrency.to_string()]);
    }
    // Without -recover, one crashed or stalled engine ends the whole tournament in both
    // tools; with it, that game is lost and the engine is restarted.
    line.push("-recover");
    line.break_here();
    line.push("-pgnout");
    line.push(if words.pgn_out_key {
        format!("file={}", command.pgn_out)
    } else {
        command.pgn_out.clone()
    });
    if let (true, Some(margin)) = (own_times, margin) {
        line.break_here();
        line.extend(["-each".to_owned(), margin]);
    }
    let adjudication = adjudication_words(command);
    if !adjudication.is_empty() {
        line.break_here();
        line.extend(adjudication);
    }
    Ok(Rendered {
        line,
        book: Some(book::render(&openings.starts, format, openings.castling)?),
        notes,
    })
}

/// `-maxmoves`, `-resign`, `-draw` and `-sprt`, as both runners take them.
fn adjudication_words(command: &RunnerCommand) -> Vec<String> {
    let adjudication = &command.adjudication;
    let mut words = Vec::new();
    if let Some(moves) = adjudication.max_moves {
        words.extend(["-maxmoves".to_owned(), moves.to_string()]);
    }
    if let Some(resign) = &adjudication.resign {
        words.extend([
            "-resign".to_owned(),
            format!("movecount={}", resign.move_count),
            format!("score={}", resign.score),
        ]);
        if resign.two_sided {
            words.push("twosided=true".to_owned());
        }
    }
    if let Some(draw) = &adjudication.draw {
        words.extend([
            "-draw".to_owned(),
            format!("movenumber={}", draw.move_number),
            format!("movecount={}", draw.move_count),
            format!("score={}", draw.score),
        ]);
    }
    if let Some(sprt) = &command.sprt {
        words.extend([
            "-sprt".to_owned(),
            format!("elo0={}", sprt.elo0()),
            format!("elo1={}", sprt.elo1()),
            format!("alpha={}", sprt.alpha()),
            format!("beta={}", sprt.beta()),
            format!("model={}", sprt.model()),
        ]);
    }
    words
}

/// One engine's `-engine` words (`clock`: some engine has a time limit of its own, so
/// every engine without one gets this one here).
fn engine_words(
    words: &Words,
    entrant: &Entrant,
    clock: Option<&String>,
    line: &mut CommandLine,
) -> Result<(), TournamentError> {
    let Entrant { spec, launch } = entrant;
    line.push("-engine");
    line.push(format!("name={}", launch.name));
    line.push(format!("cmd={}", launch.program()));
    let args = launch.args();
    match words.args {
        Args::EachArg => line.extend(args.iter().map(|arg| format!("arg={arg}"))),
        Args::SplitAtSpaces if args.is_empty() => {}
        Args::SplitAtSpaces => {
            if let Some(arg) = args.iter().find(|arg| arg.contains(char::is_whitespace)) {
                return Err(EngineSpecError {
                    engine: spec.index,
                    reason: format!(
                        "argument '{arg}' holds a space, and {} splits args= at \
                         spaces: use a wrapper script",
                        words.name
                    ),
                }
                .into());
            }
            line.push(format!("args={}", args.join(" ")));
        }
    }
    if let Some(dir) = &spec.dir {
        line.push(format!("dir={dir}"));
    }
    line.push(format!("proto={}", spec.protocol_or_uci()));
    line.extend(
        spec.init_strings
            .iter()
            .map(|line| format!("initstr={line}")),
    );
    match spec.restart {
        // fastchess knows only on and off; auto is both tools' default.
        Some(Restart::Auto) | None => {}
        Some(restart) => line.push(format!("restart={restart}")),
    }
    let limits = &spec.limits;
    match (&limits.tc, &limits.st, clock) {
        (_, Some((st, _)), _) => line.push(format!("st={st}")),
        (Some(tc), None, _) => line.push(format!("tc={tc}")),
        (None, None, Some(clock)) => line.push(clock.clone()),
        (None, None, None) => {}
    }
    if let Some(depth) = limits.depth {
        line.push(format!("depth={depth}"));
    }
    if let Some(nodes) = limits.nodes {
        line.push(format!("nodes={nodes}"));
    }
    line.extend(
        launch
            .options
            .iter()
            .map(|(name, value)| format!("option.{name}={value}")),
    );
    Ok(())
}
