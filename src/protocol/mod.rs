//! The protocols' vocabulary, shared by the three roles that speak them: the proxy (a
//! relay between a GUI and an engine), the match runner (a GUI) and the built-in engine.
//! [`game`] is a GUI's position and moves, checked, and the position as an engine in
//! standard or Chess960 mode takes it; [`xboard`] reads and writes moves in XBoard's
//! notations.

pub mod game;
pub mod xboard;
