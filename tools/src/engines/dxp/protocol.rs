//! DamExchange's messages (layer 2, as Scan 2.0 writes and reads them): the [`Message`] enum
//! with [`Message::encode`] and [`Message::decode`], a bounded [`MessageReader`] of
//! `'\0'`-terminated messages, the [`TimeControl`] of a game request, and the [`DxpCodec`]
//! that maps a game's positions and moves to the protocol's.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::error::ToolError;
use ply::{Game, MoveList};

/// The protocol version ply speaks (the `01` of a game request).
pub const VERSION: u8 = 1;

/// The conventional TCP port of DamExchange.
pub const DEFAULT_PORT: u16 = 27531;

/// The longest message, in characters (its `'\0'` not counted).
pub const MAX_MESSAGE: usize = 127;

/// The width of a name field (space padded).
pub const NAME_LEN: usize = 32;

/// The most pieces one draughts move captures (every piece of the other side).
pub const MAX_CAPTURED: usize = 20;

/// The squares of the board, numbered 1 to 50.
const SQUARES: u8 = 50;

/// The characters of a position's squares: empty, white and black men, white and black kings.
const SQUARE_CHARS: &str = "ewzWZ";

/// A side: `W` for white, `Z` (zwart) for black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White (`W`), who moves first from the initial position.
    White,
    /// Black (`Z`).
    Black,
}

impl Color {
    /// The protocol's letter: `W` or `Z`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'Z',
        }
    }

    /// The side of a letter `W` or `Z`.
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'W' => Some(Color::White),
            'Z' => Some(Color::Black),
            _ => None,
        }
    }

    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// One-character codes: the enum's variants and their characters, both ways.
macro_rules! codes {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// The protocol's character.
            pub fn code(self) -> char {
                match self {
                    $($name::$variant => $code,)+
                }
            }

            /// The value of a character, if it is one.
            pub fn from_code(c: char) -> Option<$name> {
                match c {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

codes! {
    /// The answer to a game request (`GAMEACC`).
    Acceptance {
        /// `0`: accepted.
        Accepted = '0',
        /// `1`: the protocol version is not supported.
        Version = '1',
        /// `2`: not with this initiator.
        Initiator = '2',
        /// `3`: not this time, number of moves or starting position.
        Terms = '3',
        /// `9`: refused, no reason given.
        Refused = '9',
    }
}

codes! {
    /// Why a game ended (`GAMEEND`), from the sender's side.
    EndReason {
        /// `0`: unknown (a game stopped, not decided).
        Unknown = '0',
        /// `1`: the sender loses.
        Lose = '1',
        /// `2`: a draw.
        Draw = '2',
        /// `3`: the sender wins.
        Win = '3',
    }
}

codes! {
    /// Whether more games may follow a `GAMEEND`.
    StopCode {
        /// `0`: the next game is welcome.
        NextGame = '0',
        /// `1`: no more games (the connection ends).
        NoMoreGames = '1',
    }
}

codes! {
    /// The answer to a take-back request (`BACKACC`).
    BackAnswer {
        /// `0`: accepted.
        Accepted = '0',
        /// `1`: take-backs are not supported.
        NotSupported = '1',
        /// `2`: declined.
        Declined = '2',
    }
}

impl fmt::Display for Acceptance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Acceptance::Accepted => "accepted",
            Acceptance::Version => "version not supported",
            Acceptance::Initiator => "not with this initiator",
            Acceptance::Terms => "not this time, number of moves or position",
            Acceptance::Refused => "refused, no reason given",
        };
        write!(f, "'{}' ({text})", self.code())
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            EndReason::Unknown => "unknown",
            EndReason::Lose => "it loses",
            EndReason::Draw => "a draw",
            EndReason::Win => "it wins",
        };
        write!(f, "'{}' ({text})", self.code())
    }
}

/// A game request (`R`, `GAMEREQ`): the initiator proposes a game to the follower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// The protocol version (2 digits; ply speaks [`VERSION`]).
    pub version: u8,
    /// The initiator's name (at most 32 characters; trailing spaces are padding).
    pub initiator: String,
    /// The colour the follower plays.
    pub follower: Color,
    /// Thinking time for the whole game, in minutes (3 digits).
    pub minutes: u16,
    /// Moves each side plays in that time; the game ends after them (3 digits).
    pub moves: u16,
    /// The starting position: `None` for the initial position (`A`), or the colour to move
    /// and the 50 squares (`B`), as [`DxpCodec::position`] writes them.
    pub position: Option<String>,
}

/// A move (`M`): the squares 1..=50 it starts and ends on and those it captures on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    /// Seconds the mover spent on it (4 digits).
    pub seconds: u16,
    /// The start square.
    pub from: u8,
    /// The end square.
    pub to: u8,
    /// The squares of the captured pieces (at most [`MAX_CAPTURED`]), in any order.
    pub captured: Vec<u8>,
}

impl fmt::Display for DxpMove {
    /// `32-28`, or `28x19x23` for a capture (Hub notation, for messages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured.is_empty() {
            write!(f, "{}-{}", self.from, self.to)
        } else {
            write!(f, "{}x{}", self.from, self.to)?;
            self.captured.iter().try_for_each(|s| write!(f, "x{s}"))
        }
    }
}

/// A DamExchange message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: a game request.
    GameReq(GameRequest),
    /// `A`: the follower's answer to a game request.
    GameAcc {
        /// The follower's name (at most 32 characters).
        name: String,
        /// Accepted, or why not.
        code: Acceptance,
    },
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: the end of a game.
    GameEnd {
        /// The result from the sender's side.
        reason: EndReason,
        /// Whether another game may follow.
        stop: StopCode,
    },
    /// `C`: free text (at most 126 characters).
    Chat(String),
    /// `B`: a request to take moves back, to the given move number (3 digits, from 1) and
    /// colour to move.
    BackReq {
        /// The move number the game goes back to.
        move_number: u16,
        /// The colour to move there.
        to_move: Color,
    },
    /// `K`: the answer to a take-back request.
    BackAcc(BackAnswer),
}

/// A message that cannot be decoded or encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DxpError {
    /// No characters at all.
    #[error("an empty message")]
    Empty,
    /// More than [`MAX_MESSAGE`] characters.
    #[error("a message of {0} characters (at most 127)")]
    TooLong(usize),
    /// A character outside ASCII, or a `'\0'` inside the message.
    #[error("a message that is not ASCII text")]
    NotAscii,
    /// A first character that is no message type.
    #[error("unknown message type {0:?}")]
    UnknownHeader(char),
    /// A message of the wrong length for its type.
    #[error("{kind} of {len} characters: expected {expected}")]
    Length {
        /// The message type.
        kind: &'static str,
        /// Its length.
        len: usize,
        /// The lengths it may have.
        expected: String,
    },
    /// A number field with something other than digits.
    #[error("{field}: {text:?} is not a {digits}-digit number")]
    NotDigits {
        /// The field.
        field: &'static str,
        /// What it holds.
        text: String,
        /// Its width.
        digits: usize,
    },
    /// A value outside its field's range.
    #[error("{field}: {value} is out of range ({range})")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value.
        value: String,
        /// What is allowed.
        range: &'static str,
    },
    /// A character field with a character it does not take.
    #[error("{field}: {found:?} is not one of {expected}")]
    BadChar {
        /// The field.
        field: &'static str,
        /// The character found.
        found: char,
        /// The characters allowed.
        expected: &'static str,
    },
}

/// Reads a fixed-width number field.
fn digits(field: &'static str, text: &str) -> Result<u16, DxpError> {
    let bad = || DxpError::NotDigits { field, text: text.to_string(), digits: text.len() };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse().map_err(|_| bad())
}

/// Writes a number in a fixed-width field, if it fits.
fn number(
    field: &'static str,
    value: u16,
    width: usize,
    range: &'static str,
) -> Result<String, DxpError> {
    let text = format!("{value:0width$}");
    if text.len() > width {
        return Err(DxpError::OutOfRange { field, value: value.to_string(), range });
    }
    Ok(text)
}

/// Checks a square number.
fn square(field: &'static str, value: u16) -> Result<u8, DxpError> {
    if (1..=u16::from(SQUARES)).contains(&value) {
        Ok(value as u8)
    } else {
        Err(DxpError::OutOfRange { field, value: value.to_string(), range: "1 to 50" })
    }
}

/// Checks a text field: ASCII without `'\0'`, at most `max` characters.
fn text_field(field: &'static str, text: &str, max: usize) -> Result<(), DxpError> {
    if !text.is_ascii() || text.contains('\0') {
        return Err(DxpError::NotAscii);
    }
    if text.len() > max {
        let range =
            if max == NAME_LEN { "at most 32 characters" } else { "at most 126 characters" };
        return Err(DxpError::OutOfRange {
            field,
            value: format!("{} characters", text.len()),
            range,
        });
    }
    Ok(())
}

/// Checks a position's text: the colour to move, then one of `e w z W Z` for each of the 50
/// squares.
fn check_position(text: &str) -> Result<(), DxpError> {
    let mut chars = text.chars();
    let to_move = chars.next().unwrap_or(' ');
    if Color::from_letter(to_move).is_none() {
        return Err(DxpError::BadChar {
            field: "colour to move",
            found: to_move,
            expected: "W, Z",
        });
    }
    if text.len() != 51 {
        return Err(DxpError::Length {
            kind: "position",
            len: text.len(),
            expected: "51 (the colour to move and 50 squares)".into(),
        });
    }
    match chars.find(|c| !SQUARE_CHARS.contains(*c)) {
        Some(found) => Err(DxpError::BadChar { field: "square", found, expected: "e, w, z, W, Z" }),
        None => Ok(()),
    }
}

/// Reads a one-character code field.
fn code<T>(
    field: &'static str,
    c: char,
    read: fn(char) -> Option<T>,
    expected: &'static str,
) -> Result<T, DxpError> {
    read(c).ok_or(DxpError::BadChar { field, found: c, expected })
}

impl Message {
    /// The message's type letter: `R`, `A`, `M`, `E`, `C`, `B` or `K`.
    pub fn header(&self) -> char {
        match self {
            Message::GameReq(_) => 'R',
            Message::GameAcc { .. } => 'A',
            Message::Move(_) => 'M',
            Message::GameEnd { .. } => 'E',
            Message::Chat(_) => 'C',
            Message::BackReq { .. } => 'B',
            Message::BackAcc(_) => 'K',
        }
    }

    /// The message's text, without its terminating `'\0'`.
    ///
    /// # Errors
    /// A field that does not fit the protocol: a name longer than 32 characters or not ASCII,
    /// a number wider than its field, a square outside 1..=50, more than 20 captures, a bad
    /// position or a chat longer than 126 characters.
    pub fn encode(&self) -> Result<String, DxpError> {
        let mut s = String::with_capacity(MAX_MESSAGE);
        s.push(self.header());
        match self {
            Message::GameReq(r) => {
                s += &number("version", r.version.into(), 2, "0 to 99")?;
                text_field("initiator name", &r.initiator, NAME_LEN)?;
                s += &format!("{:<NAME_LEN$}", r.initiator);
                s.push(r.follower.letter());
                s += &number("thinking time", r.minutes, 3, "0 to 999 minutes")?;
                s += &number("number of moves", r.moves, 3, "0 to 999")?;
                match &r.position {
                    None => s.push('A'),
                    Some(p) => {
                        check_position(p)?;
                        s.push('B');
                        s += p;
                    }
                }
            }
            Message::GameAcc { name, code } => {
                text_field("follower name", name, NAME_LEN)?;
                s += &format!("{name:<NAME_LEN$}");
                s.push(code.code());
            }
            Message::Move(m) => {
                s += &number("time", m.seconds, 4, "0 to 9999 seconds")?;
                s += &number("from", square("from", m.from.into())?.into(), 2, "1 to 50")?;
                s += &number("to", square("to", m.to.into())?.into(), 2, "1 to 50")?;
                if m.captured.len() > MAX_CAPTURED {
                    return Err(DxpError::OutOfRange {
                        field: "number of captures",
                        value: m.captured.len().to_string(),
                        range: "0 to 20",
                    });
                }
                s += &format!("{:02}", m.captured.len());
                for &c in &m.captured {
                    s += &format!("{:02}", square("captured", c.into())?);
                }
            }
            Message::GameEnd { reason, stop } => {
                s.push(reason.code());
                s.push(stop.code());
            }
            Message::Chat(text) => {
                text_field("chat", text, MAX_MESSAGE - 1)?;
                s += text;
            }
            Message::BackReq { move_number, to_move } => {
                if *move_number == 0 {
                    return Err(DxpError::OutOfRange {
                        field: "move number",
                        value: "0".into(),
                        range: "1 to 999",
                    });
                }
                s += &number("move number", *move_number, 3, "1 to 999")?;
                s.push(to_move.letter());
            }
            Message::BackAcc(answer) => s.push(answer.code()),
        }
        Ok(s)
    }

    /// Reads a message's text (without its terminating `'\0'`).
    ///
    /// # Errors
    /// A [`DxpError`] naming what is wrong: no text, more than 127 characters, not ASCII, an
    /// unknown type letter, the wrong length for its type, a number field that is not digits,
    /// a code, colour or square character the field does not take, or a value out of range.
    pub fn decode(text: &str) -> Result<Message, DxpError> {
        if text.is_empty() {
            return Err(DxpError::Empty);
        }
        if !text.is_ascii() || text.contains('\0') {
            return Err(DxpError::NotAscii);
        }
        if text.len() > MAX_MESSAGE {
            return Err(DxpError::TooLong(text.len()));
        }
        // ASCII: every byte is a character, so slicing by byte index is safe.
        let (header, body) = text.split_at(1);
        let header = header.chars().next().unwrap_or('\0');
        let at = |i: usize| body[i..].chars().next().unwrap_or('\0');
        let length = |kind: &'static str, expected: &str| DxpError::Length {
            kind,
            len: text.len(),
            expected: expected.to_string(),
        };
        match header {
            'R' => {
                if body.len() != 42 && body.len() != 93 {
                    return Err(length("GAMEREQ", "43 (position A) or 94 (position B)"));
                }
                let version = digits("version", &body[0..2])? as u8;
                let initiator = body[2..34].trim_end_matches(' ').to_string();
                let follower = code("follower colour", at(34), Color::from_letter, "W, Z")?;
                let minutes = digits("thinking time", &body[35..38])?;
                let moves = digits("number of moves", &body[38..41])?;
                let position = match (at(41), body.len()) {
                    ('A', 42) => None,
                    ('B', 93) => {
                        let p = &body[42..];
                        check_position(p)?;
                        Some(p.to_string())
                    }
                    ('A', _) => return Err(length("GAMEREQ from the initial position", "43")),
                    ('B', _) => return Err(length("GAMEREQ from a position", "94")),
                    (found, _) => {
                        return Err(DxpError::BadChar {
                            field: "starting position",
                            found,
                            expected: "A, B",
                        })
                    }
                };
                Ok(Message::GameReq(GameRequest {
                    version,
                    initiator,
                    follower,
                    minutes,
                    moves,
                    position,
                }))
            }
            'A' => {
                if body.len() != NAME_LEN + 1 {
                    return Err(length("GAMEACC", "34"));
                }
                let name = body[..NAME_LEN].trim_end_matches(' ').to_string();
                let code =
                    code("acceptance code", at(NAME_LEN), Acceptance::from_code, "0, 1, 2, 3, 9")?;
                Ok(Message::GameAcc { name, code })
            }
            'M' => {
                if body.len() < 10 {
                    return Err(length("MOVE", "at least 11"));
                }
                let seconds = digits("time", &body[0..4])?;
                let from = square("from", digits("from", &body[4..6])?)?;
                let to = square("to", digits("to", &body[6..8])?)?;
                let count = digits("number of captures", &body[8..10])? as usize;
                if count > MAX_CAPTURED {
                    return Err(DxpError::OutOfRange {
                        field: "number of captures",
                        value: count.to_string(),
                        range: "0 to 20",
                    });
                }
                if body.len() != 10 + 2 * count {
                    return Err(length(
                        "MOVE",
                        &format!("{} for {count} captures", 11 + 2 * count),
                    ));
                }
                let captured = (0..count)
                    .map(|i| {
                        let at = 10 + 2 * i;
                        square("captured", digits("captured", &body[at..at + 2])?)
                    })
                    .collect::<Result<_, _>>()?;
                Ok(Message::Move(DxpMove { seconds, from, to, captured }))
            }
            'E' => {
                if body.len() != 2 {
                    return Err(length("GAMEEND", "3"));
                }
                let reason = code("reason", at(0), EndReason::from_code, "0, 1, 2, 3")?;
                let stop = code("stop code", at(1), StopCode::from_code, "0, 1")?;
                Ok(Message::GameEnd { reason, stop })
            }
            'C' => Ok(Message::Chat(body.to_string())),
            'B' => {
                if body.len() != 4 {
                    return Err(length("BACKREQ", "5"));
                }
                let move_number = digits("move number", &body[0..3])?;
                if move_number == 0 {
                    return Err(DxpError::OutOfRange {
                        field: "move number",
                        value: "0".into(),
                        range: "1 to 999",
                    });
                }
                let to_move = code("colour to move", at(3), Color::from_letter, "W, Z")?;
                Ok(Message::BackReq { move_number, to_move })
            }
            'K' => {
                if body.len() != 1 {
                    return Err(length("BACKACC", "2"));
                }
                Ok(Message::BackAcc(code(
                    "acceptance code",
                    at(0),
                    BackAnswer::from_code,
                    "0, 1, 2",
                )?))
            }
            other => Err(DxpError::UnknownHeader(other)),
        }
    }
}

impl fmt::Display for Message {
    /// The message's text, or a description of why it has none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.encode() {
            Ok(text) => write!(f, "{text:?}"),
            Err(e) => write!(f, "{:?} (not encodable: {e})", self),
        }
    }
}

/// Writes a message and its `'\0'`, and flushes.
///
/// # Errors
/// A message that cannot be encoded (`InvalidInput`), or the writer's error.
pub fn write_message(w: &mut impl Write, message: &Message) -> io::Result<()> {
    let text =
        message.encode().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let mut bytes = text.into_bytes();
    bytes.push(0);
    w.write_all(&bytes)?;
    w.flush()
}

/// A source whose reads can be given a time limit: a socket, or (without one) bytes in memory.
pub trait TimedRead: Read {
    /// Makes the next reads give up after `limit` (`None`: wait for ever).
    ///
    /// # Errors
    /// If the limit cannot be set.
    fn set_read_limit(&mut self, limit: Option<Duration>) -> io::Result<()>;
}

impl TimedRead for TcpStream {
    fn set_read_limit(&mut self, limit: Option<Duration>) -> io::Result<()> {
        // A zero timeout is refused by the socket: a millisecond is the least.
        self.set_read_timeout(limit.map(|l| l.max(Duration::from_millis(1))))
    }
}

impl TimedRead for &[u8] {
    fn set_read_limit(&mut self, _limit: Option<Duration>) -> io::Result<()> {
        Ok(())
    }
}

/// Why no message was read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Nothing complete arrived before the deadline.
    #[error("no message in time")]
    TimedOut,
    /// More than [`MAX_MESSAGE`] characters without a `'\0'`.
    #[error("a message longer than 127 characters")]
    TooLong,
    /// The connection ended in the middle of a message.
    #[error("the connection closed in the middle of a message")]
    Truncated,
    /// A complete message that does not decode.
    #[error("malformed message {text:?}: {error}")]
    Malformed {
        /// The message's text (non-ASCII bytes replaced).
        text: String,
        /// What is wrong with it.
        error: DxpError,
    },
    /// The connection failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Reads `'\0'`-terminated messages from a stream, keeping at most one message and one read's
/// bytes in memory: a peer that sends more than [`MAX_MESSAGE`] characters without a `'\0'` is
/// an error, never a growing buffer.
///
/// ```
/// use ply_tools::engines::dxp::protocol::{Message, MessageReader, ReadError};
///
/// let mut reader = MessageReader::new(&b"K0\0Chello\0M001232280\0"[..]);
/// assert!(matches!(reader.read(None)?, Some(Message::BackAcc(_))));
/// assert_eq!(reader.read(None)?, Some(Message::Chat("hello".into())));
/// assert!(reader.read(None).is_err(), "a MOVE one character short");
/// # Ok::<(), ReadError>(())
/// ```
pub struct MessageReader<R> {
    inner: R,
    pending: Vec<u8>,
}

impl<R: TimedRead> MessageReader<R> {
    /// A reader of `inner`.
    pub fn new(inner: R) -> Self {
        MessageReader { inner, pending: Vec::with_capacity(2 * (MAX_MESSAGE + 1)) }
    }

    /// The stream read.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next message's text (without its `'\0'`), waiting until `deadline` at most
    /// (`None`: for ever); `None` at the end of the input.
    ///
    /// # Errors
    /// [`ReadError::TimedOut`] past the deadline, [`ReadError::TooLong`],
    /// [`ReadError::Truncated`], a message that is not ASCII ([`ReadError::Malformed`]) or the
    /// stream's error.
    pub fn read_text(&mut self, deadline: Option<Instant>) -> Result<Option<String>, ReadError> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == 0) {
                let mut bytes: Vec<u8> = self.pending.drain(..=end).collect();
                bytes.pop();
                if bytes.len() > MAX_MESSAGE {
                    return Err(ReadError::TooLong);
                }
                return match String::from_utf8(bytes) {
                    Ok(text) if text.is_ascii() => Ok(Some(text)),
                    Ok(text) => Err(ReadError::Malformed { text, error: DxpError::NotAscii }),
                    Err(e) => Err(ReadError::Malformed {
                        text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                        error: DxpError::NotAscii,
                    }),
                };
            }
            if self.pending.len() > MAX_MESSAGE {
                return Err(ReadError::TooLong);
            }
            let limit = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(ReadError::TimedOut);
                    }
                    Some(left)
                }
                None => None,
            };
            self.inner.set_read_limit(limit)?;
            let mut chunk = [0u8; MAX_MESSAGE + 1];
            match self.inner.read(&mut chunk) {
                Ok(0) if self.pending.is_empty() => return Ok(None),
                Ok(0) => return Err(ReadError::Truncated),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) =>
                {
                    return Err(ReadError::TimedOut)
                }
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    }

    /// The next message, decoded; `None` at the end of the input.
    ///
    /// # Errors
    /// As [`MessageReader::read_text`], and [`ReadError::Malformed`] for a message that does
    /// not decode.
    pub fn read(&mut self, deadline: Option<Instant>) -> Result<Option<Message>, ReadError> {
        match self.read_text(deadline)? {
            None => Ok(None),
            Some(text) => match Message::decode(&text) {
                Ok(m) => Ok(Some(m)),
                Err(error) => Err(ReadError::Malformed { text, error }),
            },
        }
    }
}

/// The thinking time and number of moves of a game request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Minutes for the whole game, each side.
    pub minutes: u16,
    /// Moves each side plays in them.
    pub moves: u16,
}

impl TimeControl {
    /// The fewest moves ply's requests set: no game of draughts lasts this long, so the
    /// protocol's end after that many moves never cuts one short.
    pub const MIN_MOVES: u16 = 150;
    /// The most moves the 3-digit field holds.
    pub const MAX_MOVES: u16 = 999;
    /// The number of moves counted for a request that sets none (`000`, Scan's default of 75).
    pub const UNSET_MOVES: u16 = 75;

    /// The time control whose average time per move (`minutes * 60 / moves`) is nearest to
    /// `per_move`, with 150 to 999 moves and 1 to 999 minutes (the fewest moves among equals):
    /// `1s` is 3 minutes for 180 moves, `100ms` 1 minute for 600 moves; anything under 60 ms
    /// is 1 minute for 999 moves (60 ms), anything over 399.6 s is 999 minutes for 150 moves.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ply_tools::engines::dxp::TimeControl;
    ///
    /// let tc = TimeControl::for_move_time(Duration::from_secs(1));
    /// assert_eq!((tc.minutes, tc.moves), (3, 180));
    /// assert_eq!(tc.per_move(), Duration::from_secs(1));
    /// ```
    pub fn for_move_time(per_move: Duration) -> TimeControl {
        let target = per_move.as_secs_f64();
        let mut best = TimeControl { minutes: 1, moves: Self::MAX_MOVES };
        let mut best_error = f64::INFINITY;
        for moves in Self::MIN_MOVES..=Self::MAX_MOVES {
            let minutes = (target * f64::from(moves) / 60.0).round().clamp(1.0, 999.0) as u16;
            let tc = TimeControl { minutes, moves };
            let error = (tc.per_move().as_secs_f64() - target).abs();
            if error < best_error - 1e-9 {
                (best, best_error) = (tc, error);
            }
        }
        best
    }

    /// The average time per move: `minutes * 60 / moves` (a request of 0 moves counts as
    /// [`TimeControl::UNSET_MOVES`]).
    pub fn per_move(self) -> Duration {
        let moves = if self.moves == 0 { Self::UNSET_MOVES } else { self.moves };
        Duration::from_secs(u64::from(self.minutes) * 60) / u32::from(moves)
    }

    /// The whole game's time, each side.
    pub fn total(self) -> Duration {
        Duration::from_secs(u64::from(self.minutes) * 60)
    }
}

/// A move as DamExchange writes it: its start and end squares and its captured squares.
pub type MoveSquares = (u8, u8, Vec<u8>);

/// How a game's positions and moves read in DamExchange. Plain functions, so a registration
/// builds one from the ruleset's own (international draughts: [`ply_draughts`]'s Hub position
/// format with `z`/`Z` for black, and its moves' squares).
///
/// [`ply_draughts`]: https://docs.rs/ply-draughts
pub struct DxpCodec<G: Game> {
    /// The position as a `B` game request writes it: `W` or `Z` for the side to move, then
    /// one of `e w z W Z` (empty, white man, black man, white king, black king) for each
    /// square 1..=50.
    pub position: fn(&G, &G::State) -> String,
    /// Reads such a text.
    pub parse_position: fn(&G, &str) -> crate::error::ToolResult<G::State>,
    /// A move's start square, end square and captured squares (1..=50).
    pub move_squares: fn(&G, G::Move) -> MoveSquares,
}

impl<G: Game> Clone for DxpCodec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for DxpCodec<G> {}

impl<G: Game> DxpCodec<G> {
    /// The side to move in `state`, from the first letter of its position text.
    ///
    /// # Errors
    /// If the codec writes another letter there.
    pub fn to_move(&self, game: &G, state: &G::State) -> crate::error::ToolResult<Color> {
        let text = (self.position)(game, state);
        text.chars().next().and_then(Color::from_letter).ok_or_else(|| {
            ToolError::Internal(format!("the codec wrote the position {text:?}: no W or Z first"))
        })
    }

    /// The `M` message of a move that took `seconds`.
    pub fn move_message(&self, game: &G, mv: G::Move, seconds: u16) -> DxpMove {
        let (from, to, captured) = (self.move_squares)(game, mv);
        DxpMove { seconds, from, to, captured }
    }

    /// The legal move of `state` a message names: the same start and end squares and the
    /// same captured squares, in any order.
    ///
    /// # Errors
    /// A message naming the move if no legal move matches.
    pub fn find_move(
        &self,
        game: &G,
        state: &G::State,
        mv: &DxpMove,
    ) -> crate::error::ToolResult<G::Move> {
        let mut wanted = mv.captured.clone();
        wanted.sort_unstable();
        let mut legal = MoveList::new();
        game.generate_moves(state, &mut legal);
        legal
            .iter()
            .copied()
            .find(|&m| {
                let (from, to, mut captured) = (self.move_squares)(game, m);
                captured.sort_unstable();
                from == mv.from && to == mv.to && captured == wanted
            })
            .ok_or_else(|| {
                ToolError::Input(format!("illegal move {mv} in {}", (self.position)(game, state)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INITIATOR: &str = "Scan 2.0                        ";

    /// Messages as Scan 2.0's `encode_message` writes them, and their values.
    fn scan_messages() -> Vec<(String, Message)> {
        let position = "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww".replace("Wzz", "Zzz");
        vec![
            (
                format!("R01{INITIATOR}Z005075A"),
                Message::GameReq(GameRequest {
                    version: 1,
                    initiator: "Scan 2.0".into(),
                    follower: Color::Black,
                    minutes: 5,
                    moves: 75,
                    position: None,
                }),
            ),
            (
                format!("R01{INITIATOR}W003180B{position}"),
                Message::GameReq(GameRequest {
                    version: 1,
                    initiator: "Scan 2.0".into(),
                    follower: Color::White,
                    minutes: 3,
                    moves: 180,
                    position: Some(position.clone()),
                }),
            ),
            (
                format!("A{INITIATOR}0"),
                Message::GameAcc { name: "Scan 2.0".into(), code: Acceptance::Accepted },
            ),
            (
                format!("A{:32}3", "ply"),
                Message::GameAcc { name: "ply".into(), code: Acceptance::Terms },
            ),
            (
                "M0012322800".into(),
                Message::Move(DxpMove { seconds: 12, from: 32, to: 28, captured: vec![] }),
            ),
            (
                "M000028190123".into(),
                Message::Move(DxpMove { seconds: 0, from: 28, to: 19, captured: vec![23] }),
            ),
            (
                "M9999464603071217".into(),
                Message::Move(DxpMove {
                    seconds: 9999,
                    from: 46,
                    to: 46,
                    captured: vec![7, 12, 17],
                }),
            ),
            ("E20".into(), Message::GameEnd { reason: EndReason::Draw, stop: StopCode::NextGame }),
            (
                "E01".into(),
                Message::GameEnd { reason: EndReason::Unknown, stop: StopCode::NoMoreGames },
            ),
            ("E30".into(), Message::GameEnd { reason: EndReason::Win, stop: StopCode::NextGame }),
            (
                "Cgame ended (150 moves played, unknown result)".into(),
                Message::Chat("game ended (150 moves played, unknown result)".into()),
            ),
            ("C".into(), Message::Chat(String::new())),
            ("B012Z".into(), Message::BackReq { move_number: 12, to_move: Color::Black }),
            ("B001W".into(), Message::BackReq { move_number: 1, to_move: Color::White }),
            ("K0".into(), Message::BackAcc(BackAnswer::Accepted)),
            ("K1".into(), Message::BackAcc(BackAnswer::NotSupported)),
            ("K2".into(), Message::BackAcc(BackAnswer::Declined)),
        ]
    }

    #[test]
    fn every_message_encodes_and_decodes_as_scan_writes_it() {
        for (text, message) in scan_messages() {
            assert_eq!(Message::decode(&text), Ok(message.clone()), "{text:?}");
            assert_eq!(message.encode().as_deref(), Ok(text.as_str()), "{message:?}");
        }
    }

    #[test]
    fn malformed_messages_are_typed_errors() {
        let e = |t: &str| Message::decode(t).unwrap_err();
        assert_eq!(e(""), DxpError::Empty);
        assert_eq!(e(&"C".repeat(128)), DxpError::TooLong(128));
        assert_eq!(e("Cdéjà"), DxpError::NotAscii);
        assert_eq!(e("X12"), DxpError::UnknownHeader('X'));
        assert!(matches!(e("M001232280"), DxpError::Length { .. }));
        assert!(matches!(e("M00123228011"), DxpError::Length { .. }));
        assert!(matches!(e("M00a2322800"), DxpError::NotDigits { field: "time", .. }));
        assert!(matches!(e("M0012512800"), DxpError::OutOfRange { field: "from", .. }));
        assert!(matches!(e("M0012002800"), DxpError::OutOfRange { field: "from", .. }));
        assert!(matches!(e("M0012322801 0"), DxpError::NotDigits { field: "captured", .. }));
        assert!(matches!(e(&format!("M00123228{}", "21")), DxpError::OutOfRange { .. }));
        assert!(matches!(e("E40"), DxpError::BadChar { field: "reason", .. }));
        assert!(matches!(e("E02"), DxpError::BadChar { field: "stop code", .. }));
        assert!(matches!(e("E0"), DxpError::Length { .. }));
        assert!(matches!(e("B000W"), DxpError::OutOfRange { field: "move number", .. }));
        assert!(matches!(e("B001X"), DxpError::BadChar { .. }));
        assert!(matches!(e("K3"), DxpError::BadChar { .. }));
        assert!(matches!(e(&format!("A{INITIATOR}5")), DxpError::BadChar { .. }));
        assert!(matches!(e(&format!("R01{INITIATOR}X005075A")), DxpError::BadChar { .. }));
        assert!(matches!(e(&format!("R01{INITIATOR}W005075C")), DxpError::BadChar { .. }));
        assert!(matches!(e(&format!("R01{INITIATOR}W005075AB")), DxpError::Length { .. }));
        let bad_square = format!("R01{INITIATOR}W005075BW{}", "q".repeat(50));
        assert!(matches!(e(&bad_square), DxpError::BadChar { field: "square", .. }));
        let bad_turn = format!("R01{INITIATOR}W005075BX{}", "e".repeat(50));
        assert!(matches!(e(&bad_turn), DxpError::BadChar { field: "colour to move", .. }));
        // Numbers are digits only: no signs or spaces.
        assert!(matches!(e(&format!("R+1{INITIATOR}W005075A")), DxpError::NotDigits { .. }));
        assert!(matches!(e("B 12W"), DxpError::NotDigits { .. }));
    }

    #[test]
    fn values_that_do_not_fit_are_not_encoded() {
        let req = |f: &dyn Fn(&mut GameRequest)| {
            let mut r = GameRequest {
                version: 1,
                initiator: "ply".into(),
                follower: Color::White,
                minutes: 1,
                moves: 150,
                position: None,
            };
            f(&mut r);
            Message::GameReq(r).encode()
        };
        assert!(req(&|_| ()).is_ok());
        assert!(req(&|r| r.version = 100).is_err());
        assert!(req(&|r| r.minutes = 1000).is_err());
        assert!(req(&|r| r.initiator = "x".repeat(33)).is_err());
        assert!(req(&|r| r.initiator = "é".into()).is_err());
        assert!(req(&|r| r.position = Some("W".into())).is_err());
        let mv = |from, to, captured: Vec<u8>| {
            Message::Move(DxpMove { seconds: 0, from, to, captured }).encode()
        };
        assert!(mv(32, 28, vec![]).is_ok());
        assert!(mv(0, 28, vec![]).is_err());
        assert!(mv(32, 51, vec![]).is_err());
        assert!(mv(32, 28, vec![0]).is_err());
        assert!(mv(32, 28, vec![1; 21]).is_err());
        assert!(Message::Chat("x".repeat(127)).encode().is_err());
        assert!(Message::Chat("a\0b".into()).encode().is_err());
        assert!(Message::BackReq { move_number: 0, to_move: Color::White }.encode().is_err());
        assert!(Message::BackReq { move_number: 1000, to_move: Color::White }.encode().is_err());
    }

    /// Random and mutated messages: an error or a message, never a panic; every message read
    /// encodes back to its own text, which reads as the same message.
    #[test]
    fn random_and_mutated_messages_decode_or_fail_cleanly() {
        let (texts, values): (Vec<String>, Vec<Message>) = scan_messages().into_iter().unzip();
        let encode = |m: &Message| m.encode().unwrap();
        ply::testing::check_parser(&values, encode, Message::decode, 3_000, 27)
            .unwrap_or_else(|e| panic!("{e}"));
        // Text for text, too: decoding is strict, so what decodes is exactly what encodes.
        for text in texts {
            for cut in 0..text.len() {
                let mutated = format!("{}{}", &text[..cut], &text[cut + 1..]);
                if let Ok(m) = Message::decode(&mutated) {
                    assert_eq!(m.encode().unwrap(), mutated);
                }
            }
        }
    }

    #[test]
    fn the_reader_splits_bounds_and_times_out() {
        let mut r = MessageReader::new(&b"K0\0E01\0"[..]);
        assert_eq!(r.read(None).unwrap(), Some(Message::BackAcc(BackAnswer::Accepted)));
        assert_eq!(r.read_text(None).unwrap().as_deref(), Some("E01"));
        assert!(r.read(None).unwrap().is_none());
        // A message longer than 127 characters is refused after at most 128 + 128 bytes.
        let long = [b'C'; 1000];
        let mut r = MessageReader::new(&long[..]);
        assert!(matches!(r.read(None), Err(ReadError::TooLong)));
        assert!(r.pending.len() <= 2 * (MAX_MESSAGE + 1));
        let mut exact = vec![b'C'; 127];
        exact.push(0);
        assert!(MessageReader::new(&exact[..]).read(None).unwrap().is_some());
        assert!(matches!(MessageReader::new(&b"K0"[..]).read(None), Err(ReadError::Truncated)));
        assert!(matches!(
            MessageReader::new(&b"K\xff\0"[..]).read(None),
            Err(ReadError::Malformed { error: DxpError::NotAscii, .. })
        ));
        assert!(matches!(
            MessageReader::new(&b"Q\0"[..]).read(None),
            Err(ReadError::Malformed { error: DxpError::UnknownHeader('Q'), .. })
        ));
        assert!(matches!(
            MessageReader::new(&b"K0\0"[..]).read(Some(Instant::now())),
            Err(ReadError::TimedOut) | Ok(Some(_))
        ));
        // A silent socket times out.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (_server, _) = listener.accept().unwrap();
        let begun = Instant::now();
        let e = MessageReader::new(client)
            .read(Some(Instant::now() + Duration::from_millis(50)))
            .unwrap_err();
        assert!(matches!(e, ReadError::TimedOut), "{e}");
        assert!(begun.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn time_controls_come_as_near_the_time_per_move_as_the_fields_allow() {
        let tc = |ms: u64| TimeControl::for_move_time(Duration::from_millis(ms));
        assert_eq!(tc(1000), TimeControl { minutes: 3, moves: 180 });
        assert_eq!(tc(100), TimeControl { minutes: 1, moves: 600 });
        assert_eq!(tc(50), TimeControl { minutes: 1, moves: 999 });
        assert_eq!(tc(1), TimeControl { minutes: 1, moves: 999 });
        assert_eq!(tc(5000), TimeControl { minutes: 13, moves: 156 });
        assert_eq!(tc(10_000_000), TimeControl { minutes: 999, moves: 150 });
        for ms in [20, 75, 250, 333, 1500, 2000, 7777, 60_000] {
            let t = tc(ms);
            assert!((150..=999).contains(&t.moves) && (1..=999).contains(&t.minutes), "{t:?}");
            let error = t.per_move().as_secs_f64() - ms as f64 / 1000.0;
            assert!(ms < 60 || error.abs() <= 0.002 * ms as f64, "{ms} ms: {t:?}");
        }
        assert_eq!(TimeControl { minutes: 5, moves: 0 }.per_move(), Duration::from_secs(4));
    }
}
