pub mod engine;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
