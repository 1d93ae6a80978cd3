//! The inputs of a neural evaluation of Reversi ([`NetInputs`]), for any board and player
//! count.
//!
//! One set of inputs per player, one input per square, in turn order from the player to
//! move: the mover's discs, then the next player's, and so on; 128 inputs on the two-player
//! 8x8 board. Four phase buckets by the discs on the board (a quarter of the board each).

use ply::eval::net::NetInputs;
use ply::Game;

use crate::board::{for_each_bit, ReversiState};
use crate::rules::Reversi;

/// The network inputs of Reversi: each player's discs on each square, in turn order from
/// the player to move.
///
/// ```
/// use ply::eval::net::NetInputs;
/// use ply::Game;
/// use ply_reversi::net::DiscNetInputs;
/// use ply_reversi::Reversi;
///
/// let game = Reversi::new(8, 2)?;
/// let inputs = DiscNetInputs::new(&game);
/// assert_eq!(inputs.inputs(), 128);
/// let mut active = Vec::new();
/// let bucket = inputs.active(&game, &game.initial_state(), &mut |i| active.push(i));
/// // Black (to move) has d5 and e4, White d4 and e5: four discs, the first bucket.
/// assert_eq!((active.len(), bucket), (4, 0));
/// assert!(active[..2].iter().all(|&i| i < 64) && active[2..].iter().all(|&i| i >= 64));
/// # Ok::<(), ply_reversi::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscNetInputs {
    squares: usize,
    players: usize,
}

impl DiscNetInputs {
    /// The inputs for `game`'s board and players.
    pub fn new(game: &Reversi) -> Self {
        DiscNetInputs { squares: game.size() * game.size(), players: game.players() }
    }
}

/// The number of phase buckets.
pub const BUCKETS: usize = 4;

impl NetInputs<Reversi> for DiscNetInputs {
    fn inputs(&self) -> usize {
        self.players * self.squares
    }

    fn buckets(&self) -> usize {
        BUCKETS
    }

    #[inline]
    fn active(&self, game: &Reversi, state: &ReversiState, sink: &mut impl FnMut(usize)) -> usize {
        let me = game.to_move(state).index();
        let mut discs = 0;
        for set in 0..self.players {
            let player = (me + set) % self.players;
            let bits = &state.discs[player];
            let base = set * self.squares;
            for_each_bit(bits, |sq| {
                discs += 1;
                sink(base + sq);
            });
        }
        (discs * BUCKETS / (self.squares + 1)).min(BUCKETS - 1)
    }

    fn fits(&self, game: &Reversi) -> bool {
        *self == DiscNetInputs::new(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::{Notation, Player};

    /// The active inputs of a position, and its bucket.
    fn active(game: &Reversi, state: &ReversiState) -> (Vec<usize>, usize) {
        let mut active = Vec::new();
        let bucket = DiscNetInputs::new(game).active(game, state, &mut |i| active.push(i));
        (active, bucket)
    }

    #[test]
    fn the_mover_comes_first() {
        let game = Reversi::new(8, 2).expect("a board");
        let start = game.initial_state();
        let (black, _) = active(&game, &start);
        let mv = game.parse_move(&start, "f5").expect("a move");
        let mut after = start;
        game.apply(&mut after, mv);
        // After f5 White moves: White's one disc left (d4) comes first, Black's four after.
        let (white, bucket) = active(&game, &after);
        assert_eq!(bucket, 0);
        assert_eq!(white.iter().filter(|&&i| i < 64).count(), 1);
        assert_eq!(white.iter().filter(|&&i| i >= 64).count(), 4);
        // d4 (square 27) is White's before and after.
        assert!(black.contains(&(64 + 27)) && white.contains(&27));
    }

    #[test]
    fn buckets_follow_the_discs_on_the_board() {
        let game = Reversi::new(4, 2).expect("a board");
        let inputs = DiscNetInputs::new(&game);
        let full = game
            .state_from_rows(&["1212", "2121", "1212", "2121"], Player::new(0))
            .expect("a board");
        let mut seen = 0;
        assert_eq!(inputs.active(&game, &full, &mut |_| seen += 1), BUCKETS - 1);
        assert_eq!(seen, 16);
    }

    #[test]
    fn every_player_has_a_set() {
        let game = Reversi::new(6, 4).expect("a board");
        let inputs = DiscNetInputs::new(&game);
        assert_eq!(inputs.inputs(), 4 * 36);
        let (seen, bucket) = active(&game, &game.initial_state());
        assert!(bucket < BUCKETS);
        assert!(seen.iter().all(|&i| i < 4 * 36));
        let mut sets: Vec<usize> = seen.iter().map(|i| i / 36).collect();
        sets.dedup();
        assert_eq!(sets, vec![0, 1, 2, 3]);
    }
}
