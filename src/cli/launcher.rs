//! The start of every run: [`Cli::from_env_or_launcher`] decides whether this executable is
//! a launcher ([`crate::launch::proxy_launcher::Invocation`]) and, if so, parses its settings'
//! words as `sp960 proxy <words>` and changes into its directory, so that a launcher runs
//! the very code path of `sp960 proxy`; otherwise it parses the command line.

use std::env;

use clap::Parser;
use clap::error::ErrorKind;

use super::values::refused_failure;
use super::{Cli, Command, CommandFailure};
use crate::exit_code;
use crate::exit_code::Refused;
use crate::launch::proxy_launcher::{Invocation, LauncherError, enter_directory};

impl Cli {
    /// The command this process runs: the command line (clap reports its own errors and
    /// exits), or for a launcher the proxy command in its settings file, after changing
    /// into its directory. A launcher's errors are `launcher: ...` failures, exit 2.
    pub fn from_env_or_launcher() -> Result<Cli, CommandFailure> {
        let has_arguments = env::args_os().len() > 1;
        let Ok(exe) = env::current_exe() else {
            return command_line();
        };
        let (file, settings) = match Invocation::of(&exe, has_arguments) {
            Ok(Invocation::CommandLine) => return command_line(),
            Ok(Invocation::Launcher { file, settings }) => (file, settings),
            Err(err) => return Err(launcher_failure(&err)),
        };
        let words = ["sp960", "proxy"]
            .into_iter()
            .chain(settings.proxy_args.iter().map(String::as_str));
        let refused = |reason: String| {
            CommandFailure::new(
                exit_code::USAGE,
                format!(
                    "launcher: {}: the proxy words are refused: {reason}",
                    file.display()
                ),
            )
        };
        // A value the proxy's reader refuses is its failure, as on the command line.
        let cli = Cli::try_parse_from(words).map_err(|err| match Refused::of(&err) {
            Some(value) => refused_failure(value),
            None => refused(clap_reason(&err)),
        })?;
        if let Command::Proxy(args) = &cli.command
            && args.write_launcher.is_some()
        {
            return Err(refused(
                "--write-launcher: a launcher runs the proxy, it does not write launchers"
                    .to_owned(),
            ));
        }
        enter_directory(&file, &settings).map_err(|err| launcher_failure(&err))?;
        Ok(cli)
    }
}

/// The command line parsed: a value a command's reader refused is that command's failure
/// ([`Refused`]); clap reports any other error itself and exits, as `Cli::parse` does.
fn command_line() -> Result<Cli, CommandFailure> {
    Cli::try_parse().or_else(|err| match Refused::of(&err) {
        Some(refused) => Err(refused_failure(refused)),
        None => err.exit(),
    })
}

/// A launcher's error as the failure `main` reports: `sp960: launcher: ...`, exit 2.
fn launcher_failure(err: &LauncherError) -> CommandFailure {
    CommandFailure::new(exit_code::USAGE, format!("launcher: {err}"))
}

/// clap's reason on one line: its first line without `error: `.
fn clap_reason(err: &clap::Error) -> String {
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "they ask for help or the version, not for a proxy".to_owned()
        }
        _ => {
            let rendered = err.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::iter;

    use super::*;

    #[test]
    fn clap_reasons_are_one_line() {
        let err = Cli::try_parse_from(iter::once("sp960").chain(["proxy", "--bogus", "--", "e"]))
            .err()
            .unwrap();
        assert_eq!(clap_reason(&err), "unexpected argument '--bogus' found");
        let err = Cli::try_parse_from(["sp960", "proxy", "--help"])
            .err()
            .unwrap();
        assert_eq!(
            clap_reason(&err),
            "they ask for help or the version, not for a proxy"
        );
    }
}
