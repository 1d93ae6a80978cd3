//! Evaluations that are a weighted sum of features, and the weights files that tuning writes.
//!
//! A game gets a tunable evaluation by listing its features: a type that implements
//! [`Features`] names them and reports, for a position, the value of each feature that is not
//! zero. [`LinearEval`] is the evaluator `sum(weight[i] * feature[i])`, with the weights read
//! from a [`Weights`] file (written by the tuner, `ply_tools::tune`, and embedded in the
//! ruleset with `include_str!`). Pattern evaluations are linear too: one feature per pattern
//! configuration, of which each position turns on a few.
//!
//! ```
//! use ply::eval::{Evaluator, Features, LinearEval, Weights};
//! use ply::games::{TicTacToe, TicTacToeState};
//! use ply::{Game, Notation, Player};
//!
//! /// Two features: the centre and the corners, own minus the opponent's.
//! #[derive(Clone)]
//! struct Squares;
//!
//! impl Features<TicTacToe> for Squares {
//!     fn count(&self) -> usize {
//!         2
//!     }
//!     fn name(&self, index: usize) -> String {
//!         ["centre", "corners"][index].to_string()
//!     }
//!     fn extract(&self, _: &TicTacToe, state: &TicTacToeState, player: Player, sink: &mut impl FnMut(usize, f32)) {
//!         let side = |sq: u8| match state.at(sq) {
//!             Some(p) if p == player => 1.0,
//!             Some(_) => -1.0,
//!             None => 0.0,
//!         };
//!         sink(0, side(4));
//!         sink(1, [0, 2, 6, 8].into_iter().map(side).sum());
//!     }
//! }
//!
//! let weights = Weights::parse("# scale 100\ncentre 0.5\ncorners 0.25\n").unwrap();
//! let eval = LinearEval::new(Squares, &weights).unwrap();
//! let game = TicTacToe;
//! let mut state = game.initial_state();
//! for mv in ["b2", "a1", "c3"] {
//!     let mv = game.parse_move(&state, mv).unwrap();
//!     game.apply(&mut state, mv);
//! }
//! // X holds the centre and one corner, O one corner: 0.5 * 100 for X.
//! assert_eq!(eval.evaluate(&game, &state, Player::FIRST), 50);
//! assert_eq!(eval.evaluate(&game, &state, Player::SECOND), -50);
//! assert!(LinearEval::new(Squares, &Weights::parse("centre 1\n").unwrap()).is_err());
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::Arc;

use crate::eval::Evaluator;
use crate::game::{Game, Player, Score};

/// The features of a linear evaluation of `G`; see the [module docs](self).
///
/// Values are seen from `player`'s side. In a two-player zero-sum game extracting for the
/// opponent must give every value negated (count a side's features and subtract the other
/// side's), so that the evaluation is zero-sum whatever the weights.
pub trait Features<G: Game>: Clone + Send + Sync + 'static {
    /// How many features there are: every index passed to the sink is below it.
    fn count(&self) -> usize;

    /// The name of feature `index`: a word without spaces, unique among the features, used
    /// as its key in weights files.
    fn name(&self, index: usize) -> String;

    /// Calls `sink(index, value)` for the features of `state` from `player`'s side that are
    /// not zero (an index may be given more than once; its values add up). Called at every
    /// leaf of a search: it must not allocate. The sink is a type parameter, not a trait
    /// object, so that [`LinearEval`]'s sum compiles into the extraction.
    fn extract(
        &self,
        game: &G,
        state: &G::State,
        player: Player,
        sink: &mut impl FnMut(usize, f32),
    );
}

/// Why a weights file cannot be read, or does not fit a set of features.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A line that is not a weight, a comment or the scale.
    #[error("line {line}: {reason}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        reason: String,
    },
    /// The file names a feature the set does not have.
    #[error("the weights name {0}, which is not a feature")]
    Unknown(String),
    /// A feature of the set has no weight in the file.
    #[error("no weight for feature {0}")]
    Missing(String),
}

/// A weights file: one `name value` line per feature, `#` comments, and a `# scale S` line
/// that gives the score units per unit of the weighted sum (default 100: a weighted sum of 1
/// is a score of 100).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The weight of each named feature, in file order.
    pub entries: Vec<(String, f32)>,
    /// Score units per unit of the weighted sum.
    pub scale: f32,
    /// The comment lines (without `#`), other than the scale.
    pub comments: Vec<String>,
}

impl Weights {
    /// The default [`Weights::scale`].
    pub const DEFAULT_SCALE: f32 = 100.0;

    /// Weights for `names`, all `value`.
    pub fn uniform(names: impl IntoIterator<Item = String>, value: f32) -> Weights {
        Weights {
            entries: names.into_iter().map(|n| (n, value)).collect(),
            scale: Weights::DEFAULT_SCALE,
            comments: Vec::new(),
        }
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// A line that is not `name value` with a finite number, a bad scale, or a name given
    /// twice, with its line number.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights =
            Weights { entries: Vec::new(), scale: Weights::DEFAULT_SCALE, comments: Vec::new() };
        let mut seen = HashSet::new();
        for (n, line) in text.lines().enumerate() {
            let bad = |reason: String| WeightsError::Line { line: n + 1, reason };
            let line = line.trim();
            if let Some(comment) = line.strip_prefix('#') {
                let comment = comment.trim();
                match comment.strip_prefix("scale ") {
                    Some(value) => {
                        weights.scale = value
                            .trim()
                            .parse()
                            .ok()
                            .filter(|s: &f32| s.is_finite() && *s > 0.0)
                            .ok_or_else(|| bad(format!("bad scale {value:?}")))?;
                    }
                    None => weights.comments.push(comment.to_string()),
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(bad(format!("expected `name value`, got {line:?}")));
            };
            let value: f32 = value
                .parse()
                .ok()
                .filter(|v: &f32| v.is_finite())
                .ok_or_else(|| bad(format!("{value:?} is not a finite number")))?;
            if !seen.insert(name) {
                return Err(bad(format!("{name} is given twice")));
            }
            weights.entries.push((name.to_string(), value));
        }
        Ok(weights)
    }

    /// The file text: the comments, the scale, then `name value` lines.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for comment in &self.comments {
            let _ = writeln!(text, "# {comment}");
        }
        let _ = writeln!(text, "# scale {}", self.scale);
        for (name, value) in &self.entries {
            let _ = writeln!(text, "{name} {value}");
        }
        text
    }

    /// The weight vector in the order of `features`, each weight times the scale.
    ///
    /// # Errors
    /// If a feature has no weight in the file, or the file names a feature `features` does not
    /// have.
    pub fn for_features<G: Game, F: Features<G>>(
        &self,
        features: &F,
    ) -> Result<Vec<f32>, WeightsError> {
        let names: Vec<String> = (0..features.count()).map(|i| features.name(i)).collect();
        let known: HashSet<&str> = names.iter().map(String::as_str).collect();
        if let Some((unknown, _)) = self.entries.iter().find(|(n, _)| !known.contains(n.as_str())) {
            return Err(WeightsError::Unknown(unknown.clone()));
        }
        let by_name: HashMap<&str, f32> =
            self.entries.iter().map(|(n, w)| (n.as_str(), *w)).collect();
        names
            .iter()
            .map(|name| {
                by_name
                    .get(name.as_str())
                    .map(|&w| w * self.scale)
                    .ok_or_else(|| WeightsError::Missing(name.clone()))
            })
            .collect()
    }
}

/// The evaluation `scale * sum(weight[i] * feature[i])` over the features `F`, rounded to the
/// game's score; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct LinearEval<F> {
    features: F,
    /// The weights already multiplied by the scale, by feature index.
    weights: Arc<[f32]>,
}

impl<F> LinearEval<F> {
    /// The evaluation with `weights` for `features`.
    ///
    /// # Errors
    /// If the weights do not match the features one to one (see [`Weights::for_features`]).
    pub fn new<G: Game>(features: F, weights: &Weights) -> Result<LinearEval<F>, WeightsError>
    where
        F: Features<G>,
    {
        let weights = weights.for_features(&features)?;
        Ok(LinearEval { features, weights: weights.into() })
    }

    /// The evaluation with the weights file `text` that a ruleset embeds at build time
    /// (`include_str!`); a test of the ruleset calls it once so that a mismatch fails there.
    ///
    /// # Panics
    /// If `text` is not a weights file for `features` (see [`LinearEval::new`]).
    pub fn embedded<G: Game>(features: F, text: &str) -> LinearEval<F>
    where
        F: Features<G>,
    {
        let weights = Weights::parse(text).unwrap_or_else(|e| panic!("embedded weights: {e}"));
        LinearEval::new(features, &weights).unwrap_or_else(|e| panic!("embedded weights: {e}"))
    }

    /// The features.
    pub fn features(&self) -> &F {
        &self.features
    }

    /// The weight of each feature, times the scale.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }
}

impl<G: Game, F: Features<G>> Evaluator<G> for LinearEval<F> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        let mut sum = 0.0f64;
        let weights = &self.weights;
        self.features.extract(game, state, player, &mut |i, v| {
            sum += f64::from(weights[i] * v);
        });
        // Strictly inside the proven-score range, as every evaluation must be.
        let limit = (G::Score::WIN_RANGE.to_f64() - 1.0).max(0.0);
        G::Score::from_f64(sum.round().clamp(-limit, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_files_round_trip_and_errors_name_their_line() {
        let text = "# tuned on 100 positions\n# scale 50\na 1.5\n\nb -0.25\n";
        let w = Weights::parse(text).unwrap();
        assert_eq!(w.scale, 50.0);
        assert_eq!(w.entries, vec![("a".to_string(), 1.5), ("b".to_string(), -0.25)]);
        assert_eq!(w.comments, vec!["tuned on 100 positions".to_string()]);
        assert_eq!(Weights::parse(&w.to_text()).unwrap(), w);
        assert_eq!(
            Weights::parse("a 1\nb x\n").unwrap_err().to_string(),
            "line 2: \"x\" is not a finite number"
        );
        let text = |t: &str| Weights::parse(t).unwrap_err().to_string();
        assert!(text("a 1\na 2\n").contains("given twice"));
        assert!(text("a 1 2\n").starts_with("line 1: expected"));
        assert!(text("# scale -1\n").contains("bad scale"));
        assert!(Weights::parse("a inf\n").is_err());
    }
}
