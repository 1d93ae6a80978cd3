//! PDN 3.0 (Portable Draughts Notation), the record format draughts programs exchange:
//! the parts every draughts game shares. A game crate keeps what is its own (its `GameType`,
//! its rule variants, its move forms) and calls these.
//!
//! Written ([`write_game`], [`write()`]): tag pairs, a blank line, then the movetext
//! `1. 11-15 23-19 2. ...` (`1...` first when the second player starts), wrapped before 80
//! columns with a move number never apart from its move, ending with the result token.
//!
//! Read ([`read_game`]; or [`parse`], then [`replay`](super::replay)): the first game of the text. Tags may
//! come in any order; comments (`{...}`, `;` to the end of the line), escape lines (`%` at the
//! start of a line), variations (`(...)`), NAGs (`$1`), move numbers and move suffixes (`!`,
//! `?`, `*`) are skipped; the result token, or the next game's tags, ends the game.
//!
//! ```
//! use ply::record::pdn;
//!
//! let text = "[Event \"club\"]\n[GameType \"21\"]\n1. 11-15 {book} 23-19 (2. 9-13) $1\n1-0";
//! let game = pdn::parse(text).unwrap();
//! assert_eq!(game.tag("GameType").unwrap().value, "21");
//! let moves: Vec<_> = game.moves.iter().map(|m| (m.text.as_str(), m.line)).collect();
//! assert_eq!(moves, [("11-15", 3), ("23-19", 3)]);
//! assert_eq!(game.result.as_deref(), Some("1-0"));
//! ```

use super::{read_text_with, replay_with, ReadRecordError, Record, WrittenMove};
use crate::game::{MoveList, Notation, Outcome, Player};

/// The longest line of movetext written (PGN's export limit).
pub const WIDTH: usize = 79;

/// The result tokens of every PDN result type: `1-0`, `0-1`, `1/2-1/2` (one point a game),
/// `2-0`, `0-2`, `1-1`, `0-0` (two points a game) and `*` (unfinished).
pub const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// A tag pair, `[Name "value"]`, and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnTag {
    /// The tag's name.
    pub name: String,
    /// Its value, unescaped and trimmed.
    pub value: String,
    /// The line of its `[`, 1-based.
    pub line: usize,
}

/// The first game of a PDN text, as written: its tags, its moves and its result token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// The tag pairs, in the order of the file.
    pub tags: Vec<PdnTag>,
    /// The moves of the main line, without numbers, suffixes and annotations.
    pub moves: Vec<WrittenMove>,
    /// The result token that ended the game (one of [`RESULTS`]), if one did.
    pub result: Option<String>,
}

impl PdnGame {
    /// The first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&PdnTag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// True if the text held no tag, no move and no result: not a PDN game at all.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }
}

/// How a result type scores a game, which gives its result tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// One point a game: `1-0`, `0-1`, `1/2-1/2` (English draughts).
    OnePoint,
    /// Two points a game: `2-0`, `0-2`, `1-1` (international draughts).
    TwoPoints,
}

impl Scoring {
    /// The result token of `outcome` from the first player's view; `*` for a game going on.
    ///
    /// ```
    /// use ply::record::pdn::Scoring;
    /// use ply::{Outcome, Player};
    ///
    /// assert_eq!(Scoring::OnePoint.token(Some(&Outcome::Winner(Player(1)))), "0-1");
    /// assert_eq!(Scoring::TwoPoints.token(Some(&Outcome::Draw)), "1-1");
    /// assert_eq!(Scoring::TwoPoints.token(None), "*");
    /// ```
    pub fn token(self, outcome: Option<&Outcome>) -> &'static str {
        let (win, loss, draw) = match self {
            Scoring::OnePoint => ("1-0", "0-1", "1/2-1/2"),
            Scoring::TwoPoints => ("2-0", "0-2", "1-1"),
        };
        match outcome {
            None => "*",
            Some(Outcome::Winner(p)) if *p == Player::FIRST => win,
            Some(Outcome::Winner(_)) => loss,
            Some(_) => draw,
        }
    }
}

/// A game's `GameType` tag: its number, the colour that moves first and the board size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameType {
    /// PDN's number of the game (20 international draughts, 21 English draughts, ...).
    pub number: u32,
    /// The colour that moves first, `'W'` or `'B'`.
    pub first: char,
    /// The board's width and height.
    pub size: usize,
    /// The board size the number alone stands for (8 for 21, 10 for 20).
    pub standard_size: usize,
}

impl GameType {
    /// The tag's value: the number alone on the standard board, else the number, start
    /// colour, width, height and numeric notation (`21,B,10,10,N1,0`).
    ///
    /// ```
    /// use ply::record::pdn::GameType;
    ///
    /// let mut checkers = GameType { number: 21, first: 'B', size: 8, standard_size: 8 };
    /// assert_eq!(checkers.value(), "21");
    /// checkers.size = 10;
    /// assert_eq!(checkers.value(), "21,B,10,10,N1,0");
    /// ```
    pub fn value(&self) -> String {
        if self.size == self.standard_size {
            self.number.to_string()
        } else {
            format!("{},{},{2},{2},N1,0", self.number, self.first, self.size)
        }
    }

    /// Refuses a `GameType` tag of another game, another start colour or another board
    /// size, naming the tag's line; no tag is accepted.
    ///
    /// ```
    /// use ply::record::pdn::{GameType, PdnTag};
    ///
    /// let draughts = GameType { number: 20, first: 'W', size: 10, standard_size: 10 };
    /// let tag = |value: &str| PdnTag { name: "GameType".into(), value: value.into(), line: 2 };
    /// assert!(draughts.check(Some(&tag("20,W,10,10,N2,0"))).is_ok());
    /// let err = draughts.check(Some(&tag("21"))).unwrap_err();
    /// assert_eq!(err.to_string(), "line 2: GameType 21 is English draughts; \
    ///     this game is international draughts (GameType 20)");
    /// ```
    ///
    /// # Errors
    /// A tag whose number, start colour or size is not this game's, or that is malformed.
    pub fn check(&self, tag: Option<&PdnTag>) -> Result<(), ReadRecordError> {
        let Some(tag) = tag else { return Ok(()) };
        let name = game_type_name(self.number);
        let here = if self.size == self.standard_size {
            format!("{name} (GameType {})", self.number)
        } else {
            format!("{name} on a {0}x{0} board (GameType {1})", self.size, self.value())
        };
        let err =
            |what: String| ReadRecordError::new(tag.line, format!("{what}; this game is {here}"));
        let fields: Vec<&str> = tag.value.split(',').map(str::trim).collect();
        let number: u32 = fields[0]
            .parse()
            .map_err(|_| err(format!("GameType {:?} does not start with a number", tag.value)))?;
        if number != self.number {
            return Err(err(format!("GameType {number} is {}", game_type_name(number))));
        }
        if fields.len() >= 4 {
            if !fields[1].eq_ignore_ascii_case(&self.first.to_string()) {
                let other = if self.first.eq_ignore_ascii_case(&'W') { "Black" } else { "White" };
                return Err(err(format!("GameType {:?} has {other} moving first", tag.value)));
            }
            let (w, h) = (fields[2].parse::<usize>().ok(), fields[3].parse::<usize>().ok());
            if w != Some(self.size) || h != Some(self.size) {
                return Err(err(format!(
                    "GameType {:?} is for a {}x{} board",
                    tag.value, fields[2], fields[3]
                )));
            }
        } else if fields.len() > 1 {
            return Err(err(format!(
                "GameType {:?} is malformed: expected a number, then start colour, width, \
                 height and notation",
                tag.value
            )));
        } else if self.size != self.standard_size {
            return Err(err(format!(
                "GameType {number} is for the {0}x{0} board",
                self.standard_size
            )));
        }
        Ok(())
    }
}

/// The name of a PDN `GameType` number, for error messages.
///
/// ```
/// assert_eq!(ply::record::pdn::game_type_name(25), "Russian draughts");
/// ```
pub fn game_type_name(number: u32) -> &'static str {
    match number {
        0 => "chess",
        20 => "international draughts",
        21 => "English draughts",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti draughts",
        50 => "Othello",
        _ => "not a game of this kind",
    }
}

/// A record in PDN: the `tags` in order, then `moves` (as the game writes them) numbered
/// from 1, `1...` first if `second_starts`, wrapped before 80 columns, then `result`.
///
/// ```
/// let tags = [("Event", "club".to_string()), ("Result", "*".to_string())];
/// let moves = ["23-19".to_string(), "11-15".to_string()];
/// let text = ply::record::pdn::write(&tags, &moves, true, "*");
/// assert_eq!(text, "[Event \"club\"]\n[Result \"*\"]\n\n1... 23-19 2. 11-15 *\n");
/// ```
pub fn write(
    tags: &[(&str, String)],
    moves: &[String],
    second_starts: bool,
    result: &str,
) -> String {
    let mut units = Vec::with_capacity(moves.len());
    let mut first = !second_starts;
    let mut number = 1;
    for (i, text) in moves.iter().enumerate() {
        units.push(numbered(number, first, i, text));
        if !first {
            number += 1;
        }
        first = !first;
    }
    layout(tags, &units, result)
}

/// The PDN record of `moves` from `start`: the tags `Event "ply game"` and `Result`, then
/// `tags` (the game's own: `GameType`, `Variant`), then `SetUp "1"` and `FEN` when `start`
/// is not the initial position, then the movetext. The moves are replayed through a
/// [`Record`], so the result counts repetition draws; a move that is not legal ends the
/// movetext with a comment saying so.
pub fn write_game<G: Notation + ?Sized>(
    game: &G,
    start: &G::State,
    moves: &[G::Move],
    scoring: Scoring,
    tags: &[(&str, String)],
) -> String {
    let mut record = Record::new(game, start.clone());
    let mut units = Vec::with_capacity(moves.len());
    let mut number = 1;
    let mut legal = true;
    for (i, &mv) in moves.iter().enumerate() {
        if !record.legal_moves().contains(&mv) {
            // Not a legal game from here on: say so rather than write moves nobody can play.
            units.push(format!("{{ply {}: not a legal move; the record stops here}}", i + 1));
            legal = false;
            break;
        }
        let first = game.to_move(record.state()) == Player::FIRST;
        units.push(numbered(number, first, i, &game.format_move(record.state(), mv)));
        if !first {
            number += 1;
        }
        record.play(mv).expect("the move is in the legal list");
    }
    let result = scoring.token(record.outcome().filter(|_| legal).as_ref());
    let mut all = vec![("Event", "ply game".to_string()), ("Result", result.to_string())];
    all.extend(tags.iter().cloned());
    if *start != game.initial_state() {
        all.push(("SetUp", "1".to_string()));
        all.push(("FEN", game.format_state(start)));
    }
    layout(&all, &units, result)
}

/// A movetext unit: the move `text`, with its number when the first player moves or when
/// it is the record's first move (`12. 11-15`, `1... 23-19`, `23-19`).
fn numbered(number: usize, first: bool, index: usize, text: &str) -> String {
    match (first, index) {
        (true, _) => format!("{number}. {text}"),
        (false, 0) => format!("{number}... {text}"),
        (false, _) => text.to_string(),
    }
}

/// The tags, a blank line and the movetext `units` ending with `result`, wrapped.
fn layout(tags: &[(&str, String)], units: &[String], result: &str) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{escaped}\"]\n"));
    }
    text.push('\n');
    text.push_str(&wrap(units.iter().map(String::as_str).chain([result]), WIDTH));
    text.push('\n');
    text
}

/// `units` joined by spaces in lines of at most `width` characters (a longer unit gets a
/// line of its own); a unit is never split.
fn wrap<'a>(units: impl Iterator<Item = &'a str>, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for unit in units {
        if line > 0 && line + 1 + unit.len() > width {
            out.push('\n');
            line = 0;
        }
        if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(unit);
        line += unit.len();
    }
    out
}

/// The first game of `text`, PDN or ply's plain record ([`write_text`](super::write_text):
/// a first line that is a position), as a start position and moves: `game_type` and
/// `check` (the game's own tags, such as its rule variant) refuse a game of another kind,
/// the `FEN` tag gives the start, and the moves, each read by `read_move`, are replayed
/// through [`replay_with`] (no move after the end, repetition draws included).
///
/// ```
/// use ply::games::TicTacToe;
/// use ply::record::pdn::{self, GameType};
///
/// let game = TicTacToe;
/// let kind = GameType { number: 99, first: 'W', size: 3, standard_size: 3 };
/// let read = |text: &str| {
///     pdn::read_game(&game, text, &kind, |_| Ok(()), |s, t| ply::Notation::parse_move(&game, s, t))
/// };
/// assert_eq!(read("[GameType \"99\"]\n1. b2 a1 *").unwrap().1.len(), 2);
/// assert_eq!(read("1. b2 a1\n2. b2").unwrap_err().line, 2);
/// ```
///
/// # Errors
/// An empty text or one without a game, a tag `check` refuses, a bad `FEN`, a move that
/// cannot be read or played: with its line.
pub fn read_game<G, C, F, E>(
    game: &G,
    text: &str,
    game_type: &GameType,
    check: C,
    read_move: F,
) -> Result<(G::State, Vec<G::Move>), ReadRecordError>
where
    G: Notation + ?Sized,
    C: FnOnce(&PdnGame) -> Result<(), ReadRecordError>,
    F: FnMut(&G::State, &str) -> Result<G::Move, E>,
    E: std::fmt::Display,
{
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first_line) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return Err(ReadRecordError::new(0, "the file is empty"));
    };
    if !first_line.starts_with('[') && game.parse_state(first_line).is_ok() {
        return read_text_with(game, text, read_move);
    }
    let pdn = parse(text)?;
    if pdn.is_empty() {
        let start = game.initial_state();
        let mut legal = MoveList::new();
        game.generate_moves(&start, &mut legal);
        let example = legal.first().map(|&m| game.format_move(&start, m)).unwrap_or_default();
        return Err(ReadRecordError::new(
            0,
            format!(
                "no PDN game in the file: expected tags like [GameType \"{}\"] and moves \
                 like 1. {example}",
                game_type.value()
            ),
        ));
    }
    game_type.check(pdn.tag("GameType"))?;
    check(&pdn)?;
    let start = match pdn.tag("FEN") {
        Some(fen) => game
            .parse_state(&fen.value)
            .map_err(|e| ReadRecordError::new(fen.line, format!("FEN tag: {e}")))?,
        None => game.initial_state(),
    };
    let moves = replay_with(game, &start, &pdn.moves, read_move)?;
    Ok((start, moves))
}

/// Reads the tags and the main line of the first game in `text` (a byte-order mark first is
/// skipped). An empty text gives an empty [`PdnGame`].
///
/// # Errors
/// An unclosed tag, comment or variation, a `)` that closes none, a tag without a name or
/// with text after its value: each with its line.
pub fn parse(text: &str) -> Result<PdnGame, ReadRecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut pdn = PdnGame::default();
    let mut i = 0;
    let mut line = 1;
    let mut line_start = true;
    while i < chars.len() {
        let at = line;
        match chars[i] {
            '\n' => {
                line += 1;
                line_start = true;
                i += 1;
                continue;
            }
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            ';' => i = end_of_line(&chars, i),
            '%' if line_start => i = end_of_line(&chars, i),
            '[' => {
                if !pdn.moves.is_empty() {
                    break; // The next game's tags.
                }
                let (tag, next, lines) = read_tag(&chars, i, at)?;
                pdn.tags.push(tag);
                i = next;
                line += lines;
            }
            '{' => {
                let end = (i..chars.len()).find(|&j| chars[j] == '}').ok_or_else(|| {
                    ReadRecordError::new(at, "a comment opened with { is never closed")
                })?;
                line += chars[i..end].iter().filter(|&&c| c == '\n').count();
                i = end + 1;
            }
            '(' => {
                let (next, lines) = skip_variation(&chars, i, at)?;
                i = next;
                line += lines;
            }
            ')' => return Err(ReadRecordError::new(at, "a ) closes no variation")),
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], '{' | '(' | ')' | '[' | ';')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if RESULTS.contains(&word.as_str()) {
                    pdn.result = Some(word);
                    break;
                }
                match move_of(&word) {
                    // A result with a suffix (`1-0?`) is still the result: no move is
                    // written like one.
                    Some(token) if RESULTS.contains(&token) => {
                        pdn.result = Some(token.to_string());
                        break;
                    }
                    Some(mv) => pdn.moves.push(WrittenMove { text: mv.to_string(), line: at }),
                    None => {}
                }
                line_start = false;
                continue;
            }
        }
        line_start = false;
    }
    Ok(pdn)
}

/// The index of the newline ending the line that `chars[i]` is on (or the end).
fn end_of_line(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] != '\n' {
        i += 1;
    }
    i
}

/// The move in a movetext word, without its move number (`12.`, `12...`) and suffixes
/// (`!`, `?`, `*`); `None` for a word that is only a number, dots, a suffix or a NAG (`$3`).
fn move_of(word: &str) -> Option<&str> {
    if word.starts_with('$') {
        return None;
    }
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let body = if rest.starts_with('.') { rest.trim_start_matches('.') } else { word };
    let body = body.trim_end_matches(['!', '?', '*']);
    // A word ending in a dot is a move number however it starts (`.1.`, `1.`): no notation
    // writes a move that way.
    (!body.is_empty() && !body.ends_with('.')).then_some(body)
}

/// Reads the tag pair opening at `chars[i] == '['` on `line`: the tag, the index after its
/// `]`, and the newlines inside it.
fn read_tag(
    chars: &[char],
    i: usize,
    line: usize,
) -> Result<(PdnTag, usize, usize), ReadRecordError> {
    let unclosed = || ReadRecordError::new(line, "a tag opened with [ is never closed with ]");
    let mut j = i + 1;
    let mut lines = 0;
    let skip_space = |j: &mut usize, lines: &mut usize| {
        while *j < chars.len() && chars[*j].is_whitespace() {
            *lines += usize::from(chars[*j] == '\n');
            *j += 1;
        }
    };
    skip_space(&mut j, &mut lines);
    let name_start = j;
    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        j += 1;
    }
    let name: String = chars[name_start..j].iter().collect();
    if name.is_empty() {
        return Err(ReadRecordError::new(line, "a tag without a name: expected [Name \"value\"]"));
    }
    skip_space(&mut j, &mut lines);
    let mut value = String::new();
    if chars.get(j) == Some(&'"') {
        j += 1;
        loop {
            match chars.get(j) {
                None => return Err(unclosed()),
                Some('"') => break,
                Some('\\') if matches!(chars.get(j + 1), Some('"' | '\\')) => {
                    value.push(chars[j + 1]);
                    j += 2;
                    continue;
                }
                Some(&c) => {
                    lines += usize::from(c == '\n');
                    value.push(c);
                }
            }
            j += 1;
        }
        j += 1;
        skip_space(&mut j, &mut lines);
        if j < chars.len() && chars[j] != ']' {
            return Err(ReadRecordError::new(
                line,
                format!("tag {name}: text after the quoted value; expected ]"),
            ));
        }
    } else {
        // A value without quotes: everything up to the ].
        while j < chars.len() && chars[j] != ']' {
            lines += usize::from(chars[j] == '\n');
            value.push(chars[j]);
            j += 1;
        }
    }
    if j >= chars.len() {
        return Err(unclosed());
    }
    Ok((PdnTag { name, value: value.trim().to_string(), line }, j + 1, lines))
}

/// Skips the variation opening at `chars[i] == '('` on `line`, nested ones and comments
/// inside included: the index after its `)` and the newlines inside it.
fn skip_variation(
    chars: &[char],
    i: usize,
    line: usize,
) -> Result<(usize, usize), ReadRecordError> {
    let mut depth = 0;
    let mut lines = 0;
    let mut j = i;
    while j < chars.len() {
        match chars[j] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok((j + 1, lines));
                }
            }
            '{' => {
                while j < chars.len() && chars[j] != '}' {
                    lines += usize::from(chars[j] == '\n');
                    j += 1;
                }
            }
            '\n' => lines += 1,
            _ => {}
        }
        j += 1;
    }
    Err(ReadRecordError::new(line, "a variation opened with ( is never closed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_words_lose_numbers_and_suffixes() {
        for word in ["12.", "12...", "...", "$14", "!?", "*!", ".1.", "..3."] {
            assert_eq!(move_of(word), None, "{word}");
        }
        assert_eq!(move_of("11-15"), Some("11-15"));
        assert_eq!(move_of("3.11-15!?"), Some("11-15"));
        assert_eq!(move_of("12...23-19"), Some("23-19"));
        assert_eq!(move_of("27-20*"), Some("27-20"));
        assert_eq!(move_of("22x15x8"), Some("22x15x8"));
    }

    /// What a PDN game says, without the lines it was on.
    type Said = (Vec<(String, String)>, Vec<String>, String);

    fn said(text: &str) -> Result<Said, ReadRecordError> {
        let g = parse(text)?;
        let tags = g.tags.into_iter().map(|t| (t.name, t.value)).collect();
        let moves = g.moves.into_iter().map(|m| m.text).collect();
        Ok((tags, moves, g.result.unwrap_or_else(|| "*".to_string())))
    }

    fn unsaid((tags, moves, result): &Said) -> String {
        let tags: Vec<(&str, String)> = tags.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
        write(&tags, moves, false, result)
    }

    /// Random and mutated PDN: an error or a game, never a panic; every game read writes
    /// back to text that reads as the same game.
    #[test]
    fn random_and_mutated_records_parse_or_fail_cleanly() {
        let texts = [
            "[Event \"club\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n",
            "[GameType \"20\"]\n[FEN \"W:W31-50:B1-20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n",
            "1. 11-15 {a comment} 23-19 (2. 9-13) 2. 8-11! 22-17?? 1/2-1/2",
        ];
        let games: Vec<Said> = texts.iter().map(|t| said(t).unwrap()).collect();
        crate::testing::check_parser(&games, unsaid, said, 3_000, 24)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn wrap_keeps_units_whole() {
        let units = ["1. 11-15", "23-19", "2. 8-11", "22-17"];
        assert_eq!(wrap(units.into_iter(), 16), "1. 11-15 23-19\n2. 8-11 22-17");
        assert_eq!(wrap(units.into_iter(), 3), "1. 11-15\n23-19\n2. 8-11\n22-17");
    }
}
