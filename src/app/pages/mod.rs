//! One file per page.

pub mod daily;
pub mod free;
pub mod not_found;
pub mod rules;
