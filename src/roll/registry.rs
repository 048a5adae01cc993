//! What one line of the method table in `roll/mod.rs` says about a method, and the macro
//! that turns the table into [`Method`](super::Method), [`Method::ALL`](super::Method::ALL)
//! and [`Stepper`](super::Stepper). Every name, unit, help line and input word of a method
//! is read from its [`MethodInfo`]: nothing else in `roll/` or the CLI spells them.

use super::Stepper;

/// A method as its file declares it: everything the command line, the reader of values and
/// the reports say about it.
#[derive(Debug)]
pub struct MethodInfo {
    /// The name typed on the command line and printed in reports: `die-optimized`.
    pub name: &'static str,
    /// How `sp960 roll --help` lists it: `die (Althöfer: one d6, re-rolls)`.
    pub help: &'static str,
    /// What one value is called, singular and plural: `roll`/`rolls`, `toss`/`tosses`.
    pub unit: (&'static str, &'static str),
    /// How its values are typed.
    pub values: Values,
    /// Whether its fairness proof also tells how many coins are tossed (`coins`).
    pub counts_coins: bool,
    /// The procedures `--fairness` proves, by name and `d12`; empty: the one procedure,
    /// under the method's name.
    pub proofs: &'static [(&'static str, bool)],
    /// The procedure, ready for its first value; the argument chooses the variant with a
    /// d12 (methods without one ignore it).
    pub procedure: fn(bool) -> Stepper,
}

/// How a method's values are typed on the command line.
#[derive(Debug)]
pub enum Values {
    /// One value per argument: `die 3 5 1`, `coins TH HTT`.
    OnePerArgument,
    /// Letters, in one argument or several (`coin THTTHHHHTT`); messages count them in the
    /// method's unit.
    Letters,
    /// Named dice of one throw, in any order: `d10 light=1 dark=2 queen=3 knights=4`.
    Named {
        /// The names in the order they are read (`true`: with the optional d12).
        dice: fn(bool) -> &'static [&'static str],
        /// The `NAME=` words as messages list them: `light=, dark=, queen= and knights=`.
        expected: &'static str,
    },
}

/// Items joined with `, ` and the last with ` {conjunction} `: `a, b or c`.
pub(crate) fn listing<'a>(items: impl IntoIterator<Item = &'a str>, conjunction: &str) -> String {
    let items: Vec<&str> = items.into_iter().collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} {conjunction} {last}", rest.join(", ")),
    }
}

/// Declares [`Method`](super::Method) (one variant per line, [`Method::ALL`] in the lines'
/// order, [`Method::info`] the line's [`MethodInfo`]) and [`Stepper`] (one variant per
/// line, holding the method's procedure) from the table `Variant(ProcedureType) = INFO,`.
/// Every `match` it writes lists every line, so no method can be left out of one.
macro_rules! methods {
    ($($(#[$doc:meta])* $variant:ident($procedure:ty) = $info:path,)+) => {
        /// A manual method of drawing a start: one line of the table in `roll/mod.rs`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Method {
            $($(#[$doc])* $variant,)+
        }

        impl Method {
            /// All methods, in the table's order (the order of the help text).
            pub const ALL: [Method; [$(Method::$variant),+].len()] = [$(Method::$variant),+];

            /// The method's line of the table: its names, unit, help and input words.
            pub fn info(self) -> &'static MethodInfo {
                match self {
                    $(Method::$variant => &$info,)+
                }
            }
        }

        /// Any method's procedure: one variant per method, holding its procedure.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum Stepper {
            $(
                #[doc = concat!("The procedure of [`Method::", stringify!($variant), "`].")]
                $variant($procedure),
            )+
        }

        impl Stepper {
            /// The method whose procedure this is.
            pub fn method(&self) -> Method {
                match self {
                    $(Stepper::$variant(_) => Method::$variant,)+
                }
            }
        }

        impl Procedure for Stepper {
            fn ask(&self) -> Option<Ask> {
                match self {
                    $(Stepper::$variant(p) => p.ask(),)+
                }
            }

            fn take(&mut self, face: u32) -> RollStep {
                match self {
                    $(Stepper::$variant(p) => p.take(face),)+
                }
            }

            fn done(&self) -> Option<Done> {
                match self {
                    $(Stepper::$variant(p) => p.done(),)+
                }
            }
        }
    };
}

pub(crate) use methods;

#[cfg(test)]
mod tests {
    use super::listing;

    #[test]
    fn listing_joins_the_last_with_the_conjunction() {
        assert_eq!(listing([], "or"), "");
        assert_eq!(listing(["die"], "or"), "die");
        assert_eq!(listing(["die", "coin"], "and"), "die and coin");
        assert_eq!(listing(["a", "b", "c"], "or"), "a, b or c");
    }
}
