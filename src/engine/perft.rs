//! Perft: the number of leaf positions of the legal move tree, the standard
//! check of a move generator against published counts.

use super::{Move, Position};

/// Leaves of the move tree `depth` plies deep. Leaves are counted in bulk:
/// the last ply's moves are counted, not played.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => pos.legal_moves().iter().map(|m| perft(&pos.play_unchecked(m), depth - 1)).sum(),
    }
}

/// Perft split by first move ("divide"), in legal-move order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|m| (*m, perft(&pos.play_unchecked(m), depth - 1))).collect()
}
