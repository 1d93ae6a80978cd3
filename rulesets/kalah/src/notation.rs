//! Text forms: moves (the house number), positions (`4,4,4,4,4,4/0/4,4,4,4,4,4/0 s`) and the
//! terminal picture of [`Notation::render`].

use ply::diagram::{Cell, Diagram, Piece, PieceKind, Shade};
use ply::picture::{chip, dim, mark, Chip};
use ply::{Game, MoveList, Notation, Outcome, Player};

use crate::error::Error;
use crate::rules::{Kalah, KalahState, Move, MAX_PITS};

/// The names of the sides, South first.
const NAMES: [&str; 2] = ["South", "North"];

/// The chips of South's and North's seeds in a coloured picture.
const CHIPS: [Chip; 2] = [Chip::Light, Chip::Dark];

impl Kalah {
    /// One field of a position: `m` house counts separated by commas.
    fn parse_houses(&self, field: &str) -> Result<[u8; MAX_PITS], String> {
        let counts: Vec<&str> = field.split(',').collect();
        if counts.len() != self.pits() {
            return Err(format!("a side has {} houses, not {}", self.pits(), counts.len()));
        }
        let mut houses = [0u8; MAX_PITS];
        for (house, count) in houses.iter_mut().zip(&counts) {
            *house = parse_count(count)?;
        }
        Ok(houses)
    }

    /// One cell of the picture: the count right-aligned in `width`, in brackets when the
    /// last move sowed this house, coloured as the side's seeds with `color`.
    fn cell(count: u8, side: usize, marked: bool, color: bool, width: usize) -> String {
        let text = format!("{count:>width$}");
        let glyph = match (color, count) {
            (false, _) => text,
            (true, 0) => dim(&text),
            (true, _) => chip(CHIPS[side], &text),
        };
        match (marked, color) {
            (true, true) => mark(&glyph),
            (true, false) => format!("[{glyph}]"),
            (false, _) => format!(" {glyph} "),
        }
    }
}

impl Kalah {
    /// The cell of [`Notation::diagram`] that shows `player`'s house `number`: South's
    /// houses along the bottom row from the left, North's along the top row from the right.
    fn house_cell(&self, player: Player, number: usize) -> usize {
        if player == Player::FIRST {
            self.pits() + 2 + number
        } else {
            self.pits() + 1 - number
        }
    }

    /// The picture of [`Notation::render`] with `near`'s houses along the bottom (house 1 on
    /// the left) and its store on the right, the other side's houses and store turned half
    /// round above: `near` South gives `render`'s picture, North the board turned.
    fn picture(
        &self,
        state: &KalahState,
        last_move: Option<Move>,
        color: bool,
        near: Player,
    ) -> String {
        let m = self.pits();
        let far = near.opponent();
        let width = self.total_seeds().to_string().len();
        let marked =
            |p: Player, n: usize| last_move.is_some_and(|mv| mv.player() == p && mv.number() == n);
        let numbers = |order: &mut dyn Iterator<Item = usize>| {
            let cells: String = order.map(|n| format!(" {n:>width$} ")).collect();
            let cells = if color { dim(&cells) } else { cells };
            format!("{}{cells}", " ".repeat(width))
        };
        let row = |p: Player, order: &mut dyn Iterator<Item = usize>| {
            let cells: String = order
                .map(|n| Kalah::cell(state.house(p, n), p.index(), marked(p, n), color, width))
                .collect();
            format!("{}{cells}", " ".repeat(width))
        };
        let stores = format!(
            "{:>width$}{}{:>width$}",
            state.store(far),
            " ".repeat(1 + m * (width + 2)),
            state.store(near),
        );
        let status = match self.outcome(state) {
            Some(Outcome::Scores(s)) if s[0] > s[1] => format!("South wins {}-{}", s[0], s[1]),
            Some(Outcome::Scores(s)) if s[0] < s[1] => format!("North wins {}-{}", s[1], s[0]),
            Some(Outcome::Scores(s)) => format!("draw {}-{}", s[0], s[1]),
            Some(_) => "game over".to_string(),
            None => format!("{} to move", NAMES[state.side_to_move().index()]),
        };
        let lines = [
            numbers(&mut (1..=m).rev()),
            row(far, &mut (1..=m).rev()),
            stores,
            row(near, &mut (1..=m)),
            numbers(&mut (1..=m)),
            status,
        ];
        let lines: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
        lines.join("\n")
    }
}

/// A cell of the diagram holding `seeds` of `owner`'s, painted as `shade`.
fn seeds_cell(shade: Shade, owner: Player, seeds: u8, label: Option<String>) -> Cell {
    Cell { shade, piece: Some(Piece::many(owner, PieceKind::Seeds, seeds.into())), label }
}

/// A seed count: digits only, at most 255.
fn parse_count(text: &str) -> Result<u8, String> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a number of seeds"));
    }
    text.parse::<u8>().map_err(|_| format!("{text:?} seeds do not fit on a board"))
}

impl Notation for Kalah {
    type Error = Error;

    /// The house number, `1` for the house farthest from the mover's store.
    fn format_move(&self, _state: &KalahState, mv: Move) -> String {
        mv.number().to_string()
    }

    /// A house number of the player to move, `1..=m`, whose house is not empty.
    fn parse_move(&self, state: &KalahState, text: &str) -> Result<Move, Error> {
        let trimmed = text.trim();
        let number = match trimmed.parse::<usize>() {
            Ok(n)
                if trimmed.bytes().all(|b| b.is_ascii_digit())
                    && (1..=self.pits()).contains(&n) =>
            {
                n
            }
            _ => return Err(Error::MoveText(text.to_string(), self.pits())),
        };
        let mv = Move::new(state.side_to_move(), number);
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.contains(&mv).then_some(mv).ok_or_else(|| Error::Illegal(text.to_string()))
    }

    /// South's houses 1..m, South's store, North's houses 1..m, North's store, joined by
    /// `/`; then a space and the side to move, `s` or `n`:
    /// `1,0,0,1,2,5/20/1,0,0,0,1,1/16 s`.
    fn format_state(&self, state: &KalahState) -> String {
        let side = |p: Player| {
            let houses: Vec<String> =
                (1..=self.pits()).map(|n| state.house(p, n).to_string()).collect();
            format!("{}/{}", houses.join(","), state.store(p))
        };
        let turn = if state.side_to_move() == Player::FIRST { 's' } else { 'n' };
        format!("{}/{} {turn}", side(Player::FIRST), side(Player::SECOND))
    }

    /// Reads the text of [`Notation::format_state`] (the side to move in either case).
    /// Rejects a wrong number of houses and a total that is not this game's `2 * m * n`.
    /// A position where one side's houses are empty is the end of the game, whoever is to
    /// move.
    fn parse_state(&self, text: &str) -> Result<KalahState, Error> {
        let trimmed = text.trim();
        let fail = |why: String| Error::Position(trimmed.to_string(), why);
        let mut fields = trimmed.split_whitespace();
        let (Some(board), Some(turn), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(fail("expected the board, a space and the side to move (s or n)".into()));
        };
        let side = match turn {
            "s" | "S" => Player::FIRST,
            "n" | "N" => Player::SECOND,
            _ => return Err(fail("the side to move must be s or n".into())),
        };
        let parts: Vec<&str> = board.split('/').collect();
        let [south, south_store, north, north_store] = parts[..] else {
            return Err(fail(
                "expected South's houses/South's store/North's houses/North's store".into(),
            ));
        };
        let houses =
            [self.parse_houses(south).map_err(fail)?, self.parse_houses(north).map_err(fail)?];
        let stores =
            [parse_count(south_store).map_err(fail)?, parse_count(north_store).map_err(fail)?];
        let total: u32 = houses.iter().flatten().chain(&stores).map(|&s| u32::from(s)).sum();
        if total != self.total_seeds() {
            return Err(fail(format!(
                "the board holds {total} seeds, not the {} of Kalah({},{})",
                self.total_seeds(),
                self.pits(),
                self.seeds()
            )));
        }
        Ok(KalahState::from_parts(houses, stores, side))
    }

    /// North's houses along the top (house 1 on the right), South's along the bottom (house
    /// 1 on the left), North's store on the left and South's on the right, house numbers
    /// above and below, the house of `last_move` in brackets, and a line saying who is to
    /// move or how the game ended.
    fn render(&self, state: &KalahState, last_move: Option<Move>, color: bool) -> String {
        self.picture(state, last_move, color, Player::FIRST)
    }

    /// Each player sees its own houses along the bottom (house 1 on the left) and its store
    /// on the right: South (player 0) sees [`Notation::render`]'s picture, North (player 1)
    /// the board turned half round.
    fn render_for(
        &self,
        state: &KalahState,
        last_move: Option<Move>,
        color: bool,
        viewer: Player,
    ) -> String {
        let near = if viewer == Player::FIRST { Player::FIRST } else { Player::SECOND };
        self.picture(state, last_move, color, near)
    }

    /// The board as [`Notation::render`] draws it, two rows of `m + 2` cells: North's store
    /// at the top left, then North's houses from `m` down to 1; South's houses 1 to `m` along
    /// the bottom, then South's store at the bottom right; the other two corners are off
    /// the board. Every house and store holds its seeds (0 included), and every house is
    /// labelled with its number, the move that sows it.
    fn diagram(&self, state: &KalahState) -> Option<Diagram> {
        let m = self.pits();
        let mut d = Diagram::new(2, m + 2);
        d.cells[m + 1].shade = Shade::Off;
        d.cells[m + 2].shade = Shade::Off;
        for p in [Player::FIRST, Player::SECOND] {
            for n in 1..=m {
                let cell = seeds_cell(Shade::Pit, p, state.house(p, n), Some(n.to_string()));
                d.cells[self.house_cell(p, n)] = cell;
            }
        }
        d.cells[0] = seeds_cell(Shade::Store, Player::SECOND, state.store(Player::SECOND), None);
        d.cells[2 * m + 3] =
            seeds_cell(Shade::Store, Player::FIRST, state.store(Player::FIRST), None);
        Some(d)
    }

    /// The house sown.
    fn move_cells(&self, _state: &KalahState, mv: Move) -> Vec<usize> {
        vec![self.house_cell(mv.player(), mv.number())]
    }
}
