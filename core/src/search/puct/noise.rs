//! The random draws of learned search: Dirichlet noise on the root's priors (AlphaZero's
//! exploration in self-play) and Gumbel variables (Gumbel search's sampling without
//! replacement), from the search's seeded generator.

use rand::Rng;

/// A standard normal variable (Box-Muller).
fn normal<R: Rng>(rng: &mut R) -> f64 {
    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    let v: f64 = rng.gen::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`shape`, 1) variable (Marsaglia and Tsang, 2000; shapes below 1 by the
/// `U^(1/shape)` boost).
pub(super) fn gamma<R: Rng>(rng: &mut R, shape: f64) -> f64 {
    if shape < 1.0 {
        let u: f64 = 1.0 - rng.gen::<f64>();
        return gamma(rng, shape + 1.0) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u: f64 = 1.0 - rng.gen::<f64>();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Mixes Dirichlet(`alpha`) noise into `priors`: each becomes
/// `(1 - fraction) * prior + fraction * noise`.
pub(super) fn add_dirichlet<R: Rng>(rng: &mut R, priors: &mut [f32], alpha: f64, fraction: f64) {
    if priors.is_empty() {
        return;
    }
    let draws: smallvec::SmallVec<[f64; 64]> =
        priors.iter().map(|_| gamma(rng, alpha).max(1e-300)).collect();
    let total: f64 = draws.iter().sum();
    for (p, d) in priors.iter_mut().zip(&draws) {
        *p = ((1.0 - fraction) * f64::from(*p) + fraction * d / total) as f32;
    }
}

/// A standard Gumbel variable, `-ln(-ln U)`.
pub(super) fn gumbel<R: Rng>(rng: &mut R) -> f32 {
    let u: f64 = rng.gen::<f64>().clamp(1e-12, 1.0 - 1e-12);
    (-(-u.ln()).ln()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn gamma_draws_have_the_shapes_mean_and_variance() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for shape in [0.3, 1.0, 2.5] {
            let n = 40_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(&mut rng, shape)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            assert!((mean - shape).abs() < 0.05 * shape.max(1.0), "shape {shape}: mean {mean}");
            assert!((var - shape).abs() < 0.1 * shape.max(1.0), "shape {shape}: var {var}");
        }
    }

    #[test]
    fn dirichlet_noise_keeps_a_distribution() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut priors = vec![0.7, 0.2, 0.1, 0.0];
        add_dirichlet(&mut rng, &mut priors, 0.3, 0.25);
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(priors.iter().all(|&p| p >= 0.0));
        assert!(priors[0] >= 0.7 * 0.75 - 1e-6, "the prior keeps three quarters of its mass");
    }

    #[test]
    fn gumbel_draws_have_the_euler_mascheroni_mean() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let n = 40_000;
        let mean = (0..n).map(|_| f64::from(gumbel(&mut rng))).sum::<f64>() / n as f64;
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
    }
}
