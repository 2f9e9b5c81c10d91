//! `--images` of a hosted render: the release payload's `image-references` ImageStream
//! (`image.openshift.io/v1`), every tag by name, read by the same reader as a standalone
//! render's (`images/image_stream.rs`), which keeps only CCCMO's tags. HyperShift's release image provider looks the
//! component images up by these names (`aws-cloud-controller-manager`, `token-minter`, ...).

use super::{object_from_text, read_text};
use anyhow::Result;
use camino::Utf8Path;
use std::collections::BTreeMap;

/// The payload's images by tag name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PayloadImages {
    /// Where they came from, for messages.
    pub(crate) origin: String,
    /// The release version the stream names (`metadata.name`), when it has one.
    pub(crate) release: Option<String>,
    /// Tag name to image.
    pub(crate) tags: BTreeMap<String, String>,
}

impl PayloadImages {
    /// The image of a tag, when the payload has it.
    pub(crate) fn get(&self, tag: &str) -> Option<&str> {
        self.tags.get(tag).map(String::as_str)
    }
}

/// Reads the ImageStream.
pub(crate) fn load(path: &Utf8Path) -> Result<PayloadImages> {
    parse(&read_text(path)?, path)
}

/// [`load`] on text already read.
pub(crate) fn parse(text: &str, path: &Utf8Path) -> Result<PayloadImages> {
    let stream = object_from_text(
        text,
        path,
        "ImageStream",
        "image.openshift.io",
        &["v1"],
        &[],
    )?;
    let parsed = super::images::image_stream::read_tags(&stream, path, |tag| Some(tag))?;
    Ok(PayloadImages {
        origin: format!("{path} (spec.tags)"),
        release: parsed.release,
        tags: parsed.entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_is_read_by_name_and_a_bad_image_names_the_tag() {
        let text = "apiVersion: image.openshift.io/v1\nkind: ImageStream\nmetadata: {name: 4.19.0}\nspec:\n  tags:\n  - {name: token-minter, from: {kind: DockerImage, name: quay.io/h/h:1}}\n";
        let images = parse(text, "i.yaml".into()).expect("parses");
        assert_eq!(images.get("token-minter"), Some("quay.io/h/h:1"));
        assert_eq!(images.release.as_deref(), Some("4.19.0"));
        let err = format!(
            "{:#}",
            parse(
                &text.replace("quay.io/h/h:1", "not an image!"),
                "i.yaml".into(),
            )
            .expect_err("bad image")
        );
        assert!(
            err.starts_with("i.yaml: spec.tags[0] (token-minter): from.name:"),
            "{err}"
        );
        // The standalone reader's checks hold here too: it is the same reader.
        let err = format!(
            "{:#}",
            parse(
                &text.replace("kind: DockerImage", "kind: ImageStreamTag"),
                "i.yaml".into(),
            )
            .expect_err("not a pull spec")
        );
        assert_eq!(
            err,
            "i.yaml: spec.tags[0] (token-minter): from.kind: \"ImageStreamTag\" is not DockerImage"
        );
    }
}
