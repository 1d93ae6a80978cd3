//! The endgame tables an agent kit keeps: a game's tables in a directory, opened on first use
//! ([`LazyTables`], shared as a [`Solver`]), and the evaluation that asks them before its
//! own ([`WithSolver`]). The `egdb` command that builds and checks them is [`crate::egdb`].

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ply::endgame::{EndgameIndex, Tables};
use ply::eval::Evaluator;
use ply::{Game, Player, Solved, SolverBudget};

/// A game's endgame tables as an agent kit keeps them, type-erased: what answers the
/// searches ([`WithSolver`]) and the terminal.
pub trait TableSource<G: Game>: Send + Sync {
    /// The tables' verdict on `state`, as far as the draw rules let it stand
    /// ([`Tables::solve`]).
    fn solve(&self, game: &G, state: &G::State) -> Option<Solved>;

    /// What the tables hold, for a program's first lines (`None` when there are none).
    fn describe(&self, game: &G) -> Option<String>;
}

/// A shared [`TableSource`].
pub type Solver<G> = Arc<dyn TableSource<G>>;

/// `text` cut to 300 characters: a damaged file's text in a message stays readable.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// A game's tables in a directory, opened on the first question with the game it is asked
/// about (and nothing ever after when the directory holds no tables of that game).
pub struct LazyTables<G: EndgameIndex> {
    dir: PathBuf,
    /// The tables; `Err(None)` when the directory holds none of this game, `Err(Some(why))`
    /// when they are there but do not read.
    tables: OnceLock<Result<Tables<G::Slice>, Option<String>>>,
}

impl<G: EndgameIndex> LazyTables<G> {
    /// The tables in `dir`, not opened yet.
    pub fn new(dir: &Path) -> LazyTables<G> {
        LazyTables { dir: dir.to_path_buf(), tables: OnceLock::new() }
    }

    /// Opens the tables once. A directory without tables of this game is silence; tables that
    /// are there but do not read (damaged, or of an older format) are said once on stderr
    /// and by [`TableSource::describe`], and the search goes on without them.
    fn open(&self, game: &G) -> &Result<Tables<G::Slice>, Option<String>> {
        self.tables.get_or_init(|| match Tables::open(game, &self.dir) {
            Ok(tables) => Ok(tables),
            Err(ply::endgame::TableFileError::NotFound { .. }) => Err(None),
            Err(e) => {
                let why = shorten(&e.to_string());
                eprintln!("warning: endgame tables not used: {why}");
                Err(Some(why))
            }
        })
    }
}

impl<G: EndgameIndex> TableSource<G> for LazyTables<G> {
    #[inline]
    fn solve(&self, game: &G, state: &G::State) -> Option<Solved> {
        self.open(game).as_ref().ok()?.solve(game, state).map(Solved::from)
    }

    fn describe(&self, game: &G) -> Option<String> {
        match self.open(game) {
            Ok(t) => Some(format!(
                "endgame tables: every position with up to {} pieces ({})",
                t.pieces(),
                t.dir().display()
            )),
            Err(Some(why)) => Some(format!("endgame tables not used: {why}")),
            Err(None) => None,
        }
    }
}

/// [`LazyTables`] in `dir`, shared.
pub fn lazy_solver<G: EndgameIndex + 'static>(dir: &Path) -> Solver<G> {
    Arc::new(LazyTables::<G>::new(dir))
}

/// An evaluation with an optional exact solver ([`Evaluator::solve`]): the evaluation every
/// registered search runs with, the solver being the game's endgame tables when the agent
/// uses them.
pub struct WithSolver<E, G: Game> {
    inner: E,
    solver: Option<Solver<G>>,
}

impl<E, G: Game> WithSolver<E, G> {
    /// `inner`, with `solver` answering the positions it knows.
    pub fn new(inner: E, solver: Option<Solver<G>>) -> WithSolver<E, G> {
        WithSolver { inner, solver }
    }
}

impl<E: Clone, G: Game> Clone for WithSolver<E, G> {
    fn clone(&self) -> Self {
        WithSolver { inner: self.inner.clone(), solver: self.solver.clone() }
    }
}

impl<E: Evaluator<G>, G: Game + 'static> Evaluator<G> for WithSolver<E, G> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State, player: Player) -> G::Score {
        self.inner.evaluate(game, state, player)
    }

    #[inline]
    fn solve(
        &self,
        game: &G,
        state: &G::State,
        alpha: i32,
        beta: i32,
        budget: &mut SolverBudget<'_>,
    ) -> Option<Solved> {
        let own = self.inner.solve(game, state, alpha, beta, budget);
        match &self.solver {
            Some(tables) => own.or_else(|| tables.solve(game, state)),
            None => own,
        }
    }

    #[inline]
    fn worth_caching(&self) -> bool {
        self.inner.worth_caching()
    }
}
