//! The wake-up timer of a thread that reads engines with a blocking `read(2)`
//! ([`process`](super::process)).
//!
//! Why a timer signal: an engine such as Stockfish writes each `info` line with a write of
//! its own, and the runner is woken for each one. With `poll(2)` (for the deadline) and
//! then `read(2)`, that was two system calls per wake-up; a blocking `read` alone is one,
//! but it has no deadline and does not notice Ctrl-C. Both come from this timer: a POSIX
//! timer per thread (`timer_create(CLOCK_MONOTONIC)`, `SIGEV_THREAD_ID`: its signal goes
//! to the thread that armed it, not to the process), whose signal, an otherwise unused
//! real-time one, has a handler that does nothing and is installed without `SA_RESTART`.
//! The signal makes the thread's `read` fail with `EINTR`; the reader then looks at the
//! clock and at the Ctrl-C flag ([`interrupt`](super::interrupt)).
//!
//! The timer ticks every [`TICK`], phased so that a tick falls on the deadline, and it is
//! armed only when the deadline changes: once per move, not once per line. The ticks
//! bound two waits:
//! - how late Ctrl-C is noticed (within a tick, as the 100 ms `poll` slices did before);
//! - the race between checking the clock and entering `read`: a tick that lands in
//!   between interrupts nothing, and the next one comes a tick later.
//!
//! The ticks go on between reads (ten a second): every other blocking call of these
//! threads is std's, which retries after `EINTR` (writes, waits for a child, channel
//! receives, sleeps). Elsewhere than on Linux, and if a timer cannot be created, [`arm`]
//! says so and the reader waits with `poll(2)` as before.

use std::time::Duration;

/// The timer's period: the latest a Ctrl-C or a lost tick is noticed.
pub const TICK: Duration = Duration::from_millis(100);

#[cfg(target_os = "linux")]
pub use linux::arm;

/// Elsewhere than on Linux there is no per-thread timer: the caller polls.
#[cfg(not(target_os = "linux"))]
pub fn arm(_deadline: std::time::Instant) -> bool {
    false
}

#[cfg(target_os = "linux")]
mod linux {
    use std::cell::RefCell;
    use std::sync::OnceLock;
    use std::time::Instant;

    use super::TICK;

    /// The signal the timers send (glibc keeps the first real-time signals for itself;
    /// `SIGRTMIN()` is the first one left).
    fn signal() -> libc::c_int {
        libc::SIGRTMIN() + 2
    }

    extern "C" fn on_tick(_: libc::c_int) {}

    /// Installs the do-nothing handler once; whether it is in place.
    fn handler_installed() -> bool {
        static INSTALLED: OnceLock<bool> = OnceLock::new();
        *INSTALLED.get_or_init(|| {
            // SAFETY: the handler does nothing; `action` is fully initialised. No
            // SA_RESTART: an interrupted `read` must return EINTR.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_tick as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal(), &action, std::ptr::null_mut()) == 0
            }
        })
    }

    /// This thread's timer and the deadline it is phased on.
    struct Timer {
        id: libc::timer_t,
        deadline: Option<Instant>,
    }

    impl Timer {
        fn create() -> Option<Timer> {
            if !handler_installed() {
                return None;
            }
            // SAFETY: `event` is zeroed then filled (the thread id of the calling thread);
            // `id` is written by timer_create.
            unsafe {
                let mut event: libc::sigevent = std::mem::zeroed();
                event.sigev_notify = libc::SIGEV_THREAD_ID;
                event.sigev_signo = signal();
                event.sigev_notify_thread_id = libc::gettid();
                let mut id: libc::timer_t = std::ptr::null_mut();
                (libc::timer_create(libc::CLOCK_MONOTONIC, &mut event, &mut id) == 0)
                    .then_some(Timer { id, deadline: None })
            }
        }
    }

    impl Drop for Timer {
        fn drop(&mut self) {
            // SAFETY: `id` came from timer_create and is deleted once, at thread exit.
            unsafe {
                libc::timer_delete(self.id);
            }
        }
    }

    enum Slot {
        Untried,
        Failed,
        Ready(Timer),
    }

    thread_local! {
        static TIMER: RefCell<Slot> = const { RefCell::new(Slot::Untried) };
    }

    fn timespec(nanos: u128) -> libc::timespec {
        libc::timespec {
            tv_sec: (nanos / 1_000_000_000) as libc::time_t,
            tv_nsec: (nanos % 1_000_000_000) as libc::c_long,
        }
    }

    /// Makes this thread's timer tick on `deadline` and every [`TICK`] before and after
    /// it (a system call only when `deadline` changed); false when this thread has no
    /// timer, and the caller must wait some other way.
    pub fn arm(deadline: Instant) -> bool {
        TIMER.with(|slot| {
            let mut slot = slot.borrow_mut();
            if matches!(*slot, Slot::Untried) {
                *slot = Timer::create().map_or(Slot::Failed, Slot::Ready);
            }
            let Slot::Ready(timer) = &mut *slot else {
                return false;
            };
            if timer.deadline == Some(deadline) {
                return true;
            }
            let left = deadline
                .saturating_duration_since(Instant::now())
                .as_nanos();
            let tick = TICK.as_nanos();
            // The first tick: what is left of the deadline beyond whole ticks (a whole
            // tick when it divides exactly; 1 ns, as 0 would disarm, when none is left).
            let first = match left % tick {
                0 if left == 0 => 1,
                0 => tick,
                rest => rest,
            };
            let spec = libc::itimerspec {
                it_interval: timespec(tick),
                it_value: timespec(first),
            };
            // SAFETY: a live timer of this thread and a valid itimerspec.
            if unsafe { libc::timer_settime(timer.id, 0, &spec, std::ptr::null_mut()) } != 0 {
                *slot = Slot::Failed;
                return false;
            }
            timer.deadline = Some(deadline);
            true
        })
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::net::UnixStream;
    use std::time::Instant;

    /// A blocking read of a silent pipe is interrupted on the deadline, then on every
    /// tick, and a thread that armed no timer gets no signal.
    #[test]
    fn a_blocking_read_is_interrupted_on_the_deadline_and_then_every_tick() {
        let (mut quiet, _writer) = UnixStream::pair().unwrap();
        let begin = Instant::now();
        let deadline = begin + Duration::from_millis(250);
        assert!(arm(deadline));
        let mut byte = [0u8; 1];
        let mut interrupted = Vec::new();
        while interrupted.len() < 4 {
            let err = quiet.read(&mut byte).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::Interrupted);
            interrupted.push(begin.elapsed());
            assert!(arm(deadline), "same deadline: not re-armed");
        }
        // Ticks at 50, 150, 250 (the deadline) and 350 ms.
        for (at, expected) in interrupted.iter().zip([50, 150, 250, 350]) {
            let at = at.as_millis();
            assert!((expected..expected + 90).contains(&at), "{interrupted:?}");
        }
        // Another thread, no timer: its read waits for the data.
        let (mut other, mut writer) = UnixStream::pair().unwrap();
        let reader = std::thread::spawn(move || {
            let mut byte = [0u8; 1];
            other.read(&mut byte).map(|_| byte[0])
        });
        std::thread::sleep(Duration::from_millis(250));
        std::io::Write::write_all(&mut writer, b"x").unwrap();
        assert_eq!(reader.join().unwrap().unwrap(), b'x');
    }
}
