//! The catalogue of one run: the built-in providers, compiled into the binary by build.rs (see
//! [`ccm_catalogue::compiled`]), plus any `--provider-dir` folders, and the choice of the
//! provider that renders an Infrastructure.

use super::builtin::builtin_table;
use crate::inputs::infrastructure::{CcmState, Infrastructure};
use anyhow::Result;
use ccm_catalogue::compiled::{self, ProviderEntry, ProviderObjects};
use ccm_catalogue::platform::Platform;
use ccm_catalogue::providers::check::check_unambiguous;
use ccm_catalogue::providers::{Common, Provider};
use std::collections::BTreeMap;

/// All providers known to this run: the built-in ones and any `--provider-dir` folders.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    /// Providers by name.
    pub providers: BTreeMap<String, Provider>,
    /// Shared objects.
    pub(crate) common: Common,
}

/// What the catalogue says about a platform.
#[derive(Debug)]
pub enum Selection<'a> {
    /// This provider renders it.
    Provider(&'a Provider),
    /// Nothing to render; the reason says why.
    NoCcm(NoCcm),
}

/// Why a platform gets no CCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoCcm {
    /// No provider serves the platform.
    Platform(Platform),
    /// An External Infrastructure whose `cloudControllerManager.state` is not `External`.
    NotExpected(CcmState),
    /// An External Infrastructure whose platform name no provider serves.
    UnservedExternal {
        /// `spec.platformSpec.external.platformName`.
        name: String,
        /// The names the providers serve, sorted.
        known: Vec<String>,
    },
}

impl std::fmt::Display for NoCcm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Platform(platform) => write!(
                f,
                "platform {platform} has no cloud controller manager that ccm-render renders"
            ),
            Self::NotExpected(state) => write!(
                f,
                "platform External: status.platformStatus.external.cloudControllerManager.state is {}: the cluster does not expect a CCM",
                if *state == CcmState::None {
                    "None"
                } else {
                    "empty"
                }
            ),
            Self::UnservedExternal { name, known } => write!(
                f,
                "platform External: no provider serves spec.platformSpec.external.platformName {name:?} (known: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ),
        }
    }
}

impl Catalogue {
    /// The providers built into the binary, every one of them decoded.
    pub fn builtin() -> Result<Self> {
        let table = builtin_table();
        let mut providers = BTreeMap::new();
        for key in table.keys(compiled::PROVIDER) {
            let name = &key[compiled::PROVIDER.len()..];
            providers.insert(name.to_string(), builtin_provider(&table, name, true)?);
        }
        Ok(Self {
            providers,
            common: table.get(compiled::COMMON)?,
        })
    }

    /// The built-in providers a render of `infra` needs: the descriptors of the candidates,
    /// then the objects of the chosen provider only, with the same selection as
    /// [`Catalogue::select_for`]. Candidates are the providers whose name starts with the
    /// platform in lower case (a rule every built-in follows; a unit test keeps it so), or every
    /// provider for External, which is selected by descriptor.
    pub fn builtin_for(infra: &Infrastructure) -> Result<Self> {
        Self::builtin_for_keys(infra, |_| None)
    }

    /// [`Catalogue::builtin_for`], decoding the chosen provider from the entries `keys` names
    /// for it (descriptor key, objects key) when it names any: how an older release's provider
    /// is decoded as cheaply as the newest's (`ccm_catalogue::releases`).
    pub(crate) fn builtin_for_keys(
        infra: &Infrastructure,
        keys: impl Fn(&str) -> Option<(String, String)>,
    ) -> Result<Self> {
        let table = builtin_table();
        let platforms: BTreeMap<String, Platform> = table.get(compiled::PROVIDER_PLATFORMS)?;
        let mut light = BTreeMap::new();
        for (name, platform) in platforms {
            if infra.platform == Platform::External || platform == infra.platform {
                let provider = builtin_provider(&table, &name, false)?;
                light.insert(name, provider);
            }
        }
        let mut catalogue = Self {
            providers: light,
            common: table.get(compiled::COMMON)?,
        };
        let chosen = match catalogue.select_for(infra) {
            Selection::Provider(provider) => Some(provider.name().to_string()),
            Selection::NoCcm(_) => None,
        };
        // Only the chosen provider is decoded whole and kept; with none chosen, the
        // descriptors stay so that "no provider" messages list what exists.
        if let Some(name) = chosen {
            let full = match keys(&name) {
                Some((descriptor, objects)) => {
                    let entry: ProviderEntry = table.get(&descriptor)?;
                    let objects = table.objects(&objects)?;
                    Provider {
                        descriptor: entry.descriptor,
                        manifests: objects.manifests,
                        bootstrap: objects.bootstrap,
                        origin: entry.origin,
                    }
                }
                // The descriptor decoded above, with its objects added.
                None => match catalogue.providers.remove(&name) {
                    Some(light) => {
                        let objects = table.objects(&format!("{}{name}", compiled::OBJECTS))?;
                        Provider {
                            manifests: objects.manifests,
                            bootstrap: objects.bootstrap,
                            ..light
                        }
                    }
                    None => builtin_provider(&table, &name, true)?,
                },
            };
            catalogue.providers = BTreeMap::from([(name, full)]);
        }
        Ok(catalogue)
    }

    /// Adds providers read from `--provider-dir` (already parsed with [`parse`]). One named
    /// like a provider already in the catalogue replaces it; the returned notes say so. A new
    /// provider that serves what another provider serves is an error: which one renders must
    /// never depend on names sorting.
    pub(crate) fn add(&mut self, added: Vec<Provider>) -> Result<Vec<String>> {
        let mut notes = Vec::new();
        for provider in added {
            let name = provider.name().to_string();
            if let Some(old) = self.providers.get(&name) {
                notes.push(format!(
                    "{}: overrides the provider {name} from {}",
                    provider.origin, old.origin
                ));
            }
            self.providers.insert(name, provider);
        }
        check_unambiguous(self.providers.values())?;
        Ok(notes)
    }

    /// Picks the provider for an Infrastructure's platform (CCCMO pkg/cloud/cloud.go
    /// `getAssetsConstructor`): by `platformStatus.type`, and for Azure by cloud name, the
    /// provider that names the cloud winning over the one that does not.
    pub fn select(&self, platform: Platform, azure_cloud_name: &str) -> Selection<'_> {
        let matching: Vec<&Provider> = self
            .providers
            .values()
            .filter(|p| p.spec().platform == platform)
            .filter(|p| {
                p.spec()
                    .azure_cloud_name
                    .as_deref()
                    .is_none_or(|c| c == azure_cloud_name)
            })
            .collect();
        if let Some(specific) = matching
            .iter()
            .find(|p| p.spec().azure_cloud_name.is_some())
        {
            return Selection::Provider(specific);
        }
        if let Some(any) = matching.first() {
            return Selection::Provider(any);
        }
        Selection::NoCcm(NoCcm::Platform(platform))
    }

    /// Picks the provider for an Infrastructure. `External` is ccm-render's own rule (CCCMO
    /// renders nothing for External: the user brings the CCM): nothing unless
    /// `status.platformStatus.external.cloudControllerManager.state` is `External` (the
    /// installer's `platform.external.cloudControllerManager: External`), then the provider whose
    /// `externalPlatformName` equals `spec.platformSpec.external.platformName`, ignoring case
    /// (the field is free text that the installer copies as written).
    pub(crate) fn select_for(&self, infra: &Infrastructure) -> Selection<'_> {
        if infra.platform != Platform::External {
            return self.select(infra.platform, &infra.azure_cloud_name);
        }
        if infra.external_ccm_state != CcmState::External {
            return Selection::NoCcm(NoCcm::NotExpected(infra.external_ccm_state));
        }
        let name = &infra.external_platform_name;
        if let Some(provider) = self
            .providers
            .values()
            .find(|p| p.spec().platform == Platform::External && p.serves_external(name))
        {
            return Selection::Provider(provider);
        }
        let mut known: Vec<String> = self
            .providers
            .values()
            .filter_map(|p| p.spec().external_platform_name.clone())
            .collect();
        known.sort_unstable();
        Selection::NoCcm(NoCcm::UnservedExternal {
            name: name.clone(),
            known,
        })
    }
}

/// One built-in provider, with its objects when `objects` is true.
fn builtin_provider(table: &compiled::Table<'_>, name: &str, objects: bool) -> Result<Provider> {
    let entry: ProviderEntry = table.get(&format!("{}{name}", compiled::PROVIDER))?;
    let ProviderObjects {
        manifests,
        bootstrap,
    } = if objects {
        table.objects(&format!("{}{name}", compiled::OBJECTS))?
    } else {
        ProviderObjects::default()
    };
    Ok(Provider {
        descriptor: entry.descriptor,
        manifests,
        bootstrap,
        origin: entry.origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::infrastructure::Infrastructure;
    use ccm_catalogue::provider_dir::FolderText;
    use ccm_catalogue::providers::parse;

    /// The providers of `assets/` as `--provider-dir` would read and parse them, at run time
    /// (unit tests run in the package's folder, so origins read `assets/<name>`).
    fn parsed_assets() -> Catalogue {
        let folders = ccm_catalogue::provider_dir::read_folders(camino::Utf8Path::new("assets"))
            .expect("assets/ reads");
        let mut providers = std::collections::BTreeMap::new();
        let mut common = None;
        for folder in &folders {
            if folder.name() == compiled::COMMON {
                common =
                    Some(ccm_catalogue::providers::parse_common(folder).expect("common parses"));
            } else if folder.name() == compiled::RELEASES
                || folder.name() == ccm_catalogue::hosted::HOSTED
            {
                // Not a provider: ccm_catalogue::releases (compiled_entries_are_what_compiling_assets_now_gives
                // covers its entries).
            } else {
                let mut provider = parse(folder).expect("parses");
                // The binary leaves out the CCM's command line, which only the check reads.
                provider.descriptor.spec.ccm = None;
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
        assert_eq!(now, super::super::builtin::embedded_entries());
    }

    #[test]
    fn the_platform_index_names_every_builtin_provider_with_its_platform() {
        let table = builtin_table();
        let index: BTreeMap<String, Platform> =
            table.get(compiled::PROVIDER_PLATFORMS).expect("decodes");
        let builtin: BTreeMap<String, Platform> = Catalogue::builtin()
            .expect("decodes")
            .providers
            .values()
            .map(|p| (p.name().to_string(), p.spec().platform))
            .collect();
        assert_eq!(index, builtin);
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
            .filter(|p| p.spec().platform == Platform::External)
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
                Selection::NoCcm(r) => r.to_string(),
            };
        assert_eq!(pick("oci", "External"), "oci");
        assert_eq!(pick("Oci", "External"), "oci");
        assert_eq!(pick("AlibabaCloud", "External"), "alicloud");
        assert_eq!(pick("DigitalOcean", "External"), "digitalocean");
        assert!(pick("oci", "None").contains("state is None: the cluster does not expect a CCM"));
        assert!(pick("oci", "").contains("state is empty"));
        let unknown = pick("Unknown", "External");
        assert!(
            unknown.contains("\"Unknown\"")
                && unknown.contains("(known: alibabacloud, digitalocean, oci)"),
            "{unknown}"
        );
    }

    fn scaffold(name: &str) -> FolderText {
        crate::commands::scaffold::files(name, &format!("dir/{name}"))
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
        let err = format!(
            "{:#}",
            catalogue
                .add(vec![parse(&folder).expect("parses")])
                .expect_err("clash")
        );
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
            let err = format!("{:#}", parse(&folder).expect_err(want));
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
        let err = format!("{:#}", parse(&folder).expect_err("no descriptor"));
        assert_eq!(err, "dir/acme/provider.yaml: is missing");
        let mut folder = scaffold("acme");
        folder
            .files
            .insert("templates/x.yaml".into(), "a: 1".into());
        let err = format!("{:#}", parse(&folder).expect_err("stray"));
        assert!(
            err.starts_with("dir/acme/templates/x.yaml: not part of a provider"),
            "{err}"
        );
    }

    #[test]
    fn azure_stack_hub_is_selected_by_cloud_name() {
        let catalogue = Catalogue::builtin().expect("loads");
        let pick = |cloud: &str| match catalogue.select(Platform::Azure, cloud) {
            Selection::Provider(p) => p.name().to_string(),
            Selection::NoCcm(r) => r.to_string(),
        };
        assert_eq!(pick("AzureStackCloud"), "azurestackhub");
        assert_eq!(pick("AzurePublicCloud"), "azure");
        assert_eq!(pick(""), "azure");
    }

    #[test]
    fn platform_without_provider_has_no_ccm() {
        let catalogue = Catalogue::builtin().expect("loads");
        assert!(matches!(
            catalogue.select(Platform::BareMetal, ""),
            Selection::NoCcm(_)
        ));
    }
}
