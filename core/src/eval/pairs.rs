//! The kernel of the networks' dense layers: 16-bit weights times 16-bit activations summed
//! into a few dozen 32-bit sums, with the weights stored in input pairs so that each
//! multiply-add instruction (`vpmaddwd`) does 16 of them and no sum needs a horizontal
//! reduction. The evaluation networks' later layers ([`super::net`]) and the policy-value
//! networks' second layer ([`super::pv`]) run on it.
//!
//! [`add_pairs`] runs the AVX2 form where the CPU has it (checked at run time; the check
//! costs nothing in a build for such a CPU) and the plain form otherwise; both give the same
//! sums (a test). Its `unsafe` code is the unaligned loads and stores of 256-bit vectors, each
//! on an array of exactly that size.

/// The most outputs a layer may have (eight vectors of eight sums).
pub(super) const MAX_OUTPUTS: usize = 64;

/// A layer of `OUT` outputs (rows of `inputs` weights, `inputs` even, one after the other) in
/// input pairs: for each pair `g` of inputs, `2 * OUT` weights, `w(o, 2g)` at `2o` and
/// `w(o, 2g + 1)` at `2o + 1`.
pub(super) fn in_pairs<const OUT: usize>(rows: &[i16], inputs: usize) -> Vec<i16> {
    debug_assert_eq!(rows.len(), OUT * inputs);
    (0..inputs / 2)
        .flat_map(|g| (0..2 * OUT).map(move |k| rows[(k / 2) * inputs + 2 * g + k % 2]))
        .collect()
}

/// Adds the weighted inputs to `sums`: `sums[o] += Σ_j w(o, j) · x[j]`, the weights `pairs` in
/// input pairs ([`in_pairs`]; `OUT` times as long as `x`). `OUT` is a multiple of 8 up to
/// [`MAX_OUTPUTS`]. The caller keeps every sum and partial sum inside `i32` (the networks check
/// their weights for it when built), and each activation in `0..=i16::MAX`.
#[inline]
pub(super) fn add_pairs<const OUT: usize>(pairs: &[i16], x: &[i16], sums: &mut [i32; OUT]) {
    const { assert!(OUT.is_multiple_of(8) && OUT <= MAX_OUTPUTS) };
    debug_assert_eq!(pairs.len(), OUT * x.len());
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, which is all `avx2::add_pairs` needs.
        #[allow(unsafe_code)]
        unsafe {
            avx2::add_pairs(pairs, x, sums)
        };
        return;
    }
    add_pairs_plain(pairs, x, sums);
}

/// [`add_pairs`] without vector instructions.
fn add_pairs_plain<const OUT: usize>(pairs: &[i16], x: &[i16], sums: &mut [i32; OUT]) {
    for (w, x) in pairs.chunks_exact(2 * OUT).zip(x.as_chunks::<2>().0) {
        let (x0, x1) = (i32::from(x[0]), i32::from(x[1]));
        for (s, w) in sums.iter_mut().zip(w.as_chunks::<2>().0) {
            *s += i32::from(w[0]) * x0 + i32::from(w[1]) * x1;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };

    use super::MAX_OUTPUTS;

    /// [`super::add_pairs`] in AVX2: for each pair of inputs, both broadcast to every 32-bit
    /// lane, one multiply-add per 16 weights into the vectors of eight sums.
    #[target_feature(enable = "avx2")]
    pub(super) fn add_pairs<const OUT: usize>(pairs: &[i16], x: &[i16], sums: &mut [i32; OUT]) {
        let mut all = [_mm256_setzero_si256(); MAX_OUTPUTS / 8];
        let acc = &mut all[..OUT / 8];
        for (w, x) in pairs.chunks_exact(2 * OUT).zip(x.as_chunks::<2>().0) {
            // The pair as one 32-bit lane: the first input in the low half.
            let both = _mm256_set1_epi32(i32::from(x[0] as u16) | (i32::from(x[1]) << 16));
            for (a, w) in acc.iter_mut().zip(w.as_chunks::<16>().0) {
                // SAFETY: `w` is 16 i16, the 32 bytes the load reads; it needs no alignment.
                let w = unsafe { _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()) };
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(w, both));
            }
        }
        for (a, s) in acc.iter().zip(sums.as_chunks_mut::<8>().0) {
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` is 8 i32, the 32 bytes the store writes; it needs no alignment.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), *a) };
            for (s, l) in s.iter_mut().zip(lanes) {
                *s += l;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The sums by rows, one output at a time: what the pairs must add up to.
    fn by_rows<const OUT: usize>(rows: &[i16], x: &[i16], bias: &[i32; OUT]) -> [i32; OUT] {
        std::array::from_fn(|o| {
            let row = &rows[o * x.len()..(o + 1) * x.len()];
            bias[o] + row.iter().zip(x).map(|(&w, &x)| i32::from(w) * i32::from(x)).sum::<i32>()
        })
    }

    #[test]
    fn every_form_gives_the_sums_by_rows() {
        check::<32>();
        check::<64>();
        check::<8>();
    }

    fn check<const OUT: usize>() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        // From one pair to the widest first layer, some lengths not a multiple of 16 inputs.
        for inputs in [2, 32, 128, 130, 140, 1024] {
            // Weights as large as the sums allow: no sum of 256 x inputs past i32.
            let most = (i64::from(i32::MAX) / 2 / (256 * inputs as i64)).min(32767) as i16;
            for round in 0..20 {
                let rows: Vec<i16> =
                    (0..OUT * inputs).map(|_| rng.gen_range(-most..=most)).collect();
                let pairs = in_pairs::<OUT>(&rows, inputs);
                // Activations 0..=256 as the networks make them, the extremes included, and
                // zero in none, some, most or all of the pairs.
                let zeros = [0.0, 0.3, 0.8, 1.0][round % 4];
                let x: Vec<i16> = (0..inputs / 2)
                    .flat_map(|_| match rng.gen_bool(zeros) {
                        true => [0, 0],
                        false => [0, 0].map(|_| match rng.gen_range(0..7) {
                            0 => 0,
                            1 => 256,
                            _ => rng.gen_range(0..=256),
                        }),
                    })
                    .collect();
                let bias: [i32; OUT] = std::array::from_fn(|_| rng.gen_range(-1000..=1000));
                let expected = by_rows(&rows, &x, &bias);
                let mut plain = bias;
                add_pairs_plain(&pairs, &x, &mut plain);
                assert_eq!(plain, expected, "{inputs} inputs, plain");
                let mut chosen = bias;
                add_pairs(&pairs, &x, &mut chosen);
                assert_eq!(chosen, expected, "{inputs} inputs, as run");
            }
        }
    }
}
