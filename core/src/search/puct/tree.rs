//! The search tree of PUCT and Gumbel search: an arena of [`Node`]s linked by index, each
//! node's children in one contiguous block, with priors, visit counts, value sums, the
//! virtual losses of simulations still being evaluated, and the exact values proven so far.

/// The index that links to nothing (the root's parent, a node without children yet).
pub(super) const NONE: u32 = u32::MAX;

/// What is known of a node's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Not evaluated yet.
    New,
    /// Being evaluated by a simulation that has not backed up yet.
    Pending,
    /// Evaluated, with its children created.
    Expanded,
    /// Evaluated, but the tree had no room for its children: every visit evaluates it anew.
    Unexpanded,
    /// The game is over here.
    Terminal,
}

/// A node's exact value under perfect play (two-player games): the reward of the player who
/// moved into it (1 a win, 0.5 a draw, 0 a loss) and the plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Proof {
    pub(super) reward: f32,
    pub(super) plies: u32,
}

impl Proof {
    /// Whether the player choosing between two proven moves prefers `self`'s to `other`'s:
    /// the larger reward, then the faster win or the slower loss.
    fn better_than(self, other: Proof) -> bool {
        match self.reward.total_cmp(&other.reward) {
            std::cmp::Ordering::Equal if self.reward > 0.5 => self.plies < other.plies,
            std::cmp::Ordering::Equal => self.plies > other.plies,
            order => order.is_gt(),
        }
    }
}

/// One position of the tree. The state is not stored: a simulation replays the moves from
/// the root.
#[derive(Clone, Debug)]
pub(super) struct Node<M> {
    /// The move that led here (`None` only for a fresh root).
    pub(super) mv: Option<M>,
    pub(super) parent: u32,
    pub(super) first_child: u32,
    pub(super) num_children: u32,
    /// Simulations backed up through this node.
    pub(super) visits: u32,
    /// Simulations through this node not yet backed up (each counts as a loss meanwhile).
    pub(super) in_flight: u32,
    /// The policy's probability of the move that led here.
    pub(super) prior: f32,
    /// The network's value of the position for the player to move here, once evaluated.
    pub(super) own_value: f32,
    /// Sum of the rewards of `mover` over the simulations backed up.
    pub(super) value: f64,
    /// The seat of the player who moved into this node.
    pub(super) mover: u8,
    pub(super) status: Status,
    /// The exact value, once the game's end or the children's proofs settle it.
    pub(super) proof: Option<Proof>,
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>, parent: u32, mover: u8, prior: f32) -> Node<M> {
        Node {
            mv,
            parent,
            first_child: NONE,
            num_children: 0,
            visits: 0,
            in_flight: 0,
            prior,
            own_value: 0.5,
            value: 0.0,
            mover,
            status: Status::New,
            proof: None,
        }
    }

    /// The indices of the children (empty before expansion).
    pub(super) fn children(&self) -> std::ops::Range<usize> {
        match self.num_children {
            0 => 0..0,
            n => self.first_child as usize..self.first_child as usize + n as usize,
        }
    }

    /// Visits including those in flight.
    #[inline]
    pub(super) fn load(&self) -> u32 {
        self.visits + self.in_flight
    }

    /// The mover's mean reward, in-flight simulations counted as losses; `None` before any.
    /// A proven node's mean is its exact reward.
    #[inline]
    pub(super) fn mean(&self) -> Option<f64> {
        if let Some(proof) = self.proof {
            return Some(f64::from(proof.reward));
        }
        match self.load() {
            0 => None,
            n => Some(self.value / f64::from(n)),
        }
    }

    /// The mover's mean reward over the simulations backed up (0.5 before any), or the exact
    /// reward once proven.
    pub(super) fn settled_mean(&self) -> f64 {
        if let Some(proof) = self.proof {
            return f64::from(proof.reward);
        }
        match self.visits {
            0 => 0.5,
            n => self.value / f64::from(n),
        }
    }
}

/// The arena. Node 0 is the root.
#[derive(Clone, Debug)]
pub(super) struct Tree<M> {
    pub(super) nodes: Vec<Node<M>>,
}

impl<M: Copy + PartialEq> Tree<M> {
    /// A tree of one unevaluated root, into which the player in seat `mover` moved.
    pub(super) fn new(mover: u8) -> Tree<M> {
        Tree { nodes: vec![Node::new(None, NONE, mover, 1.0)] }
    }

    pub(super) fn root(&self) -> &Node<M> {
        &self.nodes[0]
    }

    /// The root's child reached by `mv`, if the root is expanded.
    pub(super) fn root_child(&self, mv: M) -> Option<usize> {
        self.root().children().find(|&i| self.nodes[i].mv == Some(mv))
    }

    /// Gives `parent` one child per move, with the priors given, the player in seat `mover`
    /// moving into them.
    pub(super) fn expand(&mut self, parent: usize, moves: &[M], priors: &[f32], mover: u8) {
        let first = self.nodes.len() as u32;
        for (&mv, &prior) in moves.iter().zip(priors) {
            self.nodes.push(Node::new(Some(mv), parent as u32, mover, prior));
        }
        let node = &mut self.nodes[parent];
        node.first_child = first;
        node.num_children = moves.len() as u32;
        node.status = Status::Expanded;
    }

    /// Adds a simulation in flight to `node` and every node above it.
    pub(super) fn add_in_flight(&mut self, mut node: usize) {
        loop {
            self.nodes[node].in_flight += 1;
            match self.nodes[node].parent {
                NONE => break,
                p => node = p as usize,
            }
        }
    }

    /// Backs up `rewards` (one per seat) from `node` to the root: each node counts a visit,
    /// loses a simulation in flight and adds its mover's reward.
    pub(super) fn backup(&mut self, mut node: usize, rewards: &[f32]) {
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.in_flight = n.in_flight.saturating_sub(1);
            n.value += f64::from(rewards[usize::from(n.mover) % rewards.len()]);
            match n.parent {
                NONE => break,
                p => node = p as usize,
            }
        }
    }

    /// Records `proof` for `node` and settles its ancestors where it decides them (two-player
    /// games, MCTS-Solver style): a parent is proven once one child wins for the player to
    /// move there, or once every child is proven, its value the best of them.
    pub(super) fn prove(&mut self, mut node: usize, mut proof: Proof) {
        loop {
            self.nodes[node].proof = Some(proof);
            let parent = match self.nodes[node].parent {
                NONE => return,
                p => p as usize,
            };
            if self.nodes[parent].proof.is_some() {
                return;
            }
            let Some((_, best, all)) = self.best_proven_child(parent) else { return };
            if best.reward < 1.0 && !all {
                return;
            }
            // The children's mover chooses; the parent's own mover gets its reward or the rest.
            let same = self.nodes[node].mover == self.nodes[parent].mover;
            let reward = if same { best.reward } else { 1.0 - best.reward };
            proof = Proof { reward, plies: best.plies + 1 };
            node = parent;
        }
    }

    /// The best proven child of `parent` for the player to move there (its index and proof),
    /// and whether every child is proven; `None` if none is.
    fn best_proven_child(&self, parent: usize) -> Option<(usize, Proof, bool)> {
        let mut best: Option<(usize, Proof)> = None;
        let mut all = true;
        for i in self.nodes[parent].children() {
            match self.nodes[i].proof {
                Some(p) if best.is_none_or(|(_, b)| p.better_than(b)) => best = Some((i, p)),
                Some(_) => {}
                None => all = false,
            }
        }
        best.map(|(i, b)| (i, b, all))
    }

    /// Whether the root's children settle its value: one is a proven win for the player to
    /// move, or all are proven. (A root proven otherwise, by a move that wins at once found
    /// when it was a leaf, still needs that move visited.)
    pub(super) fn root_settled(&self) -> bool {
        self.best_proven_child(0).is_some_and(|(_, proof, all)| proof.reward >= 1.0 || all)
    }

    /// The root child to play instead of `chosen` (the most visited, or Gumbel search's
    /// pick) where proofs decide: a proven win (the fastest), the best child once all are
    /// proven (but `chosen` when all lose), and never a proven loss while another child may
    /// do better.
    pub(super) fn proven_choice(&self, chosen: usize) -> usize {
        let Some((best, proof, all)) = self.best_proven_child(0) else { return chosen };
        if all && proof.reward <= 0.0 {
            // Every move loses against perfect play: the search's choice is the hardest to
            // refute for an opponent that is not perfect.
            return chosen;
        }
        if proof.reward >= 1.0 || all {
            return best;
        }
        let lost = |i: usize| self.nodes[i].proof.is_some_and(|p| p.reward <= 0.0);
        if !lost(chosen) {
            return chosen;
        }
        self.root()
            .children()
            .filter(|&i| !lost(i))
            .max_by_key(|&i| self.nodes[i].visits)
            .unwrap_or(chosen)
    }

    /// The subtree under the root's child `child` as a tree of its own (its root keeps its
    /// statistics), nodes renumbered breadth first.
    pub(super) fn subtree(&self, child: usize) -> Tree<M> {
        let mut nodes = Vec::new();
        let mut root = self.nodes[child].clone();
        root.parent = NONE;
        nodes.push(root);
        let mut next = 0;
        while next < nodes.len() {
            let range = nodes[next].children();
            if !range.is_empty() {
                let first = nodes.len() as u32;
                for old in range {
                    let mut kid = self.nodes[old].clone();
                    kid.parent = next as u32;
                    nodes.push(kid);
                }
                nodes[next].first_child = first;
            }
            next += 1;
        }
        for node in &mut nodes {
            node.in_flight = 0;
            if node.status == Status::Pending {
                node.status = Status::New;
            }
        }
        Tree { nodes }
    }

    /// The index of `node`'s most visited child (ties to the better mean), if it has one
    /// visited.
    pub(super) fn most_visited(&self, node: usize) -> Option<usize> {
        self.nodes[node].children().filter(|&i| self.nodes[i].visits > 0).max_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            x.visits.cmp(&y.visits).then(x.settled_mean().total_cmp(&y.settled_mean()))
        })
    }

    /// The line of most visited moves from the root's child `first`.
    pub(super) fn principal_variation(&self, first: usize) -> Vec<M> {
        let mut pv = Vec::new();
        let mut node = first;
        loop {
            pv.push(self.nodes[node].mv.expect("every child has a move"));
            match self.most_visited(node) {
                Some(next) => node = next,
                None => return pv,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backup_counts_rewards_of_each_mover_and_clears_flight() {
        let mut t: Tree<u8> = Tree::new(1);
        t.expand(0, &[10, 11], &[0.7, 0.3], 0);
        t.expand(1, &[20], &[1.0], 1);
        t.add_in_flight(3);
        assert_eq!((t.nodes[0].in_flight, t.nodes[1].in_flight, t.nodes[3].in_flight), (1, 1, 1));
        assert_eq!(t.nodes[1].mean(), Some(0.0), "in flight counts as a loss");
        t.backup(3, &[0.9, 0.1]);
        assert_eq!((t.nodes[0].visits, t.nodes[1].visits, t.nodes[3].visits), (1, 1, 1));
        assert_eq!(t.nodes[1].in_flight, 0);
        assert!((t.nodes[1].value - 0.9).abs() < 1e-6 && (t.nodes[3].value - 0.1).abs() < 1e-6);
    }

    #[test]
    fn a_subtree_keeps_its_statistics_and_links() {
        let mut t: Tree<u8> = Tree::new(1);
        t.expand(0, &[10, 11], &[0.5, 0.5], 0);
        t.expand(2, &[20, 21], &[0.5, 0.5], 1);
        t.expand(4, &[30], &[1.0], 0);
        t.backup(5, &[0.25, 0.75]);
        let sub = t.subtree(2);
        assert_eq!(sub.nodes.len(), 4);
        assert_eq!(sub.root().visits, 1);
        assert_eq!(sub.root().parent, NONE);
        assert_eq!(sub.root_child(20), Some(1));
        assert_eq!(sub.nodes[1].num_children, 0);
        assert_eq!(sub.nodes[sub.nodes[2].first_child as usize].mv, Some(30));
        assert_eq!(sub.principal_variation(2), vec![21, 30]);
    }

    /// Root (player 0 to move) with moves 10 and 11; below 10, player 1 has 20 and 21; below
    /// 11, player 0 moves again (an extra turn) with 30.
    fn small_tree() -> Tree<u8> {
        let mut t: Tree<u8> = Tree::new(1);
        t.expand(0, &[10, 11], &[0.5, 0.5], 0);
        t.expand(1, &[20, 21], &[0.5, 0.5], 1);
        t.expand(2, &[30], &[1.0], 0);
        t
    }

    #[test]
    fn a_win_below_proves_the_parent_and_every_move_proven_settles_it() {
        let mut t = small_tree();
        // Player 1 wins at 20: move 10 is a loss for player 0, in two plies.
        t.prove(3, Proof { reward: 1.0, plies: 0 });
        assert_eq!(t.nodes[1].proof, Some(Proof { reward: 0.0, plies: 1 }));
        assert_eq!(t.nodes[1].mean(), Some(0.0));
        assert_eq!(t.root().proof, None, "move 11 is still open");
        // The root must not play the proven loss while 11 may do better.
        assert_eq!(t.proven_choice(1), 2);
        // Player 0 draws after the extra turn: 11 is a draw for player 0 itself, and with
        // every move proven the root is settled by its best, the draw.
        t.prove(5, Proof { reward: 0.5, plies: 0 });
        assert_eq!(t.nodes[2].proof, Some(Proof { reward: 0.5, plies: 1 }));
        assert_eq!(t.root().proof, Some(Proof { reward: 0.5, plies: 2 }));
        assert_eq!(t.proven_choice(1), 2);
        assert!(t.root_settled());
        // A root proven on its own (a win at once seen when it was a leaf) is not settled
        // until the winning move is visited.
        let mut t = small_tree();
        t.nodes[0].proof = Some(Proof { reward: 0.0, plies: 1 });
        assert!(!t.root_settled());
    }

    #[test]
    fn the_fastest_win_and_the_slowest_loss_are_preferred() {
        let win = |plies| Proof { reward: 1.0, plies };
        let loss = |plies| Proof { reward: 0.0, plies };
        assert!(win(1).better_than(win(3)) && !win(3).better_than(win(1)));
        assert!(loss(5).better_than(loss(1)));
        assert!(Proof { reward: 0.5, plies: 9 }.better_than(loss(20)));
        let mut t = small_tree();
        t.prove(2, win(7));
        // The first win settles the root (a loss for player 1, who moved into it); a faster
        // one found later is still the move to play.
        assert_eq!(t.root().proof, Some(Proof { reward: 0.0, plies: 8 }));
        t.prove(1, win(3));
        assert_eq!(t.proven_choice(2), 1);
    }
}
