//! The proxy's protocol line readers: arbitrary lines from the GUI and from the engine fed
//! to the UCI and XBoard sessions (sans I/O). The first byte picks the protocol; the first
//! byte of each line the side it comes from. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sp960::{EngineExit, ProcessEnding, Relay};
use sp960::{UciConfig, UciSession};
use sp960::{XboardConfig, XboardSession};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut session: Box<dyn Relay> = if mode & 1 == 0 {
        Box::new(UciSession::new(UciConfig::default()))
    } else {
        Box::new(XboardSession::new(XboardConfig::default()))
    };
    let mut actions = Vec::new();
    for line in rest.split(|b| *b == b'\n') {
        let Some((&side, text)) = line.split_first() else {
            continue;
        };
        actions.clear();
        match side % 8 {
            0 => session.on_gui_eof(&mut actions),
            1 => session.on_engine_exit(
                EngineExit {
                    ending: ProcessEnding::Signal(11),
                    restartable: side & 8 != 0,
                },
                &mut actions,
            ),
            2..=4 => session.on_gui_line(text, &mut actions),
            _ => session.on_engine_line(text, &mut actions),
        }
    }
});
