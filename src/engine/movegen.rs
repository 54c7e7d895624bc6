//! Legal move generation, for every board and every rule set.
//!
//! A capture goes on while it can (even when captures are optional, one
//! once started is played to its end); jumped pieces stay on the board until
//! the move ends, so they block and cannot be jumped twice. Paths that share
//! start, end and captured set are one move. Then the rules differ: whether a
//! capture must be played, whether only the longest ones are legal (a king
//! counts one), whether men capture backwards, whether kings fly, and what a
//! man does on the far row in the middle of a capture ([`Promotion`]).
//!
//! The generator is compiled once per board geometry and per preset's
//! capture rules, with every rule a constant (the presets' fast paths);
//! any other mix of rules runs the same code with the rules read at run time.

use super::bitboard::{single_bits, Direction};
use super::geometry::{Geometry, Word};
#[cfg(not(target_arch = "wasm32"))]
use super::rules::PackedRules;
use super::rules::Promotion;
use super::{Bitboard, Color, Move, MoveList, Position, Rules, Square};
use smallvec::SmallVec;

/// The rules the move generator needs, as methods, so that a preset's are
/// constants the compiler folds away.
trait MoveRules: Copy {
    fn men_back(self) -> bool;
    fn flying(self) -> bool;
    fn mandatory(self) -> bool;
    fn majority(self) -> bool;
    fn promotion(self) -> Promotion;
}

macro_rules! preset_move_rules {
    ($name:ident, $rules:expr) => {
        #[derive(Clone, Copy)]
        #[cfg(not(target_arch = "wasm32"))]
        struct $name;
        #[cfg(not(target_arch = "wasm32"))]
        impl MoveRules for $name {
            #[inline(always)]
            fn men_back(self) -> bool {
                $rules.men_back
            }
            #[inline(always)]
            fn flying(self) -> bool {
                $rules.flying
            }
            #[inline(always)]
            fn mandatory(self) -> bool {
                $rules.mandatory
            }
            #[inline(always)]
            fn majority(self) -> bool {
                $rules.majority
            }
            #[inline(always)]
            fn promotion(self) -> Promotion {
                $rules.promotion
            }
        }
    };
}

// International and Brazilian capture alike; so do the 8×8 and 12×12
// boards under them.
preset_move_rules!(InternationalMoves, Rules::INTERNATIONAL);
preset_move_rules!(EnglishMoves, Rules::ENGLISH);
preset_move_rules!(RussianMoves, Rules::RUSSIAN);

/// Any other mix: the rules read at run time.
#[derive(Clone, Copy)]
struct AnyMoves {
    men_back: bool,
    flying: bool,
    mandatory: bool,
    majority: bool,
    promotion: Promotion,
}

impl MoveRules for AnyMoves {
    #[inline(always)]
    fn men_back(self) -> bool {
        self.men_back
    }
    #[inline(always)]
    fn flying(self) -> bool {
        self.flying
    }
    #[inline(always)]
    fn mandatory(self) -> bool {
        self.mandatory
    }
    #[inline(always)]
    fn majority(self) -> bool {
        self.majority
    }
    #[inline(always)]
    fn promotion(self) -> Promotion {
        self.promotion
    }
}

/// The capture rules of the presets, packed (see [`PackedRules::moves`]).
#[cfg(not(target_arch = "wasm32"))]
const INTERNATIONAL: u32 = PackedRules::of(&Rules::INTERNATIONAL).moves();
#[cfg(not(target_arch = "wasm32"))]
const ENGLISH: u32 = PackedRules::of(&Rules::ENGLISH).moves();
#[cfg(not(target_arch = "wasm32"))]
const RUSSIAN: u32 = PackedRules::of(&Rules::RUSSIAN).moves();

/// Runs `$body` with `$m` bound to the position's move rules: a preset's
/// constants when its capture rules are the preset's, the run-time rules
/// otherwise. The browser build takes the run-time path only, which keeps
/// the wasm small.
macro_rules! with_move_rules {
    ($pos:expr, |$m:ident| $body:expr) => {{
        let packed = $pos.rules;
        #[cfg(not(target_arch = "wasm32"))]
        {
            match packed.moves() {
                INTERNATIONAL => {
                    let $m = InternationalMoves;
                    $body
                }
                ENGLISH => {
                    let $m = EnglishMoves;
                    $body
                }
                RUSSIAN => {
                    let $m = RussianMoves;
                    $body
                }
                _ => {
                    let $m = AnyMoves::from(&packed.unpack());
                    $body
                }
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let $m = AnyMoves::from(&packed.unpack());
            $body
        }
    }};
}

impl From<&Rules> for AnyMoves {
    fn from(r: &Rules) -> AnyMoves {
        AnyMoves {
            men_back: r.men_back,
            flying: r.flying,
            mandatory: r.mandatory,
            majority: r.majority,
            promotion: r.promotion,
        }
    }
}

impl<G: Geometry> Position<G> {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList<G> {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal moves, written into `list` (emptied first). The search uses
    /// this form: a move list is kilobytes, and filling one in place spares
    /// copying it out of a function at every node.
    pub fn legal_moves_into(&self, list: &mut MoveList<G>) {
        with_move_rules!(self, |m| {
            let sides = Sides::of(self, m);
            sides.captures(list);
            if list.is_empty() || !m.mandatory() {
                sides.quiet_moves(list);
            }
        })
    }

    /// The legal captures, written into `list` (emptied first): empty when
    /// there is none. When captures are mandatory and this is not empty,
    /// these are the legal moves. The search's quiescence uses this form,
    /// which tells whether a capture is forced and lists them in one pass.
    pub fn captures_into(&self, list: &mut MoveList<G>) {
        with_move_rules!(self, |m| Sides::of(self, m).captures(list))
    }

    /// The moves that capture nothing, written into `list` (emptied first).
    pub fn quiet_moves_into(&self, list: &mut MoveList<G>) {
        list.clear();
        with_move_rules!(self, |m| Sides::of(self, m).quiet_moves(list))
    }

    /// The number of legal moves, without building quiet moves (for bulk
    /// perft and mobility).
    pub fn count_legal_moves(&self) -> usize {
        with_move_rules!(self, |m| {
            let sides = Sides::of(self, m);
            let mut list = MoveList::new();
            sides.captures(&mut list);
            if list.is_empty() || !m.mandatory() {
                list.len() + sides.count_quiet_moves()
            } else {
                list.len()
            }
        })
    }

    /// Whether the side to move can capture (whether or not it must).
    pub fn can_capture(&self) -> bool {
        with_move_rules!(self, |m| Sides::of(self, m).can_capture())
    }

    /// Whether the side to move must capture.
    pub fn has_capture(&self) -> bool {
        with_move_rules!(self, |m| m.mandatory() && Sides::of(self, m).can_capture())
    }

    /// Whether the side to move has a move that captures nothing, whether or
    /// not a capture is mandatory.
    pub fn has_quiet_move(&self) -> bool {
        with_move_rules!(self, |m| Sides::of(self, m).has_quiet_move())
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        with_move_rules!(self, |m| {
            let sides = Sides::of(self, m);
            sides.can_capture() || sides.has_quiet_move()
        })
    }

    /// Every distinct sequence of landing squares by which `mv` can be
    /// played, each ending with `mv.to` (empty for a quiet move). Most
    /// captures have one; a rafle that meets the same pieces in another order
    /// has several, and the player may tap any of them.
    pub fn capture_paths(&self, mv: &Move<G>) -> Vec<Vec<Square<G>>> {
        let mut paths = Vec::new();
        if !mv.is_capture() {
            return paths;
        }
        let from = Bitboard::from_square(mv.from).0;
        let (us, them) = match self.turn {
            Color::White => (self.white.0, self.black.0),
            Color::Black => (self.black.0, self.white.0),
        };
        if us & from == G::Word::ZERO {
            return paths;
        }
        let finder = PathFinder::<G> {
            enemy: them & mv.captured.0,
            empty: (!(us | them) & G::ALL) | from,
            king: self.kings.0 & from != G::Word::ZERO,
            turn: self.turn,
            rules: self.rules(),
            target_to: Bitboard::from_square(mv.to).0,
            target_captured: mv.captured.0,
            target_crowned: mv.crowned_in_passing,
        };
        finder.search(from, G::Word::ZERO, finder.king, &mut Vec::new(), &mut paths);
        paths
    }
}

/// Perft (see [`super::perft`]) with the rules chosen once at the root
/// rather than at every node, and each node's moves filled in place.
pub(crate) fn perft_leaves<G: Geometry>(pos: &Position<G>, depth: u32) -> u64 {
    with_move_rules!(pos, |m| match pos.turn {
        Color::White => perft_with::<G, _, WhiteToMove>(pos, depth, m),
        Color::Black => perft_with::<G, _, BlackToMove>(pos, depth, m),
    })
}

/// The side to move as a type, so that perft, which alternates them, is
/// compiled once for each with every direction of play a constant.
trait ToMove {
    const COLOR: Color;
    type Next: ToMove;
}

struct WhiteToMove;
struct BlackToMove;

impl ToMove for WhiteToMove {
    const COLOR: Color = Color::White;
    type Next = BlackToMove;
}

impl ToMove for BlackToMove {
    const COLOR: Color = Color::Black;
    type Next = WhiteToMove;
}

fn perft_with<G: Geometry, M: MoveRules, T: ToMove>(pos: &Position<G>, depth: u32, m: M) -> u64 {
    if depth == 1 {
        return leaves::<G, M, T>(pos, m);
    }
    let sides = Sides::of_turn(pos, m, T::COLOR);
    let kings_capture = sides.kings != G::Word::ZERO && sides.kings_can_capture();
    let capturing = sides.capturing_men();
    let their_kings = sides.them & pos.kings.0;
    // The two commonest cases, quiet moves only and every capture a single
    // jump by a man, are played straight from the bitboards without
    // building a move list; the last ply is counted in these loops, from
    // the words the reply sees, rather than in a call per child.
    let last_ply = as_is(
        #[inline(always)]
        |from, to, captured| count_moves(&sides.reply_after::<T::Next>(their_kings, from, to, captured)),
    );
    let deeper = |from, to, captured| {
        perft_with::<G, M, T::Next>(&pos.play_words_as(T::COLOR, from, to, captured, false), depth - 1, m)
    };
    if capturing == G::Word::ZERO && !kings_capture {
        return if depth == 2 { sides.sum_over_quiet_moves(last_ply) } else { sides.sum_over_quiet_moves(deeper) };
    }
    if m.mandatory() && !kings_capture && sides.only_single_jumps() {
        return if depth == 2 { sides.sum_over_single_jumps(last_ply) } else { sides.sum_over_single_jumps(deeper) };
    }
    let mut list = MoveList::new();
    CaptureGenerator::new(&sides, &mut list).generate();
    if !m.mandatory() {
        sides.quiet_moves(&mut list);
    }
    if depth == 2 {
        return list.iter().map(|mv| leaves::<G, M, T::Next>(&pos.play_unchecked(mv), m)).sum();
    }
    list.iter().map(|mv| perft_with::<G, M, T::Next>(&pos.play_unchecked(mv), depth - 1, m)).sum()
}

/// `f` itself: a closure takes `#[inline(always)]` only where it is an
/// argument, and perft's last ply wants its counting inlined into every
/// loop that calls it.
#[inline(always)]
fn as_is<F>(f: F) -> F {
    f
}

/// The legal moves of `pos`, counted.
#[inline(always)]
fn leaves<G: Geometry, M: MoveRules, T: ToMove>(pos: &Position<G>, m: M) -> u64 {
    count_moves(&Sides::of_turn(pos, m, T::COLOR))
}

/// The legal moves of the side to move, counted. Inlined into the loops of
/// the ply above, which is most of perft's nodes; the capture generator,
/// when the captures must be followed to be counted, stays out of line in
/// [`built_leaves`].
#[inline(always)]
fn count_moves<G: Geometry, M: MoveRules>(sides: &Sides<G, M>) -> u64 {
    if sides.kings != G::Word::ZERO && sides.kings_can_capture() {
        return built_leaves(sides);
    }
    if let Some(captures) = sides.count_captures_without_kings() {
        return sides.leaves_given(captures);
    }
    match sides.capturing_men() {
        capturing if capturing == G::Word::ZERO => sides.leaves_given(0),
        _ => match sides.count_single_jumps() {
            Some(captures) => sides.leaves_given(captures),
            None => built_leaves(sides),
        },
    }
}

/// The legal moves of a position where some piece can capture, counted
/// as the generator finds them.
#[inline(never)]
fn built_leaves<G: Geometry, M: MoveRules>(sides: &Sides<G, M>) -> u64 {
    let mut count = CaptureCount { moves: 0, rafles: SmallVec::new() };
    CaptureGenerator::new(sides, &mut count).generate();
    sides.leaves_given(count.moves)
}

/// The far row of `color`'s men.
#[inline(always)]
fn promotion_row<G: Geometry>(color: Color) -> G::Word {
    match color {
        Color::White => G::TOP_ROW,
        Color::Black => G::BOTTOM_ROW,
    }
}

/// Whether a man of `color` may capture along `d`: forwards always,
/// backwards when the rules say so (a constant for the presets, so the test
/// folds away for them).
#[inline(always)]
fn man_captures_along<M: MoveRules>(m: M, color: Color, d: Direction) -> bool {
    m.men_back() || d.is_forward_for(color)
}

/// `$body` once for each direction listed, written out one after the
/// other rather than looped over: a loop over directions with a large body
/// is not unrolled, and a direction known only at run time costs a jump
/// through a table at every shift.
macro_rules! each_direction {
    ($d:ident in all $body:block) => {
        each_direction!($d in [Direction::NorthWest, Direction::NorthEast, Direction::SouthWest, Direction::SouthEast] $body)
    };
    ($d:ident in [$($dir:expr),+] $body:block) => {
        $({
            let $d: Direction = $dir;
            $body
        })+
    };
}

/// The board from the mover's side, as raw words for the hot loops.
struct Sides<G: Geometry, M: MoveRules> {
    them: G::Word,
    men: G::Word,
    kings: G::Word,
    empty: G::Word,
    turn: Color,
    rules: M,
}

impl<G: Geometry, M: MoveRules> Sides<G, M> {
    #[inline(always)]
    fn of(pos: &Position<G>, rules: M) -> Sides<G, M> {
        Sides::of_turn(pos, rules, pos.turn)
    }

    /// The sides of `pos`, whose side to move is `turn`: perft passes it as
    /// a constant, so that every shift along a direction of play folds.
    #[inline(always)]
    fn of_turn(pos: &Position<G>, rules: M, turn: Color) -> Sides<G, M> {
        debug_assert_eq!(pos.turn, turn);
        let (us, them) = match turn {
            Color::White => (pos.white.0, pos.black.0),
            Color::Black => (pos.black.0, pos.white.0),
        };
        Sides { them, men: us & !pos.kings.0, kings: us & pos.kings.0, empty: !(us | them) & G::ALL, turn, rules }
    }

    /// Men that have a capture in some direction they may capture in.
    /// Written out direction by direction: a loop over directions with a
    /// rule inside is not unrolled, and this runs at every node.
    #[inline(always)]
    fn capturing_men(&self) -> G::Word {
        let (ahead, behind) = match self.turn {
            Color::White => {
                ([Direction::NorthWest, Direction::NorthEast], [Direction::SouthWest, Direction::SouthEast])
            }
            Color::Black => {
                ([Direction::SouthWest, Direction::SouthEast], [Direction::NorthWest, Direction::NorthEast])
            }
        };
        let mut found = self.jumpers(ahead[0]) | self.jumpers(ahead[1]);
        if self.rules.men_back() {
            found |= self.jumpers(behind[0]) | self.jumpers(behind[1]);
        }
        found & self.men
    }

    /// The squares from which a piece could jump an enemy piece along `d`
    /// to an empty square.
    #[inline(always)]
    fn jumpers(&self, d: Direction) -> G::Word {
        let back = d.opposite();
        back.shift::<G>(back.shift::<G>(self.empty) & self.them)
    }

    /// The number of captures, counted without building them, when only
    /// men can capture and no two of their capture paths can be one move:
    /// men that capture only forwards and are not crowned mid-capture go
    /// one row further at every jump, so two paths never meet the same
    /// pieces, and without the majority rule every path is a move. `None`
    /// otherwise (the generator then builds the moves and merges paths).
    #[inline(always)]
    fn count_captures_without_kings(&self) -> Option<usize> {
        if self.rules.men_back() || self.rules.majority() || self.rules.promotion() == Promotion::BecomesKingContinues {
            return None;
        }
        // Most captures are one jump: counted a direction at a time, by
        // their landing squares, and only the paths that go on are
        // followed. (A forward-only man never comes back over its start
        // square or the piece it jumped, so whether it can go on is read
        // off the board as it is.)
        let [a, b] = self.forward();
        let mut onward = self.jumpers(a) | self.jumpers(b);
        if self.rules.promotion() == Promotion::EndsMove {
            onward &= !promotion_row::<G>(self.turn);
        }
        let mut count = 0;
        for d in [a, b] {
            let landing = d.shift::<G>(d.shift::<G>(self.jumpers(d) & self.men));
            count += (landing & !onward).count_ones() as usize;
            for land in single_bits(landing & onward) {
                count += self.man_capture_paths(land, d.opposite().shift::<G>(land));
            }
        }
        Some(count)
    }

    /// The number of captures when some man can capture, no king can (the
    /// caller knows both) and every capture is a single jump
    /// ([`Sides::only_single_jumps`]): then each man and direction is one
    /// move, and under the majority rule all are the longest. `None` when a
    /// longer capture exists, or may (a man crowned in passing that would
    /// go on as a king).
    #[inline(always)]
    fn count_single_jumps(&self) -> Option<usize> {
        self.only_single_jumps().then(|| {
            Direction::ALL
                .into_iter()
                .filter(|&d| man_captures_along(self.rules, self.turn, d))
                .map(|d| (self.jumpers(d) & self.men).count_ones() as usize)
                .sum()
        })
    }

    /// Whether every capture by a man is a single jump, no man being able
    /// to jump again from where it lands; the caller knows no king can
    /// capture. A man crowned in passing that would go on as a king counts
    /// as able to go on.
    #[inline(always)]
    fn only_single_jumps(&self) -> bool {
        // A man crowned in passing would go on as a king.
        let crowned_goes_on = match self.rules.promotion() {
            Promotion::BecomesKingContinues => promotion_row::<G>(self.turn),
            _ => G::Word::ZERO,
        };
        // Squares from which a man could jump along each direction. The
        // board as it is will do: the square a man leaves could only be
        // landed on again by jumping back over the piece it took, which no
        // capture may do.
        let onward = Direction::ALL.map(|d| {
            if man_captures_along(self.rules, self.turn, d) {
                self.jumpers(d)
            } else {
                G::Word::ZERO
            }
        });
        Direction::ALL.into_iter().filter(|&d| man_captures_along(self.rules, self.turn, d)).all(|d| {
            let movers = self.jumpers(d) & self.men;
            // Back the way it came lies the piece it took: no jump there.
            let again = Direction::ALL
                .into_iter()
                .zip(onward)
                .filter(|(along, _)| *along != d.opposite())
                .fold(G::Word::ZERO, |again, (_, from)| again | from);
            d.shift::<G>(d.shift::<G>(movers)) & (again | crowned_goes_on) == G::Word::ZERO
        })
    }

    /// `count` summed over the single jumps of the men, each given as the
    /// words of its start, its end and the piece it takes (the caller knows
    /// they are all the captures there are: [`Sides::only_single_jumps`]).
    #[inline(always)]
    fn sum_over_single_jumps(&self, mut count: impl FnMut(G::Word, G::Word, G::Word) -> u64) -> u64 {
        let mut total = 0;
        each_direction!(d in all {
            if man_captures_along(self.rules, self.turn, d) {
                for from in single_bits(self.jumpers(d) & self.men) {
                    let over = d.shift::<G>(from);
                    total += count(from, d.shift::<G>(over), over);
                }
            }
        });
        total
    }

    /// The capture paths of a forward-only man that has jumped `captured`
    /// and landed on `at` (see [`Sides::count_captures_without_kings`]):
    /// 1 if it can go no further.
    fn man_capture_paths(&self, at: G::Word, captured: G::Word) -> usize {
        if at & promotion_row::<G>(self.turn) != G::Word::ZERO && self.rules.promotion() == Promotion::EndsMove {
            return 1;
        }
        let mut paths = 0;
        for d in self.forward() {
            let over = d.shift::<G>(at);
            if over & self.them & !captured != G::Word::ZERO {
                let land = d.shift::<G>(over);
                if land & self.empty != G::Word::ZERO {
                    paths += self.man_capture_paths(land, captured | over);
                }
            }
        }
        paths.max(1)
    }

    /// Whether some piece can capture.
    #[inline(always)]
    fn can_capture(&self) -> bool {
        self.capturing_men() != G::Word::ZERO || self.kings_can_capture()
    }

    /// The captures into `list` (emptied first); none when no piece can
    /// capture.
    #[inline(always)]
    fn captures(&self, list: &mut MoveList<G>) {
        list.clear();
        if self.can_capture() {
            CaptureGenerator::new(self, list).generate();
        }
    }

    #[inline(always)]
    fn kings_can_capture(&self) -> bool {
        let flying = self.rules.flying();
        if !flying {
            // Kings that step one square capture like men in all four
            // directions: one bitwise test per direction.
            let jumpers = self.jumpers(Direction::NorthWest)
                | self.jumpers(Direction::NorthEast)
                | self.jumpers(Direction::SouthWest)
                | self.jumpers(Direction::SouthEast);
            return jumpers & self.kings != G::Word::ZERO;
        }
        single_bits(self.kings).any(|king| {
            Direction::ALL.into_iter().any(|d| {
                let mut sq = d.shift::<G>(king);
                if flying {
                    while sq & self.empty != G::Word::ZERO {
                        sq = d.shift::<G>(sq);
                    }
                }
                sq & self.them != G::Word::ZERO && d.shift::<G>(sq) & self.empty != G::Word::ZERO
            })
        })
    }

    #[inline(always)]
    fn forward(&self) -> [Direction; 2] {
        match self.turn {
            Color::White => [Direction::NorthWest, Direction::NorthEast],
            Color::Black => [Direction::SouthWest, Direction::SouthEast],
        }
    }

    /// Appends the moves that capture nothing.
    fn quiet_moves(&self, list: &mut MoveList<G>) {
        for d in self.forward() {
            for to in single_bits(d.shift::<G>(self.men) & self.empty) {
                let from = d.opposite().shift::<G>(to);
                list.push(Move::quiet(square::<G>(from), square::<G>(to)));
            }
        }
        let flying = self.rules.flying();
        for king in single_bits(self.kings) {
            let from = square::<G>(king);
            for d in Direction::ALL {
                let mut sq = d.shift::<G>(king);
                while sq & self.empty != G::Word::ZERO {
                    list.push(Move::quiet(from, square::<G>(sq)));
                    if !flying {
                        break;
                    }
                    sq = d.shift::<G>(sq);
                }
            }
        }
    }

    /// `count` summed over the quiet moves (those of
    /// [`Sides::quiet_moves`]), each given as the words of its start, its
    /// end and what it takes (nothing), as [`Sides::sum_over_single_jumps`]
    /// gives its jumps.
    #[inline(always)]
    fn sum_over_quiet_moves(&self, mut count: impl FnMut(G::Word, G::Word, G::Word) -> u64) -> u64 {
        let mut total = 0;
        let [a, b] = self.forward();
        each_direction!(d in [a, b] {
            for to in single_bits(d.shift::<G>(self.men) & self.empty) {
                total += count(d.opposite().shift::<G>(to), to, G::Word::ZERO);
            }
        });
        let flying = self.rules.flying();
        for king in single_bits(self.kings) {
            each_direction!(d in all {
                let mut sq = d.shift::<G>(king);
                while sq & self.empty != G::Word::ZERO {
                    total += count(king, sq, G::Word::ZERO);
                    if !flying {
                        break;
                    }
                    sq = d.shift::<G>(sq);
                }
            });
        }
        total
    }

    /// The board as the opponent (`R`, a constant in perft) sees it after
    /// our piece goes from `from` to `to` taking `captured` (`their_kings`:
    /// which of its pieces are kings). Whether ours was crowned does not
    /// change what the opponent may play, so perft's last ply needs no
    /// more. `from` and `to` differ: a single jump or a quiet move.
    #[inline(always)]
    fn reply_after<R: ToMove>(
        &self,
        their_kings: G::Word,
        from: G::Word,
        to: G::Word,
        captured: G::Word,
    ) -> Sides<G, M> {
        debug_assert_eq!(R::COLOR, !self.turn);
        Sides {
            them: (self.men | self.kings) ^ from ^ to,
            men: self.them & !their_kings & !captured,
            kings: their_kings & !captured,
            empty: self.empty ^ from ^ to ^ captured,
            turn: R::COLOR,
            rules: self.rules,
        }
    }

    /// The legal moves, given the number of captures: the captures alone
    /// when one is due.
    #[inline(always)]
    fn leaves_given(&self, captures: usize) -> u64 {
        if captures == 0 || !self.rules.mandatory() {
            (captures + self.count_quiet_moves()) as u64
        } else {
            captures as u64
        }
    }

    #[inline(always)]
    fn count_quiet_moves(&self) -> usize {
        let [a, b] = self.forward();
        let mut count =
            (a.shift::<G>(self.men) & self.empty).count_ones() + (b.shift::<G>(self.men) & self.empty).count_ones();
        if self.rules.flying() {
            for king in single_bits(self.kings) {
                each_direction!(d in all {
                    let mut sq = d.shift::<G>(king);
                    while sq & self.empty != G::Word::ZERO {
                        count += 1;
                        sq = d.shift::<G>(sq);
                    }
                });
            }
        } else {
            for d in Direction::ALL {
                count += (d.shift::<G>(self.kings) & self.empty).count_ones();
            }
        }
        count as usize
    }

    fn has_quiet_move(&self) -> bool {
        let [a, b] = self.forward();
        if (a.shift::<G>(self.men) | b.shift::<G>(self.men)) & self.empty != G::Word::ZERO {
            return true;
        }
        Direction::ALL.iter().any(|d| d.shift::<G>(self.kings) & self.empty != G::Word::ZERO)
    }
}

/// The square of a one-bit word.
#[inline(always)]
fn square<G: Geometry>(bit: G::Word) -> Square<G> {
    match Square::from_bit_index(bit.trailing_zeros()) {
        Some(s) => s,
        None => unreachable!("a move generator bit is always a playable square"),
    }
}

/// Where the capture generator puts what it finds: a move list, or, for
/// perft's last ply, a count.
trait CaptureSink<G: Geometry> {
    fn clear(&mut self);
    /// Adds a capture unless the same move is already in. `count` pieces
    /// are captured: one fixes the path, so only longer rafles can repeat a
    /// move by another route.
    fn add(&mut self, from: G::Word, to: G::Word, captured: G::Word, crowned_in_passing: bool, count: u32);
}

impl<G: Geometry> CaptureSink<G> for MoveList<G> {
    #[inline(always)]
    fn clear(&mut self) {
        SmallVec::clear(self);
    }

    #[inline(always)]
    fn add(&mut self, from: G::Word, to: G::Word, captured: G::Word, crowned_in_passing: bool, count: u32) {
        let mv =
            Move { from: square::<G>(from), to: square::<G>(to), captured: Bitboard(captured), crowned_in_passing };
        if count >= 2 && self.contains(&mv) {
            return;
        }
        self.push(mv);
    }
}

/// The number of captures, without building them: only the rafles of two
/// pieces or more are kept, as words, to find a path already counted.
struct CaptureCount<G: Geometry> {
    moves: usize,
    rafles: SmallVec<[(G::Word, G::Word, G::Word, bool); 16]>,
}

impl<G: Geometry> CaptureSink<G> for CaptureCount<G> {
    #[inline(always)]
    fn clear(&mut self) {
        self.moves = 0;
        self.rafles.clear();
    }

    #[inline(always)]
    fn add(&mut self, from: G::Word, to: G::Word, captured: G::Word, crowned_in_passing: bool, count: u32) {
        if count >= 2 {
            let rafle = (from, to, captured, crowned_in_passing);
            if self.rafles.contains(&rafle) {
                return;
            }
            self.rafles.push(rafle);
        }
        self.moves += 1;
    }
}

/// Depth-first search of capture sequences: every complete one, or under
/// the majority rule only the longest.
struct CaptureGenerator<'a, G: Geometry, M: MoveRules, S: CaptureSink<G> = MoveList<G>> {
    list: &'a mut S,
    /// Under the majority rule, captures per move in `list`; shorter
    /// sequences are dropped.
    best: u32,
    them: G::Word,
    /// Empty squares, plus the square of the piece now capturing: it has left
    /// it, so it may pass over or land on it again.
    empty: G::Word,
    from: G::Word,
    men: G::Word,
    kings: G::Word,
    base_empty: G::Word,
    /// The far row of the mover's men.
    far_row: G::Word,
    turn: Color,
    rules: M,
}

impl<'a, G: Geometry, M: MoveRules, S: CaptureSink<G>> CaptureGenerator<'a, G, M, S> {
    fn new(sides: &Sides<G, M>, list: &'a mut S) -> CaptureGenerator<'a, G, M, S> {
        CaptureGenerator {
            list,
            best: 1,
            them: sides.them,
            empty: sides.empty,
            from: G::Word::ZERO,
            men: sides.capturing_men(),
            kings: sides.kings,
            base_empty: sides.empty,
            far_row: promotion_row::<G>(sides.turn),
            turn: sides.turn,
            rules: sides.rules,
        }
    }

    fn generate(mut self) {
        for man in single_bits(self.men) {
            self.from = man;
            self.empty = self.base_empty | man;
            for d in Direction::ALL {
                if !man_captures_along(self.rules, self.turn, d) {
                    continue;
                }
                let over = d.shift::<G>(man);
                if over & self.them != G::Word::ZERO {
                    let land = d.shift::<G>(over);
                    if land & self.empty != G::Word::ZERO {
                        self.man_landed(land, over);
                    }
                }
            }
        }
        for king in single_bits(self.kings) {
            self.from = king;
            self.empty = self.base_empty | king;
            for d in Direction::ALL {
                self.king_capture(king, d, G::Word::ZERO, false);
            }
        }
    }

    /// A man has landed on `at` having captured `captured`: on the far row
    /// the rules decide, elsewhere it jumps again or stops.
    fn man_landed(&mut self, at: G::Word, captured: G::Word) {
        if at & self.far_row != G::Word::ZERO {
            match self.rules.promotion() {
                Promotion::StaysMan => {}
                Promotion::EndsMove => return self.add(at, captured, false),
                Promotion::BecomesKingContinues => {
                    let mut extended = false;
                    for d in Direction::ALL {
                        extended |= self.king_capture(at, d, captured, true);
                    }
                    if !extended {
                        // Crowned on the far row: the end square says so.
                        self.add(at, captured, false);
                    }
                    return;
                }
            }
        }
        let mut extended = false;
        for d in Direction::ALL {
            if !man_captures_along(self.rules, self.turn, d) {
                continue;
            }
            let over = d.shift::<G>(at);
            if over & self.them & !captured != G::Word::ZERO {
                let land = d.shift::<G>(over);
                if land & self.empty != G::Word::ZERO {
                    extended = true;
                    self.man_landed(land, captured | over);
                }
            }
        }
        if !extended {
            self.add(at, captured, false);
        }
    }

    /// A king on `at` looks along `d` for a piece to capture, and if it finds
    /// one follows every landing square beyond it (the next square only, for
    /// a king that does not fly). Returns whether it captured. `crowned`: a
    /// man crowned during this capture.
    fn king_capture(&mut self, at: G::Word, d: Direction, captured: G::Word, crowned: bool) -> bool {
        let flying = self.rules.flying();
        let mut victim = d.shift::<G>(at);
        if flying {
            while victim & self.empty != G::Word::ZERO {
                victim = d.shift::<G>(victim);
            }
        }
        if victim & self.them & !captured == G::Word::ZERO {
            return false;
        }
        let first_landing = d.shift::<G>(victim);
        if first_landing & self.empty == G::Word::ZERO {
            return false;
        }
        let captured = captured | victim;
        let mut extended = false;
        let mut landing = first_landing;
        loop {
            for turn in d.perpendicular() {
                extended |= self.king_capture(landing, turn, captured, crowned);
            }
            let next = d.shift::<G>(landing);
            if !flying || next & self.empty == G::Word::ZERO {
                break;
            }
            landing = next;
        }
        // Going on straight ahead: every landing square would find the same
        // next piece, so the last one stands for all of them.
        extended |= self.king_capture(landing, d, captured, crowned);
        if !extended {
            let mut landing = first_landing;
            while landing & self.empty != G::Word::ZERO {
                self.add(landing, captured, crowned);
                if !flying {
                    break;
                }
                landing = d.shift::<G>(landing);
            }
        }
        true
    }

    #[inline]
    fn add(&mut self, to: G::Word, captured: G::Word, crowned: bool) {
        let count = captured.count_ones();
        if self.rules.majority() {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.list.clear();
                self.best = count;
            }
        }
        // A man crowned in passing that ends on the far row anyway is
        // crowned by its end square: the flag marks only what the end
        // square does not say.
        let crowned_in_passing = crowned && to & self.far_row == G::Word::ZERO;
        self.list.add(self.from, to, captured, crowned_in_passing, count);
    }
}

/// Finds every landing sequence of one given capture.
struct PathFinder<G: Geometry> {
    /// The pieces the move captures (and no others may be jumped).
    enemy: G::Word,
    empty: G::Word,
    king: bool,
    turn: Color,
    rules: Rules,
    target_to: G::Word,
    target_captured: G::Word,
    target_crowned: bool,
}

impl<G: Geometry> PathFinder<G> {
    /// From `at`, as a king or a man, having captured `captured`.
    fn search(
        &self,
        at: G::Word,
        captured: G::Word,
        king: bool,
        path: &mut Vec<Square<G>>,
        paths: &mut Vec<Vec<Square<G>>>,
    ) {
        let crowned_here = !self.king && king;
        if captured == self.target_captured {
            let crowned_in_passing = crowned_here && at & promotion_row::<G>(self.turn) == G::Word::ZERO;
            if at == self.target_to && crowned_in_passing == self.target_crowned && !paths.contains(path) {
                paths.push(path.clone());
            }
            return;
        }
        if !king && captured != G::Word::ZERO && at & promotion_row::<G>(self.turn) != G::Word::ZERO {
            match self.rules.promotion {
                Promotion::StaysMan => {}
                Promotion::EndsMove => return,
                Promotion::BecomesKingContinues => return self.search(at, captured, true, path, paths),
            }
        }
        let flying = king && self.rules.flying;
        for d in Direction::ALL {
            if !king && !self.rules.men_back && !d.is_forward_for(self.turn) {
                continue;
            }
            let mut victim = d.shift::<G>(at);
            if flying {
                while victim & self.empty != G::Word::ZERO {
                    victim = d.shift::<G>(victim);
                }
            }
            if victim & self.enemy & !captured == G::Word::ZERO {
                continue;
            }
            let mut landing = d.shift::<G>(victim);
            while landing & self.empty != G::Word::ZERO {
                path.push(square::<G>(landing));
                self.search(landing, captured | victim, king, path, paths);
                path.pop();
                if !flying {
                    break;
                }
                landing = d.shift::<G>(landing);
            }
        }
    }
}
