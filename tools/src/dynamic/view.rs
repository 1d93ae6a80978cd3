//! What a [`DynSession`](super::DynSession) answers, as plain data with moves in notation:
//! a game's [`View`], a finished search's [`Report`], a running search's [`Thinking`], an
//! [`Analysis`]. Each serialises (serde) to the JSON the web board's page reads
//! (`docs/web.md` lists the shapes), and Python turns them into dictionaries.

use ply::diagram::{Diagram, PieceKind, Shade};
use ply::search::{ProgressInfo, SearchReport, Value};
use ply::Notation;
use serde::Serialize;

use crate::play::analysis::MoveAnalysis;
use crate::play::format_line;
use crate::units::si;

/// A game in play as a front end shows it: the position after `at` moves, its diagram, the
/// moves so far, the legal moves with their cells, the seats and the result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The seats' names.
    pub names: Vec<String>,
    /// Each seat's engine spec, `None` for a person.
    pub seats: Vec<Option<String>>,
    /// The seat to move, `None` when the game shown is over.
    pub to_move: Option<usize>,
    /// The result in words, when the game is over and the last position is shown.
    pub result: Option<String>,
    /// The number of moves before the position shown.
    pub at: usize,
    /// Every move of the game, in notation, with the seat that played it.
    pub moves: Vec<PlayedMove>,
    /// The legal moves of the position shown (none for an earlier position).
    pub legal: Vec<LegalMove>,
    /// The position as a grid, where the game draws one.
    pub diagram: Option<DiagramView>,
    /// The position as the terminal draws it.
    pub text: String,
    /// The cells of the last move before the position shown.
    pub last: Vec<usize>,
    /// The position in the game's notation.
    pub position: String,
    /// Whether `undo` has a person's move to go back to.
    pub can_undo: bool,
    /// Whether `redo` has moves to play again.
    pub can_redo: bool,
    /// The spec that answers hints for the seat to move.
    pub helper: String,
}

/// A move played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedMove {
    /// In notation.
    pub text: String,
    /// The seat that played it.
    pub mover: usize,
}

/// A legal move: its text and the cells it visits (from, each landing, to).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalMove {
    /// In notation.
    pub text: String,
    /// The diagram cells it visits.
    pub cells: Vec<usize>,
}

/// A [`Diagram`] as data: its size, labels and cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagramView {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The cells, row by row from the top.
    pub cells: Vec<CellView>,
    /// Labels under the columns.
    pub col_labels: Vec<String>,
    /// Labels beside the rows.
    pub row_labels: Vec<String>,
}

/// One cell of a diagram.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellView {
    /// `plain`, `light`, `dark`, `pit`, `store` or `off`.
    pub shade: &'static str,
    /// The piece on it.
    pub piece: Option<PieceView>,
    /// A square number or name.
    pub label: Option<String>,
}

/// A piece on a cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceView {
    /// The seat that owns it.
    pub owner: usize,
    /// `man`, `king`, `disc`, `seeds` or `glyph`.
    pub kind: &'static str,
    /// How many (a stack, seeds).
    pub count: u32,
    /// The letter of a `glyph`.
    pub glyph: Option<String>,
}

impl From<&Diagram> for DiagramView {
    fn from(d: &Diagram) -> DiagramView {
        let cells = d
            .cells
            .iter()
            .map(|cell| CellView {
                shade: match cell.shade {
                    Shade::Plain => "plain",
                    Shade::Light => "light",
                    Shade::Dark => "dark",
                    Shade::Pit => "pit",
                    Shade::Store => "store",
                    Shade::Off => "off",
                },
                piece: cell.piece.map(|p| {
                    let (kind, glyph) = match p.kind {
                        PieceKind::Man => ("man", None),
                        PieceKind::King => ("king", None),
                        PieceKind::Disc => ("disc", None),
                        PieceKind::Seeds => ("seeds", None),
                        PieceKind::Glyph(c) => ("glyph", Some(c.to_string())),
                    };
                    PieceView { owner: p.owner.index(), kind, count: p.count, glyph }
                }),
                label: cell.label.clone(),
            })
            .collect();
        DiagramView {
            rows: d.rows,
            cols: d.cols,
            cells,
            col_labels: d.col_labels.clone(),
            row_labels: d.row_labels.clone(),
        }
    }
}

/// A value: its text (`+35`, `win in 7`) and a number for charts (evaluation units, or
/// +-100000 for proven results).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueView {
    /// As the terminal writes it.
    pub text: String,
    /// As a number, `None` when unknown.
    pub number: Option<f64>,
}

impl From<Value> for ValueView {
    fn from(value: Value) -> ValueView {
        let number = match value {
            Value::Heuristic(v) => Some(v),
            Value::Reward(r) => Some((r - 0.5) * 200.0),
            Value::Win(_) => Some(100_000.0),
            Value::Loss(_) => Some(-100_000.0),
            Value::Draw => Some(0.0),
            Value::Unknown => None,
        };
        ValueView { text: value.to_string(), number }
    }
}

/// A finished search: the move, its value and line in notation, and its cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The move chosen, in notation.
    #[serde(rename = "move")]
    pub best: String,
    /// The cells it visits.
    pub cells: Vec<usize>,
    /// Its index among the legal moves (for a hint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Its value for the seat to move.
    pub value: ValueView,
    /// The line expected, in notation, the move first.
    pub pv: Vec<String>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes a second, as `1.2M`.
    pub nps: String,
    /// Time taken.
    pub elapsed_ms: u64,
}

impl Report {
    /// The report of `report`, a search of `state`.
    pub(crate) fn of<G: Notation>(
        game: &G,
        state: &G::State,
        report: &SearchReport<G::Move>,
    ) -> Report {
        Report {
            best: game.format_move(state, report.best_move),
            cells: game.move_cells(state, report.best_move),
            index: None,
            value: report.value.into(),
            pv: format_line(game, state, &report.pv),
            depth: report.depth,
            nodes: report.nodes,
            nps: si(report.nps()),
            elapsed_ms: report.elapsed.as_millis() as u64,
        }
    }
}

/// What a running search has found so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thinking {
    /// The last completed depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The value of the best line, once there is one.
    pub value: Option<ValueView>,
    /// The best line, in notation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes a second, as `1.2M`.
    pub nps: String,
    /// Time so far.
    pub elapsed_ms: u64,
}

impl Thinking {
    /// What `info`, from a search of `state`, shows.
    pub(crate) fn of<G: Notation>(
        game: &G,
        state: &G::State,
        info: &ProgressInfo<G::Move>,
    ) -> Thinking {
        let secs = info.elapsed.as_secs_f64();
        let nps = if secs > 0.0 { info.nodes as f64 / secs } else { 0.0 };
        Thinking {
            depth: info.depth,
            seldepth: info.seldepth,
            value: info.value.map(ValueView::from),
            pv: format_line(game, state, &info.pv),
            nodes: info.nodes,
            nps: si(nps),
            elapsed_ms: info.elapsed.as_millis() as u64,
        }
    }
}

/// What another thread sees of a session at work: the running search, and a line about a
/// long job (`analysing position 3 of 40`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Live {
    /// The running search, if one runs and has found something.
    pub thinking: Option<Thinking>,
    /// What a long job is doing.
    pub status: Option<String>,
}

/// An analysis of a game: each move's value beside the engine's best.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The spec that analysed, in canonical form.
    pub spec: String,
    /// One entry per move analysed.
    pub moves: Vec<AnalysedMove>,
    /// True when a stop ended it before the last move.
    pub stopped: bool,
}

/// One move of an [`Analysis`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysedMove {
    /// The move played.
    pub played: String,
    /// Its value for the seat that played it, where the game lets it be known.
    pub played_value: Option<ValueView>,
    /// The engine's move.
    pub best: String,
    /// Its value.
    pub best_value: ValueView,
    /// Whether the engine prefers another move.
    pub differs: bool,
    /// The engine's line.
    pub pv: Vec<String>,
}

impl AnalysedMove {
    /// The moves of `analysed`, an analysis of `moves` from `start`.
    pub(crate) fn all<G: Notation>(
        game: &G,
        start: &G::State,
        moves: &[G::Move],
        analysed: &[MoveAnalysis<G::Move>],
    ) -> Vec<AnalysedMove> {
        let mut state = start.clone();
        let mut out = Vec::with_capacity(analysed.len());
        for (a, &mv) in analysed.iter().zip(moves) {
            out.push(AnalysedMove {
                played: game.format_move(&state, a.played),
                played_value: a.played_value.map(ValueView::from),
                best: game.format_move(&state, a.best),
                best_value: a.best_value.into(),
                differs: a.differs(),
                pv: format_line(game, &state, &a.pv),
            });
            game.apply(&mut state, mv);
        }
        out
    }
}

/// A saved game: its text in the game's record format and the file name extension that fits
/// it (`pdn`, `ggf` or `txt`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SavedGame {
    /// The record.
    pub text: String,
    /// `pdn` for PDN (tags in brackets), `ggf` for GGF, `txt` for ply's own text.
    pub extension: &'static str,
}

impl SavedGame {
    /// `text`, with the extension its first characters tell.
    pub(crate) fn of(text: String) -> SavedGame {
        let head = text.trim_start();
        let extension = if head.starts_with("(;") {
            "ggf"
        } else if head.starts_with('[') {
            "pdn"
        } else {
            "txt"
        };
        SavedGame { text, extension }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_formats_are_told_apart_by_their_first_characters() {
        assert_eq!(SavedGame::of("[Event \"x\"]\n1. 11-15".into()).extension, "pdn");
        assert_eq!(SavedGame::of("(;GM[Othello]".into()).extension, "ggf");
        assert_eq!(SavedGame::of("position x\n".into()).extension, "txt");
    }

    #[test]
    fn values_carry_a_number_for_charts() {
        assert_eq!(ValueView::from(Value::Win(3)).number, Some(100_000.0));
        assert_eq!(ValueView::from(Value::Unknown).number, None);
        assert_eq!(ValueView::from(Value::Reward(0.75)).number, Some(50.0));
    }
}
