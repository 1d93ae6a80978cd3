//! Colours for the board pictures of [`Notation::render`](crate::Notation::render) that read
//! the same on light and dark terminals.
//!
//! A piece is drawn as a *chip*: its letter with a foreground **and** a background of its
//! own, so that it never depends on the terminal's default colours (a bright white letter
//! alone vanishes on a light terminal, a black one on a dark terminal). Letters still tell
//! the sides apart without colour; colour only helps.
//!
//! ```
//! use ply::picture::{chip, mark, Chip};
//! let white = chip(Chip::Light, "w");
//! assert_eq!(white, "\x1b[1;30;107mw\x1b[0m");
//! // The last move's square: the cell in brackets, on the marking colour.
//! assert!(mark(&white).starts_with("\x1b[1;30;43m["));
//! ```

/// Ends every colour.
pub const RESET: &str = "\x1b[0m";

/// Dim text (empty squares, square numbers): readable on either background.
pub const DIM: &str = "\x1b[2m";

/// The brackets around the squares of the last move: black on yellow.
const MARK: &str = "\x1b[1;30;43m";

/// The chip styles: a foreground and a background that contrast with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chip {
    /// Black on bright white: White's pieces.
    Light,
    /// Bright white on black: Black's pieces.
    Dark,
    /// Bright white on red.
    Red,
    /// Black on bright yellow.
    Yellow,
    /// Bright white on blue.
    Blue,
    /// Black on bright green.
    Green,
}

impl Chip {
    /// The ANSI sequence that starts this chip.
    pub const fn ansi(self) -> &'static str {
        match self {
            Chip::Light => "\x1b[1;30;107m",
            Chip::Dark => "\x1b[1;97;40m",
            Chip::Red => "\x1b[1;97;41m",
            Chip::Yellow => "\x1b[1;30;103m",
            Chip::Blue => "\x1b[1;97;44m",
            Chip::Green => "\x1b[1;30;102m",
        }
    }
}

/// `text` drawn as a chip of `style`.
pub fn chip(style: Chip, text: &str) -> String {
    format!("{}{text}{RESET}", style.ansi())
}

/// `text` dimmed.
pub fn dim(text: &str) -> String {
    format!("{DIM}{text}{RESET}")
}

/// A cell of the last move: `cell` in brackets on the marking colour.
pub fn mark(cell: &str) -> String {
    format!("{MARK}[{RESET}{cell}{MARK}]{RESET}")
}
