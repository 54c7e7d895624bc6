//! What makes the site installable and playable offline: the service
//! worker (at `/sw.js`) and the offline games' worker (the page names its
//! path), both written once at start-up for the build being served (its
//! files, its hash). The manifest and the icons are static files
//! (`public/`).

use axum::http::header;
use axum::response::IntoResponse;
use std::path::Path;

/// Where the service worker is served: at the root, so that its scope is
/// the whole site.
pub const WORKER_PATH: &str = "/sw.js";

/// The files of the site root the worker keeps besides the bundle.
const KEPT_STATIC: [&str; 4] = ["/manifest.webmanifest", "/favicon.svg", "/icone-192.png", "/icone-512.png"];

/// A script written for the build being served.
#[derive(Clone)]
pub struct Script(std::sync::Arc<str>);

/// The two scripts of offline play for the bundle in `site_root/pkg_dir`
/// (`pkg/<hash>`): the service worker serves `offline_page` to a
/// navigation the network does not answer, and keeps the offline games'
/// worker (served at `device_worker_path`) with the bundle.
pub struct OfflineScripts {
    pub service_worker: Script,
    pub device_worker: Script,
}

impl OfflineScripts {
    pub fn for_site(site_root: &Path, pkg_dir: &str, offline_page: &str, device_worker_path: &str) -> OfflineScripts {
        let build = pkg_dir.rsplit('/').next().filter(|b| *b != "pkg").unwrap_or("dev");
        // The first bundle's files only: the one with the 12×12 board (its
        // douze/ folder, see app::bundle) is fetched by the pages that show
        // such a board, which no game kept on the device has.
        let mut files: Vec<String> = std::fs::read_dir(site_root.join(pkg_dir))
            .map(|dir| {
                dir.filter_map(|entry| entry.ok().filter(|e| e.file_type().is_ok_and(|t| t.is_file())))
                    .filter_map(|entry| entry.file_name().into_string().ok())
                    .filter(|name| !name.ends_with(".gz") && !name.ends_with(".br"))
                    .map(|name| format!("/{pkg_dir}/{name}"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let mut kept = vec![offline_page.to_string(), device_worker_path.to_string()];
        kept.extend(KEPT_STATIC.iter().map(|s| s.to_string()));
        kept.extend(files);
        let list = serde_json::to_string(&kept).expect("a list of strings serialises");
        let service_worker = include_str!("service_worker.js")
            .replace("__BUILD__", build)
            .replace("__OFFLINE_PAGE__", offline_page)
            .replace("__PRECACHE__", &list);
        let device_worker = include_str!("device_worker.js").replace("__PKG__", pkg_dir);
        OfflineScripts { service_worker: Script(service_worker.into()), device_worker: Script(device_worker.into()) }
    }
}

impl Script {
    /// The script, never cached by HTTP: the browser checks it for a new
    /// build on every visit (the service worker keeps the device worker).
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
        std::fs::create_dir(pkg.join("douze")).unwrap();
        std::fs::write(pkg.join("douze/dames.wasm"), b"x").unwrap();
        let scripts = OfflineScripts::for_site(site.path(), "pkg/abc123", "/hors-ligne", "/appareil.js");
        let script = &*scripts.service_worker.0;
        assert!(script.contains(r#"const BUILD = "abc123";"#));
        assert!(script.contains(r#"const OFFLINE_PAGE = "/hors-ligne";"#));
        let list = script.lines().find(|l| l.starts_with("const PRECACHE = ")).unwrap();
        let kept: Vec<String> =
            serde_json::from_str(list.trim_start_matches("const PRECACHE = ").trim_end_matches(';')).unwrap();
        assert_eq!(kept[..2], ["/hors-ligne", "/appareil.js"]);
        for file in ["chunk_1.wasm", "dames.css", "dames.js", "dames.wasm"] {
            assert!(kept.contains(&format!("/pkg/abc123/{file}")), "{file} kept");
        }
        assert!(!kept.iter().any(|k| k.ends_with(".gz") || k.ends_with(".br")), "compressed twins are not");
        assert!(!kept.iter().any(|k| k.contains("douze")), "nor the 12×12 bundle, a folder: {kept:?}");
        assert!(!script.contains("__"), "every placeholder filled");
        let device = &*scripts.device_worker.0;
        assert!(device.contains(r#"from "/pkg/abc123/dames.js""#));
        assert!(device.contains(r#"module_or_path: "/pkg/abc123/dames.wasm""#));
        assert!(!device.contains("__PKG__"));
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
        let scripts = OfflineScripts::for_site(site.path(), "pkg", "/hors-ligne", "/appareil.js");
        assert!(scripts.service_worker.0.contains(r#"const BUILD = "dev";"#));
    }
}
