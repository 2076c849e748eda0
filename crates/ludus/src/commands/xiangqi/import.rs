//! `ludus xiangqi import FILE…`: copies record files (PGN with one or many
//! games, or XQF) into the games database's collections, each read whole
//! first; a file that cannot be read is named with why, and the others go on.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use crate::store::DataDir;
use crate::store::xiangqi::{MAX_COLLECTION_BYTES, MAX_COLLECTION_GAMES, import_file};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Record files to import: PGN (one or many games) or XQF.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

/// Imports each file; prints one line per file (what was kept on standard
/// output, what failed on standard error). Fails if any file failed.
pub fn run(data: &DataDir, args: &ImportArgs) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for path in &args.files {
        match import_one(data, path) {
            Ok(line) => writeln!(out, "{line}")?,
            Err(line) => {
                failed += 1;
                eprintln!("{line}");
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "{} of {} not imported (limits: {} MiB and {MAX_COLLECTION_GAMES} games a file)",
            failed,
            crate::words::counted(args.files.len(), "file"),
            MAX_COLLECTION_BYTES >> 20
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The line that says what became of one file.
fn import_one(data: &DataDir, path: &Path) -> Result<String, String> {
    let imported = import_file(data, path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!(
        "{}: {} as xiangqi/collections/{}",
        path.display(),
        crate::words::counted(imported.games, "game"),
        imported.name
    ))
}
