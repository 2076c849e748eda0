//! Versioned JSON documents: `{ "version": N, ...fields of T }`.
//!
//! - [`load`]: a missing file gives `T::default()`. A file that cannot be read, does not
//!   parse, has no or an unknown version, or fails [`Document::check`] is moved aside to
//!   `<name>.corrupt-<unix seconds>` (never over an existing file), and `T::default()` comes
//!   back with a [`Warning`] for the UI. A file from a newer Ludus is treated the same way:
//!   it is kept aside, never silently downgraded.
//! - [`save`]: atomic replacement under the file's lock (an unusable file in the way is
//!   moved aside and reported first, never overwritten).
//! - [`update`]: read-modify-write under an exclusive lock on the sibling `<name>.lock`
//!   (`File::lock`), so concurrent writers in several processes never lose each other's
//!   changes. Plain readers need no lock: writers replace the file by an atomic rename.
//!
//! The version lives in the file, not in `T`: `T` is serialised flattened after
//! `"version"`, and deserialised from the whole object (so `T` must not deny unknown fields;
//! unknown fields are ignored, which also keeps files written by a later Ludus with extra
//! fields at the same version readable).

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::atomic::{self, write_atomic};

/// A document kept in a versioned JSON file.
pub trait Document: Serialize + DeserializeOwned {
    /// The version this build writes and reads.
    const VERSION: u32;

    /// Converts a document of an older version `from` (< `VERSION`) into the current
    /// shape. The default knows no older versions: such files are moved aside.
    fn upgrade(from: u32, value: Value) -> Result<Value, String> {
        let _ = value;
        Err(format!(
            "version {from} is not supported (this build reads version {})",
            Self::VERSION
        ))
    }

    /// Checks invariants serde cannot express; a failing file is treated as corrupt.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A file that could not be used, reported so the UI can show it. Display gives one line
/// naming the file, the problem and where the file went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file that was unusable.
    pub file: PathBuf,
    /// What was wrong; parse errors carry serde_json's `line L column C`.
    pub problem: String,
    /// Where the file was moved to, or why it could not be moved.
    pub moved_to: Result<PathBuf, String>,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.problem)?;
        match &self.moved_to {
            Ok(aside) => write!(f, "; moved aside to {}", aside.display()),
            Err(err) => write!(
                f,
                "; it could not be moved aside ({err}) and was left as is"
            ),
        }
    }
}

/// Loads `path`, or `T::default()` if it is missing or unusable (then moved aside and
/// reported). Never fails: every problem becomes a [`Warning`] so the rest keeps working.
pub fn load<T: Document + Default>(path: &Path) -> (T, Option<Warning>) {
    let (doc, warning) = load_opt(path);
    (doc.unwrap_or_default(), warning)
}

/// Like [`load`], but a missing or unusable file gives `None`.
pub fn load_opt<T: Document>(path: &Path) -> (Option<T>, Option<Warning>) {
    // Fast path without the lock: writers rename complete files into place.
    let problem = match read::<T>(path) {
        Ok(doc) => return (doc, None),
        Err(problem) => problem,
    };
    // Something is wrong: look again under the lock (a writer may have just replaced it,
    // and we must not move aside a file another process is about to replace).
    match lock(path) {
        Ok(_lock) => read_or_move_aside::<T>(path),
        Err(err) => {
            let warning = Warning {
                file: path.to_path_buf(),
                problem,
                moved_to: Err(format!("{err:#}")),
            };
            (None, Some(warning))
        }
    }
}

/// Writes `doc` to `path` atomically, under the file's lock. An unusable file in the way is
/// not overwritten: it is moved aside first and reported, as [`update`] does.
pub fn save<T: Document>(path: &Path, doc: &T) -> Result<Option<Warning>> {
    let bytes = to_bytes(doc)?;
    let _lock = lock(path)?;
    let _ = atomic::remove_stale_temps(path);
    let (_, warning) = read_or_move_aside::<T>(path);
    refuse_if_kept(&warning)?;
    write_atomic(path, &bytes)?;
    Ok(warning)
}

/// Errs if `warning` is about a file that is still in place (could not be moved aside).
fn refuse_if_kept(warning: &Option<Warning>) -> Result<()> {
    if let Some(w) = warning
        && w.moved_to.is_err()
    {
        bail!("not writing over a file that could not be kept: {w}");
    }
    Ok(())
}

/// Read-modify-write under an exclusive lock: loads `path` (as [`load`] does, moving an
/// unusable file aside), applies `change`, writes the result atomically, and returns what
/// `change` returned with the warning, if any, about the file that was replaced.
///
/// Refuses (with an error, without writing) if an unusable file could not be moved aside,
/// since writing would destroy it.
pub fn update<T, R>(path: &Path, change: impl FnOnce(&mut T) -> R) -> Result<(R, Option<Warning>)>
where
    T: Document + Default,
{
    let _lock = lock(path)?;
    let _ = atomic::remove_stale_temps(path);
    let (doc, warning) = read_or_move_aside::<T>(path);
    refuse_if_kept(&warning)?;
    let mut doc = doc.unwrap_or_default();
    let result = change(&mut doc);
    write_atomic(path, &to_bytes(&doc)?)?;
    Ok((result, warning))
}

/// The serialised form: `"version"` first, then `T`'s fields (`T` must serialise as a
/// struct or map), pretty-printed.
pub fn to_bytes<T: Document>(doc: &T) -> Result<Vec<u8>> {
    #[derive(Serialize)]
    struct Envelope<'a, T: Serialize> {
        version: u32,
        #[serde(flatten)]
        doc: &'a T,
    }
    let envelope = Envelope {
        version: T::VERSION,
        doc,
    };
    let mut bytes = Vec::new();
    envelope.serialize(&mut serde_json::Serializer::pretty(&mut bytes))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Parses a document, giving the problem as a message on failure. `Ok(None)`: missing.
fn read<T: Document>(path: &Path) -> Result<Option<T>, String> {
    let bytes = match super::limits::read_file(path, super::limits::MAX_DOCUMENT_BYTES) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(format!("cannot read: {err}")),
    };
    parse::<T>(&bytes).map(Some)
}

/// Parses and checks the bytes of a document.
pub fn parse<T: Document>(bytes: &[u8]) -> Result<T, String> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("invalid JSON: {e}"))?;
    let Value::Object(object) = &value else {
        return Err("not a JSON object".to_owned());
    };
    let version = match object.get("version") {
        None => return Err("no \"version\" field".to_owned()),
        Some(v) => v
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("\"version\" is not a version number: {v}"))?,
    };
    let doc: T = if version == T::VERSION {
        // From the bytes, not the Value, so errors keep their line and column.
        serde_json::from_slice(bytes).map_err(|e| format!("invalid content: {e}"))?
    } else if version > T::VERSION {
        return Err(format!(
            "written by a newer Ludus (version {version}; this build reads version {})",
            T::VERSION
        ));
    } else {
        let value = T::upgrade(version, value)?;
        serde_json::from_value(value)
            .map_err(|e| format!("invalid content (version {version}): {e}"))?
    };
    doc.check().map_err(|e| format!("invalid content: {e}"))?;
    Ok(doc)
}

/// Under the lock: reads `path`; if unusable, moves it aside and says so.
fn read_or_move_aside<T: Document>(path: &Path) -> (Option<T>, Option<Warning>) {
    match read::<T>(path) {
        Ok(doc) => (doc, None),
        Err(problem) => {
            let moved_to = move_aside(path).map_err(|e| format!("{e:#}"));
            let warning = Warning {
                file: path.to_path_buf(),
                problem,
                moved_to,
            };
            (None, Some(warning))
        }
    }
}

/// Renames `path` to `<name>.corrupt-<unix seconds>`, or `…-<seconds>-<n>` if that exists.
/// Called under the file's lock, so the existence check cannot race with another mover.
pub(crate) fn move_aside(path: &Path) -> Result<PathBuf> {
    let (dir, name) = atomic::split(path)?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let base = format!("{name}.corrupt-{now}");
    for n in 0..1000u32 {
        let aside = if n == 0 {
            dir.join(&base)
        } else {
            dir.join(format!("{base}-{n}"))
        };
        if fs::symlink_metadata(&aside).is_ok() {
            continue;
        }
        fs::rename(path, &aside)
            .with_context(|| format!("cannot rename to {}", aside.display()))?;
        return Ok(aside);
    }
    bail!("too many files named {base}*")
}

/// The exclusive lock on `<name>.lock` beside `path`, held until dropped. Creates the
/// directory if needed. The lock file is never deleted (that would race with lockers).
pub fn lock(path: &Path) -> Result<FileLock> {
    let (dir, name) = atomic::split(path)?;
    fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let lock_path = dir.join(format!("{name}.lock"));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .with_context(|| format!("cannot open lock file {}", lock_path.display()))?;
    file.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    Ok(FileLock { _file: file })
}

/// Holds a file's lock; dropping it closes the lock file, which releases the lock.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
    #[serde(default)]
    struct Doc {
        name: String,
        count: u32,
        items: BTreeMap<String, u32>,
    }

    impl Document for Doc {
        const VERSION: u32 = 2;
        fn upgrade(from: u32, mut value: Value) -> Result<Value, String> {
            // Version 1 called the count "n".
            if from == 1 {
                if let Some(obj) = value.as_object_mut()
                    && let Some(n) = obj.remove("n")
                {
                    obj.insert("count".into(), n);
                }
                Ok(value)
            } else {
                Err(format!("version {from} is not supported"))
            }
        }
        fn check(&self) -> Result<(), String> {
            if self.count > 1000 {
                return Err(format!("count {} is too large", self.count));
            }
            Ok(())
        }
    }

    fn corrupt_files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.contains(".corrupt-"))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn round_trip_with_version_first() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("sub/doc.json");
        let doc = Doc {
            name: "x".into(),
            count: 3,
            items: BTreeMap::from([("a".into(), 1)]),
        };
        save(&path, &doc).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("{\n  \"version\": 2,\n  \"name\": \"x\""),
            "{text}"
        );
        let (back, warning) = load::<Doc>(&path);
        assert_eq!(back, doc);
        assert_eq!(warning, None);
    }

    #[test]
    fn missing_file_gives_default_and_creates_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("nowhere/doc.json");
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(doc, Doc::default());
        assert_eq!(warning, None);
        assert!(!tmp.path().join("nowhere").exists());
        assert_eq!(load_opt::<Doc>(&path), (None, None));
    }

    #[test]
    fn corrupt_file_is_moved_aside_and_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        let garbage = "{\n  \"version\": 2,\n  \"name\": \"x\"\n  \"count\": 1\n}\n";
        fs::write(&path, garbage).unwrap();
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(doc, Doc::default());
        let warning = warning.unwrap();
        assert_eq!(warning.file, path);
        assert!(
            warning.problem.contains("line 4 column 3"),
            "{}",
            warning.problem
        );
        let aside = warning.moved_to.clone().unwrap();
        let aside_name = aside.file_name().unwrap().to_str().unwrap();
        assert!(aside_name.starts_with("doc.json.corrupt-"), "{aside_name}");
        let secs: u64 = aside_name["doc.json.corrupt-".len()..].parse().unwrap();
        assert!(secs > 1_700_000_000);
        // The bad bytes are kept, untouched; the original name is free.
        assert_eq!(fs::read_to_string(&aside).unwrap(), garbage);
        assert!(!path.exists());
        let message = warning.to_string();
        assert!(message.contains("doc.json"), "{message}");
        assert!(message.contains("line 4 column 3"), "{message}");
        assert!(message.contains("moved aside to"), "{message}");
        // Loading again: the file is missing now, so just the default, no warning.
        assert_eq!(load::<Doc>(&path), (Doc::default(), None));
    }

    #[test]
    fn a_second_corrupt_file_never_overwrites_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        for i in 0..3 {
            fs::write(&path, format!("garbage {i}")).unwrap();
            let (_, warning) = load::<Doc>(&path);
            assert!(warning.unwrap().moved_to.is_ok());
        }
        let names = corrupt_files(tmp.path());
        assert_eq!(names.len(), 3, "{names:?}");
        let mut contents: Vec<String> = names
            .iter()
            .map(|n| fs::read_to_string(tmp.path().join(n)).unwrap())
            .collect();
        contents.sort();
        assert_eq!(contents, ["garbage 0", "garbage 1", "garbage 2"]);
    }

    #[test]
    fn version_problems_are_moved_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        let cases = [
            (
                r#"{"version": 3, "name": "future"}"#,
                "newer Ludus (version 3",
            ),
            (
                r#"{"version": 0, "name": "ancient"}"#,
                "version 0 is not supported",
            ),
            (r#"{"name": "unversioned"}"#, "no \"version\" field"),
            (r#"{"version": "2"}"#, "not a version number"),
            (r#"{"version": -1}"#, "not a version number"),
            (r#"[1, 2]"#, "not a JSON object"),
            ("", "EOF while parsing a value at line 1 column 0"),
            (r#"{"version": 2, "count": "many"}"#, "line 1 column 30"),
            (
                r#"{"version": 2, "count": 5000}"#,
                "count 5000 is too large",
            ),
        ];
        for (text, expected) in cases {
            fs::write(&path, text).unwrap();
            let (doc, warning) = load::<Doc>(&path);
            assert_eq!(doc, Doc::default(), "{text}");
            let warning = warning.unwrap();
            assert!(
                warning.problem.contains(expected),
                "{text}: {}",
                warning.problem
            );
            let aside = warning.moved_to.unwrap();
            assert_eq!(fs::read_to_string(&aside).unwrap(), text);
            assert!(!path.exists());
        }
        assert_eq!(corrupt_files(tmp.path()).len(), cases.len());
    }

    #[test]
    fn older_version_is_upgraded() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        fs::write(&path, r#"{"version": 1, "name": "old", "n": 7}"#).unwrap();
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(warning, None);
        assert_eq!(doc.name, "old");
        assert_eq!(doc.count, 7);
    }

    #[test]
    fn missing_and_unknown_fields() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        fs::write(
            &path,
            r#"{"version": 2, "count": 4, "from_the_future": {"x": [1]}}"#,
        )
        .unwrap();
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(warning, None);
        assert_eq!(
            doc,
            Doc {
                count: 4,
                ..Doc::default()
            }
        );
    }

    #[test]
    fn update_reads_modifies_writes() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/doc.json");
        let (r, w) = update(&path, |d: &mut Doc| {
            d.count += 1;
            d.count
        })
        .unwrap();
        assert_eq!((r, w), (1, None));
        let (r, _) = update(&path, |d: &mut Doc| {
            d.count += 1;
            d.count
        })
        .unwrap();
        assert_eq!(r, 2);
        assert_eq!(load::<Doc>(&path).0.count, 2);
        // The lock file sits beside the document.
        assert!(tmp.path().join("a/doc.json.lock").exists());
    }

    #[test]
    fn update_over_a_corrupt_file_keeps_it_aside_and_reports() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        fs::write(&path, "{ oops").unwrap();
        let ((), warning) = update(&path, |d: &mut Doc| d.count = 9).unwrap();
        let warning = warning.unwrap();
        assert!(
            warning.problem.contains("line 1 column 3"),
            "{}",
            warning.problem
        );
        assert_eq!(
            fs::read_to_string(warning.moved_to.unwrap()).unwrap(),
            "{ oops"
        );
        assert_eq!(
            load::<Doc>(&path),
            (
                Doc {
                    count: 9,
                    ..Doc::default()
                },
                None
            )
        );
    }

    #[test]
    fn save_over_a_corrupt_file_keeps_it_aside_and_reports() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        fs::write(&path, "[broken").unwrap();
        let doc = Doc {
            count: 2,
            ..Doc::default()
        };
        let warning = save(&path, &doc).unwrap().unwrap();
        assert_eq!(
            fs::read_to_string(warning.moved_to.unwrap()).unwrap(),
            "[broken"
        );
        assert_eq!(load::<Doc>(&path), (doc.clone(), None));
        // Over a good file, no warning.
        assert_eq!(save(&path, &doc).unwrap(), None);
        assert_eq!(corrupt_files(tmp.path()).len(), 1);
    }

    #[test]
    fn leftover_temp_is_ignored_and_cleaned_by_writers() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        save(
            &path,
            &Doc {
                count: 1,
                ..Doc::default()
            },
        )
        .unwrap();
        let stale = tmp.path().join(".doc.json.tmp-4242-0");
        fs::write(&stale, "{\"version\": 2, \"cou").unwrap();
        assert_eq!(
            load::<Doc>(&path),
            (
                Doc {
                    count: 1,
                    ..Doc::default()
                },
                None
            )
        );
        update(&path, |d: &mut Doc| d.count += 1).unwrap();
        assert!(!stale.exists());
        assert_eq!(load::<Doc>(&path).0.count, 2);
        assert!(corrupt_files(tmp.path()).is_empty());
    }

    #[test]
    fn two_threads_updating_lose_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("doc.json");
        std::thread::scope(|s| {
            for t in 0..2 {
                let path = &path;
                s.spawn(move || {
                    for i in 0..50 {
                        let (_, w) = update(path, |d: &mut Doc| {
                            d.count += 1;
                            d.items.insert(format!("{t}-{i}"), i);
                        })
                        .unwrap();
                        assert_eq!(w, None);
                    }
                });
            }
        });
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(warning, None);
        assert_eq!(doc.count, 100);
        assert_eq!(doc.items.len(), 100);
    }

    #[cfg(unix)]
    #[test]
    fn unmovable_corrupt_file_is_reported_and_never_overwritten() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ro");
        fs::create_dir(&dir).unwrap();
        let path = dir.join("doc.json");
        fs::write(&path, "not json").unwrap();
        // The lock file exists already; then the directory becomes read-only.
        drop(lock(&path).unwrap());
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        // Root ignores permissions; the test only means something for other users.
        let probe = dir.join("probe");
        if fs::write(&probe, "").is_ok() {
            let _ = fs::remove_file(&probe);
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
            return;
        }
        let (doc, warning) = load::<Doc>(&path);
        assert_eq!(doc, Doc::default());
        let warning = warning.unwrap();
        assert!(warning.moved_to.is_err());
        assert!(warning.to_string().contains("left as is"));
        let err = update(&path, |d: &mut Doc| d.count = 1).unwrap_err();
        assert!(format!("{err:#}").contains("not writing over"), "{err:#}");
        let err = save(&path, &Doc::default()).unwrap_err();
        assert!(format!("{err:#}").contains("not writing over"), "{err:#}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "not json");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    }
}
