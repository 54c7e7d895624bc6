//! Legal move generation under FMJD rules.
//!
//! Captures come first: if any piece can capture, only captures are legal,
//! and among them only those that take the most pieces (a king counts as
//! one). A capture goes on while it can; jumped pieces stay on the board until
//! the move ends, so they block and cannot be jumped twice. Men capture in
//! all four directions, one square at a time; kings fly. Paths that share
//! start, end and captured set are one move.

use super::bitboard::{single_bits, Direction};
use super::{Bitboard, Color, Move, MoveList, Position, Square};

impl Position {
    /// Every legal move, captures with the majority rule applied.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal moves, written into `list` (emptied first). The search uses
    /// this form: a move list is kilobytes, and filling one in place spares
    /// copying it out of a function at every node.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        let sides = Sides::of(self);
        sides.captures(list);
        if list.is_empty() {
            sides.quiet_moves(list);
        }
    }

    /// The legal captures, written into `list` (emptied first): empty when
    /// there is none, and then quiet moves are legal. The search's
    /// quiescence uses this form, which tells whether a capture is forced
    /// and lists them in one pass.
    pub fn captures_into(&self, list: &mut MoveList) {
        Sides::of(self).captures(list);
    }

    /// The moves that capture nothing, written into `list` (emptied first):
    /// the legal moves when [`Position::captures_into`] found none.
    pub fn quiet_moves_into(&self, list: &mut MoveList) {
        list.clear();
        Sides::of(self).quiet_moves(list);
    }

    /// The number of legal moves, without building quiet moves (for bulk
    /// perft and mobility).
    pub fn count_legal_moves(&self) -> usize {
        let sides = Sides::of(self);
        let mut list = MoveList::new();
        sides.captures(&mut list);
        if list.is_empty() {
            sides.count_quiet_moves()
        } else {
            list.len()
        }
    }

    /// Whether the side to move must capture.
    pub fn has_capture(&self) -> bool {
        Sides::of(self).can_capture()
    }

    /// Whether the side to move has a move that captures nothing, whether or
    /// not a capture is mandatory.
    pub fn has_quiet_move(&self) -> bool {
        Sides::of(self).has_quiet_move()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let sides = Sides::of(self);
        sides.can_capture() || sides.has_quiet_move()
    }

    /// Every distinct sequence of landing squares by which `mv` can be
    /// played, each ending with `mv.to` (empty for a quiet move). Most
    /// captures have one; a rafle that meets the same pieces in another order
    /// has several, and the player may tap any of them.
    pub fn capture_paths(&self, mv: &Move) -> Vec<Vec<Square>> {
        let mut paths = Vec::new();
        if !mv.is_capture() {
            return paths;
        }
        let sides = Sides::of(self);
        let from = 1u64 << mv.from.bit_index();
        if sides.us & from == 0 {
            return paths;
        }
        let finder = PathFinder {
            enemy: sides.them & mv.captured.0,
            empty: sides.empty | from,
            king: self.kings.0 & from != 0,
            target_to: 1u64 << mv.to.bit_index(),
            target_captured: mv.captured.0,
        };
        finder.search(from, 0, &mut Vec::new(), &mut paths);
        paths
    }
}

/// The board from the mover's side, as raw words for the hot loops.
struct Sides {
    us: u64,
    them: u64,
    men: u64,
    kings: u64,
    empty: u64,
    turn: Color,
}

impl Sides {
    #[inline(always)]
    fn of(pos: &Position) -> Sides {
        let (us, them) = match pos.turn {
            Color::White => (pos.white.0, pos.black.0),
            Color::Black => (pos.black.0, pos.white.0),
        };
        Sides {
            us,
            them,
            men: us & !pos.kings.0,
            kings: us & pos.kings.0,
            empty: !(us | them) & Bitboard::ALL.0,
            turn: pos.turn,
        }
    }

    /// Men that have a capture in some direction.
    #[inline(always)]
    fn capturing_men(&self) -> u64 {
        let mut found = 0;
        for d in Direction::ALL {
            let back = d.opposite();
            found |= back.shift(back.shift(self.empty) & self.them);
        }
        found & self.men
    }

    /// Whether some piece can capture, hence must.
    #[inline(always)]
    fn can_capture(&self) -> bool {
        self.capturing_men() != 0 || self.kings_can_capture()
    }

    /// The legal captures into `list` (emptied first); none when no piece
    /// can capture.
    #[inline(always)]
    fn captures(&self, list: &mut MoveList) {
        list.clear();
        if self.can_capture() {
            CaptureGenerator::new(self, list).generate();
        }
    }

    #[inline(always)]
    fn kings_can_capture(&self) -> bool {
        single_bits(self.kings).any(|king| {
            Direction::ALL.into_iter().any(|d| {
                let mut sq = d.shift(king);
                while sq & self.empty != 0 {
                    sq = d.shift(sq);
                }
                sq & self.them != 0 && d.shift(sq) & self.empty != 0
            })
        })
    }

    fn forward(&self) -> [Direction; 2] {
        match self.turn {
            Color::White => [Direction::NorthWest, Direction::NorthEast],
            Color::Black => [Direction::SouthWest, Direction::SouthEast],
        }
    }

    fn quiet_moves(&self, list: &mut MoveList) {
        for d in self.forward() {
            for to in single_bits(d.shift(self.men) & self.empty) {
                let from = d.opposite().shift(to);
                list.push(Move::quiet(square(from), square(to)));
            }
        }
        for king in single_bits(self.kings) {
            let from = square(king);
            for d in Direction::ALL {
                let mut sq = d.shift(king);
                while sq & self.empty != 0 {
                    list.push(Move::quiet(from, square(sq)));
                    sq = d.shift(sq);
                }
            }
        }
    }

    #[inline(always)]
    fn count_quiet_moves(&self) -> usize {
        let [a, b] = self.forward();
        let mut count = (a.shift(self.men) & self.empty).count_ones() + (b.shift(self.men) & self.empty).count_ones();
        for king in single_bits(self.kings) {
            for d in Direction::ALL {
                let mut sq = d.shift(king);
                while sq & self.empty != 0 {
                    count += 1;
                    sq = d.shift(sq);
                }
            }
        }
        count as usize
    }

    fn has_quiet_move(&self) -> bool {
        let [a, b] = self.forward();
        if (a.shift(self.men) | b.shift(self.men)) & self.empty != 0 {
            return true;
        }
        Direction::ALL.iter().any(|d| d.shift(self.kings) & self.empty != 0)
    }
}

/// The square of a one-bit word.
#[inline(always)]
fn square(bit: u64) -> Square {
    match Square::from_bit_index(bit.trailing_zeros()) {
        Some(s) => s,
        None => unreachable!("a move generator bit is always a playable square"),
    }
}

/// Depth-first search of capture sequences, keeping only the longest.
struct CaptureGenerator<'a> {
    list: &'a mut MoveList,
    /// Captures per move in `list`; shorter sequences are dropped.
    best: u32,
    them: u64,
    /// Empty squares, plus the square of the piece now capturing: it has left
    /// it, so it may pass over or land on it again.
    empty: u64,
    from: u64,
    men: u64,
    kings: u64,
    base_empty: u64,
}

impl<'a> CaptureGenerator<'a> {
    fn new(sides: &Sides, list: &'a mut MoveList) -> CaptureGenerator<'a> {
        CaptureGenerator {
            list,
            best: 1,
            them: sides.them,
            empty: sides.empty,
            from: 0,
            men: sides.capturing_men(),
            kings: sides.kings,
            base_empty: sides.empty,
        }
    }

    fn generate(mut self) {
        for man in single_bits(self.men) {
            self.from = man;
            self.empty = self.base_empty | man;
            for d in Direction::ALL {
                let over = d.shift(man);
                if over & self.them != 0 {
                    let land = d.shift(over);
                    if land & self.empty != 0 {
                        self.man_continue(land, over);
                    }
                }
            }
        }
        for king in single_bits(self.kings) {
            self.from = king;
            self.empty = self.base_empty | king;
            for d in Direction::ALL {
                self.king_capture(king, d, 0);
            }
        }
    }

    /// A man stands on `at` having captured `captured`: jump again or stop.
    fn man_continue(&mut self, at: u64, captured: u64) {
        let mut extended = false;
        for d in Direction::ALL {
            let over = d.shift(at);
            if over & self.them & !captured != 0 {
                let land = d.shift(over);
                if land & self.empty != 0 {
                    extended = true;
                    self.man_continue(land, captured | over);
                }
            }
        }
        if !extended {
            self.add(at, captured);
        }
    }

    /// A king on `at` looks along `d` for a piece to capture, and if it finds
    /// one follows every landing square beyond it. Returns whether it
    /// captured.
    fn king_capture(&mut self, at: u64, d: Direction, captured: u64) -> bool {
        let mut victim = d.shift(at);
        while victim & self.empty != 0 {
            victim = d.shift(victim);
        }
        if victim & self.them & !captured == 0 {
            return false;
        }
        let first_landing = d.shift(victim);
        if first_landing & self.empty == 0 {
            return false;
        }
        let captured = captured | victim;
        let mut extended = false;
        let mut landing = first_landing;
        loop {
            for turn in d.perpendicular() {
                extended |= self.king_capture(landing, turn, captured);
            }
            let next = d.shift(landing);
            if next & self.empty == 0 {
                break;
            }
            landing = next;
        }
        // Going on straight ahead: every landing square would find the same
        // next piece, so the last one stands for all of them.
        extended |= self.king_capture(landing, d, captured);
        if !extended {
            let mut landing = first_landing;
            while landing & self.empty != 0 {
                self.add(landing, captured);
                landing = d.shift(landing);
            }
        }
        true
    }

    #[inline]
    fn add(&mut self, to: u64, captured: u64) {
        let count = captured.count_ones();
        if count < self.best {
            return;
        }
        if count > self.best {
            self.list.clear();
            self.best = count;
        }
        let mv = Move { from: square(self.from), to: square(to), captured: Bitboard(captured) };
        // One captured piece fixes the path, so only longer rafles can repeat
        // a (from, to, captured) triple by another route.
        if count >= 2 && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }
}

/// Finds every landing sequence of one given capture.
struct PathFinder {
    /// The pieces the move captures (and no others may be jumped).
    enemy: u64,
    empty: u64,
    king: bool,
    target_to: u64,
    target_captured: u64,
}

impl PathFinder {
    fn search(&self, at: u64, captured: u64, path: &mut Vec<Square>, paths: &mut Vec<Vec<Square>>) {
        if captured == self.target_captured {
            if at == self.target_to && !paths.contains(path) {
                paths.push(path.clone());
            }
            return;
        }
        for d in Direction::ALL {
            let mut victim = d.shift(at);
            if self.king {
                while victim & self.empty != 0 {
                    victim = d.shift(victim);
                }
            }
            if victim & self.enemy & !captured == 0 {
                continue;
            }
            let mut landing = d.shift(victim);
            while landing & self.empty != 0 {
                path.push(square(landing));
                self.search(landing, captured | victim, path, paths);
                path.pop();
                if !self.king {
                    break;
                }
                landing = d.shift(landing);
            }
        }
    }
}
