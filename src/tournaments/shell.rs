//! A command line written for the shell the user will paste it into: a POSIX shell (sh,
//! bash, zsh), Windows' cmd.exe, or PowerShell. Each quotes a word that needs it its own way
//! and continues a long line with its own mark, so the words the runner receives are the
//! words sp960 planned.

/// The shells a command line can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// POSIX shells (sh, bash, zsh): single quotes, `\` continues a line.
    Sh,
    /// Windows' cmd.exe: double quotes (a `"` inside as `\"`), `^` continues a line.
    Cmd,
    /// PowerShell: single quotes (a `'` inside doubled), a backtick continues a line, and a
    /// quoted program is called with `&`.
    Powershell,
}

impl Shell {
    /// The shell of the platform sp960 was built for: PowerShell on Windows, sh elsewhere.
    pub fn platform() -> Shell {
        if cfg!(windows) {
            Shell::Powershell
        } else {
            Shell::Sh
        }
    }

    /// `word` quoted where this shell needs it.
    pub fn quote(self, word: &str) -> String {
        match self {
            Shell::Sh => {
                let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
                if !word.is_empty() && word.chars().all(plain) {
                    word.to_owned()
                } else {
                    format!("'{}'", word.replace('\'', r"'\''"))
                }
            }
            Shell::Cmd => {
                let plain = |c: char| c.is_ascii_alphanumeric() || "_@+=:,./-\\".contains(c);
                if !word.is_empty() && word.chars().all(plain) {
                    word.to_owned()
                } else {
                    // The program's own argument parser (CommandLineToArgvW rules) reads
                    // `\"` as a quote and halves the backslashes before one.
                    let mut quoted = String::from("\"");
                    let mut backslashes = 0;
                    for c in word.chars() {
                        match c {
                            '\\' => backslashes += 1,
                            '"' => {
                                quoted.extend(std::iter::repeat_n('\\', 2 * backslashes + 1));
                                backslashes = 0;
                            }
                            _ => backslashes = 0,
                        }
                        quoted.push(c);
                    }
                    quoted.extend(std::iter::repeat_n('\\', backslashes));
                    quoted.push('"');
                    quoted
                }
            }
            Shell::Powershell => {
                let plain = |c: char| c.is_ascii_alphanumeric() || "_+=:,./-\\".contains(c);
                if !word.is_empty() && word.chars().all(plain) {
                    word.to_owned()
                } else {
                    format!("'{}'", word.replace('\'', "''"))
                }
            }
        }
    }

    /// `argv` as one command of this shell, with a line break before each word whose index
    /// is in `breaks`; ends in a newline.
    pub fn line(self, argv: &[String], breaks: &[usize]) -> String {
        let continuation = match self {
            Shell::Sh => " \\\n  ",
            Shell::Cmd => " ^\n  ",
            Shell::Powershell => " `\n  ",
        };
        let mut line = String::new();
        for (index, word) in argv.iter().enumerate() {
            let quoted = self.quote(word);
            if index == 0 {
                if self == Shell::Powershell && quoted.starts_with('\'') {
                    line.push_str("& ");
                }
            } else if breaks.contains(&index) {
                line.push_str(continuation);
            } else {
                line.push(' ');
            }
            line.push_str(&quoted);
        }
        line.push('\n');
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn posix_quotes_and_breaks() {
        let argv = words(&["x", "-a", "b c", "-d"]);
        assert_eq!(Shell::Sh.line(&argv, &[3]), "x -a 'b c' \\\n  -d\n");
        assert_eq!(Shell::Sh.quote("it's"), r"'it'\''s'");
        assert_eq!(Shell::Sh.quote(""), "''");
        assert_eq!(Shell::Sh.quote("option.Hash=16"), "option.Hash=16");
        assert_eq!(
            shlex::split(&Shell::Sh.quote("a 'b' $c")).unwrap(),
            ["a 'b' $c"]
        );
    }

    #[test]
    fn cmd_quotes_for_the_programs_argument_parser() {
        let argv = words(&[
            "cutechess-cli",
            "-engine",
            r"cmd=C:\Program Files\sf.exe",
            r"args=proxy -- C:\x",
            r#"say "hi"\"#,
            "",
        ]);
        let line = Shell::Cmd.line(&argv, &[1]);
        assert_eq!(
            line,
            "cutechess-cli ^\n  -engine \"cmd=C:\\Program Files\\sf.exe\" \"args=proxy -- C:\\x\" \"say \\\"hi\\\"\\\\\" \"\"\n"
        );
        // Read back by the Windows rules sp960 itself reads --engine with.
        let joined = line.replace(" ^\n  ", " ");
        assert_eq!(
            crate::launch::spec::split_windows(joined.trim_end()).unwrap(),
            argv
        );
        assert_eq!(Shell::Cmd.quote(r"C:\Engines\sf.exe"), r"C:\Engines\sf.exe");
    }

    #[test]
    fn powershell_single_quotes_and_calls_a_quoted_program() {
        let argv = words(&[
            r"C:\Program Files\cutechess-cli.exe",
            "-engine",
            "name=it's",
            "$x",
        ]);
        assert_eq!(
            Shell::Powershell.line(&argv, &[1]),
            "& 'C:\\Program Files\\cutechess-cli.exe' `\n  -engine 'name=it''s' '$x'\n"
        );
        assert_eq!(
            Shell::Powershell.line(&words(&["fastchess", "-each", "tc=10+0.1"]), &[]),
            "fastchess -each tc=10+0.1\n"
        );
    }
}
