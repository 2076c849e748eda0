//! How much of a file Ludus reads: every file is checked against its limit
//! before it is read, so a huge or endless file (a device, a pipe) costs no
//! memory. The limits are far above any real file of each kind.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// A level collection (`.sok`, `.xsb`, `.txt`, `.json`): the largest
/// published collections are a few megabytes.
pub const MAX_LEVEL_FILE_BYTES: u64 = 16 << 20;
/// A Xiangqi game record (PGN): a long game is a few kilobytes.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;
/// A Tetris replay or `tetris sim` script.
pub const MAX_REPLAY_BYTES: u64 = 16 << 20;
/// A versus replay (compact JSON): both players' inputs, at most
/// `tetris::versus::MAX_VERSUS_INPUTS` of them at some 70 bytes each.
pub const MAX_VERSUS_REPLAY_BYTES: u64 = 64 << 20;
/// An endgame tablebase file: the largest `tablebase generate --max-pieces 8`
/// makes (KRH-KAAEE) holds some 184 million positions at one byte each.
pub const MAX_TABLEBASE_BYTES: u64 = 512 << 20;
/// A saved-data document (progress, settings, snapshots, scores).
pub const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

/// Reads all of `reader`, or fails with [`io::ErrorKind::InvalidData`] as
/// soon as it holds more than `limit` bytes.
///
/// # Errors
/// Reading fails, or there is more than `limit` bytes.
pub fn read_at_most(reader: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than the limit of {}", size_text(limit)),
        ));
    }
    Ok(bytes)
}

/// Reads the file at `path` if it is at most `limit` bytes.
///
/// # Errors
/// The file cannot be opened or read, or is larger than `limit` (checked
/// before reading, then again while reading).
pub fn read_file(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > limit
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is larger than the limit of {}",
                size_text(meta.len()),
                size_text(limit)
            ),
        ));
    }
    read_at_most(file, limit)
}

/// Reads a UTF-8 text file of at most `limit` bytes.
///
/// # Errors
/// As [`read_file`], or the file is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_file(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_past_their_limit_are_refused_before_reading() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = tmp.path().join("f");
        std::fs::write(&path, vec![b'x'; 2048]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_file(&path, 2048).map(|b| b.len()).ok(), Some(2048));
        let err = read_file(&path, 2047).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("2048 bytes is larger than the limit of 2047 bytes")
        );
        // An endless source stops at the limit.
        let endless = io::repeat(b'x');
        assert!(read_at_most(endless, 1 << 20).is_err());
    }
}
