//! Perft: the number of leaf positions of the legal move tree, the standard
//! check of a move generator against published counts.

use super::geometry::Geometry;
use super::{Move, Position};

/// Leaves of the move tree `depth` plies deep. Leaves are counted in bulk:
/// the last ply's moves are counted, not played.
pub fn perft<G: Geometry>(pos: &Position<G>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ => super::movegen::perft_leaves(pos, depth),
    }
}

/// Perft split by first move ("divide"), in legal-move order.
pub fn perft_divide<G: Geometry>(pos: &Position<G>, depth: u32) -> Vec<(Move<G>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|m| (*m, perft(&pos.play_unchecked(m), depth - 1))).collect()
}
