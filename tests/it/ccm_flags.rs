//! Every rendered bootstrap pod of every provider and every release held to the command line its
//! CCM accepts (`spec.ccm` of the provider as of that release): each `--flag` one the CCM
//! registers, each `--controllers` entry a controller it knows or an alias its `main.go` passes.
//! The provider check does the same to the provider's bootstrap pods of every release when the
//! catalogue is built; this holds what `render` writes, after every adjustment, for every
//! variant. The lists are read from `assets/`: the binary leaves them out.

use crate::common::*;

use ccm_catalogue::providers::CcmCommandLine;
use ccm_catalogue::providers::command_line::{check_pod, for_release};
use ccm_render::catalogue::{Catalogue, Releases};
use std::collections::{BTreeMap, BTreeSet};

/// `spec.ccm` of every built-in provider, read from `assets/` (the binary leaves it out).
fn ccm_of_every_provider() -> BTreeMap<String, CcmCommandLine> {
    let assets = root().join("assets");
    let mut all = BTreeMap::new();
    for name in Catalogue::builtin().expect("catalogue").providers.keys() {
        let path = camino::Utf8PathBuf::try_from(assets.join(name)).expect("utf-8");
        let folder = ccm_catalogue::provider_dir::read_folder(&path).expect("readable");
        let provider = ccm_catalogue::providers::parse(&folder).expect("checks");
        let ccm = provider.spec().ccm.clone();
        all.insert(
            name.clone(),
            ccm.unwrap_or_else(|| panic!("assets/{name}/provider.yaml: no spec.ccm")),
        );
    }
    all
}

#[test]
fn every_rendered_bootstrap_pod_of_every_provider_and_release_passes_its_ccm_flags() {
    let ccm = ccm_of_every_provider();
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    let out = ccm_render(&[
        "matrix",
        "--release",
        "all",
        "--dest-dir",
        dest.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = read_tree(&dest);
    let releases = Releases::builtin().expect("releases");
    let mut checked = BTreeSet::new();
    for release in releases.all() {
        let prefix = format!("{}/", release.name);
        for (path, bytes) in tree.range(prefix.clone()..) {
            let Some(rest) = path.strip_prefix(&prefix) else {
                break;
            };
            let parts: Vec<&str> = rest.split('/').collect();
            let [provider, _variant, "bootstrap", _file] = parts[..] else {
                continue;
            };
            let command_line = for_release(&ccm[provider], Some(&release.name));
            let text = std::str::from_utf8(bytes).expect("utf-8");
            for pod in parse_all(text) {
                if let Err(e) = check_pod(&pod, &command_line) {
                    panic!("{path}: {e}");
                }
            }
            checked.insert((release.name.clone(), provider.to_string()));
        }
        for provider in ccm.keys() {
            assert!(
                checked.contains(&(release.name.clone(), provider.clone())),
                "{} {provider}: no bootstrap pod rendered",
                release.name
            );
        }
    }
}

#[test]
fn a_bootstrap_pod_with_a_flag_its_ccm_does_not_register_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let providers = dir.path().join("providers");
    let nutanix = providers.join("nutanix");
    copy_tree(&root().join("assets/nutanix"), &nutanix);
    let pod = nutanix.join("bootstrap/pod.yaml");
    let text = std::fs::read_to_string(&pod).expect("read");
    std::fs::write(
        &pod,
        text.replace(
            "--controllers=cloud-node-controller",
            "--controllers=cloud-node",
        ),
    )
    .expect("write");
    let out = ccm_render(&["provider", "check", nutanix.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "bootstrap/pod.yaml: spec.containers[0].command: --controllers: \"cloud-node\" is not in the list of controllers this CCM knows"
        ) && stderr.contains("its main.go passes no aliases"),
        "{stderr}"
    );
    std::fs::write(&pod, text.replace("--v=2", "--no-such-flag=2")).expect("write");
    let out = ccm_render(&["provider", "check", nutanix.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--no-such-flag is not a flag this CCM registers"),
        "{stderr}"
    );
}
