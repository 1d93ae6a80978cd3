//! The bitboard generator against a direct transcription of the seed's rules on a grid of
//! characters, on seeded random boards of every size (pieces on both colours of square, kings,
//! crowded boards where long captures, crowning mid-capture and landings on the squares of
//! pieces taken earlier in the same move all happen).

use ply_checkers::seed::allowed_moves_with;
use ply_checkers::Rules;

type Path = Vec<(usize, usize)>;

/// Every legal move of `color` on `grid`, straight from the seed's text.
fn reference(grid: &[Vec<char>], color: char, standard: bool) -> Vec<Path> {
    let n = grid.len();
    let forward: i64 = if color == 'b' { 1 } else { -1 };
    let crown_row = if color == 'b' { n - 1 } else { 0 };
    let is_opponent = |ch: char| ch != '_' && ch.to_ascii_lowercase() != color;
    let dirs = |king: bool| -> Vec<(i64, i64)> {
        if king {
            vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]
        } else {
            vec![(forward, -1), (forward, 1)]
        }
    };
    let at = |r: i64, c: i64| -> Option<(usize, usize)> {
        (r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n)
            .then_some((r as usize, c as usize))
    };
    #[allow(clippy::too_many_arguments)]
    fn jump(
        g: &mut Vec<Vec<char>>,
        pos: (usize, usize),
        king: bool,
        path: &mut Path,
        out: &mut Vec<Path>,
        standard: bool,
        crown_row: usize,
        ctx: &dyn Fn(bool) -> Vec<(i64, i64)>,
        at: &dyn Fn(i64, i64) -> Option<(usize, usize)>,
        is_opponent: &dyn Fn(char) -> bool,
    ) {
        let mut any = false;
        for (dr, dc) in ctx(king) {
            let (r, c) = (pos.0 as i64, pos.1 as i64);
            let (Some(over), Some(land)) = (at(r + dr, c + dc), at(r + 2 * dr, c + 2 * dc)) else {
                continue;
            };
            if !is_opponent(g[over.0][over.1]) || g[land.0][land.1] != '_' {
                continue;
            }
            any = true;
            let taken = std::mem::replace(&mut g[over.0][over.1], '_');
            path.push(land);
            let crowned = !king && land.0 == crown_row;
            if crowned && standard {
                out.push(path.clone());
            } else {
                jump(
                    g,
                    land,
                    king || crowned,
                    path,
                    out,
                    standard,
                    crown_row,
                    ctx,
                    at,
                    is_opponent,
                );
            }
            path.pop();
            g[over.0][over.1] = taken;
        }
        if !any && path.len() > 1 {
            out.push(path.clone());
        }
    }
    let mut captures = Vec::new();
    let mut quiet = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let ch = grid[r][c];
            if ch == '_' || ch.to_ascii_lowercase() != color {
                continue;
            }
            let king = ch.is_ascii_uppercase();
            let mut g = grid.to_vec();
            g[r][c] = '_';
            let mut path = vec![(r, c)];
            jump(
                &mut g,
                (r, c),
                king,
                &mut path,
                &mut captures,
                standard,
                crown_row,
                &dirs,
                &at,
                &is_opponent,
            );
            for (dr, dc) in dirs(king) {
                if let Some(to) = at(r as i64 + dr, c as i64 + dc) {
                    if grid[to.0][to.1] == '_' {
                        quiet.push(vec![(r, c), to]);
                    }
                }
            }
        }
    }
    if captures.is_empty() {
        quiet
    } else {
        captures
    }
}

/// SplitMix64: a seeded generator for the boards.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_board(rng: &mut Rng) -> Vec<Vec<char>> {
    let n = [4, 6, 8, 8, 8, 10, 12, 16][rng.below(8) as usize];
    let density = 20 + rng.below(60);
    let light_too = rng.below(4) == 0;
    let mut grid = vec![vec!['_'; n]; n];
    for r in 0..n {
        for c in 0..n {
            if (r + c) % 2 == 0 && !light_too || rng.below(100) >= density {
                continue;
            }
            let black = rng.below(2) == 0;
            let mut king = rng.below(5) == 0;
            // A man cannot stand on its crowning row.
            if (black && r == n - 1) || (!black && r == 0) {
                king = true;
            }
            grid[r][c] = match (black, king) {
                (true, false) => 'b',
                (true, true) => 'B',
                (false, false) => 'w',
                (false, true) => 'W',
            };
        }
    }
    grid
}

#[test]
fn generator_matches_the_seed_rules_on_random_boards() {
    let mut rng = Rng(0x636b_7273);
    let mut captures_seen = 0;
    for _ in 0..1500 {
        let grid = random_board(&mut rng);
        let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
        for color in ['b', 'w'] {
            for (rules, standard) in [(Rules::Deepomatic, false), (Rules::Standard, true)] {
                let mut want = reference(&grid, color, standard);
                let mut got = allowed_moves_with(rules, &rows, color).unwrap();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{rules} {color} on {rows:#?}");
                captures_seen += usize::from(want.iter().any(|m| m.len() > 2));
            }
        }
    }
    assert!(captures_seen > 1000, "the boards exercise captures: {captures_seen}");
}
