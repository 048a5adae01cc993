//! Files that survive a crash: [`write_atomic`] replaces a file with new contents so a
//! reader (or the next run after `kill -9` or a power cut) sees the old contents or the
//! new, never a mixture. And programs as files: [`executable_path`] (Windows's `.exe`),
//! [`set_executable`] and [`is_executable`] (Unix's mode bits).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes`: written to `PATH.tmp` beside it, flushed to the disk
/// (`fsync`), then renamed over `path` (atomic on one file system; on Unix the directory
/// is synced too, so the rename itself survives a power cut).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(".tmp");
    let temp = PathBuf::from(temp);
    let mut file = File::create(&temp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temp, path)?;
    sync_directory(path);
    Ok(())
}

/// The file name a program written at `path` must have to be started by name: on
/// Windows `path` with `.exe` appended unless it already ends so (in any case); elsewhere
/// `path` itself.
pub fn executable_path(path: &Path) -> PathBuf {
    let has_exe = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("exe"));
    if cfg!(windows) && !has_exe {
        let mut name = path.as_os_str().to_owned();
        name.push(".exe");
        PathBuf::from(name)
    } else {
        path.to_path_buf()
    }
}

/// Makes the file at `path` executable: on Unix the read and execute bits of whoever may
/// read it are added (`chmod a+x` for the readers); Windows decides by the name.
#[cfg(unix)]
pub fn set_executable(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = fs::metadata(path)?.permissions();
    let mode = permissions.mode();
    // Execute for each class that may read it, and always for the owner.
    let readable = (mode & 0o444) >> 2;
    permissions.set_mode(mode | 0o100 | readable);
    fs::set_permissions(path, permissions)
}

/// Windows runs any file by its name (`.exe`): nothing to set.
#[cfg(not(unix))]
pub fn set_executable(path: &Path) -> io::Result<()> {
    fs::metadata(path).map(|_| ())
}

/// Whether `path` is a file this process may execute: on Unix a file with an execute bit
/// (as shells decide it before they report 126); on Windows any file.
#[cfg(unix)]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Windows: any file (the loader decides when it is started).
#[cfg(not(unix))]
pub fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Best effort: the directory entry of a renamed file on the disk.
#[cfg(unix)]
fn sync_directory(path: &Path) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Windows has no directory handle to sync: `MoveFileEx` (std's rename) is what it offers.
#[cfg(not(unix))]
fn sync_directory(_: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.state");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let missing = dir.path().join("no/such/dir/a.state");
        assert!(write_atomic(&missing, b"x").is_err());
    }

    #[test]
    fn a_file_made_executable_is_executable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("program");
        fs::write(&path, b"x").unwrap();
        if cfg!(unix) {
            assert!(!is_executable(&path));
        }
        set_executable(&path).unwrap();
        assert!(is_executable(&path));
        assert!(!is_executable(dir.path()));
        assert!(set_executable(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn the_exe_suffix_is_added_on_windows_only() {
        let exe = executable_path(Path::new("e/sf-960"));
        if cfg!(windows) {
            assert_eq!(exe, Path::new("e/sf-960.exe"));
        } else {
            assert_eq!(exe, Path::new("e/sf-960"));
        }
        assert_eq!(executable_path(Path::new("a.EXE")), Path::new("a.EXE"));
    }
}
