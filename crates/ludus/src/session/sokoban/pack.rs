//! Sokoban map packs: a `.zip` or a folder holding levels (`levels.json` or
//! `.sok`/`.xsb` files), an optional `pack.json` and an optional `skin/` of
//! square PNG tiles. A pack is untrusted: every entry is checked (names,
//! links, counts, sizes counted while reading, images, levels) before
//! anything is written, and an install lands whole or not at all.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use sokoban::Collection;

use super::library::{LevelSet, Source, parse_text, slug, why_nothing_to_play};
use crate::store::DataDir;
use crate::store::limits::{MAX_LEVEL_FILE_BYTES, read_at_most, read_file};

/// A pack's `.zip` file itself.
pub const MAX_PACK_ZIP_BYTES: u64 = 32 << 20;
/// Entries (files and folders) in one pack.
pub const MAX_PACK_ENTRIES: usize = 256;
/// All of a pack's files together, uncompressed (counted while inflating).
pub const MAX_PACK_BYTES: u64 = 64 << 20;
/// One skin image.
pub const MAX_IMAGE_BYTES: u64 = 1 << 20;
/// The side of a skin image, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 512;
/// `pack.json`.
pub const MAX_META_BYTES: u64 = 64 << 10;
/// The path of one entry inside a pack.
pub const MAX_ENTRY_NAME_CHARS: usize = 200;
/// A pack's name (and its folder's).
pub const MAX_PACK_NAME_CHARS: usize = 64;

/// Where installed packs live, inside the levels folder.
pub const PACKS_FOLDER: &str = "packs";

/// A tile a skin may draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tile {
    Wall,
    Floor,
    Goal,
    Box,
    BoxOnGoal,
    PlayerLeft,
    PlayerUp,
    PlayerRight,
    PlayerDown,
    PlayerOnGoal,
}

impl Tile {
    pub const ALL: [Tile; 10] = [
        Tile::Wall,
        Tile::Floor,
        Tile::Goal,
        Tile::Box,
        Tile::BoxOnGoal,
        Tile::PlayerLeft,
        Tile::PlayerUp,
        Tile::PlayerRight,
        Tile::PlayerDown,
        Tile::PlayerOnGoal,
    ];

    /// The tile's file name in `skin/`, without `.png`.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Wall => "wall",
            Tile::Floor => "floor",
            Tile::Goal => "goal",
            Tile::Box => "box",
            Tile::BoxOnGoal => "box-on-goal",
            Tile::PlayerLeft => "player-left",
            Tile::PlayerUp => "player-up",
            Tile::PlayerRight => "player-right",
            Tile::PlayerDown => "player-down",
            Tile::PlayerOnGoal => "player-on-goal",
        }
    }

    pub fn from_name(name: &str) -> Option<Tile> {
        Tile::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Why a pack was refused: the entry at fault (when one is) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub entry: Option<String>,
    pub message: String,
}

impl Refused {
    fn at(entry: &str, message: impl Into<String>) -> Refused {
        Refused {
            entry: Some(entry.to_string()),
            message: message.into(),
        }
    }

    fn whole(message: impl Into<String>) -> Refused {
        Refused {
            entry: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(entry) => write!(f, "{entry}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Refused {}

/// `pack.json`: who made the pack and under which licence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, alias = "license", skip_serializing_if = "Option::is_none")]
    pub licence: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// A level file of a pack, kept as read (it is written back as it came).
#[derive(Clone, Debug)]
pub struct LevelFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One tile of `skin/terminal.json`: two characters and their colours (`#rrggbb`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerminalTile {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fg: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bg: Option<String>,
}

/// `skin/terminal.json`: tiles by name (the names of the image tiles).
pub type TerminalSkin = BTreeMap<String, TerminalTile>;

/// `#rrggbb` as red, green and blue.
pub fn rgb(text: &str) -> Option<[u8; 3]> {
    let hex = text
        .strip_prefix('#')
        .filter(|h| h.len() == 6 && h.is_ascii())?;
    let part = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([part(0)?, part(2)?, part(4)?])
}

/// The first character that may be wide in a terminal (Hangul Jamo on).
const FIRST_WIDE_CHAR: char = '\u{1100}';

/// Checks a terminal skin: known tiles, two narrow characters, `#rrggbb` colours.
fn check_terminal(skin: &TerminalSkin) -> Result<(), String> {
    for (name, tile) in skin {
        if Tile::from_name(name).is_none() {
            return Err(format!("`{name}` is not a tile"));
        }
        let chars: Vec<char> = tile.text.chars().collect();
        if chars.len() != 2
            || chars
                .iter()
                .any(|&c| c.is_control() || c >= FIRST_WIDE_CHAR)
        {
            return Err(format!(
                "`{name}`: the text is two characters below U+1100, not {:?}",
                tile.text
            ));
        }
        for colour in [&tile.fg, &tile.bg].into_iter().flatten() {
            if rgb(colour).is_none() {
                return Err(format!("`{name}`: {colour:?} is not a #rrggbb colour"));
            }
        }
    }
    Ok(())
}

/// A checked pack, in memory.
#[derive(Clone, Debug)]
pub struct Pack {
    /// Its name (from `pack.json`, else the file's), and the rest of `pack.json`.
    pub name: String,
    pub meta: PackMeta,
    /// The folder it installs under: the name made file-name safe.
    pub folder: String,
    pub level_files: Vec<LevelFile>,
    /// Every level of every level file, in file-name order (`levels.json` first).
    pub collection: Collection,
    /// Skin images, by tile: checked square PNGs.
    pub skin: Vec<(Tile, Vec<u8>)>,
    /// `skin/terminal.json`, checked.
    pub terminal: Option<TerminalSkin>,
}

/// What an entry of a pack is, by its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Meta,
    Levels,
    Image(Tile),
    Terminal,
    /// Anything else: left out (not read, not installed).
    Other,
}

impl Kind {
    fn of(path: &str) -> Kind {
        if path == "pack.json" {
            return Kind::Meta;
        }
        if path == "skin/terminal.json" {
            return Kind::Terminal;
        }
        if let Some(image) = path.strip_prefix("skin/")
            && let Some(tile) = image.strip_suffix(".png").and_then(Tile::from_name)
        {
            return Kind::Image(tile);
        }
        let is_level = !path.contains('/')
            && (path == "levels.json"
                || Path::new(path)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| {
                        e.eq_ignore_ascii_case("sok") || e.eq_ignore_ascii_case("xsb")
                    }));
        if is_level { Kind::Levels } else { Kind::Other }
    }

    fn limit(self) -> u64 {
        match self {
            Kind::Meta | Kind::Terminal => MAX_META_BYTES,
            Kind::Levels => MAX_LEVEL_FILE_BYTES,
            Kind::Image(_) => MAX_IMAGE_BYTES,
            Kind::Other => 0,
        }
    }
}

/// One file read from a pack.
struct Entry {
    path: String,
    kind: Kind,
    bytes: Vec<u8>,
}

/// Checks an entry's path: relative, no `..`, no backslash, bounded.
fn check_name(name: &str) -> Result<(), Refused> {
    let refuse = |why: &str| Err(Refused::at(name, why));
    if name.chars().count() > MAX_ENTRY_NAME_CHARS {
        return refuse(&format!(
            "the name is longer than {MAX_ENTRY_NAME_CHARS} characters"
        ));
    }
    if name.starts_with('/') || name.contains(':') {
        return refuse("an absolute path; a pack holds relative paths only");
    }
    if name.contains('\\') || name.contains('\0') || name.chars().any(char::is_control) {
        return refuse("the name holds a backslash or a control character");
    }
    for part in name.trim_end_matches('/').split('/') {
        if part == ".." {
            return refuse("the path climbs out of the pack (..)");
        }
        if part.is_empty() || part == "." {
            return refuse("not a plain path");
        }
    }
    Ok(())
}

/// The one folder every file sits in (`mypack/`), to be taken off, if any.
fn common_folder<'a>(names: impl Iterator<Item = &'a str> + Clone) -> Option<String> {
    let first = names.clone().next()?.split_once('/')?.0.to_string();
    let prefix = format!("{first}/");
    names
        .clone()
        .all(|n| n.starts_with(&prefix))
        .then_some(prefix)
}

/// Reads a pack from the bytes of a `.zip`; `file_name` names it when it
/// has no `pack.json` name.
///
/// # Errors
/// The pack is refused: see [`Refused`], naming the entry at fault.
pub fn read_zip(bytes: &[u8], file_name: &str) -> Result<Pack, Refused> {
    if bytes.len() as u64 > MAX_PACK_ZIP_BYTES {
        return Err(Refused::whole(format!(
            "the file is larger than the limit of {} MiB for a pack",
            MAX_PACK_ZIP_BYTES >> 20
        )));
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Refused::whole(format!("not a zip file ({e})")))?;
    if archive.len() > MAX_PACK_ENTRIES {
        return Err(Refused::whole(format!(
            "the pack holds {} entries; at most {MAX_PACK_ENTRIES} are read",
            archive.len()
        )));
    }
    let mut files = Vec::new();
    for i in 0..archive.len() {
        let file = archive
            .by_index_raw(i)
            .map_err(|e| Refused::whole(format!("entry {}: {e}", i + 1)))?;
        let name = String::from_utf8_lossy(file.name_raw()).into_owned();
        check_name(&name)?;
        if file.is_symlink() {
            return Err(Refused::at(&name, "a link; a pack holds plain files only"));
        }
        if file.encrypted() {
            return Err(Refused::at(&name, "encrypted"));
        }
        if !file.is_dir() {
            files.push((i, name, file.size()));
        }
    }
    let prefix = common_folder(files.iter().map(|(_, n, _)| n.as_str()));
    let mut entries = Vec::new();
    let mut total = 0u64;
    for (i, name, declared) in files {
        let path = match &prefix {
            Some(p) => name[p.len()..].to_string(),
            None => name.clone(),
        };
        let kind = Kind::of(&path);
        if kind == Kind::Other {
            continue;
        }
        let limit = kind.limit().min(MAX_PACK_BYTES - total);
        if declared > limit {
            return Err(too_large(&name, kind, total));
        }
        let file = archive
            .by_index(i)
            .map_err(|e| Refused::at(&name, format!("cannot be read ({e})")))?;
        // The declared size may lie: the bytes are counted as they inflate.
        let bytes = read_at_most(file, limit).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData if e.to_string().starts_with("larger") => {
                too_large(&name, kind, total)
            }
            _ => Refused::at(&name, format!("cannot be read ({e})")),
        })?;
        total += bytes.len() as u64;
        entries.push(Entry { path, kind, bytes });
    }
    let stem = Path::new(file_name)
        .file_stem()
        .map_or_else(|| "pack".to_string(), |s| s.to_string_lossy().into_owned());
    build(entries, &stem)
}

fn too_large(name: &str, kind: Kind, total: u64) -> Refused {
    if kind.limit() + total > MAX_PACK_BYTES {
        Refused::at(
            name,
            format!(
                "the pack inflates past the limit of {} MiB",
                MAX_PACK_BYTES >> 20
            ),
        )
    } else {
        Refused::at(
            name,
            format!("larger than the limit of {} bytes", kind.limit()),
        )
    }
}

/// Reads a pack from a folder (the root and its `skin/`); links are refused.
///
/// # Errors
/// The pack is refused: see [`Refused`], naming the entry at fault.
pub fn read_folder(dir: &Path) -> Result<Pack, Refused> {
    let mut entries = Vec::new();
    let mut count = 0usize;
    let mut total = 0u64;
    for sub in ["", "skin"] {
        let here = if sub.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(sub)
        };
        let Ok(listing) = fs::read_dir(&here) else {
            if sub.is_empty() {
                return Err(Refused::whole(format!("cannot read {}", dir.display())));
            }
            continue;
        };
        for item in listing {
            let item = item.map_err(|e| Refused::whole(format!("{}: {e}", here.display())))?;
            count += 1;
            if count > MAX_PACK_ENTRIES {
                return Err(Refused::whole(format!(
                    "the pack holds more than {MAX_PACK_ENTRIES} entries"
                )));
            }
            let file_name = item.file_name();
            let Some(file_name) = file_name.to_str() else {
                let shown = file_name.to_string_lossy().into_owned();
                return Err(Refused::at(&shown, "the name is not UTF-8"));
            };
            let path = if sub.is_empty() {
                file_name.to_string()
            } else {
                format!("{sub}/{file_name}")
            };
            check_name(&path)?;
            let meta =
                fs::symlink_metadata(item.path()).map_err(|e| Refused::at(&path, e.to_string()))?;
            if meta.file_type().is_symlink() {
                return Err(Refused::at(&path, "a link; a pack holds plain files only"));
            }
            let kind = Kind::of(&path);
            if !meta.is_file() || kind == Kind::Other {
                continue;
            }
            let limit = kind.limit().min(MAX_PACK_BYTES - total);
            let bytes =
                read_file(&item.path(), limit).map_err(|_| too_large(&path, kind, total))?;
            total += bytes.len() as u64;
            entries.push(Entry { path, kind, bytes });
        }
    }
    let stem = dir
        .file_name()
        .map_or_else(|| "pack".to_string(), |s| s.to_string_lossy().into_owned());
    build(entries, &stem)
}

/// Reads a pack from a `.zip` file or a folder.
///
/// # Errors
/// The file cannot be read, or the pack is refused.
pub fn read_path(path: &Path) -> Result<Pack> {
    let name = path.display();
    if path.is_dir() {
        return read_folder(path).with_context(|| format!("{name}: refused"));
    }
    let bytes =
        read_file(path, MAX_PACK_ZIP_BYTES).with_context(|| format!("cannot read {name}"))?;
    let file_name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    read_zip(&bytes, &file_name).with_context(|| format!("{name}: refused"))
}

/// A text of `pack.json` bounded and free of control characters.
fn check_text(field: &str, text: &Option<String>) -> Result<(), Refused> {
    match text {
        Some(t)
            if t.chars().count() > MAX_PACK_NAME_CHARS * 4 || t.chars().any(char::is_control) =>
        {
            Err(Refused::at(
                "pack.json",
                format!("`{field}` is too long or holds control characters"),
            ))
        }
        _ => Ok(()),
    }
}

/// Checks the entries read and puts the pack together.
fn build(entries: Vec<Entry>, fallback_name: &str) -> Result<Pack, Refused> {
    let mut meta = PackMeta::default();
    let mut level_files = Vec::new();
    let mut skin = Vec::new();
    let mut terminal = None;
    for entry in entries {
        match entry.kind {
            Kind::Meta => {
                meta = serde_json::from_slice(&entry.bytes)
                    .map_err(|e| Refused::at(&entry.path, e.to_string()))?;
            }
            Kind::Levels => level_files.push(LevelFile {
                path: entry.path,
                bytes: entry.bytes,
            }),
            Kind::Image(tile) => {
                check_png(&entry.bytes).map_err(|why| Refused::at(&entry.path, why))?;
                skin.push((tile, entry.bytes));
            }
            Kind::Terminal => {
                let tiles: TerminalSkin = serde_json::from_slice(&entry.bytes)
                    .map_err(|e| Refused::at(&entry.path, e.to_string()))?;
                check_terminal(&tiles).map_err(|why| Refused::at(&entry.path, why))?;
                terminal = Some(tiles);
            }
            Kind::Other => {}
        }
    }
    for (field, text) in [
        ("name", &meta.name),
        ("author", &meta.author),
        ("licence", &meta.licence),
        ("version", &meta.version),
    ] {
        check_text(field, text)?;
    }
    let name: String = meta
        .name
        .clone()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| fallback_name.to_string())
        .chars()
        .take(MAX_PACK_NAME_CHARS)
        .collect();
    let folder = folder_name(&name);
    level_files.sort_by(|a, b| {
        (a.path != "levels.json", &a.path).cmp(&(b.path != "levels.json", &b.path))
    });
    skin.sort_by_key(|(tile, _)| *tile);
    let mut collection = Collection {
        title: Some(name.clone()),
        author: meta.author.clone(),
        ..Collection::default()
    };
    for file in &level_files {
        let text = String::from_utf8_lossy(&file.bytes);
        let levels = parse_text(&text, Path::new(&file.path))
            .map_err(|e| Refused::at(&file.path, e.to_string()))?;
        if levels.levels.is_empty() || levels.levels.iter().any(Result::is_err) {
            return Err(Refused::at(&file.path, why_nothing_to_play(&levels)));
        }
        collection.levels.extend(levels.levels);
    }
    if collection.levels.is_empty() {
        return Err(Refused::whole(
            "no levels: a pack holds levels.json or .sok/.xsb files",
        ));
    }
    Ok(Pack {
        name,
        meta,
        folder,
        level_files,
        collection,
        skin,
        terminal,
    })
}

/// A pack's folder name: its name made file-name safe.
fn folder_name(name: &str) -> String {
    let folder: String = slug(name).chars().take(MAX_PACK_NAME_CHARS).collect();
    let folder = folder.trim_end_matches('-').to_string();
    if folder.is_empty() {
        "pack".into()
    } else {
        folder
    }
}

/// Checks that `bytes` are a PNG with a square size of at most
/// [`MAX_IMAGE_SIDE`] (magic bytes and the IHDR header; no decoding).
///
/// # Errors
/// What is wrong, in words.
pub fn check_png(bytes: &[u8]) -> Result<(), String> {
    const MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || !bytes.starts_with(MAGIC) || &bytes[12..16] != b"IHDR" {
        return Err("not a PNG image".into());
    }
    let side =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (width, height) = (side(16), side(20));
    if width != height {
        return Err(format!("{width} × {height} pixels; skin tiles are square"));
    }
    if width == 0 || width > MAX_IMAGE_SIDE {
        return Err(format!(
            "{width} pixels wide; skin tiles are 1 to {MAX_IMAGE_SIDE} pixels"
        ));
    }
    Ok(())
}

impl Pack {
    /// Every file of the pack as it is installed or exported.
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        let mut meta = self.meta.clone();
        meta.name = Some(self.name.clone());
        let meta = serde_json::to_vec_pretty(&meta).unwrap_or_default();
        let mut files = vec![("pack.json".to_string(), meta)];
        files.extend(
            self.level_files
                .iter()
                .map(|f| (f.path.clone(), f.bytes.clone())),
        );
        files.extend(
            self.skin
                .iter()
                .map(|(tile, bytes)| (format!("skin/{}.png", tile.name()), bytes.clone())),
        );
        if let Some(terminal) = &self.terminal {
            let bytes = serde_json::to_vec_pretty(terminal).unwrap_or_default();
            files.push(("skin/terminal.json".to_string(), bytes));
        }
        files
    }

    /// The pack as `.zip` bytes.
    ///
    /// # Errors
    /// The zip could not be written.
    pub fn to_zip(&self) -> Result<Vec<u8>> {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (path, bytes) in self.files() {
            writer.start_file(path, options)?;
            writer.write_all(&bytes)?;
        }
        Ok(writer.finish()?.into_inner())
    }

    /// The pack's levels as a collection to play, by the pack's author
    /// where its levels do not name one.
    pub fn level_set(&self) -> LevelSet {
        let mut collection = self.collection.clone();
        if collection.author.is_none() {
            collection.author = self.meta.author.clone();
        }
        LevelSet {
            name: self.name.clone(),
            source: Source::Pack {
                folder: self.folder.clone(),
            },
            collection,
            credit: self.meta.licence.clone(),
        }
    }
}

/// The terminal skin of `set`, when it is an installed pack with one.
pub fn terminal_skin(data: &DataDir, set: &LevelSet) -> Option<TerminalSkin> {
    let Source::Pack { folder } = &set.source else {
        return None;
    };
    read_folder(&packs_dir(data).join(folder)).ok()?.terminal
}

/// `sokoban/levels/packs/`.
pub fn packs_dir(data: &DataDir) -> PathBuf {
    data.sokoban_levels().join(PACKS_FOLDER)
}

/// Installs a checked pack as `packs/<folder>/`, replacing one of the same
/// folder: written whole into a temp folder beside it, then renamed.
///
/// # Errors
/// The folder could not be written; nothing is left half-installed.
pub fn install(data: &DataDir, pack: &Pack) -> Result<PathBuf> {
    let packs = packs_dir(data);
    fs::create_dir_all(&packs).with_context(|| format!("cannot create {}", packs.display()))?;
    let target = packs.join(&pack.folder);
    let temp = packs.join(format!(".tmp-{}-{}", pack.folder, std::process::id()));
    let _ = fs::remove_dir_all(&temp);
    let written = pack
        .files()
        .iter()
        .try_for_each(|(path, bytes)| crate::store::write_atomic(&temp.join(path), bytes));
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&temp);
        return Err(e);
    }
    let old = packs.join(format!(".old-{}-{}", pack.folder, std::process::id()));
    let had_old = target.exists();
    if had_old {
        fs::rename(&target, &old)
            .with_context(|| format!("cannot replace {}", target.display()))?;
    }
    if let Err(e) = fs::rename(&temp, &target) {
        let _ = fs::remove_dir_all(&temp);
        if had_old {
            let _ = fs::rename(&old, &target);
        }
        return Err(e).with_context(|| format!("cannot install {}", target.display()));
    }
    if had_old {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(target)
}

/// The installed packs, by folder name, each read again (and checked).
pub fn installed(data: &DataDir) -> Vec<(String, Result<Pack, Refused>)> {
    let Ok(listing) = fs::read_dir(packs_dir(data)) else {
        return Vec::new();
    };
    let mut folders: Vec<String> = listing
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    folders.sort();
    folders
        .into_iter()
        .map(|folder| {
            let mut pack = read_folder(&packs_dir(data).join(&folder));
            // Played and skinned under the folder it is found in.
            if let Ok(pack) = &mut pack {
                pack.folder.clone_from(&folder);
            }
            (folder, pack)
        })
        .collect()
}

/// The installed packs' collections, and the packs that could not be read.
pub fn level_sets(data: &DataDir) -> (Vec<LevelSet>, Vec<String>) {
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    for (folder, pack) in installed(data) {
        match pack {
            Ok(pack) => sets.push(pack.level_set()),
            Err(e) => problems.push(format!("pack {folder}: {e}")),
        }
    }
    (sets, problems)
}

/// Removes the installed pack named `name` (its name or its folder's) and
/// returns its name.
///
/// # Errors
/// No such pack, or it could not be removed.
pub fn remove(data: &DataDir, name: &str) -> Result<String> {
    let found = installed(data).into_iter().find(|(folder, pack)| {
        folder == name
            || pack
                .as_ref()
                .is_ok_and(|p| p.name.eq_ignore_ascii_case(name))
    });
    let Some((folder, pack)) = found else {
        anyhow::bail!("no pack named {name}; `ludus sokoban pack list` shows them");
    };
    let packs = packs_dir(data);
    let gone = packs.join(format!(".old-{folder}-{}", std::process::id()));
    fs::rename(packs.join(&folder), &gone)
        .with_context(|| format!("cannot remove pack {folder}"))?;
    fs::remove_dir_all(&gone).with_context(|| format!("cannot remove {}", gone.display()))?;
    Ok(pack.map_or(folder, |p| p.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const LEVEL: &str = "#####\n#@$.#\n#####\n";

    /// A PNG header of a `side` × `side` image (all the reader looks at).
    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        bytes.extend(width.to_be_bytes());
        bytes.extend(height.to_be_bytes());
        bytes.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
        bytes
    }

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in files {
            w.start_file(*name, options)
                .unwrap_or_else(|e| panic!("{e}"));
            w.write_all(bytes).unwrap_or_else(|e| panic!("{e}"));
        }
        w.finish().unwrap_or_else(|e| panic!("{e}")).into_inner()
    }

    #[test]
    fn a_zip_in_the_levels_folder_is_played_where_it_lies_and_a_bad_one_reported() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(dir.path());
        let levels = data
            .ensure_sokoban_levels()
            .unwrap_or_else(|e| panic!("{e}"));
        let meta = br#"{"name":"Loose","author":"Ann","license":"CC0"}"#;
        let good = zip_of(&[("pack.json", meta), ("a.sok", LEVEL.as_bytes())]);
        fs::write(levels.join("loose.zip"), good).unwrap_or_else(|e| panic!("{e}"));
        let evil = zip_of(&[("../a.sok", LEVEL.as_bytes())]);
        fs::write(levels.join("evil.zip"), evil).unwrap_or_else(|e| panic!("{e}"));
        let (sets, problems) = crate::session::sokoban::library::registry(&data, &[]);
        let loose = sets
            .iter()
            .find(|s| s.name == "Loose")
            .unwrap_or_else(|| panic!("the zip is not offered"));
        assert_eq!(loose.len(), 1);
        assert_eq!(loose.group(), "Map packs");
        assert_eq!(loose.credit.as_deref(), Some("CC0"));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("evil.zip") && problems[0].contains(".."),
            "{problems:?}"
        );
        // Nothing was installed by reading them.
        assert!(installed(&data).is_empty());
    }

    fn refusal(bytes: &[u8]) -> String {
        match read_zip(bytes, "test.zip") {
            Ok(_) => panic!("the pack was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_good_pack_is_read_with_its_skin_and_installed_whole() {
        let meta = br#"{"name":"My Pack","author":"Ann","license":"CC0","version":"1"}"#;
        let wall = png(16, 16);
        let bytes = zip_of(&[
            ("my/pack.json", meta),
            ("my/one.sok", LEVEL.as_bytes()),
            ("my/skin/wall.png", &wall),
            ("my/README.md", b"hello"),
        ]);
        let pack = read_zip(&bytes, "x.zip").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pack.name, "My Pack");
        assert_eq!(pack.folder, "my-pack");
        assert_eq!(pack.meta.licence.as_deref(), Some("CC0"));
        assert_eq!(pack.collection.levels.len(), 1);
        assert_eq!(pack.skin.len(), 1);

        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(tmp.path());
        let path = install(&data, &pack).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(path.join("skin/wall.png").is_file());
        assert!(!path.join("README.md").exists());
        let (sets, problems) = level_sets(&data);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].name, "My Pack");
        // Again through its own zip (the export) and its folder.
        let again = read_zip(&pack.to_zip().unwrap_or_else(|e| panic!("{e}")), "y.zip")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.name, "My Pack");
        assert_eq!(remove(&data, "my pack").ok().as_deref(), Some("My Pack"));
        assert!(installed(&data).is_empty());
    }

    #[test]
    fn bad_names_are_refused_naming_the_entry() {
        let level = LEVEL.as_bytes();
        let climb = refusal(&zip_of(&[("a.sok", level), ("../evil.sok", level)]));
        assert_eq!(climb, "../evil.sok: the path climbs out of the pack (..)");
        let absolute = refusal(&zip_of(&[("/etc/evil.sok", level)]));
        assert!(
            absolute.starts_with("/etc/evil.sok: an absolute path"),
            "{absolute}"
        );
    }

    #[test]
    fn links_are_refused() {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        w.start_file("a.sok", options)
            .unwrap_or_else(|e| panic!("{e}"));
        w.write_all(LEVEL.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        w.add_symlink("skin/wall.png", "/etc/passwd", options)
            .unwrap_or_else(|e| panic!("{e}"));
        let bytes = w.finish().unwrap_or_else(|e| panic!("{e}")).into_inner();
        assert_eq!(
            refusal(&bytes),
            "skin/wall.png: a link; a pack holds plain files only"
        );
        // A link in a folder pack too.
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        fs::write(tmp.path().join("a.sok"), LEVEL).unwrap_or_else(|e| panic!("{e}"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", tmp.path().join("b.sok"))
                .unwrap_or_else(|e| panic!("{e}"));
            let refused = read_folder(tmp.path()).err().map(|e| e.to_string());
            assert_eq!(
                refused.as_deref(),
                Some("b.sok: a link; a pack holds plain files only")
            );
        }
    }

    #[test]
    fn too_many_files_and_zip_bombs_are_refused() {
        let names: Vec<String> = (0..=MAX_PACK_ENTRIES).map(|i| format!("{i}.txt")).collect();
        let files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        assert!(refusal(&zip_of(&files)).contains("entries"));
        // 17 MiB of spaces deflate to a few kilobytes.
        let bomb = vec![b' '; (MAX_LEVEL_FILE_BYTES + (1 << 20)) as usize];
        let bytes = zip_of(&[("bomb.sok", &bomb)]);
        assert!(bytes.len() < 100_000);
        let refused = refusal(&bytes);
        assert!(
            refused.starts_with("bomb.sok: larger than the limit"),
            "{refused}"
        );
        // A header that lies about the size is caught while inflating.
        let mut lying = bytes.clone();
        let size = (bomb.len() as u32).to_le_bytes();
        let small = 100u32.to_le_bytes();
        for i in 0..lying.len().saturating_sub(4) {
            if lying[i..i + 4] == size {
                lying[i..i + 4].copy_from_slice(&small);
            }
        }
        let refused = refusal(&lying);
        assert!(refused.starts_with("bomb.sok:"), "{refused}");
    }

    #[test]
    fn fake_images_and_broken_levels_are_refused() {
        let level = LEVEL.as_bytes();
        let fake = refusal(&zip_of(&[
            ("a.sok", level),
            ("skin/box.png", b"GIF89a......................"),
        ]));
        assert_eq!(fake, "skin/box.png: not a PNG image");
        let wide = png(32, 16);
        let wide = refusal(&zip_of(&[("a.sok", level), ("skin/box.png", &wide)]));
        assert_eq!(wide, "skin/box.png: 32 × 16 pixels; skin tiles are square");
        let broken = refusal(&zip_of(&[
            ("a.sok", level),
            ("b.sok", b"#####\n#.$ #\n#####\n"),
        ]));
        assert_eq!(broken, "b.sok: level 1, line 1: the level has no player");
        let json = refusal(&zip_of(&[("levels.json", b"{ nope")]));
        assert!(json.starts_with("levels.json: "), "{json}");
        assert!(refusal(&zip_of(&[("notes.txt", b"hi")])).starts_with("no levels"));
        assert!(refusal(b"not a zip").starts_with("not a zip file"));
    }

    #[test]
    fn terminal_skins_are_checked() {
        let good =
            br###"{"wall":{"text":"##","fg":"#ff00ff","bg":"#000000"},"box":{"text":"()"}}"###;
        let pack = read_zip(
            &zip_of(&[("a.sok", LEVEL.as_bytes()), ("skin/terminal.json", good)]),
            "t.zip",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let terminal = pack.terminal.unwrap_or_default();
        assert_eq!(terminal["wall"].text, "##");
        assert_eq!(rgb("#ff00ff"), Some([255, 0, 255]));
        for (bad, why) in [
            (
                &br###"{"roof":{"text":"^^"}}"###[..],
                "`roof` is not a tile",
            ),
            (
                br####"{"wall":{"text":"###"}}"####,
                "`wall`: the text is two characters",
            ),
            (
                br###"{"wall":{"text":"##","fg":"pink"}}"###,
                "`wall`: \"pink\" is not a #rrggbb colour",
            ),
        ] {
            let refused = refusal(&zip_of(&[
                ("a.sok", LEVEL.as_bytes()),
                ("skin/terminal.json", bad),
            ]));
            assert!(
                refused.starts_with(&format!("skin/terminal.json: {why}")),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_refused_pack_leaves_nothing_behind() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let zip = tmp.path().join("bad.zip");
        fs::write(
            &zip,
            zip_of(&[("a.sok", LEVEL.as_bytes()), ("../b.sok", LEVEL.as_bytes())]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let data = DataDir::at(tmp.path().join("data"));
        assert!(read_path(&zip).is_err());
        assert!(!data.root().exists());
        assert!(installed(&data).is_empty());
    }
}
