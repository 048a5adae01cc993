//! CPU time of this process, for the match runner's cost per ply.

/// CPU time of this process so far (user + system, all threads), in seconds; 0 when the
/// system cannot say.
pub fn process_seconds() -> f64 {
    imp::process_seconds()
}

/// CPU time of this process's children that have ended and been waited for (user +
/// system), in seconds: the engines' CPU, once they are reaped. `None` where the system
/// cannot say (Windows: a child's times are not summed for its parent).
pub fn children_seconds() -> Option<f64> {
    imp::children_seconds()
}

#[cfg(unix)]
mod imp {
    pub fn children_seconds() -> Option<f64> {
        // SAFETY: getrusage fills the struct we pass.
        unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            if libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) != 0 {
                return None;
            }
            let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
        }
    }

    pub fn process_seconds() -> f64 {
        // SAFETY: getrusage fills the struct we pass.
        unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
                return 0.0;
            }
            let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
    }
}

#[cfg(windows)]
mod imp {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, GetProcessTimes};

    pub fn children_seconds() -> Option<f64> {
        None
    }

    pub fn process_seconds() -> f64 {
        let zero = FILETIME {
            dwLowDateTime: 0,
            dwHighDateTime: 0,
        };
        let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
        // SAFETY: the pseudo-handle of this process and four FILETIMEs to fill.
        let ok = unsafe {
            GetProcessTimes(
                GetCurrentProcess(),
                &mut created,
                &mut exited,
                &mut kernel,
                &mut user,
            )
        };
        if ok == 0 {
            return 0.0;
        }
        // FILETIME counts 100 ns intervals.
        let ticks = |t: FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
        (ticks(kernel) + ticks(user)) as f64 / 1e7
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_grows_with_work() {
        let before = super::process_seconds();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < std::time::Duration::from_millis(200) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let after = super::process_seconds();
        assert!(after > before + 0.05, "{before} -> {after}");
    }
}
