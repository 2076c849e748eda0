//! Level files from the command line: validate, verify, convert, export solutions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use sokoban::format::{json, sok};
use sokoban::{Level, verify};

use super::Format;
use crate::session::sokoban::library::LevelSet;
use crate::words::counted;

pub(super) fn write_output(output: Option<&Path>, text: &str) -> Result<ExitCode> {
    match output {
        Some(path) => crate::store::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Names each level of `set` that could not be read, a line each with its
/// line and column: a converter must not drop one silently.
pub(super) fn report_broken_levels(
    file: &Path,
    set: &LevelSet,
    out: &mut impl Write,
) -> Result<()> {
    for (index, level) in set.collection.levels.iter().enumerate() {
        if let Err(e) = level {
            writeln!(
                out,
                "{}:{}:{}: level {}: error: {} (skipped)",
                file.display(),
                e.line,
                e.column,
                index + 1,
                e.kind
            )?;
        }
    }
    Ok(())
}

fn level_label(number: usize, level: &Level) -> String {
    match &level.meta.title {
        Some(t) => format!("level {number} ({t})"),
        None => format!("level {number}"),
    }
}

/// Prints one line per level and a summary; exit code 1 if any level has an error.
pub fn validate(files: &[PathBuf], out: &mut impl Write) -> Result<ExitCode> {
    let (mut ok, mut warnings, mut errors) = (0, 0, 0);
    for file in files {
        let name = file.display();
        let set = match LevelSet::load(file) {
            Ok(set) => set,
            Err(e) => {
                writeln!(out, "{e:#}")?;
                errors += 1;
                continue;
            }
        };
        if set.is_empty() {
            writeln!(out, "{name}: error: no level found")?;
            errors += 1;
        }
        for (i, level) in set.collection.levels.iter().enumerate() {
            let number = i + 1;
            let level = match level {
                Ok(level) => level,
                Err(e) => {
                    writeln!(
                        out,
                        "{name}:{}:{}: level {number}: error: {}",
                        e.line, e.column, e.kind
                    )?;
                    errors += 1;
                    continue;
                }
            };
            let report = sokoban::validate(level);
            let label = level_label(number, level);
            let findings: Vec<_> = report.errors().chain(report.warnings()).collect();
            if findings.is_empty() {
                writeln!(out, "{name}:{}: {label}: ok", level.meta.line)?;
                ok += 1;
                continue;
            }
            for finding in &findings {
                let severity = if finding.problem.is_error() {
                    "error"
                } else {
                    "warning"
                };
                let (line, column) = finding
                    .cell
                    .map_or((level.meta.line, 1), |c| level.source_position(c));
                writeln!(
                    out,
                    "{name}:{line}:{column}: {label}: {severity}: {}",
                    finding.problem
                )?;
            }
            if report.is_ok() {
                warnings += 1
            } else {
                errors += 1
            }
        }
    }
    let total = ok + warnings + errors;
    writeln!(
        out,
        "{}: {ok} ok, {}, {}",
        counted(total, "level"),
        counted(warnings, "warning"),
        counted(errors, "error")
    )?;
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Replays a solution (given, or stored in a .sok) and prints the verdict.
pub fn verify_command(
    file: &Path,
    level: Option<usize>,
    solution: Option<&str>,
    solutions: Option<&Path>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let set = LevelSet::load(file)?;
    let number = level.unwrap_or(1);
    let Some(entry) = number
        .checked_sub(1)
        .and_then(|i| set.collection.levels.get(i))
    else {
        bail!(
            "{} has {}; there is no level {number}",
            file.display(),
            counted(set.len(), "level")
        );
    };
    let level = entry
        .as_ref()
        .map_err(|e| anyhow::anyhow!("{}:{e}", file.display()))?;
    let lurd = match (solution, solutions) {
        (Some(s), _) => s.to_string(),
        (None, Some(path)) => stored_solution(path, number, level)?,
        (None, None) => match level.meta.solutions.first() {
            Some(s) => s.clone(),
            None => bail!("give --solution LURD or --solutions FILE.sok"),
        },
    };
    // A solution that cannot be read is a usage error, not an unsolved level.
    if let Err(e) = sokoban::lurd::parse(&lurd) {
        bail!("the solution cannot be read: {e}");
    }
    match verify(level, &lurd) {
        Ok(v) => {
            let solved = if v.solved { "yes" } else { "no" };
            writeln!(
                out,
                "solved: {solved}, moves {}, pushes {}",
                v.moves, v.pushes
            )?;
            Ok(if v.solved {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Err(e) => {
            writeln!(out, "solved: no, {e}")?;
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The solution stored for a level in a .sok file: the level with the same
/// board, or else the level with the same number.
fn stored_solution(path: &Path, number: usize, level: &Level) -> Result<String> {
    let set = LevelSet::load(path)?;
    let key = level.key();
    let same_board = set
        .collection
        .valid_levels()
        .find(|(_, l)| l.key() == key)
        .map(|(_, l)| l);
    let same_number = set
        .collection
        .levels
        .get(number - 1)
        .and_then(|l| l.as_ref().ok());
    same_board
        .or(same_number)
        .and_then(|l| l.meta.solutions.first().cloned())
        .with_context(|| format!("{} has no solution for level {number}", path.display()))
}

/// The whole collection in another format.
pub fn convert(set: &LevelSet, to: Format) -> String {
    let levels: Vec<Level> = set
        .collection
        .valid_levels()
        .map(|(_, l)| l.clone())
        .collect();
    let title = set.collection.title.as_deref();
    match to {
        Format::Xsb => sok::write_xsb(&levels),
        Format::Sok => sok::write_sok(title, &levels),
        Format::Rle => sok::write_rle(&levels),
        Format::Json => json::write_library(title, &levels) + "\n",
    }
}
