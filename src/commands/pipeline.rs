//! The steps every command that renders shares: the catalogue of one run (built-in plus
//! `--provider-dir`), and inputs to rendered objects in memory.

use crate::catalogue::{Catalogue, NoCcm, Selection};
use crate::config::{ClusterConfig, InputFiles};
use crate::render::Rendered;
use anyhow::{Context as _, Result};
use camino::Utf8Path;
use ccm_catalogue::providers::Provider;
use ccm_catalogue::releases::Release;

/// Reads the inputs and renders them in memory, with no output I/O. `catalogue` is the newest
/// release's; it is taken to the release the inputs select.
pub fn render_in_memory(files: &InputFiles, catalogue: &Catalogue) -> Result<Rendered> {
    let cfg = ClusterConfig::load(files)?;
    let releases = crate::catalogue::Releases::builtin()?;
    let catalogue = releases.catalogue(cfg.release, catalogue.clone())?;
    render_config(&cfg, &catalogue)
}

/// The warning a render of `release` gives while its file lists CCCMO Go files no one has
/// reviewed (`spec.cccmo.goFilesToReview`, which `provider import` writes): what they change
/// in CCCMO's output, ccm-render does not render.
pub(crate) fn go_files_to_review(release: &Release) -> Option<String> {
    (!release.go_files_to_review.is_empty()).then(|| {
        format!(
            "warning: OpenShift {}: CCCMO {} {} changed Go files that ccm-render has not been told about ({}); what they change is not in this render until assets/releases/{}.yaml spec.cccmo.goFilesToReview no longer lists them",
            release.name,
            release.cccmo.branch,
            release.cccmo.commit,
            release.go_files_to_review.join(", "),
            release.name
        )
    })
}

/// The catalogue a render of `cfg` uses: the built-in providers as of its release (only its
/// platform's, unless `--provider-dir` adds others), plus those of `provider_dir`.
pub(crate) fn catalogue_for(
    cfg: &ClusterConfig,
    provider_dir: Option<&Utf8Path>,
) -> Result<Catalogue> {
    let releases = crate::catalogue::Releases::builtin()?;
    match provider_dir {
        // Only the provider of this platform: parsing the others was most of a render's cost.
        None => releases.builtin_for(cfg.release, &cfg.infrastructure),
        Some(dir) => {
            let builtin = releases.catalogue(cfg.release, Catalogue::builtin()?)?;
            add_provider_dir(builtin, dir)
        }
    }
}

/// Renders inputs already read: the pure part of a render (no I/O), picking the provider for
/// the Infrastructure's platform from `catalogue`.
pub fn render_config(cfg: &ClusterConfig, catalogue: &Catalogue) -> Result<Rendered> {
    match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) => {
            check_renders_for(provider, &cfg.release.name)?;
            crate::render::render(cfg, provider, &catalogue.common)
        }
        // The inputs' own warnings (an install-config's notes among them) come first, as in
        // a render: they often say why there is no CCM.
        Selection::NoCcm(reason) => Ok(Rendered {
            warnings: cfg
                .warnings
                .iter()
                .cloned()
                .chain([format!("{reason}{}; rendering nothing", hint(&reason))])
                .collect(),
            ..Rendered::default()
        }),
    }
}

/// Refuses a render of `provider` for OpenShift `release` when its `spec.releases` does not
/// name it.
fn check_renders_for(provider: &Provider, release: &str) -> Result<()> {
    if provider.renders_for(release) {
        return Ok(());
    }
    anyhow::bail!(
        "{}/provider.yaml: spec.releases: the provider {} renders for {}, not for OpenShift {release} (--release, or the release of the --images ImageStream)",
        provider.origin,
        provider.name(),
        provider
            .spec()
            .releases
            .as_deref()
            .unwrap_or_default()
            .join(", "),
    )
}

/// What the user can do about `reason`, worded with the command line.
fn hint(reason: &NoCcm) -> &'static str {
    match reason {
        NoCcm::UnservedExternal { .. } => {
            "; write one (ccm-render provider new) and pass its folder with --provider-dir"
        }
        NoCcm::Platform(_) | NoCcm::NotExpected(_) => "",
    }
}

/// [`render_config`] for a catalogue the caller no longer needs: the chosen provider is moved
/// into the render rather than copied (when the release check of [`render_config`] passes).
pub(crate) fn render_config_owned(
    cfg: &ClusterConfig,
    mut catalogue: Catalogue,
) -> Result<Rendered> {
    let chosen = match catalogue.select_for(&cfg.infrastructure) {
        Selection::Provider(provider) if provider.renders_for(&cfg.release.name) => {
            provider.name().to_string()
        }
        _ => return render_config(cfg, &catalogue),
    };
    match catalogue.providers.remove(&chosen) {
        Some(provider) => crate::render::render_owned(cfg, provider, &catalogue.common),
        None => render_config(cfg, &catalogue),
    }
}

/// The built-in providers plus those of `--provider-dir` (read here, at the edge; parsed and
/// checked by [`ccm_catalogue::providers::parse`] like the built-in ones). Overrides are said on stderr.
pub(crate) fn load_catalogue(provider_dir: Option<&Utf8Path>) -> Result<Catalogue> {
    let catalogue = Catalogue::builtin()?;
    match provider_dir {
        Some(dir) => add_provider_dir(catalogue, dir),
        None => Ok(catalogue),
    }
}

pub(crate) fn add_provider_dir(mut catalogue: Catalogue, dir: &Utf8Path) -> Result<Catalogue> {
    let added = read_providers(dir).context("--provider-dir")?;
    for note in catalogue.add(added)? {
        eprintln!("note: {note}");
    }
    Ok(catalogue)
}

/// Every provider folder under `dir` (or `dir` itself when it holds provider.yaml), parsed.
pub(crate) fn read_providers(dir: &Utf8Path) -> Result<Vec<ccm_catalogue::providers::Provider>> {
    let folders = if ccm_catalogue::provider_dir::is_provider_folder(dir) {
        vec![ccm_catalogue::provider_dir::read_folder(dir)?]
    } else {
        ccm_catalogue::provider_dir::read_folders(dir)?
    };
    let releases = crate::catalogue::Releases::builtin()?;
    folders
        .iter()
        .map(|folder| {
            let provider = ccm_catalogue::providers::parse(folder)?;
            // The releases it declares must exist (the built-ins' are checked at build time).
            releases.check_declared(&provider)?;
            Ok(provider)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The newest release file of the repository with `goFilesToReview` as `provider import`
    /// writes it, parsed as build.rs parses it.
    fn newest_with_review(review: &str) -> Release {
        let text = include_str!("../../assets/releases/4.23.yaml").replace(
            "  # release-5.0 and release-5.1",
            &format!("{review}  # release-5.0 and release-5.1"),
        );
        let files = [("assets/releases/4.23.yaml".to_string(), text.as_str())];
        let mut list = ccm_catalogue::releases::data::parse_releases(&files).expect("parses");
        list.remove(0).0
    }

    #[test]
    fn a_release_with_go_files_to_review_says_which_on_every_render() {
        let release = newest_with_review(
            "    goFilesToReview:\n    - pkg/cloud/aws/aws.go (changed)\n    - pkg/cloud/new.go (new)\n",
        );
        assert_eq!(
            go_files_to_review(&release).as_deref(),
            Some(
                "warning: OpenShift 4.23: CCCMO release-4.23 bc52198c changed Go files that ccm-render has not been told about (pkg/cloud/aws/aws.go (changed), pkg/cloud/new.go (new)); what they change is not in this render until assets/releases/4.23.yaml spec.cccmo.goFilesToReview no longer lists them"
            )
        );
        assert_eq!(go_files_to_review(&newest_with_review("")), None);
    }
}
