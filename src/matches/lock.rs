//! One writer per PGN: `PGN.lock` beside the PGN, locked with the system's file lock
//! (`flock` on Unix, `LockFileEx` on Windows, through `std::fs::File::try_lock`) for as
//! long as a match runs, and holding the match's process id. A second `sp960 match` (or
//! `--resume`) on the same PGN finds it locked and stops before it reads or writes
//! anything. The system releases the lock of a process that dies, `kill -9` included; the
//! id it left in the file tells the next run whose lock it takes over; a match that ends,
//! however it ends, removes the file. The lock file is
//! a file of its own because the state file is replaced on every write (a new file each
//! time, which no lock would follow). This file and the PGN writer are the room's files
//! that touch the disk.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::matches::config::resume::beside_pgn;
use crate::matches::error::MatchError;

/// The lock file of a PGN: `PGN.lock`.
pub(crate) fn lock_path(pgn: &Path) -> PathBuf {
    beside_pgn(pgn, ".lock")
}

/// The PGN's lock, held until dropped; then the file is removed while still locked (a
/// clean end, or a refused start, leaves nothing behind) and the system lock released.
#[derive(Debug)]
pub(crate) struct PgnLock {
    file: File,
    path: PathBuf,
}

/// A lock taken: the process id a killed match left in the file, when there was one.
#[derive(Debug)]
pub(crate) struct Taken {
    pub(crate) lock: PgnLock,
    pub(crate) left_by: Option<u32>,
}

/// The process id a lock file holds (`pid N`), if it holds one.
fn holder(text: &str) -> Option<u32> {
    text.trim().strip_prefix("pid ")?.trim().parse().ok()
}

impl PgnLock {
    /// Takes the lock of `pgn`, or says which match holds it.
    pub(crate) fn take(pgn: &Path) -> Result<Taken, MatchError> {
        let path = lock_path(pgn);
        let io_error = |source| MatchError::Pgn {
            path: path.display().to_string(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // Windows keeps a locked file's bytes from other processes: no id there.
                let mut text = String::new();
                let pid = file
                    .read_to_string(&mut text)
                    .ok()
                    .and_then(|_| holder(&text));
                return Err(MatchError::Locked {
                    pgn: pgn.display().to_string(),
                    lock: path.display().to_string(),
                    pid,
                });
            }
            Err(TryLockError::Error(source)) => return Err(io_error(source)),
        }
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io_error)?;
        let left_by = holder(&text).filter(|&pid| pid != std::process::id());
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "pid {}", std::process::id()))
            .and_then(|()| file.flush())
            .map_err(io_error)?;
        Ok(Taken {
            lock: PgnLock { file, path },
            left_by,
        })
    }
}

impl Drop for PgnLock {
    fn drop(&mut self) {
        if std::fs::remove_file(&self.path).is_err() {
            let _ = self.file.set_len(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_refused_and_a_left_id_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.pgn");
        std::fs::write(lock_path(&pgn), "pid 4000000000\n").unwrap();
        let first = PgnLock::take(&pgn).unwrap();
        assert_eq!(first.left_by, Some(4_000_000_000));
        // A second open file is a second holder: refused, even in this process.
        match PgnLock::take(&pgn) {
            Err(MatchError::Locked {
                pgn: named, pid, ..
            }) => {
                assert_eq!(named, pgn.display().to_string());
                if cfg!(unix) {
                    assert_eq!(pid, Some(std::process::id()));
                }
            }
            other => panic!("{other:?}"),
        }
        drop(first);
        assert!(
            !lock_path(&pgn).exists(),
            "a clean end removes the lock file"
        );
        let again = PgnLock::take(&pgn).unwrap();
        assert_eq!(again.left_by, None, "a clean end leaves no id");
    }

    #[test]
    fn ids_are_read_from_the_file_only_when_well_formed() {
        assert_eq!(holder("pid 12\n"), Some(12));
        assert_eq!(holder(""), None);
        assert_eq!(holder("pid x"), None);
        assert_eq!(holder("12"), None);
    }
}
