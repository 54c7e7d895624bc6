//! Where the shared test data lives: `../shared/data/` beside the checkout.
//! It is read in place, never copied into the repository; a missing folder
//! fails the test instead of letting it pass on nothing.

#![allow(dead_code)]

use std::path::PathBuf;

pub fn shared_data() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    assert!(dir.is_dir(), "test data not found at {}: the shared/ folder must sit beside the checkout", dir.display());
    dir
}

/// Every `.pdn` file under `shared/data/pdn`, sorted by path.
pub fn pdn_files() -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable data folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdn")) {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&shared_data().join("pdn"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no PDN file under shared/data/pdn");
    files
}

/// PDN files are mostly ASCII, some Latin-1: read bytes, map each to a char.
pub fn read_text(path: &std::path::Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}
