//! `--images` given the release payload's `image-references` ImageStream (what
//! `oc adm release extract` writes): every platform renders the same tree as from the
//! images.json it stands for, and a tag the render needs but the stream lacks is named.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// An ImageStream holding CCCMO's images.json (testdata/conformance/images.json) the way a
/// release does: CCCMO's placeholder for each key is `quay.io/openshift/origin-<tag>`, and the
/// release has a tag `<tag>` with the image. Other components' tags come first, as in a
/// release. No `metadata.name`: CCCMO's own `manifests/image-references` has none, so the
/// render is the default release's, as from images.json.
fn image_stream_for_conformance_images(skip_tag: Option<&str>) -> Value {
    let text = std::fs::read_to_string(conformance("images.json")).expect("images.json");
    let images: BTreeMap<String, String> = serde_json::from_str(&text).expect("JSON");
    let mut tags = vec![
        json!({"name": "cli", "from": {"kind": "DockerImage", "name": "quay.io/r/cli@sha256:2222222222222222222222222222222222222222222222222222222222222222"}}),
        json!({"name": "machine-config-operator", "annotations": {"io.openshift.build.source-location": "https://github.com/openshift/machine-config-operator"}, "from": {"kind": "DockerImage", "name": "quay.io/r/mco:1"}}),
    ];
    for image in images.values() {
        let tag = image
            .strip_prefix("quay.io/openshift/origin-")
            .expect("a CCCMO placeholder");
        if Some(tag) != skip_tag {
            tags.push(json!({"name": tag, "from": {"kind": "DockerImage", "name": image}}));
        }
    }
    json!({
        "kind": "ImageStream",
        "apiVersion": "image.openshift.io/v1",
        "metadata": {"creationTimestamp": null},
        "spec": {"lookupPolicy": {"local": false}, "tags": tags},
    })
}

fn render(platform: &str, images: &Path, dest: &Path) -> std::process::Output {
    let s = |p: &Path| p.to_str().expect("utf8").to_string();
    let args = [
        "render".to_string(),
        "--infrastructure".into(),
        s(&conformance(&format!("{platform}/infrastructure.yaml"))),
        "--images".into(),
        s(images),
        "--cloud-config".into(),
        s(&conformance(&format!(
            "{platform}/cloud-provider-config.yaml"
        ))),
        "--network".into(),
        s(&conformance("network.yaml")),
        "--dest-dir".into(),
        s(dest),
    ];
    ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn every_platform_renders_the_same_from_the_image_stream_as_from_images_json() {
    let work = tempfile::tempdir().expect("tempdir");
    let stream = work.path().join("image-references");
    // JSON, as `oc adm release extract` writes the file.
    let text = serde_json::to_string_pretty(&image_stream_for_conformance_images(None))
        .expect("serialisable");
    std::fs::write(&stream, text).expect("write");
    for platform in PLATFORMS {
        let from_json = work.path().join(format!("{platform}-json"));
        let out = render(platform, &conformance("images.json"), &from_json);
        assert_eq!(out.status.code(), Some(0), "{platform}: {}", stderr(&out));
        let from_stream = work.path().join(format!("{platform}-stream"));
        let out = render(platform, &stream, &from_stream);
        assert_eq!(out.status.code(), Some(0), "{platform}: {}", stderr(&out));
        let tree = read_tree(&from_stream);
        assert!(!tree.is_empty(), "{platform}");
        assert_eq!(tree, read_tree(&from_json), "{platform}");
    }
}

#[test]
fn a_tag_the_platform_needs_is_named_when_the_stream_lacks_it() {
    let work = tempfile::tempdir().expect("tempdir");
    let stream = work.path().join("image-references");
    let text = ccm_catalogue::yaml::to_string(&image_stream_for_conformance_images(Some(
        "azure-cloud-node-manager",
    )))
    .expect("serialisable");
    std::fs::write(&stream, text).expect("write");
    let dest = work.path().join("out");
    std::fs::create_dir(&dest).expect("mkdir");
    assert_refused_untouched(
        &dest,
        || render("azure", &stream, &dest),
        "(spec.tags): no tag azure-cloud-node-manager (images.json key \"cloudNodeManagerAzure\"), which container cloud-node-manager of the azure provider needs",
    );
}
