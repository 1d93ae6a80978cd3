//! The endgame-database index and tables of international draughts: tables with up to three
//! pieces agree with move-by-move checks and with alpha-beta, and the search plays from them.

use std::sync::Arc;

use ply::endgame::{build, EndgameIndex, Material, Probed, Tables, Verdict};
use ply::eval::GameEval;
use ply::search::alphabeta::AlphaBeta;
use ply::search::{Agent, Budget, Position, Value};
use ply::{Game, Notation};
use ply_draughts::InternationalDraughts;

#[test]
fn locate_and_position_are_inverse() {
    let game = InternationalDraughts::new();
    let mut seen = 0;
    for m in game.slices(5) {
        let size = game.slice_size(m);
        for i in (0..size).step_by((size / 300).max(1) as usize | 1) {
            if let Some(state) = game.position_of(m, i) {
                assert_eq!(game.locate(&state), Some((m, i)), "{m}");
                let text = game.format_state(&state);
                assert_eq!(game.parse_state(&text).unwrap(), state, "{text}");
                seen += 1;
            }
        }
    }
    assert!(seen > 10_000, "{seen}");
    // Men never stand on their crowning row: 45 squares each.
    let m = Material::new([1, 0], [0, 0]);
    assert_eq!(game.slice_size(m), 90);
}

#[test]
fn three_piece_tables_are_consistent_and_agree_with_alpha_beta() {
    let dir = std::env::temp_dir().join(format!("ply-draughts-egdb-{}", std::process::id()));
    let game = InternationalDraughts::new();
    let summary = build(&game, 3, &dir, 2, &|_| {}).unwrap();
    assert_eq!(summary.slices, game.slices(3).len());
    let tables = Arc::new(Tables::open(&game, &dir).unwrap());
    assert_eq!(tables.pieces(), 3);
    // One king against one king: a draw by rule, whoever moves.
    let kvk = Material::new([0, 0], [1, 1]);
    let state = game.position_of(kvk, 4321).unwrap();
    assert_eq!(tables.probe(&game, &state), Some(Verdict::Draw));
    let (mut checked, mut searched, mut wins) = (0, 0, 0);
    for m in game.slices(3).into_iter().filter(|m| m.pieces() == 3) {
        for i in (0..game.slice_size(m)).step_by(29) {
            let Some(state) = game.position_of(m, i) else { continue };
            let v = tables.probe(&game, &state).unwrap();
            assert_eq!(Some(v), tables.implied(&game, &state), "{}", game.format_state(&state));
            checked += 1;
            if let Verdict::Win(n) = v {
                wins += 1;
                // Every 25th win up to 7 plies is searched (about 800 positions): all of
                // them would take a minute of a debug build.
                if n <= 7
                    && wins % 25 == 0
                    && game.outcome(&state).is_none()
                    && game.count_moves(&state) > 1
                {
                    // Plain alpha-beta to that depth finds the same win...
                    let plain = AlphaBeta::new()
                        .choose(&game, Position::new(&state), &Budget::depth(n))
                        .unwrap();
                    assert_eq!(plain.value, Value::Win(n), "{}", game.format_state(&state));
                    // ...and with the tables one ply is enough.
                    let probed = AlphaBeta::new()
                        .with_evaluator(Probed::new(GameEval, tables.clone()))
                        .choose(&game, Position::new(&state), &Budget::depth(1))
                        .unwrap();
                    assert_eq!(probed.value, Value::Win(n), "{}", game.format_state(&state));
                    searched += 1;
                }
            }
        }
    }
    assert!(checked > 10_000 && wins > 1000 && searched > 500, "{checked} {wins} {searched}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn draw_rules_limit_what_the_tables_answer() {
    let game = InternationalDraughts::new();
    // Three kings against one: the 16-move rule allows 32 plies from the start.
    let state = game.parse_state("W:WK1,K2,K3:BK50").unwrap();
    assert_eq!(game.plies_left(&state), Some(32));
    let free = InternationalDraughts::with_draw_rules(ply_draughts::DrawRules::NONE);
    assert_eq!(free.plies_left(&state), None);
    assert_eq!(free.table_set(), "international-draughts-no-kvk");
}
