//! Files that survive a crash: [`write_atomic`] replaces a file with new contents so a
//! reader (or the next run after `kill -9` or a power cut) sees the old contents or the
//! new, never a mixture.

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
}
