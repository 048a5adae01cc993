//! `sp960 explain`, `sp960 roll` and `sp960 random --method` as built: the README's
//! examples run verbatim, exact stdout, JSON fields, the fairness figures, exit codes.

use predicates::prelude::*;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::sp960;

fn stdout_of(args: &[&str]) -> String {
    let output = sp960().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The section on dice and coins in docs/starts.md (README's reference moved there).
fn readme_section() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/starts.md"))
        .expect("docs/starts.md");
    let start = readme
        .find("## Dice and coins: `sp960 explain` and `sp960 roll`")
        .expect("the section");
    let rest = &readme[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_owned()
}

#[test]
fn every_console_example_in_the_readme_section_prints_what_it_says() {
    let section = readme_section();
    let mut examples = 0;
    let mut in_console = false;
    let mut current: Option<(String, String)> = None;
    let mut check = |example: Option<(String, String)>| {
        if let Some((command, expected)) = example {
            let words = shlex::split(&command).expect("a shell command line");
            assert_eq!(words[0], "sp960", "{command}");
            let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            assert_eq!(stdout_of(&words), expected, "README: $ {command}");
            examples += 1;
        }
    };
    for line in section.lines() {
        if line == "```console" {
            in_console = true;
        } else if line == "```" && in_console {
            in_console = false;
            check(current.take());
        } else if in_console {
            if let Some(command) = line.strip_prefix("$ ") {
                check(current.take());
                current = Some((command.to_owned(), String::new()));
            } else if let Some((_, expected)) = current.as_mut() {
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    assert_eq!(
        examples, 6,
        "explain, die, die-optimized, fast, polyhedral --fairness, random --method"
    );
}

#[test]
fn every_method_example_in_the_readme_table_gives_its_start() {
    let section = readme_section();
    let mut rows = 0;
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let Some(command) = cells.iter().find_map(|c| {
            c.strip_prefix("`sp960 roll ")
                .and_then(|c| c.strip_suffix('`'))
        }) else {
            continue;
        };
        let sp = cells.last().unwrap().trim_end_matches(" |");
        let mut args = vec!["roll"];
        args.extend(command.split_whitespace());
        let out = stdout_of(&args);
        assert!(out.contains(&format!("\n{sp}: ")), "{command}: {out}");
        rows += 1;
    }
    assert_eq!(rows, 7, "one example per method");
}

#[test]
fn the_issue_examples_give_their_starts() {
    for (args, line) in [
        (
            &["roll", "die", "2", "3", "3", "2", "3"][..],
            "SP 518: RNBQKBNR",
        ),
        (
            &["roll", "die", "2", "3", "3", "4", "2"][..],
            "SP 518: RNBQKBNR",
        ),
        (&["roll", "coin", "THTTHHHHTT"][..], "SP 707: BRKQNNRB"),
        (
            &[
                "roll",
                "polyhedral",
                "d8=3",
                "d4=3",
                "d6=3",
                "d20=7",
                "d12=11",
            ][..],
            "SP 518: RNBQKBNR",
        ),
    ] {
        let out = stdout_of(args);
        assert!(out.contains(&format!("{line}\n")), "{args:?}: {out}");
        assert!(out.ends_with(" w HAha - 0 1\n") || out.ends_with(" w GBgb - 0 1\n"));
    }
}

/// 002_1e5e9696fc39c650.txt, the two polyhedral diagrams: "d8=6 (bishop on f1)", "d4=4
/// (bishop on g1)", "d6=3 (queen on c1)", "d20=20 (knights on h1 and e1)", "king on b1; rooks
/// on a1 and d1"; with all five, "d20=20 (knight on h1)", "d12=11 (knight on d1)", "king on
/// b1; rooks on a1 and e1".
#[test]
fn the_texts_polyhedral_examples_on_the_command_line() {
    let out = stdout_of(&["roll", "polyhedral", "d8=6", "d4=4", "d6=3", "d20=20"]);
    assert!(
        out.contains("\nrooks on a1 and d1, king on b1 between them\nSP 910: RKQRNBBN\n"),
        "{out}"
    );
    let out = stdout_of(&[
        "roll",
        "polyhedral",
        "d8=6",
        "d4=4",
        "d6=3",
        "d20=20",
        "d12=11",
    ]);
    assert!(
        out.contains(
            "d20=20 -> knight on h1: counting 20 round the five empty squares ends on the 5th\n\
             d12=11 -> knight on d1: counting 11 round the four empty squares ends on the 3rd\n\
             rooks on a1 and e1, king on b1 between them\n\
             SP 814: RKQNRBBN\n"
        ),
        "{out}"
    );
    assert_eq!(stdout_of(&["identify", "RKQNRBBN"]), "814\n");
}

#[test]
fn roll_json_has_arrangement_sp_and_each_value() {
    let out = stdout_of(&["roll", "die", "3", "5", "1", "4", "6", "2", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["arrangement"], "NBNRBQKR");
    assert_eq!(json["sp"], 56);
    assert_eq!(
        json["fen"],
        "nbnrbqkr/pppppppp/8/8/8/8/PPPPPPPP/NBNRBQKR w HDhd - 0 1"
    );
    assert_eq!(json["values"][1]["value"], "5");
    assert_eq!(json["values"][1]["effect"], "rerolled");
    assert_eq!(
        json["values"][1]["text"],
        "roll again: there is no 5th light square"
    );
    assert_eq!(json["values"][0]["placed"][0]["square"], "e1");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn explain_json_has_each_derivation() {
    let out = stdout_of(&["explain", "RNBQKBNR", "0:959", "--json"]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let side = &lines[0]["sides"][0];
    assert_eq!(side["sp"], 518);
    assert_eq!(side["scharnagl_tables"]["kings_row"], 512);
    assert_eq!(side["scharnagl_tables"]["kings_order"], "RNQKNR");
    assert_eq!(side["scharnagl_tables"]["bishops_pattern"], "--B--B--");
    assert_eq!(side["direct"]["knights_pattern"], "-N-N-");
    assert_eq!(side["krn"]["sequence"], "RNKNR");
    assert_eq!(lines[1]["kind"], "DFRC");
    assert_eq!(lines[1]["sides"][1]["side"], "black");
    assert_eq!(lines[1]["sides"][1]["direct"]["king"], "b8");
}

#[test]
fn explain_860_by_its_fen_is_768_80_12() {
    let out = stdout_of(&[
        "explain",
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1",
    ]);
    assert!(out.starts_with("SP 860: RBKNRNBQ\n"));
    assert!(out.contains("K-R-N sequence: 768 + 80 + 12 = 860\n"));
}

#[test]
fn fairness_figures_of_every_method() {
    for (method, figures) in [
        (
            "die",
            &[
                "die: fair",
                "expected rolls: 67/10 = 6 7/10 = 6.7\n",
                "2 in 5 rolls",
            ][..],
        ),
        (
            "die-optimized",
            &[
                "die-optimized: fair",
                "3 in 5 rolls, 21 in 6 rolls",
                "expected rolls: 88/15 = 5 13/15 ≈ 5.866667\n",
            ][..],
        ),
        (
            "polyhedral",
            &[
                "polyhedral d8 d4 d6 d20: fair",
                "4 in 4 dice\n",
                "polyhedral d8 d4 d6 d20 d12: fair",
                "48 in 5 dice\n",
            ][..],
        ),
        (
            "d10",
            &["d10: fair", "1 in 4 dice\n", "expected dice: 4\n"][..],
        ),
        (
            "coins",
            &[
                "coins: fair",
                "2 in 5 throws",
                "expected throws: 89/15 = 5 14/15 ≈ 5.933333 (74/5 = 14 4/5 = 14.8 coins tossed)\n",
            ][..],
        ),
        (
            "coin",
            &[
                "coin: fair",
                "1 in 10 tosses",
                "expected tosses: 154/15 = 10 4/15 ≈ 10.266667\n",
            ][..],
        ),
        (
            "fast",
            &[
                "fast: fair",
                "1 in 4 rolls, 2 in 5 rolls, 3 in 7 rolls",
                "expected rolls: 1736/405 = 4 116/405 ≈ 4.286420\n",
            ][..],
        ),
    ] {
        let out = stdout_of(&["roll", method, "--fairness"]);
        for figure in figures {
            assert!(out.contains(figure), "{method}: {figure}\n{out}");
        }
    }
}

#[test]
fn fairness_json_lists_every_start() {
    let out = stdout_of(&["roll", "fast", "--fairness", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let procedure = &json["procedures"][0];
    assert_eq!(procedure["fair"], true);
    assert_eq!(procedure["expected"]["fraction"], "1736/405");
    assert_eq!(procedure["expected"]["mixed"], "4 116/405");
    assert_eq!(procedure["starts"].as_array().unwrap().len(), 960);
    assert_eq!(procedure["starts"][959]["probability"], "1/960");
    let out = stdout_of(&["roll", "polyhedral", "--fairness", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["procedures"][1]["procedure"],
        "polyhedral d8 d4 d6 d20 d12"
    );
    assert_eq!(json["procedures"][1]["fair"], true);
    assert_eq!(json["procedures"][1]["starts"][0]["probability"], "1/960");
    assert_eq!(json["procedures"][1]["starts"][0]["ways"], 48);
}

#[test]
fn random_method_lines_are_repeated_by_roll() {
    for method in [
        "die",
        "die-optimized",
        "polyhedral",
        "d10",
        "coins",
        "coin",
        "fast",
    ] {
        let out = stdout_of(&["random", "--method", method, "--count", "5", "--seed", "42"]);
        assert_eq!(
            out,
            stdout_of(&["random", "--method", method, "--count", "5", "--seed", "42"])
        );
        for line in out.lines() {
            let (start, rest) = line.split_once(' ').unwrap();
            let (_, rolls) = rest.split_once(" roll ").unwrap();
            let args: Vec<&str> = std::iter::once("roll")
                .chain(rolls.split_whitespace())
                .collect();
            let again = stdout_of(&args);
            assert!(
                again.contains(&format!("\nSP {start}: ")),
                "{line}\n{again}"
            );
            let fen: Vec<&str> = rest.split(' ').take(6).collect();
            assert!(again.ends_with(&format!("{}\n", fen.join(" "))), "{line}");
        }
    }
    let pairs = stdout_of(&[
        "random", "--method", "coin", "--dfrc", "--seed", "1", "--count", "3",
    ]);
    for line in pairs.lines() {
        assert_eq!(line.matches(" roll coin ").count(), 2, "{line}");
    }
}

#[test]
fn bad_values_exit_2_naming_the_value_and_why() {
    for (args, message) in [
        (
            &["roll", "die", "3", "5", "7"][..],
            "sp960: roll die: value 3 ('7'): a die shows 1 to 6\n",
        ),
        (
            &["roll", "coin", "THTXHHHHTT"][..],
            "sp960: roll coin: value 1 ('THTXHHHHTT'): toss 4: 'X' is not H (heads) or T (tails)\n",
        ),
        (
            &["roll", "polyhedral", "d8=1", "d4=1", "d6=1"][..],
            "sp960: roll polyhedral: the d20 is missing (give d8=, d4=, d6= and d20=, and d12= with a d12)\n",
        ),
        (
            &["roll", "d10", "light=1", "dark=1", "queen=7", "knights=1"][..],
            "sp960: roll d10: value 3 ('queen=7'): a die shows 1 to 6\n",
        ),
        (
            &["roll", "die", "2", "3", "3", "2", "3", "4"][..],
            "sp960: roll die: value 6 ('4'): one too many, the start was complete before it\n",
        ),
    ] {
        sp960()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(message);
    }
    sp960()
        .args(["roll", "die", "2", "3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "sp960: roll die: 2 values given, but the start is not complete; the next roll is for the queen",
        ));
}

#[test]
fn an_unknown_method_exits_2_naming_it() {
    sp960()
        .args(["roll", "dice", "1"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "unknown method 'dice' (the methods are die, die-optimized, polyhedral, d10, coins, coin and fast)",
        ));
    sp960()
        .args(["random", "--method", "cards"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown method 'cards'"));
}

#[test]
fn no_values_without_a_terminal_exit_2() {
    sp960()
        .args(["roll", "die"])
        .write_stdin("3\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sp960: roll die: values are needed: give them after the method, or run sp960 roll in a terminal to be asked for each\n",
        );
    sp960()
        .args(["roll", "die", "1", "--fairness"])
        .assert()
        .code(2);
}

#[test]
fn explain_refuses_what_is_no_start_with_exit_1() {
    sp960()
        .args(["explain", "960"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "sp960: explain: start position 960 is out of range (Chess960 numbers are 0 to 959)\n",
        );
    sp960()
        .args(["explain", "518", "RNBQKBNN"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "'RNBQKBNN': not a Chess960 arrangement",
        ));
    sp960().arg("explain").assert().code(2);
}
