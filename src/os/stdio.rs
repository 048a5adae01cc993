//! Our own stdin and stdout as unbuffered files, and bigger pipes from an engine.

use std::fs::File;
use std::io;
use std::process::ChildStdout;

/// Our stdin and stdout as files of their own (duplicated descriptors or handles): std's
/// stdout is line-buffered, and the proxy decides itself when to flush.
pub fn raw_stdin_stdout() -> io::Result<(File, File)> {
    #[cfg(unix)]
    use std::os::fd::AsFd as AsOwnable;
    #[cfg(windows)]
    use std::os::windows::io::AsHandle as AsOwnable;
    #[cfg(unix)]
    fn own(stream: &impl AsOwnable) -> io::Result<File> {
        Ok(File::from(stream.as_fd().try_clone_to_owned()?))
    }
    #[cfg(windows)]
    fn own(stream: &impl AsOwnable) -> io::Result<File> {
        Ok(File::from(stream.as_handle().try_clone_to_owned()?))
    }
    Ok((own(&io::stdin())?, own(&io::stdout())?))
}

/// Asks for a bigger pipe from the engine, so a flood of output costs fewer context
/// switches (Linux only, up to /proc/sys/fs/pipe-max-size; elsewhere nothing happens).
pub fn enlarge_pipe(engine_out: &ChildStdout) {
    #[cfg(all(target_os = "linux", not(feature = "portable-io")))]
    // SAFETY: fcntl on a descriptor we own; failure only leaves the default size.
    unsafe {
        use std::os::fd::AsRawFd;
        libc::fcntl(engine_out.as_raw_fd(), libc::F_SETPIPE_SZ, 1 << 20);
    }
    #[cfg(not(all(target_os = "linux", not(feature = "portable-io"))))]
    let _ = engine_out;
}
