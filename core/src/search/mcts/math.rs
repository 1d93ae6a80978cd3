//! `ln` and `exp` from IEEE basic operations only (`+ - * /` and bit manipulation), which
//! every platform rounds the same way. The standard library's versions call the platform's
//! maths library, whose last bit may differ between systems; UCT compares values built from
//! them, so one different bit could change a search. With these, a seed gives the same search
//! everywhere.

const LN_2: f64 = std::f64::consts::LN_2;
/// The leading bits of ln 2, with enough trailing zeros that a product with an exponent stays
/// exact.
const LN_2_HI: f64 = 0.693_147_180_369_123_8;
/// ln 2 - `LN_2_HI`.
const LN_2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// `1 / (2i + 1)` for `i` in `0..12`, the coefficients of the atanh series.
const ODD_RECIPROCALS: [f64; 12] = {
    let mut c = [0.0; 12];
    let mut i = 0;
    while i < 12 {
        c[i] = 1.0 / (2 * i + 1) as f64;
        i += 1;
    }
    c
};

/// `1 / n` for `n` in `1..=18`, the factors of the exponential series.
const RECIPROCALS: [f64; 18] = {
    let mut c = [0.0; 18];
    let mut i = 0;
    while i < 18 {
        c[i] = 1.0 / (i + 1) as f64;
        i += 1;
    }
    c
};

/// The natural logarithm of a positive finite `x` (within a few units in the last place);
/// `-inf` for 0 and NaN for negative or NaN input.
pub(super) fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    // Normalise subnormals, then split x = m * 2^e with m in [1, 2).
    let (x, bias) = if x < f64::MIN_POSITIVE { (x * pow2(54), -54) } else { (x, 0) };
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i32 - 1023 + bias;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    // Centre m on 1: m in [sqrt(1/2), sqrt(2)).
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m - 1) / (m + 1), |s| < 0.172:
    // twelve terms reach below 1e-18.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let sum = s * ODD_RECIPROCALS.iter().rev().fold(0.0, |acc, &c| acc * s2 + c);
    2.0 * sum + f64::from(e) * LN_2
}

/// `e^x`; saturates to 0 below -745 and to infinity above 709.
pub(super) fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.0 {
        return f64::INFINITY;
    }
    if x < -745.0 {
        return 0.0;
    }
    // x = k ln 2 + r with |r| <= ln 2 / 2; e^x = 2^k e^r.
    let k = (x / LN_2).round();
    // ln 2 in two parts (Cody and Waite): `k * LN_2_HI` is exact for every k in range.
    let r = (x - k * LN_2_HI) - k * LN_2_LO;
    // Taylor series in Horner form: 1 + r (1 + r/2 (1 + r/3 (...))), 18 terms for |r| < 0.35.
    let sum = RECIPROCALS.iter().rev().fold(1.0, |acc, &c| 1.0 + r * acc * c);
    // 2^k in two steps, so that k below the normal range still gives a (subnormal) result.
    let k = k as i32;
    let half = k / 2;
    sum * pow2(half) * pow2(k - half)
}

/// `2^k` for `k` in the normal exponent range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(f64::MIN_POSITIVE)
    }

    #[test]
    fn ln_2_split_is_exact() {
        assert_eq!(LN_2_HI.to_bits(), 0x3fe6_2e42_fee0_0000);
        assert_eq!(LN_2_LO.to_bits(), 0x3dea_39ef_3579_3c76);
        assert_eq!(LN_2_HI + LN_2_LO, LN_2);
    }

    #[test]
    fn ln_matches_the_standard_library() {
        for x in [1e-300, 1e-10, 0.3, 0.5, 0.999, 1.0, 1.5, 2.0, 3.0, 10.0, 12345.678, 4e9, 1e300] {
            assert!(close(ln(x), x.ln()), "ln({x}) = {} vs {}", ln(x), x.ln());
        }
        for n in 1..5000u32 {
            let x = f64::from(n);
            assert!(close(ln(x), x.ln()) || ln(x).abs() < 1e-300, "ln({n})");
        }
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan());
        assert!(close(ln(5e-320), 5e-320f64.ln()));
    }

    #[test]
    fn exp_matches_the_standard_library() {
        let mut x = -700.0;
        while x < 700.0 {
            assert!(close(exp(x), x.exp()), "exp({x}) = {} vs {}", exp(x), x.exp());
            x += 0.731;
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-1000.0), 0.0);
        assert_eq!(exp(1000.0), f64::INFINITY);
        assert!((exp(-740.0) - (-740f64).exp()).abs() < 1e-320);
    }
}
