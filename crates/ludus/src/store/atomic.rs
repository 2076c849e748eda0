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

/// Writes `bytes` to a new file in `dir` named `STEM.EXT`, or `STEM-2.EXT`,
/// `STEM-3.EXT`… if taken, and returns its path. Never replaces a file, even
/// when several writers pick the same name at the same moment: the complete,
/// synced temp file is hard-linked to the name, which fails if the name exists.
///
/// # Errors
/// The directory cannot be created or written, or [`MAX_NEW_NAME_TRIES`]
/// names are all taken.
pub fn write_new(dir: &Path, stem: &str, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let first = format!("{stem}.{ext}");
    let (tmp_path, mut tmp) = create_temp(dir, &first)?;
    let written = tmp.write_all(bytes).and_then(|()| tmp.sync_all());
    drop(tmp);
    let placed = written.and_then(|()| link_to_free_name(&tmp_path, dir, stem, ext));
    let _ = fs::remove_file(&tmp_path);
    let path = placed.with_context(|| format!("cannot write {}", dir.join(&first).display()))?;
    sync_dir(dir).with_context(|| format!("cannot sync directory {}", dir.display()))?;
    Ok(path)
}

/// How many numbered names [`write_new`] tries before giving up.
pub const MAX_NEW_NAME_TRIES: usize = 10_000;

/// Gives the file at `tmp_path` the first free name `STEM[-N].EXT` in `dir`.
fn link_to_free_name(tmp_path: &Path, dir: &Path, stem: &str, ext: &str) -> io::Result<PathBuf> {
    for n in 1..=MAX_NEW_NAME_TRIES {
        let name = match n {
            1 => format!("{stem}.{ext}"),
            n => format!("{stem}-{n}.{ext}"),
        };
        let path = dir.join(name);
        match fs::hard_link(tmp_path, &path) {
            Ok(()) => return Ok(path),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            // A file system without hard links: reserve the name with
            // create_new (still atomic), then copy the content in.
            Err(_) => match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(&fs::read(tmp_path)?)?;
                    file.sync_all()?;
                    return Ok(path);
                }
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
                Err(err) => return Err(err),
            },
        }
    }
    Err(io::Error::other(format!(
        "{MAX_NEW_NAME_TRIES} names like {stem}.{ext} are all taken"
    )))
}

/// Deletes temp files left in `dir` and its subfolders (to `depth` levels)
/// by writers that were killed: those of a process that no longer runs, or
/// older than [`STALE_TEMP_AGE`] whatever their writer. Run at start-up;
/// returns how many were removed.
pub fn sweep_stale_temps(dir: &Path, depth: usize) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && depth > 0 {
            removed += sweep_stale_temps(&entry.path(), depth - 1);
        } else if kind.is_file()
            && entry.file_name().to_str().is_some_and(is_stale_temp_name)
            && writer_is_gone(&entry)
            && fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// A temp file older than this is stale even if its writer's process id is
/// in use again: no write takes so long.
pub const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Whether `name` is one of [`write_atomic`]'s temp names: `.NAME.tmp-PID-N`.
fn is_stale_temp_name(name: &str) -> bool {
    temp_writer(name).is_some()
}

/// The process id in a temp file's name.
fn temp_writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(".tmp-")?;
    let (pid, n) = tail.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn writer_is_gone(entry: &fs::DirEntry) -> bool {
    let old = entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > STALE_TEMP_AGE);
    let Some(pid) = entry.file_name().to_str().and_then(temp_writer) else {
        return false;
    };
    if pid == std::process::id() {
        return false;
    }
    // Where processes are listed in /proc, a missing entry means the writer died.
    let proc_root = Path::new("/proc/self");
    old || (proc_root.exists() && !Path::new("/proc").join(pid.to_string()).exists())
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
    fn write_new_never_replaces_a_file_even_from_many_threads() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("games");
        let paths: Vec<PathBuf> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..40)
                .map(|i| {
                    let dir = &dir;
                    scope.spawn(move || {
                        write_new(dir, "game-1", "pgn", format!("game {i}").as_bytes()).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut contents: Vec<String> = paths
            .iter()
            .map(|p| fs::read_to_string(p).unwrap())
            .collect();
        contents.sort();
        contents.dedup();
        assert_eq!(contents.len(), 40, "a save was overwritten");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap()).collect();
        assert_eq!(names.len(), 40, "temp files left behind");
        assert!(dir.join("game-1.pgn").exists() && dir.join("game-1-40.pgn").exists());
    }

    #[test]
    fn sweep_removes_temps_of_dead_writers_only() {
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join("xiangqi/games");
        fs::create_dir_all(&sub).unwrap();
        // No process has id 4000000000 (above Linux's pid_max).
        let dead = sub.join(".game-1.pgn.tmp-4000000000-3");
        let ours = sub.join(format!(".game-2.pgn.tmp-{}-0", std::process::id()));
        let saved = sub.join("game-1.pgn");
        let lookalike = sub.join(".notes.tmp-x");
        for f in [&dead, &ours, &saved, &lookalike] {
            fs::write(f, b"x").unwrap();
        }
        let removed = sweep_stale_temps(tmp.path(), 3);
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dead.exists());
        }
        assert!(ours.exists() && saved.exists() && lookalike.exists());
    }

    #[test]
    fn bare_file_name_uses_current_dir() {
        let (dir, name) = split(Path::new("x.json")).unwrap();
        assert_eq!(dir, PathBuf::from("."));
        assert_eq!(name, "x.json");
        assert!(split(Path::new("/")).is_err());
    }
}
