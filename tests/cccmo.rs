//! `--cccmo-dir` and `provider import`: renders from a CCCMO checkout.

mod common;

use ccm_render::cccmo;
use ccm_render::providers::Catalogue;
use ccm_render::releases::Releases;

/// CCCMO's pkg/cloud at each release head (`<release>/pkg/cloud`), where the environment
/// names it (.ci/run sets it when the shared reference folder is there).
fn reference() -> Option<std::path::PathBuf> {
    std::env::var_os("CCM_RENDER_CCCMO_REFERENCE").map(Into::into)
}

#[test]
fn each_release_head_evaluates_to_the_catalogue_of_that_release() {
    let Some(reference) = reference() else {
        eprintln!("CCM_RENDER_CCCMO_REFERENCE is not set: nothing to compare");
        return;
    };
    let releases = Releases::builtin().expect("releases");
    let mut bad = Vec::new();
    for release in releases.all() {
        let dir = camino::Utf8PathBuf::from_path_buf(reference.join(&release.name)).expect("utf8");
        let manifests = cccmo::load(&dir, &release.name).expect("evaluates");
        let catalogue = releases
            .catalogue(release, Catalogue::builtin().expect("builtin"))
            .expect("catalogue");
        for (provider, objects) in &manifests {
            let want = &catalogue.providers[provider].manifests;
            let got: Vec<_> = objects.iter().map(|(_, o)| o.clone()).collect();
            if &got != want {
                for (i, g) in got.iter().enumerate() {
                    if want.get(i) != Some(g) {
                        bad.push(format!(
                            "{} {provider} {}\n--- got\n{}\n--- want\n{}",
                            release.name,
                            objects[i].0,
                            ccm_render::yaml::to_string(g).unwrap(),
                            want.get(i)
                                .map(|w| ccm_render::yaml::to_string(w).unwrap())
                                .unwrap_or_default()
                        ));
                    }
                }
                if got.len() != want.len() {
                    bad.push(format!(
                        "{} {provider}: {} vs {}",
                        release.name,
                        got.len(),
                        want.len()
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
