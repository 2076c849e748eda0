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
    // `/sokoban/` is the page `/sokoban`, as a typed address often ends.
    let path = path.trim_start_matches('/');
    let path = path.strip_suffix('/').unwrap_or(path);
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

/// What a path that names no page gets: a way back to the games.
const NOT_FOUND_PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>Not found · Ludus</title><link rel=\"stylesheet\" href=\"/css/ludus.css\"></head>\
<body><main><h1>Not found</h1><p>Ludus has no page at this address.</p>\
<p><a href=\"/\">Back to the games</a> · <a href=\"/sokoban\">Sokoban</a> · \
<a href=\"/tetris\">Tetris</a> · <a href=\"/xiangqi\">Xiangqi</a></p></main></body></html>\n";

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
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            NOT_FOUND_PAGE,
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
        assert!(lookup("/sokoban/").is_some());
        assert!(lookup("/sokoban//").is_none());
        assert!(lookup("/../Cargo.toml").is_none());
        assert!(lookup("/css/../index.html").is_none());
        assert!(lookup("/%2e%2e/Cargo.toml").is_none());
        assert!(lookup("/nothing.js").is_none());
    }
}
