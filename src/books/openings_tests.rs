use super::*;
use crate::starts::notation::{CastlingNotation, position_fen};

#[test]
fn epd_lines_with_operations_and_counters() {
    let text = "\
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - hmvc 3; fmvn 7; id \"sp 0\";

# a comment line
rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1
";
    let openings = read_openings(text, "book.epd", OpeningFormat::Epd, None).unwrap();
    assert_eq!(openings.len(), 2);
    assert_eq!(openings[0].label, "book.epd:1");
    assert_eq!(openings[1].label, "book.epd:4");
    assert_eq!(
        position_fen(&openings[0].root, CastlingNotation::Shredder),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 3 7"
    );
    assert!(openings[1].moves.is_empty());
}

#[test]
fn bad_epd_lines_name_file_line_and_reason() {
    for (text, message) in [
        (
            "8/8/8 w -\n",
            "book.epd:1: '8/8/8 w -': an EPD line needs 4 FEN fields",
        ),
        (
            "\nrbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w Hh - 0 1\n",
            "book.epd:2: FEN 'rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w Hh - 0 1': invalid castling rights dropped",
        ),
        ("7k/8/8/8/8/8/8/K7 w - -\n", "insufficient material"),
        (
            "7k/6Q1/6K1/8/8/8/8/8 b - -\n",
            "book.epd:1: '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1': the position is checkmate",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -\n",
            "book.epd:1: bad FEN",
        ),
        ("", "book.epd:0: no openings in the file"),
    ] {
        let err = read_openings(text, "book.epd", OpeningFormat::Epd, None).unwrap_err();
        assert!(err.to_string().contains(message), "{text:?}: {err}");
    }
}

#[test]
fn pgn_games_with_fen_tags_chess960_castling_comments_and_variations() {
    let text = r#"[Event "book"]
[Variant "Chess960"]
[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"]

1. O-O {a comment
over two lines} O-O-O 2. d4 (2. f4 f5) d5 $1 3.c4!? *

[Event "standard"]

1.e4 e5 2.Nf3 Nc6 1-0
1. d4 d5
[Event "no result above"]
1. c4 ; a rest-of-line comment
*
"#;
    let openings = read_openings(text, "book.pgn", OpeningFormat::Pgn, None).unwrap();
    assert_eq!(openings.len(), 4);
    assert_eq!(openings[3].label, "book.pgn:12");
    assert_eq!(openings[3].moves.len(), 1);
    assert_eq!(openings[2].moves.len(), 2);
    assert_eq!(openings[0].label, "book.pgn:1");
    assert_eq!(openings[0].moves.len(), 5);
    assert!(openings[0].moves[0].is_castle() && openings[0].moves[1].is_castle());
    // python-chess's FEN after the same moves.
    assert_eq!(
        position_fen(&openings[0].position(), CastlingNotation::Shredder),
        "2kr2r1/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/1R3RK1 b - - 0 3"
    );
    assert_eq!(openings[1].label, "book.pgn:8");
    assert_eq!(openings[1].root, Chess::default());
    assert_eq!(openings[1].moves.len(), 4);
    assert_eq!(openings[2].label, "book.pgn:11");
    // plies=N keeps the first N moves.
    let short = read_openings(text, "book.pgn", OpeningFormat::Pgn, Some(2)).unwrap();
    assert_eq!(
        short.iter().map(|o| o.moves.len()).collect::<Vec<_>>(),
        [2, 2, 2, 1]
    );
}

/// A book's `Variant` read by the one rule `validate` reads it with: every spelling of
/// Chess960 and of chess (`normalize --variant-tag FRC` once wrote a book `match` refused).
#[test]
fn every_chess960_and_chess_spelling_is_a_book_variant() {
    let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
    for variant in [
        "Chess960",
        "chess 960",
        "chess-960",
        "fischerandom",
        "Fischer Random",
        "fischerrandom",
        "FRC",
        "960",
        "Standard",
        "From Position",
    ] {
        let text = format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n1. d4 d5 *\n");
        let openings = read_openings(&text, "book.pgn", OpeningFormat::Pgn, None)
            .unwrap_or_else(|err| panic!("{variant}: {err}"));
        assert_eq!(openings[0].moves.len(), 2, "{variant}");
    }
}

#[test]
fn bad_pgn_games_name_file_line_and_reason() {
    for (text, message) in [
        (
            "1. e4 e5 2. Ke3 *\n",
            "book.pgn:1: 'Ke3' is not legal after 2 moves of the opening",
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
            "book.pgn:1: bad FEN",
        ),
        (
            "[Variant \"Atomic\"]\n1. e4 *\n",
            "book.pgn:1: [Variant \"Atomic\"]: not chess or Chess960",
        ),
        (
            "[Event \"x\"\n",
            "book.pgn:1: '[Event \"x\"': not a tag pair",
        ),
        (
            "\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
            "book.pgn:3: after the opening's moves the position is checkmate",
        ),
        ("1. e4 xyz *\n", "book.pgn:1: 'xyz' is not a SAN move"),
        (
            "1. e4 *\n\n1. d4 * [Event \"x\"]\n",
            "book.pgn:3: a tag pair inside the moves",
        ),
        (
            "[Event \"x\"]\n[Site \"?\"] 1. e4\n1. e4 *\n",
            "book.pgn:2: '[Site \"?\"] 1. e4': not a tag pair",
        ),
        (
            "[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n1. d4 d5 2. Ne3 *\n",
            "book.pgn:3: 'Ne3' is ambiguous after 2 moves of the opening",
        ),
    ] {
        let err = read_openings(text, "book.pgn", OpeningFormat::Pgn, None).unwrap_err();
        assert!(err.to_string().contains(message), "{text:?}: {err}");
    }
}

#[test]
fn start_count_and_a_seeded_random_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.pgn");
    let games: String = ["e4", "d4", "c4", "Nf3", "g3", "b3"]
        .iter()
        .map(|m| format!("1. {m} *\n\n"))
        .collect();
    std::fs::write(&file, games).unwrap();
    let words = |extra: &str| vec![format!("file={} {extra}", file.display())];
    let lines = |openings: &[Opening]| -> Vec<String> {
        openings
            .iter()
            .map(|o| o.label.rsplit(':').next().unwrap().to_owned())
            .collect()
    };
    let spec = OpeningsSpec::parse(&words("start=2 count=3")).unwrap();
    assert_eq!(lines(&load(&spec, 0).unwrap()), ["3", "5", "7"]);
    // Random: drawn from the whole file (from start), then count of them.
    let some = OpeningsSpec::parse(&words("order=random count=2")).unwrap();
    assert_eq!(load(&some, 3).unwrap().len(), 2);
    let random = OpeningsSpec::parse(&words("order=random")).unwrap();
    let first = lines(&load(&random, 7).unwrap());
    assert_eq!(
        first,
        lines(&load(&random, 7).unwrap()),
        "same seed, same order"
    );
    let mut sorted = first.clone();
    sorted.sort_by_key(|n| n.parse::<u32>().unwrap());
    assert_eq!(sorted, ["1", "3", "5", "7", "9", "11"]);
    assert!(
        (0..20).any(|seed| lines(&load(&random, seed).unwrap()) != first),
        "seeds change the order"
    );
    let past = OpeningsSpec::parse(&words("start=7")).unwrap();
    assert!(
        load(&past, 0)
            .unwrap_err()
            .to_string()
            .ends_with(":0: start=7: the file has 6 openings")
    );
}

#[test]
fn a_large_epd_book_reports_its_first_bad_line_and_keeps_only_what_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.epd");
    let good = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea -";
    let mut lines = vec![good; 1000];
    lines[699] = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w Hh -";
    lines[899] = "8/8 w - -";
    std::fs::write(&file, lines.join("\n")).unwrap();
    let spec = OpeningsSpec::parse(&[format!("file={} count=5", file.display())]).unwrap();
    let err = load(&spec, 0).unwrap_err();
    assert_eq!(
        (err.line, err.file.ends_with("big.epd")),
        (700, true),
        "{err}"
    );
    lines[699] = good;
    lines[899] = good;
    std::fs::write(&file, lines.join("\n")).unwrap();
    let openings = load(&spec, 0).unwrap();
    assert_eq!(openings.len(), 5);
    assert!(openings[4].label.ends_with("big.epd:5"));
}

#[test]
fn the_spec_words_and_their_errors() {
    let words = |text: &str| vec![text.to_owned()];
    let spec =
        OpeningsSpec::parse(&words("file=a.pgn order=random plies=8 start=3 count=10")).unwrap();
    assert_eq!(spec.format, OpeningFormat::Pgn);
    assert_eq!(spec.order, OpeningOrder::Random);
    assert_eq!((spec.plies, spec.start, spec.count), (Some(8), 3, Some(10)));
    assert_eq!(
        OpeningsSpec::parse(&words("file=b.txt format=epd"))
            .unwrap()
            .format,
        OpeningFormat::Epd
    );
    for (text, message) in [
        ("format=epd", "file=FILE is missing"),
        ("file=b.txt", "say format=epd or format=pgn"),
        (
            "file=a.epd order=shuffle",
            "order=shuffle: expected sequential or random",
        ),
        ("file=a.epd plies=x", "plies=x: expected a whole number"),
        ("file=a.epd start=0", "start=0"),
        ("file=a.epd depth=3", "unknown key 'depth'"),
        ("file=a.epd stray", "'stray': expected KEY=VALUE"),
        ("file=a.epd file=b.epd", "file= given twice"),
    ] {
        let err = OpeningsSpec::parse(&words(text)).unwrap_err().to_string();
        assert!(err.contains(message), "{text}: {err}");
    }
}

#[test]
fn castling_with_zeros_and_a_byte_order_mark() {
    // `0-0` was refused as "not a SAN move" before the one reader (records::pgn).
    let text = "\u{feff}[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. 0-0 0-0-0+ *\n";
    let openings = read_openings(text, "book.pgn", OpeningFormat::Pgn, None).unwrap();
    assert_eq!(openings[0].label, "book.pgn:1");
    assert!(
        openings[0].moves.iter().all(|m| m.is_castle()),
        "{openings:?}"
    );
    assert_eq!(
        position_fen(&openings[0].position(), CastlingNotation::Shredder),
        "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2"
    );
}

/// A book as users download it: gzipped, or the one entry of a zip archive, read through
/// records::open, its format from the name before `.gz`; a zip of two books is refused.
#[test]
fn compressed_books_are_loaded_as_plain_ones() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let epd = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n\
               bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"SP 0\";\n";
    let plain = dir.path().join("book.epd");
    std::fs::write(&plain, epd).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(epd.as_bytes()).unwrap();
    let gz = dir.path().join("book.epd.gz");
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let zip_of = |names: &[&str]| {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for name in names {
            writer
                .start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(epd.as_bytes()).unwrap();
        }
        writer.finish().unwrap().into_inner()
    };
    let one = dir.path().join("book.epd.zip");
    std::fs::write(&one, zip_of(&["book.epd"])).unwrap();
    let two = dir.path().join("two.epd.zip");
    std::fs::write(&two, zip_of(&["a.epd", "b.epd"])).unwrap();
    let spec = |path: &std::path::Path| {
        OpeningsSpec::parse(&[format!("file={}", path.display())]).unwrap()
    };
    let played = |openings: Vec<Opening>| -> Vec<_> {
        openings
            .into_iter()
            .map(|opening| (opening.root, opening.moves))
            .collect()
    };
    let expected = played(load(&spec(&plain), 1).unwrap());
    assert_eq!(expected.len(), 2);
    assert_eq!(played(load(&spec(&gz), 1).unwrap()), expected);
    let from_zip = load(&spec(&one), 1).unwrap();
    assert!(
        from_zip[1].label.ends_with("book.epd.zip!book.epd:2"),
        "{}",
        from_zip[1].label
    );
    assert_eq!(played(from_zip), expected);
    let refused = load(&spec(&two), 1).unwrap_err();
    assert!(
        refused.reason.contains("a zip archive of 2 text entries"),
        "{refused}"
    );
}
