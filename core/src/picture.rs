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

/// The styles of a board of light and dark squares with black and white men and kings (the
/// draughts family). Every square paints its own background and every piece its own
/// colours, so nothing takes the terminal's default colours.
pub mod checkered {
    /// Back to the terminal's default colours.
    pub const RESET: &str = "\x1b[0m";
    /// A light square: buff (dark yellow), apart from both the black and the white pieces.
    pub const LIGHT: &str = "\x1b[43m";
    /// An empty dark square: its number in black on green.
    pub const DARK: &str = "\x1b[22;30;42m";
    /// A square of the last move: black numbers on bright cyan.
    pub const MARKED: &str = "\x1b[22;30;106m";
    /// The `x` of a captured piece: bold red (the square's style follows).
    pub const TAKEN: &str = "\x1b[1;31m";
    /// A square with a black man: a bold white letter on black.
    pub const BLACK_MAN: &str = "\x1b[1;97;40m";
    /// A square with a black king: a bold yellow letter on black.
    pub const BLACK_KING: &str = "\x1b[1;93;40m";
    /// The square number on a black piece's square.
    pub const ON_BLACK: &str = "\x1b[22;37;40m";
    /// A square with a white man: a bold black letter on white.
    pub const WHITE_MAN: &str = "\x1b[1;30;107m";
    /// A square with a white king: a bold red letter on white.
    pub const WHITE_KING: &str = "\x1b[1;31;107m";
    /// The square number on a white piece's square.
    pub const ON_WHITE: &str = "\x1b[22;30;107m";

    /// What stands on a dark square.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Occupant {
        /// A piece: its letter, the style of the letter and the style of the rest of the
        /// square (e.g. `BLACK_MAN` and `ON_BLACK`).
        Piece {
            /// The piece's letter.
            letter: char,
            /// The letter's style.
            chip: &'static str,
            /// The style of the number and the rest of the square.
            beside: &'static str,
        },
        /// Nothing, but the last move captured a piece here.
        Taken,
        /// Nothing.
        Empty,
    }

    /// Appends one dark square: the occupant's letter (`x` where a piece was taken, a blank
    /// when empty), the square's `number` and `*` if the last move `marked` it, in this
    /// module's styles when `color`.
    pub fn dark_square(
        out: &mut String,
        color: bool,
        occupant: Occupant,
        number: &str,
        marked: bool,
    ) {
        let mut paint = |style: &str, text: &str| {
            if color {
                out.push_str(style);
            }
            out.push_str(text);
        };
        let mark = if marked { "*" } else { " " };
        let square = if marked || occupant == Occupant::Taken { MARKED } else { DARK };
        match occupant {
            Occupant::Piece { letter, chip, beside } => {
                // The whole square takes the piece's colours; a mark stays cyan.
                paint(chip, letter.encode_utf8(&mut [0; 4]));
                paint(beside, number);
                paint(if marked { MARKED } else { beside }, mark);
            }
            Occupant::Taken => {
                paint(square, "");
                paint(TAKEN, "x");
                paint(square, number);
                paint("", mark);
            }
            Occupant::Empty => {
                paint(square, " ");
                paint("", number);
                paint("", mark);
            }
        }
    }
}
