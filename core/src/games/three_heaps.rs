//! Three heaps: a three-player take-away game, the test bed of multiplayer search.

use crate::game::{Game, MoveList, Notation, Outcome, Player};

const MAX_HEAP: u8 = 20;

/// Three players in turn take 1 to 3 objects from one of three heaps and score one point per
/// object, plus 2 for emptying a heap. The game ends when every heap is empty; the highest
/// score wins ([`Outcome::Scores`]). A move is `(heap, count)`, written `b2` (take 2 from the
/// second heap); a position is `heaps;scores;player to move`, e.g. `3,4,5;0,0,0;0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreeHeaps {
    heaps: [u8; 3],
}

/// A position of [`ThreeHeaps`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreeHeapsState {
    heaps: [u8; 3],
    scores: [u8; 3],
    to_move: u8,
}

/// Bad options or text for [`ThreeHeaps`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreeHeapsError {
    /// A heap above 20 objects.
    #[error("heap of {0} objects is too large (at most 20)")]
    Heap(u8),
    /// Not a legal move such as `b2`.
    #[error("invalid or illegal move {0:?}: expected a heap a-c and a count 1-3")]
    Move(String),
    /// Not a position such as `3,4,5;0,0,0;0`.
    #[error("invalid position {0:?}: expected heaps;scores;player, e.g. 3,4,5;0,0,0;0")]
    State(String),
}

impl ThreeHeaps {
    /// The game starting from these heap sizes; `ThreeHeapsError::Heap` above 20 objects.
    pub fn new(heaps: [u8; 3]) -> Result<ThreeHeaps, ThreeHeapsError> {
        let too_big = heaps.into_iter().find(|&h| h > MAX_HEAP);
        too_big.map_or(Ok(ThreeHeaps { heaps }), |h| Err(ThreeHeapsError::Heap(h)))
    }
    /// Heaps of 3, 4 and 5.
    pub fn standard() -> ThreeHeaps {
        ThreeHeaps { heaps: [3, 4, 5] }
    }
}

impl Game for ThreeHeaps {
    type State = ThreeHeapsState;
    type Move = (u8, u8);
    type Score = i32;
    fn initial_state(&self) -> ThreeHeapsState {
        ThreeHeapsState { heaps: self.heaps, ..ThreeHeapsState::default() }
    }
    fn num_players(&self) -> usize {
        3
    }
    fn to_move(&self, s: &ThreeHeapsState) -> Player {
        Player(s.to_move)
    }
    fn generate_moves(&self, s: &ThreeHeapsState, moves: &mut MoveList<(u8, u8)>) {
        moves.clear();
        for h in 0..3u8 {
            moves.extend((1..=s.heaps[h as usize].min(3)).map(|c| (h, c)));
        }
    }
    fn apply(&self, s: &mut ThreeHeapsState, (heap, count): (u8, u8)) {
        let h = &mut s.heaps[heap as usize];
        *h -= count;
        s.scores[s.to_move as usize] += count + if *h == 0 { 2 } else { 0 };
        s.to_move = (s.to_move + 1) % 3;
    }
    fn outcome(&self, s: &ThreeHeapsState) -> Option<Outcome> {
        (s.heaps == [0; 3]).then(|| Outcome::from_scores(&s.scores.map(i32::from)))
    }
    /// Three times the player's score minus the others', plus 2 for having the move.
    fn evaluate(&self, s: &ThreeHeapsState, p: Player) -> i32 {
        let sc = s.scores.map(i32::from);
        let mine = sc[p.index()];
        3 * mine - (sc.iter().sum::<i32>() - mine) + if s.to_move == p.0 { 2 } else { 0 }
    }
    fn hash(&self, s: &ThreeHeapsState) -> Option<u64> {
        let [h, sc] = [s.heaps, s.scores];
        let bytes = [h[0], h[1], h[2], sc[0], sc[1], sc[2], s.to_move, 0];
        Some(crate::zobrist::mix64(u64::from_le_bytes(bytes)))
    }
    /// `heap * 3 + count - 1`: every move of a position has its own key.
    fn move_key_space(&self) -> u32 {
        9
    }
    fn move_key(&self, _s: &ThreeHeapsState, (heap, count): (u8, u8)) -> u32 {
        u32::from(heap.min(2)) * 3 + u32::from(count.clamp(1, 3) - 1)
    }
}

impl Notation for ThreeHeaps {
    type Error = ThreeHeapsError;
    fn format_move(&self, _s: &ThreeHeapsState, (heap, count): (u8, u8)) -> String {
        format!("{}{count}", (b'a' + heap) as char)
    }
    fn parse_move(&self, s: &ThreeHeapsState, text: &str) -> Result<(u8, u8), ThreeHeapsError> {
        match text.trim().as_bytes() {
            &[h @ b'a'..=b'c', c @ b'1'..=b'3'] if s.heaps[(h - b'a') as usize] >= c - b'0' => {
                Ok((h - b'a', c - b'0'))
            }
            _ => Err(ThreeHeapsError::Move(text.trim().to_string())),
        }
    }
    fn format_state(&self, s: &ThreeHeapsState) -> String {
        let [h, sc] = [s.heaps, s.scores].map(|a| a.map(|x| x.to_string()).join(","));
        format!("{h};{sc};{}", s.to_move)
    }
    fn parse_state(&self, text: &str) -> Result<ThreeHeapsState, ThreeHeapsError> {
        let (t, err) = (text.trim(), || ThreeHeapsError::State(text.to_string()));
        let n: Vec<u8> = t
            .split([';', ','])
            .map(|x| x.trim().parse().map_err(|_| err()))
            .collect::<Result<_, _>>()?;
        let shape = t.split(';').map(|p| p.split(',').count()).eq([3, 3, 1]);
        if !shape || n[..3].iter().any(|&h| h > MAX_HEAP) || n[3..6].iter().any(|&x| x > 99) {
            return Err(err());
        }
        let to_move = if n[6] < 3 { n[6] } else { return Err(err()) };
        Ok(ThreeHeapsState { heaps: [n[0], n[1], n[2]], scores: [n[3], n[4], n[5]], to_move })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn heaps_score_with_a_bonus_until_the_end() {
        let g = ThreeHeaps::standard();
        let mut s = g.initial_state();
        g.apply(&mut s, (0, 3));
        assert_eq!((g.format_state(&s), g.count_moves(&s)), ("0,4,5;5,0,0;1".into(), 6));
        assert_ne!(g.hash(&s), g.hash(&g.initial_state()));
        let s = g.parse_state("0,0,1;3,4,5;2").unwrap();
        let mut t = s;
        g.apply(&mut t, g.parse_move(&s, "c1").unwrap());
        assert_eq!(g.outcome(&t), Some(Outcome::from_scores(&[3, 4, 8])));
        assert_eq!((g.count_moves(&t), g.evaluate(&t, Player(2))), (0, 24 - 7));
    }

    #[test]
    fn bad_input_is_an_error() {
        let (g, s) = (ThreeHeaps::standard(), ThreeHeapsState::default());
        assert!(matches!(g.parse_move(&s, "a4"), Err(ThreeHeapsError::Move(_))));
        for bad in ["1,2;0,0,0;0", "1,2,3;0,0,0;3", "1,2,3;0,0;0,0", "x"] {
            assert!(matches!(g.parse_state(bad), Err(ThreeHeapsError::State(_))), "{bad}");
        }
        assert_eq!(ThreeHeaps::new([1, 2, 30]), Err(ThreeHeapsError::Heap(30)));
    }

    /// Along seeded random games, every move key is below the key space, and almost every
    /// move of a position has a key of its own.
    #[test]
    fn move_keys_fit_and_mostly_differ() {
        let spread = crate::testing::move_key_spread(&ThreeHeaps::standard(), 30, 7, 1000);
        assert!(spread.moves > 0 && spread.distinct * 100 >= spread.moves * 100, "{spread:?}");
    }
}
