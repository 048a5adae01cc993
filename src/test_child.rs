//! Scripted child processes for the unit tests that need one (the OS layer, the engine
//! process, the engine driver): the unit-test executable itself, run again as one of its
//! own `#[ignore]`d tests. So no unit test starts an external program; the tests that run
//! real engines, python-chess and the match runners are the integration tests in `tests/`.
//!
//! A module whose tests need a child has one test named `scripted_child` that plays the
//! scripts its tests ask for:
//!
//! ```ignore
//! #[test]
//! #[ignore = "the scripted child of the tests above: they run it"]
//! fn scripted_child() {
//!     let Some(script) = test_child::script() else {
//!         return;
//!     };
//!     match script.as_str() {
//!         "echo" => echo(),
//!         other => panic!("no script {other}"),
//!     }
//! }
//! ```
//!
//! and its tests start [`command`]`(module_path!(), "echo")`, or an engine command of
//! [`program`] and [`args`]. The child is libtest running that one test (`--exact --ignored
//! --nocapture`, one thread) with one more filter word, `sp960-test-child=SCRIPT`, which
//! names no test and which [`script`] reads back from the arguments; run without it (`cargo
//! test -- --ignored`), a `scripted_child` test returns at once and passes.
//!
//! Libtest writes a few lines of its own to stdout before the test runs (`running 1 test`),
//! so [`script`] first writes [`READY`] on a line of its own: a test that reads the child's
//! stdout skips everything up to that line (an engine client ignores such lines anyway). A
//! script ends with [`exit`], so libtest's summary never follows what it wrote.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The line a scripted child writes once libtest's own lines are behind it.
pub(crate) const READY: &[u8] = b"sp960-test-child ready";

/// The filter word that carries the script's name (it names no test).
const SCRIPT_WORD: &str = "sp960-test-child=";

/// The unit-test executable running now.
pub(crate) fn program() -> PathBuf {
    std::env::current_exe().expect("the path of the unit-test executable")
}

/// The arguments that run `module`'s `scripted_child` test (`module` as `module_path!()`
/// gives it) playing `script`.
pub(crate) fn args(module: &str, script: &str) -> Vec<OsString> {
    // libtest names a test by its path without the crate's name.
    let module = module.split_once("::").map_or(module, |(_, path)| path);
    [
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
        "--quiet",
        "--color=never",
        &format!("{module}::scripted_child"),
        &format!("{SCRIPT_WORD}{script}"),
    ]
    .map(OsString::from)
    .to_vec()
}

/// The child playing `script` of `module`'s `scripted_child` test, with stdin, stdout and
/// stderr going nowhere until the caller says otherwise.
pub(crate) fn command(module: &str, script: &str) -> Command {
    let mut command = Command::new(program());
    command
        .args(args(module, script))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// In a `scripted_child` test: the script this process was started to play, after writing
/// [`READY`] on stdout; `None` in an ordinary test run.
pub(crate) fn script() -> Option<String> {
    let script =
        std::env::args().find_map(|word| word.strip_prefix(SCRIPT_WORD).map(str::to_owned))?;
    let mut out = io::stdout().lock();
    // Libtest's last line may lack its `\n`: READY goes on a line of its own.
    out.write_all(b"\n").expect("stdout");
    out.write_all(READY).expect("stdout");
    out.write_all(b"\n").expect("stdout");
    out.flush().expect("stdout");
    Some(script)
}

/// Ends a script with `code`, before libtest writes anything more.
pub(crate) fn exit(code: i32) -> ! {
    let _ = io::stdout().flush();
    std::process::exit(code)
}

/// Reads lines with `next` (`None` once the child's output ended) up to [`READY`], and
/// returns them: libtest's, then [`READY`].
pub(crate) fn skip_to_ready(mut next: impl FnMut() -> Option<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut skipped = Vec::new();
    loop {
        let Some(line) = next() else {
            panic!("the child ended before it was ready; it wrote {skipped:?}");
        };
        let ready = line == READY;
        skipped.push(line);
        if ready {
            return skipped;
        }
    }
}
