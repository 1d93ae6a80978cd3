//! The terminal front end: a [`Session`] played by people typing on `input`, engines printing
//! a line of statistics per move on `out`. It drives the session through its public methods
//! only, as the web board and Python do.
//!
//! # Pondering
//!
//! With [`TerminalConfig::ponder`] (`--ponder`), an engine thinks while a human types. The
//! engine that moved last expects the human's reply (the second move of its principal
//! variation); the engine seat that moves after that reply searches the position it leads to,
//! on a thread of its own, while the terminal reads the human's line exactly as without
//! pondering (`help`, `moves` and mistyped moves are answered at once and the search goes
//! on). When the human's move arrives:
//!
//! - it is the expected one (a *ponder hit*): the same search goes on, now under the engine's
//!   budget with its time counted from the move (a depth, node or iteration limit applies as
//!   usual, and a search that has already reached it answers at once). The engine's line says
//!   `(ponder hit)` and its time includes the pondering. Nothing is searched twice: the
//!   answer comes from the tree, table and depth reached while the human thought.
//! - it is another move: the search is stopped and dropped, and the engine searches the real
//!   position as usual. (Alpha-beta built from a spec starts each search with a fresh table,
//!   so nothing of a missed ponder carries over.)
//!
//! An engine that keeps its search across moves ([`Agent::ponders_before_reply`]: MCTS with
//! tree reuse, the default) ponders the human's own position instead, with or without an
//! expected move. Whatever the human plays, the engine keeps the subtree of that move and
//! its search, under its usual budget, goes on from it; its line says how much it kept:
//! `(pondered: 41.2k playouts kept)`.
//!
//! `undo`, `quit` and the end of input stop the search first. There is nothing to ponder
//! without an expected move: at a human's first turn, after an engine search whose principal
//! variation ends with its own move, or when the expected move ends the game.
//!
//! Pondering is off by default: a game is meant to replay from its printed seed, and with
//! pondering an engine's moves depend on how long the human took (and it keeps a second core
//! busy while the human thinks).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

use ply::search::{Agent, Budget, Deadline, Position, SearchError, SearchReport};
use ply::{Game, MoveList, Notation, Player, Record};

use super::display::{moves_line, print_result};
use super::engines::Engine;
use super::interrupt;
use super::session::{Pondered, Session, ENGINE_INDENT};
use super::{
    book_line, engine_line, from_book, hint_line, numbered_moves, read_input, tables_line,
    terminal_width, wrap, Ending, Input, InputError, PlayLoopError, Seat, HELP,
};

/// How the terminal shows a game: what only a terminal needs, beside the session's own
/// settings ([`super::SessionConfig`]).
#[derive(Clone, Debug)]
pub struct TerminalConfig {
    /// ANSI colours in board pictures.
    pub color: bool,
    /// Repeat each line read after the prompt (for input that is not typed at a terminal, so
    /// the transcript shows it).
    pub echo: bool,
    /// Engines think on the humans' time (see [pondering](self#pondering)).
    pub ponder: bool,
    /// Show a status line with the time an engine has been thinking, redrawn in place (for
    /// a terminal).
    pub live: bool,
    /// The player whose side the board pictures put at the bottom.
    pub viewer: Player,
}

impl TerminalConfig {
    /// A plain transcript: no colours, no echo, no pondering, no status line, the first
    /// player's side at the bottom.
    pub fn plain() -> TerminalConfig {
        TerminalConfig {
            color: false,
            echo: false,
            ponder: false,
            live: false,
            viewer: Player::FIRST,
        }
    }
}

/// What the player chose at the end of a game.
enum AfterGame {
    /// `quit` or the end of the input: the finished game is the session's result.
    Leave,
    /// `undo`, `new` or `load`: play goes on.
    Resume,
}

/// The commands of a finished game.
const AFTER_GAME_HELP: &str = "the game is over: list (the moves), save FILE, undo (take back \
                               to your last move), new (a new game), load FILE, quit";

/// What leaving the game prints (`quit`, Ctrl-C): how many moves were played, then the
/// moves.
fn left_words<G: Notation>(record: &Record<'_, G>) -> String {
    let played = record.moves().len();
    format!("game left after {played} moves\n{}\n", moves_line(record))
}

/// Plays `session` at the terminal: humans type their moves or commands ([`HELP`]) on
/// `input`, engines print a line of statistics per move, everything goes to `out`. Returns
/// how it ended; the session holds the game on the board at the end (after any `new` or
/// `load`).
///
/// # Errors
/// If the terminal fails or an engine cannot move; bad human input is explained and asked
/// again instead.
pub fn play_terminal<G: Notation + Send + Sync + 'static>(
    session: &mut Session<G>,
    config: &TerminalConfig,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Ending, PlayLoopError> {
    let mut line = Vec::new();
    // What the last ponder search left for the next engine move, and its seat.
    let mut pondered: Option<(usize, Pondered<G::Move>)> = None;
    loop {
        interrupt::remember(left_words(session.record()));
        if let Some(outcome) = session.record().outcome() {
            print_result(session.record(), session.names(), (config.color, config.viewer), out)?;
            if !session.seats().contains(&Seat::Human) {
                return Ok(Ending::Finished(outcome));
            }
            match after_the_game(session, config, input, out)? {
                AfterGame::Leave => return Ok(Ending::Finished(outcome)),
                AfterGame::Resume => continue,
            }
        }
        let seat = session.seat_to_move();
        let player = Player::new(seat);
        let who = session.names()[seat].clone();
        if session.engine_to_move() {
            let ready = pondered.take().filter(|(s, _)| *s == seat).map(|(_, r)| r);
            session.engine_turn_with(ready, config.live, out)?;
            continue;
        }
        if let Some(pass) = session.forced_pass() {
            // A blocked or eliminated human seat has nothing to choose: it passes at once.
            session.play(pass).map_err(|_| PlayLoopError::IllegalMove {
                spec: "human".into(),
                mv: format!("{pass:?}"),
            })?;
            writeln!(out, "{who} passes (no other move)")?;
            continue;
        }
        let game = session.game();
        let record = session.record();
        let last = record.moves().last().copied();
        writeln!(
            out,
            "\n{}\n",
            game.render_for(record.state(), last, config.color, config.viewer)
        )?;
        writeln!(out, "{}", wrap(&numbered_moves(game, record.state()), terminal_width(), ""))?;
        if let Some(verdict) = session.kit().tables_verdict(game, record.state()) {
            writeln!(out, "{}", tables_line(&who, verdict))?;
        }
        let mut ponder = match config.ponder {
            true => {
                let expected = session.expected_move();
                Ponder::start(session, expected)
            }
            false => None,
        };
        let chosen = loop {
            write!(out, "{who} to move> ")?;
            out.flush()?;
            line.clear();
            let moves_played = session.record().moves().len();
            if input.read_until(b'\n', &mut line)? == 0 {
                stop_pondering(&mut ponder, session);
                writeln!(out, "\nend of input: game left after {moves_played} moves")?;
                writeln!(out, "{}", moves_line(session.record()))?;
                return Ok(Ending::EndOfInput);
            }
            let text = String::from_utf8_lossy(&line);
            if config.echo {
                writeln!(out, "{}", text.trim_end())?;
            }
            let game = session.game();
            let state = session.record().state().clone();
            match read_input(game, &state, &text) {
                Ok(Input::Move(mv)) => break Some(mv),
                Ok(Input::Go) => match session.suggest_live(config.live, &who, out) {
                    Ok(report) => {
                        let by = format!("{who} (engine)");
                        let book = session.kit().book_for(session.helper()).ok().flatten();
                        let line = match from_book(book.as_deref(), game, &state, &report) {
                            true => book_line(game, &state, &by, &report),
                            false => engine_line(game, &state, &by, &report),
                        };
                        writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?;
                        break Some(report.best_move);
                    }
                    Err(e) => writeln!(out, "go: {e}")?,
                },
                Ok(Input::Hint) => match session.suggest_live(config.live, "hint:", out) {
                    Ok(report) => {
                        let book = session.kit().book_for(session.helper()).ok().flatten();
                        let line = match from_book(book.as_deref(), game, &state, &report) {
                            true => book_line(game, &state, "hint:", &report).replacen(
                                "hint: plays",
                                "hint:",
                                1,
                            ),
                            false => hint_line(game, &state, &report),
                        };
                        writeln!(out, "{}", wrap(&line, terminal_width(), ENGINE_INDENT))?
                    }
                    Err(e) => writeln!(out, "hint: {e}")?,
                },
                Ok(Input::Help) => writeln!(out, "{HELP}")?,
                Ok(Input::Moves) => {
                    writeln!(out, "{}", wrap(&numbered_moves(game, &state), terminal_width(), ""))?
                }
                Ok(Input::List) => match moves_played {
                    0 => writeln!(out, "no moves yet")?,
                    _ => writeln!(out, "{}", moves_line(session.record()))?,
                },
                Ok(Input::Quit) => {
                    stop_pondering(&mut ponder, session);
                    write!(out, "{}", left_words(session.record()))?;
                    return Ok(Ending::Quit);
                }
                Ok(Input::Resign) => {
                    stop_pondering(&mut ponder, session);
                    writeln!(out, "{who} resigns after {moves_played} moves")?;
                    if session.names().len() == 2 {
                        writeln!(out, "result: {} wins", session.names()[1 - seat])?;
                    }
                    writeln!(out, "{}", moves_line(session.record()))?;
                    return Ok(Ending::Resigned(player));
                }
                Ok(Input::Swap) => {
                    if !session.can_swap() {
                        writeln!(out, "swap: no engine plays in this game")?;
                        continue;
                    }
                    stop_pondering(&mut ponder, session);
                    let other = session.swap().expect("an engine seat");
                    let name = &session.names()[other];
                    writeln!(out, "you now play {name}; the engine plays {who}")?;
                    break None;
                }
                Ok(Input::Budget(change)) => {
                    stop_pondering(&mut ponder, session);
                    let text = session.change_budget(change);
                    writeln!(out, "{}", wrap(&text, terminal_width(), "  "))?;
                }
                Ok(Input::Undo) => {
                    if !session.can_undo() {
                        writeln!(out, "nothing to undo")?;
                        continue;
                    }
                    stop_pondering(&mut ponder, session);
                    let taken = session.undo().expect("a human choice to go back to");
                    writeln!(out, "took back {taken} moves")?;
                    break None;
                }
                Ok(Input::Redo) => {
                    if !session.can_redo() {
                        writeln!(out, "nothing to redo")?;
                        continue;
                    }
                    stop_pondering(&mut ponder, session);
                    let count = session.redo().unwrap_or(0);
                    writeln!(out, "played again {count} moves")?;
                    break None;
                }
                Ok(Input::New) => {
                    stop_pondering(&mut ponder, session);
                    session.new_game();
                    writeln!(out, "new game")?;
                    break None;
                }
                Ok(Input::Save(path)) => match session.save(&path) {
                    Ok(n) => writeln!(out, "saved {n} moves to {path}")?,
                    Err(e) => writeln!(out, "save: {e}")?,
                },
                Ok(Input::Load(path)) => {
                    // Read first: a file that does not load leaves the game as it was.
                    match session.read_game(&path) {
                        Ok((start, moves)) => {
                            stop_pondering(&mut ponder, session);
                            session.resume(&start, &moves);
                            writeln!(out, "loaded {} moves from {path}", moves.len())?;
                            break None;
                        }
                        Err(e) => writeln!(out, "load: {e}")?,
                    }
                }
                Err(e) => {
                    writeln!(out, "{}", wrap(&e.to_string(), terminal_width(), "  "))?;
                    if !matches!(e, InputError::BadArgument { .. }) {
                        let legal = format!("legal moves: {}", numbered_moves(game, &state));
                        writeln!(out, "{}", wrap(&legal, terminal_width(), ""))?;
                    }
                }
            }
        };
        let Some(chosen) = chosen else { continue };
        // After a hit the pondering agent has searched the position after `chosen` already
        // (an MCTS tree is rooted there): it is not told of it. An agent that pondered before
        // the reply is told, and keeps the subtree of `chosen`.
        let mut searched = None;
        if let Some(p) = ponder.take() {
            let (seat, hit) = (p.seat, p.expected == Some(chosen));
            let before_reply = p.expected.is_none();
            if let Some(report) = p.finish(session, hit) {
                pondered = Some((seat, Pondered::Hit(report)));
                searched = Some(seat);
            } else if before_reply {
                pondered = Some((seat, Pondered::BeforeReply));
            }
        }
        // Only listed moves get here; a repetition draw is checked at the top of the loop,
        // so this cannot be refused.
        if let Err(e) = session.play_searched(chosen, searched) {
            writeln!(out, "{e}")?;
        }
    }
}

/// The prompt of a finished game with a human seat: the game stays open for `list`, `save`,
/// `undo`, `new` and `load` until `quit` or the end of the input.
fn after_the_game<G: Notation + Sync + 'static>(
    session: &mut Session<G>,
    config: &TerminalConfig,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<AfterGame, PlayLoopError> {
    let mut line = Vec::new();
    loop {
        write!(out, "game over> ")?;
        out.flush()?;
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            return Ok(AfterGame::Leave);
        }
        let text = String::from_utf8_lossy(&line);
        if config.echo {
            writeln!(out, "{}", text.trim_end())?;
        }
        let state = session.record().state().clone();
        match read_input(session.game(), &state, &text) {
            Ok(Input::Quit) => return Ok(AfterGame::Leave),
            Ok(Input::List) => writeln!(out, "{}", moves_line(session.record()))?,
            Ok(Input::Save(path)) => match session.save(&path) {
                Ok(n) => writeln!(out, "saved {n} moves to {path}")?,
                Err(e) => writeln!(out, "save: {e}")?,
            },
            Ok(Input::Undo) if session.can_undo() => {
                let taken = session.undo().expect("a human choice to go back to");
                writeln!(out, "took back {taken} moves")?;
                return Ok(AfterGame::Resume);
            }
            Ok(Input::Undo) => writeln!(out, "nothing to undo")?,
            Ok(Input::New) => {
                session.new_game();
                writeln!(out, "new game")?;
                return Ok(AfterGame::Resume);
            }
            Ok(Input::Load(path)) => match session.load(&path) {
                Ok(n) => {
                    writeln!(out, "loaded {n} moves from {path}")?;
                    return Ok(AfterGame::Resume);
                }
                Err(e) => writeln!(out, "load: {e}")?,
            },
            _ => writeln!(out, "{}", wrap(AFTER_GAME_HELP, terminal_width(), "  "))?,
        }
    }
}

/// The time budget of a ponder search when the engine's own budget sets no limit that ends it
/// (in practice, until the human's move stops it).
const PONDER_TIME: Duration = Duration::from_secs(86_400);

/// What a ponder search hands back: the agent and its search.
type Pondering<G> =
    (Box<dyn Agent<G> + Send>, Result<SearchReport<<G as Game>::Move>, SearchError>);

/// An engine searching, on a thread of its own, the position after the move a human is
/// expected to play (see [pondering](self#pondering)). Its engine is lent out of its seat
/// until [`Ponder::finish`] returns it; dropping a `Ponder` stops the search and waits for
/// its thread.
struct Ponder<G: Game> {
    /// The seat whose agent searches.
    seat: usize,
    /// The human move the search assumes; `None` when it searches the human's position.
    expected: Option<G::Move>,
    /// The seat's budget, spec and book, for its seat again.
    budget: Budget,
    spec: crate::spec::AgentSpec,
    book: Option<Arc<ply::book::Book<G>>>,
    /// How long the search may go on after a hit, counted from it.
    after_hit: Option<Duration>,
    stop: Arc<AtomicBool>,
    /// Receives (or is disconnected) when the search has ended.
    finished: mpsc::Receiver<()>,
    thread: Option<JoinHandle<Pondering<G>>>,
}

impl<G: Notation + Send + Sync + 'static> Ponder<G> {
    /// Starts pondering for the engine seat that moves after the human's reply: the position
    /// after `expected`, or the human's own position if that engine
    /// [ponders before the reply](Agent::ponders_before_reply). `None` if there is nothing
    /// to ponder: no expected move (for an engine that needs one), a reply that is illegal,
    /// ends the game or leads to a human's turn, or a position of the engine's book.
    fn start(session: &mut Session<G>, expected: Option<G::Move>) -> Option<Self> {
        let record = session.record();
        let game = record.game();
        let reply = match expected {
            Some(mv) => mv,
            None => {
                let mut legal = MoveList::new();
                game.generate_moves(record.state(), &mut legal);
                *legal.as_slice().first()?
            }
        };
        // The record after the reply, rules and repetitions checked as in play.
        let mut after = record.clone();
        after.play(reply).ok()?;
        if after.outcome().is_some() {
            return None;
        }
        let seat = game.to_move(after.state()).index();
        let engine = session.engines().get(seat)?.as_ref()?;
        let before_reply = engine.agent.ponders_before_reply();
        let (pondered, expected) = match (before_reply, expected) {
            (true, _) => (record.clone(), None),
            (false, Some(mv)) => (after.clone(), Some(mv)),
            (false, None) => return None,
        };
        // A position of the engine's book is answered from the book: nothing to ponder.
        let in_book =
            engine.book.as_ref().is_some_and(|b| !b.moves(game, after.state()).is_empty());
        if !before_reply && in_book {
            return None;
        }
        let Engine { mut agent, budget, spec, book } = session.lend_engine(seat)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut search = budget.clone();
        let after_hit = match (search.time.take(), search.clock.take()) {
            (Some(t), Some(c)) => Some(t.min(c.allotment())),
            (t, c) => t.or(c.map(|c| c.allotment())),
        }
        .map(|t| t.saturating_sub(Deadline::OVERHEAD));
        if search.is_unlimited() {
            search.time = Some(PONDER_TIME);
        }
        let search = search.with_stop(stop.clone());
        let (done, finished) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            let position = Position::with_history(pondered.state(), pondered.hashes());
            let result = agent.choose(pondered.game(), position, &search);
            let _ = done.send(());
            (agent, result)
        });
        Some(Ponder {
            seat,
            expected,
            budget,
            spec,
            book,
            after_hit,
            stop,
            finished,
            thread: Some(thread),
        })
    }

    /// Ends the search and returns the engine to its seat. After a hit (`hit`, only for a
    /// search of the position after the expected move) the search first goes on for the
    /// seat's time counted from now (or to its own limit), and its report is returned;
    /// otherwise it is stopped at once and its report dropped (an agent that pondered before
    /// the reply keeps its search for the next one).
    fn finish(mut self, session: &mut Session<G>, hit: bool) -> Option<SearchReport<G::Move>> {
        if hit {
            // A disconnected channel means the search thread has ended (or failed).
            let _ = match self.after_hit {
                Some(limit) => self.finished.recv_timeout(limit).map_err(|_| ()),
                None => self.finished.recv().map_err(|_| ()),
            };
        }
        self.stop.store(true, Ordering::SeqCst);
        let thread = self.thread.take()?;
        let (agent, result) =
            thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let engine = Engine {
            agent,
            budget: self.budget.clone(),
            spec: self.spec.clone(),
            book: self.book.clone(),
        };
        session.return_engine(self.seat, engine);
        match hit {
            true => result.ok(),
            false => None,
        }
    }
}

impl<G: Game> Drop for Ponder<G> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Stops a ponder search, if one runs, and returns its engine to its seat.
fn stop_pondering<G: Notation + Send + Sync + 'static>(
    ponder: &mut Option<Ponder<G>>,
    session: &mut Session<G>,
) {
    if let Some(p) = ponder.take() {
        p.finish(session, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::AgentKit;
    use crate::play::SessionConfig;
    use crate::spec::AgentSpec;
    use ply::games::{ConnectFour, TicTacToe};
    use ply::Outcome;
    use std::io;

    fn spec(text: &str) -> AgentSpec {
        text.parse().unwrap()
    }

    fn session_of<G: Notation + Send + Sync + 'static>(
        game: G,
        seats: Vec<Seat>,
        assistant: &str,
    ) -> Session<G> {
        let config = SessionConfig { seats, seed: 1, names: vec![], assistant: spec(assistant) };
        let start = game.initial_state();
        Session::new(Arc::new(game), start, &config, &AgentKit::default()).unwrap()
    }

    fn play_script(script: &str, seats: Vec<Seat>) -> (Ending, Vec<u8>, String) {
        let mut session = session_of(TicTacToe, seats, "alphabeta:depth=9");
        let config = TerminalConfig { echo: true, ..TerminalConfig::plain() };
        let mut out = Vec::new();
        let ending =
            play_terminal(&mut session, &config, &mut script.as_bytes(), &mut out).unwrap();
        (ending, session.record().moves().to_vec(), String::from_utf8(out).unwrap())
    }

    #[test]
    fn human_game_to_the_end() {
        let (ending, moves, out) =
            play_script("a3\nb3\nnonsense\nb2\n6\na2\nb1\na1\n", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::Finished(Outcome::Winner(Player(0))));
        assert_eq!(moves, vec![0, 1, 4, 8, 3, 7, 6]);
        assert!(out.contains("invalid square \"nonsense\""), "{out}");
        assert!(out.contains("result: player 1 wins"), "{out}");
        assert!(out.contains("moves: 1. a3 b3 2. b2 c1 3. a2 b1 4. a1"), "{out}");
    }

    /// A finished game stays open: `list`, `save`, `undo` and `new` work, other input gets
    /// the list of what does, and `quit` (or the end of the input) leaves it.
    #[test]
    fn a_finished_game_stays_open_until_quit() {
        let dir = std::env::temp_dir().join(format!("ply-after-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("won.txt");
        let won = "a3\nb3\nb2\n6\na2\nb1\na1\n";
        let script = format!("{won}list\nsave {}\nb3\nundo\na1\nquit\n", path.display());
        let (ending, moves, out) = play_script(&script, vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::Finished(Outcome::Winner(Player(0))), "{out}");
        assert_eq!(moves, vec![0, 1, 4, 8, 3, 7, 6], "{out}");
        // The result's score sheet, `list`, and the result again after `undo` and `a1`.
        assert_eq!(out.matches("moves: 1. a3 b3 2. b2 c1 3. a2 b1 4. a1").count(), 3, "{out}");
        assert!(out.contains("saved 7 moves to"), "{out}");
        assert!(std::fs::read_to_string(&path).unwrap().contains("a1"));
        assert!(out.contains("the game is over: list"), "{out}");
        assert!(out.contains("took back 1 moves"), "{out}");
        // `new` starts again; the end of the input leaves the game as it stands.
        let (ending, moves, out) =
            play_script(&format!("{won}new\na3\n"), vec![Seat::Human, Seat::Human]);
        assert_eq!((ending, moves), (Ending::EndOfInput, vec![0]), "{out}");
        assert!(out.contains("new game"), "{out}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn truncated_input_ends_cleanly() {
        let (ending, moves, out) = play_script("a3\nb3", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::EndOfInput);
        assert_eq!(moves, vec![0, 1]);
        assert!(out.contains("end of input"), "{out}");
        let (ending, _, _) = play_script("", vec![Seat::Human, Seat::Human]);
        assert_eq!(ending, Ending::EndOfInput);
    }

    #[test]
    fn undo_and_quit_against_an_engine() {
        let seats = vec![Seat::Human, Seat::Engine(spec("random:seed=3"))];
        let (ending, moves, out) = play_script("b2\n1\nundo\nundo\nundo\na1\nquit\n", seats);
        assert_eq!(ending, Ending::Quit);
        // b2, engine, the first listed move, engine; undo -> back before the listed move;
        // undo -> back before b2; nothing left; a1, engine reply.
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0], 6);
        assert_eq!(out.matches("took back 2 moves").count(), 2, "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
        assert!(out.contains("player 2 plays"), "{out}");
    }

    /// A terminal game on Connect Four fed through a pipe, so the test types each line when it
    /// chooses, with the output readable while the game runs.
    struct PipedGame {
        writer: io::PipeWriter,
        output: Arc<std::sync::Mutex<Vec<u8>>>,
        game: std::thread::JoinHandle<(Ending, Vec<u8>)>,
    }

    /// A writer the test reads while the game writes to it.
    struct SharedOut(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for SharedOut {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl PipedGame {
        fn start(engine: &str, ponder: bool) -> PipedGame {
            let (reader, writer) = io::pipe().unwrap();
            let output = Arc::new(std::sync::Mutex::new(Vec::new()));
            let mut out = SharedOut(output.clone());
            let seats = vec![Seat::Human, Seat::Engine(spec(engine))];
            let game = std::thread::spawn(move || {
                let mut session = session_of(ConnectFour::standard(), seats, "alphabeta:depth=6");
                let config = TerminalConfig { echo: true, ponder, ..TerminalConfig::plain() };
                let mut input = io::BufReader::new(reader);
                let ending = play_terminal(&mut session, &config, &mut input, &mut out).unwrap();
                (ending, session.record().moves().to_vec())
            });
            PipedGame { writer, output, game }
        }

        fn send(&mut self, line: &str) {
            writeln!(self.writer, "{line}").unwrap();
            self.writer.flush().unwrap();
        }

        fn text(&self) -> String {
            String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
        }

        /// The engine's lines, once there are `count` of them.
        fn engine_lines(&self, count: usize) -> Vec<String> {
            let begun = std::time::Instant::now();
            loop {
                let text = self.text();
                let mut lines: Vec<String> = Vec::new();
                let mut in_engine_line = false;
                for l in text.lines() {
                    if l.contains(" plays ") {
                        lines.push(l.to_string());
                        in_engine_line = true;
                    } else if in_engine_line && l.starts_with(ENGINE_INDENT) {
                        let last = lines.last_mut().expect("an engine line");
                        *last = format!("{last} {}", l.trim_start());
                    } else {
                        in_engine_line = false;
                    }
                }
                if lines.len() >= count || begun.elapsed() > Duration::from_secs(30) {
                    assert!(lines.len() >= count, "{}", self.text());
                    return lines;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }

        fn finish(self) -> (Ending, Vec<u8>, String) {
            drop(self.writer);
            let (ending, moves) = self.game.join().unwrap();
            let text = String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned();
            (ending, moves, text)
        }
    }

    /// The second move of the principal variation an engine line shows.
    fn expected_reply(engine_line: &str) -> String {
        let pv = engine_line.split("  pv ").nth(1).expect("a pv");
        pv.split_whitespace().nth(1).expect("a second pv move").to_string()
    }

    /// Plays column 4, then the reply the engine expects (or another one), with time to
    /// ponder in between and a `help` typed while it ponders.
    fn ponder_game(ponder: bool, hit: bool) -> (Vec<u8>, Vec<String>) {
        let mut game = PipedGame::start("alphabeta:depth=6", ponder);
        game.send("4");
        let expected = expected_reply(&game.engine_lines(1)[0]);
        std::thread::sleep(Duration::from_millis(200));
        game.send("help");
        std::thread::sleep(Duration::from_millis(100));
        assert!(game.text().contains("moves      show the legal moves again"), "{}", game.text());
        let reply =
            if hit { expected } else { (expected.parse::<usize>().unwrap() % 7 + 1).to_string() };
        game.send(&reply);
        let lines = game.engine_lines(2);
        game.send("quit");
        let (ending, moves, _) = game.finish();
        assert_eq!(ending, Ending::Quit);
        (moves, lines)
    }

    /// A ponder hit answers from the ponder search, and (a depth-limited search starting from
    /// a fresh table either way) with the same move as without pondering; a miss searches
    /// again and plays as without pondering too.
    #[test]
    fn pondering_engines_answer_hits_from_the_ponder_search_and_play_the_same_moves() {
        for hit in [true, false] {
            let (plain_moves, plain_lines) = ponder_game(false, hit);
            let (moves, lines) = ponder_game(true, hit);
            assert_eq!(moves, plain_moves, "hit {hit}");
            assert_eq!(moves.len(), 4, "hit {hit}");
            assert!(!plain_lines.iter().any(|l| l.contains("ponder hit")), "{plain_lines:?}");
            assert!(!lines[0].contains("ponder hit"), "{lines:?}");
            assert_eq!(lines[1].contains("(ponder hit)"), hit, "{lines:?}");
        }
    }

    /// MCTS ponders the human's own position, so that whatever the human plays its next
    /// search starts from the subtree of that move.
    #[test]
    fn mcts_keeps_the_pondered_subtree_of_any_reply() {
        for ponder in [false, true] {
            let mut game = PipedGame::start("mcts:iters=3000,seed=5", ponder);
            game.send("4");
            let first = game.engine_lines(1)[0].clone();
            // Let the ponder search (3,000 playouts of the human's position) end.
            std::thread::sleep(Duration::from_millis(300));
            // A reply other than the expected one.
            let expected = expected_reply(&first);
            game.send(if expected == "1" { "7" } else { "1" });
            let lines = game.engine_lines(2);
            game.send("quit");
            let (ending, moves, text) = game.finish();
            assert_eq!(ending, Ending::Quit);
            assert_eq!(moves.len(), 4, "{text}");
            // With pondering on, the engine ponders the opening position from the start, so
            // its first reply keeps playouts when the human's first move arrives late (a busy
            // machine); without pondering it never does.
            assert!(ponder || !lines[0].contains("pondered"), "{lines:?}");
            assert!(!lines[1].contains("ponder hit"), "{lines:?}");
            assert_eq!(lines[1].contains("(pondered: "), ponder, "{lines:?}");
        }
    }

    /// `undo` and the end of input while an engine ponders stop it and leave a sound game.
    #[test]
    fn undo_and_end_of_input_while_pondering() {
        let mut game = PipedGame::start("alphabeta:depth=6", true);
        game.send("4");
        game.engine_lines(1);
        game.send("undo");
        game.send("3");
        game.engine_lines(2);
        let (ending, moves, text) = game.finish();
        assert_eq!(ending, Ending::EndOfInput);
        assert_eq!(moves.len(), 2, "{text}");
        assert_eq!(moves[0], 2, "{text}");
        assert!(text.contains("took back 2 moves"), "{text}");
    }

    /// Waits, while the ponder search runs, until the stop flag is set or its time is up;
    /// plays the first legal move.
    struct Patient;

    impl Agent<TicTacToe> for Patient {
        fn name(&self) -> String {
            "patient".into()
        }
        fn choose(
            &mut self,
            game: &TicTacToe,
            position: Position<'_, <TicTacToe as Game>::State>,
            budget: &Budget,
        ) -> Result<SearchReport<u8>, SearchError> {
            let begun = std::time::Instant::now();
            while !budget.stop_requested() && budget.time.is_none_or(|t| begun.elapsed() < t) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut moves = MoveList::new();
            game.generate_moves(position.state, &mut moves);
            Ok(SearchReport::instant(moves[0], begun.elapsed()))
        }
    }

    /// A tic-tac-toe session whose second seat is the [`Patient`] agent with `time` a move.
    fn patient_session(time: Duration) -> Session<TicTacToe> {
        let seats = vec![Seat::Human, Seat::Engine(spec("random"))];
        let mut session = session_of(TicTacToe, seats, "random");
        let agent: Box<dyn Agent<TicTacToe> + Send> = Box::new(Patient);
        let engine = Engine { agent, budget: Budget::time(time), spec: spec("random"), book: None };
        session.return_engine(1, engine);
        session
    }

    #[test]
    fn a_ponder_hit_goes_on_for_the_seat_time_counted_from_the_hit() {
        let mut session = patient_session(Duration::from_millis(200));
        let ponder = Ponder::start(&mut session, Some(4)).expect("a ponder search");
        assert!(session.engines()[1].is_none(), "the engine is out of its seat while it ponders");
        // Far beyond the seat's 200 ms: the search waits for the human all the same.
        std::thread::sleep(Duration::from_millis(600));
        assert!(!ponder.thread.as_ref().unwrap().is_finished(), "pondering ended on its own");
        let hit = std::time::Instant::now();
        let report = ponder.finish(&mut session, true).expect("the pondered report");
        let after = hit.elapsed();
        assert!(after >= Duration::from_millis(100), "answered {after:?} after the hit");
        assert!(after < Duration::from_secs(5), "answered {after:?} after the hit");
        assert!(report.elapsed >= Duration::from_millis(600), "{:?}", report.elapsed);
        assert!(session.engines()[1].is_some(), "the engine is back in its seat");
    }

    #[test]
    fn a_missed_or_dropped_ponder_stops_at_once() {
        let mut session = patient_session(Duration::from_secs(60));
        let ponder = Ponder::start(&mut session, Some(4)).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let missed = std::time::Instant::now();
        assert!(ponder.finish(&mut session, false).is_none());
        assert!(missed.elapsed() < Duration::from_secs(5), "{:?}", missed.elapsed());
        assert!(session.engines()[1].is_some());
        // Dropped (an error on the way out of a turn): the search ends with it.
        let dropped = std::time::Instant::now();
        let ponder = Ponder::start(&mut session, Some(4)).unwrap();
        drop(ponder);
        assert!(dropped.elapsed() < Duration::from_secs(5), "{:?}", dropped.elapsed());
    }

    #[test]
    fn nothing_is_pondered_without_an_expected_move_for_an_engine() {
        let mut session = patient_session(Duration::from_secs(60));
        // Illegal, or leading to a seat with no engine.
        assert!(Ponder::start(&mut session, Some(9)).is_none());
        // No expected move: an agent that does not ponder before the reply waits.
        assert!(Ponder::start(&mut session, None).is_none());
        let mut both_human = session_of(TicTacToe, vec![Seat::Human, Seat::Human], "random");
        assert!(Ponder::start(&mut both_human, Some(4)).is_none());
    }
}
