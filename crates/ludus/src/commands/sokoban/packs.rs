//! `ludus sokoban pack …`: install, list, remove and export map packs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

use crate::session::sokoban::library::{LevelSet, Source, export_solutions, registry};
use crate::session::sokoban::pack::{self, LevelFile, Pack, PackMeta};
use crate::store::DataDir;
use crate::words::counted;

#[derive(Debug, Subcommand)]
pub enum PackCommand {
    /// Install a map pack (a .zip or a folder) into the levels folder.
    Install {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// List the installed packs: name, author, levels, skin.
    List,
    /// Remove an installed pack by its name.
    Remove {
        #[arg(value_name = "NAME")]
        name: String,
    },
    /// Write a collection (a name from the level list, a level file or a pack) as a .zip pack.
    Export {
        #[arg(value_name = "COLLECTION")]
        collection: String,
        #[arg(long, short, value_name = "FILE.zip")]
        output: PathBuf,
        /// Put your best solutions under each level.
        #[arg(long)]
        with_records: bool,
    },
}

pub fn run(data: &DataDir, command: PackCommand, out: &mut impl Write) -> Result<ExitCode> {
    match command {
        PackCommand::Install { file } => {
            let pack = pack::read_path(&file)?;
            let path = pack::install(data, &pack)?;
            writeln!(
                out,
                "installed {} ({}, {}) in {}",
                pack.name,
                counted(pack.collection.levels.len(), "level"),
                if pack.skin.is_empty() {
                    "no skin"
                } else {
                    "with a skin"
                },
                path.display()
            )?;
        }
        PackCommand::List => {
            let packs = pack::installed(data);
            if packs.is_empty() {
                writeln!(out, "no packs installed")?;
            }
            for (folder, pack) in packs {
                match pack {
                    Ok(p) => writeln!(
                        out,
                        "{}\tby {}\t{}\tskin: {}",
                        p.name,
                        p.meta.author.as_deref().unwrap_or("unknown"),
                        counted(p.collection.levels.len(), "level"),
                        if has_skin(&p) { "yes" } else { "no" }
                    )?,
                    Err(e) => writeln!(out, "{folder}\tcannot be read: {e}")?,
                }
            }
        }
        PackCommand::Remove { name } => {
            let removed = pack::remove(data, &name)?;
            writeln!(out, "removed {removed}")?;
        }
        PackCommand::Export {
            collection,
            output,
            with_records,
        } => {
            let pack = export_pack(data, &collection, with_records)?;
            let bytes = pack.to_zip()?;
            crate::store::write_atomic(&output, &bytes)
                .with_context(|| format!("cannot write {}", output.display()))?;
            writeln!(
                out,
                "wrote {} ({}) to {}",
                pack.name,
                counted(pack.collection.levels.len(), "level"),
                output.display()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a pack has a skin: images for the page or tiles for the terminal.
fn has_skin(pack: &Pack) -> bool {
    !pack.skin.is_empty() || pack.terminal.is_some()
}

/// The pack to export for `collection`: a pack read from a path, a level
/// file, or a collection of the level list by name (a pack keeps its skin).
fn export_pack(data: &DataDir, collection: &str, with_records: bool) -> Result<Pack> {
    let path = Path::new(collection);
    let is_pack = path.is_dir()
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    let (set, mut base) = if is_pack {
        let pack = pack::read_path(path)?;
        (pack.level_set(), Some(pack))
    } else if path.is_file() {
        (LevelSet::load(path)?, None)
    } else {
        let (sets, _) = registry(data, &[]);
        let set = sets
            .into_iter()
            .find(|s| {
                s.name.eq_ignore_ascii_case(collection)
                    || matches!(&s.source, Source::Pack { folder } if folder == collection)
            })
            .with_context(|| format!("no collection or file named {collection}"))?;
        let base = match &set.source {
            Source::Pack { folder } => pack::read_folder(&pack::packs_dir(data).join(folder)).ok(),
            _ => None,
        };
        (set, base)
    };
    if !with_records && let Some(pack) = base.take() {
        return Ok(pack);
    }
    let text = if with_records {
        let (text, warning) = export_solutions(data, &set);
        if let Some(warning) = warning {
            eprintln!("ludus: warning: {warning}");
        }
        text
    } else {
        let levels: Vec<_> = set
            .collection
            .valid_levels()
            .map(|(_, l)| l.clone())
            .collect();
        sokoban::format::sok::write_sok(Some(&set.name), &levels)
    };
    let bytes = text.into_bytes();
    let mut pack = pack::read_zip(
        &Pack {
            name: set.name.clone(),
            meta: PackMeta::default(),
            folder: String::new(),
            level_files: vec![LevelFile {
                path: "levels.sok".into(),
                bytes,
            }],
            collection: set.collection.clone(),
            skin: Vec::new(),
            terminal: None,
        }
        .to_zip()?,
        "levels.zip",
    )?;
    if let Some(base) = base {
        pack.meta = base.meta;
        pack.skin = base.skin;
        pack.terminal = base.terminal;
    }
    Ok(pack)
}
