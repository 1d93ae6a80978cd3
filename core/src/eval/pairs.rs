//! The kernel of the networks' later layers: 16-bit weights times 16-bit activations summed
//! into [`WIDTH`] 32-bit sums, with the weights stored in input pairs so that each multiply-add
//! instruction (`vpmaddwd`) does 16 of them and no sum needs a horizontal reduction.
//!
//! [`add_pairs`] runs the AVX2 form where the CPU has it (checked at run time; the check
//! costs nothing in a build for such a CPU) and the plain form otherwise; both give the same
//! sums (a test). Its `unsafe` code is the unaligned loads and stores of 256-bit vectors, each
//! on an array of exactly that size.

use super::net::WIDTH;

/// The weights into [`WIDTH`] outputs from one pair of inputs: `w(o, 2g)` at `2o` and
/// `w(o, 2g + 1)` at `2o + 1` for input pair `g`.
pub(super) type Pair = [i16; 2 * WIDTH];

/// Adds the weighted inputs to `sums`: `sums[o] += Σ_j w(o, j) · x[j]` over the pairs of
/// inputs `x` (`pairs[g]` holds the weights of inputs `2g` and `2g + 1`; `pairs` is half as
/// long as `x`). The caller keeps every sum and partial sum inside `i32` (the networks check
/// their weights for it when built), and each activation in `0..=i16::MAX`.
#[inline]
pub(super) fn add_pairs(pairs: &[Pair], x: &[i16], sums: &mut [i32; WIDTH]) {
    debug_assert_eq!(2 * pairs.len(), x.len());
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
fn add_pairs_plain(pairs: &[Pair], x: &[i16], sums: &mut [i32; WIDTH]) {
    for (w, x) in pairs.iter().zip(x.as_chunks::<2>().0) {
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

    use super::{Pair, WIDTH};

    /// Sums of eight outputs in one vector: `WIDTH / 8` vectors hold them all.
    const VECTORS: usize = WIDTH / 8;
    const _: () = assert!(WIDTH.is_multiple_of(8));

    /// [`super::add_pairs`] in AVX2: for each pair of inputs, both broadcast to every 32-bit
    /// lane, one multiply-add per 16 weights.
    #[target_feature(enable = "avx2")]
    pub(super) fn add_pairs(pairs: &[Pair], x: &[i16], sums: &mut [i32; WIDTH]) {
        let mut acc = [_mm256_setzero_si256(); VECTORS];
        for (w, x) in pairs.iter().zip(x.as_chunks::<2>().0) {
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
    fn by_rows(pairs: &[Pair], x: &[i16], bias: &[i32; WIDTH]) -> [i32; WIDTH] {
        std::array::from_fn(|o| {
            let weight = |j: usize| i32::from(pairs[j / 2][2 * o + j % 2]);
            bias[o] + (0..x.len()).map(|j| weight(j) * i32::from(x[j])).sum::<i32>()
        })
    }

    #[test]
    fn every_form_gives_the_sums_by_rows() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for inputs in [2, 32, 128, 1024] {
            // Weights as large as the sums allow: no sum of 256 x inputs past i32.
            let most = (i64::from(i32::MAX) / 2 / (256 * inputs as i64)).min(32767) as i16;
            for _ in 0..20 {
                let pairs: Vec<Pair> = (0..inputs / 2)
                    .map(|_| std::array::from_fn(|_| rng.gen_range(-most..=most)))
                    .collect();
                // Activations 0..=256 as the networks make them, the extremes included.
                let x: Vec<i16> = (0..inputs)
                    .map(|j| match j % 7 {
                        0 => 0,
                        1 => 256,
                        _ => rng.gen_range(0..=256),
                    })
                    .collect();
                let bias: [i32; WIDTH] = std::array::from_fn(|_| rng.gen_range(-1000..=1000));
                let expected = by_rows(&pairs, &x, &bias);
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
