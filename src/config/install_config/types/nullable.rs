//! How the install-config records read `null`: as absent, the field's default (YAML `compute:`
//! with nothing after it), as the installer's Go decoding leaves a nil slice or empty string.

use serde::{Deserialize, Deserializer};

/// `null` or absent reads as the type's default.
pub(super) fn nullable<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}
