//! `render --ignition`: the render as an Ignition config fragment (spec 3.x), whose
//! `storage.files` put every file where [`crate::output::placement`] says it lands on the bootstrap
//! node, so the installer can embed it in `bootstrap.ign`. Pure: a [`Tree`] in, bytes out
//! ([`config`]); and bytes in, files by node path out ([`files_of`]) for `--check`/`--diff`
//! ([`compare`]). The file I/O is at the edge, in [`file`] (through [`crate::output`]).
//!
//! Field names and semantics: coreos/ignition docs/configuration-v3_2.md (the same for every
//! field used here in 3.1.0 to 3.4.0): `mode` is decimal, `overwrite: true` needs
//! `contents.source`, `compression` is null or `gzip`, and every file, directory and link path
//! is unique.

mod compare;
mod config;
pub(crate) mod file;
mod read;

pub(crate) use config::{Options, Version, default_version};
pub(crate) use read::files_of;

#[cfg(test)]
mod tests {
    use super::config::*;
    use super::read::*;
    use crate::output::placement;
    use crate::output::{File, Tree};
    use serde_json::Value;

    fn tree() -> Tree {
        let mut tree = Tree::default();
        let add = |tree: &mut Tree, path: &str, text: String, mode| {
            tree.files.insert(
                path.into(),
                File {
                    bytes: text.into_bytes(),
                    mode,
                },
            );
        };
        add(
            &mut tree,
            "bootstrap/pod-a.yaml",
            "kind: Pod\n".repeat(40),
            0o644,
        );
        add(&mut tree, "config/cloud.conf", "[Global]\n".into(), 0o600);
        add(&mut tree, "secrets/key", "s3cr3t".into(), 0o600);
        add(
            &mut tree,
            "manifests/cm.yaml",
            "kind: ConfigMap\n".into(),
            0o644,
        );
        tree
    }

    fn options(manifests: bool) -> Options {
        Options {
            version: Version::V3_2,
            manifests,
        }
    }

    #[test]
    fn files_land_at_their_node_paths_with_decimal_modes_root_owned_and_overwritten() {
        let bytes = config(&tree(), options(false)).expect("config");
        let value: Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(value["ignition"]["version"], "3.2.0");
        let files = value["storage"]["files"].as_array().expect("files");
        let paths: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
        assert_eq!(
            paths,
            [
                "/etc/kubernetes/bootstrap-configs/cloud.conf",
                "/etc/kubernetes/bootstrap-secrets/key",
                "/etc/kubernetes/manifests/pod-a.yaml"
            ]
        );
        assert_eq!(files[0]["mode"], 384, "0600 in decimal");
        assert_eq!(files[1]["mode"], 384);
        assert_eq!(files[2]["mode"], 420, "0644 in decimal");
        for file in files {
            assert_eq!(file["overwrite"], true);
            assert_eq!(file["user"]["id"], 0);
            assert_eq!(file["group"]["id"], 0);
        }
        let directories = value["storage"]["directories"].as_array().expect("dirs");
        assert_eq!(directories[1]["path"], "/etc/kubernetes/bootstrap-secrets");
        assert_eq!(directories[1]["mode"], 448, "0700 in decimal");
    }

    #[test]
    fn repetitive_contents_are_gzipped_short_ones_are_not_and_both_read_back() {
        let bytes = config(&tree(), options(true)).expect("config");
        let value: Value = serde_json::from_slice(&bytes).expect("JSON");
        let by_path = |p: &str| {
            value["storage"]["files"]
                .as_array()
                .expect("files")
                .iter()
                .find(|f| f["path"] == p)
                .expect("present")
                .clone()
        };
        assert_eq!(
            by_path("/etc/kubernetes/manifests/pod-a.yaml")["contents"]["compression"],
            "gzip"
        );
        assert!(
            by_path("/etc/kubernetes/bootstrap-secrets/key")["contents"]
                .get("compression")
                .is_none()
        );
        let back = files_of(&bytes).expect("parses");
        assert_eq!(back.version, "3.2.0");
        assert_eq!(back.files.len(), 4);
        for (placed, original) in placement::place_tree(&tree(), true) {
            let file = &back.files[&placed.target];
            assert_eq!(file.bytes, original, "{}", placed.target);
            assert_eq!(file.mode, placed.mode);
        }
    }

    #[test]
    fn the_same_tree_gives_the_same_bytes_and_the_version_is_the_only_difference() {
        let a = config(&tree(), options(true)).expect("config");
        assert_eq!(a, config(&tree(), options(true)).expect("config"));
        let v34 = config(
            &tree(),
            Options {
                version: Version::V3_4,
                manifests: true,
            },
        )
        .expect("config");
        assert_eq!(
            String::from_utf8(v34).expect("utf8"),
            String::from_utf8(a)
                .expect("utf8")
                .replace("\"3.2.0\"", "\"3.4.0\"")
        );
    }

    #[test]
    fn every_release_defaults_to_the_spec_its_installer_writes() {
        let releases = crate::catalogue::Releases::builtin().expect("releases");
        for release in releases.all().iter().map(|r| r.name.as_str()) {
            assert!(
                VERSION_BY_RELEASE.iter().any(|(name, _)| *name == release),
                "no Ignition version for release {release}"
            );
            assert_eq!(default_version(release), Version::V3_2);
        }
    }

    #[test]
    fn gzip_header_has_no_time_and_no_host() {
        let packed = gzip(b"abc").expect("gzip");
        assert_eq!(&packed[4..8], &[0, 0, 0, 0], "mtime 0");
        assert_eq!(packed[9], 255, "OS unknown");
    }

    #[test]
    fn data_urls_in_other_encodings_are_read() {
        assert_eq!(decode_data_url("data:,a%20b").expect("ok"), b"a b");
        assert_eq!(
            decode_data_url("data:text/plain;charset=utf-8;base64,aGk=").expect("ok"),
            b"hi"
        );
        assert!(decode_data_url("https://example.com/x").is_err());
        assert!(files_of(b"{}").is_err());
        assert!(files_of(b"not json").is_err());
    }

    #[test]
    fn an_empty_render_is_a_valid_config_with_no_storage() {
        let bytes = config(&Tree::default(), options(false)).expect("config");
        assert_eq!(
            String::from_utf8(bytes).expect("utf8"),
            "{\n  \"ignition\": {\n    \"version\": \"3.2.0\"\n  }\n}\n"
        );
    }
}
