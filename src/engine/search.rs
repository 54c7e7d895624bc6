//! Alpha-beta search: negamax with principal variation search, iterative
//! deepening, a transposition table on Zobrist keys, a quiescence search
//! that plays out pending captures, and move ordering by hash move,
//! capture size, killers and history; pruning at the last plies (reverse
//! futility and razoring, `fort`'s); ProbCut on request; the exact endgame
//! tables for positions of three pieces or fewer.
//!
//! The search is bounded by depth and by a node count, never by the clock,
//! and starts from nothing (a fresh table) every time: the same position,
//! counters and limits always give the same result, on any machine.

use super::endgame::{self, EndgameTable, Verdict};
use super::eval::{evaluate_with, Evaluation};
use super::geometry::{Geometry, Ten, Word};
use super::rules::MAX_DRAW_MOVES;
use super::{Color, Game, Move, MoveList, Position};

/// A won position is worth this, less the plies it takes to get there.
pub const WIN: i32 = 30_000;
/// Scores above this are wins found by search.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
/// A win the endgame tables prove, less the plies it takes: above any
/// evaluation, below the mates the search finds itself.
pub const ENDGAME_WIN: i32 = 20_000;
/// Deepest ply the search may reach, extensions and quiescence included.
const MAX_PLY: usize = 96;
/// ProbCut's shallow search goes this share of the node's depth, in
/// percent…
const PROBCUT_DEPTH_PERCENT: i32 = 40;
/// …is tried from this depth (so it searches at least one ply)…
const PROBCUT_MIN_DEPTH: i32 = 3;
/// …and must clear beta by this much for each ply of the node's depth (a
/// twentieth of a man): a deeper search seldom disagrees with a shallow one
/// by more, and the bar is taken off the score it returns.
pub const PROBCUT_MARGIN_PER_PLY: i32 = 5;
/// Frontier pruning looks at nodes this many plies from the leaves or
/// fewer: reverse futility at up to three…
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// …where a position whose evaluation beats beta by this much for each ply
/// left (six tenths of a man) is taken to beat it…
pub const REVERSE_FUTILITY_MARGIN: i32 = 60;
/// …and razoring at up to two…
const RAZOR_DEPTH: i32 = 2;
/// …where a position whose evaluation falls this much short of alpha for
/// each ply left (a man) is only searched for captures and threats.
pub const RAZOR_MARGIN: i32 = 100;
/// Windows beyond this are about results proven by the endgame tables or
/// the search, which frontier pruning must not decide by a guess.
const PROVEN_SCORE: i32 = 10_000;
/// With [`Limits::late_reductions`], quiet moves from this index on (the
/// first is 0) are searched two plies shallower off the principal
/// variation…
const DEEP_REDUCTION_INDEX: usize = 6;
/// …and on it, one ply shallower from this index on.
const PV_REDUCTION_INDEX: usize = 3;

/// How far the search may go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Nodes after which the search stops and keeps its last full iteration.
    pub nodes: u64,
    /// Root moves within this many points of the best count as equal.
    pub tie_margin: i32,
    /// log2 of the transposition table's entry count.
    pub table_bits: u32,
    /// Quiescence plies in which a side threatened with a capture may
    /// answer with a quiet move instead of standing pat.
    pub threat_plies: u32,
    /// How quiet positions are judged.
    pub eval: Evaluation,
    /// An iteration cut short by the node limit still counts when a root
    /// move it finished beats the move it started with: the nodes spent on
    /// it are not thrown away. (Off where replies are pinned.)
    pub keep_partial: bool,
    /// ProbCut: a node that only has to tell whether it beats beta, with
    /// no capture due, is first searched at [`PROBCUT_DEPTH_PERCENT`] % of
    /// its depth against a bar [`PROBCUT_MARGIN_PER_PLY`] a ply above beta,
    /// and clearing that bar is taken as beating beta: the nodes saved on
    /// lines clearly good for one side go deeper elsewhere. `--probcut 1`
    /// switches it on to measure it (README, "Measured").
    pub probcut: bool,
    /// Frontier pruning, off the principal variation and when no capture
    /// is due: a node up to [`REVERSE_FUTILITY_DEPTH`] plies from the
    /// leaves whose evaluation beats beta by a margin a ply, with no
    /// capture threatened, is taken to beat it (reverse futility); one up
    /// to [`RAZOR_DEPTH`] plies from the leaves whose evaluation falls
    /// short of alpha by a margin a ply is searched for captures and
    /// threats only, and fails low if that confirms it (razoring). The
    /// nodes saved go deeper where the game is decided: one to three plies
    /// more at the same nodes, and it beat the search without it (README,
    /// "Measured"). `fort`'s.
    pub frontier_pruning: bool,
    /// Positions of at most three pieces are judged by the exact endgame
    /// tables ([`super::endgame`]) instead of searched, under the presets'
    /// move rules (other rule sets search them as before).
    pub endgame_tables: bool,
    /// The transposition table keeps two entries a slot: the deepest search
    /// stored there and the latest. With one, every store replaces what was
    /// there, and at `fort`'s budget (several stores per entry of the
    /// table) the deep results of early iterations are lost to the
    /// shallow nodes of later ones. Off for every level: not shown to gain
    /// (README, "Measured").
    pub two_slot_table: bool,
    /// Late-move reductions of the strong programs: off the principal
    /// variation, every quiet move after the first is searched a ply
    /// shallower first, and two plies from the [`DEEP_REDUCTION_INDEX`]th;
    /// on it, from the [`PV_REDUCTION_INDEX`]th, one ply. Without it, one
    /// ply from the fifth move, everywhere (the pinned levels' search). A
    /// move that crowns a man is never reduced. Off for every level: against
    /// Scan 2.0 it scored 13.0 % then 5.0 % where the search without scored
    /// 6.5 % then 8.0 %, and it was behind in self-play and in the masters'
    /// moves (README, "Matches against another engine"); `--reductions 1`
    /// switches it on to measure it.
    pub late_reductions: bool,
    /// The quiescence search, in a quiet position with no king on the
    /// board where standing pat does not reach beta, also tries the moves
    /// that offer an exchange (after them the opponent must capture, and
    /// can be captured back) and the moves that crown, within the same
    /// [`Limits::threat_plies`] as the defences: an exchange that wins
    /// material or breaks through is draughts' commonest tactic, and a leaf
    /// that stands pat on the eve of one is misjudged. Off for every level:
    /// it costs one or two plies at the same nodes, and against Scan 2.0 it
    /// lost more than it found (README, "Measured"); `--exchanges 1`
    /// switches it on to measure it.
    pub quiescence_exchanges: bool,
}

impl Limits {
    /// The same budget judged by `eval`: the classic evaluation as every
    /// level plays (an unfinished iteration thrown away), learned weights
    /// with an unfinished iteration's better move kept.
    pub const fn judged_by(self, eval: Evaluation) -> Limits {
        Limits { eval, keep_partial: !matches!(eval, Evaluation::Classic), ..self }
    }
}

/// What the search found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult<G: Geometry = Ten> {
    /// The moves judged best, in legal-move order: all within the tie margin
    /// of the best score. The bot draws one of them.
    pub best_moves: Vec<Move<G>>,
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    /// The principal variation, starting with `best_moves[0]`.
    pub pv: Vec<Move<G>>,
}

/// The draw counters of the game at the root, which the search carries on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawCounters {
    pub king_only_plies: u32,
    /// Plies left before each side has played more moves than the rules'
    /// limit (150 in the daily challenge).
    pub plies_to_move_limit: u32,
}

/// A position on its own: no king moves counted, no move limit in sight.
impl Default for DrawCounters {
    fn default() -> DrawCounters {
        DrawCounters { king_only_plies: 0, plies_to_move_limit: u32::MAX }
    }
}

impl DrawCounters {
    pub fn of<G: Geometry>(game: &Game<G>) -> DrawCounters {
        let limit = game.position().rules().move_limit as u32;
        if limit == 0 {
            return DrawCounters { king_only_plies: game.king_only_plies(), plies_to_move_limit: u32::MAX };
        }
        let white_left = (limit + 1).saturating_sub(game.moves_played(Color::White));
        let black_left = (limit + 1).saturating_sub(game.moves_played(Color::Black));
        // The limit falls when the second side plays its 151st move.
        let plies = match game.turn() {
            Color::White => (2 * white_left).max(2 * black_left + 1) - 1,
            Color::Black => (2 * black_left).max(2 * white_left + 1) - 1,
        };
        DrawCounters { king_only_plies: game.king_only_plies(), plies_to_move_limit: plies.max(1) }
    }
}

#[derive(Clone, Copy, Default)]
struct Entry<G: Geometry> {
    key: u64,
    best: Option<Move<G>>,
    score: i32,
    depth: i16,
    bound: Bound,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// A position in the tree, with what the search carries down to it from
/// the root.
#[derive(Clone, Copy)]
struct Node<G: Geometry> {
    pos: Position<G>,
    /// Plies below the root.
    ply: usize,
    /// The no-progress count: plies of king moves only since the last capture
    /// or man move.
    king_only: u32,
}

impl<G: Geometry> Node<G> {
    /// The node one ply down, after `mv`.
    #[inline]
    fn child(&self, mv: &Move<G>) -> Node<G> {
        Node { pos: self.pos.play_unchecked(mv), ply: self.ply + 1, king_only: advance(&self.pos, mv, self.king_only) }
    }
}

/// The scores between which a node's exact value matters to its parent:
/// at `alpha` or below, the side to move has as good elsewhere; at `beta`
/// or above, the opponent will not allow the position.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    const FULL: Window = Window { alpha: -INFINITY, beta: INFINITY };

    /// The null window just above `bound`: a search in it only tells whether
    /// the score beats `bound`, and costs far less than an exact score.
    #[inline]
    fn above(bound: i32) -> Window {
        Window { alpha: bound, beta: bound + 1 }
    }

    /// Whether the window only asks whether the score beats `alpha`: off
    /// the principal variation, most nodes are searched so.
    #[inline]
    fn is_null(self) -> bool {
        self.beta - self.alpha == 1
    }

    /// The same window seen by the opponent, to search a reply in: negamax
    /// scores are from the side to move, so the bounds swap and negate.
    #[inline]
    fn flipped(self) -> Window {
        Window { alpha: -self.beta, beta: -self.alpha }
    }
}

/// One search: its table, ordering heuristics and counters. Without a
/// parameter, a search on the 10×10 board.
pub struct Searcher<G: Geometry = Ten> {
    table: Vec<Entry<G>>,
    mask: u64,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    killers: [[Option<Move<G>>; 2]; MAX_PLY],
    /// Quiet moves' cut-offs by (from, to), `G::SQUARES` squared.
    history: Vec<u32>,
    /// See [`Limits::two_slot_table`].
    two_slot_table: bool,
    root_counters: DrawCounters,
    threat_plies: u32,
    eval: Evaluation,
    probcut: bool,
    frontier_pruning: bool,
    late_reductions: bool,
    quiescence_exchanges: bool,
    /// The endgame table for the rules of the position searched, when used.
    endgame: Option<&'static EndgameTable<G>>,
    /// Plies without progress after which the rules draw (never: `u32::MAX`).
    draw_plies: u32,
    /// The rules draw a third repetition: the search counts a second one as
    /// a draw, as strong programs do (the side that could avoid it would).
    repetition: bool,
    /// Keys of the positions on the path from the root, by ply.
    path: [u64; MAX_PLY],
    /// Keys of the game's positions since its last man move or capture,
    /// before the root (oldest first).
    game_keys: Vec<u64>,
    /// By ply, the best line found from the node searched there in a
    /// window wider than null (the principal variation's nodes), gathered
    /// as the search returns: the table alone loses it to later entries.
    /// Stale after a null window, where nothing reads it.
    lines: Vec<Vec<Move<G>>>,
}

impl<G: Geometry> Searcher<G> {
    pub fn new(limits: &Limits) -> Searcher<G> {
        let size = 1usize << limits.table_bits;
        let squares = G::SQUARES as usize;
        Searcher {
            table: vec![Entry::default(); size],
            mask: size as u64 - 1,
            nodes: 0,
            node_limit: limits.nodes,
            aborted: false,
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; squares * squares],
            two_slot_table: limits.two_slot_table,
            root_counters: DrawCounters::default(),
            threat_plies: limits.threat_plies,
            eval: limits.eval,
            probcut: limits.probcut,
            frontier_pruning: limits.frontier_pruning,
            late_reductions: limits.late_reductions,
            quiescence_exchanges: limits.quiescence_exchanges,
            endgame: None,
            draw_plies: u32::MAX,
            repetition: false,
            path: [0; MAX_PLY],
            game_keys: Vec::new(),
            lines: vec![Vec::new(); MAX_PLY],
        }
    }

    /// The positions of `game` before its current one, since its last man
    /// move or capture: a repetition of one of them is a draw when the
    /// rules say so.
    pub fn with_game_history(mut self, game: &Game<G>) -> Searcher<G> {
        if game.position().rules().repetition {
            let earlier = &game.since_progress()[..game.since_progress().len().saturating_sub(1)];
            self.game_keys = earlier.iter().map(zobrist).collect();
        }
        self
    }

    /// Searches `pos` within `limits`. `None` when there is no legal move.
    pub fn search(&mut self, pos: &Position<G>, counters: DrawCounters, limits: &Limits) -> Option<SearchResult<G>> {
        let root_moves = pos.legal_moves();
        if root_moves.is_empty() {
            return None;
        }
        self.root_counters = counters;
        let rules = pos.rules();
        self.draw_plies = if rules.draw_moves == 0 { u32::MAX } else { 2 * rules.draw_moves as u32 };
        self.repetition = rules.repetition;
        self.endgame = if limits.endgame_tables { endgame::table_for::<G>(rules) } else { None };
        let key = zobrist(pos);
        self.path[0] = key;
        let mut result =
            SearchResult { best_moves: vec![root_moves[0]], score: 0, depth: 0, nodes: 0, pv: vec![root_moves[0]] };
        let mut order: Vec<Move<G>> = root_moves.to_vec();
        for depth in 1..=limits.depth.max(1) {
            let (mut scored, best_score, best_line) = self.root(pos, key, &order, depth as i32, limits.tie_margin);
            if self.aborted {
                if limits.keep_partial {
                    if let Some(better) = better_in_unfinished(&scored, limits.tie_margin) {
                        // The first of the highest, as `root` keeps its line.
                        result = SearchResult { best_moves: vec![better.0], score: better.1, pv: best_line, ..result };
                    }
                }
                break;
            }
            // Keep legal-move order among the equals (so the seeded draw
            // does not depend on ordering heuristics), best first for the
            // next iteration.
            let mut best_moves: Vec<Move<G>> = root_moves
                .iter()
                .filter(|m| scored.iter().any(|(s, v)| s == *m && *v >= best_score - limits.tie_margin))
                .copied()
                .collect();
            let best = scored.iter().find(|(_, v)| *v == best_score).map(|(m, _)| *m).unwrap_or(order[0]);
            if let Some(i) = best_moves.iter().position(|m| *m == best) {
                best_moves[..=i].rotate_right(1);
            }
            // `scored` follows `order`: a stable sort keeps equals in the
            // order they were searched.
            scored.sort_by_key(|(_, v)| std::cmp::Reverse(*v));
            order = scored.into_iter().map(|(m, _)| m).collect();
            result = SearchResult { pv: best_line, best_moves, score: best_score, depth, nodes: self.nodes };
            if best_score.abs() >= WIN_THRESHOLD || root_moves.len() == 1 {
                break;
            }
        }
        result.nodes = self.nodes;
        debug_assert_eq!(result.pv.first(), Some(&result.best_moves[0]));
        self.extend_from_table(pos, &mut result.pv);
        Some(result)
    }

    /// One iteration at the root. Every move gets a score that is exact when
    /// it lies within the tie margin of the best, so equal moves are known.
    /// When the node limit cuts it short, the moves finished before. Also
    /// the line of the first move with the best score.
    fn root(
        &mut self,
        pos: &Position<G>,
        key: u64,
        moves: &[Move<G>],
        depth: i32,
        margin: i32,
    ) -> (Vec<(Move<G>, i32)>, i32, Vec<Move<G>>) {
        let root = Node { pos: *pos, ply: 0, king_only: self.root_counters.king_only_plies };
        let mut best = -INFINITY;
        let mut best_line = Vec::new();
        let mut scored = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let child = root.child(mv);
            let child_key = key_after(pos, key, mv);
            let score = if i == 0 {
                -self.negamax(child, child_key, depth - 1, Window::FULL)
            } else {
                // Is it at least within the margin of the best (does it beat
                // `threshold - 1`)? If so, learn its exact score.
                let threshold = best - margin;
                let probe = -self.negamax(child, child_key, depth - 1, Window::above(threshold - 1).flipped());
                if probe >= threshold {
                    let at_least = Window { alpha: threshold - 1, beta: INFINITY };
                    -self.negamax(child, child_key, depth - 1, at_least.flipped())
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            scored.push((*mv, score));
            if score > best {
                best = score;
                // A new best is exact: searched in a window open above.
                best_line.clear();
                best_line.push(*mv);
                best_line.extend_from_slice(&self.lines[1]);
            }
        }
        (scored, best, best_line)
    }

    /// The score of `node` searched `depth` plies deep, from the side to
    /// move, exact only inside `window`. `key` is the Zobrist key of its
    /// position, carried down incrementally.
    fn negamax(&mut self, node: Node<G>, key: u64, depth: i32, mut window: Window) -> i32 {
        let Node { ref pos, ply, king_only } = node;
        // A null window's line is never read: its parent keeps a line only
        // from a child searched in a wider window.
        if !window.is_null() {
            self.lines[ply].clear();
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(node, window, 0);
        }

        // The draw rules before the table: the table does not know how the
        // position was reached. A side without a move loses even then, as
        // in `Game`.
        if let Some(score) = self.rule_draw(node) {
            return if pos.has_legal_move() { score } else { -(WIN - ply as i32) };
        }
        self.path[ply] = key;
        if self.repetition && self.repeats(ply, king_only) && pos.has_legal_move() {
            return 0;
        }
        if let Some(score) = self.endgame_score(node) {
            return score;
        }

        // The table next: a hit saves generating the moves at all. The
        // no-progress count is part of the key, so that a king ending reached
        // closer to the draw is not judged by an entry from farther away.
        let position_key = key;
        let key = table_key(key, king_only);
        let mut hash_move = None;
        if let Some(entry) = self.probe(key) {
            hash_move = entry.best;
            if entry.depth as i32 >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => {
                        if !window.is_null() {
                            // The line below goes up to the root's variation:
                            // read it now, while the table still holds it.
                            let mut line = std::mem::take(&mut self.lines[ply]);
                            self.table_line(node, &mut line, depth as usize);
                            self.lines[ply] = line;
                        }
                        return score;
                    }
                    Bound::Lower if score >= window.beta => return score,
                    Bound::Upper if score <= window.alpha => return score,
                    _ => {}
                }
            }
        }

        // Known to have no capture, the legal moves are the quiet ones: the
        // capture test made for the pruning is not made again.
        let mut no_capture = false;
        if self.frontier_pruning
            && depth <= REVERSE_FUTILITY_DEPTH
            && window.is_null()
            && window.beta.abs() < PROVEN_SCORE
        {
            no_capture = !pos.can_capture();
            if no_capture {
                if let Some(score) = self.frontier_cut(node, depth, window) {
                    return score;
                }
            }
        }

        let mut moves = MoveList::new();
        if no_capture {
            pos.quiet_moves_into(&mut moves);
        } else {
            pos.legal_moves_into(&mut moves);
        }
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        // A forced reply costs no depth.
        let depth = if moves.len() == 1 && ply < MAX_PLY / 2 { depth + 1 } else { depth };

        if self.probcut && depth >= PROBCUT_MIN_DEPTH && window.is_null() && window.beta.abs() < PROVEN_SCORE {
            // Not when a capture is due: the captures are the position's
            // whole story, and a shallow look at them proves nothing.
            if !moves.iter().any(Move::is_capture) {
                let margin = PROBCUT_MARGIN_PER_PLY * depth;
                let bar = window.beta + margin;
                let shallow_depth = (depth * PROBCUT_DEPTH_PERCENT / 100).max(1);
                let shallow = self.negamax(node, position_key, shallow_depth, Window::above(bar - 1));
                if self.aborted {
                    return 0;
                }
                if shallow >= bar {
                    return shallow - margin;
                }
            }
        }

        let mut scores = Scores::new();
        self.score_moves(&moves, hash_move, ply, &mut scores);
        let original_alpha = window.alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut index = 0;
        while let Some(mv) = next_best(&mut moves, &mut scores) {
            let child = node.child(&mv);
            let child_key = key_after(pos, position_key, &mv);
            let score = if index == 0 {
                -self.negamax(child, child_key, depth - 1, window.flipped())
            } else {
                // Principal variation search: the first move is taken as
                // best, the others only checked not to beat it, and searched
                // again in the whole window when they do. Late quiet moves
                // are checked a ply shallower first.
                let reduction = self.reduction(pos, &child.pos, &mv, depth, index, window.is_null());
                let null = Window::above(window.alpha).flipped();
                let mut s = -self.negamax(child, child_key, depth - 1 - reduction, null);
                if s > window.alpha && reduction > 0 {
                    s = -self.negamax(child, child_key, depth - 1, null);
                }
                if s > window.alpha && s < window.beta {
                    s = -self.negamax(child, child_key, depth - 1, window.flipped());
                }
                s
            };
            if self.aborted {
                return 0;
            }
            index += 1;
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
            }
            if score > window.alpha {
                window.alpha = score;
                if score < window.beta {
                    // Only inside a wider window than null, where the child
                    // searched kept its own line.
                    let (here, below) = self.lines.split_at_mut(ply + 1);
                    here[ply].clear();
                    here[ply].push(mv);
                    here[ply].extend_from_slice(&below[0]);
                }
            }
            if window.alpha >= window.beta {
                if !mv.is_capture() {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(mv) {
                        killers[1] = killers[0];
                        killers[0] = Some(mv);
                    }
                    let h = &mut self.history[history_index::<G>(&mv)];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }

        let bound = if best_score >= window.beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(Entry { key, best: best_move, score: to_table(best_score, ply), depth: depth as i16, bound });
        best_score
    }

    /// How many plies shallower the `index`th move `mv` of `pos` (leading
    /// to `after`) is first searched, `depth` plies from the leaves. See
    /// [`Limits::late_reductions`].
    #[inline]
    fn reduction(
        &self,
        pos: &Position<G>,
        after: &Position<G>,
        mv: &Move<G>,
        depth: i32,
        index: usize,
        null: bool,
    ) -> i32 {
        if depth < 3 || mv.is_capture() {
            return 0;
        }
        if !self.late_reductions {
            return i32::from(index >= 4);
        }
        // A man crowned changes the game too much to be judged shallower.
        if crowns(pos, after, mv) {
            return 0;
        }
        match (null, index) {
            (true, i) if i >= DEEP_REDUCTION_INDEX => 2,
            (true, _) => 1,
            (false, i) => i32::from(i >= PV_REDUCTION_INDEX),
        }
    }

    /// The table's entry for `key`, if it holds one.
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry<G>> {
        let slot = (key & self.mask) as usize;
        if self.two_slot_table {
            // The pair at an even index: the deepest entry, then the latest.
            let deepest = self.table[slot & !1];
            if deepest.key == key {
                return Some(deepest);
            }
            let latest = self.table[slot | 1];
            return (latest.key == key).then_some(latest);
        }
        let entry = self.table[slot];
        (entry.key == key).then_some(entry)
    }

    /// Stores `entry`: in its slot, or, with two entries a slot, as the
    /// deepest when it is at least as deep as the one there or the same
    /// position's, else as the latest.
    #[inline]
    fn store(&mut self, entry: Entry<G>) {
        let slot = (entry.key & self.mask) as usize;
        if self.two_slot_table {
            let deepest = &mut self.table[slot & !1];
            if deepest.key == entry.key || entry.depth >= deepest.depth {
                *deepest = entry;
            } else {
                self.table[slot | 1] = entry;
            }
            return;
        }
        self.table[slot] = entry;
    }

    /// Frontier pruning at `node`, `depth` plies from the leaves, with no
    /// capture due, when only a bound matters (`window` is null): its score
    /// when the evaluation settles it, `None` when the node must be
    /// searched. See [`Limits::frontier_pruning`].
    fn frontier_cut(&mut self, node: Node<G>, depth: i32, window: Window) -> Option<i32> {
        let pos = &node.pos;
        let eval = evaluate_with(self.eval, pos, node.king_only);
        // Far ahead: the opponent, a few plies from the leaves, will not
        // make it up, unless a capture is already threatened (looked for
        // last: it costs more than the comparison).
        if eval - REVERSE_FUTILITY_MARGIN * depth >= window.beta && !pos.with_turn(!pos.turn()).can_capture() {
            return Some(eval);
        }
        // Far behind: only a capture or the answer to a threat could help,
        // which is what quiescence looks for.
        if depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth <= window.alpha {
            let score = self.quiescence(node, window, 0);
            if self.aborted {
                return Some(0);
            }
            if score <= window.alpha {
                return Some(score);
            }
        }
        None
    }

    /// Plays out captures until the position is quiet, then trusts the
    /// evaluation, unless the opponent threatens a capture: then, for a few
    /// plies, quiet answers are searched too: `threat_ply` counts those
    /// already on the path.
    fn quiescence(&mut self, node: Node<G>, mut window: Window, threat_ply: u32) -> i32 {
        let Node { ref pos, ply, king_only } = node;
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let mut moves = MoveList::new();
        pos.captures_into(&mut moves);
        // Under optional-capture rules a capture is a choice, not a must.
        let forced = !moves.is_empty() && pos.rules.mandatory();
        if moves.is_empty() && !pos.has_quiet_move() {
            return -(WIN - ply as i32);
        }
        if let Some(score) = self.rule_draw(node) {
            return score;
        }
        if let Some(score) = self.endgame_score(node) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_with(self.eval, pos, king_only);
        }
        let mut best = -INFINITY;
        let mut quiet_too = false;
        let mut exchanges = false;
        if !forced {
            let stand_pat = evaluate_with(self.eval, pos, king_only);
            // Threatened, standing pat is only a guess: trust it when it is
            // already good enough, otherwise look for a defence. (The threat
            // is looked for last: it costs more than the evaluation.)
            if stand_pat >= window.beta {
                return stand_pat;
            }
            let threatened = threat_ply < self.threat_plies && pos.with_turn(!pos.turn()).can_capture();
            if threatened {
                quiet_too = true;
            } else if moves.is_empty() {
                if !self.quiescence_exchanges || threat_ply >= self.threat_plies || !pos.kings().is_empty() {
                    return stand_pat;
                }
                pos.quiet_moves_into(&mut moves);
                moves.retain(|mv| offers_exchange_or_crowns(pos, mv));
                if moves.is_empty() {
                    return stand_pat;
                }
                // Standing pat stays open to the side to move; an exchange
                // is tried only to beat it.
                best = stand_pat;
                window.alpha = window.alpha.max(stand_pat);
                (quiet_too, exchanges) = (true, true);
            } else {
                // Optional captures and no threat: standing pat is a score
                // the side to move can have; the captures may do better.
                best = stand_pat;
                window.alpha = window.alpha.max(stand_pat);
            }
        }
        let next_threat_ply = if quiet_too { threat_ply + 1 } else { threat_ply };
        let mut scores = Scores::new();
        if exchanges {
            self.score_moves(&moves, None, ply, &mut scores);
        } else if quiet_too {
            if moves.is_empty() {
                pos.quiet_moves_into(&mut moves);
            } else {
                // Optional captures found above: the quiet moves join them
                // (rare enough to generate the list whole).
                pos.legal_moves_into(&mut moves);
            }
            self.score_moves(&moves, None, ply, &mut scores);
        } else if !pos.rules.majority() {
            // Under the majority rule the captures are all of one size;
            // otherwise the longest are tried first.
            moves.sort_by_key(|m| std::cmp::Reverse(m.capture_count()));
        }
        let mut tried = 0;
        while let Some(mv) = if quiet_too { next_best(&mut moves, &mut scores) } else { moves.get(tried).copied() } {
            tried += 1;
            let score = -self.quiescence(node.child(&mv), window.flipped(), next_threat_ply);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > window.alpha {
                window.alpha = score;
                if window.alpha >= window.beta {
                    break;
                }
            }
        }
        best
    }

    /// The draw rules at `node`: its no-progress count, and the move limit
    /// seen from its ply below the root.
    fn rule_draw(&self, node: Node<G>) -> Option<i32> {
        if node.king_only >= self.draw_plies || node.ply as u32 >= self.root_counters.plies_to_move_limit {
            Some(0)
        } else {
            None
        }
    }

    /// The endgame table's verdict on `node`, as a score: a win is worth
    /// [`ENDGAME_WIN`] less the plies it takes, so the search heads for
    /// the quickest. A win or loss that the draw rules would cut short
    /// (kings alone, with too few plies left before the no-progress draw or
    /// the move limit) counts as the draw it would be.
    #[inline(always)]
    fn endgame_score(&self, node: Node<G>) -> Option<i32> {
        // Counted here, inlined, so that the many nodes with more pieces pay
        // one test and no call (and levels without tables none).
        let table = self.endgame?;
        if node.pos.occupied().count() > endgame::MAX_PIECES {
            return None;
        }
        let verdict = table.probe(&node.pos)?;
        let plies = match verdict {
            Verdict::Draw => return Some(0),
            Verdict::Win(plies) | Verdict::Loss(plies) => plies as u32,
        };
        // With a man on the board, the winning line may reset the count.
        let kings_only = node.pos.kings() == node.pos.occupied();
        if (kings_only && node.king_only + plies >= self.draw_plies)
            || node.ply as u32 + plies >= self.root_counters.plies_to_move_limit
        {
            return Some(0);
        }
        let score = ENDGAME_WIN - plies as i32;
        Some(if matches!(verdict, Verdict::Win(_)) { score } else { -score })
    }

    /// Whether the position at `ply` (its key in `path[ply]`) stood
    /// earlier with the same side to move, since the last progress
    /// (`king_only` plies back), on the path or in the game.
    fn repeats(&self, ply: usize, king_only: u32) -> bool {
        let key = self.path[ply];
        let mut back = 4;
        while back <= king_only as usize {
            let earlier = if back <= ply {
                self.path[ply - back]
            } else {
                match self.game_keys.len().checked_sub(back - ply) {
                    Some(i) => self.game_keys[i],
                    None => return false,
                }
            };
            if earlier == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Ordering scores, one per move: hash move, then the largest captures,
    /// killers, then quiet moves by history.
    fn score_moves(&self, moves: &MoveList<G>, hash_move: Option<Move<G>>, ply: usize, scores: &mut Scores) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        scores.extend(moves.iter().map(|m| {
            if Some(*m) == hash_move {
                u32::MAX
            } else if m.is_capture() {
                u32::MAX - 100 + m.capture_count()
            } else if Some(*m) == killers[0] {
                u32::MAX - 200
            } else if Some(*m) == killers[1] {
                u32::MAX - 201
            } else {
                self.history[history_index::<G>(m)].min(u32::MAX - 300)
            }
        }));
    }

    /// `pv`, the line the search gathered from `pos`, carried on by the
    /// table's best replies wherever it stops short (the line of a last
    /// iteration cut short, or a table line that ran out), up to 16 moves.
    fn extend_from_table(&self, pos: &Position<G>, pv: &mut Vec<Move<G>>) {
        let mut node = Node { pos: *pos, ply: 0, king_only: self.root_counters.king_only_plies };
        for mv in pv.iter() {
            node = node.child(mv);
        }
        self.table_line(node, pv, 16);
    }

    /// Appends to `line` the table's best moves from `node` on, as long as
    /// it holds them, until `line` has `max` moves.
    fn table_line(&self, mut node: Node<G>, line: &mut Vec<Move<G>>, max: usize) {
        while line.len() < max {
            let key = table_key(zobrist(&node.pos), node.king_only);
            let Some(mv) = self.probe(key).and_then(|entry| entry.best) else { break };
            if !node.pos.legal_moves().contains(&mv) {
                break;
            }
            line.push(mv);
            node = node.child(&mv);
        }
    }
}

/// Ordering scores beside a move list, on the stack like it.
type Scores = smallvec::SmallVec<[u32; 128]>;

/// In an iteration the node limit cut short, the finished root move that
/// beats the first one (the previous iteration's best), with its score:
/// searched with the null window above the best so far and again when it
/// beat it, its score is exact. Only without a tie margin: with one, the
/// moves within it of the best would not all be known.
fn better_in_unfinished<G: Geometry>(scored: &[(Move<G>, i32)], tie_margin: i32) -> Option<(Move<G>, i32)> {
    let &(_, first) = scored.first()?;
    if tie_margin != 0 {
        return None;
    }
    // The first of the highest, in search order.
    scored.iter().copied().filter(|(_, v)| *v > first).reduce(|best, next| if next.1 > best.1 { next } else { best })
}

/// The history table's slot of a move.
#[inline]
fn history_index<G: Geometry>(mv: &Move<G>) -> usize {
    (mv.from.number() as usize - 1) * G::SQUARES as usize + mv.to.number() as usize - 1
}

/// Takes the best-scored move left (selection sort, one step at a time: a
/// cut-off often comes before the rest need sorting); the first of equals.
fn next_best<G: Geometry>(moves: &mut MoveList<G>, scores: &mut Scores) -> Option<Move<G>> {
    let first = *scores.first()?;
    let (mut best, mut best_score) = (0, first);
    for (i, &s) in scores.iter().enumerate().skip(1) {
        if s > best_score {
            (best, best_score) = (i, s);
        }
    }
    scores.swap_remove(best);
    Some(moves.swap_remove(best))
}

/// The table's key for a position with its no-progress count: a king
/// ending reached closer to the draw is another entry.
#[inline]
fn table_key(position_key: u64, king_only: u32) -> u64 {
    position_key ^ COUNTER_KEYS[(king_only as usize).min(COUNTER_KEYS.len() - 1)]
}

/// The no-progress count after `mv`.
fn advance<G: Geometry>(pos: &Position<G>, mv: &Move<G>, king_only: u32) -> u32 {
    if mv.is_capture() || !pos.kings().contains(mv.from) {
        0
    } else {
        king_only + 1
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// The splitmix64 generator: fixed, well-mixed keys at compile time.
const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random keys for (piece kind, bit), `BITS` bits, from `seed`.
const fn piece_keys<const BITS: usize>(seed: u64) -> [[u64; BITS]; 4] {
    let mut keys = [[0u64; BITS]; 4];
    let mut state = seed;
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < BITS {
            keys[kind][bit] = splitmix64(&mut state);
            bit += 1;
        }
        kind += 1;
    }
    keys
}

/// Random keys for (piece kind, bit) and the side to move, fixed at compile
/// time so every build hashes alike: the 8×8 and 10×10 boards'.
static KEYS: [[u64; 64]; 4] = piece_keys(0x9E37_79B9_7F4A_7C15);
const BLACK_TO_MOVE: u64 = 0xD1B5_4A32_D192_ED03;

/// The same for the 12×12 board, whose squares reach bit 76 (the keys
/// above stay as they are: international play depends on them).
static WIDE_KEYS: [[u64; 128]; 4] = piece_keys(0x3C6E_F372_FE94_F82B);

/// The key of a piece kind on a bit of a board of geometry `G`.
#[inline(always)]
fn piece_key<G: Geometry>(kind: usize, bit: u32) -> u64 {
    if G::SIZE > 10 {
        WIDE_KEYS[kind][bit as usize]
    } else {
        KEYS[kind][bit as usize]
    }
}

/// Keys for the no-progress count (0 to the longest the rules allow),
/// mixed into the table's key. Count 0 adds nothing, so positions after a
/// man move share entries. (Generated in order: the first 51, which
/// international draughts uses, never change.)
static COUNTER_KEYS: [u64; 2 * MAX_DRAW_MOVES as usize + 1] = {
    let mut keys = [0u64; 2 * MAX_DRAW_MOVES as usize + 1];
    let mut state: u64 = 0x243F_6A88_85A3_08D3;
    let mut i = 1;
    while i < keys.len() {
        keys[i] = splitmix64(&mut state);
        i += 1;
    }
    keys
};

fn kind(color: Color, king: bool) -> usize {
    match (color, king) {
        (Color::White, false) => 0,
        (Color::White, true) => 1,
        (Color::Black, false) => 2,
        (Color::Black, true) => 3,
    }
}

/// The Zobrist key of a position.
pub fn zobrist<G: Geometry>(pos: &Position<G>) -> u64 {
    let mut key = if pos.turn() == Color::Black { BLACK_TO_MOVE } else { 0 };
    for color in [Color::White, Color::Black] {
        for (king, set) in [(false, pos.men(color)), (true, pos.kings_of(color))] {
            let mut bits = set.0;
            while bits != G::Word::ZERO {
                key ^= piece_key::<G>(kind(color, king), bits.trailing_zeros());
                bits = bits ^ bits.lowest_bit();
            }
        }
    }
    key
}

/// The key after `mv`, updated from `key` rather than recomputed.
fn key_after<G: Geometry>(pos: &Position<G>, key: u64, mv: &Move<G>) -> u64 {
    let us = pos.turn();
    let was_king = pos.kings().contains(mv.from);
    let promotes = !was_king
        && (mv.crowned_in_passing
            || match us {
                Color::White => mv.to.row() == 0,
                Color::Black => mv.to.row() == G::SIZE - 1,
            });
    let mut key = key ^ BLACK_TO_MOVE;
    key ^= piece_key::<G>(kind(us, was_king), mv.from.bit_index());
    key ^= piece_key::<G>(kind(us, was_king || promotes), mv.to.bit_index());
    let mut captured = mv.captured.0;
    while captured != G::Word::ZERO {
        let bit = captured.trailing_zeros();
        let king = pos.kings().0 & (G::Word::ONE << bit) != G::Word::ZERO;
        key ^= piece_key::<G>(kind(!us, king), bit);
        captured = captured ^ captured.lowest_bit();
    }
    key
}

/// Whether `mv`, played from `pos` to `after`, crowns a man.
fn crowns<G: Geometry>(pos: &Position<G>, after: &Position<G>, mv: &Move<G>) -> bool {
    after.kings().contains(mv.to) && !pos.kings().contains(mv.from)
}

/// Whether the quiet move `mv` of `pos` crowns a man, or offers an exchange:
/// the opponent must capture, and whichever capture it makes, a capture
/// back is there. (A bare sacrifice is not tried: too many, and seldom
/// sound at a leaf.)
fn offers_exchange_or_crowns<G: Geometry>(pos: &Position<G>, mv: &Move<G>) -> bool {
    let after = pos.play_unchecked(mv);
    if crowns(pos, &after, mv) {
        return true;
    }
    let mut replies = MoveList::new();
    after.captures_into(&mut replies);
    !replies.is_empty() && replies.iter().all(|reply| after.play_unchecked(reply).can_capture())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unfinished_iteration_counts_only_for_a_move_that_beats_the_first() {
        let moves = Position::start().legal_moves();
        let (a, b, c) = (moves[0], moves[1], moves[2]);
        assert_eq!(better_in_unfinished::<Ten>(&[], 0), None, "the first move unfinished");
        assert_eq!(better_in_unfinished(&[(a, 10)], 0), None);
        assert_eq!(better_in_unfinished(&[(a, 10), (b, 10), (c, 5)], 0), None, "equal is not better");
        assert_eq!(better_in_unfinished(&[(a, 10), (b, 30), (c, 30)], 0), Some((b, 30)), "the first of the best");
        assert_eq!(better_in_unfinished(&[(a, 10), (b, 20), (c, 40)], 0), Some((c, 40)));
        assert_eq!(better_in_unfinished(&[(a, 10), (b, 30)], 5), None, "not with a tie margin");
    }

    /// A node budget with the classic evaluation, an unfinished iteration
    /// thrown away.
    fn classic_budget(nodes: u64) -> Limits {
        Limits {
            depth: 64,
            nodes,
            tie_margin: 0,
            table_bits: 16,
            threat_plies: 2,
            eval: Evaluation::Classic,
            keep_partial: false,
            probcut: false,
            frontier_pruning: false,
            endgame_tables: false,
            two_slot_table: false,
            late_reductions: false,
            quiescence_exchanges: false,
        }
    }

    /// White to move, nothing to capture and nothing threatened: 27-22
    /// offers a man, and whichever of 17 or 18 takes it (37 and 38 stop
    /// them going on), 32 takes two back (32x21x12 or 32x23x12). Standing
    /// pat sees an even game; with exchanges the quiescence search finds
    /// the man won.
    #[test]
    fn exchanges_in_quiescence_find_a_two_for_one() {
        let pos = Position::from_fen("W:W27,32,37,38,46:B3,4,5,17,18").unwrap();
        assert!(!pos.can_capture() && !pos.with_turn(Color::Black).can_capture());
        let leaf = |exchanges: bool| {
            let mut searcher = Searcher::new(&Limits { quiescence_exchanges: exchanges, ..classic_budget(u64::MAX) });
            searcher.quiescence(Node { pos, ply: 0, king_only: 0 }, Window::FULL, 0)
        };
        let (standing, exchanging) = (leaf(false), leaf(true));
        assert_eq!(standing, evaluate_with(Evaluation::Classic, &pos, 0));
        assert!(exchanging >= standing + 80, "{standing} then {exchanging}");
        // The threat budget spent, it stands pat as before.
        let mut searcher = Searcher::new(&Limits { quiescence_exchanges: true, ..classic_budget(u64::MAX) });
        assert_eq!(searcher.quiescence(Node { pos, ply: 0, king_only: 0 }, Window::FULL, 2), standing);
    }

    /// Of the quiet moves, the exchange offers and the crownings are kept;
    /// a bare sacrifice and a move that offers nothing are not.
    #[test]
    fn exchange_offers_are_captured_back_and_crownings_count() {
        let pos = Position::from_fen("W:W27,32,37,38,46:B3,4,5,17,18").unwrap();
        let quiet = |pos: &Position, from: u8, to: u8| {
            *pos.legal_moves().iter().find(|m| m.from.number() == from && m.to.number() == to).unwrap()
        };
        // 27-22: taken, then taken back by 32.
        assert!(offers_exchange_or_crowns(&pos, &quiet(&pos, 27, 22)));
        // 27-21: taken by 17 (17x26), and nothing takes back.
        assert!(!offers_exchange_or_crowns(&pos, &quiet(&pos, 27, 21)));
        // 46-41: nothing to take.
        assert!(!offers_exchange_or_crowns(&pos, &quiet(&pos, 46, 41)));
        let crowning = Position::from_fen("W:W7:B45").unwrap();
        assert!(offers_exchange_or_crowns(&crowning, &quiet(&crowning, 7, 1)));
    }

    #[test]
    fn two_slots_keep_the_deepest_entry_beside_the_latest() {
        // Three positions whose keys share a pair of slots: a deep result,
        // then two shallower ones. One entry a slot keeps only the last;
        // two keep the deep one and the last.
        let entry = |key: u64, depth: i16| Entry::<Ten> { key, best: None, score: 7, depth, bound: Bound::Exact };
        let (deep, shallow, latest) = (0x100 << 8, 0x200 << 8, (0x300 << 8) | 1);
        let mut one = Searcher::<Ten>::new(&Limits { table_bits: 8, ..classic_budget(1) });
        let mut two = Searcher::<Ten>::new(&Limits { table_bits: 8, two_slot_table: true, ..classic_budget(1) });
        for searcher in [&mut one, &mut two] {
            searcher.store(entry(deep, 9));
            searcher.store(entry(shallow, 2));
            searcher.store(entry(latest, 3));
        }
        assert!(one.probe(deep).is_none() && one.probe(shallow).is_some() && one.probe(latest).is_some());
        assert_eq!(two.probe(deep).map(|e| e.depth), Some(9), "the deepest stays");
        assert!(two.probe(shallow).is_none(), "the latest replaced it");
        assert_eq!(two.probe(latest).map(|e| e.depth), Some(3));
        // The same position stored again, shallower, replaces its own deep entry.
        two.store(entry(deep, 4));
        assert_eq!(two.probe(deep).map(|e| e.depth), Some(4));
    }

    #[test]
    fn a_search_cut_short_keeps_its_last_full_iteration_or_a_better_finished_move() {
        // Whatever the budget, the reply is one of the legal moves and the
        // same on a second run; kept or not, the unfinished iteration costs
        // the same nodes (the limit is where both stop).
        let pos = Position::from_fen("W:W27,28,32,33,37,38,39,42,43,48:B3,7,8,12,13,16,17,18,19,23").unwrap();
        for nodes in [5_000, 50_000, 200_000] {
            let base = classic_budget(nodes);
            let dropped = Searcher::new(&base).search(&pos, DrawCounters::default(), &base).unwrap();
            let kept_limits = Limits { keep_partial: true, ..base };
            let kept = Searcher::new(&kept_limits).search(&pos, DrawCounters::default(), &kept_limits).unwrap();
            let again = Searcher::new(&kept_limits).search(&pos, DrawCounters::default(), &kept_limits).unwrap();
            assert_eq!(kept, again);
            assert_eq!((kept.depth, kept.nodes), (dropped.depth, dropped.nodes));
            assert!(pos.legal_moves().contains(&kept.best_moves[0]));
            if kept.best_moves != dropped.best_moves {
                assert_eq!(kept.best_moves.len(), 1, "a move kept from the unfinished iteration stands alone");
            }
        }
    }

    /// The strong programs' reductions spend fewer nodes on late quiet
    /// moves: the same budget completes more plies over the positions, and
    /// no fewer in any.
    #[test]
    fn late_reductions_search_deeper_at_the_same_nodes() {
        let (mut total_with, mut total_without) = (0, 0);
        for fen in [
            "W:W27,28,32,33,37,38,39,42,43,48:B3,7,8,12,13,16,17,18,19,23",
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let depth = |late_reductions| {
                let limits = Limits { late_reductions, ..classic_budget(100_000) };
                Searcher::new(&limits).search(&pos, DrawCounters::default(), &limits).unwrap().depth
            };
            let (with, without) = (depth(true), depth(false));
            assert!(with >= without, "{fen}: {with} plies with the reductions, {without} without");
            (total_with, total_without) = (total_with + with, total_without + without);
        }
        assert!(total_with > total_without, "{total_with} plies with the reductions in all, {total_without} without");
    }

    #[test]
    fn twice_the_nodes_carried_on_never_ends_shallower() {
        // A search carried on (`keep_partial`, as the learned evaluation
        // plays) with twice the nodes of another: its first half is the
        // smaller search itself, so it ends at least as deep, and at the same
        // depth it differs only by a move that beat the previous best in the
        // unfinished iteration.
        for fen in [
            "W:W27,28,32,33,37,38,39,42,43,48:B3,7,8,12,13,16,17,18,19,23",
            "B:W26,27,28,31,32,33,34,36,37,38,39,40,41,42,43,44,45,46,47,48:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,24",
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for nodes in [20_000, 100_000] {
                let small = classic_budget(nodes);
                let large_limits = Limits { nodes: 2 * nodes, keep_partial: true, ..small };
                let small = Searcher::new(&small).search(&pos, DrawCounters::default(), &small).unwrap();
                let large = Searcher::new(&large_limits).search(&pos, DrawCounters::default(), &large_limits).unwrap();
                assert!(large.depth >= small.depth, "{fen} at {nodes}: {} < {}", large.depth, small.depth);
                if large.depth == small.depth && large.best_moves != small.best_moves {
                    assert_eq!(large.best_moves.len(), 1, "{fen} at {nodes}: only a move kept from the unfinished iteration");
                } else if large.depth == small.depth {
                    assert_eq!(large.score, small.score, "{fen} at {nodes}: the same last full iteration");
                }
            }
        }
    }

    #[test]
    fn incremental_keys_match_full_keys() {
        let mut pos = Position::from_fen("W:W15,28,K40:B9,10,19,K33").unwrap();
        let mut key = zobrist(&pos);
        for _ in 0..12 {
            let Some(mv) = pos.legal_moves().first().copied() else { break };
            key = key_after(&pos, key, &mv);
            pos = pos.play_unchecked(&mv);
            assert_eq!(key, zobrist(&pos));
        }
    }

    #[test]
    fn move_limit_counters() {
        let daily = Game::new(Position::<Ten>::initial(crate::Rules::DAILY).unwrap());
        assert_eq!(DrawCounters::of(&daily).plies_to_move_limit, 302);
        assert_eq!(DrawCounters::of(&Game::default()).plies_to_move_limit, u32::MAX, "no limit in the preset");
    }
}
