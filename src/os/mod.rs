//! The OS layer: everything that knows which platform sp960 runs on, behind a small
//! platform-neutral interface. No other room uses `libc`, `windows-sys` or `std::os`.
//!
//! | capability | Linux | macOS and other Unix | Windows |
//! |---|---|---|---|
//! | start an engine, killed with us ([`process::spawn_piped`]) | `PR_SET_PDEATHSIG` (SIGTERM) | not killed: engines see their stdin close and quit | a job object with `KILL_ON_JOB_CLOSE` |
//! | an engine's exit in words and as our status ([`process::ExitReport`]) | code, or signal (128 + signal) | same | code; NTSTATUS crashes by name |
//! | signals sent to the proxy go to its engine ([`process::forward_signals_to`]) | SIGINT, SIGTERM, SIGHUP | same | nothing to do: Ctrl-C reaches the whole console |
//! | Ctrl-C as a flag ([`interrupt`]) | `sigaction(SIGINT)` | same | `SetConsoleCtrlHandler` |
//! | read an engine with a deadline ([`reader::EngineOutput`]) | blocking `read` + a per-thread timer signal ([`timer`]) | `poll` + `read` | a reader thread and a channel |
//! | our stdin/stdout unbuffered, bigger pipes ([`stdio`]) | `dup`, `F_SETPIPE_SZ` | `dup` | `DuplicateHandle` (std) |
//! | CPU time of this process ([`cpu::process_seconds`]) | `getrusage` | same | `GetProcessTimes` |
//! | replace a file atomically ([`fs::write_atomic`]) | temp + `fsync` + `rename` + directory `fsync` | same | temp + flush + `MoveFileEx` (std) |
//! | a copy of a program made executable, and its file name ([`fs::set_executable`], [`fs::executable_path`]) | execute bits (`chmod`) | same | nothing to set; `.exe` appended |
//! | a program by its path or on PATH ([`process::program_file`], [`process::find_program`]) | the file; PATH | same | also with `.exe`; PATH with `PATHEXT` |
//! | the folder of Qt's settings files, IniFormat ([`dirs::qsettings_ini_user_dir`]) | `$XDG_CONFIG_HOME` (absolute) or `~/.config` | macOS: `$XDG_CONFIG_HOME` or `~/.config` | `%APPDATA%` |
//! | CPU time of its reaped children ([`cpu::children_seconds`]) | `getrusage(RUSAGE_CHILDREN)` | same | not known (`None`) |
//! | a thread and an engine pinned to one CPU ([`affinity`]) | `sched_setaffinity` on the thread, on each of the engine's threads | not supported | `SetThreadAffinityMask`, `SetProcessAffinityMask` |
//!
//! The `portable-io` feature makes Linux take the macOS column (no timer signal, no
//! parent-death signal, default pipes; pinning stays), so the code macOS runs is tested by the Linux suites
//! (`cargo test --features portable-io`).
//!
//! Must not import any other room of sp960: the rooms above use this one.

pub mod affinity;
pub mod cpu;
pub mod dirs;
pub mod fs;
pub mod interrupt;
pub mod process;
pub mod reader;
pub mod stdio;
#[cfg(all(target_os = "linux", not(feature = "portable-io")))]
mod timer;
