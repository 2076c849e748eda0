//! Crash-safe file replacement.
//!
//! [`write_atomic`] writes a hidden temp file next to the target (`.<name>.tmp-<pid>-<n>`),
//! syncs it, renames it over the target and syncs the directory. A crash at any point leaves
//! either the old or the new content under the target's name, never a mix; at worst a
//! stale temp file stays behind, which readers never look at and
//! [`remove_stale_temps`] deletes.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};

/// Replaces the file at `path` with `bytes` atomically, creating missing parent directories.
///
/// The temp file is created in the same directory (a rename is only atomic within one file
/// system), written, `sync_all`ed, renamed over the target, and then (on unix) the directory
/// itself is synced so the rename survives a power cut. If anything fails before the rename
/// the temp file is removed and the target is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let (dir, name) = split(path)?;
    fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;

    let (tmp_path, mut tmp) = create_temp(&dir, &name)?;
    let written = (|| -> io::Result<()> {
        // Keep the target's permissions (a user may have made it private).
        if let Ok(meta) = fs::metadata(path) {
            tmp.set_permissions(meta.permissions())?;
        }
        tmp.write_all(bytes)?;
        tmp.sync_all()?;
        drop(tmp);
        fs::rename(&tmp_path, path)
    })();
    if let Err(err) = written {
        let _ = fs::remove_file(&tmp_path);
        return Err(err).with_context(|| format!("cannot write {}", path.display()));
    }
    sync_dir(&dir).with_context(|| format!("cannot sync directory {}", dir.display()))?;
    Ok(())
}

/// Deletes temp files that [`write_atomic`] left behind for `path` (after a crash).
///
/// Only call this while no other writer of `path` can be in the middle of a write, i.e.
/// under the file's lock (see [`crate::store::json_file`]): another writer's temp file
/// looks exactly like a stale one. Returns how many files were removed.
pub fn remove_stale_temps(path: &Path) -> Result<usize> {
    let (dir, name) = split(path)?;
    let prefix = temp_prefix(&name);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(err) => {
            return Err(err).with_context(|| format!("cannot list {}", dir.display()));
        }
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let is_ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix));
        if is_ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(err)
                        .with_context(|| format!("cannot remove {}", entry.path().display()));
                }
            }
        }
    }
    Ok(removed)
}

/// The name prefix of every temp file for a target named `name`.
pub(crate) fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// Splits `path` into its directory (`.` for a bare file name) and its UTF-8 file name.
pub(crate) fn split(path: &Path) -> Result<(PathBuf, String)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("not a file path: {}", path.display()))?
        .to_owned();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name))
}

/// Numbers the temp files of this process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Creates a fresh temp file; `create_new` guarantees we never reuse a leftover one.
fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut last_err = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut file_name = OsString::from(temp_prefix(name));
        file_name.push(format!("{pid}-{n}"));
        let tmp_path = dir.join(file_name);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp_path)
        {
            Ok(file) => return Ok((tmp_path, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last_err = Some(err),
            Err(err) => {
                return Err(err)
                    .with_context(|| format!("cannot create temp file {}", tmp_path.display()));
            }
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no free temp file name")))
        .with_context(|| format!("cannot create a temp file in {}", dir.display()))
}

/// Makes a rename in `dir` durable. Windows has no directory handles to sync.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_creates_parents_and_replaces_content() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/b/file.json");
        write_atomic(&path, b"first").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write_atomic(&path, b"second, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second, longer");
        write_atomic(&path, b"3").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"3");
        // Nothing but the target is left in the directory.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("file.json")]);
    }

    #[test]
    fn leftover_temp_from_a_crash_is_ignored_then_cleaned() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("progress.json");
        write_atomic(&path, b"old").unwrap();
        // A crash mid-write leaves a half-written temp file; it may even carry the name
        // this process would pick next.
        let pid = std::process::id();
        let next = COUNTER.load(Ordering::Relaxed);
        for n in next..next + 3 {
            let stale = tmp.path().join(format!(".progress.json.tmp-{pid}-{n}"));
            fs::write(&stale, b"half-writ").unwrap();
        }
        let other = tmp.path().join(".progress.json.tmp-1-0");
        fs::write(&other, b"{\"trunc").unwrap();
        // The target is intact and a new write still works.
        assert_eq!(fs::read(&path).unwrap(), b"old");
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        // Stale temps are removed on request, and nothing else is.
        let unrelated = tmp.path().join(".other.json.tmp-1-0");
        fs::write(&unrelated, b"x").unwrap();
        assert_eq!(remove_stale_temps(&path).unwrap(), 4);
        assert!(!other.exists());
        assert!(unrelated.exists());
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn failed_write_leaves_target_and_no_temp() {
        let tmp = tempfile::tempdir().unwrap();
        // The target is a non-empty directory: the rename fails after the temp was written.
        let path = tmp.path().join("target");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"keep").unwrap();
        assert!(write_atomic(&path, b"data").is_err());
        assert_eq!(fs::read(path.join("inside")).unwrap(), b"keep");
        let names: Vec<_> = fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("target")]);
    }

    #[test]
    fn bare_file_name_uses_current_dir() {
        let (dir, name) = split(Path::new("x.json")).unwrap();
        assert_eq!(dir, PathBuf::from("."));
        assert_eq!(name, "x.json");
        assert!(split(Path::new("/")).is_err());
    }
}
