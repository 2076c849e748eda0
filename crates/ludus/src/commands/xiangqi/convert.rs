//! `ludus xiangqi convert FILE --to pgn|xqf [--output OUT]`, and the record
//! loader the game viewer shares: PGN or XQF, told apart by content. The
//! output carries the game's ECCO opening (PGN tags, or the XQF title).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use xiangqi::pgn::{MoveFormat, PgnGame};
use xiangqi::xqf;

use crate::session::xiangqi::flow;
use crate::store::limits::{MAX_RECORD_BYTES, read_file};

/// The two record formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum RecordFormat {
    /// PGN text (UTF-8).
    Pgn,
    /// XQF, binary (written as version 1.0, main line only).
    Xqf,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The record to convert: PGN, or XQF (any version; told by its "XQ"
    /// signature or the .xqf extension).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: RecordFormat,
    /// Where to write (default: standard output; XQF is binary and is not
    /// written to a terminal, redirect it or use --output).
    #[arg(long, short, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Move notation of PGN output: chinese, iccs or wxf.
    #[arg(long, value_name = "NOTATION", default_value = "chinese")]
    pub notation: String,
}

/// A record read from a file, and what it was.
pub struct LoadedRecord {
    pub game: PgnGame,
    pub format: RecordFormat,
    /// Variations an XQF record had (left out of `game`).
    pub variations: usize,
}

fn is_xqf(path: &Path, bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xqf"))
}

/// Reads a game record, PGN or XQF (by its signature, or an `.xqf` name).
///
/// # Errors
/// The file cannot be read or is too large, or the record is malformed: the
/// message names the file and the PGN line and column or the XQF byte offset.
pub fn load_record(path: &Path) -> Result<LoadedRecord> {
    let bytes = read_file(path, MAX_RECORD_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if is_xqf(path, &bytes) {
        let rec = xqf::read(&bytes).with_context(|| path.display().to_string())?;
        return Ok(LoadedRecord {
            game: rec.game,
            format: RecordFormat::Xqf,
            variations: rec.variations,
        });
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: byte offset {}: not UTF-8 text (PGN) nor XQF",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let game = PgnGame::parse(&text).with_context(|| path.display().to_string())?;
    Ok(LoadedRecord {
        game,
        format: RecordFormat::Pgn,
        variations: 0,
    })
}

/// XQF has no opening field: an untitled record is titled with its ECCO
/// code and opening (`C20 中炮过河车七路马对屏风马两头蛇`).
fn title_opening(game: &mut PgnGame) {
    if game.tag("Title").is_some_and(|t| !t.trim().is_empty()) {
        return;
    }
    if let (Some(code), Some(opening)) = (game.tag("ECCO"), game.tag("Opening")) {
        let title = format!("{code} {opening}");
        game.set_tag("Title", &title);
    }
}

pub fn run(args: ConvertArgs) -> Result<ExitCode> {
    let Some(notation) = MoveFormat::from_tag(&args.notation) else {
        bail!(
            "unknown notation {:?}: use chinese, iccs or wxf",
            args.notation
        );
    };
    let mut record = load_record(&args.file)?;
    flow::tag_opening(&mut record.game);
    let bytes = match args.to {
        RecordFormat::Pgn => record.game.to_pgn(notation).into_bytes(),
        RecordFormat::Xqf => {
            if args.output.is_none() && std::io::stdout().is_terminal() {
                bail!(
                    "XQF is binary and standard output is a terminal: \
                     use --output FILE or redirect the output"
                );
            }
            title_opening(&mut record.game);
            xqf::write(&record.game)
        }
    };
    if record.variations > 0 {
        eprintln!(
            "{}: {} variation(s) left out, the main line is converted",
            args.file.display(),
            record.variations
        );
    }
    match &args.output {
        Some(out) => std::fs::write(out, &bytes)
            .with_context(|| format!("cannot write {}", out.display()))?,
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
