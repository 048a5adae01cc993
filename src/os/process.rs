//! Engine processes: started so that they die with us, waited for with a bound, their
//! end told in words and as a shell's exit status, and the signals sent to the proxy
//! passed on to them.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::thread;
use std::time::{Duration, Instant};

/// Starts `command` (its stdio already chosen) so that it does not outlive us: on Linux
/// it gets SIGTERM when we die, on Windows it is in a job object that is closed, killing
/// it, when we exit. On macOS nothing ties it to us; an engine whose stdin closes quits.
pub fn spawn_killed_with_us(command: &mut Command) -> io::Result<Child> {
    imp::spawn_killed_with_us(command)
}

/// Waits up to `timeout` for `child` to exit, then kills it; always reaps it.
pub fn wait_bounded(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
            Ok(None) => {
                let _ = child.kill();
                return child.wait().ok();
            }
            Err(_) => return None,
        }
    }
}

/// `program` in the directories of PATH, as the platform's shell finds it: on Windows a
/// name without an extension is tried with each extension of `PATHEXT` (`.COM;.EXE;.BAT;.CMD`
/// when unset), so `fastchess` finds `fastchess.exe`.
pub fn find_program(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let extensions = if cfg!(windows) && Path::new(program).extension().is_none() {
        let pathext = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into());
        pathext
            .split(';')
            .filter(|ext| !ext.is_empty())
            .map(str::to_owned)
            .collect()
    } else {
        vec![String::new()]
    };
    std::env::split_paths(&path)
        .flat_map(|dir| {
            extensions
                .iter()
                .map(move |ext| dir.join(format!("{program}{ext}")))
        })
        .find(|candidate| candidate.is_file())
}

/// The file a program given by its path (`engines/sf`, `C:\e\sf`) starts, as the OS
/// finds it: the path itself when it is a file; on Windows a path without an extension is
/// also tried with `.exe` (what `CreateProcess` appends).
pub fn program_file(path: &Path) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    if cfg!(windows) && path.extension().is_none() {
        let mut exe = path.as_os_str().to_owned();
        exe.push(".exe");
        let exe = PathBuf::from(exe);
        return exe.is_file().then_some(exe);
    }
    None
}

/// How a process ended, as the OS tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessEnding {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it (Unix).
    #[cfg_attr(windows, allow(dead_code))] // read from a status on Unix only
    Signal(i32),
    /// It crashed with this exception (Windows NTSTATUS, such as `0xC0000005`).
    #[cfg_attr(not(windows), allow(dead_code))] // read from a status on Windows only
    Exception(u32),
    /// Nothing is known.
    Unknown,
}

impl ProcessEnding {
    /// Reads an exit status (`None`: it could not be waited for).
    pub fn of(status: Option<ExitStatus>) -> ProcessEnding {
        match status {
            Some(status) => imp::ending(status),
            None => ProcessEnding::Unknown,
        }
    }

    /// The exit status a shell would report: the code, or 128 + signal; 255 for a
    /// Windows exception (its code does not fit), 1 when unknown.
    pub fn shell_code(self) -> u8 {
        match self {
            ProcessEnding::Code(code) => code as u8,
            ProcessEnding::Signal(signal) => (128 + signal).clamp(0, 255) as u8,
            ProcessEnding::Exception(_) => 255,
            ProcessEnding::Unknown => 1,
        }
    }

    /// In words, after "the engine": "exited unexpectedly with status 1", "died
    /// unexpectedly from signal 11", "crashed unexpectedly with exception 0xC0000005
    /// (access violation)".
    pub fn describe(self) -> String {
        match self {
            ProcessEnding::Code(code) => format!("exited unexpectedly with status {code}"),
            ProcessEnding::Signal(signal) => format!("died unexpectedly from signal {signal}"),
            ProcessEnding::Exception(code) => {
                let name = match code {
                    0xC000_0005 => " (access violation)",
                    0xC000_00FD => " (stack overflow)",
                    0xC000_0094 => " (integer division by zero)",
                    0xC000_0409 => " (stack buffer overrun / fail fast)",
                    0xC000_013A => " (Ctrl-C)",
                    0x4000_0015 | 0xC000_0025 => " (abort)",
                    _ => "",
                };
                format!("crashed unexpectedly with exception 0x{code:08X}{name}")
            }
            ProcessEnding::Unknown => "ended unexpectedly (status unknown)".to_owned(),
        }
    }
}

/// From now on SIGINT, SIGTERM and SIGHUP sent to us go to the process `pid` instead (the
/// proxy then exits with the engine's status when the engine exits). On Windows there is
/// nothing to do: Ctrl-C reaches every process of the console.
pub fn forward_signals_to(pid: u32) {
    imp::forward_signals_to(pid);
}

/// Whether a signal sent to us was passed on to the engine ([`forward_signals_to`]): an
/// engine that exits after it was asked to, not a crash to recover from. Always false on
/// Windows.
pub fn signal_forwarded() -> bool {
    imp::signal_forwarded()
}

#[cfg(unix)]
mod imp {
    use std::io;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Child, Command, ExitStatus};
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

    use super::ProcessEnding;

    pub fn spawn_killed_with_us(command: &mut Command) -> io::Result<Child> {
        #[cfg(all(target_os = "linux", not(feature = "portable-io")))]
        // SAFETY: prctl is async-signal-safe; the closure allocates nothing.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        command.spawn()
    }

    pub fn ending(status: ExitStatus) -> ProcessEnding {
        match (status.code(), status.signal()) {
            (Some(code), _) => ProcessEnding::Code(code),
            (None, Some(signal)) => ProcessEnding::Signal(signal),
            (None, None) => ProcessEnding::Unknown,
        }
    }

    /// The engine's pid for the signal handler (0: none).
    static ENGINE_PID: AtomicI32 = AtomicI32::new(0);
    /// A signal was passed on.
    static FORWARDED: AtomicBool = AtomicBool::new(false);

    pub fn signal_forwarded() -> bool {
        FORWARDED.load(Ordering::SeqCst)
    }

    extern "C" fn forward_signal(signal: libc::c_int) {
        FORWARDED.store(true, Ordering::SeqCst);
        let pid = ENGINE_PID.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill(2) is async-signal-safe.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }

    pub fn forward_signals_to(pid: u32) {
        ENGINE_PID.store(pid as i32, Ordering::SeqCst);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the handler only reads an atomic and calls kill(2).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = forward_signal as *const () as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(windows)]
mod imp {
    use std::io;
    use std::os::windows::io::AsRawHandle;
    use std::process::{Child, Command, ExitStatus};
    use std::sync::OnceLock;

    use windows_sys::Win32::Foundation::HANDLE;
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject,
    };

    use super::ProcessEnding;

    /// The job every engine joins; its handle closes when we exit, which kills them.
    struct Job(HANDLE);
    // SAFETY: a job handle may be used from any thread.
    unsafe impl Send for Job {}
    unsafe impl Sync for Job {}

    fn job() -> Option<&'static Job> {
        static JOB: OnceLock<Option<Job>> = OnceLock::new();
        JOB.get_or_init(|| {
            // SAFETY: an unnamed job with default security; the limit struct is zeroed
            // then given the one flag.
            unsafe {
                let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
                if job.is_null() {
                    return None;
                }
                let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
                limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
                let set = SetInformationJobObject(
                    job,
                    JobObjectExtendedLimitInformation,
                    (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
                    std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                );
                (set != 0).then_some(Job(job))
            }
        })
        .as_ref()
    }

    pub fn spawn_killed_with_us(command: &mut Command) -> io::Result<Child> {
        let child = command.spawn()?;
        if let Some(job) = job() {
            // SAFETY: a live job and the child's process handle. Failure (a job we are in
            // forbids it) only leaves the engine untied.
            unsafe {
                AssignProcessToJobObject(job.0, child.as_raw_handle() as HANDLE);
            }
        }
        Ok(child)
    }

    pub fn ending(status: ExitStatus) -> ProcessEnding {
        match status.code() {
            Some(code) if (code as u32) >= 0xC000_0000 => ProcessEnding::Exception(code as u32),
            Some(code) => ProcessEnding::Code(code),
            None => ProcessEnding::Unknown,
        }
    }

    pub fn forward_signals_to(_pid: u32) {}

    pub fn signal_forwarded() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_child;

    #[test]
    fn endings_read_as_a_shell_reports_them() {
        assert_eq!(ProcessEnding::Code(0).shell_code(), 0);
        assert_eq!(ProcessEnding::Code(3).shell_code(), 3);
        assert_eq!(ProcessEnding::Signal(11).shell_code(), 139);
        assert_eq!(ProcessEnding::Exception(0xC000_0005).shell_code(), 255);
        assert_eq!(ProcessEnding::Unknown.shell_code(), 1);
        assert_eq!(
            ProcessEnding::Code(1).describe(),
            "exited unexpectedly with status 1"
        );
        assert_eq!(
            ProcessEnding::Signal(11).describe(),
            "died unexpectedly from signal 11"
        );
        assert_eq!(
            ProcessEnding::Exception(0xC000_0005).describe(),
            "crashed unexpectedly with exception 0xC0000005 (access violation)"
        );
    }

    /// A child that sleeps for 30 s.
    #[cfg(unix)]
    #[test]
    fn a_process_that_will_not_exit_is_killed_after_the_bound() {
        let mut child = test_child::command(module_path!(), "sleep")
            .spawn()
            .unwrap();
        let started = Instant::now();
        let ending = ProcessEnding::of(wait_bounded(&mut child, Duration::from_millis(100)));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(ending, ProcessEnding::Signal(9));
    }

    #[test]
    #[ignore = "the scripted child of the tests above: they run it"]
    fn scripted_child() {
        let Some(script) = test_child::script() else {
            return;
        };
        assert_eq!(script, "sleep");
        std::thread::sleep(Duration::from_secs(30));
        test_child::exit(0);
    }
}
