use super::*;

#[test]
fn parses_fastchess_words_in_any_order() {
    let sprt = parse_sprt(["elo0=0", "elo1=2", "alpha=0.05", "beta=0.05"]).unwrap();
    assert_eq!((sprt.elo0(), sprt.elo1()), (0.0, 2.0));
    assert_eq!((sprt.alpha(), sprt.beta()), (0.05, 0.05));
    assert_eq!(sprt.model(), SprtModel::Normalized, "fastchess's default");
    let sprt = parse_sprt(["model=logistic beta=0.1 alpha=0.05", "elo1=0.25 elo0=-1.75"]).unwrap();
    assert_eq!(sprt.model(), SprtModel::Logistic);
    assert_eq!((sprt.elo0(), sprt.elo1(), sprt.beta()), (-1.75, 0.25, 0.1));
    assert_eq!(
        parse_sprt(["elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized"]).unwrap(),
        SprtConfig::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap()
    );
}

#[test]
fn rejects_bad_specifications_clearly() {
    let error = |words: &str| parse_sprt([words]).unwrap_err();
    assert_eq!(
        error("elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1"),
        SprtError::UnknownKey("gamma".into())
    );
    assert_eq!(
        error("elo0=0 elo1=5 alpha=0.05 beta"),
        SprtError::NotKeyValue("beta".into())
    );
    assert_eq!(
        error("elo0=zero elo1=5 alpha=0.05 beta=0.05"),
        SprtError::BadNumber {
            key: "elo0",
            value: "zero".into()
        }
    );
    assert_eq!(
        error("elo0=0 elo1=inf alpha=0.05 beta=0.05"),
        SprtError::BadNumber {
            key: "elo1",
            value: "inf".into()
        }
    );
    assert_eq!(
        error("elo0=0 elo1=5 alpha=NaN beta=0.05"),
        SprtError::BadNumber {
            key: "alpha",
            value: "NaN".into()
        }
    );
    assert_eq!(
        error("elo0=0 elo1=5 alpha=0.05"),
        SprtError::Missing("beta")
    );
    assert_eq!(error(""), SprtError::Missing("elo0"));
    assert_eq!(
        error("elo0=0 elo0=1 elo1=5 alpha=0.05 beta=0.05"),
        SprtError::Duplicate("elo0".into())
    );
    assert_eq!(
        error("elo0=5 elo1=5 alpha=0.05 beta=0.05"),
        SprtError::EloOrder {
            elo0: 5.0,
            elo1: 5.0
        }
    );
    assert_eq!(
        error("elo0=5 elo1=0 alpha=0.05 beta=0.05"),
        SprtError::EloOrder {
            elo0: 5.0,
            elo1: 0.0
        }
    );
    for (words, key, value) in [
        ("elo0=0 elo1=5 alpha=0 beta=0.05", "alpha", 0.0),
        ("elo0=0 elo1=5 alpha=1 beta=0.05", "alpha", 1.0),
        ("elo0=0 elo1=5 alpha=0.05 beta=-0.1", "beta", -0.1),
        ("elo0=0 elo1=5 alpha=0.05 beta=1.5", "beta", 1.5),
    ] {
        assert_eq!(
            error(words),
            SprtError::OutOfRange { key, value },
            "{words}"
        );
    }
    assert_eq!(
        error("elo0=0 elo1=5 alpha=0.5 beta=0.5"),
        SprtError::ErrorSum(1.0)
    );
    assert_eq!(
        error("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian"),
        SprtError::BadModel("bayesian".into())
    );
    let message = error("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian").to_string();
    assert!(
        message.contains("normalized") && message.contains("logistic"),
        "{message}"
    );
    assert_eq!(
        error("elo0=3 elo1=1 alpha=0.05 beta=0.05").to_string(),
        "--sprt: elo0 (3) must be less than elo1 (1)"
    );
}

#[test]
fn bounds_and_decisions() {
    let sprt = SprtConfig::new(0.0, 5.0, 0.05, 0.1, SprtModel::Normalized).unwrap();
    assert!((sprt.lower_bound() - (0.1f64 / 0.95).ln()).abs() < 1e-15);
    assert!((sprt.upper_bound() - 18f64.ln()).abs() < 1e-15);
    assert_eq!(sprt.decision(sprt.upper_bound()), SprtDecision::AcceptH1);
    assert_eq!(sprt.decision(sprt.lower_bound()), SprtDecision::AcceptH0);
    assert_eq!(sprt.decision(0.0), SprtDecision::Continue);
    assert_eq!(sprt.decision(-2.25), SprtDecision::Continue);
    assert!((sprt.fraction(18f64.ln() / 2.0) - 0.5).abs() < 1e-15);
    // fastchess's own sign: a negative LLR halfway down prints as -50%.
    assert!((sprt.fraction(sprt.lower_bound() / 2.0) + 0.5).abs() < 1e-15);
}

#[test]
fn llr_is_finite_and_follows_the_evidence() {
    // Regularized empty classes keep every LLR finite, even for extreme samples.
    for model in [SprtModel::Normalized, SprtModel::Logistic] {
        let sprt = SprtConfig::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
        for counts in [
            Counts::Games(Score::default()),
            Counts::Games(Score {
                wins: u32::MAX / 3,
                draws: 0,
                losses: 0,
            }),
            Counts::Games(Score {
                wins: 0,
                draws: 0,
                losses: 1_000_000,
            }),
            Counts::Pairs(PairCounts {
                dd: 1_000_000,
                ..PairCounts::default()
            }),
            Counts::Pairs(PairCounts {
                ww: 1,
                ll: 1,
                ..PairCounts::default()
            }),
        ] {
            assert!(sprt.llr(&counts).is_finite(), "{model} {counts:?}");
        }
        let ahead = PairCounts {
            ll: 10,
            ld: 100,
            wl: 300,
            dd: 100,
            wd: 160,
            ww: 20,
        };
        let behind = PairCounts {
            ll: 20,
            ld: 160,
            wl: 300,
            dd: 100,
            wd: 100,
            ww: 10,
        };
        assert!(sprt.llr_pentanomial(&ahead) > 0.0 && sprt.llr_pentanomial(&behind) < 0.0);
    }
}
