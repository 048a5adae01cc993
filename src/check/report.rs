//! What the check found: its rows (group, case, what was sent, what came back, pass or
//! fail, why), the verdict and its exit status, and the two ways they are printed: a
//! table for people and JSON for scripts.

use std::fmt::Write as _;

use serde::Serialize;

use crate::check::ids::{CheckId, Group};
use crate::exit_code;

/// How a row ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// As it should be.
    Pass,
    /// A defect.
    Fail,
    /// Not checked, and why is in the row (no perft command, `searchmoves` ignored).
    Skip,
}

/// One check and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRow {
    /// What it checks (its label and group).
    pub id: CheckId,
    /// What was sent (the question, short).
    pub sent: String,
    /// What came back.
    pub got: String,
    /// Pass, fail or skip.
    pub status: Status,
    /// Why (for a failure: the defect, with its position).
    pub why: String,
}

impl CheckRow {
    /// A row for `id`: what was `sent`, and its outcome (status, what came back, why).
    pub fn new(
        id: CheckId,
        sent: String,
        (status, got, why): (Status, String, String),
    ) -> CheckRow {
        CheckRow {
            id,
            sent,
            got,
            status,
            why,
        }
    }

    /// A row that was not checked, and why.
    pub fn skipped(id: CheckId, why: impl Into<String>) -> CheckRow {
        CheckRow::new(id, String::new(), (Status::Skip, String::new(), why.into()))
    }

    /// The row's group.
    pub fn group(&self) -> Group {
        self.id.group()
    }
}

impl Serialize for CheckRow {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut row = serializer.serialize_struct("CheckRow", 6)?;
        row.serialize_field("group", &self.id.group())?;
        row.serialize_field("case", &self.id.label())?;
        row.serialize_field("sent", &self.sent)?;
        row.serialize_field("got", &self.got)?;
        row.serialize_field("status", &self.status)?;
        row.serialize_field("why", &self.why)?;
        row.end()
    }
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Readiness {
    /// Every check passed, move generation counted against shakmaty's.
    Ready,
    /// Every check that ran passed, but move generation was checked through play only
    /// (the engine has no perft command sp960 could find): what was not checked.
    ReadyInPlay {
        /// What was not checked, and why.
        not_checked: String,
    },
    /// Ready when run behind `sp960 proxy`, which makes these translations.
    ReadyThroughProxy {
        /// What the proxy translates for it.
        translations: Vec<String>,
        /// What was not checked (no perft command), if anything.
        #[serde(skip_serializing_if = "Option::is_none")]
        not_checked: Option<String>,
    },
    /// A perft script (no engine loop) counted as shakmaty does on every position: move
    /// generation only, the protocol and play not checked.
    MovegenCorrect {
        /// How many positions were counted.
        positions: usize,
    },
    /// Not ready: the first defect.
    NotReady {
        /// The first failing row's case and why.
        first_defect: String,
    },
}

impl Readiness {
    /// The exit status: 0 for any kind of ready and for a perft script's correct move
    /// generation, 3 (an engine that cannot do what
    /// was asked) for not ready.
    pub fn exit_code(&self) -> u8 {
        match self {
            Readiness::Ready
            | Readiness::ReadyInPlay { .. }
            | Readiness::ReadyThroughProxy { .. }
            | Readiness::MovegenCorrect { .. } => exit_code::SUCCESS,
            Readiness::NotReady { .. } => exit_code::ENGINE_UNSUITABLE,
        }
    }

    /// One line for people.
    pub fn sentence(&self) -> String {
        match self {
            Readiness::Ready => "ready for Chess960".to_owned(),
            Readiness::ReadyInPlay { not_checked } => {
                format!("ready for Chess960 in play; {not_checked}")
            }
            Readiness::ReadyThroughProxy {
                translations,
                not_checked,
            } => {
                let mut sentence = format!(
                    "ready for Chess960 through sp960 proxy ({})",
                    translations.join("; ")
                );
                if let Some(not_checked) = not_checked {
                    sentence.push_str(&format!(", in play; {not_checked}"));
                }
                sentence
            }
            Readiness::MovegenCorrect { positions } => format!(
                "move generation matches shakmaty on {positions} positions (a perft script: \
                 the protocol and play not checked)"
            ),
            Readiness::NotReady { first_defect } => {
                format!("not ready for Chess960: {first_defect}")
            }
        }
    }
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The engine's name (`id name`, `myname`), or its program.
    pub engine: String,
    /// The protocol spoken.
    pub protocol: String,
    /// The perft command used (`go-perft`, `total`, `depths`) or `none`.
    pub perft: String,
    /// Every row, in order.
    pub rows: Vec<CheckRow>,
    /// Through `sp960 proxy`, when the direct run needed it: the same checks' rows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proxy_rows: Vec<CheckRow>,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Readiness,
    /// What the run cost (JSON only: the table is the same from run to run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// What a run cost, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cost {
    /// Wall time.
    pub wall: f64,
    /// sp960's own CPU time (shakmaty's counts, parsing, the descent).
    pub sp960_cpu: f64,
    /// The engine processes' CPU time (and the proxy's, when run through it); `None`
    /// where the system does not sum children's times (Windows).
    pub engine_cpu: Option<f64>,
}

impl Eq for Cost {}

impl CheckReport {
    /// The table: one line per row (long texts cut), then the verdict.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "engine: {} ({}; perft: {})",
            self.engine, self.protocol, self.perft
        );
        let count = |status| self.rows.iter().filter(|r| r.status == status).count();
        let (passed, failed, skipped) = (
            count(Status::Pass),
            count(Status::Fail),
            count(Status::Skip),
        );
        table_rows(&mut out, &self.rows);
        if !self.proxy_rows.is_empty() {
            let _ = writeln!(out, "through sp960 proxy:");
            table_rows(&mut out, &self.proxy_rows);
        }
        let _ = writeln!(
            out,
            "{passed} passed, {failed} failed, {skipped} skipped; {}",
            self.verdict.sentence()
        );
        out
    }

    /// The JSON object (one line).
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("plain data")
    }
}

fn table_rows(out: &mut String, rows: &[CheckRow]) {
    // Passing rows of the bulk groups are summarized per group: one line each.
    let mut group_passes: Vec<(Group, usize)> = Vec::new();
    for row in rows {
        if row.status == Status::Pass && matches!(row.id, CheckId::Counted { case: None, .. }) {
            match group_passes.iter_mut().find(|(g, _)| *g == row.group()) {
                Some((_, n)) => *n += 1,
                None => group_passes.push((row.group(), 1)),
            }
            continue;
        }
        let status = match row.status {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::Skip => "skip",
        };
        let _ = writeln!(
            out,
            "{status:4}  {:8}  {:28}  {}",
            row.group().name(),
            cut(&row.id.label(), 28),
            if row.status == Status::Pass {
                cut(&format!("{} -> {}", row.sent, row.got), 90)
            } else {
                row.why.clone()
            }
        );
    }
    for (group, n) in group_passes {
        let _ = writeln!(
            out,
            "pass  {:8}  {:28}  the engine's counts are shakmaty's",
            group.name(),
            format!("{n} positions")
        );
    }
}

fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(width - 3).collect();
        cut.push_str("...");
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: Status, case: &str) -> CheckRow {
        let inner_rook = crate::check::cases::cases()
            .iter()
            .find(|c| c.name == "inner-rook");
        CheckRow {
            id: CheckId::Counted {
                label: case.into(),
                case: inner_rook.filter(|_| case.starts_with("case ")),
            },
            sent: "go perft 3".into(),
            got: "8902".into(),
            status,
            why: "engine misses legal b1f1 in 1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1".into(),
        }
    }

    #[test]
    fn verdicts_and_exit_codes() {
        assert_eq!(Readiness::Ready.exit_code(), 0);
        let proxy = Readiness::ReadyThroughProxy {
            translations: vec!["UCI_Chess960".into()],
            not_checked: None,
        };
        assert_eq!(proxy.exit_code(), 0);
        let in_play = Readiness::ReadyInPlay {
            not_checked: "move generation not checked: no perft command".into(),
        };
        assert_eq!(in_play.exit_code(), 0);
        assert_eq!(
            in_play.sentence(),
            "ready for Chess960 in play; move generation not checked: no perft command"
        );
        let not = Readiness::NotReady {
            first_defect: "x".into(),
        };
        assert_eq!(not.exit_code(), 3);
        let movegen = Readiness::MovegenCorrect { positions: 7 };
        assert_eq!(movegen.exit_code(), 0);
        assert_eq!(
            serde_json::to_string(&movegen).unwrap(),
            r#"{"verdict":"movegen-correct","positions":7}"#
        );
    }

    #[test]
    fn table_and_json() {
        let report = CheckReport {
            engine: "Broken 1".into(),
            protocol: "uci".into(),
            perft: "go-perft".into(),
            rows: vec![
                row(Status::Pass, "SP 0"),
                row(Status::Pass, "SP 1"),
                row(Status::Fail, "case inner-rook"),
            ],
            proxy_rows: Vec::new(),
            verdict: Readiness::NotReady {
                first_defect: "case inner-rook: engine misses legal b1f1".into(),
            },
            cost: None,
        };
        let table = report.table();
        assert!(table.contains("FAIL  movegen   case inner-rook"), "{table}");
        assert!(table.contains("pass  movegen   2 positions"), "{table}");
        assert!(table.ends_with("2 passed, 1 failed, 0 skipped; not ready for Chess960: case inner-rook: engine misses legal b1f1\n"), "{table}");
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["verdict"], "not-ready");
        assert_eq!(
            json["first_defect"],
            "case inner-rook: engine misses legal b1f1"
        );
        assert_eq!(json["rows"][2]["status"], "fail");
        assert_eq!(json["rows"][2]["case"], "case inner-rook");
        assert_eq!(json["rows"][2]["group"], "movegen");
        assert!(json.get("proxy_rows").is_none());
    }
}
