//! sp960 is GPL-3.0-or-later because it links shakmaty (GPL-3.0-or-later). This suite checks
//! that every package of the build can be combined with that: it reads `cargo metadata` (the
//! whole of Cargo.lock, every platform, dev-dependencies included) and evaluates each
//! package's SPDX `license` expression with the `spdx` crate (the parser cargo-deny uses).
//! A package whose license is missing, unknown or incompatible fails the suite, naming it.

use spdx::{Expression, LicenseReq, ParseMode};

/// Licenses whose terms let their code be part of a GPL-3.0-or-later program as they are.
const PERMISSIVE: &[&str] = &[
    "0BSD",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSL-1.0",
    // libbz2's license (bzip2 through libbz2-rs-sys, its pure-Rust port): BSD-style, its
    // conditions (keep the notices, mark altered sources, no endorsement by name) are the
    // ones GPL-3.0 section 7(b), (c) and (e) lets a GPL-3.0 program carry.
    "bzip2-1.0.6",
    "CC0-1.0",
    "ISC",
    "MIT",
    "MIT-0",
    "MPL-2.0",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "Unlicense",
    "Zlib",
];

/// Copyleft licenses that fit only in their "or any later version" form: a GPL-2.0-only or a
/// GPL-3.0-only package would forbid the "or later" that sp960 declares.
const COPYLEFT_OR_LATER: &[&str] = &["GPL-2.0", "GPL-3.0", "LGPL-2.1", "LGPL-3.0"];

/// Exceptions that only add permissions.
const ADDITIONS: &[&str] = &["LLVM-exception"];

/// Whether one license term of an expression can be part of a GPL-3.0-or-later program.
fn fits_gpl3_or_later(req: &LicenseReq) -> bool {
    let Some(id) = req.license.id() else {
        return false; // a LicenseRef-: read it and list it here by hand
    };
    let later_flag = matches!(req.license, spdx::LicenseItem::Spdx { or_later: true, .. });
    let name = id.name;
    let or_later = later_flag || name.ends_with("-or-later") || name.ends_with('+');
    let base = name
        .trim_end_matches("-or-later")
        .trim_end_matches("-only")
        .trim_end_matches('+');
    let license_fits =
        PERMISSIVE.contains(&base) || (or_later && COPYLEFT_OR_LATER.contains(&base));
    let addition_fits = req
        .addition
        .as_ref()
        .is_none_or(|addition| ADDITIONS.contains(&addition.to_string().as_str()));
    license_fits && addition_fits
}

/// Whether a package's `license` field (SPDX, with the old `/` for OR) allows the combination.
fn expression_fits(license: &str) -> Result<bool, spdx::error::ParseError> {
    let expression = Expression::parse_mode(license, ParseMode::LAX)?;
    Ok(expression.evaluate(fits_gpl3_or_later))
}

#[test]
fn the_checker_tells_compatible_licenses_from_incompatible_ones() {
    for fits in [
        "MIT OR Apache-2.0",
        "MIT/Apache-2.0",
        "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT",
        "(MIT OR Apache-2.0) AND Unicode-3.0",
        "GPL-3.0-or-later",
        "GPL-2.0+",
        "MIT OR GPL-2.0-only",
        "LGPL-2.1-or-later",
    ] {
        assert_eq!(expression_fits(fits), Ok(true), "{fits}");
    }
    for fails in [
        "GPL-2.0-only",
        "GPL-3.0-only",
        "MIT AND GPL-2.0-only",
        "AGPL-3.0-or-later AND MIT",
        "SSPL-1.0",
        "BUSL-1.1",
        "LicenseRef-proprietary",
        "GPL-3.0-or-later WITH Classpath-exception-2.0",
    ] {
        assert_eq!(expression_fits(fails), Ok(false), "{fails}");
    }
    assert!(expression_fits("not a license at all").is_err());
}

#[test]
fn sp960_declares_gpl3_or_later_and_ships_the_license_text() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("Cargo.toml");
    assert!(
        manifest
            .lines()
            .any(|line| line == "license = \"GPL-3.0-or-later\""),
        "Cargo.toml must declare license = \"GPL-3.0-or-later\""
    );
    let copying = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/COPYING"))
        .expect("COPYING is at the top of the repository");
    assert!(copying.contains("GNU GENERAL PUBLIC LICENSE"));
    assert!(copying.contains("Version 3, 29 June 2007"));
    assert!(copying.contains("END OF TERMS AND CONDITIONS"));
}

#[test]
fn every_package_in_the_build_is_compatible_with_gpl3_or_later() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let mut refused = Vec::new();
    for package in packages {
        let name = format!("{} {}", package["name"], package["version"]);
        match package["license"].as_str() {
            None => refused.push(format!("{name}: no SPDX license field")),
            Some(license) => match expression_fits(license) {
                Ok(true) => {}
                Ok(false) => {
                    refused.push(format!("{name}: {license} does not fit GPL-3.0-or-later"))
                }
                Err(error) => {
                    refused.push(format!("{name}: unreadable license {license:?}: {error}"))
                }
            },
        }
    }
    assert!(packages.len() > 50, "only {} packages read", packages.len());
    assert!(
        refused.is_empty(),
        "licenses to review:\n{}",
        refused.join("\n")
    );
}
