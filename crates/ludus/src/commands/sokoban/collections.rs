//! `ludus sokoban collections`: every collection the level browser offers
//! (built in, files named, the levels folder, map packs) with its author,
//! level count and how many the player solved.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::session::sokoban::library::{Summary, grouped, registry};
use crate::store::{DataDir, progress};
use crate::words::counted;

#[derive(Debug, Args)]
pub struct CollectionsArgs {
    /// Level files to list too, as the level browser shows them.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Print a JSON array, one object per collection: name, author, group,
    /// origin, credit, levels, solved, first_unsolved and updated (level
    /// numbers 1-based, as `--level`).
    #[arg(long)]
    pub json: bool,
}

/// A collection as `--json` prints it.
#[derive(Debug, Serialize)]
struct CollectionJson<'a> {
    name: &'a str,
    author: Option<&'a str>,
    group: &'a str,
    origin: &'a str,
    credit: Option<&'a str>,
    /// Levels that can be played.
    levels: usize,
    solved: usize,
    /// The first level not solved yet (1-based).
    first_unsolved: Option<usize>,
    /// Levels changed since they were solved (1-based).
    updated: Vec<usize>,
}

impl<'a> CollectionJson<'a> {
    fn of(summary: &'a Summary) -> CollectionJson<'a> {
        CollectionJson {
            name: &summary.name,
            author: summary.author.as_deref(),
            group: &summary.group,
            origin: &summary.origin,
            credit: summary.credit.as_deref(),
            levels: summary.levels,
            solved: summary.solved,
            first_unsolved: summary.first_unsolved.map(|i| i + 1),
            updated: summary.updated.iter().map(|i| i + 1).collect(),
        }
    }
}

/// Lists the collections; files that cannot be read and a progress file
/// that cannot be are warnings on standard error.
pub fn run(data: &DataDir, args: &CollectionsArgs, out: &mut impl Write) -> Result<ExitCode> {
    let (sets, problems) = registry(data, &args.files);
    for problem in problems {
        eprintln!("ludus: warning: {problem}");
    }
    let (progress, warning) = progress::load(data);
    if let Some(warning) = warning {
        eprintln!("ludus: warning: {warning}");
    }
    let summaries: Vec<Summary> = grouped(sets)
        .iter()
        .map(|set| Summary::of(set, &progress))
        .collect();
    if args.json {
        let rows: Vec<CollectionJson> = summaries.iter().map(CollectionJson::of).collect();
        serde_json::to_writer_pretty(&mut *out, &rows)?;
        writeln!(out)?;
    } else {
        write_table(&summaries, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The collections under their group, in aligned columns, then the totals.
fn write_table(summaries: &[Summary], out: &mut impl Write) -> Result<()> {
    let width = |f: &dyn Fn(&Summary) -> usize| summaries.iter().map(f).max().unwrap_or(0);
    let name_width = width(&|s| s.name.chars().count());
    let solved_width = width(&|s| s.solved.to_string().len());
    let levels_width = width(&|s| s.levels.to_string().len());
    let mut group: Option<&str> = None;
    for summary in summaries {
        if group != Some(summary.group.as_str()) {
            group = Some(summary.group.as_str());
            writeln!(out, "{}", summary.group)?;
        }
        let mut line = format!(
            "  {:<name_width$}  {:>solved_width$}/{:<levels_width$} solved  {}",
            summary.name, summary.solved, summary.levels, summary.origin
        );
        if let Some(author) = &summary.author
            && *author != summary.group
        {
            line.push_str(&format!("  by {author}"));
        }
        if !summary.updated.is_empty() {
            line.push_str(&format!("  {} updated", summary.updated.len()));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    let levels: usize = summaries.iter().map(|s| s.levels).sum();
    let solved: usize = summaries.iter().map(|s| s.solved).sum();
    writeln!(
        out,
        "{}, {}, {solved} solved",
        counted(summaries.len(), "collection"),
        counted(levels, "level")
    )?;
    Ok(())
}

/// What `ludus sokoban --help` says under its options: the built-in
/// collections by author, each author's credit once.
pub fn builtin_credits() -> String {
    const WIDTH: usize = 78;
    let mut text =
        String::from("Built-in collections (`ludus sokoban collections` adds your progress):\n");
    let mut authors: Vec<&str> = Vec::new();
    for builtin in sokoban::levels::BUILTIN {
        if !authors.contains(&builtin.author) {
            authors.push(builtin.author);
        }
    }
    for author in authors {
        let of_author: Vec<_> = sokoban::levels::BUILTIN
            .iter()
            .filter(|b| b.author == author)
            .collect();
        let titles: Vec<&str> = of_author.iter().map(|b| b.title).collect();
        text.push('\n');
        let heading = format!("{author}: {}", titles.join(", "));
        for (i, line) in crate::words::wrap(&heading, WIDTH - 4).iter().enumerate() {
            let indent = if i == 0 { "" } else { "    " };
            text.push_str(&format!("{indent}{line}\n"));
        }
        let mut credits: Vec<&str> = of_author.iter().map(|b| b.credit).collect();
        credits.dedup();
        for credit in credits {
            for line in crate::words::wrap(credit, WIDTH - 2) {
                text.push_str(&format!("  {line}\n"));
            }
        }
    }
    text.push_str("\nTheir terms in full: crates/sokoban/levels/LICENSES.md in the source.");
    text
}

/// What `ludus sokoban -h` says under its options.
pub const CREDITS_HINT: &str =
    "The built-in collections and their authors' credits: ludus sokoban --help";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_credits_each_author_once_with_every_collection() {
        let text = builtin_credits();
        for builtin in sokoban::levels::BUILTIN {
            assert!(text.contains(builtin.title), "{}: {text}", builtin.title);
        }
        let skinner = "My sets are in two groups";
        assert_eq!(text.matches(skinner).count(), 1, "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 78), "{text}");
    }

    #[test]
    fn the_table_groups_collections_and_counts_them() {
        let summary = |name: &str, group: &str, solved| Summary {
            name: name.into(),
            author: Some(group.into()),
            group: group.into(),
            origin: "built in".into(),
            credit: None,
            levels: 10,
            solved,
            first_unsolved: None,
            updated: vec![2],
        };
        let mut out = Vec::new();
        write_table(
            &[
                summary("One", "Ann", 3),
                summary("Second", "Ann", 10),
                summary("Third", "Bob", 0),
            ],
            &mut out,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            String::from_utf8_lossy(&out),
            "Ann\n  One      3/10 solved  built in  1 updated\n  Second  10/10 solved  built in  1 updated\nBob\n  Third    0/10 solved  built in  1 updated\n3 collections, 30 levels, 13 solved\n"
        );
    }
}
