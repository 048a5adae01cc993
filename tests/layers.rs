//! The layers ARCHITECTURE.md draws, held against the code: every room (a folder under
//! `src/`) names only the rooms below it (`crate::ROOM` in its code, tests left out), so
//! there is no import cycle between rooms. A new arrow fails here until the code map and
//! this table agree.

use std::collections::BTreeSet;
use std::path::Path;

/// Each room and the rooms it may use, as the code map in ARCHITECTURE.md lists them
/// (`exit_code` is below every room).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "cli",
        &[
            "check",
            "tournaments",
            "results",
            "matches",
            "books",
            "clients",
            "proxy",
            "engine",
            "launch",
            "records",
            "roll",
            "protocol",
            "starts",
            "os",
        ],
    ),
    (
        "tournaments",
        &[
            "matches", "books", "clients", "launch", "records", "protocol", "starts", "os",
        ],
    ),
    (
        "check",
        &["clients", "launch", "records", "protocol", "starts", "os"],
    ),
    (
        "matches",
        &[
            "books", "clients", "launch", "records", "protocol", "starts", "os",
        ],
    ),
    (
        "books",
        &["clients", "launch", "records", "protocol", "starts", "os"],
    ),
    ("clients", &["launch", "protocol", "starts", "os"]),
    ("proxy", &["launch", "protocol", "starts", "os"]),
    ("engine", &["launch", "protocol", "starts", "os"]),
    ("launch", &["protocol", "starts", "os"]),
    ("results", &["records", "starts"]),
    ("records", &["starts"]),
    ("roll", &["starts"]),
    ("protocol", &["starts"]),
    ("starts", &[]),
    ("os", &[]),
];

/// The rooms `text` names as `crate::ROOM`, also inside `crate::{...}` groups; comment
/// lines and inline test modules left out.
fn rooms_named(text: &str) -> BTreeSet<String> {
    let code = text
        .find("#[cfg(test)]\nmod tests {")
        .map_or(text, |at| &text[..at]);
    let mut named = BTreeSet::new();
    for line in code
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
    {
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => top_level_items(group)
                    .into_iter()
                    .map(|item| item.trim().split("::").next().unwrap_or(""))
                    .collect(),
                None => vec![
                    rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or(""),
                ],
            };
            named.extend(
                names
                    .into_iter()
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned),
            );
        }
    }
    named
}

/// The items of a `{...}` group (the text after its `{`), split at its own commas, up to
/// its closing `}`: `a::{b, c}, d}` gives `a::{b, c}` and `d`.
fn top_level_items(group: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && !path.to_string_lossy().ends_with("tests.rs")
        {
            out.push(path);
        }
    }
}

#[test]
fn every_room_uses_only_the_rooms_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rooms: BTreeSet<&str> = LAYERS.iter().map(|(room, _)| *room).collect();
    let mut wrong = Vec::new();
    for (room, below) in LAYERS {
        let mut files = Vec::new();
        sources(&src.join(room), &mut files);
        assert!(!files.is_empty(), "no sources in src/{room}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for named in rooms_named(&text) {
                if named == *room || named == "exit_code" || !rooms.contains(named.as_str()) {
                    continue;
                }
                if !below.contains(&named.as_str()) {
                    wrong.push(format!("{}: uses crate::{named}", file.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows the code map does not draw:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_room_of_src_is_in_the_table() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                LAYERS.iter().any(|(room, _)| *room == name),
                "src/{name} is a room the layers table does not list"
            );
        }
    }
}

/// `unsafe` is the OS layer's alone: every other room is declared in lib.rs under
/// `#[forbid(unsafe_code)]`, so the compiler refuses it there.
#[test]
fn every_room_but_the_os_layer_forbids_unsafe_code() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().collect();
    for (room, _) in LAYERS {
        let declared = format!("pub(crate) mod {room};");
        let at = lines
            .iter()
            .position(|line| *line == declared)
            .unwrap_or_else(|| panic!("src/lib.rs does not declare {declared}"));
        let forbidden = at > 0 && lines[at - 1] == "#[forbid(unsafe_code)]";
        assert_eq!(
            forbidden,
            *room != "os",
            "{room}: #[forbid(unsafe_code)] is for every room but os"
        );
    }
}

#[test]
fn the_reader_sees_groups_and_skips_comments_and_tests() {
    let text = "use crate::starts::start::Start;\nuse crate::{matches::{tally, game}, os::cpu};\n// crate::proxy in a comment\nlet x = crate::launch::spec::parse();\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\n";
    let named: Vec<String> = rooms_named(text).into_iter().collect();
    assert_eq!(named, ["launch", "matches", "os", "starts"]);
}
