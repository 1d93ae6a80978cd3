//! The endgame-database index and tables of English checkers: the index counts the published
//! number of positions, and tables built on small boards agree with move-by-move checks and
//! with alpha-beta.

use std::collections::HashMap;
use std::sync::Arc;

use ply::endgame::{build, solve_slice, EndgameIndex, Material, Probed, Tables, Verdict};
use ply::eval::GameEval;
use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, MoveList, Notation};
use ply_checkers::{DrawRules, EnglishCheckers, Rules};

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Positions with `pieces` pieces and Black to move, counted through the index: every
/// placement of the men is tried (`position_of` tells which are legal), and the kings go on
/// the squares left in `C(free, kings)` ways.
fn count(game: &EnglishCheckers, pieces: u32) -> u64 {
    let squares = game.squares() as u64;
    let domain = squares - game.size() as u64 / 2;
    game.slices(pieces)
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .map(|m| {
            let (bm, bk, wm, wk) = (
                u64::from(m.men[0]),
                u64::from(m.kings[0]),
                u64::from(m.men[1]),
                u64::from(m.kings[1]),
            );
            let kings = binomial(squares - bm - wm, bk) * binomial(squares - bm - wm - bk, wk);
            assert_eq!(game.slice_size(m), binomial(domain, bm) * binomial(domain, wm) * kings * 2);
            let placements = binomial(domain, bm) * binomial(domain, wm);
            (0..placements).filter(|&men| game.position_of(m, men * kings * 2).is_some()).count()
                as u64
                * kings
        })
        .sum()
}

#[test]
fn the_index_counts_the_published_positions() {
    // Schaeffer et al., "Checkers Is Solved", Science 317 (2007), table 1.
    let published = [120u64, 6_972, 261_224, 7_092_774, 148_688_232, 2_503_611_964];
    let game = EnglishCheckers::standard_board(Rules::Standard);
    for (n, &expected) in published.iter().enumerate() {
        assert_eq!(count(&game, n as u32 + 1), expected, "{} pieces", n + 1);
    }
}

#[test]
fn locate_and_position_are_inverse() {
    let game = EnglishCheckers::standard_board(Rules::Deepomatic);
    let mut seen = 0;
    for m in game.slices(4) {
        let size = game.slice_size(m);
        let step = (size / 500).max(1) | 1;
        for i in (0..size).step_by(step as usize) {
            if let Some(state) = game.position_of(m, i) {
                assert_eq!(game.locate(&state), Some((m, i)), "{m}");
                assert_eq!(game.pieces(&state), m.pieces());
                // The text form reads back to the same position.
                let text = game.format_state(&state);
                assert_eq!(game.parse_state(&text).unwrap(), state, "{text}");
                seen += 1;
            }
        }
    }
    assert!(seen > 10_000);
}

/// Every table of `game` up to `pieces` pieces, solved in memory.
fn solve_all(game: &EnglishCheckers, pieces: u32) -> HashMap<Material, Vec<u8>> {
    let mut done: HashMap<Material, Vec<u8>> = HashMap::new();
    for slice in game.slices(pieces) {
        let lookup = |s: Material, i: u64| done.get(&s).map(|t| t[i as usize]);
        let (values, stats) = solve_slice(game, slice, &lookup, 2, &|_| {}).unwrap();
        assert_eq!(stats.positions() + stats.holes, game.slice_size(slice));
        done.insert(slice, values);
    }
    done
}

/// The verdict of `state` from move-by-move checks: what its children's verdicts say it
/// must be.
fn implied(
    game: &EnglishCheckers,
    tables: &HashMap<Material, Vec<u8>>,
    state: &ply_checkers::CheckersState,
) -> Verdict {
    let verdict = |s: &ply_checkers::CheckersState| -> Verdict {
        if let Some(o) = game.outcome(s) {
            return match o.margin(game.to_move(s)).signum() {
                1 => Verdict::Win(0),
                -1 => Verdict::Loss(0),
                _ => Verdict::Draw,
            };
        }
        let (m, i) = game.locate(s).unwrap();
        Verdict::from_byte(tables[&m][i as usize]).unwrap()
    };
    if game.outcome(state).is_some() {
        return verdict(state);
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let children: Vec<Verdict> = moves
        .iter()
        .map(|&mv| {
            let mut c = *state;
            game.apply(&mut c, mv);
            verdict(&c).parent()
        })
        .collect();
    let shortest_win =
        children.iter().filter_map(|v| if let Verdict::Win(n) = v { Some(*n) } else { None }).min();
    if let Some(n) = shortest_win {
        Verdict::Win(n)
    } else if children.contains(&Verdict::Draw) {
        Verdict::Draw
    } else {
        Verdict::Loss(children.iter().filter_map(|v| v.plies()).max().unwrap())
    }
}

#[test]
fn small_board_tables_are_consistent_move_by_move() {
    // 6x6 boards, every position with up to 3 pieces, both rule sets: each position's
    // verdict is what its moves imply (the shortest win, else a draw, else the longest
    // loss). With exact distances that checks every win and loss, and so every draw.
    for rules in [Rules::Standard, Rules::Deepomatic] {
        let game = EnglishCheckers::new(6, rules).unwrap().with_draw_rules(DrawRules::NONE);
        let tables = solve_all(&game, 3);
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for (&m, values) in &tables {
            for (i, &b) in values.iter().enumerate() {
                let Some(state) = game.position_of(m, i as u64) else { continue };
                let v = Verdict::from_byte(b).unwrap();
                assert_eq!(
                    v,
                    implied(&game, &tables, &state),
                    "{rules} {}",
                    game.format_state(&state)
                );
                match v {
                    Verdict::Win(_) => wins += 1,
                    Verdict::Draw => draws += 1,
                    Verdict::Loss(_) => losses += 1,
                }
            }
        }
        assert!(wins > 1000 && draws > 1000 && losses > 1000, "{wins} {draws} {losses}");
    }
}

#[test]
fn short_results_agree_with_alpha_beta() {
    // Wins and losses up to 9 plies: alpha-beta to that depth (no tables) finds the same
    // result at the same distance.
    let game = EnglishCheckers::new(6, Rules::Standard).unwrap().with_draw_rules(DrawRules::NONE);
    let tables = solve_all(&game, 3);
    let mut checked = 0;
    let mut slices: Vec<_> = tables.keys().copied().filter(|m| m.pieces() == 3).collect();
    slices.sort();
    for m in slices {
        for (i, &b) in tables[&m].iter().enumerate().step_by(37) {
            let Some(state) = game.position_of(m, i as u64) else { continue };
            let Some(v) = Verdict::from_byte(b) else { continue };
            let Some(n) = v.plies().filter(|&n| (1..=9).contains(&n)) else { continue };
            if game.count_moves(&state) < 2 {
                continue; // a forced move is played without a search
            }
            let report =
                AlphaBeta::new().choose(&game, Position::new(&state), &Budget::depth(n)).unwrap();
            let expected = match v {
                Verdict::Win(n) => Value::Win(n),
                _ => Value::Loss(n),
            };
            assert_eq!(report.value, expected, "{}", game.format_state(&state));
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_search_plays_from_the_tables() {
    let dir = std::env::temp_dir().join(format!("ply-checkers-egdb-{}", std::process::id()));
    let game = EnglishCheckers::new(6, Rules::Standard).unwrap().with_draw_rules(DrawRules::NONE);
    let summary = build(&game, 3, &dir, 2, &|_| {}).unwrap();
    assert_eq!(summary.slices, game.slices(3).len());
    let tables = Arc::new(Tables::open(&game, &dir).unwrap());
    assert_eq!(tables.pieces(), 3);
    // A won position: the search, one ply deep, reports the tables' distance.
    let mut found = 0;
    for m in game.slices(3).into_iter().filter(|m| m.pieces() == 3) {
        for i in (0..game.slice_size(m)).step_by(53) {
            let Some(state) = game.position_of(m, i) else { continue };
            if game.outcome(&state).is_some() || game.count_moves(&state) < 2 {
                continue;
            }
            let Some(Verdict::Win(n)) = tables.probe(&game, &state) else { continue };
            let report = AlphaBeta::new()
                .with_evaluator(Probed::new(GameEval, tables.clone()))
                .choose(&game, Position::new(&state), &Budget::depth(1))
                .unwrap();
            assert_eq!(report.value, Value::Win(n), "{}", game.format_state(&state));
            found += 1;
        }
    }
    assert!(found > 50, "{found}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Exact solving keeps the same pieces apart by the draw counter: a win in three plies with a
/// fresh counter is a draw one ply before the 80-ply rule, whichever the shared table proved
/// first.
#[test]
fn solving_tells_positions_apart_by_the_draw_counter() {
    use ply::solve::Exact;
    let game = EnglishCheckers::default();
    let fresh = game.parse_state("W:WK1:B5").unwrap();
    let late = game.parse_state("W:WK1:B5:H79").unwrap();
    assert_eq!(game.hash(&fresh), game.hash(&late), "repetitions ignore the counter");
    ply::testing::check_value_hash(&game, &[(fresh, Exact::Win(Some(3))), (late, Exact::Draw)])
        .unwrap();
}
