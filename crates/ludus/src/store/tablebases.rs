//! Xiangqi endgame tablebases on disk: one `<SIGNATURE>.xtb` file per
//! signature in `xiangqi/tablebases/` (the image of
//! [`xiangqi::tablebase::Table::to_bytes`]: versioned, checksummed), written
//! atomically. A file that does not read back is moved aside to
//! `<name>.corrupt-<unix seconds>` and reported, as the other stores do.
//!
//! The process shares one set ([`shared`]): the data dir is named once at
//! start ([`register`]), its folder is listed when first needed, and each
//! table is read the first time a position needs it, so a process pays only
//! for the endings it meets.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use anyhow::{Context, Result};
use xiangqi::tablebase::{
    GenerateError, Material, Progress, Table, TableSource, Tablebases, generate,
};

use super::DataDir;
use super::atomic::write_atomic;
use super::json_file::move_aside;
use super::limits::{MAX_TABLEBASE_BYTES, read_file};

/// File extension of a table.
pub const EXTENSION: &str = "xtb";
/// Most table files [`load_dir`] reads (the standard set has under a hundred
/// and thirty).
pub const MAX_TABLE_FILES: usize = 1000;

/// The file of a signature in a folder.
pub fn table_path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

/// What reading a folder of tables found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub tables: Tablebases,
    /// One line per file that could not be used (and where it went).
    pub warnings: Vec<String>,
}

/// Reads one table file: `Ok(None)` if there is none.
///
/// # Errors
///
/// The file cannot be read, is too large, or is not a valid table; a file
/// that is not valid has been moved aside (the message says where).
pub fn load_table(path: &Path) -> Result<Option<Table>> {
    let bytes = match read_file(path, MAX_TABLEBASE_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    match Table::from_bytes(&bytes) {
        Ok(t) => Ok(Some(t)),
        Err(err) => {
            let aside = match move_aside(path) {
                Ok(aside) => format!("moved aside to {}", aside.display()),
                Err(e) => format!("it could not be moved aside ({e:#})"),
            };
            anyhow::bail!("{}: {err}; {aside}", path.display())
        }
    }
}

/// Reads every `*.xtb` file of a folder (at most [`MAX_TABLE_FILES`]); a
/// missing folder is no tables.
pub fn load_dir(dir: &Path) -> Loaded {
    let mut loaded = Loaded::default();
    let Ok(entries) = fs::read_dir(dir) else {
        return loaded;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        .take(MAX_TABLE_FILES)
        .collect();
    paths.sort();
    for path in paths {
        match load_table(&path) {
            Ok(Some(t)) => loaded.tables.insert(t),
            Ok(None) => {}
            Err(e) => loaded.warnings.push(format!("{e:#}")),
        }
    }
    loaded
}

/// Writes a table to its file in `dir`, atomically.
///
/// # Errors
///
/// The folder or file cannot be written.
pub fn save_table(dir: &Path, table: &Table) -> Result<PathBuf> {
    let path = table_path(dir, &table.material());
    write_atomic(&path, &table.to_bytes())
        .with_context(|| format!("cannot save tablebase {}", table.material()))?;
    Ok(path)
}

/// What happened to one signature in [`generate_set`].
#[derive(Debug)]
pub enum Step {
    /// Its file was there and read back.
    Reused(Material),
    /// Generated now and saved, in this many milliseconds.
    Generated {
        material: Material,
        positions: usize,
        ms: u128,
    },
}

/// What [`generate_set`] made sure of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetSummary {
    /// Signatures with a valid file now.
    pub tables: usize,
    /// Their positions (= bytes of values) in all.
    pub positions: u64,
}

/// Makes sure every signature of `set` (in generation order, dependencies
/// first) has a valid file in `dir`: existing files are checked and reused,
/// the others generated and saved. A table is held in memory only while a
/// later one of the set still converts into it. `progress` follows each
/// generation and may stop it; `step` hears about each signature when it is
/// done.
///
/// # Errors
///
/// A table cannot be generated (or was stopped) or saved.
pub fn generate_set(
    dir: &Path,
    set: &[Material],
    progress: &mut dyn FnMut(Progress) -> bool,
    step: &mut dyn FnMut(&Step, &[String]),
) -> Result<SetSummary> {
    // The last position in `set` of a table that converts into each one.
    let mut last_use: HashMap<Material, usize> = HashMap::new();
    for (i, m) in set.iter().enumerate() {
        for d in m.dependencies() {
            last_use.insert(d, i);
        }
    }
    let mut tables = Tablebases::new();
    let mut summary = SetSummary {
        tables: 0,
        positions: 0,
    };
    for (i, &m) in set.iter().enumerate() {
        let path = table_path(dir, &m);
        let mut warnings = Vec::new();
        let reused = match load_table(&path) {
            Ok(Some(t)) if t.material() == m => Some(t),
            Ok(_) => None,
            Err(e) => {
                warnings.push(format!("{e:#}"));
                None
            }
        };
        let (table, done) = match reused {
            Some(t) => (t, Step::Reused(m)),
            None => {
                let started = std::time::Instant::now();
                let table = generate(m, &tables, progress)
                    .map_err(|e: GenerateError| anyhow::anyhow!(e))?;
                save_table(dir, &table)?;
                let positions = table.len();
                let ms = started.elapsed().as_millis();
                (
                    table,
                    Step::Generated {
                        material: m,
                        positions,
                        ms,
                    },
                )
            }
        };
        summary.tables += 1;
        summary.positions += table.len() as u64;
        tables.insert(table);
        // Tables no later one converts into are done with.
        for held in tables.materials() {
            if last_use.get(&held).is_none_or(|&j| j <= i) {
                tables.remove(&held);
            }
        }
        step(&done, &warnings);
    }
    Ok(summary)
}

/// Where the process reads its tables from, set by [`register`].
static DIR: Mutex<Option<PathBuf>> = Mutex::new(None);
/// The tables, listed on first use.
static SHARED: OnceLock<Option<Arc<Tablebases>>> = OnceLock::new();

/// Names the data dir whose tables [`shared`] reads (the first call wins;
/// nothing is read yet).
pub fn register(data: &DataDir) {
    let mut dir = DIR.lock().unwrap_or_else(PoisonError::into_inner);
    if dir.is_none() {
        *dir = Some(data.xiangqi_tablebases());
    }
}

/// Table files of a folder, read when first probed; a file that turns out
/// not to be valid is moved aside and reported on standard error, and its
/// ending is then not covered.
struct FileSource {
    dir: PathBuf,
}

impl TableSource for FileSource {
    fn load(&self, material: &Material) -> Option<Table> {
        match load_table(&table_path(&self.dir, material)) {
            Ok(Some(t)) if t.material() == *material => Some(t),
            Ok(_) => None,
            Err(e) => {
                eprintln!("ludus: tablebase {e:#}");
                None
            }
        }
    }
}

/// The signatures a folder has files for (at most [`MAX_TABLE_FILES`]), by
/// their names; a name that is not a canonical signature is left alone.
pub fn list_dir(dir: &Path) -> Vec<Material> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Material> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?;
            Material::parse(stem)
                .ok()
                .filter(|m| m.is_canonical() && m.to_string() == stem)
        })
        .take(MAX_TABLE_FILES)
        .collect();
    out.sort();
    out
}

/// The tables of a folder, each read when a position first needs it.
pub fn lazy_dir(dir: &Path) -> Tablebases {
    let source = Arc::new(FileSource {
        dir: dir.to_path_buf(),
    });
    Tablebases::lazy(&list_dir(dir), source)
}

/// The process's tables, listed from the registered folder the first time
/// and each read on first probe; `None` if no folder was registered or it
/// holds no table.
pub fn shared() -> Option<Arc<Tablebases>> {
    SHARED
        .get_or_init(|| {
            let dir = DIR.lock().unwrap_or_else(PoisonError::into_inner).clone()?;
            let tables = lazy_dir(&dir);
            (!tables.is_empty()).then(|| Arc::new(tables))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_set() -> Vec<Material> {
        Material::with_dependencies(&[Material::parse("KR-KA").unwrap()])
    }

    #[test]
    fn generates_saves_and_reuses() {
        let dir = tempfile::tempdir().unwrap();
        let mut steps = Vec::new();
        let summary = generate_set(dir.path(), &small_set(), &mut |_| true, &mut |s, _| {
            steps.push(matches!(s, Step::Generated { .. }))
        })
        .unwrap();
        assert_eq!(steps, [true, true]);
        assert_eq!(
            summary,
            SetSummary {
                tables: 2,
                positions: 9720 + 48600
            }
        );
        assert!(dir.path().join("KR-KA.xtb").is_file());
        let mut again = Vec::new();
        generate_set(dir.path(), &small_set(), &mut |_| true, &mut |s, _| {
            again.push(matches!(s, Step::Reused(_)))
        })
        .unwrap();
        assert_eq!(again, [true, true]);
        assert_eq!(load_dir(dir.path()).tables.len(), 2);
        // Read lazily: listed now, each file read when first probed.
        let lazy = lazy_dir(dir.path());
        assert_eq!(lazy.len(), 2);
        let pos = xiangqi::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        assert!(matches!(
            lazy.probe(&pos),
            Some(xiangqi::tablebase::Verdict::Win(_))
        ));
        // A file whose name is no canonical signature is not listed.
        fs::write(dir.path().join("KA-KR.xtb"), b"x").unwrap();
        fs::write(dir.path().join("notes.xtb"), b"x").unwrap();
        assert_eq!(list_dir(dir.path()).len(), 2);
    }

    #[test]
    fn a_lazy_table_that_turns_out_corrupt_covers_nothing() {
        let dir = tempfile::tempdir().unwrap();
        generate_set(dir.path(), &small_set(), &mut |_| true, &mut |_, _| {}).unwrap();
        let lazy = lazy_dir(dir.path());
        fs::write(dir.path().join("KR-K.xtb"), b"LUDUSXTB garbage").unwrap();
        let pos = xiangqi::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        assert_eq!(lazy.probe(&pos), None);
        // KR-KA is still read and used.
        let with_advisor = xiangqi::Position::from_fen("3ak4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        assert!(lazy.probe(&with_advisor).is_some());
    }

    #[test]
    fn a_corrupt_file_is_moved_aside_reported_and_regenerated() {
        let dir = tempfile::tempdir().unwrap();
        let set = small_set();
        generate_set(dir.path(), &set, &mut |_| true, &mut |_, _| {}).unwrap();
        let path = dir.path().join("KR-K.xtb");
        let mut bytes = fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 10] ^= 0xff;
        fs::write(&path, &bytes).unwrap();
        let loaded = load_dir(dir.path());
        assert_eq!(loaded.tables.len(), 1);
        assert_eq!(loaded.warnings.len(), 1);
        assert!(
            loaded.warnings[0].contains("checksum"),
            "{:?}",
            loaded.warnings
        );
        assert!(
            loaded.warnings[0].contains("moved aside"),
            "{:?}",
            loaded.warnings
        );
        let aside = fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("KR-K.xtb.corrupt-")
            });
        assert!(aside);
        // Generating again replaces the missing file.
        let mut made = Vec::new();
        generate_set(dir.path(), &set, &mut |_| true, &mut |s, _| {
            made.push(matches!(s, Step::Generated { .. }))
        })
        .unwrap();
        assert_eq!(made, [true, false]);
    }
}
