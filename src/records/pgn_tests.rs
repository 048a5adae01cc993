use super::*;

/// What a visitor is told, in words, with `line:column` for the located events.
struct Record {
    /// Read variations (`Skip(false)`) instead of skipping them.
    read_variations: bool,
    /// Stop the game at the first token that is not SAN.
    stop_at_not_san: bool,
}

fn at(at: At) -> String {
    format!("{}:{}", at.line, at.column)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Visitor for Record {
    type Tags = Vec<String>;
    type Movetext = Vec<String>;
    type Output = Vec<String>;

    fn begin_tags(&mut self, here: At) -> ControlFlow<Vec<String>, Vec<String>> {
        ControlFlow::Continue(vec![format!("game {}", at(here))])
    }

    fn tag(
        &mut self,
        tags: &mut Vec<String>,
        name: &[u8],
        value: TagValue<'_>,
        here: At,
    ) -> ControlFlow<Vec<String>> {
        tags.push(format!("{}={} {}", text(name), value.text(), at(here)));
        ControlFlow::Continue(())
    }

    fn malformed_tag(
        &mut self,
        tags: &mut Vec<String>,
        line: &[u8],
        here: At,
    ) -> ControlFlow<Vec<String>> {
        tags.push(format!("malformed '{}' {}", text(line), at(here)));
        ControlFlow::Continue(())
    }

    fn begin_movetext(
        &mut self,
        mut tags: Vec<String>,
        here: At,
    ) -> ControlFlow<Vec<String>, Vec<String>> {
        tags.push(format!("movetext {}", at(here)));
        ControlFlow::Continue(tags)
    }

    fn san(
        &mut self,
        movetext: &mut Vec<String>,
        san: SanPlus,
        token: &[u8],
        here: At,
    ) -> ControlFlow<Vec<String>> {
        let token = text(token);
        if token == san.to_string() {
            movetext.push(format!("{san} {}", at(here)));
        } else {
            movetext.push(format!("{san} '{token}' {}", at(here)));
        }
        ControlFlow::Continue(())
    }

    fn not_san(
        &mut self,
        movetext: &mut Vec<String>,
        token: &[u8],
        here: At,
    ) -> ControlFlow<Vec<String>> {
        movetext.push(format!("not SAN '{}' {}", text(token), at(here)));
        if self.stop_at_not_san {
            return ControlFlow::Break(std::mem::take(movetext));
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, movetext: &mut Vec<String>, nag: u8, _: At) -> ControlFlow<Vec<String>> {
        movetext.push(format!("${nag}"));
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Vec<String>,
        comment: &[u8],
        here: At,
    ) -> ControlFlow<Vec<String>> {
        movetext.push(format!("{{{}}} {}", text(comment), at(here)));
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        movetext: &mut Vec<String>,
        _: At,
    ) -> ControlFlow<Vec<String>, Skip> {
        movetext.push("(".to_owned());
        ControlFlow::Continue(Skip(!self.read_variations))
    }

    fn end_variation(&mut self, movetext: &mut Vec<String>, _: At) -> ControlFlow<Vec<String>> {
        movetext.push(")".to_owned());
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut Vec<String>,
        outcome: Outcome,
        here: At,
    ) -> ControlFlow<Vec<String>> {
        movetext.push(format!("result {outcome} {}", at(here)));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Vec<String>) -> Vec<String> {
        movetext
    }
}

fn games_with(pgn: &str, visitor: &mut Record) -> Vec<Vec<String>> {
    let mut reader = Reader::new(pgn.as_bytes());
    std::iter::from_fn(|| reader.read_game(visitor)).collect()
}

fn games(pgn: &str) -> Vec<Vec<String>> {
    games_with(
        pgn,
        &mut Record {
            read_variations: false,
            stop_at_not_san: false,
        },
    )
}

#[test]
fn a_game_with_every_kind_of_token_and_where_each_is() {
    let pgn = "[Event \"a \\\"b\\\"\"]\n  [FEN\t\"x\"]\r\n\n\
               1. O-O {two\nlines} 0-0-0 2.d4 (2. f4 (2... f5) f5) d5 $13 3.c4!? ; rest\n\
               % escaped line\n\
               3... Nf6?? 1/2-1/2\n";
    assert_eq!(
        games(pgn),
        [[
            "game 1:1",
            "Event=a \"b\" 1:1",
            "FEN=x 2:3",
            "movetext 4:1",
            "O-O 4:4",
            "{two\nlines} 4:8",
            "O-O-O '0-0-0' 5:8",
            "d4 '2.d4' 5:14",
            "(",
            ")",
            "d5 5:40",
            "$13",
            "c4 '3.c4!?' 5:47",
            "$5",
            "Nf6 'Nf6??' 7:6",
            "$4",
            "result 1/2-1/2 7:12",
        ]]
    );
}

#[test]
fn variations_are_read_when_asked() {
    let mut visitor = Record {
        read_variations: true,
        stop_at_not_san: false,
    };
    assert_eq!(
        games_with("1. e4 (1. d4 (1. c4) *) e5 *", &mut visitor),
        [[
            "game 1:1",
            "movetext 1:1",
            "e4 1:4",
            "(",
            "d4 1:11",
            "(",
            "c4 1:18",
            ")",
            ")",
            "e5 1:25",
            "result * 1:28",
        ]],
        "the result inside the variation is skipped"
    );
}

#[test]
fn where_games_begin_and_end() {
    let pgn = "{before any game}\n\
               1. e4 * {after a result} 1. d4 1-0\n\
               [Event \"tags, then a game without a result\"]\n\
               1. c4\n\
               [Event \"one\"]\n\n[Site \"two tag lines, one game\"]\n\
               1. Nf3 (1. g3\n[Event \"inside a variation\"]\n) 0-1\n\
               [Event \"tags and no moves\"]\n";
    let found = games(pgn);
    let heads: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|game| {
            (
                game[0].as_str(),
                game[1].as_str(),
                game.last().unwrap().as_str(),
            )
        })
        .collect();
    assert_eq!(
        heads,
        [
            ("game 2:1", "movetext 2:1", "result * 2:7"),
            ("game 2:26", "movetext 2:26", "result 1-0 2:32"),
            (
                "game 3:1",
                "Event=tags, then a game without a result 3:1",
                "c4 4:4"
            ),
            ("game 5:1", "Event=one 5:1", "result 0-1 10:3"),
            ("game 11:1", "Event=tags and no moves 11:1", "movetext 12:1"),
        ]
    );
    assert!(found[3].contains(&"Site=two tag lines, one game 7:1".to_owned()));
}

#[test]
fn what_cannot_be_read_is_told_where_it_is() {
    let pgn = "[Event \"x\"\n[Site \"ok\"]\n\n1. e4 xyz Ke2! e4x [Event\n";
    assert_eq!(
        games(pgn),
        [[
            "game 1:1",
            "malformed '[Event \"x\"' 1:1",
            "Site=ok 2:1",
            "movetext 4:1",
            "e4 4:4",
            "not SAN 'xyz' 4:7",
            "Ke2 'Ke2!' 4:11",
            "$1",
            "not SAN 'e4x' 4:16",
            "not SAN '[Event' 4:20",
        ]]
    );
    // Blanks before the bracket; a CR is no part of the line told.
    assert_eq!(
        games(" \t[Event x]\r\n*")[0][1],
        "malformed '[Event x]' 1:3"
    );
}

#[test]
fn a_stopped_game_is_skipped_to_its_end() {
    let mut visitor = Record {
        read_variations: false,
        stop_at_not_san: true,
    };
    let pgn = "1. e4 xyz {x} e5 *\n[Event \"next\"]\n1. d4 *\n";
    let found = games_with(pgn, &mut visitor);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].last().unwrap(), "not SAN 'xyz' 1:7");
    assert_eq!(found[1][1], "Event=next 2:1");
}

#[test]
fn a_bom_crlf_and_an_unclosed_comment() {
    let found = games("\u{feff}[Event \"e\"]\r\n\r\n1. e4 {open to the end\r\n");
    assert_eq!(
        found,
        [[
            "game 1:1",
            "Event=e 1:1",
            "movetext 3:1",
            "e4 3:4",
            "{open to the end\r\n} 3:7",
        ]]
    );
    assert!(games("").is_empty());
    assert!(games(" \n\n{a comment of no game}\n% x\n; y\n").is_empty());
}

#[test]
fn skip_game_and_offset() {
    let pgn = b"1. e4 *\n\n1. d4 (1. c4 *) 1-0\n";
    let mut reader = Reader::new(pgn);
    assert!(reader.skip_game());
    assert_eq!(reader.offset(), 7);
    assert!(reader.skip_game());
    assert_eq!(reader.offset(), pgn.len() - 1);
    assert!(!reader.skip_game());
}

/// Every place a visitor is told, to check against the text.
#[derive(Default)]
struct Places(Vec<At>);

impl Visitor for Places {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self, at: At) -> ControlFlow<(), ()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _: &[u8], _: TagValue<'_>, at: At) -> ControlFlow<()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn malformed_tag(&mut self, _: &mut (), _: &[u8], at: At) -> ControlFlow<()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: (), at: At) -> ControlFlow<(), ()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), _: SanPlus, _: &[u8], at: At) -> ControlFlow<()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn not_san(&mut self, _: &mut (), _: &[u8], at: At) -> ControlFlow<()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), _: &[u8], at: At) -> ControlFlow<()> {
        self.0.push(at);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut (), at: At) -> ControlFlow<(), Skip> {
        self.0.push(at);
        ControlFlow::Continue(Skip(at.offset.is_multiple_of(2)))
    }

    fn end_game(&mut self, _: ()) {}
}

proptest::proptest! {
    /// Any bytes made of PGN's characters are read to their end, without a panic, and every
    /// place told is the line and column of its offset.
    #[test]
    fn any_text_is_read_to_its_end_and_every_place_is_right(
        bytes in proptest::collection::vec(
            proptest::sample::select(b"[]{}()\";%$!?*-/012e4Nxf3O \n\n\r\tEvnt".to_vec()),
            0..300,
        )
    ) {
        let mut reader = Reader::new(&bytes);
        let mut places = Places::default();
        let mut games = 0;
        while reader.read_game(&mut places).is_some() {
            games += 1;
            proptest::prop_assert!(games <= bytes.len());
        }
        proptest::prop_assert_eq!(reader.offset(), bytes.len());
        for at in places.0 {
            let before = &bytes[..at.offset];
            let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
            let lines = before.iter().filter(|&&b| b == b'\n').count();
            proptest::prop_assert_eq!((at.line, at.column), (lines + 1, at.offset - line_start + 1));
        }
    }
}
