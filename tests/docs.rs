//! The user documentation keeps its promise: what README.md and `docs/*.md` say a command
//! prints, it prints; every link between the pages leads somewhere.
//!
//! An example is a line of a ```` ```console ```` block that starts with `$ ` (continued on
//! the next lines while it ends in `\`), followed by what it prints: the lines up to the next
//! `$ ` line or the end of the block. The commands of one block run in order, each with
//! `sh -c` (pipes and `| head` allowed), in a fresh temporary directory shared by the block
//! (so a file one command writes is there for the next), with the built sp960's directory
//! first on `PATH` and `fixtures` linked to the repository's `fixtures/`. What a command
//! prints is its stdout, then its stderr (the pages say so where they start showing
//! examples); that order does not depend on how the two streams interleave.
//!
//! One normalisation, on both sides, because times vary from run to run: a number of
//! seconds with three decimals followed by ` s` (`0.001 s` in `validate`'s summary) becomes
//! `#.### s`. Nothing else is normalised.
//!
//! Random output is not allowed: an example that draws random starts must give `--seed`
//! ([`random_examples_have_a_seed`]). Examples whose commands need an external engine or
//! runner may be exempt from the comparison only when another test runs them; they are
//! listed in [`EXEMPT`] with the reason.
#![cfg(unix)] // the examples run with `sh -c`; `fixtures` is a symbolic link

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pages whose console examples are run: README.md and every `docs/*.md`.
fn example_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The pages whose links are checked: the example pages and ARCHITECTURE.md.
fn linked_pages() -> Vec<PathBuf> {
    let mut pages = example_pages();
    pages.push(root().join("ARCHITECTURE.md"));
    pages
}

/// An example that is not run, with the reason and the test that runs it instead.
struct Exemption {
    /// The page, relative to the repository root.
    page: &'static str,
    /// How the example's command starts.
    command: &'static str,
    /// Why it cannot run here.
    reason: &'static str,
    /// The test that runs it.
    covered_by: &'static str,
}

/// Examples not run by this test. Keep this list short: a command that needs no external
/// program is never exempt. (None today: every console example runs with sp960 alone;
/// the examples that need real engines and runners are ```` ```sh ```` blocks, and
/// `sp960 tournament` only writes the runners' command lines, it does not start them.)
const EXEMPT: &[Exemption] = &[];

/// One console example.
#[derive(Debug)]
struct Example {
    /// The page, relative to the repository root.
    page: String,
    /// The line of the `$ `.
    line: usize,
    /// The command line, continuation lines included (with their `\` and newlines).
    command: String,
    /// What the page says it prints.
    printed: String,
}

/// The console blocks of a page, each a list of examples.
fn console_blocks(page: &Path) -> Vec<Vec<Example>> {
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{page:?}: {e}"));
    let name = page
        .strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mut blocks = Vec::new();
    let mut block: Option<Vec<Example>> = None;
    let mut continued = false;
    for (index, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            if let Some(done) = block.take() {
                blocks.push(done);
            } else if line == "```console" {
                block = Some(Vec::new());
            }
            continued = false;
            continue;
        }
        let Some(examples) = block.as_mut() else {
            continue;
        };
        if continued {
            let example = examples.last_mut().unwrap();
            example.command.push('\n');
            example.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                page: name.clone(),
                line: index + 1,
                command: command.to_owned(),
                printed: String::new(),
            });
            continued = command.ends_with('\\');
        } else {
            let example = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` line", index + 1));
            example.printed.push_str(line);
            example.printed.push('\n');
        }
    }
    assert!(block.is_none(), "{name}: a console block is not closed");
    blocks
}

/// `0.001 s` -> `#.### s`: elapsed times, the only output that varies between runs.
fn normalise(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let starts_number = bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit());
        if starts_number {
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            let fraction = bytes.get(j) == Some(&b'.')
                && bytes.len() >= j + 6
                && bytes[j + 1..j + 4].iter().all(u8::is_ascii_digit)
                && &bytes[j + 4..j + 6] == b" s"
                && bytes.get(j + 6).is_none_or(|b| !b.is_ascii_alphanumeric());
            if fraction {
                out.push_str("#.### s");
                i = j + 6;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Runs one command line as the docs show it; returns stdout followed by stderr.
fn run(command: &str, dir: &Path) -> String {
    let sp960 = Path::new(env!("CARGO_BIN_EXE_sp960"));
    let path = format!(
        "{}:{}",
        sp960.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("still running after 120 s: {command}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut printed = out.join().unwrap();
    printed.extend(err.join().unwrap());
    String::from_utf8(printed).unwrap_or_else(|e| panic!("{command}: not UTF-8: {e}"))
}

fn exemption(example: &Example) -> Option<&'static Exemption> {
    EXEMPT
        .iter()
        .find(|e| e.page == example.page && example.command.starts_with(e.command))
}

/// Runs every console example of `page` and compares; returns how many ran.
fn check_page(page: &str) -> usize {
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in console_blocks(&root().join(page)) {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(root().join("fixtures"), dir.path().join("fixtures")).unwrap();
        for example in block {
            if let Some(exempt) = exemption(&example) {
                eprintln!(
                    "{}:{}: not run ({}; run by {})",
                    example.page, example.line, exempt.reason, exempt.covered_by
                );
                continue;
            }
            let printed = run(&example.command, dir.path());
            ran += 1;
            if normalise(&printed) != normalise(&example.printed) {
                failures.push(format!(
                    "{}:{}: $ {}\n--- the page says:\n{}--- it prints:\n{}",
                    example.page, example.line, example.command, example.printed, printed
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    ran
}

#[test]
fn readme_examples_print_what_they_say() {
    assert!(check_page("README.md") >= 8);
}

#[test]
fn starts_examples_print_what_they_say() {
    assert!(check_page("docs/starts.md") >= 12);
}

#[test]
fn match_examples_print_what_they_say() {
    assert!(check_page("docs/match.md") >= 2);
}

#[test]
fn tournament_examples_print_what_they_say() {
    assert!(check_page("docs/tournament.md") >= 7);
}

#[test]
fn book_examples_print_what_they_say() {
    assert!(check_page("docs/book.md") >= 6);
}

#[test]
fn validate_examples_print_what_they_say() {
    assert!(check_page("docs/validate.md") >= 4);
}

#[test]
fn results_examples_print_what_they_say() {
    assert!(check_page("docs/results.md") >= 6);
}

#[test]
fn proxy_examples_print_what_they_say() {
    assert!(check_page("docs/proxy.md") >= 6);
}

#[test]
fn check_examples_print_what_they_say() {
    assert!(check_page("docs/check.md") >= 8);
}

#[test]
fn platforms_examples_print_what_they_say() {
    assert!(check_page("docs/platforms.md") >= 1);
}

#[test]
fn book_packaging_examples_print_what_they_say() {
    assert!(check_page("docs/book-packaging.md") >= 8);
}

/// The pages checked by the tests above; a new page must get its test.
const CHECKED: &[&str] = &[
    "README.md",
    "docs/benchmarks.md",
    "docs/book-packaging.md",
    "docs/book.md",
    "docs/check.md",
    "docs/engine-quirks.md",
    "docs/exit-codes.md",
    "docs/hostile-gui.md",
    "docs/match.md",
    "docs/platforms.md",
    "docs/proxy.md",
    "docs/results.md",
    "docs/starts.md",
    "docs/tournament.md",
    "docs/validate.md",
];

#[test]
fn every_page_with_examples_is_checked() {
    for page in example_pages() {
        let name = page.strip_prefix(root()).unwrap().to_string_lossy();
        let examples: usize = console_blocks(&page).iter().map(Vec::len).sum();
        assert!(
            CHECKED.contains(&name.as_ref()),
            "{name} ({examples} console examples) has no test in tests/docs.rs"
        );
        if matches!(
            name.as_ref(),
            "docs/benchmarks.md"
                | "docs/engine-quirks.md"
                | "docs/exit-codes.md"
                | "docs/hostile-gui.md"
        ) {
            assert_eq!(examples, 0, "{name} has examples now: give it a test");
        }
    }
}

#[test]
fn every_exemption_names_an_example() {
    let examples: Vec<Example> = example_pages()
        .iter()
        .flat_map(|page| console_blocks(page).into_iter().flatten())
        .collect();
    for exempt in EXEMPT {
        assert!(
            examples
                .iter()
                .any(|e| exempt.page == e.page && e.command.starts_with(exempt.command)),
            "no example on {} starts with {:?}",
            exempt.page,
            exempt.command
        );
    }
}

/// Commands that draw random starts, and what makes them reproducible.
#[test]
fn random_examples_have_a_seed() {
    for page in example_pages() {
        for example in console_blocks(&page).into_iter().flatten() {
            let command = &example.command;
            let draws = command.contains("sp960 random")
                || (command.contains("sp960 book") && command.contains(" random"))
                || command.contains("--dfrc-sample")
                || command.contains("--sp random");
            assert!(
                !draws || command.contains("--seed"),
                "{}:{}: random output without --seed: {command}",
                example.page,
                example.line
            );
        }
    }
}

#[test]
fn the_normalisation_touches_only_times() {
    assert_eq!(
        normalise("sp960: validate: 32 records: 0 valid, 32 invalid; 1 file; 0.001 s\n"),
        "sp960: validate: 32 records: 0 valid, 32 invalid; 1 file; #.### s\n"
    );
    assert_eq!(normalise("12.345 s, 2.140 s."), "#.### s, #.### s.");
    for untouched in [
        "1.0 s",
        "0.0015 s",
        "1.985 seconds",
        "SP 860",
        "0-1 {Black mates}",
    ] {
        assert_eq!(normalise(untouched), untouched);
    }
}

// ---- links ----

/// GitHub's anchor for a heading: lower case; letters, digits, `-` and `_` kept; spaces
/// become `-`; everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks), in order.
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of a page's Markdown links `[text](target)` outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').expect("a closed link");
            found.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn no_two_headings_of_a_page_collide() {
    for page in linked_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut seen = std::collections::HashSet::new();
        for anchor in anchors(&text) {
            assert!(
                seen.insert(anchor.clone()),
                "{page:?}: two headings #{anchor}"
            );
        }
    }
}

#[test]
fn every_link_between_the_pages_leads_somewhere() {
    let mut checked = 0;
    for page in linked_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(path)
            };
            assert!(target.exists(), "{page:?}: link to a missing {link}");
            if !fragment.is_empty() {
                let target_text = std::fs::read_to_string(&target).unwrap();
                assert!(
                    anchors(&target_text).iter().any(|a| a == fragment),
                    "{page:?}: no heading #{fragment} in {target:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} links");
}

// ---- README is the newcomer's page ----

#[test]
fn readme_is_short_and_keeps_the_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    // README names the test command, .ci/run runs that same command, and it runs every
    // test; keep them so, exactly.
    assert!(
        readme.contains("\nscripts/test.sh\n"),
        "README's test command"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("\nscripts/test.sh\n"),
        ".ci/run runs README's test command"
    );
    let test = std::fs::read_to_string(root().join("scripts/test.sh")).unwrap();
    assert!(
        test.contains("\nexec cargo test --locked \"$@\"\n"),
        "scripts/test.sh runs every test"
    );
    let lines = readme.lines().count();
    assert!(
        lines <= 320,
        "README.md has {lines} lines: move reference text to docs/"
    );
}
