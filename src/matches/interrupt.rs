//! Ctrl-C during `sp960 match`: SIGINT sets a flag instead of killing the runner. Workers
//! take no new game, the games being played are abandoned (their engines killed, nothing
//! written), and the match ends with the table of the finished games and
//! `interrupted: N games saved to FILE` (exit 130, as a shell reports a SIGINT).

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether SIGINT came since [`Guard::install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// The runner's SIGINT handler, in place while it lives (the previous one comes back on
/// drop).
pub struct Guard {
    previous: libc::sigaction,
}

impl Guard {
    /// Installs the handler and clears the flag.
    pub fn install() -> Guard {
        INTERRUPTED.store(false, Ordering::SeqCst);
        // SAFETY: the handler only stores to an atomic; `previous` is filled by the call.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, &action, &mut previous);
            Guard { previous }
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: restores the action saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.previous, std::ptr::null_mut());
        }
    }
}
