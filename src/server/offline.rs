//! What makes the site installable and playable offline: the service
//! worker, written once at start-up for the build being served (its
//! files, its hash), at `/sw.js`. The manifest and the icons are static
//! files (`public/`).

use axum::http::header;
use axum::response::IntoResponse;
use std::path::Path;

/// Where the service worker is served: at the root, so that its scope is
/// the whole site.
pub const WORKER_PATH: &str = "/sw.js";

/// The files of the site root the worker keeps besides the bundle.
const KEPT_STATIC: [&str; 4] = ["/manifest.webmanifest", "/favicon.svg", "/icone-192.png", "/icone-512.png"];

/// The service worker for the bundle in `site_root/pkg_dir` (`pkg/<hash>`),
/// serving `offline_page` to a navigation the network does not answer.
#[derive(Clone)]
pub struct ServiceWorker(std::sync::Arc<str>);

impl ServiceWorker {
    pub fn for_site(site_root: &Path, pkg_dir: &str, offline_page: &str) -> ServiceWorker {
        let build = pkg_dir.rsplit('/').next().filter(|b| *b != "pkg").unwrap_or("dev");
        let mut files: Vec<String> = std::fs::read_dir(site_root.join(pkg_dir))
            .map(|dir| {
                dir.filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                    .filter(|name| !name.ends_with(".gz") && !name.ends_with(".br"))
                    .map(|name| format!("/{pkg_dir}/{name}"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let mut kept = vec![offline_page.to_string()];
        kept.extend(KEPT_STATIC.iter().map(|s| s.to_string()));
        kept.extend(files);
        let list = serde_json::to_string(&kept).expect("a list of strings serialises");
        let script = include_str!("service_worker.js")
            .replace("__BUILD__", build)
            .replace("__OFFLINE_PAGE__", offline_page)
            .replace("__PRECACHE__", &list);
        ServiceWorker(script.into())
    }

    /// The script, never cached by HTTP: the browser checks it for a new
    /// build on every visit.
    pub fn response(&self) -> impl IntoResponse {
        (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
            self.0.to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_keeps_the_builds_files_and_the_offline_page() {
        let site = tempfile::tempdir().unwrap();
        let pkg = site.path().join("pkg/abc123");
        std::fs::create_dir_all(&pkg).unwrap();
        for file in ["dames.js", "dames.js.gz", "dames.wasm", "dames.wasm.br", "chunk_1.wasm", "dames.css"] {
            std::fs::write(pkg.join(file), b"x").unwrap();
        }
        let worker = ServiceWorker::for_site(site.path(), "pkg/abc123", "/hors-ligne");
        let script = &*worker.0;
        assert!(script.contains(r#"const BUILD = "abc123";"#));
        assert!(script.contains(r#"const OFFLINE_PAGE = "/hors-ligne";"#));
        let list = script.lines().find(|l| l.starts_with("const PRECACHE = ")).unwrap();
        let kept: Vec<String> =
            serde_json::from_str(list.trim_start_matches("const PRECACHE = ").trim_end_matches(';')).unwrap();
        assert_eq!(kept[0], "/hors-ligne");
        for file in ["chunk_1.wasm", "dames.css", "dames.js", "dames.wasm"] {
            assert!(kept.contains(&format!("/pkg/abc123/{file}")), "{file} kept");
        }
        assert!(!kept.iter().any(|k| k.ends_with(".gz") || k.ends_with(".br")), "compressed twins are not");
        assert!(!script.contains("__"), "every placeholder filled");
    }

    /// A file missing from the list would fail the whole install.
    #[test]
    fn every_static_file_the_worker_keeps_exists() {
        for path in KEPT_STATIC {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("public").join(path.trim_start_matches('/'));
            assert!(file.is_file(), "{} missing", file.display());
        }
    }

    #[test]
    fn without_a_build_the_cache_is_named_dev() {
        let site = tempfile::tempdir().unwrap();
        let worker = ServiceWorker::for_site(site.path(), "pkg", "/hors-ligne");
        assert!(worker.0.contains(r#"const BUILD = "dev";"#));
    }
}
