//! Positions in DamExchange (DXP, the TCP protocol of draughts programs): the colour to move
//! (`W` or `Z`) and the 50 squares in order (`e` empty, `w`/`z` a white/black man, `W`/`Z` a
//! white/black king). It is the Hub position with `Z` for black.
//!
//! ```
//! use ply::Game;
//! use ply_draughts::{dxp, InternationalDraughts};
//!
//! let start = InternationalDraughts::new().initial_state();
//! let text = dxp::format_position(&start);
//! assert_eq!(text, "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
//! assert_eq!(dxp::parse_position(&text), Ok(start));
//! ```

use crate::hub;
use crate::{DraughtsState, Error};

/// The DXP text of `state`.
pub fn format_position(state: &DraughtsState) -> String {
    hub::format_position(state)
        .chars()
        .map(|c| match c {
            'B' => 'Z',
            'b' => 'z',
            c => c,
        })
        .collect()
}

/// Reads a DXP position.
///
/// # Errors
/// A text of another length, or with a letter that is not DXP's.
pub fn parse_position(text: &str) -> Result<DraughtsState, Error> {
    // Strictly DXP's letters: anything else becomes a character the Hub reader refuses.
    let hub: String = text
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'W') => 'W',
            (0, 'Z') => 'B',
            (0, _) => '?',
            (_, 'e' | 'w' | 'W') => c,
            (_, 'z') => 'b',
            (_, 'Z') => 'B',
            _ => '?',
        })
        .collect();
    hub::parse_position(&hub)
}
