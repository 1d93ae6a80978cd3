//! Drop-out expansion (Thomas Lincke, "Strategies for the Automatic Construction of Opening
//! Books", Computers and Games 2000, LNCS 2063, 2001): grow a book from the start position by
//! expanding, again and again, the leaf that play is most likely to reach.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use super::{book_value, check_game, hash_of, Book, BookError, BookMove, PROVEN, WIN};
use crate::game::{Game, MoveList, Outcome, Score};
use crate::search::{Agent, Budget, Position, SearchError};

/// The default drop-out weight: what one more ply from the start costs, in the
/// evaluation's units (a twentieth of a man in the checkers and draughts evaluations, which
/// count hundredths of a man: a move 5 worse than the best is expanded as late as the best
/// move one ply deeper).
pub const DEFAULT_WEIGHT: f64 = 5.0;

/// Forced moves followed before a leaf is searched.
const MAX_FORCED: usize = 64;

/// One position of the tree being built.
struct Node<G: Game> {
    state: G::State,
    hash: u64,
    /// The moves from the start that first reached it.
    path: Vec<G::Move>,
    /// The moves and the nodes they lead to, once expanded.
    children: Option<Vec<(G::Move, usize)>>,
    /// The expanded nodes with a move to this one.
    parents: Vec<usize>,
    /// The minimax value for the side to move (the leaf's evaluation before expansion).
    value: f64,
    /// The game is over here: nothing to expand.
    terminal: bool,
}

/// A book under construction by drop-out expansion, for a two-player game.
///
/// The tree starts at the game's initial state. Each [`DropOut::expand_next`] takes the leaf
/// with the best (lowest) *expansion priority* and adds all its children, each evaluated by
/// the caller (usually [`leaf_value`], an alpha-beta search); the values are then backed up
/// by minimax to the root (negated across a move that passes the turn, kept across one after
/// which the same player moves again). A leaf's priority is the cheapest way to reach it from the root,
/// where each move costs the drop-out weight (one ply deeper) plus the value it loses
/// against the best move of its position: lines that good play follows are expanded deep,
/// lines that lose a little are expanded less, blunders hardly at all. Positions reached by
/// several move orders are one node (the tree is a graph keyed by [`Game::hash`]).
pub struct DropOut<'g, G: Game> {
    game: &'g G,
    nodes: Vec<Node<G>>,
    index: HashMap<u64, usize>,
    weight: f64,
}

/// A priority-queue item: lower cost first, then lower node index.
#[derive(PartialEq)]
struct Item(f64, usize);

impl Eq for Item {}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then_with(|| other.1.cmp(&self.1))
    }
}

/// The value of a finished game for the side to move at `state`.
fn outcome_value<G: Game>(game: &G, state: &G::State, outcome: &Outcome) -> f64 {
    match outcome.margin(game.to_move(state)).signum() {
        1 => WIN,
        -1 => -WIN,
        _ => 0.0,
    }
}

/// The value of `state` for its side to move by a search of `agent` within `budget`: forced
/// moves are played first (a search answers those without a value), a finished game is
/// worth its result, and the search's [`Value`](crate::search::Value) becomes a book value
/// ([`book_value`]); a search with no value falls back on the game's static evaluation.
///
/// # Errors
/// The search's error.
pub fn leaf_value<G: Game, A: Agent<G> + ?Sized>(
    game: &G,
    agent: &mut A,
    budget: &Budget,
    state: &G::State,
) -> Result<f64, SearchError> {
    let mut state = state.clone();
    // +1 while the player to move is the one of `state` (forced moves may keep the turn).
    let player = game.to_move(&state);
    let sign = |s: &G::State| if game.to_move(s) == player { 1.0 } else { -1.0 };
    let mut moves = MoveList::new();
    for _ in 0..MAX_FORCED {
        if let Some(outcome) = game.outcome(&state) {
            return Ok(sign(&state) * outcome_value(game, &state, &outcome));
        }
        moves.clear();
        game.generate_moves(&state, &mut moves);
        match moves.len() {
            0 => return Err(SearchError::NoLegalMoves),
            1 => game.apply(&mut state, moves[0]),
            _ => {
                let report = agent.choose(game, Position::new(&state), budget)?;
                let value = book_value(report.value)
                    .unwrap_or_else(|| game.evaluate(&state, game.to_move(&state)).to_f64());
                return Ok(sign(&state) * value);
            }
        }
    }
    Ok(sign(&state) * game.evaluate(&state, game.to_move(&state)).to_f64())
}

impl<'g, G: Game> DropOut<'g, G> {
    /// A tree of the initial position alone, to be expanded with drop-out weight `weight`
    /// (see [`DEFAULT_WEIGHT`]).
    ///
    /// # Errors
    /// [`BookError::NotTwoPlayers`] or [`BookError::NoHash`] for a game that cannot have a
    /// book.
    pub fn new(game: &'g G, weight: f64) -> Result<Self, BookError> {
        check_game(game)?;
        let state = game.initial_state();
        let hash = hash_of(game, &state)?;
        let terminal = game.outcome(&state).is_some();
        let root = Node {
            state,
            hash,
            path: Vec::new(),
            children: None,
            parents: Vec::new(),
            value: 0.0,
            terminal,
        };
        let weight = if weight.is_finite() { weight.max(0.0) } else { DEFAULT_WEIGHT };
        Ok(DropOut { game, nodes: vec![root], index: HashMap::from([(hash, 0)]), weight })
    }

    /// The tree of a book built earlier (to go on expanding it): its positions are the
    /// expanded nodes, their book moves the children, whose values are taken as they are.
    ///
    /// # Errors
    /// As [`DropOut::new`].
    pub fn from_book(game: &'g G, book: &Book<G>, weight: f64) -> Result<Self, BookError> {
        let mut tree = DropOut::new(game, weight)?;
        for entry in book.entries() {
            let mut state = game.initial_state();
            for &mv in &entry.path {
                game.apply(&mut state, mv);
            }
            let i = tree.node(state.clone(), entry.path.clone(), 0.0)?;
            if tree.nodes[i].children.is_some() || tree.nodes[i].terminal {
                continue;
            }
            let mut children = Vec::with_capacity(entry.moves.len());
            let mut legal = MoveList::new();
            game.generate_moves(&state, &mut legal);
            let in_order = legal.iter().filter_map(|mv| entry.moves.iter().find(|m| m.mv == *mv));
            for m in in_order {
                let mut child = state.clone();
                game.apply(&mut child, m.mv);
                let mut path = entry.path.clone();
                path.push(m.mv);
                // The book move's value is for the side to move here; the child's is for its own.
                let same = game.to_move(&child) == game.to_move(&state);
                let j = tree.node(child, path, if same { m.value } else { -m.value })?;
                if j != i && !tree.reaches(j, i) {
                    children.push((m.mv, j));
                }
            }
            for &(_, j) in &children {
                tree.nodes[j].parents.push(i);
            }
            tree.nodes[i].children = Some(children);
        }
        tree.recompute();
        Ok(tree)
    }

    /// The node of `state`, created with `value` (and `path`) if it is new.
    fn node(
        &mut self,
        state: G::State,
        path: Vec<G::Move>,
        value: f64,
    ) -> Result<usize, BookError> {
        let hash = hash_of(self.game, &state)?;
        if let Some(&i) = self.index.get(&hash) {
            return Ok(i);
        }
        let outcome = self.game.outcome(&state);
        let value = match &outcome {
            Some(o) => outcome_value(self.game, &state, o),
            None => value,
        };
        let i = self.nodes.len();
        self.nodes.push(Node {
            state,
            hash,
            path,
            children: None,
            parents: Vec::new(),
            value,
            terminal: outcome.is_some(),
        });
        self.index.insert(hash, i);
        Ok(i)
    }

    /// The drop-out weight.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// Positions in the tree: expanded ones and leaves.
    pub fn positions(&self) -> usize {
        self.nodes.len()
    }

    /// Positions expanded (the positions of the book).
    pub fn expanded(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.as_ref().is_some_and(|c| !c.is_empty())).count()
    }

    /// The minimax value of the start position for its side to move (0 before the first
    /// expansion).
    pub fn value(&self) -> f64 {
        self.nodes[0].value
    }

    /// True if `to` can be reached from `from` through expanded nodes (or is `from`).
    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![from];
        while let Some(i) = stack.pop() {
            if i == to {
                return true;
            }
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            if let Some(children) = &self.nodes[i].children {
                stack.extend(children.iter().map(|&(_, j)| j));
            }
        }
        false
    }

    /// The expansion priority of every node (lower is sooner; infinite where unreachable).
    fn priorities(&self) -> Vec<f64> {
        let mut cost = vec![f64::INFINITY; self.nodes.len()];
        cost[0] = 0.0;
        let mut heap = BinaryHeap::from([Item(0.0, 0)]);
        while let Some(Item(c, i)) = heap.pop() {
            if c > cost[i] {
                continue;
            }
            let node = &self.nodes[i];
            let Some(children) = &node.children else {
                continue;
            };
            for &(_, j) in children {
                let loss = (node.value - self.move_value(i, j)).max(0.0);
                let next = c + self.weight + loss;
                if next < cost[j] {
                    cost[j] = next;
                    heap.push(Item(next, j));
                }
            }
        }
        cost
    }

    /// The leaf to expand next and its priority: the unexpanded, unfinished position
    /// (not a proven win or loss) with the lowest expansion priority.
    pub fn next_leaf(&self) -> Option<(Vec<G::Move>, f64)> {
        self.next().map(|(i, c)| (self.nodes[i].path.clone(), c))
    }

    fn next(&self) -> Option<(usize, f64)> {
        let cost = self.priorities();
        self.nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| {
                n.children.is_none()
                    && !n.terminal
                    && n.value.abs() < PROVEN
                    && cost[*i].is_finite()
                    && (*i == 0 || !n.parents.is_empty())
            })
            .map(|(i, _)| (i, cost[i]))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    }

    /// Expands the leaf with the best expansion priority: every child position not yet in
    /// the tree is evaluated by `evaluate` (its value for the side to move there; finished
    /// games are scored by their result without it), then the values are backed up. Returns
    /// the number of positions added, or `None` when no leaf is left to expand.
    ///
    /// # Errors
    /// The first error of `evaluate`; the tree is left as it was before the call (positions
    /// already evaluated are kept, unattached, and reused by the next expansion).
    pub fn expand_next<F>(&mut self, mut evaluate: F) -> Result<Option<usize>, SearchError>
    where
        F: FnMut(&G::State) -> Result<f64, SearchError>,
    {
        let Some((x, _)) = self.next() else {
            return Ok(None);
        };
        let game = self.game;
        let state = self.nodes[x].state.clone();
        let mut moves = MoveList::new();
        game.generate_moves(&state, &mut moves);
        let before = self.nodes.len();
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let Some(hash) = game.hash(&child) else {
                return Err(SearchError::Unsupported {
                    algorithm: "opening book",
                    reason: BookError::NoHash.to_string(),
                });
            };
            let j = match self.index.get(&hash) {
                Some(&j) => j,
                None => {
                    let value = match game.outcome(&child) {
                        Some(_) => 0.0,
                        None => evaluate(&child)?,
                    };
                    let mut path = self.nodes[x].path.clone();
                    path.push(mv);
                    self.node(child, path, value).map_err(|e| SearchError::Unsupported {
                        algorithm: "opening book",
                        reason: e.to_string(),
                    })?
                }
            };
            // A move back to a position on the way here would make a cycle: it stays out.
            if j != x && !self.reaches(j, x) {
                children.push((mv, j));
            }
        }
        for &(_, j) in &children {
            self.nodes[j].parents.push(x);
        }
        if children.is_empty() {
            self.nodes[x].terminal = true;
        } else {
            self.nodes[x].children = Some(children);
            self.back_up(x);
        }
        Ok(Some(self.nodes.len() - before))
    }

    /// The value of child `j` for the side to move at its parent `i`: the child's own value
    /// where the same player moves again there, its negation where the opponent moves.
    fn move_value(&self, i: usize, j: usize) -> f64 {
        let game = self.game;
        let same = game.to_move(&self.nodes[i].state) == game.to_move(&self.nodes[j].state);
        if same {
            self.nodes[j].value
        } else {
            -self.nodes[j].value
        }
    }

    /// The minimax value of an expanded node from its children, for its side to move.
    fn backed_up(&self, i: usize) -> Option<f64> {
        let children = self.nodes[i].children.as_ref().filter(|c| !c.is_empty())?;
        Some(children.iter().map(|&(_, j)| self.move_value(i, j)).fold(f64::NEG_INFINITY, f64::max))
    }

    /// Backs up values from node `x` (just expanded) to every ancestor that changes.
    fn back_up(&mut self, x: usize) {
        let mut work = vec![x];
        while let Some(i) = work.pop() {
            let Some(v) = self.backed_up(i) else {
                continue;
            };
            if v != self.nodes[i].value || i == x {
                self.nodes[i].value = v;
                work.extend(self.nodes[i].parents.iter().copied());
            }
        }
    }

    /// Recomputes every expanded node's value from the leaves (children before parents).
    fn recompute(&mut self) {
        // Post-order over the graph from the root.
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![(0usize, false)];
        while let Some((i, done)) = stack.pop() {
            if done {
                order.push(i);
                continue;
            }
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            stack.push((i, true));
            if let Some(children) = &self.nodes[i].children {
                stack.extend(children.iter().filter(|&&(_, j)| !seen[j]).map(|&(_, j)| (j, false)));
            }
        }
        for i in order {
            if let Some(v) = self.backed_up(i) {
                self.nodes[i].value = v;
            }
        }
    }

    /// The book: every expanded position reachable from the start, in breadth-first order
    /// from the start (children in move generation order), each named by the first path
    /// found that way, with each of its moves and their values for the side to move.
    pub fn book(&self) -> Book<G> {
        let mut book = Book::new();
        let mut paths: Vec<Option<Vec<G::Move>>> = vec![None; self.nodes.len()];
        paths[0] = Some(Vec::new());
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            let node = &self.nodes[i];
            let Some(children) = node.children.as_ref().filter(|c| !c.is_empty()) else {
                continue;
            };
            let path = paths[i].clone().unwrap_or_default();
            for &(mv, j) in children {
                if paths[j].is_none() {
                    let mut next = path.clone();
                    next.push(mv);
                    paths[j] = Some(next);
                    queue.push_back(j);
                }
            }
            let moves =
                children.iter().map(|&(mv, j)| BookMove { mv, value: self.move_value(i, j) });
            book.insert(path, node.hash, moves.collect());
        }
        book
    }
}
