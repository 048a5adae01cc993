use serde_json::json;

use super::*;
use crate::books::book::BookRequest;
use crate::launch::spec::EngineSpec;
use crate::starts::notation::CastlingNotation;
use crate::tournaments::runners::Tool;
use crate::tournaments::shell::Shell;

fn request(engines: &[&str], starts: &str) -> TournamentRequest {
    TournamentRequest {
        tool: Tool::CutechessGui,
        engines: engines
            .iter()
            .enumerate()
            .map(|(index, text)| EngineSpec::parse(index + 1, text).unwrap())
            .collect(),
        starts: BookRequest {
            specs: vec![starts.parse().unwrap()],
            ..BookRequest::default()
        },
        time_control: "10+0.1".parse().unwrap(),
        book: None,
        book_format: BookFormat::Epd,
        castling: CastlingNotation::Shredder,
        pgn_out: "games.pgn".into(),
        concurrency: None,
        sp960: "sp960".to_owned(),
        shell: Shell::Sh,
        given_book: None,
    }
}

fn files() -> GuiFiles {
    GuiFiles {
        engines_json: PathBuf::from("/home/me/.config/cutechess/engines.json"),
        launchers: PathBuf::from("/home/me/.config/cutechess/sp960-launchers"),
        current_dir: PathBuf::from("/home/me/chess"),
        gui_engines_json: Some(PathBuf::from("/home/me/.config/cutechess/engines.json")),
    }
}

/// The path of `name` in the folder `dir` as `Path::join` writes it here: `dir\name` on
/// Windows, `dir/name` elsewhere (the folders of [`files`] are written with `/` on both).
fn joined(dir: &str, name: &str) -> String {
    let separator = if cfg!(windows) { '\\' } else { '/' };
    format!("{dir}{separator}{name}")
}

fn engines(engines: &[&str], starts: &str) -> Result<Vec<GuiEngine>, GuiError> {
    let tournament = request(engines, starts).resolve()?;
    let plan = plan(&tournament)?;
    gui_engines(&tournament, &plan, &files())
}

#[test]
fn each_engine_is_a_launcher_listed_under_fischerandom_only() {
    let engines = engines(
        &[
            "/usr/games/stockfish option.Hash=16",
            "/usr/games/fairy-stockfish",
            // Double quotes group words in both splittings, POSIX and Windows.
            "/usr/games/sjaakii proto=xboard \"name=Sjaak II\"",
            "/usr/games/fairy-stockfish proto=xboard name=fairy-xboard",
            "/usr/games/glaurung",
            "/usr/games/toga2 restart=on initstr=debug",
        ],
        "860:1",
    )
    .unwrap();
    let launchers = "/home/me/.config/cutechess/sp960-launchers";
    let expected = [
        (
            json!({"name": "stockfish-960", "command": joined(launchers, "stockfish-960"),
                   "workingDirectory": "/home/me/chess", "protocol": "uci",
                   "variants": ["fischerandom"],
                   "options": [{"name": "Hash", "value": "16"}]}),
            vec![],
        ),
        (
            // cutechess's UCI_Variant: wrapped, as --emit cutechess wraps it.
            json!({"name": "fairy-stockfish-960",
                   "command": joined(launchers, "fairy-stockfish-960"),
                   "workingDirectory": "/home/me/chess", "protocol": "uci",
                   "variants": ["fischerandom"]}),
            vec![],
        ),
        (
            json!({"name": "Sjaak II", "command": joined(launchers, "Sjaak-II"),
                   "workingDirectory": "/home/me/chess", "protocol": "xboard",
                   "variants": ["fischerandom"]}),
            vec!["--protocol", "xboard"],
        ),
        (
            json!({"name": "fairy-xboard", "command": joined(launchers, "fairy-xboard"),
                   "workingDirectory": "/home/me/chess", "protocol": "xboard",
                   "variants": ["fischerandom"]}),
            vec!["--protocol", "xboard", "--engine-castling", "kxr"],
        ),
        (
            // The quirks table's Threads=1, as cutechess-cli's option.Threads=1.
            json!({"name": "glaurung-960", "command": joined(launchers, "glaurung-960"),
                   "workingDirectory": "/home/me/chess", "protocol": "uci",
                   "variants": ["fischerandom"],
                   "options": [{"name": "Threads", "value": "1"}]}),
            vec![],
        ),
        (
            json!({"name": "toga2-960", "command": joined(launchers, "toga2-960"),
                   "workingDirectory": "/home/me/chess", "protocol": "uci",
                   "variants": ["fischerandom"], "initStrings": ["debug"],
                   "restart": "on"}),
            vec!["--offer-chess960"],
        ),
    ];
    assert_eq!(engines.len(), expected.len());
    for (engine, (entry, proxy)) in engines.iter().zip(expected) {
        assert_eq!(engine.entry, entry);
        let job = engine.launcher.as_ref().unwrap();
        let options: Vec<String> = (job.invocation.options.words().iter())
            .map(|word| word.to_string_lossy().into_owned())
            .collect();
        assert_eq!(options, proxy, "{entry}");
        assert_eq!(job.path.display().to_string(), entry["command"]);
        assert_eq!(job.directory, PathBuf::from("/home/me/chess"));
    }
    let job = engines[3].launcher.as_ref().unwrap();
    assert_eq!(job.invocation.engine, ["/usr/games/fairy-stockfish"]);
}

#[test]
fn the_working_directory_is_dir_and_engine_arguments_go_to_the_launcher() {
    let engines = engines(
        &[
            "./engines/stockfish --uci-flag dir=engines name=sf",
            "/usr/games/stockfish proxy=no",
        ],
        "0",
    )
    .unwrap();
    let job = engines[0].launcher.as_ref().unwrap();
    assert_eq!(job.directory, PathBuf::from("/home/me/chess/engines"));
    assert_eq!(job.invocation.engine, ["./engines/stockfish", "--uci-flag"]);
    assert_eq!(
        engines[0].entry["workingDirectory"],
        joined("/home/me/chess", "engines")
    );
    // proxy=no: the engine itself is the command.
    assert!(engines[1].launcher.is_none());
    assert_eq!(engines[1].entry["command"], "/usr/games/stockfish");
}

#[test]
fn what_engines_json_cannot_hold_is_refused() {
    let err = engines(&["/usr/games/stockfish proxy=no --flag", "stockfish"], "0").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("engine 'stockfish-960': proxy=no with engine arguments"),
        "{err}"
    );
    for key in ["tc=5+0.1", "st=1", "depth=5", "nodes=100"] {
        let err = engines(&[&format!("stockfish {key}"), "stockfish"], "0").unwrap_err();
        let key = key.split('=').next().unwrap();
        assert!(
            err.to_string().starts_with(&format!(
                "engine 1: {key}= is not supported by Cute Chess GUI"
            )),
            "{err}"
        );
        assert_eq!(err.exit_code(), crate::exit_code::USAGE);
    }
}

#[test]
fn launcher_file_names_are_portable_and_unique() {
    assert_eq!(launcher_file_name("Sjaak II"), "Sjaak-II");
    assert_eq!(launcher_file_name("a/b\\c:d"), "a-b-c-d");
    assert_eq!(launcher_file_name("..hidden."), "hidden");
    assert_eq!(launcher_file_name("..."), "engine");
    // Double quotes group words in both splittings, POSIX and Windows.
    let engines = engines(&[r#""name=a b" stockfish"#, r#""name=a-b" stockfish"#], "0").unwrap();
    let paths: Vec<_> = engines
        .iter()
        .map(|e| {
            e.launcher
                .as_ref()
                .unwrap()
                .path
                .file_name()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(paths, ["a-b", "a-b-2"]);
}

fn old_of(text: &str) -> OldEngines {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("engines.json");
    std::fs::write(&path, text).unwrap();
    read_engines_json(&path).unwrap().unwrap()
}

#[test]
fn merging_keeps_other_entries_as_written_and_replaces_ours() {
    let hand_made = "{\n\t\t\"command\" : \"/opt/my engine\",\n\t\t\"name\" : \"Mine\", \"ponder\": true,\n\t\t\"timeoutScaleFactor\" : 1.50\n\t}";
    let text =
        format!("[\n\t{hand_made},\n\t{{\"name\": \"stockfish-960\", \"command\": \"old\"}}\n]\n");
    let old = old_of(&text);
    let ours = [
        json!({"name": "stockfish-960", "command": "new"}),
        json!({"name": "toga2-960", "command": "t"}),
    ];
    let merged = merge(Some(&old.entries), &ours);
    assert_eq!(merged.replaced, ["stockfish-960"]);
    assert!(merged.text.contains(hand_made), "{}", merged.text);
    let value: serde_json::Value = serde_json::from_str(&merged.text).unwrap();
    let names: Vec<_> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Mine", "stockfish-960", "toga2-960"]);
    assert_eq!(value[1]["command"], "new");
    assert_eq!(value[0]["timeoutScaleFactor"], 1.5);
    // A file of ours merged again is unchanged.
    let again = merge(Some(&old_of(&merged.text).entries), &ours);
    assert_eq!(again.text, merged.text);
    // No file: just ours.
    let fresh = merge(None, &ours[1..]);
    assert_eq!(
        fresh.text,
        "[\n  {\n    \"command\": \"t\",\n    \"name\": \"toga2-960\"\n  }\n]\n"
    );
    assert!(fresh.replaced.is_empty());
}

#[test]
fn a_malformed_engines_json_is_refused_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("engines.json");
    std::fs::write(&path, "[\n  {\"name\": \"a\",}\n]\n").unwrap();
    let err = read_engines_json(&path).unwrap_err();
    let name = path.display();
    assert_eq!(
        err.to_string(),
        format!(
            "{name}:2:16: not a valid engines.json (key must be a string); it was left untouched: \
             fix it or choose another file with --engines-json"
        )
    );
    assert_eq!(err.exit_code(), crate::exit_code::INVALID_DATA);
    std::fs::write(&path, "{\"name\": \"a\"}").unwrap();
    let err = read_engines_json(&path).unwrap_err();
    assert!(
        err.to_string()
            .contains("Cute Chess expects a JSON array of engine objects, this holds an object"),
        "{err}"
    );
    std::fs::write(&path, b"[\"\xff\"]").unwrap();
    let err = read_engines_json(&path).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{name}:1:3: not a valid")),
        "{err}"
    );
    std::fs::write(&path, " \n").unwrap();
    assert!(
        read_engines_json(&path)
            .unwrap()
            .unwrap()
            .entries
            .is_empty()
    );
    std::fs::remove_file(&path).unwrap();
    assert!(read_engines_json(&path).unwrap().is_none());
}

#[test]
fn backups_never_overwrite_an_older_backup() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("engines.json");
    let first = backup_path(&path);
    assert_eq!(first, dir.path().join("engines.json.bak"));
    std::fs::write(&first, "").unwrap();
    assert_eq!(backup_path(&path), dir.path().join("engines.json.bak.2"));
    std::fs::write(dir.path().join("engines.json.bak.2"), "").unwrap();
    assert_eq!(backup_path(&path), dir.path().join("engines.json.bak.3"));
}

#[test]
fn the_steps_name_the_dialogs_fields() {
    let mut request = request(&["stockfish", "/usr/games/sjaakii proto=xboard"], "0,860");
    request.time_control = "40/60+0.6".parse().unwrap();
    request.concurrency = Some(2);
    let tournament = request.resolve().unwrap();
    let plan = plan(&tournament).unwrap();
    let text = steps(
        &tournament,
        &plan,
        tournament.time_control.as_ref().unwrap(),
        &files(),
        Path::new("/home/me/chess/sp960-FRC.epd"),
    );
    let pgn_out = joined("/home/me/chess", "games.pgn");
    assert_eq!(
        text,
        format!(
            "Cute Chess GUI reads /home/me/.config/cutechess/engines.json when it starts (quit it first if it is running).
In Cute Chess: Tournament > New...
  PGN output: {pgn_out}
  Tournament type: Round Robin
  Rounds: 2
  Games per encounter: 2
  Play each opening: 2 times
  Recover crashed engines: on; Swap sides: on
  Variant: fischerandom
  Time Control: Tournament, Moves: 40, Time: 60 Seconds, Increment: 0.6 sec
  FEN string: empty (a FEN there replaces the opening suite)
  PGN/EPD file: /home/me/chess/sp960-FRC.epd (read as EPD: the GUI goes by the extension)
  Opening order: Sequential
  Players: + (Add), then select stockfish-960, sjaakii-960 (listed under fischerandom only)
Tools > Settings > Tournaments: Concurrent games: 2
"
        )
    );
}

#[test]
fn an_epd_book_must_be_named_so_for_the_gui() {
    let dir = tempfile::tempdir().unwrap();
    let mut request = request(&["stockfish", "stockfish"], "860");
    request.book = Some("book-FRC.txt".into());
    let files = GuiFiles {
        engines_json: dir.path().join("engines.json"),
        launchers: dir.path().join("l"),
        current_dir: dir.path().to_path_buf(),
        gui_engines_json: None,
    };
    let err = write_gui_files(request, &files).unwrap_err();
    assert_eq!(
        err.to_string(),
        "book book-FRC.txt: Cute Chess GUI reads an opening suite as EPD only when its name \
         ends in .epd (any other as PGN): name the EPD book so (--book NAME.epd)"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
