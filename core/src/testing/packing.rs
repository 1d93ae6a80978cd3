//! The packed form of a game's states ([`PackState`]) checked on random games.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::CheckFailure;
use crate::game::MoveList;
use crate::pack::PackState;

/// Checks [`PackState`] on the positions of `games` seeded random games (at most 300 plies
/// each): every position packs into [`PackState::packed_len`] bytes that unpack to a state
/// with the same player to move and packed bytes, and the same legal moves where the game
/// is not over; and bytes that are not a
/// packed state (each position's bytes with one bit flipped, random bytes, wrong lengths)
/// unpack to `None` or to a state that packs back to the same bytes, never a panic. Returns
/// the number of positions checked.
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::testing::check_packing;
///
/// assert!(check_packing(&TicTacToe, 20, 1).unwrap() > 100);
/// ```
///
/// # Errors
/// A description of the first position that does not round-trip.
pub fn check_packing<G: PackState>(
    game: &G,
    games: usize,
    seed: u64,
) -> Result<usize, CheckFailure> {
    let len = game.packed_len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut failure = None;
    let mut bytes = vec![0u8; len];
    let mut again = vec![0u8; len];
    let (mut moves, mut moves_again) = (MoveList::new(), MoveList::new());
    let seen = super::visit_random_games(game, games, 300, seed, |state| {
        if failure.is_some() {
            return;
        }
        game.pack(state, &mut bytes);
        let Some(back) = game.unpack(&bytes) else {
            failure =
                Some(CheckFailure(format!("{state:?} packs to {bytes:?}, which does not unpack")));
            return;
        };
        game.pack(&back, &mut again);
        game.generate_moves(state, &mut moves);
        game.generate_moves(&back, &mut moves_again);
        // Counters the packing leaves out may end a game (a draw rule): moves are compared
        // where the game goes on.
        let same_moves =
            game.outcome(state).is_some() || moves.as_slice() == moves_again.as_slice();
        if again != bytes || game.to_move(&back) != game.to_move(state) || !same_moves {
            failure =
                Some(CheckFailure(format!("{state:?} packs to {bytes:?} and unpacks to {back:?}")));
            return;
        }
        let mut flipped = bytes.clone();
        let bit = rng.gen_range(0..8 * len);
        flipped[bit / 8] ^= 1 << (bit % 8);
        let random: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let short = &bytes[..len - 1];
        let long: Vec<u8> = bytes.iter().copied().chain([0]).collect();
        for bad in [&flipped[..], &random[..], short, &long[..]] {
            if let Some(s) = game.unpack(bad) {
                let mut packed = vec![0u8; len];
                game.pack(&s, &mut packed);
                if packed != bad {
                    failure = Some(CheckFailure(format!(
                        "{bad:?} unpacks to {s:?}, which packs to {packed:?}"
                    )));
                    return;
                }
            }
        }
    });
    match failure {
        Some(f) => Err(f),
        None => Ok(seen),
    }
}
