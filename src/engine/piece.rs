//! Colours and pieces.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Not;

/// A side. White sits at the bottom (squares 31–50 at the start) and moves
/// first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub enum Color {
    White,
    Black,
}
crate::deserialize_by_name!(Color { White, Black });

impl Color {
    /// The letter used in FEN and PDN: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Role {
    Man,
    King,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The two-letter code the web board uses: `wm`, `wk`, `bm`, `bk`.
    pub const fn code(self) -> &'static str {
        match (self.color, self.role) {
            (Color::White, Role::Man) => "wm",
            (Color::White, Role::King) => "wk",
            (Color::Black, Role::Man) => "bm",
            (Color::Black, Role::King) => "bk",
        }
    }
}
