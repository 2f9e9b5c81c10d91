//! Reading a CCCMO checkout: the asset templates of each platform folder of `pkg/cloud/`, and a
//! digest of every Go file there (tests left out), which tells the release the checkout is and
//! which Go files a person must carry into ccm-render by hand.

use super::platforms::{self, Platform};
use crate::catalogue::Releases;
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::releases::Release;
use std::collections::BTreeMap;

/// The largest file read from a checkout; CCCMO's largest Go file is some 30 KiB.
const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Folder levels read below `pkg/cloud/` (`vsphere/vsphere_cloud_config/x.go` is two).
const MAX_DEPTH: usize = 4;

/// One platform folder's asset templates.
#[derive(Debug, Clone)]
pub(crate) struct PlatformFolder {
    /// What CCCMO's Go code says about it.
    pub(crate) platform: &'static Platform,
    /// File name under `assets/` → text.
    pub(crate) assets: BTreeMap<String, String>,
}

/// A CCCMO checkout, read.
#[derive(Debug, Clone)]
pub(crate) struct Checkout {
    /// The folder given (`--cccmo-dir`), as given.
    pub(crate) root: Utf8PathBuf,
    /// Platform folder name → its assets.
    pub(crate) platforms: BTreeMap<String, PlatformFolder>,
    /// Every Go file of `pkg/cloud/` but tests (`pkg/cloud/aws/aws.go`) → its [`digest`].
    pub(crate) go_files: BTreeMap<String, String>,
}

/// A Go file's digest as the release files record it: FNV-1a, 64 bits, in hex. It detects
/// change, not tampering: the binary does no cryptography, and the files compared are the
/// user's own checkout.
pub(crate) fn digest(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}

/// Go's own rule: a `.go` file (the extension is lower case for the go tool) that is not a
/// test.
fn is_go_source(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == "go")
        && !name.ends_with("_test.go")
}

fn read_text(path: &Utf8Path) -> Result<String> {
    let meta = std::fs::metadata(path).with_context(|| format!("{path}: cannot read"))?;
    if meta.len() > MAX_FILE_BYTES {
        bail!("{path}: larger than {MAX_FILE_BYTES} bytes");
    }
    let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{path}: not UTF-8 text"))
}

/// One entry of a folder.
struct DirEntry {
    name: String,
    path: Utf8PathBuf,
    is_dir: bool,
}

/// The entries of `dir`, sorted by name.
fn entries(dir: &Utf8Path) -> Result<Vec<DirEntry>> {
    let mut out = Vec::new();
    for entry in dir
        .read_dir_utf8()
        .with_context(|| format!("{dir}: cannot read folder"))?
    {
        let entry = entry.with_context(|| format!("{dir}: cannot read folder"))?;
        let path = entry.path().to_path_buf();
        let is_dir = std::fs::metadata(&path)
            .with_context(|| format!("{path}: cannot read"))?
            .is_dir();
        out.push(DirEntry {
            name: entry.file_name().to_string(),
            path,
            is_dir,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

impl Checkout {
    /// Reads `dir`, a checkout of CCCMO (the folder that holds `pkg/cloud/`).
    pub(crate) fn read(dir: &Utf8Path) -> Result<Self> {
        let cloud = dir.join("pkg/cloud");
        if !cloud.is_dir() {
            bail!(
                "--cccmo-dir {dir}: not a checkout of cluster-cloud-controller-manager-operator (no folder pkg/cloud)"
            );
        }
        let mut checkout = Self {
            root: dir.to_path_buf(),
            platforms: BTreeMap::new(),
            go_files: BTreeMap::new(),
        };
        for DirEntry { name, path, is_dir } in entries(&cloud)? {
            if !is_dir {
                if is_go_source(&name) {
                    checkout.add_go(&format!("pkg/cloud/{name}"), &path)?;
                }
                continue;
            }
            if name == "testdata" {
                continue;
            }
            let platform = platforms::by_folder(&name);
            // A folder without assets is Go code shared by platforms (`common`, or one CCCMO
            // adds): its files count as Go files, which import lists when they are new.
            if platform.is_none() && !path.join("assets").exists() {
                checkout.read_go(&format!("pkg/cloud/{name}"), &path, 1)?;
                continue;
            }
            let Some(platform) = platform else {
                let known: Vec<&str> = platforms::PLATFORMS.iter().map(|p| p.folder).collect();
                bail!(
                    "{path}: a platform folder of no built-in provider (ccm-render knows {}); ccm-render does not yet know how CCCMO applies it",
                    known.join(", ")
                );
            };
            checkout.read_platform(&name, &path, platform)?;
        }
        for platform in platforms::PLATFORMS {
            if !checkout.platforms.contains_key(platform.folder) {
                bail!(
                    "{}: missing (provider {}): the checkout must hold every platform CCCMO has",
                    cloud.join(platform.folder),
                    platform.provider
                );
            }
        }
        Ok(checkout)
    }

    /// Reads `pkg/cloud/<name>` (at `path`), the folder of `platform`: its templates, and its
    /// Go files.
    fn read_platform(
        &mut self,
        name: &str,
        path: &Utf8Path,
        platform: &'static Platform,
    ) -> Result<()> {
        let mut assets = BTreeMap::new();
        for DirEntry {
            name: entry,
            path: entry_path,
            is_dir: entry_is_dir,
        } in entries(path)?
        {
            let rel = format!("pkg/cloud/{name}/{entry}");
            if entry == "assets" && entry_is_dir {
                assets = read_assets(&entry_path, platform)?;
            } else if entry_is_dir {
                if entry != "testdata" {
                    self.read_go(&rel, &entry_path, 2)?;
                }
            } else if is_go_source(&entry) {
                self.add_go(&rel, &entry_path)?;
            }
        }
        if assets.is_empty() {
            bail!(
                "{path}/assets: holds no template (provider {}); a checkout without them cannot render it",
                platform.provider
            );
        }
        self.platforms
            .insert(name.to_string(), PlatformFolder { platform, assets });
        Ok(())
    }

    fn add_go(&mut self, rel: &str, path: &Utf8Path) -> Result<()> {
        let text = read_text(path)?;
        self.go_files
            .insert(rel.to_string(), digest(text.as_bytes()));
        Ok(())
    }

    fn read_go(&mut self, rel: &str, dir: &Utf8Path, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            bail!("{dir}: deeper than {MAX_DEPTH} folders below pkg/cloud");
        }
        for DirEntry { name, path, is_dir } in entries(dir)? {
            if is_dir {
                if name != "testdata" {
                    self.read_go(&format!("{rel}/{name}"), &path, depth + 1)?;
                }
            } else if is_go_source(&name) {
                self.add_go(&format!("{rel}/{name}"), &path)?;
            }
        }
        Ok(())
    }

    /// `rel` (relative to the checkout) as messages name it.
    pub(crate) fn display(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root.as_str().trim_end_matches('/'))
    }

    /// The newest release whose recorded Go files are exactly the checkout's.
    pub(crate) fn release_of_go_files<'a>(
        &self,
        releases: &'a Releases,
    ) -> Result<Option<&'a Release>> {
        for release in releases.all() {
            let recorded = releases.go_files(release)?;
            if !recorded.is_empty() && recorded == self.go_files {
                return Ok(Some(release));
            }
        }
        Ok(None)
    }

    /// The Go files that differ from `recorded` (a release's), each with how
    /// (`pkg/cloud/aws/aws.go (changed)`), in path order.
    pub(crate) fn go_changes(&self, recorded: &BTreeMap<String, String>) -> Vec<String> {
        let mut paths: Vec<&String> = recorded.keys().chain(self.go_files.keys()).collect();
        paths.sort();
        paths.dedup();
        paths
            .into_iter()
            .filter_map(|path| match (recorded.get(path), self.go_files.get(path)) {
                (Some(a), Some(b)) if a == b => None,
                (Some(_), Some(_)) => Some(format!("{path} (changed)")),
                (None, _) => Some(format!("{path} (new)")),
                (_, None) => Some(format!("{path} (removed)")),
            })
            .collect()
    }
}

/// The templates of `platform` in its `assets` folder (at `dir`): file name → text. Only the
/// files ccm-render knows how CCCMO applies.
fn read_assets(dir: &Utf8Path, platform: &Platform) -> Result<BTreeMap<String, String>> {
    let mut assets = BTreeMap::new();
    for DirEntry {
        name: file,
        path: file_path,
        is_dir: file_is_dir,
    } in entries(dir)?
    {
        if file_is_dir {
            bail!(
                "{file_path}: a folder in the assets of provider {} (CCCMO embeds assets/*); ccm-render does not yet know how CCCMO applies it",
                platform.provider
            );
        }
        if !platform.assets.iter().any(|a| a.file == file) {
            bail!(
                "{file_path}:1: an asset of provider {} that ccm-render does not yet know how CCCMO applies (which kind {}.go decodes it into, if it applies it at all); it knows {}",
                platform.provider,
                platform.folder,
                platform
                    .assets
                    .iter()
                    .map(|a| a.file)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        assets.insert(file, read_text(&file_path)?);
    }
    Ok(assets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_fnv1a_64() {
        // The FNV-1a test vectors of its authors (offset basis for "", then "a" and "foobar").
        assert_eq!(digest(b""), "fnv1a64:cbf29ce484222325");
        assert_eq!(digest(b"a"), "fnv1a64:af63dc4c8601ec8c");
        assert_eq!(digest(b"foobar"), "fnv1a64:85944171f73967e8");
    }

    #[test]
    fn tests_and_test_data_are_not_go_sources() {
        assert!(is_go_source("aws.go"));
        assert!(!is_go_source("aws_test.go"));
        assert!(!is_go_source("OWNERS"));
    }
}
