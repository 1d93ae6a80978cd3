//! What the terminal prints about moves and searches: lines of moves in notation, score
//! sheets, results in words, engine lines and the live status line, wrapped or cut so that
//! no move is ever split across lines.

use ply::book::Book;
use ply::search::{ProgressInfo, SearchReport};
use ply::{Game, MoveList, Notation, Outcome, Player, Record, Solved};

use crate::units::{secs, si};

/// A line of moves in notation, played from `start`, stopping at the first move that is not
/// legal (a search's PV may run past the end of the game).
pub(crate) fn format_line<G: Notation>(
    game: &G,
    start: &G::State,
    line: &[G::Move],
) -> Vec<String> {
    let mut state = start.clone();
    let mut legal = MoveList::new();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        game.generate_moves(&state, &mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(game.format_move(&state, mv));
        game.apply(&mut state, mv);
    }
    out
}

/// The moves of a game numbered as a score sheet: `1. a b 2. c d` for two players, `1. a 2. b`
/// otherwise.
pub(crate) fn score_sheet<G: Notation>(game: &G, start: &G::State, moves: &[G::Move]) -> String {
    let line = format_line(game, start, moves);
    if game.num_players() == 2 {
        line.chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        line.iter()
            .enumerate()
            .map(|(i, m)| format!("{}. {m}", i + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The moves of the game so far as a score sheet, `moves: 1. ...`, wrapped.
pub(crate) fn moves_line<G: Notation>(record: &Record<'_, G>) -> String {
    let sheet = score_sheet(record.game(), record.start(), record.moves());
    wrap(&format!("moves: {sheet}"), terminal_width(), "       ")
}

/// Prints the final picture, the result and the score sheet.
pub(crate) fn print_result<G: Notation>(
    record: &Record<'_, G>,
    names: &[String],
    (color, viewer): (bool, Player),
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let game = record.game();
    let last = record.moves().last().copied();
    writeln!(out, "\n{}\n", game.render_for(record.state(), last, color, viewer))?;
    if let Some(outcome) = record.outcome() {
        writeln!(
            out,
            "result: {}",
            describe_outcome(&outcome, names, record.is_repetition_draw())
        )?;
    }
    writeln!(out, "{}", moves_line(record))
}

/// The result in words: `Black wins`, `draw by repetition`, `scores: Black 40, White 24 (Black
/// wins)`.
pub(crate) fn describe_outcome(outcome: &Outcome, names: &[String], repetition: bool) -> String {
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| Player::new(i).to_string());
    match outcome {
        Outcome::Winner(p) => format!("{} wins", name(p.index())),
        Outcome::Draw if repetition => "draw by repetition".to_string(),
        Outcome::Draw => "draw".to_string(),
        Outcome::Scores(scores) => {
            let list: Vec<String> =
                scores.iter().enumerate().map(|(i, s)| format!("{} {s}", name(i))).collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            let top: Vec<String> =
                (0..scores.len()).filter(|&i| scores[i] == best).map(name).collect();
            let verdict = match top.len() {
                1 => format!("{} wins", top[0]),
                n if n == scores.len() => "draw".to_string(),
                _ => format!("tie between {}", top.join(" and ")),
            };
            format!("scores: {} ({verdict})", list.join(", "))
        }
    }
}

/// One line of engine statistics: the move, then depth, score, nodes, speed, time and PV;
/// or the move and `forced` when it was the only legal one.
pub fn engine_line<G: Notation>(
    game: &G,
    state: &G::State,
    who: &str,
    report: &SearchReport<G::Move>,
) -> String {
    let mv = game.format_move(state, report.best_move);
    format!("{who} plays {mv}   {}", search_summary(game, state, report))
}

/// True if `report` is a move an agent played from `book` in `state` without searching (a
/// [`ply::book::BookAgent`] answers book moves with no depth and no nodes).
pub fn from_book<G: Game>(
    book: Option<&Book<G>>,
    game: &G,
    state: &G::State,
    report: &SearchReport<G::Move>,
) -> bool {
    report.nodes == 0
        && report.depth == 0
        && book.is_some_and(|b| b.moves(game, state).iter().any(|m| m.mv == report.best_move))
}

/// The line of a move played from the opening book: `White plays 32-28   book  score +12
/// line 32-28 18-23 ...` (the book's value and its main line).
pub(crate) fn book_line<G: Notation>(
    game: &G,
    state: &G::State,
    who: &str,
    report: &SearchReport<G::Move>,
) -> String {
    let mv = game.format_move(state, report.best_move);
    let line = format_line(game, state, &report.pv).join(" ");
    format!("{who} plays {mv}   book  score {}  line {line}", report.value)
}

/// The line of `hint`: the suggested move and the search behind it, as [`engine_line`].
pub(crate) fn hint_line<G: Notation>(
    game: &G,
    state: &G::State,
    report: &SearchReport<G::Move>,
) -> String {
    let mv = game.format_move(state, report.best_move);
    format!("hint: {mv}   {}", search_summary(game, state, report))
}

/// The endgame tables' verdict on the position, for the player to move: `endgame tables:
/// White wins in 15 plies`.
pub(crate) fn tables_line(who: &str, verdict: Solved) -> String {
    let plies = |n: u32| if n == 1 { "1 ply".to_string() } else { format!("{n} plies") };
    match verdict {
        Solved::Win(n) => format!("endgame tables: {who} wins in {}", plies(n)),
        Solved::Loss(n) => format!("endgame tables: {who} loses in {}", plies(n)),
        Solved::Draw => "endgame tables: a draw".to_string(),
        Solved::Margin(m) => format!("endgame tables: {who} finishes {m:+}"),
    }
}

/// What a search found, after its move: `forced` when `state` has one legal move, else
/// depth, score, nodes, speed, time and PV.
fn search_summary<G: Notation>(
    game: &G,
    state: &G::State,
    report: &SearchReport<G::Move>,
) -> String {
    let mut legal = MoveList::new();
    game.generate_moves(state, &mut legal);
    if legal.len() == 1 {
        return "forced".to_string();
    }
    let pv = format_line(game, state, &report.pv).join(" ");
    let mut line = format!("depth {}", report.depth);
    if report.seldepth > report.depth {
        line += &format!("/{}", report.seldepth);
    }
    line += &format!("  score {}  nodes {}", report.value, si(report.nodes as f64));
    if report.iterations > 0 {
        line += &format!("  iters {}", si(report.iterations as f64));
    }
    line += &format!("  nps {}  time {}  pv {pv}", si(report.nps()), secs(report.elapsed));
    line
}

/// The width to wrap the terminal's lines at: `$COLUMNS` when set (at least 20), else the
/// width of the terminal on stdout, else 80.
pub(crate) fn terminal_width() -> usize {
    let terminal = console::Term::stdout().size_checked().map(|(_, columns)| columns);
    pick_width(std::env::var("COLUMNS").ok().as_deref(), terminal)
}

/// [`terminal_width`] from the value of `$COLUMNS` and the terminal's own width.
fn pick_width(columns: Option<&str>, terminal: Option<u16>) -> usize {
    columns
        .and_then(|c| c.trim().parse().ok())
        .or(terminal.map(usize::from))
        .filter(|&w| w >= 20)
        .unwrap_or(80)
}

/// `text` wrapped to `width` columns, breaking only at spaces and never between a move number
/// (`12.` or `12...`) and its move or an engine line's label and its value (`time 1.2s`), continuation lines starting with `indent`. A word longer
/// than a line stays whole on a line of its own; lines of `text` are wrapped one by one.
///
/// ```
/// use ply_tools::play::wrap;
/// assert_eq!(wrap("1. e4 e5 2. Nf3 Nc6", 12, "  "), "1. e4 e5\n  2. Nf3 Nc6");
/// ```
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = Vec::new();
    for source in text.split('\n') {
        let mut line = String::new();
        for unit in units(source) {
            let fits = line.chars().count() + unit.chars().count() <= width;
            if fits || line.trim().is_empty() {
                line.push_str(&unit);
            } else {
                out.push(line);
                line = format!("{indent}{}", unit.trim_start());
            }
        }
        out.push(line);
    }
    out.join("\n")
}

/// The words that stay with the word after them: an engine line's labels, and `player` of a
/// numbered seat (`player 4`).
const LABELS: [&str; 8] = ["depth", "score", "nodes", "iters", "nps", "time", "pv", "player"];

/// The pieces of `line` that [`wrap`] never splits: each word with the spaces before it, a
/// move number or an engine line's label (`depth 9`) joined to the word after it.
fn units(line: &str) -> Vec<String> {
    let mut units: Vec<String> = Vec::new();
    let mut rest = line;
    let mut glue = false;
    while !rest.is_empty() {
        let spaces = rest.len() - rest.trim_start_matches(' ').len();
        let word_end = rest[spaces..].find(' ').map_or(rest.len(), |i| spaces + i);
        let (piece, tail) = rest.split_at(word_end);
        let word = &piece[spaces..];
        match units.last_mut() {
            Some(last) if glue => last.push_str(piece),
            _ => units.push(piece.to_string()),
        }
        glue = is_move_number(word) || LABELS.contains(&word);
        rest = tail;
    }
    units
}

/// True for `12.` and `12...`.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The status line shown while `who` searches `state`: the time so far and, once the search
/// has published [`ProgressInfo`], its depth, score, speed and best line, cut to `width`
/// columns between moves so that redrawing it never wraps.
pub(crate) fn status_line<G: Notation>(
    game: &G,
    state: &G::State,
    who: &str,
    elapsed: std::time::Duration,
    info: Option<&ProgressInfo<G::Move>>,
    width: usize,
) -> String {
    let mut line = format!("{who} thinking {:.1}s", elapsed.as_secs_f64());
    if let Some(info) = info {
        if info.depth > 0 {
            line += &format!("  depth {}", info.depth);
        }
        if let Some(value) = info.value {
            line += &format!("  score {value}");
        }
        let seconds = info.elapsed.as_secs_f64();
        if seconds > 0.0 {
            line += &format!("  nps {}", si(info.nodes as f64 / seconds));
        }
        let mut pv = format_line(game, state, &info.pv).into_iter();
        if let Some(first) = pv.next() {
            let mut with_pv = format!("{line}  pv {first}");
            for mv in pv {
                if with_pv.chars().count() + 1 + mv.chars().count() > width {
                    break;
                }
                with_pv = format!("{with_pv} {mv}");
            }
            if with_pv.chars().count() <= width {
                line = with_pv;
            }
        }
    }
    line.chars().take(width).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::games::ConnectFour;
    use ply::search::Value;
    use ply::Game;
    use std::time::Duration;

    /// `$COLUMNS` first, then the terminal's width (a 60-column pane wraps at 60), then 80.
    #[test]
    fn the_width_comes_from_columns_then_the_terminal() {
        assert_eq!(pick_width(Some("100"), Some(60)), 100);
        assert_eq!(pick_width(None, Some(60)), 60);
        assert_eq!(pick_width(Some("x"), Some(60)), 60);
        assert_eq!(pick_width(None, None), 80);
        assert_eq!(pick_width(None, Some(5)), 80, "too narrow to use");
    }

    #[test]
    fn wrapping_never_splits_a_move_or_its_number() {
        let sheet = "moves: 1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 4. 7x14 25-22 5. 3-8";
        let wrapped = wrap(sheet, 30, "       ");
        for line in wrapped.lines() {
            assert!(line.chars().count() <= 30, "{line:?}");
            assert!(!line.trim_end().ends_with('.'), "a number left alone: {line:?}");
        }
        assert_eq!(wrapped.lines().nth(1), Some("       22-17 3. 9-13 17x10"));
        let words: Vec<&str> = wrapped.split_whitespace().collect();
        assert_eq!(words, sheet.split_whitespace().collect::<Vec<_>>());
        // Spacing inside a line is kept; a word wider than the line stays whole.
        assert_eq!(wrap("a   b", 80, ""), "a   b");
        assert_eq!(wrap("x 22x15x8x1", 5, " "), "x\n 22x15x8x1");
        assert_eq!(wrap("", 10, " "), "");
        assert_eq!(wrap("nodes 1.4M  time 3.998s", 16, ""), "nodes 1.4M\ntime 3.998s");
        assert_eq!(wrap("player 3: x, player 4: y", 20, " "), "player 3: x,\n player 4: y");
        assert!(is_move_number("12.") && is_move_number("3...") && !is_move_number("e4."));
    }

    #[test]
    fn the_status_line_shows_the_search_and_fits_its_width() {
        let game = ConnectFour::standard();
        let state = game.initial_state();
        let plain = status_line(&game, &state, "Red", Duration::from_millis(1400), None, 79);
        assert_eq!(plain, "Red thinking 1.4s");
        let info = ProgressInfo {
            depth: 9,
            seldepth: 9,
            value: Some(Value::Heuristic(12.0)),
            nodes: 2_000_000,
            elapsed: Duration::from_secs(1),
            pv: vec![3u8, 3, 2, 4, 4, 4, 1, 5, 0, 6, 3, 3, 2, 2, 1, 1],
        };
        let line = status_line(&game, &state, "Red", Duration::from_secs(1), Some(&info), 79);
        assert!(line.starts_with("Red thinking 1.0s  depth 9  score "), "{line}");
        assert!(line.contains("nps 2.00M  pv 4 4 3 5"), "{line}");
        let short = status_line(&game, &state, "Red", Duration::from_secs(1), Some(&info), 60);
        assert!(short.chars().count() <= 60 && short.contains("pv 4"), "{short}");
        assert!(line.starts_with(&short), "cut between moves: {short:?} / {line:?}");
    }
}
