//! A match's openings: every sequence of a few plies from the start, the
//! balanced ones among them (a search at a fixed node budget finds neither
//! side ahead), in a seeded order; or openings read from a file, one a
//! line, as moves from the start or as a FEN.

use crate::engine::bot::Level;
use crate::engine::eval::MAN;
use crate::engine::geometry::Geometry;
use crate::engine::pdn::{move_texts, parse_pdn};
use crate::engine::search::{DrawCounters, Limits, Searcher};
use crate::engine::{Game, Position};

/// Every game of `plies` legal moves from `start` (none that ends before),
/// in legal-move order: the first ply's first move with each of its
/// replies, and so on.
pub fn sequences<G: Geometry>(start: &Game<G>, plies: u32) -> Vec<Game<G>> {
    if plies == 0 {
        return vec![start.clone()];
    }
    let mut games = Vec::new();
    for mv in start.legal_moves() {
        let mut next = start.clone();
        if next.play(&mv).is_ok() {
            games.extend(sequences(&next, plies - 1));
        }
    }
    games
}

/// Puts `items` in an order drawn from `seed` (Fisher-Yates with a linear
/// congruential generator): the same seed, the same order, so that a short
/// match still plays varied openings and a match played again plays the
/// same.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed ^ 0x5851_f42d_4c95_7f2d;
    for i in (1..items.len()).rev() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let j = ((state >> 33) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// The search that judges whether an opening is balanced: `fort`'s, at a
/// budget small enough to judge a few hundred openings in seconds, with a
/// table to fit (`fort`'s own, cleared for each search, would cost more to
/// clear than the search).
pub fn balance_limits() -> Limits {
    Limits { nodes: 20_000, table_bits: 15, ..Level::Fort.limits() }
}

/// An opening is balanced when that search scores it within this much of
/// even, for the side to move: a third of a man.
pub const BALANCE_MARGIN: i32 = MAN / 3;

/// The openings of `openings` that the search at `limits` scores within
/// `margin` of even, in their order, judged on `threads` threads (the same
/// openings whatever the threads: the search counts nodes, not time).
pub fn balanced<G: Geometry>(openings: Vec<Game<G>>, limits: &Limits, margin: i32, threads: usize) -> Vec<Game<G>> {
    let mut kept = Vec::with_capacity(openings.len());
    let judged = crate::parallel::in_order(
        openings.len(),
        threads,
        |i| {
            let game = &openings[i];
            let result =
                Searcher::new(limits).with_game_history(game).search(game.position(), DrawCounters::of(game), limits);
            result.is_some_and(|r| r.score.abs() <= margin)
        },
        |i, balanced| {
            if balanced {
                kept.push(openings[i].clone());
            }
            Ok(())
        },
    );
    // Judging writes nowhere: only a panic could stop it, and that is
    // passed on by the threads' scope.
    debug_assert!(judged.is_ok());
    kept
}

/// The built-in openings of international draughts: the balanced ones
/// among every `plies`-ply start (two: one move of each side, 81 of them;
/// three: and White's next), in the order `seed` draws, each a game that
/// follows FMJD's endgame counts.
pub fn built_in(plies: u32, seed: u64, threads: usize) -> Vec<Game> {
    let start = Game::with_fmjd_counts(Position::start());
    let mut openings = balanced(sequences(&start, plies), &balance_limits(), BALANCE_MARGIN, threads);
    shuffle(&mut openings, seed);
    openings
}

/// Openings from the text of a file, in its order: one a line, either moves
/// from the start in PDN (`32-28 18-23`, `1. 32-28 18-23 2. 33-29`) or a
/// position in FEN (`W:W31,32,33:B18,19`); blank lines and lines starting
/// with `#` are skipped. Each is a game that follows FMJD's endgame counts.
pub fn read(text: &str) -> Result<Vec<Game>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = read_line(line).map_err(|why| format!("line {}: {why}", number + 1))?;
        if let Some(outcome) = opening.outcome() {
            return Err(format!("line {}: the game is over there ({outcome})", number + 1));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no opening in it".into());
    }
    Ok(openings)
}

fn read_line(line: &str) -> Result<Game, String> {
    if line.contains(':') {
        let start = Position::from_fen(line).map_err(|e| format!("bad FEN {line:?}: {e}"))?;
        return Ok(Game::with_fmjd_counts(start));
    }
    let mut game = Game::with_fmjd_counts(Position::start());
    let moves = parse_pdn(line).into_iter().next().map(|g| g.moves).unwrap_or_default();
    if moves.is_empty() {
        return Err(format!("neither moves nor a FEN: {line:?}"));
    }
    for text in &moves {
        game.play_text(text).map_err(|e| format!("{text}: {e}"))?;
    }
    Ok(game)
}

/// An opening in words: its moves (`32-28 18-23`), after its position's FEN
/// when it does not start from the start.
pub fn describe<G: Geometry>(opening: &Game<G>) -> String {
    let moves = move_texts(opening.start(), opening.moves()).join(" ");
    let from_start = Position::<G>::initial(opening.start().rules()).ok() == Some(*opening.start());
    match (from_start, moves.is_empty()) {
        (true, _) => moves,
        (false, true) => opening.start().to_fen(),
        (false, false) => format!("{} {moves}", opening.start().to_fen()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_two_and_three_ply_start() {
        let start = Game::with_fmjd_counts(Position::start());
        let two = sequences(&start, 2);
        assert_eq!(two.len(), 81);
        assert_eq!(describe(&two[0]), "31-26 17-21", "legal-move order");
        // Perft 3 from the start: every three-ply start.
        assert_eq!(sequences(&start, 3).len() as u64, crate::engine::perft(&Position::start(), 3));
    }

    #[test]
    fn the_seed_draws_the_order() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        let mut c = a.clone();
        shuffle(&mut a, 1);
        shuffle(&mut b, 1);
        shuffle(&mut c, 2);
        assert_eq!(a, b);
        assert_ne!(a, c);
        a.sort_unstable();
        assert_eq!(a, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn a_man_down_is_not_balanced() {
        let mut even = Game::with_fmjd_counts(Position::start());
        for text in ["32-28", "18-23"] {
            even.play_text(text).unwrap();
        }
        // The start without White's man on 50.
        let squares = |range: std::ops::RangeInclusive<u8>| range.map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        let fen = format!("W:W{}:B{}", squares(31..=49), squares(1..=20));
        let down = Game::with_fmjd_counts(Position::from_fen(&fen).unwrap());
        let kept = balanced(vec![down.clone(), even.clone(), down], &balance_limits(), BALANCE_MARGIN, 2);
        assert_eq!(kept, [even]);
    }

    #[test]
    fn openings_read_from_moves_or_a_fen() {
        let text = "# two openings and a position\n32-28 18-23\n\n1. 33-29 17-21 2. 39-33\nW:W31,32,33:B18,19\n";
        let openings = read(text).unwrap();
        let described: Vec<String> = openings.iter().map(describe).collect();
        assert_eq!(described, ["32-28 18-23", "33-29 17-21 39-33", "W:W31-33:B18,19"]);
        assert!(openings.iter().all(|g| g.outcome().is_none()));
        for (text, error) in [
            ("32-28 18-24", "line 1: 18-24"),
            ("\n\nW:W99:B1", "line 3: bad FEN"),
            ("B:W31:B", "line 1: the game is over"),
            ("# nothing\n", "no opening"),
            ("hello", "line 1: "),
        ] {
            let message = read(text).unwrap_err();
            assert!(message.starts_with(error), "{text:?}: {message}");
        }
    }
}
