//! The catalogue under `assets/` as `provider import` reads it (parsed and resolved as build.rs
//! compiles it), what each release renders from, and the check that an import changes only
//! what it means to: its files are laid into a copy of `assets/`, read back through the same
//! code, and every release compared with what it should be before anything is written.

use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::compiled;
use ccm_catalogue::provider_dir::{FolderText, read_folder, read_folders};
use ccm_catalogue::providers::{Common, Provider};
use ccm_catalogue::releases::Behaviour;
use ccm_catalogue::releases::data::{self, Release};
use serde_json::Value;
use std::collections::BTreeMap;

/// The catalogue under `assets`, read and resolved as build.rs compiles it.
pub(crate) struct Assets {
    /// The newest release's providers (`assets/<provider>/`).
    pub(crate) providers: Vec<Provider>,
    /// The newest release's shared objects.
    pub(crate) common: Common,
    /// The release files.
    pub(crate) releases_folder: FolderText,
    /// Every release resolved.
    pub(crate) resolved: data::Resolved,
}

/// What one release renders from: its providers, shared objects and behaviour.
#[derive(Debug, Clone)]
pub(crate) struct ReleaseState {
    /// The release (`X.Y`) and what its file says.
    pub(crate) entry: Release,
    /// Its providers, by name.
    pub(crate) providers: BTreeMap<String, Provider>,
    /// Its shared objects.
    pub(crate) common: Common,
}

/// Provider name → its manifests.
pub(crate) type Manifests = BTreeMap<String, Vec<Value>>;

impl ReleaseState {
    /// Its providers' manifests.
    pub(crate) fn manifests(&self) -> Manifests {
        self.providers
            .iter()
            .map(|(name, p)| (name.clone(), p.manifests.clone()))
            .collect()
    }

    /// Its behaviour.
    pub(crate) fn behaviour(&self) -> &Behaviour {
        &self.entry.behaviour
    }
}

/// Reads the catalogue under `assets`.
pub(crate) fn read(assets: &Utf8Path) -> Result<Assets> {
    if !assets.join(compiled::RELEASES).is_dir() {
        bail!(
            "--assets {assets}: not ccm-render's assets folder (no {} folder); run at the root of ccm-render's repository or give --assets PATH",
            compiled::RELEASES
        );
    }
    let mut providers = Vec::new();
    let mut common = None;
    for folder in read_folders(assets)? {
        match folder.name() {
            compiled::COMMON => common = Some(ccm_catalogue::providers::parse_common(&folder)?),
            compiled::RELEASES | ccm_catalogue::hosted::HOSTED => {}
            _ => providers.push(ccm_catalogue::providers::parse(&folder)?),
        }
    }
    let common = common.ok_or_else(|| anyhow!("{assets}/{}: is missing", compiled::COMMON))?;
    let releases_folder = read_folder(&assets.join(compiled::RELEASES))?;
    let resolved = data::resolve(&releases_folder, &providers, &common)?;
    Ok(Assets {
        providers,
        common,
        releases_folder,
        resolved,
    })
}

impl Assets {
    /// Every release, newest first, as it renders.
    pub(crate) fn releases(&self) -> Vec<ReleaseState> {
        let newest: BTreeMap<String, Provider> = self
            .providers
            .iter()
            .map(|p| (p.name().to_string(), p.clone()))
            .collect();
        self.resolved
            .releases
            .iter()
            .map(|entry| {
                let mut providers = newest.clone();
                for (release, provider) in &self.resolved.providers {
                    if *release == entry.name {
                        providers.insert(provider.name().to_string(), provider.clone());
                    }
                }
                let common = self
                    .resolved
                    .common
                    .iter()
                    .find(|(release, _)| *release == entry.name)
                    .map_or_else(|| self.common.clone(), |(_, c)| c.clone());
                ReleaseState {
                    entry: entry.clone(),
                    providers,
                    common,
                }
            })
            .collect()
    }

    /// The text of each release file, by release.
    pub(crate) fn release_texts(&self) -> BTreeMap<String, String> {
        self.resolved
            .releases
            .iter()
            .filter_map(|r| {
                let file = format!("{}.yaml", r.name);
                self.releases_folder
                    .files
                    .iter()
                    .find(|(path, _)| **path == file)
                    .map(|(_, text)| (r.name.clone(), text.clone()))
            })
            .collect()
    }
}

/// Files to write (path under `assets/` → text) and to remove.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Written, new or changed.
    pub(crate) writes: BTreeMap<Utf8PathBuf, String>,
    /// Removed.
    pub(crate) removes: Vec<Utf8PathBuf>,
}

/// Equal, key order included (the rendered YAML keeps the order).
pub(crate) fn same<T: serde::Serialize>(a: &T, b: &T) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// The catalogue `plan` makes of `assets`, read from a copy; its messages name `assets`.
pub(crate) fn staged(assets: &Utf8Path, plan: &Plan) -> Result<Assets> {
    let dir = tempfile::tempdir().context("creating a temporary folder for the import")?;
    let root = Utf8Path::from_path(dir.path())
        .ok_or_else(|| anyhow!("the temporary folder has a name that is not UTF-8"))?
        .join("assets");
    copy_tree(assets, &root)?;
    for path in &plan.removes {
        std::fs::remove_file(root.join(path))
            .with_context(|| format!("{}: cannot remove", root.join(path)))?;
    }
    for (path, text) in &plan.writes {
        std::fs::write(root.join(path), text)
            .with_context(|| format!("{}: cannot write", root.join(path)))?;
    }
    // Each message of the chain names the copy; the chain is rebuilt naming `assets` instead.
    read(&root).map_err(|e| {
        let mut messages: Vec<String> = e
            .chain()
            .map(|cause| cause.to_string().replace(root.as_str(), assets.as_str()))
            .collect();
        let innermost = anyhow::Error::msg(messages.pop().unwrap_or_default());
        messages
            .into_iter()
            .rev()
            .fold(innermost, anyhow::Error::context)
    })
}

fn copy_tree(from: &Utf8Path, to: &Utf8Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("{to}: cannot make"))?;
    for entry in from
        .read_dir_utf8()
        .with_context(|| format!("{from}: cannot read folder"))?
    {
        let entry = entry.with_context(|| format!("{from}: cannot read folder"))?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("{}: cannot read", entry.path()))?;
        }
    }
    Ok(())
}

/// What every release of the catalogue after an import must render from: `manifests[i]` for
/// release `names[i]`, the rest as `before[from[i]]` (the release it was, or for a new release
/// the one it follows).
pub(crate) struct Expected<'a> {
    /// The releases, newest first.
    pub(crate) names: Vec<String>,
    /// Each release's manifests.
    pub(crate) manifests: &'a [Manifests],
    /// Each release's index in `before`.
    pub(crate) from: Vec<usize>,
    /// The releases before the import.
    pub(crate) before: &'a [ReleaseState],
}

/// Checks that `after` renders every release as `expected` says: the imported release's
/// manifests changed, nothing else.
pub(crate) fn check(after: &Assets, expected: &Expected, assets: &Utf8Path) -> Result<()> {
    let states = after.releases();
    let names: Vec<&str> = states.iter().map(|s| s.entry.name.as_str()).collect();
    if names != expected.names {
        bail!(
            "{assets}/{}: the import would leave the releases {} (a ccm-render bug); nothing written",
            compiled::RELEASES,
            names.join(", ")
        );
    }
    for (i, state) in states.iter().enumerate() {
        let was = &expected.before[expected.from[i]];
        let at = format!("{assets}/{}/{}.yaml", compiled::RELEASES, state.entry.name);
        let differs = |what: &str| {
            anyhow!(
                "{at}: the import would change {what} of release {} (a ccm-render bug); nothing written",
                state.entry.name
            )
        };
        if state.behaviour() != was.behaviour() {
            return Err(differs("the behaviour"));
        }
        if !same(&state.common, &was.common) {
            return Err(differs("the shared objects"));
        }
        for (name, provider) in &state.providers {
            let old = was.providers.get(name);
            if old.is_none_or(|old| {
                !same(&old.descriptor, &provider.descriptor)
                    || !same(&old.bootstrap, &provider.bootstrap)
            }) {
                return Err(differs(&format!(
                    "provider {name}'s descriptor or bootstrap pod"
                )));
            }
            if expected.manifests[i]
                .get(name)
                .is_none_or(|m| !same(m, &provider.manifests))
            {
                return Err(differs(&format!("provider {name}'s manifests")));
            }
        }
    }
    Ok(())
}
