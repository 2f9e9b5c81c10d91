//! The install-config's keys matched to fields as the installer's decoder matches them.
//!
//! The installer reads `install-config.yaml` with `sigs.k8s.io/yaml` `UnmarshalStrict`
//! (`pkg/asset/installconfig/installconfig.go` @44e4d562 `loadFromFile`), which converts the YAML to a Go
//! `map[string]interface{}`, marshals that to JSON (`yaml.go` `yamlToJSONTarget` @1e5b47d3:
//! `json.Marshal` writes a map's keys sorted byte by byte) and decodes the JSON with Go's
//! `encoding/json`. For a struct, `encoding/json` takes each key of the object in turn and looks
//! for the field whose JSON name equals it exactly, else one whose name equals it under Go's
//! case folding (`decode.go` `object`: `byExactName`, then `byFoldedName[foldName(key)]`;
//! `fold.go` @499c189d: ASCII letters fold to upper case, other runes to the smallest rune of
//! their `unicode.SimpleFold` orbit, so KELVIN SIGN folds with `k` and LONG S with `s`). When two
//! keys reach the same field, both are decoded into it, in that (byte) order: a later scalar or
//! list replaces the earlier one, a later object is decoded into the earlier one (struct fields
//! and map entries it does not name are kept), a later `null` resets a pointer, slice or map.
//!
//! [`deserialize`] decodes any serde type that way from a parsed document, through
//! [`go_decoder`] with [`group`] as its key matching: every struct
//! (`deserialize_struct`, which hands over serde's list of the struct's field names) sees its
//! object's keys matched against those names, and one entry per field. Nothing is listed by
//! hand per field. Maps (`deserialize_map`) keep their keys exactly, as Go's maps do. Types
//! read through this module must not use `#[serde(flatten)]`: serde reads a flattened struct
//! through a buffered map that bypasses `deserialize_struct`.

use super::go_decoder;
use ccm_catalogue::path_error::PathError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Decodes `T` from `value` with the installer's key matching; the error carries the path of
/// the field, named as the installer names it (its JSON name, whatever case the key was in).
pub(crate) fn deserialize<T: DeserializeOwned>(value: &Value) -> Result<T, PathError> {
    go_decoder::from_value(value, group)
}

/// Go's `foldName` of one character, for comparing with the ASCII JSON names of the
/// installer's fields: only ASCII letters, KELVIN SIGN (U+212A, folds to `K`) and LONG S
/// (U+017F, folds to `S`) fold to ASCII.
fn fold(c: char) -> char {
    match c {
        '\u{212A}' => 'K',
        '\u{017F}' => 'S',
        c => c.to_ascii_uppercase(),
    }
}

/// Whether `key` equals the field name `name` under Go's folding (`bytes.EqualFold`).
pub(crate) fn fold_eq(key: &str, name: &str) -> bool {
    let mut key = key.chars().map(fold);
    let mut name = name.chars().map(fold);
    loop {
        match (key.next(), name.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// The field `key` decodes into: the one named exactly so, else the first (in declaration
/// order, as `encoding/json` builds `byFoldedName`) whose name folds equal to it.
pub(crate) fn field_for<'f>(key: &str, fields: &[&'f str]) -> Option<&'f str> {
    fields
        .iter()
        .find(|name| **name == key)
        .or_else(|| fields.iter().find(|name| fold_eq(key, name)))
        .copied()
}

/// An object's entries as `encoding/json` decodes them into a struct with the JSON names
/// `fields`: the keys in byte order, each renamed to the field it matches (keys that match
/// none keep their own name), the values of keys that reach the same field merged in that
/// order. Keeps the order in which fields are first reached.
pub(crate) fn group<'v>(
    map: &'v Map<String, Value>,
    fields: &[&'static str],
) -> Vec<(String, Cow<'v, Value>)> {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_unstable();
    let mut groups: Vec<(String, Vec<&'v Value>)> = Vec::new();
    for key in keys {
        let name = field_for(key, fields).unwrap_or(key);
        let value = &map[key.as_str()];
        match groups.iter_mut().find(|(seen, _)| seen == name) {
            Some((_, values)) => values.push(value),
            None => groups.push((name.to_string(), vec![value])),
        }
    }
    groups
        .into_iter()
        .map(|(name, values)| {
            let value = match values.as_slice() {
                [one] => Cow::Borrowed(*one),
                many => Cow::Owned(merge(many)),
            };
            (name, value)
        })
        .collect()
}

/// The values decoded one after the other into the same Go target: objects merge (their
/// entries decoded into the earlier object's), anything else replaces what came before
/// (`encoding/json` resets a slice before decoding an array into it; `null` sets a pointer,
/// slice or map to nil).
fn merge(values: &[&Value]) -> Value {
    let mut merged: Option<Value> = None;
    for value in values {
        merged = Some(match (merged, value) {
            (Some(Value::Object(mut into)), Value::Object(from)) => {
                for (key, later) in from {
                    let entry = match into.remove(key) {
                        Some(earlier) => merge(&[&earlier, later]),
                        None => later.clone(),
                    };
                    into.insert(key.clone(), entry);
                }
                Value::Object(into)
            }
            (_, value) => (*value).clone(),
        });
    }
    merged.unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Platform {
        #[serde(default)]
        region: String,
        #[serde(default)]
        user_tags: std::collections::BTreeMap<String, String>,
        #[serde(default)]
        subnets: Vec<String>,
        #[serde(default)]
        vpc: Option<Vpc>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    struct Vpc {
        #[serde(default)]
        id: String,
        #[serde(default)]
        cidr: String,
    }

    fn read(value: &Value) -> Platform {
        deserialize(value).expect("decodes")
    }

    #[test]
    fn a_key_matches_its_field_ignoring_case_as_go_folds_it() {
        assert!(fold_eq("Region", "region"));
        assert!(fold_eq("REGION", "region"));
        assert!(fold_eq("userTAGS", "userTags"));
        // KELVIN SIGN and LONG S fold with k and s in Go (unicode.SimpleFold orbits).
        assert!(fold_eq("\u{212A}ey", "key"));
        assert!(fold_eq("\u{017F}ubnets", "subnets"));
        assert!(!fold_eq("region_", "region"));
        assert!(!fold_eq("r\u{e9}gion", "region"));
        let p =
            read(&json!({"Region": "us-east-1", "UserTags": {"Team": "a"}, "VPC": {"ID": "v"}}));
        assert_eq!(p.region, "us-east-1");
        // Map keys are data, not field names: kept exactly.
        assert_eq!(p.user_tags.get("Team").map(String::as_str), Some("a"));
        assert_eq!(p.vpc.map(|v| v.id), Some("v".to_string()));
    }

    #[test]
    fn an_exact_name_wins_over_a_folded_one_and_the_first_declared_field_over_later_ones() {
        assert_eq!(
            field_for("vCenter", &["vcenter", "vCenter"]),
            Some("vCenter")
        );
        assert_eq!(
            field_for("VCENTER", &["vcenter", "vCenter"]),
            Some("vcenter")
        );
        assert_eq!(field_for("zone", &["region"]), None);
    }

    #[test]
    fn of_two_keys_for_one_field_the_later_in_byte_order_is_decoded_last() {
        // json.Marshal of the converted YAML map sorts keys byte-wise: "Region" < "region".
        assert_eq!(read(&json!({"region": "b", "Region": "a"})).region, "b");
        assert_eq!(read(&json!({"Region": "a", "REGION": "c"})).region, "a");
        // A later list replaces an earlier one (encoding/json resets the slice).
        assert_eq!(
            read(&json!({"Subnets": ["a", "b"], "subnets": ["c"]})).subnets,
            ["c"]
        );
        // A later object is decoded into the earlier one: map entries and struct fields merge.
        let p = read(&json!({
            "UserTags": {"a": "1", "b": "1"}, "userTags": {"b": "2"},
            "VPC": {"id": "v", "cidr": "10.0.0.0/16"}, "vpc": {"id": "w"},
        }));
        assert_eq!(p.user_tags.get("a").map(String::as_str), Some("1"));
        assert_eq!(p.user_tags.get("b").map(String::as_str), Some("2"));
        assert_eq!(
            p.vpc,
            Some(Vpc {
                id: "w".into(),
                cidr: "10.0.0.0/16".into()
            })
        );
        // A later null resets a pointer.
        assert_eq!(read(&json!({"VPC": {"id": "v"}, "vpc": null})).vpc, None);
    }

    #[test]
    fn unknown_keys_keep_their_name_and_errors_name_the_field_as_the_installer_does() {
        let platform = json!({"vSphere": {}, "moon": {}});
        let grouped = group(platform.as_object().expect("map"), &["aws", "vsphere"]);
        let names: Vec<&str> = grouped.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["moon", "vsphere"]);
        let err = deserialize::<Platform>(&json!({"VPC": {"CIDR": 3}})).expect_err("a number");
        assert_eq!(err.path(), "vpc.cidr");
    }
}
