//! What each row of `sp960 check` checks, typed: [`CheckId`] renders the row's label and
//! group, and names the `sp960 proxy` translation that would mend its failure
//! ([`Mending`]), so that the verdict is computed from ids, never from a row's text.

use shakmaty::Color;

use crate::check::cases::Case;
use crate::check::traps::Trap;
use crate::protocol::Protocol;

/// The three groups of checks, as the report names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    /// What the engine declares and which notations it reads and writes.
    Protocol,
    /// Perft against shakmaty.
    Movegen,
    /// Searches after castling.
    Play,
}

impl Group {
    /// The group's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Group::Protocol => "protocol",
            Group::Movegen => "movegen",
            Group::Play => "play",
        }
    }
}

/// One check: what a row is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckId {
    /// The engine starts and answers `uci` / `xboard`.
    Handshake,
    /// Which perft command the engine answers (the probe).
    PerftCommand,
    /// `option name UCI_Chess960 type check default false`; `declared`: whether the option
    /// is there at all (a wrong type or default is not mended by the proxy).
    UciChess960 {
        /// Whether the engine declares the option.
        declared: bool,
    },
    /// A `UCI_Variant` combo listing `fischerandom`: Chess960 selected as cutechess-cli
    /// selects it then (`UCI_Variant chess960`).
    UciVariant,
    /// XBoard's `setboard` and `fischerandom` features.
    XboardFeatures,
    /// The engine keeps separate castling files for each colour (sp960's quirks table).
    CastlingFiles,
    /// The divide writes castling king takes rook in Chess960 mode.
    CastlingWritten,
    /// XBoard: castling moves sent are checked by the play group instead.
    CastlingAcceptedInPlay,
    /// A case's castling sent in `position ... moves` is played as castling.
    CastlingAccepted(&'static Case),
    /// The same counts from Shredder-FEN and X-FEN castling fields (the position's name).
    FenFields(&'static str),
    /// No perft command: move generation not counted.
    PerftSkipped,
    /// Counting stopped after three positions without an answer.
    PerftStopped,
    /// A position counted against shakmaty: its label, and the case it is, if one.
    Counted {
        /// `case king-stays`, `SP 518`, `DFRC 0:959`, `random 12 (seed 1)`.
        label: String,
        /// The castling case, when it is one.
        case: Option<&'static Case>,
    },
    /// One of the author's own positions counted (`--positions`): `mine.epd:3 ID`.
    Own(String),
    /// A perft script has no engine loop: this group is not checked.
    NoEngine(Group),
    /// A case's castling made, then a search.
    Played(&'static Case),
    /// A trap searched.
    Trap(&'static Trap),
    /// XBoard: the notation the engine writes its own castling in.
    WritesCastling,
    /// The engine ignores `searchmoves`: the castlings were not offered alone.
    SearchmovesIgnored,
    /// A case's castling offered alone with `searchmoves`.
    Searchmoves(&'static Case),
    /// The engine could not be started again through the proxy.
    Restart,
}

/// A translation `sp960 proxy` makes for an engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Translation {
    /// `--offer-chess960`: the proxy declares `UCI_Chess960` and gives the engine
    /// standard chess.
    OfferChess960,
    /// Positions where both colours castle with the same rooks.
    CastlingFiles,
    /// XBoard castling moves in the form the engine takes.
    CastlingMoves,
    /// `UCI_Variant chess960` turned into `UCI_Chess960 true`.
    VariantChess960,
}

impl Translation {
    /// What the verdict says of it.
    pub fn sentence(self) -> &'static str {
        match self {
            Translation::OfferChess960 => {
                "UCI_Chess960 (sp960 proxy --offer-chess960): the proxy declares it and gives \
                 the engine each position as standard chess; it never castles where Chess960 \
                 castling differs"
            }
            Translation::CastlingFiles => {
                "castling files: the proxy gives the engine positions where both colours \
                 castle with the same rooks, without the rights it cannot hold"
            }
            Translation::CastlingMoves => {
                "castling moves: the proxy writes them in the form the engine takes"
            }
            Translation::VariantChess960 => {
                "UCI_Variant chess960: the proxy turns it into UCI_Chess960 true, as cutechess \
                 means it"
            }
        }
    }
}

/// Whether the proxy mends a failing row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mending {
    /// This translation mends it.
    By(Translation),
    /// The failure is the defect another failing row names: mended when that row is (by
    /// this translation).
    WithRowOf(Translation),
    /// Nothing the proxy does mends it.
    Not,
}

impl CheckId {
    /// The row's label, as the table and JSON print it.
    pub fn label(&self) -> String {
        match self {
            CheckId::Handshake => "handshake".into(),
            CheckId::PerftCommand => "perft command".into(),
            CheckId::UciChess960 { .. } => "UCI_Chess960 declared".into(),
            CheckId::UciVariant => "UCI_Variant".into(),
            CheckId::XboardFeatures => "setboard, fischerandom".into(),
            CheckId::CastlingFiles => "castling files".into(),
            CheckId::CastlingWritten => "castling written".into(),
            CheckId::CastlingAcceptedInPlay => "castling accepted".into(),
            CheckId::CastlingAccepted(case) => {
                format!("castling {} accepted", case.castling.unwrap_or("-"))
            }
            CheckId::FenFields(name) => format!("Shredder-FEN and X-FEN ({name})"),
            CheckId::PerftSkipped | CheckId::PerftStopped => "perft".into(),
            CheckId::Counted { label, .. } | CheckId::Own(label) => label.clone(),
            CheckId::NoEngine(_) => "no engine".into(),
            CheckId::Played(case) => format!("case {}", case.name),
            CheckId::Trap(trap) => format!("trap {}", trap.name),
            CheckId::WritesCastling => "writes castling".into(),
            CheckId::SearchmovesIgnored => "searchmoves".into(),
            CheckId::Searchmoves(case) => format!("searchmoves {}", case.name),
            CheckId::Restart => "restart".into(),
        }
    }

    /// The id of a probe's row.
    pub fn of_probe(probe: &crate::check::positions::Probe) -> CheckId {
        if probe.own {
            CheckId::Own(probe.label.clone())
        } else {
            CheckId::Counted {
                label: probe.label.clone(),
                case: probe.case,
            }
        }
    }

    /// The group the row is in.
    pub fn group(&self) -> Group {
        match self {
            CheckId::Handshake
            | CheckId::PerftCommand
            | CheckId::UciChess960 { .. }
            | CheckId::UciVariant
            | CheckId::XboardFeatures
            | CheckId::CastlingFiles
            | CheckId::CastlingWritten
            | CheckId::CastlingAcceptedInPlay
            | CheckId::CastlingAccepted(_)
            | CheckId::FenFields(_) => Group::Protocol,
            CheckId::PerftSkipped
            | CheckId::PerftStopped
            | CheckId::Counted { .. }
            | CheckId::Own(_) => Group::Movegen,
            CheckId::NoEngine(group) => *group,
            CheckId::Played(_)
            | CheckId::Trap(_)
            | CheckId::WritesCastling
            | CheckId::SearchmovesIgnored
            | CheckId::Searchmoves(_)
            | CheckId::Restart => Group::Play,
        }
    }

    /// The castling case the row is about, if any.
    pub fn case(&self) -> Option<&'static Case> {
        match self {
            CheckId::CastlingAccepted(case)
            | CheckId::Played(case)
            | CheckId::Searchmoves(case) => Some(case),
            CheckId::Counted { case, .. } => *case,
            _ => None,
        }
    }

    /// What mends this row's failure for an engine speaking `protocol`.
    pub fn mending(&self, protocol: Protocol) -> Mending {
        match (protocol, self) {
            (Protocol::Uci, CheckId::UciChess960 { declared: false }) => {
                Mending::By(Translation::OfferChess960)
            }
            (Protocol::Uci, CheckId::CastlingFiles) => Mending::By(Translation::CastlingFiles),
            (Protocol::Uci, CheckId::UciVariant) => Mending::By(Translation::VariantChess960),
            // A case whose colours castle with different rooks fails for the castling-files
            // defect: that row's translation covers it.
            (Protocol::Uci, id) if id.case().is_some_and(colours_castle_apart) => {
                Mending::WithRowOf(Translation::CastlingFiles)
            }
            (Protocol::Xboard, CheckId::Played(_)) => Mending::By(Translation::CastlingMoves),
            _ => Mending::Not,
        }
    }
}

/// Whether both colours may castle and their castling rooks stand on different files.
pub fn colours_castle_apart(case: &Case) -> bool {
    let position = crate::check::descent::chess960(case.fen);
    let files = |color: Color| -> Vec<shakmaty::File> {
        let rank = color.backrank();
        shakmaty::Position::castles(&position)
            .castling_rights()
            .into_iter()
            .filter(|square| square.rank() == rank)
            .map(|square| square.file())
            .collect()
    };
    let (white, black) = (files(Color::White), files(Color::Black));
    !white.is_empty() && !black.is_empty() && white != black
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::cases::cases;

    fn case(name: &str) -> &'static Case {
        cases().iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn labels_and_groups() {
        let king_stays = case("king-stays");
        assert_eq!(CheckId::Played(king_stays).label(), "case king-stays");
        assert_eq!(
            CheckId::CastlingAccepted(king_stays).label(),
            "castling g1h1 accepted"
        );
        assert_eq!(
            CheckId::Searchmoves(king_stays).group(),
            Group::Play,
            "searchmoves is played"
        );
        assert_eq!(
            CheckId::UciChess960 { declared: true }.label(),
            CheckId::UciChess960 { declared: false }.label()
        );
        assert_eq!(CheckId::NoEngine(Group::Play).group(), Group::Play);
    }

    #[test]
    fn the_proxy_mends_what_it_translates_and_nothing_else() {
        use Mending::*;
        assert_eq!(
            CheckId::UciChess960 { declared: false }.mending(Protocol::Uci),
            By(Translation::OfferChess960)
        );
        assert_eq!(
            CheckId::UciChess960 { declared: true }.mending(Protocol::Uci),
            Not
        );
        let differ = case("colours-differ");
        assert!(colours_castle_apart(differ));
        assert!(!colours_castle_apart(case("king-stays")));
        for id in [
            CheckId::Played(differ),
            CheckId::Searchmoves(differ),
            CheckId::Counted {
                label: "case colours-differ".into(),
                case: Some(differ),
            },
        ] {
            assert_eq!(
                id.mending(Protocol::Uci),
                WithRowOf(Translation::CastlingFiles)
            );
        }
        assert_eq!(
            CheckId::Played(case("king-stays")).mending(Protocol::Xboard),
            By(Translation::CastlingMoves)
        );
        assert_eq!(
            CheckId::Played(case("king-stays")).mending(Protocol::Uci),
            Not
        );
        assert_eq!(CheckId::CastlingWritten.mending(Protocol::Uci), Not);
    }
}
