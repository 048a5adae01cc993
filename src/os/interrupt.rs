//! Ctrl-C as a flag: while a [`Guard`] lives, Ctrl-C (SIGINT on Unix, the console's
//! Ctrl-C or Ctrl-Break on Windows) sets a flag instead of ending the process, and
//! [`interrupted`] reports it. `sp960 match` uses it to stop taking games and save the
//! finished ones.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C came since [`Guard::install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// The Ctrl-C handler, in place while it lives (the previous behaviour comes back on drop).
pub struct Guard {
    previous: imp::Previous,
}

impl Guard {
    /// Installs the handler and clears the flag.
    pub fn install() -> Guard {
        INTERRUPTED.store(false, Ordering::SeqCst);
        Guard {
            previous: imp::install(),
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        imp::restore(&self.previous);
    }
}

#[cfg(unix)]
mod imp {
    use super::{INTERRUPTED, Ordering};

    pub type Previous = libc::sigaction;

    extern "C" fn on_sigint(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    pub fn install() -> Previous {
        // SAFETY: the handler only stores to an atomic; `previous` is filled by the call.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, &action, &mut previous);
            previous
        }
    }

    pub fn restore(previous: &Previous) {
        // SAFETY: restores the action saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, previous, std::ptr::null_mut());
        }
    }
}

#[cfg(windows)]
mod imp {
    use windows_sys::Win32::Foundation::{FALSE, TRUE};
    use windows_sys::Win32::System::Console::{
        CTRL_BREAK_EVENT, CTRL_C_EVENT, SetConsoleCtrlHandler,
    };
    use windows_sys::core::BOOL;

    use super::{INTERRUPTED, Ordering};

    pub type Previous = ();

    unsafe extern "system" fn on_ctrl(kind: u32) -> BOOL {
        if kind == CTRL_C_EVENT || kind == CTRL_BREAK_EVENT {
            INTERRUPTED.store(true, Ordering::SeqCst);
            TRUE
        } else {
            FALSE
        }
    }

    pub fn install() -> Previous {
        // SAFETY: the handler only stores to an atomic.
        unsafe {
            SetConsoleCtrlHandler(Some(on_ctrl), TRUE);
        }
    }

    pub fn restore(_: &Previous) {
        // SAFETY: removes the handler `install` added.
        unsafe {
            SetConsoleCtrlHandler(Some(on_ctrl), FALSE);
        }
    }
}
