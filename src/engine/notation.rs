//! Text forms: positions in FMJD/PDN FEN (`W:W31-50:B1-20`, on 8×8
//! `B:W21-32:B1-12`) and moves in PDN notation (`32-28`, `19x30`,
//! `28x19x30`), for every board.

use super::geometry::{Geometry, Ten};
use super::{Bitboard, Color, Move, Position, PositionError, Rules, Setup, Square};
use std::fmt;

/// Why a FEN string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// The side to move is not `W` or `B`.
    BadTurn(String),
    /// Not the three colon-separated fields `turn:W...:B...`.
    BadLayout(String),
    /// A piece field does not start with `W` or `B`, or names a side twice.
    BadSide(String),
    /// A piece list item is neither `N`, `KN` nor `N-M`.
    BadItem(String),
    /// Not a square of the board (1..=50 on 10×10).
    BadSquare(String),
    /// The same square is listed twice.
    SquareListedTwice(u8),
    /// The pieces do not make a legal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::BadTurn(t) => write!(f, "side to move must be W or B, not {t:?}"),
            FenError::BadLayout(t) => write!(f, "expected turn:W<pieces>:B<pieces>, got {t:?}"),
            FenError::BadSide(t) => write!(f, "piece list must start with W or B once each: {t:?}"),
            FenError::BadItem(t) => write!(f, "bad piece list item {t:?} (expected N, KN or N-M)"),
            FenError::BadSquare(t) => write!(f, "{t:?} is not a square of this board"),
            FenError::SquareListedTwice(s) => write!(f, "square {s} is listed twice"),
            FenError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

fn parse_square<G: Geometry>(text: &str) -> Result<Square<G>, FenError> {
    let bad = || FenError::BadSquare(text.to_string());
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse::<u8>().ok().and_then(Square::new).ok_or_else(bad)
}

impl Position<Ten> {
    /// Reads a FEN of international draughts (see
    /// [`Position::from_fen_with`]).
    pub fn from_fen(fen: &str) -> Result<Position<Ten>, FenError> {
        Position::from_fen_with(fen, Rules::INTERNATIONAL)
    }
}

impl<G: Geometry> Position<G> {
    /// Reads a FEN in the FMJD/PDN form: `W:W31-50:B1-20`,
    /// `B:BK17,K24:W6,9,10`, as a position played under `rules`. Pieces
    /// lists may come in either order; `K` marks a king; `N-M` is a range of
    /// men (or kings, as `KN-M`).
    pub fn from_fen_with(fen: &str, rules: Rules) -> Result<Position<G>, FenError> {
        let fen = fen.trim();
        let fen = fen.strip_suffix('.').unwrap_or(fen);
        if fen.is_empty() {
            return Err(FenError::Empty);
        }
        let fields: Vec<&str> = fen.split(':').collect();
        // A side with no piece may be left out: `W:WK28` is a lone king.
        if !(2..=3).contains(&fields.len()) {
            return Err(FenError::BadLayout(fen.to_string()));
        }
        let turn = match fields[0].trim() {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(FenError::BadTurn(other.to_string())),
        };
        let mut setup = Setup { turn: Some(turn), ..Setup::default() };
        let mut seen_sides = Vec::new();
        for field in &fields[1..] {
            let field = field.trim();
            let (color, list) = match field.chars().next() {
                Some('W') | Some('w') => (Color::White, &field[1..]),
                Some('B') | Some('b') => (Color::Black, &field[1..]),
                _ => return Err(FenError::BadSide(field.to_string())),
            };
            if seen_sides.contains(&color) {
                return Err(FenError::BadSide(field.to_string()));
            }
            seen_sides.push(color);
            for item in list.split(',').map(str::trim) {
                if item.is_empty() {
                    if list.trim().is_empty() {
                        continue;
                    }
                    return Err(FenError::BadItem(item.to_string()));
                }
                let (king, body) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let squares: Vec<Square<G>> = match body.split_once('-') {
                    Some((a, b)) => {
                        let (a, b) = (parse_square::<G>(a.trim())?, parse_square::<G>(b.trim())?);
                        if a > b {
                            return Err(FenError::BadItem(item.to_string()));
                        }
                        (a.number()..=b.number()).filter_map(Square::new).collect()
                    }
                    None => vec![parse_square(body).map_err(|e| match e {
                        FenError::BadSquare(_) if body.is_empty() => FenError::BadItem(item.to_string()),
                        e => e,
                    })?],
                };
                for s in squares {
                    if (setup.white | setup.black).contains(s) {
                        return Err(FenError::SquareListedTwice(s.number()));
                    }
                    match color {
                        Color::White => setup.white = setup.white.with(s),
                        Color::Black => setup.black = setup.black.with(s),
                    }
                    if king {
                        setup.kings = setup.kings.with(s);
                    }
                }
            }
        }
        Position::from_setup_with(setup, rules).map_err(FenError::Position)
    }

    /// The FEN of this position, white pieces first; runs of three or more
    /// men are written as ranges (`W:W31-50:B1-20`).
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }
}

impl<G: Geometry> Setup<G> {
    /// The FEN of these pieces, as [`Position::to_fen`] writes it, whether
    /// or not they make a legal position (a position editor's work in
    /// progress). A setup with nobody to move is written with White to
    /// move.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        out.push(self.turn.unwrap_or(Color::White).letter());
        for (color, pieces) in [(Color::White, self.white), (Color::Black, self.black)] {
            out.push(':');
            out.push(color.letter());
            let mut items: Vec<String> = Vec::new();
            let squares: Vec<Square<G>> = pieces.squares().collect();
            let mut i = 0;
            while i < squares.len() {
                let s = squares[i];
                if self.kings.contains(s) {
                    items.push(format!("K{s}"));
                    i += 1;
                    continue;
                }
                let mut j = i;
                while j + 1 < squares.len()
                    && squares[j + 1].number() == squares[j].number() + 1
                    && !self.kings.contains(squares[j + 1])
                {
                    j += 1;
                }
                if j - i >= 2 {
                    items.push(format!("{}-{}", s, squares[j]));
                    i = j + 1;
                } else {
                    items.push(s.to_string());
                    i += 1;
                }
            }
            out.push_str(&items.join(","));
        }
        out
    }
}

/// A move as written, before it is matched against a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveText<G: Geometry = Ten> {
    /// Start, any landing squares written in between, end.
    pub squares: Vec<Square<G>>,
    /// Written with `x` (a capture) rather than `-`.
    pub capture: bool,
}

/// Why a move text does not give one legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveTextError {
    /// Not of the form `32-28`, `19x30` or `28x19x30`.
    Malformed(String),
    /// No legal move matches.
    Illegal(String),
    /// Several legal moves match: the text needs the landing squares.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Malformed(t) => write!(f, "{t:?} is not a move (expected 32-28, 19x30 or 28x19x30)"),
            MoveTextError::Illegal(t) => write!(f, "{t} is not a legal move here"),
            MoveTextError::Ambiguous(t, alts) => {
                write!(f, "{t} is ambiguous: write one of {}", alts.join(", "))
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

impl<G: Geometry> MoveText<G> {
    /// Reads `32-28`, `19x30`, `28x19x30` (spaces around separators and
    /// leading zeros allowed, as seen in real PDN files).
    pub fn parse(text: &str) -> Result<MoveText<G>, MoveTextError> {
        let malformed = || MoveTextError::Malformed(text.to_string());
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() || compact.len() > 80 {
            return Err(malformed());
        }
        let capture = compact.contains(['x', 'X', ':']);
        let quiet = compact.contains('-');
        if capture == quiet {
            return Err(malformed());
        }
        let mut squares = Vec::new();
        for part in compact.split(['x', 'X', ':', '-']) {
            squares.push(parse_square(part).map_err(|_| malformed())?);
        }
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(malformed());
        }
        Ok(MoveText { squares, capture })
    }

    fn from(&self) -> Square<G> {
        self.squares[0]
    }

    fn to(&self) -> Square<G> {
        self.squares[self.squares.len() - 1]
    }

    /// The legal moves this text may stand for. `strict` keeps the written
    /// separator; without it, a capture written with `-` (or a quiet move
    /// with `x`), as some old files do, still matches.
    pub fn candidates(&self, pos: &Position<G>, strict: bool) -> Vec<Move<G>> {
        let landings = &self.squares[1..];
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.from == self.from() && m.to == self.to())
            .filter(|m| !strict || m.is_capture() == self.capture)
            .filter(|m| landings.len() == 1 || pos.capture_paths(m).iter().any(|p| follows(p, landings)))
            .collect()
    }

    /// The one legal move this text stands for.
    pub fn resolve(&self, pos: &Position<G>) -> Result<Move<G>, MoveTextError> {
        let text = self.to_string();
        let found = self.candidates(pos, true);
        match found.len() {
            0 => Err(MoveTextError::Illegal(text)),
            1 => Ok(found[0]),
            _ => Err(MoveTextError::Ambiguous(text, found.iter().map(|m| move_to_text(pos, m)).collect())),
        }
    }
}

impl<G: Geometry> fmt::Display for MoveText<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        let parts: Vec<String> = self.squares.iter().map(|s| s.to_string()).collect();
        f.write_str(&parts.join(sep))
    }
}

/// Reads a move in the long form of [`Move::long_form`] (`32-28`,
/// `28x19{23}`) and finds it among the legal moves of `pos`. Unlike PDN text
/// it names the captured pieces, so it is never ambiguous: the web client
/// sends moves this way.
pub fn parse_long_form<G: Geometry>(pos: &Position<G>, text: &str) -> Result<Move<G>, MoveTextError> {
    let malformed = || MoveTextError::Malformed(text.to_string());
    let text = text.trim();
    let Some((head, captured)) = text.split_once('{') else {
        return MoveText::<G>::parse(text)?.resolve(pos);
    };
    let captured = captured.strip_suffix('}').ok_or_else(malformed)?;
    let head = MoveText::<G>::parse(head)?;
    if !head.capture || head.squares.len() != 2 {
        return Err(malformed());
    }
    let mut set = Bitboard::EMPTY;
    for part in captured.split(',') {
        let square = parse_square(part.trim()).map_err(|_| malformed())?;
        set = set.with(square);
    }
    let wanted = Move { from: head.squares[0], to: head.squares[1], captured: set, crowned_in_passing: false };
    pos.legal_moves()
        .into_iter()
        .find(|m| m.same_squares(&wanted))
        .ok_or_else(|| MoveTextError::Illegal(text.to_string()))
}

/// Whether the written landing squares (ending with the end square) appear
/// in this order along `path`: files write the full path (`28x19x30`) or
/// only some of its landing squares (`2x30x17`).
fn follows<G: Geometry>(path: &[Square<G>], written: &[Square<G>]) -> bool {
    let mut rest = path.iter();
    written.iter().all(|w| rest.any(|p| p == w)) && path.last() == written.last()
}

/// Parses `text` and resolves it to exactly one legal move of `pos`.
pub fn parse_move<G: Geometry>(pos: &Position<G>, text: &str) -> Result<Move<G>, MoveTextError> {
    MoveText::parse(text)?.resolve(pos)
}

/// The PDN text of a legal move: `32-28`, `19x30`, or the full path
/// `28x19x30` when another legal capture shares start and end.
pub fn move_to_text<G: Geometry>(pos: &Position<G>, mv: &Move<G>) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from, mv.to);
    }
    move_to_text_among(pos, mv, &pos.legal_moves())
}

/// [`move_to_text`] for a move of `legal`, the position's legal moves
/// already generated (writing every move of a position generates them
/// once).
pub fn move_to_text_among<G: Geometry>(pos: &Position<G>, mv: &Move<G>, legal: &[Move<G>]) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from, mv.to);
    }
    let ambiguous = legal.iter().any(|m| m != mv && m.from == mv.from && m.to == mv.to);
    if !ambiguous {
        return format!("{}x{}", mv.from, mv.to);
    }
    let path = pos.capture_paths(mv).into_iter().next().unwrap_or_else(|| vec![mv.to]);
    let mut text = mv.from.to_string();
    for s in path {
        text.push('x');
        text.push_str(&s.to_string());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trips_and_accepts_both_orders() {
        let start = Position::from_fen("W:W31-50:B1-20").unwrap();
        assert_eq!(start, Position::start());
        assert_eq!(start.to_fen(), "W:W31-50:B1-20");
        let p = Position::from_fen("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46").unwrap();
        assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
        let q = Position::from_fen("W:B12,13:W25,27").unwrap();
        assert_eq!(q.pieces(Color::Black).count(), 2);
        assert!(Position::from_fen("W:W:B1").is_ok());
        assert_eq!(Position::from_fen("W:WK28").unwrap().pieces(Color::Black).count(), 0);
    }

    #[test]
    fn malformed_fen_is_refused_with_a_reason() {
        let cases: &[(&str, fn(&FenError) -> bool)] = &[
            ("", |e| *e == FenError::Empty),
            ("X:W31:B1", |e| matches!(e, FenError::BadTurn(_))),
            ("W", |e| matches!(e, FenError::BadLayout(_))),
            ("W:W31:B1:W2", |e| matches!(e, FenError::BadLayout(_))),
            ("W:W31:W32", |e| matches!(e, FenError::BadSide(_))),
            ("W:Z31:B1", |e| matches!(e, FenError::BadSide(_))),
            ("W:W51:B1", |e| matches!(e, FenError::BadSquare(_))),
            ("W:W0:B1", |e| matches!(e, FenError::BadSquare(_))),
            ("W:W3a:B1", |e| matches!(e, FenError::BadSquare(_))),
            ("W:W31,,32:B1", |e| matches!(e, FenError::BadItem(_))),
            ("W:W40-31:B1", |e| matches!(e, FenError::BadItem(_))),
            ("W:WK:B1", |e| matches!(e, FenError::BadItem(_))),
            ("W:W31,31:B1", |e| matches!(e, FenError::SquareListedTwice(_))),
            ("W:W31:B31", |e| matches!(e, FenError::SquareListedTwice(_))),
            ("W:W3:B40", |e| matches!(e, FenError::Position(PositionError::ManOnPromotionRow(..)))),
        ];
        for (fen, check) in cases {
            let err = Position::from_fen(fen).expect_err(fen);
            assert!(check(&err), "{fen}: {err:?}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn long_form_names_exactly_one_move() {
        let pos = Position::from_fen("W:W26:B12,K21,31,32").unwrap();
        let m = parse_long_form(&pos, "26x8{12,21}").unwrap();
        assert_eq!(m.long_form().to_string(), "26x8{12,21}");
        assert!(matches!(parse_long_form(&pos, "26x8{12}"), Err(MoveTextError::Illegal(_))));
        assert!(matches!(parse_long_form(&pos, "26x8{12,21"), Err(MoveTextError::Malformed(_))));
        assert!(matches!(parse_long_form(&pos, "26-8{12}"), Err(MoveTextError::Malformed(_))));
        assert!(matches!(parse_long_form(&pos, "26x8{a}"), Err(MoveTextError::Malformed(_))));
        assert_eq!(parse_long_form(&Position::start(), "32-28").unwrap().long_form().to_string(), "32-28");
    }

    #[test]
    fn move_text_parses_and_resolves() {
        let start = Position::start();
        let m = parse_move(&start, "32-28").unwrap();
        assert_eq!((m.from.number(), m.to.number()), (32, 28));
        assert_eq!(parse_move(&start, " 32 - 28 ").unwrap(), m);
        assert!(matches!(parse_move(&start, "32-23"), Err(MoveTextError::Illegal(_))));
        assert!(matches!(parse_move(&start, "32x28"), Err(MoveTextError::Illegal(_))));
        for bad in ["", "32", "32-", "32-28-23", "a-b", "32-28x23", "99-28", "3228"] {
            assert!(matches!(parse_move(&start, bad), Err(MoveTextError::Malformed(_))), "{bad}");
        }
    }
}
