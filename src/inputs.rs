//! The files a command reads: paths as given, directories walked recursively for names
//! matching glob patterns, `-` (or nothing) for stdin.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The patterns directories are searched for by default: FEN and EPD fixtures, text files,
/// and PGN files (books and game collections; their `[FEN "…"]` tags are the records).
pub const DEFAULT_GLOBS: [&str; 4] = ["*.fen", "*.epd", "*.txt", "*.pgn"];

/// One input to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A path given by the user or found in a directory.
    Path(PathBuf),
}

impl Input {
    /// How diagnostics name the input.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_owned(),
            Input::Path(path) => path.display().to_string(),
        }
    }
}

/// A path that could not be listed (a missing file, an unreadable directory).
#[derive(Debug)]
pub struct InputError {
    /// The path as named.
    pub path: PathBuf,
    /// What went wrong.
    pub error: io::Error,
}

/// The inputs `paths` stand for, in order: `-` is stdin, a directory is every file below
/// it whose name matches one of `globs` (sorted by name; symbolic links to directories and
/// special files such as FIFOs inside directories are not followed), anything else is
/// read as given. No paths means stdin.
pub fn expand(paths: &[String], globs: &[String]) -> (Vec<Input>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    if paths.is_empty() {
        inputs.push(Input::Stdin);
    }
    for path in paths {
        if path == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let path = PathBuf::from(path);
        match fs::metadata(&path) {
            Ok(metadata) if metadata.is_dir() => walk(&path, globs, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::Path(path)),
            Err(error) => errors.push(InputError { path, error }),
        }
    }
    (inputs, errors)
}

fn walk(dir: &Path, globs: &[String], inputs: &mut Vec<Input>, errors: &mut Vec<InputError>) {
    let entries = match fs::read_dir(dir).and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
    {
        Ok(entries) => entries,
        Err(error) => {
            errors.push(InputError {
                path: dir.to_owned(),
                error,
            });
            return;
        }
    };
    let mut entries: Vec<_> = entries.into_iter().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        let link_metadata = match fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(error) => {
                errors.push(InputError { path, error });
                continue;
            }
        };
        if link_metadata.is_dir() {
            walk(&path, globs, inputs, errors);
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if !globs.iter().any(|glob| glob_matches(glob, &name)) {
            continue;
        }
        // A symbolic link counts when it leads to a regular file.
        match fs::metadata(&path) {
            Ok(metadata) if metadata.is_file() => inputs.push(Input::Path(path)),
            Ok(_) => {}
            Err(error) => errors.push(InputError { path, error }),
        }
    }
}

/// Whether `name` matches `pattern`: `*` any run of characters, `?` one character.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    // Classic greedy matching with backtracking to the last `*`.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == name[n]) {
            p += 1;
            n += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, n));
            p += 1;
        } else if let Some((star_p, star_n)) = star {
            p = star_p + 1;
            n = star_n + 1;
            star = Some((star_p, star_n + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_matches("*.fen", "perft.fen"));
        assert!(glob_matches("*.fen", ".fen"));
        assert!(!glob_matches("*.fen", "perft.fen.bak"));
        assert!(glob_matches("*.f?n", "a.fan"));
        assert!(glob_matches("a*b*c", "aXXbYYbc"));
        assert!(!glob_matches("a*b*c", "aXXbYYb"));
        assert!(glob_matches("*", ""));
        assert!(!glob_matches("?", ""));
    }

    #[test]
    fn directories_are_walked_sorted_and_filtered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("sub")).unwrap();
        for name in ["b.fen", "a.epd", "notes.md", "sub/c.txt", "sub/d.pgn"] {
            fs::write(root.join(name), "").unwrap();
        }
        let globs: Vec<String> = DEFAULT_GLOBS.iter().map(|g| g.to_string()).collect();
        let (inputs, errors) = expand(&[root.display().to_string()], &globs);
        assert!(errors.is_empty());
        let names: Vec<String> = inputs
            .iter()
            .map(|input| match input {
                Input::Path(path) => path.strip_prefix(root).unwrap().display().to_string(),
                Input::Stdin => "-".to_owned(),
            })
            .collect();
        assert_eq!(names, ["a.epd", "b.fen", "sub/c.txt", "sub/d.pgn"]);
        // A link to a file counts, a link to a directory is not followed (no loops), a
        // dangling link is an error, not a silent skip.
        std::os::unix::fs::symlink(root.join("b.fen"), root.join("sub/link.fen")).unwrap();
        std::os::unix::fs::symlink(root, root.join("sub/loop")).unwrap();
        std::os::unix::fs::symlink(root.join("gone"), root.join("sub/dangling.epd")).unwrap();
        let (inputs, errors) = expand(&[root.join("sub").display().to_string()], &globs);
        let names: Vec<_> = inputs.iter().map(Input::name).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names[0].ends_with("sub/c.txt") && names[1].ends_with("sub/d.pgn"));
        assert!(names[2].ends_with("sub/link.fen"));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].path.ends_with("sub/dangling.epd"));
        let (inputs, errors) = expand(&["-".to_owned(), "/no/such/file".to_owned()], &globs);
        assert_eq!(inputs, [Input::Stdin]);
        assert_eq!(errors[0].error.kind(), io::ErrorKind::NotFound);
    }
}
