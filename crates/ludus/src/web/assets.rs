//! The page's files (HTML, CSS, ES modules, sprites, sounds) from
//! `crates/ludus/web/`, embedded in release builds (read from disk in debug
//! builds, so editing them needs no rebuild). Nothing is fetched from the network.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "web/"]
struct Files;

/// The asset a request path names: `/` is `index.html`, `/sokoban` is
/// `sokoban.html`. Paths with `..`, backslashes or percent escapes never
/// name an asset (embedded names hold none), so they are 404s.
fn lookup(path: &str) -> Option<(String, rust_embed::EmbeddedFile)> {
    let path = path.trim_start_matches('/');
    if path.split('/').any(|part| part == ".." || part == ".") || path.contains(['\\', '%', '\0']) {
        return None;
    }
    let name = if path.is_empty() {
        "index.html".to_string()
    } else if path.contains('.') {
        path.to_string()
    } else {
        format!("{path}.html")
    };
    let file = Files::get(&name)?;
    Some((name, file))
}

/// Serves an embedded file, with its content type; 404 for anything else.
pub async fn serve(uri: Uri) -> Response {
    match lookup(uri.path()) {
        Some((_, file)) => {
            let mime = file.metadata.mimetype();
            let mut response = file.data.into_owned().into_response();
            let headers = response.headers_mut();
            if let Ok(value) = HeaderValue::from_str(mime) {
                headers.insert(header::CONTENT_TYPE, value);
            }
            // Pages and modules change with the binary; always revalidate.
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            headers.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            response
        }
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "not found\n",
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::lookup;

    #[test]
    fn names() {
        assert!(lookup("/").is_some());
        assert!(lookup("/sokoban").is_some());
        assert!(lookup("/../Cargo.toml").is_none());
        assert!(lookup("/css/../index.html").is_none());
        assert!(lookup("/%2e%2e/Cargo.toml").is_none());
        assert!(lookup("/nothing.js").is_none());
    }
}
