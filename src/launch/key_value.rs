//! The one reader of `KEY=VALUE` words, shared by every option written that way: an
//! `--engine`'s settings ([`crate::launch::spec`]), `--openings`, `--sprt`, `--resign` and
//! `--draw`.
//!
//! A word is split at its first `=` ([`split`]): `hash=16` is (`hash`, `16`), `a=b=c` is
//! (`a`, `b=c`), a word without `=` is no setting. An option's words are read by [`read`]:
//! an argument may hold several words separated by whitespace, each must be `KEY=VALUE`,
//! its key one of the option's keys, and no key may come twice. The errors are typed
//! ([`KeyValueError`]); their messages name the option, the word and the keys, and an
//! option with messages of its own maps them. [`value`] finds a key's value among the
//! settings read, [`one_of`] a value among the words a key takes.

use thiserror::Error;

/// Why an option's words are not its `KEY=VALUE` settings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeyValueError {
    /// A word without `=`.
    #[error("{flag}: '{word}' is not KEY=VALUE (keys: {})", keys.join(", "))]
    NotKeyValue {
        /// The option (`--sprt`).
        flag: &'static str,
        /// Its keys.
        keys: &'static [&'static str],
        /// The word as given.
        word: String,
    },
    /// A key the option does not have.
    #[error("{flag}: unknown key '{key}' (keys: {})", keys.join(", "))]
    UnknownKey {
        /// The option.
        flag: &'static str,
        /// Its keys.
        keys: &'static [&'static str],
        /// The key as given.
        key: String,
    },
    /// A key given twice.
    #[error("{flag}: {key} is given twice")]
    Duplicate {
        /// The option.
        flag: &'static str,
        /// The key.
        key: &'static str,
    },
}

/// One word as a setting, `(key, value)`, split at its first `=`; `None` without one.
pub fn split(word: &str) -> Option<(&str, &str)> {
    word.split_once('=')
}

/// Reads the words of `flag` (each argument may hold several, separated by whitespace):
/// every word `KEY=VALUE` with a key of `keys`, none twice. The settings come in order,
/// each key as listed in `keys`; the first bad word is the error.
pub fn read<'a, S: AsRef<str>>(
    flag: &'static str,
    keys: &'static [&'static str],
    words: &'a [S],
) -> Result<Vec<(&'static str, &'a str)>, KeyValueError> {
    let mut pairs: Vec<(&'static str, &'a str)> = Vec::new();
    for word in words.iter().flat_map(|w| w.as_ref().split_whitespace()) {
        let Some((key, value)) = split(word) else {
            return Err(KeyValueError::NotKeyValue {
                flag,
                keys,
                word: word.to_owned(),
            });
        };
        let Some(known) = keys.iter().find(|known| **known == key) else {
            return Err(KeyValueError::UnknownKey {
                flag,
                keys,
                key: key.to_owned(),
            });
        };
        if pairs.iter().any(|(seen, _)| seen == known) {
            return Err(KeyValueError::Duplicate { flag, key: known });
        }
        pairs.push((known, value));
    }
    Ok(pairs)
}

/// The value of `key` among `pairs` ([`read`]'s settings), if given.
pub fn value<'a>(pairs: &[(&'static str, &'a str)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(known, _)| *known == key)
        .map(|(_, value)| *value)
}

/// The choice a value names among `choices` (`(word, choice)`), if any: `proto=xboard`
/// among `[("uci", Uci), ("xboard", Xboard)]` is `Xboard`.
pub fn one_of<T: Copy>(value: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(word, _)| *word == value)
        .map(|(_, choice)| *choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &["movecount", "score"];

    fn words(text: &str) -> Vec<String> {
        vec![text.to_owned()]
    }

    #[test]
    fn words_split_at_the_first_equals_sign() {
        assert_eq!(split("hash=16"), Some(("hash", "16")));
        assert_eq!(split("a=b=c"), Some(("a", "b=c")));
        assert_eq!(split("=x"), Some(("", "x")));
        assert_eq!(split("ponder"), None);
    }

    #[test]
    fn settings_come_in_order_from_several_arguments() {
        let given = vec!["score=5".to_owned(), " movecount=3\t".to_owned()];
        let pairs = read("--resign", KEYS, &given).unwrap();
        assert_eq!(pairs, [("score", "5"), ("movecount", "3")]);
        assert_eq!(value(&pairs, "movecount"), Some("3"));
        assert_eq!(value(&pairs, "twosided"), None);
        assert_eq!(one_of("on", &[("off", false), ("on", true)]), Some(true));
        assert_eq!(one_of("On", &[("off", false), ("on", true)]), None);
        assert_eq!(
            read("--resign", KEYS, &Vec::<String>::new()),
            Ok(Vec::new())
        );
    }

    #[test]
    fn errors_name_the_option_the_word_and_the_keys() {
        let error = |text: &str| read("--draw", KEYS, &words(text)).unwrap_err().to_string();
        assert_eq!(
            error("score=1 stray"),
            "--draw: 'stray' is not KEY=VALUE (keys: movecount, score)"
        );
        assert_eq!(
            error("depth=3"),
            "--draw: unknown key 'depth' (keys: movecount, score)"
        );
        assert_eq!(error("score=1 score=2"), "--draw: score is given twice");
        assert_eq!(
            read("--draw", KEYS, &words("score=1 score=2")),
            Err(KeyValueError::Duplicate {
                flag: "--draw",
                key: "score"
            })
        );
    }
}
