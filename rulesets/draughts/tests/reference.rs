//! An independent, deliberately plain move generator (a square array, recursive captures, sets
//! for duplicates) checked against the bitboard generator: same move sets and same perft
//! counts on positions full of king captures, on random positions and along random games.

use std::collections::BTreeSet;

use ply::perft::{PerftLimit, PerftTable};
use ply::{perft, Game, MoveList, PerftMode};
use ply_draughts::{perft_fast, DraughtsState, InternationalDraughts, Piece};

/// A piece: (is white, is king).
type Cell = Option<(bool, bool)>;

/// A move as the reference sees it: from, to, captured squares (sorted).
type RefMove = (u8, u8, Vec<u8>);

#[derive(Clone)]
struct RefBoard {
    cells: [Cell; 51],
    white_to_move: bool,
}

fn coords(square: u8) -> (i32, i32) {
    let k = i32::from(square) - 1;
    let row = k / 5;
    let col = 2 * (k % 5) + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

fn square_at(row: i32, col: i32) -> Option<u8> {
    if (0..10).contains(&row) && (0..10).contains(&col) && (row + col) % 2 == 1 {
        Some((row * 5 + col / 2 + 1) as u8)
    } else {
        None
    }
}

const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

impl RefBoard {
    fn from_state(state: &DraughtsState) -> RefBoard {
        let mut cells = [None; 51];
        for (sq, p) in state.pieces() {
            cells[sq as usize] = Some((p.is_white(), p.is_king()));
        }
        RefBoard { cells, white_to_move: state.white_to_move() }
    }

    /// Every capture sequence from `from`, recorded when it cannot go on.
    #[allow(clippy::too_many_arguments)]
    fn jumps(&self, from: u8, cur: u8, king: bool, captured: &mut Vec<u8>, out: &mut Vec<RefMove>) {
        let white = self.white_to_move;
        let empty = |s: u8| s == from || self.cells[s as usize].is_none();
        let enemy = |s: u8| matches!(self.cells[s as usize], Some((w, _)) if w != white);
        let (r, c) = coords(cur);
        let mut more = false;
        for (dr, dc) in DIRS {
            let mut k = 1;
            if king {
                while let Some(s) = square_at(r + k * dr, c + k * dc) {
                    if !empty(s) {
                        break;
                    }
                    k += 1;
                }
            }
            let Some(victim) = square_at(r + k * dr, c + k * dc) else { continue };
            if !enemy(victim) || captured.contains(&victim) {
                continue;
            }
            let mut j = k + 1;
            while let Some(land) = square_at(r + j * dr, c + j * dc) {
                if !empty(land) {
                    break;
                }
                more = true;
                captured.push(victim);
                self.jumps(from, land, king, captured, out);
                captured.pop();
                if !king {
                    break;
                }
                j += 1;
            }
        }
        if !more && !captured.is_empty() {
            let mut set = captured.clone();
            set.sort_unstable();
            out.push((from, cur, set));
        }
    }

    fn moves(&self) -> BTreeSet<RefMove> {
        let white = self.white_to_move;
        let mut caps = Vec::new();
        for s in 1..=50u8 {
            if let Some((w, king)) = self.cells[s as usize] {
                if w == white {
                    self.jumps(s, s, king, &mut Vec::new(), &mut caps);
                }
            }
        }
        if let Some(best) = caps.iter().map(|m| m.2.len()).max() {
            return caps.into_iter().filter(|m| m.2.len() == best).collect();
        }
        let mut quiet = BTreeSet::new();
        for s in 1..=50u8 {
            let Some((w, king)) = self.cells[s as usize] else { continue };
            if w != white {
                continue;
            }
            let (r, c) = coords(s);
            for (dr, dc) in DIRS {
                if !king && (dr == -1) != white {
                    continue;
                }
                let mut k = 1;
                while let Some(t) = square_at(r + k * dr, c + k * dc) {
                    if self.cells[t as usize].is_some() {
                        break;
                    }
                    quiet.insert((s, t, Vec::new()));
                    if !king {
                        break;
                    }
                    k += 1;
                }
            }
        }
        quiet
    }

    fn play(&self, mv: &RefMove) -> RefBoard {
        let mut b = self.clone();
        let (from, to, captured) = mv;
        let piece = b.cells[*from as usize].take().expect("a piece on the start square");
        for &c in captured {
            b.cells[c as usize] = None;
        }
        let far_row = if piece.0 { 0 } else { 9 };
        let king = piece.1 || coords(*to).0 == far_row;
        b.cells[*to as usize] = Some((piece.0, king));
        b.white_to_move = !b.white_to_move;
        b
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

fn bitboard_moves(game: &InternationalDraughts, state: &DraughtsState) -> BTreeSet<RefMove> {
    let mut list = MoveList::new();
    game.generate_moves(state, &mut list);
    let set: BTreeSet<RefMove> =
        list.iter().map(|m| (m.from(), m.to(), m.captured_squares().collect())).collect();
    assert_eq!(set.len(), list.len(), "duplicate moves in {state:?}");
    set
}

/// Positions dense with kings and capture chances, both sides to move.
const KING_POSITIONS: [&str; 6] = [
    // White kings on the long diagonal and the edges among scattered black men.
    "W:WK46,K50,K3:B8,12,18,24,29,33,38,40,K14",
    // Black kings facing a loose white camp.
    "B:W12,14,17,19,23,27,30,32,35,38,K49:BK1,K10,K26,45",
    // Men and kings of both sides in contact.
    "W:WK1,K23,K50:B7,9,18,20,29,31,33,38,40,42,K13,K36",
    // A king that can take many pieces in several orders.
    "W:WK47,K2:B7,9,18,20,29,31,33,38,40,42",
    // Kings only.
    "B:WK3,K17,K28,K39,K44,30:BK6,K21,K33,K49",
    // A man with a ring of victims (capture paths that meet).
    "W:W37,K1:B12,13,14,22,24,31,32,33",
];

#[test]
fn king_positions_agree_with_the_reference() {
    let game = InternationalDraughts::new();
    for fen in KING_POSITIONS {
        let state: DraughtsState = fen.parse().unwrap();
        let reference = RefBoard::from_state(&state);
        assert_eq!(bitboard_moves(&game, &state), reference.moves(), "{fen}");
        for depth in 1..=4 {
            let expected = reference.perft(depth);
            assert_eq!(perft_fast(&state, depth), expected, "{fen} depth {depth}");
            assert_eq!(perft(&game, &state, depth, PerftMode::MakeAll), expected, "{fen}");
        }
    }
}

/// The reference itself is checked against Aart Bik's published perft from the start to
/// depth 4, 4,265 (`data/start.perft`, `docs/references/international-draughts.md`).
#[test]
fn start_position_agrees_with_the_reference() {
    let game = InternationalDraughts::new();
    let table: PerftTable = include_str!("data/start.perft").parse().unwrap();
    let reference = |s: &_, d| RefBoard::from_state(s).perft(d);
    assert_eq!(table.check(&game, PerftLimit::Depth(4), reference), Ok(4));
    let start = game.initial_state();
    assert_eq!(RefBoard::from_state(&start).perft(4), perft_fast(&start, 4));
}

/// A small seeded generator (xorshift) so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random position: up to 12 pieces a side, about a third of them kings, no man on its
/// crowning row.
fn random_position(rng: &mut Rng) -> DraughtsState {
    let mut pieces = Vec::new();
    let n = 2 + rng.below(20);
    for _ in 0..n {
        let sq = 1 + rng.below(50) as u8;
        let white = rng.below(2) == 0;
        let mut king = rng.below(3) == 0;
        if (white && sq <= 5) || (!white && sq >= 46) {
            king = true;
        }
        let piece = match (white, king) {
            (true, false) => Piece::WhiteMan,
            (true, true) => Piece::WhiteKing,
            (false, false) => Piece::BlackMan,
            (false, true) => Piece::BlackKing,
        };
        pieces.push((sq, piece));
    }
    DraughtsState::from_pieces(&pieces, rng.below(2) == 0)
}

#[test]
fn random_positions_agree_with_the_reference() {
    let game = InternationalDraughts::with_draw_rules(ply_draughts::DrawRules::NONE);
    let mut rng = Rng(0x5eed_d1a6);
    for i in 0..300 {
        let state = random_position(&mut rng);
        let reference = RefBoard::from_state(&state);
        assert_eq!(bitboard_moves(&game, &state), reference.moves(), "position {i}: {state:?}");
        if i % 10 == 0 {
            assert_eq!(perft_fast(&state, 3), reference.perft(3), "position {i}: {state:?}");
        }
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let game = InternationalDraughts::with_draw_rules(ply_draughts::DrawRules::NONE);
    let mut rng = Rng(0x00dd_ba11);
    let mut list = MoveList::new();
    let (mut multi_captures, mut king_moves) = (0, 0);
    for _ in 0..100 {
        let mut state = game.initial_state();
        for _ in 0..300 {
            let reference = RefBoard::from_state(&state);
            assert_eq!(bitboard_moves(&game, &state), reference.moves(), "{state:?}");
            game.generate_moves(&state, &mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len() as u64) as usize];
            multi_captures += usize::from(mv.capture_count() >= 2);
            king_moves += usize::from(state.piece_at(mv.from()).is_some_and(|p| p.is_king()));
            let expected = reference.play(&(mv.from(), mv.to(), mv.captured_squares().collect()));
            game.apply(&mut state, mv);
            assert_eq!(RefBoard::from_state(&state).cells, expected.cells, "after {mv:?}");
        }
    }
    // The games reach the phases the test is about.
    assert!(multi_captures > 300 && king_moves > 300, "{multi_captures} {king_moves}");
}
