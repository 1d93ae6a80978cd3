//! The learned searches of a kit (`puct:`, `gumbel:`): the game's observation and action
//! space for the rules built ([`Planes`] and [`ActionSpace`], derived from its diagram and
//! move keys), the network it ships, and `net=FILE` networks written by `tune zero`.

use std::sync::Arc;

use ply::eval::planes::{ActionSpace, Observation, Planes, PlanesError};
use ply::eval::pv::{PvError, PvModel, PvNet};
use ply::search::puct::{Mode, Puct};
use ply::search::Agent;

use super::{read_named, Opened};
use crate::spec::{AgentSpec, Algorithm, SpecError};

/// How a kit reads policy-value networks for its game.
pub(crate) struct Learned<G: ply::Game> {
    /// The game's observation and moves, or why it has none.
    space: Result<Space<G>, PlanesError>,
    /// The game's player count.
    players: usize,
    /// The network the game ships for these rules, as a file's bytes.
    shipped: Option<&'static [u8]>,
    /// Networks read, by file name (`""` for the shipped one).
    opened: Opened<String, PvModel<G>>,
}

/// A game's observation and action space.
struct Space<G: ply::Game> {
    observation: Arc<dyn Observation<G>>,
    actions: ActionSpace,
}

impl<G: ply::Game> Clone for Space<G> {
    fn clone(&self) -> Self {
        Space { observation: self.observation.clone(), actions: self.actions }
    }
}

impl<G: ply::Game> Clone for Learned<G> {
    fn clone(&self) -> Self {
        Learned {
            space: self.space.clone(),
            players: self.players,
            shipped: self.shipped,
            opened: self.opened.clone(),
        }
    }
}

impl<G: ply::Game + ply::Notation + Sync + 'static> Learned<G> {
    /// The learned searches of `game` (these rules), shipping the network `shipped` if any.
    pub(crate) fn new(game: &G, shipped: Option<&'static [u8]>) -> Learned<G> {
        let space = Planes::new(game).and_then(|planes| {
            let observation: Arc<dyn Observation<G>> = Arc::new(planes);
            Ok(Space { observation, actions: ActionSpace::new(game)? })
        });
        Learned { space, players: game.num_players(), shipped, opened: Opened::default() }
    }

    /// The game's observation and action space: what `tune zero` builds networks over.
    pub(crate) fn shape(&self) -> Result<(Arc<dyn Observation<G>>, ActionSpace), PlanesError> {
        let space = self.space.clone()?;
        Ok((space.observation, space.actions))
    }

    /// `net` over this game's observation and moves.
    pub(crate) fn model(&self, net: &PvNet) -> Result<PvModel<G>, PvError> {
        let space = self
            .space
            .clone()
            .map_err(|e| PvError::Mismatch { network: net.tag.clone(), game: e.to_string() })?;
        PvModel::for_players(self.players, space.observation, space.actions, net)
    }

    /// The agent `spec` names (puct or gumbel), with the network of `net=FILE` or the one
    /// the game ships.
    ///
    /// # Errors
    /// [`SpecError::Network`] when the game cannot be observed, ships no network and none is
    /// given, or the network is not one of this game; [`SpecError::Unreadable`] for a file
    /// that cannot be read.
    pub(crate) fn build(
        &self,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError> {
        let agent = spec.algorithm.name();
        let fail = |reason: String| SpecError::Network { agent, reason };
        if let Err(e) = &self.space {
            return Err(fail(format!("this game cannot be learned from its rules alone: {e}")));
        }
        let (key, bytes) = match spec.net.as_deref() {
            Some(path) => (path.to_string(), None),
            None => match self.shipped {
                Some(bytes) => (String::new(), Some(bytes)),
                None => {
                    return Err(fail(
                        "this game ships no trained network for these rules; train one with \
                         `tune zero` (docs/learned.md) and give it as net=FILE"
                            .into(),
                    ))
                }
            },
        };
        let model = self.opened.get_or_open(key.clone(), || {
            let bytes = match bytes {
                Some(b) => b.to_vec(),
                None => read_named("net", &key, crate::files::MAX_BINARY)?,
            };
            let net = PvNet::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
            self.model(&net).map_err(|e| fail(e.to_string()))
        })?;
        let mut puct = match spec.algorithm {
            Algorithm::Gumbel => Puct::gumbel(model),
            _ => Puct::new(model),
        };
        puct = puct.with_seed(spec.effective_seed(seed));
        if let (Algorithm::Gumbel, Some(m)) = (spec.algorithm, spec.m) {
            puct = puct.with_mode(Mode::Gumbel { considered: m });
        }
        if let Some(c) = spec.c {
            puct = puct.with_c_puct(c as f32);
        }
        if let Some(t) = spec.threads {
            puct = puct.with_threads(t);
        }
        if let Some(b) = spec.batch {
            puct = puct.with_batch(b);
        }
        if let Some(r) = spec.reuse {
            puct = puct.with_tree_reuse(r);
        }
        if let Some(on) = spec.solver {
            puct = puct.with_proofs(on);
        }
        Ok(Box::new(puct))
    }
}
