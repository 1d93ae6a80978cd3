//! Reading protocol lines safely: the one bounded line reader every protocol of ply uses,
//! [`ply::lines`], here for the engine clients and servers of the tools.

pub use ply::lines::{read_line, Line, MAX_LINE};
