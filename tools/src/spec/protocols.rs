//! The external engines' protocols as agent specs see them: each one's agent name, summary,
//! spec keys and required key. The protocols themselves (clients and servers) are in
//! [`crate::engines`]; this list lives with the specs so that reading a spec needs no
//! engine code.

/// An engine protocol as agent specs see it.
#[derive(Debug, PartialEq, Eq)]
pub struct Protocol {
    /// The agent name (`hub` in `hub:cmd=...`).
    pub name: &'static str,
    /// One line for help texts.
    pub summary: &'static str,
    /// The spec keys its agents take ([`crate::spec::KEYS`]).
    pub keys: &'static [&'static str],
    /// The key a spec cannot do without: `cmd` (the command that starts the engine) or `addr`
    /// (where it listens).
    pub required: &'static str,
}

/// Every engine protocol, in the order of the agents' help text: the agent names
/// `hub:`, `nboard:`, `jsonl:` and `dxp:` of an agent spec.
pub const PROTOCOLS: [&Protocol; 4] = [&HUB, &NBOARD, &JSONL, &DXP];

/// The Hub protocol as agent specs see it: `hub:[time=T,clock=TC,depth=N,]cmd=COMMAND`.
pub const HUB: Protocol = Protocol {
    name: "hub",
    summary: "external engine speaking the Hub protocol",
    keys: &["time", "clock", "depth", "book", "seed", "cmd"],
    required: "cmd",
};

/// The NBoard protocol as agent specs see it: `nboard:[time=T,depth=N,]cmd=COMMAND`.
pub const NBOARD: Protocol = Protocol {
    name: "nboard",
    summary: "external engine speaking the NBoard protocol",
    keys: &["time", "depth", "book", "seed", "cmd"],
    required: "cmd",
};

/// The JSON-lines protocol as agent specs see it: `jsonl:[time=T,clock=TC,]cmd=COMMAND`.
pub const JSONL: Protocol = Protocol {
    name: "jsonl",
    summary: "external engine speaking english_checkers play's JSON lines",
    keys: &["time", "clock", "book", "seed", "cmd"],
    required: "cmd",
};

/// DamExchange as agent specs see it: `dxp:addr=HOST:PORT[,time=T,clock=TC,cmd=COMMAND]` (the
/// time, or the clock's first allotment, sets the game's time; `cmd` only starts the engine).
pub const DXP: Protocol = Protocol {
    name: "dxp",
    summary: "DamExchange engine listening on HOST:PORT (cmd: a command that starts it first; \
              T sets the game's time)",
    keys: &["time", "clock", "book", "addr", "seed", "cmd"],
    required: "addr",
};
