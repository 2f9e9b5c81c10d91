//! The sample inputs `ccm-render matrix` renders every provider from: for each built-in
//! provider, the conformance inputs of its platform (`testdata/conformance/`, the inputs whose
//! CCCMO output the render is checked against; `testdata/external/` for the External
//! providers), and the variant inputs every provider shares (`testdata/variants/`). They are
//! built into the binary, so a matrix needs no file but the providers under review.
//!
//! `--inputs DIR` gives a provider's inputs of one's own: any file of [`FILES`] found in
//! `DIR/<provider>/` is used instead of the built-in sample; the path then appears in messages
//! as given.

use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::collections::BTreeMap;

/// The input files of a provider's samples, by the name `--inputs DIR/<provider>/` uses.
pub(crate) const FILES: [&str; 8] = [
    INFRASTRUCTURE,
    INFRASTRUCTURE_SNO,
    CLOUD_CONFIG,
    IMAGES,
    NETWORK,
    PROXY,
    APISERVER_MODERN,
    FEATUREGATE_TECHPREVIEW,
];

/// The Infrastructure of a highly available control plane.
pub(crate) const INFRASTRUCTURE: &str = "infrastructure.yaml";
/// The same Infrastructure with `controlPlaneTopology: SingleReplica`.
pub(crate) const INFRASTRUCTURE_SNO: &str = "infrastructure-sno.yaml";
/// The `cloud-provider-config` ConfigMap (or the CCM's own config for External providers).
pub(crate) const CLOUD_CONFIG: &str = "cloud-provider-config.yaml";
/// images.json.
pub(crate) const IMAGES: &str = "images.json";
/// The Network object.
pub(crate) const NETWORK: &str = "network.yaml";
/// A Proxy with a status (the proxy variant).
pub(crate) const PROXY: &str = "proxy.yaml";
/// An APIServer with the Modern TLS profile, honoured by every component (the Modern variant).
pub(crate) const APISERVER_MODERN: &str = "apiserver-modern.yaml";
/// A FeatureGate with the TechPreviewNoUpgrade feature set.
pub(crate) const FEATUREGATE_TECHPREVIEW: &str = "featuregate-techpreview.yaml";

/// The conformance inputs of a CCCMO platform, from `testdata/conformance/<provider>/`.
macro_rules! conformance {
    ($provider:literal) => {
        (
            $provider,
            &[
                (
                    INFRASTRUCTURE,
                    include_str!(concat!(
                        "../../../testdata/conformance/",
                        $provider,
                        "/infrastructure.yaml"
                    )),
                ),
                (
                    INFRASTRUCTURE_SNO,
                    include_str!(concat!(
                        "../../../testdata/conformance/",
                        $provider,
                        "/infrastructure-sno.yaml"
                    )),
                ),
                (
                    CLOUD_CONFIG,
                    include_str!(concat!(
                        "../../../testdata/conformance/",
                        $provider,
                        "/cloud-provider-config.yaml"
                    )),
                ),
            ],
        )
    };
}

/// Each built-in provider's own samples: (provider, [(file, text)]).
const PROVIDERS: &[(&str, &[(&str, &str)])] = &[
    (
        "alicloud",
        &[
            (
                INFRASTRUCTURE,
                include_str!("../../../testdata/external/infrastructure-alibaba.yaml"),
            ),
            (
                INFRASTRUCTURE_SNO,
                include_str!("../../../testdata/external/infrastructure-alibaba-sno.yaml"),
            ),
            (
                CLOUD_CONFIG,
                include_str!("../../../testdata/external/alibaba-cloud-provider-config.yaml"),
            ),
            (
                IMAGES,
                include_str!("../../../testdata/external/images.json"),
            ),
        ],
    ),
    conformance!("aws"),
    conformance!("azure"),
    conformance!("azurestackhub"),
    (
        "digitalocean",
        &[
            (
                INFRASTRUCTURE,
                include_str!("../../../testdata/external/infrastructure-digitalocean.yaml"),
            ),
            (
                INFRASTRUCTURE_SNO,
                include_str!("../../../testdata/external/infrastructure-digitalocean-sno.yaml"),
            ),
            // No cloud config: the DigitalOcean CCM takes its token from the environment; its
            // image is the vendor's default (no images.json key).
            (
                IMAGES,
                include_str!("../../../testdata/external/images.json"),
            ),
        ],
    ),
    conformance!("gcp"),
    conformance!("ibmcloud"),
    conformance!("nutanix"),
    (
        "oci",
        &[
            (
                INFRASTRUCTURE,
                include_str!("../../../testdata/external/infrastructure-oci.yaml"),
            ),
            (
                INFRASTRUCTURE_SNO,
                include_str!("../../../testdata/external/infrastructure-oci-sno.yaml"),
            ),
            (
                CLOUD_CONFIG,
                include_str!("../../../testdata/external/oci-cloud-provider.yaml"),
            ),
            (
                IMAGES,
                include_str!("../../../testdata/external/images.json"),
            ),
        ],
    ),
    conformance!("openstack"),
    conformance!("powervs"),
    conformance!("vsphere"),
];

/// The samples every provider shares, unless its own samples hold the file.
const SHARED: &[(&str, &str)] = &[
    (
        IMAGES,
        include_str!("../../../testdata/conformance/images.json"),
    ),
    (
        NETWORK,
        include_str!("../../../testdata/conformance/network.yaml"),
    ),
    (PROXY, include_str!("../../../testdata/variants/proxy.yaml")),
    (
        APISERVER_MODERN,
        include_str!("../../../testdata/variants/apiserver-modern-strict.yaml"),
    ),
    (
        FEATUREGATE_TECHPREVIEW,
        include_str!("../../../testdata/variants/featuregate-techpreview.yaml"),
    ),
];

/// The built-in sample `file` of `provider`, if there is one. Only a provider with samples of
/// its own gets the shared images.json (the CCCMO platforms' keys, which would not name a new
/// provider's image); the shared variant files (Network, Proxy, APIServer, FeatureGate) are
/// every provider's.
fn built_in(provider: &str, file: &str) -> Option<&'static str> {
    let own = PROVIDERS.iter().find(|(name, _)| *name == provider);
    if let Some((_, text)) = own.and_then(|(_, files)| files.iter().find(|(f, _)| *f == file)) {
        return Some(text);
    }
    if file == IMAGES && own.is_none() {
        return None;
    }
    SHARED
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, text)| *text)
}

/// The input files of one provider, by [`FILES`] name: `--inputs DIR/<provider>/FILE` when it
/// exists, else the built-in sample, written under `scratch/<provider>/` (a temporary folder of
/// the caller's). A file with neither is absent; an Infrastructure is required.
pub(crate) fn files(
    provider: &str,
    user: Option<&Utf8Path>,
    scratch: &Utf8Path,
) -> Result<BTreeMap<&'static str, Utf8PathBuf>> {
    let mut out = BTreeMap::new();
    for file in FILES {
        if let Some(path) = user.map(|dir| dir.join(provider).join(file))
            && path.is_file()
        {
            out.insert(file, path);
        } else if let Some(text) = built_in(provider, file) {
            let dir = scratch.join(provider);
            std::fs::create_dir_all(&dir).with_context(|| format!("{dir}: cannot create"))?;
            let path = dir.join(file);
            std::fs::write(&path, text).with_context(|| format!("{path}: cannot write"))?;
            out.insert(file, path);
        }
    }
    if !out.contains_key(INFRASTRUCTURE) {
        bail!(
            "provider {provider} has no sample inputs built in: give them with --inputs DIR, as DIR/{provider}/{INFRASTRUCTURE} (and {IMAGES}, {CLOUD_CONFIG}, …)"
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_provider_has_samples_and_only_those() {
        let catalogue = crate::catalogue::Catalogue::builtin().expect("loads");
        let with_samples: Vec<&str> = PROVIDERS.iter().map(|(name, _)| *name).collect();
        let providers: Vec<&str> = catalogue.providers.keys().map(String::as_str).collect();
        assert_eq!(with_samples, providers);
        for (name, _) in PROVIDERS {
            for file in [INFRASTRUCTURE, INFRASTRUCTURE_SNO, IMAGES] {
                assert!(built_in(name, file).is_some(), "{name}: {file}");
            }
        }
    }

    #[test]
    fn own_inputs_win_and_a_provider_without_samples_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Utf8Path::from_path(dir.path()).expect("utf8");
        let (user, scratch) = (root.join("inputs"), root.join("scratch"));
        std::fs::create_dir_all(user.join("aws")).expect("mkdir");
        std::fs::write(user.join("aws").join(PROXY), "x").expect("write");
        let aws = files("aws", Some(&user), &scratch).expect("aws");
        assert_eq!(aws[PROXY], user.join("aws").join(PROXY));
        assert_eq!(aws[NETWORK], scratch.join("aws").join(NETWORK));
        let err = files("acme", Some(&user), &scratch).expect_err("no samples");
        assert!(
            format!("{err:#}").starts_with("provider acme has no sample inputs built in"),
            "{err}"
        );
        std::fs::create_dir_all(user.join("acme")).expect("mkdir");
        std::fs::write(user.join("acme").join(INFRASTRUCTURE), "x").expect("write");
        let acme = files("acme", Some(&user), &scratch).expect("own inputs");
        assert!(
            !acme.contains_key(IMAGES),
            "the CCCMO images.json is not a new provider's"
        );
        assert_eq!(acme[PROXY], scratch.join("acme").join(PROXY));
    }
}
