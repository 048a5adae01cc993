//! Pinning to one CPU, for `sp960 match --affinity` (fastchess's `-use-affinity`): a game's
//! worker thread and its engines on one CPU, so an engine line wakes the runner on the CPU
//! it is already on (docs/benchmarks.md: on a virtual machine a wake-up on another, idle CPU
//! costs more than the read it ends).
//!
//! - Linux: `sched_getaffinity` for the CPUs this process may use; `sched_setaffinity` on
//!   the calling thread, and on every thread of an engine (its `/proc/PID/task`), so the
//!   threads it starts later inherit the CPU.
//! - Windows: `GetProcessAffinityMask`, `SetThreadAffinityMask`, and
//!   `SetProcessAffinityMask` on the engine (all its threads); the first 64 CPUs (one
//!   processor group).
//! - macOS and other Unix: no pinning (macOS has no API that binds a thread to a CPU):
//!   every call is an `Unsupported` error.

use std::io;
use std::process::Child;

/// The CPUs this process may run on, in the order to hand them out: on Linux one logical
/// CPU of each physical core first (the lowest of its hyperthread siblings), then the
/// others, as fastchess orders them. An `Unsupported` error where nothing can be pinned.
pub fn available_cpus() -> io::Result<Vec<usize>> {
    imp::available_cpus()
}

/// Pins the calling thread to `cpu` (the threads and processes it starts later inherit it
/// on Linux).
pub fn pin_this_thread(cpu: usize) -> io::Result<()> {
    imp::pin_this_thread(cpu)
}

/// Pins every thread of `child` to `cpu`, and so the threads it starts afterwards.
pub fn pin_process(child: &Child, cpu: usize) -> io::Result<()> {
    imp::pin_process(child, cpu)
}

/// Lets the calling thread, once woken, wait for the thread running on its CPU to block or
/// use up its slice rather than cut in at once (Linux: `SCHED_BATCH`; elsewhere nothing):
/// a game's worker pinned beside its engine then reads a search's lines when the engine
/// waits for its next command, not one wake-up per line.
pub fn yield_on_wakeup() -> io::Result<()> {
    imp::yield_on_wakeup()
}

#[cfg(target_os = "linux")]
mod imp {
    use std::collections::BTreeSet;
    use std::io;
    use std::process::Child;

    /// The most CPUs a `cpu_set_t` holds.
    const SET_SIZE: usize = libc::CPU_SETSIZE as usize;

    fn set_of(cpu: usize) -> io::Result<libc::cpu_set_t> {
        if cpu >= SET_SIZE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("CPU {cpu} is beyond the {SET_SIZE} this system can name"),
            ));
        }
        // SAFETY: a cpu_set_t is plain bits; CPU_ZERO and CPU_SET write inside it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_ZERO(&mut set);
            libc::CPU_SET(cpu, &mut set);
            Ok(set)
        }
    }

    /// Pins thread `tid` (0: the calling thread) to the CPUs of `set`.
    fn pin(tid: libc::pid_t, set: &libc::cpu_set_t) -> io::Result<()> {
        // SAFETY: the set is initialised and its size given.
        let done = unsafe { libc::sched_setaffinity(tid, size_of::<libc::cpu_set_t>(), set) };
        if done == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    pub fn available_cpus() -> io::Result<Vec<usize>> {
        // SAFETY: sched_getaffinity fills the zeroed set whose size it is given.
        let set = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Err(io::Error::last_os_error());
            }
            set
        };
        // SAFETY: CPU_ISSET reads inside the set for cpu < CPU_SETSIZE.
        let mut cpus: Vec<usize> = (0..SET_SIZE)
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
            .collect();
        // One per physical core first; a CPU whose siblings cannot be read counts as a
        // core of its own.
        cpus.sort_by_key(|&cpu| first_sibling(cpu).is_some_and(|first| first != cpu));
        Ok(cpus)
    }

    /// The lowest CPU of `cpu`'s physical core, from sysfs.
    fn first_sibling(cpu: usize) -> Option<usize> {
        let path = format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list");
        let text = std::fs::read_to_string(path).ok()?;
        text.trim()
            .split([',', '-'])
            .filter_map(|n| n.parse().ok())
            .min()
    }

    pub fn pin_this_thread(cpu: usize) -> io::Result<()> {
        pin(0, &set_of(cpu)?)
    }

    pub fn yield_on_wakeup() -> io::Result<()> {
        // Zeroed, not a struct literal: musl's sched_param has fields glibc's lacks.
        // SAFETY: plain integers, for which all zeros is valid (priority 0).
        let param: libc::sched_param = unsafe { std::mem::zeroed() };
        // SAFETY: the calling thread (0) and an initialised parameter.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    pub fn pin_process(child: &Child, cpu: usize) -> io::Result<()> {
        let set = set_of(cpu)?;
        // Each thread is pinned by its id; a thread started meanwhile by a thread not yet
        // pinned would escape, so the list is read again until it holds no new thread.
        let mut pinned = BTreeSet::new();
        for _ in 0..5 {
            let tasks = std::fs::read_dir(format!("/proc/{}/task", child.id()))?;
            let mut new = 0;
            for task in tasks {
                let Some(tid) = task?
                    .file_name()
                    .to_str()
                    .and_then(|name| name.parse::<libc::pid_t>().ok())
                else {
                    continue;
                };
                if !pinned.insert(tid) {
                    continue;
                }
                new += 1;
                match pin(tid, &set) {
                    // The thread ended meanwhile.
                    Err(err) if err.raw_os_error() == Some(libc::ESRCH) => {}
                    other => other?,
                }
            }
            if new == 0 {
                return Ok(());
            }
        }
        Ok(())
    }
}

#[cfg(windows)]
mod imp {
    use std::io;
    use std::os::windows::io::AsRawHandle;
    use std::process::Child;

    use windows_sys::Win32::System::Threading::{
        GetCurrentProcess, GetCurrentThread, GetProcessAffinityMask, SetProcessAffinityMask,
        SetThreadAffinityMask,
    };

    fn mask_of(cpu: usize) -> io::Result<usize> {
        1usize.checked_shl(cpu as u32).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "CPU {cpu} is beyond the {} of one processor group",
                    usize::BITS
                ),
            )
        })
    }

    pub fn available_cpus() -> io::Result<Vec<usize>> {
        let (mut process, mut system) = (0usize, 0usize);
        // SAFETY: the pseudo-handle of this process and two masks to fill.
        if unsafe { GetProcessAffinityMask(GetCurrentProcess(), &mut process, &mut system) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((0..usize::BITS as usize)
            .filter(|cpu| process >> cpu & 1 == 1)
            .collect())
    }

    pub fn pin_this_thread(cpu: usize) -> io::Result<()> {
        let mask = mask_of(cpu)?;
        // SAFETY: the pseudo-handle of the calling thread.
        if unsafe { SetThreadAffinityMask(GetCurrentThread(), mask) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    pub fn yield_on_wakeup() -> io::Result<()> {
        Ok(())
    }

    pub fn pin_process(child: &Child, cpu: usize) -> io::Result<()> {
        let mask = mask_of(cpu)?;
        // SAFETY: the child's process handle, open while `child` lives.
        if unsafe { SetProcessAffinityMask(child.as_raw_handle(), mask) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

#[cfg(not(any(target_os = "linux", windows)))]
mod imp {
    use std::io;
    use std::process::Child;

    fn unsupported() -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            "this system cannot pin a thread or a process to a CPU",
        )
    }

    pub fn available_cpus() -> io::Result<Vec<usize>> {
        Err(unsupported())
    }

    pub fn pin_this_thread(_cpu: usize) -> io::Result<()> {
        Err(unsupported())
    }

    pub fn pin_process(_child: &Child, _cpu: usize) -> io::Result<()> {
        Err(unsupported())
    }

    pub fn yield_on_wakeup() -> io::Result<()> {
        Err(unsupported())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(any(target_os = "linux", windows))]
    #[test]
    fn the_available_cpus_are_each_named_once() {
        let cpus = available_cpus().unwrap();
        assert!(!cpus.is_empty());
        let mut sorted = cpus.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), cpus.len(), "{cpus:?}");
    }

    /// The CPUs a Linux thread may run on, as the kernel reports them.
    #[cfg(target_os = "linux")]
    fn allowed(pid: u32, tid: &str) -> String {
        let status = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/status")).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim()
            .to_owned()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_and_every_thread_of_a_child_are_pinned_and_the_thread_yields_on_wakeup() {
        let cpu = *available_cpus().unwrap().last().unwrap();
        // A thread of our own: the kernel reports it pinned.
        let reported = std::thread::spawn(move || {
            pin_this_thread(cpu).unwrap();
            yield_on_wakeup().unwrap();
            // SAFETY: neither call has preconditions.
            assert_eq!(unsafe { libc::sched_getscheduler(0) }, libc::SCHED_BATCH);
            // SAFETY: gettid has no preconditions.
            let tid = unsafe { libc::gettid() };
            allowed(std::process::id(), &tid.to_string())
        })
        .join()
        .unwrap();
        assert_eq!(reported, cpu.to_string());
        // A child (libtest with its threads): every one of them.
        let mut child = crate::test_child::command(module_path!(), "threads")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut next = || {
            let mut line = Vec::new();
            std::io::BufRead::read_until(&mut out, b'\n', &mut line).unwrap();
            (!line.is_empty()).then(|| line.trim_ascii_end().to_vec())
        };
        crate::test_child::skip_to_ready(&mut next);
        assert_eq!(next().as_deref(), Some(&b"started"[..]));
        pin_process(&child, cpu).unwrap();
        let tasks: Vec<String> = std::fs::read_dir(format!("/proc/{}/task", child.id()))
            .unwrap()
            .map(|task| task.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(tasks.len() >= 2, "{tasks:?}");
        for tid in &tasks {
            assert_eq!(allowed(child.id(), tid), cpu.to_string(), "thread {tid}");
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    #[cfg(windows)]
    #[test]
    fn a_thread_and_a_child_are_pinned() {
        use std::os::windows::io::AsRawHandle;
        use windows_sys::Win32::System::Threading::{
            GetCurrentThread, GetProcessAffinityMask, SetThreadAffinityMask,
        };
        let cpu = *available_cpus().unwrap().last().unwrap();
        let previous = std::thread::spawn(move || {
            pin_this_thread(cpu).unwrap();
            // Setting it again returns the mask it had: the one just set.
            // SAFETY: the pseudo-handle of the calling thread.
            unsafe { SetThreadAffinityMask(GetCurrentThread(), 1 << cpu) }
        })
        .join()
        .unwrap();
        assert_eq!(previous, 1 << cpu);
        let mut child = crate::test_child::command(module_path!(), "threads")
            .spawn()
            .unwrap();
        pin_process(&child, cpu).unwrap();
        let (mut process, mut system) = (0usize, 0usize);
        // SAFETY: the child's handle and two masks to fill.
        let ok =
            unsafe { GetProcessAffinityMask(child.as_raw_handle(), &mut process, &mut system) };
        assert_ne!(ok, 0);
        assert_eq!(process, 1 << cpu);
        let _ = child.kill();
        let _ = child.wait();
    }

    #[cfg(not(any(target_os = "linux", windows)))]
    #[test]
    fn pinning_is_refused_as_unsupported() {
        let err = available_cpus().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    }

    #[test]
    #[ignore = "the scripted child of the tests above: they run it"]
    fn scripted_child() {
        let Some(script) = crate::test_child::script() else {
            return;
        };
        assert_eq!(script, "threads");
        // A second thread beside libtest's, alive until the test kills the process.
        let _sleeper =
            std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_secs(30)));
        println!("started");
        std::thread::sleep(std::time::Duration::from_secs(30));
        crate::test_child::exit(0);
    }
}
