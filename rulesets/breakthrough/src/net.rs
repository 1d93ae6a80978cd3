//! The inputs of a neural evaluation of Breakthrough ([`NetInputs`]), for any board.
//!
//! Two sets of one input per square, seen from the player to move (the board turned upside
//! down for Black, so that the mover's pawns always go up): the mover's pawns, then the
//! opponent's; 128 inputs on 8x8. Two phase buckets by the pawns left: more than half of
//! the starting pawns, or half or fewer.

use std::sync::OnceLock;

use ply::eval::net::{NetEval, NetInputs, NetOr};
use ply::Game;

use crate::features::{learned, Learned};
use crate::rules::{Breakthrough, BreakthroughState};

/// The network inputs of Breakthrough: the pawns of each player on each square, relative
/// to the player to move.
///
/// ```
/// use ply::eval::net::NetInputs;
/// use ply::Game;
/// use ply_breakthrough::net::PawnNetInputs;
/// use ply_breakthrough::Breakthrough;
///
/// let game = Breakthrough::standard();
/// let inputs = PawnNetInputs::new(&game);
/// assert_eq!(inputs.inputs(), 128);
/// let mut active = Vec::new();
/// let bucket = inputs.active(&game, &game.initial_state(), &mut |i| active.push(i));
/// assert_eq!((active.len(), bucket), (32, 0));
/// // White moves first: its pawns on squares 0..16, Black's on 48..64 (inputs 112..128).
/// assert_eq!(active[..16], (0..16).collect::<Vec<_>>()[..]);
/// assert_eq!(active[16..], (112..128).collect::<Vec<_>>()[..]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnNetInputs {
    cols: usize,
    rows: usize,
}

impl PawnNetInputs {
    /// The inputs for `game`'s board.
    pub fn new(game: &Breakthrough) -> Self {
        PawnNetInputs { cols: game.cols(), rows: game.rows() }
    }

    /// The squares of the board.
    fn squares(&self) -> usize {
        self.cols * self.rows
    }
}

/// The number of phase buckets.
pub const BUCKETS: usize = 2;

impl NetInputs<Breakthrough> for PawnNetInputs {
    fn inputs(&self) -> usize {
        2 * self.squares()
    }

    fn buckets(&self) -> usize {
        BUCKETS
    }

    #[inline]
    fn active(
        &self,
        game: &Breakthrough,
        state: &BreakthroughState,
        sink: &mut impl FnMut(usize),
    ) -> usize {
        let me = game.to_move(state);
        let (cols, rows, squares) = (self.cols, self.rows, self.squares());
        // Black's pawns go down: its board is turned upside down, row r becoming rows-1-r.
        let relative = |sq: usize| {
            if me.index() == 0 {
                sq
            } else {
                (rows - 1 - sq / cols) * cols + sq % cols
            }
        };
        let mut pawns = 0;
        for (set, player) in [me, me.opponent()].into_iter().enumerate() {
            let mut bits = state.pawns(player);
            pawns += bits.count_ones() as usize;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                sink(set * squares + relative(sq));
            }
        }
        // Two home rows a side at the start.
        usize::from(pawns <= 2 * cols)
    }

    fn fits(&self, game: &Breakthrough) -> bool {
        *self == PawnNetInputs::new(game)
    }
}

/// The network that `tune train` fitted on 8x8 self-play positions (the command is in
/// BENCHMARKS.md), embedded at build time.
pub const NET_WEIGHTS: &[u8] = include_bytes!("../weights/net.bin");

/// The neural evaluation of Breakthrough: [`NET_WEIGHTS`] over [`PawnNetInputs`] on 8x8 (it
/// beat the learned evaluation by SPRT, BENCHMARKS.md), the learned linear evaluation on
/// other boards. The network is read once per process and shared by every copy.
pub type PawnNet = NetOr<PawnNetInputs, Learned>;

/// The evaluation Breakthrough's engines play with (`eval=net` in agent specs).
///
/// ```
/// use ply::eval::Evaluator;
/// use ply::{Game, Player};
/// use ply_breakthrough::Breakthrough;
///
/// let eval = ply_breakthrough::net::network();
/// let game = Breakthrough::standard();
/// let start = game.initial_state();
/// let white = eval.evaluate(&game, &start, Player::FIRST);
/// assert_eq!(eval.evaluate(&game, &start, Player::SECOND), -white);
/// ```
pub fn network() -> PawnNet {
    static NET: OnceLock<NetEval<PawnNetInputs>> = OnceLock::new();
    let net = NET.get_or_init(|| {
        let inputs = PawnNetInputs::new(&Breakthrough::standard());
        NetEval::embedded::<Breakthrough>(inputs, NET_WEIGHTS, 100.0)
    });
    NetOr::new(net.clone(), learned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::eval::Evaluator;
    use ply::Notation;

    /// The active inputs of a position, and its bucket.
    fn active(game: &Breakthrough, text: &str) -> (Vec<usize>, usize) {
        let state = game.parse_state(text).expect("a position");
        let mut active = Vec::new();
        let bucket = PawnNetInputs::new(game).active(game, &state, &mut |i| active.push(i));
        (active, bucket)
    }

    #[test]
    fn the_board_is_seen_from_the_mover_and_turned_for_black() {
        let game = Breakthrough::standard();
        // A white pawn on b2 (square 9) and a black one on g7 (square 54): the same
        // position with each side to move is the other's mirror.
        let (white, bucket) = active(
            &game,
            "......../......B./......../......../......../......../.W....../........ w",
        );
        assert_eq!((white, bucket), (vec![9, 64 + 54], 1));
        let (black, _) = active(
            &game,
            "......../......B./......../......../......../......../.W....../........ b",
        );
        // From Black's side: its g7 pawn is on g2 (square 14), White's b2 on b7 (49).
        assert_eq!(black, vec![14, 64 + 49]);
    }

    #[test]
    fn the_embedded_network_loads_and_is_antisymmetric() {
        let eval = network();
        let game = Breakthrough::standard();
        let seen = ply::testing::check_zero_sum_evaluation(&game, &eval, 10, 200, 3, 30_000)
            .expect("antisymmetric");
        assert!(seen > 100);
        // On another board the linear evaluation plays.
        let small = Breakthrough::new(5, 6).expect("a board");
        let start = small.initial_state();
        assert_eq!(
            eval.evaluate(&small, &start, ply::Player::FIRST),
            learned().evaluate(&small, &start, ply::Player::FIRST)
        );
    }

    #[test]
    fn other_boards_have_their_own_inputs() {
        let game = Breakthrough::new(5, 6).expect("a board");
        let inputs = PawnNetInputs::new(&game);
        assert_eq!(inputs.inputs(), 60);
        let mut seen = Vec::new();
        let bucket = inputs.active(&game, &game.initial_state(), &mut |i| seen.push(i));
        assert_eq!(bucket, 0);
        assert_eq!(seen.len(), 20);
        assert!(seen.iter().all(|&i| i < 60));
    }
}
