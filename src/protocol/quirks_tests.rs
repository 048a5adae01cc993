use super::*;

#[test]
fn every_row_has_its_tests() {
    // A new row gets a lookup test here and a test that runs the engine in
    // tests/engine_quirks.rs.
    assert_eq!(TABLE.len(), 3);
}

#[test]
fn toga_row_by_program_and_id_name() {
    for name in ["toga2", "Toga II 3.0", "TOGA2"] {
        assert_eq!(
            quirks(name),
            Quirks {
                no_uci_chess960: true,
                ..NONE
            },
            "{name}"
        );
    }
}

#[test]
fn fairy_stockfish_row_by_program_and_id_name() {
    for name in [
        "fairy-stockfish",
        "Fairy-Stockfish 11.1 LB 64",
        "Fairy-Stockfish",
        "my_fairy_stockfish",
    ] {
        assert_eq!(
            quirks(name),
            Quirks {
                uci_variant_fischerandom: true,
                xboard_kxr: true,
                ..NONE
            },
            "{name}"
        );
    }
}

#[test]
fn glaurung_row_by_program_and_id_name() {
    for name in [
        "glaurung",
        "Glaurung 2.2",
        "Glaurung",
        "/usr/games/glaurung".rsplit('/').next().unwrap(),
    ] {
        assert_eq!(
            quirks(name),
            Quirks {
                shared_castling_files: true,
                threads: Some(1),
                ..NONE
            },
            "{name}"
        );
    }
    // A name that only mentions Glaurung later is not Glaurung.
    assert_eq!(quirks("not-glaurung"), Quirks::default());
}

#[test]
fn other_engines_need_nothing_and_threads_are_found_in_any_case() {
    assert_eq!(quirks("stockfish"), Quirks::default());
    assert_eq!(quirks("Stockfish 15.1"), Quirks::default());
    assert_eq!(quirks("Sjaak II 1.4.1"), Quirks::default());
    assert!(sets_threads(["Hash", "threads"].into_iter()));
    assert!(!sets_threads(["Hash"].into_iter()));
}
