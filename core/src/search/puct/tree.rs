//! The search tree of PUCT and Gumbel search: an arena of [`Node`]s linked by index, each
//! node's children in one contiguous block, with priors, visit counts, value sums and the
//! virtual losses of simulations still being evaluated.

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
    #[inline]
    pub(super) fn mean(&self) -> Option<f64> {
        match self.load() {
            0 => None,
            n => Some(self.value / f64::from(n)),
        }
    }

    /// The mover's mean reward over the simulations backed up (0.5 before any).
    pub(super) fn settled_mean(&self) -> f64 {
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
}
