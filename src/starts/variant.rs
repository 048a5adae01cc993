//! The names of chess and Chess960 as a variant, written once: the PGN `Variant` tag's
//! spellings (read by every reader of games in `records`, `books` and above) and the
//! protocol's variant names (UCI `UCI_Variant`, XBoard `variant` and `feature variants`,
//! read in `protocol`).
//!
//! A `Variant` tag is compared case- and separator-insensitively ([`variant_key`]): `chess
//! 960`, `Chess-960`, `Fischer Random` and `FRC` are all Chess960. A protocol's variant name
//! is one word, compared ASCII case-insensitively with the same table.

/// The keys that mean Chess960: `Chess960`, `chess 960`, `chess-960`, `fischerandom`,
/// `Fischerandom`, `Fischer Random`, `FRC`, `960`.
pub const CHESS960_VARIANTS: &[&str] = &["chess960", "fischerandom", "fischerrandom", "frc", "960"];

/// The keys that mean standard chess (lichess writes `From Position` for a standard game
/// from a set-up position; an empty tag is no variant).
pub const STANDARD_VARIANTS: &[&str] = &["", "standard", "normal", "chess", "fromposition"];

/// What a `Variant` tag names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Chess960 ([`CHESS960_VARIANTS`]).
    Chess960,
    /// Standard chess ([`STANDARD_VARIANTS`]).
    Standard,
}

/// A `Variant` tag's value as compared: its ASCII letters and digits, lowercased.
pub fn variant_key(value: &str) -> String {
    value
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// What a PGN `Variant` tag's value names; `None` for a variant that is neither.
pub fn pgn_variant(value: &str) -> Option<Variant> {
    let key = variant_key(value);
    if CHESS960_VARIANTS.contains(&key.as_str()) {
        Some(Variant::Chess960)
    } else if STANDARD_VARIANTS.contains(&key.as_str()) {
        Some(Variant::Standard)
    } else {
        None
    }
}

/// True for the names GUIs and engines give Chess960 as a protocol variant (one word,
/// ASCII case-insensitive: `chess960`, `fischerandom`, `FRC`, ...).
pub fn is_chess960_protocol_name(name: &[u8]) -> bool {
    CHESS960_VARIANTS
        .iter()
        .any(|known| name.eq_ignore_ascii_case(known.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_spellings_and_protocol_names() {
        for spelling in [
            "Chess960",
            "chess 960",
            "chess-960",
            "FRC",
            "960",
            "Fischer Random",
        ] {
            assert_eq!(pgn_variant(spelling), Some(Variant::Chess960), "{spelling}");
        }
        for spelling in ["", "Standard", "From Position", "chess"] {
            assert_eq!(pgn_variant(spelling), Some(Variant::Standard), "{spelling}");
        }
        assert_eq!(pgn_variant("crazyhouse"), None);
        assert!(is_chess960_protocol_name(b"FischeRandom") && is_chess960_protocol_name(b"frc"));
        assert!(!is_chess960_protocol_name(b"chess 960") && !is_chess960_protocol_name(b"normal"));
    }
}
