//! Man pages and shell completions for `sp960`, made from the program's own clap
//! definitions ([`sp960::Cli`]), so they never drift from `--help`:
//!
//! ```sh
//! cargo run --locked --example man_and_completions -- DIR
//! ```
//!
//! writes `DIR/man1/sp960.1` with one page per subcommand (`sp960-fen.1`, ...), and
//! `DIR/completions/`: `sp960.bash`, `_sp960` (zsh), `sp960.fish`, `sp960.elv` and
//! `_sp960.ps1`. docs/platforms.md (Install) shows where to install them; the downloads
//! (scripts/release.sh) carry them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;
use sp960::Cli;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: cargo run --example man_and_completions -- DIR");
        return ExitCode::from(2);
    };
    match write_all(&dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("man_and_completions: {}: {err}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn write_all(dir: &std::path::Path) -> std::io::Result<()> {
    let (man, completions) = (dir.join("man1"), dir.join("completions"));
    std::fs::create_dir_all(&man)?;
    std::fs::create_dir_all(&completions)?;
    clap_mangen::generate_to(Cli::command(), &man)?;
    let mut command = Cli::command();
    for &shell in Shell::value_variants() {
        clap_complete::generate_to(shell, &mut command, "sp960", &completions)?;
    }
    println!(
        "{}: man pages; {}: completions",
        man.display(),
        completions.display()
    );
    Ok(())
}
