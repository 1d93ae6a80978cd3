//! One test per rule, each with a diagram of its position. Diagrams show the 10x10 board with
//! Black at the top: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.

use ply::{Game, MoveList, Notation, Outcome, Player, Record};
use ply_draughts::{DraughtsState, DrawRules, InternationalDraughts, Move, Piece};

fn game() -> InternationalDraughts {
    InternationalDraughts::new()
}

fn moves_of(state: &DraughtsState) -> Vec<Move> {
    let mut list = MoveList::new();
    game().generate_moves(state, &mut list);
    list.to_vec()
}

/// The moves as `from x to x captured...` (the `Debug` form), sorted.
fn described(state: &DraughtsState) -> Vec<String> {
    let mut v: Vec<String> = moves_of(state).iter().map(|m| format!("{m:?}")).collect();
    v.sort();
    v
}

/// Plays the move written `text`.
fn play(g: &InternationalDraughts, s: &mut DraughtsState, text: &str) {
    let mv = g.parse_move(s, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(s, mv);
}

fn pos(fen: &str) -> DraughtsState {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn start_position_has_nine_moves_for_white() {
    let s = game().initial_state();
    assert_eq!(described(&s).len(), 9);
    assert!(moves_of(&s).iter().all(|m| (31..=35).contains(&m.from())));
    assert_eq!(game().to_move(&s), Player::FIRST);
}

/// ```text
///   .  .  .  .  .
/// .  .  .  .  .
///   .  .  .  .  .
/// .  .  .  .  .
///   .  .  .  .  .      28: white man
/// .  .  w  .  .        33: black man behind it
///   .  .  b  .  .
/// ```
#[test]
fn men_move_forward_but_capture_backward() {
    // Without a capture a man steps forward only.
    assert_eq!(described(&pos("W:W28:B1")), ["28-22", "28-23"]);
    // A black man behind it is taken backward.
    assert_eq!(described(&pos("W:W28:B33")), ["28x39x33"]);
}

/// ```text
///  row 5  b31 .. .. ..      36 takes the king on 31 (one piece, lands 27),
///  row 6  .. .. .. .. b40   45 takes the men on 40 and 29 (two pieces, lands 23):
///  row 7  w36 .. .. .. w45  the majority rule forces 45x23, kings count as one.
/// ```
#[test]
fn majority_rule_counts_kings_like_men() {
    let s = pos("W:W36,45:B29,40,K31");
    assert_eq!(described(&s), ["45x23x29x40"]);
}

/// ```text
///  46 W, black man on 32 on the long diagonal 46-41-37-32-28-23-19-14-10-5.
///  With nothing else the king may stop on any of the six squares beyond 32.
///  With a black man on 24 too, only landing on 19 lets it go on (19x30 or 19x35 over 24),
///  so the majority rule leaves two moves.
/// ```
#[test]
fn flying_king_captures_at_a_distance_with_a_choice_of_landing() {
    let s = pos("W:WK46:B32");
    assert_eq!(
        described(&s),
        ["46x10x32", "46x14x32", "46x19x32", "46x23x32", "46x28x32", "46x5x32"]
    );
    let s = pos("W:WK46:B24,32");
    assert_eq!(described(&s), ["46x30x24x32", "46x35x24x32"]);
}

/// ```text
///  King 46 takes 37 (landing 28), 22 (landing 17) and 21 (landing 26). From 26 the
///  diagonal 26-31-37-42-48 is blocked by the captured piece on 37, which stays on the board
///  until the move ends, so the man on 42 cannot be taken: three pieces, not four.
/// ```
#[test]
fn turkish_strike_captured_pieces_block_and_are_not_taken_twice() {
    let s = pos("W:WK46:B21,22,37,42");
    assert_eq!(described(&s), ["46x26x21x22x37"]);
    let mut after = s;
    game().apply(&mut after, moves_of(&s)[0]);
    assert_eq!(after.piece_at(42), Some(Piece::BlackMan));
    assert_eq!(after.piece_at(26), Some(Piece::WhiteKing));
    assert_eq!(after.pieces().count(), 2);
}

/// ```text
///  A white man on 32 with black men on 28, 18, 17 and 27 around 22: it can jump the ring
///  clockwise or anticlockwise and come back to 32. Both orders take the same four pieces
///  from the same start to the same end: one move.
/// ```
#[test]
fn capture_orders_with_the_same_result_are_one_move() {
    let s = pos("W:W32:B17,18,27,28");
    assert_eq!(described(&s), ["32x32x17x18x27x28"]);
    let mut after = s;
    game().apply(&mut after, moves_of(&s)[0]);
    assert_eq!(after.pieces().collect::<Vec<_>>(), [(32, Piece::WhiteMan)]);
}

/// ```text
///  row 0  .. 2 ..          13 jumps 8 to reach 2 on the far row, then must go on
///  row 1  b7 b8            over 7 to 11: it ends on 11 and stays a man.
///  row 2  11 .. w13
/// ```
#[test]
fn man_passing_the_far_row_during_a_capture_is_not_crowned() {
    let s = pos("W:W13:B7,8");
    let mv = moves_of(&s);
    assert_eq!(described(&s), ["13x11x7x8"]);
    let mut after = s;
    game().apply(&mut after, mv[0]);
    assert_eq!(after.piece_at(11), Some(Piece::WhiteMan));
}

#[test]
fn man_ending_on_the_far_row_is_crowned() {
    let s = pos("W:W13:B8,20");
    let mut after = s;
    game().apply(&mut after, moves_of(&s)[0]);
    assert_eq!(after.piece_at(2), Some(Piece::WhiteKing));
    // A quiet step onto the far row crowns a black man too.
    let s = pos("B:W30:B42");
    let mv = game().parse_move(&s, "42-47").unwrap();
    let mut after = s;
    game().apply(&mut after, mv);
    assert_eq!(after.piece_at(47), Some(Piece::BlackKing));
}

#[test]
fn side_without_pieces_or_moves_loses() {
    // White took the last black piece.
    let s = pos("B:W28:B");
    assert_eq!(game().outcome(&s), Some(Outcome::Winner(Player::FIRST)));
    assert!(moves_of(&s).is_empty());
    // Black's man on 45 is blocked by white men on 50 ... it has no move at all.
    let s = pos("B:W50,K44:B45");
    assert!(moves_of(&s).is_empty());
    assert_eq!(game().outcome(&s), Some(Outcome::Winner(Player::FIRST)));
}

#[test]
fn king_against_king_is_a_draw_when_the_rule_is_on() {
    let s = pos("W:WK28:BK5");
    assert_eq!(game().outcome(&s), Some(Outcome::Draw));
    assert!(moves_of(&s).is_empty());
    let free = InternationalDraughts::with_draw_rules(DrawRules {
        king_vs_king: false,
        ..DrawRules::FMJD
    });
    assert_eq!(free.outcome(&s), None);
}

#[test]
fn twenty_five_king_moves_each_without_capture_draw() {
    // 48 plies of king moves already played (R48): two more make 25 moves each.
    let mut s = pos("W:WK47,K50:BK2,K4:R48");
    let g = game();
    play(&g, &mut s, "47-42");
    assert_eq!(s.king_move_plies(), 49);
    assert_eq!(g.outcome(&s), None);
    play(&g, &mut s, "2-7");
    assert_eq!(g.outcome(&s), Some(Outcome::Draw));
    // A man move resets the count.
    let mut s = pos("W:W35,K46:BK1,K5:R40");
    play(&g, &mut s, "35-30");
    assert_eq!(s.king_move_plies(), 0);
    // With the rule off the game goes on.
    let free =
        InternationalDraughts::with_draw_rules(DrawRules { king_moves: None, ..DrawRules::FMJD });
    assert_eq!(free.outcome(&pos("W:WK46,K50:BK1,K5:R60")), None);
}

#[test]
fn three_pieces_against_a_lone_king_draw_after_sixteen_moves_each() {
    let g = game();
    // The count starts when the configuration arises: two kings and a man against a king.
    let s = pos("W:WK46,K50,35:BK1");
    assert_eq!(s.endgame_plies(), Some(0));
    assert_eq!(pos("W:WK46,K50:BK1").endgame_plies(), None);
    // A capture that creates it starts the count at zero.
    let mut s = pos("W:WK46,K50,K3,K10:BK1,14");
    let mv = g.parse_move(&s, "10x19").unwrap();
    g.apply(&mut s, mv);
    assert_eq!(s.endgame_plies(), None, "four against two is not the configuration");
    let mut s = pos("B:WK46,K50,K3,K23:BK1");
    assert_eq!(s.endgame_plies(), None);
    play(&g, &mut s, "1x29");
    assert_eq!(s.endgame_plies(), Some(0));
    // After 31 plies one more ends the game.
    let mut s = pos("W:WK46,K50,K3:BK1:E31");
    assert_eq!(g.outcome(&s), None);
    let mv = moves_of(&s)[0];
    g.apply(&mut s, mv);
    assert_eq!(s.endgame_plies(), Some(32));
    assert_eq!(g.outcome(&s), Some(Outcome::Draw));
    let free = InternationalDraughts::with_draw_rules(DrawRules {
        endgame_moves: None,
        ..DrawRules::FMJD
    });
    assert_eq!(free.outcome(&s), None);
}

#[test]
fn third_repetition_is_a_draw() {
    let g = game();
    let start = pos("W:WK47,K50:BK2,K4");
    let mut record = Record::new(&g, start);
    let cycle = ["47-42", "2-7", "42-47", "7-2"];
    for (i, text) in cycle.iter().cycle().take(8).enumerate() {
        assert!(!record.is_repetition_draw(), "drawn too early at ply {i}");
        let mv = g.parse_move(record.state(), text).unwrap();
        record.play(mv).unwrap();
    }
    assert!(record.is_repetition_draw());
    assert_eq!(record.outcome(), Some(Outcome::Draw));
    let free =
        InternationalDraughts::with_draw_rules(DrawRules { repetition: false, ..DrawRules::FMJD });
    assert_eq!(free.repetition_limit(), None);
    assert_eq!(g.repetition_limit(), Some(3));
}

#[test]
fn hash_follows_the_position_not_the_path() {
    let g = game();
    let mut a = g.initial_state();
    let mut b = g.initial_state();
    for t in ["31-26", "20-25", "32-27"] {
        play(&g, &mut a, t);
    }
    for t in ["32-27", "20-25", "31-26"] {
        play(&g, &mut b, t);
    }
    assert_eq!(g.hash(&a), g.hash(&b));
    let fresh: DraughtsState = g.format_state(&a).parse().unwrap();
    assert_eq!(g.hash(&fresh), g.hash(&a));
    assert_ne!(g.hash(&a), g.hash(&g.initial_state()));
}

/// Exact solving keeps the same pieces apart by the king-move counter: a win in three plies
/// with a fresh counter is a draw one ply before the 25-move rule, whichever the shared table
/// proved first.
#[test]
fn solving_tells_positions_apart_by_the_draw_counter() {
    use ply::solve::Exact;
    let game = InternationalDraughts::default();
    let fresh = game.parse_state("W:WK1:B6").unwrap();
    let late = game.parse_state("W:WK1:B6:R49").unwrap();
    assert_eq!(game.hash(&fresh), game.hash(&late), "repetitions ignore the counter");
    ply::testing::check_value_hash(&game, &[(fresh, Exact::Win(Some(3))), (late, Exact::Draw)])
        .unwrap();
}
