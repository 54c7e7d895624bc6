//! Dames: international draughts against the computer.
//!
//! - [`engine`]: the rules and the bot, pure Rust, for the server and wasm32
//!   (the crate `dames-engine`, in `src/engine/`);
//! - [`protocol`]: what crosses the wire (views, typed errors), used by both
//!   sides;
//! - [`app`]: the pages, rendered on the server and hydrated in the browser;
//! - [`server`] (feature `ssr`): HTTP, SQLite, the stored truth: only what
//!   serves requests;
//! - [`record`]: a game as kept and every checked way to extend it,
//!   the same on the server and, offline, in the browser;
//! - [`ops`] (feature `ssr`): the operator's and the tests' tools beside it
//!   (the server benchmark, the load generator, the local cluster, a
//!   throw-away PostgreSQL);
//! - [`cli`] and [`tune`] (native builds): the `dames` command line and the
//!   tools that make the learned evaluation's weights;
//! - [`matches`] (native builds): matches between two players, this
//!   engine or another in its own process (`dames match`, `dames selfplay`).

pub mod app;
pub use dames_engine as engine;
pub mod protocol;
pub mod record;

#[cfg(feature = "ssr")]
pub mod server;

#[cfg(feature = "ssr")]
pub mod ops;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(not(target_arch = "wasm32"))]
pub mod tune;

#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;

#[cfg(not(target_arch = "wasm32"))]
pub mod matches;

/// The browser's entry point, called by the script Leptos puts in the page:
/// it hydrates the islands (`#[island]` components) it finds.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // A panic's message in the console, in debug builds: the hook and the
    // panic's formatting weigh some KB of wasm that every page would load.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
    // A flag for the browser tests: the bundle is running. The islands hydrate
    // next, each counting itself live (`app::count_live_island`).
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__damesHydrated".into(), &true.into());
}
