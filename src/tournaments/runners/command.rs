//! The runner command: what a runner is asked to play, in no runner's words. `tournament.rs`
//! builds it once from a tournament (and `sp960 match --runner` from a match); each
//! runner's [`super::Dialect`] renders it whole into a [`CommandLine`], which nobody edits after.

use std::time::Duration;

use crate::launch::proxy_invocation::ProxyInvocation;
use crate::launch::spec::EngineSpec;
use crate::launch::time_control::TimeControl;
use crate::matches::config::adjudication::{DrawRule, ResignRule};
use crate::matches::tally::sprt::SprtConfig;

use crate::books::book::BookFormat;
use crate::starts::notation::CastlingNotation;
use crate::starts::start::Start;

/// One command for a match runner.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunnerCommand {
    /// The program: the runner's name, or its path when sp960 runs it.
    pub(crate) program: String,
    /// The engines, in `--engine` order.
    pub(crate) engines: Vec<Entrant>,
    /// The time control of every engine without one of its own; none: no clock at all
    /// (`sp960 match` without `--tc`: the engines' own limits, the runner's `tc=inf`).
    pub(crate) clock: Option<TimeControl>,
    /// How long past its time per move (`st=`) a move may take (`sp960 match --timeout`).
    pub(crate) move_margin: Option<Duration>,
    /// The openings the runner reads.
    pub(crate) book: Openings,
    /// Who meets whom, how often, how many games at once.
    pub(crate) schedule: Schedule,
    /// When the runner ends a game early.
    pub(crate) adjudication: Adjudication,
    /// The SPRT the runner runs, stopping the match when it decides.
    pub(crate) sprt: Option<SprtConfig>,
    /// Where the runner saves the games.
    pub(crate) pgn_out: String,
}

/// The book: where it goes and what it holds; each runner lays it out its way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Openings {
    /// The file, as the command line names it.
    pub(crate) path: String,
    /// The format asked for (a runner may read another).
    pub(crate) format: BookFormat,
    /// The castling notation of its FENs.
    pub(crate) castling: CastlingNotation,
    /// The starts in the order played (placeholders for a book sp960 does not write: only
    /// their number counts then).
    pub(crate) starts: Vec<Start>,
}

/// One engine: as the user gave it, and how the runner starts it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entrant {
    /// The `--engine` (its keys: `dir=`, `proto=`, `initstr=`, `restart=`, its limits).
    pub(crate) spec: EngineSpec,
    /// Its name, program, arguments and options, wrapped in the proxy or not.
    pub(crate) launch: RunnerLaunch,
}

/// How one engine is started: program and arguments (through the proxy or not), and the
/// options it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunnerLaunch {
    /// The engine's name in the tool (unique).
    pub(crate) name: String,
    /// What the tool starts: the engine, or sp960 running it behind the proxy.
    pub(crate) run: Run,
    /// `option.NAME=VALUE` the tool sets: the user's, and those the quirks table adds.
    pub(crate) options: Vec<(String, String)>,
    /// xboard's `-smpCores` the engine needs (polyglot's `Threads`).
    pub(crate) cores: Option<u32>,
}

/// What a tool starts for one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Run {
    /// The engine itself: its program and arguments as the `--engine` gave them.
    Bare {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// `SP960 proxy OPTIONS -- ENGINE ARGS`.
    Proxied {
        /// How the command line runs sp960 (`--sp960`).
        sp960: String,
        /// The proxy's options and the engine.
        invocation: ProxyInvocation,
    },
}

impl RunnerLaunch {
    /// The program the tool starts: the engine, or sp960 when wrapped.
    pub(crate) fn program(&self) -> &str {
        match &self.run {
            Run::Bare { program, .. } => program,
            Run::Proxied { sp960, .. } => sp960,
        }
    }

    /// Its arguments (`proxy ... -- ENGINE ARGS` when wrapped).
    pub(crate) fn args(&self) -> Vec<String> {
        match &self.run {
            Run::Bare { args, .. } => args.clone(),
            Run::Proxied { invocation, .. } => invocation.text_words(),
        }
    }

    /// The proxy's invocation, when wrapped.
    pub(crate) fn proxy(&self) -> Option<&ProxyInvocation> {
        match &self.run {
            Run::Bare { .. } => None,
            Run::Proxied { invocation, .. } => Some(invocation),
        }
    }
}

/// The schedule: every opening played twice per encounter, colours swapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Schedule {
    /// The runner's rounds: one encounter per matchup each.
    pub(crate) rounds: usize,
    /// Who meets whom, when the runner is told (its default is a round-robin).
    pub(crate) kind: Option<TournamentKind>,
    /// Games at once, when given.
    pub(crate) concurrency: Option<u32>,
}

/// Who meets whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TournamentKind {
    /// Every two engines.
    RoundRobin,
    /// The first engine against each other one.
    Gauntlet,
}

/// The runner's adjudication.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Adjudication {
    /// A draw after this many moves of both sides (`-maxmoves`).
    pub(crate) max_moves: Option<u32>,
    /// Resign adjudication (`-resign`).
    pub(crate) resign: Option<ResignRule>,
    /// Draw adjudication (`-draw`).
    pub(crate) draw: Option<DrawRule>,
}

/// A command line: its words, and where a new line reads well.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommandLine {
    /// The command, one word per element.
    pub(crate) argv: Vec<String>,
    /// Indices into `argv` where a new line reads well (before `-engine` and the like).
    pub(crate) breaks: Vec<usize>,
}

impl CommandLine {
    /// A line of `program` alone.
    pub(crate) fn new(program: &str) -> CommandLine {
        CommandLine {
            argv: vec![program.to_owned()],
            breaks: Vec::new(),
        }
    }

    /// A new line of the command begins here.
    pub(crate) fn break_here(&mut self) {
        self.breaks.push(self.argv.len());
    }

    /// Adds `words`.
    pub(crate) fn extend<W: Into<String>>(&mut self, words: impl IntoIterator<Item = W>) {
        self.argv.extend(words.into_iter().map(Into::into));
    }

    /// Adds one word.
    pub(crate) fn push(&mut self, word: impl Into<String>) {
        self.argv.push(word.into());
    }
}
