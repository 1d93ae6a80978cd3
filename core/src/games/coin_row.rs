//! Coin row: a two-player test game whose turn order is a rule of its own, the test bed for
//! searches that must follow the player to move instead of assuming that players alternate.

use crate::endgame::{EndgameIndex, MarginIndex};
use crate::game::{Game, MoveList, Notation, Outcome, Player};

/// The most coins a row may hold.
pub const MAX_COINS: usize = 16;

/// Who moves after a move of [`CoinRow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnOrder {
    /// The players alternate.
    Alternate,
    /// A player who takes a coin of even value moves again (an extra turn, as in Kalah);
    /// otherwise the other player moves.
    EvenAgain,
    /// The `k`-th move (from 0) is made by the parity of the number of ones in `k`'s binary
    /// form, the Thue-Morse sequence 0, 1, 1, 0, 1, 0, 0, 1, ...: an irregular sequence in
    /// which either player may move twice in a row, whatever was played.
    ThueMorse,
}

/// A row of coins; on a turn the player to move takes the coin at either end of the row and
/// scores its value. The game ends when the row is empty, and the higher score wins
/// ([`Outcome::Scores`], so exact search maximises the final score difference). Who moves next
/// follows the [`TurnOrder`].
///
/// A move is `l` (the left end) or `r` (the right end; a lone coin is taken with `l`). A
/// position is `lo..hi;score,score;player`: the coins at indices `lo..hi` are left, then the
/// two scores and the player to move (0 or 1), e.g. `1..4;7,0;1`.
///
/// ```
/// use ply::games::{CoinRow, TurnOrder};
/// use ply::{Game, Notation, Player};
///
/// let game = CoinRow::new(&[4, 1, 3], TurnOrder::EvenAgain)?;
/// let mut state = game.initial_state();
/// let left = game.parse_move(&state, "l")?;
/// game.apply(&mut state, left); // takes the 4: moves again
/// assert_eq!(game.to_move(&state), Player::FIRST);
/// assert_eq!(game.format_state(&state), "1..3;4,0;0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinRow {
    coins: [u8; MAX_COINS],
    len: u8,
    turns: TurnOrder,
}

/// A position of [`CoinRow`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CoinRowState {
    lo: u8,
    hi: u8,
    scores: [u16; 2],
    to_move: u8,
}

/// Bad options or text for [`CoinRow`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoinRowError {
    /// No coins, or more than [`MAX_COINS`].
    #[error("a row of {0} coins: expected 1 to 16")]
    Length(usize),
    /// Not `l` or `r`, or `r` with a lone coin left.
    #[error("invalid or illegal move {0:?}: expected l or r")]
    Move(String),
    /// Not a position such as `1..4;7,0;1`, or one the rules cannot reach.
    #[error("invalid position {0:?}: expected lo..hi;score,score;player, e.g. 1..4;7,0;1")]
    State(String),
}

impl CoinRow {
    /// A game over this row of coins (1 to [`MAX_COINS`] of them) with this turn order.
    ///
    /// # Errors
    /// [`CoinRowError::Length`] for an empty or too long row.
    pub fn new(coins: &[u8], turns: TurnOrder) -> Result<CoinRow, CoinRowError> {
        if coins.is_empty() || coins.len() > MAX_COINS {
            return Err(CoinRowError::Length(coins.len()));
        }
        let mut row = [0; MAX_COINS];
        row[..coins.len()].copy_from_slice(coins);
        Ok(CoinRow { coins: row, len: coins.len() as u8, turns })
    }

    /// The coins of the row, left to right.
    pub fn coins(&self) -> &[u8] {
        &self.coins[..usize::from(self.len)]
    }

    /// The turn order.
    pub fn turns(&self) -> TurnOrder {
        self.turns
    }

    /// The sum of the coins taken in `state`, shared between the two scores.
    fn taken(&self, lo: u8, hi: u8) -> u16 {
        let row = self.coins();
        let value = |c: &[u8]| c.iter().map(|&x| u16::from(x)).sum::<u16>();
        value(&row[..usize::from(lo)]) + value(&row[usize::from(hi)..])
    }

    /// Who moves after `player` took `coin`, `taken` coins having been taken (this one too).
    fn next_player(&self, player: u8, coin: u8, taken: u8) -> u8 {
        match self.turns {
            TurnOrder::Alternate => player ^ 1,
            TurnOrder::EvenAgain if coin.is_multiple_of(2) => player,
            TurnOrder::EvenAgain => player ^ 1,
            TurnOrder::ThueMorse => (taken.count_ones() & 1) as u8,
        }
    }

    /// True if the rules can give the move to `to_move` with `taken` coins taken: any player
    /// with extra turns, a fixed one otherwise.
    fn may_move(&self, to_move: u8, taken: u8) -> bool {
        match self.turns {
            TurnOrder::Alternate => to_move == taken & 1,
            TurnOrder::EvenAgain => taken > 0 || to_move == 0,
            TurnOrder::ThueMorse => u32::from(to_move) == taken.count_ones() & 1,
        }
    }

    /// `state` if its fields fit this row and the rules, else `None`.
    fn checked(&self, state: CoinRowState) -> Option<CoinRowState> {
        let CoinRowState { lo, hi, scores, to_move } = state;
        let fits = lo <= hi && hi <= self.len && to_move < 2;
        let taken = self.len.wrapping_sub(hi.wrapping_sub(lo));
        (fits && scores[0] + scores[1] == self.taken(lo, hi) && self.may_move(to_move, taken))
            .then_some(state)
    }
}

impl Game for CoinRow {
    type State = CoinRowState;
    type Move = u8;
    type Score = i32;

    fn initial_state(&self) -> CoinRowState {
        CoinRowState { lo: 0, hi: self.len, scores: [0, 0], to_move: 0 }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self, s: &CoinRowState) -> Player {
        Player(s.to_move)
    }

    fn generate_moves(&self, s: &CoinRowState, moves: &mut MoveList<u8>) {
        moves.clear();
        match s.hi.saturating_sub(s.lo) {
            0 => {}
            1 => moves.push(0),
            _ => moves.extend([0, 1]),
        }
    }

    fn apply(&self, s: &mut CoinRowState, mv: u8) {
        let coin = if mv == 0 {
            s.lo += 1;
            self.coins[usize::from(s.lo - 1)]
        } else {
            s.hi -= 1;
            self.coins[usize::from(s.hi)]
        };
        s.scores[usize::from(s.to_move)] += u16::from(coin);
        let taken = self.len - (s.hi - s.lo);
        s.to_move = self.next_player(s.to_move, coin, taken);
    }

    fn outcome(&self, s: &CoinRowState) -> Option<Outcome> {
        (s.lo == s.hi).then(|| Outcome::from_scores(&s.scores.map(i32::from)))
    }

    /// The player's score minus the other's.
    fn evaluate(&self, s: &CoinRowState, p: Player) -> i32 {
        let [a, b] = s.scores.map(i32::from);
        if p.index() == 0 {
            a - b
        } else {
            b - a
        }
    }

    fn hash(&self, s: &CoinRowState) -> Option<u64> {
        let [a, b] = s.scores.map(u64::from);
        let word = u64::from(s.lo) | u64::from(s.hi) << 8 | u64::from(s.to_move) << 16;
        Some(crate::zobrist::mix64(word | a << 24 | b << 40))
    }

    /// The left end is key 0 and the right end key 1.
    fn move_key_space(&self) -> u32 {
        2
    }

    fn move_key(&self, _s: &CoinRowState, mv: u8) -> u32 {
        u32::from(mv.min(1))
    }
}

impl Notation for CoinRow {
    type Error = CoinRowError;

    fn format_move(&self, _s: &CoinRowState, mv: u8) -> String {
        if mv == 0 { "l" } else { "r" }.to_string()
    }

    fn parse_move(&self, s: &CoinRowState, text: &str) -> Result<u8, CoinRowError> {
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        let mv = match text.trim() {
            "l" => 0,
            "r" => 1,
            _ => u8::MAX,
        };
        moves.contains(&mv).then_some(mv).ok_or_else(|| CoinRowError::Move(text.to_string()))
    }

    fn format_state(&self, s: &CoinRowState) -> String {
        format!("{}..{};{},{};{}", s.lo, s.hi, s.scores[0], s.scores[1], s.to_move)
    }

    fn parse_state(&self, text: &str) -> Result<CoinRowState, CoinRowError> {
        let err = || CoinRowError::State(text.to_string());
        let parts: Vec<&str> = text.trim().split(';').collect();
        let [range, scores, player] = parts[..] else { return Err(err()) };
        let (lo, hi) = range.split_once("..").ok_or_else(err)?;
        let (a, b) = scores.split_once(',').ok_or_else(err)?;
        let num = |t: &str| t.trim().parse::<u16>().map_err(|_| err());
        let small = |t: &str| u8::try_from(num(t)?).map_err(|_| err());
        let state = CoinRowState {
            lo: small(lo)?,
            hi: small(hi)?,
            scores: [num(a)?, num(b)?],
            to_move: small(player)?,
        };
        self.checked(state).ok_or_else(err)
    }
}

/// Coin row's endgame index. Every move takes one coin, so a slice per number of coins left
/// would only ever lead to earlier slices; to give the tables moves within a slice as well, a
/// position with an odd number `k` of coins left and an even left end joins slice `k - 1`
/// (both its moves lead there), and every other position is in slice `k`. An index counts
/// which of the two a position is, the left end, the first player's score and the player to
/// move.
impl EndgameIndex for CoinRow {
    type Slice = u8;

    fn table_set(&self) -> String {
        let row: Vec<String> = self.coins().iter().map(u8::to_string).collect();
        format!("coin-row-{:?}-{}", self.turns, row.join("-")).to_lowercase()
    }

    fn slices(&self, pieces: u32) -> Vec<u8> {
        (0..=pieces.min(u32::from(self.len)) as u8).collect()
    }

    fn slice_name(&self, slice: u8) -> String {
        format!("left{slice}")
    }

    fn slice_size(&self, _slice: u8) -> u64 {
        let total = u64::from(self.taken(0, 0));
        2 * (u64::from(self.len) + 1) * (total + 1) * 2
    }

    fn pieces(&self, s: &CoinRowState) -> u32 {
        u32::from(s.hi - s.lo)
    }

    fn locate(&self, s: &CoinRowState) -> Option<(u8, u64)> {
        let left = s.hi - s.lo;
        let lower = u8::from(left % 2 == 1 && s.lo.is_multiple_of(2));
        let (n, total) = (u64::from(self.len) + 1, u64::from(self.taken(0, 0)) + 1);
        let index = ((u64::from(lower) * n + u64::from(s.lo)) * total + u64::from(s.scores[0])) * 2
            + u64::from(s.to_move);
        Some((left - lower, index))
    }

    fn position_of(&self, slice: u8, index: u64) -> Option<CoinRowState> {
        let (n, total) = (u64::from(self.len) + 1, u64::from(self.taken(0, 0)) + 1);
        let to_move = (index % 2) as u8;
        let rest = index / 2;
        let s0 = (rest % total) as u16;
        let rest = rest / total;
        let lo = (rest % n) as u8;
        let lower = rest / n == 1;
        let left = slice + u8::from(lower);
        if lower != (left % 2 == 1 && lo.is_multiple_of(2)) {
            return None; // the other slice holds this position
        }
        let hi = lo.checked_add(left)?;
        let taken = self.taken(lo, hi.min(self.len));
        let s1 = taken.checked_sub(s0)?;
        self.checked(CoinRowState { lo, hi, scores: [s0, s1], to_move })
    }
}

/// The count is the coins left; a position's index is its left end and the player to move.
impl MarginIndex for CoinRow {
    fn margin_set(&self) -> String {
        self.table_set()
    }

    fn count(&self, s: &CoinRowState) -> u32 {
        u32::from(s.hi - s.lo)
    }

    fn count_size(&self, count: u32) -> u64 {
        (u64::from(self.len) + 1).saturating_sub(u64::from(count)) * 2
    }

    fn index(&self, s: &CoinRowState) -> u64 {
        u64::from(s.lo) * 2 + u64::from(s.to_move)
    }

    fn position_at(&self, count: u32, index: u64) -> Option<CoinRowState> {
        let lo = u8::try_from(index / 2).ok()?;
        let hi = lo.checked_add(u8::try_from(count).ok()?)?;
        let taken = self.taken(lo, hi.min(self.len));
        self.checked(CoinRowState { lo, hi, scores: [taken, 0], to_move: (index % 2) as u8 })
    }

    fn banked(&self, s: &CoinRowState) -> i32 {
        let me = usize::from(s.to_move);
        i32::from(s.scores[me]) - i32::from(s.scores[1 - me])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &CoinRow, moves: &str) -> CoinRowState {
        let mut s = game.initial_state();
        for m in moves.split_whitespace() {
            let mv = game.parse_move(&s, m).unwrap();
            game.apply(&mut s, mv);
        }
        s
    }

    #[test]
    fn each_turn_order_picks_the_next_player() {
        let coins = [2, 3, 4, 5, 6, 7, 8, 9];
        let players = |turns| {
            let game = CoinRow::new(&coins, turns).unwrap();
            let mut s = game.initial_state();
            let mut seen = vec![s.to_move];
            while game.outcome(&s).is_none() {
                game.apply(&mut s, 0);
                seen.push(s.to_move);
            }
            seen.pop();
            seen
        };
        assert_eq!(players(TurnOrder::Alternate), [0, 1, 0, 1, 0, 1, 0, 1]);
        // Takes 2 (again), 3, 4 (again), 5, 6 (again), 7, 8 (again), 9.
        assert_eq!(players(TurnOrder::EvenAgain), [0, 0, 1, 1, 0, 0, 1, 1]);
        assert_eq!(players(TurnOrder::ThueMorse), [0, 1, 1, 0, 1, 0, 0, 1]);
    }

    #[test]
    fn scores_add_up_to_the_end() {
        let game = CoinRow::new(&[5, 1, 2], TurnOrder::Alternate).unwrap();
        let s = play(&game, "r l");
        assert_eq!(game.format_state(&s), "1..2;2,5;0");
        assert_eq!(game.evaluate(&s, Player::SECOND), 3);
        let end = play(&game, "r l l");
        assert_eq!(game.outcome(&end), Some(Outcome::from_scores(&[3, 5])));
        assert_eq!(game.count_moves(&end), 0);
        assert_ne!(game.hash(&s), game.hash(&game.initial_state()));
    }

    #[test]
    fn bad_input_is_an_error() {
        let game = CoinRow::new(&[5, 1, 2], TurnOrder::ThueMorse).unwrap();
        let lone = game.parse_state("2..3;6,0;1").unwrap();
        assert!(matches!(game.parse_move(&lone, "r"), Err(CoinRowError::Move(_))));
        assert!(matches!(game.parse_move(&lone, "x"), Err(CoinRowError::Move(_))));
        // Wrong shape, a range past the row, scores that do not add up, the wrong player.
        for bad in ["", "0..3;0,0", "0..4;0,0;0", "1..3;4,0;1", "1..3;5,0;0", "3..1;0,0;0"] {
            assert!(matches!(game.parse_state(bad), Err(CoinRowError::State(_))), "{bad:?}");
        }
        assert_eq!(CoinRow::new(&[], TurnOrder::Alternate), Err(CoinRowError::Length(0)));
        assert_eq!(CoinRow::new(&[1; 17], TurnOrder::Alternate), Err(CoinRowError::Length(17)));
    }

    #[test]
    fn the_endgame_index_round_trips() {
        let game = CoinRow::new(&[3, 8, 1, 6, 2], TurnOrder::EvenAgain).unwrap();
        let mut positions = 0;
        for slice in game.slices(5) {
            for index in 0..game.slice_size(slice) {
                if let Some(s) = game.position_of(slice, index) {
                    assert_eq!(game.locate(&s), Some((slice, index)), "{s:?}");
                    positions += 1;
                }
            }
        }
        // Every reachable position is indexed.
        let mut stack = vec![game.initial_state()];
        let mut reached = std::collections::HashSet::new();
        while let Some(s) = stack.pop() {
            if reached.insert(s) {
                let (slice, index) = game.locate(&s).unwrap();
                assert_eq!(game.position_of(slice, index), Some(s));
                let mut moves = MoveList::new();
                game.generate_moves(&s, &mut moves);
                for &mv in moves.iter() {
                    let mut c = s;
                    game.apply(&mut c, mv);
                    stack.push(c);
                }
            }
        }
        assert!(positions >= reached.len(), "{positions} indexed, {} reached", reached.len());
    }
}
