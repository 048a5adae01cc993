//! Exact fractions for the fairness proofs: an `i128` numerator over a positive
//! denominator, always in lowest terms, every operation checked (`None` on overflow, never
//! a wrong figure). No floating point is used for an exact figure; [`Ratio::decimal`] only
//! prints one.

use std::cmp::Ordering;
use std::fmt;

/// A fraction in lowest terms with a positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den` in lowest terms; `None` when `den` is 0.
    pub fn new(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let sign = if den < 0 { -1 } else { 1 };
        let g = gcd(num, den).max(1);
        Some(Ratio {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    /// The whole number `n`.
    pub fn integer(n: i128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    /// The numerator (lowest terms; negative for a negative fraction).
    #[cfg(test)]
    pub fn numerator(self) -> i128 {
        self.num
    }

    /// The denominator (lowest terms, positive).
    pub fn denominator(self) -> i128 {
        self.den
    }

    /// True for zero.
    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// `self + other`.
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, other.den);
        let (a, b) = (self.den / g, other.den / g);
        let num = self
            .num
            .checked_mul(b)?
            .checked_add(other.num.checked_mul(a)?)?;
        Ratio::new(num, self.den.checked_mul(b)?)
    }

    /// `self - other`.
    pub fn checked_sub(self, other: Ratio) -> Option<Ratio> {
        self.checked_add(Ratio {
            num: other.num.checked_neg()?,
            den: other.den,
        })
    }

    /// `self × other`, cancelling crosswise first.
    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        let g1 = gcd(self.num, other.den).max(1);
        let g2 = gcd(other.num, self.den).max(1);
        Ratio::new(
            (self.num / g1).checked_mul(other.num / g2)?,
            (self.den / g2).checked_mul(other.den / g1)?,
        )
    }

    /// `self ÷ other`; `None` for a zero divisor.
    pub fn checked_div(self, other: Ratio) -> Option<Ratio> {
        if other.num == 0 {
            return None;
        }
        self.checked_mul(Ratio::new(other.den, other.num)?)
    }

    /// A mixed number: `5 14/15`, `4`, `2/3`.
    pub fn mixed(self) -> String {
        let whole = self.num / self.den;
        let rest = (self.num % self.den).abs();
        match (whole, rest) {
            (_, 0) => whole.to_string(),
            (0, _) => self.to_string(),
            _ => format!("{whole} {rest}/{}", self.den),
        }
    }

    /// The decimal expansion rounded to `places` digits and whether it is exact; an exact
    /// one drops its trailing zeros (`("6.7", true)`, `("5.933333", false)`).
    pub fn decimal(self, places: u32) -> (String, bool) {
        let negative = self.num < 0;
        let num = self.num.unsigned_abs();
        let den = self.den.unsigned_abs();
        let scale = 10u128.pow(places);
        let whole = num / den;
        let remainder = num % den;
        // Round half up on the scaled fraction.
        let scaled = remainder * scale;
        let mut fraction = scaled / den;
        let exact = scaled.is_multiple_of(den);
        let mut whole = whole;
        if (scaled % den) * 2 >= den {
            fraction += 1;
            if fraction == scale {
                fraction = 0;
                whole += 1;
            }
        }
        let mut text = format!("{}{whole}", if negative { "-" } else { "" });
        let digits = format!("{fraction:0width$}", width = places as usize);
        let digits = if exact {
            digits.trim_end_matches('0')
        } else {
            &digits
        };
        if !digits.is_empty() {
            text.push('.');
            text.push_str(digits);
        }
        (text, exact)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    /// Exact, without overflow: by whole parts, then the reciprocals of the remainders
    /// (the continued fractions).
    fn cmp(&self, other: &Ratio) -> Ordering {
        let (mut a, mut b, mut c, mut d) = (self.num, self.den, other.num, other.den);
        let mut flipped = false;
        loop {
            let (p, q) = (a.div_euclid(b), c.div_euclid(d));
            if p != q {
                let order = p.cmp(&q);
                return if flipped { order.reverse() } else { order };
            }
            let (r, s) = (a.rem_euclid(b), c.rem_euclid(d));
            match (r == 0, s == 0) {
                (true, true) => return Ordering::Equal,
                (true, false) => {
                    return if flipped {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    };
                }
                (false, true) => {
                    return if flipped {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                }
                // r/b vs s/d equals d/s vs b/r with the order reversed.
                (false, false) => (a, b, c, d, flipped) = (b, r, d, s, !flipped),
            }
        }
    }
}

impl fmt::Display for Ratio {
    /// `a/b`, or just `a` for a whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: i128, den: i128) -> Ratio {
        Ratio::new(num, den).unwrap()
    }

    #[test]
    fn arithmetic_in_lowest_terms() {
        assert_eq!(r(2, 4), r(1, 2));
        assert_eq!(r(1, -2).numerator(), -1);
        assert_eq!(r(1, 6).checked_add(r(1, 3)), Some(r(1, 2)));
        assert_eq!(r(1, 2).checked_sub(r(3, 4)), Some(r(-1, 4)));
        assert_eq!(r(6, 35).checked_mul(r(7, 12)), Some(r(1, 10)));
        assert_eq!(r(1, 3).checked_div(r(2, 3)), Some(r(1, 2)));
        assert_eq!(r(1, 3).checked_div(Ratio::ZERO), None);
        assert_eq!(Ratio::new(1, 0), None);
        assert!(r(1, 3) < r(1, 2));
        assert!(r(-1, 3) < r(1, 1000));
        assert!(r(-1, 2) < r(-1, 3));
        assert!(r(5, 4608) > r(1, 1152) && r(1, 768) > r(5, 4608));
        assert!(r(1, 3) < r(1, 3).checked_add(r(1, i128::MAX / 4)).unwrap());
        assert_eq!(r(7, 5).cmp(&r(14, 10)), Ordering::Equal);
        let big = Ratio::integer(i128::MAX / 2);
        assert!(big > r(i128::MAX / 2 - 1, 1), "no overflow on large values");
        assert_eq!(
            Ratio::integer(i128::MAX).checked_add(Ratio::ONE),
            None,
            "overflow is reported, not wrapped"
        );
    }

    #[test]
    fn comparison_agrees_with_cross_multiplication() {
        for a in -12..=12 {
            for b in 1..=12 {
                for c in -12..=12 {
                    for d in 1..=12 {
                        assert_eq!(
                            r(a, b).cmp(&r(c, d)),
                            (a * d).cmp(&(c * b)),
                            "{a}/{b} {c}/{d}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn printing() {
        assert_eq!(r(89, 15).to_string(), "89/15");
        assert_eq!(r(89, 15).mixed(), "5 14/15");
        assert_eq!(r(2, 3).mixed(), "2/3");
        assert_eq!(Ratio::integer(4).mixed(), "4");
        assert_eq!(r(67, 10).decimal(6), ("6.7".to_owned(), true));
        assert_eq!(r(89, 15).decimal(6), ("5.933333".to_owned(), false));
        assert_eq!(r(1736, 405).decimal(6), ("4.286420".to_owned(), false));
        assert_eq!(r(2, 3).decimal(6), ("0.666667".to_owned(), false));
        assert_eq!(
            r(9999999, 10000000).decimal(6),
            ("1.000000".to_owned(), false)
        );
        assert_eq!(Ratio::integer(4).decimal(6), ("4".to_owned(), true));
    }
}
