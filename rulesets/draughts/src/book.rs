//! The opening book of international draughts, built by ply's own engine (drop-out
//! expansion over alpha-beta with the learned evaluation, `cargo run --release --example
//! book`) and embedded here; the header of [`INTERNATIONAL`] says how.
//!
//! ```
//! use ply::Game;
//! use ply_draughts::InternationalDraughts;
//!
//! let game = InternationalDraughts::new();
//! let book = ply_draughts::book::opening_book(&game).unwrap();
//! assert!(!book.moves(&game, &game.initial_state()).is_empty());
//! ```

use ply::book::Book;

use crate::InternationalDraughts;

/// The book file (see [`ply::book`] for the format).
pub const INTERNATIONAL: &str = include_str!("../books/international.txt");

/// The opening book for `game` ([`INTERNATIONAL`]; `None` only if it cannot be read, which
/// the tests rule out).
pub fn opening_book(game: &InternationalDraughts) -> Option<Book<InternationalDraughts>> {
    Book::parse(game, INTERNATIONAL).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Game;

    #[test]
    fn the_embedded_book_reads_and_covers_the_start() {
        let game = InternationalDraughts::new();
        let book = Book::parse(&game, INTERNATIONAL).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(book.header_value("game"), Some("international-draughts"));
        assert!(!book.moves(&game, &game.initial_state()).is_empty());
        assert!(book.len() <= 5000, "a small book: {}", book.len());
    }
}
