//! The search tree: an arena of [`Node`]s linked by index, with the children of a node in one
//! contiguous block, and the proof values of MCTS-Solver.

/// The index that links to nothing (the root's parent).
pub(super) const NONE: u32 = u32::MAX;

/// A node's children have been created (or it was found to be terminal).
pub(super) const EXPANDED: u8 = 1;
/// The node's state has no legal move.
pub(super) const TERMINAL: u8 = 2;

/// A proven game-theoretic value, from the point of view of the player who moved into the
/// node. Distances count plies from the node's own state to the end of the game along the
/// proof, so they bound the length of the win from above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    /// Not proven yet.
    Unknown,
    /// The mover wins within this many plies.
    Win(u32),
    /// The mover loses within this many plies.
    Loss(u32),
    /// Best play draws.
    Draw,
}

impl Proof {
    /// True for a proven value.
    #[inline]
    pub(super) fn is_known(self) -> bool {
        self != Proof::Unknown
    }

    /// The same value seen by the other player of a two-player game.
    #[inline]
    pub(super) fn flip(self) -> Proof {
        match self {
            Proof::Win(d) => Proof::Loss(d),
            Proof::Loss(d) => Proof::Win(d),
            other => other,
        }
    }

    /// The proof of a terminal state whose mover gets `reward` in a two-player game.
    pub(super) fn from_reward(reward: f64) -> Proof {
        if reward > 0.5 {
            Proof::Win(0)
        } else if reward < 0.5 {
            Proof::Loss(0)
        } else {
            Proof::Draw
        }
    }
}

/// One position of the tree. The state itself is not stored: a search replays the moves from
/// the root.
#[derive(Clone, Debug)]
pub(super) struct Node<M> {
    /// The move that led here (`None` only for a fresh root).
    pub(super) mv: Option<M>,
    /// The parent's index, [`NONE`] for the root.
    pub(super) parent: u32,
    /// The index of the first child; the children are `first_child..first_child + num_children`.
    pub(super) first_child: u32,
    /// How many children the node has once expanded.
    pub(super) num_children: u32,
    /// Playouts through this node.
    pub(super) visits: u32,
    /// The seat of the player who moved into this node.
    pub(super) mover: u8,
    /// [`EXPANDED`] and [`TERMINAL`] bits.
    pub(super) flags: u8,
    /// Proven value for `mover` (MCTS-Solver).
    pub(super) proof: Proof,
    /// Sum of `mover`'s rewards over the playouts through this node.
    pub(super) reward: f64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32, mover: u8) -> Self {
        Node {
            mv,
            parent,
            first_child: NONE,
            num_children: 0,
            visits: 0,
            mover,
            flags: 0,
            proof: Proof::Unknown,
            reward: 0.0,
        }
    }

    /// True once the children exist (or the node is terminal).
    #[inline]
    pub(super) fn is_expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }

    /// True if the node's state has no legal move.
    #[inline]
    pub(super) fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }

    /// The indices of the children (empty before expansion).
    #[inline]
    pub(super) fn children(&self) -> std::ops::Range<usize> {
        if self.num_children == 0 {
            0..0
        } else {
            let first = self.first_child as usize;
            first..first + self.num_children as usize
        }
    }

    /// Mean reward of the mover (0.5 before any visit).
    #[inline]
    pub(super) fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

/// An arena of nodes, the root at index 0.
#[derive(Clone, Debug)]
pub(super) struct Tree<M> {
    pub(super) nodes: Vec<Node<M>>,
}

impl<M: Copy> Tree<M> {
    /// A tree with only a root, entered by `mover`.
    #[cfg(test)]
    pub(super) fn new(mover: u8) -> Self {
        Tree::with_capacity(mover, 1)
    }

    /// A tree with room for `capacity` nodes reserved at once, so that it never grows (and
    /// copies itself) during a search: the memory is mapped now and touched as the tree grows.
    pub(super) fn with_capacity(mover: u8, capacity: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity.max(1));
        nodes.push(Node::new(None, NONE, mover));
        Tree { nodes }
    }

    /// The root node.
    #[inline]
    pub(super) fn root(&self) -> &Node<M> {
        &self.nodes[0]
    }

    /// Number of nodes in the arena.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Appends the children of `parent`, one per move of `moves`, all entered by `mover`.
    pub(super) fn expand(&mut self, parent: usize, moves: &[M], mover: u8) {
        let first = self.nodes.len();
        self.nodes.extend(moves.iter().map(|&mv| Node::new(Some(mv), parent as u32, mover)));
        let node = &mut self.nodes[parent];
        node.first_child = first as u32;
        node.num_children = moves.len() as u32;
        node.flags |= EXPANDED;
    }

    /// The child of the root reached by `mv`, if the root is expanded and has one.
    pub(super) fn root_child(&self, mv: M) -> Option<usize>
    where
        M: PartialEq,
    {
        self.root().children().find(|&i| self.nodes[i].mv == Some(mv))
    }

    /// Makes the subtree under `new_root` the whole tree, dropping everything else. The
    /// subtree is copied breadth-first into a fresh arena of the same capacity, which keeps
    /// every child block contiguous.
    pub(super) fn reroot(&mut self, new_root: usize) {
        // Keep the reserved room: the next search grows the tree without copying it.
        let room = self.nodes.capacity().max(self.subtree_size(new_root));
        let mut fresh: Vec<Node<M>> = Vec::with_capacity(room);
        let mut root = self.nodes[new_root].clone();
        root.parent = NONE;
        fresh.push(root);
        // `fresh[i]` is a copy of `self.nodes[old[i]]`; walking `fresh` in order is the BFS.
        let mut old = vec![new_root as u32];
        let mut i = 0;
        while i < fresh.len() {
            let range = self.nodes[old[i] as usize].children();
            if !range.is_empty() {
                let first = fresh.len();
                for c in range.clone() {
                    let mut child = self.nodes[c].clone();
                    child.parent = i as u32;
                    fresh.push(child);
                    old.push(c as u32);
                }
                fresh[i].first_child = first as u32;
            }
            i += 1;
        }
        self.nodes = fresh;
    }

    fn subtree_size(&self, from: usize) -> usize {
        let mut count = 0;
        let mut stack = vec![from];
        while let Some(i) = stack.pop() {
            count += 1;
            stack.extend(self.nodes[i].children());
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_keeps_subtree_and_links() {
        // root -> {a, b}; a -> {c, d}; d -> {e}
        let mut t: Tree<char> = Tree::new(1);
        t.expand(0, &['a', 'b'], 0);
        t.expand(1, &['c', 'd'], 1);
        t.expand(4, &['e'], 0);
        for (i, n) in t.nodes.iter_mut().enumerate() {
            n.visits = 10 + i as u32;
        }
        let a = t.root_child('a').unwrap();
        t.reroot(a);
        assert_eq!(t.len(), 4);
        assert_eq!(t.root().mv, Some('a'));
        assert_eq!(t.root().parent, NONE);
        assert_eq!(t.root().visits, 11);
        let kids: Vec<char> = t.root().children().map(|i| t.nodes[i].mv.unwrap()).collect();
        assert_eq!(kids, ['c', 'd']);
        let d = t.root().children().nth(1).unwrap();
        let e = t.nodes[d].children().next().unwrap();
        assert_eq!(t.nodes[e].mv, Some('e'));
        assert_eq!(t.nodes[e].parent as usize, d);
        assert_eq!(t.nodes[d].parent, 0);
    }

    #[test]
    fn proofs_flip_between_players() {
        assert_eq!(Proof::Win(3).flip(), Proof::Loss(3));
        assert_eq!(Proof::Draw.flip(), Proof::Draw);
        assert_eq!(Proof::from_reward(1.0), Proof::Win(0));
        assert_eq!(Proof::from_reward(0.0), Proof::Loss(0));
        assert_eq!(Proof::from_reward(0.5), Proof::Draw);
    }
}
