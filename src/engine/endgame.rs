//! Exact endgame tables: every position with at most three pieces, won or
//! lost in how many plies, or drawn, under each preset's move rules,
//! computed once on first use.
//!
//! A table is worked out forwards, not by unmaking moves: each position's
//! moves are generated once, the positions they lead to in other tables
//! (after a capture or a crowning, solved first) are summed up, and the
//! moves within the same table are kept as a list of indices; then pass `k`
//! marks the positions won in `k` plies (odd `k`: a move to a position lost
//! in `k - 1`) or lost in `k` (even `k`: every move leads to a position won
//! in at most `k - 1`, one of them in exactly that). What no pass reaches is
//! a draw with best play. The draw rules (no progress, the move limit) are
//! left to the search, which knows the counters.

use super::geometry::{Eight, Geometry, Ten};
use super::rules::PackedRules;
use super::{Bitboard, Color, MoveList, Position, Preset, Rules, Setup, Square};
use std::any::Any;
use std::sync::OnceLock;

/// The most pieces, both sides together, a table holds.
pub const MAX_PIECES: u32 = 3;

/// What best play makes of a position, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Won in this many plies (odd: the winner makes the last move).
    Win(u8),
    /// Lost in this many plies (even; 0: no move now).
    Loss(u8),
    Draw,
}

/// A stored value: 0 a draw (or a square arrangement no position has),
/// otherwise the distance to the end in plies plus one; its parity says
/// who wins.
type Value = u8;
const DRAW: Value = 0;
/// Distances stop here (none of the three-piece endings comes close).
const MAX_DISTANCE: u32 = 250;

/// How many pieces of each kind: white men, white kings, black men, black
/// kings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Material([u8; 4]);

impl Material {
    /// Every material with a piece on each side and at most
    /// [`MAX_PIECES`] in all, in the order tables are solved: fewer pieces
    /// first, then fewer men (a capture leads to fewer pieces, a crowning to
    /// fewer men).
    fn all() -> Vec<Material> {
        let mut all = Vec::new();
        let n = MAX_PIECES as u8;
        for wm in 0..=n {
            for wk in 0..=n {
                for bm in 0..=n {
                    for bk in 0..=n {
                        let m = Material([wm, wk, bm, bk]);
                        if wm + wk >= 1 && bm + bk >= 1 && m.pieces() <= MAX_PIECES {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.0[0] + m.0[2]));
        all
    }

    fn of<G: Geometry>(pos: &Position<G>) -> Material {
        let count = |b: Bitboard<G>| b.count() as u8;
        Material([
            count(pos.men(Color::White)),
            count(pos.kings_of(Color::White)),
            count(pos.men(Color::Black)),
            count(pos.kings_of(Color::Black)),
        ])
    }

    /// White's pieces, a dash, Black's: `M` a man, `K` a king.
    fn name(self) -> String {
        let [wm, wk, bm, bk] = self.0.map(|c| c as usize);
        format!("{}{}-{}{}", "M".repeat(wm), "K".repeat(wk), "M".repeat(bm), "K".repeat(bk))
    }

    fn pieces(self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// Where its table sits among the 4⁴ slots.
    fn slot(self) -> usize {
        self.0.iter().fold(0, |slot, &c| slot * 4 + c as usize)
    }

    /// The kind of each piece, in index order: white men, white kings,
    /// black men, black kings.
    fn kinds(self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        for (kind, &count) in Kind::ALL.iter().zip(&self.0) {
            kinds.extend(std::iter::repeat_n(*kind, count as usize));
        }
        kinds
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Kind {
    color: Color,
    king: bool,
}

impl Kind {
    const ALL: [Kind; 4] = [
        Kind { color: Color::White, king: false },
        Kind { color: Color::White, king: true },
        Kind { color: Color::Black, king: false },
        Kind { color: Color::Black, king: true },
    ];
}

/// The verdicts of every position of at most [`MAX_PIECES`] pieces on
/// board `G` under one set of move rules.
pub struct EndgameTable<G: Geometry = Ten> {
    /// One table per material (by [`Material::slot`]), indexed by the side
    /// to move and each piece's square (same-kind pieces in rising order).
    tables: Vec<Vec<Value>>,
    _board: std::marker::PhantomData<G>,
}

impl<G: Geometry> EndgameTable<G> {
    /// Solves every material under `rules` (only the rules that shape the
    /// moves matter).
    pub fn compute(rules: Rules) -> EndgameTable<G> {
        let mut table = EndgameTable { tables: vec![Vec::new(); 4usize.pow(4)], _board: std::marker::PhantomData };
        for material in Material::all() {
            let solved = table.solve(material, rules);
            table.tables[material.slot()] = solved;
        }
        table
    }

    /// The verdict for `pos`, if it has at most [`MAX_PIECES`] pieces.
    pub fn probe(&self, pos: &Position<G>) -> Option<Verdict> {
        if pos.occupied().count() > MAX_PIECES {
            return None;
        }
        let material = Material::of(pos);
        let values = &self.tables[material.slot()];
        if values.is_empty() {
            // A side without pieces has lost; the game ends before this.
            return None;
        }
        Some(verdict(values[index_of(pos)]))
    }

    /// What each material's table holds, in solving order (for the
    /// command line: it walks every entry).
    pub fn summary(&self, rules: Rules) -> Vec<MaterialSummary> {
        Material::all()
            .into_iter()
            .map(|material| {
                let kinds = material.kinds();
                let values = &self.tables[material.slot()];
                let mut summary = MaterialSummary { name: material.name(), ..MaterialSummary::default() };
                for (entry, &value) in values.iter().enumerate() {
                    if position_at::<G>(&kinds, entry, rules).is_none() {
                        continue;
                    }
                    summary.positions += 1;
                    match verdict(value) {
                        Verdict::Win(d) => {
                            summary.won += 1;
                            summary.longest_win = summary.longest_win.max(d);
                        }
                        Verdict::Loss(_) => summary.lost += 1,
                        Verdict::Draw => summary.drawn += 1,
                    }
                }
                summary
            })
            .collect()
    }

    /// The values of every position with `material`, the tables it leads to
    /// being solved already.
    fn solve(&self, material: Material, rules: Rules) -> Vec<Value> {
        let kinds = material.kinds();
        let entries = 2 * (G::SQUARES as usize).pow(kinds.len() as u32);
        let mut values = vec![DRAW; entries];
        // Moves that stay in this table, as a list of entries per entry.
        let mut starts = vec![0u32; entries + 1];
        let mut inside: Vec<u32> = Vec::new();
        // What the moves leaving the table give: the quickest win found,
        // the slowest loss, and whether one of them draws.
        let mut quickest_win = vec![u32::MAX; entries];
        let mut slowest_loss = vec![0u32; entries];
        let mut draw_outside = vec![false; entries];
        let mut open = Vec::new();
        let mut moves = MoveList::new();
        for entry in 0..entries {
            starts[entry] = inside.len() as u32;
            let Some(pos) = position_at::<G>(&kinds, entry, rules) else { continue };
            moves.clear();
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                values[entry] = 1;
                continue;
            }
            for mv in moves.iter() {
                let child = pos.play_unchecked(mv);
                if Material::of(&child) == material {
                    inside.push(index_of(&child) as u32);
                    continue;
                }
                let child_value = if child.pieces(child.turn()).is_empty() {
                    1
                } else {
                    self.tables[Material::of(&child).slot()][index_of(&child)]
                };
                match verdict(child_value) {
                    Verdict::Loss(d) => quickest_win[entry] = quickest_win[entry].min(d as u32 + 1),
                    Verdict::Win(d) => slowest_loss[entry] = slowest_loss[entry].max(d as u32 + 1),
                    Verdict::Draw => draw_outside[entry] = true,
                }
            }
            open.push(entry as u32);
        }
        starts[entries] = inside.len() as u32;

        let furthest_outside = open
            .iter()
            .map(|&e| {
                let e = e as usize;
                slowest_loss[e].max(if quickest_win[e] == u32::MAX { 0 } else { quickest_win[e] })
            })
            .max()
            .unwrap_or(0);
        let mut plies = 1;
        while plies <= MAX_DISTANCE && !open.is_empty() {
            let mut marked = false;
            open.retain(|&e| {
                let e = e as usize;
                let children = &inside[starts[e] as usize..starts[e + 1] as usize];
                let child = |c: &u32| verdict(values[*c as usize]);
                let decided = if plies % 2 == 1 {
                    // Won: a move to a position lost in `plies - 1`.
                    quickest_win[e] == plies || children.iter().any(|c| child(c) == Verdict::Loss(plies as u8 - 1))
                } else {
                    // Lost: every move to a won position, the slowest won
                    // in `plies - 1`.
                    let slowest = children.iter().map(|c| match child(c) {
                        Verdict::Win(d) => Some(d as u32 + 1),
                        _ => None,
                    });
                    !draw_outside[e]
                        && quickest_win[e] == u32::MAX
                        && slowest.chain([Some(slowest_loss[e])]).try_fold(0, |max, d| d.map(|d| d.max(max)))
                            == Some(plies)
                };
                if decided {
                    values[e] = plies as Value + 1;
                    marked = true;
                }
                !decided
            });
            if !marked && plies > furthest_outside {
                break;
            }
            plies += 1;
        }
        values
    }
}

/// Counts of one material's table, for the side to move.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MaterialSummary {
    /// White's pieces, a dash, Black's: `M` a man, `K` a king (`KK-K`).
    pub name: String,
    pub positions: u64,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    /// The longest win with best play, in plies.
    pub longest_win: u8,
}

/// A stored value read as a verdict.
fn verdict(value: Value) -> Verdict {
    match value {
        DRAW => Verdict::Draw,
        v if (v - 1) % 2 == 1 => Verdict::Win(v - 1),
        v => Verdict::Loss(v - 1),
    }
}

/// The entry of `pos` in its material's table: the side to move, then each
/// piece's square, kinds in [`Material::kinds`] order.
fn index_of<G: Geometry>(pos: &Position<G>) -> usize {
    let squares = G::SQUARES as usize;
    let mut index = (pos.turn() == Color::Black) as usize;
    for kind in Kind::ALL {
        let of_kind = if kind.king { pos.kings_of(kind.color) } else { pos.men(kind.color) };
        for square in of_kind.squares() {
            index = index * squares + square.number() as usize - 1;
        }
    }
    index
}

/// The position at `entry` of the table of `kinds`, if the entry is one:
/// same-kind pieces in rising order, on distinct squares, and a position
/// by [`Position::from_setup_with`]'s checks.
fn position_at<G: Geometry>(kinds: &[Kind], mut entry: usize, rules: Rules) -> Option<Position<G>> {
    let squares = G::SQUARES as usize;
    let mut numbers = [0u8; MAX_PIECES as usize];
    for i in (0..kinds.len()).rev() {
        numbers[i] = (entry % squares) as u8 + 1;
        entry /= squares;
    }
    let turn = if entry == 1 { Color::Black } else { Color::White };
    let mut setup = Setup { turn: Some(turn), ..Setup::default() };
    for (i, kind) in kinds.iter().enumerate() {
        if i > 0 && kinds[i - 1] == *kind && numbers[i - 1] >= numbers[i] {
            return None;
        }
        let square = Square::new(numbers[i])?;
        match kind.color {
            Color::White => setup.white = setup.white.with(square),
            Color::Black => setup.black = setup.black.with(square),
        }
        if kind.king {
            setup.kings = setup.kings.with(square);
        }
    }
    // Two pieces of one colour on a square would merge into one.
    if (setup.white | setup.black).count() != kinds.len() as u32 {
        return None;
    }
    Position::from_setup_with(setup, rules).ok()
}

/// The table for positions played under `rules`, when their moves are a
/// preset's (the first call for a preset computes it, about half a second
/// for the 10×10 board in a release build and ten times that in a debug
/// one; calls meanwhile wait for it, so every search sees the same table).
pub fn table_for<G: Geometry>(rules: Rules) -> Option<&'static EndgameTable<G>> {
    let preset = Preset::ALL.into_iter().find(|p| same_moves(p.rules(), rules))?;
    table_of(preset).downcast_ref::<EndgameTable<G>>()
}

/// Computes every preset's table now, so that no search waits for one
/// later (the server calls it once, beside its first requests).
pub fn compute_all() {
    for preset in Preset::ALL {
        table_of(preset);
    }
}

/// The table of `preset`'s moves on its board, computed on the first call.
fn table_of(preset: Preset) -> &'static (dyn Any + Send + Sync) {
    static TABLES: [OnceLock<Box<dyn Any + Send + Sync>>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = Preset::ALL.iter().position(|p| *p == preset).expect("a preset");
    let rules = preset.rules();
    TABLES[i]
        .get_or_init(|| match rules.size {
            8 => Box::new(EndgameTable::<Eight>::compute(rules)),
            _ => Box::new(EndgameTable::<Ten>::compute(rules)),
        })
        .as_ref()
}

/// Whether two rule sets give every position the same moves.
fn same_moves(a: Rules, b: Rules) -> bool {
    a.size == b.size && PackedRules::of(&a).moves() == PackedRules::of(&b).moves()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english(fen: &str) -> Position<Eight> {
        Position::from_fen_with(fen, Rules::ENGLISH).unwrap()
    }

    #[test]
    fn every_material_has_a_table_and_solving_order_respects_what_moves_lead_to() {
        let all = Material::all();
        assert_eq!(all.len(), 4 + 12);
        for pair in all.windows(2) {
            let key = |m: Material| (m.pieces(), m.0[0] + m.0[2]);
            assert!(key(pair[0]) <= key(pair[1]));
        }
    }

    /// Every verdict agrees with the verdicts one move later, checked
    /// position by position (not as the passes computed them): a win has a
    /// move to a loss one ply shorter and none to a quicker one, a loss has
    /// only moves to wins, the slowest one ply shorter, a draw has no move
    /// to a loss and one to a draw.
    fn check_every_verdict<G: Geometry>(rules: Rules) -> usize {
        let table = table_for::<G>(rules).unwrap();
        let mut checked = 0;
        for material in Material::all() {
            let kinds = material.kinds();
            for entry in 0..2 * (G::SQUARES as usize).pow(kinds.len() as u32) {
                let Some(pos) = position_at::<G>(&kinds, entry, rules) else { continue };
                let children: Vec<Verdict> = pos
                    .legal_moves()
                    .iter()
                    .map(|mv| {
                        let child = pos.play_unchecked(mv);
                        table.probe(&child).unwrap_or(Verdict::Loss(0))
                    })
                    .collect();
                let quickest_win =
                    children.iter().filter_map(|v| if let Verdict::Loss(d) = v { Some(*d) } else { None }).min();
                let verdict = table.probe(&pos).unwrap();
                match verdict {
                    Verdict::Win(d) => assert_eq!(quickest_win, Some(d - 1), "{pos:?}"),
                    Verdict::Loss(0) => assert!(children.is_empty(), "{pos:?}"),
                    Verdict::Loss(d) => {
                        let slowest = children.iter().map(|v| if let Verdict::Win(d) = v { *d } else { u8::MAX }).max();
                        assert_eq!(slowest, Some(d - 1), "{pos:?}: {children:?}");
                    }
                    Verdict::Draw => {
                        assert_eq!(quickest_win, None, "{pos:?}");
                        assert!(children.contains(&Verdict::Draw), "{pos:?}");
                    }
                }
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn every_english_verdict_agrees_with_the_verdicts_a_move_later() {
        assert!(check_every_verdict::<Eight>(Rules::ENGLISH) > 100_000);
    }

    #[test]
    fn every_russian_verdict_agrees_with_the_verdicts_a_move_later() {
        assert!(check_every_verdict::<Eight>(Rules::RUSSIAN) > 100_000);
    }

    #[test]
    fn english_endings_are_judged_as_the_books_say() {
        let table = table_for::<Eight>(Rules::ENGLISH).unwrap();
        // Two kings beat one in English draughts (short kings).
        let two_kings = english("W:WK1,K5:BK32");
        assert!(matches!(table.probe(&two_kings), Some(Verdict::Win(_))), "{:?}", table.probe(&two_kings));
        // One king against one: a draw.
        assert_eq!(table.probe(&english("W:WK1:BK32")), Some(Verdict::Draw));
        // No move: lost now.
        assert_eq!(table.probe(&english("B:WK1,K5:B")), None, "a side without pieces is not in the table");
    }
}
