//! A game between engines from start to end, printed move by move (the programs' batch mode,
//! and `--watch`, which draws every position with a pause after each move).

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use ply::arena::{play_game_with, ArenaError, Seat as ArenaSeat};
use ply::{Notation, Player, Record};

use super::display::print_result;
use super::engines::build_engines;
use super::session::ENGINE_INDENT;
use super::{book_line, engine_line, from_book, terminal_width, wrap, PlayLoopError, Seat};
use crate::agents::AgentKit;
use crate::spec::AgentSpec;

/// Plays engines against each other from `start` to the end, one line per move on `out`, then
/// the final picture and the result. `seats[s]` plays seat `s`.
///
/// # Errors
/// If an engine cannot move or writing fails.
pub fn play_engines<'g, G: Notation + Sync + 'static>(
    game: &'g G,
    start: G::State,
    seats: &[AgentSpec],
    seed: u64,
    names: &[String],
    kit: &AgentKit<G>,
    out: &mut impl Write,
) -> Result<Record<'g, G>, PlayLoopError> {
    play_engines_watched(game, start, seats, seed, names, kit, None, out)
}

/// How `--watch` shows an engine-vs-engine game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// The pause after each move, so a person can follow.
    pub delay: Duration,
    /// ANSI colours in the pictures.
    pub color: bool,
    /// The player whose side the pictures put at the bottom.
    pub viewer: Player,
}

/// [`play_engines`], with the start position and the position after every move drawn when
/// `watch` is given, each move followed by its delay.
///
/// # Errors
/// If an engine cannot move or writing fails.
#[allow(clippy::too_many_arguments)]
pub fn play_engines_watched<'g, G: Notation + Sync + 'static>(
    game: &'g G,
    start: G::State,
    seats: &[AgentSpec],
    seed: u64,
    names: &[String],
    kit: &AgentKit<G>,
    watch: Option<Watch>,
    out: &mut impl Write,
) -> Result<Record<'g, G>, PlayLoopError> {
    assert_eq!(seats.len(), game.num_players(), "one seat per player");
    let names: Vec<String> = (0..game.num_players())
        .map(|i| names.get(i).cloned().unwrap_or_else(|| Player::new(i).to_string()))
        .collect();
    let specs: Vec<Seat> = seats.iter().cloned().map(Seat::Engine).collect();
    let mut books = Vec::with_capacity(seats.len());
    let mut arena_seats: Vec<ArenaSeat<G>> = build_engines(&specs, seed, kit)?
        .into_iter()
        .zip(seats)
        .filter_map(|(engine, spec)| engine.map(|e| (e, spec)))
        .map(|(engine, spec)| {
            books.push(engine.book);
            ArenaSeat::new(engine.agent, engine.budget).with_clock(spec.clock)
        })
        .collect();
    if let Some(w) = watch {
        writeln!(out, "\n{}\n", game.render_for(&start, None, w.color, w.viewer))?;
    }
    let mut failed: Option<io::Error> = None;
    let played = play_game_with(game, &start, &mut arena_seats, usize::MAX, |m| {
        if failed.is_none() {
            let line = match from_book(books[m.seat].as_deref(), game, m.before, m.report) {
                true => book_line(game, m.before, &names[m.seat], m.report),
                false => engine_line(game, m.before, &names[m.seat], m.report),
            };
            let line = format!("{:>3}. {line}", m.ply + 1);
            failed = writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT)).err();
        }
        if let (None, Some(w)) = (&failed, watch) {
            let mut after = m.before.clone();
            game.apply(&mut after, m.report.best_move);
            let picture = game.render_for(&after, Some(m.report.best_move), w.color, w.viewer);
            failed = writeln!(out, "\n{picture}\n").and_then(|()| out.flush()).err();
            std::thread::sleep(w.delay);
        }
        // Output that cannot be written (a closed pipe) ends the game at once.
        match failed {
            Some(_) => ControlFlow::Break(()),
            None => ControlFlow::Continue(()),
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let played = played.map_err(|e| match e {
        ArenaError::Search { seat, source } => {
            PlayLoopError::Search { spec: seats[seat].to_string(), source }
        }
        ArenaError::Stopped { plies } => {
            PlayLoopError::Io(io::Error::other(format!("stopped after {plies} moves")))
        }
    })?;
    let mut record = Record::new(game, start);
    for mv in played.moves {
        record.play(mv).expect("the arena played legal moves");
    }
    if let Some(f) = played.forfeit {
        writeln!(out, "{} ({}) forfeits: {}", names[f.seat], seats[f.seat], f.reason)?;
    }
    let (color, viewer) = watch.map_or((false, Player::FIRST), |w| (w.color, w.viewer));
    print_result(&record, &names, (color, viewer), out)?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::TicTacToe;
    use ply::Game;

    #[test]
    fn engines_play_to_the_end() {
        let g = TicTacToe;
        let specs: Vec<AgentSpec> =
            ["alphabeta:depth=9", "random:seed=5"].iter().map(|s| s.parse().unwrap()).collect();
        let mut out = Vec::new();
        let record =
            play_engines(&g, g.initial_state(), &specs, 7, &[], &AgentKit::default(), &mut out)
                .unwrap();
        let outcome = record.outcome().unwrap();
        assert!(outcome.reward(Player(0), 2) >= 0.5, "perfect play never loses");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches(" plays ").count(), record.moves().len());
        assert!(text.contains("result: "), "{text}");
    }
}
