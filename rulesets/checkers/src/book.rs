//! The opening book of English checkers under the Deepomatic rules on 8x8, built by ply's
//! own engine (drop-out expansion over alpha-beta, `cargo run --release --example book`)
//! and embedded here; the header of [`DEEPOMATIC`] says how.
//!
//! ```
//! use ply::Game;
//! use ply_checkers::{EnglishCheckers, Rules};
//!
//! let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
//! let book = ply_checkers::book::opening_book(&game).unwrap();
//! assert!(!book.moves(&game, &game.initial_state()).is_empty());
//! assert!(ply_checkers::book::opening_book(&EnglishCheckers::new(8, Rules::Standard).unwrap())
//!     .is_none());
//! ```

use ply::book::Book;

use crate::{EnglishCheckers, Rules};

/// The book file: Deepomatic rules, 8x8 (see [`ply::book`] for the format).
pub const DEEPOMATIC: &str = include_str!("../books/deepomatic.txt");

/// The opening book for `game`: [`DEEPOMATIC`] when the rules are Deepomatic on 8x8 (the
/// standard rules differ in promotion during captures, so the book is not theirs), `None`
/// otherwise.
pub fn opening_book(game: &EnglishCheckers) -> Option<Book<EnglishCheckers>> {
    if game.rules() != Rules::Deepomatic || game.size() != 8 {
        return None;
    }
    Book::parse(game, DEEPOMATIC).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::Game;

    #[test]
    fn the_embedded_book_reads_and_covers_the_start() {
        let game = EnglishCheckers::new(8, Rules::Deepomatic).unwrap();
        let book = Book::parse(&game, DEEPOMATIC).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(book.header_value("game"), Some("english-checkers"));
        assert!(!book.moves(&game, &game.initial_state()).is_empty());
        assert!(book.len() <= 5000, "a small book: {}", book.len());
        assert!(opening_book(&EnglishCheckers::new(10, Rules::Deepomatic).unwrap()).is_none());
    }
}
