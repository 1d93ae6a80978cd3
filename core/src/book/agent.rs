//! [`BookAgent`]: book moves while the game is in the book, another agent after.

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{search_value, Book};
use crate::game::Game;
use crate::search::{Agent, Budget, Position, SearchError, SearchReport};

/// The longest principal variation a book move reports (the book's main line after it).
const BOOK_LINE: usize = 16;

/// An agent that plays a book move when the position is in its [`Book`] and asks the inner
/// agent `A` otherwise.
///
/// Among the book moves within the margin of the best ([`Book::margin`] unless
/// [`BookAgent::with_margin`] sets one) it picks one at random from its seed, so games vary;
/// [`BookAgent::deterministic`] always plays the best. A book move is answered at once, with
/// the book's value, the book's main line as principal variation, and zero depth and nodes;
/// [`BookAgent::last_from_book`] says whether the last move came from the book.
pub struct BookAgent<G: Game, A> {
    inner: A,
    book: Option<Arc<Book<G>>>,
    margin: Option<f64>,
    rng: ChaCha8Rng,
    deterministic: bool,
    last_from_book: bool,
}

impl<G: Game, A: Agent<G>> BookAgent<G, A> {
    /// `inner` with `book` in front of it, seeded with 0.
    pub fn new(inner: A, book: impl Into<Arc<Book<G>>>) -> Self {
        Self::with_optional_book(inner, Some(book.into()))
    }

    /// `inner` with `book` in front of it when there is one: without a book the agent is
    /// `inner` alone (convenient where a book is an option).
    pub fn with_optional_book(inner: A, book: Option<Arc<Book<G>>>) -> Self {
        BookAgent {
            inner,
            book,
            margin: None,
            rng: ChaCha8Rng::seed_from_u64(0),
            deterministic: false,
            last_from_book: false,
        }
    }

    /// The same agent choosing among near-best book moves with `seed`.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self
    }

    /// The same agent choosing among the book moves within `margin` of the best (in the
    /// evaluation's units), instead of the book's own suggested margin.
    pub fn with_margin(mut self, margin: f64) -> Self {
        self.margin = Some(margin);
        self
    }

    /// The same agent always playing the best book move (the first listed on ties).
    pub fn deterministic(mut self) -> Self {
        self.deterministic = true;
        self
    }

    /// The book, if the agent has one.
    pub fn book(&self) -> Option<&Arc<Book<G>>> {
        self.book.as_ref()
    }

    /// The agent that plays out of the book.
    pub fn inner(&self) -> &A {
        &self.inner
    }

    /// The agent that plays out of the book, mutably.
    pub fn inner_mut(&mut self) -> &mut A {
        &mut self.inner
    }

    /// True if the last move [`Agent::choose`] answered came from the book.
    pub fn last_from_book(&self) -> bool {
        self.last_from_book
    }
}

impl<G: Game, A: Agent<G>> Agent<G> for BookAgent<G, A> {
    fn name(&self) -> String {
        match self.book {
            Some(_) => format!("{}+book", self.inner.name()),
            None => self.inner.name(),
        }
    }

    fn choose(
        &mut self,
        game: &G,
        position: Position<'_, G::State>,
        budget: &Budget,
    ) -> Result<SearchReport<G::Move>, SearchError> {
        let started = Instant::now();
        self.last_from_book = false;
        if let Some(book) = &self.book {
            let margin = self.margin.unwrap_or_else(|| book.margin());
            let rng = if self.deterministic { None } else { Some(&mut self.rng) };
            if let Some(chosen) = book.choose(game, position.state, margin, rng) {
                let mut after = position.state.clone();
                game.apply(&mut after, chosen.mv);
                let mut pv = vec![chosen.mv];
                pv.extend(book.line(game, &after, BOOK_LINE - 1));
                self.last_from_book = true;
                let mut report = SearchReport::instant(chosen.mv, started.elapsed());
                report.value = search_value(chosen.value);
                report.pv = pv;
                return Ok(report);
            }
        }
        self.inner.choose(game, position, budget)
    }

    fn ready(&mut self) -> Result<(), SearchError> {
        self.inner.ready()
    }

    fn observe(&mut self, game: &G, state_before: &G::State, mv: G::Move) {
        self.inner.observe(game, state_before, mv);
    }

    fn ponders_before_reply(&self) -> bool {
        self.inner.ponders_before_reply()
    }

    fn carried_over(&self) -> u64 {
        if self.last_from_book {
            0
        } else {
            self.inner.carried_over()
        }
    }

    fn new_game(&mut self) {
        self.last_from_book = false;
        self.inner.new_game();
    }
}
