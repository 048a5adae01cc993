//! Launchers: the proxy as one program path, for GUIs that start an engine by its path
//! alone, with no arguments, in a working directory of their choosing. A launcher is a copy of the
//! sp960 executable (`PATH`, on Windows `PATH.exe`) and a settings file beside it (`PATH`
//! without a trailing `.exe`, plus `.sp960.json`) that holds the directory to run in and
//! the words of `sp960 proxy`:
//!
//! ```json
//! {
//!   "sp960-launcher": 1,
//!   "directory": "/home/me/chess",
//!   "proxy": ["--sp", "860", "--", "/usr/games/stockfish"]
//! }
//! ```
//!
//! This module owns the settings file (its JSON written and read back, every error with
//! the file and, for JSON, its line:column), writing a launcher ([`write_launcher`]),
//! making the engine program absolute before it is written ([`absolute_engine_program`]),
//! and deciding at start whether the running executable is a launcher
//! ([`Invocation::of`]). What the proxy words mean is the command line's: `cli` parses them
//! as `sp960 proxy <words>` after changing into the directory, so a launcher runs the very
//! code `sp960 proxy` runs. `tournaments/` writes launchers through the same calls.
//!
//! Must not import: `proxy`, `matches`, `engine`, `tournaments`, `cli` (they stand above
//! it). It imports `os` (copies made executable, `.exe`, PATH lookup, atomic writes).

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::exit_code;
use crate::os::fs::{executable_path, is_executable, set_executable, write_atomic};
use crate::os::process::{find_program, program_file};

/// What ends a launcher's path (without `.exe`) to name its settings file.
pub(crate) const SETTINGS_SUFFIX: &str = ".sp960.json";

/// The version of the settings file this sp960 writes and reads.
pub(crate) const SETTINGS_VERSION: u64 = 1;

/// What a launcher runs: `sp960 proxy <proxy_args>` in `directory`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LauncherSettings {
    /// Absolute: the current directory when the launcher was written.
    pub directory: PathBuf,
    /// The words after `sp960 proxy`, the engine program and `--log` already absolute.
    pub proxy_args: Vec<String>,
}

/// The settings file as JSON, version 1.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an sp960 launcher settings object")]
struct SettingsFile {
    #[serde(rename = "sp960-launcher")]
    version: u64,
    directory: String,
    proxy: Vec<String>,
}

/// Why a launcher could not be written, read or started.
#[derive(Debug, Error)]
pub(crate) enum LauncherError {
    /// The settings file cannot be read.
    #[error("cannot read {}: {source}", file.display())]
    Read { file: PathBuf, source: io::Error },
    /// The settings file is not the JSON it should be.
    #[error("{}:{line}:{column}: {reason}", file.display())]
    Json {
        file: PathBuf,
        line: usize,
        column: usize,
        reason: String,
    },
    /// The settings file has no version.
    #[error("{}: no \"sp960-launcher\" version: not a launcher settings file", file.display())]
    NoVersion { file: PathBuf },
    /// The settings file is of a version this sp960 does not read.
    #[error(
        "{}: unknown launcher version {found} (this sp960 reads version {SETTINGS_VERSION}: write the launcher again with it)",
        file.display()
    )]
    UnknownVersion { file: PathBuf, found: String },
    /// The settings file's directory is not absolute.
    #[error("{}: \"directory\" must be an absolute path, not '{directory}'", file.display())]
    RelativeDirectory { file: PathBuf, directory: String },
    /// The settings file's directory is not there (moved, deleted, another machine).
    #[error(
        "{}: the directory '{}' does not exist (write the launcher again from where its engine and files are)",
        file.display(),
        directory.display()
    )]
    MissingDirectory { file: PathBuf, directory: PathBuf },
    /// The settings file's directory cannot be made the current one.
    #[error("{}: cannot change into '{}': {source}", file.display(), directory.display())]
    EnterDirectory {
        file: PathBuf,
        directory: PathBuf,
        source: io::Error,
    },
    /// A launcher was started with command-line arguments.
    #[error(
        "this program is a launcher and takes no arguments: its command is in {} (run sp960 itself for other commands)",
        file.display()
    )]
    ArgumentsGiven { file: PathBuf },
    /// A copy of sp960 under another name, started with no arguments and no settings file.
    #[error(
        "no settings file {} beside {}: a launcher needs it (write one with: sp960 proxy --write-launcher PATH [options] -- ENGINE)",
        file.display(),
        exe.display()
    )]
    MissingSettings { file: PathBuf, exe: PathBuf },
    /// A settings file's directory or words are not Unicode (JSON holds text only).
    #[error("{what} '{}' is not valid Unicode: a launcher's settings file cannot hold it", path.display())]
    NotUnicode { what: &'static str, path: PathBuf },
    /// The directory given to be written is not absolute (a caller's slip).
    #[error("a launcher's directory must be absolute, not '{}'", .0.display())]
    NotAbsolute(PathBuf),
    /// The path to write holds a file that is not a launcher.
    #[error(
        "{} exists and is not a launcher (no settings file {} beside it): not overwritten; remove it or choose another path",
        path.display(),
        settings.display()
    )]
    NotALauncher { path: PathBuf, settings: PathBuf },
    /// The launcher would replace the running executable itself.
    #[error("{} is this sp960 executable itself: choose another path", .0.display())]
    OntoItself(PathBuf),
    /// The path to write is a directory.
    #[error("{} is a directory: give the launcher's file path", .0.display())]
    IsDirectory(PathBuf),
    /// Where the running sp960 is cannot be found (nothing to copy).
    #[error("cannot find the sp960 executable to copy: {0}")]
    CurrentExe(io::Error),
    /// Writing the launcher or its settings file failed.
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    /// The engine program is not found (on PATH for a bare name).
    #[error("engine '{0}' not found")]
    EngineNotFound(String),
    /// The engine program is a file that cannot be executed.
    #[error("engine '{0}' is not executable")]
    EngineNotExecutable(String),
}

impl LauncherError {
    /// The process exit code: 127 and 126 for an engine not found or not executable, as
    /// the proxy ends for them; 2 (usage) for everything else.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            LauncherError::EngineNotFound(_) => exit_code::ENGINE_NOT_FOUND,
            LauncherError::EngineNotExecutable(_) => exit_code::ENGINE_NOT_EXECUTABLE,
            _ => exit_code::USAGE,
        }
    }
}

/// The settings file of the launcher at `launcher`: the path without a trailing `.exe`
/// (in any case, on every platform), plus [`SETTINGS_SUFFIX`].
pub(crate) fn settings_path(launcher: &Path) -> PathBuf {
    let has_exe = launcher
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("exe"));
    let mut name = if has_exe {
        launcher.with_extension("").into_os_string()
    } else {
        launcher.as_os_str().to_owned()
    };
    name.push(SETTINGS_SUFFIX);
    PathBuf::from(name)
}

impl LauncherSettings {
    /// The settings file's text: pretty JSON, one trailing newline.
    pub(crate) fn to_json(&self) -> Result<String, LauncherError> {
        if !self.directory.is_absolute() {
            return Err(LauncherError::NotAbsolute(self.directory.clone()));
        }
        let directory = self
            .directory
            .to_str()
            .ok_or_else(|| LauncherError::NotUnicode {
                what: "the directory",
                path: self.directory.clone(),
            })?
            .to_owned();
        let file = SettingsFile {
            version: SETTINGS_VERSION,
            directory,
            proxy: self.proxy_args.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).expect("strings serialize");
        text.push('\n');
        Ok(text)
    }

    /// Reads the text of the settings file `file` (named in every error): the version
    /// first, then the fields; the directory must be absolute.
    pub(crate) fn from_json(file: &Path, text: &str) -> Result<LauncherSettings, LauncherError> {
        // The version alone first, so that a file of another version is told as such, not
        // by the fields it has.
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).map_err(|err| json_error(file, &err))?;
        match object.get("sp960-launcher") {
            None => {
                return Err(LauncherError::NoVersion {
                    file: file.to_path_buf(),
                });
            }
            Some(serde_json::Value::Number(number))
                if number.as_u64() == Some(SETTINGS_VERSION) => {}
            Some(found) => {
                return Err(LauncherError::UnknownVersion {
                    file: file.to_path_buf(),
                    found: found.to_string(),
                });
            }
        }
        let settings: SettingsFile =
            serde_json::from_str(text).map_err(|err| json_error(file, &err))?;
        let directory = PathBuf::from(&settings.directory);
        if !directory.is_absolute() {
            return Err(LauncherError::RelativeDirectory {
                file: file.to_path_buf(),
                directory: settings.directory,
            });
        }
        Ok(LauncherSettings {
            directory,
            proxy_args: settings.proxy,
        })
    }

    /// Reads the settings file `file` from the disk.
    pub(crate) fn read(file: &Path) -> Result<LauncherSettings, LauncherError> {
        let text = fs::read_to_string(file).map_err(|source| LauncherError::Read {
            file: file.to_path_buf(),
            source,
        })?;
        LauncherSettings::from_json(file, &text)
    }
}

/// serde_json's error as the file, line:column and reason (its message without the
/// ` at line L column C` it appends).
fn json_error(file: &Path, err: &serde_json::Error) -> LauncherError {
    let (line, column) = (err.line(), err.column());
    let message = err.to_string();
    let suffix = format!(" at line {line} column {column}");
    let reason = message.strip_suffix(&suffix).unwrap_or(&message).to_owned();
    LauncherError::Json {
        file: file.to_path_buf(),
        line,
        column,
        reason,
    }
}

/// Writes a launcher at `path` (on Windows `path.exe` unless it ends so): a copy of the
/// running sp960 executable, made executable, and its settings file beside it, replaced
/// atomically. An existing launcher (a file with its settings file beside it) is
/// overwritten; any other file at that path is refused. Returns the launcher's path as
/// written. The caller has made the engine program absolute ([`absolute_engine_program`]).
pub(crate) fn write_launcher(
    path: &Path,
    settings: &LauncherSettings,
) -> Result<PathBuf, LauncherError> {
    let program = env::current_exe().map_err(LauncherError::CurrentExe)?;
    write_launcher_copying(&program, path, settings)
}

/// [`write_launcher`] with the program to copy given.
fn write_launcher_copying(
    program: &Path,
    path: &Path,
    settings: &LauncherSettings,
) -> Result<PathBuf, LauncherError> {
    let launcher = executable_path(path);
    let settings_file = settings_path(&launcher);
    if launcher.is_dir() {
        return Err(LauncherError::IsDirectory(launcher));
    }
    if launcher.exists() {
        if !settings_file.is_file() {
            return Err(LauncherError::NotALauncher {
                path: launcher,
                settings: settings_file,
            });
        }
        if same_file(program, &launcher) {
            return Err(LauncherError::OntoItself(launcher));
        }
    }
    let text = settings.to_json()?;
    // The settings first: a failed copy then leaves a settings file without a launcher,
    // which the next write replaces, never a launcher without settings.
    write_atomic(&settings_file, text.as_bytes()).map_err(|source| LauncherError::Write {
        path: settings_file.clone(),
        source,
    })?;
    copy_executable(program, &launcher).map_err(|source| LauncherError::Write {
        path: launcher.clone(),
        source,
    })?;
    Ok(launcher)
}

/// Whether two paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Copies `program` to `PATH.tmp` beside `launcher`, makes it executable and renames it
/// over `launcher`, so a GUI never starts half a copy.
fn copy_executable(program: &Path, launcher: &Path) -> io::Result<()> {
    let mut temp = launcher.as_os_str().to_owned();
    temp.push(".tmp");
    let temp = PathBuf::from(temp);
    let copied = fs::copy(program, &temp)
        .and_then(|_| set_executable(&temp))
        .and_then(|()| fs::rename(&temp, launcher));
    if copied.is_err() {
        let _ = fs::remove_file(&temp);
    }
    copied
}

/// The engine program as a launcher's settings hold it: absolute. A bare name
/// (`stockfish`) is looked up on PATH as the proxy's start finds it (on Windows with
/// `PATHEXT`), a path (`engines/sf`, `./sf`) is taken against the current directory. Not
/// found or not executable: the errors whose exit codes are 127 and 126, as the proxy's.
pub(crate) fn absolute_engine_program(program: &OsStr) -> Result<PathBuf, LauncherError> {
    let path = Path::new(program);
    let shown = program.to_string_lossy().into_owned();
    let bare = matches!(
        path.components().collect::<Vec<_>>().as_slice(),
        [Component::Normal(_)]
    );
    let file = if bare {
        let name = program.to_str().ok_or_else(|| LauncherError::NotUnicode {
            what: "the engine program",
            path: path.to_path_buf(),
        })?;
        find_program(name).ok_or_else(|| LauncherError::EngineNotFound(shown.clone()))?
    } else {
        program_file(path).ok_or_else(|| LauncherError::EngineNotFound(shown.clone()))?
    };
    if !is_executable(&file) {
        return Err(LauncherError::EngineNotExecutable(shown));
    }
    std::path::absolute(&file).map_err(|_| LauncherError::EngineNotFound(shown))
}

/// What the running executable is, decided at start from its own path and whether it was
/// given arguments.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Invocation {
    /// The ordinary sp960 command line.
    CommandLine,
    /// A launcher: run `sp960 proxy <settings.proxy_args>` in `settings.directory`.
    Launcher {
        /// Its settings file, named in every error.
        file: PathBuf,
        /// What it holds, checked: the version, the absolute directory, which exists.
        settings: LauncherSettings,
    },
}

impl Invocation {
    /// The contract's rules: a settings file beside `exe` makes it a launcher (read and
    /// checked; arguments refused); without one, a program not named `sp960` (ASCII case
    /// ignored) started with no arguments is a launcher that lost its settings (an error,
    /// never a silent engine); anything else is the ordinary command line.
    pub(crate) fn of(exe: &Path, has_arguments: bool) -> Result<Invocation, LauncherError> {
        let file = settings_path(exe);
        if !file.exists() {
            let named_sp960 = exe
                .file_stem()
                .is_some_and(|stem| stem.eq_ignore_ascii_case("sp960"));
            if !named_sp960 && !has_arguments {
                return Err(LauncherError::MissingSettings {
                    file,
                    exe: exe.to_path_buf(),
                });
            }
            return Ok(Invocation::CommandLine);
        }
        if has_arguments {
            return Err(LauncherError::ArgumentsGiven { file });
        }
        let settings = LauncherSettings::read(&file)?;
        if !settings.directory.is_dir() {
            return Err(LauncherError::MissingDirectory {
                file,
                directory: settings.directory,
            });
        }
        Ok(Invocation::Launcher { file, settings })
    }
}

/// Changes into a launcher's directory, so that relative paths in its words mean what
/// they meant when it was written.
pub(crate) fn enter_directory(
    file: &Path,
    settings: &LauncherSettings,
) -> Result<(), LauncherError> {
    env::set_current_dir(&settings.directory).map_err(|source| LauncherError::EnterDirectory {
        file: file.to_path_buf(),
        directory: settings.directory.clone(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn absolute_dir() -> PathBuf {
        env::current_dir().unwrap()
    }

    fn settings() -> LauncherSettings {
        LauncherSettings {
            directory: absolute_dir(),
            proxy_args: ["--sp", "860", "--", "/usr/games/stockfish"]
                .map(str::to_owned)
                .to_vec(),
        }
    }

    #[test]
    fn settings_round_trip_through_their_json() {
        let written = settings();
        let text = written.to_json().unwrap();
        assert!(text.ends_with("}\n"));
        assert!(text.contains("\"sp960-launcher\": 1,"), "{text}");
        let file = Path::new("sf.sp960.json");
        assert_eq!(LauncherSettings::from_json(file, &text).unwrap(), written);
        let odd = LauncherSettings {
            directory: absolute_dir(),
            proxy_args: vec!["--log".into(), "a \"b\"\\c é".into()],
        };
        let text = odd.to_json().unwrap();
        assert_eq!(LauncherSettings::from_json(file, &text).unwrap(), odd);
    }

    #[test]
    fn the_settings_file_is_the_path_without_exe_plus_the_suffix() {
        assert_eq!(
            settings_path(Path::new("engines/stockfish-960")),
            Path::new("engines/stockfish-960.sp960.json")
        );
        assert_eq!(
            settings_path(Path::new("e/sf-960.exe")),
            Path::new("e/sf-960.sp960.json")
        );
        assert_eq!(
            settings_path(Path::new("e/SF.EXE")),
            Path::new("e/SF.sp960.json")
        );
        assert_eq!(
            settings_path(Path::new("e/sf.1.5")),
            Path::new("e/sf.1.5.sp960.json")
        );
    }

    fn error_text(text: &str) -> String {
        LauncherSettings::from_json(Path::new("e/sf.sp960.json"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_settings_name_the_file_the_place_and_the_reason() {
        assert_eq!(
            error_text("{\n  \"sp960-launcher\": 1,\n  \"directory\": \"/x\"\n  \"proxy\": []\n}"),
            "e/sf.sp960.json:4:3: expected `,` or `}`"
        );
        assert_eq!(
            error_text(""),
            "e/sf.sp960.json:1:0: EOF while parsing a value"
        );
        assert_eq!(
            error_text("[1]"),
            "e/sf.sp960.json:1:0: invalid type: sequence, expected a map"
        );
        assert_eq!(
            error_text("{\"sp960-launcher\": 2, \"anything\": 0}"),
            "e/sf.sp960.json: unknown launcher version 2 (this sp960 reads version 1: write the launcher again with it)"
        );
        assert_eq!(
            error_text("{\"sp960-launcher\": \"1\"}"),
            "e/sf.sp960.json: unknown launcher version \"1\" (this sp960 reads version 1: write the launcher again with it)"
        );
        assert_eq!(
            error_text("{\"directory\": \"/x\", \"proxy\": []}"),
            "e/sf.sp960.json: no \"sp960-launcher\" version: not a launcher settings file"
        );
        assert_eq!(
            error_text("{\"sp960-launcher\": 1,\n\"directory\": \"/x\", \"proxy\": [860]}"),
            "e/sf.sp960.json:2:32: invalid type: integer `860`, expected a string"
        );
        assert_eq!(
            error_text("{\"sp960-launcher\": 1, \"directory\": \"/x\"}"),
            "e/sf.sp960.json:1:40: missing field `proxy`"
        );
        assert_eq!(
            error_text(
                "{\"sp960-launcher\": 1, \"directory\": \"/x\", \"proxy\": [], \"args\": []}"
            ),
            "e/sf.sp960.json:1:60: unknown field `args`, expected one of `sp960-launcher`, `directory`, `proxy`"
        );
        assert_eq!(
            error_text("{\"sp960-launcher\": 1, \"directory\": \"chess\", \"proxy\": []}"),
            "e/sf.sp960.json: \"directory\" must be an absolute path, not 'chess'"
        );
    }

    #[test]
    fn a_launcher_is_written_beside_its_settings_and_refuses_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("program");
        fs::write(&program, b"the program").unwrap();
        let path = dir.path().join("sf-960");
        let written = write_launcher_copying(&program, &path, &settings()).unwrap();
        assert_eq!(written, executable_path(&path));
        assert_eq!(fs::read(&written).unwrap(), b"the program");
        assert!(is_executable(&written));
        let file = settings_path(&written);
        assert_eq!(LauncherSettings::read(&file).unwrap(), settings());

        // A launcher is overwritten.
        fs::write(&program, b"a new program").unwrap();
        let mut other = settings();
        other.proxy_args[1] = "0".into();
        write_launcher_copying(&program, &path, &other).unwrap();
        assert_eq!(fs::read(&written).unwrap(), b"a new program");
        assert_eq!(LauncherSettings::read(&file).unwrap(), other);

        // Any other file is not.
        let plain = dir.path().join("notes");
        fs::write(executable_path(&plain), b"keep me").unwrap();
        let err = write_launcher_copying(&program, &plain, &settings()).unwrap_err();
        assert!(matches!(err, LauncherError::NotALauncher { .. }), "{err}");
        assert!(
            err.to_string().contains("exists and is not a launcher"),
            "{err}"
        );
        assert_eq!(fs::read(executable_path(&plain)).unwrap(), b"keep me");
        assert!(!settings_path(&executable_path(&plain)).exists());

        // A directory where the launcher would go (`folder`, on Windows `folder.exe`).
        let folder = dir.path().join("folder");
        fs::create_dir(executable_path(&folder)).unwrap();
        let err = write_launcher_copying(&program, &folder, &settings()).unwrap_err();
        assert!(matches!(err, LauncherError::IsDirectory(_)), "{err}");
        let missing = dir.path().join("no/such/dir/sf");
        let err = write_launcher_copying(&program, &missing, &settings()).unwrap_err();
        assert!(matches!(err, LauncherError::Write { .. }), "{err}");
        assert_eq!(err.exit_code(), exit_code::USAGE);
    }

    #[test]
    fn the_engine_is_made_absolute_or_refused_with_the_proxys_codes() {
        let dir = tempfile::tempdir().unwrap();
        let engine = dir.path().join("engine");
        fs::write(&engine, b"x").unwrap();
        if cfg!(unix) {
            let err = absolute_engine_program(engine.as_os_str()).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("engine '{}' is not executable", engine.display())
            );
            assert_eq!(err.exit_code(), exit_code::ENGINE_NOT_EXECUTABLE);
        }
        set_executable(&engine).unwrap();
        assert_eq!(absolute_engine_program(engine.as_os_str()).unwrap(), engine);
        let missing = dir.path().join("missing");
        let err = absolute_engine_program(missing.as_os_str()).unwrap_err();
        assert_eq!(err.exit_code(), exit_code::ENGINE_NOT_FOUND);
        let err = absolute_engine_program(OsStr::new("no-such-engine-sp960")).unwrap_err();
        assert_eq!(err.to_string(), "engine 'no-such-engine-sp960' not found");
        assert_eq!(err.exit_code(), exit_code::ENGINE_NOT_FOUND);
    }

    #[test]
    fn the_invocation_follows_the_contract() {
        let dir = tempfile::tempdir().unwrap();
        let sp960 = dir.path().join("sp960");
        let copy = dir.path().join("sf-960");
        assert_eq!(
            Invocation::of(&sp960, false).unwrap(),
            Invocation::CommandLine
        );
        assert_eq!(
            Invocation::of(&sp960, true).unwrap(),
            Invocation::CommandLine
        );
        assert_eq!(
            Invocation::of(&dir.path().join("SP960.exe"), false).unwrap(),
            Invocation::CommandLine
        );
        assert_eq!(
            Invocation::of(&copy, true).unwrap(),
            Invocation::CommandLine
        );
        let err = Invocation::of(&copy, false).unwrap_err();
        assert!(
            matches!(err, LauncherError::MissingSettings { .. }),
            "{err}"
        );

        fs::write(settings_path(&copy), settings().to_json().unwrap()).unwrap();
        let err = Invocation::of(&copy, true).unwrap_err();
        assert!(matches!(err, LauncherError::ArgumentsGiven { .. }), "{err}");
        assert_eq!(
            Invocation::of(&copy, false).unwrap(),
            Invocation::Launcher {
                file: settings_path(&copy),
                settings: settings()
            }
        );
        let gone = LauncherSettings {
            directory: dir.path().join("gone"),
            proxy_args: vec![],
        };
        fs::write(settings_path(&copy), gone.to_json().unwrap()).unwrap();
        let err = Invocation::of(&copy, false).unwrap_err();
        assert!(
            matches!(err, LauncherError::MissingDirectory { .. }),
            "{err}"
        );
    }
}
