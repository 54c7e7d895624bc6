//! The rules of draughts, international (FMJD), English, Russian, Brazilian
//! and any custom mix, on boards of 8, 10 and 12, and the computer opponent.
//!
//! This crate is the only place that knows the rules. It uses no web crate,
//! no clock and no I/O (threads only in native builds, to check a recorded
//! game's computer moves side by side), so the server and the browser
//! (wasm32) run the very same code.

pub mod analysis;
pub mod any;
mod bitboard;
pub mod bot;
pub mod endgame;
pub mod eval;
mod game;
pub mod geometry;
pub mod hub;
mod movegen;
mod moves;
pub mod names;
pub mod notation;
pub mod pdn;
mod perft;
mod piece;
mod position;
pub mod rules;
pub mod search;
mod square;

pub use bitboard::{Bitboard, Direction, Squares};
pub use game::{
    fmjd_count, DrawReason, Game, GameError, Outcome, WinReason, ENDGAME_LIMIT_MOVES, ENDGAME_STRONGER_KINGS,
    FMJD_COUNT_THREE, FMJD_COUNT_TWO,
};
pub use moves::{LongForm, Move, MoveList};
pub use notation::{move_to_text, parse_long_form, parse_move, FenError, MoveText, MoveTextError};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, Role};
pub use position::{IllegalMove, Position, PositionError, Setup};
pub use rules::{Preset, Promotion, Rules, RulesError};
pub use square::Square;
