//! The catalogue of one run: the built-in providers, compiled into the binary by build.rs (see
//! [`super::compiled`]), plus any `--provider-dir` folders, and the choice of the provider that
//! renders an Infrastructure.

use super::check::check_unambiguous;
use super::compiled::{self, ProviderEntry, ProviderObjects};
use super::descriptor::{Common, EXTERNAL, Provider};
use crate::inputs::infrastructure::Infrastructure;
use anyhow::Result;
use std::collections::BTreeMap;

/// What build.rs compiled: `pub static ENTRIES: &[(&str, &[u8])]`, sorted by key.
mod table {
    include!(concat!(env!("OUT_DIR"), "/compiled.rs"));
}

/// All providers known to this run: the built-in ones and any `--provider-dir` folders.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    /// Providers by name.
    pub providers: BTreeMap<String, Provider>,
    /// Shared objects.
    pub common: Common,
}

/// What the catalogue says about a platform.
#[derive(Debug)]
pub enum Selection<'a> {
    /// This provider renders it.
    Provider(&'a Provider),
    /// Nothing to render; the reason says why.
    NoCcm(String),
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
    /// is decoded as cheaply as the newest's (`crate::releases`).
    pub fn builtin_for_keys(
        infra: &Infrastructure,
        keys: impl Fn(&str) -> Option<(String, String)>,
    ) -> Result<Self> {
        let table = builtin_table();
        let prefix = infra.platform.to_ascii_lowercase();
        let mut light = BTreeMap::new();
        for key in table.keys(compiled::PROVIDER) {
            let name = &key[compiled::PROVIDER.len()..];
            if infra.platform == EXTERNAL || name.starts_with(&prefix) {
                light.insert(name.to_string(), builtin_provider(&table, name, false)?);
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
                    let objects: ProviderObjects = table.get(&objects)?;
                    Provider {
                        descriptor: entry.descriptor,
                        manifests: objects.manifests,
                        bootstrap: objects.bootstrap,
                        origin: entry.origin,
                    }
                }
                None => builtin_provider(&table, &name, true)?,
            };
            catalogue.providers = BTreeMap::from([(name, full)]);
        }
        Ok(catalogue)
    }

    /// Adds providers read from `--provider-dir` (already parsed with [`parse`]). One named
    /// like a provider already in the catalogue replaces it; the returned notes say so. A new
    /// provider that serves what another provider serves is an error: which one renders must
    /// never depend on names sorting.
    pub fn add(&mut self, added: Vec<Provider>) -> Result<Vec<String>> {
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
    pub fn select(&self, platform: &str, azure_cloud_name: &str) -> Selection<'_> {
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
        Selection::NoCcm(format!(
            "platform {platform} has no cloud controller manager that ccm-render renders"
        ))
    }

    /// Picks the provider for an Infrastructure. `External` is ccm-render's own rule (CCCMO
    /// renders nothing for External: the user brings the CCM): nothing unless
    /// `status.platformStatus.external.cloudControllerManager.state` is `External` (the
    /// installer's `platform.external.cloudControllerManager: External`), then the provider whose
    /// `externalPlatformName` equals `spec.platformSpec.external.platformName`, ignoring case
    /// (the field is free text that the installer copies as written).
    pub fn select_for(&self, infra: &Infrastructure) -> Selection<'_> {
        if infra.platform != EXTERNAL {
            return self.select(&infra.platform, &infra.azure_cloud_name);
        }
        if infra.external_ccm_state != EXTERNAL {
            let state = if infra.external_ccm_state.is_empty() {
                "empty"
            } else {
                infra.external_ccm_state.as_str()
            };
            return Selection::NoCcm(format!(
                "platform External: status.platformStatus.external.cloudControllerManager.state is {state}: the cluster does not expect a CCM"
            ));
        }
        let name = &infra.external_platform_name;
        if let Some(provider) = self
            .providers
            .values()
            .find(|p| p.spec().platform == EXTERNAL && p.serves_external(name))
        {
            return Selection::Provider(provider);
        }
        let mut known: Vec<&str> = self
            .providers
            .values()
            .filter_map(|p| p.spec().external_platform_name.as_deref())
            .collect();
        known.sort_unstable();
        Selection::NoCcm(format!(
            "platform External: no provider serves spec.platformSpec.external.platformName {name:?} (known: {}); write one (ccm-render provider new) and pass its folder with --provider-dir",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    }
}

/// The compiled table build.rs wrote (the releases of `crate::releases` are in it too).
pub fn builtin_table() -> compiled::Table<'static> {
    compiled::Table::new(table::ENTRIES)
}

/// The embedded entries as they are, for the test that they are up to date.
#[cfg(test)]
pub(super) fn embedded_entries() -> Vec<(&'static str, &'static [u8])> {
    table::ENTRIES.to_vec()
}

/// One built-in provider, with its objects when `objects` is true.
fn builtin_provider(table: &compiled::Table<'_>, name: &str, objects: bool) -> Result<Provider> {
    let entry: ProviderEntry = table.get(&format!("{}{name}", compiled::PROVIDER))?;
    let ProviderObjects {
        manifests,
        bootstrap,
    } = if objects {
        table.get(&format!("{}{name}", compiled::OBJECTS))?
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
