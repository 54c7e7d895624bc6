//! Training positions for the learned evaluation: self-play games of
//! international draughts, their quiet positions labelled by how the game
//! ended and by the score the player's search gave them, and the binary
//! file that holds them.

use crate::engine::bot;
use crate::engine::eval::Evaluation;
use crate::engine::pdn::{replay, PdnGame};
use crate::engine::search::{DrawCounters, Limits, Searcher};
use crate::engine::{Bitboard, Color, Game, Outcome, Position, Setup};
use crate::parallel::in_order;
use rand_core::RngCore;
use rand_pcg::Pcg32;
use std::io::{self, Read, Write};

/// What a positions file starts with; the number is its format's version.
const MAGIC: &[u8; 8] = b"DAMESPS2";
/// The first version's header: its records have no score.
const MAGIC_V1: &[u8; 8] = b"DAMESPS1";
/// One record: the game's number (u32), White's, Black's and the kings'
/// bits (u64 each, the 10×10 layout), the side to move (0 White, 1 Black),
/// the result (0 Black won, 1 draw, 2 White won) and the search's score
/// for White (i16, hundredths of a man; [`NO_SCORE`] when no search of ours
/// judged the position), little-endian. The first version stops before the
/// score.
const RECORD_BYTES: usize = 4 + 3 * 8 + 2 + 2;
const RECORD_BYTES_V1: usize = RECORD_BYTES - 2;
/// The score of a record without one: a position of a game read from PDN
/// (`dames tune import`), which only its result labels. No search score is
/// this low: they are clamped above it.
const NO_SCORE: i16 = i16::MIN;
/// Plies of an imported game whose positions are not kept: its opening,
/// which the match chose rather than the players (three plies at most).
const IMPORT_SKIPPED_PLIES: usize = 3;

/// A quiet position of a self-play game, how that game ended, and what the
/// search that played from it thought of it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sample {
    pub game: u32,
    pub position: Position,
    /// White's result: 1 a win, ½ a draw, 0 a loss.
    pub white_result: f32,
    /// The score of the search that chose the move there, for White, in
    /// hundredths of a man: a far less noisy label than the result, which
    /// one blunder later in the game decides. `None` in files of the first
    /// version and for positions of imported games.
    pub white_score: Option<i16>,
}

/// How the games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub games: u32,
    pub seed: u64,
    /// Each move's search budget.
    pub nodes: u64,
    pub threads: usize,
    /// How both sides judge positions.
    pub eval: Evaluation,
    /// `fort`'s frontier pruning and endgame tables (both on for the shipped
    /// weights' games).
    pub pruning: bool,
    pub tables: bool,
}

/// Plies played at random from the start: at least this many…
const RANDOM_PLIES_MIN: u64 = 4;
/// …and up to this many more, so the games spread over many openings.
const RANDOM_PLIES_SPREAD: u64 = 5;

impl SelfPlay {
    /// Games with the classic evaluation and neither pruning nor tables (as
    /// the first learned weights' were played; the shipped ones' had both).
    pub fn classic(games: u32, seed: u64, nodes: u64, threads: usize) -> SelfPlay {
        SelfPlay { games, seed, nodes, threads, eval: Evaluation::Classic, pruning: false, tables: false }
    }

    /// Plays the games on `threads` threads and returns their samples in
    /// game order: the same whatever the number of threads.
    pub fn run(&self, progress: &mut dyn Write) -> Vec<Sample> {
        let mut samples = Vec::new();
        let played = in_order(
            self.games as usize,
            self.threads,
            |g| self.game(g as u32),
            |g, game| {
                samples.extend(game);
                if (g + 1).is_multiple_of(500) {
                    // A report that cannot be written stops nothing.
                    let _ = writeln!(progress, "{} of {} games played", g + 1, self.games);
                }
                Ok(())
            },
        );
        played.expect("nothing stops the games");
        samples
    }

    /// Game `g`: random opening plies, then both sides searching with
    /// `eval`. Keeps the positions after the random plies where neither
    /// side can capture (the evaluation is only asked about quiet
    /// positions), each with the score its search found.
    fn game(&self, g: u32) -> Vec<Sample> {
        let game_seed = self.seed ^ (g as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = Pcg32::new(game_seed, 0x0a02_bdbf_7bb3_c0a7);
        let random_plies = RANDOM_PLIES_MIN + rng.next_u32() as u64 % RANDOM_PLIES_SPREAD;
        let limits = labelling_limits(self.nodes, self.eval, self.pruning, self.tables);
        let mut game = Game::new(Position::start());
        let mut quiet = Vec::new();
        while !game.is_over() {
            let ply = game.moves().len() as u64;
            let mv = if ply < random_plies {
                let moves = game.legal_moves();
                moves[rng.next_u32() as usize % moves.len()]
            } else {
                let pos = *game.position();
                let result = Searcher::new(&limits)
                    .with_game_history(&game)
                    .search(game.position(), DrawCounters::of(&game), &limits)
                    .expect("a game not over has a move");
                if !pos.can_capture() && !pos.with_turn(!pos.turn()).can_capture() {
                    let score = result.score.clamp(NO_SCORE as i32 + 1, i16::MAX as i32) as i16;
                    quiet.push((pos, if pos.turn() == Color::White { score } else { -score }));
                }
                bot::choose(&result, game_seed, ply as usize)
            };
            game.play(&mv).expect("legal");
        }
        let white_result = match game.outcome().expect("over") {
            Outcome::Win { winner: Color::White, .. } => 1.0,
            Outcome::Win { .. } => 0.0,
            Outcome::Draw(_) => 0.5,
        };
        quiet
            .into_iter()
            .map(|(position, score)| Sample { game: g, position, white_result, white_score: Some(score) })
            .collect()
    }
}

/// The search that plays the games and labels their positions: `nodes` a
/// move, judged by `eval`, with `fort`'s frontier pruning and endgame
/// tables when asked.
fn labelling_limits(nodes: u64, eval: Evaluation, pruning: bool, tables: bool) -> Limits {
    Limits {
        depth: 64,
        nodes,
        tie_margin: 0,
        table_bits: 16,
        threat_plies: 2,
        eval,
        keep_partial: false,
        probcut: false,
        frontier_pruning: pruning,
        endgame_tables: tables,
        two_slot_table: false,
        late_reductions: false,
        quiescence_exchanges: false,
    }
}

/// Gives every sample the score our own search finds there in `nodes`
/// nodes (from the position alone, without its game's history), judged by
/// `eval` with `fort`'s pruning and tables, on `threads` threads (the same
/// scores whatever the threads). For the positions of games against
/// another engine: the fit then learns what a deeper look of ours makes of
/// the positions that engine steers into, never what the other engine
/// thought of them.
pub fn label_by_search(samples: &mut [Sample], nodes: u64, eval: Evaluation, threads: usize) {
    let limits = labelling_limits(nodes, eval, true, true);
    let positions: Vec<Position> = samples.iter().map(|s| s.position).collect();
    let mut scores = Vec::with_capacity(samples.len());
    let searched = in_order(
        positions.len(),
        threads,
        |i| {
            let pos = &positions[i];
            // A game's last position may have no move: it keeps its result alone.
            let result = Searcher::new(&limits).search(pos, DrawCounters::default(), &limits)?;
            let score = result.score.clamp(NO_SCORE as i32 + 1, i16::MAX as i32) as i16;
            Some(if pos.turn() == Color::White { score } else { -score })
        },
        |_, score| {
            scores.push(score);
            Ok(())
        },
    );
    searched.expect("nothing stops the searches");
    for (sample, score) in samples.iter_mut().zip(scores) {
        sample.white_score = score;
    }
}

/// The quiet positions of games already played (a match against another
/// engine, read from its PDN), after their opening, each labelled with how
/// its game ended and no score. The `n`th game (from 0) is game `n`, so the
/// fit holds out one game in ten, as for self-play.
pub fn from_games(games: &[PdnGame]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (n, pdn) in games.iter().enumerate() {
        let game = replay(pdn).map_err(|e| format!("game {}: {e}", n + 1))?;
        let result = pdn.result.as_deref().or(pdn.tag("Result")).unwrap_or_default();
        let white_result = match result {
            "2-0" | "1-0" => 1.0,
            "0-2" | "0-1" => 0.0,
            "1-1" | "1/2-1/2" => 0.5,
            other => return Err(format!("game {}: result {other:?} is not a finished game's", n + 1)),
        };
        samples.extend(
            game.positions()
                .into_iter()
                .skip(IMPORT_SKIPPED_PLIES)
                .filter(|pos| !pos.can_capture() && !pos.with_turn(!pos.turn()).can_capture())
                .map(|position| Sample { game: n as u32, position, white_result, white_score: None }),
        );
    }
    Ok(samples)
}

/// Writes `samples` in the positions file format.
pub fn write_samples(samples: &[Sample], out: &mut dyn Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    for s in samples {
        let mut record = [0u8; RECORD_BYTES];
        record[0..4].copy_from_slice(&s.game.to_le_bytes());
        let setup = s.position.to_setup();
        record[4..12].copy_from_slice(&setup.white.bits().to_le_bytes());
        record[12..20].copy_from_slice(&setup.black.bits().to_le_bytes());
        record[20..28].copy_from_slice(&setup.kings.bits().to_le_bytes());
        record[28] = (s.position.turn() == Color::Black) as u8;
        record[29] = (s.white_result * 2.0).round() as u8;
        record[30..32].copy_from_slice(&s.white_score.unwrap_or(NO_SCORE).to_le_bytes());
        out.write_all(&record)?;
    }
    Ok(())
}

/// Reads a positions file of either version, checking every record.
pub fn read_samples(input: &mut dyn Read) -> Result<Vec<Sample>, String> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let (body, record_bytes) = match (bytes.strip_prefix(MAGIC.as_slice()), bytes.strip_prefix(MAGIC_V1.as_slice())) {
        (Some(body), _) => (body, RECORD_BYTES),
        (None, Some(body)) => (body, RECORD_BYTES_V1),
        (None, None) => return Err("not a positions file (no DAMESPS2 or DAMESPS1 header)".into()),
    };
    if body.len() % record_bytes != 0 {
        return Err(format!("positions file cut short ({} bytes after the header)", body.len()));
    }
    body.chunks(record_bytes)
        .enumerate()
        .map(|(i, r)| {
            let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
            let board = |at: usize| Bitboard::from_bits(word(at)).ok_or(format!("record {i}: bits off the board"));
            let turn = match r[28] {
                0 => Color::White,
                1 => Color::Black,
                other => return Err(format!("record {i}: side to move {other}")),
            };
            let setup = Setup { white: board(4)?, black: board(12)?, kings: board(20)?, turn: Some(turn) };
            let position = Position::from_setup(setup).map_err(|e| format!("record {i}: {e}"))?;
            if r[29] > 2 {
                return Err(format!("record {i}: result {}", r[29]));
            }
            let game = u32::from_le_bytes(r[0..4].try_into().expect("4 bytes"));
            let white_score = (record_bytes == RECORD_BYTES)
                .then(|| i16::from_le_bytes([r[30], r[31]]))
                .filter(|&score| score != NO_SCORE);
            Ok(Sample { game, position, white_result: r[29] as f32 / 2.0, white_score })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_give_quiet_labelled_positions_whatever_the_threads() {
        let one = SelfPlay::classic(3, 5, 2_000, 1).run(&mut io::sink());
        let two = SelfPlay::classic(3, 5, 2_000, 2).run(&mut io::sink());
        assert_eq!(one, two);
        assert!(one.len() > 30, "{} samples", one.len());
        for s in &one {
            assert!(!s.position.can_capture() && !s.position.with_turn(!s.position.turn()).can_capture());
            assert!([0.0, 0.5, 1.0].contains(&s.white_result));
        }
        assert_eq!(one.iter().map(|s| s.game).max(), Some(2));
        // The scores are White's: the winner's side mostly scores above 0
        // late in the game, whichever side is to move.
        for game in 0..3 {
            let last = one.iter().rev().find(|s| s.game == game).unwrap();
            let score = last.white_score.unwrap() as f32;
            if last.white_result != 0.5 {
                assert_eq!(score > 0.0, last.white_result == 1.0, "game {game}: score {score}");
            }
        }
    }

    #[test]
    fn the_search_switches_change_the_games() {
        let plain = SelfPlay::classic(1, 5, 3_000, 1).run(&mut io::sink());
        let pruned = SelfPlay { pruning: true, ..SelfPlay::classic(1, 5, 3_000, 1) }.run(&mut io::sink());
        assert_ne!(plain, pruned);
    }

    #[test]
    fn the_file_round_trips_and_bad_files_are_refused() {
        let samples = SelfPlay::classic(1, 9, 1_000, 1).run(&mut io::sink());
        let mut bytes = Vec::new();
        write_samples(&samples, &mut bytes).unwrap();
        assert_eq!(read_samples(&mut bytes.as_slice()).unwrap(), samples);
        assert!(read_samples(&mut &bytes[..bytes.len() - 1]).unwrap_err().contains("cut short"));
        assert!(read_samples(&mut &b"DAMESPOS"[..]).unwrap_err().contains("header"));
        let mut bad = bytes.clone();
        bad[MAGIC.len() + 28] = 7;
        assert!(read_samples(&mut bad.as_slice()).unwrap_err().contains("side to move"));
        // A file of the first version: the same records without the score.
        let mut v1 = MAGIC_V1.to_vec();
        for record in bytes[MAGIC.len()..].chunks(RECORD_BYTES) {
            v1.extend_from_slice(&record[..RECORD_BYTES_V1]);
        }
        let unscored: Vec<Sample> = samples.iter().map(|s| Sample { white_score: None, ..*s }).collect();
        assert_eq!(read_samples(&mut v1.as_slice()).unwrap(), unscored);
        // A record without a score keeps none.
        let mut bytes = Vec::new();
        write_samples(&unscored, &mut bytes).unwrap();
        assert_eq!(read_samples(&mut bytes.as_slice()).unwrap(), unscored);
    }

    #[test]
    fn imported_games_give_their_quiet_positions_after_the_opening_with_the_result() {
        let text = "[Result \"0-2\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 0-2\n\n\
                    [Result \"1-1\"]\n1. 33-28 17-22 2. 28x17 11x22 1-1\n";
        let samples = from_games(&crate::engine::pdn::parse_pdn(text)).unwrap();
        let first: Vec<_> = samples.iter().filter(|s| s.game == 0).collect();
        // The positions after plies 3 to 7 of the first game; after the
        // third (28x19) Black must take back.
        assert_eq!(first.len(), 4, "{first:?}");
        assert!(first.iter().all(|s| s.white_result == 0.0 && s.white_score.is_none()));
        assert!(samples.iter().filter(|s| s.game == 1).all(|s| s.white_result == 0.5));
        for s in &samples {
            assert!(!s.position.can_capture() && !s.position.with_turn(!s.position.turn()).can_capture());
        }
        let unfinished = crate::engine::pdn::parse_pdn("1. 32-28 18-23 *\n");
        assert!(from_games(&unfinished).unwrap_err().contains("game 1"));
        let illegal = crate::engine::pdn::parse_pdn("[Result \"2-0\"]\n1. 32-23 2-0\n");
        assert!(from_games(&illegal).unwrap_err().contains("game 1"));
    }

    #[test]
    fn imported_positions_labelled_by_our_search_whatever_the_threads() {
        let text = "[Result \"0-2\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 0-2\n";
        let games = crate::engine::pdn::parse_pdn(text);
        let mut one = from_games(&games).unwrap();
        let mut two = one.clone();
        label_by_search(&mut one, 2_000, Evaluation::Learned, 1);
        label_by_search(&mut two, 2_000, Evaluation::Learned, 2);
        assert_eq!(one, two);
        for s in &one {
            // White's score: the side to move's search score, turned.
            let limits = labelling_limits(2_000, Evaluation::Learned, true, true);
            let found = Searcher::new(&limits).search(&s.position, DrawCounters::default(), &limits).unwrap().score;
            let white = if s.position.turn() == Color::White { found } else { -found };
            assert_eq!(s.white_score, Some(white as i16));
            assert_eq!(s.white_result, 0.0, "the result is kept");
        }
        // A position without a move keeps its result alone.
        let blocked = Position::from_fen("W:W46:B41,37").unwrap();
        let mut last = vec![Sample { game: 0, position: blocked, white_result: 0.0, white_score: None }];
        label_by_search(&mut last, 2_000, Evaluation::Learned, 1);
        assert_eq!(last[0].white_score, None);
    }
}
