//! Tools for any ply game.
