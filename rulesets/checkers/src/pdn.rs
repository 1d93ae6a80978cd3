//! Game records in PDN 3.0 (Portable Draughts Notation), the format draughts programs
//! exchange: the `write_record` and `read_record` of [`ply::Notation`] for
//! [`EnglishCheckers`].
//!
//! Written: the tags `Event`, `Result` (`1-0` when Black, the side that moves first, wins,
//! `0-1` when White wins, `1/2-1/2`, `*` while the game goes on), `GameType` (21, English
//! draughts; with the board's size, `21,B,10,10,N1,0`, on boards other than 8x8),
//! `Variant "deepomatic"` under the Deepomatic rules (standard English draughts ends a move
//! when a man is crowned; these rules let it capture on), and `SetUp "1"` with `FEN` when the
//! game does not start from the initial position. Then the movetext, `1. 11-15 23-19 2. ...`
//! (`1...` first when White moves first), wrapped before 80 columns, ending with the result.
//!
//! Read: the first game of the text. Tags may come in any order and unknown ones are
//! ignored; comments (`{...}`, `;` to the end of the line), variations (`(...)`), NAGs
//! (`$1`) and move suffixes (`!`, `?`, `*`) are skipped; moves take `-` or `x`; the result
//! token (or the next game's tags) ends the game. A `GameType` other than English draughts,
//! a board size or rule set other than the game's is refused. A text whose first line is a
//! position (ply's plain record, [`ply::record::write_text`]) is read as such, with
//! the same checks.

use ply::record::{play_checked, ReadRecordError};
use ply::{Game, Notation, Outcome, Player, Record};

use crate::moves::Move;
use crate::notation::fits;
use crate::rules::{CheckersState, EnglishCheckers, Rules};

/// PDN's `GameType` number of English draughts (checkers).
pub(crate) const GAME_TYPE: u32 = 21;

/// The longest line of movetext written (PGN's export limit).
const WIDTH: usize = 79;

/// The record of `moves` from `start` in PDN.
pub(crate) fn write(game: &EnglishCheckers, start: &CheckersState, moves: &[Move]) -> String {
    let (units, outcome) = movetext(game, start, moves);
    let result = result_token(outcome.as_ref());
    let mut text = String::new();
    push_tag(&mut text, "Event", "ply game");
    push_tag(&mut text, "Result", result);
    let game_type = if game.size() == 8 {
        GAME_TYPE.to_string()
    } else {
        format!("{GAME_TYPE},B,{0},{0},N1,0", game.size())
    };
    push_tag(&mut text, "GameType", &game_type);
    if game.rules() != Rules::Standard {
        push_tag(&mut text, "Variant", &game.rules().to_string());
    }
    if *start != game.initial_state() {
        push_tag(&mut text, "SetUp", "1");
        push_tag(&mut text, "FEN", &game.format_state(start));
    }
    text.push('\n');
    text.push_str(&wrap(units.iter().map(String::as_str).chain([result]), WIDTH));
    text.push('\n');
    text
}

/// The movetext units (`12. 11-15`, `23-19`; a move number stays with its move) and the
/// outcome after the moves, replayed with the history rules (repetition).
fn movetext(
    game: &EnglishCheckers,
    start: &CheckersState,
    moves: &[Move],
) -> (Vec<String>, Option<Outcome>) {
    let mut record = Record::new(game, *start);
    let mut units = Vec::with_capacity(moves.len());
    let mut number = 1;
    for (i, &mv) in moves.iter().enumerate() {
        if !record.legal_moves().contains(&mv) {
            // Not a legal game from here on: say so rather than write moves nobody can play.
            units.push(format!("{{ply {}: not a legal move; the record stops here}}", i + 1));
            return (units, None);
        }
        let text = game.format_move(record.state(), mv);
        let first = game.to_move(record.state()) == Player::FIRST;
        units.push(match (first, i) {
            (true, _) => format!("{number}. {text}"),
            (false, 0) => format!("{number}... {text}"),
            (false, _) => text,
        });
        if !first {
            number += 1;
        }
        record.play(mv).expect("the move is in the legal list");
    }
    (units, record.outcome())
}

/// The result token: from the view of the first player (Black).
fn result_token(outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        None => "*",
        Some(Outcome::Winner(p)) if *p == Player::FIRST => "1-0",
        Some(Outcome::Winner(_)) => "0-1",
        Some(_) => "1/2-1/2",
    }
}

/// Appends `[name "value"]` and a newline, escaping `"` and `\` in the value.
fn push_tag(text: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    text.push_str(&format!("[{name} \"{escaped}\"]\n"));
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

/// The start and the moves of the first game in `text`, PDN or ply's plain record.
pub(crate) fn read(
    game: &EnglishCheckers,
    text: &str,
) -> Result<(CheckersState, Vec<Move>), ReadRecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first_line) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return Err(ReadRecordError::new(0, "the file is empty"));
    };
    if !first_line.starts_with('[') && game.parse_state(first_line).is_ok() {
        return read_plain(game, text);
    }
    let pdn = scan(text)?;
    if pdn.tags.is_empty() && pdn.moves.is_empty() && !pdn.ended {
        return Err(ReadRecordError::new(
            0,
            "no PDN game in the file: expected tags like [GameType \"21\"] and moves like \
             1. 11-15 23-19",
        ));
    }
    check_game_type(game, pdn.tag("GameType"))?;
    check_rules(game, pdn.tag("Variant"))?;
    let start = match pdn.tag("FEN") {
        Some(fen) => game
            .parse_state(&fen.value)
            .map_err(|e| ReadRecordError::new(fen.line, format!("FEN tag: {e}")))?,
        None => game.initial_state(),
    };
    let moves = replay(game, &start, &pdn.moves)?;
    Ok((start, moves))
}

/// ply's plain record ([`ply::record::write_text`]): a position on the first line, then one
/// move per line, blank lines skipped. Read here rather than by [`ply::record::read_text`]
/// so that a move after a repetition draw is refused as in PDN.
fn read_plain(
    game: &EnglishCheckers,
    text: &str,
) -> Result<(CheckersState, Vec<Move>), ReadRecordError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (n, first) = lines.next().ok_or_else(|| ReadRecordError::new(0, "the file is empty"))?;
    let start = game.parse_state(first.trim()).map_err(|e| ReadRecordError::new(n + 1, e))?;
    let words: Vec<Word> =
        lines.map(|(i, l)| Word { text: l.trim().to_string(), line: i + 1 }).collect();
    let moves = replay(game, &start, &words)?;
    Ok((start, moves))
}

/// Refuses a `GameType` tag of another game, another start colour or another board size.
fn check_game_type(game: &EnglishCheckers, tag: Option<&Tag>) -> Result<(), ReadRecordError> {
    let Some(tag) = tag else { return Ok(()) };
    let here = if game.size() == 8 {
        "English draughts (GameType 21)".to_string()
    } else {
        format!("English draughts on a {0}x{0} board (GameType 21,B,{0},{0},N1,0)", game.size())
    };
    let err = |what: String| ReadRecordError::new(tag.line, format!("{what}; this game is {here}"));
    let fields: Vec<&str> = tag.value.split(',').map(str::trim).collect();
    let number: u32 = fields[0]
        .parse()
        .map_err(|_| err(format!("GameType {:?} does not start with a number", tag.value)))?;
    if number != GAME_TYPE {
        return Err(err(format!("GameType {number} is {}", game_type_name(number))));
    }
    if fields.len() >= 4 {
        if !fields[1].eq_ignore_ascii_case("B") {
            return Err(err(format!("GameType {:?} has White moving first", tag.value)));
        }
        let (w, h) = (fields[2].parse::<usize>().ok(), fields[3].parse::<usize>().ok());
        if w != Some(game.size()) || h != Some(game.size()) {
            return Err(err(format!(
                "GameType {:?} is for a {}x{} board",
                tag.value, fields[2], fields[3]
            )));
        }
    } else if fields.len() > 1 {
        return Err(err(format!(
            "GameType {:?} is malformed: expected a number, then start colour, width, height \
             and notation",
            tag.value
        )));
    } else if game.size() != 8 {
        return Err(err("GameType 21 is for the 8x8 board".to_string()));
    }
    Ok(())
}

/// Refuses a record whose rules (the `Variant` tag, standard English draughts without one)
/// are not the game's.
fn check_rules(game: &EnglishCheckers, tag: Option<&Tag>) -> Result<(), ReadRecordError> {
    let (rules, line) = match tag {
        Some(tag) => {
            let rules = tag.value.parse::<Rules>().map_err(|_| {
                ReadRecordError::new(
                    tag.line,
                    format!("unknown Variant {:?}: expected deepomatic or standard", tag.value),
                )
            })?;
            (rules, tag.line)
        }
        None => (Rules::Standard, 0),
    };
    if rules == game.rules() {
        return Ok(());
    }
    let file = match tag {
        Some(_) => format!("the file's rules are {rules} (Variant tag)"),
        None => "the file is a game of standard English draughts (no Variant tag)".to_string(),
    };
    Err(ReadRecordError::new(
        line,
        format!(
            "{file}, this game plays the {} rules: load it in a game with the {rules} rules",
            game.rules()
        ),
    ))
}

/// The name of a PDN `GameType` number, for error messages.
fn game_type_name(number: u32) -> &'static str {
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

/// Plays the written moves from `start`, each checked to be legal, with the history rules
/// of [`Record`] (no move after a repetition draw).
fn replay(
    game: &EnglishCheckers,
    start: &CheckersState,
    words: &[Word],
) -> Result<Vec<Move>, ReadRecordError> {
    let mut record = Record::new(game, *start);
    let mut state = *start;
    let mut number = 1;
    let mut moves = Vec::with_capacity(words.len());
    for word in words {
        let first = game.to_move(&state) == Player::FIRST;
        let label = if first { format!("{number}.") } else { format!("{number}...") };
        let err = |e: String| ReadRecordError::new(word.line, format!("{label} {e}"));
        if record.is_repetition_draw() {
            return Err(err(format!(
                "{}: the game was already drawn by threefold repetition",
                word.text
            )));
        }
        let before = state;
        let mv = match play_checked(game, &mut state, &word.text) {
            Ok(mv) => mv,
            Err(e) => {
                let mv = same_result(game, &before, &word.text).ok_or_else(|| err(e))?;
                game.apply(&mut state, mv);
                mv
            }
        };
        record.play(mv).map_err(|e| err(format!("{}: {e}", word.text)))?;
        moves.push(mv);
        if !first {
            number += 1;
        }
    }
    Ok(moves)
}

/// The first of the legal captures that a short form such as `5x32` names when they all
/// take the same pieces from the same start to the same end (they differ only in the order
/// of the jumps, and give the same position), as other programs write them.
fn same_result(game: &EnglishCheckers, state: &CheckersState, text: &str) -> Option<Move> {
    let crate::notation::MoveText::Numbers { squares, .. } = text.parse().ok()? else {
        return None;
    };
    let want: Vec<usize> = squares.iter().map(|&n| n.wrapping_sub(1)).collect();
    let fitting: Vec<Move> = game
        .moves_with_paths(state)
        .into_iter()
        .filter(|(_, path)| fits(&want, path))
        .map(|(m, _)| m)
        .collect();
    let first = *fitting.first()?;
    let same = |m: &Move| {
        m.from == first.from
            && m.to == first.to
            && m.captured == first.captured
            && m.crowns == first.crowns
    };
    fitting.iter().all(same).then_some(first)
}

/// A tag pair and the line it starts on.
#[derive(Debug)]
struct Tag {
    name: String,
    value: String,
    line: usize,
}

/// A move as written and its line.
#[derive(Debug)]
struct Word {
    text: String,
    line: usize,
}

/// The first game of a PDN text: its tags, its moves and whether a result token ended it.
#[derive(Debug, Default)]
struct Pdn {
    tags: Vec<Tag>,
    moves: Vec<Word>,
    ended: bool,
}

impl Pdn {
    /// The first tag named `name`.
    fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// The result tokens of every PDN result type.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// Reads the tags and moves of the first game in `text`, skipping comments, variations,
/// NAGs, move numbers and move suffixes.
fn scan(text: &str) -> Result<Pdn, ReadRecordError> {
    let chars: Vec<char> = text.chars().collect();
    let mut pdn = Pdn::default();
    let mut i = 0;
    let mut line = 1;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let at = line;
        match c {
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
            '%' if line_start => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
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
                    pdn.ended = true;
                    break;
                }
                if let Some(mv) = move_of(&word) {
                    pdn.moves.push(Word { text: mv.to_string(), line: at });
                }
                line_start = false;
                continue;
            }
        }
        line_start = false;
    }
    Ok(pdn)
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
    (!body.is_empty() && !body.chars().all(|c| c == '.')).then_some(body)
}

/// Reads the tag pair opening at `chars[i] == '['`: the tag, the index after its `]`, and
/// the newlines inside it.
fn read_tag(chars: &[char], i: usize, line: usize) -> Result<(Tag, usize, usize), ReadRecordError> {
    let unclosed = || ReadRecordError::new(line, "a tag opened with [ is never closed with ]");
    let mut j = i + 1;
    let mut lines = 0;
    while j < chars.len() && chars[j].is_whitespace() {
        lines += usize::from(chars[j] == '\n');
        j += 1;
    }
    let name_start = j;
    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        j += 1;
    }
    let name: String = chars[name_start..j].iter().collect();
    if name.is_empty() {
        return Err(ReadRecordError::new(line, "a tag without a name: expected [Name \"value\"]"));
    }
    while j < chars.len() && chars[j].is_whitespace() {
        lines += usize::from(chars[j] == '\n');
        j += 1;
    }
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
        while j < chars.len() && chars[j] != ']' {
            if !chars[j].is_whitespace() {
                return Err(ReadRecordError::new(
                    line,
                    format!("tag {name}: text after the quoted value; expected ]"),
                ));
            }
            lines += usize::from(chars[j] == '\n');
            j += 1;
        }
    } else {
        // A value without quotes: everything up to the ].
        while j < chars.len() && chars[j] != ']' {
            lines += usize::from(chars[j] == '\n');
            value.push(chars[j]);
            j += 1;
        }
        value = value.trim().to_string();
    }
    if j >= chars.len() {
        return Err(unclosed());
    }
    Ok((Tag { name, value: value.trim().to_string(), line }, j + 1, lines))
}

/// Skips the variation opening at `chars[i] == '('`, nested ones and comments inside
/// included: the index after its `)` and the newlines inside it.
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
        assert_eq!(move_of("12."), None);
        assert_eq!(move_of("12..."), None);
        assert_eq!(move_of("..."), None);
        assert_eq!(move_of("$14"), None);
        assert_eq!(move_of("!?"), None);
        assert_eq!(move_of("11-15"), Some("11-15"));
        assert_eq!(move_of("3.11-15!?"), Some("11-15"));
        assert_eq!(move_of("27-20*"), Some("27-20"));
        assert_eq!(move_of("22x15x8"), Some("22x15x8"));
    }

    #[test]
    fn wrap_keeps_units_whole() {
        let units = ["1. 11-15", "23-19", "2. 8-11", "22-17"];
        assert_eq!(wrap(units.into_iter(), 16), "1. 11-15 23-19\n2. 8-11 22-17");
        assert_eq!(wrap(units.into_iter(), 3), "1. 11-15\n23-19\n2. 8-11\n22-17");
    }

    #[test]
    fn scan_counts_lines_through_comments_and_tags() {
        let text = "[Event \"a \\\"b\\\"\"]\n{one\ntwo} 1. 11-15 (1. 9-13\n{x\n}) $2\n; c\n23-19 *";
        let pdn = scan(text).unwrap();
        assert_eq!(pdn.tags[0].value, "a \"b\"");
        let lines: Vec<_> = pdn.moves.iter().map(|w| (w.text.as_str(), w.line)).collect();
        assert_eq!(lines, [("11-15", 3), ("23-19", 7)]);
        assert!(pdn.ended);
        assert_eq!(scan("{never").unwrap_err().line, 1);
        assert_eq!(scan("\n(1. 9-13").unwrap_err().line, 2);
        assert_eq!(scan("[Event \"x\"\n").unwrap_err().line, 1);
    }
}
