//! The provider catalogue: one folder per CCM under `assets/`, compiled into the binary.
//!
//! A provider is data: `provider.yaml` (a descriptor: the platform it serves, images.json keys,
//! `--cloud-provider` name, where the TLS flags go, the cloud config transform) and
//! `manifests/*.yaml`, plain Kubernetes objects as CCCMO applies them with its defaults in place.
//! The render step adjusts those parsed objects; nothing here is text-templated.
//!
//! One file per concept:
//! * [`descriptor`]: the types (descriptor, provider, shared objects), plain data;
//! * [`parse`](mod@parse): one folder of text to a checked [`Provider`];
//! * [`check`]: the rules, for a descriptor, an object and a set of providers;
//! * [`catalogue`]: the providers of one run and the choice of the one that renders;
//! * [`compiled`]: the build-time pipeline that compiles `assets/` into the binary (and how
//!   to compile more checked data the same way).
//!
//! A provider is checked by one piece of code wherever it comes from: build.rs compiles
//! `assets/` through [`parse()`](parse::parse) (so a broken built-in fails the build), and
//! `--provider-dir` and `provider check` parse folders on disk
//! ([`crate::inputs::provider_dir`]) through the same function at run time.

mod catalogue;
mod check;
pub mod compiled;
mod descriptor;
mod parse;

pub use catalogue::{Catalogue, Selection, builtin_table};
pub use descriptor::*;
pub use parse::{Parsed, check_parsed, one_object, parse, parse_common};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::infrastructure::Infrastructure;
    use crate::inputs::provider_dir::FolderText;

    /// The providers of `assets/` as `--provider-dir` would read and parse them, at run time
    /// (unit tests run in the package's folder, so origins read `assets/<name>`).
    fn parsed_assets() -> Catalogue {
        let folders = crate::inputs::provider_dir::read_folders(camino::Utf8Path::new("assets"))
            .expect("assets/ reads");
        let mut providers = std::collections::BTreeMap::new();
        let mut common = None;
        for folder in &folders {
            if folder.name() == compiled::COMMON {
                common = Some(parse::parse_common(folder).expect("common parses"));
            } else if folder.name() == compiled::RELEASES {
                // Not a provider: crate::releases (compiled_entries_are_what_compiling_assets_now_gives
                // covers its entries).
            } else {
                let provider = parse(folder).expect("parses");
                providers.insert(provider.name().to_string(), provider);
            }
        }
        Catalogue {
            providers,
            common: common.expect("assets/common"),
        }
    }

    #[test]
    fn compiled_catalogue_equals_a_run_time_parse_of_assets() {
        assert_eq!(Catalogue::builtin().expect("decodes"), parsed_assets());
    }

    #[test]
    fn compiled_entries_are_what_compiling_assets_now_gives() {
        let now = compiled::compile(camino::Utf8Path::new("assets")).expect("compiles");
        let now: Vec<(&str, &[u8])> = now.entries().collect();
        assert_eq!(now, catalogue::embedded_entries());
    }

    #[test]
    fn builtin_providers_start_with_their_platform_so_builtin_for_finds_them() {
        for provider in Catalogue::builtin().expect("decodes").providers.values() {
            let platform = &provider.spec().platform;
            assert!(
                platform == EXTERNAL || provider.name().starts_with(&platform.to_ascii_lowercase()),
                "{}: rename the folder to start with {platform} in lower case",
                provider.origin
            );
        }
    }

    #[test]
    fn builtin_catalogue_has_the_nine_cccmo_platforms_and_three_external_ones() {
        let catalogue = Catalogue::builtin().expect("built-in providers load");
        let names: Vec<&str> = catalogue.providers.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "alicloud",
                "aws",
                "azure",
                "azurestackhub",
                "digitalocean",
                "gcp",
                "ibmcloud",
                "nutanix",
                "oci",
                "openstack",
                "powervs",
                "vsphere"
            ]
        );
        let external: Vec<&str> = catalogue
            .providers
            .values()
            .filter(|p| p.spec().platform == EXTERNAL)
            .map(Provider::name)
            .collect();
        assert_eq!(external, ["alicloud", "digitalocean", "oci"]);
    }

    fn external_infra(name: &str, state: &str) -> Infrastructure {
        let raw = serde_json::json!({
            "spec": {"platformSpec": {"type": "External", "external": {"platformName": name}}},
            "status": {"platformStatus": {"type": "External",
                "external": {"cloudControllerManager": {"state": state}}}}
        });
        crate::inputs::infrastructure::from_value(raw, camino::Utf8Path::new("i.yaml"))
            .expect("valid")
    }

    #[test]
    fn external_is_selected_by_platform_name_only_when_the_ccm_is_external() {
        let catalogue = Catalogue::builtin().expect("loads");
        let pick =
            |name: &str, state: &str| match catalogue.select_for(&external_infra(name, state)) {
                Selection::Provider(p) => p.name().to_string(),
                Selection::NoCcm(r) => r,
            };
        assert_eq!(pick("oci", "External"), "oci");
        assert_eq!(pick("Oci", "External"), "oci");
        assert_eq!(pick("AlibabaCloud", "External"), "alicloud");
        assert_eq!(pick("DigitalOcean", "External"), "digitalocean");
        assert!(pick("oci", "None").contains("state is None: the cluster does not expect a CCM"));
        assert!(pick("oci", "").contains("state is empty"));
        let unknown = pick("Unknown", "External");
        assert!(
            unknown.contains("\"Unknown\"") && unknown.contains("--provider-dir"),
            "{unknown}"
        );
    }

    fn scaffold(name: &str) -> FolderText {
        crate::scaffold::files(name, &format!("dir/{name}"))
    }

    #[test]
    fn a_folder_named_like_a_built_in_overrides_it_and_a_clash_is_refused() {
        let mut catalogue = Catalogue::builtin().expect("loads");
        let mut folder = scaffold("oci");
        // The scaffold serves platformName "oci" too, so it replaces the built-in oci.
        let provider = parse(&folder).expect("parses");
        let notes = catalogue.add(vec![provider]).expect("override");
        assert_eq!(
            notes,
            ["dir/oci: overrides the provider oci from assets/oci"]
        );
        assert_eq!(catalogue.providers["oci"].origin, "dir/oci");

        let mut catalogue = Catalogue::builtin().expect("loads");
        folder = scaffold("oracle");
        let text = folder.files["provider.yaml"]
            .replace("externalPlatformName: oracle", "externalPlatformName: OCI");
        folder.files.insert("provider.yaml".into(), text);
        let err = catalogue
            .add(vec![parse(&folder).expect("parses")])
            .expect_err("clash")
            .to_string();
        assert!(
            err.starts_with(
                "dir/oracle/provider.yaml: spec: serves what assets/oci already serves"
            ),
            "{err}"
        );
    }

    #[test]
    fn descriptor_errors_name_the_file_and_the_field() {
        let cases = [
            (
                "platform: External",
                "platform: Moon",
                "spec.platform: unknown platform \"Moon\"",
            ),
            (
                "platform: External",
                "platform: AWS",
                "spec.externalPlatformName: only for platform External",
            ),
            (
                "resourceName: acme-cloud-controller-manager",
                "resourceName: Acme",
                "spec.resourceName:",
            ),
            ("kind: Provider", "kind: Thing", "kind: must be Provider"),
            (
                "  images:\n",
                "  images: 3\n  x:\n",
                "spec.images: invalid type",
            ),
            (
                "  images:\n",
                "  defaultImages:\n    ccm: quay.io/acme/ccm:v1\n  images:\n",
                "spec.defaultImages: \"ccm\": not a container of spec.images",
            ),
            (
                "  images:\n",
                "  defaultImages:\n    cloud-controller-manager: quay.io/acme/ccm\n  images:\n",
                "spec.defaultImages: \"cloud-controller-manager\": \"quay.io/acme/ccm\" names no tag or digest",
            ),
            (
                "    credentials:\n",
                "    credentials:\n      postInstallSecret: acme\n",
                "spec.bootstrap.credentials.postInstallSecret: \"acme\" copies the keys of spec.bootstrap.credentials.files, which names none",
            ),
        ];
        for (from, to, want) in cases {
            let mut folder = scaffold("acme");
            let text = folder.files["provider.yaml"].replacen(from, to, 1);
            folder.files.insert("provider.yaml".into(), text);
            let err = parse(&folder).expect_err(want).to_string();
            assert!(
                err.starts_with(&format!("dir/acme/provider.yaml: {want}")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_missing_descriptor_and_a_stray_folder_are_named() {
        let mut folder = scaffold("acme");
        folder.files.remove("provider.yaml");
        let err = parse(&folder).expect_err("no descriptor").to_string();
        assert_eq!(err, "dir/acme/provider.yaml: is missing");
        let mut folder = scaffold("acme");
        folder
            .files
            .insert("templates/x.yaml".into(), "a: 1".into());
        let err = parse(&folder).expect_err("stray").to_string();
        assert!(
            err.starts_with("dir/acme/templates/x.yaml: not part of a provider"),
            "{err}"
        );
    }

    #[test]
    fn azure_stack_hub_is_selected_by_cloud_name() {
        let catalogue = Catalogue::builtin().expect("loads");
        let pick = |cloud: &str| match catalogue.select("Azure", cloud) {
            Selection::Provider(p) => p.name().to_string(),
            Selection::NoCcm(r) => r,
        };
        assert_eq!(pick("AzureStackCloud"), "azurestackhub");
        assert_eq!(pick("AzurePublicCloud"), "azure");
        assert_eq!(pick(""), "azure");
    }

    #[test]
    fn platform_without_provider_has_no_ccm() {
        let catalogue = Catalogue::builtin().expect("loads");
        assert!(matches!(
            catalogue.select("BareMetal", ""),
            Selection::NoCcm(_)
        ));
    }
}
